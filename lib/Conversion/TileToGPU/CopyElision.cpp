//===- CopyElision.cpp - Copy kernels whose tensors can share a buffer ----===//
//
// The tile dialect has no views: `tensor.expand_shape` and
// `tensor.collapse_shape` become loop nests that copy one tensor into
// another of the same row-major layout. On a GPU such a copy is a kernel
// launch and a round trip through memory for nothing; when the two tensors
// can use one buffer, the kernel goes and every launch that names the
// copy's destination (or, towards an output, its source) uses the other
// tensor's buffer.
//
//===----------------------------------------------------------------------===//

#include "Partition.h"

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::interp;
using namespace mlir::tileir::gpu_lowering;

using Kind = ExprNode::Kind;

/// The offset, relative to the region's first element, of every element of
/// the tile `copy` moves, in the tile's row-major order. `tensorIsSource`:
/// the copy reads the tensor (a load) rather than writing it (a store).
static std::vector<int64_t> tensorOffsets(const StridedCopy &copy,
                                          bool tensorIsSource) {
  ArrayRef<int64_t> shape = copy.getShape();
  ArrayRef<int64_t> tensorStrides =
      tensorIsSource ? copy.getSrcStrides() : copy.getDstStrides();
  ArrayRef<int64_t> tileStrides =
      tensorIsSource ? copy.getDstStrides() : copy.getSrcStrides();
  int64_t count = 1;
  for (int64_t extent : shape)
    count *= extent;
  std::vector<int64_t> offsets(count);
  SmallVector<int64_t, 4> index(shape.size(), 0);
  for (int64_t n = 0; n < count; ++n) {
    int64_t tile = 0, tensor = 0;
    for (auto [i, stride] : llvm::enumerate(tileStrides)) {
      tile += index[i] * stride;
      tensor += index[i] * tensorStrides[i];
    }
    if (tile < 0 || tile >= count)
      return {};
    offsets[tile] = tensor;
    for (int64_t d = int64_t(shape.size()) - 1; d >= 0; --d) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }
  return offsets;
}

namespace {
/// A loop of a copy kernel's iteration space.
struct CopyLoop {
  unsigned var;
  int64_t start, step, trips;
};

/// A kernel that copies tensor `src` into tensor `dst`.
struct Copy {
  unsigned src = 0, dst = 0;
};
} // namespace

/// Whether `kernel` stores into its tensor `dst` every element of `src`,
/// each at the same row-major position, and nothing else: a nest of loops
/// around one store of a load seen through buffer aliases (reshapes, casts
/// that change no value) between tensors of one element kind, where every
/// iteration moves a tile to the same offsets it read it from and the
/// iterations together write every element of `dst` once.
static std::optional<Copy> getCopy(const Plan &plan, const Kernel &kernel,
                                   ArrayRef<ElementKind> kinds,
                                   ArrayRef<int64_t> numElements) {
  if (kernel.parts.size() != 1 || kernel.splitChunks != 1)
    return std::nullopt;
  SmallVector<CopyLoop> loops;
  for (const GridLoop &g : kernel.grid)
    loops.push_back({g.var, g.start, g.step, g.trips});
  const KernelPart &part = kernel.parts.front();
  if (part.loop)
    loops.push_back(
        {part.loop->var, part.loop->start, part.loop->step, part.loop->trips});
  unsigned id = part.stmt;
  while (plan.stmts[id].kind == StmtNode::Kind::Loop) {
    const StmtNode &loop = plan.stmts[id];
    loops.push_back(
        {loop.var, loop.start, loop.step, (loop.end - loop.start) / loop.step});
    id = loop.first;
  }
  const StmtNode &store = plan.stmts[id];
  if (store.kind != StmtNode::Kind::Store)
    return std::nullopt;
  const ExprNode &load = plan.exprs[skipAliases(plan, store.first)];
  if (load.kind != Kind::Load)
    return std::nullopt;
  Copy copy{load.access.tensor, store.access.tensor};
  if (copy.src == copy.dst || kinds[copy.src] != kinds[copy.dst] ||
      numElements[copy.src] != numElements[copy.dst])
    return std::nullopt;
  std::vector<int64_t> read = tensorOffsets(load.access.copy, true);
  std::vector<int64_t> written = tensorOffsets(store.access.copy, false);
  if (read.empty() || read.size() != written.size())
    return std::nullopt;
  // Within a tile: the same offsets up to one shift.
  int64_t shift = read.front() - written.front();
  for (auto [r, w] : llvm::zip_equal(read, written))
    if (r - w != shift)
      return std::nullopt;
  // Across the iterations: the shift cancels, and each element of `dst` is
  // written once.
  int64_t count = numElements[copy.dst];
  std::vector<bool> covered(count, false);
  int64_t coveredCount = 0;
  SmallVector<int64_t> vars(plan.numVars, 0);
  bool ok = true;
  std::function<void(unsigned)> walk = [&](unsigned depth) {
    if (!ok)
      return;
    if (depth == loops.size()) {
      int64_t from = load.access.offset(vars), to = store.access.offset(vars);
      if (from + shift != to) {
        ok = false;
        return;
      }
      for (int64_t w : written) {
        int64_t at = to + w;
        if (at < 0 || at >= count || covered[at]) {
          ok = false;
          return;
        }
        covered[at] = true;
        ++coveredCount;
      }
      return;
    }
    const CopyLoop &loop = loops[depth];
    for (int64_t t = 0; t < loop.trips && ok; ++t) {
      vars[loop.var] = loop.start + t * loop.step;
      walk(depth + 1);
    }
  };
  walk(0);
  if (!ok || coveredCount != count)
    return std::nullopt;
  return copy;
}

bool gpu_lowering::isCopyKernel(const Plan &plan, const Kernel &kernel,
                                ArrayRef<ElementKind> kinds,
                                ArrayRef<int64_t> numElements) {
  return getCopy(plan, kernel, kinds, numElements).has_value();
}

SmallVector<unsigned> gpu_lowering::elideCopies(
    const Plan &plan, std::vector<Kernel> &kernels, ArrayRef<TensorRole> roles,
    ArrayRef<ElementKind> kinds, ArrayRef<int64_t> numElements,
    ArrayRef<std::pair<unsigned, unsigned>> aliases) {
  auto bufferOf = llvm::to_vector(llvm::seq<unsigned>(0, roles.size()));
  auto declaredAlias = [&](unsigned t) {
    return llvm::any_of(aliases, [&](auto pair) {
      return bufferOf[pair.first] == t || bufferOf[pair.second] == t;
    });
  };
  // Per kernel, in launch order: whether it is a copy, and the tensors it
  // reads and writes (neither changes as buffers merge).
  struct Info {
    std::optional<Copy> copy;
    SmallVector<unsigned> reads, writes;
  };
  std::vector<Info> infos;
  for (const Kernel &kernel : kernels) {
    Info info;
    info.copy = getCopy(plan, kernel, kinds, numElements);
    SmallVector<const Access *> w, r;
    for (const KernelPart &part : kernel.parts)
      collectAccesses(plan, part.stmt, w, r);
    for (const Access *a : r)
      info.reads.push_back(a->tensor);
    for (const Access *a : w)
      info.writes.push_back(a->tensor);
    infos.push_back(std::move(info));
  }
  auto touches = [&](ArrayRef<unsigned> tensors, unsigned buffer) {
    return llvm::any_of(tensors,
                        [&](unsigned t) { return bufferOf[t] == buffer; });
  };
  // One copy at a time, the buffers of those already elided merged.
  bool changed = true;
  while (changed) {
    changed = false;
    for (unsigned c = 0; c < infos.size() && !changed; ++c) {
      const std::optional<Copy> &copy = infos[c].copy;
      if (!copy)
        continue;
      unsigned src = bufferOf[copy->src], dst = bufferOf[copy->dst];
      if (src == dst || declaredAlias(src) || declaredAlias(dst))
        continue;
      // Who touches the two buffers before and after the copy.
      bool dstWrittenElsewhere = false, dstReadBefore = false,
           dstReadAfter = false, srcWrittenAfter = false;
      for (unsigned k = 0; k < infos.size(); ++k) {
        if (k == c)
          continue;
        dstWrittenElsewhere |= touches(infos[k].writes, dst);
        (k < c ? dstReadBefore : dstReadAfter) |= touches(infos[k].reads, dst);
        srcWrittenAfter |= k > c && touches(infos[k].writes, src);
      }
      if (srcWrittenAfter || dstWrittenElsewhere || dstReadBefore)
        continue;
      // Both start as zeros (intermediates and outputs) or the copy is the
      // only access of `dst`: whichever buffer survives holds `src`'s values
      // up to the copy and both tensors' values after it.
      unsigned from, to;
      if (roles[dst] == TensorRole::Intermediate) {
        from = dst;
        to = src;
      } else if (roles[dst] == TensorRole::Output &&
                 roles[src] == TensorRole::Intermediate && !dstReadAfter) {
        from = src;
        to = dst;
      } else {
        continue;
      }
      for (unsigned &b : bufferOf)
        if (b == from)
          b = to;
      kernels.erase(kernels.begin() + c);
      infos.erase(infos.begin() + c);
      changed = true;
    }
  }
  return bufferOf;
}
