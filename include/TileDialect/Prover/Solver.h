//===- Solver.h - Z3 queries of the rule prover -----------------*- C++ -*-===//
//
// Asks Z3 whether two normalized real expressions are equal at a symbolic
// index point under the shape hypotheses (positive extents, index in
// bounds), with tile elements as uninterpreted functions of their indices,
// remaining sums as uninterpreted reals, transcendental functions as
// uninterpreted functions (exp positive), every divisor assumed nonzero.
// Z3's C++ API throws; every exception stays inside Solver.cpp (compiled
// with exceptions) and becomes an Unknown verdict with the reason.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_PROVER_SOLVER_H
#define TILEDIALECT_PROVER_SOLVER_H

#include "TileDialect/Prover/RealExpr.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::tileir::prover {

struct SolverQuery {
  TreeRef lhs, rhs;
  std::vector<Lin> positive; ///< each > 0 (extents)
  std::vector<Lin> zero;     ///< each == 0 (shape equalities left over)
  /// Free index variables with their extents: 0 <= i < extent.
  std::vector<std::pair<std::string, Lin>> index;
  /// Extent symbols: bounded when a small counterexample is wanted.
  std::vector<std::string> extents;
};

enum class SolverVerdict {
  Equal,   ///< lhs == rhs under the hypotheses
  Differ,  ///< a model where they differ (maybe spurious: abstractions)
  Unknown, ///< timeout or incompleteness
  Vacuous, ///< the hypotheses alone are unsatisfiable
};

class Solver {
public:
  explicit Solver(unsigned timeoutMs);
  ~Solver();
  Solver(const Solver &) = delete;
  Solver &operator=(const Solver &) = delete;

  /// Decides the query; `reason` says why for Unknown. After Differ the
  /// model (as small as Z3 finds with extents <= 4) can be read.
  SolverVerdict check(const SolverQuery &query, std::string &reason);
  std::optional<int64_t> intValue(const std::string &symbol);
  std::optional<double> elementValue(const std::string &tile,
                                     const std::vector<int64_t> &idx);
  /// Whether the last query assumed a divisor nonzero or exp positive.
  bool usedDivisorHypothesis() const;
  bool usedExpPositivity() const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl;
};

} // namespace mlir::tileir::prover

#endif // TILEDIALECT_PROVER_SOLVER_H
