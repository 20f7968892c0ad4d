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

double Comparison::relativeError() const {
  if (!finite())
    return std::numeric_limits<double>::infinity();
  return maxReference > 0 ? maxAbsError / maxReference : maxAbsError;
}
