//===- Saturate.cpp - Equality saturation of a tile program ---------------===//

#include "TileDialect/Rules/Saturate.h"
#include "TileDialect/Saturation/Hooks.h"

using namespace mlir;
using namespace mlir::tileir;

FailureOr<std::unique_ptr<Saturation>>
Saturation::run(ProgramOp program, const SaturateOptions &options) {
  std::unique_ptr<Saturation> sat(new Saturation(program.getContext()));
  FailureOr<egraph::Id> root = sat->tg.addProgram(program);
  if (failed(root))
    return failure();
  sat->root = *root;
  sat->tg.dependence().setTimeoutMs(options.legalityTimeoutMs);
  sat->facts = computeProgramFacts(sat->tg, program);
  FailureOr<RuleSet> rules =
      RuleSet::load(program.getContext(), sat->context, options.ruleFiles);
  if (failed(rules))
    return failure();
  sat->rules = std::move(*rules);
  if (failed(sat->rules.select(options.only, options.disable,
                               program.getLoc())))
    return failure();

  egraph::Runner runner(sat->tg.graph(), options.limits, options.backoff);
  for (const auto &rule : sat->rules.getRules())
    runner.addRule(rule.get());
  TileEGraph &tg = sat->tg;
  auto canonicalizer =
      std::make_shared<SequenceCanonicalizer>(options.limits.maxNodes);
  if (options.canonicalizeSequences)
    runner.addHook([&tg, canonicalizer](egraph::EGraph &) {
      return canonicalizer->run(tg);
    });
  auto propagation = std::make_shared<ExpressionPropagation>(
      options.backoff.enabled ? options.backoff.matchLimit : SIZE_MAX / 2,
      options.backoff.banLength);
  if (options.propagateExpressions)
    runner.addHook([&tg, propagation](egraph::EGraph &) {
      return propagation->run(tg);
    });
  if (options.progress)
    runner.setProgress(options.progress);
  sat->report = runner.run();
  return sat;
}

size_t Saturation::getFailed(size_t rule) const {
  return rules.getRules()[rule]->numFailed();
}

llvm::json::Object mlir::tileir::legalityJSON(const DependenceStats &s) {
  return llvm::json::Object{{"queries", (int64_t)s.queries},
                            {"independent", (int64_t)s.independent},
                            {"conflicts", (int64_t)s.conflicts},
                            {"unknown", (int64_t)s.unknown},
                            {"timeouts", (int64_t)s.timeouts},
                            {"access_pairs", (int64_t)s.pairs},
                            {"trivial_pairs", (int64_t)s.trivialPairs},
                            {"cache_hits", (int64_t)s.cacheHits},
                            {"solver_calls", (int64_t)s.solverCalls},
                            {"solver_seconds", s.solverSeconds}};
}

llvm::json::Object Saturation::toJSON() const {
  const egraph::EGraph &eg = tg.graph();
  egraph::ProgramCount count = eg.countPrograms(getRoot());
  llvm::json::Object out;
  out["eclasses"] = (int64_t)eg.numClasses();
  out["enodes"] = (int64_t)eg.numNodes();
  out["analysis_bytes"] = (int64_t)eg.analysisBytes();
  out["iterations"] = (int64_t)report.iterations.size();
  out["stop_reason"] = egraph::stringifyStopReason(report.stopReason).str();
  out["log10_programs"] = count.log10;
  if (count.exact)
    out["programs"] = (int64_t)*count.exact;
  out["seconds"] = report.totalSeconds;
  llvm::json::Array iters;
  for (const egraph::IterationStats &it : report.iterations) {
    // The rules that changed the e-graph in this iteration, by name.
    llvm::json::Object perRule;
    for (auto [rule, applied] : it.ruleApplied)
      perRule[report.rules[rule].name] = (int64_t)applied;
    iters.push_back(llvm::json::Object{
        {"enodes", (int64_t)it.nodes},
        {"eclasses", (int64_t)it.classes},
        {"applied", (int64_t)it.applied},
        {"rules", std::move(perRule)},
        {"rebuild_unions", (int64_t)it.rebuildUnions},
        {"search_seconds", it.searchSeconds},
        {"apply_seconds", it.applySeconds},
        {"rebuild_seconds", it.rebuildSeconds},
        {"hook_seconds", it.hookSeconds}});
  }
  out["per_iteration"] = std::move(iters);
  llvm::json::Array rulesJson;
  for (size_t i = 0; i < report.rules.size(); ++i) {
    const egraph::RuleStats &r = report.rules[i];
    rulesJson.push_back(llvm::json::Object{
        {"name", r.name},
        {"family", rules.getFamily(i).str()},
        {"matches", (int64_t)r.matches},
        {"applied", (int64_t)r.applied},
        {"blocked", (int64_t)r.blocked},
        {"failed", (int64_t)getFailed(i)},
        {"times_banned", (int64_t)r.timesBanned},
        {"search_seconds", r.searchSeconds},
        {"apply_seconds", r.applySeconds}});
  }
  out["rules"] = std::move(rulesJson);
  out["legality"] = legalityJSON(tg.dependence().getStats());
  return out;
}
