//===- GPUTarget.h - What the GPU lowering knows of a target ----*- C++ -*-===//
//
// One interface for everything the GPU lowering needs to know about the
// device it targets, with an NVVM (NVIDIA) and a ROCDL (AMD)
// implementation: the hardware numbers the strategy sizes grids by (shared
// with the cost model: one TargetDesc per chip, lib/Cost/targets), the
// features kernels may use (matrix units, vector atomics, L2 prefetch, grid
// dependency control), and the vendor steps of the device pipelines (the
// conversion to the vendor dialect, the target attribute, the toolkit).
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_CONVERSION_TILETOGPU_GPUTARGET_H
#define TILEDIALECT_CONVERSION_TILETOGPU_GPUTARGET_H

#include "TileDialect/Cost/Target.h"
#include "TileDialect/IR/TileAttrs.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace mlir::tileir {

/// The vendor backends.
enum class GPUBackend { NVVM, ROCDL };

class GPUTarget {
public:
  virtual ~GPUTarget() = default;

  /// The target for `backend` and `chip` (empty: the backend's default,
  /// sm_90 or gfx942) with `features` (empty: the backend's default). The
  /// hardware numbers come from the cost model's description of the chip,
  /// or of the closest older chip of the vendor that has one.
  static llvm::Expected<std::unique_ptr<GPUTarget>>
  get(GPUBackend backend, llvm::StringRef chip = "",
      llvm::StringRef features = "");

  GPUBackend getBackend() const { return backend; }
  /// "sm_90", "gfx942".
  llvm::StringRef getChip() const { return chip; }
  /// Target features as the attach-target pass takes them.
  llvm::StringRef getFeatures() const { return features; }
  /// The hardware numbers (SMs, bandwidths, peaks).
  const TargetDesc &getDesc() const { return desc; }

  unsigned getWarpSize() const { return desc.warpSize; }
  unsigned getComputeUnits() const { return desc.computeUnits; }
  /// Static workgroup memory a kernel may allocate (CUDA and HIP: 48 KiB
  /// without dynamic shared memory).
  int64_t getStaticSharedMemory() const { return 48 * 1024; }

  /// Matmuls with f16 operands on the matrix units as the emitter writes
  /// them (mma.sync m16n8k16, wmma 16x16x16).
  virtual bool hasMatrixUnits() const = 0;
  /// tf32 mma.sync (m16n8k8).
  virtual bool hasTF32() const = 0;
  /// Vector reductions into global memory (red.global.add.v4.f32).
  virtual bool hasVectorAtomics() const = 0;
  /// L2 prefetches and grid dependency control (programmatic launches).
  virtual bool hasGridDependencyControl() const = 0;

  /// `config` with every knob whose feature this target lacks turned off.
  GPUConfigAttr restrict(GPUConfigAttr config) const;

  /// Adds the conversion of a gpu.module's contents to the vendor dialect.
  virtual void addConversion(OpPassManager &device) const = 0;
  /// Adds the pass attaching the target attribute to every gpu.module.
  virtual void addAttachTarget(OpPassManager &pm, unsigned optLevel) const = 0;
  /// The toolkit directory gpu-module-to-binary uses when none is given.
  virtual std::string getDefaultToolkit() const = 0;

protected:
  GPUBackend backend = GPUBackend::NVVM;
  std::string chip, features;
  TargetDesc desc;
};

/// The chip either backend targets for a `chip` option: `chip`, else the
/// backend's default (sm_90 for NVVM, gfx942 for ROCDL).
std::string getDefaultChip(GPUBackend backend);

} // namespace mlir::tileir

#endif // TILEDIALECT_CONVERSION_TILETOGPU_GPUTARGET_H
