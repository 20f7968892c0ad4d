//===- Hooks.h - Work between saturation iterations -------------*- C++ -*-===//
//
// Sequence canonicalization (Trinity section 4.2) and expression propagation
// (section 4.1), run by the saturation driver after every iteration.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_SATURATION_HOOKS_H
#define TILEDIALECT_SATURATION_HOOKS_H

#include "TileDialect/Saturation/TileEGraph.h"

#include <set>
#include <tuple>

namespace mlir::tileir {

/// For every `seq(seq(a, b), c)` adds the right-nested `seq(a, seq(b, c))`
/// to its class, so sequence rules only need the right-nested forms.
/// Returns the number of classes that gained a node.
size_t canonicalizeSequences(TileEGraph &tg);

/// Store-to-load forwarding inside a sequence: for `seq(store T v idx, rest)`
/// where `rest` loads `T[idx]`, adds `seq(store T v idx, rest')` with those
/// loads replaced by `v`. The load itself is never made equal to `v` (it is
/// shared with other contexts): `rest'` is a copy. Applies only when nothing
/// in `rest` writes `T[idx]` or anything `v` reads, and `v` does not read
/// `T[idx]` itself.
class ExpressionPropagation {
public:
  size_t run(TileEGraph &tg);

private:
  std::set<std::tuple<egraph::Id, egraph::Id, egraph::Id>> done;
};

} // namespace mlir::tileir

#endif // TILEDIALECT_SATURATION_HOOKS_H
