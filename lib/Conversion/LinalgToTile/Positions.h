//===- Positions.h - linalg.index and integer arithmetic on it -*- C++ -*-===//
//
// A body that uses `linalg.index d` (a causal or sliding-window mask, ALiBi's
// distances, positions for rotary angles) reads the positions of loop d from
// a `positions` tensor (element n holds n; Plan.cpp adds the access), so a
// position is a load whose index names the loop variable, like any other
// read. Tiles hold floats: the integer arithmetic on positions becomes f32
// arithmetic, exact while every value stays within 2^24, which the
// conversion proves from the value ranges (the extents of the loops, the
// constants) before it converts, and refuses otherwise.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_LINALGTOTILE_POSITIONS_H
#define LIB_CONVERSION_LINALGTOTILE_POSITIONS_H

#include "TileDialect/IR/TileOps.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"

namespace mlir::tileir::linalg_to_tile {

/// Whether `value` is an integer (index, iN with N > 1) or i1 value of a
/// linalg body: what the position arithmetic computes.
bool isIntegerBodyValue(Value value);

/// Checks that the integer value `value` of `op`'s body is exact in f32: its
/// range, from the loops' extents and the constants, stays within 2^24 and
/// every op on the way is one `convertIntegerOp` takes. Emits an error on
/// `op` and fails otherwise.
LogicalResult checkExactInF32(Value value, linalg::LinalgOp op);

/// The tile op computing the integer or i1 op `op` (arith.addi, subi, muli,
/// maxsi, minsi, the casts between integers and to floats, cmpi, andi, ori,
/// xori with true) on `operands`, its converted operands (f32 tiles for
/// integers, i1 tiles for conditions), with result tile type `type` (f32 for
/// integers). A null value when `op` is not one of those.
Value convertIntegerOp(OpBuilder &b, Location loc, Operation *op,
                       ArrayRef<Value> operands, TileType type);

/// An integer constant of a body as a float attribute of type f32 (null when
/// `value` is no such constant or does not fit in 2^24).
FloatAttr integerConstantAsF32(Value value);

} // namespace mlir::tileir::linalg_to_tile

#endif // LIB_CONVERSION_LINALGTOTILE_POSITIONS_H
