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
/// that reads nothing the store may write, returns g.
static std::optional<unsigned>
getAccumulationAddend(const Plan &plan, unsigned id,
                      ArrayRef<std::pair<unsigned, unsigned>> aliases,
                      ArrayRef<ElementKind> tensorKinds) {
  const StmtNode &store = plan.stmts[id];
  if (store.kind != StmtNode::Kind::Store ||
      store.access.tensor >= tensorKinds.size() ||
      tensorKinds[store.access.tensor] != ElementKind::F32)
    return std::nullopt;
  const ExprNode &root = plan.exprs[store.first];
  if (root.kind != Kind::Binary || root.binaryFn != BinaryFn::Add ||
      root.elementKind != ElementKind::F32)
    return std::nullopt;
  for (unsigned side = 0; side < 2; ++side) {
    const ExprNode &acc = plan.exprs[root.operands[side]];
    unsigned addend = root.operands[1 - side];
    if (acc.kind != Kind::Load || !sameAccess(acc.access, store.access) ||
        acc.shape != root.shape)
      continue;
    bool readsStored = false;
    postOrder(plan, addend, [&](unsigned e) {
      const ExprNode &node = plan.exprs[e];
      readsStored |=
          node.kind == Kind::Load &&
          mayOverlap(aliases, node.access.tensor, store.access.tensor);
    });
    if (!readsStored)
      return addend;
  }
  return std::nullopt;
}

std::optional<unsigned>
gpu_lowering::getSplitAddend(const Plan &plan, unsigned id,
                             ArrayRef<std::pair<unsigned, unsigned>> aliases,
                             ArrayRef<ElementKind> tensorKinds) {
  return getAccumulationAddend(plan, plan.stmts[id].first, aliases,
                               tensorKinds);
}

std::optional<llvm::DenseMap<unsigned, unsigned>>
gpu_lowering::getSplitStores(const Plan &plan, unsigned id,
                             ArrayRef<std::pair<unsigned, unsigned>> aliases,
                             ArrayRef<ElementKind> tensorKinds) {
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
        getAccumulationAddend(plan, leaf, aliases, tensorKinds);
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
  bool elementSplit = false;
  if (options.splitK > 1 && kernel.numBlocks < options.minBlocks &&
      kernel.parts.size() == 1 && !kernel.parts.front().loop &&
      only.kind == StmtNode::Kind::Loop) {
    int64_t trips = (only.end - only.start) / only.step;
    int64_t wanted =
        (options.minBlocks + kernel.numBlocks - 1) / kernel.numBlocks;
    if (!kernel.perElementLoops.contains(body)) {
      if (auto stores =
              getSplitStores(plan, body, aliases, options.tensorKinds);
          stores && trips >= 2) {
        int64_t chunks = std::min<int64_t>({options.splitK, trips, wanted});
        kernel.chunkTrips = (trips + chunks - 1) / chunks;
        kernel.splitStores = std::move(*stores);
      }
    } else if (std::optional<unsigned> addend =
                   getSplitAddend(plan, body, aliases, options.tensorKinds);
               addend && trips >= 2) {
      int64_t most = std::min<int64_t>(options.splitK, trips);
      // A sum over at least `kWideSum` elements per iteration adds at most
      // 1/kWideSum of what it reads atomically, whatever its chunks: it may
      // use as many as reach `minBlocks` (a long chunk of such a sum is a
      // chain of dependent loads on few blocks).
      const ExprNode &g = plan.exprs[*addend];
      if (g.kind == Kind::Reduce && g.reduceFn == ReduceFn::Sum &&
          g.sizes[1] >= kWideSum)
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
  }
  return elementSplit;
}
