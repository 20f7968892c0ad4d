//===- Tuning.cpp - Entries of the tuning cache ---------------------------===//

#include "TileDialect/Conversion/TileToGPU/Tuning.h"

#include "TileDialect/VersionString.h"

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

/// The entry of `program` for `chip` in the cache at `path`: one measured
/// for its hash, or, `asSource`, one whose winner is a candidate the
/// optimizer made from it (`source_hash`).
static llvm::Expected<TuningLookup>
lookup(StringRef path, ProgramOp program, StringRef chip, bool asSource) {
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
  unsigned stale = 0;
  for (const llvm::json::Value &value : *entries) {
    const llvm::json::Object *object = value.getAsObject();
    if (!object || (object->getString("program_hash") != StringRef(hash) &&
                    (!asSource ||
                     object->getString("source_hash") != StringRef(hash))))
      continue;
    // An entry tile-tune measured with another compiler is stale: the same
    // configuration may lower differently now. (Entries without a compiler
    // were written by hand.)
    if (std::optional<StringRef> compiler = object->getString("compiler");
        compiler && *compiler != tileVersionString()) {
      ++stale;
      continue;
    }
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
    found.entry.emplace();
    std::string problem;
    FailureOr<GPUConfigAttr> config = GPUConfigAttr::parseBody(
        program.getContext(), object->getString("gpu_config").value_or(""),
        problem);
    if (failed(config))
      return error("tuning cache '" + path + "', entry for @" + name + ": " +
                   problem);
    found.entry->config = *config;
    if (std::optional<StringRef> candidate =
            object->getString("candidate_program");
        candidate && object->getString("program_hash") != StringRef(hash))
      found.entry->candidateProgram = candidate->str();
    std::string &line = found.entry->description;
    line = "entry for @" + name + " (" + hash + ")";
    if (!found.entry->candidateProgram.empty())
      line += ": candidate @" +
              object->getString("program").value_or("?").str();
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
  missing.message =
      "tuning: no entry for @" + name + " (" + hash + ") in " + path.str();
  if (!otherChips.empty())
    missing.message += " for " + chip.str() + " (only for " + otherChips + ")";
  if (stale)
    missing.message += llvm::formatv(" ({0} measured with another compiler "
                                     "than {1}: stale)",
                                     stale, tileVersionString())
                           .str();
  return missing;
}

llvm::Expected<TuningLookup>
tileir::lookupTuning(StringRef path, ProgramOp program, StringRef chip) {
  return lookup(path, program, chip, /*asSource=*/false);
}

llvm::Expected<TuningLookup>
tileir::lookupTunedProgram(StringRef path, ProgramOp program,
                           StringRef chip) {
  return lookup(path, program, chip, /*asSource=*/true);
}
