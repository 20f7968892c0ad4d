//===- RandomInitTest.cpp - Seeded random inputs --------------------------===//

#include "TileDialect/Support/RandomInit.h"

#include "gtest/gtest.h"
#include <cmath>
#include <vector>

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

TEST(RandomInitTest, BooleanMasksAreTrueWhereTheDrawIsPositive) {
  // Rounding would make every nonzero draw true: a mask of all ones.
  HostTensor mask("allowed", {1 << 12}, ElementKind::I1);
  HostTensor draws("allowed", {1 << 12}, ElementKind::F64);
  fillRandom(mask, 5, 2, InitSpec());
  fillRandom(draws, 5, 2, InitSpec());
  size_t ones = 0;
  for (size_t i = 0; i < mask.data.size(); ++i) {
    EXPECT_EQ(mask.data[i], draws.data[i] > 0.0 ? 1.0 : 0.0);
    ones += mask.data[i] == 1.0;
  }
  EXPECT_NEAR(double(ones) / mask.data.size(), 0.5, 0.05);
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

/// The stream of docs/RandomInputs.md drawn one element pair after another.
static std::vector<double> sequentialDraws(size_t n, uint64_t seed,
                                           unsigned argIndex,
                                           const InitSpec &spec,
                                           ElementKind kind) {
  uint64_t state = seed;
  state = splitmix64(state) ^ (0xD1B54A32D192ED03ull * (argIndex + 1));
  auto unit = [&] {
    return (static_cast<double>(splitmix64(state) >> 11) + 0.5) * 0x1.0p-53;
  };
  std::vector<double> values;
  for (size_t i = 0; i < n; i += 2) {
    double u1 = unit(), u2 = unit();
    double r = std::sqrt(-2.0 * std::log(u1)), theta = 2.0 * M_PI * u2;
    double v[2] = {spec.a + spec.b * r * std::cos(theta),
                   spec.a + spec.b * r * std::sin(theta)};
    if (spec.kind == InitSpec::Uniform)
      v[0] = spec.a + (spec.b - spec.a) * u1,
      v[1] = spec.a + (spec.b - spec.a) * u2;
    for (size_t j = 0; j < 2 && i + j < n; ++j)
      values.push_back(roundToElement(kind, v[j]));
  }
  return values;
}

TEST(RandomInitTest, LargeTensorsAreTheSequentialStream) {
  // Large enough to be filled in ranges on several threads, of odd size (the
  // last pair's second element dropped): every element is the one the
  // sequential stream gives.
  size_t n = (size_t(1) << 21) + 7;
  for (const char *text : {"normal(0, 0.02)", "uniform(-2, 2)"}) {
    InitSpec spec = *InitSpec::parse(text);
    HostTensor t("W", {int64_t(n)}, ElementKind::F16);
    fillRandom(t, 5, 2, spec);
    EXPECT_EQ(t.data, sequentialDraws(n, 5, 2, spec, ElementKind::F16)) << text;
  }
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
