//===- Hooks.h - Work between saturation iterations -------------*- C++ -*-===//
//
// Sequence canonicalization (Trinity section 4.2) and expression propagation
// (section 4.1), run by the saturation driver after every iteration.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_SATURATION_HOOKS_H
#define TILEDIALECT_SATURATION_HOOKS_H

#include "TileDialect/Saturation/TileEGraph.h"

#include "llvm/ADT/DenseSet.h"

#include <set>
#include <vector>
#include <tuple>

namespace mlir::tileir {

/// For every `seq(seq(a, b), c)` adds the right-nested `seq(a, seq(b, c))`
/// to its class, so sequence rules only need the right-nested forms.
/// Returns the number of classes that gained a node.
/// Stops adding nodes once the e-graph holds more than `maxNodes` (the
/// runner's node limit: one call must not run far past it).
/// With `done`, a site whose classes are still canonical as when it was
/// last handled (kept in `done`) is skipped: its right-nested form is
/// there already.
/// With `scope`, only the sites in those classes are looked at; with
/// `gained`, the classes that gained a node are appended to it (a later
/// call's sites are in them or in their parents: see SequenceCanonicalizer).
using SequenceSites =
    llvm::DenseSet<std::tuple<egraph::Id, egraph::Id, egraph::Id, egraph::Id>>;
size_t canonicalizeSequences(TileEGraph &tg,
                             size_t maxNodes = static_cast<size_t>(-1),
                             SequenceSites *done = nullptr,
                             const std::vector<egraph::Id> *scope = nullptr,
                             std::vector<egraph::Id> *gained = nullptr);

/// Sequence canonicalization to a fixpoint between two iterations, in up to
/// `maxRounds` rounds (nested sequences need several), within the node
/// limit. The first round looks at every sequence; a later round only at
/// the classes the round before changed and their parents, since only
/// there can a new left-nested site appear, unless the rebuild after it
/// merged other classes by congruence (then it looks at all again).
class SequenceCanonicalizer {
public:
  explicit SequenceCanonicalizer(size_t maxNodes, unsigned maxRounds = 8)
      : maxNodes(maxNodes), maxRounds(maxRounds) {}
  /// Returns the number of classes that gained a node.
  size_t run(TileEGraph &tg);

private:
  SequenceSites done;
  size_t maxNodes;
  unsigned maxRounds;
};

/// Store-to-load forwarding inside a sequence: for `seq(store T v idx, next)`
/// or `seq(store T v idx, seq(next, tail))` where `next` loads `T[idx]`, adds
/// the same sequence with those loads in `next` replaced by `v`. The load
/// itself is never made equal to `v` (it is shared with other contexts):
/// `next'` is a copy. Applies only when `next` writes neither `T[idx]` nor
/// anything `v` reads, `v` does not read `T[idx]` itself, and `next` has no
/// loops (forwarding into loop nests would copy them for every statement
/// order). Statements
/// further on are reached as sequence rules move them next to the store.
///
/// Like a rule under egg's backoff scheduler, an iteration that finds more
/// than `limit` forwarding sites skips forwarding for `banLength`
/// iterations, and the limit and ban double each time.
class ExpressionPropagation {
public:
  ExpressionPropagation(size_t limit = 1000, unsigned banLength = 5)
      : limit(limit), banLength(banLength) {}
  size_t run(TileEGraph &tg);
  /// Iterations forwarding was skipped by the backoff.
  unsigned getTimesBanned() const { return timesBanned; }

private:
  std::set<std::tuple<egraph::Id, egraph::Id, egraph::Id>> done;
  size_t limit;
  unsigned banLength;
  unsigned bannedFor = 0, timesBanned = 0;
};

} // namespace mlir::tileir

#endif // TILEDIALECT_SATURATION_HOOKS_H
