//===- KernelEmitter.cpp - One GPU kernel from a partitioned plan ---------===//
//
// The emitter's entry: the kernel's arguments, thread and block indices,
// grid variables and parts, and the epilogue of a split accumulation. The
// steps it runs are in the Emit*.cpp files (KernelEmitterImpl.h).
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"
#include "KernelEmitterImpl.h"
#include "TileDialect/Conversion/TileToGPU/TileToGPU.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::interp;
using namespace mlir::tileir::gpu_lowering;

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
                                           ArrayRef<TensorRole> tensorRoles,
                                           gpu::GPUFuncOp func) {
  EmissionContext cx(plan, kernel, tensorKinds, tensorRoles, func);
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
  if (kernel.usesCounters())
    cx.counters = entry.getArgument(arg++);
  if (kernel.sharedElements)
    cx.shared = cx.func.getWorkgroupAttributions().front();
  if (kernel.sharedHalfElements && kernel.dynamicSharedHalf) {
    // The launch's dynamic shared memory, viewed as the f16 buffer.
    auto workgroup =
        gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
    Value bytes = gpu::DynamicSharedMemoryOp::create(
        b, loc,
        MemRefType::get({ShapedType::kDynamic}, b.getI8Type(), AffineMap(),
                        workgroup));
    // (bf16 for a block matmul of bf16 operands.)
    Type element = kernel.blockMatmul && kernel.blockMatmul->bf16
                       ? Type(b.getBF16Type())
                       : Type(b.getF16Type());
    cx.sharedHalf = memref::ViewOp::create(
        b, loc,
        MemRefType::get({kernel.sharedHalfElements}, element, AffineMap(),
                        workgroup),
        bytes, index(0), ValueRange{});
  } else if (kernel.sharedHalfElements) {
    cx.sharedHalf = cx.func.getWorkgroupAttributions().back();
  }

  cx.threadId = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  cx.vars.assign(plan.numVars, Value());
  Value block = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  // Block = ((grid loops, outermost slowest) * partBlocks + part iteration)
  //         * splitChunks + chunk.
  cx.chunk = rem(block, kernel.splitChunks);
  Value withoutChunk = div(block, kernel.splitChunks);
  cx.gridPoint = withoutChunk;
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

Value KernelEmitter::countArrival(Value slot, int64_t arrivals,
                                  int64_t flagElement) {
  // Device scope: the blocks of one grid share one device; a system-scope
  // fence (MEMBAR.SYS) also orders against the host and peers (the
  // 16-token decode's split online loop: 51.1 -> 50.3 us on the H200).
  auto fence = [&] {
    LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::acq_rel,
                          kDeviceSyncScope);
  };
  // The block's writes (ordered before thread 0's by the barrier, fences
  // being cumulative) are visible before it counts itself.
  gpu::BarrierOp::create(b, loc);
  Value flag = index(flagElement);
  Value zero = constant(0.0);
  // Thread 0 alone: a thread loop of one element.
  forEachElement(1, [&](Value) {
    fence();
    Value before = memref::AtomicRMWOp::create(
        b, loc, arith::AtomicRMWKind::addf, constant(1.0), cx.counters,
        ValueRange{slot});
    Value last = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                       before, constant(double(arrivals - 1)));
    memref::StoreOp::create(
        b, loc, arith::SelectOp::create(b, loc, last, constant(1.0), zero),
        cx.shared, flag);
    // The other blocks' writes are visible to the last block's loads
    // (which the barrier orders after this).
    fence();
  });
  gpu::BarrierOp::create(b, loc);
  return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ONE,
                               memref::LoadOp::create(b, loc, cx.shared, flag),
                               zero);
}

void KernelEmitter::emitEpilogue(Value gridPoint) {
  Value slot = add(index(kernel.epilogueCounters), gridPoint);
  Value zero = constant(0.0);
  Value isLast =
      countArrival(slot, kernel.epilogueArrivals, kernel.epilogueFlag);
  auto ifLast = scf::IfOp::create(b, loc, isLast, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(ifLast.thenBlock()->getTerminator());
  EmissionContext epilogue(plan, *kernel.epilogue, tensorKinds,
                           cx.tensorRoles, cx.func);
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
