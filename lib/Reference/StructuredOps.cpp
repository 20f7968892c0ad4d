//===- StructuredOps.cpp - Evaluation of linalg structured ops ------------===//
//
// Every LinalgOp is evaluated the same way: iterate over its static loop
// ranges in row-major order, read each operand at the element its indexing
// map selects, run the compiled body, and store the yielded values. The
// indexing maps may be any affine maps whose results are linear in the loop
// dimensions (projected permutations, constant results, convolution-style
// sums); accesses are bounds-checked once, up front, over the whole
// iteration space.
//
//===----------------------------------------------------------------------===//

#include "Contraction.h"
#include "Evaluators.h"
#include "ScalarProgram.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::reference;

namespace {

/// `constant + sum_d coefficients[d] * d`.
struct LinearExpr {
  SmallVector<int64_t> coefficients;
  int64_t constant = 0;
};

} // namespace

static std::optional<LinearExpr> linearize(AffineExpr expr, unsigned numDims) {
  LinearExpr result;
  result.coefficients.assign(numDims, 0);
  if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
    result.coefficients[dim.getPosition()] = 1;
    return result;
  }
  if (auto constant = dyn_cast<AffineConstantExpr>(expr)) {
    result.constant = constant.getValue();
    return result;
  }
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary)
    return std::nullopt;
  std::optional<LinearExpr> lhs = linearize(binary.getLHS(), numDims);
  std::optional<LinearExpr> rhs = linearize(binary.getRHS(), numDims);
  if (!lhs || !rhs)
    return std::nullopt;
  auto isConstant = [](const LinearExpr &e) {
    return llvm::all_of(e.coefficients, [](int64_t c) { return c == 0; });
  };
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    for (unsigned d = 0; d < numDims; ++d)
      result.coefficients[d] = lhs->coefficients[d] + rhs->coefficients[d];
    result.constant = lhs->constant + rhs->constant;
    return result;
  case AffineExprKind::Mul: {
    if (!isConstant(*lhs) && !isConstant(*rhs))
      return std::nullopt;
    const LinearExpr &scaled = isConstant(*lhs) ? *rhs : *lhs;
    int64_t factor = isConstant(*lhs) ? lhs->constant : rhs->constant;
    for (unsigned d = 0; d < numDims; ++d)
      result.coefficients[d] = scaled.coefficients[d] * factor;
    result.constant = scaled.constant * factor;
    return result;
  }
  default:
    return std::nullopt;
  }
}

static std::string toString(AffineExpr expr) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << expr;
  return text;
}

/// The strided access of a tensor operand of shape `shape` through `map`,
/// checked to stay in bounds over `ranges`.
static FailureOr<StridedAccess> getAccess(linalg::LinalgOp op, AffineMap map,
                                          ArrayRef<int64_t> shape,
                                          ArrayRef<int64_t> ranges,
                                          unsigned operandNumber) {
  if (map.getNumSymbols() != 0 || map.getNumResults() != shape.size() ||
      map.getNumDims() != ranges.size())
    return op.emitOpError()
           << "has indexing map " << AffineMapAttr::get(map) << " for operand #"
           << operandNumber
           << " that the reference evaluator cannot use (symbols or a rank "
              "mismatch)";
  bool empty = llvm::is_contained(ranges, 0);
  SmallVector<int64_t> tensorStrides = getRowMajorStrides(shape);
  StridedAccess access;
  access.strides.assign(ranges.size(), 0);
  for (auto [j, expr] : llvm::enumerate(map.getResults())) {
    std::optional<LinearExpr> linear = linearize(expr, map.getNumDims());
    if (!linear)
      return op.emitOpError()
             << "has indexing map " << AffineMapAttr::get(map)
             << " for operand #" << operandNumber << " whose result "
             << toString(expr)
             << " is not linear in the loop dimensions; the reference "
                "evaluator does not support it";
    int64_t low = linear->constant, high = linear->constant;
    for (auto [d, coefficient] : llvm::enumerate(linear->coefficients)) {
      access.strides[d] += coefficient * tensorStrides[j];
      int64_t last = coefficient * (ranges[d] - 1);
      low += std::min<int64_t>(0, last);
      high += std::max<int64_t>(0, last);
    }
    if (!empty && (low < 0 || high >= shape[j]))
      return op.emitOpError()
             << "reads or writes operand #" << operandNumber
             << " out of bounds in dimension " << j << " (index range [" << low
             << ", " << high << "] for size " << shape[j] << ")";
    access.base += linear->constant * tensorStrides[j];
  }
  return access;
}

namespace {

/// A tensor operand during the generic loop nest: `const double` for inputs,
/// `double` for outputs.
template <typename Element> struct LoopOperand {
  Element *data;
  StridedAccess access;
  int64_t offset = 0;
  uint32_t reg = 0;
};

} // namespace

/// Sets each operand's offset for the loop indices `index`, ignoring the
/// innermost loop (which the caller steps through).
template <typename Element>
static void resetOffsets(SmallVectorImpl<LoopOperand<Element>> &operands,
                         ArrayRef<int64_t> index) {
  for (LoopOperand<Element> &operand : operands) {
    operand.offset = operand.access.base;
    for (size_t d = 0; d + 1 < index.size(); ++d)
      operand.offset += index[d] * operand.access.strides[d];
  }
}

LogicalResult reference::evaluateStructuredOp(linalg::LinalgOp op,
                                              Environment &env) {
  if (!op.hasPureTensorSemantics())
    return op.emitOpError()
           << "does not have pure tensor semantics; the reference evaluator "
              "supports linalg on tensors only";
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (llvm::any_of(ranges, ShapedType::isDynamic))
    return op.emitOpError()
           << "has dynamic loop ranges; the reference evaluator supports "
              "static shapes only";
  Block *body = op.getBlock();
  if (!body)
    return op.emitOpError() << "has no body for the reference evaluator";
  unsigned numInputs = op.getNumDpsInputs(), numInits = op.getNumDpsInits();
  bool bodyReadsInits = body->getNumArguments() == numInputs + numInits;
  if (!bodyReadsInits && body->getNumArguments() != numInputs)
    return op.emitOpError()
           << "has a body with " << body->getNumArguments() << " arguments for "
           << numInputs << " inputs and " << numInits << " inits";
  if (op->getNumResults() != numInits)
    return op.emitOpError() << "has " << op->getNumResults() << " results for "
                            << numInits << " inits";
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();

  // Inputs: tensors through their maps, scalars bound once.
  SmallVector<LoopOperand<const double>> tensorInputs;
  SmallVector<std::pair<uint32_t, double>> scalarInputs;
  for (auto [i, operand] : llvm::enumerate(op.getDpsInputOperands())) {
    Value value = operand->get();
    unsigned number = operand->getOperandNumber();
    if (isa<RankedTensorType>(value.getType())) {
      const HostTensor *tensor = env.lookupTensor(value);
      if (!tensor)
        return op.emitOpError() << "input #" << i << " has no value";
      FailureOr<StridedAccess> access =
          getAccess(op, maps[number], tensor->shape, ranges, number);
      if (failed(access))
        return failure();
      tensorInputs.push_back({tensor->data.data(), std::move(*access), 0,
                              static_cast<uint32_t>(i)});
      continue;
    }
    std::optional<double> scalar = env.lookupScalar(value);
    if (!scalar)
      return op.emitOpError()
             << "input #" << i << " of type " << value.getType()
             << " is neither a tensor nor a known scalar";
    scalarInputs.push_back({static_cast<uint32_t>(i), *scalar});
  }

  // Inits become the results, updated in place.
  SmallVector<HostTensor> results;
  SmallVector<LoopOperand<double>> outputs;
  for (auto [i, init] : llvm::enumerate(op.getDpsInitsMutable())) {
    if (!isa<RankedTensorType>(init.get().getType()) ||
        !env.lookupTensor(init.get()))
      return op.emitOpError() << "init #" << i << " is not a known tensor";
    results.push_back(env.takeTensor(init.get(), op));
  }
  for (auto [i, init] : llvm::enumerate(op.getDpsInitsMutable())) {
    unsigned number = init.getOperandNumber();
    FailureOr<StridedAccess> access =
        getAccess(op, maps[number], results[i].shape, ranges, number);
    if (failed(access))
      return failure();
    outputs.push_back({results[i].data.data(), std::move(*access), 0,
                       static_cast<uint32_t>(numInputs + i)});
  }

  auto bindResults = [&] {
    for (auto [result, tensor] : llvm::zip(op->getResults(), results))
      env.bind(result, std::move(tensor));
    return success();
  };

  if (scalarInputs.empty()) {
    if (std::optional<ContractionPlan> plan =
            matchContraction(op, env.getPrecision())) {
      runContraction(*plan, ranges, tensorInputs[0].data,
                     tensorInputs[0].access, tensorInputs[1].data,
                     tensorInputs[1].access, outputs[0].data, outputs[0].access,
                     results[0].elementKind, env.getPrecision());
      return bindResults();
    }
  }

  FailureOr<ScalarProgram> program =
      ScalarProgram::compileBlock(*body, env.getPrecision(), [&](Value value) {
        return env.lookupScalar(value);
      });
  if (failed(program))
    return failure();
  ArrayRef<uint32_t> yielded = program->getResultRegisters();
  if (yielded.size() != numInits)
    return op.emitOpError() << "yields " << yielded.size() << " values for "
                            << numInits << " inits";

  if (llvm::is_contained(ranges, 0))
    return bindResults();

  std::vector<double> regs = program->makeRegisters();
  for (auto [reg, value] : scalarInputs)
    regs[reg] = value;
  SmallVector<ElementKind> outKinds;
  for (const HostTensor &result : results)
    outKinds.push_back(result.elementKind);

  // The iteration point; the innermost loop is stepped through directly.
  size_t numLoops = ranges.size();
  SmallVector<int64_t> index(std::max<size_t>(numLoops, 1), 0);
  int64_t innerRange = numLoops ? ranges.back() : 1;
  auto innerStride = [&](const auto &operand) {
    return numLoops ? operand.access.strides.back() : int64_t(0);
  };
  resetOffsets(tensorInputs, index);
  resetOffsets(outputs, index);
  Precision precision = env.getPrecision();
  while (true) {
    for (int64_t i = 0; i < innerRange; ++i) {
      index[numLoops ? numLoops - 1 : 0] = i;
      for (const auto &input : tensorInputs)
        regs[input.reg] = input.data[input.offset + i * innerStride(input)];
      if (bodyReadsInits)
        for (const auto &output : outputs)
          regs[output.reg] =
              output.data[output.offset + i * innerStride(output)];
      program->run(regs.data(), index.data());
      for (auto [o, output] : llvm::enumerate(outputs))
        output.data[output.offset + i * innerStride(output)] =
            roundFor(precision, outKinds[o], regs[yielded[o]]);
    }
    // Advance the outer loops like an odometer.
    int64_t d = static_cast<int64_t>(numLoops) - 2;
    for (; d >= 0; --d) {
      if (++index[d] < ranges[d])
        break;
      index[d] = 0;
    }
    if (d < 0)
      break;
    resetOffsets(tensorInputs, index);
    resetOffsets(outputs, index);
  }
  return bindResults();
}
