//===- PartitionInternal.h - The partitioner's shared steps -----*- C++ -*-===//
//
// What the files of `partitionPlan` (Partition.h) share: walks of the plan,
// the independence and element-loop analyses, and the steps that fill a
// `Kernel`, in the order `buildKernel` (Partition.cpp) runs them:
//
//   PlanTraversal.cpp          statements, stores, loads and accesses of a plan
//   PartitionGrid.cpp          grid loops and kernel parts (`planGrid`)
//   PartitionBuffers.cpp       element loops and buffers per store
//                              (`planBuffers`)
//   PartitionElementLoops.cpp  which loops may run element by element
//   PartitionSplitK.cpp        split accumulations (`planSplitK`)
//   PartitionKSlices.cpp       k slices, reduce lanes and sliced loops
//                              (`planKSlices`, `planSlicedLoops`)
//   PartitionWarpLoops.cpp     warp loops (`planWarpLoop`)
//   PartitionBlockMatmul.cpp   block matmuls (`planBlockMatmul`)
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_LIB_CONVERSION_TILETOGPU_PARTITIONINTERNAL_H
#define TILEDIALECT_LIB_CONVERSION_TILETOGPU_PARTITIONINTERNAL_H

#include "Partition.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::tileir::gpu_lowering {

//===----------------------------------------------------------------------===//
// Walks (PlanTraversal.cpp)
//===----------------------------------------------------------------------===//

/// Visits the expression DAG of `root` once per node, operands first.
void postOrder(const interp::Plan &plan, unsigned root,
               llvm::function_ref<void(unsigned)> visit);

/// Whether tensors `x` and `y` may share elements: the same tensor, or a
/// pair declared `tile.may_alias`.
bool mayOverlap(llvm::ArrayRef<std::pair<unsigned, unsigned>> aliases,
                unsigned x, unsigned y);

/// Whether expression `root` loads from a tensor that may share elements
/// with `tensor` (`mayOverlap`).
bool readsTensor(const interp::Plan &plan, unsigned root, unsigned tensor,
                 llvm::ArrayRef<std::pair<unsigned, unsigned>> aliases);

//===----------------------------------------------------------------------===//
// Independence (PartitionGrid.cpp)
//===----------------------------------------------------------------------===//

/// Whether `a` (in a loop over `varA`) and `b` (in a loop over `varB`) touch
/// disjoint elements whenever their iteration numbers differ: some dimension
/// indexes `a` by `varA` and `b` by `varB` the same way, the two loops having
/// the same start and step (tiles of loops with one step are disjoint for
/// distinct iterations); or two constant slices never meet.
bool separatedAcross(const interp::Access &a, const interp::Access &b,
                     unsigned varA, unsigned varB, bool sameIterationSpace);

/// Whether no element that `writes` touch in one iteration of the loop over
/// `var` is touched by `writes` or `reads` in another. Sound but not
/// complete (a pair it cannot separate counts as a conflict).
bool iterationsIndependent(
    llvm::ArrayRef<const interp::Access *> writes,
    llvm::ArrayRef<const interp::Access *> reads, unsigned var,
    llvm::ArrayRef<std::pair<unsigned, unsigned>> aliases);

//===----------------------------------------------------------------------===//
// Element loops (PartitionElementLoops.cpp)
//===----------------------------------------------------------------------===//

/// Whether expression `root` (a value of `shape`) reads a tensor that one of
/// `writes` may touch anywhere but at the element it is computing: through
/// a non-elementwise op, with another access, or with another shape. Nodes
/// in `buffered` (other than the root) are computed beforehand and not
/// walked.
bool readsWrittenElsewhere(
    const interp::Plan &plan, unsigned root, llvm::ArrayRef<int64_t> shape,
    llvm::ArrayRef<const interp::Access *> writes,
    const llvm::DenseSet<unsigned> &buffered,
    llvm::ArrayRef<std::pair<unsigned, unsigned>> aliases);

/// Whether loop `id` can run element by element: its body is a sequence of
/// stores of one tile shape, each tensor written with one access, and every
/// store reads what the body writes only at the element it computes. Then
/// element e of every store depends only on element e of the body's writes,
/// and running all iterations for e on one thread is the same arithmetic in
/// the same order. Returns the number of elements of that shape.
std::optional<int64_t>
getElementLoopSize(const interp::Plan &plan, unsigned id,
                   llvm::ArrayRef<std::pair<unsigned, unsigned>> aliases);

/// The number of elements of the tiles a kernel's body stores, if the body
/// is an element loop whose stores compute a matmul (through elementwise
/// ops).
std::optional<int64_t> getMatmulLoopElements(const interp::Plan &plan,
                                             const interp::StmtNode &body,
                                             const Kernel &kernel);

//===----------------------------------------------------------------------===//
// Split accumulations (PartitionSplitK.cpp)
//===----------------------------------------------------------------------===//

/// If loop `id` is `S = S + g(k)` (its body one store into an f32 tensor
/// whose value adds a load of the stored region to an expression g that
/// reads nothing the store may write), returns g. With `extremes`, also
/// `S = max(S, g(k))` and `S = min(S, g(k))`: the element split combines
/// its chunks with the store's function (`KernelEmitter::combineFn`).
std::optional<unsigned>
getSplitAddend(const interp::Plan &plan, unsigned id,
               llvm::ArrayRef<std::pair<unsigned, unsigned>> aliases,
               llvm::ArrayRef<ElementKind> tensorKinds, bool extremes = false);

/// The accumulations of a loop `id` run by the whole block whose chunks of
/// iterations may run on separate blocks, each adding its addends
/// atomically: every statement of its body either is an accumulation
/// `T = T + g` (with `extremes`, also `max(T, g)` or `min(T, g)`, combined
/// atomically the same way) into an f32 tensor T at a region that does not
/// move with the loop (T touched nowhere else in the loop, g reading no
/// accumulated tensor), or touches only what no other iteration touches (as
/// `isParallel` asks, the accumulations aside): the per-iteration tiles of
/// a FlashAttention loop, `logit[h, :, tile p] = exp(Q K^T)` beside
/// `accm[h] += rsum(logit)` and `O[h] += logit V`. Returns each
/// accumulation store with its g, or nothing when the loop has none or
/// cannot be split.
std::optional<llvm::DenseMap<unsigned, unsigned>>
getSplitStores(const interp::Plan &plan, unsigned id,
               llvm::ArrayRef<std::pair<unsigned, unsigned>> aliases,
               llvm::ArrayRef<ElementKind> tensorKinds, bool extremes = false);

//===----------------------------------------------------------------------===//
// The steps of building a kernel, in order
//===----------------------------------------------------------------------===//

/// The bytes of static shared memory a kernel's two buffers take: the f32
/// one, then the f16 one from a 16-byte boundary (both take vector
/// accesses; the lowering aligns them so).
inline int64_t sharedBytes(int64_t f32Elements, int64_t f16Elements) {
  return int64_t(llvm::alignTo(f32Elements * 4, 16)) + f16Elements * 2;
}

/// Whether `kernel`, with its f32 shared buffer grown to at least
/// `f32Elements`, keeps its two shared buffers (f32 and f16) within the
/// `shared_memory` budget together.
inline bool fitsKernelShared(const Kernel &kernel, int64_t f32Elements,
                             const PartitionOptions &options) {
  return sharedBytes(std::max(kernel.sharedElements, f32Elements),
                     kernel.sharedHalfElements) <= options.sharedMemoryBytes;
}

/// Threads a block of an element-loop matmul gets (4 warps) where its tile
/// and `thread_elements` with `k_slices` would leave less than a warp, or
/// less than this in a grid short of a quarter of `min_blocks`: a one-token
/// GEMV in blocks of 8 threads (64 outputs, 32 per thread, 4 slices) ran
/// 3.8x slower on the H200 than in blocks of 128
/// (bench/results/h200-2026-11-28-gemv.md).
constexpr int64_t kMinMatmulThreads = 128;

/// The most rows of one column a group of k lanes computes
/// (`Kernel::kLaneRows`): their sums and A's runs live in registers.
constexpr int64_t kMaxKLaneRows = 16;

/// Elements each thread computes of an element-loop matmul's tile of
/// `elements` outputs in a grid of `blocks` blocks, whose blocks run `trips`
/// iterations of the accumulation: `thread_elements`; or, where the tile is
/// small (above), halved while the block would have fewer than
/// `kMinMatmulThreads` threads with `k_slices` slices (or, for matmuls with
/// `rows`, `hasMatmulRows`, as many slices as `trips`), down to 8 (a 16-byte
/// run of f16 weights).
int64_t getMatmulThreadElements(const PartitionOptions &options,
                                int64_t elements, int64_t blocks,
                                int64_t trips, bool rows);

/// Whether every matmul the stores below statement `id` compute has more
/// than one row (m > 1): a thread's elements then share their loads of B.
bool hasMatmulRows(const interp::Plan &plan, const interp::StmtNode &stmt);

/// The most k slices of an element-loop matmul's tile of `elements`
/// outputs in a grid of `blocks` blocks: `k_slices`, or, where the tile is
/// small, as many as make `kMinMatmulThreads` threads with
/// `getMatmulThreadElements`; `trips` (the iterations a block runs) caps
/// the slices beyond `k_slices`.
int64_t getMostMatmulSlices(const PartitionOptions &options, int64_t elements,
                            int64_t blocks, int64_t trips, bool rows);

/// Fills the grid of `kernel`, which runs statement `id` inside the grid
/// loops `outer` (PartitionGrid.cpp): the outermost parallel loops of `id`
/// join the grid, and the statement below them is the body (`Kernel::body`);
/// a sequence of parallel loops there whose iterations line up runs side by
/// side as the kernel's parts, else the body is its one part.
void planGrid(const interp::Plan &plan,
              llvm::ArrayRef<std::pair<unsigned, unsigned>> aliases,
              const PartitionOptions &options, unsigned id,
              llvm::ArrayRef<GridLoop> outer, Kernel &kernel);

/// Fills `Kernel::perElementLoops`, `Kernel::stores` and the kernel's
/// shared and scratch sizes for its parts (PartitionBuffers.cpp). Returns
/// the most elements any step of the body computes.
int64_t planBuffers(const interp::Plan &plan,
                    llvm::ArrayRef<std::pair<unsigned, unsigned>> aliases,
                    const PartitionOptions &options, Kernel &kernel);

/// Splits a kernel with fewer than `minBlocks` blocks whose body is a lone
/// accumulation loop across blocks (PartitionSplitK.cpp): an element loop
/// `S = S + g(k)` (`Kernel::splitAddend`), or a loop the whole block runs
/// whose body accumulates beside per-iteration tiles
/// (`Kernel::splitStores`). Returns whether it split an element loop.
bool planSplitK(const interp::Plan &plan,
                llvm::ArrayRef<std::pair<unsigned, unsigned>> aliases,
                const PartitionOptions &options, Kernel &kernel);

/// Gives the idle threads of a split accumulation's block slices of its
/// chunk's iterations (`Kernel::kSlices`) and, for a sum over consecutive
/// elements, adjacent threads (`Kernel::reduceLanes`), as the block and
/// `shared_memory` allow (PartitionKSlices.cpp). `matmulElements` is
/// `getMatmulLoopElements` of the body, `groups` the groups of lanes the
/// block's threads were counted for, and `elementSplit` what `planSplitK`
/// returned.
void planKSlices(const interp::Plan &plan, const PartitionOptions &options,
                 std::optional<int64_t> matmulElements, int64_t groups,
                 bool elementSplit, Kernel &kernel);

/// Fills `Kernel::slicedLoops` of a kernel that is not split
/// (PartitionKSlices.cpp): the element loops of its body (the body, or
/// statements of the body's sequence) that are matmul accumulations over
/// tiles of one element count n, cut among as many k slices as `k_slices`,
/// the block and `shared_memory` allow (a power of two, at least 2). The
/// block has ceil(n / thread-elements) groups of lanes per slice.
void planSlicedLoops(const interp::Plan &plan,
                     llvm::ArrayRef<std::pair<unsigned, unsigned>> aliases,
                     const PartitionOptions &options, Kernel &kernel);

/// Runs the kernel's body as a warp loop (`Kernel::warpLoop`) when `mma`
/// and `warp_loops` allow and it is one (PartitionWarpLoops.cpp): a warp
/// per iteration of the block's share, as many as the block holds.
void planWarpLoop(const interp::Plan &plan,
                  llvm::ArrayRef<std::pair<unsigned, unsigned>> aliases,
                  const PartitionOptions &options, Kernel &kernel);

/// Runs the kernel's body as a block matmul (`Kernel::blockMatmul`) when
/// `mma` and `block_matmul` allow and it is one (PartitionBlockMatmul.cpp):
/// in place of the k slices, k lanes or sliced loop planned for it, with
/// its own threads and f16 shared memory.
void planBlockMatmul(const interp::Plan &plan,
                     llvm::ArrayRef<std::pair<unsigned, unsigned>> aliases,
                     const PartitionOptions &options, Kernel &kernel);

} // namespace mlir::tileir::gpu_lowering

#endif // TILEDIALECT_LIB_CONVERSION_TILETOGPU_PARTITIONINTERNAL_H
