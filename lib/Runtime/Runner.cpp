//===- Runner.cpp - Run an artifact on a GPU and check it -----------------===//

#include "TileDialect/Runtime/Runner.h"

#include "TileDialect/Runtime/CAPIModule.h"
#include "TileDialect/Runtime/Device.h"
#include "TileDialect/Runtime/ElementBits.h"
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

/// Destroys a TileModule.
struct ModuleDeleter {
  void operator()(TileModule *m) const { tileModuleDestroy(m); }
};
using ModulePtr = std::unique_ptr<TileModule, ModuleDeleter>;

/// One artifact loaded on one device: a client of the C API
/// (tile-c/Runtime.h) that owns the arguments' buffers, fills them from the
/// seed and checks the outputs. The module places the outputs beside its
/// own zero-start tensors (TileLoadOptions::ownOutputs), so that one memset
/// clears them all, as a graph replays it. Events, graph capture and
/// synchronization are the device's (tile-gpu-run's own driver binding);
/// the kernels, clears, buffers and copies go through the C API.
class Runner {
public:
  Runner(ModulePtr module, const RunOptions &options, std::ostream &out,
         std::ostream &err)
      : module(std::move(module)), artifact(getArtifact(this->module.get())),
        device(getDevice(this->module.get())), options(options), out(out),
        err(err) {}

  /// Allocates and binds the arguments' buffers and prepares their values;
  /// returns an ExitStatus.
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
  /// A failed C API call: its message.
  int moduleError() {
    err << options.toolName << ": " << tileLastError() << "\n";
    return kExitDeviceError;
  }

  ModulePtr module;
  const Artifact &artifact;
  Device &device;
  const RunOptions &options;
  std::ostream &out, &err;
  /// Per tensor: its buffer (prepare()): an argument's through the C API (the
  /// module's for the outputs, this runner's for the others), else the
  /// module's own.
  std::vector<DevicePtr> buffers;
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
  std::vector<bool> sparse(artifact.tensors.size(), false);
  for (const OutputSpec &output : artifact.outputs)
    if (output.kind == ExpectedKind::Sparse)
      sparse[output.tensor] = true;
  for (size_t i = 0; i < artifact.tensors.size(); ++i) {
    const TensorDecl &tensor = artifact.tensors[i];
    initial.push_back(initialValues(tensor, artifact.seed));
    std::string bytes;
    if (tensor.init.byCaller()) {
      bytes.resize(tensor.byteSize());
      encodeElements(tensor.elementKind, initial.back().data.data(),
                     tensor.numElements(), bytes.data());
    }
    // Only `expectedValues` of a sparse output reads the values again.
    if (!sparse[i])
      initial.back().data = std::vector<double>();
    initialBytes.push_back(std::move(bytes));
    int32_t index = tileModuleFindArgument(module.get(), tensor.name.c_str());
    uint64_t ptr = 0;
    if (index < 0)
      ptr = getModule(module.get()).getBuffer(i);
    else if (tileModuleArgumentPointer(module.get(), index, &ptr) != TILE_OK)
      return moduleError();
    // An argument the module did not place: this runner's buffer.
    if (!ptr &&
        (tileModuleAllocate(module.get(), tensor.byteSize(), &ptr) != TILE_OK ||
         tileModuleBind(module.get(), index, ptr) != TILE_OK))
      return moduleError();
    buffers.push_back(ptr);
  }
  std::string error;
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
    if (!tensor.init.byCaller() ||
        (inputsCopied && tensor.role == TensorRole::Input))
      continue;
    if (tileModuleCopyToDevice(module.get(), buffers[i], initialBytes[i].data(),
                               tensor.byteSize()) != TILE_OK) {
      moduleError();
      return false;
    }
  }
  inputsCopied = true;
  if (tileModuleClear(module.get(), nullptr) != TILE_OK) {
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
  size_t numKernels = tileModuleNumKernels(module.get());
  bool perLaunch = events.size() == numKernels + 1;
  if (!events.empty() && !device.recordEvent(events.front())) {
    deviceError("");
    return false;
  }
  for (size_t i = 0; i < numKernels; ++i) {
    bool record = !events.empty() && (perLaunch || i + 1 == numKernels);
    if (tileModuleLaunch(module.get(), int32_t(i), nullptr) != TILE_OK) {
      moduleError();
      return false;
    }
    if ((syncEach && !device.synchronize()) ||
        (record &&
         !device.recordEvent(perLaunch ? events[i + 1] : events.back()))) {
      deviceError(std::string("kernel '") +
                  tileModuleKernelName(module.get(), int32_t(i)) +
                  "' (launch #" +
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
  if (unsigned numOnce = getModule(module.get()).getNumClearedByLaunches()) {
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
    if (tileModuleCopyToHost(module.get(), bytes.data(), buffers[output.tensor],
                             bytes.size()) != TILE_OK)
      return moduleError();
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
  size_t numKernels = tileModuleNumKernels(module.get());
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
    if (tileModuleClear(module.get(), nullptr) != TILE_OK)
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
      out << "kernel " << tileModuleKernelName(module.get(), int32_t(k))
          << format(" median_us=%.1f\n", median);
    }
  }
  return kExitPass;
}

//===----------------------------------------------------------------------===//
// Entry point
//===----------------------------------------------------------------------===//

/// The load options of a runner: the outputs placed by the module.
static TileLoadOptions loadOptions(const RunOptions &options) {
  TileLoadOptions load{};
  load.ownOutputs = 1;
  load.plainLaunches = options.plainLaunch;
  return load;
}

/// The checked run of a loaded module, then the timed ones if asked.
static int runModule(ModulePtr module, const RunOptions &options,
                     std::ostream &out, std::ostream &err) {
  const DeviceInfo &info = getDevice(module.get()).info();
  if (!options.quiet)
    out << "device: " << info.name << " (" << info.chip << "), driver "
        << info.driver << "\n";
  Runner runner(std::move(module), options, out, err);
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

/// A probe: opens the device (of the artifact's platform, if one is given)
/// and prints its line.
static int probeDevice(const std::string &dir, const RunOptions &options,
                       std::ostream &out, std::ostream &err) {
  Artifact artifact;
  std::string error;
  if (!dir.empty() && !readArtifact(dir, artifact, error)) {
    err << options.toolName << ": " << error << "\n";
    return kExitBadArtifact;
  }
  Platform platform = options.platform.value_or(
      dir.empty() ? Platform::Cuda : artifact.platform);
  OpenFailure failure;
  std::unique_ptr<Device> device =
      openDevice(platform, options.deviceIndex, failure, error);
  if (!device) {
    err << options.toolName << ": " << error << "\n";
    return failure == OpenFailure::DeviceError ? kExitDeviceError
                                               : kExitNoDevice;
  }
  const DeviceInfo &info = device->info();
  out << "device: " << info.name << " (" << info.chip << "), driver "
      << info.driver << "\n";
  return kExitPass;
}

int runtime::runArtifact(const std::string &dir, const RunOptions &options,
                         std::ostream &out, std::ostream &err) {
  if (options.probe)
    return probeDevice(dir, options, out, err);
  TilePlatform platform = TILE_PLATFORM_DEFAULT;
  if (options.platform)
    platform = *options.platform == Platform::Cuda ? TILE_PLATFORM_CUDA
                                                   : TILE_PLATFORM_HIP;
  TileLoadOptions load = loadOptions(options);
  TileModule *loaded = nullptr;
  TileStatus status = tileModuleLoadWithOptions(
      dir.c_str(), platform, options.deviceIndex, &load, &loaded);
  if (status != TILE_OK) {
    err << options.toolName << ": " << tileLastError() << "\n";
    switch (status) {
    case TILE_ERROR_NO_DEVICE:
      return kExitNoDevice;
    case TILE_ERROR_DEVICE:
      return kExitDeviceError;
    default:
      return kExitBadArtifact;
    }
  }
  return runModule(ModulePtr(loaded), options, out, err);
}

int runtime::runArtifactOn(const Artifact &artifact, Device &device,
                           const RunOptions &options, std::ostream &out,
                           std::ostream &err) {
  TileLoadOptions load = loadOptions(options);
  TileModule *loaded = nullptr;
  if (loadModuleOn(artifact, device, &load, &loaded) != TILE_OK) {
    err << options.toolName << ": " << tileLastError() << "\n";
    return kExitDeviceError;
  }
  return runModule(ModulePtr(loaded), options, out, err);
}
