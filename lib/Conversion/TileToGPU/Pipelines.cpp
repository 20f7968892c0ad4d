//===- Pipelines.cpp - Tile programs to NVVM and ROCDL device binaries ----===//
//
// `--tile-lower-to-nvvm` and `--tile-lower-to-rocdl`: `--tile-lower-to-gpu`,
// then upstream passes only: structured control flow to branches, the gpu
// module to the NVVM or ROCDL dialect (bare-pointer kernel arguments, so a
// launch passes one device pointer per tensor), a target attribute, and
// `gpu-module-to-binary`. The two targets differ only in what a
// `DeviceTarget` adds: the conversion, the target attribute, the toolkit.
//
//===----------------------------------------------------------------------===//

#include "TileDialect/Conversion/Passes.h"

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

/// The NVVM target features when the user gives none: PTX ISA 8.1, the
/// first with vector reductions (`red.global.add.v4.f32`).
static constexpr const char kDefaultNVVMFeatures[] = "+ptx81";

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

/// What differs between GPU vendors in the pipeline: the dialect the gpu
/// module is converted to, the target attribute and the toolkit that
/// `gpu-module-to-binary` uses. Everything else is shared.
class DeviceTarget {
public:
  virtual ~DeviceTarget() = default;
  virtual StringRef defaultChip() const = 0;
  /// Adds the conversion of a gpu.module's contents to the device dialect.
  virtual void addConversion(OpPassManager &device, StringRef chip) const = 0;
  /// Adds the pass attaching the target attribute to every gpu.module.
  virtual void addAttachTarget(OpPassManager &pm, StringRef chip,
                               const GPUPipelineOptions &options) const = 0;
  /// The toolkit directory when the user gives none.
  virtual std::string defaultToolkit() const = 0;
};

class NVVMTarget : public DeviceTarget {
public:
  StringRef defaultChip() const override { return "sm_90"; }
  void addConversion(OpPassManager &device, StringRef chip) const override {
    // nvgpu.mma.sync first, to nvvm.mma.sync on LLVM vector types.
    device.addPass(createConvertNVGPUToNVVMPass());
    ConvertGpuOpsToNVVMOpsOptions convert;
    convert.useBarePtrCallConv = true;
    device.addPass(createConvertGpuOpsToNVVMOps(convert));
  }
  void addAttachTarget(OpPassManager &pm, StringRef chip,
                       const GPUPipelineOptions &options) const override {
    GpuNVVMAttachTargetOptions target;
    target.chip = chip.str();
    target.optLevel = options.optLevel;
    target.features = options.features.empty() ? kDefaultNVVMFeatures
                                               : std::string(options.features);
    pm.addPass(createGpuNVVMAttachTarget(target));
  }
  // The CUDA found when the project was configured; empty leaves
  // gpu-module-to-binary to its own search ($CUDA_HOME and friends).
  std::string defaultToolkit() const override { return TILE_CUDA_TOOLKIT_DIR; }
};

class ROCDLTarget : public DeviceTarget {
public:
  StringRef defaultChip() const override { return "gfx942"; }
  void addConversion(OpPassManager &device, StringRef chip) const override {
    ConvertGpuOpsToROCDLOpsOptions convert;
    convert.chipset = chip.str();
    convert.useBarePtrCallConv = true;
    device.addPass(createConvertGpuOpsToROCDLOps(convert));
  }
  void addAttachTarget(OpPassManager &pm, StringRef chip,
                       const GPUPipelineOptions &options) const override {
    GpuROCDLAttachTargetOptions target;
    target.chip = chip.str();
    target.optLevel = options.optLevel;
    target.features = options.features;
    pm.addPass(createGpuROCDLAttachTarget(target));
  }
  // ld.lld-22 and the rocm-device-libs bitcode, linked into the build tree.
  std::string defaultToolkit() const override { return TILE_ROCM_TOOLKIT_DIR; }
};

} // namespace

static const DeviceTarget &getTarget(bool rocdl) {
  static const NVVMTarget nvvm;
  static const ROCDLTarget amd;
  return rocdl ? static_cast<const DeviceTarget &>(amd) : nvvm;
}

std::string tileir::pipelineChip(StringRef chip, bool rocdl) {
  return chip.empty() ? getTarget(rocdl).defaultChip().str() : chip.str();
}

bool tileir::supportsProgrammaticLaunch(StringRef chip) {
  unsigned version = 0;
  return chip.consume_front("sm_") && !chip.consumeInteger(10, version) &&
         version >= 90;
}

bool tileir::supportsVectorAtomics(StringRef chip, StringRef features) {
  if (!supportsProgrammaticLaunch(chip))
    return false;
  // The PTX version of the features, e.g. "+ptx81,+sm_90" -> 81.
  StringRef ptx = features.empty() ? StringRef(kDefaultNVVMFeatures) : features;
  size_t at = ptx.find("+ptx");
  if (at == StringRef::npos)
    return false;
  StringRef digits = ptx.drop_front(at + 4);
  unsigned version = 0;
  return !digits.consumeInteger(10, version) && version >= 81;
}

void tileir::addTileLowerToGPUPass(OpPassManager &pm,
                                   const GPUPipelineOptions &options,
                                   bool rocdl, bool programmatic) {
  TileLowerToGPUOptions lower;
  lower.tileSizes.assign(options.tileSizes.begin(), options.tileSizes.end());
  lower.maxTileSize = options.maxTileSize;
  lower.minBlocks = options.minBlocks;
  lower.elementLoops = options.elementLoops;
  lower.splitK = options.splitK;
  lower.threadElements = options.threadElements;
  lower.kSlices = options.kSlices;
  lower.fissionBlocks = options.fissionBlocks;
  lower.privatize = options.privatize;
  lower.warpLoops = options.warpLoops;
  lower.tf32 = options.tf32;
  lower.mma = options.mma && !rocdl;
  bool inlinePTX = !rocdl && supportsVectorAtomics(
                                 options.chip.empty() ? StringRef("sm_90")
                                                      : StringRef(options.chip),
                                 options.features);
  lower.vectorAtomics = options.vectorAtomics && inlinePTX;
  // Prefetches only pay where the wait after them lets the kernel start
  // early.
  lower.prefetchBytes = inlinePTX && programmatic ? options.prefetchBytes : 0;
  lower.splitEpilogues = options.splitEpilogues;
  lower.blockSize = options.blockSize;
  lower.sharedMemoryBytes = options.sharedMemoryBytes;
  pm.addPass(createTileLowerToGPU(lower));
  if (options.mergeKernels) {
    TileMergeKernelsOptions merge;
    merge.sharedMemoryBytes = options.sharedMemoryBytes;
    merge.zeroBuffers = options.zeroInKernels;
    pm.addPass(createTileMergeKernels(merge));
  }
  if (programmatic) {
    TileProgrammaticLaunchOptions launch;
    launch.earlyLaunchBlocks = options.earlyLaunchBlocks;
    pm.addPass(createTileProgrammaticLaunch(launch));
  }
  if (options.pipelineLoads == 0)
    return;
  OpPassManager &device = pm.nest<gpu::GPUModuleOp>();
  // Folds the single-iteration loops the lowering leaves around loads.
  device.addPass(createCanonicalizerPass());
  TilePipelineLoadsOptions pipeline;
  pipeline.distance = options.pipelineLoads;
  device.addPass(createTilePipelineLoads(pipeline));
}

void tileir::buildTileToGPUBinaryPipeline(OpPassManager &pm,
                                          const GPUPipelineOptions &options,
                                          bool rocdl) {
  if (!options.tuning.empty()) {
    pm.addPass(createTunedPipelinePass(options, rocdl));
    return;
  }
  const DeviceTarget &target = getTarget(rocdl);
  std::string chip = pipelineChip(options.chip, rocdl);
  addTileLowerToGPUPass(pm, options, rocdl,
                        /*programmatic=*/!rocdl &&
                            supportsProgrammaticLaunch(chip));

  OpPassManager &device = pm.nest<gpu::GPUModuleOp>();
  device.addPass(createSCFToControlFlowPass());
  device.addPass(createCanonicalizerPass());
  device.addPass(createCSEPass());
  device.addPass(std::make_unique<LowerShapeCastPass>());
  target.addConversion(device, chip);
  device.addPass(createReconcileUnrealizedCastsPass());
  device.addPass(createCanonicalizerPass());
  device.addPass(createCSEPass());

  target.addAttachTarget(pm, chip, options);
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = options.format;
  binary.toolkitPath = options.toolkit.empty() ? target.defaultToolkit()
                                               : std::string(options.toolkit);
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
