//===- RandomInitTest.cpp - Seeded random inputs --------------------------===//

#include "TileDialect/Support/RandomInit.h"

#include "gtest/gtest.h"
#include <cmath>

using namespace mlir::tileir;

namespace {

TEST(RandomInitTest, SplitMixReferenceValues) {
  // The first outputs of splitmix64 from state 0 (Vigna's reference).
  uint64_t state = 0;
  EXPECT_EQ(splitmix64(state), 0xE220A8397B1DCDAFull);
  EXPECT_EQ(splitmix64(state), 0x6E789E6AA1B965F4ull);
}

TEST(RandomInitTest, DeterministicPerSeedAndArgument) {
  HostTensor a("a", {1000}, ElementKind::F32), b = a, c = a, d = a;
  InitSpec spec;
  fillRandom(a, 7, 0, spec);
  fillRandom(b, 7, 0, spec);
  fillRandom(c, 7, 1, spec);
  fillRandom(d, 8, 0, spec);
  EXPECT_EQ(a.data, b.data);
  EXPECT_NE(a.data, c.data);
  EXPECT_NE(a.data, d.data);
}

TEST(RandomInitTest, MomentsMatchTheDistribution) {
  HostTensor t("w", {1 << 16}, ElementKind::F64);
  fillRandom(t, 1, 3, *InitSpec::parse("normal(1.0, 0.02)"));
  double sum = 0, sq = 0;
  for (double v : t.data)
    sum += v, sq += v * v;
  double mean = sum / t.data.size();
  double stddev = std::sqrt(sq / t.data.size() - mean * mean);
  EXPECT_NEAR(mean, 1.0, 0.001);
  EXPECT_NEAR(stddev, 0.02, 0.001);
  HostTensor u("u", {1 << 16}, ElementKind::F64);
  fillRandom(u, 1, 0, *InitSpec::parse("uniform(-2, 2)"));
  for (double v : u.data)
    ASSERT_TRUE(v > -2 && v < 2);
}

TEST(RandomInitTest, RoundsToTheElementType) {
  HostTensor t("x", {64}, ElementKind::F16);
  fillRandom(t, 3, 0, InitSpec());
  for (double v : t.data)
    EXPECT_EQ(v, roundToElement(ElementKind::F16, v));
}

TEST(RandomInitTest, DefaultsFollowTheWorkloads) {
  EXPECT_EQ(defaultInitFor("WQ").b, 0.02);
  EXPECT_EQ(defaultInitFor("W1a").b, 0.02);
  EXPECT_EQ(defaultInitFor("Kc").b, 0.3);
  EXPECT_EQ(defaultInitFor("Vc").b, 1.0);
  EXPECT_EQ(defaultInitFor("noise").b, 0.1);
  EXPECT_EQ(defaultInitFor("gq").a, 1.0);
  EXPECT_EQ(defaultInitFor("g").a, 1.0);
  EXPECT_EQ(defaultInitFor("gate").a, 0.0);
  EXPECT_EQ(defaultInitFor("X").str(), "normal(0, 1)");
}

TEST(RandomInitTest, ParsesSpecs) {
  EXPECT_EQ(InitSpec::parse("normal(0.0, 0.3)")->b, 0.3);
  EXPECT_EQ(InitSpec::parse("uniform(-1,1)")->kind, InitSpec::Uniform);
  EXPECT_FALSE(InitSpec::parse("normal(0)"));
  EXPECT_FALSE(InitSpec::parse("gauss(0, 1)"));
  EXPECT_FALSE(InitSpec::parse("normal(0, -1)"));
  EXPECT_FALSE(InitSpec::parse("normal(0, 1) "));
  EXPECT_EQ(InitSpec::parse("normal(1, 0.1)")->str(), "normal(1, 0.1)");
}

} // namespace
