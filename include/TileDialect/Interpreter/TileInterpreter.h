//===- TileInterpreter.h - Run tile programs on the CPU -------*- C++ -*-===//

#ifndef TILEDIALECT_INTERPRETER_TILEINTERPRETER_H
#define TILEDIALECT_INTERPRETER_TILEINTERPRETER_H

#include "TileDialect/IR/TileOps.h"
#include "TileDialect/Support/HostTensor.h"

#include "llvm/ADT/StringMap.h"

#include <chrono>
#include <optional>

namespace mlir::tileir {

struct TileInterpreterOptions {
  Precision precision = Precision::F64;
  /// The value of every symbolic tile size of the program, by name.
  llvm::StringMap<int64_t> tileSizes;
  /// When set, the run stops once this time has passed (checked every few
  /// thousand stores): interpretTileProgram then fails without a
  /// diagnostic and sets `*timedOut` (which must then be given).
  std::optional<std::chrono::steady_clock::time_point> deadline;
  bool *timedOut = nullptr;
  /// Whether a plan allocates every value's result buffer, which a run
  /// needs. Off, the plan only describes the program (the GPU lowering's):
  /// splat constants hold one value and nothing else has a buffer (a
  /// prefill's [32 x 2048 x 2048] scores tile would take 1 GiB of doubles).
  bool allocateBuffers = true;
};

/// Runs `program` with `tensors[i]` bound to its i-th tensor argument (same
/// shape; the caller fills inputs and inout tensors and zeroes outputs and
/// intermediates). Outputs, inout and intermediate tensors are updated in
/// place. Emits a diagnostic on the offending op and fails when a symbolic
/// tile size is unbound, a bound size does not divide a loop range, or an
/// access falls outside its tensor.
LogicalResult interpretTileProgram(ProgramOp program,
                                   MutableArrayRef<HostTensor> tensors,
                                   const TileInterpreterOptions &options);

/// Bytes of one host copy of every tensor of `program` (HostMemory.h).
uint64_t programHostBytes(ProgramOp program);

/// Parses the tile-size assignments `NAME=N` (N > 0) of a command-line list
/// into `sizes`; on a malformed entry, returns it and leaves `sizes` partly
/// filled.
std::optional<std::string>
parseTileSizeAssignments(llvm::ArrayRef<std::string> entries,
                         llvm::StringMap<int64_t> &sizes);

/// Default values of `program`'s symbolic tile sizes: for each, the largest
/// power of two not above its cap (`caps`, by name, else `cap`) that divides
/// the range of every loop stepping by it.
llvm::StringMap<int64_t>
chooseDefaultTileSizes(ProgramOp program, int64_t cap = 32,
                       const llvm::StringMap<int64_t> &caps = {});

} // namespace mlir::tileir

#endif // TILEDIALECT_INTERPRETER_TILEINTERPRETER_H
