//===- TestLanguage.h - A tiny arithmetic language for e-graph tests ------===//
//
// Operators of a small arithmetic language and helpers that add its terms to
// an e-graph: numbers carry their value as payload, variables their index.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_UNITTESTS_EGRAPH_TESTLANGUAGE_H
#define TILE_UNITTESTS_EGRAPH_TESTLANGUAGE_H

#include "TileDialect/EGraph/EGraph.h"

#include <string>

namespace mlir::tileir::egraph::test {

enum Op : uint32_t { Num = 1, Var, Add, Mul, F, G };

inline Id num(EGraph &g, uint32_t value) { return g.add(ENode(Num, value)); }
inline Id var(EGraph &g, uint32_t index) { return g.add(ENode(Var, index)); }
inline Id add(EGraph &g, Id a, Id b) { return g.add(ENode(Add, 0, {a, b})); }
inline Id mul(EGraph &g, Id a, Id b) { return g.add(ENode(Mul, 0, {a, b})); }
inline Id f(EGraph &g, Id a) { return g.add(ENode(F, 0, {a})); }

inline std::string label(const ENode &node) {
  switch (node.op) {
  case Num:
    return std::to_string(node.payload);
  case Var:
    return "x" + std::to_string(node.payload);
  case Add:
    return "+";
  case Mul:
    return "*";
  case F:
    return "f";
  case G:
    return "g";
  }
  return "?";
}

} // namespace mlir::tileir::egraph::test

#endif // TILE_UNITTESTS_EGRAPH_TESTLANGUAGE_H
