//===- ElementBits.cpp - Host doubles to device element bytes -------------===//

#include "TileDialect/Runtime/ElementBits.h"

#include <cmath>
#include <cstring>

using namespace mlir::tileir;
using namespace mlir::tileir::runtime;

static uint32_t floatBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

static float bitsToFloat(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

uint16_t runtime::toF16Bits(double value) {
  if (std::isnan(value))
    return 0x7E00;
  // Round once to f16 (exactly representable in f32 afterwards), then
  // re-pack the f32 fields.
  double rounded = roundToElement(ElementKind::F16, value);
  uint32_t bits = floatBits(static_cast<float>(rounded));
  uint16_t sign = (bits >> 16) & 0x8000;
  if (std::isinf(rounded))
    return sign | 0x7C00;
  double magnitude = std::fabs(rounded);
  if (magnitude == 0.0)
    return sign;
  int exponent = int((bits >> 23) & 0xFF) - 127;
  if (exponent < -14)
    // Subnormal: a multiple of 2^-24.
    return sign | uint16_t(magnitude * 16777216.0);
  return sign | uint16_t((exponent + 15) << 10) |
         uint16_t((bits >> 13) & 0x3FF);
}

double runtime::fromF16Bits(uint16_t bits) {
  double sign = (bits & 0x8000) ? -1.0 : 1.0;
  unsigned exponent = (bits >> 10) & 0x1F, mantissa = bits & 0x3FF;
  if (exponent == 0)
    return sign * std::ldexp(double(mantissa), -24);
  if (exponent == 31)
    return mantissa ? NAN : sign * INFINITY;
  return sign * std::ldexp(double(mantissa + 1024), int(exponent) - 25);
}

uint16_t runtime::toBF16Bits(double value) {
  if (std::isnan(value))
    return 0x7FC0;
  // bf16 is the top half of an f32: round to bf16, the low half is zero.
  double rounded = roundToElement(ElementKind::BF16, value);
  return uint16_t(floatBits(static_cast<float>(rounded)) >> 16);
}

double runtime::fromBF16Bits(uint16_t bits) {
  return static_cast<double>(bitsToFloat(uint32_t(bits) << 16));
}

void runtime::encodeElements(ElementKind kind, const double *values, int64_t n,
                             void *bytes) {
  auto *out = static_cast<unsigned char *>(bytes);
  for (int64_t i = 0; i < n; ++i) {
    switch (kind) {
    case ElementKind::F16: {
      uint16_t b = toF16Bits(values[i]);
      std::memcpy(out + 2 * i, &b, 2);
      break;
    }
    case ElementKind::BF16: {
      uint16_t b = toBF16Bits(values[i]);
      std::memcpy(out + 2 * i, &b, 2);
      break;
    }
    case ElementKind::F32: {
      float f = static_cast<float>(values[i]);
      std::memcpy(out + 4 * i, &f, 4);
      break;
    }
    case ElementKind::F64:
      std::memcpy(out + 8 * i, &values[i], 8);
      break;
    case ElementKind::I1:
      out[i] = values[i] != 0.0 ? 1 : 0;
      break;
    }
  }
}

void runtime::decodeElements(ElementKind kind, const void *bytes, int64_t n,
                             double *values) {
  const auto *in = static_cast<const unsigned char *>(bytes);
  for (int64_t i = 0; i < n; ++i) {
    switch (kind) {
    case ElementKind::F16:
    case ElementKind::BF16: {
      uint16_t b;
      std::memcpy(&b, in + 2 * i, 2);
      values[i] = kind == ElementKind::F16 ? fromF16Bits(b) : fromBF16Bits(b);
      break;
    }
    case ElementKind::F32: {
      float f;
      std::memcpy(&f, in + 4 * i, 4);
      values[i] = f;
      break;
    }
    case ElementKind::F64:
      std::memcpy(&values[i], in + 8 * i, 8);
      break;
    case ElementKind::I1:
      values[i] = in[i] != 0 ? 1.0 : 0.0;
      break;
    }
  }
}
