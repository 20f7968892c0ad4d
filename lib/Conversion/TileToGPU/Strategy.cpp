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

/// Whether `matmul` multiplies f16 operands (or bf16 ones) into an f32
/// result. (Of the matrix-unit paths, bf16 takes only block matmuls; the
/// others check for f16 themselves.)
static bool isHalfMatmul(MatmulOp matmul) {
  auto elementType = [](Value v) {
    return cast<TileType>(v.getType()).getElementType();
  };
  Type lhs = elementType(matmul.getLhs());
  return (lhs.isF16() || lhs.isBF16()) &&
         elementType(matmul.getRhs()) == lhs &&
         elementType(matmul.getResult()).isF32();
}

/// Whether `store` accumulates an f16 (or bf16) matmul into a matrix of
/// prefill size (`ProgramShape::prefillGemms`).
static bool isPrefillGemm(StoreOp store) {
  auto add = store.getValue().getDefiningOp<AddOp>();
  if (!add || !llvm::any_of(add->getOperands(), [](Value operand) {
        auto matmul = operand.getDefiningOp<MatmulOp>();
        return matmul && isHalfMatmul(matmul);
      }))
    return false;
  auto type = cast<TensorRefType>(store.getTensor().getType());
  ArrayRef<int64_t> shape = type.getShape();
  return type.getElementType().isF32() && shape.size() >= 2 &&
         llvm::all_of(shape.drop_back(2), [](int64_t d) { return d == 1; }) &&
         shape.end()[-2] >= kPrefillGemmExtent &&
         shape.back() >= kPrefillGemmExtent;
}

/// Counts what `op` adds to `shape`'s matmuls and reductions.
static void countOp(Operation *op, ProgramShape &shape) {
  if (auto matmul = dyn_cast<MatmulOp>(op)) {
    ++shape.matmuls;
    if (isHalfMatmul(matmul))
      ++shape.halfMatmuls;
  } else if (auto store = dyn_cast<StoreOp>(op)) {
    if (isPrefillGemm(store))
      ++shape.prefillGemms;
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

/// GEMMs of prefill size (128 rows or more): block matmuls of 128 x 128
/// tiles, split only below one block per SM (the tiles would otherwise
/// shrink below what a block matmul takes, and splits add their sums
/// atomically). On the H200 Llama-3-8B's MLP at 256 rows went from 1057 to
/// 330 us, RMSNorm and a 4096 x 4096 projection at 512 rows from 217 to 70
/// (bench/results/h200-2026-11-28-default-path-2.md).
static GPUConfigAttr withPrefillGemmSettings(GPUConfigAttr config,
                                             const GPUTarget &target) {
  return config.with("max_tile_size", 128)
      .with("min_blocks", target.getComputeUnits())
      .with("block_matmul", true);
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
  } else if (shape.reductions > 0) {
    // Norms: a row's statistic is an element loop over 256-wide tiles of
    // the row, split across up to 4 blocks (their sums added atomically) and
    // cut among adjacent threads (`reduce_lanes`), until about 8 blocks per
    // SM. On the H200, over ten RMSNorm and LayerNorm sizes (M = 16 to
    // 2048, D = 2048 to 8192), 1.0-2.5x faster than the whole block reducing
    // 1024-wide tiles, never slower (LayerNorm at M=512, D=4096: 15.6 ->
    // 9.5 us; bench/results/h200-2026-11-28-norms.md).
    config = config.with("max_tile_size", 256)
                 .with("min_blocks", nearestPowerOf2(8 * units))
                 .with("split_k", 4);
  } else {
    // Elementwise chains: tiles up to 1024 wide, two blocks per SM at
    // least.
    config = withRowReductionSettings(config, target);
  }
  // f16 matmuls accumulating in f32 on the matrix units, FlashAttention-
  // style loops of them one warp per iteration, a statement whose tiles
  // hold its matmuls' batch whole as a loop over it (the optimizer's
  // attention candidates then run as online warp loops: an 8-head causal
  // prefill at 1024, 196 -> 68 us on the H200; the 38 converted programs of
  // the suite lower unchanged), and matmul tiles of 64 x 64 or more staged
  // through shared memory (block matmuls).
  config = config.with("mma", shape.halfMatmuls > 0 && target.hasMatrixUnits())
               .with("warp_loops", true)
               .with("batch_loops", true)
               .with("block_matmul", true);
  // A program that is one GEMM of prefill size takes its settings
  // (`withPrefillGemmSettings`); in a program of several statements the
  // GEMM's statements take them apart (`chooseStatementConfig`).
  if (shape.prefillGemms > 0 && getTopLevelStatements(program).size() == 1)
    config = withPrefillGemmSettings(config, target);
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
  ProgramShape shape = analyzeStatementShape(statement);
  // A GEMM of prefill size beside other statements (a norm, an
  // elementwise epilogue) is lowered apart: 128-wide tiles made the M=512
  // RMSNorm's kernels 37-65% slower.
  if (shape.prefillGemms > 0) {
    if (!programConfig.getMma())
      return {};
    GPUConfigAttr own =
        withPrefillGemmSettings(programConfig.without("tile_sizes"), target);
    return own == programConfig ? GPUConfigAttr() : target.restrict(own);
  }
  // Only softmax-style programs of GEMMs (a max reduction; element loops,
  // 64-wide tiles) have their statements that reduce rows without a matmul
  // lowered apart. Measured on the H200 (bench/results/
  // h200-2026-11-28-statements.md): every such program ran 1.8-32x faster
  // (a max and a sum over 1K-32K keys); norms beside GEMMs (LayerNorm @ W,
  // 18.7 -> 24.9 us) and the Trinity programs' sums over 1024 keys without
  // a max (up to 13% slower) did not, and keep the program's settings.
  if (program.extremumReductions == 0)
    return {};
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
