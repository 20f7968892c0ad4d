//===- LinalgInterpreter.h - Reference evaluation of linalg ---*- C++ -*-===//
//
// Evaluates a func.func on tensors written with linalg, tensor, arith and math
// ops, independently of the tile path: it is the reference every tile program
// converted from it, and every optimized candidate, is checked against.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_REFERENCE_LINALGINTERPRETER_H
#define TILEDIALECT_REFERENCE_LINALGINTERPRETER_H

#include "TileDialect/Support/HostTensor.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::tileir {

/// Evaluates `func` on `args` (one per function argument, matching its
/// tensor types) and returns its results in order. Emits a diagnostic on the
/// first op it cannot evaluate and fails.
FailureOr<std::vector<HostTensor>>
interpretLinalgFunction(func::FuncOp func, ArrayRef<HostTensor> args,
                        Precision precision);

} // namespace mlir::tileir

#endif // TILEDIALECT_REFERENCE_LINALGINTERPRETER_H
