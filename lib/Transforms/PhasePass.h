//===- PhasePass.h - A phase of a pass, timed under it ---------*- C++ -*-===//
//
// --tile-extract and --tile-optimize run for minutes on a full-size program.
// Each of their phases (saturate, extract, check) runs as a one-pass dynamic
// pipeline, so that --mlir-timing and the pass instrumentation show it nested
// under the pass instead of one opaque line.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_LIB_TRANSFORMS_PHASEPASS_H
#define TILEDIALECT_LIB_TRANSFORMS_PHASEPASS_H

#include "ExtractProgram.h"

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

namespace mlir::tileir {

/// A PhaseRunner that runs each phase as a one-pass pipeline through
/// `runPipeline` (the running pass's own, which only the pass can call),
/// named "<pass>: <phase>". The phase's pass is scheduled on the program whose
/// phase it runs, so the verifier after it checks that program only (the
/// phases add candidates beside it). Upstream MLIR times a dynamic pipeline
/// at the top level of --mlir-timing's tree, under "'tile.program' Pipeline",
/// not under the pass that ran it.
PhaseRunner makePhaseRunner(
    StringRef pass,
    std::function<LogicalResult(OpPassManager &, Operation *)> runPipeline);

} // namespace mlir::tileir

#endif // TILEDIALECT_LIB_TRANSFORMS_PHASEPASS_H
