//===- InitialValues.cpp - Tensors whose starting zeros nothing reads -----===//
//
// Intermediates and outputs start as zeros: a call expects them cleared
// (`--tile-merge-kernels` zero-buffers, or the runtime). Most are written
// whole before anything reads them (a cast's result, a softmax's
// probabilities, an output), and clearing those is a pass over memory for
// nothing. A tensor is overwritten when the first kernel that touches it
// stores to every element of it and loads none of it; the lowering marks its
// buffer, and nothing clears it.
//
// Likewise an accumulation `C = C + g` run in registers (a scores matmul
// with its whole reduction in one block) reads C's zeros once, before its
// loop: when C is still untouched, the loop starts from zero instead, and C
// needs no clearing either.
//
//===----------------------------------------------------------------------===//

#include "Partition.h"

#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::interp;
using namespace mlir::tileir::gpu_lowering;

namespace {
/// A loop around a store: its variable walks start, start + step, ... < end.
struct LoopRange {
  unsigned var;
  int64_t start, end, step;
};

/// What one kernel does to each tensor.
struct Touches {
  llvm::DenseSet<unsigned> loaded, covered;
};
} // namespace

/// Whether the store `access`, run for every iteration of `loops`, writes
/// every element of its tensor (of shape `shape`).
static bool coversTensor(const Access &access, ArrayRef<int64_t> shape,
                         ArrayRef<LoopRange> loops) {
  llvm::SmallDenseSet<unsigned> vars;
  for (auto [dim, size] : llvm::zip_equal(access.dims, shape)) {
    if (dim.kind == DimIndex::Kind::Full)
      continue;
    if (dim.kind == DimIndex::Kind::Const) {
      if (dim.base != 0 || dim.extent != size)
        return false;
      continue;
    }
    // Tile or Elem: one loop walks the dimension; a variable indexing two
    // dimensions walks a diagonal.
    if (!vars.insert(dim.var).second)
      return false;
    unsigned var = dim.var;
    const LoopRange *loop = llvm::find_if(
        loops, [var](const LoopRange &l) { return l.var == var; });
    if (loop == loops.end() || loop->start != 0 || loop->end <= 0)
      return false;
    // Index of iteration v: v (Tile) or v / step (Elem), `extent` wide.
    int64_t scale = dim.kind == DimIndex::Kind::Elem ? dim.step : 1;
    if (loop->step % scale != 0 || loop->step / scale > dim.extent ||
        (loop->end - loop->step) / scale + dim.extent < size)
      return false;
  }
  return true;
}

static void collectTouches(const Plan &plan, unsigned id,
                           ArrayRef<ArrayRef<int64_t>> shapes,
                           SmallVectorImpl<LoopRange> &loops, Touches &out) {
  const StmtNode &stmt = plan.stmts[id];
  switch (stmt.kind) {
  case StmtNode::Kind::Nop:
    return;
  case StmtNode::Kind::Store: {
    SmallVector<const Access *> writes, reads;
    collectAccesses(plan, id, writes, reads);
    for (const Access *read : reads)
      out.loaded.insert(read->tensor);
    unsigned tensor = stmt.access.tensor;
    if (coversTensor(stmt.access, shapes[tensor], loops))
      out.covered.insert(tensor);
    return;
  }
  case StmtNode::Kind::Seq:
    collectTouches(plan, stmt.first, shapes, loops, out);
    collectTouches(plan, stmt.second, shapes, loops, out);
    return;
  case StmtNode::Kind::Loop:
    loops.push_back({stmt.var, stmt.start, stmt.end, stmt.step});
    collectTouches(plan, stmt.first, shapes, loops, out);
    loops.pop_back();
    return;
  }
}

/// The tensors each element loop reached from `id` without passing another
/// loop carries in registers (written at a region that does not move with
/// the loop), and the count of loops carrying each; `elsewhere` gets every
/// tensor loaded or stored outside those loops' own accumulations, except
/// loads after a loop carrying the tensor (they read what it stored: the
/// SiLU product of two gate GEMMs in their kernel).
static void collectAccumulators(const Plan &plan, const Kernel &kernel,
                                unsigned id,
                                llvm::DenseMap<unsigned, unsigned> &carriers,
                                llvm::DenseSet<unsigned> &elsewhere) {
  const StmtNode &stmt = plan.stmts[id];
  auto touchAll = [&](unsigned root) {
    SmallVector<const Access *> writes, reads;
    collectAccesses(plan, root, writes, reads);
    for (const Access *access : writes)
      elsewhere.insert(access->tensor);
    for (const Access *access : reads)
      if (!carriers.count(access->tensor))
        elsewhere.insert(access->tensor);
  };
  switch (stmt.kind) {
  case StmtNode::Kind::Nop:
    return;
  case StmtNode::Kind::Seq:
    collectAccumulators(plan, kernel, stmt.first, carriers, elsewhere);
    collectAccumulators(plan, kernel, stmt.second, carriers, elsewhere);
    return;
  case StmtNode::Kind::Store:
    return touchAll(id);
  case StmtNode::Kind::Loop:
    break;
  }
  if (!kernel.perElementLoops.contains(id))
    return touchAll(id);
  SmallVector<const Access *> writes, reads;
  collectAccesses(plan, stmt.first, writes, reads);
  llvm::SmallDenseSet<unsigned> carried;
  for (const Access *write : writes) {
    if (movesWithLoop(*write, stmt.var))
      elsewhere.insert(write->tensor);
    else
      carried.insert(write->tensor);
  }
  // Reads of a carried tensor in the loop read its registers.
  for (const Access *read : reads)
    if (!carried.contains(read->tensor) && !carriers.count(read->tensor))
      elsewhere.insert(read->tensor);
  for (unsigned tensor : carried)
    ++carriers[tensor];
}

/// Calls `fn(k, tensors)` for each of `kernels` with the tensors (of
/// `numTensors`) that kernel k touches first, except tensors `aliases`
/// names: one that may share memory with another is written through both.
static void
forEachFirstTouch(ArrayRef<Kernel> kernels, unsigned numTensors,
                  ArrayRef<std::pair<unsigned, unsigned>> aliases,
                  llvm::function_ref<void(unsigned, ArrayRef<unsigned>)> fn) {
  llvm::BitVector seen(numTensors);
  for (auto [a, b] : aliases)
    seen.set(a), seen.set(b);
  for (auto [k, kernel] : llvm::enumerate(kernels)) {
    SmallVector<unsigned> first;
    for (unsigned tensor : kernel.tensors)
      if (!seen.test(tensor)) {
        seen.set(tensor);
        first.push_back(tensor);
      }
    fn(k, first);
  }
}

void gpu_lowering::markZeroAccumulators(
    const Plan &plan, MutableArrayRef<Kernel> kernels,
    ArrayRef<bool> startsZero,
    ArrayRef<std::pair<unsigned, unsigned>> aliases) {
  forEachFirstTouch(
      kernels, startsZero.size(), aliases,
      [&](unsigned k, ArrayRef<unsigned> tensors) {
        Kernel &kernel = kernels[k];
        llvm::DenseMap<unsigned, unsigned> carriers;
        llvm::DenseSet<unsigned> elsewhere;
        if (kernel.splitChunks == 1)
          for (const KernelPart &part : kernel.parts)
            collectAccumulators(plan, kernel, part.stmt, carriers, elsewhere);
        for (unsigned tensor : tensors)
          if (startsZero[tensor] && carriers.lookup(tensor) == 1 &&
              !elsewhere.contains(tensor))
            kernel.zeroAccumulators.insert(tensor);
      });
}

static LoopRange rangeOf(const GridLoop &loop) {
  return {loop.var, loop.start, loop.start + loop.step * loop.trips, loop.step};
}

llvm::BitVector gpu_lowering::findOverwrittenTensors(
    const Plan &plan, ArrayRef<Kernel> kernels,
    ArrayRef<ArrayRef<int64_t>> shapes,
    ArrayRef<std::pair<unsigned, unsigned>> aliases) {
  llvm::BitVector overwritten(shapes.size());
  forEachFirstTouch(kernels, shapes.size(), aliases,
                    [&](unsigned k, ArrayRef<unsigned> tensors) {
                      const Kernel &kernel = kernels[k];
                      Touches touches;
                      SmallVector<LoopRange> loops =
                          llvm::map_to_vector(kernel.grid, rangeOf);
                      for (const KernelPart &part : kernel.parts) {
                        if (part.loop)
                          loops.push_back(rangeOf(*part.loop));
                        collectTouches(plan, part.stmt, shapes, loops, touches);
                        if (part.loop)
                          loops.pop_back();
                      }
                      for (unsigned tensor : tensors)
                        if ((!touches.loaded.contains(tensor) ||
                             kernel.zeroAccumulators.contains(tensor)) &&
                            touches.covered.contains(tensor))
                          overwritten.set(tensor);
                    });
  return overwritten;
}
