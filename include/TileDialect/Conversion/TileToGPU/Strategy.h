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
  /// Matmuls, and those with f16 (or bf16) operands and an f32 result.
  unsigned matmuls = 0, halfMatmuls = 0;
  /// Reductions (rsum, rmax, rmin), and those of them that are rmax or
  /// rmin (a softmax's statistic).
  unsigned reductions = 0, extremumReductions = 0;
  /// Accumulations `S = S + A B` of such f16 (or bf16) matmuls into f32
  /// tensors of one matrix (leading dimensions of 1) with at least
  /// `kPrefillGemmExtent` rows and columns: GEMMs of prefill size, which
  /// run as block matmuls (`block_matmul`) in 128-wide tiles.
  unsigned prefillGemms = 0;
  /// Elements of the largest tensor.
  int64_t largestTensor = 0;
};

/// Rows and columns from which a GEMM's output is of prefill size.
constexpr int64_t kPrefillGemmExtent = 128;

/// The facts of `program` the strategy uses.
ProgramShape analyzeProgramShape(ProgramOp program);

/// The configuration the strategy chooses for `program` on `target`: every
/// field it decides is set (the others keep their defaults), and every
/// feature the target lacks is off.
GPUConfigAttr chooseGPUConfig(ProgramOp program, const GPUTarget &target);

/// The top-level statements of `program`: the leaves of the `tile.seq` tree
/// its `tile.yield` returns, in order, each as the operand that holds it.
/// Each becomes one kernel or more (docs/GPULowering.md).
SmallVector<OpOperand *> getTopLevelStatements(ProgramOp program);

/// The ops `statement` is computed from (its backward slice in the
/// program's body, itself included), in block order.
SmallVector<Operation *> getStatementOps(Value statement);

/// The matmuls and reductions of one top-level statement (`largestTensor`
/// is left 0: the strategy does not use it per statement).
ProgramShape analyzeStatementShape(Value statement);

/// The fields of one top-level statement's configuration that differ from
/// its program's (`programConfig`, chosen by `chooseGPUConfig` for a
/// program of shape `program`), or null when the program's suit it. A
/// statement with a GEMM of prefill size (`ProgramShape::prefillGemms`)
/// in a program of other statements takes tiles up to 128 wide, as few as
/// two blocks per SM and block matmuls. A statement that reduces rows
/// without a matmul (a softmax's max and sum) in a softmax-style program of GEMMs
/// takes the norm programs' settings (tiles up to 1024 wide reduced by the
/// whole block, two blocks per SM), its sums split up to 16 ways.
GPUConfigAttr chooseStatementConfig(Value statement,
                                    const ProgramShape &program,
                                    GPUConfigAttr programConfig,
                                    const GPUTarget &target);

/// Gives the statement `use` holds loop variables and tile sizes of its own:
/// its ops are cloned with every variable and symbolic size renamed
/// `<name><suffix>` (tile types included) and `use` set to the clone, so
/// that its tiles may be sized apart from the other statements'. The ops
/// nothing else uses are erased. Returns the renamed sizes, old name to
/// new.
llvm::StringMap<std::string> untieStatement(OpOperand &use, StringRef suffix);

} // namespace mlir::tileir

#endif // TILEDIALECT_CONVERSION_TILETOGPU_STRATEGY_H
