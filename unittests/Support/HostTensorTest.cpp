//===- HostTensorTest.cpp - Element rounding and host tensors -------------===//

#include "TileDialect/Support/HostTensor.h"

#include "gtest/gtest.h"
#include <cmath>

using namespace mlir::tileir;

namespace {

TEST(HostTensorTest, RoundsToHalf) {
  EXPECT_EQ(roundToElement(ElementKind::F16, 1.0), 1.0);
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to even gives 1.
  EXPECT_EQ(roundToElement(ElementKind::F16, 1.0 + std::ldexp(1.0, -11)), 1.0);
  EXPECT_EQ(roundToElement(ElementKind::F16, 1.0 + 3 * std::ldexp(1.0, -11)),
            1.0 + std::ldexp(1.0, -9));
  EXPECT_EQ(roundToElement(ElementKind::F16, 65504.0), 65504.0);
  EXPECT_TRUE(std::isinf(roundToElement(ElementKind::F16, 65520.0)));
  EXPECT_EQ(roundToElement(ElementKind::F16, -0.1), -0.0999755859375);
  // Subnormals: the smallest half is 2^-24.
  EXPECT_EQ(roundToElement(ElementKind::F16, std::ldexp(1.0, -24)),
            std::ldexp(1.0, -24));
  EXPECT_EQ(roundToElement(ElementKind::F16, std::ldexp(1.0, -26)), 0.0);
}

TEST(HostTensorTest, RoundsToBFloatAndFloat) {
  EXPECT_EQ(roundToElement(ElementKind::BF16, 1.0 + std::ldexp(1.0, -9)), 1.0);
  EXPECT_EQ(roundToElement(ElementKind::BF16, 3.0), 3.0);
  EXPECT_EQ(roundToElement(ElementKind::F32, 0.1), static_cast<double>(0.1f));
  EXPECT_EQ(roundToElement(ElementKind::F64, 0.1), 0.1);
  EXPECT_EQ(roundToElement(ElementKind::I1, -2.0), 1.0);
  EXPECT_EQ(roundFor(Precision::F64, ElementKind::F16, 0.1), 0.1);
  EXPECT_NE(roundFor(Precision::F32, ElementKind::F16, 0.1), 0.1);
}

TEST(HostTensorTest, ConstructsZeroed) {
  HostTensor t("X", {2, 3}, ElementKind::F16);
  EXPECT_EQ(t.numElements(), 6);
  EXPECT_EQ(t.data.size(), 6u);
  EXPECT_EQ(t.data[5], 0.0);
  EXPECT_EQ(parseElementKind("bf16"), ElementKind::BF16);
  EXPECT_FALSE(parseElementKind("f8").has_value());
}

} // namespace
