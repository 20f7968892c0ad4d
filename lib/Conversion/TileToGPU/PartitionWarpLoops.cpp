//===- PartitionWarpLoops.cpp - Loops run one warp per iteration ----------===//

#include "PartitionInternal.h"

#include <algorithm>
#include <limits>

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::interp;
using namespace mlir::tileir::gpu_lowering;

using Kind = ExprNode::Kind;

/// Whether expression `id` is computed element by element at the elements
/// of a tile of `shape`: loads, constants and elementwise ops of that shape
/// (and, with `matmuls`, matmuls of that shape, not walked into; with
/// `gathers`, the copies of that shape it accepts).
static bool
isElementwiseOver(const Plan &plan, unsigned id, ArrayRef<int64_t> shape,
                  bool matmuls,
                  llvm::function_ref<bool(unsigned)> gathers = nullptr) {
  const ExprNode &node = plan.exprs[id];
  if (node.shape != shape)
    return false;
  switch (node.kind) {
  case Kind::Load:
  case Kind::Constant:
    return true;
  case Kind::Matmul:
    return matmuls;
  case Kind::Gather:
    return gathers && gathers(id);
  case Kind::Unary:
  case Kind::Binary:
  case Kind::Cmp:
  case Kind::Select:
  case Kind::Cast:
  case Kind::Alias:
    return llvm::all_of(node.operands, [&](unsigned operand) {
      return isElementwiseOver(plan, operand, shape, matmuls, gathers);
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

/// The operand of `id` if it is a broadcast along the last dimension.
static std::optional<unsigned> lastDimBroadcastOf(const Plan &plan,
                                                  unsigned id) {
  const ExprNode &node = plan.exprs[id];
  auto bcast = dyn_cast_or_null<BcastOp>(node.op);
  if (node.kind != Kind::Gather || !bcast ||
      bcast.getDims() != ArrayRef<int64_t>{int64_t(node.shape.size()) - 1})
    return std::nullopt;
  return node.operands[0];
}

/// Whether `id` is a constant all of whose elements are `value`.
static bool isSplat(const Plan &plan, unsigned id, double value) {
  const ExprNode &node = plan.exprs[id];
  return node.kind == Kind::Constant && !node.buffer.empty() &&
         llvm::all_of(node.buffer, [&](double v) { return v == value; });
}

static bool isBinary(const Plan &plan, unsigned id, BinaryFn fn) {
  const ExprNode &node = plan.exprs[id];
  return node.kind == Kind::Binary && node.binaryFn == fn &&
         node.elementKind == ElementKind::F32;
}

/// The operand of `binary` that is not `pick(other)`: for a commutative
/// `binary` whose operands are {a, b} with `pick(a)`, returns b.
static std::optional<unsigned>
otherOperand(const Plan &plan, unsigned binary,
             llvm::function_ref<bool(unsigned)> pick) {
  const ExprNode &node = plan.exprs[binary];
  for (unsigned side = 0; side < 2; ++side)
    if (pick(node.operands[side]))
      return node.operands[1 - side];
  return std::nullopt;
}

/// The online form (`WarpLoop::Online`) of a loop whose statements after
/// its tiles are `states` (the accumulations, then the maximum's store),
/// with each accumulation's addend g in `addends`.
static std::optional<WarpLoop::Online>
getOnlineForm(const Plan &plan, ArrayRef<unsigned> states,
              llvm::DenseMap<unsigned, unsigned> &addends) {
  if (states.size() < 2)
    return std::nullopt;
  WarpLoop::Online online;
  online.maxStore = states.back();
  const StmtNode &maxStore = plan.stmts[online.maxStore];
  auto isLoadOf = [&](unsigned e, const StmtNode &store) {
    const ExprNode &node = plan.exprs[e];
    return node.kind == Kind::Load && sameAccess(node.access, store.access);
  };
  auto isLoadM = [&](unsigned e) { return isLoadOf(e, maxStore); };
  // M' = max(M, rmax(X)) over the last dimension.
  unsigned newMax = maxStore.first;
  if (maxStore.kind != StmtNode::Kind::Store ||
      !isBinary(plan, newMax, BinaryFn::Max))
    return std::nullopt;
  std::optional<unsigned> rowMax = otherOperand(plan, newMax, isLoadM);
  if (!rowMax)
    return std::nullopt;
  const ExprNode &r = plan.exprs[*rowMax];
  if (r.kind != Kind::Reduce || r.reduceFn != ReduceFn::Max || r.sizes[2] != 1)
    return std::nullopt;
  online.x = r.operands[0];
  // Ms: M' or select(M' == -inf, 0, M').
  auto isShifted = [&](unsigned e) {
    if (e == newMax)
      return true;
    const ExprNode &sel = plan.exprs[e];
    if (sel.kind != Kind::Select || sel.operands[2] != newMax ||
        !isSplat(plan, sel.operands[1], 0.0))
      return false;
    const ExprNode &cmp = plan.exprs[sel.operands[0]];
    return cmp.kind == Kind::Cmp && cmp.cmpFn == CmpFn::Eq &&
           cmp.operands[0] == newMax &&
           isSplat(plan, cmp.operands[1],
                   -std::numeric_limits<double>::infinity());
  };
  // alpha = exp(M - Ms) or exp(min(M - Ms, 0)).
  auto isAlpha = [&](unsigned e, bool &safe, bool &clamped) {
    const ExprNode &node = plan.exprs[e];
    if (node.kind != Kind::Unary || node.unaryFn != UnaryFn::Exp)
      return false;
    unsigned d = node.operands[0];
    clamped = false;
    if (isBinary(plan, d, BinaryFn::Min)) {
      std::optional<unsigned> diff = otherOperand(
          plan, d, [&](unsigned c) { return isSplat(plan, c, 0.0); });
      if (!diff)
        return false;
      d = *diff;
      clamped = true;
    }
    const ExprNode &sub = plan.exprs[d];
    if (!isBinary(plan, d, BinaryFn::Sub) || !isLoadM(sub.operands[0]) ||
        !isShifted(sub.operands[1]))
      return false;
    safe = sub.operands[1] != newMax;
    return true;
  };
  std::optional<unsigned> alpha, exp;
  for (unsigned leaf : states.drop_back()) {
    const StmtNode &store = plan.stmts[leaf];
    if (store.kind != StmtNode::Kind::Store ||
        !isBinary(plan, store.first, BinaryFn::Add) ||
        store.access.tensor == maxStore.access.tensor)
      return std::nullopt;
    // T * alpha (alpha broadcast along T's last dimension or not).
    auto isScaled = [&](unsigned e) {
      if (!isBinary(plan, e, BinaryFn::Mul))
        return false;
      std::optional<unsigned> factor = otherOperand(
          plan, e, [&](unsigned t) { return isLoadOf(t, store); });
      if (!factor)
        return false;
      unsigned a = lastDimBroadcastOf(plan, *factor).value_or(*factor);
      bool safe = false, clamped = false;
      if ((alpha && a != *alpha) || !isAlpha(a, safe, clamped))
        return false;
      alpha = a;
      online.safe = safe;
      online.clamped = clamped;
      return true;
    };
    std::optional<unsigned> g = otherOperand(plan, store.first, isScaled);
    if (!g)
      return std::nullopt;
    // g reads E = exp(Y - Ms) (cast to f16 for a product's operand).
    const ExprNode &gNode = plan.exprs[*g];
    if (gNode.kind != Kind::Reduce && gNode.kind != Kind::Matmul)
      return std::nullopt;
    unsigned e = gNode.operands[0];
    while (plan.exprs[e].kind == Kind::Cast ||
           plan.exprs[e].kind == Kind::Alias)
      e = plan.exprs[e].operands[0];
    if (exp && e != *exp)
      return std::nullopt;
    exp = e;
    addends[leaf] = *g;
  }
  const ExprNode &expNode = plan.exprs[*exp];
  if (expNode.kind != Kind::Unary || expNode.unaryFn != UnaryFn::Exp ||
      !isBinary(plan, expNode.operands[0], BinaryFn::Sub))
    return std::nullopt;
  const ExprNode &diff = plan.exprs[expNode.operands[0]];
  std::optional<unsigned> shift = lastDimBroadcastOf(plan, diff.operands[1]);
  if (!shift || !isShifted(*shift) ||
      (*shift != newMax) != online.safe)
    return std::nullopt;
  online.exp = *exp;
  online.y = diff.operands[0];
  return online;
}

/// Loop `id` as a warp loop (`WarpLoop`), `warps` not yet set: its body starts
/// with stores of tiles of one shape, 16 rows (an online loop: up to 16) of
/// 16, 32 or 64 columns, moving
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
  if (leaves.empty() ||
      plan.stmts[leaves.front()].kind != StmtNode::Kind::Store)
    return std::nullopt;
  // Not plain accumulations: an online loop, whose states follow its tiles.
  std::optional<WarpLoop::Online> online;
  if (!stores) {
    size_t first = 0;
    while (first < leaves.size() &&
           plan.stmts[leaves[first]].kind == StmtNode::Kind::Store &&
           movesWithLoop(plan.stmts[leaves[first]].access, loop.var))
      ++first;
    llvm::DenseMap<unsigned, unsigned> addends;
    online = getOnlineForm(plan, ArrayRef(leaves).drop_front(first), addends);
    if (!online)
      return std::nullopt;
    stores = std::move(addends);
  }
  ArrayRef<int64_t> shape = plan.exprs[plan.stmts[leaves.front()].first].shape;
  // Fewer than 16 rows (a grouped-query decode's 4 or 7 query rows a KV
  // head) fill the matrix units' 16 with copies of the tile's rows
  // (`rows`): online loops only, whose merges store each real row once.
  int64_t rows = shape.size() < 2 ? 0 : shape.end()[-2];
  if (rows < 1 || rows > 16 || (rows < 16 && !online) ||
      !llvm::is_contained({16, 32, 64}, shape.back()) ||
      plan.exprs[plan.stmts[leaves.front()].first].numElements !=
          rows * shape.back())
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
              node.sizes[1] == rows && node.sizes[2] % 16 == 0 &&
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
  // An online loop's X and Y are functions of its tiles; its states are f32
  // tensors read nowhere else in the loop (their loads are in their own
  // stores), and E is Y's shape.
  SmallVector<unsigned> states;
  if (online) {
    // E = exp(X - max) is in [0, 1] when the maximum is X's own: its
    // products run in f16 (as FlashAttention's P), whatever `tf32` says.
    online->halfProducts = online->y == online->x;
    for (unsigned leaf : llvm::drop_begin(leaves, next)) {
      unsigned tensor = plan.stmts[leaf].access.tensor;
      if (options.tensorKinds[tensor] != ElementKind::F32)
        return std::nullopt;
      states.push_back(tensor);
    }
    auto readsState = [&](unsigned e) {
      return llvm::any_of(states, [&](unsigned tensor) {
        return readsTensor(plan, e, tensor, aliases);
      });
    };
    // Elementwise over the tile shape, but for broadcasts (copies) of what
    // reads no tile: a mask from key and query positions.
    auto readsNoTile = [&](unsigned e) {
      return llvm::none_of(warp.tiles, [&](std::pair<unsigned, bool> tile) {
        return readsTensor(plan, e, plan.stmts[tile.first].access.tensor,
                           aliases);
      });
    };
    for (unsigned e : {online->x, online->y})
      if (!isElementwiseOver(plan, e, shape, /*matmuls=*/false, readsNoTile) ||
          !readsTilesOnly(e, false) || readsState(e))
        return std::nullopt;
    if (plan.exprs[online->exp].shape != shape ||
        llvm::any_of(warp.tiles, [&](std::pair<unsigned, bool> tile) {
          return readsState(plan.stmts[tile.first].first);
        }))
      return std::nullopt;
  }
  for (unsigned leaf : llvm::drop_begin(leaves, next)) {
    if (online && leaf == online->maxStore)
      continue;
    auto addend = stores->find(leaf);
    if (addend == stores->end() ||
        (!online && !readsTilesOnly(addend->second, false)))
      return std::nullopt;
    const ExprNode &g = plan.exprs[addend->second];
    // E stands for an online loop's operand (its shape checked above).
    auto operandFits = [&] {
      return online || isElementwiseOver(plan, g.operands[0], shape,
                                         /*matmuls=*/false);
    };
    if (g.kind == Kind::Reduce) {
      if (g.reduceFn != ReduceFn::Sum || g.elementKind != ElementKind::F32 ||
          g.sizes[0] != rows || g.sizes[1] != columns || g.sizes[2] != 1 ||
          !operandFits())
        return std::nullopt;
    } else if (g.kind == Kind::Matmul) {
      std::optional<unsigned> right =
          getWarpProductLoad(plan, addend->second,
                             options.tf32 || (online && online->halfProducts));
      if (!right || g.sizes[0] != 1 || g.sizes[1] != rows ||
          g.sizes[2] != columns || g.sizes[3] % 16 != 0 || !operandFits())
        return std::nullopt;
      warp.productLoads[addend->second] = *right;
    } else {
      return std::nullopt;
    }
    warp.accumulations.push_back({leaf, addend->second});
    warp.laneSums += g.kind == Kind::Reduce ? 2 : g.sizes[3] / 2;
  }
  warp.loop = id;
  warp.rows = rows;
  warp.online = online;
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
  // An online loop may also be one statement of the body's sequence (the
  // maximum's initial store before it, the normalization after it), in a
  // kernel that is not split. Loops beside it (a second pass over the keys)
  // keep it whole: split, they would run in the last block of each row
  // tile alone.
  bool loopsBeside = false;
  if (!warp && plan.stmts[body].kind == StmtNode::Kind::Seq &&
      kernel.splitChunks == 1) {
    SmallVector<unsigned> leaves;
    collectSequence(plan, body, leaves);
    for (unsigned leaf : leaves) {
      if (plan.stmts[leaf].kind != StmtNode::Kind::Loop ||
          kernel.perElementLoops.contains(leaf))
        continue;
      warp = getWarpLoop(plan, leaf, aliases, options);
      if (warp && warp->online)
        break;
      warp.reset();
    }
    loopsBeside = warp && llvm::any_of(leaves, [&](unsigned leaf) {
                    return leaf != warp->loop &&
                           plan.stmts[leaf].kind == StmtNode::Kind::Loop;
                  });
  }
  if (!warp || (warp->online && kernel.splitChunks > 1))
    return;
  const StmtNode &only = plan.stmts[warp->loop];
  int64_t trips = (only.end - only.start) / only.step;
  int64_t iterations = kernel.splitChunks > 1 ? kernel.chunkTrips : trips;
  warp->warps = unsigned(
      std::clamp<int64_t>(iterations, 1, std::max(1u, options.blockSize / 32)));
  // The block's warps add up their sums in shared memory where it has
  // room: the reduction's first round stores half the warps' sums, and an
  // online loop's warps meet their maxima (16 rows each) beyond them.
  auto placeMerge = [&] {
    int64_t elements = (warp->warps + 1) / 2 * warp->laneSums * 32;
    int64_t maxima = warp->online ? 16 * warp->warps : 0;
    if (warp->warps < 2 ||
        !fitsKernelShared(kernel, elements + maxima, options))
      return false;
    warp->reduceInBlock = true;
    kernel.sharedElements = std::max(kernel.sharedElements, elements + maxima);
    if (warp->online)
      warp->online->maxOffset = elements;
    return true;
  };
  // An online loop's warps must merge: as many as have room (one runs the
  // whole loop alone).
  if (!placeMerge() && warp->online)
    while (warp->warps > 1) {
      warp->warps /= 2;
      if (placeMerge())
        break;
    }
  // An online loop of a kernel short of a quarter of `min_blocks` (4
  // blocks an SM at the strategy's 16: a warp loop's blocks hold 4 warps or
  // more) is cut into chunks of at least one iteration per warp, one block
  // each (split-KV), as far as `split_k` allows, up to an eighth of
  // `min_blocks` in all (2 blocks an SM: every block resident at once, 3
  // fit at ~146 registers); the blocks merge their states through scratch.
  // On the H200 a 16-token decode's 32 row tiles ran 96 us whole, 52.4 /
  // 40.2 / 38.6 / 50.4 us split 2 / 4 / 8 / 16 ways; a 70B grouped-query
  // decode's 64 ran 29.4 / 28.9 / 42.5 / 50.2 us split 2 / 4 / 8 / 16 ways
  // (256 blocks best in both); an 8-head 1024-row causal prefill's 512 ran
  // 106 us split 4 ways, 68 whole.
  // Where a warp a chunk's iteration would leave fewer chunks than that,
  // the blocks have fewer warps, down to 4: on the H200 1-token Llama-3-8B
  // decodes (8 row tiles) ran, as chunks of 8 / 4 / 2 / 1 warps, at 1K
  // keys (16 key tiles: 2 / 4 / 8 / 16 chunks) 12.3 / 11.1 / 11.4 / 13.6
  // us, at 4K (64 key tiles: 8 / 16 / 32 chunks) 13.1 / 12.2 / 14.0
  // (`split_k` caps the chunks: the last block merges them all).
  bool splits = warp->online && !loopsBeside && options.splitK > 1 &&
                4 * kernel.numBlocks < options.minBlocks;
  int64_t wanted = std::min<int64_t>(
      options.splitK,
      llvm::divideCeil(std::max<int64_t>(1, options.minBlocks / 8),
                       kernel.numBlocks));
  while (splits && warp->warps > 4 && trips / warp->warps < wanted) {
    warp->warps /= 2;
    warp->reduceInBlock = false;
    placeMerge();
  }
  kernel.threads = 32 * warp->warps;
  if (splits) {
    int64_t chunks =
        std::min<int64_t>(wanted, std::max<int64_t>(1, trips / warp->warps));
    int64_t chunkTrips = int64_t(llvm::divideCeil(trips, chunks));
    chunks = int64_t(llvm::divideCeil(trips, chunkTrips));
    if (chunks > 1) {
      WarpLoop::Online &online = *warp->online;
      online.stateElements = 16;
      for (auto [store, id] : warp->accumulations)
        online.stateElements += plan.exprs[id].kind == Kind::Reduce
                                    ? 16
                                    : 16 * plan.exprs[id].sizes[3];
      online.scratchOffset = kernel.scratchElements;
      kernel.scratchElements += online.stateElements;
      // The flag, then the weights of the 16 rows' states (the tensors'
      // and each chunk's) in the final maximum.
      online.flag = kernel.sharedElements;
      kernel.sharedElements = online.flag + 1 + 16 * (chunks + 1);
      kernel.splitChunks = unsigned(chunks);
      kernel.chunkTrips = chunkTrips;
      kernel.numBlocks *= chunks;
    }
  }
  kernel.warpLoop = std::move(*warp);
}
