//===- Privatize.cpp - One copy of a scratch tensor per loop iteration ----===//
//
// A top-level loop whose every iteration first clears an intermediate
// tensor T and then recomputes it (`loop s (T = 0; T += ...; ... T ...)`,
// what `loop-insertion-recompute` produces: the RMSNorm statistic inside
// the projection kernel) computes the same T in every iteration, but its
// iterations all write the same elements, so the loop cannot be the grid:
// it would run on one block. Giving each iteration its own copy of T
// (array expansion: T of shape S becomes [trips] + S, indexed by
// `tile.elem s`) removes those conflicts without changing what any
// iteration reads, and the loop becomes parallel.
//
// T qualifies when it is an intermediate that no alias pair names, only
// that loop touches it, none of its accesses there uses the loop variable,
// and the first statement of the loop body that touches it writes all of T
// before reading any of it (a store of the whole of T, or loops around one
// store walking all of T tile by tile, after which only the tile just
// stored is loaded back), so no iteration reads what an earlier one left.
// Besides the cleared statistic, this covers a producer nest recomputed per
// iteration (`loop-insertion-producer`: RMSNorm's normalized rows).
//
//===----------------------------------------------------------------------===//

#include "Partition.h"

#include "TileDialect/IR/TileOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::tileir;

/// The loads and stores reachable from `root` through operands.
static void collectLoadsStores(Value root, llvm::SetVector<Operation *> &out) {
  SmallVector<Value> work{root};
  llvm::DenseSet<Operation *> seen;
  while (!work.empty()) {
    Operation *op = work.pop_back_val().getDefiningOp();
    if (!op || !seen.insert(op).second)
      continue;
    if (isa<LoadOp, StoreOp>(op))
      out.insert(op);
    for (Value operand : op->getOperands())
      work.push_back(operand);
  }
}

static Value tensorOf(Operation *op) {
  if (auto load = dyn_cast<LoadOp>(op))
    return load.getTensor();
  return cast<StoreOp>(op).getTensor();
}

static OperandRange indicesOf(Operation *op) {
  if (auto load = dyn_cast<LoadOp>(op))
    return load.getIndices();
  return cast<StoreOp>(op).getIndices();
}

static bool usesVar(OperandRange indices, Value var) {
  return llvm::any_of(indices, [&](Value index) {
    Operation *def = index.getDefiningOp();
    return def && llvm::is_contained(def->getOperands(), var);
  });
}

/// Whether `store`, run for every iteration of `loops`, writes every element
/// of `tensor` without reading it: each index is `full` or the tile of one
/// of those loops walking the whole dimension in steps of the tile's
/// extent, and the stored value reads nothing of `tensor`.
static bool coversAll(StoreOp store, ArrayRef<LoopOp> loops, Value tensor) {
  if (store.getTensor() != tensor)
    return false;
  ArrayRef<int64_t> shape = cast<TensorRefType>(tensor.getType()).getShape();
  ArrayRef<TileDim> extents =
      cast<TileType>(store.getValue().getType()).getShape();
  llvm::SmallDenseSet<Operation *> walked;
  for (auto [d, index] : llvm::enumerate(store.getIndices())) {
    if (index.getDefiningOp<FullIndexOp>())
      continue;
    auto tile = index.getDefiningOp<TileIndexOp>();
    if (!tile)
      return false;
    auto it = llvm::find_if(
        loops, [&](LoopOp l) { return l.getVar() == tile.getVar(); });
    if (it == loops.end())
      return false;
    LoopOp loop = *it;
    if (!walked.insert(loop).second || loop.getStartIndex() != 0 ||
        loop.getEndIndex() != shape[d] || loop.getStepDim() != extents[d])
      return false;
  }
  llvm::SetVector<Operation *> valueAccesses;
  collectLoadsStores(store.getValue(), valueAccesses);
  return llvm::none_of(valueAccesses,
                       [&](Operation *op) { return tensorOf(op) == tensor; });
}

/// The accesses of `tensor` in `stmt`.
static SmallVector<Operation *> accessesIn(Value stmt, Value tensor) {
  llvm::SetVector<Operation *> all;
  collectLoadsStores(stmt, all);
  SmallVector<Operation *> out;
  for (Operation *op : all)
    if (tensorOf(op) == tensor)
      out.push_back(op);
  return out;
}

/// Whether `stmt` (inside `loops`) writes all of `tensor` before reading
/// any of it. It descends through loops and, in each sequence, into the
/// first statement touching the tensor, down to one store that covers it
/// (coversAll); the statements after that store in its sequence may load
/// exactly the region it stored (the same iteration's tile), and nothing
/// else in `stmt` touches the tensor.
static bool writesAllFirst(Value stmt, Value tensor,
                           SmallVectorImpl<LoopOp> &loops) {
  if (auto loop = stmt.getDefiningOp<LoopOp>()) {
    loops.push_back(loop);
    bool ok = writesAllFirst(loop.getBody(), tensor, loops);
    loops.pop_back();
    return ok;
  }
  SmallVector<Value> leaves;
  collectSequenceLeaves(stmt, leaves);
  auto first = llvm::find_if(
      leaves, [&](Value leaf) { return !accessesIn(leaf, tensor).empty(); });
  if (first == leaves.end())
    return false;
  auto store = first->getDefiningOp<StoreOp>();
  if (store ? !coversAll(store, loops, tensor)
            : !writesAllFirst(*first, tensor, loops))
    return false;
  for (Value later : llvm::make_range(std::next(first), leaves.end()))
    for (Operation *op : accessesIn(later, tensor)) {
      auto load = dyn_cast<LoadOp>(op);
      if (!store || !load || load.getIndices() != store.getIndices())
        return false;
    }
  return true;
}

/// Whether the first statement of `body` touching `tensor` writes all of
/// it before reading any of it (the statements after it may then read it
/// freely).
static bool clearedFirst(Value body, Value tensor) {
  SmallVector<Value> leaves;
  collectSequenceLeaves(body, leaves);
  for (Value leaf : leaves) {
    if (accessesIn(leaf, tensor).empty())
      continue;
    SmallVector<LoopOp> loops;
    return writesAllFirst(leaf, tensor, loops);
  }
  return false;
}

/// `[1] + shape` of `type`.
static TileType withUnitDim(TileType type) {
  SmallVector<TileDim> shape{TileDim::concrete(1)};
  llvm::append_range(shape, type.getShape());
  return TileType::get(type.getContext(), shape, type.getElementType());
}

/// Rewrites every access of `tensor` (all inside `loop`) to its copy for the
/// iteration: `T[idx]` becomes `reshape(T'[elem v, idx])`.
static void expand(BlockArgument tensor, LoopOp loop, int64_t trips,
                   ArrayRef<Operation *> accesses) {
  auto type = cast<TensorRefType>(tensor.getType());
  SmallVector<int64_t> shape{trips};
  llvm::append_range(shape, type.getShape());
  tensor.setType(TensorRefType::get(type.getContext(), shape,
                                    type.getElementType(), type.getRole()));
  OpBuilder b(loop.getVarOp());
  b.setInsertionPointAfter(loop.getVarOp());
  Value elem = ElemIndexOp::create(b, loop.getLoc(), loop.getVar());
  for (Operation *op : accesses) {
    b.setInsertionPoint(op);
    SmallVector<Value> indices{elem};
    llvm::append_range(indices, indicesOf(op));
    if (auto load = dyn_cast<LoadOp>(op)) {
      Value wide = LoadOp::create(b, op->getLoc(), withUnitDim(load.getType()),
                                  tensor, indices);
      Value back = ReshapeOp::create(b, op->getLoc(), load.getType(), wide);
      load.replaceAllUsesWith(back);
    } else {
      auto store = cast<StoreOp>(op);
      Value value = store.getValue();
      Value wide = ReshapeOp::create(
          b, op->getLoc(), withUnitDim(cast<TileType>(value.getType())), value);
      Value stmt = StoreOp::create(b, op->getLoc(), wide, tensor, indices);
      store.replaceAllUsesWith(stmt);
    }
    op->erase();
  }
}

unsigned gpu_lowering::privatizeTensors(
    ProgramOp program, const llvm::StringMap<int64_t> &sizes,
    ArrayRef<std::pair<unsigned, unsigned>> aliases,
    llvm::StringSet<> &pinned) {
  SmallVector<Value> leaves;
  collectSequenceLeaves(program.getRoot(), leaves);
  // Per tensor: the one top-level statement touching it (null: several).
  llvm::MapVector<Value, Value> owner;
  llvm::DenseMap<Value, SmallVector<Operation *>> accessesOf;
  for (Value leaf : leaves) {
    llvm::SetVector<Operation *> accesses;
    collectLoadsStores(leaf, accesses);
    for (Operation *op : accesses) {
      Value t = tensorOf(op);
      auto [it, fresh] = owner.try_emplace(t, leaf);
      if (!fresh && it->second != leaf)
        it->second = nullptr;
      accessesOf[t].push_back(op);
    }
  }
  unsigned count = 0;
  for (auto [t, leaf] : owner) {
    auto arg = dyn_cast<BlockArgument>(t);
    auto loop = leaf ? leaf.getDefiningOp<LoopOp>() : LoopOp();
    if (!arg || !loop ||
        cast<TensorRefType>(arg.getType()).getRole() !=
            TensorRole::Intermediate ||
        isAliased(aliases, arg.getArgNumber()) ||
        llvm::any_of(accessesOf[t],
                     [&](Operation *op) {
                       return usesVar(indicesOf(op), loop.getVar());
                     }) ||
        !clearedFirst(loop.getBody(), t))
      continue;
    std::optional<TileDim> step = loop.getStepDim();
    int64_t stepValue = 0;
    if (step && step->isConcrete())
      stepValue = step->getConcrete();
    else if (step && step->coeff == 1) {
      stepValue = sizes.lookup(step->sym.getValue());
      pinned.insert(step->sym.getValue());
    }
    if (stepValue <= 0 || loop.getEndIndex() <= loop.getStartIndex())
      continue;
    int64_t trips = (loop.getEndIndex() - 1) / stepValue + 1;
    expand(arg, loop, trips, accessesOf[t]);
    ++count;
  }
  return count;
}
