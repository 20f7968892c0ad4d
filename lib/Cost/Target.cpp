//===- Target.cpp - GPU target descriptions -------------------------------===//

#include "TileDialect/Cost/Target.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir::tileir;

namespace {

/// The JSON text of each bundled target (lib/Cost/targets/*.json).
const char *const kBundledTargets[] = {
#include "BundledTargets.inc"
};

llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// Reads the fields of one target object, checking that every required key
/// is present, numbers are positive and no unknown key is given.
class TargetReader {
public:
  TargetReader(const llvm::json::Object &object, llvm::StringRef origin)
      : object(object), origin(origin) {}

  llvm::Expected<TargetDesc> read() {
    static const llvm::StringSet<> known = {"name",
                                            "aliases",
                                            "device",
                                            "vendor",
                                            "compute_units",
                                            "shared_memory_per_cu_kib",
                                            "registers_per_cu_kib",
                                            "max_threads_per_cu",
                                            "warp_size",
                                            "hbm_bandwidth_gbps",
                                            "l2_size_mib",
                                            "l2_bandwidth_gbps",
                                            "matrix_peak_tflops",
                                            "vector_peak_tflops",
                                            "launch_overhead_us",
                                            "default_tile_size",
                                            "sources"};
    for (const auto &entry : object)
      if (!known.contains(entry.first))
        return makeError(origin + ": unknown key '" + entry.first.str() + "'");

    TargetDesc t;
    t.name = string("name");
    t.device = string("device");
    t.vendor = string("vendor");
    if (const llvm::json::Array *aliases = object.getArray("aliases"))
      for (const llvm::json::Value &alias : *aliases)
        if (std::optional<llvm::StringRef> s = alias.getAsString())
          t.aliases.push_back(s->str());
    t.computeUnits = number("compute_units");
    t.sharedMemoryPerCU = number("shared_memory_per_cu_kib") * 1024;
    t.registersPerCU = number("registers_per_cu_kib") * 1024;
    t.maxThreadsPerCU = number("max_threads_per_cu");
    t.warpSize = number("warp_size");
    t.hbmBandwidth = number("hbm_bandwidth_gbps") * 1e9;
    t.l2Size = number("l2_size_mib") * 1024 * 1024;
    t.l2Bandwidth = number("l2_bandwidth_gbps") * 1e9;
    t.matrixPeak = number("matrix_peak_tflops") * 1e12;
    t.vectorPeak = number("vector_peak_tflops") * 1e12;
    t.launchOverhead = number("launch_overhead_us") * 1e-6;
    if (object.get("default_tile_size"))
      t.defaultTileSize = number("default_tile_size", /*allowZero=*/true);
    if (!problem.empty())
      return makeError(origin + ": " + problem);
    return t;
  }

private:
  std::string string(llvm::StringRef key) {
    std::optional<llvm::StringRef> value = object.getString(key);
    if (!value || value->empty()) {
      fail("missing string '" + key + "'");
      return "";
    }
    return value->str();
  }

  double number(llvm::StringRef key, bool allowZero = false) {
    std::optional<double> value = object.getNumber(key);
    if (!value) {
      fail("missing number '" + key + "'");
      return 0;
    }
    if (*value < 0 || (*value == 0 && !allowZero))
      fail("'" + key + "' must be positive");
    return *value;
  }

  void fail(const llvm::Twine &message) {
    if (problem.empty())
      problem = message.str();
  }

  const llvm::json::Object &object;
  llvm::StringRef origin;
  std::string problem;
};

/// The bundled targets, parsed once.
const std::vector<TargetDesc> &bundledTargets() {
  static const std::vector<TargetDesc> targets = [] {
    std::vector<TargetDesc> result;
    for (const char *json : kBundledTargets) {
      llvm::Expected<TargetDesc> target = parseTarget(json, "bundled target");
      if (!target)
        llvm::report_fatal_error(target.takeError()); // a build-time bug
      result.push_back(std::move(*target));
    }
    return result;
  }();
  return targets;
}

} // namespace

llvm::Expected<TargetDesc> mlir::tileir::parseTarget(llvm::StringRef json,
                                                     llvm::StringRef origin) {
  llvm::Expected<llvm::json::Value> value = llvm::json::parse(json);
  if (!value)
    return makeError(origin + ": " + llvm::toString(value.takeError()));
  const llvm::json::Object *object = value->getAsObject();
  if (!object)
    return makeError(origin + ": expected a JSON object");
  return TargetReader(*object, origin).read();
}

llvm::Expected<TargetDesc> mlir::tileir::loadTargetFile(llvm::StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return makeError("cannot read target file '" + path +
                     "': " + buffer.getError().message());
  return parseTarget((*buffer)->getBuffer(), path);
}

llvm::SmallVector<std::string> mlir::tileir::knownTargetNames() {
  llvm::SmallVector<std::string> names;
  for (const TargetDesc &target : bundledTargets())
    names.push_back(target.name);
  llvm::sort(names);
  return names;
}

llvm::Expected<TargetDesc> mlir::tileir::getTarget(llvm::StringRef name) {
  for (const TargetDesc &target : bundledTargets())
    if (target.name == name || llvm::is_contained(target.aliases, name))
      return target;
  std::string known;
  llvm::raw_string_ostream os(known);
  llvm::interleaveComma(bundledTargets(), os, [&](const TargetDesc &target) {
    os << target.name << " (" << target.device << ")";
  });
  return makeError("unknown target '" + name + "'; known targets: " + known +
                   ", or a path to a .json target description");
}

llvm::Expected<TargetDesc>
mlir::tileir::resolveTarget(llvm::StringRef nameOrPath) {
  if (nameOrPath.ends_with(".json"))
    return loadTargetFile(nameOrPath);
  return getTarget(nameOrPath);
}
