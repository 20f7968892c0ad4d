//===- EmitStores.cpp - Stores, lanes as vectors, transposes --------------===//

#include "KernelEmitterImpl.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::interp;
using namespace mlir::tileir::gpu_lowering;

using Kind = ExprNode::Kind;

void KernelEmitter::emitStore(unsigned id) {
  const StmtNode &store = plan.stmts[id];
  auto planned = kernel.stores.find(id);
  assert(planned != kernel.stores.end() && "store without a buffer plan");
  cx.buffers = &planned->second;
  for (unsigned e : cx.buffers->order) {
    if (cx.buffers->mma.contains(e)) {
      emitMatrixUnitMatmul(e);
      gpu::BarrierOp::create(b, loc);
      continue;
    }
    const Buffer &buffer = cx.buffers->nodes.find(e)->second;
    if (auto group = cx.buffers->groupReductions.find(e);
        group != cx.buffers->groupReductions.end() &&
        emitGroupReduction(e, buffer, group->second)) {
      gpu::BarrierOp::create(b, loc);
      continue;
    }
    // An elementwise value computes several elements per thread together,
    // their loads issued before the first store (one element at a time
    // waits for each load in turn); matmuls and reductions, loops of their
    // own, one element at a time.
    const ExprNode &node = plan.exprs[e];
    int64_t n = node.numElements;
    int64_t lanes = node.kind == Kind::Matmul || node.kind == Kind::Reduce
                        ? 1
                        : lanesFor(n);
    forEachLaneGroup(n, lanes, [&](ValueRange flats, ValueRange valid) {
      Lanes values = formula(e, flats);
      for (unsigned i = 0; i < flats.size(); ++i)
        ifValid(valid, i, [&] { storeBuffer(buffer, flats[i], values[i]); });
    });
    gpu::BarrierOp::create(b, loc);
  }
  if (auto split = kernel.splitStores.find(id);
      split != kernel.splitStores.end()) {
    // A split loop's accumulation: this chunk's addend, added atomically in
    // aligned runs.
    int64_t n = plan.exprs[store.first].numElements;
    int64_t width = atomicRunWidth(store, n);
    forEachElement(n / width, [&](Value run) {
      Value flat = mul(run, width);
      Lanes flats;
      for (int64_t j = 0; j < width; ++j)
        flats.push_back(add(flat, index(j)));
      atomicAddRun(store, flat, element(split->second, flats));
    });
  } else if (cx.buffers->nodes.count(store.first) ||
             !emitTransposedStore(store)) {
    // Several elements per thread computed together: their loads are
    // issued before any store (a loop of one element at a time waits for
    // each load in turn).
    int64_t n = plan.exprs[store.first].numElements;
    forEachLaneGroup(n, lanesFor(n), [&](ValueRange flats, ValueRange valid) {
      Lanes values = element(store.first, flats);
      for (unsigned i = 0; i < flats.size(); ++i)
        ifValid(valid, i, [&] { storeElement(store, values[i], flats[i]); });
    });
  }
  gpu::BarrierOp::create(b, loc);
  cx.buffers = nullptr;
}

void KernelEmitter::storeElement(const StmtNode &store, Value v, Value flat) {
  Value address =
      tensorOffset(store.access, plan.exprs[store.first].shape, flat);
  memref::StoreOp::create(b, loc, fromF32(v, tensorKinds[store.access.tensor]),
                          cx.tensorArgs[store.access.tensor], address);
}

int64_t KernelEmitter::laneRunWidth(const StmtNode &store, ValueRange flats,
                                    ValueRange valid) const {
  const LaneBlock *block = getBlockOf(flats);
  ArrayRef<int64_t> shape = plan.exprs[store.first].shape;
  if (!block || !valid.empty() || shape.empty() ||
      shape.back() % block->width != 0 ||
      !accessRuns(store.access, block->width))
    return 1;
  return widestRun(store, block->width);
}

int64_t KernelEmitter::widestRun(const StmtNode &store,
                                 int64_t rowElements) const {
  int64_t bytes =
      vectorElementBytes(b.getContext(), tensorKinds[store.access.tensor]);
  ArrayRef<int64_t> shape = plan.exprs[store.first].shape;
  if (!bytes || shape.empty())
    return 1;
  int64_t width = 16 / bytes;
  while (width > 1 && (rowElements % width != 0 || shape.back() % width != 0 ||
                       !accessRuns(store.access, width)))
    width /= 2;
  return width;
}

void KernelEmitter::storeLanes(const StmtNode &store, ValueRange values,
                               ValueRange flats, ValueRange valid) {
  int64_t width = laneRunWidth(store, flats, valid);
  if (width == 1) {
    for (unsigned i = 0; i < flats.size(); ++i)
      ifValid(valid, i, [&] { storeElement(store, values[i], flats[i]); });
    return;
  }
  for (unsigned i = 0; i < flats.size(); i += width)
    storeVector(
        store.access.tensor,
        tensorOffset(store.access, plan.exprs[store.first].shape, flats[i]),
        values.slice(i, width));
}

Lanes KernelEmitter::loadLanes(const StmtNode &store, ValueRange flats,
                               ValueRange valid) {
  int64_t width = laneRunWidth(store, flats, valid);
  ElementKind kind = tensorKinds[store.access.tensor];
  ArrayRef<int64_t> shape = plan.exprs[store.first].shape;
  Value memref = cx.tensorArgs[store.access.tensor];
  Lanes values;
  if (width == 1) {
    for (Value flat : flats)
      values.push_back(
          toF32(memref::LoadOp::create(b, loc, memref,
                                       tensorOffset(store.access, shape, flat)),
                kind));
    return values;
  }
  for (unsigned i = 0; i < flats.size(); i += width) {
    Value vec = loadVector(store.access.tensor,
                           tensorOffset(store.access, shape, flats[i]), width);
    for (int64_t j = 0; j < width; ++j)
      values.push_back(toF32(vector::ExtractOp::create(b, loc, vec, j), kind));
  }
  return values;
}

bool KernelEmitter::emitTransposedStore(const StmtNode &store) {
  const int64_t side = 8;
  const ExprNode &value = plan.exprs[store.first];
  if (value.kind != Kind::Gather || value.copies.size() != 1)
    return false;
  unsigned source = value.operands[0];
  // Dimension `across` of the copy is contiguous in the source, `along` in
  // the destination; each thread takes 8 x 8 blocks of them.
  const StridedCopy &copy = value.copies[0];
  ArrayRef<int64_t> shape = copy.getShape(), src = copy.getSrcStrides(),
                    dst = copy.getDstStrides();
  auto across = llvm::find(src, 1), along = llvm::find(dst, 1);
  if (across == src.end() || along == dst.end())
    return false;
  unsigned a = across - src.begin(), c = along - dst.begin();
  if (a == c || shape[a] % side != 0 || shape[c] % side != 0 ||
      value.shape.back() % side != 0 || !loadsRun(source, side) ||
      !accessRuns(store.access, side) ||
      tensorKinds[store.access.tensor] != plan.exprs[source].elementKind)
    return false;
  // Blocks in row-major order of the copy's dimensions with `along` last
  // (consecutive threads write consecutive vectors).
  SmallVector<unsigned> order;
  for (unsigned d = 0; d < shape.size(); ++d)
    if (d != c)
      order.push_back(d);
  order.push_back(c);
  int64_t blocks = 1;
  for (unsigned d : order)
    blocks *= d == a || d == c ? shape[d] / side : shape[d];
  auto loop = scf::ForOp::create(b, loc, cx.threadId, index(blocks),
                                 index(kernel.threads));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(loop.getBody()->getTerminator());
  Value rest = loop.getInductionVar();
  Value srcFirst = index(0), dstFirst = index(0);
  for (unsigned d : llvm::reverse(order)) {
    int64_t extent = d == a || d == c ? shape[d] / side : shape[d];
    Value coord = mul(rem(rest, extent), d == a || d == c ? side : 1);
    rest = div(rest, extent);
    srcFirst = add(srcFirst, mul(coord, src[d]));
    dstFirst = add(dstFirst, mul(coord, dst[d]));
  }
  // Column j of the block: source elements srcFirst + j * src[c] + i.
  SmallVector<Lanes> columns;
  for (int64_t j = 0; j < side; ++j)
    columns.push_back(
        elementRun(source, add(srcFirst, mul(index(j), src[c])), side));
  for (int64_t i = 0; i < side; ++i) {
    SmallVector<Value> row;
    for (int64_t j = 0; j < side; ++j)
      row.push_back(columns[j][i]);
    Value flat = add(dstFirst, index(i * dst[a]));
    storeVector(store.access.tensor,
                tensorOffset(store.access, value.shape, flat), row);
  }
  return true;
}
