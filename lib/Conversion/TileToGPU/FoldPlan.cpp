//===- FoldPlan.cpp - What the concrete tile sizes make trivial -----------===//
//
// The plan binds the tile sizes, and some statements become simpler than
// the program wrote them. Two folds run before the partition:
//
// - A loop of one trip (`loop i4 = 0 to 128 step 128`: a tile size equal to
//   the range) around a store, among the statements of a sequence inside
//   another loop, is its store. Every loop that binds a variable has the
//   same range and step, so the variable has one value wherever it is
//   bound, and each of its indices becomes the constant slice it selects.
//   Other one-trip loops stay: at the top level folding would split a
//   kernel, and a loop that is its parent's whole body is what the element
//   and accumulation loops of the lowering are made of.
//
// - An accumulation `T[r] = T[r] + g` that is the only store to a tensor
//   starting as zeros, and whose runs write disjoint regions (each of its
//   enclosing loops indexes the region by its variable), reads zeros at r
//   every time: it is the store `T[r] = g`. The scores of a FlashAttention
//   loop converted from linalg are such an accumulation over the head
//   dimension, inside the loop over the KV length; with the whole head
//   dimension in one tile they become the plain store of a matmul that warp
//   loops are made of.
//
//===----------------------------------------------------------------------===//

#include "Partition.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::interp;
using namespace mlir::tileir::gpu_lowering;

namespace {
/// The value a variable takes in every loop that binds it: whether all
/// those loops have one trip from one start, and whether one of them can be
/// folded.
struct Fixed {
  int64_t start = 0, step = 1;
  bool oneTrip = true, anyFoldable = false;
};

/// Where a store statement runs: how often it occurs in the statement tree
/// and the variables of its enclosing loops (at its first occurrence).
struct StoreSite {
  unsigned occurrences = 0;
  SmallVector<unsigned> vars;
};
} // namespace

/// Records for each loop variable bound below `id` whether every loop
/// binding it has one trip from the same start, and collects the loops
/// foldable where they stand: one trip around a store, among the
/// statements of a sequence inside another loop (`inSeq`, `inLoop`).
/// Elsewhere the loop is kept: a top-level one would split its kernel, and
/// a loop that is its parent's whole body keeps the element and
/// accumulation loop paths of the lowering. A kept loop of one trip whose
/// variable is folded elsewhere (the RMS statistic over the head dimension
/// beside the scores, both stepping by one size) keeps its single
/// iteration with constant indices.
static void collectFixed(const Plan &plan, unsigned id, bool inSeq, bool inLoop,
                         llvm::DenseMap<unsigned, Fixed> &fixed,
                         llvm::DenseSet<unsigned> &foldable) {
  const StmtNode &stmt = plan.stmts[id];
  if (stmt.kind == StmtNode::Kind::Seq) {
    collectFixed(plan, stmt.first, true, inLoop, fixed, foldable);
    collectFixed(plan, stmt.second, true, inLoop, fixed, foldable);
    return;
  }
  if (stmt.kind != StmtNode::Kind::Loop)
    return;
  bool oneTrip = stmt.end > stmt.start && stmt.end - stmt.start <= stmt.step;
  bool here = oneTrip && inSeq && inLoop &&
              plan.stmts[stmt.first].kind == StmtNode::Kind::Store;
  if (here)
    foldable.insert(id);
  auto [it, fresh] =
      fixed.try_emplace(stmt.var, Fixed{stmt.start, stmt.step, oneTrip, here});
  if (!fresh) {
    it->second.oneTrip &= oneTrip && it->second.start == stmt.start &&
                          it->second.step == stmt.step;
    it->second.anyFoldable |= here;
  }
  collectFixed(plan, stmt.first, false, true, fixed, foldable);
}

/// Folds the loops of one trip; returns how many.
static unsigned foldOneTripLoops(Plan &plan) {
  llvm::DenseMap<unsigned, Fixed> fixed;
  llvm::DenseSet<unsigned> foldable;
  collectFixed(plan, plan.root, false, false, fixed, foldable);
  // The value of `var` if its indices are folded.
  auto folding = [&](unsigned var) -> const Fixed * {
    auto it = fixed.find(var);
    return it != fixed.end() && it->second.oneTrip && it->second.anyFoldable
               ? &it->second
               : nullptr;
  };
  auto fold = [&](Access &access) {
    for (DimIndex &dim : access.dims) {
      if (dim.kind != DimIndex::Kind::Tile && dim.kind != DimIndex::Kind::Elem)
        continue;
      if (const Fixed *f = folding(dim.var)) {
        dim.base =
            dim.kind == DimIndex::Kind::Tile ? f->start : f->start / dim.step;
        dim.kind = DimIndex::Kind::Const;
      }
    }
  };
  for (ExprNode &node : plan.exprs)
    if (node.kind == ExprNode::Kind::Load)
      fold(node.access);
  for (StmtNode &stmt : plan.stmts)
    if (stmt.kind == StmtNode::Kind::Store)
      fold(stmt.access);
  // The body (a store) takes the loop's place.
  unsigned folded = 0;
  for (unsigned id : foldable) {
    StmtNode &stmt = plan.stmts[id];
    if (folding(stmt.var)) {
      stmt = StmtNode(plan.stmts[stmt.first]);
      ++folded;
    }
  }
  // The statements no longer reached (the bodies copied over their loops)
  // become no-ops, so that nothing scanning the statements sees them.
  if (folded) {
    llvm::BitVector reached(plan.stmts.size());
    SmallVector<unsigned> work{plan.root};
    while (!work.empty()) {
      unsigned id = work.pop_back_val();
      if (reached.test(id))
        continue;
      reached.set(id);
      const StmtNode &stmt = plan.stmts[id];
      if (stmt.kind == StmtNode::Kind::Seq || stmt.kind == StmtNode::Kind::Loop)
        work.push_back(stmt.first);
      if (stmt.kind == StmtNode::Kind::Seq)
        work.push_back(stmt.second);
    }
    for (unsigned id = 0, e = plan.stmts.size(); id < e; ++id)
      if (!reached.test(id))
        plan.stmts[id] = StmtNode();
  }
  return folded;
}

/// Records every store statement reachable from `id` with its enclosing
/// loops' variables.
static void collectStoreSites(const Plan &plan, unsigned id,
                              SmallVectorImpl<unsigned> &vars,
                              llvm::DenseMap<unsigned, StoreSite> &sites) {
  const StmtNode &stmt = plan.stmts[id];
  switch (stmt.kind) {
  case StmtNode::Kind::Store: {
    StoreSite &site = sites[id];
    if (site.occurrences++ == 0)
      site.vars.assign(vars.begin(), vars.end());
    return;
  }
  case StmtNode::Kind::Seq:
    collectStoreSites(plan, stmt.first, vars, sites);
    collectStoreSites(plan, stmt.second, vars, sites);
    return;
  case StmtNode::Kind::Loop:
    vars.push_back(stmt.var);
    collectStoreSites(plan, stmt.first, vars, sites);
    vars.pop_back();
    return;
  case StmtNode::Kind::Nop:
    return;
  }
}

/// Turns the accumulations into starting zeros into stores; returns how
/// many.
static unsigned
storeFirstAccumulations(Plan &plan, ArrayRef<bool> startsZero,
                        ArrayRef<std::pair<unsigned, unsigned>> aliases) {
  llvm::DenseMap<unsigned, StoreSite> sites;
  SmallVector<unsigned> vars;
  collectStoreSites(plan, plan.root, vars, sites);
  // The number of store occurrences per tensor.
  llvm::DenseMap<unsigned, unsigned> writers;
  for (auto &[id, site] : sites)
    writers[plan.stmts[id].access.tensor] += site.occurrences;
  unsigned count = 0;
  for (auto &[id, site] : sites) {
    StmtNode &store = plan.stmts[id];
    unsigned tensor = store.access.tensor;
    if (site.occurrences != 1 || writers.lookup(tensor) != 1 ||
        !startsZero[tensor] || isAliased(aliases, tensor))
      continue;
    // Each enclosing loop moves the region: its runs are disjoint.
    bool disjoint = llvm::all_of(site.vars, [&](unsigned var) {
      return llvm::any_of(store.access.dims, [&](const DimIndex &dim) {
        return dim.var == var && (dim.kind == DimIndex::Kind::Tile ||
                                  dim.kind == DimIndex::Kind::Elem);
      });
    });
    const ExprNode &value = plan.exprs[store.first];
    if (!disjoint || value.kind != ExprNode::Kind::Binary ||
        value.binaryFn != BinaryFn::Add)
      continue;
    for (unsigned side : {0u, 1u}) {
      const ExprNode &load = plan.exprs[value.operands[side]];
      if (load.kind == ExprNode::Kind::Load &&
          sameAccess(load.access, store.access)) {
        store.first = value.operands[1 - side];
        ++count;
        break;
      }
    }
  }
  return count;
}

PlanFolds
gpu_lowering::foldPlan(Plan &plan, ArrayRef<bool> startsZero,
                       ArrayRef<std::pair<unsigned, unsigned>> aliases) {
  PlanFolds folds;
  folds.loops = foldOneTripLoops(plan);
  folds.accumulations = storeFirstAccumulations(plan, startsZero, aliases);
  return folds;
}
