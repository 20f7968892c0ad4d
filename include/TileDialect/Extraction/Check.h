//===- Check.h - Numerical check of a candidate against its input -*- C++ -*-===//
//
// Runs a candidate program and the program it was derived from with the CPU
// interpreter (fp64) on the same seeded random inputs and compares their
// outputs. Every extracted candidate goes through this before it is emitted.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_EXTRACTION_CHECK_H
#define TILEDIALECT_EXTRACTION_CHECK_H

#include "TileDialect/IR/TileOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "TileDialect/Support/HostTensor.h"

#include <string>
#include <vector>

namespace mlir::tileir {

struct CheckResult {
  bool passed = false;
  /// max |candidate - reference| / max |reference| over all outputs.
  double maxRelError = 0;
  /// Why the check could not run, if it could not.
  std::string error;
};

/// Runs `reference` once on inputs drawn with `seed`, then compares each
/// candidate (same tensors) with it; a candidate passes when the normalized
/// error is at most `tolerance`.
class CandidateChecker {
public:
  /// With `linalg` (the function `reference` was converted from), the
  /// expected outputs are the linalg reference evaluator's instead: the
  /// converted program is first checked against it (its input and inout
  /// tensors are the function's arguments in order, its `tile.results` the
  /// function's results), then every candidate.
  CandidateChecker(ProgramOp reference, uint64_t seed, double tolerance,
                   func::FuncOp linalg = nullptr);
  CheckResult check(ProgramOp candidate) const;

  /// Elements of the expected outputs that are not finite, of how many: a
  /// check whose outputs are mostly NaN checks little (the inputs' tile.init
  /// should keep the arithmetic in range).
  size_t numNonFiniteExpected() const;
  size_t numExpected() const;

private:
  double tolerance;
  /// The tensors before the run (inputs drawn once, copied per run).
  std::vector<HostTensor> initial;
  std::vector<std::vector<double>> outputs;
  std::string error;
};

} // namespace mlir::tileir

#endif // TILEDIALECT_EXTRACTION_CHECK_H
