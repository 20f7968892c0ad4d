//===- EGraph.cpp - Hash-consed e-graph with deferred rebuild -------------===//
//
// Hash-consing, the union-find, unions and egg's deferred rebuild: unions only
// record the merged class as pending; `rebuild` re-canonicalizes the parents of
// pending classes, re-hashes them in the memo (unioning congruent parents),
// then re-derives analysis data up to a fixpoint, and finally canonicalizes and
// deduplicates the nodes of the classes that changed and renames the classes
// in the operator index to their roots.
//
//===----------------------------------------------------------------------===//

#include "TileDialect/EGraph/EGraph.h"

#include "llvm/Support/ErrorHandling.h"

#include <algorithm>
#include <cassert>

using namespace mlir::tileir::egraph;

Analysis::~Analysis() = default;

namespace {
/// One 64-bit mixing step (a boost-style combine, then a multiply-xorshift).
inline uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  h *= 0xbf58476d1ce4e5b9ull;
  return h ^ (h >> 31);
}

/// Strict weak order on nodes: op, payload, then children lexicographically.
bool nodeLess(const ENode &a, const ENode &b) {
  if (a.op != b.op)
    return a.op < b.op;
  if (a.payload != b.payload)
    return a.payload < b.payload;
  return std::lexicographical_compare(a.children.begin(), a.children.end(),
                                      b.children.begin(), b.children.end());
}
} // namespace

llvm::hash_code mlir::tileir::egraph::hash_value(const ENode &node) {
  uint64_t h = mix(node.op, node.payload);
  for (Id child : node.children)
    h = mix(h, child);
  h = mix(h, node.children.size());
  return static_cast<llvm::hash_code>(static_cast<size_t>(h ^ (h >> 32)));
}

Id EGraph::makeSet() {
  Id id = static_cast<Id>(parent.size());
  assert(id != kNoId && "e-graph id space exhausted");
  parent.push_back(id);
  classes.emplace_back().id = id;
  ++numLiveClasses;
  return id;
}

Id EGraph::find(Id id) const {
  assert(id < parent.size() && "unknown e-class id");
  // Path halving: every visited node skips to its grandparent.
  while (parent[id] != id) {
    Id grand = parent[parent[id]];
    parent[id] = grand;
    id = grand;
  }
  return id;
}

ENode EGraph::canonicalize(ENode node) const {
  for (Id &child : node.children)
    child = find(child);
  return node;
}

std::optional<Id> EGraph::lookup(ENode node) const {
  node = canonicalize(std::move(node));
  auto it = memo.find(node);
  if (it == memo.end())
    return std::nullopt;
  return find(it->second);
}

Id EGraph::add(ENode node) {
  node = canonicalize(std::move(node));
  auto [it, inserted] = memo.try_emplace(node, kNoId);
  if (!inserted)
    return find(it->second);

  Id id = makeSet();
  it->second = id;
  // Register the node as a parent of each distinct child class.
  for (size_t i = 0, e = node.children.size(); i != e; ++i) {
    Id child = node.children[i];
    bool seen = false;
    for (size_t j = 0; j != i && !seen; ++j)
      seen = node.children[j] == child;
    if (!seen)
      classes[child].parents.emplace_back(node, id);
  }
  // The operator index stays sorted: a fresh id is larger than every other.
  byOp[node.op].push_back(id);
  EClass &cls = classes[id];
  cls.nodes.push_back(node);
  ++classNodes;
  if (analysis)
    analysis->make(id, cls.nodes.back());
  return id;
}

bool EGraph::merge(Id a, Id b) {
  a = find(a);
  b = find(b);
  if (a == b)
    return false;
  // Keep the class with more parents as the root: fewer parents move.
  if (classes[a].parents.size() < classes[b].parents.size())
    std::swap(a, b);
  Id into = a, from = b;
  EClass &dst = classes[into];
  EClass &src = classes[from];
  parent[from] = into;
  pending.push_back(into);
  touched.push_back(into);

  if (analysis) {
    // The core cannot tell whether the joined data differs from `from`'s, so
    // the parents of `from` always re-derive their data; those of `into` only
    // when its data changed.
    if (analysis->merge(into, from))
      analysisPending.push_back(into);
    else
      analysisPendingParents.insert(analysisPendingParents.end(),
                                    src.parents.begin(), src.parents.end());
  }

  dst.nodes.insert(dst.nodes.end(), std::make_move_iterator(src.nodes.begin()),
                   std::make_move_iterator(src.nodes.end()));
  dst.parents.insert(dst.parents.end(),
                     std::make_move_iterator(src.parents.begin()),
                     std::make_move_iterator(src.parents.end()));
  std::vector<ENode>().swap(src.nodes);
  std::vector<std::pair<ENode, Id>>().swap(src.parents);
  src.id = kNoId;
  --numLiveClasses;
  return true;
}

void EGraph::repair(Id id) {
  std::vector<std::pair<ENode, Id>> parents = std::move(classes[id].parents);
  classes[id].parents.clear();

  // Replace the memo entries of parents whose children changed by their
  // canonical forms (a stale form holds a non-canonical id, so it never equals
  // a canonical one); a canonical form already present is a congruent node:
  // union the classes. A parent whose children are all canonical is already
  // in the memo under its form; a congruent stale one finds it there.
  bool anyStale = false;
  for (auto &entry : parents) {
    ENode &node = entry.first;
    bool stale = false;
    for (Id child : node.children)
      stale |= parent[child] != child;
    if (!stale)
      continue;
    anyStale = true;
    touched.push_back(entry.second);
    memo.erase(node);
    for (Id &child : node.children)
      child = find(child);
    auto [mit, inserted] = memo.try_emplace(node, entry.second);
    if (!inserted) {
      if (merge(mit->second, entry.second))
        ++rebuildUnions;
      mit->second = find(entry.second);
    }
  }

  // Deduplicate the parents by canonical node (congruent ones are one class);
  // duplicates only come from stale entries.
  if (anyStale && parents.size() > 1)
    std::sort(parents.begin(), parents.end(),
            [](const auto &a, const auto &b) { return nodeLess(a.first, b.first); });
  size_t out = 0;
  for (size_t i = 0, e = parents.size(); i != e; ++i) {
    if (out != 0 && parents[out - 1].first == parents[i].first)
      continue;
    if (out != i)
      parents[out] = std::move(parents[i]);
    ++out;
  }
  parents.resize(out);
  for (auto &entry : parents)
    entry.second = find(entry.second);

  // `id` may itself have been merged away by a congruence union.
  EClass &cls = classes[find(id)];
  if (cls.parents.empty())
    cls.parents = std::move(parents);
  else
    cls.parents.insert(cls.parents.end(),
                       std::make_move_iterator(parents.begin()),
                       std::make_move_iterator(parents.end()));
}

void EGraph::propagateAnalysis() {
  // Parents of classes whose data changed re-derive theirs, to a fixpoint.
  std::vector<Id> work;
  std::vector<std::pair<ENode, Id>> nodes;
  while (!analysisPending.empty() || !analysisPendingParents.empty()) {
    work.swap(analysisPending);
    analysisPending.clear();
    nodes.swap(analysisPendingParents);
    analysisPendingParents.clear();
    for (auto &[node, cls] : nodes)
      if (analysis->remake(find(cls), canonicalize(node)))
        analysisPending.push_back(find(cls));
    for (Id &id : work)
      id = find(id);
    std::sort(work.begin(), work.end());
    work.erase(std::unique(work.begin(), work.end()), work.end());
    for (Id id : work) {
      // `remake` does not touch the e-graph, so the parent list is stable.
      const EClass &cls = classes[id];
      for (const auto &[node, parentClass] : cls.parents)
        if (analysis->remake(find(parentClass), canonicalize(node)))
          analysisPending.push_back(find(parentClass));
    }
  }
}

size_t EGraph::rebuild() {
  if (!isDirty() && analysisPendingParents.empty())
    return 0;
  rebuildUnions = 0;
  std::vector<Id> todo;
  while (!pending.empty() || !analysisPending.empty() ||
         !analysisPendingParents.empty()) {
    while (!pending.empty()) {
      todo.swap(pending);
      pending.clear();
      for (Id &id : todo)
        id = find(id);
      std::sort(todo.begin(), todo.end());
      todo.erase(std::unique(todo.begin(), todo.end()), todo.end());
      for (Id id : todo)
        repair(find(id));
    }
    if (analysis)
      propagateAnalysis();
    else
      analysisPending.clear();
  }

  // Canonicalize and deduplicate the nodes of the classes that gained nodes
  // or hold a node whose children changed.
  for (Id &id : touched)
    id = find(id);
  std::sort(touched.begin(), touched.end());
  touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
  for (Id id : touched) {
    std::vector<ENode> &nodes = classes[id].nodes;
    for (ENode &node : nodes)
      for (Id &child : node.children)
        child = find(child);
    if (nodes.size() > 1) {
      std::sort(nodes.begin(), nodes.end(), nodeLess);
      auto last = std::unique(nodes.begin(), nodes.end());
      classNodes -= static_cast<size_t>(nodes.end() - last);
      nodes.erase(last, nodes.end());
    }
  }
  bool merged = !touched.empty();
  touched.clear();

  // A node whose children merged in different rounds can leave an older
  // spelling in the memo (repair replaces only the spelling its own parent
  // entry holds). Such a key has a non-canonical child forever: drop them.
  if (memo.size() > classNodes) {
    for (auto it = memo.begin(), e = memo.end(); it != e; ++it) {
      bool stale = false;
      for (Id child : it->first.children)
        stale |= parent[child] != child;
      if (stale)
        memo.erase(it);
    }
  }
  assert(memo.size() == classNodes && "memo out of sync with the classes");
  if (merged)
    rebuildClassesByOp();
#ifdef TILE_EGRAPH_EXPENSIVE_CHECKS
  std::string why;
  if (!verify(&why))
    llvm::report_fatal_error(("e-graph invariant broken: " + why).c_str());
#endif
  return rebuildUnions;
}

void EGraph::rebuildClassesByOp() {
  // Merging only renames classes: map every id to its root and deduplicate.
  for (auto &entry : byOp) {
    std::vector<Id> &ids = entry.second;
    bool sorted = true;
    for (size_t i = 0, e = ids.size(); i != e; ++i) {
      ids[i] = find(ids[i]);
      sorted &= i == 0 || ids[i - 1] < ids[i];
    }
    if (!sorted) {
      std::sort(ids.begin(), ids.end());
      ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    }
  }
}

bool EGraph::verify(std::string *why) const {
  auto fail = [&](const std::string &message) {
    if (why)
      *why = message;
    return false;
  };
  if (isDirty())
    return fail("merges are pending a rebuild");
  size_t total = 0;
  size_t live = 0;
  for (Id id = 0, e = static_cast<Id>(classes.size()); id != e; ++id) {
    const EClass &cls = classes[id];
    if ((parent[id] == id) != (cls.id == id))
      return fail("class e" + std::to_string(id) + " is not canonical");
    if (parent[id] != id) {
      if (!cls.nodes.empty() || !cls.parents.empty())
        return fail("merged-away class e" + std::to_string(id) +
                    " holds nodes");
      continue;
    }
    ++live;
    if (cls.nodes.empty())
      return fail("class e" + std::to_string(id) + " has no nodes");
    total += cls.nodes.size();
    for (size_t i = 0; i != cls.nodes.size(); ++i) {
      const ENode &node = cls.nodes[i];
      if (canonicalize(node) != node)
        return fail("a node of e" + std::to_string(id) + " is not canonical");
      if (lookup(node) != id)
        return fail("a node of e" + std::to_string(id) +
                    " is not in the memo under its class");
      if (i != 0 && !nodeLess(cls.nodes[i - 1], node))
        return fail("the nodes of e" + std::to_string(id) +
                    " are not sorted and unique");
    }
  }
  if (live != numLiveClasses)
    return fail("class count out of sync");
  if (total != memo.size())
    return fail("the memo holds " + std::to_string(memo.size()) +
                " nodes, the classes " + std::to_string(total));
  for (const auto &[op, ids] : byOp)
    for (size_t i = 0; i != ids.size(); ++i)
      if (parent[ids[i]] != ids[i] || (i != 0 && ids[i - 1] >= ids[i]))
        return fail("the index of operator " + std::to_string(op) +
                    " is not canonical and sorted");
  return true;
}

const EClass &EGraph::getClass(Id id) const {
  return classes[find(id)];
}

std::vector<Id> EGraph::classIds() const {
  std::vector<Id> ids;
  ids.reserve(numLiveClasses);
  for (Id id = 0, e = static_cast<Id>(parent.size()); id != e; ++id)
    if (parent[id] == id)
      ids.push_back(id);
  return ids;
}

llvm::ArrayRef<Id> EGraph::classesWithOp(uint32_t op) const {
  auto it = byOp.find(op);
  if (it == byOp.end())
    return {};
  return it->second;
}

void EGraph::reserve(size_t numNodes) {
  parent.reserve(numNodes);
  memo.reserve(numNodes);
  classes.reserve(numNodes);
}
