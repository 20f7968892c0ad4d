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

#include <memory>

namespace mlir {
class Pass;
} // namespace mlir

namespace mlir::tileir {

/// Options shared by both device pipelines.
struct GPUPipelineOptions : public PassPipelineOptions<GPUPipelineOptions> {
  ListOption<std::string> tileSizes{
      *this, "tile-sizes",
      llvm::cl::desc("Values of symbolic tile sizes, NAME=N")};
  Option<int64_t> maxTileSize{
      *this, "max-tile-size",
      llvm::cl::desc("Bind sizes left unbound to the largest power of two up "
                     "to this dividing their loops (0: unbound is an error)"),
      llvm::cl::init(0)};
  Option<int64_t> minBlocks{
      *this, "min-blocks",
      llvm::cl::desc("Shrink sizes bound by max-tile-size until every kernel "
                     "has this many blocks where possible (0: never)"),
      llvm::cl::init(264)};
  Option<bool> elementLoops{
      *this, "element-loops",
      llvm::cl::desc("Run single-store carried loops element by element"),
      llvm::cl::init(true)};
  Option<unsigned> threadElements{
      *this, "thread-elements",
      llvm::cl::desc("Most elements one thread computes together in an "
                     "element loop"),
      llvm::cl::init(16)};
  Option<unsigned> kSlices{
      *this, "k-slices",
      llvm::cl::desc("Most slices of a split matmul accumulation's chunk per "
                     "block (with split-k > 1 also of an unsplit one; 1: "
                     "never)"),
      llvm::cl::init(8)};
  Option<unsigned> splitK{
      *this, "split-k",
      llvm::cl::desc("Split lone f32 accumulation loops into up to this many "
                     "chunks on separate blocks (1: never)"),
      llvm::cl::init(1)};
  Option<int64_t> fissionBlocks{
      *this, "fission-blocks",
      llvm::cl::desc("Split kernels with fewer blocks than this into one "
                     "kernel per statement of their body (0: never)"),
      llvm::cl::init(0)};
  Option<bool> privatize{
      *this, "privatize",
      llvm::cl::desc("One copy per iteration of a top-level loop of an "
                     "intermediate each iteration clears and recomputes"),
      llvm::cl::init(true)};
  Option<bool> warpLoops{
      *this, "warp-loops",
      llvm::cl::desc("With mma: FlashAttention-style loops one warp per "
                     "iteration, their tiles in registers"),
      llvm::cl::init(true)};
  Option<bool> tf32{
      *this, "tf32",
      llvm::cl::desc("With mma: a warp loop's f32 products of its tiles by "
                     "f16 loads on the matrix units as tf32"),
      llvm::cl::init(false)};
  Option<bool> mma{*this, "mma",
                   llvm::cl::desc("Matmuls on the matrix units (NVVM wmma)"),
                   llvm::cl::init(false)};
  Option<bool> vectorAtomics{
      *this, "vector-atomics",
      llvm::cl::desc("Split accumulations add aligned f32 runs with one "
                     "vector reduction (red.global.add.v4.f32) where the "
                     "target has it: NVVM, sm_90 and later, PTX 8.1 and later "
                     "(the default features)"),
      llvm::cl::init(true)};
  Option<bool> mergeKernels{
      *this, "merge-kernels",
      llvm::cl::desc("Launch independent kernels as one grid "
                     "(--tile-merge-kernels)"),
      llvm::cl::init(true)};
  Option<bool> zeroInKernels{
      *this, "zero-in-kernels",
      llvm::cl::desc("With merge-kernels: the launches clear the buffers "
                     "that start as zeros (--tile-merge-kernels "
                     "zero-buffers), so the caller clears fewer per call"),
      llvm::cl::init(true)};
  Option<unsigned> pipelineLoads{
      *this, "pipeline-loads",
      llvm::cl::desc("Iterations a kernel loop's global loads run ahead of "
                     "their use (--tile-pipeline-loads distance; 0: off)"),
      llvm::cl::init(0)};
  Option<int64_t> prefetchBytes{
      *this, "prefetch-bytes",
      llvm::cl::desc("NVVM, sm_90 and later: bytes of weight tiles each "
                     "block of a loop kernel prefetches into L2 before it "
                     "waits for the kernels before it (--tile-lower-to-gpu "
                     "prefetch-bytes; 0: none)"),
      llvm::cl::init(0)};
  Option<int64_t> splitEpilogues{
      *this, "split-epilogues",
      llvm::cl::desc("Run elementwise kernels of split accumulations' "
                     "results in the last block of each tile when those "
                     "blocks run at least this many iterations "
                     "(--tile-lower-to-gpu split-epilogues; 0: never)"),
      llvm::cl::init(0)};
  Option<int64_t> earlyLaunchBlocks{
      *this, "early-launch-blocks",
      llvm::cl::desc("NVVM, sm_90 and later: most blocks of a kernel that "
                     "launches a prefetching successor at entry "
                     "(--tile-programmatic-launch; 0: never)"),
      llvm::cl::init(528)};
  Option<unsigned> blockSize{*this, "block-size",
                             llvm::cl::desc("Threads per block"),
                             llvm::cl::init(256)};
  Option<int64_t> sharedMemoryBytes{
      *this, "shared-memory",
      llvm::cl::desc("Bytes of workgroup memory per kernel for tile buffers"),
      llvm::cl::init(49152)};
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
      llvm::cl::desc("Tuning cache (bench/tuning/<device>.json): the module's "
                     "programs take tile sizes and lowering options from "
                     "their entry, where these options do not set them")};
};

/// Registers `--tile-lower-to-nvvm` and `--tile-lower-to-rocdl`.
void registerTileGPUPipelines();

/// Adds --tile-lower-to-gpu with the options of either pipeline (the first
/// pass of both; `rocdl` turns `mma` off, and `vector-atomics` and
/// `prefetch-bytes` are on only where `supportsVectorAtomics` holds), then
/// --tile-merge-kernels with `merge-kernels`, then, when `programmatic`,
/// --tile-programmatic-launch, then, when `pipeline-loads` is not 0, the
/// canonicalizer and --tile-pipeline-loads on the gpu modules. The host
/// emulation takes this without `programmatic` (and with no vector
/// reductions or prefetches, which are inline PTX).
void addTileLowerToGPUPass(OpPassManager &pm, const GPUPipelineOptions &options,
                           bool rocdl, bool programmatic = false);

/// Whether `--tile-lower-to-nvvm` for `chip` (sm_XY) starts every kernel
/// with grid dependency control, so that its kernels may be launched with
/// programmatic stream serialization: sm_90 and later.
bool supportsProgrammaticLaunch(StringRef chip);

/// Whether NVVM kernels for `chip` (sm_XY) with target `features` (empty:
/// the pipeline's default) may use vector reductions into global memory
/// (`red.global.add.v4.f32`): sm_90 and later, PTX ISA 8.1 and later.
bool supportsVectorAtomics(StringRef chip, StringRef features);

/// Adds the passes of either pipeline to `pm` (`rocdl` picks the target).
/// With `tuning`, one module pass that looks the module's programs up in the
/// cache and runs the pipeline with their entry's sizes and options
/// (`createTunedPipelinePass`).
void buildTileToGPUBinaryPipeline(OpPassManager &pm,
                                  const GPUPipelineOptions &options,
                                  bool rocdl);

/// The chip either pipeline targets for its `chip` option: `chip`, else the
/// target's default (sm_90 for NVVM, gfx942 for ROCDL).
std::string pipelineChip(StringRef chip, bool rocdl);

/// The module pass behind the pipelines' `tuning` option: finds the entry of
/// the module's program in the cache `options.tuning` (by the hash of its
/// text, for the pipeline's chip), reports it as a remark, and runs the
/// pipeline with the entry's tile sizes and lowering options wherever
/// `options` does not set them explicitly. A module with several programs
/// takes the one entry they have; entries for two programs are an error.
std::unique_ptr<Pass> createTunedPipelinePass(const GPUPipelineOptions &options,
                                              bool rocdl);

} // namespace mlir::tileir

#endif // TILEDIALECT_CONVERSION_TILETOGPU_TILETOGPU_H
