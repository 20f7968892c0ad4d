//===- Partition.h - Kernels, grids and on-chip buffers of a plan -*- C++
//-*-===//
//
// Decides how a resolved tile program (an interpreter `Plan`) runs on a GPU,
// before any IR is built: one kernel per top-level statement (Trinity
// section 5.2), the outermost loops whose iterations are provably
// independent as the grid, everything below them inside the kernel, and for
// every store which tile values get a buffer (matmuls, reductions and their
// operands that are not cheap to recompute) and whether that buffer lives in
// workgroup (shared) memory or in per-block global scratch.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_LIB_CONVERSION_TILETOGPU_PARTITION_H
#define TILEDIALECT_LIB_CONVERSION_TILETOGPU_PARTITION_H

#include "TileDialect/IR/TileOps.h"
#include "TileDialect/IR/TileTypes.h"
#include "TileDialect/Interpreter/Plan.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSet.h"

#include <memory>
#include <optional>

namespace mlir::tileir::gpu_lowering {

/// A loop mapped onto the grid.
struct GridLoop {
  /// The loop statement.
  unsigned stmt = 0;
  unsigned var = 0;
  int64_t start = 0, step = 1, trips = 1;
};

/// Most bytes of dynamic shared memory a kernel takes: what two blocks per
/// SM leave each on sm_90 (228 KiB), within sm_80's 163 KiB per block.
constexpr int64_t kMaxDynamicSharedBytes = 96 * 1024;

/// Where a tile value's buffer lives.
struct Buffer {
  bool shared = false;
  /// An f16 buffer in the kernel's f16 shared buffer (operands of matrix
  /// unit matmuls); else f32.
  bool half = false;
  /// Offset in elements in the kernel's shared buffer of its type or in the
  /// block's slice of the (f32) global scratch.
  int64_t offset = 0;
};

/// A buffered reduction computed by groups of threads: each result
/// element's sum (max, min) is cut among up to `group` threads (a power of
/// two), each combining every group-th element of the reduced extent, and
/// their partial results meet in `scratch` (`group` values per result
/// element) in halving rounds, a barrier after each.
struct GroupReduction {
  int64_t group = 1;
  Buffer scratch;
};

/// The buffers one store needs, valid for one evaluation of it.
struct StoreBuffers {
  llvm::DenseMap<unsigned, Buffer> nodes;
  /// Reductions among `nodes` computed by groups of threads (`planStore`:
  /// fewer result elements than the block has threads).
  llvm::DenseMap<unsigned, GroupReduction> groupReductions;
  /// Buffers in an order where operands come first.
  llvm::SmallVector<unsigned> order;
  /// Whether the stored value itself is buffered before the store (it reads
  /// the stored tensor elsewhere than at the element it writes).
  bool bufferRoot = false;
  /// Matmuls computed on the matrix units (`mma`): f16 operands in f16
  /// shared buffers, sizes multiples of 16, an f32 result buffer.
  llvm::DenseSet<unsigned> mma;
};

/// A warp loop (`mma`): a loop the whole block runs whose body computes
/// per-iteration tiles of 16 rows, `X[.., tile v] = f(A B)` on the matrix
/// units and then elementwise functions of it (`E = exp(X)`), and
/// accumulates into tensors at regions that do not move with the loop, from
/// those tiles only: row sums `T = T + rsum(h(X), last)` and products
/// `O = O + h(X) V` with f16 operands (a FlashAttention loop: the scores,
/// the running sum, the unnormalized output). Each warp of the block runs
/// every `warps`-th iteration of the block's share with the tiles in
/// `mma.sync` accumulator registers, from which the row sums are summed and
/// the products' left operands packed (the m16n8k16 accumulator layout is
/// the left operand's), and adds its partial sums to the tensors
/// atomically at the end.
struct WarpLoop {
  /// The stores of the per-iteration tiles (the first from matmuls, later
  /// ones elementwise of earlier ones), each with whether it is stored:
  /// something outside the loop may read it.
  llvm::SmallVector<std::pair<unsigned, bool>> tiles;
  /// The accumulation stores, in body order, with their addends (a `Reduce`
  /// or a `Matmul` node).
  llvm::SmallVector<std::pair<unsigned, unsigned>> accumulations;
  /// Each product addend's right operand, the f16 load it multiplies the
  /// tiles by (`getWarpProductLoad`).
  llvm::DenseMap<unsigned, unsigned> productLoads;
  unsigned warps = 1;
  /// f32 partial sums a lane holds at the end: 2 per row sum, n / 2 per
  /// product of n columns.
  int64_t laneSums = 0;
  /// Whether the block's warps add up their partial sums in shared memory
  /// (a tree of ceil(log2(warps)) rounds over `Kernel::sharedElements`)
  /// before its first warp adds them to the tensors atomically, instead of
  /// every warp adding its own: fewer atomics to the same addresses.
  bool reduceInBlock = false;
  /// The loop statement: the kernel's body, or (online) a statement of the
  /// body's sequence.
  unsigned loop = 0;
  /// The tiles' rows: 16, or (online) fewer, which the warp's lanes repeat
  /// over the matrix units' 16 (row i holds tile row i mod rows: the loads'
  /// tile coordinates wrap) and whose merges store once.
  int64_t rows = 16;
  /// An online loop (a safe softmax's running maximum, FlashAttention-2's
  /// loop): its last store is `M = M'` with `M' = max(M, rmax(X))` over the
  /// tiles' rows, and each accumulation rescales its sum by the repair
  /// factor, `T = T * alpha + g(E)`, with `alpha = exp(M - Ms)` (or
  /// `exp(min(M - Ms, 0))`), `E = exp(Y - Ms)` and `Ms` = M' (or
  /// `select(M' == -inf, 0, M')`). Each warp carries its own running
  /// maximum over the iterations it runs; the warps' states are merged in
  /// shared memory at the end (each scaled by `exp(m_w - max m)`), and the
  /// first warp merges the block's with the tensors' contents and stores
  /// M, and the sums, plainly (the block is the only writer of their
  /// regions: online loops are not split).
  struct Online {
    unsigned maxStore = 0;
    /// X, E and Y.
    unsigned x = 0, exp = 0, y = 0;
    bool safe = false, clamped = false;
    /// Whether products of E by a cast-up f16 load run in f16 (E rounded,
    /// as FlashAttention's P): E is in [0, 1] when Y is X.
    bool halfProducts = false;
    /// Shared memory (f32 elements) where the warps' maxima meet.
    int64_t maxOffset = 0;
    /// Split across blocks (split-KV, `Kernel::splitChunks` chunks of the
    /// loop): each block's state (its rows' maxima, then every
    /// accumulation's sums, `stateElements` f32) goes to its scratch at
    /// `scratchOffset`; the block that brings its grid point's counter
    /// (`counters` + grid point, in the host's `__counters`) to the chunk
    /// count merges every chunk's state into the tensors and runs the rest
    /// of the kernel's body, the others stop after the loop. `flag` is the
    /// f32 shared element that tells the block's threads; the merge keeps
    /// each row's weights after it (16 per state: the tensors', then each
    /// chunk's).
    int64_t scratchOffset = 0, stateElements = 0, counters = 0, flag = 0;
  };
  std::optional<Online> online;
};

/// A block matmul (`block_matmul`): an element loop `S = S + A B` (S f32, A
/// and B loads of f16, or both of bf16, B possibly the transpose of one:
/// nn.Linear's [N, K] weights) over tiles of m x n outputs, m and n
/// multiples of 64, run by the whole block: each step stages `kStage`
/// columns of A and rows of B in shared memory (`stages` stages in the
/// kernel's f16 (or bf16) buffer, dynamic shared memory, filled by
/// `cp.async` copies of 16 bytes a thread issued `stages - 1` steps ahead
/// of the step that reads them), every warp
/// computes its (m / warpsM) x (n / warpsN) part of the tile in `mma.sync`
/// registers from `ldmatrix` fragments, and the sums are stored (added
/// atomically when the loop is split, `Kernel::splitChunks`).
struct BlockMatmul {
  /// The accumulation store, its matmul addend, and the f16 loads of A and
  /// of B (the [n, k] load with `bTransposed`).
  unsigned store = 0, matmul = 0, a = 0, b = 0;
  bool bTransposed = false;
  /// Whether A and B hold bf16 (else f16): the stages then hold bf16.
  bool bf16 = false;
  /// The tile: m x n outputs, k per iteration of the loop.
  int64_t m = 0, n = 0, k = 0;
  int64_t kStage = 64;
  /// Stages in flight: `cp.async` copies run this many steps ahead, less
  /// one.
  int64_t stages = 4;
  unsigned warpsM = 1, warpsN = 1;

  /// f16 elements of one stage: A's m rows and B's kStage rows (or, with
  /// `bTransposed`, n rows), each padded by 8 elements so that the eight
  /// 16-byte rows an `ldmatrix` reads fall in distinct banks.
  int64_t aRowStride() const { return kStage + 8; }
  int64_t bRowStride() const { return bTransposed ? kStage + 8 : n + 8; }
  int64_t aStageElements() const { return m * aRowStride(); }
  int64_t stageElements() const {
    return aStageElements() + (bTransposed ? n : kStage) * bRowStride();
  }
};

/// One statement of a kernel's body. A part with a loop runs iteration b of
/// that loop on block b (blocks past its trip count skip it).
struct KernelPart {
  std::optional<GridLoop> loop;
  /// The statement a block runs (the loop's body, or the whole statement).
  unsigned stmt = 0;
};

/// One kernel.
struct Kernel {
  /// The top-level statement.
  unsigned stmt = 0;
  /// Grid loops, outermost first, then the parts each block runs in order,
  /// with a barrier between parts.
  llvm::SmallVector<GridLoop> grid;
  llvm::SmallVector<KernelPart> parts;
  /// The statement below the grid loops.
  unsigned body = 0;
  /// The product of the grid loops' trips and of the largest part trip.
  int64_t numBlocks = 1;
  int64_t partBlocks = 1;
  /// Buffers per store statement of the body.
  llvm::DenseMap<unsigned, StoreBuffers> stores;
  /// Loops run element by element: a loop whose body is one store that
  /// reads the stored tensor only at the element it writes, and no other
  /// tensor it writes, runs all its iterations for element e on e's thread
  /// (no buffers, no barriers), which is the same arithmetic in the same
  /// order.
  llvm::DenseSet<unsigned> perElementLoops;
  /// Threads per block: the block size, or fewer when no step of the kernel
  /// has that many elements (a multiple of 32).
  unsigned threads = 256;
  /// Most elements one thread computes together in an element loop (its
  /// lanes): lanes that share an operand element load it once, and the
  /// loop's accumulators stay in registers.
  unsigned maxLanes = 1;
  /// Whether element loops may compute matmuls with warp-wide matrix-unit
  /// instructions (`PartitionOptions::mma`; see KernelEmitter).
  bool matrixUnits = false;
  /// Split accumulation (`split_k`): when the kernel's body is one element
  /// loop `S = S + g(k)` into an f32 tensor that g does not read, its
  /// iterations are cut into `splitChunks` chunks of `chunkTrips`
  /// iterations; block b runs chunk b mod splitChunks and adds its partial
  /// sum to S atomically.
  unsigned splitChunks = 1;
  int64_t chunkTrips = 0;
  /// The expression g (the addend that does not read S).
  unsigned splitAddend = 0;
  /// A split loop run by the whole block (not an element loop): each store
  /// of its body either writes a tile no other iteration touches or
  /// accumulates `T = T + g` into an f32 tensor T touched nowhere else in
  /// the loop (a FlashAttention loop over the KV length: the scores tile,
  /// the running sum, the unnormalized output). Block b runs chunk
  /// b mod splitChunks of its iterations and adds each accumulation's g
  /// atomically. Maps each accumulation store to its g; empty otherwise.
  llvm::DenseMap<unsigned, unsigned> splitStores;
  /// A split accumulation may also cut its chunk among `kSlices` groups of
  /// the block's threads (iteration i to slice i mod kSlices), their partial
  /// sums added in shared memory (`threads` = groups of lanes x kSlices, one
  /// lane per group for a reduction; the shared buffer holds kSlices tiles).
  /// So may the element-loop matmul accumulations of `slicedLoops`.
  unsigned kSlices = 1;
  /// Element loops of a kernel that is not split (its body, or statements
  /// of its body's sequence) whose stores are all matmul accumulations
  /// `S = S + A B`, each into its own f32 tensor at a region that does not
  /// move with the loop: their iterations are cut among `kSlices` slices of
  /// the block's threads (iteration i to slice i mod kSlices; `threads` =
  /// groups of lanes x kSlices), the partial tiles added up in shared
  /// memory (kSlices x stores tiles), and, the block being the only one to
  /// write those regions, the sums stored with plain stores (added to S's
  /// starting value unless S is a zero accumulator). `slicedAddends` maps
  /// each of their stores to its addend A B.
  llvm::DenseSet<unsigned> slicedLoops;
  llvm::DenseMap<unsigned, unsigned> slicedAddends;
  /// A split accumulation whose addend is an f32 sum over the innermost
  /// dimension of its operand, or a matmul by a transposed load
  /// (`getKLaneWidth`: the sum over k), also cuts that sum among `reduceLanes`
  /// adjacent threads (element i of the summed extent to thread
  /// i mod reduceLanes, so that they read consecutive addresses), their
  /// partial sums added in shared memory with the slices' (`threads` =
  /// elements x kSlices x reduceLanes; the shared buffer holds
  /// kSlices x reduceLanes tiles).
  unsigned reduceLanes = 1;
  /// With `reduceLanes` above 1 and a matmul addend (`getKLaneWidth`): the
  /// consecutive elements of k each lane reads per step, lane l taking
  /// elements [(s * reduceLanes + l) * kLaneWidth, +kLaneWidth) of step s.
  int64_t kLaneWidth = 1;
  /// With k lanes: the rows of one column of the matmul's output each group
  /// of lanes computes (rows [r, r + kLaneRows) of a block of the tile's m
  /// rows), so that each run of B's row is loaded once for all of them, not
  /// once per row (attention's scores: 4 to 16 query rows against each key).
  int64_t kLaneRows = 1;
  /// Whether those lanes stopped short of 128 bytes of B's row per step
  /// only because the block could not hold more per output element: a
  /// smaller tile of outputs would give each more lanes.
  bool kLanesShort = false;
  /// Whether the split accumulation adds aligned runs of its f32 result with
  /// one vector reduction each (`PartitionOptions::vectorAtomics`).
  bool vectorAtomics = false;
  /// Shared memory (f32 and f16 buffers) and per-block global scratch (f32),
  /// in elements.
  int64_t sharedElements = 0, sharedHalfElements = 0, scratchElements = 0;
  /// Whether the f16 buffer is dynamic shared memory (the launch's, up to
  /// `kMaxDynamicSharedBytes`, opted into by the runtime beyond 48 KiB)
  /// instead of a static workgroup buffer: a block matmul's stages.
  bool dynamicSharedHalf = false;
  /// The tensors the kernel reads or writes, by argument number, ascending.
  llvm::SmallVector<unsigned> tensors;
  /// The kernel's body as a warp loop (`WarpLoop`), if it is one.
  std::optional<WarpLoop> warpLoop;
  /// The kernel's body as a block matmul (`BlockMatmul`), if it is one.
  std::optional<BlockMatmul> blockMatmul;
  /// Tensors that hold zeros when the kernel starts and that it accumulates
  /// in registers in one element loop run once per block, touching them
  /// nowhere else: the loop starts from zero instead of loading them
  /// (`markZeroAccumulators`).
  llvm::DenseSet<unsigned> zeroAccumulators;
  /// Loads (expression ids) of tensors no kernel writes whose tiles the
  /// kernel's loop streams, and how many of the block's first iterations
  /// of them it prefetches into L2 before waiting on the kernels before it
  /// (`planPrefetches`).
  llvm::SmallVector<unsigned> prefetchLoads;
  int64_t prefetchIterations = 0;
  /// The loop whose iterations those are: the body, or the first statement
  /// of the body's sequence.
  unsigned prefetchLoop = 0;
  /// An elementwise kernel that the last block adding into each output
  /// tile of this split accumulation runs for that tile
  /// (`fuseSplitEpilogues`), with this kernel's threads: after its atomic
  /// adds a block counts itself on counter `epilogueCounters` + its grid
  /// point (f32, in the host's `__counters` buffer); the one that counts
  /// `epilogueArrivals` (the chunks of every producer of the epilogue) runs
  /// it and clears the counter. `epilogueFlag` is the element of the f32
  /// shared buffer that tells the block's threads. Producers of one
  /// epilogue share `epilogueCounters` (their launches may merge).
  std::shared_ptr<const Kernel> epilogue;
  int64_t epilogueCounters = 0, epilogueArrivals = 0, epilogueFlag = 0;
  /// The `min_blocks` of the options the kernel was partitioned with (its
  /// statement's): tile sizes shrink until it has that many blocks.
  int64_t minBlocks = 0;

  /// Whether the kernel is an online warp loop split across blocks.
  bool splitsOnline() const {
    return warpLoop && warpLoop->online && splitChunks > 1;
  }
  /// Whether the kernel takes the host's counters (split epilogues, online
  /// warp loops split across blocks).
  bool usesCounters() const { return epilogue || splitsOnline(); }
};

struct PartitionOptions {
  unsigned blockSize = 256;
  /// Whether to form `Kernel::perElementLoops`.
  bool elementLoops = true;
  /// Whether matmuls may use the matrix units: buffered ones through
  /// `StoreBuffers::mma`, those of element loops with lane blocks through
  /// `Kernel::matrixUnits`.
  bool mma = false;
  /// Whether, with `mma`, loops may run as `Kernel::warpLoop`.
  bool warpLoops = true;
  /// Whether, with `mma`, matmul element loops may run as
  /// `Kernel::blockMatmul`.
  bool blockMatmul = false;
  /// Whether a warp loop's f32 products of its tiles by f16 loads (cast up)
  /// may run on the matrix units as tf32 (m16n8k8), the tiles rounded to
  /// tf32 (10 mantissa bits, as f16 has); else only f16 products qualify.
  bool tf32 = false;
  /// Whether split accumulations add aligned runs of 2 or 4 f32 elements
  /// with one `red.global.add.v4.f32` / `.v2` (PTX 8.1, sm_90 and later;
  /// NVVM only), else element by element with `memref.atomic_rmw`.
  bool vectorAtomics = false;
  /// Most chunks a split accumulation may use (1: never split; a sum over
  /// 16 or more elements per iteration is capped by its iterations only). A
  /// kernel is split only while it has fewer than `minBlocks` blocks, into
  /// as few chunks as reach that.
  unsigned splitK = 1;
  int64_t minBlocks = 0;
  /// Most slices of a split accumulation's chunk per block
  /// (`Kernel::kSlices`; 1: never).
  unsigned kSlices = 8;
  /// Most threads a split accumulation's sum over consecutive elements is
  /// cut among (`Kernel::reduceLanes`; 1: never).
  unsigned reduceLanes = 32;
  /// Whether buffered reductions with fewer result elements than the block
  /// has threads are computed by groups of threads
  /// (`StoreBuffers::groupReductions`), else one thread per result element.
  bool groupReductions = true;
  /// Most elements a thread computes together in an element loop.
  unsigned threadElements = 16;
  /// A kernel with fewer blocks than this whose body (below the grid) is a
  /// sequence becomes one kernel per statement of the sequence, each under
  /// the same grid loops plus its own parallel loops (0: never).
  int64_t fissionBlocks = 0;
  /// Each tensor's element kind (split accumulations need f32 atomics).
  llvm::ArrayRef<ElementKind> tensorKinds;
  /// Each tensor's role (a warp loop stores its tile unless the tile is an
  /// intermediate nothing outside the loop reads; empty: always stores).
  llvm::ArrayRef<TensorRole> tensorRoles;
  /// Elements of each tensor.
  llvm::ArrayRef<int64_t> tensorElements;
  /// Bytes of shared memory per kernel for tile buffers.
  int64_t sharedMemoryBytes = 48 * 1024;
};

/// Appends the statements of the sequence tree `id`, in program order,
/// skipping nops.
void collectSequence(const interp::Plan &plan, unsigned id,
                     llvm::SmallVectorImpl<unsigned> &out);

/// Whether `access` indexes some dimension by loop variable `var` (its
/// region moves with that loop's iterations).
bool movesWithLoop(const interp::Access &access, unsigned var);

/// The stores in statement `id` and the loads their values read.
void collectAccesses(const interp::Plan &plan, unsigned id,
                     llvm::SmallVectorImpl<const interp::Access *> &writes,
                     llvm::SmallVectorImpl<const interp::Access *> &reads);

/// The load expressions (ids, each once) of the stores in statement `id`.
void collectLoads(const interp::Plan &plan, unsigned id,
                  llvm::SmallVectorImpl<unsigned> &loads);

/// Calls `fn` on every matmul that expression `id` reaches through
/// elementwise ops (unary, binary, cast): the matmuls whose elements are
/// computed at the same element indices as `id`'s.
void forEachLaneMatmul(const interp::Plan &plan, unsigned id,
                       llvm::function_ref<void(unsigned)> fn);

/// The load of f16 elements a warp loop's product `matmul` (`WarpLoop`)
/// multiplies its tiles by: its right operand below aliases when both
/// operands are f16; with `tf32`, also when the left operand is f32 and the
/// right one casts such a load to f32 (Figure 4(f)'s `E @ cast(V)`, whose
/// right operand tf32 holds exactly). Nothing for any other matmul.
std::optional<unsigned> getWarpProductLoad(const interp::Plan &plan,
                                           unsigned matmul, bool tf32);

/// Whether `kind` is one of the 16-bit floats the matrix units multiply
/// (mma.sync m16n8k16: f16 or bf16; both operands of one kind).
inline bool isHalfKind(ElementKind kind) {
  return kind == ElementKind::F16 || kind == ElementKind::BF16;
}

/// The expression below `id`'s aliases (exact casts, copies the plan
/// shares): `id` itself when it is no alias.
unsigned skipAliases(const interp::Plan &plan, unsigned id);

/// The operand of expression `id` when `id` is the transpose of it (a
/// permute `[0, ..., r-3, r-1, r-2]` or a transpose of the last two
/// dimensions): B^T of `A B^T`, whose k runs along the operand's rows.
std::optional<unsigned> getTransposedOperand(const interp::Plan &plan,
                                             unsigned id);

/// Elements of k each of a matmul's `Kernel::reduceLanes` lanes reads per
/// step when matmul `id` may be cut along k: its right operand is the
/// transpose of a load (k contiguous in the loaded tensor, as in
/// nn.Linear's `[N, K]` weights and attention's K^T) and the matrix units do
/// not take it (`mma` off, or rows or operands they do not fit). 16 bytes of
/// the loaded tensor's element, narrowed until it divides k; 0 otherwise.
int64_t getKLaneWidth(const interp::Plan &plan, unsigned id,
                      llvm::ArrayRef<ElementKind> tensorKinds, bool mma);

/// Whether the value store `id` stores reduces (a Reduce node under it).
bool storesReduction(const interp::Plan &plan, unsigned id);

/// Whether two accesses select the same region in every iteration.
bool sameAccess(const interp::Access &a, const interp::Access &b);

/// Whether tensor `tensor` is named in a `tile.may_alias` pair of `aliases`.
bool isAliased(llvm::ArrayRef<std::pair<unsigned, unsigned>> aliases,
               unsigned tensor);

/// What `foldPlan` folded.
struct PlanFolds {
  unsigned loops = 0, accumulations = 0;
};

/// Folds what the plan's concrete tile sizes make trivial (FoldPlan.cpp):
/// loops of one trip around a store, in a sequence inside another loop,
/// become their stores, their variable's indices the constant slices they
/// select; an accumulation `T[r] = T[r] + g` that is
/// the only store to a tensor starting as zeros (`startsZero`, not in
/// `aliases`), run once per iteration of loops that each move r, becomes
/// the store `T[r] = g`.
PlanFolds foldPlan(interp::Plan &plan, llvm::ArrayRef<bool> startsZero,
                   llvm::ArrayRef<std::pair<unsigned, unsigned>> aliases);

/// The kernels of `plan`, in launch order. `aliases` lists pairs of tensors
/// that may overlap (`tile.may_alias`). Each top-level statement is
/// partitioned with `optionsFor` of its op (a statement configured apart,
/// `tile.gpu_config` on its op), or `options` where that gives null.
std::vector<Kernel> partitionPlan(
    interp::Plan &plan, llvm::ArrayRef<std::pair<unsigned, unsigned>> aliases,
    const PartitionOptions &options,
    llvm::function_ref<const PartitionOptions *(Operation *)> optionsFor =
        nullptr);

/// Removes from `kernels` those that copy one tensor into another of the same
/// element kind and row-major layout (the loop nests of reshapes) when the
/// two tensors can share one buffer, and returns, for every tensor, the
/// tensor whose buffer it uses (itself if none other). A copy into an
/// intermediate makes the intermediate use its source's buffer when nothing
/// else writes the copy's destination, nothing reads it before the copy and
/// nothing writes the source after it; a copy of an intermediate into an
/// output that nothing else touches makes the intermediate use the output's
/// buffer when nothing writes the intermediate after the copy (both start
/// as zeros). Tensors that `aliases` names (`tile.may_alias`) keep their
/// buffers.
/// Whether `kernel` is a copy `elideCopies` may remove (tensor to tensor
/// of one layout and element kind, every element once).
bool isCopyKernel(const interp::Plan &plan, const Kernel &kernel,
                  llvm::ArrayRef<ElementKind> kinds,
                  llvm::ArrayRef<int64_t> numElements);

llvm::SmallVector<unsigned>
elideCopies(const interp::Plan &plan, std::vector<Kernel> &kernels,
            llvm::ArrayRef<TensorRole> roles, llvm::ArrayRef<ElementKind> kinds,
            llvm::ArrayRef<int64_t> numElements,
            llvm::ArrayRef<std::pair<unsigned, unsigned>> aliases);

/// Fills `Kernel::prefetchLoads`, `Kernel::prefetchIterations` and
/// `Kernel::prefetchLoop` (Prefetch.cpp) for kernels whose body below the
/// grid is one loop or a sequence starting with one: the
/// loads in it of tensors (of element kinds `kinds`) that no statement of
/// `plan` stores to, whose region depends only on the grid's and the loop's
/// variables and is contiguous along its innermost dimension; as many first
/// iterations (at least one, at most the block's) as `budgetBytes` of their
/// tiles hold. Nothing when `budgetBytes` is not positive.
void planPrefetches(const interp::Plan &plan,
                    llvm::MutableArrayRef<Kernel> kernels,
                    llvm::ArrayRef<ElementKind> kinds, int64_t budgetBytes);

/// Fuses each kernel that reads, at exactly their tiles, the f32 tensors
/// of the split accumulations just before it (same grid, one store per
/// block of each chunk), into them as their `Kernel::epilogue`, when it
/// needs no shared memory or scratch and touches nothing they touch
/// besides those tensors (SplitEpilogue.cpp), and when each of their
/// blocks runs at least `minTrips` iterations (every block then waits for
/// its counter: short blocks pay more for that than the launch saves).
/// Returns the counters the epilogues use.
int64_t
fuseSplitEpilogues(const interp::Plan &plan, std::vector<Kernel> &kernels,
                   llvm::ArrayRef<std::pair<unsigned, unsigned>> aliases,
                   int64_t minTrips);

/// Fills `Kernel::zeroAccumulators` (InitialValues.cpp): for each tensor
/// that starts as zeros (`startsZero`) and is not in `aliases`, the first of
/// `kernels` that touches it, if that kernel is not a split accumulation and
/// only touches the tensor as an element loop's accumulator (loaded before
/// the loop, carried in registers, stored after it) in a loop that each
/// block runs once.
void markZeroAccumulators(
    const interp::Plan &plan, llvm::MutableArrayRef<Kernel> kernels,
    llvm::ArrayRef<bool> startsZero,
    llvm::ArrayRef<std::pair<unsigned, unsigned>> aliases);

/// The tensors whose starting contents no kernel can read
/// (InitialValues.cpp): the first of `kernels` that touches each stores to
/// every element of it (of shape `shapes[t]`) and loads none of it (a zero
/// accumulator's load before its loop is no load). Tensors
/// that `aliases` names are never overwritten.
llvm::BitVector
findOverwrittenTensors(const interp::Plan &plan, llvm::ArrayRef<Kernel> kernels,
                       llvm::ArrayRef<llvm::ArrayRef<int64_t>> shapes,
                       llvm::ArrayRef<std::pair<unsigned, unsigned>> aliases);

/// Wraps each top-level statement of `program` that carries a batch
/// dimension of its matmuls whole in its tiles (`tile.full`; nothing mixes
/// it) in a loop over that dimension with step 1, the tiles cut to one
/// element of it (BatchLoops.cpp), so that it can be the grid. Returns how
/// many loops were added.
unsigned addBatchLoops(ProgramOp program);

/// Gives each iteration of a top-level loop its own copy of the
/// intermediates the loop clears and recomputes in every iteration
/// (Privatize.cpp), so that the loop can be the grid; `sizes` binds the
/// symbolic steps. Returns how many tensors were expanded. The copies are
/// counted under those steps, so the symbols of the expanded loops' steps
/// are added to `pinned`: a size that later changed would index copies
/// that do not exist.
unsigned
privatizeTensors(ProgramOp program, const llvm::StringMap<int64_t> &sizes,
                 llvm::ArrayRef<std::pair<unsigned, unsigned>> aliases,
                 llvm::StringSet<> &pinned);

} // namespace mlir::tileir::gpu_lowering

#endif // TILEDIALECT_LIB_CONVERSION_TILETOGPU_PARTITION_H
