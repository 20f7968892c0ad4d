//===- PartitionKSlices.cpp - K slices, reduce lanes and sliced loops -----===//

#include "PartitionInternal.h"

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::interp;
using namespace mlir::tileir::gpu_lowering;

using Kind = ExprNode::Kind;

void gpu_lowering::planKSlices(const Plan &plan,
                               const PartitionOptions &options,
                               std::optional<int64_t> matmulElements,
                               int64_t groups, bool elementSplit,
                               Kernel &kernel) {
  const StmtNode &only = plan.stmts[kernel.body];
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
    while (slices * 2 <= int64_t(options.kSlices) &&
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
  int64_t groups =
      llvm::divideCeil(*elements, std::max<int64_t>(1, options.threadElements));
  int64_t slices = 1;
  while (slices * 2 <= int64_t(options.kSlices) &&
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
