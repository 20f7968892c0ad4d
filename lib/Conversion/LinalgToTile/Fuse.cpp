//===- Fuse.cpp - Elementwise fusion before planning ----------------------===//
//
// The conversion plans one loop nest per op, and every nest becomes at least
// one GPU kernel that writes its result to memory for the next to read back.
// Before planning, elementwise producers (all-parallel `linalg.generic` ops)
// are fused into the linalg ops that read them, with upstream's
// `linalg::fuseElementwiseOps`:
//
//  - into any consumer that is not a contraction, reductions included; a
//    producer with several readers is recomputed in each (each fusion but
//    the last works on a private copy of it), which
//    trades a few arithmetic ops per element for a round trip through memory;
//  - into a contraction, a producer that is a pure permutation (a
//    transpose): the contraction then reads the transpose's source through a
//    permuted indexing map, and its body stays a multiply-add, so that it
//    still becomes a `tile.matmul`;
//  - into a contraction's left operand, any elementwise producer (a
//    prologue: a cast, a normalization, a softmax's division): the body
//    becomes out + x * y with x computed (Contraction.cpp), and the
//    `tile.matmul` reads x as a computed tile. The right operand takes only
//    permutations, so that weights stay plain loads. Each tile of the
//    result's columns recomputes the prologue: only contractions with at
//    most `prologue-max-columns` columns take one (P.V, not a projection).
//
// Named ops are generalized first, except fills and contractions, which
// keep their form unless a transpose is fused into them. Then reshapes move
// out from between elementwise ops (`propagateReshapes`), so that a reshape
// does not keep a cast and a transpose apart.
//
//===----------------------------------------------------------------------===//

#include "Plan.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::linalg_to_tile;

/// Whether all of `op`'s loops are parallel (then it is no contraction,
/// which needs a reduction loop).
static bool isAllParallel(linalg::GenericOp op) {
  return op.getNumParallelLoops() == op.getNumLoops();
}

/// Whether `op` only moves elements: one input, read through a permutation,
/// yielded unchanged.
static bool isPermutationCopy(linalg::GenericOp op) {
  if (op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      !isAllParallel(op) ||
      !op.getIndexingMapsArray()[0].isPermutation())
    return false;
  auto yield = cast<linalg::YieldOp>(op.getBody()->getTerminator());
  auto arg = yield.getNumOperands() == 1
                 ? dyn_cast<BlockArgument>(yield.getOperand(0))
                 : BlockArgument();
  return arg && arg.getOwner() == op.getBody() && arg.getArgNumber() == 0;
}

/// Whether fusing the producer of `operand` into its consumer would read an
/// argument after the consumer's program point while an insert_slice before
/// it updates that argument in place (the conversion refuses such reads).
static bool readsUpdatedArgument(Operation *producer, Operation *consumer) {
  for (Value input : producer->getOperands()) {
    auto arg = dyn_cast<BlockArgument>(input);
    if (!arg)
      continue;
    for (Operation *user : arg.getUsers())
      if (auto insert = dyn_cast<tensor::InsertSliceOp>(user))
        if (insert.getDest() == arg && insert->isBeforeInBlock(consumer))
          return true;
  }
  return false;
}

/// The most ops a fused body may hold: recomputing a producer for each of
/// several readers (or each operand reading it) duplicates its body, which a
/// chain of such ops would grow geometrically.
static constexpr size_t kMaxFusedBodyOps = 64;

/// Whether the contraction's left operand still walks its m and k loops
/// once the producer of `operand` is fused into it (a broadcast along k
/// would leave no matmul): the loops of its other inputs, and those of the
/// producer's tensor inputs seen through the operand's indexing map.
static bool keepsLeftLoops(const ContractionSides &sides, OpOperand &operand,
                           linalg::GenericOp producer) {
  auto consumer = cast<linalg::LinalgOp>(operand.getOwner());
  llvm::SmallDenseSet<unsigned> loops;
  auto addLoops = [&](AffineMap map) {
    for (unsigned l : getIndexedLoops(map))
      loops.insert(l);
  };
  for (OpOperand *other : sides.lhsOperands)
    if (other != &operand)
      addLoops(consumer.getMatchingIndexingMap(other));
  AffineMap producerOut =
      producer.getIndexingMapMatchingResult(cast<OpResult>(operand.get()));
  if (!producerOut.isPermutation())
    return false;
  // Consumer loops -> operand dims -> producer loops -> input dims.
  AffineMap toProducer =
      inversePermutation(producerOut)
          .compose(consumer.getMatchingIndexingMap(&operand));
  for (OpOperand *input : producer.getDpsInputOperands())
    if (isa<RankedTensorType>(input->get().getType()))
      addLoops(producer.getMatchingIndexingMap(input).compose(toProducer));
  return loops.contains(sides.m[0]) && loops.contains(sides.k);
}

static bool shouldFuse(OpOperand &operand, int64_t prologueMaxColumns) {
  auto consumer = dyn_cast<linalg::GenericOp>(operand.getOwner());
  auto producer = operand.get().getDefiningOp<linalg::GenericOp>();
  if (!consumer || !producer || consumer.isDpsInit(&operand) ||
      producer->getBlock() != consumer->getBlock() ||
      !linalg::areElementwiseOpsFusable(&operand) ||
      readsUpdatedArgument(producer, consumer) ||
      producer.getBody()->getOperations().size() +
              consumer.getBody()->getOperations().size() >
          kMaxFusedBodyOps)
    return false;
  if (isPermutationCopy(producer))
    return true;
  // Into a contraction, only into its left operand (a prologue: the matmul
  // reads the computed operand; the right one stays loaded as it is).
  if (std::optional<ContractionSides> sides = matchContraction(consumer))
    return consumer.getStaticLoopRanges()[sides->n[0]] <= prologueMaxColumns &&
           llvm::is_contained(sides->lhsOperands, &operand) &&
           isAllParallel(producer) && !producer.hasIndexSemantics() &&
           keepsLeftLoops(*sides, operand, producer);
  return !linalg::isaContractionOpInterface(consumer);
}

/// Generalizes the named ops that fusion may involve: every one but fills
/// and contractions, then the contractions that read a permutation (a
/// transpose, named or generic), which `shouldFuse` will fold into them.
static void generalize(func::FuncOp func, IRRewriter &rewriter,
                       int64_t prologueMaxColumns) {
  auto generalizeAll = [&](auto wanted) {
    SmallVector<linalg::LinalgOp> named;
    func.walk([&](linalg::LinalgOp op) {
      if (!isa<linalg::GenericOp, linalg::FillOp>(op.getOperation()) &&
          wanted(op))
        named.push_back(op);
    });
    for (linalg::LinalgOp op : named) {
      rewriter.setInsertionPoint(op);
      (void)linalg::generalizeNamedOp(rewriter, op);
    }
  };
  generalizeAll([](linalg::LinalgOp op) {
    return !linalg::isaContractionOpInterface(op);
  });
  // Contractions that read a permutation, or whose left operand an
  // elementwise generic produces.
  generalizeAll([&](linalg::LinalgOp op) {
    return llvm::any_of(op.getDpsInputs(),
                        [](Value input) {
                          auto producer =
                              input.getDefiningOp<linalg::GenericOp>();
                          return producer && isPermutationCopy(producer);
                        }) ||
           (prologueMaxColumns >= 0 && op.getNumDpsInputs() == 2 && [&] {
             auto producer =
                 op.getDpsInputs()[0].getDefiningOp<linalg::GenericOp>();
             return producer && isAllParallel(producer);
           }());
  });
}

/// Fuses the producer of `operand` into its consumer and returns the fused
/// op, which takes the consumer's place.
static Operation *fuseInto(OpOperand &operand, IRRewriter &rewriter) {
  Operation *consumer = operand.getOwner();
  auto producer = operand.get().getDefiningOp<linalg::GenericOp>();
  // Fuse a private copy, so that the fused op does not also produce the
  // producer's results for its other readers.
  if (!producer->hasOneUse()) {
    rewriter.setInsertionPoint(producer);
    Operation *copy = rewriter.clone(*producer);
    unsigned result = cast<OpResult>(operand.get()).getResultNumber();
    operand.set(copy->getResult(result));
    producer = cast<linalg::GenericOp>(copy);
  }
  rewriter.setInsertionPoint(consumer);
  FailureOr<linalg::ElementwiseOpFusionResult> fused =
      linalg::fuseElementwiseOps(rewriter, &operand);
  if (failed(fused))
    return nullptr; // areElementwiseOpsFusable said it would not fail.
  for (Value result : consumer->getResults())
    rewriter.replaceAllUsesWith(result, fused->replacements.lookup(result));
  rewriter.eraseOp(consumer);
  if (producer->use_empty())
    rewriter.eraseOp(producer);
  return fused->fusedOp;
}

/// Fuses producers into the ops of `block`, first consumer first: each
/// consumer takes every producer it may (the fused op is a consumer again)
/// before the next op is looked at. Fusing into a consumer changes nothing
/// an earlier op's fusion depends on (the producer it removes had no other
/// reader, and a private copy reads what the producer read), so one pass
/// over the block fuses what repeated whole-function searches for the
/// first fusable pair did, in linear rather than quadratic time.
static void fuseBlock(Block &block, IRRewriter &rewriter,
                      int64_t prologueMaxColumns) {
  Operation *op = block.empty() ? nullptr : &block.front();
  while (op) {
    auto consumer = dyn_cast<linalg::GenericOp>(op);
    OpOperand *found = nullptr;
    if (consumer)
      for (OpOperand *input : consumer.getDpsInputOperands())
        if (shouldFuse(*input, prologueMaxColumns)) {
          found = input;
          break;
        }
    Operation *fused = found ? fuseInto(*found, rewriter) : nullptr;
    op = fused ? fused : op->getNextNode();
  }
}

namespace {
/// A reshape of a `tensor.empty` (the init the expansion gives a generic)
/// is an empty tensor of the reshaped type. (Upstream's fold reifies the
/// shape through an interface this tool does not register.)
template <typename ReshapeOp>
struct EmptyReshape : OpRewritePattern<ReshapeOp> {
  using OpRewritePattern<ReshapeOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    RankedTensorType type = op.getResultType();
    if (!op.getSrc().template getDefiningOp<tensor::EmptyOp>() ||
        !type.hasStaticShape())
      return failure();
    rewriter.replaceOpWithNewOp<tensor::EmptyOp>(op, type.getShape(),
                                                 type.getElementType());
    return success();
  }
};
} // namespace

/// Moves `tensor.expand_shape` above elementwise producers and
/// `tensor.collapse_shape` below elementwise readers (upstream's fold of
/// reshapes by expansion: the generic runs over the expanded loops), so
/// that a reshape does not sit between two ops that fusion should merge.
/// What remains is a reshape next to a contraction, an argument or a
/// result, which the GPU lowering can turn into a shared buffer.
static void propagateReshapes(func::FuncOp func) {
  MLIRContext *ctx = func.getContext();
  RewritePatternSet patterns(ctx);
  linalg::populateFoldReshapeOpsByExpansionPatterns(
      patterns, [](OpOperand *operand) {
        // A generic reading a reshape, or a reshape reading a generic.
        auto generic = dyn_cast<linalg::GenericOp>(operand->getOwner());
        if (!generic)
          generic = operand->get().getDefiningOp<linalg::GenericOp>();
        // Expansions that only add unit dimensions can feed each other
        // without end (a generic expanded, its reader's collapse moved
        // below it, and so on, each adding loops): no generic grows past
        // eight loops.
        constexpr unsigned kMaxLoops = 8;
        return generic && isAllParallel(generic) &&
               generic.getNumLoops() < kMaxLoops;
      });
  patterns.add<EmptyReshape<tensor::ExpandShapeOp>,
               EmptyReshape<tensor::CollapseShapeOp>>(ctx);
  // Upstream's patterns can rewrite without end on some unit-dimension
  // reshapes (each expansion creating another: found by tile-fuzz): the
  // rewrites are bounded, and a function they do not settle is left as it
  // was (on a copy until then).
  OwningOpRef<func::FuncOp> work = func.clone();
  GreedyRewriteConfig config;
  config.setMaxIterations(16).setMaxNumRewrites(
      1000 + 64 * int64_t(func.getBody().front().getOperations().size()));
  bool converged = false;
  if (failed(applyPatternsGreedily(work->getBody(), std::move(patterns),
                                   config, &converged)) ||
      !converged)
    return;
  func.getBody().takeBody(work->getBody());
}

void linalg_to_tile::fuseElementwise(func::FuncOp func,
                                     int64_t prologueMaxColumns) {
  IRRewriter rewriter(func.getContext());
  generalize(func, rewriter, prologueMaxColumns);
  propagateReshapes(func);
  // Each fusion erases the producer (or its private copy) once nothing
  // reads it: the last reader fuses the original.
  SmallVector<Block *> blocks;
  func.walk([&](Block *block) { blocks.push_back(block); });
  for (Block *block : blocks)
    fuseBlock(*block, rewriter, prologueMaxColumns);
}
