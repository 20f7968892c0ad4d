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
  /// maxAbsError relative to maxReference (absolute when the reference is
  /// all zero); infinity when a non-finite value mismatched.
  double relativeError() const;
  /// finite() and relativeError() <= tolerance.
  bool passes(double tolerance) const {
    return finite() && relativeError() <= tolerance;
  }
};

} // namespace mlir::tileir

#endif // TILEDIALECT_SUPPORT_COMPARE_H
