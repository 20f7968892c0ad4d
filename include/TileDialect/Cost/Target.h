//===- Target.h - GPU target descriptions for the cost model ----*- C++ -*-===//
//
// A target description is data: the throughput and capacity numbers of one
// GPU that the roofline cost model needs. The bundled descriptions live as
// JSON files in lib/Cost/targets/ (embedded at build time); more can be
// loaded from a path. Every number and its source is listed in
// docs/CostModel.md.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_COST_TARGET_H
#define TILEDIALECT_COST_TARGET_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace mlir::tileir {

/// The numbers of one GPU. Bandwidths are in bytes per second, peaks in
/// FLOP per second, sizes in bytes, times in seconds.
struct TargetDesc {
  std::string name;   ///< the chip name used to look it up: "sm_90"
  std::string device; ///< the product: "NVIDIA H100 SXM5 80GB"
  std::string vendor; ///< "nvidia" or "amd"
  llvm::SmallVector<std::string, 2> aliases; ///< other lookup names: "h100"

  unsigned computeUnits = 0;      ///< SMs (NVIDIA) or CUs (AMD)
  uint64_t sharedMemoryPerCU = 0; ///< shared memory (LDS) per SM/CU
  uint64_t registersPerCU = 0;    ///< register file per SM/CU
  unsigned maxThreadsPerCU = 0;   ///< resident threads per SM/CU
  unsigned warpSize = 0;          ///< 32 (warp) or 64 (wavefront)
  double hbmBandwidth = 0;        ///< device memory bandwidth
  uint64_t l2Size = 0;            ///< L2 cache size
  double l2Bandwidth = 0;         ///< L2 bandwidth
  double matrixPeak = 0; ///< dense fp16/bf16 with fp32 accumulate, matrix units
  double vectorPeak = 0; ///< fp32 on the vector units (an FMA counts 2)
  double launchOverhead = 0; ///< per kernel launch
  /// The default value of every symbolic tile size (halved until it divides
  /// the loop ranges); 0 means no default.
  int64_t defaultTileSize = 0;
};

/// Parses one target description from its JSON text. `origin` names the
/// text in error messages.
llvm::Expected<TargetDesc> parseTarget(llvm::StringRef json,
                                       llvm::StringRef origin);

/// Reads a target description from a JSON file.
llvm::Expected<TargetDesc> loadTargetFile(llvm::StringRef path);

/// The bundled target with this name or alias. For an unknown name, the
/// error lists the known targets.
llvm::Expected<TargetDesc> getTarget(llvm::StringRef name);

/// Resolves a `target=` option: a path to a JSON file when `nameOrPath`
/// ends in `.json`, else a bundled target's name or alias.
llvm::Expected<TargetDesc> resolveTarget(llvm::StringRef nameOrPath);

/// The names of the bundled targets, sorted.
llvm::SmallVector<std::string> knownTargetNames();

} // namespace mlir::tileir

#endif // TILEDIALECT_COST_TARGET_H
