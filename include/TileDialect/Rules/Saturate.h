//===- Saturate.h - Equality saturation of a tile program -------*- C++ -*-===//
//
// The saturation driver the `--tile-saturate` pass, the tests and later the
// optimizer share: a program goes into an e-graph, the selected rules run
// under limits with the backoff scheduler, sequence canonicalization and
// expression propagation run between iterations.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_RULES_SATURATE_H
#define TILEDIALECT_RULES_SATURATE_H

#include "TileDialect/Rules/RuleSet.h"

#include "llvm/Support/JSON.h"

namespace mlir::tileir {

struct SaturateOptions {
  egraph::RunnerLimits limits;
  /// The defaults of --tile-saturate (egg's match limit is 1000).
  egraph::BackoffOptions backoff{/*enabled=*/true, /*matchLimit=*/5000,
                                 /*banLength=*/5};
  /// PDL files with more rules.
  std::vector<std::string> ruleFiles;
  /// Rule or family names to keep (all if empty) and to drop.
  std::vector<std::string> only, disable;
  bool canonicalizeSequences = true;
  bool propagateExpressions = true;
  /// Time limit of one dependence solver call, in milliseconds.
  unsigned legalityTimeoutMs = 2000;
  /// Called after each iteration (progress output).
  std::function<void(unsigned, const egraph::IterationStats &)> progress;
};

/// The dependence oracle's counters as JSON (the report's "legality").
llvm::json::Object legalityJSON(const DependenceStats &stats);

/// A saturated e-graph of one program.
class Saturation {
public:
  /// Builds the e-graph of `program` and saturates it.
  static FailureOr<std::unique_ptr<Saturation>>
  run(ProgramOp program, const SaturateOptions &options);

  TileEGraph &getEGraph() { return tg; }
  egraph::Id getRoot() const { return tg.graph().find(root); }
  const egraph::RunReport &getReport() const { return report; }
  const RuleSet &getRules() const { return rules; }
  /// Applications each rule could not complete (type not inferable, native
  /// rewrite failed), by rule index.
  size_t getFailed(size_t rule) const;

  /// The saturation report (docs/Rules.md) as JSON: e-classes, e-nodes, iterations, stop
  /// reason, log10 of programs represented, rule firings, time.
  llvm::json::Object toJSON() const;

private:
  explicit Saturation(MLIRContext *ctx) : tg(ctx), context{tg, facts} {}

  TileEGraph tg;
  ProgramFacts facts;
  RuleContext context;
  RuleSet rules;
  egraph::Id root = egraph::kNoId;
  egraph::RunReport report;
};

} // namespace mlir::tileir

#endif // TILEDIALECT_RULES_SATURATE_H
