//===- Contraction.cpp - Contractions with operand prologues --------------===//
//
// A generic `out = out + x * y` over one reduction loop k is a contraction
// whose operands are computed: x from inputs that do not index n (the left
// side: batch, m, k), y from inputs that do not index m (the right side).
// Named contractions are the case x = extf(a), y = extf(b); fusing an
// elementwise producer into the left operand (a cast, a normalization, a
// softmax's division) keeps that form with x a longer expression, which the
// conversion emits as the tile expression of the matmul's left operand.
//
//===----------------------------------------------------------------------===//

#include "Plan.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::linalg_to_tile;

SmallVector<unsigned> linalg_to_tile::getIndexedLoops(AffineMap map) {
  SmallVector<unsigned> loops;
  for (AffineExpr e : map.getResults())
    if (auto dim = dyn_cast<AffineDimExpr>(e))
      loops.push_back(dim.getPosition());
  return loops;
}

/// Adds the block arguments `value` depends on within `body` to `args`;
/// false when it depends on something defined outside other than a
/// constant.
static bool collectArgs(Value value, Block *body,
                        llvm::SetVector<BlockArgument> &args) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (arg.getOwner() != body)
      return false;
    args.insert(arg);
    return true;
  }
  Operation *op = value.getDefiningOp();
  if (op->getBlock() != body)
    return isa<arith::ConstantOp>(op);
  if (op->getNumRegions() != 0 || !isPure(op))
    return false;
  for (Value operand : op->getOperands())
    if (!collectArgs(operand, body, args))
      return false;
  return true;
}

std::optional<ContractionSides>
linalg_to_tile::matchContraction(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1 || op.getNumReductionLoops() != 1 ||
      op->getNumRegions() != 1 || op.getBlock()->getNumArguments() == 0)
    return std::nullopt;
  Block *body = op.getBlock();
  auto yield = dyn_cast<linalg::YieldOp>(body->getTerminator());
  OpOperand &init = op.getDpsInitsMutable()[0];
  BlockArgument outArg = op.getMatchingBlockArgument(&init);
  auto add = yield ? yield.getOperand(0).getDefiningOp<arith::AddFOp>()
                   : arith::AddFOp();
  if (!add)
    return std::nullopt;
  Value product = add.getLhs() == outArg   ? add.getRhs()
                  : add.getRhs() == outArg ? add.getLhs()
                                           : Value();
  auto mul = product ? product.getDefiningOp<arith::MulFOp>() : arith::MulFOp();
  if (!mul || mul->getBlock() != body || !outArg.hasOneUse())
    return std::nullopt;

  ContractionSides sides;
  sides.x = mul.getLhs();
  sides.y = mul.getRhs();
  llvm::SetVector<BlockArgument> xArgs, yArgs;
  if (!collectArgs(sides.x, body, xArgs) ||
      !collectArgs(sides.y, body, yArgs) || xArgs.contains(outArg) ||
      yArgs.contains(outArg))
    return std::nullopt;
  // Each side's loops: the union of its inputs' maps.
  auto sideLoops = [&](const llvm::SetVector<BlockArgument> &args,
                       SmallVector<OpOperand *> &operands) {
    llvm::SmallSetVector<unsigned, 4> loops;
    for (BlockArgument arg : args) {
      OpOperand *operand = op.getMatchingOpOperand(arg);
      if (!isa<RankedTensorType>(operand->get().getType()))
        return std::optional<llvm::SmallSetVector<unsigned, 4>>();
      operands.push_back(operand);
      for (unsigned l : getIndexedLoops(op.getMatchingIndexingMap(operand)))
        loops.insert(l);
    }
    return std::optional(loops);
  };
  auto lx = sideLoops(xArgs, sides.lhsOperands);
  auto ly = sideLoops(yArgs, sides.rhsOperands);
  if (!lx || !ly)
    return std::nullopt;
  SmallVector<unsigned> outLoops =
      getIndexedLoops(op.getMatchingIndexingMap(&init));
  unsigned numLoops = op.getNumLoops();
  for (unsigned l = 0; l < numLoops; ++l) {
    bool inX = lx->contains(l), inY = ly->contains(l),
         inOut = llvm::is_contained(outLoops, l);
    bool reduction =
        op.getIteratorTypesArray()[l] == utils::IteratorType::reduction;
    if (reduction) {
      if (!inX || !inY || inOut)
        return std::nullopt;
      sides.k = l;
    } else if (!inOut) {
      return std::nullopt;
    } else if (inX && inY) {
      sides.batch.push_back(l);
    } else if (inX) {
      sides.m.push_back(l);
    } else if (inY) {
      sides.n.push_back(l);
    } else {
      return std::nullopt; // a parallel loop no input walks
    }
  }
  if (sides.m.size() != 1 || sides.n.size() != 1)
    return std::nullopt;
  return sides;
}
