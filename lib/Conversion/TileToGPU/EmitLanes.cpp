//===- EmitLanes.cpp - Elements and lanes over the block's threads --------===//

#include "KernelEmitterImpl.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <algorithm>
#include <utility>

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::interp;
using namespace mlir::tileir::gpu_lowering;

void KernelEmitter::forEachElement(int64_t n,
                                   llvm::function_ref<void(Value)> body) {
  forEachLaneGroup(n, /*lanes=*/1,
                   [&](ValueRange flats, ValueRange) { body(flats.front()); });
}

void KernelEmitter::forEachLaneGroup(
    int64_t n, int64_t lanes,
    llvm::function_ref<void(ValueRange, ValueRange)> body,
    std::optional<LaneBlock> block) {
  if (block) {
    // Every group lies inside the tile: the block divides it.
    auto loop = scf::ForOp::create(b, loc, cx.threadId, index(n / lanes),
                                   index(kernel.threads));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(loop.getBody()->getTerminator());
    Lanes flats = blockFlats(loop.getInductionVar(), *block);
    inLaneBlock(flats, *block, [&] { body(flats, {}); });
    return;
  }
  int64_t span = lanes * kernel.threads;
  auto loop = scf::ForOp::create(b, loc, cx.threadId, index(n), index(span));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(loop.getBody()->getTerminator());
  Value group = loop.getInductionVar();
  Lanes flats, valid;
  for (int64_t i = 0; i < lanes; ++i) {
    Value flat = add(group, index(i * kernel.threads));
    if (n % span == 0 || i == 0) {
      flats.push_back(flat);
      continue;
    }
    Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                         flat, index(n));
    flats.push_back(arith::MinUIOp::create(b, loc, flat, index(n - 1)));
    valid.push_back(inside);
  }
  body(flats, valid);
}

int64_t KernelEmitter::lanesFor(int64_t n) const {
  int64_t perThread = (n + kernel.threads - 1) / kernel.threads;
  return std::clamp<int64_t>(perThread, 1, kernel.maxLanes);
}

Lanes KernelEmitter::blockFlats(Value group, const LaneBlock &block) {
  Value first;
  if (block.mma) {
    // Groups of one warp (consecutive, 32 of them) share its 16-row tile.
    int64_t tileWidth = 4 * block.width;
    int64_t tilesPerRow = block.rowLength / tileWidth;
    Value tile = div(group, 32), lane = rem(group, 32);
    Value row = add(mul(div(tile, tilesPerRow), 16), div(lane, 4));
    Value col = add(mul(rem(tile, tilesPerRow), tileWidth),
                    mul(rem(lane, 4), block.width));
    first = add(mul(row, block.rowLength), col);
  } else {
    int64_t columnGroups = block.rowLength / block.width;
    first = add(mul(div(group, columnGroups), block.rows * block.rowLength),
                mul(rem(group, columnGroups), block.width));
  }
  Lanes flats;
  for (int64_t r = 0; r < block.rows; ++r)
    for (int64_t v = 0; v < block.width; ++v)
      flats.push_back(
          add(first, index(r * block.rowStride * block.rowLength + v)));
  return flats;
}

void KernelEmitter::inLaneBlock(ValueRange flats, const LaneBlock &block,
                                llvm::function_ref<void()> body) {
  Lanes outerLanes = std::exchange(cx.blockLanes, Lanes(flats));
  LaneBlock outerBlock = std::exchange(cx.currentBlock, block);
  body();
  cx.blockLanes = std::move(outerLanes);
  cx.currentBlock = outerBlock;
}

const LaneBlock *KernelEmitter::getBlockOf(ValueRange flats) const {
  return !cx.blockLanes.empty() && llvm::equal(flats, cx.blockLanes)
             ? &cx.currentBlock
             : nullptr;
}

void KernelEmitter::ifValid(ValueRange valid, unsigned i,
                            llvm::function_ref<void()> body) {
  // Lane 0 is always inside the tile; `valid` holds lanes 1 and up.
  if (valid.empty() || i == 0)
    return body();
  auto ifOp = scf::IfOp::create(b, loc, valid[i - 1], /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  body();
}

Lanes KernelEmitter::reduceLoop(
    int64_t n, ValueRange inits,
    llvm::function_ref<Lanes(Value, ValueRange)> step) {
  if (n == 1)
    return step(index(0), inits);
  auto loop = scf::ForOp::create(
      b, loc, index(0), index(n), index(1), inits,
      [&](OpBuilder &, Location, Value i, ValueRange accs) {
        scf::YieldOp::create(b, loc, ValueRange(step(i, accs)));
      });
  return Lanes(loop.getResults());
}
