//===- HostTensor.cpp - Dense tensors on the host -------------------------===//

#include "TileDialect/Support/HostTensor.h"

#include <cmath>
#include <cstring>

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

/// Rounds a double to a binary float with `mantissa` explicit bits and
/// exponent range [minExp, maxExp] (of the normalized value), to nearest even,
/// with gradual underflow.
static double roundToFormat(double value, int mantissa, int minExp,
                            int maxExp) {
  if (!std::isfinite(value) || value == 0.0)
    return value;
  int exp;
  std::frexp(value, &exp); // value = f * 2^exp, 0.5 <= |f| < 1
  // The unit in the last place at this magnitude (subnormals keep minExp).
  int e = std::max(exp - 1, minExp);
  double ulp = std::ldexp(1.0, e - mantissa);
  double rounded = std::nearbyint(value / ulp) * ulp;
  // Largest finite value: (2 - 2^-mantissa) * 2^maxExp.
  double largest = std::ldexp(2.0 - std::ldexp(1.0, -mantissa), maxExp);
  if (std::fabs(rounded) > largest)
    return std::copysign(INFINITY, value);
  return rounded;
}

double mlir::tileir::roundToElement(ElementKind kind, double value) {
  switch (kind) {
  case ElementKind::F16:
    return roundToFormat(value, 10, -14, 15);
  case ElementKind::BF16:
    return roundToFormat(value, 7, -126, 127);
  case ElementKind::F32:
    return static_cast<double>(static_cast<float>(value));
  case ElementKind::F64:
    return value;
  case ElementKind::I1:
    return value != 0.0 ? 1.0 : 0.0;
  }
  return value;
}
