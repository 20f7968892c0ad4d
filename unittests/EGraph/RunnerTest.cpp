//===- RunnerTest.cpp - Saturation, limits, backoff and hooks -------------===//

#include "TestLanguage.h"

#include "TileDialect/EGraph/Runner.h"

#include "gtest/gtest.h"

#include <chrono>
#include <thread>

using namespace mlir::tileir::egraph;
using namespace mlir::tileir::egraph::test;

namespace {

/// A match of `a + b` in class `cls` (children canonical at search time).
struct AddMatch {
  Id cls, a, b;
};

/// a + b => b + a.
class Commute : public Rule {
public:
  llvm::StringRef getName() const override { return "add-commute"; }
  size_t search(const EGraph &g, size_t limit) override {
    matches.clear();
    for (Id cls : g.classesWithOp(Add))
      for (const ENode &node : g.getClass(cls).nodes) {
        if (node.op != Add)
          continue;
        matches.push_back({cls, node.children[0], node.children[1]});
        if (matches.size() > limit)
          return matches.size();
      }
    return matches.size();
  }
  size_t apply(EGraph &g) override {
    size_t changed = 0;
    for (const AddMatch &m : matches)
      changed += g.merge(m.cls, add(g, m.b, m.a));
    matches.clear();
    return changed;
  }
  void clearMatches() override { matches.clear(); }

private:
  std::vector<AddMatch> matches;
};

/// (a + b) + c => a + (b + c).
class Associate : public Rule {
public:
  llvm::StringRef getName() const override { return "add-assoc"; }
  size_t search(const EGraph &g, size_t limit) override {
    matches.clear();
    for (Id cls : g.classesWithOp(Add))
      for (const ENode &node : g.getClass(cls).nodes) {
        if (node.op != Add)
          continue;
        for (const ENode &left : g.getClass(node.children[0]).nodes) {
          if (left.op != Add)
            continue;
          matches.push_back(
              {cls, left.children[0], left.children[1], node.children[1]});
          if (matches.size() > limit)
            return matches.size();
        }
      }
    return matches.size();
  }
  size_t apply(EGraph &g) override {
    size_t changed = 0;
    for (const Match &m : matches)
      changed += g.merge(m.cls, add(g, m.a, add(g, m.b, m.c)));
    matches.clear();
    return changed;
  }
  void clearMatches() override { matches.clear(); }

private:
  struct Match {
    Id cls, a, b, c;
  };
  std::vector<Match> matches;
};

/// x0 + x1 + ... + x(n-1), left-nested.
Id sumOfVars(EGraph &g, uint32_t n) {
  Id sum = var(g, 0);
  for (uint32_t i = 1; i < n; ++i)
    sum = add(g, sum, var(g, i));
  return sum;
}

TEST(RunnerTest, StopReasonNames) {
  EXPECT_EQ(stringifyStopReason(StopReason::Saturated), "saturated");
  EXPECT_EQ(stringifyStopReason(StopReason::IterationLimit), "iteration-limit");
  EXPECT_EQ(stringifyStopReason(StopReason::NodeLimit), "node-limit");
  EXPECT_EQ(stringifyStopReason(StopReason::TimeLimit), "time-limit");
}

TEST(RunnerTest, CommutativitySaturates) {
  EGraph g;
  Id x = var(g, 0), y = var(g, 1);
  Id s = add(g, x, y);
  Commute comm;
  Runner runner(g);
  runner.addRule(&comm);
  RunReport report = runner.run();
  EXPECT_EQ(report.stopReason, StopReason::Saturated);
  ASSERT_EQ(report.iterations.size(), 2u);
  EXPECT_EQ(report.iterations[0].applied, 1u);
  EXPECT_EQ(report.iterations[1].applied, 0u);
  EXPECT_EQ(g.lookup(ENode(Add, 0, {y, x})), g.find(s));
  ASSERT_EQ(report.rules.size(), 1u);
  EXPECT_EQ(report.rules[0].name, "add-commute");
  EXPECT_EQ(report.rules[0].matches, 1u + 2u);
  EXPECT_EQ(report.rules[0].applied, 1u);
  EXPECT_EQ(report.rules[0].timesBanned, 0u);
  EXPECT_GE(report.totalSeconds, 0.0);
}

TEST(RunnerTest, CommutativityAndAssociativitySaturate) {
  // Every non-empty subset of {x0..x3} becomes one class: 15 classes.
  EGraph g;
  Id s = sumOfVars(g, 4);
  Commute comm;
  Associate assoc;
  Runner runner(g, RunnerLimits{50, 100000, 60.0});
  runner.addRule(&comm);
  runner.addRule(&assoc);
  unsigned progressCalls = 0;
  runner.setProgress(
      [&](unsigned, const IterationStats &) { ++progressCalls; });
  RunReport report = runner.run();
  EXPECT_EQ(report.stopReason, StopReason::Saturated);
  EXPECT_EQ(progressCalls, report.iterations.size());
  EXPECT_EQ(g.numClasses(), 15u);
  std::string why;
  EXPECT_TRUE(g.verify(&why)) << why;
  // x3 + (x1 + (x0 + x2)) is in the class of the original sum.
  Id other = add(g, var(g, 3), add(g, var(g, 1), add(g, var(g, 0), var(g, 2))));
  EXPECT_EQ(g.find(other), g.find(s));
  EXPECT_EQ(report.iterations.back().nodes, g.numNodes() - 0);
}

TEST(RunnerTest, IterationLimit) {
  EGraph g;
  sumOfVars(g, 6);
  Commute comm;
  Associate assoc;
  Runner runner(g, RunnerLimits{2, 100000, 60.0});
  runner.addRule(&comm);
  runner.addRule(&assoc);
  RunReport report = runner.run();
  EXPECT_EQ(report.stopReason, StopReason::IterationLimit);
  EXPECT_EQ(report.iterations.size(), 2u);
}

TEST(RunnerTest, NodeLimit) {
  EGraph g;
  sumOfVars(g, 8);
  Commute comm;
  Associate assoc;
  Runner runner(g, RunnerLimits{100, 60, 60.0});
  runner.addRule(&comm);
  runner.addRule(&assoc);
  RunReport report = runner.run();
  EXPECT_EQ(report.stopReason, StopReason::NodeLimit);
  EXPECT_GT(g.numNodes(), 60u);
  EXPECT_GT(report.iterations.back().nodes, 60u);
  std::string why;
  EXPECT_TRUE(g.verify(&why)) << why;
}

/// An analysis that holds `bytesPerClass` for every class made.
class SizedAnalysis : public Analysis {
public:
  explicit SizedAnalysis(size_t bytesPerClass) : bytesPerClass(bytesPerClass) {}
  void make(Id, const ENode &) override { ++classes; }
  bool merge(Id, Id) override { return false; }
  bool remake(Id, const ENode &) override { return false; }
  size_t memoryBytes() const override { return classes * bytesPerClass; }

private:
  size_t bytesPerClass, classes = 0;
};

TEST(RunnerTest, MemoryLimit) {
  // 1 KiB of analysis data per class, at most 64 bytes per allowed node:
  // the e-graph stops well before its node limit, inside the first
  // iteration that passes the memory limit.
  SizedAnalysis analysis(1024);
  EGraph g(&analysis);
  sumOfVars(g, 8);
  Commute comm;
  Associate assoc;
  RunnerLimits limits{100, 100000, 60.0};
  limits.maxAnalysisBytesPerNode = 64;
  Runner runner(g, limits);
  runner.addRule(&comm);
  runner.addRule(&assoc);
  RunReport report = runner.run();
  EXPECT_EQ(report.stopReason, StopReason::MemoryLimit);
  EXPECT_GT(g.analysisBytes(), 100000u * 64);
  EXPECT_LT(g.numNodes(), 100000u);
  std::string why;
  EXPECT_TRUE(g.verify(&why)) << why;
  EXPECT_EQ(stringifyStopReason(StopReason::MemoryLimit), "memory-limit");
}

TEST(RunnerTest, TimeLimit) {
  EGraph g;
  sumOfVars(g, 4);
  Commute comm;
  Runner runner(g, RunnerLimits{100, 100000, -1.0});
  runner.addRule(&comm);
  RunReport report = runner.run();
  EXPECT_EQ(report.stopReason, StopReason::TimeLimit);
  EXPECT_FALSE(g.isDirty());
}

/// Finds one match slowly and counts its applications.
class SlowRule : public Rule {
public:
  unsigned applies = 0, clears = 0;
  llvm::StringRef getName() const override { return "slow"; }
  size_t search(const EGraph &, size_t) override {
    std::this_thread::sleep_for(std::chrono::milliseconds(60));
    return 1;
  }
  size_t apply(EGraph &) override {
    ++applies;
    return 1;
  }
  void clearMatches() override { ++clears; }
};

TEST(RunnerTest, TimeLimitStopsAfterSearch) {
  // The search phase overruns the limit: the iteration ends before applying.
  EGraph g;
  sumOfVars(g, 3);
  SlowRule slow;
  Runner runner(g, RunnerLimits{100, 100000, 0.03});
  runner.addRule(&slow);
  RunReport report = runner.run();
  EXPECT_EQ(report.stopReason, StopReason::TimeLimit);
  EXPECT_EQ(report.iterations.size(), 1u);
  EXPECT_EQ(slow.applies, 0u);
  EXPECT_EQ(slow.clears, 1u);
  EXPECT_EQ(report.rules[0].matches, 1u);
  EXPECT_GE(report.iterations[0].searchSeconds, 0.05);
}

TEST(RunnerTest, BackoffBansRulesWithManyMatches) {
  // 16 independent sums: the commute rule finds 16 matches, then 32, more
  // than a match limit of 4 << timesBanned for a while.
  EGraph g;
  std::vector<Id> sums;
  for (uint32_t i = 0; i < 16; ++i)
    sums.push_back(add(g, var(g, 2 * i), var(g, 2 * i + 1)));
  Commute comm;
  BackoffOptions backoff;
  backoff.matchLimit = 4;
  backoff.banLength = 2;
  Runner runner(g, RunnerLimits{50, 100000, 60.0}, backoff);
  runner.addRule(&comm);
  RunReport report = runner.run();
  EXPECT_EQ(report.stopReason, StopReason::Saturated);
  EXPECT_GE(report.rules[0].timesBanned, 2u);
  // The first iteration banned the rule: nothing applied.
  EXPECT_EQ(report.iterations[0].applied, 0u);
  EXPECT_EQ(report.rules[0].applied, 16u);
  for (uint32_t i = 0; i < 16; ++i)
    EXPECT_EQ(g.lookup(ENode(Add, 0, {var(g, 2 * i + 1), var(g, 2 * i)})),
              g.find(sums[i]));
}

TEST(RunnerTest, BackoffCanBeDisabled) {
  EGraph g;
  for (uint32_t i = 0; i < 16; ++i)
    add(g, var(g, 2 * i), var(g, 2 * i + 1));
  Commute comm;
  BackoffOptions backoff;
  backoff.enabled = false;
  backoff.matchLimit = 1;
  Runner runner(g, RunnerLimits{50, 100000, 60.0}, backoff);
  runner.addRule(&comm);
  RunReport report = runner.run();
  EXPECT_EQ(report.stopReason, StopReason::Saturated);
  EXPECT_EQ(report.rules[0].timesBanned, 0u);
  EXPECT_EQ(report.iterations.size(), 2u);
}

TEST(RunnerTest, HooksRunAndTheirChangesCount) {
  // No rules: a hook that merges x0 and x1 once keeps the run going one more
  // iteration, and congruence makes f(x0) == f(x1).
  EGraph g;
  Id a = var(g, 0), b = var(g, 1);
  Id fa = f(g, a), fb = f(g, b);
  unsigned calls = 0;
  Runner runner(g);
  runner.addHook([&](EGraph &eg) -> size_t {
    ++calls;
    return eg.merge(a, b) ? 1 : 0;
  });
  RunReport report = runner.run();
  EXPECT_EQ(report.stopReason, StopReason::Saturated);
  EXPECT_EQ(calls, 2u);
  ASSERT_EQ(report.iterations.size(), 2u);
  EXPECT_EQ(report.iterations[0].rebuildUnions, 1u);
  EXPECT_EQ(g.find(fa), g.find(fb));
  EXPECT_FALSE(g.isDirty());
}

} // namespace
