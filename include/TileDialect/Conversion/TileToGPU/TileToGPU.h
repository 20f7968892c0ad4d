//===- TileToGPU.h - Tile programs to GPU kernels ---------------*- C++ -*-===//
//
// `--tile-lower-to-gpu` (tile program -> gpu.module + host launch function)
// and the pipelines that continue to device binaries,
// `--tile-lower-to-nvvm` and `--tile-lower-to-rocdl`.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_CONVERSION_TILETOGPU_TILETOGPU_H
#define TILEDIALECT_CONVERSION_TILETOGPU_TILETOGPU_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/PassOptions.h"

#include "TileDialect/Conversion/TileToGPU/GPUTarget.h"
#include "TileDialect/IR/TileAttrs.h"

#include <memory>

namespace mlir {
class Pass;
} // namespace mlir

namespace mlir::tileir {

/// Options shared by both device pipelines. Every lowering knob is a field
/// of `config` (`#tile.gpu_config`); the others say what to build for.
struct GPUPipelineOptions : public PassPipelineOptions<GPUPipelineOptions> {
  Option<std::string> config{
      *this, "config",
      llvm::cl::desc("Fields of #tile.gpu_config that override the "
                     "strategy and the tuning cache (`k_slices = 4, mma = "
                     "true, tile_sizes = {tile_i0 = 16}`; "
                     "docs/GPULowering.md)")};
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("Target chip (sm_80, sm_90; "
                                          "gfx90a, gfx942)")};
  Option<unsigned> optLevel{*this, "opt-level",
                            llvm::cl::desc("LLVM optimization level"),
                            llvm::cl::init(3)};
  Option<std::string> format{
      *this, "format",
      llvm::cl::desc("What gpu-module-to-binary emits: bin (cubin / hsaco), "
                     "isa (PTX / AMDGPU assembly), llvm, offload, fatbin"),
      llvm::cl::init("bin")};
  Option<std::string> features{
      *this, "features",
      llvm::cl::desc("Target features (NVVM default: +ptx81)")};
  Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("Toolkit directory for gpu-module-to-binary (ROCDL "
                     "default: the build's rocm-toolkit directory)")};
  Option<std::string> tuning{
      *this, "tuning",
      llvm::cl::desc("Tuning cache (bench/tuning/<device>.json): a program's "
                     "entry overrides the strategy's fields where `config` "
                     "does not set them")};
};

/// Whether `op` is a warp's mma.sync as the lowering emits it:
/// `nvgpu.mma.sync`, or the inline PTX it writes for bf16 operands (which
/// nvgpu's conversion does not take).
bool isMmaSync(Operation *op);

/// The synchronization scope of the kernels' fences between blocks: the
/// device, as AMDGPU spells it (the NVVM pipeline renames it to NVPTX's
/// "device").
inline constexpr llvm::StringLiteral kDeviceSyncScope = "agent";

/// Gives each workgroup buffer of the `gpu.func` `kernel` a 16-byte
/// alignment: the kernels access them with 16-byte vectors, and an f16
/// buffer must not start where an odd number of f32 elements ends.
void alignWorkgroupBuffers(Operation *kernel);

/// Registers `--tile-lower-to-nvvm` and `--tile-lower-to-rocdl`.
void registerTileGPUPipelines();

/// Adds the passes that lower tile programs to kernels and launches, the
/// first steps of both pipelines: --tile-select-gpu-config for the target,
/// --tile-lower-to-gpu, --tile-merge-kernels, --tile-programmatic-launch
/// where the target has grid dependency control and `programmatic` is set,
/// and the canonicalizer and --tile-pipeline-loads on the gpu modules. The
/// host emulation takes this without `programmatic`.
void addTileLowerToGPUPasses(OpPassManager &pm,
                             const GPUPipelineOptions &options,
                             GPUBackend backend, bool programmatic = false);

/// Adds the passes of either pipeline to `pm`.
void buildTileToGPUBinaryPipeline(OpPassManager &pm,
                                  const GPUPipelineOptions &options,
                                  GPUBackend backend);

/// The configuration a pass applies at `op`: the `tile.gpu_config` of `op`
/// or of its nearest ancestor that has one (none: every default),
/// overridden by the fields of `optionText` (a pass's `config` option).
/// Emits an error at `op` and fails if either is malformed.
FailureOr<GPUConfigAttr> resolveGPUConfig(Operation *op,
                                          llvm::StringRef optionText);

/// "nvvm" (or "cuda") and "rocdl" (or "hip").
llvm::Expected<GPUBackend> parseGPUBackend(llvm::StringRef name);

} // namespace mlir::tileir

#endif // TILEDIALECT_CONVERSION_TILETOGPU_TILETOGPU_H
