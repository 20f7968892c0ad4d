//===- Compare.h - Outputs against expected values -------------*- C++ -*-===//
//
// The one comparison every check uses (tile-run, the GPU runtime, the
// optimizer's candidate check): the largest absolute error over the largest
// magnitude of the expected values. Non-finite values match only the same
// value: NaN where the reference has NaN, an infinity of the same sign;
// any other non-finite value on either side is a mismatch. No MLIR
// dependency (the GPU runtime compiles it).
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_SUPPORT_COMPARE_H
#define TILEDIALECT_SUPPORT_COMPARE_H

#include "TileDialect/Support/HostTensor.h"

#include <cstddef>

namespace mlir::tileir {

struct Comparison {
  /// Largest |got - want| over the pairs that are both finite.
  double maxAbsError = 0;
  /// Largest |want| over the finite expected values.
  double maxReference = 0;
  /// Pairs where one side is not finite and the other is not the same
  /// value.
  size_t nonFiniteMismatches = 0;

  /// Compares one value with its expected value.
  void add(double got, double want);
  /// Compares `n` values.
  void add(const double *got, const double *want, size_t n) {
    for (size_t i = 0; i < n; ++i)
      add(got[i], want[i]);
  }
  /// Whether every non-finite value matched.
  bool finite() const { return nonFiniteMismatches == 0; }
  /// maxAbsError relative to maxReference, or to `floor` when that is
  /// larger (absolute when both are zero); infinity when a non-finite value
  /// mismatched.
  double relativeError(double floor = 0) const;
  /// finite() and relativeError(floor) <= tolerance.
  bool passes(double tolerance, double floor = 0) const {
    return finite() && relativeError(floor) <= tolerance;
  }
};

/// The element of `got` farthest from `want`, relative to its own magnitude
/// plus `floorFraction` of the largest finite |want| (so elements near zero
/// are compared against a small fraction of the output's scale rather than
/// all of it). Pairs that are not both finite are left to Comparison.
struct ElementError {
  double error = 0; ///< |got - want| / (|want| + floor)
  size_t index = 0; ///< where (meaningful when error > 0)
};
ElementError maxElementError(const double *got, const double *want, size_t n,
                             double floorFraction);

/// The magnitude below which values of `kind` lose relative precision (the
/// smallest normal number): outputs of that type are compared relative to
/// at least this, since rounding to a subnormal costs up to half its
/// spacing whatever the value (f16: 2^-14; 0 for the others, whose
/// subnormals are far below any output's scale).
double comparisonFloor(ElementKind kind);

} // namespace mlir::tileir

#endif // TILEDIALECT_SUPPORT_COMPARE_H
