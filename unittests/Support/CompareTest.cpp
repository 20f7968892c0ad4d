//===- CompareTest.cpp - Outputs against expected values ------------------===//

#include "TileDialect/Support/Compare.h"

#include "gtest/gtest.h"

#include <vector>

#include <cmath>
#include <limits>

using namespace mlir::tileir;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(CompareTest, RelativeToLargestReference) {
  Comparison c;
  double got[] = {1.0, 2.5, -4.0}, want[] = {1.0, 2.0, -4.0};
  c.add(got, want, 3);
  EXPECT_TRUE(c.finite());
  EXPECT_DOUBLE_EQ(c.maxAbsError, 0.5);
  EXPECT_DOUBLE_EQ(c.relativeError(), 0.5 / 4.0);
  EXPECT_TRUE(c.passes(0.125));
  EXPECT_FALSE(c.passes(0.1));
}

TEST(CompareTest, AbsoluteWhenReferenceIsZero) {
  Comparison c;
  c.add(1e-3, 0.0);
  EXPECT_DOUBLE_EQ(c.relativeError(), 1e-3);
}

TEST(CompareTest, NaNMatchesNaN) {
  Comparison c;
  c.add(kNaN, kNaN);
  c.add(kInf, kInf);
  c.add(-kInf, -kInf);
  c.add(2.0, 2.0);
  EXPECT_TRUE(c.finite());
  EXPECT_DOUBLE_EQ(c.relativeError(), 0.0);
  EXPECT_TRUE(c.passes(0.0));
}

TEST(CompareTest, NonFiniteMismatches) {
  for (auto [got, want] : {std::pair{kNaN, 1.0}, std::pair{1.0, kNaN},
                           std::pair{kInf, 1.0}, std::pair{kInf, -kInf},
                           std::pair{kNaN, kInf}, std::pair{1.0, kInf}}) {
    Comparison c;
    c.add(got, want);
    EXPECT_FALSE(c.finite()) << got << " vs " << want;
    EXPECT_TRUE(std::isinf(c.relativeError()));
    EXPECT_FALSE(c.passes(1e30));
  }
}

TEST(CompareTest, F16OutputsRelativeToTheSmallestNormal) {
  // Outputs around 1e-6 are f16 subnormals, spaced 2^-24 apart: an error of
  // one spacing is 6% of the reference but inherent to the type.
  Comparison c;
  c.add(1e-6 + std::ldexp(1.0, -24), 1e-6);
  EXPECT_GT(c.relativeError(), 0.05);
  EXPECT_FALSE(c.passes(1e-2));
  double floor = comparisonFloor(ElementKind::F16);
  EXPECT_EQ(floor, std::ldexp(1.0, -14));
  EXPECT_LT(c.relativeError(floor), 1e-3);
  EXPECT_TRUE(c.passes(1e-2, floor));
  // Above the floor it changes nothing.
  Comparison big;
  big.add(1.5, 1.0);
  EXPECT_DOUBLE_EQ(big.relativeError(floor), 0.5);
  EXPECT_EQ(comparisonFloor(ElementKind::F32), 0.0);
}

TEST(CompareTest, ElementErrorSeesSmallElementsLeftUnwritten) {
  // Three small values left at zero beside one large one: 0.2% of the
  // output's scale, 100% of each element.
  std::vector<double> want = {1e-3, 1e-3, -0.5, 1e-3}, got = {0, 1e-3, -0.5, 0};
  Comparison c;
  c.add(got.data(), want.data(), want.size());
  EXPECT_TRUE(c.passes(1e-2));
  ElementError e = maxElementError(got.data(), want.data(), want.size(), 1e-3);
  EXPECT_EQ(e.index, 0u);
  EXPECT_NEAR(e.error, 1e-3 / (1e-3 + 0.5e-3), 1e-12);
  // Rounding-level differences pass; zeros compare against the floor.
  std::vector<double> close = {1e-3 * (1 + 1e-9), 1e-3, -0.5 * (1 - 1e-12),
                               1e-3};
  EXPECT_LT(maxElementError(close.data(), want.data(), 4, 1e-3).error, 1e-8);
  std::vector<double> zero = {0, 0}, tiny = {1e-12, 0};
  EXPECT_EQ(maxElementError(zero.data(), zero.data(), 2, 1e-3).error, 0);
  EXPECT_TRUE(std::isinf(maxElementError(tiny.data(), zero.data(), 2, 1e-3).error));
  // Non-finite pairs are Comparison's to judge.
  std::vector<double> nan = {kNaN, 1.0}, one = {1.0, 1.0};
  EXPECT_EQ(maxElementError(nan.data(), one.data(), 2, 1e-3).error, 0);
}

} // namespace
