//===- LinalgToTile.h - Functions on linalg to tile programs --*- C++ -*-===//

#ifndef TILEDIALECT_CONVERSION_LINALGTOTILE_LINALGTOTILE_H
#define TILEDIALECT_CONVERSION_LINALGTOTILE_LINALGTOTILE_H

#include "TileDialect/IR/TileOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::tileir {

/// Builds the naive tile program of `func` (one loop nest per op) next to
/// it, with the function's name. On failure emits an error on the op that
/// cannot be converted and creates nothing; `func` is never modified.
FailureOr<ProgramOp> convertFuncToTileProgram(func::FuncOp func);

} // namespace mlir::tileir

#endif // TILEDIALECT_CONVERSION_LINALGTOTILE_LINALGTOTILE_H
