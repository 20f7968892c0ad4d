//===- Partition.cpp - Kernels, grids and on-chip buffers of a plan -------===//
//
// The partitioner's entry: one kernel per top-level statement, each built by
// the steps of PartitionInternal.h (grid, buffers, split-k, k slices, warp
// loops), and the fission of kernels with too few blocks.
//
//===----------------------------------------------------------------------===//

#include "PartitionInternal.h"

#include "llvm/ADT/STLExtras.h"

#include <set>

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::interp;
using namespace mlir::tileir::gpu_lowering;

/// The kernel running statement `id` inside the grid loops `outer`: the
/// outermost parallel loops of `id` join the grid, the rest runs in each
/// block.
static Kernel buildKernel(const Plan &plan,
                          ArrayRef<std::pair<unsigned, unsigned>> aliases,
                          const PartitionOptions &options, unsigned id,
                          ArrayRef<GridLoop> outer) {
  Kernel kernel;
  planGrid(plan, aliases, options, id, outer, kernel);
  int64_t widest = planBuffers(plan, aliases, options, kernel);
  bool elementSplit = planSplitK(plan, aliases, options, kernel);
  // Threads for the widest tile; a kernel that is one matmul accumulation
  // loop gets `thread_elements` elements per thread (a block of them, see
  // KernelEmitter) instead: lanes then share their operand loads.
  std::optional<int64_t> matmulElements =
      getMatmulLoopElements(plan, plan.stmts[kernel.body], kernel);
  if (matmulElements)
    widest = llvm::divideCeil(
        *matmulElements,
        getMatmulThreadElements(options, *matmulElements, kernel.numBlocks,
                                kernel.chunkTrips,
                                hasMatmulRows(plan, plan.stmts[kernel.body])));
  int64_t warps = (widest + 31) / 32;
  kernel.threads = unsigned(
      std::min<int64_t>(options.blockSize, std::max<int64_t>(32, warps * 32)));
  planKSlices(plan, options, matmulElements, widest, elementSplit, kernel);
  // A one-chunk split (taken for k lanes, `planSplitK`) is the only writer
  // of its sums: a sliced loop, which stores them, when it got lanes; not
  // split at all when it got none.
  if (elementSplit && kernel.splitChunks == 1) {
    if (kernel.reduceLanes > 1) {
      kernel.slicedLoops.insert(kernel.body);
      kernel.slicedAddends[plan.stmts[kernel.body].first] = kernel.splitAddend;
    } else {
      kernel.splitAddend = 0;
      kernel.chunkTrips = 0;
      elementSplit = false;
    }
  }
  // Element-loop matmul accumulations that are not split (the grid has
  // `min_blocks` blocks) are still cut among k slices, so that the block
  // has more warps than their lanes fill (`Kernel::slicedLoops`).
  if (options.splitK > 1 && options.kSlices > 1 && kernel.splitChunks == 1 &&
      !elementSplit && kernel.parts.size() == 1 && !kernel.parts.front().loop)
    planSlicedLoops(plan, aliases, options, kernel);
  planWarpLoop(plan, aliases, options, kernel);
  planBlockMatmul(plan, aliases, options, kernel);
  kernel.maxLanes = std::max(1u, options.threadElements);
  kernel.minBlocks = options.minBlocks;
  kernel.matrixUnits = options.mma;
  kernel.vectorAtomics = options.vectorAtomics;
  SmallVector<const Access *> writes, reads;
  collectAccesses(plan, kernel.body, writes, reads);
  std::set<unsigned> tensors;
  for (const Access *a : writes)
    tensors.insert(a->tensor);
  for (const Access *a : reads)
    tensors.insert(a->tensor);
  kernel.tensors.assign(tensors.begin(), tensors.end());
  return kernel;
}

/// Loop `id` distributed over the statements of its body (loop fission of
/// a loop that is not a grid loop): one new loop per statement, with the
/// same variable and range, when no statement touches a tensor another one
/// writes, so that no iteration of one statement depends on any iteration of
/// another. With `flows`, statements may also touch what another writes
/// where the two accesses are disjoint across iterations (a tile of the
/// loop's own): running every iteration of the earlier statement first
/// then gives the later one the same values (`S1: T[tile v] = ...` before
/// `S2: U += f(T[tile v])`). Then the loop must have such a flow, each
/// statement a flow leaves must be a loop itself (a GEMM's loop over K:
/// work worth a grid of its own), and each tensor that flows must also be
/// read after the loop, so that fission keeps in memory only what is there
/// anyway. A FlashAttention loop's statements are straight-line tile
/// statements, so it stays fused, its logit tile on chip, even where that
/// tile is also read after the loop. Empty when the body is one statement
/// or the test fails.
static SmallVector<unsigned>
distributeLoop(Plan &plan, ArrayRef<std::pair<unsigned, unsigned>> aliases,
               unsigned id, bool flows) {
  if (plan.stmts[id].kind != StmtNode::Kind::Loop)
    return {};
  unsigned var = plan.stmts[id].var;
  SmallVector<unsigned> leaves;
  collectSequence(plan, plan.stmts[id].first, leaves);
  if (leaves.size() < 2)
    return {};
  SmallVector<SmallVector<const Access *>> writes(leaves.size()),
      reads(leaves.size());
  for (auto [i, leaf] : llvm::enumerate(leaves))
    collectAccesses(plan, leaf, writes[i], reads[i]);
  SmallVector<unsigned> flowing;
  for (size_t i = 0; i < leaves.size(); ++i)
    for (size_t j = 0; j < leaves.size(); ++j) {
      if (i == j)
        continue;
      for (const Access *w : writes[i])
        for (const Access *x : llvm::concat<const Access *const>(
                 ArrayRef(writes[j]), ArrayRef(reads[j]))) {
          if (!mayOverlap(aliases, w->tensor, x->tensor))
            continue;
          if (!flows || w->tensor != x->tensor ||
              !separatedAcross(*w, *x, var, var, true))
            return {};
          if (i < j && llvm::is_contained(reads[j], x)) {
            // Only a statement with a loop of its own (a GEMM's K loop)
            // passes tiles on: straight-line tile statements (a
            // FlashAttention iteration's) stay fused, their tiles on chip.
            if (plan.stmts[leaves[i]].kind != StmtNode::Kind::Loop)
              return {};
            flowing.push_back(w->tensor);
          }
        }
    }
  if (flows) {
    if (flowing.empty())
      return {};
    SmallVector<const Access *> allWrites, allReads, insideWrites, insideReads;
    collectAccesses(plan, plan.root, allWrites, allReads);
    collectAccesses(plan, id, insideWrites, insideReads);
    for (unsigned tensor : flowing)
      if (llvm::none_of(allReads, [&](const Access *r) {
            return r->tensor == tensor && !llvm::is_contained(insideReads, r);
          }))
        return {};
  }
  SmallVector<unsigned> loops;
  for (unsigned leaf : leaves) {
    StmtNode loop = plan.stmts[id];
    loop.first = leaf;
    loops.push_back(unsigned(plan.stmts.size()));
    plan.stmts.push_back(loop);
  }
  return loops;
}

/// Appends the kernels of statement `id` under the grid loops `outer`: one
/// kernel, or, when it has fewer than `fissionBlocks` blocks and its body is
/// a sequence, the kernels of each statement of the sequence under the same
/// grid loops. That is loop fission of the grid loops, legal because they
/// are parallel: no iteration touches what another writes. Consecutive
/// statements without loops that would get no more blocks of their own stay
/// together, in one kernel whose body is a new sequence of them: fission
/// would only add launches (the casts and cache appends of a fused head
/// loop, its division and output copy). A loop gets its own kernel even
/// then (as a kernel's body it may run as an element loop or a warp loop),
/// as does a copy `elideCopies` may remove. A kernel with too few blocks
/// whose body is a loop over independent statements (projections fused into
/// one loop over the model dimension) is distributed (`distributeLoop`):
/// each loop may then be split (`split_k`) on its own.
static void addKernels(Plan &plan,
                       ArrayRef<std::pair<unsigned, unsigned>> aliases,
                       const PartitionOptions &options, unsigned id,
                       ArrayRef<GridLoop> outer, std::vector<Kernel> &kernels) {
  Kernel kernel = buildKernel(plan, aliases, options, id, outer);
  SmallVector<unsigned> leaves;
  bool whole = kernel.parts.size() == 1 && !kernel.parts.front().loop;
  bool fission = kernel.numBlocks < options.fissionBlocks && whole &&
                 kernel.splitChunks == 1;
  // Whether the kernel's loop was distributed, its loops' kernels added.
  auto distributed = [&](bool flows) {
    SmallVector<unsigned> loops =
        distributeLoop(plan, aliases, kernel.body, flows);
    for (unsigned loop : loops)
      addKernels(plan, aliases, options, loop, kernel.grid, kernels);
    return !loops.empty();
  };
  if (fission) {
    if (distributed(/*flows=*/false))
      return;
    collectSequence(plan, kernel.body, leaves);
  }
  // A split loop with too few blocks of its own whose statements pass
  // tiles of its iterations on (a fused GEMM whose output tile an RMS sum
  // reads): distributed, each statement's loop may be a grid loop or split
  // on its own, instead of one block running whole tiles one after another.
  if (whole && kernel.splitChunks > 1 &&
      kernel.numBlocks / kernel.splitChunks < options.fissionBlocks &&
      distributed(/*flows=*/true))
    return;
  if (leaves.size() < 2) {
    kernels.push_back(std::move(kernel));
    return;
  }
  // The run of small statements so far, each with its kernel alone (a
  // statement without loops is never split further).
  std::vector<std::pair<unsigned, Kernel>> small;
  auto flush = [&] {
    if (small.size() == 1)
      kernels.push_back(std::move(small.front().second));
    if (small.size() > 1) {
      // seq(s1, seq(s2, ... sn)), built from the back.
      unsigned sequence = small.back().first;
      for (const auto &[leaf, alone] :
           llvm::reverse(ArrayRef(small).drop_back())) {
        StmtNode seq;
        seq.kind = StmtNode::Kind::Seq;
        seq.first = leaf;
        seq.second = sequence;
        sequence = unsigned(plan.stmts.size());
        plan.stmts.push_back(seq);
      }
      kernels.push_back(
          buildKernel(plan, aliases, options, sequence, kernel.grid));
    }
    small.clear();
  };
  for (unsigned leaf : leaves) {
    if (plan.stmts[leaf].kind != StmtNode::Kind::Loop) {
      Kernel alone = buildKernel(plan, aliases, options, leaf, kernel.grid);
      if (alone.numBlocks == kernel.numBlocks &&
          !isCopyKernel(plan, alone, options.tensorKinds,
                        options.tensorElements)) {
        small.push_back({leaf, std::move(alone)});
        continue;
      }
      flush();
      kernels.push_back(std::move(alone));
      continue;
    }
    flush();
    addKernels(plan, aliases, options, leaf, kernel.grid, kernels);
  }
  flush();
}

std::vector<Kernel>
gpu_lowering::partitionPlan(
    Plan &plan, ArrayRef<std::pair<unsigned, unsigned>> aliases,
    const PartitionOptions &options,
    llvm::function_ref<const PartitionOptions *(Operation *)> optionsFor) {
  SmallVector<unsigned> topLevel;
  collectSequence(plan, plan.root, topLevel);
  std::vector<Kernel> kernels;
  for (unsigned id : topLevel) {
    const PartitionOptions *own =
        optionsFor ? optionsFor(plan.stmts[id].op) : nullptr;
    addKernels(plan, aliases, own ? *own : options, id, {}, kernels);
  }
  return kernels;
}
