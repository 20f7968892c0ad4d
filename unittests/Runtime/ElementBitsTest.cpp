//===- ElementBitsTest.cpp - Host doubles to device element bytes ---------===//

#include "TileDialect/Runtime/ElementBits.h"

#include "gtest/gtest.h"
#include <cmath>
#include <cstring>

using namespace mlir::tileir;
using namespace mlir::tileir::runtime;

namespace {

TEST(ElementBitsTest, F16KnownValues) {
  EXPECT_EQ(toF16Bits(0.0), 0x0000);
  EXPECT_EQ(toF16Bits(-0.0), 0x8000);
  EXPECT_EQ(toF16Bits(1.0), 0x3C00);
  EXPECT_EQ(toF16Bits(-2.0), 0xC000);
  EXPECT_EQ(toF16Bits(65504.0), 0x7BFF);
  EXPECT_EQ(toF16Bits(0x1.0p-14), 0x0400);
  EXPECT_EQ(toF16Bits(0x1.0p-24), 0x0001);
  EXPECT_EQ(toF16Bits(INFINITY), 0x7C00);
  EXPECT_EQ(toF16Bits(-INFINITY), 0xFC00);
  EXPECT_EQ(toF16Bits(NAN), 0x7E00);
  EXPECT_EQ(fromF16Bits(0x3C00), 1.0);
  EXPECT_EQ(fromF16Bits(0x7BFF), 65504.0);
  EXPECT_EQ(fromF16Bits(0x0001), 0x1.0p-24);
  EXPECT_EQ(fromF16Bits(0x83FF), -0x3FFp-24);
  EXPECT_TRUE(std::isinf(fromF16Bits(0xFC00)) && fromF16Bits(0xFC00) < 0);
  EXPECT_TRUE(std::isnan(fromF16Bits(0x7E01)));
}

TEST(ElementBitsTest, F16RoundsToNearestEven) {
  // Halfway between 1 and the next f16 (1 + 2^-10): to the even 1.
  EXPECT_EQ(toF16Bits(1.0 + 0x1.0p-11), 0x3C00);
  // Halfway between 1 + 2^-10 and 1 + 2^-9: to the even 1 + 2^-9.
  EXPECT_EQ(toF16Bits(1.0 + 3 * 0x1.0p-11), 0x3C02);
  // Just above halfway rounds up.
  EXPECT_EQ(toF16Bits(1.0 + 0x1.0p-11 + 0x1.0p-30), 0x3C01);
  // Subnormals: 2^-25 is halfway between 0 and 2^-24 (to 0), 3 * 2^-25
  // halfway between 2^-24 and 2^-23 (to 2^-23).
  EXPECT_EQ(toF16Bits(0x1.0p-25), 0x0000);
  EXPECT_EQ(toF16Bits(3 * 0x1.0p-25), 0x0002);
  // Overflow: 65520 is halfway to the next binade, which is infinity.
  EXPECT_EQ(toF16Bits(65519.0), 0x7BFF);
  EXPECT_EQ(toF16Bits(65520.0), 0x7C00);
}

TEST(ElementBitsTest, BF16KnownValuesAndRounding) {
  EXPECT_EQ(toBF16Bits(1.0), 0x3F80);
  EXPECT_EQ(toBF16Bits(-2.0), 0xC000);
  EXPECT_EQ(toBF16Bits(NAN), 0x7FC0);
  EXPECT_EQ(toBF16Bits(INFINITY), 0x7F80);
  EXPECT_EQ(toBF16Bits(1.0 + 0x1.0p-8), 0x3F80);
  EXPECT_EQ(toBF16Bits(1.0 + 3 * 0x1.0p-8), 0x3F82);
  EXPECT_EQ(toBF16Bits(1.0 + 0x1.0p-8 + 0x1.0p-20), 0x3F81);
  EXPECT_EQ(fromBF16Bits(0x3F80), 1.0);
  EXPECT_EQ(fromBF16Bits(0x0001), 0x1.0p-133);
}

TEST(ElementBitsTest, EveryBitPatternRoundTrips) {
  for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    double f16 = fromF16Bits(uint16_t(bits));
    double bf16 = fromBF16Bits(uint16_t(bits));
    if (!std::isnan(f16)) {
      EXPECT_EQ(toF16Bits(f16), bits) << std::hex << bits;
      EXPECT_EQ(roundToElement(ElementKind::F16, f16), f16);
    }
    if (!std::isnan(bf16)) {
      EXPECT_EQ(toBF16Bits(bf16), bits) << std::hex << bits;
      EXPECT_EQ(roundToElement(ElementKind::BF16, bf16), bf16);
    }
  }
}

TEST(ElementBitsTest, AgreesWithRoundToElement) {
  // Encoding rounds exactly as the host rounding the interpreters use.
  for (double v : {0.1, -3.14159, 1e-6, 7e-8, 12345.678, 1e5, -1e-40}) {
    EXPECT_EQ(fromF16Bits(toF16Bits(v)), roundToElement(ElementKind::F16, v));
    EXPECT_EQ(fromBF16Bits(toBF16Bits(v)),
              roundToElement(ElementKind::BF16, v));
  }
}

TEST(ElementBitsTest, EncodeDecodeEveryKind) {
  const double values[] = {1.5, -0.25, 0.0, 3.0};
  for (ElementKind kind : {ElementKind::F16, ElementKind::BF16,
                           ElementKind::F32, ElementKind::F64}) {
    unsigned char bytes[32];
    double back[4];
    encodeElements(kind, values, 4, bytes);
    decodeElements(kind, bytes, 4, back);
    for (int i = 0; i < 4; ++i)
      EXPECT_EQ(back[i], values[i]) << toString(kind);
  }
  unsigned char bytes[4];
  const double flags[] = {0.0, 1.0, -2.0, 0.0};
  encodeElements(ElementKind::I1, flags, 4, bytes);
  EXPECT_EQ(bytes[0], 0);
  EXPECT_EQ(bytes[1], 1);
  EXPECT_EQ(bytes[2], 1);
  float f;
  encodeElements(ElementKind::F32, values, 1, &f);
  EXPECT_EQ(f, 1.5f);
  uint16_t h;
  encodeElements(ElementKind::F16, values, 1, &h);
  EXPECT_EQ(h, 0x3E00);
}

} // namespace
