//===- tile-gpu-run.cpp - Run a compiled artifact on a GPU ----------------===//
//
// Loads an artifact directory (docs/Runtime.md), runs it on a CUDA or HIP
// device opened at run time, checks the outputs and optionally times the
// kernels. Links no MLIR or LLVM, so it can be copied to a GPU machine.
//
//===----------------------------------------------------------------------===//

#include "TileDialect/Runtime/Runner.h"
#include "TileDialect/VersionString.h"

#include <cstdlib>
#include <cstring>
#include <iostream>

using namespace mlir::tileir;
using namespace mlir::tileir::runtime;

static const char *const kUsage =
    "usage: tile-gpu-run DIR [--device cuda|hip] [--tolerance X] [--time]\n"
    "                        [--warmup N] [--repetitions N] [--per-kernel]\n"
    "                        [--graph] [--replays N] [--plain-launch]\n"
    "                        [--device-index I] [--probe] [--quiet]\n"
    "                        [--input NAME=@FILE.npy]... [--output-dir DIR]\n"
    "       tile-gpu-run --version\n"
    "       tile-gpu-run --probe [--device cuda|hip] [--device-index I]\n";

static int usage(const std::string &message) {
  std::cerr << "tile-gpu-run: " << message << "\n" << kUsage;
  return kExitBadArtifact;
}

/// Parses a non-negative integer.
static bool parseCount(const char *text, long long max, long long &value) {
  char *end = nullptr;
  value = std::strtoll(text, &end, 10);
  return *text && *end == '\0' && value >= 0 && value <= max;
}

int main(int argc, char **argv) {
  RunOptions options;
  std::string dir;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](const char *&text) {
      if (i + 1 >= argc)
        return false;
      text = argv[++i];
      return true;
    };
    const char *text = nullptr;
    long long count;
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      return kExitPass;
    } else if (arg == "--version") {
      std::cout << "tile-gpu-run " << tileVersionString() << "\n";
      return kExitPass;
    } else if (arg == "--time") {
      options.time = true;
    } else if (arg == "--graph") {
      options.time = options.graph = true;
    } else if (arg == "--plain-launch") {
      options.plainLaunch = true;
    } else if (arg == "--per-kernel") {
      options.time = options.perKernel = true;
    } else if (arg == "--probe") {
      options.probe = true;
    } else if (arg == "--quiet") {
      options.quiet = true;
    } else if (arg == "--device") {
      if (!value(text) || !parsePlatform(text))
        return usage("--device takes cuda or hip");
      options.platform = parsePlatform(text);
    } else if (arg == "--tolerance") {
      char *end = nullptr;
      double tolerance = value(text) ? std::strtod(text, &end) : -1;
      if (!end || *end != '\0' || !(tolerance >= 0))
        return usage("--tolerance takes a non-negative number");
      options.tolerance = tolerance;
    } else if (arg == "--warmup" || arg == "--repetitions" ||
               arg == "--replays" || arg == "--device-index") {
      if (!value(text) || !parseCount(text, 1 << 30, count))
        return usage(arg + " takes a non-negative integer");
      if (arg == "--warmup")
        options.warmup = unsigned(count);
      else if (arg == "--repetitions")
        options.repetitions = unsigned(count);
      else if (arg == "--replays")
        options.replays = unsigned(count);
      else
        options.deviceIndex = int(count);
    } else if (arg == "--input") {
      std::string spec = value(text) ? text : "";
      size_t eq = spec.find("=@");
      if (eq == std::string::npos || eq == 0 || eq + 2 == spec.size())
        return usage("--input takes NAME=@FILE.npy");
      options.inputFiles.push_back({spec.substr(0, eq), spec.substr(eq + 2)});
    } else if (arg == "--output-dir") {
      if (!value(text) || !*text)
        return usage("--output-dir takes a directory");
      options.outputDir = text;
    } else if (arg.size() > 1 && arg[0] == '-') {
      return usage("unknown option '" + arg + "'");
    } else if (dir.empty()) {
      dir = arg;
    } else {
      return usage("more than one artifact directory");
    }
  }
  if (dir.empty() && !options.probe)
    return usage("no artifact directory");
  return runArtifact(dir, options, std::cout, std::cerr);
}
