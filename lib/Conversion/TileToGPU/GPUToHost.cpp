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

/// Checks that `kernel` has the form the emulation is exact for.
static LogicalResult checkKernel(gpu::GPUFuncOp kernel) {
  WalkResult walk = kernel.walk([&](Operation *op) -> WalkResult {
    if (isa<gpu::SubgroupMmaLoadMatrixOp, gpu::SubgroupMmaStoreMatrixOp,
            gpu::SubgroupMmaComputeOp, gpu::SubgroupMmaConstantMatrixOp>(op))
      return op->emitOpError("is not emulated on the host (matrix-unit ops)");
    if (isa<gpu::BlockDimOp, gpu::GridDimOp, gpu::LaneIdOp, gpu::SubgroupIdOp,
            gpu::ShuffleOp>(op))
      return op->emitOpError("is not emulated on the host");
    auto id = dyn_cast<gpu::ThreadIdOp>(op);
    if (!id)
      return WalkResult::advance();
    if (id.getDimension() != gpu::Dimension::x)
      return op->emitOpError("only the x thread index is emulated");
    for (OpOperand &use : id->getUses()) {
      auto loop = dyn_cast<scf::ForOp>(use.getOwner());
      if (!loop || use.get() != loop.getLowerBound() ||
          use.getOperandNumber() != 0)
        return use.getOwner()->emitOpError(
            "uses the thread index other than as the lower bound of a "
            "thread loop, which the host emulation cannot run");
      if (loop.getBody()
              ->walk([](gpu::BarrierOp) { return WalkResult::interrupt(); })
              .wasInterrupted())
        return loop.emitOpError(
            "is a thread loop with a barrier inside, which the host "
            "emulation cannot run");
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

/// Makes the host function for `kernel` (arguments: the kernel's, then the
/// block index x, y, z).
static LogicalResult emulateKernel(gpu::GPUFuncOp kernel, StringRef name,
                                   OpBuilder &b) {
  if (failed(checkKernel(kernel)))
    return failure();
  Location loc = kernel.getLoc();
  MLIRContext *ctx = b.getContext();
  IndexType indexType = b.getIndexType();
  SmallVector<Type> inputs(kernel.getArgumentTypes());
  inputs.append(3, indexType);
  auto func =
      func::FuncOp::create(b, loc, name, FunctionType::get(ctx, inputs, {}));
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
      // Each thread loop runs for thread 0, 1, ... in turn.
      for (OpOperand &use : llvm::make_early_inc_range(id->getUses())) {
        auto loop = cast<scf::ForOp>(use.getOwner());
        OpBuilder outer(loop);
        Value zero = arith::ConstantIndexOp::create(outer, loc, 0);
        Value count = arith::ConstantIndexOp::create(outer, loc, threads);
        Value one = arith::ConstantIndexOp::create(outer, loc, 1);
        auto perThread = scf::ForOp::create(outer, loc, zero, count, one);
        loop->moveBefore(perThread.getBody()->getTerminator());
        loop.getLowerBoundMutable().assign(perThread.getInductionVar());
      }
    }
    op->erase();
  }
  return success();
}

namespace {

struct TileGPUToHostPass
    : public tileir::impl::TileGPUToHostBase<TileGPUToHostPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    OpBuilder b(module.getContext());
    b.setInsertionPointToEnd(module.getBody());
    SmallVector<gpu::GPUModuleOp> gpuModules(module.getOps<gpu::GPUModuleOp>());
    for (gpu::GPUModuleOp gpuModule : gpuModules)
      for (auto kernel : gpuModule.getOps<gpu::GPUFuncOp>())
        if (failed(emulateKernel(
                kernel, hostName(gpuModule.getName(), kernel.getName()), b)))
          return signalPassFailure();

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
