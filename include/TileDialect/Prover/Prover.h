//===- Prover.h - Soundness proofs of value-level rewrite rules -*- C++ -*-===//
//
// Proves a rule `lhs -> rhs` over tiles sound over the reals (docs/Design.md
// decision 4, the Axon paper's method): for every rank up to a bound and
// every value of the rule's attribute variables, with symbolic extents, the
// two sides are equal at a symbolic index point whenever the matched term
// is well-shaped and the rule's guards hold. Statement rules are skipped:
// their legality is checked per application. See docs/Prover.md.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_PROVER_PROVER_H
#define TILEDIALECT_PROVER_PROVER_H

#include "TileDialect/Prover/RuleTerm.h"

#include <string>
#include <vector>

namespace mlir::tileir::prover {

struct ProverOptions {
  unsigned timeoutMs = 10000; ///< per Z3 query
  unsigned maxRank = 3;       ///< ranks 1..maxRank of the rule's root
};

enum class Verdict { Proved, Refuted, Unknown, Skipped };
llvm::StringRef verdictName(Verdict v);

struct RuleResult {
  std::string name, family;
  Verdict verdict = Verdict::Unknown;
  /// Both sides equal up to commutativity of + and * and x*1, x/1, x+0:
  /// the rewrite also preserves floating-point results.
  bool fpExact = false;
  /// The counterexample, the reason for unknown, or why it was skipped.
  std::string detail;
  /// Normalizations (axioms) used and hypotheses assumed.
  std::vector<std::string> axioms, assumptions;
  /// (rank, attribute) instances proved or examined.
  unsigned instances = 0;
};

/// Proves one rule.
RuleResult proveRule(const RuleTerm &rule, const ProverOptions &options);

} // namespace mlir::tileir::prover

#endif // TILEDIALECT_PROVER_PROVER_H
