//===- CountTest.cpp - Counting programs in e-graphs ----------------------===//

#include "TestLanguage.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>

using namespace mlir::tileir::egraph;
using namespace mlir::tileir::egraph::test;

namespace {

TEST(CountTest, SingleLeaf) {
  EGraph g;
  Id a = var(g, 0);
  ProgramCount c = g.countPrograms(a);
  EXPECT_EQ(c.exact, 1u);
  EXPECT_DOUBLE_EQ(c.log10, 0.0);
}

TEST(CountTest, ProductsAndSums) {
  // Class s has two nodes, x + y and x * y, where x has 3 alternatives and y
  // has 2: 2 * (3 * 2) = 12 programs.
  EGraph g;
  Id x = var(g, 0);
  g.merge(x, var(g, 1));
  g.merge(x, var(g, 2));
  Id y = num(g, 0);
  g.merge(y, num(g, 1));
  g.rebuild();
  Id s = add(g, x, y);
  g.merge(s, mul(g, x, y));
  g.rebuild();
  EXPECT_EQ(g.countPrograms(x).exact, 3u);
  EXPECT_EQ(g.countPrograms(y).exact, 2u);
  ProgramCount c = g.countPrograms(s);
  EXPECT_EQ(c.exact, 12u);
  EXPECT_NEAR(c.log10, std::log10(12.0), 1e-12);
  // f(s) with s shared by both children of +: 12 * 12.
  Id ss = add(g, s, s);
  EXPECT_EQ(g.countPrograms(ss).exact, 144u);
}

TEST(CountTest, SharedSubtermsAreCountedOncePerUse) {
  // A diamond: both children use the same 2-alternative class.
  EGraph g;
  Id a = var(g, 0);
  g.merge(a, var(g, 1));
  g.rebuild();
  Id fa = f(g, a);
  Id top = add(g, fa, a);
  EXPECT_EQ(g.countPrograms(top).exact, 4u);
}

TEST(CountTest, CyclesGiveFiniteCounts) {
  // a = f(a): the class holds a and f(a); the cyclic node contributes 0.
  EGraph g;
  Id a = var(g, 0);
  g.merge(a, f(g, a));
  g.rebuild();
  ProgramCount c = g.countPrograms(a);
  EXPECT_EQ(c.exact, 1u);
  // Through another class: b = g(a) + ..., a = f(b) | x.
  Id b = g.add(ENode(G, 0, {a}));
  g.merge(b, num(g, 1));
  g.rebuild();
  Id top = add(g, b, a);
  ProgramCount t = g.countPrograms(top);
  EXPECT_EQ(t.exact, 2u);
  EXPECT_TRUE(std::isfinite(t.log10));
}

TEST(CountTest, SelfLoopCountsTheLeafOnly) {
  EGraph g;
  Id a = var(g, 0);
  Id fa = f(g, a);
  g.merge(a, fa);
  g.rebuild();
  // Every node of this two-node class: x0 (1 program) and f(self) (0).
  EXPECT_EQ(g.countPrograms(fa).exact, 1u);
}

TEST(CountTest, Log10AgreesWithExact) {
  EGraph g;
  // A chain of 30 classes with 3 choices each: 3^30 fits in 64 bits.
  Id prev = var(g, 0);
  g.merge(prev, var(g, 1));
  g.merge(prev, var(g, 2));
  g.rebuild();
  for (uint32_t i = 0; i < 29; ++i) {
    Id n1 = f(g, prev);
    Id n2 = g.add(ENode(G, 0, {prev}));
    Id n3 = g.add(ENode(G, 1 + i, {prev}));
    g.merge(n1, n2);
    g.merge(n1, n3);
    g.rebuild();
    prev = g.find(n1);
  }
  ProgramCount c = g.countPrograms(prev);
  ASSERT_TRUE(c.exact.has_value());
  uint64_t expected = 1;
  for (int i = 0; i < 30; ++i)
    expected *= 3;
  EXPECT_EQ(*c.exact, expected);
  EXPECT_NEAR(c.log10, std::log10(static_cast<double>(*c.exact)), 1e-9);
}

TEST(CountTest, HugeCountsOverflowToLog) {
  // A chain of 200 classes with 2 choices each: 2^200 programs.
  EGraph g;
  Id prev = var(g, 0);
  g.merge(prev, var(g, 1));
  g.rebuild();
  for (uint32_t i = 0; i < 199; ++i) {
    Id n1 = f(g, prev);
    Id n2 = g.add(ENode(G, 0, {prev}));
    g.merge(n1, n2);
    g.rebuild();
    prev = g.find(n1);
  }
  ProgramCount c = g.countPrograms(prev);
  EXPECT_FALSE(c.exact.has_value());
  EXPECT_NEAR(c.log10, 200 * std::log10(2.0), 1e-6);
}

TEST(CountTest, DeepProgramsDoNotOverflowTheStack) {
  // f^100000(x), plus a back edge from the bottom to the top.
  EGraph g;
  Id x = var(g, 0);
  Id prev = x;
  for (int i = 0; i < 100000; ++i)
    prev = f(g, prev);
  EXPECT_EQ(g.countPrograms(prev).exact, 1u);
  g.merge(x, prev);
  g.rebuild();
  ProgramCount c = g.countPrograms(prev);
  ASSERT_TRUE(c.exact.has_value());
  EXPECT_GE(*c.exact, 1u);
}

} // namespace
