//===- LoweredCost.h - The estimate of a program as lowered ---*- C++ -*-===//
//
// The cost model (TileDialect/Cost/CostModel.h) estimates a program for
// tile sizes it is given; the lowering chooses its own (the strategy's
// `#tile.gpu_config`, statements configured apart with sizes of their own,
// tiles halved until the grid fills the device). Estimated at the cost
// model's default sizes, a program can be 20-35x off its measured time and
// rank fused candidates wrongly. This estimates a program at the sizes the
// GPU lowering gives it: `--tile-select-gpu-config` for the target, then the
// tile sizes `--tile-lower-to-gpu` records on its launch function.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_DEVICE_LOWEREDCOST_H
#define TILEDIALECT_DEVICE_LOWEREDCOST_H

#include "TileDialect/Cost/CostModel.h"

namespace mlir::tileir {

/// The lowering's backend and chip for the cost model's target `target`:
/// "rocdl" and the target's name for AMD, else "nvvm" and its `sm_XY`
/// prefix (sm_90_h200 lowers as sm_90).
std::pair<std::string, std::string> loweringChip(const TargetDesc &target);

/// The estimate of `program` on `target` at the tile sizes its GPU lowering
/// uses, the program taken as `--tile-select-gpu-config` leaves it
/// (statements configured apart own their loop variables and sizes). The
/// program is not changed. Fails, emitting nothing, when the program does
/// not lower (callers fall back to the default sizes' estimate); `why`, if
/// given, receives the lowering's first error.
FailureOr<ProgramCost> estimateAsLowered(ProgramOp program,
                                         const TargetDesc &target,
                                         std::string *why = nullptr);

} // namespace mlir::tileir

#endif // TILEDIALECT_DEVICE_LOWEREDCOST_H
