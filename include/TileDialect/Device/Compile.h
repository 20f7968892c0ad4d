//===- Compile.h - Tile programs to runtime artifacts -----------*- C++ -*-===//
//
// The GPU path of tile-run: lowers a tile program with the NVVM or ROCDL
// pipeline, turns the lowered module (host launch function + gpu.binary)
// into a runtime artifact (docs/Runtime.md) with the inputs' generators and
// the expected outputs computed on the CPU, writes it, and runs it through
// the runtime library that tile-gpu-run also uses.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_DEVICE_COMPILE_H
#define TILEDIALECT_DEVICE_COMPILE_H

#include "TileDialect/Conversion/TileToGPU/Tuning.h"
#include "TileDialect/IR/TileOps.h"
#include "TileDialect/Runtime/Artifact.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"

namespace mlir::tileir {

struct DeviceCompileOptions {
  runtime::Platform platform = runtime::Platform::Cuda;
  /// Empty: sm_90 (cuda) or gfx942 (hip).
  std::string chip;
  /// Explicit tile sizes; the others are bound by `maxTileSize` and shrunk
  /// for `minBlocks` (see --tile-lower-to-gpu).
  llvm::StringMap<int64_t> tileSizes;
  int64_t maxTileSize = 32;
  int64_t minBlocks = 264;
  unsigned blockSize = 256;
  bool elementLoops = true;
  unsigned splitK = 1;
  unsigned threadElements = 16;
  unsigned kSlices = 8;
  int64_t fissionBlocks = 0;
  bool privatize = true;
  bool warpLoops = true;
  bool tf32 = false;
  bool mma = false;
  /// Vector reductions for split accumulations where the target has them
  /// (--tile-lower-to-nvvm vector-atomics; never when emulating).
  bool vectorAtomics = true;
  /// Iterations kernel loops load ahead (--tile-pipeline-loads; 0: off).
  unsigned pipelineLoads = 0;
  /// Bytes of weight tiles each block of a loop kernel prefetches into L2
  /// before it waits for the kernels before it (--tile-lower-to-nvvm
  /// prefetch-bytes; sm_90 and later; 0: none).
  int64_t prefetchBytes = 0;
  /// Elementwise kernels of split results run by their last blocks
  /// (--tile-lower-to-gpu split-epilogues).
  int64_t splitEpilogues = 0;
  /// Most blocks of a kernel that launches a prefetching successor at entry
  /// (--tile-lower-to-nvvm early-launch-blocks; 0: never).
  int64_t earlyLaunchBlocks = 528;
  /// Launch independent kernels as one grid (--tile-merge-kernels).
  bool mergeKernels = true;
  /// The launches clear the buffers that start as zeros (zero-in-kernels).
  bool zeroInKernels = true;
  uint64_t seed = 0;
  double tolerance = 1e-2;
  /// Stop after --tile-lower-to-gpu (no device binary): the kernels are
  /// run by the host emulation (HostEmulation.h).
  bool emulate = false;
};

/// An output of the program and its expected values.
struct ExpectedOutput {
  /// The program tensor (argument number).
  unsigned tensor;
  std::vector<double> values;
};

/// Lowers `program` and builds its artifact; `inits` gives how each program
/// tensor starts (inputs: their random stream and distribution). Emits a
/// diagnostic and fails if the program cannot be lowered.
/// `resolvedSizes`, if given, receives every tile size the lowering used;
/// `lowered`, if given, the lowered module (with `emulate`, the output of
/// --tile-lower-to-gpu).
FailureOr<runtime::Artifact>
compileArtifact(ProgramOp program, const DeviceCompileOptions &options,
                ArrayRef<runtime::TensorInit> inits,
                ArrayRef<ExpectedOutput> expected,
                llvm::StringMap<int64_t> *resolvedSizes = nullptr,
                OwningOpRef<ModuleOp> *lowered = nullptr);

/// The tuning-cache entry (docs/GPULowering.md) for a program compiled with
/// `options` into `resolvedSizes`.
std::string tuningEntryJSON(ProgramOp program,
                            const DeviceCompileOptions &options,
                            const llvm::StringMap<int64_t> &resolvedSizes);

/// Applies the entry of the tuning cache `path` whose program hash is
/// `program`'s, if any, to `options`: its tile sizes (except names in
/// `fixedSizes`) and, unless `keepLowering`, its lowering options. Returns
/// a line describing what was applied, or what was looked for; an error if
/// the cache cannot be read.
llvm::Expected<std::string> applyTuning(StringRef path, ProgramOp program,
                                        DeviceCompileOptions &options,
                                        const llvm::StringSet<> &fixedSizes,
                                        bool keepLowering);

} // namespace mlir::tileir

#endif // TILEDIALECT_DEVICE_COMPILE_H
