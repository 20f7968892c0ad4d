//===- SplitEpilogue.cpp - Split-k consumers run by the last block -------===//
//
// A split accumulation (`Kernel::splitChunks`) adds each block's partial
// sum to an f32 tensor atomically, so what reads that sum has been its own
// kernel: the cast of a GEMM's output to f16, the SiLU product of two
// GEMMs. Such a consumer is fused into its producers as an epilogue that
// the last block of each output tile runs (the "serial split-k" of CUTLASS
// and stream-K): every block, after its atomic adds, counts itself on a
// counter of its tile; the block that brings the count to the number of
// blocks adding into that tile (over all the consumer's producers) runs the
// consumer for that tile, its grid variables those of the tile, and clears
// the counter for the next call. One launch and one dependency wait fewer.
//
//===----------------------------------------------------------------------===//

#include "Partition.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::interp;
using namespace mlir::tileir::gpu_lowering;

/// The tensor a split accumulation kernel accumulates into, if `kernel` is
/// one that `fuseSplitEpilogues` may give an epilogue: an element loop
/// split into chunks, one block per chunk of each grid point.
static std::optional<unsigned>
splitTensor(const Plan &plan, const Kernel &kernel, int64_t minTrips) {
  if (kernel.splitChunks <= 1 || kernel.chunkTrips < minTrips ||
      !kernel.splitAddend || !kernel.splitStores.empty() || kernel.warpLoop ||
      kernel.epilogue || kernel.partBlocks != 1 || kernel.parts.size() != 1 ||
      kernel.parts.front().loop)
    return std::nullopt;
  const StmtNode &loop = plan.stmts[kernel.body];
  if (loop.kind != StmtNode::Kind::Loop)
    return std::nullopt;
  const StmtNode &store = plan.stmts[loop.first];
  if (store.kind != StmtNode::Kind::Store)
    return std::nullopt;
  return store.access.tensor;
}

/// Whether `kernel` may run as an epilogue: one statement below its grid
/// that needs no block-wide buffers.
static bool isEpilogueCandidate(const Kernel &kernel) {
  return kernel.splitChunks == 1 && !kernel.warpLoop && !kernel.epilogue &&
         kernel.partBlocks == 1 && kernel.parts.size() == 1 &&
         !kernel.parts.front().loop && kernel.sharedElements == 0 &&
         kernel.sharedHalfElements == 0 && kernel.scratchElements == 0 &&
         kernel.prefetchLoads.empty() && !kernel.grid.empty();
}

static bool sameGrid(ArrayRef<GridLoop> a, ArrayRef<GridLoop> b) {
  return llvm::equal(a, b, [](const GridLoop &x, const GridLoop &y) {
    return x.var == y.var && x.start == y.start && x.step == y.step &&
           x.trips == y.trips;
  });
}

/// Whether every variable `access` is indexed by is a loop of `grid`.
static bool indexedByGrid(const Access &access, ArrayRef<GridLoop> grid) {
  return llvm::all_of(access.dims, [&](const DimIndex &dim) {
    if (dim.kind != DimIndex::Kind::Tile && dim.kind != DimIndex::Kind::Elem)
      return true;
    return llvm::any_of(grid,
                        [&](const GridLoop &g) { return g.var == dim.var; });
  });
}

int64_t gpu_lowering::fuseSplitEpilogues(
    const Plan &plan, std::vector<Kernel> &kernels,
    ArrayRef<std::pair<unsigned, unsigned>> aliases, int64_t minTrips) {
  int64_t counters = 0;
  for (size_t e = 1; e < kernels.size(); ++e) {
    const Kernel &consumer = kernels[e];
    if (!isEpilogueCandidate(consumer))
      continue;
    SmallVector<const Access *> writes, reads;
    collectAccesses(plan, consumer.body, writes, reads);
    // The producers: the split accumulations just before the consumer whose
    // tensors it reads, each read at exactly the producer's tile.
    size_t first = e;
    bool valid = true;
    while (first > 0 && valid) {
      const Kernel &producer = kernels[first - 1];
      std::optional<unsigned> tensor = splitTensor(plan, producer, minTrips);
      if (!tensor || isAliased(aliases, *tensor) ||
          !sameGrid(producer.grid, consumer.grid))
        break;
      const Access &stored = plan.stmts[plan.stmts[producer.body].first].access;
      bool readsIt = false;
      for (const Access *read : reads) {
        if (read->tensor != *tensor)
          continue;
        readsIt = true;
        valid &=
            sameAccess(*read, stored) && indexedByGrid(*read, consumer.grid);
      }
      if (!readsIt)
        break;
      --first;
    }
    if (!valid || first == e)
      continue;
    // What the consumer touches besides the producers' tensors must be
    // untouched by them: they run on while a tile's last block runs it.
    llvm::SmallDenseSet<unsigned> produced;
    for (size_t p = first; p < e; ++p)
      produced.insert(*splitTensor(plan, kernels[p], minTrips));
    for (const Access *write : writes)
      valid &= !produced.contains(write->tensor) &&
               !isAliased(aliases, write->tensor);
    for (size_t p = first; p < e && valid; ++p) {
      SmallVector<const Access *> producerWrites, producerReads;
      collectAccesses(plan, kernels[p].body, producerWrites, producerReads);
      for (const Access *write : writes)
        for (const Access *read : producerReads)
          valid &= read->tensor != write->tensor;
    }
    if (!valid)
      continue;

    int64_t arrivals = 0;
    for (size_t p = first; p < e; ++p)
      arrivals += kernels[p].splitChunks;
    for (size_t p = first; p < e; ++p) {
      Kernel &producer = kernels[p];
      auto epilogue = std::make_shared<Kernel>(consumer);
      // The producer's threads run it.
      epilogue->threads = producer.threads;
      producer.epilogue = std::move(epilogue);
      producer.epilogueCounters = counters;
      producer.epilogueArrivals = arrivals;
      producer.epilogueFlag = producer.sharedElements++;
      SmallVector<unsigned> tensors(producer.tensors);
      llvm::append_range(tensors, consumer.tensors);
      llvm::sort(tensors);
      tensors.erase(llvm::unique(tensors), tensors.end());
      producer.tensors = std::move(tensors);
    }
    // One counter per block of the consumer: a grid point.
    counters += consumer.numBlocks;
    kernels.erase(kernels.begin() + e);
    --e;
  }
  return counters;
}
