//===- PartitionWarpLoops.cpp - Loops run one warp per iteration ----------===//

#include "PartitionInternal.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::interp;
using namespace mlir::tileir::gpu_lowering;

using Kind = ExprNode::Kind;

/// Whether expression `id` is computed element by element at the elements
/// of a tile of `shape`: loads, constants and elementwise ops of that shape
/// (and, with `matmuls`, matmuls of that shape, not walked into).
static bool isElementwiseOver(const Plan &plan, unsigned id,
                              ArrayRef<int64_t> shape, bool matmuls) {
  const ExprNode &node = plan.exprs[id];
  if (node.shape != shape)
    return false;
  switch (node.kind) {
  case Kind::Load:
  case Kind::Constant:
    return true;
  case Kind::Matmul:
    return matmuls;
  case Kind::Unary:
  case Kind::Binary:
  case Kind::Cmp:
  case Kind::Select:
  case Kind::Cast:
  case Kind::Alias:
    return llvm::all_of(node.operands, [&](unsigned operand) {
      return isElementwiseOver(plan, operand, shape, matmuls);
    });
  default:
    return false;
  }
}

std::optional<unsigned>
gpu_lowering::getWarpProductLoad(const Plan &plan, unsigned matmul, bool tf32) {
  const ExprNode &node = plan.exprs[matmul];
  if (node.kind != Kind::Matmul || node.elementKind != ElementKind::F32)
    return std::nullopt;
  // An exact cast (f16 to f32) is an alias in the plan.
  ElementKind left = plan.exprs[node.operands[0]].elementKind;
  ElementKind rightKind = plan.exprs[node.operands[1]].elementKind;
  unsigned right = skipAliases(plan, node.operands[1]);
  bool half = isHalfKind(left) && rightKind == left;
  bool wide = tf32 && left == ElementKind::F32 && rightKind == ElementKind::F32;
  if ((!half && !wide) || plan.exprs[right].kind != Kind::Load ||
      !isHalfKind(plan.exprs[right].elementKind))
    return std::nullopt;
  return right;
}

/// Loop `id` as a warp loop (`WarpLoop`), `warps` not yet set: its body starts
/// with stores of tiles of one shape, 16 rows of 16, 32 or 64 columns, moving
/// with the loop, each computed elementwise from matmuls (16 rows, f32 results,
/// f16 operands) and loads of earlier tiles' regions, the first from at least
/// one matmul; every other statement is an accumulation of `getSplitStores`
/// whose addend is a row sum over a tile's columns or a matmul of an
/// expression of the tiles (16 rows, a multiple of 16 columns) by an f16 load
/// (`getWarpProductLoad`: both f16, or with `tf32` f32 by a cast-up load).
/// The tiles' tensors are read only through loads of the regions their stores
/// write, after those stores.
static std::optional<WarpLoop>
getWarpLoop(const Plan &plan, unsigned id,
            ArrayRef<std::pair<unsigned, unsigned>> aliases,
            const PartitionOptions &options) {
  const StmtNode &loop = plan.stmts[id];
  if (loop.kind != StmtNode::Kind::Loop)
    return std::nullopt;
  std::optional<llvm::DenseMap<unsigned, unsigned>> stores =
      getSplitStores(plan, id, aliases, options.tensorKinds);
  SmallVector<unsigned> leaves;
  collectSequence(plan, loop.first, leaves);
  if (!stores || leaves.empty() ||
      plan.stmts[leaves.front()].kind != StmtNode::Kind::Store)
    return std::nullopt;
  ArrayRef<int64_t> shape = plan.exprs[plan.stmts[leaves.front()].first].shape;
  if (shape.size() < 2 || shape.end()[-2] != 16 ||
      !llvm::is_contained({16, 32, 64}, shape.back()) ||
      plan.exprs[plan.stmts[leaves.front()].first].numElements !=
          16 * shape.back())
    return std::nullopt;
  int64_t columns = shape.back();
  auto isHalf = [&](unsigned e) {
    return isHalfKind(plan.exprs[e].elementKind);
  };
  // Whether expression `e` reads the tiles stored so far only at their
  // regions and no other tile's tensor.
  SmallVector<const Access *> tiles;
  auto readsTilesOnly = [&](unsigned e, bool matmuls) {
    bool fits = true;
    postOrder(plan, e, [&](unsigned n) {
      const ExprNode &node = plan.exprs[n];
      if (node.kind != Kind::Load)
        return;
      for (const Access *tile : tiles)
        fits &=
            !mayOverlap(aliases, node.access.tensor, tile->tensor) ||
            (!matmuls && sameAccess(node.access, *tile) && node.shape == shape);
    });
    return fits;
  };
  WarpLoop warp;
  size_t next = 0;
  for (; next < leaves.size() && !stores->count(leaves[next]); ++next) {
    const StmtNode &store = plan.stmts[leaves[next]];
    ElementKind kind = options.tensorKinds[store.access.tensor];
    if (store.kind != StmtNode::Kind::Store ||
        !movesWithLoop(store.access, loop.var) ||
        (kind != ElementKind::F32 && kind != ElementKind::F16 &&
         kind != ElementKind::BF16) ||
        !isElementwiseOver(plan, store.first, shape, /*matmuls=*/true))
      return std::nullopt;
    // The matmuls: 16-row f32 results from f16 or bf16 operands (one kind),
    // reading no tile.
    bool fits = true, matmul = false;
    forEachLaneMatmul(plan, store.first, [&](unsigned e) {
      const ExprNode &node = plan.exprs[e];
      matmul = true;
      fits &= node.elementKind == ElementKind::F32 && node.sizes[0] == 1 &&
              node.sizes[1] == 16 && node.sizes[2] % 16 == 0 &&
              node.sizes[3] == columns && isHalf(node.operands[0]) &&
              plan.exprs[node.operands[1]].elementKind ==
                  plan.exprs[node.operands[0]].elementKind &&
              readsTilesOnly(e, true);
    });
    // A tile's own tensor is read by later statements only.
    tiles.push_back(&store.access);
    if (!fits || (next == 0 && !matmul) || !readsTilesOnly(store.first, false))
      return std::nullopt;
    if (readsTensor(plan, store.first, store.access.tensor, aliases))
      return std::nullopt;
    warp.tiles.push_back({leaves[next], true});
  }
  if (warp.tiles.empty() || next == leaves.size())
    return std::nullopt;
  for (unsigned leaf : llvm::drop_begin(leaves, next)) {
    auto addend = stores->find(leaf);
    if (addend == stores->end() || !readsTilesOnly(addend->second, false))
      return std::nullopt;
    const ExprNode &g = plan.exprs[addend->second];
    if (g.kind == Kind::Reduce) {
      if (g.reduceFn != ReduceFn::Sum || g.elementKind != ElementKind::F32 ||
          g.sizes[0] != 16 || g.sizes[1] != columns || g.sizes[2] != 1 ||
          !isElementwiseOver(plan, g.operands[0], shape, /*matmuls=*/false))
        return std::nullopt;
    } else if (g.kind == Kind::Matmul) {
      std::optional<unsigned> right =
          getWarpProductLoad(plan, addend->second, options.tf32);
      if (!right || g.sizes[0] != 1 || g.sizes[1] != 16 ||
          g.sizes[2] != columns || g.sizes[3] % 16 != 0 ||
          !isElementwiseOver(plan, g.operands[0], shape, /*matmuls=*/false))
        return std::nullopt;
      warp.productLoads[addend->second] = *right;
    } else {
      return std::nullopt;
    }
    warp.accumulations.push_back({leaf, addend->second});
    warp.laneSums += g.kind == Kind::Reduce ? 2 : g.sizes[3] / 2;
  }
  // A tile need not be stored when it is an intermediate that no store
  // outside the loop reads (and no other tensor may alias).
  SmallVector<const Access *> inside, insideReads;
  collectAccesses(plan, id, inside, insideReads);
  ArrayRef<TensorRole> roles = options.tensorRoles;
  for (std::pair<unsigned, bool> &tile : warp.tiles) {
    unsigned tensor = plan.stmts[tile.first].access.tensor;
    bool &stored = tile.second;
    stored = tensor >= roles.size() ||
             roles[tensor] != TensorRole::Intermediate ||
             isAliased(aliases, tensor);
    for (unsigned s = 0, e = plan.stmts.size(); s < e && !stored; ++s) {
      if (plan.stmts[s].kind != StmtNode::Kind::Store ||
          llvm::is_contained(inside, &plan.stmts[s].access))
        continue;
      postOrder(plan, plan.stmts[s].first, [&](unsigned n) {
        const ExprNode &node = plan.exprs[n];
        stored |= node.kind == Kind::Load && node.access.tensor == tensor;
      });
    }
  }
  return warp;
}

void gpu_lowering::planWarpLoop(const Plan &plan,
                                ArrayRef<std::pair<unsigned, unsigned>> aliases,
                                const PartitionOptions &options,
                                Kernel &kernel) {
  unsigned body = kernel.body;
  if (!options.mma || !options.warpLoops || kernel.parts.size() != 1 ||
      kernel.parts.front().loop || kernel.perElementLoops.contains(body))
    return;
  std::optional<WarpLoop> warp = getWarpLoop(plan, body, aliases, options);
  if (!warp)
    return;
  const StmtNode &only = plan.stmts[body];
  int64_t trips = (only.end - only.start) / only.step;
  int64_t iterations = kernel.splitChunks > 1 ? kernel.chunkTrips : trips;
  warp->warps = unsigned(
      std::clamp<int64_t>(iterations, 1, std::max(1u, options.blockSize / 32)));
  kernel.threads = 32 * warp->warps;
  // The reduction's first round stores half the warps' sums.
  int64_t slots = (warp->warps + 1) / 2;
  int64_t elements = slots * warp->laneSums * 32;
  if (warp->warps > 1 &&
      fitsKernelShared(kernel, elements, options)) {
    warp->reduceInBlock = true;
    kernel.sharedElements = std::max(kernel.sharedElements, elements);
  }
  kernel.warpLoop = std::move(*warp);
}
