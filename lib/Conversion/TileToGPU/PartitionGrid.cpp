//===- PartitionGrid.cpp - Grid loops and kernel parts --------------------===//

#include "PartitionInternal.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::interp;
using namespace mlir::tileir::gpu_lowering;

bool gpu_lowering::separatedAcross(const Access &a, const Access &b,
                                   unsigned varA, unsigned varB,
                                   bool sameIterationSpace) {
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

bool gpu_lowering::iterationsIndependent(
    ArrayRef<const Access *> writes, ArrayRef<const Access *> reads,
    unsigned var, ArrayRef<std::pair<unsigned, unsigned>> aliases) {
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

void gpu_lowering::planGrid(const Plan &plan,
                            ArrayRef<std::pair<unsigned, unsigned>> aliases,
                            const PartitionOptions &options, unsigned id,
                            ArrayRef<GridLoop> outer, Kernel &kernel) {
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
}
