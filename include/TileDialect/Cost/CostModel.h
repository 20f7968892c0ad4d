//===- CostModel.h - Roofline cost model of tile programs -------*- C++ -*-===//
//
// Estimates the run time of a tile program on a target the way the Trinity
// paper (section 5.2) lowers it: each top-level statement of the root
// sequence is a kernel, its outermost parallel loops are the grid, tiles
// stay on chip unless another kernel reads them, and each kernel costs its
// launch plus the larger of its memory time and its compute time, scaled by
// how well its grid fills the device. docs/CostModel.md has the details.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_COST_COSTMODEL_H
#define TILEDIALECT_COST_COSTMODEL_H

#include "TileDialect/Cost/Target.h"
#include "TileDialect/IR/TileOps.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"

#include <vector>

namespace mlir::tileir {

/// Values of symbolic tile sizes, by name (`tile_k` -> 64).
using TileSizeAssignment = llvm::StringMap<int64_t>;

/// What bounds a kernel's estimated time.
enum class Limiter { Launch, Hbm, L2, Matrix, Vector, Occupancy, Latency };

/// "launch", "hbm", "l2", "matrix", "vector", "occupancy" or "latency".
llvm::StringRef stringifyLimiter(Limiter limiter);

/// Weights, in vector FLOPs per element, of the ops on the vector units.
struct VectorWeights {
  unsigned simple = 1; ///< add, sub, mul, max, min, neg, abs, sqr, cmp, select
  unsigned division = 4;       ///< div
  unsigned transcendental = 4; ///< exp, log, sqrt, rsqrt, sigmoid, tanh, erf
  unsigned reduction = 1;      ///< rsum, rmax, rmin: per input element
};

/// The estimate for one kernel (one top-level statement, or a run of
/// straight-line top-level statements).
struct KernelCost {
  Value stmt;        ///< the kernel's (first) top-level statement
  std::string label; ///< "loop h" or "statements"
  /// The variables of the outermost parallel loops, outermost first.
  llvm::SmallVector<std::string, 2> gridLoops;
  uint64_t gridSize = 1;     ///< product of their trip counts (blocks)
  uint64_t waves = 1;        ///< ceil(gridSize / compute units)
  double gridEfficiency = 1; ///< gridSize / (waves * compute units)
  /// Threads per block, where the launch is known (applyLaunch); 0: not
  /// modelled (each busy unit is taken to have enough threads).
  unsigned threadsPerBlock = 0;
  /// The fraction of the threads a busy unit needs to pull its share of
  /// bandwidth that it holds: 1 without `threadsPerBlock`.
  double threadFill = 1;
  /// Warps per block of a warp loop and its iterations over all blocks
  /// (applyLaunch; 0: none). Its loads are bounded by what its warps keep
  /// in flight, not by its threads: the memory bandwidth is at most the
  /// resident warps' bytes in flight over the memory latency
  /// (`warpLoopBandwidth`).
  unsigned warpLoopWarps = 0;
  uint64_t warpLoopIterations = 0;

  uint64_t hbmReadBytes = 0;  ///< loads placed off chip
  uint64_t hbmWriteBytes = 0; ///< stores placed off chip
  /// The part of hbmReadBytes that re-reads a region small enough to stay
  /// in L2: it costs L2 time, not HBM time.
  uint64_t l2HitBytes = 0;
  uint64_t onChipBytes =
      0; ///< loads and stores kept in shared memory/registers
  uint64_t matrixFlops = 0; ///< tile.matmul: 2 * m * n * k per batch
  uint64_t vectorFlops = 0; ///< weighted elementwise ops and reductions

  /// Times in microseconds.
  double launchUs = 0, hbmUs = 0, l2Us = 0, matrixUs = 0, vectorUs = 0;
  double timeUs = 0; ///< launch + max(memory, compute) / gridEfficiency
  Limiter limiter = Limiter::Launch;

  uint64_t hbmBytes() const { return hbmReadBytes + hbmWriteBytes; }
};

/// The estimate for one program.
struct ProgramCost {
  std::string program; ///< the program's symbol name
  std::string target;  ///< the target's name
  /// The tile sizes used, sorted by name.
  llvm::SmallVector<std::pair<std::string, int64_t>> sizes;
  std::vector<KernelCost> kernels;

  double timeUs = 0;     ///< sum over kernels
  uint64_t hbmBytes = 0; ///< sum over kernels
  uint64_t matrixFlops = 0, vectorFlops = 0;
  /// The limiter of the kernel that contributes the most time.
  Limiter limiter = Limiter::Launch;

  size_t numKernels() const { return kernels.size(); }
};

/// Re-times kernel `k` (and its program's totals, `program`) for the launch
/// the GPU lowering gives it: `gridSize` blocks of `threadsPerBlock` threads.
/// A busy unit holds as many of the blocks as it can (at most 32, and
/// `maxThreadsPerCU` threads); with fewer than half its maximum threads
/// resident, its bandwidth and throughput scale down in proportion
/// (`threadFill`): a grid of one 32-thread block per row is latency-bound.
/// With `ownLaunch` false, the kernel runs in another's launch (the lowering
/// merged their grids) and costs no launch overhead of its own. A warp loop
/// (`warpLoopWarps` warps a block, `warpLoopIterations` in all) reads at
/// most `warpLoopBandwidth`.
void applyLaunch(ProgramCost &program, KernelCost &k, const TargetDesc &target,
                 uint64_t gridSize, unsigned threadsPerBlock,
                 bool ownLaunch = true, unsigned warpLoopWarps = 0,
                 uint64_t warpLoopIterations = 0);

/// The memory bandwidth (bytes/s) a warp loop of `gridSize` blocks of
/// `warps` warps sustains, each iteration reading `iterationBytes`: each
/// resident warp keeps an eighth of its iteration's bytes in flight (its
/// registers hold the rest of its K and V tiles), answered after
/// `kMemoryLatencySeconds` (Little's law), with at most
/// `kWarpLoopWarpsPerUnit` warps resident per compute unit.
double warpLoopBandwidth(const TargetDesc &target, uint64_t gridSize,
                         unsigned warps, double iterationBytes);

/// The default assignment on `target`: each symbolic tile size of `program`
/// not in `given` starts at the target's default tile size and is halved
/// until it divides the range of every loop stepping by it. Sizes in
/// `given` are kept. Without a target default, only `given` is returned.
TileSizeAssignment defaultTileSizes(ProgramOp program, const TargetDesc &target,
                                    const TileSizeAssignment &given = {});

/// Parses `tile_k=64,tile_n=128` into `sizes`; on malformed text returns
/// failure and describes the problem in `error`.
LogicalResult parseTileSizes(llvm::StringRef text, TileSizeAssignment &sizes,
                             std::string &error);

/// Estimates `program` on `target` with the symbolic tile sizes of `sizes`.
/// Fails, after an error diagnostic on the program, when a symbolic tile
/// size has no value, or a value that is not positive or does not divide
/// the range of a loop stepping by it.
FailureOr<ProgramCost> estimate(ProgramOp program, const TargetDesc &target,
                                const TileSizeAssignment &sizes,
                                const VectorWeights &weights = {});

/// The estimate as JSON: totals, the sizes used and one object per kernel.
llvm::json::Value toJSON(const ProgramCost &cost);

} // namespace mlir::tileir

#endif // TILEDIALECT_COST_COSTMODEL_H
