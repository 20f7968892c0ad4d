//===- PartitionKSlices.cpp - K slices, reduce lanes and sliced loops -----===//

#include "PartitionInternal.h"

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::interp;
using namespace mlir::tileir::gpu_lowering;

using Kind = ExprNode::Kind;

/// Whether a matmul tile of `elements` outputs in a grid of `blocks` blocks
/// gets more threads than `thread_elements` and `k_slices` give it: where
/// they leave the block less than a warp, or fewer than `kMinMatmulThreads`
/// threads in a grid short of a quarter of `min_blocks` (a split
/// accumulation that could not reach its blocks: softmax(S) @ V over 32K
/// keys ran 256 blocks of 32 threads in 52.7 us, of 128 in 40.8, on the
/// H200; a MoE grid of 1408 blocks of 32 threads went from 93 to 137 us
/// with 128).
static bool isSmallMatmulTile(const PartitionOptions &options,
                              int64_t elements, int64_t blocks) {
  int64_t perThread = std::max(1u, options.threadElements);
  int64_t threads = llvm::divideCeil(elements, perThread) * options.kSlices;
  return options.kSlices > 1 &&
         (threads < 32 || (threads < kMinMatmulThreads &&
                           blocks * 4 < int64_t(options.minBlocks)));
}

int64_t gpu_lowering::getMatmulThreadElements(const PartitionOptions &options,
                                               int64_t elements, int64_t blocks,
                                               int64_t trips, bool rows) {
  int64_t perThread = std::max(1u, options.threadElements);
  if (!isSmallMatmulTile(options, elements, blocks))
    return perThread;
  // With rows, slices first, as many as the block's iterations give (a
  // thread's elements in several rows share their loads of B; a slice only
  // splits the sum): P.V over a 32K KV cache, 4 rows x 64 columns per
  // tile, 32 iterations per block, ran 41.3 us with 8 elements per thread
  // in 4 slices, 24.6 with 32 in 16. Not for one row, where the elements
  // share nothing: a one-token down projection (1 x 64 per tile, 14336
  // deep) went from 34.9 to 364.5 us (H200,
  // bench/results/h200-2026-11-28-attention-tuned.md).
  int64_t slices = rows ? std::max<int64_t>(options.kSlices, trips)
                        : int64_t(options.kSlices);
  while (perThread > 8 &&
         llvm::divideCeil(elements, perThread) * slices < kMinMatmulThreads)
    perThread /= 2;
  return perThread;
}

int64_t gpu_lowering::getMostMatmulSlices(const PartitionOptions &options,
                                          int64_t elements, int64_t blocks,
                                          int64_t trips, bool rows) {
  int64_t most = options.kSlices;
  if (most < 2 || !isSmallMatmulTile(options, elements, blocks))
    return most;
  int64_t groups = llvm::divideCeil(
      elements,
      getMatmulThreadElements(options, elements, blocks, trips, rows));
  return std::max(most, std::min(kMinMatmulThreads / groups, trips));
}

/// Cuts the sum over k of a split matmul accumulation by a transposed load
/// (`getKLaneWidth`) among adjacent threads, one output element per group
/// of them, so that each warp reads runs along the rows of B where one
/// thread per output element would read down its columns: as many lanes as
/// `reduce_lanes`, the block, `shared_memory` and k (a whole number of
/// `kLaneWidth` runs per lane and step) allow, a power of two, then as many
/// k slices as fill what the block has left. A tile with as many outputs as
/// the block has threads or more (attention's scores over a KV tile) gets
/// lanes beyond the block, up to 128 bytes of B's row per step, its threads
/// taking the groups in turn. (Measured on the H200,
/// bench/results/h200-2026-11-28-gemv.md: in turns, 8 lanes ran a
/// one-token GEMV of 64 outputs per tile at 133 us against 108 us with 4
/// lanes in one turn, but decode attention over 4K keys at 18.4 us against
/// 32.9 us without lanes.) False, changing nothing, when fewer than two
/// lanes fit.
static bool planKLanes(const Plan &plan, const PartitionOptions &options,
                       int64_t elements, Kernel &kernel) {
  const ExprNode &addend = plan.exprs[kernel.splitAddend];
  int64_t width = getKLaneWidth(plan, kernel.splitAddend, options.tensorKinds,
                                options.mma);
  if (width == 0 || options.reduceLanes < 2)
    return false;
  int64_t k = addend.sizes[2], block = options.blockSize;
  // Each group of lanes computes `rows` outputs of one column, sharing B's
  // runs: the tile's rows, or the most up to kMaxKLaneRows (their sums live
  // in registers) that divide them.
  int64_t rows = std::min(addend.sizes[1], kMaxKLaneRows);
  while (addend.sizes[1] % rows != 0)
    --rows;
  int64_t groups = elements / rows;
  // 128 bytes of B's row per step: 8 runs of 16 bytes.
  constexpr int64_t kLineRuns = 8;
  auto lanesAllowed = [&](int64_t lanes) {
    return lanes <= int64_t(options.reduceLanes) && k % (lanes * width) == 0 &&
           fitsKernelShared(kernel, lanes * elements, options);
  };
  int64_t lanes = 1;
  while (lanesAllowed(lanes * 2) && groups * lanes * 2 <= block)
    lanes *= 2;
  bool turns = false;
  if (lanes < 2) {
    while (lanes * 2 <= kLineRuns && lanesAllowed(lanes * 2) &&
           groups * lanes * 2 % block == 0)
      lanes *= 2;
    turns = true;
  }
  if (lanes < 2)
    return false;
  kernel.kLanesShort = !turns && lanes < kLineRuns && lanesAllowed(lanes * 2);
  int64_t slices = 1;
  while (!turns && slices * 2 <= int64_t(options.kSlices) &&
         slices * 2 <= kernel.chunkTrips &&
         groups * lanes * slices * 2 <= block &&
         fitsKernelShared(kernel, lanes * slices * 2 * elements, options))
    slices *= 2;
  kernel.reduceLanes = unsigned(lanes);
  kernel.kLaneWidth = width;
  kernel.kLaneRows = rows;
  kernel.kSlices = unsigned(slices);
  kernel.threads = unsigned(std::min(groups * lanes * slices, block));
  kernel.sharedElements =
      std::max(kernel.sharedElements, lanes * slices * elements);
  return true;
}

void gpu_lowering::planKSlices(const Plan &plan,
                               const PartitionOptions &options,
                               std::optional<int64_t> matmulElements,
                               int64_t groups, bool elementSplit,
                               Kernel &kernel) {
  const StmtNode &only = plan.stmts[kernel.body];
  if (matmulElements && elementSplit &&
      planKLanes(plan, options, *matmulElements, kernel))
    return;
  // A split accumulation whose groups of lanes (a matmul's; else one
  // element per thread) leave threads of the block idle gives them slices of
  // its chunk's iterations, the partial sums added through shared memory
  // (as many slices as the block and `shared_memory` hold, a power of two).
  std::optional<int64_t> splitElements = matmulElements;
  if (!matmulElements && elementSplit) {
    splitElements = plan.exprs[plan.stmts[only.first].first].numElements;
    groups = *splitElements;
  }
  // Each of the groups' threads (`slices * lanes` per group) fits the
  // block, and each its partial tile in `shared_memory`.
  int64_t slices = 1, lanes = 1;
  auto fits = [&](int64_t threadsPerGroup) {
    return groups * threadsPerGroup <= int64_t(options.blockSize) &&
           fitsKernelShared(kernel, threadsPerGroup * *splitElements,
                            options);
  };
  if (splitElements && kernel.splitChunks > 1 && options.kSlices > 1) {
    // (A reduction's slices stay within its chunk's iterations; a matmul's
    // may exceed them: idle slices measured faster on the scores kernel.)
    int64_t most = matmulElements
                       ? getMostMatmulSlices(
                             options, *matmulElements, kernel.numBlocks,
                             kernel.chunkTrips,
                             hasMatmulRows(plan, plan.stmts[kernel.body]))
                                  : int64_t(options.kSlices);
    while (slices * 2 <= most &&
           (matmulElements || slices * 2 <= kernel.chunkTrips) &&
           fits(slices * 2))
      slices *= 2;
  }
  // A reduction's sum over consecutive elements also goes to adjacent
  // threads, up to `reduce_lanes` of them, as the block and
  // `shared_memory` allow.
  if (!matmulElements && elementSplit) {
    const ExprNode &addend = plan.exprs[kernel.splitAddend];
    if (addend.kind == Kind::Reduce && addend.reduceFn == ReduceFn::Sum &&
        addend.elementKind == ElementKind::F32 && addend.sizes[2] == 1)
      while (lanes * 2 <= int64_t(options.reduceLanes) &&
             addend.sizes[1] % (lanes * 2) == 0 && fits(slices * lanes * 2))
        lanes *= 2;
  }
  if (slices * lanes > 1) {
    kernel.kSlices = unsigned(slices);
    kernel.reduceLanes = unsigned(lanes);
    kernel.threads = unsigned(groups * slices * lanes);
    kernel.sharedElements =
        std::max(kernel.sharedElements, slices * lanes * *splitElements);
  }
}

/// The accumulations of element loop `id` if each of its stores is a
/// matmul accumulation `S = S + A B` at a region that does not move with the
/// loop, each into its own tensor, no addend reading what another store
/// writes (`getSplitStores` with no other statements): each store with its
/// addend.
static std::optional<llvm::DenseMap<unsigned, unsigned>>
getSliceableAddends(const Plan &plan, unsigned id,
                    ArrayRef<std::pair<unsigned, unsigned>> aliases,
                    ArrayRef<ElementKind> tensorKinds) {
  const StmtNode &loop = plan.stmts[id];
  if (loop.kind != StmtNode::Kind::Loop ||
      (loop.end - loop.start) / loop.step < 2)
    return std::nullopt;
  std::optional<llvm::DenseMap<unsigned, unsigned>> addends =
      getSplitStores(plan, id, aliases, tensorKinds);
  SmallVector<unsigned> leaves;
  collectSequence(plan, loop.first, leaves);
  if (!addends || addends->size() != leaves.size() ||
      llvm::any_of(*addends, [&](const auto &entry) {
        return plan.exprs[entry.second].kind != Kind::Matmul;
      }))
    return std::nullopt;
  return addends;
}

void gpu_lowering::planSlicedLoops(
    const Plan &plan, ArrayRef<std::pair<unsigned, unsigned>> aliases,
    const PartitionOptions &options, Kernel &kernel) {
  SmallVector<unsigned> leaves;
  collectSequence(plan, kernel.body, leaves);
  std::optional<int64_t> elements;
  int64_t mostStores = 0;
  SmallVector<std::pair<unsigned, llvm::DenseMap<unsigned, unsigned>>> loops;
  for (unsigned leaf : leaves) {
    std::optional<int64_t> n =
        getMatmulLoopElements(plan, plan.stmts[leaf], kernel);
    if (!n || (elements && *n != *elements))
      continue;
    std::optional<llvm::DenseMap<unsigned, unsigned>> addends =
        getSliceableAddends(plan, leaf, aliases, options.tensorKinds);
    if (!addends)
      continue;
    elements = n;
    mostStores = std::max<int64_t>(mostStores, addends->size());
    loops.push_back({leaf, std::move(*addends)});
  }
  if (loops.empty())
    return;
  int64_t trips = 0;
  for (auto &entry : loops) {
    const StmtNode &loop = plan.stmts[entry.first];
    trips = std::max(trips, (loop.end - loop.start) / loop.step);
  }
  bool rows = llvm::all_of(loops, [&](const auto &entry) {
    return hasMatmulRows(plan, plan.stmts[entry.first]);
  });
  int64_t groups = llvm::divideCeil(
      *elements, getMatmulThreadElements(options, *elements, kernel.numBlocks,
                                         trips, rows));
  int64_t most =
      getMostMatmulSlices(options, *elements, kernel.numBlocks, trips, rows);
  int64_t slices = 1;
  while (slices * 2 <= most &&
         groups * slices * 2 <= int64_t(options.blockSize) &&
         fitsKernelShared(kernel, slices * 2 * mostStores * *elements,
                          options))
    slices *= 2;
  if (slices < 2)
    return;
  for (auto &[loop, addends] : loops) {
    kernel.slicedLoops.insert(loop);
    for (auto [store, addend] : addends)
      kernel.slicedAddends[store] = addend;
  }
  kernel.kSlices = unsigned(slices);
  kernel.threads = unsigned(groups * slices);
  kernel.sharedElements =
      std::max(kernel.sharedElements, slices * mostStores * *elements);
}
