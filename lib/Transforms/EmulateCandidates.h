//===- EmulateCandidates.h - The check of what ships ------------*- C++ -*-===//
//
// --tile-extract's second check: each candidate that passed the
// interpreter's check is lowered with the default GPU lowering and its
// kernels run in the host emulation on the inputs the first check drew,
// against the same expected outputs (lib/Device/CheckLowered.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_LIB_TRANSFORMS_EMULATECANDIDATES_H
#define TILEDIALECT_LIB_TRANSFORMS_EMULATECANDIDATES_H

#include "TileDialect/Device/CheckLowered.h"
#include "TileDialect/Extraction/Check.h"

#include "llvm/Support/JSON.h"

#include <chrono>
#include <string>

namespace mlir::tileir {

struct EmulationResult {
  enum class Status { Passed, Failed, Skipped } status = Status::Skipped;
  /// Why it failed or was skipped.
  std::string detail;

  bool failed() const { return status == Status::Failed; }
  /// "passed", "failed" or "skipped".
  llvm::StringRef name() const;
  /// `name()`, then `: detail` when there is one (the `tile.emulation`
  /// attribute).
  std::string text() const;
  /// Records the result in a candidate's report entry (`emulation`,
  /// `emulation_detail`).
  void addTo(llvm::json::Object &entry) const;
};

class CandidateEmulator {
public:
  /// Candidates are run on the inputs `checker` drew with `seed` and
  /// compared with its expected outputs within `tolerance`; none is
  /// started after `deadline`.
  CandidateEmulator(const CandidateChecker &checker, uint64_t seed,
                    double tolerance,
                    std::chrono::steady_clock::time_point deadline);

  /// Thread-safe (each check works in a context of its own). Skipped when
  /// the emulation is expected to take more than `budget` seconds, 8 times
  /// `interpreterSeconds` (the candidate's check by the interpreter; 6.4
  /// times on the full-size llama ffn).
  EmulationResult check(ProgramOp candidate, double interpreterSeconds = 0,
                        double budget = 0) const;

private:
  DeviceCompileOptions options;
  std::vector<runtime::TensorInit> inits;
  std::vector<ExpectedOutput> expected;
  std::chrono::steady_clock::time_point deadline;
};

} // namespace mlir::tileir

#endif // TILEDIALECT_LIB_TRANSFORMS_EMULATECANDIDATES_H
