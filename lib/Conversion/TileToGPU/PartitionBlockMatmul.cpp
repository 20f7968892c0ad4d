//===- PartitionBlockMatmul.cpp - Matmul tiles staged in shared memory ----===//
//
// A prefill GEMM's tile (64 to 128 rows of A by as many columns of B) run as
// an element loop reads its operands from global memory once per warp and
// computes on the vector units or in 16-row matrix-unit strips: 84 TFLOP/s
// on the H200 for Llama-3-8B's MLP at 256 rows, 6.5x slower than cuBLAS.
// `planBlockMatmul` runs such a loop as a `BlockMatmul` instead.
//
//===----------------------------------------------------------------------===//

#include "PartitionInternal.h"

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::interp;
using namespace mlir::tileir::gpu_lowering;

/// The fewest blocks a block matmul's split keeps when it joins short
/// chunks: about one per SM of the GPUs it was measured on (132 on the
/// H100 and H200).
static constexpr int64_t kJoinedSplitBlocks = 128;

using Kind = ExprNode::Kind;

/// Whether `id` is a load of a tensor of 16-bit floats of `kind` (f16 or
/// bf16).
static bool isHalfLoad(const Plan &plan, unsigned id,
                       ArrayRef<ElementKind> kinds, ElementKind kind) {
  const ExprNode &node = plan.exprs[id];
  return node.kind == Kind::Load && node.elementKind == kind &&
         node.access.tensor < kinds.size() && kinds[node.access.tensor] == kind;
}

/// The block matmul of element loop `id`, warps not yet chosen: its body
/// one accumulation `S = S + A B` (`getSplitAddend`) whose matmul has loads
/// of f16 (or of bf16) as both operands (B possibly transposed), one batch,
/// and m, n multiples of 64 and k of the stage's (`BlockMatmul::kStage`).
static std::optional<BlockMatmul>
getBlockMatmul(const Plan &plan, unsigned id,
               ArrayRef<std::pair<unsigned, unsigned>> aliases,
               ArrayRef<ElementKind> kinds) {
  const StmtNode &loop = plan.stmts[id];
  if (loop.kind != StmtNode::Kind::Loop ||
      plan.stmts[loop.first].kind != StmtNode::Kind::Store)
    return std::nullopt;
  std::optional<unsigned> addend = getSplitAddend(plan, id, aliases, kinds);
  if (!addend)
    return std::nullopt;
  const ExprNode &matmul = plan.exprs[*addend];
  if (matmul.kind != Kind::Matmul || matmul.elementKind != ElementKind::F32 ||
      matmul.sizes[0] != 1)
    return std::nullopt;
  BlockMatmul block;
  block.store = loop.first;
  block.matmul = *addend;
  block.m = matmul.sizes[1];
  block.k = matmul.sizes[2];
  block.n = matmul.sizes[3];
  if (block.m % 64 != 0 || block.n % 64 != 0 || block.k % block.kStage != 0)
    return std::nullopt;
  block.a = skipAliases(plan, matmul.operands[0]);
  ElementKind kind = plan.exprs[block.a].elementKind;
  if (!isHalfKind(kind) || !isHalfLoad(plan, block.a, kinds, kind))
    return std::nullopt;
  block.bf16 = kind == ElementKind::BF16;
  block.b = skipAliases(plan, matmul.operands[1]);
  if (!isHalfLoad(plan, block.b, kinds, kind)) {
    std::optional<unsigned> source =
        getTransposedOperand(plan, matmul.operands[1]);
    if (!source)
      return std::nullopt;
    block.b = skipAliases(plan, *source);
    block.bTransposed = true;
    if (!isHalfLoad(plan, block.b, kinds, kind))
      return std::nullopt;
  }
  return block;
}

void gpu_lowering::planBlockMatmul(
    const Plan &plan, ArrayRef<std::pair<unsigned, unsigned>> aliases,
    const PartitionOptions &options, Kernel &kernel) {
  unsigned body = kernel.body;
  if (!options.mma || !options.blockMatmul || kernel.warpLoop ||
      kernel.parts.size() != 1 || kernel.parts.front().loop ||
      !kernel.perElementLoops.contains(body))
    return;
  std::optional<BlockMatmul> block =
      getBlockMatmul(plan, body, aliases, options.tensorKinds);
  if (!block)
    return;
  // Warps of 32 x 32 outputs (16 accumulator tiles of 16 x 8 are 64 f32
  // registers a thread), of 64 x 64 in tiles of 128 x 128 or more (4 warps
  // for 128 x 128: 2-9% faster on the H200 than 8 of 64 x 32, fewer
  // fragment loads per product).
  int64_t warpRows = 32, warpCols = 32;
  if (block->m >= 128 && block->n >= 128)
    warpRows = warpCols = 64;
  block->warpsM = unsigned(block->m / warpRows);
  block->warpsN = unsigned(block->n / warpCols);
  unsigned threads = 32 * block->warpsM * block->warpsN;
  // The stages live in dynamic shared memory (the kernel's f16 buffer);
  // fewer stages where they would not fit.
  while (block->stages > 2 &&
         block->stages * block->stageElements() * 2 > kMaxDynamicSharedBytes)
    --block->stages;
  int64_t shared = block->stages * block->stageElements();
  if (threads > 1024 || kernel.sharedHalfElements ||
      shared * 2 > kMaxDynamicSharedBytes ||
      kernel.sharedElements * 4 > options.sharedMemoryBytes)
    return;
  // A split whose chunks are short adds about as many bytes atomically as
  // it reads: m n f32 sums per chunk against (m + n) k f16 operands. A
  // block matmul keeps a split only where a chunk's k is at least
  // 8 m n / (m + n) (512 for 128 x 128 tiles); decode attention's scores
  // (k = d = 128) were split in two chunks of 64 and ran 42 us on the H200
  // for 25 MB. Beyond a block per SM, more chunks add sums without adding
  // SMs: chunks shorter than 32 m n / (m + n) are joined two by two while
  // the grid keeps `kJoinedSplitBlocks` blocks. The P.V of Llama-3-70B's
  // GQA decode (64 x 64 tiles, 4096 keys, 32 tiles) ran 18.6 us in 16
  // chunks of 256 keys, 13.1 in 8, 11.8 in 4 (128 blocks) on the H200
  // (bench/results/h200-2026-11-28-attention-tuned.md).
  auto chunkReads = [&](int64_t trips) {
    return trips * block->k * (block->m + block->n);
  };
  if (kernel.splitChunks > 1 &&
      chunkReads(kernel.chunkTrips) < 8 * block->m * block->n) {
    kernel.numBlocks /= kernel.splitChunks;
    kernel.splitChunks = 1;
    kernel.chunkTrips = 0;
    kernel.splitAddend = 0;
  }
  while (kernel.splitChunks > 1 &&
         chunkReads(kernel.chunkTrips) < 32 * block->m * block->n) {
    int64_t trips = kernel.chunkTrips * kernel.splitChunks;
    int64_t chunks = llvm::divideCeil(trips, 2 * kernel.chunkTrips);
    int64_t blocks = kernel.numBlocks / kernel.splitChunks * chunks;
    if (blocks < kJoinedSplitBlocks)
      break;
    kernel.numBlocks = blocks;
    kernel.chunkTrips *= 2;
    kernel.splitChunks = unsigned(chunks);
  }
  kernel.threads = threads;
  kernel.sharedHalfElements = shared;
  kernel.dynamicSharedHalf = true;
  // The block's warps take the place of the k slices and lanes planned for
  // the element loop.
  kernel.kSlices = 1;
  kernel.reduceLanes = 1;
  kernel.kLaneWidth = 1;
  kernel.kLaneRows = 1;
  kernel.kLanesShort = false;
  kernel.slicedLoops.erase(body);
  kernel.slicedAddends.erase(block->store);
  kernel.blockMatmul = std::move(*block);
}
