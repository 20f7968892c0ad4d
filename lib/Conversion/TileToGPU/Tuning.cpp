//===- Tuning.cpp - Entries of the tuning cache ---------------------------===//

#include "TileDialect/Conversion/TileToGPU/Tuning.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/xxhash.h"

using namespace mlir;
using namespace mlir::tileir;

std::string tileir::programHash(ProgramOp program) {
  std::string text;
  llvm::raw_string_ostream os(text);
  program->print(os);
  return llvm::formatv("{0:x16}", llvm::xxh3_64bits(text)).str();
}

/// The fields of one entry object.
static TuningEntry parseEntry(const llvm::json::Object &object) {
  TuningEntry entry;
  if (const llvm::json::Object *sizes = object.getObject("tile_sizes"))
    for (const auto &size : *sizes)
      if (std::optional<int64_t> v = size.second.getAsInteger(); v && *v > 0)
        entry.tileSizes[size.first.str()] = *v;
  auto flag = [&](StringRef key, std::optional<bool> &field) {
    field = object.getBoolean(key);
  };
  auto number = [&](StringRef key, std::optional<int64_t> &field) {
    field = object.getInteger(key);
  };
  flag("element_loops", entry.elementLoops);
  flag("privatize", entry.privatize);
  flag("warp_loops", entry.warpLoops);
  flag("tf32", entry.tf32);
  flag("mma", entry.mma);
  flag("vector_atomics", entry.vectorAtomics);
  flag("merge_kernels", entry.mergeKernels);
  flag("zero_in_kernels", entry.zeroInKernels);
  number("block_size", entry.blockSize);
  number("min_blocks", entry.minBlocks);
  number("split_k", entry.splitK);
  number("thread_elements", entry.threadElements);
  number("k_slices", entry.kSlices);
  number("fission_blocks", entry.fissionBlocks);
  number("pipeline_loads", entry.pipelineLoads);
  number("prefetch_bytes", entry.prefetchBytes);
  number("split_epilogues", entry.splitEpilogues);
  number("early_launch_blocks", entry.earlyLaunchBlocks);
  number("max_tile_size", entry.maxTileSize);
  return entry;
}

llvm::Expected<TuningLookup>
tileir::lookupTuning(StringRef path, ProgramOp program, StringRef chip) {
  auto error = [&](const Twine &message) {
    return llvm::createStringError(message);
  };
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path);
  if (!file)
    return error("cannot read tuning cache '" + path +
                 "': " + file.getError().message());
  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse((*file)->getBuffer());
  if (!json)
    return error("tuning cache '" + path +
                 "' is not JSON: " + llvm::toString(json.takeError()));
  const llvm::json::Array *entries =
      json->getAsObject() ? json->getAsObject()->getArray("entries") : nullptr;
  if (!entries)
    return error("tuning cache '" + path + "' has no 'entries' array");

  std::string hash = programHash(program);
  std::string name = program.getSymName().str();
  std::string otherChips;
  for (const llvm::json::Value &value : *entries) {
    const llvm::json::Object *object = value.getAsObject();
    if (!object || object->getString("program_hash") != StringRef(hash))
      continue;
    // An entry applies to the chip it was measured on only; one that names
    // no chip (an empty "chip" was once written for the default) matches
    // no chip.
    StringRef entryChip = object->getString("chip").value_or("");
    if (entryChip != chip) {
      otherChips += (otherChips.empty() ? "" : ", ") +
                    (entryChip.empty() ? "no chip" : entryChip.str());
      continue;
    }
    TuningLookup found;
    found.entry = parseEntry(*object);
    std::string &line = found.entry->description;
    line = "entry for @" + name + " (" + hash + ")";
    if (std::optional<StringRef> variant = object->getString("variant"))
      line += ", variant " + variant->str();
    if (std::optional<double> us = object->getNumber("median_us"))
      line += llvm::formatv(", measured {0:F1} us", *us).str();
    if (std::optional<StringRef> device = object->getString("device"))
      line += " on " + device->str();
    found.message = "tuning: " + path.str() + ": " + line;
    return found;
  }
  TuningLookup missing;
  missing.message = "tuning: no entry for @" + name + " in " + path.str();
  if (!otherChips.empty())
    missing.message += " for " + chip.str() + " (only for " + otherChips + ")";
  return missing;
}
