//===- AnalysisTest.cpp - Constant folding as an e-class analysis ---------===//

#include "TestLanguage.h"

#include "gtest/gtest.h"

#include <optional>

using namespace mlir::tileir::egraph;
using namespace mlir::tileir::egraph::test;

namespace {

/// The constant value of each class, if known (a flat semilattice).
class ConstantFolding : public Analysis {
public:
  std::vector<std::optional<int64_t>> data;
  unsigned makes = 0, merges = 0, remakes = 0;

  void make(Id id, const ENode &node) override {
    ++makes;
    if (data.size() <= id)
      data.resize(id + 1);
    data[id] = fold(node);
  }
  bool merge(Id into, Id from) override {
    ++merges;
    if (data[into] || !data[from])
      return false;
    data[into] = data[from];
    return true;
  }
  bool remake(Id id, const ENode &node) override {
    ++remakes;
    std::optional<int64_t> value = fold(node);
    if (!value || data[id])
      return false;
    data[id] = value;
    return true;
  }
  std::optional<int64_t> at(const EGraph &g, Id id) const {
    return data[g.find(id)];
  }

  std::optional<int64_t> fold(const ENode &node) const {
    switch (node.op) {
    case Num:
      return node.payload;
    case Add:
    case Mul: {
      std::optional<int64_t> a = data[node.children[0]];
      std::optional<int64_t> b = data[node.children[1]];
      if (!a || !b)
        return std::nullopt;
      return node.op == Add ? *a + *b : *a * *b;
    }
    default:
      return std::nullopt;
    }
  }
};

TEST(AnalysisTest, MakeFoldsNewClasses) {
  ConstantFolding cf;
  EGraph g(&cf);
  Id two = num(g, 2), three = num(g, 3);
  Id sum = add(g, two, three);
  Id prod = mul(g, sum, two);
  Id x = var(g, 0);
  Id xs = add(g, x, sum);
  EXPECT_EQ(cf.makes, 6u);
  EXPECT_EQ(cf.at(g, sum), 5);
  EXPECT_EQ(cf.at(g, prod), 10);
  EXPECT_FALSE(cf.at(g, x).has_value());
  EXPECT_FALSE(cf.at(g, xs).has_value());
  // Hash-consing does not call make again.
  add(g, two, three);
  EXPECT_EQ(cf.makes, 6u);
}

TEST(AnalysisTest, MergePropagatesToParents) {
  // x + 0 with x merged into the constant 3 folds to 3.
  ConstantFolding cf;
  EGraph g(&cf);
  Id x = var(g, 0);
  Id zero = num(g, 0);
  Id xPlus0 = add(g, x, zero);
  EXPECT_FALSE(cf.at(g, xPlus0).has_value());
  Id three = num(g, 3);
  g.merge(x, three);
  EXPECT_TRUE(g.isDirty());
  g.rebuild();
  EXPECT_EQ(cf.at(g, x), 3);
  EXPECT_EQ(cf.at(g, xPlus0), 3);
}

TEST(AnalysisTest, PropagatesThroughChains) {
  // ((x + 1) * 2) + y with y = 10 and then x = 4: every ancestor folds.
  ConstantFolding cf;
  EGraph g(&cf);
  Id x = var(g, 0), y = var(g, 1);
  Id e1 = add(g, x, num(g, 1));
  Id e2 = mul(g, e1, num(g, 2));
  Id e3 = add(g, e2, y);
  g.merge(y, num(g, 10));
  g.rebuild();
  EXPECT_FALSE(cf.at(g, e3).has_value());
  g.merge(num(g, 4), x);
  g.rebuild();
  EXPECT_EQ(cf.at(g, e1), 5);
  EXPECT_EQ(cf.at(g, e2), 10);
  EXPECT_EQ(cf.at(g, e3), 20);
}

TEST(AnalysisTest, ParentsOfTheMergedAwaySideAreRemade) {
  // The constant class has more parents, so it stays the root and its data
  // does not change; the parents of the variable class must still fold.
  ConstantFolding cf;
  EGraph g(&cf);
  Id five = num(g, 5);
  for (uint32_t i = 0; i < 4; ++i)
    mul(g, five, num(g, 100 + i));
  Id x = var(g, 0);
  Id xPlus1 = add(g, x, num(g, 1));
  g.merge(x, five);
  g.rebuild();
  EXPECT_EQ(g.find(x), five);
  EXPECT_EQ(cf.at(g, xPlus1), 6);
}

TEST(AnalysisTest, CongruenceAndAnalysisInterleave) {
  // f(a) and f(b) become congruent; a + f(a) folds once a is a constant and
  // f(a) is merged with a constant.
  ConstantFolding cf;
  EGraph g(&cf);
  Id a = var(g, 0), b = var(g, 1);
  Id fa = f(g, a), fb = f(g, b);
  Id s = add(g, a, fb);
  g.merge(a, b);
  g.merge(a, num(g, 7));
  g.merge(fa, num(g, 1));
  g.rebuild();
  EXPECT_EQ(g.find(fa), g.find(fb));
  EXPECT_EQ(cf.at(g, s), 8);
  EXPECT_FALSE(g.isDirty());
}

TEST(AnalysisTest, FixpointAfterRandomMerges) {
  // A random DAG over 40 variables; variables are merged with constants (or
  // with each other) in several rounds. After each rebuild every node that
  // folds must agree with the data of its class.
  ConstantFolding cf;
  EGraph g(&cf);
  std::vector<Id> vars, all;
  for (uint32_t i = 0; i < 40; ++i)
    all.push_back(vars.emplace_back(var(g, i)));
  uint32_t state = 7;
  auto next = [&] {
    state = state * 1103515245 + 12345;
    return state >> 8;
  };
  for (int i = 0; i < 400; ++i) {
    Id a = all[next() % all.size()], b = all[next() % all.size()];
    all.push_back(next() % 2 ? add(g, a, b) : mul(g, a, b));
  }
  for (int round = 0; round < 8; ++round) {
    for (int k = 0; k < 4; ++k) {
      // Only merges that keep the constants consistent.
      Id v = vars[next() % vars.size()];
      Id w = vars[next() % vars.size()];
      if (next() % 3 == 0) {
        if (!cf.at(g, v) || !cf.at(g, w))
          g.merge(v, w);
      } else if (!cf.at(g, v)) {
        g.merge(v, num(g, next() % 5));
      }
    }
    g.rebuild();
    std::string why;
    ASSERT_TRUE(g.verify(&why)) << why;
    for (Id id : g.classIds())
      for (const ENode &node : g.getClass(id).nodes)
        if (std::optional<int64_t> value = cf.fold(node))
          ASSERT_EQ(cf.data[id], value) << "round " << round;
  }
  EXPECT_GT(cf.remakes, 0u);
}

} // namespace
