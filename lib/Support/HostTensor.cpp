//===- HostTensor.cpp - Dense tensors on the host -------------------------===//

#include "TileDialect/Support/HostTensor.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

using namespace mlir::tileir;

const char *mlir::tileir::toString(ElementKind kind) {
  switch (kind) {
  case ElementKind::F16:
    return "f16";
  case ElementKind::BF16:
    return "bf16";
  case ElementKind::F32:
    return "f32";
  case ElementKind::F64:
    return "f64";
  case ElementKind::I1:
    return "i1";
  }
  return "?";
}

std::optional<ElementKind>
mlir::tileir::parseElementKind(const std::string &name) {
  for (ElementKind kind : {ElementKind::F16, ElementKind::BF16, ElementKind::F32,
                           ElementKind::F64, ElementKind::I1})
    if (name == toString(kind))
      return kind;
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Rounding
//===----------------------------------------------------------------------===//

/// Rounds `value` to a binary format with `Mantissa` explicit bits, smallest
/// normal exponent `MinExp` and largest finite value `largest`, to nearest
/// even with gradual underflow.
/// Normal values drop the low bits of the double's mantissa (a carry into the
/// exponent is the correct rounding); subnormal ones round to a multiple of
/// the fixed smallest step, scaled by an exact power of two.
/// 2^e, at compile time.
static constexpr double pow2(int e) {
  double r = 1.0;
  for (; e > 0; --e)
    r *= 2.0;
  for (; e < 0; ++e)
    r /= 2.0;
  return r;
}

template <int Mantissa, int MinExp>
static inline double roundToFormatBits(double value, double largest) {
  constexpr int dropBits = 52 - Mantissa;
  constexpr double minNormal = pow2(MinExp);
  double magnitude = std::fabs(value);
  if (!(magnitude >= minNormal)) {
    if (magnitude == 0.0 || value != value)
      return value;
    constexpr double scale = pow2(Mantissa - MinExp);
    return std::nearbyint(value * scale) / scale;
  }
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  uint64_t lsb = (bits >> dropBits) & 1;
  bits += ((uint64_t(1) << (dropBits - 1)) - 1) + lsb;
  bits &= ~((uint64_t(1) << dropBits) - 1);
  double rounded;
  std::memcpy(&rounded, &bits, sizeof(rounded));
  if (std::fabs(rounded) > largest)
    return std::copysign(std::numeric_limits<double>::infinity(), value);
  return rounded;
}

static constexpr double kLargestF16 = (2.0 - pow2(-10)) * pow2(15);
static constexpr double kLargestBF16 = (2.0 - pow2(-7)) * pow2(127);

double mlir::tileir::roundToElement(ElementKind kind, double value) {
  switch (kind) {
  case ElementKind::F16:
    return roundToFormatBits<10, -14>(value, kLargestF16);
  case ElementKind::BF16:
    return roundToFormatBits<7, -126>(value, kLargestBF16);
  case ElementKind::F32:
    return static_cast<double>(static_cast<float>(value));
  case ElementKind::F64:
    return value;
  case ElementKind::I1:
    return value != 0.0 ? 1.0 : 0.0;
  }
  return value;
}

void mlir::tileir::roundInPlace(ElementKind kind, double *data, int64_t n) {
  switch (kind) {
  case ElementKind::F16:
    for (int64_t i = 0; i < n; ++i)
      data[i] = roundToFormatBits<10, -14>(data[i], kLargestF16);
    return;
  case ElementKind::BF16:
    for (int64_t i = 0; i < n; ++i)
      data[i] = roundToFormatBits<7, -126>(data[i], kLargestBF16);
    return;
  case ElementKind::F32:
    for (int64_t i = 0; i < n; ++i)
      data[i] = static_cast<double>(static_cast<float>(data[i]));
    return;
  case ElementKind::F64:
    return;
  case ElementKind::I1:
    for (int64_t i = 0; i < n; ++i)
      data[i] = data[i] != 0.0 ? 1.0 : 0.0;
    return;
  }
}
