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

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::tileir::linalg_to_tile {

/// Whether `value` is an integer (index, iN with N > 1) or i1 value of a
/// linalg body: what the position arithmetic computes.
bool isIntegerBodyValue(Value value);

/// The values an integer may take: [lo, hi].
struct IntRange {
  int64_t lo, hi;
};

/// Proves the position arithmetic of one linalg op's body exact in f32,
/// remembering what it proved (a body's values are checked where each is
/// converted, and a shared value is reached along every path to it).
class PositionArithmetic {
public:
  explicit PositionArithmetic(linalg::LinalgOp op);

  /// Checks that the integer (or i1) value `value` of the body is exact in
  /// f32: its range, from the loops' extents and the constants, stays within
  /// 2^24 and every op on the way is one `convertIntegerOp` takes. Emits an
  /// error on the op and fails otherwise.
  LogicalResult checkExactInF32(Value value);

private:
  /// The range of the integer `value`, or a failure with `why` set.
  FailureOr<IntRange> rangeOf(Value value);
  FailureOr<IntRange> computeRange(Value value);
  /// Whether the i1 `value` is a condition on exact integers.
  LogicalResult checkCondition(Value value);
  LogicalResult computeCondition(Value value);
  FailureOr<IntRange> bounded(IntRange r, Operation *def);
  FailureOr<IntRange> nonNegative(Value value);
  /// The range of `expr` of `apply` (what elementwise fusion writes for a
  /// producer's linalg.index): sums and products of dimensions, symbols and
  /// constants.
  FailureOr<IntRange> rangeOfAffine(AffineExpr expr,
                                    affine::AffineApplyOp apply);

  linalg::LinalgOp op;
  std::string why;
  llvm::DenseMap<Value, IntRange> ranges;
  llvm::DenseSet<Value> conditions;
};

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
