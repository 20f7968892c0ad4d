//===- Evaluators.h - Evaluation of one op of each family ------*- C++ -*-===//
//
// Internal to the reference evaluator: one entry point per op family. Each
// reads its operands from the environment, binds its results, and emits an
// error (and fails) on anything it cannot evaluate. Result types have been
// checked to be static tensors or scalars before these are called.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_LIB_REFERENCE_EVALUATORS_H
#define TILEDIALECT_LIB_REFERENCE_EVALUATORS_H

#include "Environment.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::tileir::reference {

/// A zero tensor of the static tensor type `type`.
HostTensor makeZeroTensor(RankedTensorType type);

/// Any linalg structured op (LinalgOp), through its indexing maps and body;
/// contractions take a fast path.
LogicalResult evaluateStructuredOp(linalg::LinalgOp op, Environment &env);

/// linalg.softmax (not a LinalgOp).
LogicalResult evaluateSoftmaxOp(linalg::SoftmaxOp op, Environment &env);

/// arith.constant and the tensor dialect ops the evaluator knows. Returns
/// false, without a diagnostic, for an op it does not handle.
FailureOr<bool> evaluateTensorOp(Operation *op, Environment &env);

/// A scalar arith or math op outside any linalg body.
LogicalResult evaluateScalarOp(Operation *op, Environment &env);

} // namespace mlir::tileir::reference

#endif // TILEDIALECT_LIB_REFERENCE_EVALUATORS_H
