//===- Device.h - A GPU opened through its driver at run time -*- C++ -*-===//
//
// The few driver operations the runner needs, behind one interface with a
// CUDA implementation (libcuda.so.1) and a HIP one (libamdhip64.so). Both
// open their library with dlopen, so a binary that uses them runs, and says
// so, on a machine without a GPU.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_RUNTIME_DEVICE_H
#define TILEDIALECT_RUNTIME_DEVICE_H

#include "TileDialect/Runtime/Artifact.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace mlir::tileir::runtime {

/// A device address.
using DevicePtr = uint64_t;
/// Opaque driver handles (CUfunction / hipFunction_t, CUevent / hipEvent_t).
using KernelHandle = void *;
using EventHandle = void *;

/// What `device:` prints.
struct DeviceInfo {
  std::string name;
  /// sm_90, gfx942, ...
  std::string chip;
  /// The driver's version, e.g. `13.0` for CUDA.
  std::string driver;
};

/// One device with a current context. Every operation returns false on
/// failure and leaves a message in error(): the call, the driver's error
/// name and its description. Buffers, events and the module are released
/// when the Device is destroyed.
class Device {
public:
  virtual ~Device() = default;

  virtual const DeviceInfo &info() const = 0;

  /// Loads the module (cubin / hsaco) in `image`; one module per device.
  virtual bool loadModule(const std::string &image) = 0;
  virtual bool getFunction(const std::string &symbol, KernelHandle &kernel) = 0;
  /// Allows `bytes` of dynamic shared memory (needed above 48 KiB).
  virtual bool setMaxDynamicSharedMemory(KernelHandle kernel,
                                         unsigned bytes) = 0;
  /// Launches on the device's stream; `args` are the kernel's pointer
  /// parameters.
  virtual bool launch(KernelHandle kernel, const unsigned grid[3],
                      const unsigned block[3], unsigned sharedMemBytes,
                      const std::vector<DevicePtr> &args) = 0;
  /// Whether later launches may overlap the previous kernel of the stream
  /// (CUDA programmatic stream serialization, for launches captured into a
  /// graph; the kernels must wait for their predecessors themselves:
  /// `Artifact::programmaticLaunch`).
  /// Devices without it launch as before; returns whether it took effect.
  virtual bool setProgrammaticLaunch(bool) { return false; }
  /// Makes the device's context current on the calling thread and directs
  /// launches, clears and event records to `stream` (a CUstream or
  /// hipStream_t of that context; null: the default stream). With a stream,
  /// clears are asynchronous on it, so a call may be captured into the
  /// caller's graph. Devices without it accept only null.
  virtual bool setStream(void *stream) {
    return !stream || unsupported("launching on a caller's stream");
  }

  virtual bool allocate(uint64_t bytes, DevicePtr &ptr) = 0;
  virtual bool copyToDevice(DevicePtr dst, const void *src, uint64_t bytes) = 0;
  virtual bool copyToHost(void *dst, DevicePtr src, uint64_t bytes) = 0;
  virtual bool fillZero(DevicePtr dst, uint64_t bytes) = 0;
  virtual bool synchronize() = 0;

  virtual bool createEvent(EventHandle &event) = 0;
  /// Records `event` on the device's stream.
  virtual bool recordEvent(EventHandle event) = 0;
  /// Waits for `end`, then sets `ms` to the time from `start` to `end`.
  virtual bool elapsedMs(EventHandle start, EventHandle end, float &ms) = 0;

  /// Graphs (CUDA graphs): between beginCapture() and endCapture(), launches
  /// are recorded into a graph instead of run; replayGraph() runs it `count`
  /// times back to back on the device's capture stream, `start` recorded
  /// before and `end` after. The device keeps one graph. A device without
  /// graphs returns false with a message.
  virtual bool beginCapture() { return unsupported("graph capture"); }
  virtual bool endCapture() { return unsupported("graph capture"); }
  virtual bool replayGraph(unsigned count, EventHandle start, EventHandle end) {
    return unsupported("graph replay");
  }

  const std::string &error() const { return errorMessage; }

protected:
  bool unsupported(const std::string &what) {
    errorMessage = what + " is not supported on this device";
    return false;
  }
  std::string errorMessage;
};

/// Why a device could not be opened.
enum class OpenFailure {
  /// The driver library is missing or unusable (exit status 3).
  NoRuntime,
  /// The driver works but has no (such) device (exit status 3).
  NoDevice,
  /// The driver failed otherwise (exit status 4).
  DeviceError,
};

/// Opens device `index` of `platform`. On failure returns null and sets
/// `failure` and a one-line `error`.
std::unique_ptr<Device> openDevice(Platform platform, int index,
                                   OpenFailure &failure, std::string &error);
std::unique_ptr<Device> openCudaDevice(int index, OpenFailure &failure,
                                       std::string &error);
std::unique_ptr<Device> openHipDevice(int index, OpenFailure &failure,
                                      std::string &error);

} // namespace mlir::tileir::runtime

#endif // TILEDIALECT_RUNTIME_DEVICE_H
