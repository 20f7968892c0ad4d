//===- TileInterpreter.cpp - Run tile programs on the CPU -----------------===//
//
// The entry point: checks the caller's tensors against the program, builds
// the plan (PlanBuilder.cpp) and runs it (Executor.cpp).
//
// Precision. F64 computes everything in double and rounds nothing, whatever
// the declared element types (an f16 `tile.constant` still holds the f16
// value its attribute stores). F64Casts rounds only the results of
// `tile.cast`s that can change a value, as a kernel's do. F32 rounds the
// result of every op to its
// declared element type with the rounding of `roundToElement`: loads round
// what they read to the tensor's type, elementwise ops and casts round their
// results, `tile.matmul` and `tile.rsum` accumulate in double and round once
// at the end, and ops that only move or select values (layout ops, select,
// rmax, rmin) need no rounding. Every tile value then holds values of its
// element type, which is the stored tensor's, so stores write it unchanged.
// `tile.max`, `tile.min`, `tile.rmax` and `tile.rmin` propagate NaN.
//
//===----------------------------------------------------------------------===//

#include "TileDialect/Interpreter/TileInterpreter.h"
#include "TileDialect/Support/HostMemory.h"

#include "TileDialect/Interpreter/Plan.h"

using namespace mlir;
using namespace mlir::tileir;

/// Checks that `tensors` match the program's tensor arguments one to one.
static LogicalResult checkTensors(ProgramOp program,
                                  ArrayRef<HostTensor> tensors) {
  Block &body = program.getBodyBlock();
  if (tensors.size() != body.getNumArguments())
    return program.emitOpError("declares ")
           << body.getNumArguments() << " tensors but the interpreter was "
           << "given " << tensors.size();
  for (BlockArgument arg : body.getArguments()) {
    auto type = cast<TensorRefType>(arg.getType());
    const HostTensor &tensor = tensors[arg.getArgNumber()];
    StringRef name = program.getTensorName(arg.getArgNumber());
    if (ArrayRef<int64_t>(tensor.shape) != type.getShape())
      return program.emitOpError("tensor '")
             << name << "' is declared with shape "
             << interp::shapeToString(type.getShape())
             << " but was given shape " << interp::shapeToString(tensor.shape);
    std::optional<ElementKind> kind =
        elementKindOf(type.getElementType());
    if (!kind)
      return program.emitOpError("tensor '")
             << name << "' has element type " << type.getElementType()
             << ", which the interpreter does not support";
    if (*kind != tensor.elementKind)
      return program.emitOpError("tensor '")
             << name << "' is declared with element type " << toString(*kind)
             << " but was given " << toString(tensor.elementKind) << " data";
    if (static_cast<int64_t>(tensor.data.size()) != tensor.numElements())
      return program.emitOpError("tensor '")
             << name << "' was given " << tensor.data.size() << " values for "
             << tensor.numElements() << " elements";
  }
  return success();
}

LogicalResult
mlir::tileir::interpretTileProgram(ProgramOp program,
                                   MutableArrayRef<HostTensor> tensors,
                                   const TileInterpreterOptions &options) {
  if (failed(checkTensors(program, tensors)))
    return failure();
  FailureOr<interp::Plan> plan = interp::buildPlan(program, options);
  if (failed(plan))
    return failure();
  if (!interp::executePlan(*plan, tensors, options.deadline)) {
    assert(options.timedOut && "a deadline needs somewhere to report to");
    *options.timedOut = true;
    return failure();
  }
  return success();
}

uint64_t mlir::tileir::programHostBytes(ProgramOp program) {
  uint64_t total = 0;
  for (BlockArgument arg : program.getBodyBlock().getArguments()) {
    auto type = cast<TensorRefType>(arg.getType());
    total = addBytes(total, hostTensorBytes(std::vector<int64_t>(
                                type.getShape().begin(), type.getShape().end())));
  }
  return total;
}
