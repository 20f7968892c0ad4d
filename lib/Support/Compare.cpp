//===- Compare.cpp - Outputs against expected values ----------------------===//

#include "TileDialect/Support/Compare.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace mlir::tileir;

void Comparison::add(double got, double want) {
  bool gotFinite = std::isfinite(got), wantFinite = std::isfinite(want);
  if (gotFinite && wantFinite) {
    maxAbsError = std::max(maxAbsError, std::fabs(got - want));
    maxReference = std::max(maxReference, std::fabs(want));
    return;
  }
  bool same = (std::isnan(got) && std::isnan(want)) || got == want;
  if (!same)
    ++nonFiniteMismatches;
}

double Comparison::relativeError(double floor) const {
  if (!finite())
    return std::numeric_limits<double>::infinity();
  double scale = std::max(maxReference, floor);
  return scale > 0 ? maxAbsError / scale : maxAbsError;
}

ElementError mlir::tileir::maxElementError(const double *got,
                                           const double *want, size_t n,
                                           double floorFraction) {
  double scale = 0;
  for (size_t i = 0; i < n; ++i)
    if (std::isfinite(want[i]))
      scale = std::max(scale, std::fabs(want[i]));
  double floor = floorFraction * scale;
  ElementError worst;
  for (size_t i = 0; i < n; ++i) {
    if (!std::isfinite(got[i]) || !std::isfinite(want[i]))
      continue;
    double diff = std::fabs(got[i] - want[i]);
    if (diff == 0)
      continue;
    double denom = std::fabs(want[i]) + floor;
    double error = denom > 0 ? diff / denom
                             : std::numeric_limits<double>::infinity();
    if (error > worst.error)
      worst = {error, i};
  }
  return worst;
}

double mlir::tileir::comparisonFloor(ElementKind kind) {
  return kind == ElementKind::F16 ? std::ldexp(1.0, -14) : 0.0;
}
