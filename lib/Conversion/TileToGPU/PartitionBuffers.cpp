//===- PartitionBuffers.cpp - Buffers of the tile values per store --------===//

#include "PartitionInternal.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::interp;
using namespace mlir::tileir::gpu_lowering;

using Kind = ExprNode::Kind;

/// Whether a value can be recomputed per use instead of being buffered:
/// loads and constants seen through layout changes and casts.
static bool isCheap(const Plan &plan, unsigned id) {
  while (true) {
    const ExprNode &node = plan.exprs[id];
    switch (node.kind) {
    case Kind::Load:
    case Kind::Constant:
      return true;
    case Kind::Alias:
    case Kind::Gather:
    case Kind::Cast:
      id = node.operands[0];
      continue;
    default:
      return false;
    }
  }
}

/// Whether the value a store writes reads the stored tensor at other
/// elements than the one being written, so that storing while other threads
/// still read would race.
static bool
readsStoredTensorElsewhere(const Plan &plan, const StmtNode &store,
                           const llvm::DenseSet<unsigned> &buffered,
                           ArrayRef<std::pair<unsigned, unsigned>> aliases) {
  return readsWrittenElsewhere(plan, store.first, plan.exprs[store.first].shape,
                               {&store.access}, buffered, aliases);
}

/// Fewest elements of a reduced extent one thread of a group reduction
/// combines (`StoreBuffers::groupReductions`).
static constexpr int64_t kGroupPart = 16;

namespace {

/// Assigns buffers for one kernel body.
class BufferPlanner {
public:
  BufferPlanner(const Plan &plan, Kernel &kernel,
                ArrayRef<std::pair<unsigned, unsigned>> aliases,
                const PartitionOptions &options)
      : plan(plan), kernel(kernel), aliases(aliases),
        sharedBudget(options.sharedMemoryBytes),
        elementLoops(options.elementLoops), useMma(options.mma),
        groupReductions(options.groupReductions),
        blockSize(std::max(1u, options.blockSize)),
        threadElements(std::max(1u, options.threadElements)) {}

  /// Plans the buffers of kernel part `id`.
  void runPart(unsigned id) {
    live.clear();
    run(id);
    live.clear();
  }

  void run(unsigned id) {
    const StmtNode &stmt = plan.stmts[id];
    switch (stmt.kind) {
    case StmtNode::Kind::Nop:
      return;
    case StmtNode::Kind::Seq: {
      SmallVector<unsigned> leaves;
      collectSequence(plan, id, leaves);
      for (auto [i, leaf] : llvm::enumerate(leaves)) {
        // The nodes the stores right after this leaf evaluate (up to the
        // next loop, where buffers stop being shared).
        upcoming.clear();
        for (unsigned next : ArrayRef(leaves).drop_front(i + 1)) {
          if (plan.stmts[next].kind != StmtNode::Kind::Store)
            break;
          postOrder(plan, plan.stmts[next].first,
                    [&](unsigned e) { upcoming.insert(e); });
        }
        run(leaf);
      }
      upcoming.clear();
      return;
    }
    case StmtNode::Kind::Loop: {
      // Buffers are shared only among the stores of one iteration.
      live.clear();
      upcoming.clear();
      llvm::scope_exit done([&] { live.clear(); });
      std::optional<int64_t> size;
      if (elementLoops && (size = getElementLoopSize(plan, id, aliases))) {
        kernel.perElementLoops.insert(id);
        widest =
            std::max(widest, (*size + threadElements - 1) / threadElements);
        return;
      }
      run(stmt.first);
      return;
    }
    case StmtNode::Kind::Store:
      planStore(id);
      return;
    }
  }

private:
  /// Whether matmul `e` can run on the matrix units: f16 operands, an f32
  /// result, every size a multiple of 16.
  bool mmaCandidate(unsigned e) const {
    const ExprNode &node = plan.exprs[e];
    if (!useMma || node.kind != Kind::Matmul ||
        node.elementKind != ElementKind::F32)
      return false;
    for (unsigned operand : node.operands)
      if (plan.exprs[operand].elementKind != ElementKind::F16)
        return false;
    return node.sizes[1] % 16 == 0 && node.sizes[2] % 16 == 0 &&
           node.sizes[3] % 16 == 0;
  }

  /// Whether a store using `f32` and `f16` elements of the kernel's shared
  /// buffers keeps the kernel within the budget: every store's buffers
  /// start at offset 0 of the two buffers, which are as large as their
  /// largest use by any store, and together take the budget (the f16 one
  /// starts 16-byte aligned).
  bool fitsShared(int64_t f32, int64_t f16) const {
    return sharedBytes(std::max(kernel.sharedElements, f32),
                       std::max(kernel.sharedHalfElements, f16)) <=
           sharedBudget;
  }

  /// An f32 buffer of `n` elements: in shared memory after the `shared` f32
  /// and `sharedHalf` f16 elements placed so far where the budget has room,
  /// else in the block's global scratch after `global` elements.
  Buffer placeF32(int64_t n, int64_t &shared, int64_t sharedHalf,
                  int64_t &global) const {
    Buffer buffer;
    if (fitsShared(shared + n, sharedHalf)) {
      buffer.shared = true;
      buffer.offset = shared;
      shared += n;
    } else {
      buffer.offset = global;
      global += n;
    }
    return buffer;
  }

  /// Places the buffers of `wanted` (f16 ones for `half`) after the live
  /// f32 ones that this or a later store reads; fails, placing nothing, if
  /// an f16 buffer does not fit in shared memory.
  bool place(const StmtNode &store, const llvm::DenseSet<unsigned> &wanted,
             const llvm::DenseSet<unsigned> &half, StoreBuffers &buffers,
             int64_t &shared, int64_t &sharedHalf, int64_t &global) {
    shared = global = sharedHalf = 0;
    for (const auto &[e, buffer] : live) {
      if (!buffers.nodes.count(e) && !upcoming.contains(e))
        continue; // neither read now nor later: its room is free
      int64_t &top = buffer.shared ? shared : global;
      top = std::max(top, buffer.offset + plan.exprs[e].numElements);
    }
    bool fits = true;
    postOrder(plan, store.first, [&](unsigned e) {
      if (!wanted.count(e))
        return;
      int64_t n = plan.exprs[e].numElements;
      Buffer buffer;
      if (half.count(e)) {
        fits &= fitsShared(shared, sharedHalf + n);
        buffer.shared = buffer.half = true;
        buffer.offset = sharedHalf;
        sharedHalf += n;
      } else {
        buffer = placeF32(n, shared, sharedHalf, global);
      }
      buffers.nodes[e] = buffer;
      buffers.order.push_back(e);
    });
    return fits;
  }

  /// Cuts the buffered reductions of `buffers` with fewer result elements
  /// than the block has threads among groups of threads (each thread at
  /// least `kGroupPart` elements of the reduced extent: shorter sums stay
  /// on one thread), their partial results in shared memory where it has
  /// room, else in the block's global scratch.
  void planGroupReductions(StoreBuffers &buffers, int64_t &shared,
                           int64_t sharedHalf, int64_t &global) {
    for (unsigned e : buffers.order) {
      const ExprNode &node = plan.exprs[e];
      if (node.kind != Kind::Reduce || buffers.mma.contains(e))
        continue;
      int64_t n = node.numElements, extent = node.sizes[1];
      int64_t group = 1;
      while (n * group * 2 <= blockSize && group * 2 * kGroupPart <= extent)
        group *= 2;
      if (group == 1)
        continue;
      buffers.groupReductions[e] = {
          group, placeF32(n * group, shared, sharedHalf, global)};
      widest = std::max(widest, n * group);
    }
  }

  /// The nodes store `root` evaluates: its DAG, not below the values that
  /// earlier stores of the iteration left in their buffers (`reused`).
  llvm::DenseSet<unsigned> evaluatedNodes(unsigned root,
                                          llvm::DenseSet<unsigned> &reused) {
    llvm::DenseSet<unsigned> seen;
    llvm::SmallVector<unsigned> work{root};
    while (!work.empty()) {
      unsigned e = work.pop_back_val();
      if (!seen.insert(e).second)
        continue;
      if (e != root && live.count(e)) {
        reused.insert(e);
        continue;
      }
      for (unsigned operand : plan.exprs[e].operands)
        work.push_back(operand);
    }
    return seen;
  }

  void planStore(unsigned id) {
    const StmtNode &store = plan.stmts[id];
    StoreBuffers buffers;
    llvm::DenseSet<unsigned> reused;
    llvm::DenseSet<unsigned> evaluated = evaluatedNodes(store.first, reused);
    llvm::DenseSet<unsigned> wanted, half;
    postOrder(plan, store.first, [&](unsigned e) {
      if (!evaluated.count(e) || reused.count(e))
        return;
      const ExprNode &node = plan.exprs[e];
      if (node.kind == Kind::Matmul || node.kind == Kind::Reduce) {
        wanted.insert(e);
        // An operand in an earlier store's f32 buffer is read from there:
        // the matrix units would need it in f16.
        auto isReused = [&](unsigned x) { return reused.contains(x); };
        if (mmaCandidate(e) && llvm::none_of(node.operands, isReused)) {
          buffers.mma.insert(e);
          for (unsigned operand : node.operands) {
            wanted.insert(operand);
            half.insert(operand);
          }
          return;
        }
        for (unsigned operand : node.operands)
          if (!isCheap(plan, operand) && !isReused(operand))
            wanted.insert(operand);
      }
    });
    // An operand shared with a non-matrix-unit use stays f32.
    for (unsigned e : llvm::to_vector(half)) {
      bool other = false;
      postOrder(plan, store.first, [&](unsigned user) {
        if (!buffers.mma.count(user))
          other |= llvm::is_contained(plan.exprs[user].operands, e);
      });
      if (other)
        half.erase(e);
    }
    for (unsigned e : llvm::to_vector(buffers.mma))
      for (unsigned operand : plan.exprs[e].operands)
        if (!half.count(operand))
          buffers.mma.erase(e);
    // Values an earlier store of the iteration buffered, and nothing has
    // written since, are read from its buffers (`live`): not computed again
    // and not overwritten by this store's.
    for (unsigned e : reused)
      buffers.nodes[e] = live.lookup(e);
    llvm::DenseSet<unsigned> buffered = wanted;
    buffered.insert(reused.begin(), reused.end());
    buffers.bufferRoot =
        readsStoredTensorElsewhere(plan, store, buffered, aliases);
    if (buffers.bufferRoot)
      wanted.insert(store.first);
    // Shared memory first, in evaluation order; what does not fit spills to
    // the block's slice of global scratch. Matrix-unit operands must be in
    // shared memory: without room, those matmuls run on the vector units.
    int64_t shared, sharedHalf, global;
    if (!place(store, wanted, half, buffers, shared, sharedHalf, global)) {
      for (unsigned e : buffers.order)
        buffers.nodes.erase(e);
      buffers.order.clear();
      buffers.mma.clear();
      place(store, wanted, {}, buffers, shared, sharedHalf, global);
    }
    widest = std::max(widest, plan.exprs[store.first].numElements);
    for (unsigned e : buffers.order)
      widest = std::max(widest, plan.exprs[e].numElements);
    if (groupReductions)
      planGroupReductions(buffers, shared, sharedHalf, global);
    kernel.sharedElements = std::max(kernel.sharedElements, shared);
    kernel.sharedHalfElements = std::max(kernel.sharedHalfElements, sharedHalf);
    kernel.scratchElements = std::max(kernel.scratchElements, global);
    // This store's f32 values that the next stores of the iteration
    // evaluate stay for them, until a store writes what they read.
    for (unsigned e : buffers.order)
      if (!half.count(e)) // placed as f32 (placeF32)
        live[e] = buffers.nodes.lookup(e);
    for (unsigned e : llvm::to_vector(llvm::make_first_range(live)))
      if (!upcoming.contains(e) ||
          readsTensor(plan, e, store.access.tensor, aliases))
        live.erase(e);
    kernel.stores[id] = std::move(buffers);
  }

public:
  /// The most elements any step of the body computes.
  int64_t widest = 1;

private:
  const Plan &plan;
  Kernel &kernel;
  ArrayRef<std::pair<unsigned, unsigned>> aliases;
  /// The buffers of values computed by earlier stores of the current
  /// iteration (of the kernel part, or of the loop body being planned) that
  /// later stores may read instead of computing them again.
  llvm::DenseMap<unsigned, Buffer> live;
  /// The expression nodes the stores after the one being planned evaluate,
  /// up to the end of the iteration: the live buffers worth keeping.
  llvm::DenseSet<unsigned> upcoming;
  int64_t sharedBudget;
  bool elementLoops;
  bool useMma;
  bool groupReductions;
  int64_t blockSize;
  int64_t threadElements;
};

} // namespace

int64_t
gpu_lowering::planBuffers(const Plan &plan,
                          ArrayRef<std::pair<unsigned, unsigned>> aliases,
                          const PartitionOptions &options, Kernel &kernel) {
  BufferPlanner planner(plan, kernel, aliases, options);
  for (const KernelPart &part : kernel.parts)
    planner.runPart(part.stmt);
  return planner.widest;
}
