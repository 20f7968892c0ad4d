//===- Tuning.h - Entries of the tuning cache -------------------*- C++ -*-===//
//
// The tuning cache (bench/tuning/<device>.json, written by
// bench/gpu/tune.py from measurements) maps a tile program, by the hash of
// its text, to the tile sizes and lowering options that measured fastest on
// a device. `tile-run --tuning` and the `tuning` option of
// `--tile-lower-to-nvvm` / `--tile-lower-to-rocdl` read it through this
// interface (docs/GPULowering.md, "Tuning by measurement").
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_CONVERSION_TILETOGPU_TUNING_H
#define TILEDIALECT_CONVERSION_TILETOGPU_TUNING_H

#include "TileDialect/IR/TileOps.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace mlir::tileir {

/// A hash of `program`'s text (16 hex digits): the key of tuning entries.
std::string programHash(ProgramOp program);

/// One entry of a tuning cache: what it sets (fields it lacks are unset).
struct TuningEntry {
  llvm::StringMap<int64_t> tileSizes;
  std::optional<bool> elementLoops, privatize, warpLoops, tf32, mma,
      vectorAtomics, mergeKernels, zeroInKernels;
  std::optional<int64_t> blockSize, minBlocks, splitK, threadElements,
      kSlices, fissionBlocks, pipelineLoads, prefetchBytes, splitEpilogues,
      earlyLaunchBlocks, maxTileSize;
  /// "entry for @NAME (HASH), variant V, measured X us on DEVICE".
  std::string description;
};

/// Calls `set(option, value)` with each lowering option of `options` (a
/// struct with the members GPUPipelineOptions has: tile-run's
/// DeviceCompileOptions, or the pipeline options themselves) and the
/// entry's optional value for it. Tile sizes and `maxTileSize` are left to
/// the caller.
template <typename Options, typename Set>
void forEachLoweringOption(const TuningEntry &entry, Options &options,
                           Set set) {
  set(options.elementLoops, entry.elementLoops);
  set(options.blockSize, entry.blockSize);
  set(options.minBlocks, entry.minBlocks);
  set(options.splitK, entry.splitK);
  set(options.threadElements, entry.threadElements);
  set(options.kSlices, entry.kSlices);
  set(options.fissionBlocks, entry.fissionBlocks);
  set(options.privatize, entry.privatize);
  set(options.warpLoops, entry.warpLoops);
  set(options.tf32, entry.tf32);
  set(options.mma, entry.mma);
  set(options.vectorAtomics, entry.vectorAtomics);
  set(options.pipelineLoads, entry.pipelineLoads);
  set(options.prefetchBytes, entry.prefetchBytes);
  set(options.splitEpilogues, entry.splitEpilogues);
  set(options.earlyLaunchBlocks, entry.earlyLaunchBlocks);
  set(options.mergeKernels, entry.mergeKernels);
  set(options.zeroInKernels, entry.zeroInKernels);
}

/// The result of looking a program up in a cache.
struct TuningLookup {
  /// The program's entry, if the cache has one for its hash and `chip`.
  std::optional<TuningEntry> entry;
  /// One line for the user: `tuning: PATH: <entry's description>`, or why
  /// there is none (no entry, or entries only for other chips).
  std::string message;
};

/// Reads the tuning cache at `path` and finds `program`'s entry for `chip`
/// (the chip the pipeline targets, never empty): an entry recorded for
/// another chip, or for none, does not match.
/// Fails (with a message naming the file) if the cache cannot be read or is
/// not a cache: a JSON object with an `entries` array.
llvm::Expected<TuningLookup> lookupTuning(llvm::StringRef path,
                                          ProgramOp program,
                                          llvm::StringRef chip);

} // namespace mlir::tileir

#endif // TILEDIALECT_CONVERSION_TILETOGPU_TUNING_H
