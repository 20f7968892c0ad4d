//===- Partition.cpp - Kernels, grids and on-chip buffers of a plan -------===//

#include "Partition.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

#include <set>

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::interp;
using namespace mlir::tileir::gpu_lowering;

using Kind = ExprNode::Kind;

void gpu_lowering::collectSequence(const Plan &plan, unsigned id,
                                   SmallVectorImpl<unsigned> &out) {
  while (true) {
    const StmtNode &stmt = plan.stmts[id];
    if (stmt.kind == StmtNode::Kind::Nop)
      return;
    if (stmt.kind != StmtNode::Kind::Seq) {
      out.push_back(id);
      return;
    }
    collectSequence(plan, stmt.first, out);
    id = stmt.second;
  }
}

/// Visits the expression DAG of `root` once per node, operands first.
static void postOrder(const Plan &plan, unsigned root,
                      llvm::function_ref<void(unsigned)> visit) {
  llvm::DenseSet<unsigned> seen;
  // (node, operands pushed)
  SmallVector<std::pair<unsigned, bool>> stack{{root, false}};
  while (!stack.empty()) {
    auto [id, expanded] = stack.pop_back_val();
    if (expanded) {
      visit(id);
      continue;
    }
    if (!seen.insert(id).second)
      continue;
    stack.push_back({id, true});
    for (unsigned operand : llvm::reverse(plan.exprs[id].operands))
      if (!seen.count(operand))
        stack.push_back({operand, false});
  }
}

bool gpu_lowering::movesWithLoop(const Access &access, unsigned var) {
  return llvm::any_of(access.dims, [&](const DimIndex &dim) {
    return (dim.kind == DimIndex::Kind::Tile ||
            dim.kind == DimIndex::Kind::Elem) &&
           dim.var == var;
  });
}

/// Calls `fn` on every store in statement `id`, in program order.
static void forEachStore(const Plan &plan, unsigned id,
                         llvm::function_ref<void(const StmtNode &)> fn) {
  const StmtNode &stmt = plan.stmts[id];
  switch (stmt.kind) {
  case StmtNode::Kind::Nop:
    return;
  case StmtNode::Kind::Seq:
    forEachStore(plan, stmt.first, fn);
    forEachStore(plan, stmt.second, fn);
    return;
  case StmtNode::Kind::Loop:
    forEachStore(plan, stmt.first, fn);
    return;
  case StmtNode::Kind::Store:
    fn(stmt);
    return;
  }
}

void gpu_lowering::collectAccesses(const Plan &plan, unsigned id,
                                   SmallVectorImpl<const Access *> &writes,
                                   SmallVectorImpl<const Access *> &reads) {
  forEachStore(plan, id, [&](const StmtNode &store) {
    writes.push_back(&store.access);
    postOrder(plan, store.first, [&](unsigned e) {
      if (plan.exprs[e].kind == Kind::Load)
        reads.push_back(&plan.exprs[e].access);
    });
  });
}

void gpu_lowering::collectLoads(const Plan &plan, unsigned id,
                                SmallVectorImpl<unsigned> &loads) {
  forEachStore(plan, id, [&](const StmtNode &store) {
    postOrder(plan, store.first, [&](unsigned e) {
      if (plan.exprs[e].kind == Kind::Load && !llvm::is_contained(loads, e))
        loads.push_back(e);
    });
  });
}

/// Whether tensors `x` and `y` may share elements: the same tensor, or a
/// pair declared `tile.may_alias`.
static bool mayOverlap(ArrayRef<std::pair<unsigned, unsigned>> aliases,
                       unsigned x, unsigned y) {
  return x == y || llvm::is_contained(aliases, std::make_pair(x, y)) ||
         llvm::is_contained(aliases, std::make_pair(y, x));
}

/// Whether `a` (in a loop over `varA`) and `b` (in a loop over `varB`) touch
/// disjoint elements whenever their iteration numbers differ: some dimension
/// indexes `a` by `varA` and `b` by `varB` the same way, the two loops having
/// the same start and step (tiles of loops with one step are disjoint for
/// distinct iterations); or two constant slices never meet.
static bool separatedAcross(const Access &a, const Access &b, unsigned varA,
                            unsigned varB, bool sameIterationSpace) {
  for (auto [da, db] : llvm::zip_equal(a.dims, b.dims)) {
    if (sameIterationSpace && da.kind == db.kind && da.var == varA &&
        db.var == varB &&
        (da.kind == DimIndex::Kind::Tile || da.kind == DimIndex::Kind::Elem))
      return true;
    if (da.kind == DimIndex::Kind::Const && db.kind == DimIndex::Kind::Const &&
        (da.base + da.extent <= db.base || db.base + db.extent <= da.base))
      return true;
  }
  return false;
}

/// Whether no element that `writes` touch in one iteration of the loop over
/// `var` is touched by `writes` or `reads` in another. Sound but not
/// complete (a pair it cannot separate counts as a conflict).
static bool iterationsIndependent(ArrayRef<const Access *> writes,
                                  ArrayRef<const Access *> reads, unsigned var,
                                  ArrayRef<std::pair<unsigned, unsigned>> aliases) {
  auto conflict = [&](const Access *w, const Access *other) {
    if (!mayOverlap(aliases, w->tensor, other->tensor))
      return false;
    // Aliases of another tensor share no dimensions to separate by.
    if (w->tensor != other->tensor)
      return true;
    return !separatedAcross(*w, *other, var, var, true);
  };
  for (const Access *w : writes)
    for (ArrayRef<const Access *> others : {writes, reads})
      if (llvm::any_of(others, [&](const Access *o) { return conflict(w, o); }))
        return false;
  return true;
}

/// Whether the iterations of loop `id` may run in any order and at once: no
/// element written in one iteration is read or written in another.
static bool isParallel(const Plan &plan, unsigned id,
                       ArrayRef<std::pair<unsigned, unsigned>> aliases) {
  const StmtNode &loop = plan.stmts[id];
  if (loop.end - loop.start <= loop.step)
    return true; // one iteration
  SmallVector<const Access *> writes, reads;
  collectAccesses(plan, loop.first, writes, reads);
  return iterationsIndependent(writes, reads, loop.var, aliases);
}

/// Whether the loops of sequence `leaves` (each provably parallel) may run
/// side by side with iteration b of each on block b: whatever one loop
/// writes, another loop touches only in the same iteration number.
static bool alignedLoops(const Plan &plan, ArrayRef<unsigned> leaves,
                         ArrayRef<std::pair<unsigned, unsigned>> aliases) {
  struct Side {
    const StmtNode *loop;
    SmallVector<const Access *> writes, reads;
  };
  SmallVector<Side> sides;
  for (unsigned id : leaves) {
    Side side{&plan.stmts[id], {}, {}};
    collectAccesses(plan, side.loop->first, side.writes, side.reads);
    sides.push_back(std::move(side));
  }
  auto conflict = [&](const Access *w, const Side &ws, const Access *o,
                      const Side &os) {
    if (!mayOverlap(aliases, w->tensor, o->tensor))
      return false;
    if (w->tensor != o->tensor)
      return true;
    bool same =
        ws.loop->start == os.loop->start && ws.loop->step == os.loop->step;
    return !separatedAcross(*w, *o, ws.loop->var, os.loop->var, same);
  };
  for (size_t i = 0; i < sides.size(); ++i)
    for (size_t j = i + 1; j < sides.size(); ++j)
      for (auto [x, y] : {std::make_pair(&sides[i], &sides[j]),
                          std::make_pair(&sides[j], &sides[i])})
        for (const Access *w : x->writes) {
          for (const Access *o : y->writes)
            if (conflict(w, *x, o, *y))
              return false;
          for (const Access *o : y->reads)
            if (conflict(w, *x, o, *y))
              return false;
        }
  return true;
}

/// Whether a value can be recomputed per use instead of being buffered:
/// loads and constants seen through layout changes and casts.
static bool isCheap(const Plan &plan, unsigned id) {
  while (true) {
    const ExprNode &node = plan.exprs[id];
    switch (node.kind) {
    case Kind::Load:
    case Kind::Constant:
      return true;
    case Kind::Alias:
    case Kind::Gather:
    case Kind::Cast:
      id = node.operands[0];
      continue;
    default:
      return false;
    }
  }
}

bool gpu_lowering::isAliased(ArrayRef<std::pair<unsigned, unsigned>> aliases,
                             unsigned tensor) {
  return llvm::any_of(aliases, [&](std::pair<unsigned, unsigned> pair) {
    return pair.first == tensor || pair.second == tensor;
  });
}

bool gpu_lowering::sameAccess(const Access &a, const Access &b) {
  if (a.tensor != b.tensor || a.dims.size() != b.dims.size())
    return false;
  for (auto [x, y] : llvm::zip_equal(a.dims, b.dims))
    if (x.kind != y.kind || x.var != y.var || x.base != y.base ||
        x.extent != y.extent)
      return false;
  return true;
}

/// Whether expression `root` (a value of `shape`) reads a tensor that one of
/// `writes` may touch anywhere but at the element it is computing: through
/// a non-elementwise op, with another access, or with another shape. Nodes
/// in `buffered` (other than the root) are computed beforehand and not
/// walked.
static bool
readsWrittenElsewhere(const Plan &plan, unsigned root, ArrayRef<int64_t> shape,
                      ArrayRef<const Access *> writes,
                      const llvm::DenseSet<unsigned> &buffered,
                      ArrayRef<std::pair<unsigned, unsigned>> aliases) {
  // `elementwise` tracks whether the path keeps the element index unchanged.
  SmallVector<std::pair<unsigned, bool>> stack{{root, true}};
  llvm::DenseSet<std::pair<unsigned, unsigned>> seen;
  while (!stack.empty()) {
    auto [id, elementwise] = stack.pop_back_val();
    if (!seen.insert({id, unsigned(elementwise)}).second)
      continue;
    if (id != root && buffered.count(id))
      continue;
    const ExprNode &node = plan.exprs[id];
    if (node.kind == Kind::Load) {
      for (const Access *w : writes)
        if (mayOverlap(aliases, node.access.tensor, w->tensor) &&
            !(elementwise && sameAccess(node.access, *w) &&
              ArrayRef<int64_t>(node.shape) == shape))
          return true;
      continue;
    }
    bool keeps = node.kind == Kind::Unary || node.kind == Kind::Binary ||
                 node.kind == Kind::Cmp || node.kind == Kind::Select ||
                 node.kind == Kind::Cast || node.kind == Kind::Alias;
    for (unsigned operand : node.operands)
      stack.push_back({operand, elementwise && keeps});
  }
  return false;
}

/// Whether the value a store writes reads the stored tensor at other
/// elements than the one being written, so that storing while other threads
/// still read would race.
static bool
readsStoredTensorElsewhere(const Plan &plan, const StmtNode &store,
                           const llvm::DenseSet<unsigned> &buffered,
                           ArrayRef<std::pair<unsigned, unsigned>> aliases) {
  return readsWrittenElsewhere(plan, store.first, plan.exprs[store.first].shape,
                               {&store.access}, buffered, aliases);
}

/// Whether loop `id` can run element by element: its body is a sequence of
/// stores of one tile shape, each tensor written with one access, and every
/// store reads what the body writes only at the element it computes. Then
/// element e of every store depends only on element e of the body's writes,
/// and running all iterations for e on one thread is the same arithmetic in
/// the same order. Returns the number of elements of that shape.
static std::optional<int64_t>
getElementLoopSize(const Plan &plan, unsigned id,
                   ArrayRef<std::pair<unsigned, unsigned>> aliases) {
  SmallVector<unsigned> leaves;
  collectSequence(plan, plan.stmts[id].first, leaves);
  if (leaves.empty())
    return std::nullopt;
  SmallVector<const Access *> writes;
  ArrayRef<int64_t> shape = plan.exprs[plan.stmts[leaves[0]].first].shape;
  for (unsigned leaf : leaves) {
    const StmtNode &store = plan.stmts[leaf];
    if (store.kind != StmtNode::Kind::Store ||
        ArrayRef<int64_t>(plan.exprs[store.first].shape) != shape)
      return std::nullopt;
    for (const Access *w : writes)
      if (mayOverlap(aliases, w->tensor, store.access.tensor) &&
          !sameAccess(*w, store.access))
        return std::nullopt;
    writes.push_back(&store.access);
  }
  if (llvm::any_of(leaves, [&](unsigned leaf) {
        return readsWrittenElsewhere(plan, plan.stmts[leaf].first, shape,
                                     writes, {}, aliases);
      }))
    return std::nullopt;
  return plan.exprs[plan.stmts[leaves[0]].first].numElements;
}

/// If store `id` is `S = S + g`: a store into an f32 tensor whose value adds
/// a load of the stored region (same access, same shape) to an expression g
/// that reads nothing the store may write, returns g.
static std::optional<unsigned>
getAccumulationAddend(const Plan &plan, unsigned id,
                      ArrayRef<std::pair<unsigned, unsigned>> aliases,
                      ArrayRef<ElementKind> tensorKinds) {
  const StmtNode &store = plan.stmts[id];
  if (store.kind != StmtNode::Kind::Store ||
      store.access.tensor >= tensorKinds.size() ||
      tensorKinds[store.access.tensor] != ElementKind::F32)
    return std::nullopt;
  const ExprNode &root = plan.exprs[store.first];
  if (root.kind != Kind::Binary || root.binaryFn != BinaryFn::Add ||
      root.elementKind != ElementKind::F32)
    return std::nullopt;
  for (unsigned side = 0; side < 2; ++side) {
    const ExprNode &acc = plan.exprs[root.operands[side]];
    unsigned addend = root.operands[1 - side];
    if (acc.kind != Kind::Load || !sameAccess(acc.access, store.access) ||
        acc.shape != root.shape)
      continue;
    bool readsStored = false;
    postOrder(plan, addend, [&](unsigned e) {
      const ExprNode &node = plan.exprs[e];
      readsStored |=
          node.kind == Kind::Load &&
          mayOverlap(aliases, node.access.tensor, store.access.tensor);
    });
    if (!readsStored)
      return addend;
  }
  return std::nullopt;
}

/// If loop `id` is `S = S + g(k)` (its body one such store), returns g.
static std::optional<unsigned>
getSplitAddend(const Plan &plan, unsigned id,
               ArrayRef<std::pair<unsigned, unsigned>> aliases,
               ArrayRef<ElementKind> tensorKinds) {
  return getAccumulationAddend(plan, plan.stmts[id].first, aliases,
                               tensorKinds);
}

/// The accumulations of a loop `id` run by the whole block whose chunks of
/// iterations may run on separate blocks, each adding its addends
/// atomically: every statement of its body either is an accumulation
/// `T = T + g` into an f32 tensor T at a region that does not move with the
/// loop (T touched nowhere else in the loop, g reading no accumulated
/// tensor), or touches only what no other iteration touches (as
/// `isParallel` asks, the accumulations aside): the per-iteration tiles of
/// a FlashAttention loop, `logit[h, :, tile p] = exp(Q K^T)` beside
/// `accm[h] += rsum(logit)` and `O[h] += logit V`. Returns each
/// accumulation store with its g, or nothing when the loop has none or
/// cannot be split.
static std::optional<llvm::DenseMap<unsigned, unsigned>>
getSplitStores(const Plan &plan, unsigned id,
               ArrayRef<std::pair<unsigned, unsigned>> aliases,
               ArrayRef<ElementKind> tensorKinds) {
  const StmtNode &loop = plan.stmts[id];
  SmallVector<unsigned> leaves;
  collectSequence(plan, loop.first, leaves);
  llvm::DenseMap<unsigned, unsigned> addends;
  SmallVector<const Access *> accumulated, writes, reads;
  for (unsigned leaf : leaves) {
    const StmtNode &stmt = plan.stmts[leaf];
    if (stmt.kind != StmtNode::Kind::Store ||
        movesWithLoop(stmt.access, loop.var)) {
      collectAccesses(plan, leaf, writes, reads);
      continue;
    }
    std::optional<unsigned> addend =
        getAccumulationAddend(plan, leaf, aliases, tensorKinds);
    if (!addend)
      return std::nullopt;
    addends[leaf] = *addend;
    accumulated.push_back(&stmt.access);
    postOrder(plan, *addend, [&](unsigned e) {
      if (plan.exprs[e].kind == Kind::Load)
        reads.push_back(&plan.exprs[e].access);
    });
  }
  if (addends.empty())
    return std::nullopt;
  // Each accumulated tensor is touched by its own accumulation only.
  for (const Access *t : accumulated) {
    auto touches = [&](const Access *other) {
      return other != t && mayOverlap(aliases, t->tensor, other->tensor);
    };
    if (llvm::any_of(accumulated, touches) || llvm::any_of(writes, touches) ||
        llvm::any_of(reads, touches))
      return std::nullopt;
  }
  // Everything else is private to its iteration.
  if (!iterationsIndependent(writes, reads, loop.var, aliases))
    return std::nullopt;
  return addends;
}

/// Whether expression `id` is computed element by element at the elements
/// of a tile of `shape`: loads, constants and elementwise ops of that shape
/// (and, with `matmuls`, matmuls of that shape, not walked into).
static bool isElementwiseOver(const Plan &plan, unsigned id,
                              ArrayRef<int64_t> shape, bool matmuls) {
  const ExprNode &node = plan.exprs[id];
  if (node.shape != shape)
    return false;
  switch (node.kind) {
  case Kind::Load:
  case Kind::Constant:
    return true;
  case Kind::Matmul:
    return matmuls;
  case Kind::Unary:
  case Kind::Binary:
  case Kind::Cmp:
  case Kind::Select:
  case Kind::Cast:
  case Kind::Alias:
    return llvm::all_of(node.operands, [&](unsigned operand) {
      return isElementwiseOver(plan, operand, shape, matmuls);
    });
  default:
    return false;
  }
}

std::optional<unsigned>
gpu_lowering::getWarpProductLoad(const Plan &plan, unsigned matmul, bool tf32) {
  auto below = [&](unsigned e) {
    while (plan.exprs[e].kind == Kind::Alias)
      e = plan.exprs[e].operands[0];
    return e;
  };
  const ExprNode &node = plan.exprs[matmul];
  if (node.kind != Kind::Matmul || node.elementKind != ElementKind::F32)
    return std::nullopt;
  // An exact cast (f16 to f32) is an alias in the plan.
  ElementKind left = plan.exprs[node.operands[0]].elementKind;
  ElementKind rightKind = plan.exprs[node.operands[1]].elementKind;
  unsigned right = below(node.operands[1]);
  bool half = left == ElementKind::F16 && rightKind == ElementKind::F16;
  bool wide = tf32 && left == ElementKind::F32 && rightKind == ElementKind::F32;
  if ((!half && !wide) || plan.exprs[right].kind != Kind::Load ||
      plan.exprs[right].elementKind != ElementKind::F16)
    return std::nullopt;
  return right;
}

/// Loop `id` as a warp loop (`WarpLoop`), `warps` not yet set: its body starts
/// with stores of tiles of one shape, 16 rows of 16, 32 or 64 columns, moving
/// with the loop, each computed elementwise from matmuls (16 rows, f32 results,
/// f16 operands) and loads of earlier tiles' regions, the first from at least
/// one matmul; every other statement is an accumulation of `getSplitStores`
/// whose addend is a row sum over a tile's columns or a matmul of an
/// expression of the tiles (16 rows, a multiple of 16 columns) by an f16 load
/// (`getWarpProductLoad`: both f16, or with `tf32` f32 by a cast-up load).
/// The tiles' tensors are read only through loads of the regions their stores
/// write, after those stores.
static std::optional<WarpLoop>
getWarpLoop(const Plan &plan, unsigned id,
            ArrayRef<std::pair<unsigned, unsigned>> aliases,
            const PartitionOptions &options) {
  const StmtNode &loop = plan.stmts[id];
  if (loop.kind != StmtNode::Kind::Loop)
    return std::nullopt;
  std::optional<llvm::DenseMap<unsigned, unsigned>> stores =
      getSplitStores(plan, id, aliases, options.tensorKinds);
  SmallVector<unsigned> leaves;
  collectSequence(plan, loop.first, leaves);
  if (!stores || leaves.empty() ||
      plan.stmts[leaves.front()].kind != StmtNode::Kind::Store)
    return std::nullopt;
  ArrayRef<int64_t> shape = plan.exprs[plan.stmts[leaves.front()].first].shape;
  if (shape.size() < 2 || shape.end()[-2] != 16 ||
      !llvm::is_contained({16, 32, 64}, shape.back()) ||
      plan.exprs[plan.stmts[leaves.front()].first].numElements !=
          16 * shape.back())
    return std::nullopt;
  int64_t columns = shape.back();
  auto isHalf = [&](unsigned e) {
    return plan.exprs[e].elementKind == ElementKind::F16;
  };
  // Whether expression `e` reads the tiles stored so far only at their
  // regions and no other tile's tensor.
  SmallVector<const Access *> tiles;
  auto readsTilesOnly = [&](unsigned e, bool matmuls) {
    bool fits = true;
    postOrder(plan, e, [&](unsigned n) {
      const ExprNode &node = plan.exprs[n];
      if (node.kind != Kind::Load)
        return;
      for (const Access *tile : tiles)
        fits &=
            !mayOverlap(aliases, node.access.tensor, tile->tensor) ||
            (!matmuls && sameAccess(node.access, *tile) && node.shape == shape);
    });
    return fits;
  };
  WarpLoop warp;
  size_t next = 0;
  for (; next < leaves.size() && !stores->count(leaves[next]); ++next) {
    const StmtNode &store = plan.stmts[leaves[next]];
    ElementKind kind = options.tensorKinds[store.access.tensor];
    if (store.kind != StmtNode::Kind::Store ||
        !movesWithLoop(store.access, loop.var) ||
        (kind != ElementKind::F32 && kind != ElementKind::F16 &&
         kind != ElementKind::BF16) ||
        !isElementwiseOver(plan, store.first, shape, /*matmuls=*/true))
      return std::nullopt;
    // The matmuls: 16-row f32 results from f16 operands, reading no tile.
    bool fits = true, matmul = false;
    forEachLaneMatmul(plan, store.first, [&](unsigned e) {
      const ExprNode &node = plan.exprs[e];
      matmul = true;
      fits &= node.elementKind == ElementKind::F32 && node.sizes[0] == 1 &&
              node.sizes[1] == 16 && node.sizes[2] % 16 == 0 &&
              node.sizes[3] == columns && isHalf(node.operands[0]) &&
              isHalf(node.operands[1]) && readsTilesOnly(e, true);
    });
    // A tile's own tensor is read by later statements only.
    tiles.push_back(&store.access);
    if (!fits || (next == 0 && !matmul) || !readsTilesOnly(store.first, false))
      return std::nullopt;
    postOrder(plan, store.first, [&](unsigned e) {
      const ExprNode &node = plan.exprs[e];
      fits &= node.kind != Kind::Load ||
              !mayOverlap(aliases, node.access.tensor, store.access.tensor);
    });
    if (!fits)
      return std::nullopt;
    warp.tiles.push_back({leaves[next], true});
  }
  if (warp.tiles.empty() || next == leaves.size())
    return std::nullopt;
  for (unsigned leaf : llvm::drop_begin(leaves, next)) {
    auto addend = stores->find(leaf);
    if (addend == stores->end() || !readsTilesOnly(addend->second, false))
      return std::nullopt;
    const ExprNode &g = plan.exprs[addend->second];
    if (g.kind == Kind::Reduce) {
      if (g.reduceFn != ReduceFn::Sum || g.elementKind != ElementKind::F32 ||
          g.sizes[0] != 16 || g.sizes[1] != columns || g.sizes[2] != 1 ||
          !isElementwiseOver(plan, g.operands[0], shape, /*matmuls=*/false))
        return std::nullopt;
    } else if (g.kind == Kind::Matmul) {
      std::optional<unsigned> right =
          getWarpProductLoad(plan, addend->second, options.tf32);
      if (!right || g.sizes[0] != 1 || g.sizes[1] != 16 ||
          g.sizes[2] != columns || g.sizes[3] % 16 != 0 ||
          !isElementwiseOver(plan, g.operands[0], shape, /*matmuls=*/false))
        return std::nullopt;
      warp.productLoads[addend->second] = *right;
    } else {
      return std::nullopt;
    }
    warp.accumulations.push_back({leaf, addend->second});
    warp.laneSums += g.kind == Kind::Reduce ? 2 : g.sizes[3] / 2;
  }
  // A tile need not be stored when it is an intermediate that no store
  // outside the loop reads (and no other tensor may alias).
  SmallVector<const Access *> inside, insideReads;
  collectAccesses(plan, id, inside, insideReads);
  ArrayRef<TensorRole> roles = options.tensorRoles;
  for (std::pair<unsigned, bool> &tile : warp.tiles) {
    unsigned tensor = plan.stmts[tile.first].access.tensor;
    bool &stored = tile.second;
    stored = tensor >= roles.size() ||
             roles[tensor] != TensorRole::Intermediate ||
             isAliased(aliases, tensor);
    for (unsigned s = 0, e = plan.stmts.size(); s < e && !stored; ++s) {
      if (plan.stmts[s].kind != StmtNode::Kind::Store ||
          llvm::is_contained(inside, &plan.stmts[s].access))
        continue;
      postOrder(plan, plan.stmts[s].first, [&](unsigned n) {
        const ExprNode &node = plan.exprs[n];
        stored |= node.kind == Kind::Load && node.access.tensor == tensor;
      });
    }
  }
  return warp;
}

void gpu_lowering::forEachLaneMatmul(const Plan &plan, unsigned id,
                                     llvm::function_ref<void(unsigned)> fn) {
  const ExprNode &node = plan.exprs[id];
  switch (node.kind) {
  case Kind::Matmul:
    fn(id);
    return;
  case Kind::Unary:
  case Kind::Binary:
  case Kind::Cast:
    for (unsigned operand : node.operands)
      forEachLaneMatmul(plan, operand, fn);
    return;
  default:
    return;
  }
}

/// The number of elements of the tiles a kernel's body stores, if the body
/// is an element loop whose stores compute a matmul (through elementwise
/// ops).
static std::optional<int64_t> getMatmulLoopElements(const Plan &plan,
                                                    const StmtNode &body,
                                                    const Kernel &kernel) {
  if (body.kind != StmtNode::Kind::Loop ||
      !kernel.perElementLoops.contains(unsigned(&body - plan.stmts.data())))
    return std::nullopt;
  SmallVector<unsigned> leaves;
  collectSequence(plan, body.first, leaves);
  bool matmul = false;
  for (unsigned leaf : leaves) {
    if (plan.stmts[leaf].kind != StmtNode::Kind::Store)
      return std::nullopt;
    forEachLaneMatmul(plan, plan.stmts[leaf].first,
                      [&](unsigned) { matmul = true; });
  }
  if (!matmul || leaves.empty())
    return std::nullopt;
  return plan.exprs[plan.stmts[leaves.front()].first].numElements;
}

/// Fewest elements of a reduced extent one thread of a group reduction
/// combines (`StoreBuffers::groupReductions`).
static constexpr int64_t kGroupPart = 16;

namespace {

/// Assigns buffers for one kernel body.
class BufferPlanner {
public:
  BufferPlanner(const Plan &plan, Kernel &kernel,
                ArrayRef<std::pair<unsigned, unsigned>> aliases,
                const PartitionOptions &options)
      : plan(plan), kernel(kernel), aliases(aliases),
        sharedBudget(options.sharedMemoryBytes),
        elementLoops(options.elementLoops), useMma(options.mma),
        groupReductions(options.groupReductions),
        blockSize(std::max(1u, options.blockSize)),
        threadElements(std::max(1u, options.threadElements)) {}

  void run(unsigned id) {
    const StmtNode &stmt = plan.stmts[id];
    switch (stmt.kind) {
    case StmtNode::Kind::Nop:
      return;
    case StmtNode::Kind::Seq:
      run(stmt.first);
      run(stmt.second);
      return;
    case StmtNode::Kind::Loop: {
      std::optional<int64_t> size;
      if (elementLoops && (size = getElementLoopSize(plan, id, aliases))) {
        kernel.perElementLoops.insert(id);
        widest =
            std::max(widest, (*size + threadElements - 1) / threadElements);
        return;
      }
      run(stmt.first);
      return;
    }
    case StmtNode::Kind::Store:
      planStore(id);
      return;
    }
  }

private:
  /// Whether matmul `e` can run on the matrix units: f16 operands, an f32
  /// result, every size a multiple of 16.
  bool mmaCandidate(unsigned e) const {
    const ExprNode &node = plan.exprs[e];
    if (!useMma || node.kind != Kind::Matmul ||
        node.elementKind != ElementKind::F32)
      return false;
    for (unsigned operand : node.operands)
      if (plan.exprs[operand].elementKind != ElementKind::F16)
        return false;
    return node.sizes[1] % 16 == 0 && node.sizes[2] % 16 == 0 &&
           node.sizes[3] % 16 == 0;
  }

  /// An f32 buffer of `n` elements: in shared memory after the `shared` f32
  /// and `sharedHalf` f16 elements placed so far where the budget has room,
  /// else in the block's global scratch after `global` elements.
  Buffer placeF32(int64_t n, int64_t &shared, int64_t sharedHalf,
                  int64_t &global) const {
    Buffer buffer;
    if ((shared + n) * 4 + sharedHalf * 2 <= sharedBudget) {
      buffer.shared = true;
      buffer.offset = shared;
      shared += n;
    } else {
      buffer.offset = global;
      global += n;
    }
    return buffer;
  }

  /// Places the buffers of `wanted` (f16 ones for `half`); fails, placing
  /// nothing, if an f16 buffer does not fit in shared memory.
  bool place(const StmtNode &store, const llvm::DenseSet<unsigned> &wanted,
             const llvm::DenseSet<unsigned> &half, StoreBuffers &buffers,
             int64_t &shared, int64_t &sharedHalf, int64_t &global) {
    shared = sharedHalf = global = 0;
    bool fits = true;
    postOrder(plan, store.first, [&](unsigned e) {
      if (!wanted.count(e))
        return;
      int64_t n = plan.exprs[e].numElements;
      Buffer buffer;
      if (half.count(e)) {
        fits &= shared * 4 + sharedHalf * 2 + n * 2 <= sharedBudget;
        buffer.shared = buffer.half = true;
        buffer.offset = sharedHalf;
        sharedHalf += n;
      } else {
        buffer = placeF32(n, shared, sharedHalf, global);
      }
      buffers.nodes[e] = buffer;
      buffers.order.push_back(e);
    });
    return fits;
  }

  /// Cuts the buffered reductions of `buffers` with fewer result elements
  /// than the block has threads among groups of threads (each thread at
  /// least `kGroupPart` elements of the reduced extent: shorter sums stay
  /// on one thread), their partial results in shared memory where it has
  /// room, else in the block's global scratch.
  void planGroupReductions(StoreBuffers &buffers, int64_t &shared,
                           int64_t sharedHalf, int64_t &global) {
    for (unsigned e : buffers.order) {
      const ExprNode &node = plan.exprs[e];
      if (node.kind != Kind::Reduce || buffers.mma.contains(e))
        continue;
      int64_t n = node.numElements, extent = node.sizes[1];
      int64_t group = 1;
      while (n * group * 2 <= blockSize && group * 2 * kGroupPart <= extent)
        group *= 2;
      if (group == 1)
        continue;
      buffers.groupReductions[e] = {
          group, placeF32(n * group, shared, sharedHalf, global)};
      widest = std::max(widest, n * group);
    }
  }

  void planStore(unsigned id) {
    const StmtNode &store = plan.stmts[id];
    StoreBuffers buffers;
    llvm::DenseSet<unsigned> wanted, half;
    postOrder(plan, store.first, [&](unsigned e) {
      const ExprNode &node = plan.exprs[e];
      if (node.kind == Kind::Matmul || node.kind == Kind::Reduce) {
        wanted.insert(e);
        if (mmaCandidate(e)) {
          buffers.mma.insert(e);
          for (unsigned operand : node.operands) {
            wanted.insert(operand);
            half.insert(operand);
          }
          return;
        }
        for (unsigned operand : node.operands)
          if (!isCheap(plan, operand))
            wanted.insert(operand);
      }
    });
    // An operand shared with a non-matrix-unit use stays f32.
    for (unsigned e : llvm::to_vector(half)) {
      bool other = false;
      postOrder(plan, store.first, [&](unsigned user) {
        if (!buffers.mma.count(user))
          other |= llvm::is_contained(plan.exprs[user].operands, e);
      });
      if (other)
        half.erase(e);
    }
    for (unsigned e : llvm::to_vector(buffers.mma))
      for (unsigned operand : plan.exprs[e].operands)
        if (!half.count(operand))
          buffers.mma.erase(e);
    buffers.bufferRoot =
        readsStoredTensorElsewhere(plan, store, wanted, aliases);
    if (buffers.bufferRoot)
      wanted.insert(store.first);
    // Shared memory first, in evaluation order; what does not fit spills to
    // the block's slice of global scratch. Matrix-unit operands must be in
    // shared memory: without room, those matmuls run on the vector units.
    int64_t shared, sharedHalf, global;
    if (!place(store, wanted, half, buffers, shared, sharedHalf, global)) {
      buffers.nodes.clear();
      buffers.order.clear();
      buffers.mma.clear();
      place(store, wanted, {}, buffers, shared, sharedHalf, global);
    }
    widest = std::max(widest, plan.exprs[store.first].numElements);
    for (unsigned e : buffers.order)
      widest = std::max(widest, plan.exprs[e].numElements);
    if (groupReductions)
      planGroupReductions(buffers, shared, sharedHalf, global);
    kernel.sharedElements = std::max(kernel.sharedElements, shared);
    kernel.sharedHalfElements = std::max(kernel.sharedHalfElements, sharedHalf);
    kernel.scratchElements = std::max(kernel.scratchElements, global);
    kernel.stores[id] = std::move(buffers);
  }

public:
  /// The most elements any step of the body computes.
  int64_t widest = 1;

private:
  const Plan &plan;
  Kernel &kernel;
  ArrayRef<std::pair<unsigned, unsigned>> aliases;
  int64_t sharedBudget;
  bool elementLoops;
  bool useMma;
  bool groupReductions;
  int64_t blockSize;
  int64_t threadElements;
};

} // namespace

/// Elements a split sum adds per accumulated element and iteration from
/// which its chunks are not capped by `split-k`.
static constexpr int64_t kWideSum = 16;

/// Iterations per chunk for `trips` iterations cut into at least `fewest`
/// chunks where `most` allows: as few chunks as that takes (chunks of
/// trips / fewest iterations, rounded down, would make), at most `most`, of
/// equal length but for the last (64 in 3 or more: 4 x 16, not
/// 21 + 21 + 21 + 1).
static int64_t getChunkTrips(int64_t trips, int64_t fewest, int64_t most) {
  fewest = std::clamp<int64_t>(fewest, 1, trips);
  most = std::clamp<int64_t>(most, fewest, trips);
  int64_t length = std::max<int64_t>(1, trips / fewest);
  int64_t chunks = std::min<int64_t>(most, llvm::divideCeil(trips, length));
  return llvm::divideCeil(trips, chunks);
}

/// Loop statement `id` as a grid loop.
static GridLoop gridLoopOf(const Plan &plan, unsigned id) {
  const StmtNode &loop = plan.stmts[id];
  GridLoop g;
  g.stmt = id;
  g.var = loop.var;
  g.start = loop.start;
  g.step = loop.step;
  g.trips = (loop.end - loop.start) / loop.step;
  return g;
}

/// The accumulations of element loop `id` if each of its stores is a
/// matmul accumulation `S = S + A B` at a region that does not move with the
/// loop, each into its own tensor, no addend reading what another store
/// writes (`getSplitStores` with no other statements): each store with its
/// addend.
static std::optional<llvm::DenseMap<unsigned, unsigned>>
getSliceableAddends(const Plan &plan, unsigned id,
                    ArrayRef<std::pair<unsigned, unsigned>> aliases,
                    ArrayRef<ElementKind> tensorKinds) {
  const StmtNode &loop = plan.stmts[id];
  if (loop.kind != StmtNode::Kind::Loop ||
      (loop.end - loop.start) / loop.step < 2)
    return std::nullopt;
  std::optional<llvm::DenseMap<unsigned, unsigned>> addends =
      getSplitStores(plan, id, aliases, tensorKinds);
  SmallVector<unsigned> leaves;
  collectSequence(plan, loop.first, leaves);
  if (!addends || addends->size() != leaves.size() ||
      llvm::any_of(*addends, [&](const auto &entry) {
        return plan.exprs[entry.second].kind != Kind::Matmul;
      }))
    return std::nullopt;
  return addends;
}

/// Fills `Kernel::slicedLoops` of a kernel that is not split: the element
/// loops of its body (the body, or statements of the body's sequence) that
/// are matmul accumulations (`getSliceableAddends`) over tiles of one
/// element count n, cut among as many k slices as `k-slices`, the block
/// and `shared-memory` allow (a power of two, at least 2). The block has
/// ceil(n / thread-elements) groups of lanes per slice.
static void planSlicedLoops(const Plan &plan,
                            ArrayRef<std::pair<unsigned, unsigned>> aliases,
                            const PartitionOptions &options, Kernel &kernel) {
  SmallVector<unsigned> leaves;
  collectSequence(plan, kernel.body, leaves);
  std::optional<int64_t> elements;
  int64_t mostStores = 0;
  SmallVector<std::pair<unsigned, llvm::DenseMap<unsigned, unsigned>>> loops;
  for (unsigned leaf : leaves) {
    std::optional<int64_t> n =
        getMatmulLoopElements(plan, plan.stmts[leaf], kernel);
    if (!n || (elements && *n != *elements))
      continue;
    std::optional<llvm::DenseMap<unsigned, unsigned>> addends =
        getSliceableAddends(plan, leaf, aliases, options.tensorKinds);
    if (!addends)
      continue;
    elements = n;
    mostStores = std::max<int64_t>(mostStores, addends->size());
    loops.push_back({leaf, std::move(*addends)});
  }
  if (loops.empty())
    return;
  int64_t groups =
      llvm::divideCeil(*elements, std::max<int64_t>(1, options.threadElements));
  int64_t slices = 1;
  while (slices * 2 <= int64_t(options.kSlices) &&
         groups * slices * 2 <= int64_t(options.blockSize) &&
         slices * 2 * mostStores * *elements * 4 <= options.sharedMemoryBytes)
    slices *= 2;
  if (slices < 2)
    return;
  for (auto &[loop, addends] : loops) {
    kernel.slicedLoops.insert(loop);
    for (auto [store, addend] : addends)
      kernel.slicedAddends[store] = addend;
  }
  kernel.kSlices = unsigned(slices);
  kernel.threads = unsigned(groups * slices);
  kernel.sharedElements =
      std::max(kernel.sharedElements, slices * mostStores * *elements);
}

/// Whether loop `id` has one iteration around `S = S + g(k)`: independent
/// only because it has one iteration, it stays in the body as the
/// accumulation loop it is, so that its matmul gets the element-loop code
/// (lane blocks, matrix units) as with more iterations.
static bool
isSingleTripAccumulation(const Plan &plan, unsigned id,
                         ArrayRef<std::pair<unsigned, unsigned>> aliases,
                         ArrayRef<ElementKind> tensorKinds) {
  const StmtNode &loop = plan.stmts[id];
  return loop.end - loop.start == loop.step &&
         getSplitAddend(plan, id, aliases, tensorKinds).has_value();
}

/// The kernel running statement `id` inside the grid loops `outer`: the
/// outermost parallel loops of `id` join the grid, the rest runs in each
/// block.
static Kernel buildKernel(const Plan &plan,
                          ArrayRef<std::pair<unsigned, unsigned>> aliases,
                          const PartitionOptions &options, unsigned id,
                          ArrayRef<GridLoop> outer) {
  Kernel kernel;
  kernel.stmt = id;
  kernel.grid.assign(outer.begin(), outer.end());
  for (const GridLoop &g : outer)
    kernel.numBlocks *= g.trips;
  unsigned body = id;
  while (plan.stmts[body].kind == StmtNode::Kind::Loop &&
         isParallel(plan, body, aliases) &&
         !isSingleTripAccumulation(plan, body, aliases, options.tensorKinds)) {
    GridLoop g = gridLoopOf(plan, body);
    kernel.grid.push_back(g);
    kernel.numBlocks *= g.trips;
    body = plan.stmts[body].first;
  }
  kernel.body = body;
  // A sequence of parallel loops whose iterations line up runs side by
  // side: iteration b of each on block b.
  SmallVector<unsigned> leaves;
  collectSequence(plan, body, leaves);
  bool horizontal =
      leaves.size() > 1 &&
      llvm::all_of(leaves,
                   [&](unsigned leaf) {
                     return plan.stmts[leaf].kind == StmtNode::Kind::Loop &&
                            isParallel(plan, leaf, aliases);
                   }) &&
      alignedLoops(plan, leaves, aliases);
  if (horizontal) {
    for (unsigned leaf : leaves) {
      GridLoop g = gridLoopOf(plan, leaf);
      kernel.partBlocks = std::max(kernel.partBlocks, g.trips);
      kernel.parts.push_back({g, plan.stmts[leaf].first});
    }
    kernel.numBlocks *= kernel.partBlocks;
  } else {
    kernel.parts.push_back({std::nullopt, body});
  }
  BufferPlanner planner(plan, kernel, aliases, options);
  for (const KernelPart &part : kernel.parts)
    planner.run(part.stmt);
  // A lone accumulation loop may be split across blocks: an element loop
  // `S = S + g(k)` (`Kernel::splitAddend`), or a loop the whole block runs
  // whose body accumulates beside per-iteration tiles
  // (`Kernel::splitStores`).
  const StmtNode &only = plan.stmts[body];
  bool elementSplit = false;
  if (options.splitK > 1 && kernel.numBlocks < options.minBlocks &&
      kernel.parts.size() == 1 && !kernel.parts.front().loop &&
      only.kind == StmtNode::Kind::Loop) {
    int64_t trips = (only.end - only.start) / only.step;
    int64_t wanted =
        (options.minBlocks + kernel.numBlocks - 1) / kernel.numBlocks;
    if (!kernel.perElementLoops.contains(body)) {
      if (auto stores =
              getSplitStores(plan, body, aliases, options.tensorKinds);
          stores && trips >= 2) {
        int64_t chunks = std::min<int64_t>({options.splitK, trips, wanted});
        kernel.chunkTrips = (trips + chunks - 1) / chunks;
        kernel.splitStores = std::move(*stores);
      }
    } else if (std::optional<unsigned> addend =
                   getSplitAddend(plan, body, aliases, options.tensorKinds);
               addend && trips >= 2) {
      int64_t most = std::min<int64_t>(options.splitK, trips);
      // A sum over at least `kWideSum` elements per iteration adds at most
      // 1/kWideSum of what it reads atomically, whatever its chunks: it may
      // use as many as reach `minBlocks` (a long chunk of such a sum is a
      // chain of dependent loads on few blocks).
      const ExprNode &g = plan.exprs[*addend];
      if (g.kind == Kind::Reduce && g.reduceFn == ReduceFn::Sum &&
          g.sizes[1] >= kWideSum)
        most = trips;
      // At least `wanted` chunks where `split-k` allows, of equal length:
      // the blocks of the longest chunk set the kernel's time.
      kernel.chunkTrips = getChunkTrips(trips, std::min(most, wanted), most);
      kernel.splitAddend = *addend;
      elementSplit = true;
    }
    if (kernel.chunkTrips) {
      kernel.splitChunks =
          unsigned((trips + kernel.chunkTrips - 1) / kernel.chunkTrips);
      kernel.numBlocks *= kernel.splitChunks;
    }
  }
  // Threads for the widest tile; a kernel that is one matmul accumulation
  // loop gets `thread-elements` elements per thread (a block of them, see
  // KernelEmitter) instead: lanes then share their operand loads.
  int64_t widest = planner.widest;
  std::optional<int64_t> matmulElements =
      getMatmulLoopElements(plan, only, kernel);
  if (matmulElements)
    widest = (*matmulElements + options.threadElements - 1) /
             std::max(1u, options.threadElements);
  int64_t warps = (widest + 31) / 32;
  kernel.threads = unsigned(
      std::min<int64_t>(options.blockSize, std::max<int64_t>(32, warps * 32)));
  // A split accumulation whose groups of lanes (a matmul's; else one
  // element per thread) leave threads of the block idle gives them slices of
  // its chunk's iterations, the partial sums added through shared memory
  // (as many slices as the block and `shared-memory` hold, a power of two).
  std::optional<int64_t> splitElements = matmulElements;
  int64_t groups = widest;
  if (!matmulElements && elementSplit) {
    splitElements = plan.exprs[plan.stmts[only.first].first].numElements;
    groups = *splitElements;
  }
  // Each of the groups' threads (`slices * lanes` per group) fits the
  // block, and each its partial tile in `shared-memory`.
  int64_t slices = 1, lanes = 1;
  auto fits = [&](int64_t threadsPerGroup) {
    return groups * threadsPerGroup <= int64_t(options.blockSize) &&
           threadsPerGroup * *splitElements * 4 <= options.sharedMemoryBytes;
  };
  if (splitElements && kernel.splitChunks > 1 && options.kSlices > 1) {
    // (A reduction's slices stay within its chunk's iterations; a matmul's
    // may exceed them: idle slices measured faster on the scores kernel.)
    while (slices * 2 <= int64_t(options.kSlices) &&
           (matmulElements || slices * 2 <= kernel.chunkTrips) &&
           fits(slices * 2))
      slices *= 2;
  }
  // A reduction's sum over consecutive elements also goes to adjacent
  // threads, up to `reduce-lanes` of them, as the block and
  // `shared-memory` allow.
  if (!matmulElements && elementSplit) {
    const ExprNode &addend = plan.exprs[kernel.splitAddend];
    if (addend.kind == Kind::Reduce && addend.reduceFn == ReduceFn::Sum &&
        addend.elementKind == ElementKind::F32 && addend.sizes[2] == 1)
      while (lanes * 2 <= int64_t(options.reduceLanes) &&
             addend.sizes[1] % (lanes * 2) == 0 && fits(slices * lanes * 2))
        lanes *= 2;
  }
  if (slices * lanes > 1) {
    kernel.kSlices = unsigned(slices);
    kernel.reduceLanes = unsigned(lanes);
    kernel.threads = unsigned(groups * slices * lanes);
    kernel.sharedElements =
        std::max(kernel.sharedElements, slices * lanes * *splitElements);
  }
  // Element-loop matmul accumulations that are not split (the grid has
  // `min-blocks` blocks) are still cut among k slices, so that the block
  // has more warps than their lanes fill (`Kernel::slicedLoops`).
  if (options.splitK > 1 && options.kSlices > 1 && kernel.splitChunks == 1 &&
      kernel.parts.size() == 1 && !kernel.parts.front().loop)
    planSlicedLoops(plan, aliases, options, kernel);
  // A warp loop: a warp per iteration of the block's share (as many as the
  // block holds).
  if (options.mma && options.warpLoops && kernel.parts.size() == 1 &&
      !kernel.parts.front().loop && !kernel.perElementLoops.contains(body))
    if (std::optional<WarpLoop> warp =
            getWarpLoop(plan, body, aliases, options)) {
      int64_t trips = (only.end - only.start) / only.step;
      int64_t iterations = kernel.splitChunks > 1 ? kernel.chunkTrips : trips;
      warp->warps = unsigned(std::clamp<int64_t>(
          iterations, 1, std::max(1u, options.blockSize / 32)));
      kernel.threads = 32 * warp->warps;
      // The reduction's first round stores half the warps' sums.
      int64_t slots = (warp->warps + 1) / 2;
      int64_t elements = slots * warp->laneSums * 32;
      if (warp->warps > 1 &&
          (std::max(kernel.sharedElements, elements) * 4 +
           kernel.sharedHalfElements * 2) <= options.sharedMemoryBytes) {
        warp->reduceInBlock = true;
        kernel.sharedElements = std::max(kernel.sharedElements, elements);
      }
      kernel.warpLoop = std::move(*warp);
    }
  kernel.maxLanes = std::max(1u, options.threadElements);
  kernel.matrixUnits = options.mma;
  kernel.vectorAtomics = options.vectorAtomics;
  SmallVector<const Access *> writes, reads;
  collectAccesses(plan, body, writes, reads);
  std::set<unsigned> tensors;
  for (const Access *a : writes)
    tensors.insert(a->tensor);
  for (const Access *a : reads)
    tensors.insert(a->tensor);
  kernel.tensors.assign(tensors.begin(), tensors.end());
  return kernel;
}

/// Loop `id` distributed over the statements of its body (loop fission of
/// a loop that is not a grid loop): one new loop per statement, with the
/// same variable and range, when no statement touches a tensor another one
/// writes, so that no iteration of one statement depends on any iteration of
/// another. With `flows`, statements may also touch what another writes
/// where the two accesses are disjoint across iterations (a tile of the
/// loop's own): running every iteration of the earlier statement first
/// then gives the later one the same values (`S1: T[tile v] = ...` before
/// `S2: U += f(T[tile v])`). Then the loop must have such a flow, each
/// statement a flow leaves must be a loop itself (a GEMM's loop over K:
/// work worth a grid of its own), and each tensor that flows must also be
/// read after the loop, so that fission keeps in memory only what is there
/// anyway. A FlashAttention loop's statements are straight-line tile
/// statements, so it stays fused, its logit tile on chip, even where that
/// tile is also read after the loop. Empty when the body is one statement
/// or the test fails.
static SmallVector<unsigned>
distributeLoop(Plan &plan, ArrayRef<std::pair<unsigned, unsigned>> aliases,
               unsigned id, bool flows) {
  if (plan.stmts[id].kind != StmtNode::Kind::Loop)
    return {};
  unsigned var = plan.stmts[id].var;
  SmallVector<unsigned> leaves;
  collectSequence(plan, plan.stmts[id].first, leaves);
  if (leaves.size() < 2)
    return {};
  SmallVector<SmallVector<const Access *>> writes(leaves.size()),
      reads(leaves.size());
  for (auto [i, leaf] : llvm::enumerate(leaves))
    collectAccesses(plan, leaf, writes[i], reads[i]);
  SmallVector<unsigned> flowing;
  for (size_t i = 0; i < leaves.size(); ++i)
    for (size_t j = 0; j < leaves.size(); ++j) {
      if (i == j)
        continue;
      for (const Access *w : writes[i])
        for (const Access *x : llvm::concat<const Access *const>(
                 ArrayRef(writes[j]), ArrayRef(reads[j]))) {
          if (!mayOverlap(aliases, w->tensor, x->tensor))
            continue;
          if (!flows || w->tensor != x->tensor ||
              !separatedAcross(*w, *x, var, var, true))
            return {};
          if (i < j && llvm::is_contained(reads[j], x)) {
            // Only a statement with a loop of its own (a GEMM's K loop)
            // passes tiles on: straight-line tile statements (a
            // FlashAttention iteration's) stay fused, their tiles on chip.
            if (plan.stmts[leaves[i]].kind != StmtNode::Kind::Loop)
              return {};
            flowing.push_back(w->tensor);
          }
        }
    }
  if (flows) {
    if (flowing.empty())
      return {};
    SmallVector<const Access *> allWrites, allReads, insideWrites, insideReads;
    collectAccesses(plan, plan.root, allWrites, allReads);
    collectAccesses(plan, id, insideWrites, insideReads);
    for (unsigned tensor : flowing)
      if (llvm::none_of(allReads, [&](const Access *r) {
            return r->tensor == tensor && !llvm::is_contained(insideReads, r);
          }))
        return {};
  }
  SmallVector<unsigned> loops;
  for (unsigned leaf : leaves) {
    StmtNode loop = plan.stmts[id];
    loop.first = leaf;
    loops.push_back(unsigned(plan.stmts.size()));
    plan.stmts.push_back(loop);
  }
  return loops;
}

/// Appends the kernels of statement `id` under the grid loops `outer`: one
/// kernel, or, when it has fewer than `fissionBlocks` blocks and its body is
/// a sequence, the kernels of each statement of the sequence under the same
/// grid loops. That is loop fission of the grid loops, legal because they
/// are parallel: no iteration touches what another writes. Consecutive
/// statements without loops that would get no more blocks of their own stay
/// together, in one kernel whose body is a new sequence of them: fission
/// would only add launches (the casts and cache appends of a fused head
/// loop, its division and output copy). A loop gets its own kernel even
/// then (as a kernel's body it may run as an element loop or a warp loop),
/// as does a copy `elideCopies` may remove. A kernel with too few blocks
/// whose body is a loop over independent statements (projections fused into
/// one loop over the model dimension) is distributed (`distributeLoop`):
/// each loop may then be split (`split-k`) on its own.
static void addKernels(Plan &plan,
                       ArrayRef<std::pair<unsigned, unsigned>> aliases,
                       const PartitionOptions &options, unsigned id,
                       ArrayRef<GridLoop> outer, std::vector<Kernel> &kernels) {
  Kernel kernel = buildKernel(plan, aliases, options, id, outer);
  SmallVector<unsigned> leaves;
  bool whole = kernel.parts.size() == 1 && !kernel.parts.front().loop;
  bool fission = kernel.numBlocks < options.fissionBlocks && whole &&
                 kernel.splitChunks == 1;
  // Whether the kernel's loop was distributed, its loops' kernels added.
  auto distributed = [&](bool flows) {
    SmallVector<unsigned> loops =
        distributeLoop(plan, aliases, kernel.body, flows);
    for (unsigned loop : loops)
      addKernels(plan, aliases, options, loop, kernel.grid, kernels);
    return !loops.empty();
  };
  if (fission) {
    if (distributed(/*flows=*/false))
      return;
    collectSequence(plan, kernel.body, leaves);
  }
  // A split loop with too few blocks of its own whose statements pass
  // tiles of its iterations on (a fused GEMM whose output tile an RMS sum
  // reads): distributed, each statement's loop may be a grid loop or split
  // on its own, instead of one block running whole tiles one after another.
  if (whole && kernel.splitChunks > 1 &&
      kernel.numBlocks / kernel.splitChunks < options.fissionBlocks &&
      distributed(/*flows=*/true))
    return;
  if (leaves.size() < 2) {
    kernels.push_back(std::move(kernel));
    return;
  }
  // The run of small statements so far, each with its kernel alone (a
  // statement without loops is never split further).
  std::vector<std::pair<unsigned, Kernel>> small;
  auto flush = [&] {
    if (small.size() == 1)
      kernels.push_back(std::move(small.front().second));
    if (small.size() > 1) {
      // seq(s1, seq(s2, ... sn)), built from the back.
      unsigned sequence = small.back().first;
      for (const auto &[leaf, alone] :
           llvm::reverse(ArrayRef(small).drop_back())) {
        StmtNode seq;
        seq.kind = StmtNode::Kind::Seq;
        seq.first = leaf;
        seq.second = sequence;
        sequence = unsigned(plan.stmts.size());
        plan.stmts.push_back(seq);
      }
      kernels.push_back(
          buildKernel(plan, aliases, options, sequence, kernel.grid));
    }
    small.clear();
  };
  for (unsigned leaf : leaves) {
    if (plan.stmts[leaf].kind != StmtNode::Kind::Loop) {
      Kernel alone = buildKernel(plan, aliases, options, leaf, kernel.grid);
      if (alone.numBlocks == kernel.numBlocks &&
          !isCopyKernel(plan, alone, options.tensorKinds,
                        options.tensorElements)) {
        small.push_back({leaf, std::move(alone)});
        continue;
      }
      flush();
      kernels.push_back(std::move(alone));
      continue;
    }
    flush();
    addKernels(plan, aliases, options, leaf, kernel.grid, kernels);
  }
  flush();
}

std::vector<Kernel>
gpu_lowering::partitionPlan(Plan &plan,
                            ArrayRef<std::pair<unsigned, unsigned>> aliases,
                            const PartitionOptions &options) {
  SmallVector<unsigned> topLevel;
  collectSequence(plan, plan.root, topLevel);
  std::vector<Kernel> kernels;
  for (unsigned id : topLevel)
    addKernels(plan, aliases, options, id, {}, kernels);
  return kernels;
}
