//===- Pipelines.cpp - Tile programs to NVVM and ROCDL device binaries ----===//
//
// `--tile-lower-to-nvvm` and `--tile-lower-to-rocdl`: `--tile-select-gpu-config`
// and `--tile-lower-to-gpu` with the passes after it, then upstream passes
// only: structured control flow to branches, the gpu module to the NVVM or
// ROCDL dialect (bare-pointer kernel arguments, so a launch passes one device
// pointer per tensor), a target attribute, and `gpu-module-to-binary`. The
// two targets differ only in what their `GPUTarget` adds: the conversion,
// the target attribute, the toolkit.
//
//===----------------------------------------------------------------------===//

#include "TileDialect/Conversion/Passes.h"
#include "TileDialect/Conversion/TileToGPU/GPUTarget.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/GPUToROCDL/GPUToROCDLPass.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::tileir;

namespace {

/// Unrolls n-D `vector.shape_cast`s into slices and shuffles, which the LLVM
/// conversion does not lower: the canonicalizer folds an mma
/// fragment built from one loaded run (B^T in `KernelEmitter`) into one.
class LowerShapeCastPass
    : public PassWrapper<LowerShapeCastPass, OperationPass<gpu::GPUModuleOp>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(LowerShapeCastPass)
  StringRef getArgument() const override { return "tile-lower-shape-cast"; }
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    vector::populateVectorShapeCastLoweringPatterns(patterns);
    // The slices that leaves: shuffles.
    vector::populateVectorInsertExtractStridedSliceTransforms(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void tileir::addTileLowerToGPUPasses(OpPassManager &pm,
                                     const GPUPipelineOptions &options,
                                     GPUBackend backend, bool programmatic) {
  TileSelectGPUConfigOptions select;
  select.backend = backend == GPUBackend::ROCDL ? "rocdl" : "nvvm";
  select.chip = options.chip;
  select.features = options.features;
  select.config = options.config;
  select.tuning = options.tuning;
  pm.addPass(createTileSelectGPUConfig(select));
  pm.addPass(createTileLowerToGPU());
  pm.addPass(createTileMergeKernels());
  if (programmatic)
    pm.addPass(createTileProgrammaticLaunch());
  OpPassManager &device = pm.nest<gpu::GPUModuleOp>();
  // Folds the single-iteration loops the lowering leaves around loads.
  device.addPass(createCanonicalizerPass());
  device.addPass(createTilePipelineLoads());
}

void tileir::buildTileToGPUBinaryPipeline(OpPassManager &pm,
                                          const GPUPipelineOptions &options,
                                          GPUBackend backend) {
  llvm::Expected<std::unique_ptr<GPUTarget>> target =
      GPUTarget::get(backend, options.chip, options.features);
  if (!target) {
    // The selection pass reports the bad target when the pipeline runs.
    llvm::consumeError(target.takeError());
    addTileLowerToGPUPasses(pm, options, backend);
    return;
  }
  addTileLowerToGPUPasses(pm, options, backend,
                          (*target)->hasGridDependencyControl());

  OpPassManager &device = pm.nest<gpu::GPUModuleOp>();
  device.addPass(createSCFToControlFlowPass());
  device.addPass(createCanonicalizerPass());
  device.addPass(createCSEPass());
  device.addPass(std::make_unique<LowerShapeCastPass>());
  (*target)->addConversion(device);
  device.addPass(createReconcileUnrealizedCastsPass());
  device.addPass(createCanonicalizerPass());
  device.addPass(createCSEPass());

  (*target)->addAttachTarget(pm, options.optLevel);
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = options.format;
  binary.toolkitPath = options.toolkit.empty()
                           ? (*target)->getDefaultToolkit()
                           : std::string(options.toolkit);
  pm.addPass(createGpuModuleToBinaryPass(binary));
}

void tileir::registerTileGPUPipelines() {
  PassPipelineRegistration<GPUPipelineOptions>(
      "tile-lower-to-nvvm",
      "Lower tile programs to NVVM kernels in a gpu.binary (cubin) and a "
      "host launch function",
      [](OpPassManager &pm, const GPUPipelineOptions &options) {
        buildTileToGPUBinaryPipeline(pm, options, GPUBackend::NVVM);
      });
  PassPipelineRegistration<GPUPipelineOptions>(
      "tile-lower-to-rocdl",
      "Lower tile programs to ROCDL kernels in a gpu.binary (hsaco) and a "
      "host launch function",
      [](OpPassManager &pm, const GPUPipelineOptions &options) {
        buildTileToGPUBinaryPipeline(pm, options, GPUBackend::ROCDL);
      });
}
