//===- Runner.cpp - Equality saturation driver and scheduler --------------===//
//
// Each iteration: check the limits, rebuild, search every rule that is not
// banned (egg's backoff scheduler bans a rule whose matches exceed its limit),
// apply all kept matches, rebuild, run the hooks (rebuilding after each), and
// record statistics. An iteration that changed nothing while some rule was
// banned un-bans the rules early (as egg does) instead of stopping; one that
// changed nothing with no rule banned saturates.
//
//===----------------------------------------------------------------------===//

#include "TileDialect/EGraph/Runner.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <optional>

using namespace mlir::tileir::egraph;

Rule::~Rule() = default;

llvm::StringRef mlir::tileir::egraph::stringifyStopReason(StopReason reason) {
  switch (reason) {
  case StopReason::Saturated:
    return "saturated";
  case StopReason::IterationLimit:
    return "iteration-limit";
  case StopReason::NodeLimit:
    return "node-limit";
  case StopReason::TimeLimit:
    return "time-limit";
  case StopReason::MemoryLimit:
    return "memory-limit";
  }
  return "unknown";
}

namespace {
using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// Scheduler state of one rule.
struct Schedule {
  unsigned timesBanned = 0;
  /// The rule is skipped in iterations before this one.
  unsigned bannedUntil = 0;
};

/// `value << shift`, saturating instead of overflowing.
size_t shiftSaturating(size_t value, unsigned shift) {
  if (value == 0)
    return 0;
  if (shift >= std::numeric_limits<size_t>::digits ||
      value > (std::numeric_limits<size_t>::max() >> shift))
    return std::numeric_limits<size_t>::max();
  return value << shift;
}
} // namespace

RunReport Runner::run() {
  Clock::time_point start = Clock::now();
  RunReport report;
  report.rules.resize(rules.size());
  for (size_t i = 0, e = rules.size(); i != e; ++i)
    report.rules[i].name = rules[i]->getName().str();
  std::vector<Schedule> schedule(rules.size());
  std::vector<char> kept(rules.size());

  auto timedOut = [&] { return secondsSince(start) > limits.maxSeconds; };
  // The node or memory limit the e-graph is past, if any.
  size_t maxBytes = limits.maxNodes * limits.maxAnalysisBytesPerNode;
  auto pastSize = [&]() -> std::optional<StopReason> {
    if (egraph.numNodes() > limits.maxNodes)
      return StopReason::NodeLimit;
    if (egraph.analysisBytes() > maxBytes)
      return StopReason::MemoryLimit;
    return std::nullopt;
  };
  auto timedRebuild = [&](IterationStats &stats) {
    Clock::time_point t = Clock::now();
    stats.rebuildUnions += egraph.rebuild();
    stats.rebuildSeconds += secondsSince(t);
  };
  // Ends a partial iteration: drops the matches not applied yet, restores the
  // invariants and records the iteration.
  auto finishEarly = [&](IterationStats &stats, unsigned iteration,
                         size_t firstUnapplied,
                         StopReason reason = StopReason::TimeLimit) {
    for (size_t i = firstUnapplied, e = rules.size(); i != e; ++i)
      if (kept[i])
        rules[i]->clearMatches();
    timedRebuild(stats);
    stats.nodes = egraph.numNodes();
    stats.classes = egraph.numClasses();
    report.iterations.push_back(stats);
    if (progress)
      progress(iteration, stats);
    report.stopReason = reason;
  };

  {
    IterationStats scratch;
    timedRebuild(scratch);
  }

  for (unsigned iteration = 0;; ++iteration) {
    // Limits before starting the iteration.
    if (iteration >= limits.maxIterations) {
      report.stopReason = StopReason::IterationLimit;
      break;
    }
    if (std::optional<StopReason> past = pastSize()) {
      report.stopReason = *past;
      break;
    }
    if (timedOut()) {
      report.stopReason = StopReason::TimeLimit;
      break;
    }

    IterationStats stats;
    timedRebuild(stats);
    size_t nodesBefore = egraph.numNodes(), classesBefore = egraph.numClasses();

    // Search.
    std::fill(kept.begin(), kept.end(), 0);
    bool anyBanned = false, stopped = false;
    for (size_t i = 0, e = rules.size(); i != e; ++i) {
      Schedule &sched = schedule[i];
      RuleStats &ruleStats = report.rules[i];
      if (backoff.enabled && iteration < sched.bannedUntil) {
        anyBanned = true;
        continue;
      }
      size_t limit =
          backoff.enabled
              ? shiftSaturating(backoff.matchLimit, sched.timesBanned)
              : std::numeric_limits<size_t>::max();
      Clock::time_point t = Clock::now();
      size_t found = rules[i]->search(egraph, limit);
      double seconds = secondsSince(t);
      ruleStats.searchSeconds += seconds;
      stats.searchSeconds += seconds;
      ruleStats.matches += found;
      ruleStats.blocked += rules[i]->numBlocked();
      if (backoff.enabled && found > limit) {
        unsigned length = static_cast<unsigned>(std::min<size_t>(
            shiftSaturating(backoff.banLength, sched.timesBanned),
            std::numeric_limits<unsigned>::max() - iteration - 1));
        sched.bannedUntil = iteration + 1 + length;
        ++sched.timesBanned;
        ++ruleStats.timesBanned;
        rules[i]->clearMatches();
        anyBanned = true;
      } else {
        kept[i] = true;
      }
      if (timedOut()) {
        finishEarly(stats, iteration, 0);
        stopped = true;
        break;
      }
    }
    if (stopped)
      break;

    // Apply.
    for (size_t i = 0, e = rules.size(); i != e && !stopped; ++i) {
      if (!kept[i])
        continue;
      Clock::time_point t = Clock::now();
      size_t applied = rules[i]->apply(egraph);
      double seconds = secondsSince(t);
      report.rules[i].applySeconds += seconds;
      report.rules[i].applied += applied;
      stats.applySeconds += seconds;
      stats.applied += applied;
      if (applied)
        stats.ruleApplied.push_back({unsigned(i), applied});
      if (timedOut()) {
        finishEarly(stats, iteration, i + 1);
        stopped = true;
      } else if (std::optional<StopReason> past = pastSize()) {
        finishEarly(stats, iteration, i + 1, *past);
        stopped = true;
      }
    }
    if (stopped)
      break;
    timedRebuild(stats);

    // Hooks, while the e-graph is within its limits.
    size_t hookChanges = 0;
    for (Hook &hook : hooks) {
      if (pastSize())
        break;
      Clock::time_point t = Clock::now();
      hookChanges += hook(egraph);
      stats.hookSeconds += secondsSince(t);
      timedRebuild(stats);
    }

    stats.nodes = egraph.numNodes();
    stats.classes = egraph.numClasses();
    report.iterations.push_back(stats);
    if (progress)
      progress(iteration, stats);

    bool changed = stats.applied != 0 || hookChanges != 0 ||
                   stats.nodes != nodesBefore ||
                   stats.classes != classesBefore;
    if (!changed) {
      if (!anyBanned) {
        report.stopReason = StopReason::Saturated;
        break;
      }
      // Nothing changed but rules were banned: run them next iteration.
      for (Schedule &sched : schedule)
        if (sched.bannedUntil > iteration + 1)
          sched.bannedUntil = iteration + 1;
    }
    if (std::optional<StopReason> past = pastSize()) {
      report.stopReason = *past;
      break;
    }
    if (timedOut()) {
      report.stopReason = StopReason::TimeLimit;
      break;
    }
  }
  report.totalSeconds = secondsSince(start);
  return report;
}
