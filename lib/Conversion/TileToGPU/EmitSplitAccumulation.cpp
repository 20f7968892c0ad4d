//===- EmitSplitAccumulation.cpp - Split accumulations, atomics -----------===//

#include "EmitNVIDIA.h"
#include "KernelEmitterImpl.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::interp;
using namespace mlir::tileir::gpu_lowering;

bool KernelEmitter::emitSplitAccumulation(const StmtNode &loop) {
  unsigned id = unsigned(&loop - plan.stmts.data());
  // A sliced loop (`Kernel::slicedLoops`) is the only writer of its
  // regions: it stores its sums. A split body adds them atomically.
  bool sliced = kernel.slicedLoops.contains(id);
  SmallVector<const StmtNode *> stores;
  SmallVector<unsigned> addends;
  if (sliced) {
    SmallVector<unsigned> leaves;
    collectSequence(plan, loop.first, leaves);
    for (unsigned leaf : leaves) {
      stores.push_back(&plan.stmts[leaf]);
      addends.push_back(kernel.slicedAddends.lookup(leaf));
    }
  } else {
    stores.push_back(&plan.stmts[loop.first]);
    addends.push_back(kernel.splitAddend);
  }
  const ExprNode &value = plan.exprs[stores.front()->first];
  BinaryFn fn = combineFn(*stores.front());
  auto [first, last] = iterationBounds(id);
  int64_t n = value.numElements;
  int64_t count = int64_t(stores.size());
  // With k slices, each group of lanes is computed by `kSlices` threads,
  // each of those by `reduceLanes` adjacent ones.
  unsigned slices = kernel.kSlices, reduceLanes = kernel.reduceLanes;
  // (k lanes: one output element per group of them.)
  int64_t lanes = kernel.kLaneWidth > 1 ? 1 : lanesFor(n * slices);
  std::optional<LaneBlock> block = getLaneBlock(stores, value.shape, lanes);
  // (k lanes of a matmul may take more threads than the block has: its
  // threads then take the groups in turn.)
  // (k lanes computing rows of one column: n / kLaneRows groups.)
  int64_t rowsPerGroup = kernel.kLaneRows;
  int64_t layoutThreads = n / lanes / rowsPerGroup * slices * reduceLanes;
  bool slicedLayout =
      slices * reduceLanes > 1 && (block || lanes == 1) &&
      (!block || reduceLanes == 1) &&
      (kernel.kLaneWidth > 1 ? layoutThreads % kernel.threads == 0
                             : layoutThreads == kernel.threads);
  // (A sliced loop whose lanes do not line up runs as any element loop.)
  if (sliced && !slicedLayout)
    return false;
  // Per lane, the sums (or extremes) of every store's addend (store s at
  // s * lanes).
  auto sumChunk = [&](ValueRange flats, Value from, int64_t stride) {
    Lanes zeros(flats.size() * count, combineIdentity(fn));
    auto partial = scf::ForOp::create(
        b, loc, from, last, index(stride), zeros,
        [&](OpBuilder &, Location, Value k, ValueRange sums) {
          cx.vars[loop.var] = k;
          Lanes next;
          for (auto [s, addend] : llvm::enumerate(addends)) {
            Lanes g = element(addend, flats);
            for (auto [sum, x] :
                 llvm::zip_equal(sums.slice(s * flats.size(), flats.size()), g))
              next.push_back(binary(fn, sum, x));
          }
          scf::YieldOp::create(b, loc, ValueRange(next));
        });
    return Lanes(partial.getResults());
  };
  if (slicedLayout) {
    // Thread p: lane p mod reduceLanes of the addend's sum, and with
    // q = p / reduceLanes, slice q / groups of the chunk's iterations, for
    // group q mod groups; the partial sums meet in shared memory, store s
    // of slice (and lane) j at tile j * count + s.
    int64_t groups = n / lanes / rowsPerGroup;
    auto threads = scf::ForOp::create(b, loc, cx.threadId,
                                      index(groups * slices * reduceLanes),
                                      index(kernel.threads));
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(threads.getBody()->getTerminator());
      Value p = threads.getInductionVar();
      Value lane = rem(p, reduceLanes);
      Value q = div(p, reduceLanes);
      Value slice = div(q, groups);
      Lanes flats = block           ? blockFlats(rem(q, groups), *block)
                    : rowsPerGroup > 1 ? kLaneRowFlats(rem(q, groups))
                                       : Lanes{rem(q, groups)};
      Lanes sums;
      auto sumSlice = [&] {
        if (reduceLanes > 1)
          cx.reduceLane = lane;
        sums = sumChunk(flats, add(first, mul(slice, loop.step)),
                        loop.step * slices);
        cx.reduceLane = Value();
      };
      if (block)
        inLaneBlock(flats, *block, sumSlice);
      else
        sumSlice();
      Value base = mul(add(mul(slice, reduceLanes), lane), n * count);
      for (int64_t s = 0; s < count; ++s)
        for (auto [i, flat] : llvm::enumerate(flats))
          memref::StoreOp::create(b, loc, sums[s * flats.size() + i], cx.shared,
                                  add(base, add(flat, index(s * n))));
    }
    gpu::BarrierOp::create(b, loc);
    // Each thread sums the slices of runs of `width` consecutive elements
    // and adds each run with one atomic, or stores it.
    for (int64_t s = 0; s < count; ++s) {
      const StmtNode *store = stores[s];
      unsigned tensor = store->access.tensor;
      int64_t width = sliced ? widestRun(*store, n) : atomicRunWidth(*store, n);
      bool fromZero = kernel.zeroAccumulators.contains(tensor);
      forEachElement(n / width, [&](Value run) {
        Value flat = mul(run, width);
        Lanes totals;
        for (int64_t j = 0; j < width; ++j) {
          Value element = add(flat, index(s * n + j));
          Value total = memref::LoadOp::create(b, loc, cx.shared, element);
          for (unsigned t = 1; t < slices * reduceLanes; ++t)
            total = binary(
                fn, total,
                memref::LoadOp::create(b, loc, cx.shared,
                                       add(index(t * n * count), element)));
          totals.push_back(total);
        }
        if (!sliced)
          return atomicAddRun(*store, flat, totals);
        if (!fromZero) {
          // The sums added to the starting value (the load of S in
          // `S + A B`), as the loop would.
          const ExprNode &root = plan.exprs[store->first];
          unsigned startLoad = root.operands[0] == addends[s]
                                   ? root.operands[1]
                                   : root.operands[0];
          Lanes start = elementRun(startLoad, flat, width);
          for (int64_t j = 0; j < width; ++j)
            totals[j] = binary(fn, start[j], totals[j]);
        }
        if (width > 1)
          return storeVector(
              tensor, tensorOffset(store->access, value.shape, flat), totals);
        storeElement(*store, totals.front(), flat);
      });
    }
    gpu::BarrierOp::create(b, loc);
    return true;
  }
  lanes = lanesFor(n);
  block = getLaneBlock(stores, value.shape, lanes);
  const StmtNode &store = *stores.front();
  forEachLaneGroup(
      n, lanes,
      [&](ValueRange flats, ValueRange valid) {
        Lanes sums = sumChunk(flats, first, loop.step);
        // The rows of a lane block in runs (as storeLanes stores them).
        const LaneBlock *lanesBlock = getBlockOf(flats);
        int64_t width = lanesBlock && valid.empty()
                            ? atomicRunWidth(store, lanesBlock->width)
                            : 1;
        for (unsigned i = 0; i < flats.size(); i += width) {
          if (width > 1) {
            atomicAddRun(store, flats[i], ValueRange(sums).slice(i, width));
            continue;
          }
          ifValid(valid, i, [&] { atomicAddRun(store, flats[i], sums[i]); });
        }
      },
      block);
  gpu::BarrierOp::create(b, loc);
  return true;
}

BinaryFn KernelEmitter::combineFn(const StmtNode &store) const {
  const ExprNode &root = plan.exprs[store.first];
  return root.kind == ExprNode::Kind::Binary &&
                 (root.binaryFn == BinaryFn::Max ||
                  root.binaryFn == BinaryFn::Min)
             ? root.binaryFn
             : BinaryFn::Add;
}

Value KernelEmitter::combineIdentity(BinaryFn fn) {
  double inf = std::numeric_limits<double>::infinity();
  return constant(fn == BinaryFn::Max ? -inf : fn == BinaryFn::Min ? inf : 0.0);
}

int64_t KernelEmitter::atomicRunWidth(const StmtNode &store,
                                      int64_t rowElements) const {
  if (!kernel.vectorAtomics ||
      tensorKinds[store.access.tensor] != ElementKind::F32 ||
      combineFn(store) != BinaryFn::Add)
    return 1;
  return widestRun(store, rowElements);
}

void KernelEmitter::atomicAddRun(const StmtNode &store, Value flat,
                                 ValueRange values) {
  Value memref = cx.tensorArgs[store.access.tensor];
  Value offset =
      tensorOffset(store.access, plan.exprs[store.first].shape, flat);
  if (values.size() == 1) {
    BinaryFn fn = combineFn(store);
    auto kind = fn == BinaryFn::Max   ? arith::AtomicRMWKind::maxnumf
                : fn == BinaryFn::Min ? arith::AtomicRMWKind::minnumf
                                      : arith::AtomicRMWKind::addf;
    memref::AtomicRMWOp::create(b, loc, kind, values.front(), memref,
                                ValueRange{offset});
    return;
  }
  // One vector reduction into global memory (PTX 8.1 on sm_90), the run
  // aligned to its size (accessRuns), at the tensor's base plus the run's
  // offset.
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  Value address = globalAddress(store.access.tensor, base, offset);
  nvidia::vectorAtomicAdd(b, loc, address, values);
}
