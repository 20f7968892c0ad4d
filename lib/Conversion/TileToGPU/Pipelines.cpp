//===- Pipelines.cpp - Tile programs to NVVM and ROCDL device binaries ----===//
//
// `--tile-lower-to-nvvm` and `--tile-lower-to-rocdl`: `--tile-lower-to-gpu`,
// then upstream passes only: structured control flow to branches, the gpu
// module to the NVVM or ROCDL dialect (bare-pointer kernel arguments, so a
// launch passes one device pointer per tensor), a target attribute, and
// `gpu-module-to-binary`. The two targets differ only in the passes chosen
// here.
//
//===----------------------------------------------------------------------===//

#include "TileDialect/Conversion/Passes.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/GPUToROCDL/GPUToROCDLPass.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::tileir;

void tileir::buildTileToGPUBinaryPipeline(OpPassManager &pm,
                                          const GPUPipelineOptions &options,
                                          bool rocdl) {
  TileLowerToGPUOptions lower;
  lower.tileSizes.assign(options.tileSizes.begin(), options.tileSizes.end());
  lower.maxTileSize = options.maxTileSize;
  lower.minBlocks = options.minBlocks;
  lower.elementLoops = options.elementLoops;
  lower.blockSize = options.blockSize;
  lower.sharedMemoryBytes = options.sharedMemoryBytes;
  pm.addPass(createTileLowerToGPU(lower));

  OpPassManager &device = pm.nest<gpu::GPUModuleOp>();
  device.addPass(createSCFToControlFlowPass());
  device.addPass(createCanonicalizerPass());
  device.addPass(createCSEPass());
  std::string chip = options.chip;
  if (rocdl) {
    if (chip.empty())
      chip = "gfx942";
    ConvertGpuOpsToROCDLOpsOptions convert;
    convert.chipset = chip;
    convert.useBarePtrCallConv = true;
    device.addPass(createConvertGpuOpsToROCDLOps(convert));
  } else {
    ConvertGpuOpsToNVVMOpsOptions convert;
    convert.useBarePtrCallConv = true;
    device.addPass(createConvertGpuOpsToNVVMOps(convert));
  }
  device.addPass(createReconcileUnrealizedCastsPass());
  device.addPass(createCanonicalizerPass());
  device.addPass(createCSEPass());

  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = options.format;
  if (rocdl) {
    GpuROCDLAttachTargetOptions target;
    target.chip = chip;
    target.optLevel = options.optLevel;
    target.features = options.features;
    pm.addPass(createGpuROCDLAttachTarget(target));
    binary.toolkitPath = options.toolkit.empty()
                             ? std::string(TILE_ROCM_TOOLKIT_DIR)
                             : std::string(options.toolkit);
  } else {
    GpuNVVMAttachTargetOptions target;
    target.chip = chip.empty() ? "sm_90" : chip;
    target.optLevel = options.optLevel;
    target.features = options.features.empty() ? "+ptx80"
                                                : std::string(options.features);
    pm.addPass(createGpuNVVMAttachTarget(target));
    // Empty: the CUDA found when the project was configured, else
    // gpu-module-to-binary's own search ($CUDA_HOME and friends).
    binary.toolkitPath = options.toolkit.empty()
                             ? std::string(TILE_CUDA_TOOLKIT_DIR)
                             : std::string(options.toolkit);
  }
  pm.addPass(createGpuModuleToBinaryPass(binary));
}

void tileir::registerTileGPUPipelines() {
  PassPipelineRegistration<GPUPipelineOptions>(
      "tile-lower-to-nvvm",
      "Lower tile programs to NVVM kernels in a gpu.binary (cubin) and a "
      "host launch function",
      [](OpPassManager &pm, const GPUPipelineOptions &options) {
        buildTileToGPUBinaryPipeline(pm, options, /*rocdl=*/false);
      });
  PassPipelineRegistration<GPUPipelineOptions>(
      "tile-lower-to-rocdl",
      "Lower tile programs to ROCDL kernels in a gpu.binary (hsaco) and a "
      "host launch function",
      [](OpPassManager &pm, const GPUPipelineOptions &options) {
        buildTileToGPUBinaryPipeline(pm, options, /*rocdl=*/true);
      });
}
