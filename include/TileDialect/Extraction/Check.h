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
#include "TileDialect/Support/RandomInit.h"

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace mlir::tileir {

struct CheckResult {
  bool passed = false;
  /// max |candidate - reference| / max |reference| of one output, the
  /// largest over the outputs.
  double maxRelError = 0;
  /// max |candidate - reference| / (|reference| + 1e-3 max |reference|) of
  /// one element, over all outputs: it too must be within the tolerance.
  double maxElementError = 0;
  /// The first element out of tolerance, when that failed the check.
  std::string mismatch;
  /// Why the check could not run, if it could not.
  std::string error;
  /// The check's deadline passed before the candidate's run completed.
  bool timedOut = false;
};

/// Runs `reference` once on inputs drawn with `seed`, then compares each
/// candidate (same tensors) with it; a candidate passes when each output's
/// normalized error and each element's error (CheckResult) are at most
/// `tolerance`.
class CandidateChecker {
public:
  /// With `linalg` (the function `reference` was converted from), the
  /// expected outputs are the linalg reference evaluator's instead: the
  /// converted program is first checked against it (its input and inout
  /// tensors are the function's arguments in order, its `tile.results` the
  /// function's results), then every candidate.
  /// With a `deadline`, no run goes past it: one that would is stopped and
  /// its candidate (or, for the reference, every candidate) not checked.
  CandidateChecker(
      ProgramOp reference, uint64_t seed, double tolerance,
      func::FuncOp linalg = nullptr,
      std::optional<std::chrono::steady_clock::time_point> deadline = {});
  CheckResult check(ProgramOp candidate) const;

  /// An input or inout tensor as the check drew it: program tensor
  /// `tensor` from random stream `stream` (docs/RandomInputs.md) with
  /// `spec`, under the checker's seed.
  struct DrawnInput {
    unsigned tensor;
    unsigned stream;
    InitSpec spec;
  };
  ArrayRef<DrawnInput> getInputs() const { return drawn; }
  /// The program tensors holding the outputs, and their expected values.
  ArrayRef<unsigned> getOutputTensors() const { return outputTensors; }
  const std::vector<std::vector<double>> &getExpected() const {
    return outputs;
  }
  /// The expected outputs of the compiled kernels: the same reference with
  /// its explicit conversions rounded (Precision::F64Casts), which the
  /// real-number reference of getExpected() does not (`x - f32(f16(x))` is
  /// 0 there). The same values when the reference converts nothing.
  const std::vector<std::vector<double>> &getKernelExpected() const {
    return kernelOutputs.empty() ? outputs : kernelOutputs;
  }

  /// Why the reference could not be established (empty when it was): then
  /// every candidate fails with it.
  const std::string &getError() const { return error; }

  /// Elements of the expected outputs that are not finite, of how many: a
  /// check whose outputs are mostly NaN checks little (the inputs' tile.init
  /// should keep the arithmetic in range).
  size_t numNonFiniteExpected() const;
  size_t numExpected() const;

private:
  double tolerance;
  std::optional<std::chrono::steady_clock::time_point> deadline;
  /// The tensors before the run (inputs drawn once, copied per run).
  std::vector<HostTensor> initial;
  std::vector<std::vector<double>> outputs, kernelOutputs;
  std::vector<unsigned> outputTensors;
  std::vector<DrawnInput> drawn;
  std::string error;
};

} // namespace mlir::tileir

#endif // TILEDIALECT_EXTRACTION_CHECK_H
