//===- CheckLowered.h - What ships, checked on the host --------*- C++ -*-===//
//
// The optimizer never returns a program whose kernels it has not run: a
// candidate that passed the interpreter's check is lowered with the default
// GPU lowering (as `tile-run --device cuda` or `--tile-lower-to-nvvm` would
// lower it, less what the host cannot emulate: inline-PTX vector
// reductions and register-level matrix ops), its kernels run in the host
// emulation (HostEmulation.h) on the same seeded inputs, and their outputs
// are compared with the expected ones. The work happens in a private
// MLIRContext, so that candidates can be checked on several threads.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_DEVICE_CHECKLOWERED_H
#define TILEDIALECT_DEVICE_CHECKLOWERED_H

#include "TileDialect/Device/Compile.h"
#include "TileDialect/IR/TileOps.h"

#include <string>

namespace mlir::tileir {

struct LoweredCheck {
  enum class Status {
    /// The emulated kernels' outputs match.
    Passed,
    /// The lowering failed or the outputs differ: the kernels are wrong.
    Failed,
  } status = Status::Failed;
  /// Why it failed: the lowering's diagnostics, or the outputs that differ.
  std::string detail;
};

/// Lowers `program` with `options` (emulate is forced on) and runs its
/// kernels in the host emulation: tensor i starts as `inits[i]` says, and
/// the outputs must match `expected` within `options.tolerance`.
LoweredCheck checkLoweredKernels(ProgramOp program,
                                 const DeviceCompileOptions &options,
                                 ArrayRef<runtime::TensorInit> inits,
                                 ArrayRef<ExpectedOutput> expected);

/// Call once before checking on several threads (target initialization).
void initializeLoweredChecks();

} // namespace mlir::tileir

#endif // TILEDIALECT_DEVICE_CHECKLOWERED_H
