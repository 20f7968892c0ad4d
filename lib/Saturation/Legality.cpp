//===- Legality.cpp - Reordering questions about e-classes ----------------===//

#include "TileDialect/Saturation/Legality.h"
#include "TileDialect/Saturation/TileEGraph.h"

using namespace mlir;
using namespace mlir::tileir;

StatementAccesses mlir::tileir::statementAccesses(const ClassData &d) {
  return {d.accesses, d.boundVars};
}

bool mlir::tileir::independent(TileEGraph &tg, const ClassData &a,
                               const ClassData &b, AccessFilter fa,
                               AccessFilter fb,
                               std::optional<DependenceQuery::Order> order) {
  DependenceQuery q;
  q.first = statementAccesses(a);
  q.second = statementAccesses(b);
  q.firstFilter = fa;
  q.secondFilter = fb;
  q.order = order;
  return tg.dependence().check(q).independent();
}

bool mlir::tileir::isIdempotent(TileEGraph &tg, const ClassData &s) {
  return independent(tg, s, s, AccessFilter::Writes, AccessFilter::Reads);
}
