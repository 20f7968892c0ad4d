//===- LinalgInterpreter.cpp - Reference evaluation of linalg -------------===//
//
// The function walker: binds the arguments, evaluates the ops of the body in
// order (dispatching by op family), and collects what func.return returns.
// Shares nothing with the tile path, on purpose: it is the independent
// reference tile programs are checked against.
//
// Scope: a single-block func.func on statically shaped tensors of f16, bf16,
// f32, f64 or i1 (and scalars). Ops: every linalg structured op through the
// LinalgOp interface (indexing maps linear in the loop dimensions, bodies of
// arith / math ops and linalg.index, see ScalarProgram.cpp), linalg.softmax,
// arith.constant (scalar and dense), scalar arith / math ops, and tensor.empty
// / cast / expand_shape / collapse_shape / extract_slice / insert_slice /
// concat / extract / insert / from_elements / splat. Anything else, and any
// dynamic shape, is an error on the op, and the evaluation fails.
//
// Precision::F64 keeps every value in double; F64Casts too, but for the
// body's conversions to a float type (truncf, sitofp, uitofp), which round to
// their result type as a kernel's do. Precision::F32 rounds each
// value an op produces to its declared type (f16 stays f16, f32 arithmetic is
// f32), including values inside linalg bodies, and rounds arguments to their
// declared types on entry; contractions accumulate in double and round once
// per output element (see Contraction.h).
//
// Integer scalars (index, i1, iN from linalg.index and comparisons) are held
// exactly as doubles; iN arithmetic does not wrap around at N bits.
//
//===----------------------------------------------------------------------===//

#include "TileDialect/Reference/LinalgInterpreter.h"
#include "TileDialect/Support/HostMemory.h"

#include "Evaluators.h"
#include "ScalarProgram.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::reference;

/// Checks that `type` is one the evaluator can hold: a static tensor of
/// f16/bf16/f32/f64/i1, or a scalar. `what` names the value for the
/// diagnostic.
static LogicalResult checkType(Operation *op, Type type, const Twine &what) {
  if (type.isIntOrIndexOrFloat())
    return success();
  auto tensorType = dyn_cast<RankedTensorType>(type);
  if (!tensorType)
    return op->emitOpError() << what << " has type " << type
                             << ", which the reference evaluator does not "
                                "support (only ranked tensors and scalars)";
  if (!tensorType.hasStaticShape())
    return op->emitOpError() << what << " has dynamic shape in type " << type
                             << "; the reference evaluator supports static "
                                "shapes only";
  if (!elementKindOf(tensorType.getElementType()))
    return op->emitOpError()
           << what << " has element type " << tensorType.getElementType()
           << ", which the reference evaluator does not "
              "support (only f16, bf16, f32, f64, i1)";
  return success();
}

LogicalResult reference::evaluateScalarOp(Operation *op, Environment &env) {
  FailureOr<ScalarProgram> program =
      ScalarProgram::compileOp(op, env.getPrecision(), [&](Value value) {
        return env.lookupScalar(value);
      });
  if (failed(program))
    return failure();
  std::vector<double> regs = program->makeRegisters();
  program->run(regs.data(), nullptr);
  for (auto [result, reg] :
       llvm::zip(op->getResults(), program->getResultRegisters()))
    env.bindScalar(result, regs[reg]);
  return success();
}

static LogicalResult evaluateOp(Operation *op, Environment &env) {
  if (auto softmax = dyn_cast<linalg::SoftmaxOp>(op))
    return evaluateSoftmaxOp(softmax, env);
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return evaluateStructuredOp(linalgOp, env);
  FailureOr<bool> handled = evaluateTensorOp(op, env);
  if (failed(handled))
    return failure();
  if (*handled)
    return success();
  if (ScalarProgram::isScalarOp(op))
    return evaluateScalarOp(op, env);
  return op->emitOpError() << "is not supported by the reference evaluator";
}

/// Binds argument `arg` to `tensor` after checking that they agree; under
/// F32, values not representable in the element type are rounded (in a
/// copy).
static LogicalResult bindArgument(func::FuncOp func, BlockArgument arg,
                                  const HostTensor &tensor, Environment &env) {
  unsigned number = arg.getArgNumber();
  Type type = arg.getType();
  if (failed(checkType(func, type, "argument #" + Twine(number))))
    return failure();
  if (type.isIntOrIndexOrFloat()) {
    if (tensor.numElements() != 1 || tensor.data.size() != 1)
      return func.emitOpError()
             << "argument #" << number << " is a scalar but "
             << "was given " << tensor.data.size() << " values";
    std::optional<ElementKind> kind = elementKindOf(type);
    env.bindScalar(arg,
                   kind ? env.round(*kind, tensor.data[0]) : tensor.data[0]);
    return success();
  }
  auto tensorType = cast<RankedTensorType>(type);
  ElementKind kind = *elementKindOf(tensorType.getElementType());
  if (ArrayRef<int64_t>(tensor.shape) != tensorType.getShape() ||
      static_cast<int64_t>(tensor.data.size()) != tensor.numElements())
    return func.emitOpError() << "argument #" << number << " of type " << type
                              << " was given a tensor of another shape";
  if (tensor.elementKind != kind)
    return func.emitOpError()
           << "argument #" << number << " of type " << type
           << " was given a tensor of " << toString(tensor.elementKind);
  bool exact = env.getPrecision() != Precision::F32 ||
               llvm::all_of(tensor.data, [&](double value) {
                 return isRepresentable(kind, value);
               });
  if (exact) {
    env.bindBorrowed(arg, tensor);
    return success();
  }
  HostTensor rounded = tensor;
  for (double &value : rounded.data)
    value = env.round(kind, value);
  env.bind(arg, std::move(rounded));
  return success();
}

/// Collects the values `ret` returns.
static FailureOr<std::vector<HostTensor>> collectResults(func::ReturnOp ret,
                                                         Environment &env) {
  std::vector<HostTensor> results;
  for (auto [i, value] : llvm::enumerate(ret.getOperands())) {
    if (isa<RankedTensorType>(value.getType())) {
      results.push_back(env.takeTensor(value, ret));
      continue;
    }
    std::optional<ElementKind> kind = elementKindOf(value.getType());
    if (!kind)
      return ret.emitOpError()
             << "returns result #" << i << " of type " << value.getType()
             << ", which the reference evaluator cannot return";
    HostTensor scalar("", {}, *kind);
    scalar.data[0] = *env.lookupScalar(value);
    results.push_back(std::move(scalar));
  }
  return results;
}

FailureOr<std::vector<HostTensor>> mlir::tileir::interpretLinalgFunction(
    func::FuncOp func, ArrayRef<HostTensor> args, Precision precision,
    std::optional<std::chrono::steady_clock::time_point> deadline,
    bool *timedOut) {
  if (func.isExternal())
    return func.emitOpError() << "has no body for the reference evaluator";
  if (!func.getBody().hasOneBlock())
    return func.emitOpError() << "has more than one block; the reference "
                                 "evaluator supports straight-line functions "
                                 "only";
  Block &body = func.getBody().front();
  if (args.size() != body.getNumArguments())
    return func.emitOpError() << "takes " << body.getNumArguments()
                              << " arguments but the reference evaluator was "
                                 "given "
                              << args.size();

  Environment env(precision);
  env.countUses(body);
  for (auto [arg, tensor] : llvm::zip(body.getArguments(), args))
    if (failed(bindArgument(func, arg, tensor, env)))
      return failure();

  for (Operation &op : body) {
    for (Value operand : op.getOperands())
      if (!env.contains(operand))
        return op.emitOpError() << "uses a value the reference evaluator has "
                                   "not computed";
    if (auto ret = dyn_cast<func::ReturnOp>(op))
      return collectResults(ret, env);
    for (auto [i, type] : llvm::enumerate(op.getResultTypes()))
      if (failed(checkType(&op, type, "result #" + Twine(i))))
        return failure();
    if (deadline && std::chrono::steady_clock::now() > *deadline) {
      assert(timedOut && "a deadline needs somewhere to report to");
      *timedOut = true;
      return failure();
    }
    if (failed(evaluateOp(&op, env)))
      return failure();
    env.release(&op);
  }
  return func.emitOpError() << "has no func.return";
}

/// Bytes of a host copy of a value of `type` (0 for anything but a
/// static-shape tensor).
static uint64_t hostBytesOf(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasStaticShape())
    return 0;
  return hostTensorBytes(
      std::vector<int64_t>(shaped.getShape().begin(), shaped.getShape().end()));
}

uint64_t mlir::tileir::linalgArgumentBytes(func::FuncOp func) {
  uint64_t total = 0;
  for (Type type : func.getArgumentTypes())
    total = addBytes(total, hostBytesOf(type));
  return total;
}

uint64_t mlir::tileir::linalgHostBytes(func::FuncOp func) {
  uint64_t total = linalgArgumentBytes(func);
  func.walk([&](Operation *op) {
    for (Type type : op->getResultTypes())
      total = addBytes(total, hostBytesOf(type));
  });
  return total;
}

std::string mlir::tileir::argumentName(func::FuncOp func, unsigned i) {
  auto name = func.getArgAttrOfType<StringAttr>(i, "tile.name");
  return name ? name.str() : "arg" + std::to_string(i);
}

FailureOr<std::optional<InitSpec>>
mlir::tileir::declaredInit(func::FuncOp func, unsigned i) {
  auto init = func.getArgAttrOfType<StringAttr>(i, "tile.init");
  if (!init)
    return std::optional<InitSpec>();
  std::optional<InitSpec> parsed = InitSpec::parse(init.str());
  if (!parsed)
    return failure();
  return parsed;
}
