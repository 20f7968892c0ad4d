//===- Hooks.cpp - Work between saturation iterations ---------------------===//

#include "TileDialect/Saturation/Hooks.h"
#include "TileDialect/IR/TileTypes.h"
#include "TileDialect/Saturation/Substitute.h"

using namespace mlir;
using namespace mlir::tileir;
using egraph::ENode;
using egraph::Id;

size_t mlir::tileir::canonicalizeSequences(TileEGraph &tg) {
  egraph::EGraph &eg = tg.graph();
  uint32_t seqOp = tg.getOpId(OperationName("tile.seq", tg.getContext()));
  Type stmt = StmtType::get(tg.getContext());
  // Collect first: adding nodes changes the classes.
  std::vector<std::tuple<Id, Id, Id, Id>> work; // class, a, b, c
  for (Id cls : eg.classesWithOp(seqOp)) {
    for (const ENode &n : eg.getClass(cls).nodes) {
      if (n.op != seqOp)
        continue;
      for (const ENode &first : eg.getClass(eg.find(n.children[0])).nodes)
        if (first.op == seqOp)
          work.emplace_back(cls, first.children[0], first.children[1],
                            n.children[1]);
    }
  }
  size_t changed = 0;
  for (auto [cls, a, b, c] : work) {
    Id inner = tg.add("tile.seq", {b, c}, {}, stmt);
    Id outer = tg.add("tile.seq", {a, inner}, {}, stmt);
    if (eg.merge(cls, outer))
      ++changed;
  }
  return changed;
}

/// `d` restricted to its writes.
static ClassData writesOf(const ClassData &d) {
  ClassData out = d;
  out.accesses.clear();
  for (const Access &a : d.accesses)
    if (a.write)
      out.accesses.push_back(a);
  return out;
}

/// `d` restricted to its reads, marked as writes (so any overlap with
/// another side's accesses counts).
static ClassData readsAsWrites(const ClassData &d) {
  ClassData out = d;
  out.accesses.clear();
  for (const Access &a : d.accesses)
    if (!a.write) {
      out.accesses.push_back(a);
      out.accesses.back().write = true;
    }
  return out;
}

size_t ExpressionPropagation::run(TileEGraph &tg) {
  egraph::EGraph &eg = tg.graph();
  MLIRContext *ctx = tg.getContext();
  uint32_t seqOp = tg.getOpId(OperationName("tile.seq", ctx));
  uint32_t storeOp = tg.getOpId(OperationName("tile.store", ctx));
  uint32_t loadOp = tg.getOpId(OperationName("tile.load", ctx));
  Type stmt = StmtType::get(ctx);

  struct Item {
    Id cls, first, rest, value, load;
  };
  std::vector<Item> work;
  for (Id cls : eg.classesWithOp(seqOp)) {
    for (const ENode &n : eg.getClass(cls).nodes) {
      if (n.op != seqOp)
        continue;
      Id first = eg.find(n.children[0]), rest = eg.find(n.children[1]);
      const ClassData &restData = tg.data(rest);
      for (const ENode &st : eg.getClass(first).nodes) {
        if (st.op != storeOp)
          continue;
        Id value = eg.find(st.children[0]);
        if (!done.insert({first, rest, value}).second)
          continue;
        const ClassData &storeData = tg.data(first);
        // The region written, as a read access to look for in `rest`.
        const ClassData &tensor = tg.data(st.children[1]);
        Access region;
        region.tensor = tensor.tensor;
        for (size_t i = 2; i < st.children.size(); ++i)
          region.dims.push_back(tg.data(st.children[i]).index.value_or(
              IndexTerm{IndexTerm::Full}));
        bool readsRegion = llvm::any_of(restData.accesses, [&](const Access &a) {
          return !a.write && a.tensor == region.tensor && a.dims == region.dims;
        });
        if (!readsRegion)
          continue;
        ENode loadNode(loadOp, tg.getPayload(nullptr, tg.data(value).type));
        loadNode.children.assign(st.children.begin() + 1, st.children.end());
        std::optional<Id> load = eg.lookup(loadNode);
        if (!load)
          continue;
        // Guards: rest keeps T[idx] and v's inputs; v does not read T[idx].
        ClassData written;
        region.write = true;
        written.accesses.push_back(region);
        written.freeVars = storeData.freeVars;
        ClassData restWrites = writesOf(restData);
        if (mayConflict(written, restWrites) ||
            mayConflict(readsAsWrites(tg.data(value)), restWrites) ||
            mayConflict(readsAsWrites(tg.data(value)), written))
          continue;
        work.push_back({cls, first, rest, value, *load});
      }
    }
  }
  size_t changed = 0;
  for (const Item &item : work) {
    Substitution subst;
    subst.classes[eg.find(item.load)] = eg.find(item.value);
    FailureOr<Id> newRest = substitute(tg, item.rest, subst);
    if (failed(newRest) || eg.find(*newRest) == eg.find(item.rest))
      continue;
    Id seq = tg.add("tile.seq", {item.first, *newRest}, {}, stmt);
    if (eg.merge(item.cls, seq))
      ++changed;
  }
  return changed;
}
