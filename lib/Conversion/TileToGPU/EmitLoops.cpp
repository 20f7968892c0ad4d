//===- EmitLoops.cpp - Statements, loops and element loops ----------------===//

#include "EmitNVIDIA.h"
#include "KernelEmitterImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::interp;
using namespace mlir::tileir::gpu_lowering;

void KernelEmitter::emitStmt(unsigned id) {
  while (true) {
    const StmtNode &stmt = plan.stmts[id];
    switch (stmt.kind) {
    case StmtNode::Kind::Nop:
      return;
    case StmtNode::Kind::Seq:
      emitStmt(stmt.first);
      id = stmt.second;
      // After an online warp loop split across blocks, only the block that
      // merged the chunks runs the rest (uniform per block: its barriers
      // stay block-wide).
      if (Value last = cx.lastBlock) {
        cx.lastBlock = nullptr;
        auto ifLast = scf::IfOp::create(b, loc, last, false);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(ifLast.thenBlock()->getTerminator());
        emitStmt(id);
        return;
      }
      continue;
    case StmtNode::Kind::Loop: {
      if (kernel.warpLoop && id == kernel.warpLoop->loop && emitWarpLoop(stmt))
        return;
      if (kernel.perElementLoops.contains(id)) {
        emitPerElementLoop(stmt);
        return;
      }
      auto [first, last] = iterationBounds(id);
      auto loop = scf::ForOp::create(b, loc, first, last, index(stmt.step));
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(loop.getBody()->getTerminator());
      cx.vars[stmt.var] = loop.getInductionVar();
      emitStmt(stmt.first);
      return;
    }
    case StmtNode::Kind::Store:
      emitStore(id);
      return;
    }
  }
}

std::pair<Value, Value> KernelEmitter::iterationBounds(unsigned id) {
  const StmtNode &loop = plan.stmts[id];
  bool split = id == kernel.body ||
               (kernel.splitsOnline() && id == kernel.warpLoop->loop);
  if (kernel.splitChunks == 1 || !split)
    return {index(loop.start), index(loop.end)};
  int64_t span = kernel.chunkTrips * loop.step;
  Value first = add(index(loop.start), mul(cx.chunk, span));
  return {first, arith::MinUIOp::create(b, loc, add(first, index(span)),
                                        index(loop.end))};
}

void KernelEmitter::emitPerElementLoop(const StmtNode &loop) {
  if (kernel.blockMatmul && &loop == &plan.stmts[kernel.body] &&
      emitBlockMatmul(loop))
    return;
  bool split = kernel.splitChunks > 1 && &loop == &plan.stmts[kernel.body];
  if ((split ||
       kernel.slicedLoops.contains(unsigned(&loop - plan.stmts.data()))) &&
      emitSplitAccumulation(loop))
    return;
  SmallVector<unsigned> leaves;
  collectSequence(plan, loop.first, leaves);
  SmallVector<const StmtNode *> stores;
  // The tensors written at the same region in every iteration, in the order
  // of their first store: they stay in registers across the iterations
  // (loaded before, stored after). A region that moves with the loop is
  // stored in every iteration.
  SmallVector<unsigned> written;
  for (unsigned leaf : leaves) {
    stores.push_back(&plan.stmts[leaf]);
    const Access &access = stores.back()->access;
    if (!movesWithLoop(access, loop.var) &&
        !llvm::is_contained(written, access.tensor))
      written.push_back(access.tensor);
  }
  const ExprNode &shape = plan.exprs[stores.front()->first];
  auto firstStore = [&](unsigned tensor) {
    return *llvm::find_if(
        stores, [&](const StmtNode *s) { return s->access.tensor == tensor; });
  };
  int64_t lanes = lanesFor(shape.numElements);
  std::optional<LaneBlock> block = getLaneBlock(stores, shape.shape, lanes);
  forEachLaneGroup(
      shape.numElements, lanes,
      [&](ValueRange flats, ValueRange valid) {
        SmallVector<Value> inits;
        for (unsigned tensor : written) {
          if (kernel.zeroAccumulators.contains(tensor)) {
            inits.append(flats.size(), constant(0.0));
            continue;
          }
          llvm::append_range(inits,
                             loadLanes(*firstStore(tensor), flats, valid));
        }
        unsigned n = flats.size();
        auto iterations = scf::ForOp::create(
            b, loc, index(loop.start), index(loop.end), index(loop.step), inits,
            [&](OpBuilder &, Location, Value iv, ValueRange values) {
              cx.vars[loop.var] = iv;
              for (auto [t, tensor] : llvm::enumerate(written))
                cx.carried[tensor] = Lanes(values.slice(t * n, n));
              for (const StmtNode *store : stores) {
                Lanes values = formula(store->first, flats);
                if (!cx.carried.count(store->access.tensor)) {
                  storeLanes(*store, values, flats, valid);
                  continue;
                }
                ElementKind kind = tensorKinds[store->access.tensor];
                Lanes next;
                for (Value v : values)
                  next.push_back(toF32(fromF32(v, kind), kind));
                cx.carried[store->access.tensor] = next;
              }
              SmallVector<Value> yields;
              for (unsigned tensor : written)
                llvm::append_range(yields, cx.carried[tensor]);
              scf::YieldOp::create(b, loc, yields);
            });
        cx.carried.clear();
        for (unsigned t = 0; t < written.size(); ++t)
          storeLanes(*firstStore(written[t]),
                     iterations.getResults().slice(t * n, n), flats, valid);
      },
      block);
  gpu::BarrierOp::create(b, loc);
}

void KernelEmitter::emitPrefetches() {
  const StmtNode &loop = plan.stmts[kernel.prefetchLoop];
  auto [first, last] = iterationBounds(kernel.prefetchLoop);
  Value lastIteration = arith::SubIOp::create(b, loc, last, index(loop.step));
  for (int64_t i = 0; i < kernel.prefetchIterations; ++i) {
    // A chunk shorter than the others prefetches its last iteration again.
    cx.vars[loop.var] = arith::MinUIOp::create(
        b, loc, add(first, index(i * loop.step)), lastIteration);
    for (unsigned id : kernel.prefetchLoads) {
      const ExprNode &node = plan.exprs[id];
      unsigned tensor = node.access.tensor;
      int64_t bytes = vectorElementBytes(b.getContext(), tensorKinds[tensor]);
      // Lines of up to 128 bytes along the tile's rows.
      int64_t inner = node.shape.back();
      int64_t lineElements = std::min<int64_t>(inner, 128 / bytes);
      int64_t perRow = llvm::divideCeil(inner, lineElements);
      int64_t lines = node.numElements / inner * perRow;
      auto base = memref::ExtractAlignedPointerAsIndexOp::create(
          b, loc, cx.tensorArgs[tensor]);
      base->setAttr("tile.prefetch", b.getUnitAttr());
      scf::ForOp::create(
          b, loc, cx.threadId, index(lines), index(kernel.threads),
          ValueRange{}, [&](OpBuilder &, Location, Value line, ValueRange) {
            Value flat = add(mul(div(line, perRow), inner),
                             mul(rem(line, perRow), lineElements));
            Value offset = tensorOffset(node.access, node.shape, flat);
            nvidia::prefetchL2(b, loc, globalAddress(tensor, base, offset));
            scf::YieldOp::create(b, loc);
          });
    }
  }
  cx.vars[loop.var] = Value();
  nvidia::waitAfterPrefetches(b, loc);
}
