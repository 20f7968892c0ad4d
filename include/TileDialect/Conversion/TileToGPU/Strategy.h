//===- Strategy.h - Choosing a program's GPU configuration ------*- C++ -*-===//
//
// The lowering strategy: from a tile program's shapes and a target, the
// `#tile.gpu_config` its kernels are lowered with. `--tile-select-gpu-config`
// records the choice as the program's `tile.gpu_config` attribute, where
// tests, the tuner and `--tile-lower-to-gpu` read it (docs/GPULowering.md,
// "Choosing a configuration").
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_CONVERSION_TILETOGPU_STRATEGY_H
#define TILEDIALECT_CONVERSION_TILETOGPU_STRATEGY_H

#include "TileDialect/Conversion/TileToGPU/GPUTarget.h"
#include "TileDialect/IR/TileAttrs.h"
#include "TileDialect/IR/TileOps.h"

namespace mlir::tileir {

/// What the strategy reads off a program.
struct ProgramShape {
  /// Matmuls, and those with f16 (or bf16) operands and an f32 result whose
  /// tensor extents the matrix units' 16x16 fragments fit.
  unsigned matmuls = 0, halfMatmuls = 0;
  /// Reductions (rsum, rmax, rmin), and those of them that are rmax or
  /// rmin (a softmax's statistic).
  unsigned reductions = 0, extremumReductions = 0;
  /// Elements of the largest tensor.
  int64_t largestTensor = 0;
};

/// The facts of `program` the strategy uses.
ProgramShape analyzeProgramShape(ProgramOp program);

/// The configuration the strategy chooses for `program` on `target`: every
/// field it decides is set (the others keep their defaults), and every
/// feature the target lacks is off.
GPUConfigAttr chooseGPUConfig(ProgramOp program, const GPUTarget &target);

} // namespace mlir::tileir

#endif // TILEDIALECT_CONVERSION_TILETOGPU_STRATEGY_H
