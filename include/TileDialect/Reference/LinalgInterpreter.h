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

#include <chrono>
#include <optional>

namespace mlir::tileir {

/// Evaluates `func` on `args` (one per function argument, matching its
/// tensor types) and returns its results in order. Emits a diagnostic on the
/// first op it cannot evaluate and fails.
/// With a `deadline`, the evaluation stops between two ops once it has
/// passed, fails without a diagnostic and sets `*timedOut`.
FailureOr<std::vector<HostTensor>> interpretLinalgFunction(
    func::FuncOp func, ArrayRef<HostTensor> args, Precision precision,
    std::optional<std::chrono::steady_clock::time_point> deadline = {},
    bool *timedOut = nullptr);

/// Bytes the evaluation of `func` holds on the host at most: its arguments
/// and every tensor its ops produce (HostMemory.h).
uint64_t linalgHostBytes(func::FuncOp func);

} // namespace mlir::tileir

#endif // TILEDIALECT_REFERENCE_LINALGINTERPRETER_H
