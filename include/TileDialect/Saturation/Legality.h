//===- Legality.h - Reordering questions about e-classes --------*- C++ -*-===//
//
// The guards' view of the dependence oracle: questions about the statements
// an e-class stands for (its access summary covers every program in it, so
// an answer of "independent" holds for each of them).
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_SATURATION_LEGALITY_H
#define TILEDIALECT_SATURATION_LEGALITY_H

#include "TileDialect/Analysis/Dependence.h"
#include "TileDialect/Saturation/TileAnalysis.h"

namespace mlir::tileir {

class TileEGraph;

/// The accesses of `d` and the variables bound inside it.
StatementAccesses statementAccesses(const ClassData &d);

/// Whether no access of `a` (passing `fa`) and access of `b` (passing `fb`),
/// one of them a write, can touch the same element; free loop variables
/// take one value on both sides unless `order` names the loop iterations
/// being reordered. Unknown answers count as conflicts.
bool independent(TileEGraph &tg, const ClassData &a, const ClassData &b,
                 AccessFilter fa = AccessFilter::All,
                 AccessFilter fb = AccessFilter::All,
                 std::optional<DependenceQuery::Order> order = std::nullopt);

/// Whether running statement `s` twice leaves the state of running it once:
/// nothing it writes may be read by it (in any iterations of its loops).
bool isIdempotent(TileEGraph &tg, const ClassData &s);

} // namespace mlir::tileir

#endif // TILEDIALECT_SATURATION_LEGALITY_H
