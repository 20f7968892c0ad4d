//===- Strategy.cpp - Choosing a program's GPU configuration --------------===//
//
// The choices, per program (docs/GPULowering.md, "Choosing a
// configuration"): the numbers come from the target (SM count, features),
// the switches from what the program computes. They are the settings that
// measured fastest for decode-sized GEMM chains on the H100 (the tuning
// sweeps of bench/results, 2026-11-22..27), written as rules of the target
// and the program instead of as entries for 12 program hashes.
//
//===----------------------------------------------------------------------===//

#include "TileDialect/Conversion/TileToGPU/Strategy.h"

#include "TileDialect/IR/TileTypes.h"

#include "llvm/ADT/bit.h"

using namespace mlir;
using namespace mlir::tileir;

/// Counts what `op` adds to `shape`'s matmuls and reductions.
static void countOp(Operation *op, ProgramShape &shape) {
  if (auto matmul = dyn_cast<MatmulOp>(op)) {
    ++shape.matmuls;
    auto elementType = [](Value v) {
      return cast<TileType>(v.getType()).getElementType();
    };
    if (elementType(matmul.getLhs()).isF16() &&
        elementType(matmul.getRhs()).isF16() &&
        elementType(matmul.getResult()).isF32())
      ++shape.halfMatmuls;
  } else if (isa<RSumOp>(op)) {
    ++shape.reductions;
  } else if (isa<RMaxOp, RMinOp>(op)) {
    ++shape.reductions;
    ++shape.extremumReductions;
  }
}

ProgramShape tileir::analyzeProgramShape(ProgramOp program) {
  ProgramShape shape;
  for (BlockArgument arg : program.getBodyBlock().getArguments()) {
    auto type = cast<TensorRefType>(arg.getType());
    int64_t elements = 1;
    for (int64_t dim : type.getShape())
      elements *= dim;
    shape.largestTensor = std::max(shape.largestTensor, elements);
  }
  program.walk([&](Operation *op) { countOp(op, shape); });
  return shape;
}

ProgramShape tileir::analyzeStatementShape(Value statement) {
  ProgramShape shape;
  for (Operation *op : getStatementOps(statement))
    countOp(op, shape);
  return shape;
}

/// Norms' settings: a row's statistic is reduced by the whole block
/// (buffered, group reductions) in tiles up to 1024 wide, not by one thread
/// per row (element loops); two blocks per SM at least.
static GPUConfigAttr withRowReductionSettings(GPUConfigAttr config,
                                              const GPUTarget &target) {
  return config.with("max_tile_size", 1024)
      .with("min_blocks", 2 * target.getComputeUnits())
      .with("element_loops", false);
}

/// The power of two nearest `n` (ties up).
static int64_t nearestPowerOf2(int64_t n) {
  int64_t below = int64_t(llvm::bit_floor(uint64_t(std::max<int64_t>(n, 1))));
  return n - below < 2 * below - n ? below : 2 * below;
}

GPUConfigAttr tileir::chooseGPUConfig(ProgramOp program,
                                      const GPUTarget &target) {
  ProgramShape shape = analyzeProgramShape(program);
  int64_t units = target.getComputeUnits();
  GPUConfigAttr config = GPUConfigAttr::get(program.getContext());

  // Launch shape: full warps of the target, its static shared memory.
  config = config.with("block_size", 256)
               .with("shared_memory", target.getStaticSharedMemory());

  if (shape.matmuls > 0) {
    // GEMM chains at decode sizes are bound by reading the weights once:
    // they need every SM reading, i.e. many blocks. Tiles up to 64 wide,
    // shrunk until there are about 16 blocks per SM; accumulations whose
    // grid stays smaller are split (up to 4 chunks, added atomically) and
    // cut into 4 slices per block; element loops compute 32 elements per
    // thread; loads run 1 iteration ahead. Of four settings measured on
    // the 12 decode programs of bench/results/h200-2026-11-28/exp5-*
    // (threads' elements 16 or 32, slices 2 or 4, split 8 or 4, loads 2 or
    // 1 ahead), this one had the best geomean against torch.compile (0.97)
    // and the smallest worst case (1.38, the MoE experts).
    // Their statements that reduce rows without a matmul (a softmax's max
    // and sum) take settings of their own (`chooseStatementConfig`): with
    // the GEMMs' tile sizes they ran 10x slower. Softmax-style programs (a
    // max reduction: attention, softmax @ V) contract over the KV length
    // into few output tiles: up to 16 chunks (P.V at KV 32K: 175 -> 53 us
    // on the H200; bench/results/h200-2026-11-28-statements.md).
    config = config.with("max_tile_size", 64)
                 .with("min_blocks", nearestPowerOf2(16 * units))
                 .with("split_k", shape.extremumReductions ? 16 : 4)
                 .with("k_slices", 4)
                 .with("thread_elements", 32)
                 .with("pipeline_loads", 1);
  } else {
    // Norms and elementwise chains: a row's statistic is reduced by the
    // whole block (buffered, group reductions) in tiles up to 1024 wide,
    // not by one thread per row (element loops): the M=512 RMSNorm and
    // LayerNorm over 4096 columns ran 8.5x and 7.7x faster (bench/results,
    // 2026-11-28); two blocks per SM at least.
    config = withRowReductionSettings(config, target);
  }
  // f16 matmuls accumulating in f32 on the matrix units, and
  // FlashAttention-style loops of them one warp per iteration.
  config = config.with("mma", shape.halfMatmuls > 0 && target.hasMatrixUnits())
               .with("warp_loops", true);
  config = config.with("vector_atomics", target.hasVectorAtomics());
  // A kernel launching its prefetching successor early: up to 4 blocks
  // per SM, what fits beside it.
  config = config.with("early_launch_blocks",
                       target.hasGridDependencyControl() ? 4 * units : 0);
  return target.restrict(config);
}

GPUConfigAttr tileir::chooseStatementConfig(Value statement,
                                            const ProgramShape &program,
                                            GPUConfigAttr programConfig,
                                            const GPUTarget &target) {
  // Only softmax-style programs of GEMMs (a max reduction; element loops,
  // 64-wide tiles) have their statements that reduce rows without a matmul
  // lowered apart. Measured on the H200 (bench/results/
  // h200-2026-11-28-statements.md): every such program ran 1.8-32x faster
  // (a max and a sum over 1K-32K keys); norms beside GEMMs (LayerNorm @ W,
  // 18.7 -> 24.9 us) and the Trinity programs' sums over 1024 keys without
  // a max (up to 13% slower) did not, and keep the program's settings.
  if (program.extremumReductions == 0)
    return {};
  ProgramShape shape = analyzeStatementShape(statement);
  if (shape.matmuls > 0 || shape.reductions == 0 ||
      !programConfig.getElementLoops())
    return {};
  // Rows too few to fill the SMs are split too, their sums added
  // atomically (a softmax's sum over a 32K KV cache: 26 -> 7 us).
  GPUConfigAttr own =
      withRowReductionSettings(GPUConfigAttr::get(statement.getContext()),
                               target)
          .with("split_k", 16)
          .with("pipeline_loads", 0);
  // Nothing to change: the program's settings already are these.
  bool same = own.getMaxTileSize() == programConfig.getMaxTileSize() &&
              own.getMinBlocks() == programConfig.getMinBlocks() &&
              own.getSplitK() == programConfig.getSplitK() &&
              own.getPipelineLoads() == programConfig.getPipelineLoads();
  return same ? GPUConfigAttr() : own;
}
