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
#include "TileDialect/Support/RandomInit.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <chrono>
#include <optional>
#include <string>

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

/// Whether `op` converts a scalar to a float type in a way Precision::F64Casts
/// rounds (arith.truncf, sitofp, uitofp).
bool isRoundingConversion(Operation *op);

/// Bytes the evaluation of `func` holds on the host at most: its arguments
/// and every tensor its ops produce (HostMemory.h).
uint64_t linalgHostBytes(func::FuncOp func);
/// Bytes of one host copy of `func`'s arguments.
uint64_t linalgArgumentBytes(func::FuncOp func);

/// The name of argument `i`: its `tile.name` attribute, else `arg<i>`.
std::string argumentName(func::FuncOp func, unsigned i);
/// The distribution argument `i` declares with a `tile.init` attribute:
/// nothing without one, failure when it is not `normal(MEAN, STDDEV)` or
/// `uniform(LOW, HIGH)`.
FailureOr<std::optional<InitSpec>> declaredInit(func::FuncOp func, unsigned i);

} // namespace mlir::tileir

#endif // TILEDIALECT_REFERENCE_LINALGINTERPRETER_H
