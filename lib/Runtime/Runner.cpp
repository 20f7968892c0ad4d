//===- Runner.cpp - Run an artifact on a GPU and check it -----------------===//

#include "TileDialect/Runtime/Runner.h"

#include "TileDialect/Runtime/Device.h"
#include "TileDialect/Runtime/ElementBits.h"
#include "TileDialect/Runtime/Module.h"
#include "TileDialect/Runtime/Npy.h"
#include "TileDialect/Support/Compare.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <filesystem>

using namespace mlir::tileir;
using namespace mlir::tileir::runtime;

/// printf into a string.
static std::string format(const char *fmt, ...) {
  char buffer[256];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(buffer, sizeof(buffer), fmt, args);
  va_end(args);
  return buffer;
}

std::string runtime::shapeString(const std::vector<int64_t> &shape) {
  std::string s;
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? "x" : "") + std::to_string(shape[i]);
  return s.empty() ? "scalar" : s;
}

namespace {

/// One artifact loaded on one device: a client of Module that owns the
/// arguments' buffers, fills them from the seed and checks the outputs.
class Runner {
public:
  Runner(const Artifact &artifact, Device &device, const RunOptions &options,
         std::ostream &out, std::ostream &err)
      : artifact(artifact), device(device), options(options), out(out),
        err(err) {}

  /// Loads the module, allocates and binds the arguments' buffers and
  /// prepares their values; returns an ExitStatus.
  int prepare();
  /// The checked run: launches, downloads, compares.
  int check();
  /// The timed runs.
  int time();

private:
  /// Uploads the initial values of every tensor that has them (outside any
  /// timing) and clears what starts as zeros for a call, then waits.
  bool reset();
  /// Launches every kernel, then waits for them; with `syncEach`, waits
  /// after each one so that a fault names its kernel. Records `events[0]`
  /// before the first launch and the last one after the last launch, or,
  /// given one more event than kernels, `events[i + 1]` after launch i.
  /// Without `wait` (graph capture, where waiting is not allowed), returns
  /// after the launches.
  bool launchAll(bool syncEach, const std::vector<EventHandle> &events,
                 bool wait = true);
  int deviceError(const std::string &context) {
    err << options.toolName << ": " << context << device.error() << "\n";
    return kExitDeviceError;
  }
  int moduleError() {
    err << options.toolName << ": " << module->error() << "\n";
    return kExitDeviceError;
  }

  const Artifact &artifact;
  Device &device;
  const RunOptions &options;
  std::ostream &out, &err;
  std::unique_ptr<Module> module;
  /// Per tensor: its initial values (kept only where a sparse expected output
  /// adds to them) and their device bytes (random only).
  std::vector<HostTensor> initial;
  std::vector<std::string> initialBytes;
  /// Whether the inputs (which no launch writes) are on the device: reset()
  /// copies them once, and the inouts every time.
  bool inputsCopied = false;
};

} // namespace

int Runner::prepare() {
  // The outputs live next to the module's own zero-start tensors, so that
  // one memset clears them all, as a graph replays it.
  ModuleOptions moduleOptions;
  moduleOptions.ownZeroArguments = true;
  moduleOptions.plainLaunch = options.plainLaunch;
  std::string error;
  module = Module::load(artifact, device, moduleOptions, error);
  if (!module) {
    err << options.toolName << ": " << error << "\n";
    return kExitDeviceError;
  }
  std::vector<bool> sparse(artifact.tensors.size(), false);
  for (const OutputSpec &output : artifact.outputs)
    if (output.kind == ExpectedKind::Sparse)
      sparse[output.tensor] = true;
  const std::vector<unsigned> &arguments = module->getArguments();
  for (size_t i = 0; i < artifact.tensors.size(); ++i) {
    const TensorDecl &tensor = artifact.tensors[i];
    initial.push_back(initialValues(tensor, artifact.seed));
    std::string bytes;
    if (tensor.init.kind != TensorInit::Zero) {
      bytes.resize(tensor.byteSize());
      encodeElements(tensor.elementKind, initial.back().data.data(),
                     tensor.numElements(), bytes.data());
    }
    // Only `expectedValues` of a sparse output reads the values again.
    if (!sparse[i])
      initial.back().data = std::vector<double>();
    initialBytes.push_back(std::move(bytes));
    if (module->getBuffer(i))
      continue;
    // An argument the module did not place: this runner's buffer.
    DevicePtr ptr;
    if (!device.allocate(tensor.byteSize(), ptr))
      return deviceError("tensor '" + tensor.name + "': ");
    unsigned index = std::find(arguments.begin(), arguments.end(), i) -
                     arguments.begin();
    if (!module->bind(index, ptr))
      return moduleError();
  }
  // The caller's values replace the artifact's.
  for (const auto &[name, path] : options.inputFiles) {
    std::optional<unsigned> i = artifact.findTensor(name);
    if (!i || (artifact.tensors[*i].role != TensorRole::Input &&
               artifact.tensors[*i].role != TensorRole::Inout)) {
      err << options.toolName << ": --input " << name << ": the program has "
          << "no input or inout named '" << name << "'\n";
      return kExitBadArtifact;
    }
    const TensorDecl &tensor = artifact.tensors[*i];
    std::vector<double> values;
    if (!readNpyAs(path, tensor.elementKind, tensor.shape,
                   "input '" + name + "'", values, error)) {
      err << options.toolName << ": " << error << "\n";
      return kExitBadArtifact;
    }
    initialBytes[*i].resize(tensor.byteSize());
    encodeElements(tensor.elementKind, values.data(), tensor.numElements(),
                   initialBytes[*i].data());
    initial[*i].data = std::move(values);
  }
  return kExitPass;
}

bool Runner::reset() {
  for (size_t i = 0; i < artifact.tensors.size(); ++i) {
    const TensorDecl &tensor = artifact.tensors[i];
    if (tensor.init.kind == TensorInit::Zero ||
        (inputsCopied && tensor.role == TensorRole::Input))
      continue;
    if (!device.copyToDevice(module->getBuffer(i), initialBytes[i].data(),
                             tensor.byteSize())) {
      deviceError("tensor '" + tensor.name + "': ");
      return false;
    }
  }
  inputsCopied = true;
  if (!module->clear()) {
    moduleError();
    return false;
  }
  if (!device.synchronize()) {
    deviceError("preparing the inputs: ");
    return false;
  }
  return true;
}

bool Runner::launchAll(bool syncEach, const std::vector<EventHandle> &events,
                       bool wait) {
  size_t numKernels = artifact.kernels.size();
  bool perLaunch = events.size() == numKernels + 1;
  if (!events.empty() && !device.recordEvent(events.front())) {
    deviceError("");
    return false;
  }
  for (size_t i = 0; i < numKernels; ++i) {
    bool record = !events.empty() && (perLaunch || i + 1 == numKernels);
    if (!module->launch(i)) {
      moduleError();
      return false;
    }
    if ((syncEach && !device.synchronize()) ||
        (record &&
         !device.recordEvent(perLaunch ? events[i + 1] : events.back()))) {
      deviceError("kernel '" + artifact.kernels[i].symbol + "' (launch #" +
                  std::to_string(i) + "): ");
      return false;
    }
  }
  if (wait && !device.synchronize()) {
    deviceError("running the kernels: ");
    return false;
  }
  return true;
}

int Runner::check() {
  if (!reset() || !launchAll(/*syncEach=*/true, {}))
    return kExitDeviceError;
  // `zero once` tensors are left to the launches: check a second call,
  // which finds them as the first left them.
  if (unsigned numOnce = module->getNumClearedByLaunches()) {
    if (!reset() || !launchAll(/*syncEach=*/true, {}))
      return kExitDeviceError;
    if (!options.quiet)
      out << "checked the second of two calls (tensors the launches "
             "clear: "
          << numOnce << ")\n";
  }
  double tolerance = options.tolerance.value_or(artifact.tolerance);
  bool pass = true;
  unsigned compared = 0;
  // Given inputs: the expected values are not theirs.
  bool givenInputs = !options.inputFiles.empty();
  for (const OutputSpec &output : artifact.outputs) {
    const TensorDecl &tensor = artifact.tensors[output.tensor];
    std::string bytes(tensor.byteSize(), '\0');
    if (!device.copyToHost(bytes.data(), module->getBuffer(output.tensor),
                           bytes.size()))
      return deviceError("reading output '" + tensor.name + "': ");
    std::vector<double> values(tensor.numElements());
    decodeElements(tensor.elementKind, bytes.data(), tensor.numElements(),
                   values.data());
    if (!options.outputDir.empty()) {
      std::error_code ec;
      std::filesystem::create_directories(options.outputDir, ec);
      std::string error;
      std::string path = options.outputDir + "/" + tensor.name + ".npy";
      if (!writeNpy(path, tensor.elementKind, tensor.shape, values, error)) {
        err << options.toolName << ": " << error << "\n";
        return kExitBadArtifact;
      }
    }
    std::string prefix = tensor.name + ": shape=" + shapeString(tensor.shape);
    if (output.kind == ExpectedKind::None || givenInputs) {
      double sum = 0, maxAbs = 0;
      for (double v : values)
        sum += v, maxAbs = std::max(maxAbs, std::fabs(v));
      out << prefix << format(" sum=%.6g max_abs=%.6g\n", sum, maxAbs);
      continue;
    }
    std::vector<double> expected =
        expectedValues(output, initial[output.tensor].data);
    Comparison cmp;
    cmp.add(values.data(), expected.data(), values.size());
    double floor =
        std::max(comparisonFloor(tensor.elementKind), artifact.floor);
    double maxErr = cmp.maxAbsError, rel = cmp.relativeError(floor);
    bool finite = cmp.finite(), ok = cmp.passes(tolerance, floor);
    pass &= ok;
    ++compared;
    if (!ok || !options.quiet)
      out << prefix
          << format(" max_abs_err=%.3e max_rel_err=%.3e ", maxErr, rel)
          << (ok       ? "ok"
              : finite ? "MISMATCH"
                       : "NOT-FINITE")
          << "\n";
  }
  if (givenInputs && !options.quiet)
    out << "not compared: the inputs were given (--input); the expected "
           "outputs are for the artifact's own\n";
  if (compared)
    out << (pass ? "PASS" : "FAIL") << ": " << compared << " outputs, "
        << format("tolerance %g", tolerance) << ", seed " << artifact.seed
        << "\n";
  return pass ? kExitPass : kExitMismatch;
}

/// The median (upper median, as tile-run), smallest and largest of `values`.
static void summarize(std::vector<double> values, double &median, double &min,
                      double &max) {
  std::sort(values.begin(), values.end());
  median = values[values.size() / 2];
  min = values.front();
  max = values.back();
}

int Runner::time() {
  size_t numKernels = artifact.kernels.size();
  std::vector<EventHandle> events(numKernels + 1);
  for (EventHandle &event : events)
    if (!device.createEvent(event))
      return deviceError("");
  unsigned repetitions = std::max(1u, options.repetitions);
  if (options.graph) {
    // Captured once, then per run: reset, `replays` replays between events.
    // Each replay zeroes the tensors that start as zeros (accumulators,
    // outputs), as every call must, then launches the kernels; the `zero
    // once` ones are the launches' to clear.
    unsigned replays = std::max(1u, options.replays);
    if (!device.synchronize() || !device.beginCapture())
      return deviceError("graph: ");
    if (!module->clear())
      return moduleError();
    if (!launchAll(/*syncEach=*/false, {}, /*wait=*/false) ||
        !device.endCapture())
      return deviceError("graph: ");
    std::vector<double> micros;
    for (unsigned run = 0; run < options.warmup + repetitions; ++run) {
      float ms = 0;
      if (!reset() || !device.synchronize() ||
          !device.replayGraph(replays, events.front(), events.back()) ||
          !device.elapsedMs(events.front(), events.back(), ms))
        return deviceError("graph: ");
      if (run >= options.warmup)
        micros.push_back(double(ms) * 1000.0 / replays);
    }
    double median, min, max;
    summarize(micros, median, min, max);
    out << format("median_us=%.1f min_us=%.1f max_us=%.1f runs=%u "
                  "kernels=%zu graph_replays=%u\n",
                  median, min, max, repetitions, numKernels, replays);
  }
  // Events around all launches; then, optionally, around each launch.
  for (bool perKernel : {false, true}) {
    if (perKernel && !options.perKernel)
      break;
    if (!perKernel && options.graph)
      continue;
    std::vector<std::vector<double>> micros(perKernel ? numKernels : 1);
    std::vector<EventHandle> bounds = {events.front(), events.back()};
    for (unsigned run = 0; run < options.warmup + repetitions; ++run) {
      // The events surround the launches only, not reset().
      if (!reset() ||
          !launchAll(/*syncEach=*/false, perKernel ? events : bounds))
        return kExitDeviceError;
      if (run < options.warmup)
        continue;
      for (size_t k = 0; k < micros.size(); ++k) {
        float ms = 0;
        EventHandle start = perKernel ? events[k] : events.front();
        EventHandle end = perKernel ? events[k + 1] : events.back();
        if (!device.elapsedMs(start, end, ms))
          return deviceError("timing: ");
        micros[k].push_back(double(ms) * 1000.0);
      }
    }
    double median, min, max;
    if (!perKernel) {
      summarize(micros[0], median, min, max);
      out << format("median_us=%.1f min_us=%.1f max_us=%.1f runs=%u "
                    "kernels=%zu\n",
                    median, min, max, repetitions, numKernels);
      continue;
    }
    for (size_t k = 0; k < numKernels; ++k) {
      summarize(micros[k], median, min, max);
      out << "kernel " << artifact.kernels[k].symbol
          << format(" median_us=%.1f\n", median);
    }
  }
  return kExitPass;
}

//===----------------------------------------------------------------------===//
// Entry point
//===----------------------------------------------------------------------===//

int runtime::runArtifact(const std::string &dir, const RunOptions &options,
                         std::ostream &out, std::ostream &err) {
  Artifact artifact;
  std::string error;
  if (!dir.empty() && !readArtifact(dir, artifact, error)) {
    err << options.toolName << ": " << error << "\n";
    return kExitBadArtifact;
  }
  Platform platform = options.platform.value_or(
      dir.empty() ? Platform::Cuda : artifact.platform);
  if (!dir.empty() && platform != artifact.platform) {
    err << options.toolName << ": the artifact is for "
        << toString(artifact.platform) << ", not " << toString(platform)
        << "\n";
    return kExitBadArtifact;
  }

  OpenFailure failure;
  std::unique_ptr<Device> device =
      openDevice(platform, options.deviceIndex, failure, error);
  if (!device) {
    err << options.toolName << ": " << error << "\n";
    return failure == OpenFailure::DeviceError ? kExitDeviceError
                                               : kExitNoDevice;
  }
  if (options.probe) {
    const DeviceInfo &info = device->info();
    out << "device: " << info.name << " (" << info.chip << "), driver "
        << info.driver << "\n";
    return kExitPass;
  }
  return runArtifactOn(artifact, *device, options, out, err);
}

int runtime::runArtifactOn(const Artifact &artifact, Device &device,
                           const RunOptions &options, std::ostream &out,
                           std::ostream &err) {
  const DeviceInfo &info = device.info();
  if (!options.quiet)
    out << "device: " << info.name << " (" << info.chip << "), driver "
        << info.driver << "\n";
  Runner runner(artifact, device, options, out, err);
  if (int status = runner.prepare())
    return status;
  int status = runner.check();
  if (status != kExitPass && status != kExitMismatch)
    return status;
  if (options.time)
    if (int timeStatus = runner.time())
      return timeStatus;
  return status;
}
