//===- Statements.cpp - Top-level statements and their own tile sizes -----===//
//
// A program's top-level statements (the leaves of the `tile.seq` tree it
// yields) become its kernels. The strategy may configure one apart from the
// rest (`chooseStatementConfig`); its tiles can then only be sized apart if
// its loops step by sizes of their own, which `untieStatement` gives it:
// loops of one variable must agree on their step, and tile types name the
// sizes they are made of.
//
//===----------------------------------------------------------------------===//

#include "TileDialect/Conversion/TileToGPU/Strategy.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::tileir;

/// Appends the leaves of the `tile.seq` tree holding `use` to `leaves`.
static void collectLeaves(OpOperand &use, SmallVector<OpOperand *> &leaves) {
  if (auto seq = use.get().getDefiningOp<SeqOp>()) {
    collectLeaves(seq->getOpOperand(0), leaves);
    collectLeaves(seq->getOpOperand(1), leaves);
    return;
  }
  leaves.push_back(&use);
}

SmallVector<OpOperand *> tileir::getTopLevelStatements(ProgramOp program) {
  SmallVector<OpOperand *> leaves;
  Operation *yield = program.getBodyBlock().getTerminator();
  for (OpOperand &use : yield->getOpOperands())
    collectLeaves(use, leaves);
  return leaves;
}

SmallVector<Operation *> tileir::getStatementOps(Value statement) {
  Operation *root = statement.getDefiningOp();
  if (!root)
    return {};
  BackwardSliceOptions options;
  options.omitBlockArguments = true;
  options.inclusive = true;
  SetVector<Operation *> slice;
  (void)getBackwardSlice(root, &slice, options);
  SmallVector<Operation *> ops(slice.begin(), slice.end());
  llvm::sort(ops, [](Operation *a, Operation *b) {
    return a->isBeforeInBlock(b);
  });
  return ops;
}

llvm::StringMap<std::string> tileir::untieStatement(OpOperand &use,
                                                    StringRef suffix) {
  SmallVector<Operation *> ops = getStatementOps(use.get());
  MLIRContext *ctx = use.getOwner()->getContext();
  llvm::StringMap<std::string> renamed;
  auto rename = [&](StringAttr symbol) {
    auto [it, inserted] = renamed.try_emplace(symbol.getValue());
    if (inserted)
      it->second = (symbol.getValue() + suffix).str();
    return StringAttr::get(ctx, it->second);
  };
  auto retype = [&](Type type) -> Type {
    auto tile = dyn_cast<TileType>(type);
    if (!tile)
      return type;
    SmallVector<TileDim> shape(tile.getShape());
    for (TileDim &dim : shape)
      if (!dim.isConcrete())
        dim.sym = rename(dim.sym);
    return TileType::get(ctx, shape, tile.getElementType());
  };
  // The clones go right before the statement's user: every operand they
  // take is a clone before them or a tensor argument.
  OpBuilder b(use.getOwner());
  IRMapping mapping;
  for (Operation *op : ops) {
    Operation *clone = b.clone(*op, mapping);
    if (auto var = dyn_cast<VarOp>(clone))
      var.setName((var.getName() + suffix).str());
    if (auto size = dyn_cast<SizeOp>(clone))
      if (auto symbol = dyn_cast<StringAttr>(size.getValue()))
        size.setValueAttr(rename(symbol));
    for (Value result : clone->getResults())
      result.setType(retype(result.getType()));
  }
  use.set(mapping.lookup(use.get()));
  for (Operation *op : llvm::reverse(ops))
    if (op->use_empty())
      op->erase();
  return renamed;
}
