//===- PartitionSplitK.cpp - Accumulations split across blocks ------------===//

#include "PartitionInternal.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::interp;
using namespace mlir::tileir::gpu_lowering;

using Kind = ExprNode::Kind;

/// If store `id` is `S = S + g`: a store into an f32 tensor whose value adds
/// a load of the stored region (same access, same shape) to an expression g
/// that reads nothing the store may write, returns g. With `extremes`, also
/// `S = max(S, g)` and `S = min(S, g)` (maxNum / minNum: like a sum, any
/// grouping of the iterations gives the same S).
static std::optional<unsigned>
getAccumulationAddend(const Plan &plan, unsigned id,
                      ArrayRef<std::pair<unsigned, unsigned>> aliases,
                      ArrayRef<ElementKind> tensorKinds, bool extremes) {
  const StmtNode &store = plan.stmts[id];
  if (store.kind != StmtNode::Kind::Store ||
      store.access.tensor >= tensorKinds.size() ||
      tensorKinds[store.access.tensor] != ElementKind::F32)
    return std::nullopt;
  const ExprNode &root = plan.exprs[store.first];
  bool combines = root.binaryFn == BinaryFn::Add ||
                  (extremes && (root.binaryFn == BinaryFn::Max ||
                                root.binaryFn == BinaryFn::Min));
  if (root.kind != Kind::Binary || !combines ||
      root.elementKind != ElementKind::F32)
    return std::nullopt;
  for (unsigned side = 0; side < 2; ++side) {
    const ExprNode &acc = plan.exprs[root.operands[side]];
    unsigned addend = root.operands[1 - side];
    if (acc.kind != Kind::Load || !sameAccess(acc.access, store.access) ||
        acc.shape != root.shape)
      continue;
    if (!readsTensor(plan, addend, store.access.tensor, aliases))
      return addend;
  }
  return std::nullopt;
}

std::optional<unsigned>
gpu_lowering::getSplitAddend(const Plan &plan, unsigned id,
                             ArrayRef<std::pair<unsigned, unsigned>> aliases,
                             ArrayRef<ElementKind> tensorKinds,
                             bool extremes) {
  return getAccumulationAddend(plan, plan.stmts[id].first, aliases,
                               tensorKinds, extremes);
}

std::optional<llvm::DenseMap<unsigned, unsigned>>
gpu_lowering::getSplitStores(const Plan &plan, unsigned id,
                             ArrayRef<std::pair<unsigned, unsigned>> aliases,
                             ArrayRef<ElementKind> tensorKinds,
                             bool extremes) {
  const StmtNode &loop = plan.stmts[id];
  SmallVector<unsigned> leaves;
  collectSequence(plan, loop.first, leaves);
  llvm::DenseMap<unsigned, unsigned> addends;
  SmallVector<const Access *> accumulated, writes, reads;
  for (unsigned leaf : leaves) {
    const StmtNode &stmt = plan.stmts[leaf];
    if (stmt.kind != StmtNode::Kind::Store ||
        movesWithLoop(stmt.access, loop.var)) {
      collectAccesses(plan, leaf, writes, reads);
      continue;
    }
    std::optional<unsigned> addend =
        getAccumulationAddend(plan, leaf, aliases, tensorKinds, extremes);
    if (!addend)
      return std::nullopt;
    addends[leaf] = *addend;
    accumulated.push_back(&stmt.access);
    postOrder(plan, *addend, [&](unsigned e) {
      if (plan.exprs[e].kind == Kind::Load)
        reads.push_back(&plan.exprs[e].access);
    });
  }
  if (addends.empty())
    return std::nullopt;
  // Each accumulated tensor is touched by its own accumulation only.
  for (const Access *t : accumulated) {
    auto touches = [&](const Access *other) {
      return other != t && mayOverlap(aliases, t->tensor, other->tensor);
    };
    if (llvm::any_of(accumulated, touches) || llvm::any_of(writes, touches) ||
        llvm::any_of(reads, touches))
      return std::nullopt;
  }
  // Everything else is private to its iteration.
  if (!iterationsIndependent(writes, reads, loop.var, aliases))
    return std::nullopt;
  return addends;
}

/// Iterations from which a max or min accumulation splits.
static constexpr int64_t kLongExtremes = 16;

/// Elements a split sum adds per accumulated element and iteration from
/// which its chunks are not capped by `split_k`.
static constexpr int64_t kWideSum = 16;

/// Iterations per chunk for `trips` iterations cut into at least `fewest`
/// chunks where `most` allows: as few chunks as that takes (chunks of
/// trips / fewest iterations, rounded down, would make), at most `most`, of
/// equal length but for the last (64 in 3 or more: 4 x 16, not
/// 21 + 21 + 21 + 1).
static int64_t getChunkTrips(int64_t trips, int64_t fewest, int64_t most) {
  fewest = std::clamp<int64_t>(fewest, 1, trips);
  most = std::clamp<int64_t>(most, fewest, trips);
  int64_t length = std::max<int64_t>(1, trips / fewest);
  int64_t chunks = std::min<int64_t>(most, llvm::divideCeil(trips, length));
  return llvm::divideCeil(trips, chunks);
}

bool gpu_lowering::planSplitK(const Plan &plan,
                              ArrayRef<std::pair<unsigned, unsigned>> aliases,
                              const PartitionOptions &options, Kernel &kernel) {
  unsigned body = kernel.body;
  const StmtNode &only = plan.stmts[body];
  if (options.splitK < 2 || kernel.parts.size() != 1 ||
      kernel.parts.front().loop || only.kind != StmtNode::Kind::Loop)
    return false;
  bool fewBlocks = kernel.numBlocks < options.minBlocks;
  bool elementLoop = kernel.perElementLoops.contains(body);
  if (!fewBlocks && !elementLoop)
    return false;
  int64_t trips = (only.end - only.start) / only.step;
  int64_t wanted =
      (options.minBlocks + kernel.numBlocks - 1) / kernel.numBlocks;
  // A matmul accumulation whose B is a transposed load runs with k lanes
  // (`planKLanes`), which the split path plans: one with blocks enough
  // takes it as one chunk (`wanted` is 1), which `buildKernel` makes a
  // sliced loop (the block stores its sums, no atomics). Attention's scores
  // over 32K keys ran as 4096 blocks of 32 threads reading down K's
  // columns, 167 us on the H200.
  auto takesKLanes = [&](unsigned addend) {
    return options.reduceLanes > 1 &&
           getKLaneWidth(plan, addend, options.tensorKinds, options.mma) > 0;
  };
  // A max or min splits only over long rows: on the H200 a softmax's max
  // over 32K keys (32 tiles of 1024 per row) went from 32.9 to 17.1 us
  // split, while over 4K keys (4 tiles) decode attention lost 5-8%
  // (bench/results/h200-2026-11-28-split.md).
  bool extremes = trips >= kLongExtremes;
  bool elementSplit = false;
  if (!elementLoop) {
    if (auto stores = getSplitStores(plan, body, aliases, options.tensorKinds,
                                     extremes);
        stores && trips >= 2) {
      // As in element loops below: where every accumulation adds a
      // reduction over at least `kWideSum` elements per iteration, chunks
      // up to `wanted`, past `split_k` (a vocabulary softmax, 16 rows of
      // 32000 in 125 tiles: 50.3 us in 16 chunks, 21.1 in 125 on the H200,
      // bench/results/h200-2026-11-29-frontends.md).
      bool wide = llvm::all_of(*stores, [&](const auto &store) {
        const ExprNode &g = plan.exprs[store.second];
        return g.kind == Kind::Reduce && g.sizes[1] >= kWideSum;
      });
      int64_t most = wide ? std::max<int64_t>(options.splitK, wanted)
                          : int64_t(options.splitK);
      int64_t chunks = std::min<int64_t>({most, trips, wanted});
      kernel.chunkTrips = (trips + chunks - 1) / chunks;
      kernel.splitStores = std::move(*stores);
    }
  } else if (std::optional<unsigned> addend =
                 getSplitAddend(plan, body, aliases, options.tensorKinds,
                                extremes);
             addend && trips >= 2 && (fewBlocks || takesKLanes(*addend))) {
    int64_t most = std::min<int64_t>(options.splitK, trips);
    // A reduction over at least `kWideSum` elements per iteration combines
    // at most 1/kWideSum of what it reads atomically, whatever its chunks:
    // it may use as many as reach `minBlocks` (a long chunk of it is a chain
    // of dependent loads on few blocks; a softmax's max over 32K keys on 32
    // blocks took 32.9 us on the H200).
    const ExprNode &g = plan.exprs[*addend];
    if (g.kind == Kind::Reduce && g.sizes[1] >= kWideSum)
      most = trips;
    // At least `wanted` chunks where `split_k` allows, of equal length:
    // the blocks of the longest chunk set the kernel's time.
    kernel.chunkTrips = getChunkTrips(trips, std::min(most, wanted), most);
    kernel.splitAddend = *addend;
    elementSplit = true;
  }
  if (kernel.chunkTrips) {
    kernel.splitChunks =
        unsigned((trips + kernel.chunkTrips - 1) / kernel.chunkTrips);
    kernel.numBlocks *= kernel.splitChunks;
  }
  return elementSplit;
}
