//===- GPUToHost.cpp - Run lowered kernels on the host, thread by thread --===//
//
// The `--tile-gpu-to-host` pass: every kernel of a `--tile-lower-to-gpu`
// module becomes a host function that runs one block with its threads one
// after another between barriers, and every launch a loop over the grid.
// That is exact for the kernels the lowering emits (threads exchange values
// only across barriers; thread-dependent code sits in thread loops without
// barriers), which the pass checks, refusing anything else.
//
//===----------------------------------------------------------------------===//

#include "TileDialect/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::tileir {
#define GEN_PASS_DEF_TILEGPUTOHOST
#include "TileDialect/Conversion/Passes.h.inc"
} // namespace mlir::tileir

using namespace mlir;
using namespace mlir::tileir;

/// The host function name of `kernel` in `module`.
static std::string hostName(StringRef module, StringRef kernel) {
  return (module + "__" + kernel).str();
}

static bool isMatrixOp(Operation *op) {
  return isa<gpu::SubgroupMmaLoadMatrixOp, gpu::SubgroupMmaStoreMatrixOp,
             gpu::SubgroupMmaComputeOp, gpu::SubgroupMmaConstantMatrixOp>(op);
}

/// The warp index `thread_id / 32`, if `v` is one.
static bool isWarpIndex(Value v) {
  auto div = v.getDefiningOp<arith::DivUIOp>();
  return div && div.getLhs().getDefiningOp<gpu::ThreadIdOp>() &&
         getConstantIntValue(div.getRhs()) == 32;
}

/// Checks that `loopUse` is the lower bound of an scf.for without barriers
/// (a thread or warp loop; `what` says which).
static LogicalResult checkLoopBound(OpOperand &loopUse, StringRef what) {
  auto loop = dyn_cast<scf::ForOp>(loopUse.getOwner());
  if (!loop || loopUse.getOperandNumber() != 0)
    return loopUse.getOwner()->emitOpError("uses the ")
           << what << " index other than as the lower bound of a " << what
           << " loop, which the host emulation cannot run";
  if (loop.getBody()
          ->walk([](gpu::BarrierOp) { return WalkResult::interrupt(); })
          .wasInterrupted())
    return loop.emitOpError("is a ")
           << what << " loop with a barrier inside, which the host "
           << "emulation cannot run";
  return success();
}

/// Checks that `kernel` has the form the emulation is exact for.
static LogicalResult checkKernel(gpu::GPUFuncOp kernel) {
  WalkResult walk = kernel.walk([&](Operation *op) -> WalkResult {
    if (isMmaSync(op))
      return op->emitOpError(
          "exchanges registers across a warp's threads, which the host "
          "emulation (threads one after another) cannot run; lower with "
          "mma=false to emulate");
    if (isMatrixOp(op)) {
      // Warp-collective: only inside a loop over the warps.
      auto loop = op->getParentOfType<scf::ForOp>();
      while (loop && !isWarpIndex(loop.getLowerBound()))
        loop = loop->getParentOfType<scf::ForOp>();
      if (!loop)
        return op->emitOpError("is a matrix-unit op outside a loop over the "
                               "warps, which the host emulation cannot run");
      return WalkResult::advance();
    }
    if (isa<LLVM::InlineAsmOp>(op))
      return op->emitOpError("is device assembly, which the host emulation "
                             "cannot run; lower with vector-atomics=false "
                             "to emulate");
    if (isa<gpu::BlockDimOp, gpu::GridDimOp, gpu::LaneIdOp, gpu::SubgroupIdOp,
            gpu::ShuffleOp>(op))
      return op->emitOpError("is not emulated on the host");
    auto id = dyn_cast<gpu::ThreadIdOp>(op);
    if (!id)
      return WalkResult::advance();
    if (id.getDimension() != gpu::Dimension::x)
      return op->emitOpError("only the x thread index is emulated");
    for (OpOperand &use : id->getUses()) {
      auto div = dyn_cast<arith::DivUIOp>(use.getOwner());
      if (div && isWarpIndex(div)) {
        for (OpOperand &warpUse : div->getUses())
          if (failed(checkLoopBound(warpUse, "warp")))
            return WalkResult::interrupt();
        continue;
      }
      if (failed(checkLoopBound(use, "thread")))
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  if (!kernel.getKnownBlockSizeAttr())
    return kernel.emitOpError("has no known_block_size, which the host "
                              "emulation needs");
  return success();
}

/// `body(i, j)` for i, j in [0, 16).
static void
forEachTileElement(OpBuilder &b, Location loc,
                   function_ref<void(OpBuilder &, Value, Value)> body) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value sixteen = arith::ConstantIndexOp::create(b, loc, 16);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  scf::ForOp::create(
      b, loc, zero, sixteen, one, ValueRange{},
      [&](OpBuilder &bi, Location, Value i, ValueRange) {
        scf::ForOp::create(bi, loc, zero, sixteen, one, ValueRange{},
                           [&](OpBuilder &bj, Location, Value j, ValueRange) {
                             body(bj, i, j);
                             scf::YieldOp::create(bj, loc);
                           });
        scf::YieldOp::create(bi, loc);
      });
}

/// The flat index `base + i * lead + j` of a 16x16 matrix operand.
static Value matrixIndex(OpBuilder &b, Location loc, Value base, Value lead,
                         Value i, Value j) {
  Value row = arith::MulIOp::create(b, loc, i, lead);
  return arith::AddIOp::create(b, loc,
                               arith::AddIOp::create(b, loc, base, row), j);
}

/// Rebuilds `loop` without its matrix iter_args, whose buffers (already
/// substituted for the inits) are updated in place.
static void dropMatrixIterArgs(scf::ForOp loop) {
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  SmallVector<Value> inits;
  SmallVector<unsigned> kept;
  for (auto [i, init] : llvm::enumerate(loop.getInitArgs())) {
    if (isa<MemRefType>(init.getType())) {
      loop.getRegionIterArgs()[i].replaceAllUsesWith(init);
      loop.getResult(i).replaceAllUsesWith(init);
      continue;
    }
    inits.push_back(init);
    kept.push_back(i);
  }
  auto fresh = scf::ForOp::create(b, loc, loop.getLowerBound(),
                                  loop.getUpperBound(), loop.getStep(), inits);
  Block *from = loop.getBody(), *to = fresh.getBody();
  auto yield = cast<scf::YieldOp>(from->getTerminator());
  SmallVector<Value> yields;
  for (unsigned i : kept)
    yields.push_back(yield.getOperand(i));
  OpBuilder at(yield);
  scf::YieldOp::create(at, loc, yields);
  yield->erase();
  to->getTerminator()->erase();
  from->getArgument(0).replaceAllUsesWith(fresh.getInductionVar());
  for (auto [n, i] : llvm::enumerate(kept)) {
    loop.getRegionIterArgs()[i].replaceAllUsesWith(
        fresh.getRegionIterArgs()[n]);
    loop.getResult(i).replaceAllUsesWith(fresh.getResult(n));
  }
  to->getOperations().splice(to->end(), from->getOperations());
  loop->erase();
}

/// Lowers a warp's matrix-unit ops (one 16x16 tile each) to loops over one
/// 16x16 f32 stack buffer per matrix value: constant and load fill a
/// buffer, compute accumulates into its accumulator's buffer in place (the
/// lowering threads each accumulator through one chain), store writes it.
/// Matrix values first stand for their buffers with mismatched types; every
/// op using them is rewritten before the function is verified.
static LogicalResult lowerMatrixOps(func::FuncOp func) {
  SmallVector<Operation *> ops;
  func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    auto loop = dyn_cast<scf::ForOp>(op);
    if (isMatrixOp(op) ||
        (loop && llvm::any_of(loop.getInitArgs(), [](Value v) {
           return isa<gpu::MMAMatrixType>(v.getType());
         })))
      ops.push_back(op);
  });
  auto f32 = Float32Type::get(func.getContext());
  auto tileType = MemRefType::get({16, 16}, f32);
  for (Operation *op : ops) {
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      dropMatrixIterArgs(loop);
      continue;
    }
    OpBuilder b(op);
    Location loc = op->getLoc();
    auto load = [&](OpBuilder &bb, Value m, Value i, Value j) {
      return Value(memref::LoadOp::create(bb, loc, m, ValueRange{i, j}));
    };
    auto widen = [&](OpBuilder &bb, Value v) {
      return v.getType() == f32 ? v
                                : Value(arith::ExtFOp::create(bb, loc, f32, v));
    };
    if (auto cst = dyn_cast<gpu::SubgroupMmaConstantMatrixOp>(op)) {
      Value m = memref::AllocaOp::create(b, loc, tileType);
      Value v = widen(b, cst.getValue());
      forEachTileElement(b, loc, [&](OpBuilder &bb, Value i, Value j) {
        memref::StoreOp::create(bb, loc, v, m, ValueRange{i, j});
      });
      op->getResult(0).replaceAllUsesWith(m);
    } else if (auto ld = dyn_cast<gpu::SubgroupMmaLoadMatrixOp>(op)) {
      if (ld.getIndices().size() != 1 || ld.getTranspose())
        return op->emitOpError("is not emulated on the host (only flat, "
                               "untransposed operands)");
      Value m = memref::AllocaOp::create(b, loc, tileType);
      Value lead =
          arith::ConstantIndexOp::create(b, loc, ld.getLeadDimension().getSExtValue());
      forEachTileElement(b, loc, [&](OpBuilder &bb, Value i, Value j) {
        Value at = matrixIndex(bb, loc, ld.getIndices()[0], lead, i, j);
        Value v = memref::LoadOp::create(bb, loc, ld.getSrcMemref(), at);
        memref::StoreOp::create(bb, loc, widen(bb, v), m, ValueRange{i, j});
      });
      op->getResult(0).replaceAllUsesWith(m);
    } else if (auto mm = dyn_cast<gpu::SubgroupMmaComputeOp>(op)) {
      if (mm.getATranspose() || mm.getBTranspose())
        return op->emitOpError("is not emulated on the host (transposed "
                               "operands)");
      // Untyped operands: the matrix values they were are buffers by now.
      Value a = op->getOperand(0), bm = op->getOperand(1),
            c = op->getOperand(2);
      forEachTileElement(b, loc, [&](OpBuilder &bb, Value i, Value j) {
        Value zero = arith::ConstantIndexOp::create(bb, loc, 0);
        Value sixteen = arith::ConstantIndexOp::create(bb, loc, 16);
        Value one = arith::ConstantIndexOp::create(bb, loc, 1);
        auto sum = scf::ForOp::create(
            bb, loc, zero, sixteen, one, ValueRange{load(bb, c, i, j)},
            [&](OpBuilder &bk, Location, Value k, ValueRange acc) {
              Value p = arith::MulFOp::create(bk, loc, load(bk, a, i, k),
                                              load(bk, bm, k, j));
              scf::YieldOp::create(
                  bk, loc,
                  ValueRange{arith::AddFOp::create(bk, loc, acc[0], p)});
            });
        memref::StoreOp::create(bb, loc, sum.getResult(0), c,
                                ValueRange{i, j});
      });
      op->getResult(0).replaceAllUsesWith(c);
    } else if (auto st = dyn_cast<gpu::SubgroupMmaStoreMatrixOp>(op)) {
      if (st.getIndices().size() != 1 || st.getTranspose())
        return op->emitOpError("is not emulated on the host (only flat, "
                               "untransposed operands)");
      Value lead =
          arith::ConstantIndexOp::create(b, loc, st.getLeadDimension().getSExtValue());
      Type element =
          cast<MemRefType>(st.getDstMemref().getType()).getElementType();
      forEachTileElement(b, loc, [&](OpBuilder &bb, Value i, Value j) {
        Value v = load(bb, op->getOperand(0), i, j);
        if (element != f32)
          v = arith::TruncFOp::create(bb, loc, element, v);
        Value at = matrixIndex(bb, loc, st.getIndices()[0], lead, i, j);
        memref::StoreOp::create(bb, loc, v, st.getDstMemref(), at);
      });
    }
    op->erase();
  }
  return success();
}

/// Makes the host function for `kernel` of the GPU module `moduleName`
/// (arguments: the kernel's, then the block index x, y, z).
static LogicalResult emulateKernel(gpu::GPUFuncOp kernel, StringRef moduleName,
                                   OpBuilder &b) {
  if (failed(checkKernel(kernel)))
    return failure();
  Location loc = kernel.getLoc();
  MLIRContext *ctx = b.getContext();
  IndexType indexType = b.getIndexType();
  SmallVector<Type> inputs(kernel.getArgumentTypes());
  inputs.append(3, indexType);
  auto func = func::FuncOp::create(b, loc,
                                   hostName(moduleName, kernel.getName()),
                                   FunctionType::get(ctx, inputs, {}));
  Block *entry = func.addEntryBlock();
  OpBuilder body = OpBuilder::atBlockBegin(entry);

  IRMapping mapping;
  for (auto [from, to] :
       llvm::zip(kernel.getArguments(), entry->getArguments()))
    mapping.map(from, to);
  // Workgroup buffers: one stack allocation per block run.
  for (BlockArgument buffer : kernel.getWorkgroupAttributions()) {
    auto type = cast<MemRefType>(buffer.getType());
    auto local = MemRefType::get(type.getShape(), type.getElementType());
    mapping.map(buffer, memref::AllocaOp::create(body, loc, local));
  }
  for (BlockArgument buffer : kernel.getPrivateAttributions())
    return kernel.emitOpError("has private attributions, which the host "
                              "emulation does not support")
           << buffer.getArgNumber();

  Region &source = kernel.getBody();
  if (!source.hasOneBlock())
    return kernel.emitOpError("has more than one block");
  for (Operation &op : source.front().without_terminator())
    body.clone(op, mapping);
  func::ReturnOp::create(body, loc);
  // The module's constant tables are host globals named after the module.
  func.walk([&](memref::GetGlobalOp get) {
    get.setName(hostName(moduleName, get.getName()));
  });
  // Views of a workgroup buffer (a merged kernel's members') view its stack
  // allocation.
  func.walk([](memref::ViewOp view) {
    MemRefType type = view.getType();
    if (type.getMemorySpace())
      view.getResult().setType(
          MemRefType::get(type.getShape(), type.getElementType()));
  });

  int64_t threads = kernel.getKnownBlockSizeAttr()[0];
  SmallVector<Operation *> ops;
  func.walk([&](Operation *op) {
    if (isa<gpu::BlockIdOp, gpu::BarrierOp, gpu::ThreadIdOp>(op))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    if (auto id = dyn_cast<gpu::BlockIdOp>(op)) {
      unsigned dim = unsigned(id.getDimension());
      id.replaceAllUsesWith(entry->getArgument(kernel.getNumArguments() + dim));
    } else if (auto id = dyn_cast<gpu::ThreadIdOp>(op)) {
      // Each thread loop runs for thread 0, 1, ... in turn, each warp loop
      // for warp 0, 1, ... (the warp acting as one).
      auto runEach = [&](scf::ForOp loop, int64_t count) {
        OpBuilder outer(loop);
        Value zero = arith::ConstantIndexOp::create(outer, loc, 0);
        Value n = arith::ConstantIndexOp::create(outer, loc, count);
        Value one = arith::ConstantIndexOp::create(outer, loc, 1);
        auto each = scf::ForOp::create(outer, loc, zero, n, one);
        loop->moveBefore(each.getBody()->getTerminator());
        loop.getLowerBoundMutable().assign(each.getInductionVar());
      };
      for (OpOperand &use : llvm::make_early_inc_range(id->getUses())) {
        if (auto div = dyn_cast<arith::DivUIOp>(use.getOwner())) {
          for (OpOperand &warpUse : llvm::make_early_inc_range(div->getUses()))
            runEach(cast<scf::ForOp>(warpUse.getOwner()), (threads + 31) / 32);
          div->erase();
          continue;
        }
        runEach(cast<scf::ForOp>(use.getOwner()), threads);
      }
    }
    op->erase();
  }
  return lowerMatrixOps(func);
}

namespace {

struct TileGPUToHostPass
    : public tileir::impl::TileGPUToHostBase<TileGPUToHostPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    OpBuilder b(module.getContext());
    b.setInsertionPointToEnd(module.getBody());
    SmallVector<gpu::GPUModuleOp> gpuModules(module.getOps<gpu::GPUModuleOp>());
    for (gpu::GPUModuleOp gpuModule : gpuModules) {
      // The kernels' constant tables become host globals, renamed after
      // their module as the kernels are.
      for (auto global : gpuModule.getOps<memref::GlobalOp>()) {
        auto copy = cast<memref::GlobalOp>(b.clone(*global));
        copy.setSymName(hostName(gpuModule.getName(), global.getSymName()));
      }
      for (auto kernel : gpuModule.getOps<gpu::GPUFuncOp>())
        if (failed(emulateKernel(kernel, gpuModule.getName(), b)))
          return signalPassFailure();
    }

    SmallVector<gpu::LaunchFuncOp> launches;
    module.walk([&](gpu::LaunchFuncOp launch) { launches.push_back(launch); });
    for (gpu::LaunchFuncOp launch : launches) {
      if (launch.getAsyncToken() || launch.getClusterSizeX() ||
          launch.getDynamicSharedMemorySize()) {
        launch.emitOpError("the host emulation runs synchronous launches "
                           "without clusters or dynamic shared memory only");
        return signalPassFailure();
      }
      OpBuilder at(launch);
      Location loc = launch.getLoc();
      std::string callee = hostName(launch.getKernelModuleName().getValue(),
                                    launch.getKernelName().getValue());
      Value zero = arith::ConstantIndexOp::create(at, loc, 0);
      Value one = arith::ConstantIndexOp::create(at, loc, 1);
      SmallVector<Value> grid = {launch.getGridSizeX(), launch.getGridSizeY(),
                                 launch.getGridSizeZ()};
      SmallVector<Value> blockIds;
      OpBuilder inner = at;
      for (int d = 2; d >= 0; --d) {
        auto loop = scf::ForOp::create(inner, loc, zero, grid[d], one);
        blockIds.insert(blockIds.begin(), loop.getInductionVar());
        inner = OpBuilder(loop.getBody()->getTerminator());
      }
      SmallVector<Value> operands(launch.getKernelOperands());
      operands.append(blockIds);
      func::CallOp::create(inner, loc, callee, TypeRange(), operands);
      launch.erase();
    }
    for (gpu::GPUModuleOp gpuModule : gpuModules)
      gpuModule.erase();
    module->removeAttr(gpu::GPUDialect::getContainerModuleAttrName());
  }
};

} // namespace
