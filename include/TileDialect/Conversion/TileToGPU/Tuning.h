//===- Tuning.h - Entries of the tuning cache -------------------*- C++ -*-===//
//
// The tuning cache (bench/tuning/<device>.json, written by
// bench/gpu/tune.py from measurements) maps a tile program, by the hash of
// its text, to the tile sizes and lowering options that measured fastest on
// a device. `--tile-select-gpu-config` (and so `tile-run --tuning` and the
// `tuning` option of `--tile-lower-to-nvvm` / `--tile-lower-to-rocdl`)
// reads it through this interface (docs/GPULowering.md, "Tuning by measurement").
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_CONVERSION_TILETOGPU_TUNING_H
#define TILEDIALECT_CONVERSION_TILETOGPU_TUNING_H

#include "TileDialect/IR/TileAttrs.h"
#include "TileDialect/IR/TileOps.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace mlir::tileir {

/// A hash of `program`'s text (16 hex digits): the key of tuning entries.
std::string programHash(ProgramOp program);

/// One entry of a tuning cache: the configuration it sets (its
/// `gpu_config` text, tile sizes included; fields it lacks are left to the
/// strategy).
struct TuningEntry {
  GPUConfigAttr config;
  /// "entry for @NAME (HASH), variant V, measured X us on DEVICE".
  std::string description;
  /// For lookupTunedProgram: the text (a module holding one tile.program)
  /// of the optimizer's candidate that measured fastest, when one did.
  std::string candidateProgram;
};

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
/// Fails (with a message naming the file) if the cache cannot be read, is
/// not a cache (a JSON object with an `entries` array) or the entry's
/// `gpu_config` does not parse.
llvm::Expected<TuningLookup> lookupTuning(llvm::StringRef path,
                                          ProgramOp program,
                                          llvm::StringRef chip);

/// As lookupTuning, for the program the optimizer starts from: also an
/// entry whose winner is one of its candidates (tile-tune records the
/// program it came from as `source_hash`, and the candidate's text).
llvm::Expected<TuningLookup> lookupTunedProgram(llvm::StringRef path,
                                                ProgramOp program,
                                                llvm::StringRef chip);

} // namespace mlir::tileir

#endif // TILEDIALECT_CONVERSION_TILETOGPU_TUNING_H
