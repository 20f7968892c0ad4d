//===- ProgrammaticLaunch.cpp - Grid dependency control for sm_90 ---------===//
//
// `--tile-programmatic-launch`: a `griddepcontrol.wait` in every kernel (or
// merged member) that has none, and `griddepcontrol.launch_dependents` at
// the entry of short kernels whose successors prefetch.
//
//===----------------------------------------------------------------------===//

#include "TileDialect/Conversion/Passes.h"

#include "mlir/IR/SymbolTable.h"

namespace mlir::tileir {
#define GEN_PASS_DEF_TILEPROGRAMMATICLAUNCH
#include "TileDialect/Conversion/Passes.h.inc"
} // namespace mlir::tileir

using namespace mlir;
using namespace mlir::tileir;

/// Whether `block` holds a `griddepcontrol.wait`; with `prefetched`, one
/// the lowering put after its prefetches.
static bool hasWait(Block &block, bool prefetched = false) {
  WalkResult walk = block.walk([&](NVVM::GriddepcontrolOp op) {
    if (op.getKind() == NVVM::GridDepActionKind::wait &&
        (!prefetched || op->hasAttr("tile.prefetched")))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return walk.wasInterrupted();
}

/// The blocks of `launch`'s grid, if constant.
static std::optional<int64_t> gridBlocks(gpu::LaunchFuncOp launch) {
  int64_t blocks = 1;
  for (Value size :
       {launch.getGridSizeX(), launch.getGridSizeY(), launch.getGridSizeZ()}) {
    std::optional<int64_t> c = getConstantIntValue(size);
    if (!c)
      return std::nullopt;
    blocks *= *c;
  }
  return blocks;
}

namespace {
class ProgrammaticLaunchPass
    : public tileir::impl::TileProgrammaticLaunchBase<ProgrammaticLaunchPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    module.walk([&](gpu::GPUFuncOp func) {
      if (!func.isKernel() || func.getBody().empty())
        return;
      Block &entry = func.getBody().front();
      SmallVector<Block *> regions;
      for (auto member : entry.getOps<scf::IfOp>())
        if (member->hasAttr("tile.member"))
          regions.push_back(member.thenBlock());
      if (regions.empty())
        regions.push_back(&entry);
      for (Block *region : regions) {
        if (hasWait(*region))
          continue;
        OpBuilder b = OpBuilder::atBlockBegin(region);
        NVVM::GriddepcontrolOp::create(b, func.getLoc(),
                                       NVVM::GridDepActionKind::wait);
        ++numWaits;
      }
    });
    // Per kernel: whether every launch of it may trigger early.
    llvm::MapVector<gpu::GPUFuncOp, bool> early;
    bool failedConfig = false;
    module.walk([&](func::FuncOp host) {
      FailureOr<GPUConfigAttr> c = resolveGPUConfig(host, config);
      if (failed(c)) {
        failedConfig = true;
        return;
      }
      int64_t earlyLaunchBlocks = c->getEarlyLaunchBlocks();
      SmallVector<gpu::LaunchFuncOp> launches(
          host.getBody().getOps<gpu::LaunchFuncOp>());
      bool nextStartsEarly = false;
      for (gpu::LaunchFuncOp launch : llvm::reverse(launches)) {
        auto kernel = SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(
            launch, launch.getKernel());
        if (!kernel || kernel.getBody().empty()) {
          nextStartsEarly = false;
          continue;
        }
        std::optional<int64_t> blocks = gridBlocks(launch);
        bool triggers = nextStartsEarly && blocks &&
                        *blocks <= earlyLaunchBlocks && !launch.getAsyncToken();
        auto [it, inserted] = early.try_emplace(kernel, triggers);
        if (!inserted)
          it->second = it->second && triggers;
        // This kernel starts early when it prefetches, or when it lets its
        // own successor start early.
        nextStartsEarly =
            hasWait(kernel.getBody().front(), /*prefetched=*/true) || triggers;
      }
    });
    if (failedConfig)
      return signalPassFailure();
    for (auto [kernel, triggers] : early) {
      if (!triggers)
        continue;
      OpBuilder b = OpBuilder::atBlockBegin(&kernel.getBody().front());
      NVVM::GriddepcontrolOp::create(
          b, kernel.getLoc(), NVVM::GridDepActionKind::launch_dependents);
      ++numEarly;
    }
  }
};
} // namespace
