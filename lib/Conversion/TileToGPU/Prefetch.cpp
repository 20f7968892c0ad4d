//===- Prefetch.cpp - L2 prefetches ahead of a kernel's dependencies ------===//
//
// A kernel launched with programmatic stream serialization may start while
// the kernels before it finish, and waits for them (`griddepcontrol.wait`)
// before it touches what they write. What none of them writes, a weight
// matrix, it can read before that: each block prefetches into L2 the first
// iterations' tiles of the tensors its loop streams and that no kernel of
// the program writes, then waits. Prefetches only warm the cache (L2 is
// the point of coherence of global memory), so they never change a result.
//
//===----------------------------------------------------------------------===//

#include "Partition.h"

#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::interp;
using namespace mlir::tileir::gpu_lowering;

/// Whether a block knows where `access` reads before running its loop over
/// `loopVar`: every variable it uses is a grid loop's or that loop's, and
/// its innermost dimension is contiguous in the tensor (lines of it are
/// runs of elements).
static bool isPrefetchable(const Access &access, const Kernel &kernel,
                           unsigned loopVar) {
  if (access.dims.empty() || access.tensorStrides.back() != 1 ||
      !movesWithLoop(access, loopVar))
    return false;
  return llvm::all_of(access.dims, [&](const DimIndex &dim) {
    if (dim.kind == DimIndex::Kind::Full || dim.kind == DimIndex::Kind::Const)
      return true;
    if (dim.kind != DimIndex::Kind::Tile)
      return false;
    return dim.var == loopVar ||
           llvm::any_of(kernel.grid,
                        [&](const GridLoop &g) { return g.var == dim.var; });
  });
}

void gpu_lowering::planPrefetches(const Plan &plan,
                                  MutableArrayRef<Kernel> kernels,
                                  ArrayRef<ElementKind> kinds,
                                  int64_t budgetBytes) {
  if (budgetBytes <= 0)
    return;
  // Tensors some kernel writes.
  llvm::DenseSet<unsigned> written;
  for (const StmtNode &stmt : plan.stmts)
    if (stmt.kind == StmtNode::Kind::Store)
      written.insert(stmt.access.tensor);
  for (Kernel &kernel : kernels) {
    // The body's loop, or the element loop its sequence starts with (a
    // GEMM followed by its epilogue).
    SmallVector<unsigned> leaves;
    collectSequence(plan, kernel.body, leaves);
    if (kernel.parts.size() != 1 || kernel.parts.front().loop ||
        leaves.empty() ||
        plan.stmts[leaves.front()].kind != StmtNode::Kind::Loop ||
        (leaves.size() > 1 && !kernel.perElementLoops.contains(leaves.front())))
      continue;
    const StmtNode &loop = plan.stmts[leaves.front()];
    SmallVector<unsigned> loads;
    collectLoads(plan, loop.first, loads);
    int64_t bytesPerIteration = 0;
    for (unsigned id : loads) {
      const ExprNode &node = plan.exprs[id];
      // Tensors of the kinds kernels load as vectors.
      ElementKind kind = kinds[node.access.tensor];
      if ((kind != ElementKind::F16 && kind != ElementKind::BF16 &&
           kind != ElementKind::F32) ||
          written.contains(node.access.tensor) ||
          !isPrefetchable(node.access, kernel, loop.var))
        continue;
      int64_t bytes = kind == ElementKind::F32 ? 4 : 2;
      kernel.prefetchLoads.push_back(id);
      bytesPerIteration += node.numElements * bytes;
    }
    if (kernel.prefetchLoads.empty())
      continue;
    int64_t trips = (loop.end - loop.start) / loop.step;
    if (kernel.splitChunks > 1)
      trips = kernel.chunkTrips;
    kernel.prefetchLoop = leaves.front();
    kernel.prefetchIterations =
        std::clamp<int64_t>(budgetBytes / bytesPerIteration, 1, trips);
  }
}
