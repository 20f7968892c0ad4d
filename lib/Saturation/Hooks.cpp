//===- Hooks.cpp - Work between saturation iterations ---------------------===//

#include "TileDialect/Saturation/Hooks.h"
#include "TileDialect/Saturation/Legality.h"
#include "TileDialect/IR/TileTypes.h"
#include "TileDialect/Saturation/Substitute.h"

using namespace mlir;
using namespace mlir::tileir;
using egraph::ENode;
using egraph::Id;

size_t mlir::tileir::canonicalizeSequences(TileEGraph &tg, size_t maxNodes,
                                           SequenceSites *done,
                                           const std::vector<Id> *scope,
                                           std::vector<Id> *gained) {
  egraph::EGraph &eg = tg.graph();
  uint32_t seqOp = tg.getOpId(OperationName("tile.seq", tg.getContext()));
  Type stmt = StmtType::get(tg.getContext());
  // Collect first: adding nodes changes the classes.
  std::vector<std::tuple<Id, Id, Id, Id>> work; // class, a, b, c
  for (Id cls : scope ? llvm::ArrayRef<Id>(*scope)
                      : eg.classesWithOp(seqOp)) {
    for (const ENode &n : eg.getClass(cls).nodes) {
      if (n.op != seqOp)
        continue;
      for (const ENode &first : eg.getClass(eg.find(n.children[0])).nodes)
        if (first.op == seqOp &&
            (!done || !done->count({cls, eg.find(first.children[0]),
                                    eg.find(first.children[1]),
                                    eg.find(n.children[1])})))
          work.emplace_back(cls, first.children[0], first.children[1],
                            n.children[1]);
    }
  }
  size_t changed = 0;
  for (auto [cls, a, b, c] : work) {
    if (eg.numNodes() > maxNodes)
      break;
    if (done)
      done->insert({eg.find(cls), eg.find(a), eg.find(b), eg.find(c)});
    size_t before = eg.numNodes();
    Id inner = tg.add("tile.seq", {b, c}, {}, stmt);
    Id outer = tg.add("tile.seq", {a, inner}, {}, stmt);
    if (gained && eg.numNodes() > before)
      gained->push_back(inner);
    if (eg.merge(cls, outer)) {
      ++changed;
      if (gained)
        gained->push_back(cls);
    }
  }
  return changed;
}

size_t SequenceCanonicalizer::run(TileEGraph &tg) {
  egraph::EGraph &eg = tg.graph();
  size_t total = 0;
  std::optional<std::vector<Id>> scope;
  for (unsigned round = 0; round < maxRounds && eg.numNodes() <= maxNodes;
       ++round) {
    std::vector<Id> gained;
    size_t n = canonicalizeSequences(tg, maxNodes, &done,
                                     scope ? &*scope : nullptr, &gained);
    size_t unions = eg.rebuild();
    total += n;
    if (!n)
      break;
    if (unions) {
      scope.reset();
      continue;
    }
    // The changed classes and the classes whose nodes have one of them
    // first, canonical and each once.
    std::vector<Id> next;
    for (Id id : gained) {
      Id cls = eg.find(id);
      next.push_back(cls);
      for (const auto &[node, parent] : eg.getClass(cls).parents)
        next.push_back(eg.find(parent));
    }
    llvm::sort(next);
    next.erase(std::unique(next.begin(), next.end()), next.end());
    scope = std::move(next);
  }
  return total;
}

size_t ExpressionPropagation::run(TileEGraph &tg) {
  if (bannedFor) {
    --bannedFor;
    return 0;
  }
  egraph::EGraph &eg = tg.graph();
  MLIRContext *ctx = tg.getContext();
  uint32_t seqOp = tg.getOpId(OperationName("tile.seq", ctx));
  uint32_t storeOp = tg.getOpId(OperationName("tile.store", ctx));
  uint32_t loadOp = tg.getOpId(OperationName("tile.load", ctx));
  Type stmt = StmtType::get(ctx);

  // `seq(store, next)` or `seq(store, seq(next, tail))`: loads in `next`, the
  // statement right after the store, are forwarded. Forwarding one statement
  // at a time keeps the copies small; sequence rules bring other statements
  // next to the store.
  struct Item {
    Id cls, first, next, tail, value, load; // tail == kNoId: none
  };
  std::vector<Item> work;
  auto consider = [&](Id cls, Id first, const ENode &st, Id next, Id tail) {
    Id value = eg.find(st.children[0]);
    if (!done.insert({first, next, value}).second)
      return;
    const ClassData &nextData = tg.data(next);
    // Only into straight-line statements (the next statement of the same
    // loop body): forwarding into whole loop nests copies them for every
    // order the sequence rules produce.
    if (nextData.hasLoop)
      return;
    const ClassData &tensor = tg.data(st.children[1]);
    Access region;
    region.tensor = tensor.tensor;
    for (size_t i = 2; i < st.children.size(); ++i)
      region.dims.push_back(tg.data(st.children[i]).index.value_or(
          IndexTerm{IndexTerm::Full}));
    bool readsRegion = llvm::any_of(nextData.accesses, [&](const Access &a) {
      return !a.write && a.tensor == region.tensor && a.dims == region.dims;
    });
    if (!readsRegion)
      return;
    ENode loadNode(loadOp, tg.getPayload(nullptr, tg.data(value).type));
    loadNode.children.assign(st.children.begin() + 1, st.children.end());
    std::optional<Id> load = eg.lookup(loadNode);
    if (!load)
      return;
    // Guards: `next` keeps T[idx] and v's inputs; v does not read T[idx].
    ClassData written;
    region.write = true;
    written.accesses.insert(region);
    written.freeVars = tg.data(first).freeVars;
    const ClassData &valueData = tg.data(value);
    if (!independent(tg, written, nextData, AccessFilter::All,
                     AccessFilter::Writes) ||
        !independent(tg, valueData, nextData, AccessFilter::Reads,
                     AccessFilter::Writes) ||
        !independent(tg, valueData, written, AccessFilter::Reads))
      return;
    work.push_back({cls, first, next, tail, value, *load});
  };
  for (Id cls : eg.classesWithOp(seqOp)) {
    for (const ENode &n : eg.getClass(cls).nodes) {
      if (n.op != seqOp)
        continue;
      Id first = eg.find(n.children[0]), rest = eg.find(n.children[1]);
      for (const ENode &st : eg.getClass(first).nodes) {
        if (st.op != storeOp)
          continue;
        for (const ENode &r : eg.getClass(rest).nodes) {
          if (r.op == seqOp)
            consider(cls, first, st, eg.find(r.children[0]),
                     eg.find(r.children[1]));
        }
        if (tg.data(rest).hasNonSeqNode)
          consider(cls, first, st, rest, egraph::kNoId);
      }
    }
  }
  if (work.size() > (limit << timesBanned)) {
    bannedFor = banLength << timesBanned;
    ++timesBanned;
    // Sites found now are looked at again after the ban.
    for (const Item &item : work)
      done.erase({item.first, item.next, item.value});
    return 0;
  }
  size_t changed = 0;
  for (const Item &item : work) {
    Substitution subst;
    subst.classes[eg.find(item.load)] = eg.find(item.value);
    FailureOr<Id> newNext = substitute(tg, item.next, subst);
    if (failed(newNext) || eg.find(*newNext) == eg.find(item.next))
      continue;
    Id rest = *newNext;
    if (item.tail != egraph::kNoId)
      rest = tg.add("tile.seq", {*newNext, item.tail}, {}, stmt);
    Id seq = tg.add("tile.seq", {item.first, rest}, {}, stmt);
    if (eg.merge(item.cls, seq))
      ++changed;
  }
  return changed;
}
