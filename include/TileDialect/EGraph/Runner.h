//===- Runner.h - Equality saturation driver and scheduler ------*- C++ -*-===//
//
// Runs rewrite rules over an e-graph in iterations (search all, then apply all,
// then rebuild), with node / iteration / time limits, egg's backoff scheduler,
// hooks between iterations, and per-iteration and per-rule statistics.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_EGRAPH_RUNNER_H
#define TILEDIALECT_EGRAPH_RUNNER_H

#include "TileDialect/EGraph/EGraph.h"

#include "llvm/ADT/StringRef.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace mlir::tileir::egraph {

/// A rewrite rule as the runner sees it. Searching and applying are separate
/// phases: `search` finds matches on a rebuilt e-graph and keeps them, `apply`
/// adds the right-hand sides and unions them in. Matches are not re-validated
/// between the phases.
class Rule {
public:
  virtual ~Rule();
  virtual llvm::StringRef getName() const = 0;
  /// Finds matches and keeps them; stops after `limit` matches and returns the
  /// number found (a result above `limit` means "more than the limit").
  virtual size_t search(const EGraph &egraph, size_t limit) = 0;
  /// Applies the kept matches. Returns the number of applications that
  /// changed the e-graph (a union of two different classes, or a new class).
  virtual size_t apply(EGraph &egraph) = 0;
  /// Drops the kept matches (the scheduler banned the rule this iteration).
  virtual void clearMatches() = 0;
  /// Matches whose guard rejected them in the last `search` (statistics).
  virtual size_t numBlocked() const { return 0; }
};

/// Why saturation stopped.
enum class StopReason {
  Saturated,
  IterationLimit,
  NodeLimit,
  TimeLimit,
  MemoryLimit
};
llvm::StringRef stringifyStopReason(StopReason reason);

struct RunnerLimits {
  unsigned maxIterations = 8;
  size_t maxNodes = 100000;
  double maxSeconds = 60.0;
  /// The analysis data may hold at most this many bytes per allowed node
  /// (`maxNodes` times this in all): what the e-graph holds is bounded by
  /// its node limit even where one class's data grows with the program (a
  /// sequence's accesses). The node and memory limits are also checked
  /// after each rule's matches are applied and after each hook, so one
  /// iteration cannot run far past them.
  size_t maxAnalysisBytesPerNode = 4096;
};

/// egg's BackoffScheduler: a rule that finds more than
/// `matchLimit << timesBanned` matches in an iteration is banned for
/// `banLength << timesBanned` iterations and its matches are dropped.
struct BackoffOptions {
  bool enabled = true;
  size_t matchLimit = 1000;
  unsigned banLength = 5;
};

struct RuleStats {
  std::string name;
  size_t matches = 0;  ///< matches found, summed over iterations
  size_t applied = 0;  ///< applications that changed the e-graph
  size_t blocked = 0;  ///< matches rejected by a guard
  unsigned timesBanned = 0;
  double searchSeconds = 0, applySeconds = 0;
};

struct IterationStats {
  size_t nodes = 0, classes = 0;  ///< after the iteration's rebuild
  size_t applied = 0;             ///< changing applications
  /// (rule index, changing applications) of each rule that changed the
  /// e-graph in this iteration.
  std::vector<std::pair<unsigned, size_t>> ruleApplied;
  size_t rebuildUnions = 0;       ///< unions found by congruence closure
  double searchSeconds = 0, applySeconds = 0, rebuildSeconds = 0,
         hookSeconds = 0;
};

struct RunReport {
  StopReason stopReason = StopReason::Saturated;
  std::vector<IterationStats> iterations;
  std::vector<RuleStats> rules;
  double totalSeconds = 0;
};

/// The saturation driver.
class Runner {
public:
  /// A hook run after each iteration's rebuild (sequence canonicalization,
  /// expression propagation). Returns the number of changes it made; the
  /// runner rebuilds after it.
  using Hook = std::function<size_t(EGraph &)>;

  Runner(EGraph &egraph, RunnerLimits limits = {}, BackoffOptions backoff = {})
      : egraph(egraph), limits(limits), backoff(backoff) {}

  void addRule(Rule *rule) { rules.push_back(rule); }
  void addHook(Hook hook) { hooks.push_back(std::move(hook)); }
  /// Called after each iteration with its index and stats (progress output).
  void setProgress(std::function<void(unsigned, const IterationStats &)> fn) {
    progress = std::move(fn);
  }

  /// Runs until saturated or a limit is hit. The e-graph is rebuilt before the
  /// first search. Saturated means an iteration changed nothing (no rule
  /// application, no hook change) while no rule was banned.
  RunReport run();

private:
  EGraph &egraph;
  RunnerLimits limits;
  BackoffOptions backoff;
  std::vector<Rule *> rules;
  std::vector<Hook> hooks;
  std::function<void(unsigned, const IterationStats &)> progress;
};

} // namespace mlir::tileir::egraph

#endif // TILEDIALECT_EGRAPH_RUNNER_H
