//===- LinalgToTile.h - Functions on linalg to tile programs --*- C++ -*-===//

#ifndef TILEDIALECT_CONVERSION_LINALGTOTILE_LINALGTOTILE_H
#define TILEDIALECT_CONVERSION_LINALGTOTILE_LINALGTOTILE_H

#include "TileDialect/IR/TileOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::tileir {

/// Builds the naive tile program of `func` (one loop nest per op) next to
/// it, with the function's name. On failure emits an error on the op that
/// cannot be converted and creates nothing; `func` is never modified.
/// With `ownReductionVariables`, a reduction loop is not grouped with the
/// dimensions of the intermediates it reads (the pass option
/// `own-reduction-variables`).
FailureOr<ProgramOp>
convertFuncToTileProgram(func::FuncOp func, bool ownReductionVariables = false);

} // namespace mlir::tileir

#endif // TILEDIALECT_CONVERSION_LINALGTOTILE_LINALGTOTILE_H
