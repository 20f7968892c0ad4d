//===- Runner.cpp - Run an artifact on a GPU and check it -----------------===//

#include "TileDialect/Runtime/Runner.h"

#include "TileDialect/Runtime/Device.h"
#include "TileDialect/Runtime/ElementBits.h"
#include "TileDialect/Support/Compare.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <map>

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

/// Dynamic shared memory a kernel may use without opting in.
constexpr unsigned kDefaultSharedMemLimit = 48 * 1024;

/// One artifact loaded on one device.
class Runner {
public:
  Runner(const Artifact &artifact, Device &device, const RunOptions &options,
         std::ostream &out, std::ostream &err)
      : artifact(artifact), device(device), options(options), out(out),
        err(err) {}

  /// Loads the module, finds the kernels, allocates and prepares the
  /// buffers; returns an ExitStatus.
  int prepare();
  /// The checked run: launches, downloads, compares.
  int check();
  /// The timed runs.
  int time();

private:
  /// Uploads the initial values of every tensor (outside any timing); the
  /// `zero once` tensors are cleared only with `once`.
  bool reset(bool once = true);
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
  std::string kernelContext(size_t i) const {
    return "kernel '" + artifact.kernels[i].symbol + "' (launch #" +
           std::to_string(i) + "): ";
  }

  const Artifact &artifact;
  Device &device;
  const RunOptions &options;
  std::ostream &out, &err;
  /// Per tensor: its initial values (kept only where a sparse expected output
  /// adds to them) and their device bytes (random only).
  std::vector<HostTensor> initial;
  std::vector<std::string> initialBytes;
  /// Whether the inputs (which no launch writes) are on the device: reset()
  /// copies them once, and the inouts every time.
  bool inputsCopied = false;
  std::vector<DevicePtr> buffers;
  /// The allocation the tensors that start as zeros share: first those
  /// cleared before every call (`perCallZeroBytes`), then the `zero once`
  /// ones, which the launches clear themselves.
  DevicePtr zeroArena = 0;
  uint64_t zeroArenaBytes = 0, perCallZeroBytes = 0;
  unsigned numOnce = 0;
  std::vector<KernelHandle> functions;
};

} // namespace

int Runner::prepare() {
  if (!device.loadModule(artifact.binary))
    return deviceError("loading " + artifact.binaryFile + ": ");
  device.setProgrammaticLaunch(artifact.programmaticLaunch &&
                               !options.plainLaunch);
  std::map<std::string, KernelHandle> bySymbol;
  std::map<std::string, unsigned> sharedLimit;
  for (size_t i = 0; i < artifact.kernels.size(); ++i) {
    const KernelLaunch &kernel = artifact.kernels[i];
    auto it = bySymbol.find(kernel.symbol);
    if (it == bySymbol.end()) {
      KernelHandle handle;
      if (!device.getFunction(kernel.symbol, handle))
        return deviceError(kernelContext(i));
      it = bySymbol.emplace(kernel.symbol, handle).first;
    }
    functions.push_back(it->second);
    unsigned &limit = sharedLimit[kernel.symbol];
    if (kernel.sharedMemBytes > std::max(limit, kDefaultSharedMemLimit)) {
      if (!device.setMaxDynamicSharedMemory(it->second, kernel.sharedMemBytes))
        return deviceError(kernelContext(i));
      limit = kernel.sharedMemBytes;
    }
  }
  // The tensors that start as zeros share one allocation (256-byte aligned
  // slices), so that a graph zeroes them all with one memset; those cleared
  // before every call come first, so that it covers only them.
  uint64_t zeroBytes = 0;
  std::vector<uint64_t> zeroOffset(artifact.tensors.size(), 0);
  for (bool once : {false, true}) {
    for (size_t i = 0; i < artifact.tensors.size(); ++i) {
      const TensorInit &init = artifact.tensors[i].init;
      if (init.kind == TensorInit::Random || init.once != once)
        continue;
      zeroOffset[i] = zeroBytes;
      zeroBytes += (artifact.tensors[i].byteSize() + 255) / 256 * 256;
      numOnce += once;
    }
    if (!once)
      perCallZeroBytes = zeroBytes;
  }
  if (zeroBytes && !device.allocate(zeroBytes, zeroArena))
    return deviceError("the tensors that start as zeros: ");
  zeroArenaBytes = zeroBytes;
  std::vector<bool> sparse(artifact.tensors.size(), false);
  for (const OutputSpec &output : artifact.outputs)
    if (output.kind == ExpectedKind::Sparse)
      sparse[output.tensor] = true;
  for (size_t i = 0; i < artifact.tensors.size(); ++i) {
    const TensorDecl &tensor = artifact.tensors[i];
    initial.push_back(initialValues(tensor, artifact.seed));
    std::string bytes;
    if (tensor.init.kind == TensorInit::Random) {
      bytes.resize(tensor.byteSize());
      encodeElements(tensor.elementKind, initial.back().data.data(),
                     tensor.numElements(), bytes.data());
    }
    // Only `expectedValues` of a sparse output reads the values again.
    if (!sparse[i])
      initial.back().data = std::vector<double>();
    initialBytes.push_back(std::move(bytes));
    if (tensor.init.kind != TensorInit::Random) {
      buffers.push_back(zeroArena + zeroOffset[i]);
      continue;
    }
    DevicePtr ptr;
    if (!device.allocate(tensor.byteSize(), ptr))
      return deviceError("tensor '" + tensor.name + "': ");
    buffers.push_back(ptr);
  }
  return kExitPass;
}

bool Runner::reset(bool once) {
  for (size_t i = 0; i < artifact.tensors.size(); ++i) {
    const TensorDecl &tensor = artifact.tensors[i];
    if (tensor.init.kind != TensorInit::Random ||
        (inputsCopied && tensor.role == TensorRole::Input))
      continue;
    if (!device.copyToDevice(buffers[i], initialBytes[i].data(),
                             tensor.byteSize())) {
      deviceError("tensor '" + tensor.name + "': ");
      return false;
    }
  }
  inputsCopied = true;
  if (!device.fillZero(zeroArena, once ? zeroArenaBytes : perCallZeroBytes)) {
    deviceError("the tensors that start as zeros: ");
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
    const KernelLaunch &kernel = artifact.kernels[i];
    std::vector<DevicePtr> args;
    for (unsigned arg : kernel.args)
      args.push_back(buffers[arg]);
    bool record = !events.empty() && (perLaunch || i + 1 == numKernels);
    if (!device.launch(functions[i], kernel.grid, kernel.block,
                       kernel.sharedMemBytes, args) ||
        (syncEach && !device.synchronize()) ||
        (record &&
         !device.recordEvent(perLaunch ? events[i + 1] : events.back()))) {
      deviceError(kernelContext(i));
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
  if (numOnce) {
    if (!reset(/*once=*/false) || !launchAll(/*syncEach=*/true, {}))
      return kExitDeviceError;
    if (!options.quiet)
      out << "checked the second of two calls (tensors the launches "
             "clear: "
          << numOnce << ")\n";
  }
  double tolerance = options.tolerance.value_or(artifact.tolerance);
  bool pass = true;
  unsigned compared = 0;
  for (const OutputSpec &output : artifact.outputs) {
    const TensorDecl &tensor = artifact.tensors[output.tensor];
    std::string bytes(tensor.byteSize(), '\0');
    if (!device.copyToHost(bytes.data(), buffers[output.tensor], bytes.size()))
      return deviceError("reading output '" + tensor.name + "': ");
    std::vector<double> values(tensor.numElements());
    decodeElements(tensor.elementKind, bytes.data(), tensor.numElements(),
                   values.data());
    std::string prefix = tensor.name + ": shape=" + shapeString(tensor.shape);
    if (output.kind == ExpectedKind::None) {
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
    double floor = comparisonFloor(tensor.elementKind);
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
    if (perCallZeroBytes && !device.fillZero(zeroArena, perCallZeroBytes))
      return deviceError("graph: zeroing the tensors that start as zeros: ");
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
