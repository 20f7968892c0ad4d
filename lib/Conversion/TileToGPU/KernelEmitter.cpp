//===- KernelEmitter.cpp - One GPU kernel from a partitioned plan ---------===//

#include "KernelEmitter.h"
#include "KernelEmitterImpl.h"
#include "EmitNVIDIA.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/SymbolTable.h"

#include <algorithm>
#include <array>
#include <functional>
#include <limits>
#include <string>
#include <utility>

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::interp;
using namespace mlir::tileir::gpu_lowering;

using Kind = ExprNode::Kind;

Type gpu_lowering::getStorageType(MLIRContext *ctx, ElementKind kind) {
  switch (kind) {
  case ElementKind::F16:
    return Float16Type::get(ctx);
  case ElementKind::BF16:
    return BFloat16Type::get(ctx);
  case ElementKind::F32:
    return Float32Type::get(ctx);
  case ElementKind::I1:
    return IntegerType::get(ctx, 8);
  case ElementKind::F64:
    return nullptr;
  }
  return nullptr;
}

LogicalResult gpu_lowering::emitKernelBody(const Plan &plan,
                                           const Kernel &kernel,
                                           ArrayRef<ElementKind> tensorKinds,
                                           gpu::GPUFuncOp func) {
  EmissionContext cx(plan, kernel, tensorKinds, func);
  KernelEmitter(cx).run();
  return success();
}

KernelEmitter::KernelEmitter(EmissionContext &cx)
    : cx(cx), plan(cx.plan), kernel(cx.kernel), tensorKinds(cx.tensorKinds),
      b(cx.b), loc(cx.loc), f32(cx.b.getF32Type()) {}

void KernelEmitter::run() {
  Block &entry = cx.func.getBody().front();
  b.setInsertionPointToStart(&entry);
  unsigned arg = 0;
  for (unsigned tensor : kernel.tensors)
    cx.tensorArgs[tensor] = entry.getArgument(arg++);
  if (kernel.scratchElements)
    cx.scratch = entry.getArgument(arg++);
  if (kernel.epilogue)
    cx.counters = entry.getArgument(arg++);
  if (kernel.sharedElements)
    cx.shared = cx.func.getWorkgroupAttributions().front();
  if (kernel.sharedHalfElements)
    cx.sharedHalf = cx.func.getWorkgroupAttributions().back();

  cx.threadId = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  cx.vars.assign(plan.numVars, Value());
  Value block = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  // Block = ((grid loops, outermost slowest) * partBlocks + part iteration)
  //         * splitChunks + chunk.
  cx.chunk = rem(block, kernel.splitChunks);
  Value withoutChunk = div(block, kernel.splitChunks);
  Value partIteration = rem(withoutChunk, kernel.partBlocks);
  Value rest = div(withoutChunk, kernel.partBlocks);
  for (const GridLoop &g : llvm::reverse(kernel.grid)) {
    Value iteration = rem(rest, g.trips);
    rest = div(rest, g.trips);
    cx.vars[g.var] = add(index(g.start), mul(iteration, g.step));
  }
  if (kernel.scratchElements)
    cx.scratchBase = mul(block, kernel.scratchElements);
  if (!kernel.prefetchLoads.empty())
    emitPrefetches();
  for (const KernelPart &part : kernel.parts) {
    if (!part.loop) {
      emitStmt(part.stmt);
      continue;
    }
    const GridLoop &g = *part.loop;
    cx.vars[g.var] = add(index(g.start), mul(partIteration, g.step));
    if (g.trips == kernel.partBlocks) {
      emitStmt(part.stmt);
      continue;
    }
    // Uniform per block, so the barriers inside stay block-wide.
    Value active = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                         partIteration, index(g.trips));
    auto ifOp = scf::IfOp::create(b, loc, active, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    emitStmt(part.stmt);
  }
  if (kernel.epilogue)
    emitEpilogue(withoutChunk);
  gpu::ReturnOp::create(b, loc);
}

//===----------------------------------------------------------------------===//
// Split epilogues
//===----------------------------------------------------------------------===//

void KernelEmitter::emitEpilogue(Value gridPoint) {
  auto fence = [&] {
    LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::acq_rel);
  };
  // The block's adds (ordered before thread 0's by the barrier, fences
  // being cumulative) are visible before it counts itself.
  gpu::BarrierOp::create(b, loc);
  Value slot = add(index(kernel.epilogueCounters), gridPoint);
  Value flag = index(kernel.epilogueFlag);
  Value zero = constant(0.0);
  // Thread 0 alone: a thread loop of one element.
  forEachElement(1, [&](Value) {
    fence();
    Value before = memref::AtomicRMWOp::create(
        b, loc, arith::AtomicRMWKind::addf, constant(1.0), cx.counters,
        ValueRange{slot});
    Value last =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, before,
                              constant(double(kernel.epilogueArrivals - 1)));
    memref::StoreOp::create(
        b, loc, arith::SelectOp::create(b, loc, last, constant(1.0), zero),
        cx.shared, flag);
    // The other blocks' adds are visible to the epilogue's loads (which
    // the barrier orders after this).
    fence();
  });
  gpu::BarrierOp::create(b, loc);
  Value isLast = arith::CmpFOp::create(
      b, loc, arith::CmpFPredicate::ONE,
      memref::LoadOp::create(b, loc, cx.shared, flag), zero);
  auto ifLast = scf::IfOp::create(b, loc, isLast, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(ifLast.thenBlock()->getTerminator());
  EmissionContext epilogue(plan, *kernel.epilogue, tensorKinds, cx.func);
  KernelEmitter(epilogue).runAsEpilogue(cx);
  forEachElement(1, [&](Value) {
    memref::StoreOp::create(b, loc, zero, cx.counters, slot);
  });
}

void KernelEmitter::runAsEpilogue(const EmissionContext &producer) {
  b.setInsertionPoint(producer.b.getInsertionBlock(),
                      producer.b.getInsertionPoint());
  cx.tensorArgs = producer.tensorArgs;
  cx.threadId = producer.threadId;
  // The epilogue's grid is the producer's: same variables, same values.
  cx.vars = producer.vars;
  cx.chunk = index(0);
  emitStmt(kernel.parts.front().stmt);
}

//===----------------------------------------------------------------------===//
// Statements and loops
//===----------------------------------------------------------------------===//

void KernelEmitter::emitStmt(unsigned id) {
  while (true) {
    const StmtNode &stmt = plan.stmts[id];
    switch (stmt.kind) {
    case StmtNode::Kind::Nop:
      return;
    case StmtNode::Kind::Seq:
      emitStmt(stmt.first);
      id = stmt.second;
      continue;
    case StmtNode::Kind::Loop: {
      if (kernel.warpLoop && id == kernel.body && emitWarpLoop(stmt))
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
  if (kernel.splitChunks == 1 || id != kernel.body)
    return {index(loop.start), index(loop.end)};
  int64_t span = kernel.chunkTrips * loop.step;
  Value first = add(index(loop.start), mul(cx.chunk, span));
  return {first, arith::MinUIOp::create(b, loc, add(first, index(span)),
                                        index(loop.end))};
}

void KernelEmitter::emitPerElementLoop(const StmtNode &loop) {
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

//===----------------------------------------------------------------------===//
// Elements and lanes over the threads
//===----------------------------------------------------------------------===//

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

//===----------------------------------------------------------------------===//
// Index arithmetic and memory
//===----------------------------------------------------------------------===//

//===----------------------------------------------------------------------===//
// Index arithmetic
//===----------------------------------------------------------------------===//

Value KernelEmitter::add(Value x, Value y) {
  std::optional<int64_t> cx = getConstantIntValue(x),
                         cy = getConstantIntValue(y);
  if (cx && cy)
    return index(*cx + *cy);
  if (cx == 0)
    return y;
  if (cy == 0)
    return x;
  return arith::AddIOp::create(b, loc, x, y);
}

Value KernelEmitter::mul(Value x, int64_t c) {
  if (std::optional<int64_t> cx = getConstantIntValue(x))
    return index(*cx * c);
  if (c == 0)
    return index(0);
  if (c == 1)
    return x;
  return arith::MulIOp::create(b, loc, x, index(c));
}

/// `x` as `y + k` with a constant k (k = 0 when x is no such sum).
static std::pair<Value, int64_t> splitConstant(Value x) {
  if (auto sum = x.getDefiningOp<arith::AddIOp>())
    if (std::optional<int64_t> k = getConstantIntValue(sum.getRhs()))
      return {sum.getLhs(), *k};
  return {x, 0};
}

// Indices are never negative, so (y + k) / c = y / c + k / c and
// (y + k) mod c = y mod c when c divides k: the lanes of a thread
// (element g + i * threads) then share the index arithmetic of g.
Value KernelEmitter::div(Value x, int64_t c) {
  if (std::optional<int64_t> cx = getConstantIntValue(x))
    return index(*cx / c);
  if (c == 1)
    return x;
  if (auto [y, k] = splitConstant(x); k && k % c == 0)
    return add(div(y, c), index(k / c));
  return arith::DivUIOp::create(b, loc, x, index(c));
}

Value KernelEmitter::rem(Value x, int64_t c) {
  if (std::optional<int64_t> cx = getConstantIntValue(x))
    return index(*cx % c);
  if (c == 1)
    return index(0);
  if (auto [y, k] = splitConstant(x); k && k % c == 0)
    return rem(y, c);
  return arith::RemUIOp::create(b, loc, x, index(c));
}

//===----------------------------------------------------------------------===//
// Element kinds
//===----------------------------------------------------------------------===//

int64_t gpu_lowering::vectorElementBytes(MLIRContext *ctx, ElementKind kind) {
  if (kind != ElementKind::F16 && kind != ElementKind::BF16 &&
      kind != ElementKind::F32)
    return 0;
  return getStorageType(ctx, kind).getIntOrFloatBitWidth() / 8;
}

Value KernelEmitter::toF32(Value stored, ElementKind kind) {
  switch (kind) {
  case ElementKind::F16:
  case ElementKind::BF16:
    return arith::ExtFOp::create(b, loc, f32, stored);
  case ElementKind::I1:
    return arith::UIToFPOp::create(b, loc, f32, stored);
  default:
    return stored;
  }
}

Value KernelEmitter::fromF32(Value v, ElementKind kind) {
  switch (kind) {
  case ElementKind::F16:
  case ElementKind::BF16:
    return arith::TruncFOp::create(b, loc, getStorageType(b.getContext(), kind),
                                   v);
  case ElementKind::I1: {
    Value nonzero = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, v,
                                          constant(0.0));
    return arith::ExtUIOp::create(b, loc, b.getI8Type(), nonzero);
  }
  default:
    return v;
  }
}

Value KernelEmitter::round(Value v, ElementKind kind) {
  switch (kind) {
  case ElementKind::F16:
  case ElementKind::BF16:
  case ElementKind::I1:
    return toF32(fromF32(v, kind), kind);
  default:
    return v;
  }
}

//===----------------------------------------------------------------------===//
// Tensors
//===----------------------------------------------------------------------===//

Value KernelEmitter::tensorOffset(const Access &access,
                                  ArrayRef<int64_t> tileShape, Value flat) {
  SmallVector<int64_t, 4> tileStrides = rowMajorStrides(tileShape);
  Value offset = index(0);
  for (auto [d, dim] : llvm::enumerate(access.dims)) {
    Value start;
    switch (dim.kind) {
    case DimIndex::Kind::Full:
      start = index(0);
      break;
    case DimIndex::Kind::Tile:
      start = cx.vars[dim.var];
      break;
    case DimIndex::Kind::Elem:
      start = div(cx.vars[dim.var], dim.step);
      break;
    case DimIndex::Kind::Const:
      start = index(dim.base);
      break;
    }
    Value coord = tileShape[d] == 1
                      ? index(0)
                      : rem(div(flat, tileStrides[d]), tileShape[d]);
    offset = add(offset, mul(add(start, coord), access.tensorStrides[d]));
  }
  return offset;
}

Value KernelEmitter::gatherSource(const StridedCopy &copy, Value flat) {
  Value source = index(0);
  for (auto [extent, src, dst] : llvm::zip_equal(
           copy.getShape(), copy.getSrcStrides(), copy.getDstStrides()))
    source = add(source, mul(rem(div(flat, dst), extent), src));
  return source;
}

bool KernelEmitter::accessRuns(const Access &access, int64_t count) const {
  if (!vectorElementBytes(b.getContext(), tensorKinds[access.tensor]) ||
      access.tensorStrides.back() != 1)
    return false;
  // The run starts at a multiple of `count` in the tensor: every row of the
  // tensor does, and so does the region along the innermost dimension.
  for (int64_t stride : ArrayRef(access.tensorStrides).drop_back())
    if (stride % count != 0)
      return false;
  const DimIndex &inner = access.dims.back();
  switch (inner.kind) {
  case DimIndex::Kind::Full:
    return true;
  case DimIndex::Kind::Const:
    return inner.base % count == 0;
  case DimIndex::Kind::Elem:
    return false;
  case DimIndex::Kind::Tile:
    return llvm::all_of(plan.stmts, [&](const StmtNode &stmt) {
      return stmt.kind != StmtNode::Kind::Loop || stmt.var != inner.var ||
             (stmt.start % count == 0 && stmt.step % count == 0);
    });
  }
  return false;
}

Value KernelEmitter::loadVector(unsigned tensor, Value offset, int64_t width) {
  ElementKind stored = tensorKinds[tensor];
  auto type = VectorType::get({width}, getStorageType(b.getContext(), stored));
  int64_t bytes = vectorElementBytes(b.getContext(), stored);
  return vector::LoadOp::create(b, loc, type, cx.tensorArgs[tensor],
                                ValueRange{offset}, /*nontemporal=*/false,
                                /*alignment=*/llvm::MaybeAlign(width * bytes));
}

void KernelEmitter::storeVector(unsigned tensor, Value offset,
                                ValueRange values) {
  ElementKind stored = tensorKinds[tensor];
  int64_t width = values.size();
  auto type = VectorType::get({width}, getStorageType(b.getContext(), stored));
  SmallVector<Value> elements;
  for (Value v : values)
    elements.push_back(fromF32(v, stored));
  Value vec = vector::FromElementsOp::create(b, loc, type, elements);
  int64_t bytes = vectorElementBytes(b.getContext(), stored);
  vector::StoreOp::create(b, loc, vec, cx.tensorArgs[tensor],
                          ValueRange{offset},
                          /*nontemporal=*/false,
                          /*alignment=*/llvm::MaybeAlign(width * bytes));
}

Value KernelEmitter::globalAddress(unsigned tensor, Value base, Value offset) {
  int64_t bytes = vectorElementBytes(b.getContext(), tensorKinds[tensor]);
  return arith::IndexCastUIOp::create(b, loc, b.getI64Type(),
                                      add(base, mul(offset, bytes)));
}

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

Value KernelEmitter::bufferAddress(const Buffer &buffer, Value flat,
                                   Value &memref) {
  memref = !buffer.shared ? cx.scratch
           : buffer.half  ? cx.sharedHalf
                          : cx.shared;
  Value base = buffer.shared ? index(buffer.offset)
                             : add(cx.scratchBase, index(buffer.offset));
  return add(base, flat);
}

Value KernelEmitter::loadBuffer(const Buffer &buffer, Value flat) {
  Value memref;
  Value address = bufferAddress(buffer, flat, memref);
  Value v = memref::LoadOp::create(b, loc, memref, address);
  return buffer.half ? toF32(v, ElementKind::F16) : v;
}

void KernelEmitter::storeBuffer(const Buffer &buffer, Value flat, Value v) {
  if (buffer.half)
    v = fromF32(v, ElementKind::F16);
  Value memref;
  Value address = bufferAddress(buffer, flat, memref);
  memref::StoreOp::create(b, loc, v, memref, address);
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

Lanes KernelEmitter::element(unsigned id, ValueRange flats) {
  if (cx.buffers) {
    auto it = cx.buffers->nodes.find(id);
    if (it != cx.buffers->nodes.end()) {
      Lanes values;
      for (Value flat : flats)
        values.push_back(loadBuffer(it->second, flat));
      return values;
    }
  }
  return formula(id, flats);
}

static arith::CmpFPredicate getPredicate(CmpFn fn) {
  switch (fn) {
  case CmpFn::Eq:
    return arith::CmpFPredicate::OEQ;
  case CmpFn::Ne:
    return arith::CmpFPredicate::UNE;
  case CmpFn::Lt:
    return arith::CmpFPredicate::OLT;
  case CmpFn::Le:
    return arith::CmpFPredicate::OLE;
  case CmpFn::Gt:
    return arith::CmpFPredicate::OGT;
  case CmpFn::Ge:
    return arith::CmpFPredicate::OGE;
  }
  llvm_unreachable("unknown comparison");
}

Lanes KernelEmitter::formula(unsigned id, ValueRange flats) {
  const ExprNode &node = plan.exprs[id];
  auto operand = [&](unsigned i, ValueRange f) {
    return element(node.operands[i], f);
  };
  // Applies `fn` lane by lane.
  auto perLane = [&](llvm::function_ref<Value(unsigned)> fn) {
    Lanes values;
    for (unsigned i = 0, e = flats.size(); i < e; ++i)
      values.push_back(fn(i));
    return values;
  };
  Lanes v;
  switch (node.kind) {
  case Kind::Load: {
    ElementKind stored = tensorKinds[node.access.tensor];
    auto running = cx.carried.find(node.access.tensor);
    if (running != cx.carried.end()) {
      // An element loop's own element (Partition.cpp checks that the loop
      // reads what it writes nowhere else).
      v = running->second;
    } else {
      v = perLane([&](unsigned i) {
        Value address = tensorOffset(node.access, node.shape, flats[i]);
        return toF32(memref::LoadOp::create(
                         b, loc, cx.tensorArgs[node.access.tensor], address),
                     stored);
      });
    }
    if (stored == node.elementKind)
      return v;
    break;
  }
  case Kind::Constant: {
    if (llvm::all_equal(node.buffer)) {
      Value c = constant(node.buffer.empty() ? 0.0 : node.buffer[0]);
      return Lanes(flats.size(), c);
    }
    return perLane([&](unsigned i) { return denseConstant(id, flats[i]); });
  }
  case Kind::Unary: {
    Lanes x = operand(0, flats);
    v = perLane([&](unsigned i) { return unary(node.unaryFn, x[i]); });
    break;
  }
  case Kind::Binary: {
    Lanes x = operand(0, flats), y = operand(1, flats);
    v = perLane([&](unsigned i) { return binary(node.binaryFn, x[i], y[i]); });
    break;
  }
  case Kind::Cmp: {
    Lanes x = operand(0, flats), y = operand(1, flats);
    return perLane([&](unsigned i) {
      Value c =
          arith::CmpFOp::create(b, loc, getPredicate(node.cmpFn), x[i], y[i]);
      return Value(
          arith::SelectOp::create(b, loc, c, constant(1.0), constant(0.0)));
    });
  }
  case Kind::Select: {
    Lanes c = operand(0, flats), x = operand(1, flats), y = operand(2, flats);
    return perLane([&](unsigned i) {
      Value cond = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE,
                                         c[i], constant(0.0));
      return Value(arith::SelectOp::create(b, loc, cond, x[i], y[i]));
    });
  }
  case Kind::Reduce:
    v = reductionLanes(id, flats);
    break;
  case Kind::Matmul:
    v = matmulLanes(id, flats);
    break;
  case Kind::Gather: {
    const StridedCopy &copy = node.copies[0];
    Lanes sources =
        perLane([&](unsigned i) { return gatherSource(copy, flats[i]); });
    return operand(0, sources);
  }
  case Kind::Alias:
    return operand(0, flats);
  case Kind::Concat:
    return perLane([&](unsigned i) { return concat(node, flats[i]); });
  case Kind::Cast:
    v = operand(0, flats);
    break;
  }
  if (!node.round)
    return v;
  return perLane([&](unsigned i) { return round(v[i], node.elementKind); });
}

Value KernelEmitter::unary(UnaryFn fn, Value x) {
  switch (fn) {
  case UnaryFn::Neg:
    return arith::NegFOp::create(b, loc, x);
  case UnaryFn::Abs:
    return math::AbsFOp::create(b, loc, x);
  case UnaryFn::Sqr:
    return arith::MulFOp::create(b, loc, x, x);
  case UnaryFn::Exp:
    return math::ExpOp::create(b, loc, x);
  case UnaryFn::Log:
    return math::LogOp::create(b, loc, x);
  case UnaryFn::Sqrt:
    return math::SqrtOp::create(b, loc, x);
  case UnaryFn::Rsqrt:
    return math::RsqrtOp::create(b, loc, x);
  case UnaryFn::Sigmoid: {
    Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, x));
    return arith::DivFOp::create(
        b, loc, constant(1.0), arith::AddFOp::create(b, loc, constant(1.0), e));
  }
  case UnaryFn::Tanh:
    return math::TanhOp::create(b, loc, x);
  case UnaryFn::Erf:
    return math::ErfOp::create(b, loc, x);
  }
  llvm_unreachable("unknown unary function");
}

Value KernelEmitter::binary(BinaryFn fn, Value x, Value y) {
  switch (fn) {
  case BinaryFn::Add:
    return arith::AddFOp::create(b, loc, x, y);
  case BinaryFn::Sub:
    return arith::SubFOp::create(b, loc, x, y);
  case BinaryFn::Mul:
    return arith::MulFOp::create(b, loc, x, y);
  case BinaryFn::Div:
    return arith::DivFOp::create(b, loc, x, y);
  case BinaryFn::Max:
    return arith::MaxNumFOp::create(b, loc, x, y);
  case BinaryFn::Min:
    return arith::MinNumFOp::create(b, loc, x, y);
  }
  llvm_unreachable("unknown binary function");
}

Value KernelEmitter::concat(const ExprNode &node, Value flat) {
  int64_t axis = cast<ConcatOp>(node.op).axis();
  int64_t inner = 1;
  for (int64_t d = axis + 1, e = node.shape.size(); d < e; ++d)
    inner *= node.shape[d];
  Value outer = div(flat, node.shape[axis] * inner);
  Value along = rem(div(flat, inner), node.shape[axis]);
  Value within = rem(flat, inner);
  // Operand i covers [begin_i, begin_i + extent_i) along the axis.
  std::function<Value(unsigned, int64_t)> pick = [&](unsigned i,
                                                     int64_t begin) -> Value {
    int64_t extent = plan.exprs[node.operands[i]].shape[axis];
    auto operandElement = [&]() {
      Value position = arith::SubIOp::create(b, loc, along, index(begin));
      Value f = add(mul(add(mul(outer, extent), position), inner), within);
      return element(node.operands[i], f)[0];
    };
    if (i + 1 == node.operands.size())
      return operandElement();
    Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                         along, index(begin + extent));
    auto ifOp = scf::IfOp::create(
        b, loc, inside,
        [&](OpBuilder &, Location) {
          scf::YieldOp::create(b, loc, operandElement());
        },
        [&](OpBuilder &, Location) {
          scf::YieldOp::create(b, loc, pick(i + 1, begin + extent));
        });
    return ifOp.getResult(0);
  };
  return pick(0, 0);
}

Value KernelEmitter::denseConstant(unsigned id, Value flat) {
  const ExprNode &node = plan.exprs[id];
  auto type = MemRefType::get({node.numElements}, f32);
  // Named after the kernel: another kernel of the module numbers its own
  // expressions from 0 too.
  std::string name =
      ("__tile_constant_" + cx.func.getName() + "_" + Twine(id)).str();
  auto module = cx.func->getParentOfType<gpu::GPUModuleOp>();
  if (!SymbolTable::lookupSymbolIn(module, name)) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(cx.func);
    SmallVector<float> values(node.buffer.begin(), node.buffer.end());
    auto init = DenseElementsAttr::get(
        RankedTensorType::get({node.numElements}, f32), ArrayRef(values));
    memref::GlobalOp::create(b, loc, name, b.getStringAttr("private"), type,
                             init, /*constant=*/true, /*alignment=*/nullptr);
  }
  Value global = memref::GetGlobalOp::create(b, loc, type, name);
  return memref::LoadOp::create(b, loc, global, flat);
}

//===----------------------------------------------------------------------===//
// Runs of consecutive elements
//===----------------------------------------------------------------------===//

bool KernelEmitter::loadsRun(unsigned id, int64_t count) const {
  const ExprNode &node = plan.exprs[id];
  if (node.shape.empty() || node.shape.back() % count != 0 ||
      (cx.buffers && cx.buffers->nodes.count(id)))
    return false;
  switch (node.kind) {
  case Kind::Alias:
  case Kind::Cast:
    return loadsRun(node.operands[0], count);
  case Kind::Load:
    break;
  default:
    return false;
  }
  return !cx.carried.count(node.access.tensor) &&
         accessRuns(node.access, count);
}

Lanes KernelEmitter::elementRun(unsigned id, Value flat0, int64_t count) {
  const ExprNode &node = plan.exprs[id];
  if (!loadsRun(id, count)) {
    if (std::optional<Lanes> v = elementwiseRun(id, flat0, count))
      return *v;
    Lanes flats;
    for (int64_t i = 0; i < count; ++i)
      flats.push_back(add(flat0, index(i)));
    return element(id, flats);
  }
  if (node.kind != Kind::Load) {
    Lanes v = elementRun(node.operands[0], flat0, count);
    if (node.kind == Kind::Cast && node.round)
      for (Value &x : v)
        x = round(x, node.elementKind);
    return v;
  }
  ElementKind stored = tensorKinds[node.access.tensor];
  int64_t bytes = vectorElementBytes(b.getContext(), stored);
  // 16-byte vectors at most.
  int64_t width = std::min<int64_t>(count, 16 / bytes);
  Value address = tensorOffset(node.access, node.shape, flat0);
  Lanes v;
  for (int64_t c = 0; c < count; c += width) {
    Value vec = loadVector(node.access.tensor, add(address, index(c)), width);
    for (int64_t i = 0; i < width; ++i)
      v.push_back(toF32(vector::ExtractOp::create(b, loc, vec, i), stored));
  }
  if (stored != node.elementKind)
    for (Value &x : v)
      x = round(x, node.elementKind);
  return v;
}

std::optional<Lanes> KernelEmitter::elementwiseRun(unsigned id, Value flat0,
                                                   int64_t count) {
  const ExprNode &node = plan.exprs[id];
  if ((cx.buffers && cx.buffers->nodes.count(id)) || node.shape.empty() ||
      node.shape.back() % count != 0)
    return std::nullopt;
  Lanes v;
  switch (node.kind) {
  case Kind::Unary:
    for (Value x : elementRun(node.operands[0], flat0, count))
      v.push_back(unary(node.unaryFn, x));
    break;
  case Kind::Binary: {
    Lanes x = elementRun(node.operands[0], flat0, count);
    Lanes y = elementRun(node.operands[1], flat0, count);
    for (auto [l, r] : llvm::zip_equal(x, y))
      v.push_back(binary(node.binaryFn, l, r));
    break;
  }
  case Kind::Cast:
    v = elementRun(node.operands[0], flat0, count);
    break;
  case Kind::Alias:
    return elementRun(node.operands[0], flat0, count);
  case Kind::Gather: {
    // A broadcast along the innermost dimension: the run is one source
    // element (the run lies in one row of the copy's innermost dimension).
    if (node.copies.size() != 1)
      return std::nullopt;
    const StridedCopy &copy = node.copies[0];
    auto inner = llvm::find(copy.getDstStrides(), 1);
    if (inner == copy.getDstStrides().end())
      return std::nullopt;
    unsigned d = inner - copy.getDstStrides().begin();
    if (copy.getSrcStrides()[d] != 0 || copy.getShape()[d] % count != 0)
      return std::nullopt;
    return Lanes(count,
                 element(node.operands[0], gatherSource(copy, flat0))[0]);
  }
  default:
    return std::nullopt;
  }
  if (node.round)
    for (Value &x : v)
      x = round(x, node.elementKind);
  return v;
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

/// The value a reduction by `fn` starts from.
static double getIdentity(ReduceFn fn) {
  switch (fn) {
  case ReduceFn::Sum:
    return 0.0;
  case ReduceFn::Max:
    return -std::numeric_limits<double>::infinity();
  case ReduceFn::Min:
    return std::numeric_limits<double>::infinity();
  }
  llvm_unreachable("unknown reduction");
}

Value KernelEmitter::combine(ReduceFn fn, Value x, Value y) {
  return binary(fn == ReduceFn::Sum   ? BinaryFn::Add
                : fn == ReduceFn::Max ? BinaryFn::Max
                                      : BinaryFn::Min,
                x, y);
}

Lanes KernelEmitter::reductionLanes(unsigned id, ValueRange flats) {
  const ExprNode &node = plan.exprs[id];
  auto operand = [&](unsigned i, ValueRange f) {
    return element(node.operands[i], f);
  };
  // Applies `fn` lane by lane.
  auto perLane = [&](llvm::function_ref<Value(unsigned)> fn) {
    Lanes values;
    for (unsigned i = 0, e = flats.size(); i < e; ++i)
      values.push_back(fn(i));
    return values;
  };
  int64_t extent = node.sizes[1], inner = node.sizes[2];
  Lanes bases = perLane([&](unsigned i) {
    return add(mul(div(flats[i], inner), extent * inner), rem(flats[i], inner));
  });
  Lanes inits(flats.size(), constant(getIdentity(node.reduceFn)));
  // A split addend cut among `reduceLanes` threads: every lanes-th
  // element, from this thread's lane.
  int64_t stride = 1;
  Value from;
  if (cx.reduceLane && id == kernel.splitAddend) {
    stride = kernel.reduceLanes;
    from = cx.reduceLane;
  }
  return reduceLoop(extent / stride, inits, [&](Value r, ValueRange accs) {
    Value e = from ? add(from, mul(r, stride)) : r;
    Lanes at =
        perLane([&](unsigned i) { return add(bases[i], mul(e, inner)); });
    Lanes x = operand(0, at);
    return perLane(
        [&](unsigned i) { return combine(node.reduceFn, accs[i], x[i]); });
  });
}

bool KernelEmitter::emitGroupReduction(unsigned id, const Buffer &result,
                                       const GroupReduction &reduction) {
  const ExprNode &node = plan.exprs[id];
  int64_t n = node.numElements, extent = node.sizes[1], inner = node.sizes[2];
  int64_t group = reduction.group;
  while (group > 1 && n * group > int64_t(kernel.threads))
    group /= 2;
  if (group < 2)
    return false;
  // Part p of result element e: with a reduction over the innermost
  // dimension the parts of one element are adjacent threads (they read
  // adjacent elements), else the elements of one part are.
  bool partsAdjacent = inner == 1;
  auto coords = [&](Value q, int64_t parts) -> std::pair<Value, Value> {
    if (partsAdjacent)
      return {div(q, parts), rem(q, parts)};
    return {rem(q, n), div(q, n)};
  };
  auto slot = [&](Value e, Value p) {
    return partsAdjacent ? add(mul(e, group), p) : add(mul(p, n), e);
  };
  // Each thread's part: every group-th element of the extent.
  forEachElement(n * group, [&](Value q) {
    auto [e, p] = coords(q, group);
    Value base = add(mul(div(e, inner), extent * inner), rem(e, inner));
    auto loop = scf::ForOp::create(
        b, loc, p, index(extent), index(group),
        ValueRange{constant(getIdentity(node.reduceFn))},
        [&](OpBuilder &, Location, Value r, ValueRange accs) {
          Value x = element(node.operands[0], {add(base, mul(r, inner))})[0];
          scf::YieldOp::create(b, loc, combine(node.reduceFn, accs[0], x));
        });
    storeBuffer(reduction.scratch, slot(e, p), loop.getResult(0));
  });
  // Halving rounds: part p takes in part p + half; the last round writes
  // the result element.
  for (int64_t half = group / 2; half >= 1; half /= 2) {
    gpu::BarrierOp::create(b, loc);
    forEachElement(n * half, [&](Value q) {
      auto [e, p] = coords(q, half);
      Value low = slot(e, p);
      Value v =
          combine(node.reduceFn, loadBuffer(reduction.scratch, low),
                  loadBuffer(reduction.scratch, slot(e, add(p, index(half)))));
      if (half > 1) {
        storeBuffer(reduction.scratch, low, v);
        return;
      }
      storeBuffer(result, e, node.round ? round(v, node.elementKind) : v);
    });
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Matmuls on the vector units
//===----------------------------------------------------------------------===//

Lanes KernelEmitter::matmulLanes(unsigned id, ValueRange flats) {
  const ExprNode &node = plan.exprs[id];
  auto operand = [&](unsigned i, ValueRange f) {
    return element(node.operands[i], f);
  };
  // Applies `fn` lane by lane.
  auto perLane = [&](llvm::function_ref<Value(unsigned)> fn) {
    Lanes values;
    for (unsigned i = 0, e = flats.size(); i < e; ++i)
      values.push_back(fn(i));
    return values;
  };
  int64_t batches = node.sizes[0], m = node.sizes[1], k = node.sizes[2],
          n = node.sizes[3];
  const LaneBlock *block = getBlockOf(flats);
  if (block && block->mma && fitsMatrixUnits(id, *block))
    return matrixUnitLanes(id, flats, *block);
  if (block && !block->mma && block->rowLength == n && m % block->rows == 0) {
    // Rows of one batch: lanes in one row share A's element per step,
    // lanes in one column B's; each row's B elements are consecutive.
    int64_t rows = block->rows, width = block->width;
    Value row0 = div(flats[0], n);
    Value batch = batches == 1 ? index(0) : div(row0, m);
    Lanes aRows;
    for (int64_t r = 0; r < rows; ++r)
      aRows.push_back(mul(add(row0, index(r)), k));
    Value bBase = add(mul(batch, k * n), rem(flats[0], n));
    // Unrolled by up to 8 steps, the loads of all of them first, so
    // that they are in flight together; each sum keeps its order. At
    // most 96 loaded values live at once (registers).
    int64_t unroll = 8;
    while (unroll > 1 && (k % unroll != 0 || unroll * (rows + width) > 96))
      unroll /= 2;
    Lanes inits(flats.size(), constant(0.0));
    return reduceLoop(k / unroll, inits, [&](Value j, ValueRange accs) {
      Value k0 = mul(j, unroll);
      SmallVector<Lanes> xs, ys;
      for (int64_t r = 0; r < rows; ++r)
        xs.push_back(elementRun(node.operands[0], add(aRows[r], k0), unroll));
      for (int64_t u = 0; u < unroll; ++u)
        ys.push_back(elementRun(node.operands[1],
                                add(bBase, mul(add(k0, index(u)), n)), width));
      auto contract = arith::FastMathFlags::contract;
      Lanes sums(accs);
      for (int64_t u = 0; u < unroll; ++u)
        for (int64_t r = 0; r < rows; ++r)
          for (int64_t c = 0; c < width; ++c) {
            Value product =
                arith::MulFOp::create(b, loc, xs[r][u], ys[u][c], contract);
            Value &sum = sums[r * width + c];
            sum = arith::AddFOp::create(b, loc, sum, product, contract);
          }
      return sums;
    });
  }
  Lanes aRows, bBases;
  for (Value flat : flats) {
    Value row = div(flat, n); // batch * m + i
    // One batch: no division, so lanes in one column share B's address.
    Value batch = batches == 1 ? index(0) : div(row, m);
    aRows.push_back(mul(row, k));
    bBases.push_back(add(mul(batch, k * n), rem(flat, n)));
  }
  Lanes inits(flats.size(), constant(0.0));
  return reduceLoop(k, inits, [&](Value kk, ValueRange accs) {
    Lanes x =
        operand(0, perLane([&](unsigned i) { return add(aRows[i], kk); }));
    Lanes y = operand(
        1, perLane([&](unsigned i) { return add(bBases[i], mul(kk, n)); }));
    // Contracted into one fused multiply-add per step.
    auto contract = arith::FastMathFlags::contract;
    return perLane([&](unsigned i) {
      Value product = arith::MulFOp::create(b, loc, x[i], y[i], contract);
      return Value(arith::AddFOp::create(b, loc, accs[i], product, contract));
    });
  });
}

std::optional<LaneBlock>
KernelEmitter::getLaneBlock(ArrayRef<const StmtNode *> stores,
                            ArrayRef<int64_t> shape, int64_t lanes) const {
  if (lanes < 2 || shape.empty())
    return std::nullopt;
  int64_t rowLength = shape.back();
  int64_t numRows = 1;
  for (int64_t extent : shape.drop_back())
    numRows *= extent;
  // The matmuls the stored values reach through lane-preserving ops.
  SmallVector<unsigned> matmuls;
  for (const StmtNode *store : stores)
    forEachLaneMatmul(plan, store->first,
                      [&](unsigned id) { matmuls.push_back(id); });
  // Matrix units when every matmul fits them (their lanes are not rows of
  // consecutive elements).
  LaneBlock mma{2, lanes / 2, rowLength, /*rowStride=*/8, /*mma=*/true};
  if (kernel.matrixUnits && numRows % 16 == 0 && !matmuls.empty() &&
      llvm::all_of(matmuls,
                   [&](unsigned id) { return fitsMatrixUnits(id, mma); }))
    return mma;
  // Else the first matmul with the tile's rows: the widest vector of B's
  // row that divides the lanes and the row.
  for (unsigned id : matmuls) {
    const ExprNode &node = plan.exprs[id];
    if (node.sizes[3] != rowLength)
      continue;
    for (int64_t width = 8; width >= 2; width /= 2) {
      int64_t rows = lanes / width;
      if (lanes % width == 0 && rowLength % width == 0 && numRows % rows == 0 &&
          node.sizes[1] % rows == 0 && loadsRun(node.operands[1], width))
        return LaneBlock{rows, width, rowLength};
    }
  }
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Matmuls on the matrix units
//===----------------------------------------------------------------------===//

//===----------------------------------------------------------------------===//
// Operands as f16 runs
//===----------------------------------------------------------------------===//

bool KernelEmitter::loadsHalf(unsigned id, int64_t count) const {
  const ExprNode &node = plan.exprs[id];
  if (node.elementKind != ElementKind::F16)
    return false;
  if (node.kind == Kind::Alias)
    return loadsHalf(node.operands[0], count);
  return node.kind == Kind::Load &&
         tensorKinds[node.access.tensor] == ElementKind::F16 &&
         loadsRun(id, count);
}

Value KernelEmitter::halfRun(unsigned id, Value flat0, int64_t count) {
  const ExprNode *node = &plan.exprs[id];
  while (node->kind == Kind::Alias)
    node = &plan.exprs[node->operands[0]];
  return loadVector(node->access.tensor,
                    tensorOffset(node->access, node->shape, flat0), count);
}

bool KernelEmitter::computesHalf(unsigned id) const {
  if (plan.exprs[id].elementKind != ElementKind::F16)
    return false;
  if (loadsHalf(id, 4))
    return true;
  std::function<bool(unsigned)> elementwise = [&](unsigned e) {
    const ExprNode &node = plan.exprs[e];
    switch (node.kind) {
    case Kind::Load:
      return !cx.carried.count(node.access.tensor);
    case Kind::Constant:
      return true;
    case Kind::Unary:
    case Kind::Binary:
    case Kind::Cmp:
    case Kind::Select:
    case Kind::Gather:
    case Kind::Alias:
    case Kind::Cast:
      return llvm::all_of(node.operands, elementwise);
    default:
      return false;
    }
  };
  return elementwise(id);
}

Value KernelEmitter::halfOperandRun(unsigned id, Value flat0, int64_t count) {
  if (loadsHalf(id, count))
    return halfRun(id, flat0, count);
  auto f16 = Float16Type::get(b.getContext());
  SmallVector<Value> halves;
  for (Value x : elementRun(id, flat0, count))
    halves.push_back(arith::TruncFOp::create(b, loc, f16, x));
  return vector::FromElementsOp::create(b, loc, VectorType::get({count}, f16),
                                        halves);
}

std::optional<unsigned> KernelEmitter::transposedHalf(unsigned id) const {
  const ExprNode &node = plan.exprs[id];
  int64_t rank = node.shape.size();
  if (node.kind != Kind::Gather || rank < 2 || !loadsHalf(node.operands[0], 4))
    return std::nullopt;
  // A permute [0, 1, ..., r-3, r-1, r-2], or a transpose of the last two.
  if (auto permute = dyn_cast_or_null<PermuteOp>(node.op)) {
    SmallVector<int64_t> swapLast =
        llvm::to_vector(llvm::seq<int64_t>(0, rank));
    std::swap(swapLast.end()[-1], swapLast.end()[-2]);
    if (permute.getPermutation() == ArrayRef<int64_t>(swapLast))
      return node.operands[0];
  }
  if (auto transpose = dyn_cast_or_null<TransposeOp>(node.op)) {
    int64_t lo = std::min(transpose.dim0(), transpose.dim1()),
            hi = std::max(transpose.dim0(), transpose.dim1());
    if (lo == rank - 2 && hi == rank - 1)
      return node.operands[0];
  }
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// mma.sync lanes
//===----------------------------------------------------------------------===//

bool KernelEmitter::fitsMatrixUnits(unsigned id, const LaneBlock &block) const {
  const ExprNode &node = plan.exprs[id];
  int64_t width = block.width;
  return node.kind == Kind::Matmul && node.elementKind == ElementKind::F32 &&
         (width == 4 || width == 8 || width == 16) &&
         node.sizes[3] == block.rowLength && node.sizes[1] % 16 == 0 &&
         node.sizes[2] % 16 == 0 && block.rowLength % (4 * width) == 0 &&
         computesHalf(node.operands[0]) &&
         (loadsHalf(node.operands[1], width / 2) ||
          transposedHalf(node.operands[1]));
}

Lanes KernelEmitter::matrixUnitLanes(unsigned id, ValueRange flats,
                                     const LaneBlock &block) {
  const ExprNode &node = plan.exprs[id];
  int64_t batches = node.sizes[0], m = node.sizes[1], k = node.sizes[2],
          n = node.sizes[3];
  // c tiles of 16 x 8; this lane is (g, t) = (lane / 4, lane mod 4).
  int64_t c = block.width / 2;
  Value row = div(flats[0], n); // batch * m + tile row + g
  Value col = rem(flats[0], n); // tile column + width * t
  Value t = div(rem(col, 4 * block.width), block.width);
  Value tileCol = mul(div(col, 4 * block.width), 4 * block.width);
  Value g = rem(row, 16);
  Value batch = batches == 1 ? index(0) : div(row, m);
  // Up to 4 steps per iteration, their loads first.
  int64_t steps = k / 16, unroll = 4;
  while (steps % unroll != 0)
    unroll /= 2;
  // The k values of each group of `run / 4` steps are permuted so that each
  // lane's are one run of `run` consecutive values: within step p of a
  // group starting at k0, mma's k index 2t + e is k0 + run t + 4p + e, and
  // 2t + 8 + e is k0 + run t + 4p + 2 + e (e = 0, 1), for A and B alike.
  // Runs of 8 (pairs of steps) make A's loads, and B's when transposed,
  // 16 bytes wide; runs of 4 are 8 bytes.
  std::optional<unsigned> bT = transposedHalf(node.operands[1]);
  // (A computed left operand takes runs of 8 whatever its loads.)
  int64_t run = unroll % 2 == 0 &&
                        (loadsHalf(node.operands[0], 8) ||
                         !loadsHalf(node.operands[0], 4)) &&
                        (!bT || loadsHalf(*bT, 8))
                    ? 8
                    : 4;
  int64_t groupSteps = run / 4;
  Value aRows[2] = {add(mul(row, k), mul(t, run)),
                    add(mul(add(row, index(8)), k), mul(t, run))};
  Value bBase =
      add(add(mul(batch, k * n), add(tileCol, mul(g, c))), mul(t, run * n));
  // B transposed ([n, k] tiles): the lane's column of tile 0 is row
  // tileCol + g c, its k values one run along it.
  Value bTBase =
      add(add(mul(batch, k * n), mul(add(tileCol, mul(g, c)), k)), mul(t, run));
  auto loop = scf::ForOp::create(
      b, loc, index(0), index(steps / unroll), index(1),
      SmallVector<Value>(c, nvidia::zeroAccumulator(b, loc)),
      [&](OpBuilder &, Location, Value j, ValueRange accs) {
        SmallVector<std::array<Value, 2>> as;
        // Per group: B's `run` rows k0 + run t + q (c columns each), or,
        // transposed, each tile's run of k values.
        SmallVector<SmallVector<Value>> bs;
        for (int64_t u = 0; u < unroll; u += groupSteps) {
          Value k0 = mul(add(mul(j, unroll), index(u)), 16);
          as.push_back(
              {halfOperandRun(node.operands[0], add(aRows[0], k0), run),
               halfOperandRun(node.operands[0], add(aRows[1], k0), run)});
          SmallVector<Value> runs;
          if (bT) {
            for (int64_t tile = 0; tile < c; ++tile)
              runs.push_back(
                  halfRun(*bT, add(bTBase, add(index(tile * k), k0)), run));
          } else {
            for (int64_t q = 0; q < run; ++q)
              runs.push_back(halfRun(node.operands[1],
                                     add(bBase, mul(add(k0, index(q)), n)), c));
          }
          bs.push_back(std::move(runs));
        }
        auto at = [&](Value vec, int64_t i) -> Value {
          return vector::ExtractOp::create(b, loc, vec, i);
        };
        SmallVector<Value> next(accs);
        for (int64_t u = 0; u < unroll; ++u) {
          int64_t group = u / groupSteps, p = 4 * (u % groupSteps);
          auto [a0, a1] = as[group];
          auto bValue = [&](int64_t tile, int64_t q) {
            return bT ? at(bs[group][tile], p + q) : at(bs[group][p + q], tile);
          };
          Value a = nvidia::aFragment(
              b, loc, {at(a0, p), at(a0, p + 1), at(a0, p + 2), at(a0, p + 3)},
              {at(a1, p), at(a1, p + 1), at(a1, p + 2), at(a1, p + 3)});
          for (int64_t tile = 0; tile < c; ++tile)
            next[tile] = nvidia::mmaStep(b, loc, a,
                                         {bValue(tile, 0), bValue(tile, 1),
                                          bValue(tile, 2), bValue(tile, 3)},
                                         next[tile]);
        }
        scf::YieldOp::create(b, loc, next);
      });
  // Lane r * width + c * h + tile holds accumulator (r, h) of `tile`: row
  // g + 8r, column tileCol + width * t + c * h + tile.
  Lanes lanes(flats.size());
  for (int64_t r = 0; r < 2; ++r)
    for (int64_t h = 0; h < 2; ++h)
      for (int64_t tile = 0; tile < c; ++tile)
        lanes[r * block.width + c * h + tile] = vector::ExtractOp::create(
            b, loc, loop.getResult(tile), ArrayRef<int64_t>{r, h});
  return lanes;
}

//===----------------------------------------------------------------------===//
// Buffered matmuls
//===----------------------------------------------------------------------===//

void KernelEmitter::emitMatrixUnitMatmul(unsigned id) {
  const ExprNode &node = plan.exprs[id];
  int64_t batch = node.sizes[0], m = node.sizes[1], k = node.sizes[2],
          n = node.sizes[3];
  const Buffer &a = cx.buffers->nodes.find(node.operands[0])->second;
  const Buffer &bb = cx.buffers->nodes.find(node.operands[1])->second;
  const Buffer &c = cx.buffers->nodes.find(id)->second;
  MLIRContext *ctx = b.getContext();
  auto f16 = Float16Type::get(ctx);
  auto aType = gpu::MMAMatrixType::get({16, 16}, f16, "AOp");
  auto bType = gpu::MMAMatrixType::get({16, 16}, f16, "BOp");
  auto cType = gpu::MMAMatrixType::get({16, 16}, f32, "COp");
  auto lead = [&](int64_t v) { return b.getIndexAttr(v); };
  // One warp per 16x16 tile of the result, tiles spread over the warps.
  int64_t tilesM = m / 16, tilesN = n / 16;
  int64_t warps = std::max<unsigned>(1, kernel.threads / 32);
  Value warp = div(cx.threadId, 32);
  auto tiles = scf::ForOp::create(b, loc, warp, index(batch * tilesM * tilesN),
                                  index(warps));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(tiles.getBody()->getTerminator());
  Value t = tiles.getInductionVar();
  Value bi = div(t, tilesM * tilesN);
  Value ti = rem(div(t, tilesN), tilesM);
  Value tj = rem(t, tilesN);
  Value aRow = add(mul(bi, m * k), mul(ti, 16 * k));
  Value bCol = add(mul(bi, k * n), mul(tj, 16));
  Value zero =
      gpu::SubgroupMmaConstantMatrixOp::create(b, loc, cType, constant(0.0));
  auto steps = scf::ForOp::create(
      b, loc, index(0), index(k), index(16), ValueRange{zero},
      [&](OpBuilder &, Location, Value kk, ValueRange carried) {
        Value am;
        Value aAddr = bufferAddress(a, add(aRow, kk), am);
        Value bm;
        Value bAddr = bufferAddress(bb, add(bCol, mul(kk, n)), bm);
        Value av = gpu::SubgroupMmaLoadMatrixOp::create(
            b, loc, aType, am, ValueRange{aAddr}, lead(k), UnitAttr());
        Value bv = gpu::SubgroupMmaLoadMatrixOp::create(
            b, loc, bType, bm, ValueRange{bAddr}, lead(n), UnitAttr());
        Value next = gpu::SubgroupMmaComputeOp::create(
            b, loc, cType, av, bv, carried[0], UnitAttr(), UnitAttr());
        scf::YieldOp::create(b, loc, next);
      });
  Value cm;
  Value cAddr = bufferAddress(
      c, add(add(mul(bi, m * n), mul(ti, 16 * n)), mul(tj, 16)), cm);
  gpu::SubgroupMmaStoreMatrixOp::create(b, loc, steps.getResult(0), cm,
                                        ValueRange{cAddr}, lead(n), UnitAttr());
}

//===----------------------------------------------------------------------===//
// Stores
//===----------------------------------------------------------------------===//

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

//===----------------------------------------------------------------------===//
// Split accumulations
//===----------------------------------------------------------------------===//

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
  auto [first, last] = iterationBounds(id);
  int64_t n = value.numElements;
  int64_t count = int64_t(stores.size());
  // With k slices, each group of lanes is computed by `kSlices` threads,
  // each of those by `reduceLanes` adjacent ones.
  unsigned slices = kernel.kSlices, reduceLanes = kernel.reduceLanes;
  int64_t lanes = lanesFor(n * slices);
  std::optional<LaneBlock> block = getLaneBlock(stores, value.shape, lanes);
  bool slicedLayout = slices * reduceLanes > 1 && (block || lanes == 1) &&
                      (!block || reduceLanes == 1) &&
                      n / lanes * slices * reduceLanes == kernel.threads;
  // (A sliced loop whose lanes do not line up runs as any element loop.)
  if (sliced && !slicedLayout)
    return false;
  // Per lane, the sums of every store's addend (store s at s * lanes).
  auto sumChunk = [&](ValueRange flats, Value from, int64_t stride) {
    Lanes zeros(flats.size() * count, constant(0.0));
    auto partial = scf::ForOp::create(
        b, loc, from, last, index(stride), zeros,
        [&](OpBuilder &, Location, Value k, ValueRange sums) {
          cx.vars[loop.var] = k;
          Lanes next;
          for (auto [s, addend] : llvm::enumerate(addends)) {
            Lanes g = element(addend, flats);
            for (auto [sum, x] :
                 llvm::zip_equal(sums.slice(s * flats.size(), flats.size()), g))
              next.push_back(arith::AddFOp::create(b, loc, sum, x));
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
    int64_t groups = n / lanes;
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
      Lanes flats =
          block ? blockFlats(rem(q, groups), *block) : Lanes{rem(q, groups)};
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
            total = arith::AddFOp::create(
                b, loc, total,
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
            totals[j] = arith::AddFOp::create(b, loc, start[j], totals[j]);
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

int64_t KernelEmitter::atomicRunWidth(const StmtNode &store,
                                      int64_t rowElements) const {
  if (!kernel.vectorAtomics ||
      tensorKinds[store.access.tensor] != ElementKind::F32)
    return 1;
  return widestRun(store, rowElements);
}

void KernelEmitter::atomicAddRun(const StmtNode &store, Value flat,
                                 ValueRange values) {
  Value memref = cx.tensorArgs[store.access.tensor];
  Value offset =
      tensorOffset(store.access, plan.exprs[store.first].shape, flat);
  if (values.size() == 1) {
    memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::addf,
                                values.front(), memref, ValueRange{offset});
    return;
  }
  // One vector reduction into global memory (PTX 8.1 on sm_90), the run
  // aligned to its size (accessRuns), at the tensor's base plus the run's
  // offset.
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  Value address = globalAddress(store.access.tensor, base, offset);
  nvidia::vectorAtomicAdd(b, loc, address, values);
}

//===----------------------------------------------------------------------===//
// Warp loops
//===----------------------------------------------------------------------===//

/// The columns of one pass of a warp loop's product over its result's n
/// columns: a 16 x 4w tile held as w / 2 accumulator tiles of 16 x 8.
static int64_t productTileWidth(int64_t n) {
  return n % 64 == 0 ? 64 : n % 32 == 0 ? 32 : 16;
}

bool KernelEmitter::emitWarpLoop(const StmtNode &loop) {
  const WarpLoop &warp = *kernel.warpLoop;
  const StmtNode &firstTile = plan.stmts[warp.tiles.front().first];
  ArrayRef<int64_t> tileShape = plan.exprs[firstTile.first].shape;
  // The warp's lanes hold each 16 x 4w tile as a matrix-unit block: lane
  // (g, t) rows g and g + 8, columns w t .. w t + w - 1.
  int64_t columns = tileShape.back(), width = columns / 4;
  LaneBlock block{2, width, columns, /*rowStride=*/8, /*mma=*/true};
  bool fits = true;
  for (auto [tile, stored] : warp.tiles)
    forEachLaneMatmul(plan, plan.stmts[tile].first,
                      [&](unsigned id) { fits &= fitsMatrixUnits(id, block); });
  for (auto [g, right] : warp.productLoads)
    fits &= loadsHalf(right, productTileWidth(plan.exprs[g].sizes[3]) / 8);
  if (!fits)
    return false;

  auto f16 = Float16Type::get(b.getContext());
  auto at = [&](Value vec, ArrayRef<int64_t> i) -> Value {
    return vector::ExtractOp::create(b, loc, vec, i);
  };
  Value lane = rem(cx.threadId, 32), warpId = div(cx.threadId, 32);
  Value g = div(lane, 4), t = rem(lane, 4);
  Lanes flats = blockFlats(lane, block);
  SmallVector<Value> inits;
  Value zero = nvidia::zeroAccumulator(b, loc);
  for (auto [store, id] : warp.accumulations) {
    const ExprNode &node = plan.exprs[id];
    if (node.kind == Kind::Reduce)
      inits.append(2, constant(0.0));
    else
      inits.append(node.sizes[3] / 8, zero);
  }
  auto [first, last] = iterationBounds(kernel.body);
  Value from = add(first, mul(warpId, loop.step));
  auto iterations = scf::ForOp::create(
      b, loc, from, last, index(loop.step * warp.warps), inits,
      [&](OpBuilder &, Location, Value iv, ValueRange accs) {
        cx.vars[loop.var] = iv;
        // The tiles, as their tensors hold them, in registers; stored only
        // if read elsewhere.
        for (auto [id, stored] : warp.tiles) {
          const StmtNode &store = plan.stmts[id];
          ElementKind kind = tensorKinds[store.access.tensor];
          Lanes tile;
          inLaneBlock(flats, block, [&] {
            tile = formula(store.first, flats);
            for (Value &v : tile)
              v = toF32(fromF32(v, kind), kind);
            if (stored)
              storeLanes(store, tile, flats, {});
          });
          cx.carried[store.access.tensor] = tile;
        }
        SmallVector<Value> next(accs);
        unsigned a = 0;
        for (auto [store, id] : warp.accumulations) {
          const ExprNode &node = plan.exprs[id];
          Lanes x = formula(node.operands[0], flats);
          if (node.kind == Kind::Reduce) {
            // Each row's sum over this lane's columns.
            for (int64_t r = 0; r < 2; ++r, ++a)
              for (int64_t i = 0; i < width; ++i)
                next[a] =
                    arith::AddFOp::create(b, loc, next[a], x[r * width + i]);
            continue;
          }
          // The lane's columns are its left operand's k values. f16 (m16n8k16):
          // in step s, mma's k index 2t + e is column w t + 4s + e and
          // 2t + 8 + e is w t + 4s + 2 + e, so that the right operand's rows
          // for the step are w t + 4s + q (q < 4). tf32 (m16n8k8): k index
          // t is column w t + 2s and t + 4 is w t + 2s + 1 (rows
          // w t + 2s + q, q < 2).
          bool tf32 =
              plan.exprs[node.operands[0]].elementKind == ElementKind::F32;
          int64_t rowsPerStep = tf32 ? 2 : 4;
          auto half = [&](int64_t r, int64_t i) -> Value {
            return arith::TruncFOp::create(b, loc, f16, x[r * width + i]);
          };
          SmallVector<Value> aFragments;
          for (int64_t i = 0; i < width; i += rowsPerStep)
            aFragments.push_back(
                tf32 ? nvidia::tf32AFragment(
                           b, loc,
                           {x[i], x[width + i], x[i + 1], x[width + i + 1]})
                     : nvidia::aFragment(b, loc,
                                         {half(0, i), half(0, i + 1),
                                          half(0, i + 2), half(0, i + 3)},
                                         {half(1, i), half(1, i + 1),
                                          half(1, i + 2), half(1, i + 3)}));
          // Column n of accumulator tile j of pass o is real column
          // o * tileWidth + n * c + j: a lane's column of every tile of a
          // pass is one run of c elements of the right operand's row.
          int64_t n = node.sizes[3], tileWidth = productTileWidth(n);
          int64_t c = tileWidth / 8;
          unsigned right = warp.productLoads.lookup(id);
          for (int64_t o = 0; o < n / tileWidth; ++o) {
            Value column = add(index(o * tileWidth), mul(g, c));
            for (auto [s, fragment] : llvm::enumerate(aFragments)) {
              Lanes runs;
              for (int64_t q = 0; q < rowsPerStep; ++q) {
                Value k =
                    add(mul(t, width), index(rowsPerStep * int64_t(s) + q));
                runs.push_back(halfRun(right, add(mul(k, n), column), c));
              }
              for (int64_t j = 0; j < c; ++j) {
                Value &acc = next[a + o * c + j];
                SmallVector<Value> bValues;
                for (Value run : runs)
                  bValues.push_back(at(run, {j}));
                acc = tf32 ? nvidia::tf32MmaStep(b, loc, fragment, bValues, acc)
                           : nvidia::mmaStep(b, loc, fragment, bValues, acc);
              }
            }
          }
          a += n / 8;
        }
        cx.carried.clear();
        scf::YieldOp::create(b, loc, next);
      });

  SmallVector<Value> sums(iterations.getResults());
  std::optional<scf::IfOp> firstWarp;
  if (warp.reduceInBlock) {
    sums = reduceWarpSums(sums, lane, warpId);
    Value isFirst = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          warpId, index(0));
    firstWarp = scf::IfOp::create(b, loc, isFirst, false);
    b.setInsertionPoint(firstWarp->thenBlock()->getTerminator());
  }
  // Each warp (with `reduceInBlock`, the first, for the block) adds its
  // partial sums to the accumulated tensors atomically (the blocks of a
  // split loop share them): a row's sums after adding the four lanes of the
  // row's quad, a product's rows in runs.
  unsigned a = 0;
  for (auto [store, id] : warp.accumulations) {
    const StmtNode &accumulation = plan.stmts[store];
    const ExprNode &node = plan.exprs[id];
    if (node.kind == Kind::Reduce) {
      Value first =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, t, index(0));
      for (int64_t r = 0; r < 2; ++r, ++a) {
        Value sum = sums[a];
        for (int64_t offset : {1, 2}) {
          Value other = gpu::ShuffleOp::create(b, loc, sum, offset, 32,
                                               gpu::ShuffleMode::XOR)
                            .getShuffleResult();
          sum = arith::AddFOp::create(b, loc, sum, other);
        }
        auto ifFirst = scf::IfOp::create(b, loc, first, false);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(ifFirst.thenBlock()->getTerminator());
        atomicAddRun(accumulation, add(g, index(8 * r)), sum);
      }
      continue;
    }
    // Row g + 8r of pass o holds c consecutive columns per h: run
    // o * tileWidth + (2t + h) c.
    int64_t n = node.sizes[3], tileWidth = productTileWidth(n);
    int64_t c = tileWidth / 8;
    int64_t runWidth = std::min(c, atomicRunWidth(accumulation, c));
    for (int64_t o = 0; o < n / tileWidth; ++o)
      for (int64_t r = 0; r < 2; ++r)
        for (int64_t h = 0; h < 2; ++h) {
          Value row = add(g, index(8 * r));
          Value col = add(index(o * tileWidth + h * c), mul(t, 2 * c));
          Value flat = add(mul(row, n), col);
          for (int64_t j = 0; j < c; j += runWidth) {
            Lanes values;
            for (int64_t i = j; i < j + runWidth; ++i)
              values.push_back(at(sums[a + o * c + i], {r, h}));
            atomicAddRun(accumulation, add(flat, index(j)), values);
          }
        }
    a += n / 8;
  }
  if (firstWarp)
    b.setInsertionPointAfter(*firstWarp);
  gpu::BarrierOp::create(b, loc);
  return true;
}

SmallVector<Value> KernelEmitter::reduceWarpSums(ArrayRef<Value> sums,
                                                 Value lane, Value warpId) {
  int64_t warps = kernel.warpLoop->warps;
  int64_t count = kernel.warpLoop->laneSums;
  // Scalars of the sums (an accumulator's four in row-major order), and
  // back.
  auto flatten = [&](ArrayRef<Value> values) {
    SmallVector<Value> flat;
    for (Value v : values) {
      if (!isa<VectorType>(v.getType())) {
        flat.push_back(v);
        continue;
      }
      for (int64_t i = 0; i < 4; ++i)
        flat.push_back(vector::ExtractOp::create(
            b, loc, v, ArrayRef<int64_t>{i / 2, i % 2}));
    }
    return flat;
  };
  auto rebuild = [&](ArrayRef<Value> flat) {
    SmallVector<Value> values;
    size_t i = 0;
    for (Value v : sums) {
      if (!isa<VectorType>(v.getType())) {
        values.push_back(flat[i++]);
        continue;
      }
      values.push_back(vector::FromElementsOp::create(
          b, loc, cast<VectorType>(v.getType()), flat.slice(i, 4)));
      i += 4;
    }
    return values;
  };
  SmallVector<Value> flat = flatten(sums);
  assert(int64_t(flat.size()) == count && "lane sums miscounted");
  // Sum i of slot s at (s * count + i) * 32 + lane: a warp's accesses are
  // 32 consecutive words, free of bank conflicts.
  auto address = [&](Value slot, int64_t i) {
    return add(mul(add(mul(slot, count), index(i)), 32), lane);
  };
  // Round `step`: warp w with w mod 2 step = step stores its sums in slot
  // w / (2 step); warp w - step adds them to its own.
  for (int64_t step = 1; step < warps; step *= 2) {
    Value position = rem(warpId, 2 * step);
    Value slot = div(warpId, 2 * step);
    Value sends = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        position, index(step));
    {
      auto ifSend = scf::IfOp::create(b, loc, sends, false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(ifSend.thenBlock()->getTerminator());
      for (int64_t i = 0; i < count; ++i)
        memref::StoreOp::create(b, loc, flat[i], cx.shared,
                                ValueRange{address(slot, i)});
    }
    gpu::BarrierOp::create(b, loc);
    Value receives = arith::AndIOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, position,
                              index(0)),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                              add(warpId, index(step)), index(warps)));
    SmallVector<Type> types(count, f32);
    auto ifReceive = scf::IfOp::create(b, loc, types, receives, true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifReceive.thenBlock());
      SmallVector<Value> added;
      for (int64_t i = 0; i < count; ++i)
        added.push_back(arith::AddFOp::create(
            b, loc, flat[i],
            memref::LoadOp::create(b, loc, cx.shared,
                                   ValueRange{address(slot, i)})));
      scf::YieldOp::create(b, loc, added);
      b.setInsertionPointToStart(ifReceive.elseBlock());
      scf::YieldOp::create(b, loc, flat);
    }
    flat.assign(ifReceive.getResults().begin(), ifReceive.getResults().end());
    gpu::BarrierOp::create(b, loc);
  }
  return rebuild(flat);
}

//===----------------------------------------------------------------------===//
// NVIDIA-only ops
//===----------------------------------------------------------------------===//

//===----------------------------------------------------------------------===//
// mma.sync
//===----------------------------------------------------------------------===//

Value nvidia::zeroAccumulator(OpBuilder &b, Location loc) {
  auto type = VectorType::get({2, 2}, b.getF32Type());
  return arith::ConstantOp::create(
      b, loc, type, DenseElementsAttr::get(type, b.getF32FloatAttr(0.0)));
}

Value nvidia::aFragment(OpBuilder &b, Location loc, ArrayRef<Value> rowG,
                        ArrayRef<Value> rowG8) {
  auto type = VectorType::get({4, 2}, Float16Type::get(b.getContext()));
  return vector::FromElementsOp::create(b, loc, type,
                                        ValueRange{rowG[0], rowG[1], rowG8[0],
                                                   rowG8[1], rowG[2], rowG[3],
                                                   rowG8[2], rowG8[3]});
}

Value nvidia::mmaStep(OpBuilder &b, Location loc, Value a,
                      ArrayRef<Value> bValues, Value acc) {
  auto type = VectorType::get({2, 2}, Float16Type::get(b.getContext()));
  Value bFragment = vector::FromElementsOp::create(b, loc, type, bValues);
  return nvgpu::MmaSyncOp::create(b, loc, a, bFragment, acc,
                                  ArrayRef<int64_t>{16, 8, 16});
}

Value nvidia::tf32AFragment(OpBuilder &b, Location loc,
                            ArrayRef<Value> values) {
  // Round to nearest (ties away from zero) at tf32's 10 mantissa bits, as
  // cvt.rna.tf32.f32 does; mma.sync would drop the low 13 bits.
  Type f32 = b.getF32Type();
  auto i32 = b.getI32Type();
  SmallVector<Value> rounded;
  for (Value v : values) {
    Value bits = arith::BitcastOp::create(b, loc, i32, v);
    bits = arith::AddIOp::create(
        b, loc, bits, arith::ConstantIntOp::create(b, loc, i32, 0x1000));
    bits = arith::AndIOp::create(
        b, loc, bits,
        arith::ConstantIntOp::create(b, loc, i32, int64_t(0xFFFFE000)));
    rounded.push_back(arith::BitcastOp::create(b, loc, f32, bits));
  }
  return vector::FromElementsOp::create(b, loc, VectorType::get({4, 1}, f32),
                                        rounded);
}

Value nvidia::tf32MmaStep(OpBuilder &b, Location loc, Value a,
                          ArrayRef<Value> halves, Value acc) {
  // f16 values are exact in tf32.
  Type f32 = b.getF32Type();
  SmallVector<Value> wide;
  for (Value h : halves)
    wide.push_back(arith::ExtFOp::create(b, loc, f32, h));
  Value bFragment = vector::FromElementsOp::create(
      b, loc, VectorType::get({2, 1}, f32), wide);
  return nvgpu::MmaSyncOp::create(b, loc, a, bFragment, acc,
                                  ArrayRef<int64_t>{16, 8, 8},
                                  /*tf32Enabled=*/true);
}

//===----------------------------------------------------------------------===//
// Inline PTX and grid dependency control
//===----------------------------------------------------------------------===//

void nvidia::inlinePTX(OpBuilder &b, Location loc, StringRef ptx,
                       StringRef constraints, ValueRange args) {
  LLVM::InlineAsmOp::create(b, loc, TypeRange{}, args, ptx, constraints,
                            /*has_side_effects=*/true, /*is_align_stack=*/false,
                            LLVM::TailCallKind::None, /*asm_dialect=*/nullptr,
                            /*operand_attrs=*/nullptr);
}

void nvidia::vectorAtomicAdd(OpBuilder &b, Location loc, Value address,
                             ValueRange values) {
  // The address converted from generic to global.
  std::string operands, constraints = "l";
  for (unsigned i = 0; i < values.size(); ++i) {
    operands += (i ? ", $" : "$") + std::to_string(i + 1);
    constraints += ",f";
  }
  std::string ptx = "{ .reg .b64 %ga; cvta.to.global.u64 %ga, $0; "
                    "red.global.add.v" +
                    std::to_string(values.size()) + ".f32 [%ga], {" + operands +
                    "}; }";
  SmallVector<Value> args{address};
  args.append(values.begin(), values.end());
  inlinePTX(b, loc, ptx, constraints, args);
}

void nvidia::prefetchL2(OpBuilder &b, Location loc, Value address) {
  inlinePTX(b, loc,
            "{ .reg .b64 %ga; cvta.to.global.u64 %ga, $0; "
            "prefetch.global.L2 [%ga]; }",
            "l", address);
}

void nvidia::waitAfterPrefetches(OpBuilder &b, Location loc) {
  auto wait =
      NVVM::GriddepcontrolOp::create(b, loc, NVVM::GridDepActionKind::wait);
  wait->setAttr("tile.prefetched", b.getUnitAttr());
}
