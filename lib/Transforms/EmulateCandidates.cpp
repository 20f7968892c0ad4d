//===- EmulateCandidates.cpp - The check of what ships --------------------===//

#include "EmulateCandidates.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tileir;

StringRef EmulationResult::name() const {
  switch (status) {
  case Status::Passed:
    return "passed";
  case Status::Failed:
    return "failed";
  case Status::Skipped:
    return "skipped";
  }
  llvm_unreachable("unknown status");
}

std::string EmulationResult::text() const {
  return detail.empty() ? name().str() : name().str() + ": " + detail;
}

void EmulationResult::addTo(llvm::json::Object &entry) const {
  entry["emulation"] = name().str();
  if (!detail.empty())
    entry["emulation_detail"] = detail;
}

CandidateEmulator::CandidateEmulator(
    const CandidateChecker &checker, uint64_t seed, double tolerance,
    std::chrono::steady_clock::time_point deadline)
    : deadline(deadline) {
  options.seed = seed;
  options.tolerance = tolerance;
  for (const CandidateChecker::DrawnInput &input : checker.getInputs()) {
    if (inits.size() <= input.tensor)
      inits.resize(input.tensor + 1);
    inits[input.tensor] =
        runtime::TensorInit::random(input.stream, input.spec);
  }
  for (auto [tensor, values] :
       llvm::zip_equal(checker.getOutputTensors(), checker.getKernelExpected()))
    expected.push_back({tensor, values});
  initializeLoweredChecks();
}

EmulationResult CandidateEmulator::check(ProgramOp candidate,
                                         double interpreterSeconds,
                                         double budget) const {
  EmulationResult result;
  constexpr double kEmulationPerInterpreterSecond = 8;
  double estimate = kEmulationPerInterpreterSecond * interpreterSeconds;
  if (budget > 0 && estimate > budget) {
    result.detail = llvm::formatv("expected to take {0:f0} s (8 times the "
                                  "interpreter's {1:f1} s), more than "
                                  "emulate-budget={2:f0} s",
                                  estimate, interpreterSeconds, budget)
                        .str();
    return result;
  }
  if (std::chrono::steady_clock::now() > deadline) {
    result.detail = "the check's time budget ran out before the emulation";
    return result;
  }
  // The GPU lowering takes no f64 tensors: nothing to emulate (the CPU
  // check stands), not a failure.
  for (Type type : candidate.getBodyBlock().getArgumentTypes())
    if (auto ref = dyn_cast<TensorRefType>(type);
        ref && ref.getElementType().isF64()) {
      result.detail = "f64 tensors are not lowered to GPU kernels";
      return result;
    }
  // Tensors past the last input start as zeros.
  std::vector<runtime::TensorInit> all = inits;
  all.resize(candidate.getBodyBlock().getNumArguments());
  DeviceCompileOptions scaled = options;
  scaled.tolerance *= kernelToleranceFactor(candidate);
  LoweredCheck lowered = checkLoweredKernels(candidate, scaled, all, expected);
  result.status = lowered.status == LoweredCheck::Status::Passed
                      ? EmulationResult::Status::Passed
                      : EmulationResult::Status::Failed;
  result.detail = std::move(lowered.detail);
  return result;
}
