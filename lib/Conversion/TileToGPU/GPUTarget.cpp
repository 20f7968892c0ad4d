//===- GPUTarget.cpp - NVVM and ROCDL targets of the GPU lowering ---------===//

#include "TileDialect/Conversion/TileToGPU/GPUTarget.h"
#include "TileDialect/Conversion/TileToGPU/TileToGPU.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/GPUToROCDL/GPUToROCDLPass.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;
using namespace mlir::tileir;

/// The PTX ISA of the NVVM target features when the user gives none: 8.1,
/// the first with vector reductions (`red.global.add.v4.f32`), or the
/// chip's first where that is later.
static constexpr unsigned kDefaultPTXVersion = 81;

/// XY of "sm_XY" (0 for anything else).
static unsigned smVersion(StringRef chip) {
  unsigned version = 0;
  if (!chip.consume_front("sm_") || chip.getAsInteger(10, version))
    return 0;
  return version;
}

/// The first PTX ISA (as 10 major + minor) that supports sm_`sm`, as
/// LLVM's NVPTX backend requires it (it stops with a fatal error below):
/// the entry of the newest chip at most `sm`.
static unsigned minimumPTXVersion(unsigned sm) {
  static constexpr std::pair<unsigned, unsigned> kFirstPTX[] = {
      {121, 88}, {120, 87}, {103, 88}, {100, 86}, {89, 78},
      {87, 74},  {86, 71},  {80, 70},  {75, 63},  {70, 60}};
  for (auto [chip, ptx] : kFirstPTX)
    if (sm >= chip)
      return ptx;
  return 50;
}

/// The PTX ISA that `features` ask for ("+ptx81,+..." -> 81), or 0.
static unsigned ptxVersion(StringRef features) {
  size_t at = features.find("+ptx");
  if (at == StringRef::npos)
    return 0;
  unsigned version = 0;
  if (features.drop_front(at + 4)
          .take_while(llvm::isDigit)
          .getAsInteger(10, version))
    return 0;
  return version;
}

/// The options of either vendor's attach-target pass.
template <typename Options>
static Options attachOptions(StringRef chip, unsigned optLevel,
                             StringRef features) {
  Options options;
  options.chip = chip.str();
  options.optLevel = optLevel;
  options.features = features.str();
  return options;
}

namespace {

/// The device scope of the emitter's fences as NVPTX spells it: the
/// emitter writes AMDGPU's "agent" (`kDeviceSyncScope`), which NVPTX
/// refuses.
class NVPTXSyncScopePass
    : public PassWrapper<NVPTXSyncScopePass, OperationPass<gpu::GPUModuleOp>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(NVPTXSyncScopePass)
  StringRef getArgument() const override { return "tile-nvptx-sync-scope"; }
  void runOnOperation() override {
    getOperation().walk([](LLVM::FenceOp fence) {
      if (fence.getSyncscope() == kDeviceSyncScope)
        fence.setSyncscope("device");
    });
  }
};

class NVVMTarget : public GPUTarget {
public:
  bool hasMatrixUnits() const override { return smVersion(chip) >= 80; }
  bool hasTF32() const override { return smVersion(chip) >= 80; }
  bool hasVectorAtomics() const override {
    if (!hasGridDependencyControl())
      return false;
    return ptxVersion(features) >= 81;
  }
  bool hasGridDependencyControl() const override {
    return smVersion(chip) >= 90;
  }
  void addConversion(OpPassManager &device) const override {
    device.addPass(std::make_unique<NVPTXSyncScopePass>());
    // nvgpu.mma.sync first, to nvvm.mma.sync on LLVM vector types.
    device.addPass(createConvertNVGPUToNVVMPass());
    ConvertGpuOpsToNVVMOpsOptions convert;
    convert.useBarePtrCallConv = true;
    device.addPass(createConvertGpuOpsToNVVMOps(convert));
  }
  void addAttachTarget(OpPassManager &pm, unsigned optLevel) const override {
    pm.addPass(createGpuNVVMAttachTarget(
        attachOptions<GpuNVVMAttachTargetOptions>(chip, optLevel, features)));
  }
  // The CUDA found when the project was configured; empty leaves
  // gpu-module-to-binary to its own search ($CUDA_HOME and friends).
  std::string getDefaultToolkit() const override {
    return TILE_CUDA_TOOLKIT_DIR;
  }
};

class ROCDLTarget : public GPUTarget {
public:
  // The emitter's matrix-unit code is NVIDIA's (mma.sync, wmma).
  bool hasMatrixUnits() const override { return false; }
  bool hasTF32() const override { return false; }
  bool hasVectorAtomics() const override { return false; }
  bool hasGridDependencyControl() const override { return false; }
  void addConversion(OpPassManager &device) const override {
    ConvertGpuOpsToROCDLOpsOptions convert;
    convert.chipset = chip;
    convert.useBarePtrCallConv = true;
    device.addPass(createConvertGpuOpsToROCDLOps(convert));
  }
  void addAttachTarget(OpPassManager &pm, unsigned optLevel) const override {
    pm.addPass(createGpuROCDLAttachTarget(
        attachOptions<GpuROCDLAttachTargetOptions>(chip, optLevel, features)));
  }
  // ld.lld-22 and the rocm-device-libs bitcode, linked into the build tree.
  std::string getDefaultToolkit() const override {
    return TILE_ROCM_TOOLKIT_DIR;
  }
};

} // namespace

std::string tileir::getDefaultChip(GPUBackend backend) {
  return backend == GPUBackend::ROCDL ? "gfx942" : "sm_90";
}

llvm::Expected<std::unique_ptr<GPUTarget>>
GPUTarget::get(GPUBackend backend, StringRef chip, StringRef features) {
  std::unique_ptr<GPUTarget> target;
  if (backend == GPUBackend::NVVM)
    target = std::make_unique<NVVMTarget>();
  else
    target = std::make_unique<ROCDLTarget>();
  target->backend = backend;
  target->chip = chip.empty() ? getDefaultChip(backend) : chip.str();
  target->features = features.str();
  if (backend == GPUBackend::NVVM && !smVersion(target->chip))
    return llvm::createStringError("unknown NVVM chip '" + target->chip +
                                   "' (expected sm_XY)");
  if (backend == GPUBackend::NVVM) {
    unsigned least = minimumPTXVersion(smVersion(target->chip));
    if (features.empty())
      target->features =
          "+ptx" + std::to_string(std::max(kDefaultPTXVersion, least));
    else if (unsigned asked = ptxVersion(features); asked && asked < least)
      return llvm::createStringError(
          "PTX ISA " + std::to_string(asked / 10) + "." +
          std::to_string(asked % 10) + " (features '" + features.str() +
          "') does not support " + target->chip + ": it needs " +
          std::to_string(least / 10) + "." + std::to_string(least % 10) +
          " or later");
  }
  // The cost model's numbers for the chip, else for the closest older one
  // of the vendor that has them.
  llvm::Expected<TargetDesc> desc = getTarget(target->chip);
  if (!desc) {
    llvm::consumeError(desc.takeError());
    unsigned version = smVersion(target->chip);
    desc = getTarget(backend == GPUBackend::ROCDL ? getDefaultChip(backend)
                     : version >= 90              ? "sm_90"
                     : version >= 89              ? "sm_89"
                                                  : "sm_80");
    if (!desc)
      return desc.takeError();
  }
  target->desc = std::move(*desc);
  return target;
}

GPUConfigAttr GPUTarget::restrict(GPUConfigAttr config) const {
  if (!hasMatrixUnits() && config.getMma())
    config = config.with("mma", false);
  if (!hasTF32() && config.getTf32())
    config = config.with("tf32", false);
  if (!hasVectorAtomics() && config.getVectorAtomics())
    config = config.with("vector_atomics", false);
  if (!hasGridDependencyControl() && config.getPrefetchBytes())
    config = config.with("prefetch_bytes", 0);
  if (config.getSharedMemory() > getStaticSharedMemory())
    config = config.with("shared_memory", getStaticSharedMemory());
  return config;
}
