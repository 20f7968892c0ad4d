//===- EGraph.h - Hash-consed e-graph with deferred rebuild -----*- C++ -*-===//
//
// The e-graph core of tile-opt (docs/Design.md decision 2): hash-consed e-nodes
// over dense 32-bit ids, a union-find, egg-style deferred rebuild with
// congruence closure, and a hook for e-class analyses. It has no MLIR
// dependency: an e-node is an operator id, an opaque payload id (the MLIR layer
// interns attributes and result types behind it) and child e-class ids.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_EGRAPH_EGRAPH_H
#define TILEDIALECT_EGRAPH_EGRAPH_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir::tileir::egraph {

/// An e-class id. Ids are dense: every added e-node gets a fresh one, which is
/// also the id of the e-class it starts; `EGraph::find` maps an id to the
/// canonical id of its e-class.
using Id = uint32_t;
constexpr Id kNoId = ~0u;

/// An e-node: an operator applied to child e-classes. `op` and `payload` are
/// opaque to the core (the MLIR layer uses the operation name and an interned
/// attribute dictionary plus result type); two nodes are the same node iff
/// op, payload and (canonical) children are equal.
struct ENode {
  uint32_t op = 0;
  uint32_t payload = 0;
  llvm::SmallVector<Id, 3> children;

  ENode() = default;
  ENode(uint32_t op, uint32_t payload, llvm::ArrayRef<Id> children = {})
      : op(op), payload(payload), children(children.begin(), children.end()) {}

  bool operator==(const ENode &other) const {
    return op == other.op && payload == other.payload &&
           children == other.children;
  }
  bool operator!=(const ENode &other) const { return !(*this == other); }
};

llvm::hash_code hash_value(const ENode &node);

/// An e-class analysis (egg's `Analysis`): per-class data kept as a semilattice.
/// The analysis owns its data (typically a vector indexed by class id); the
/// e-graph tells it when classes are made and merged, and re-derives the data
/// of parents whose children changed until a fixpoint.
class Analysis {
public:
  virtual ~Analysis();
  /// A new class `id` was created for `node` (children canonical): compute and
  /// store its data.
  virtual void make(Id id, const ENode &node) = 0;
  /// Class `from` is merged into `into`: join the data of `from` into `into`.
  /// Returns true iff the data of `into` changed.
  virtual bool merge(Id into, Id from) = 0;
  /// Re-derives the data of `node` (its children's data may have grown) and
  /// joins it into class `id`. Returns true iff the data of `id` changed.
  virtual bool remake(Id id, const ENode &node) = 0;
  /// About how many bytes the data holds (for the runner's memory limit).
  virtual size_t memoryBytes() const { return 0; }
};

/// An e-class: its canonical nodes and the nodes that use it.
struct EClass {
  Id id = kNoId;
  /// Nodes of this class, canonical and deduplicated after `rebuild`.
  std::vector<ENode> nodes;
  /// Parent nodes (as added) with the class they belong to.
  std::vector<std::pair<ENode, Id>> parents;
};

/// The number of programs (terms) an e-class represents. Terms are counted over
/// acyclic derivations: while counting a class, a node that refers back to a
/// class being counted on the current path contributes nothing, so cyclic
/// e-graphs get a finite (lower-bound) count. Exact when it fits in 64 bits.
struct ProgramCount {
  /// log10 of the count (-inf when zero).
  double log10 = 0;
  /// The exact count, when it fits.
  std::optional<uint64_t> exact;
};

/// The e-graph.
class EGraph {
public:
  explicit EGraph(Analysis *analysis = nullptr) : analysis(analysis) {}
  EGraph(const EGraph &) = delete;
  EGraph &operator=(const EGraph &) = delete;

  /// Adds `node` (children are canonicalized first) and returns the canonical
  /// id of its class; an existing equal node returns its class (hash-consing).
  Id add(ENode node);
  /// The canonical class of `node` if it is present; never adds.
  std::optional<Id> lookup(ENode node) const;
  /// Canonical id of the class of `id`.
  Id find(Id id) const;
  /// Unions two classes. Returns true iff they were different. Invariants
  /// (congruence, hash-cons, analysis) are restored by `rebuild`.
  bool merge(Id a, Id b);
  /// Restores the invariants after merges (egg's deferred rebuild). Returns
  /// the number of additional unions congruence closure performed.
  size_t rebuild();
  /// True when merges are pending a rebuild.
  bool isDirty() const { return !pending.empty() || !analysisPending.empty(); }
  /// The analysis's data size (0 without an analysis).
  size_t analysisBytes() const {
    return analysis ? analysis->memoryBytes() : 0;
  }

  /// The class of a canonical id. The reference is valid until the next
  /// `add`, `merge` or `rebuild`.
  const EClass &getClass(Id id) const;
  /// Canonical ids of all classes, in increasing order.
  std::vector<Id> classIds() const;
  /// Canonical ids of the classes containing a node with operator `op`
  /// (valid after `rebuild`).
  llvm::ArrayRef<Id> classesWithOp(uint32_t op) const;

  size_t numNodes() const { return memo.size(); }
  size_t numClasses() const { return numLiveClasses; }
  /// Total ids handed out (nodes ever added, including merged-away ones).
  size_t numIds() const { return parent.size(); }

  /// Counts the programs represented by class `root`.
  ProgramCount countPrograms(Id root) const;

  /// Writes the e-graph in Graphviz DOT form: one cluster per class, one box
  /// per node labelled by `label`, an edge from each node to each child class.
  void writeDot(llvm::raw_ostream &os,
                llvm::function_ref<std::string(const ENode &)> label) const;

  /// The node with its children replaced by their canonical ids.
  ENode canonicalize(ENode node) const;

  /// Reserves room for about `numNodes` nodes (ids, memo and classes).
  void reserve(size_t numNodes);
  /// Checks the invariants of a rebuilt e-graph (canonical, sorted and
  /// deduplicated class nodes, the memo holding exactly them, the operator
  /// index canonical and sorted). On failure returns false and, when `why` is
  /// given, says what is broken. Linear in the size of the e-graph.
  bool verify(std::string *why = nullptr) const;

private:
  Id makeSet();
  void repair(Id id);
  void propagateAnalysis();
  void rebuildClassesByOp();

  Analysis *analysis;
  /// Union-find parent links (path halving on find).
  mutable std::vector<Id> parent;
  /// Canonical node -> class id (not necessarily canonical between rebuilds).
  llvm::DenseMap<ENode, Id> memo;
  /// Id -> class, indexed densely; only canonical ids hold a live class
  /// (merged-away entries are emptied).
  std::vector<EClass> classes;
  /// Live (canonical) classes.
  size_t numLiveClasses = 0;
  /// Classes whose parents must be re-canonicalized.
  std::vector<Id> pending;
  /// Classes whose data changed: parents must re-derive their data.
  std::vector<Id> analysisPending;
  /// Parent nodes (with their class) that must re-derive their data: those of
  /// a merged-away class whose data may have been smaller than the join.
  /// Non-empty only while `pending` is.
  std::vector<std::pair<ENode, Id>> analysisPendingParents;
  /// Unions performed by congruence closure during the current `rebuild`.
  size_t rebuildUnions = 0;
  /// Classes whose node lists may hold non-canonical or duplicate nodes.
  std::vector<Id> touched;
  /// Nodes held by all classes (equals `memo.size()` after `rebuild`).
  size_t classNodes = 0;
  /// Operator -> canonical classes holding a node with it.
  llvm::DenseMap<uint32_t, std::vector<Id>> byOp;
};

} // namespace mlir::tileir::egraph

namespace llvm {
template <> struct DenseMapInfo<mlir::tileir::egraph::ENode> {
  using ENode = mlir::tileir::egraph::ENode;
  static ENode getEmptyKey() { return ENode(~0u, ~0u); }
  static ENode getTombstoneKey() { return ENode(~0u - 1, ~0u); }
  static unsigned getHashValue(const ENode &node) {
    return static_cast<unsigned>(mlir::tileir::egraph::hash_value(node));
  }
  static bool isEqual(const ENode &a, const ENode &b) { return a == b; }
};
} // namespace llvm

#endif // TILEDIALECT_EGRAPH_EGRAPH_H
