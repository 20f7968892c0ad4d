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
#include "TileDialect/IR/TileAttrs.h"
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
  /// Fields of `#tile.gpu_config` (its body text) that override the
  /// strategy's choice and the tuning entry (--tile-lower-to-nvvm config).
  std::string config;
  /// A tuning cache whose entry for the program overrides the strategy
  /// (--tile-lower-to-nvvm tuning; empty: none).
  std::string tuning;
  uint64_t seed = 0;
  double tolerance = 1e-2;
  /// Stop after the lowering to kernels and launches (no device binary):
  /// the kernels are run by the host emulation (HostEmulation.h), lowered
  /// without what the host cannot run (matrix-unit registers, inline PTX).
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
/// `loweredConfig`, if given, receives the configuration the kernels were
/// lowered with, every tile size included; `lowered`, if given, the lowered
/// module (with `emulate`, before any device binary).
FailureOr<runtime::Artifact>
compileArtifact(ProgramOp program, const DeviceCompileOptions &options,
                ArrayRef<runtime::TensorInit> inits,
                ArrayRef<ExpectedOutput> expected,
                GPUConfigAttr *loweredConfig = nullptr,
                OwningOpRef<ModuleOp> *lowered = nullptr);

/// The least magnitude the outputs of `op` (a tile program or a function)
/// are compared relative to, beyond their own type's (`comparisonFloor`):
/// f16's smallest normal when `op` computes any value in f16 (a tensor,
/// tile or scalar of that type), since a value rounded to an f16 subnormal
/// is off by up to 2^-25 whatever its size and its output's type; else 0.
/// Recorded in artifacts (`floor`).
double comparisonFloorOf(Operation *op);

/// Kernel tolerances against the fp64 reference (tile-run's 1e-2 on a
/// device, --tile-extract's emulate-tolerance) are stated for f16 storage:
/// where `op` stores any tensor in bf16 (8 significant bits against f16's
/// 11, a rounding 8 times as large) they are this many times as large.
constexpr double kBF16ToleranceFactor = 3.0;

/// kBF16ToleranceFactor where `op` (a tile program or a function) has a bf16
/// argument, else 1.
double kernelToleranceFactor(Operation *op);

/// The tuning-cache entry (docs/GPULowering.md) for a program compiled with
/// `options` and lowered with `loweredConfig`.
std::string tuningEntryJSON(ProgramOp program,
                            const DeviceCompileOptions &options,
                            GPUConfigAttr loweredConfig);

} // namespace mlir::tileir

#endif // TILEDIALECT_DEVICE_COMPILE_H
