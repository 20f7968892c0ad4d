//===- Runner.h - Run an artifact on a GPU and check it -------*- C++ -*-===//
//
// What tile-gpu-run does, as a library: fill the inputs from the seed, launch
// the kernels, compare the outputs with the expected values, time the
// kernels; a client of the C API (tile-c/Runtime.h). No MLIR or LLVM types,
// so tools that link LLVM can call it too.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_RUNTIME_RUNNER_H
#define TILEDIALECT_RUNTIME_RUNNER_H

#include "TileDialect/Runtime/Artifact.h"

#include <optional>
#include <ostream>
#include <string>

namespace mlir::tileir::runtime {

/// The exit statuses of runArtifact (and tile-gpu-run).
enum ExitStatus {
  kExitPass = 0,
  kExitMismatch = 1,
  /// Bad usage or a bad artifact.
  kExitBadArtifact = 2,
  /// No driver library or no device.
  kExitNoDevice = 3,
  /// A driver call failed.
  kExitDeviceError = 4,
};

struct RunOptions {
  /// The runtime to use; the artifact's platform when unset (and CUDA for a
  /// probe without an artifact). Must match the artifact's.
  std::optional<Platform> platform;
  /// Overrides the artifact's tolerance.
  std::optional<double> tolerance;
  /// Time the kernels after the checked run.
  bool time = false;
  /// With `time`, also time each launch on its own (a second set of runs).
  bool perKernel = false;
  unsigned warmup = 10;
  unsigned repetitions = 100;
  /// With `time`, capture the launch sequence once in a graph (CUDA graph)
  /// and time `replays` replays back to back per run, per call: launch
  /// gaps out of the figure, as PyTorch is timed.
  bool graph = false;
  unsigned replays = 10;
  int deviceIndex = 0;
  /// Only open the device and print the device line.
  bool probe = false;
  /// Omit the device line and the lines of outputs that match.
  bool quiet = false;
  /// Launch every kernel on its own even where the artifact allows
  /// programmatic launches (to compare).
  bool plainLaunch = false;
  /// The prefix of error lines.
  std::string toolName = "tile-gpu-run";
  /// (tensor name, .npy path): values for inputs and inouts instead of the
  /// artifact's. The expected outputs are for the artifact's own inputs, so
  /// the outputs are then written and summarized, not compared.
  std::vector<std::pair<std::string, std::string>> inputFiles;
  /// Where to write every output as NAME.npy after the checked run (the
  /// directory must exist); empty: nowhere.
  std::string outputDir;
};

/// Runs the artifact in directory `dir` (which may be empty for a probe),
/// prints results to `out` and one-line errors to `err`, and returns an
/// ExitStatus.
int runArtifact(const std::string &dir, const RunOptions &options,
                std::ostream &out, std::ostream &err);

class Device;

/// Runs `artifact` on an opened `device` (the checked run, then the timed
/// ones if asked); returns an ExitStatus.
int runArtifactOn(const Artifact &artifact, Device &device,
                  const RunOptions &options, std::ostream &out,
                  std::ostream &err);

/// `4x8`, or `scalar` for rank 0, as tile-run prints shapes.
std::string shapeString(const std::vector<int64_t> &shape);

} // namespace mlir::tileir::runtime

#endif // TILEDIALECT_RUNTIME_RUNNER_H
