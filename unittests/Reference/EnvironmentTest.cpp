//===- EnvironmentTest.cpp - Internal helpers of the reference evaluator --===//

#include "Environment.h"

#include "gtest/gtest.h"

#include <cmath>
#include <random>

using namespace mlir::tileir;
using namespace mlir::tileir::reference;

namespace {

TEST(EnvironmentTest, IsRepresentableAgreesWithRounding) {
  std::mt19937_64 generator(7);
  std::vector<double> values = {0.0,      -0.0,    1.0,     0.1,     65504.0,
                                65520.0,  0x1p-24, 0x1p-25, 0x3p-25, 0x1p-14,
                                0x1p-133, 3e38,    1e300,   -2049.0, 2048.0};
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-140, 40);
  for (int i = 0; i < 100000; ++i) {
    double value = std::ldexp(mantissa(generator), exponent(generator));
    values.push_back(value);
    // Values already rounded to each kind must be accepted.
    for (ElementKind kind :
         {ElementKind::F16, ElementKind::BF16, ElementKind::F32})
      values.push_back(roundToElement(kind, value));
  }
  for (ElementKind kind : {ElementKind::F16, ElementKind::BF16,
                           ElementKind::F32, ElementKind::F64})
    for (double value : values)
      EXPECT_EQ(isRepresentable(kind, value),
                roundToElement(kind, value) == value)
          << toString(kind) << " " << value;
  EXPECT_TRUE(isRepresentable(ElementKind::F16, INFINITY));
  EXPECT_TRUE(isRepresentable(ElementKind::I1, 1.0));
  EXPECT_FALSE(isRepresentable(ElementKind::I1, 0.5));
}

} // namespace
