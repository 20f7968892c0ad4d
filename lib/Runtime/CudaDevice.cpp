//===- CudaDevice.cpp - The CUDA driver API through dlopen ----------------===//
//
// Declares the handful of driver types and entry points it uses instead of
// including cuda.h, which the machines that run this need not have.
//
//===----------------------------------------------------------------------===//

#include "TileDialect/Runtime/Device.h"

#include "DynamicLibrary.h"

using namespace mlir::tileir;
using namespace mlir::tileir::runtime;

namespace {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = void *;
using CUmodule = void *;
using CUfunction = void *;
using CUstream = void *;
using CUevent = void *;
using CUgraph = void *;
using CUgraphExec = void *;

constexpr CUresult CUDA_SUCCESS = 0;
constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
constexpr int CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;
constexpr unsigned CU_EVENT_DEFAULT = 0;
constexpr unsigned CU_STREAM_NON_BLOCKING = 1;
constexpr int CU_STREAM_CAPTURE_MODE_RELAXED = 2;
constexpr int CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION = 6;

// cuLaunchKernelEx's configuration, laid out as cuda.h declares it.
union CUlaunchAttributeValue {
  char pad[64];
  int programmaticStreamSerializationAllowed;
};
struct CUlaunchAttribute {
  int id;
  char pad[8 - sizeof(int)];
  CUlaunchAttributeValue value;
};
struct CUlaunchConfig {
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  CUstream hStream;
  CUlaunchAttribute *attrs;
  unsigned numAttrs;
};

/// The driver entry points, resolved with dlsym.
struct CudaApi {
  CUresult (*cuGetErrorName)(CUresult, const char **);
  CUresult (*cuGetErrorString)(CUresult, const char **);
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDriverGetVersion)(int *);
  CUresult (*cuDeviceGetCount)(int *);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetName)(char *, int, CUdevice);
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuModuleLoadData)(CUmodule *, const void *);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuFuncSetAttribute)(CUfunction, int, int);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, CUstream, void **,
                             void **);
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
  CUresult (*cuMemsetD8)(CUdeviceptr, unsigned char, size_t);
  CUresult (*cuEventCreate)(CUevent *, unsigned);
  CUresult (*cuEventDestroy)(CUevent);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuEventSynchronize)(CUevent);
  CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent);
  // Graphs (optional: null when the driver lacks them).
  CUresult (*cuStreamCreate)(CUstream *, unsigned) = nullptr;
  CUresult (*cuStreamDestroy)(CUstream) = nullptr;
  CUresult (*cuStreamBeginCapture)(CUstream, int) = nullptr;
  CUresult (*cuStreamEndCapture)(CUstream, CUgraph *) = nullptr;
  CUresult (*cuGraphInstantiateWithFlags)(CUgraphExec *, CUgraph,
                                          unsigned long long) = nullptr;
  CUresult (*cuGraphLaunch)(CUgraphExec, CUstream) = nullptr;
  CUresult (*cuGraphExecDestroy)(CUgraphExec) = nullptr;
  CUresult (*cuGraphDestroy)(CUgraph) = nullptr;
  CUresult (*cuMemsetD8Async)(CUdeviceptr, unsigned char, size_t,
                              CUstream) = nullptr;
  // Launches with attributes (optional: CUDA 12 drivers and later).
  CUresult (*cuLaunchKernelEx)(const CUlaunchConfig *, CUfunction, void **,
                               void **) = nullptr;
};

/// Resolves the graph entry points, all or none.
static void resolveGraphs(void *lib, CudaApi &api) {
  std::string missing;
  CudaApi graphs = api;
  if (resolveSymbol(lib, graphs.cuStreamCreate, {"cuStreamCreate"}, missing) &&
      resolveSymbol(lib, graphs.cuStreamDestroy,
                    {"cuStreamDestroy_v2", "cuStreamDestroy"}, missing) &&
      resolveSymbol(lib, graphs.cuStreamBeginCapture,
                    {"cuStreamBeginCapture_v2", "cuStreamBeginCapture"},
                    missing) &&
      resolveSymbol(lib, graphs.cuStreamEndCapture, {"cuStreamEndCapture"},
                    missing) &&
      resolveSymbol(lib, graphs.cuGraphInstantiateWithFlags,
                    {"cuGraphInstantiateWithFlags"}, missing) &&
      resolveSymbol(lib, graphs.cuGraphLaunch, {"cuGraphLaunch"}, missing) &&
      resolveSymbol(lib, graphs.cuGraphExecDestroy, {"cuGraphExecDestroy"},
                    missing) &&
      resolveSymbol(lib, graphs.cuGraphDestroy, {"cuGraphDestroy"}, missing) &&
      resolveSymbol(lib, graphs.cuMemsetD8Async,
                    {"cuMemsetD8Async", "cuMemsetD8Async_v2"}, missing))
    api = graphs;
}

bool resolveAll(void *lib, CudaApi &api, std::string &missing) {
  return resolveSymbol(lib, api.cuGetErrorName, {"cuGetErrorName"}, missing) &&
         resolveSymbol(lib, api.cuGetErrorString, {"cuGetErrorString"},
                       missing) &&
         resolveSymbol(lib, api.cuInit, {"cuInit"}, missing) &&
         resolveSymbol(lib, api.cuDriverGetVersion, {"cuDriverGetVersion"},
                       missing) &&
         resolveSymbol(lib, api.cuDeviceGetCount, {"cuDeviceGetCount"},
                       missing) &&
         resolveSymbol(lib, api.cuDeviceGet, {"cuDeviceGet"}, missing) &&
         resolveSymbol(lib, api.cuDeviceGetName, {"cuDeviceGetName"},
                       missing) &&
         resolveSymbol(lib, api.cuDeviceGetAttribute, {"cuDeviceGetAttribute"},
                       missing) &&
         resolveSymbol(lib, api.cuDevicePrimaryCtxRetain,
                       {"cuDevicePrimaryCtxRetain"}, missing) &&
         resolveSymbol(
             lib, api.cuDevicePrimaryCtxRelease,
             {"cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease"},
             missing) &&
         resolveSymbol(lib, api.cuCtxSetCurrent, {"cuCtxSetCurrent"},
                       missing) &&
         resolveSymbol(lib, api.cuCtxSynchronize, {"cuCtxSynchronize"},
                       missing) &&
         resolveSymbol(lib, api.cuModuleLoadData, {"cuModuleLoadData"},
                       missing) &&
         resolveSymbol(lib, api.cuModuleUnload, {"cuModuleUnload"}, missing) &&
         resolveSymbol(lib, api.cuModuleGetFunction, {"cuModuleGetFunction"},
                       missing) &&
         resolveSymbol(lib, api.cuFuncSetAttribute, {"cuFuncSetAttribute"},
                       missing) &&
         resolveSymbol(lib, api.cuLaunchKernel, {"cuLaunchKernel"}, missing) &&
         resolveSymbol(lib, api.cuMemAlloc, {"cuMemAlloc_v2"}, missing) &&
         resolveSymbol(lib, api.cuMemFree, {"cuMemFree_v2"}, missing) &&
         resolveSymbol(lib, api.cuMemcpyHtoD, {"cuMemcpyHtoD_v2"}, missing) &&
         resolveSymbol(lib, api.cuMemcpyDtoH, {"cuMemcpyDtoH_v2"}, missing) &&
         resolveSymbol(lib, api.cuMemsetD8, {"cuMemsetD8_v2"}, missing) &&
         resolveSymbol(lib, api.cuEventCreate, {"cuEventCreate"}, missing) &&
         resolveSymbol(lib, api.cuEventDestroy,
                       {"cuEventDestroy_v2", "cuEventDestroy"}, missing) &&
         resolveSymbol(lib, api.cuEventRecord, {"cuEventRecord"}, missing) &&
         resolveSymbol(lib, api.cuEventSynchronize, {"cuEventSynchronize"},
                       missing) &&
         resolveSymbol(lib, api.cuEventElapsedTime,
                       {"cuEventElapsedTime_v2", "cuEventElapsedTime"},
                       missing);
}

class CudaDevice final : public Device {
public:
  CudaDevice(void *library, const CudaApi &api) : library(library), api(api) {}
  ~CudaDevice() override;

  /// Initializes the driver and makes device `index`'s primary context
  /// current.
  bool open(int index, OpenFailure &failure);

  const DeviceInfo &info() const override { return deviceInfo; }
  bool loadModule(const std::string &image) override;
  bool getFunction(const std::string &symbol, KernelHandle &kernel) override;
  bool setMaxDynamicSharedMemory(KernelHandle kernel, unsigned bytes) override;
  bool launch(KernelHandle kernel, const unsigned grid[3],
              const unsigned block[3], unsigned sharedMemBytes,
              const std::vector<DevicePtr> &args) override;
  bool allocate(uint64_t bytes, DevicePtr &ptr) override;
  bool copyToDevice(DevicePtr dst, const void *src, uint64_t bytes) override;
  bool copyToHost(void *dst, DevicePtr src, uint64_t bytes) override;
  bool fillZero(DevicePtr dst, uint64_t bytes) override;
  bool synchronize() override;
  bool createEvent(EventHandle &event) override;
  bool recordEvent(EventHandle event) override;
  bool elapsedMs(EventHandle start, EventHandle end, float &ms) override;
  bool beginCapture() override;
  bool endCapture() override;
  bool replayGraph(unsigned count, EventHandle start, EventHandle end) override;
  bool setProgrammaticLaunch(bool enabled) override {
    programmatic = enabled && api.cuLaunchKernelEx;
    return programmatic;
  }
  bool setStream(void *stream) override;

private:
  /// Returns true on success, else records `call`'s error.
  bool check(CUresult result, const char *call);

  void *library;
  CudaApi api;
  DeviceInfo deviceInfo;
  CUresult lastResult = CUDA_SUCCESS;
  CUdevice device = 0;
  CUcontext context = nullptr;
  CUmodule module = nullptr;
  std::vector<CUdeviceptr> buffers;
  std::vector<CUevent> events;
  /// The stream graphs are captured on and replayed on (launches go to the
  /// legacy default stream otherwise), the graph and its executable.
  CUstream captureStream = nullptr;
  bool capturing = false;
  /// The caller's stream (setStream); null: the legacy default stream.
  CUstream userStream = nullptr;
  /// Launch with programmatic stream serialization (cuLaunchKernelEx).
  bool programmatic = false;
  CUgraph graph = nullptr;
  CUgraphExec graphExec = nullptr;
};

} // namespace

/// Names of the errors a driver that cannot describe them (the toolkit's
/// stub library) may return.
static const char *fallbackErrorName(CUresult result) {
  switch (result) {
  case 34:
    return "CUDA_ERROR_STUB_LIBRARY";
  case 35:
    return "CUDA_ERROR_INSUFFICIENT_DRIVER";
  case CUDA_ERROR_NO_DEVICE:
    return "CUDA_ERROR_NO_DEVICE";
  default:
    return "unknown CUDA error";
  }
}

bool CudaDevice::check(CUresult result, const char *call) {
  lastResult = result;
  if (result == CUDA_SUCCESS)
    return true;
  const char *name = nullptr, *description = nullptr;
  if (api.cuGetErrorName(result, &name) != CUDA_SUCCESS || !name)
    name = fallbackErrorName(result);
  if (api.cuGetErrorString(result, &description) != CUDA_SUCCESS ||
      !description)
    description = "no description";
  errorMessage = std::string(call) + ": " + name + " (" +
                 std::to_string(result) + "): " + description;
  return false;
}

CudaDevice::~CudaDevice() {
  if (context) {
    // Best effort: a failed launch may have left the context unusable.
    if (graphExec)
      api.cuGraphExecDestroy(graphExec);
    if (graph)
      api.cuGraphDestroy(graph);
    if (captureStream)
      api.cuStreamDestroy(captureStream);
    for (CUevent event : events)
      api.cuEventDestroy(event);
    for (CUdeviceptr buffer : buffers)
      api.cuMemFree(buffer);
    if (module)
      api.cuModuleUnload(module);
    api.cuDevicePrimaryCtxRelease(device);
  }
  dlclose(library);
}

bool CudaDevice::open(int index, OpenFailure &failure) {
  failure = OpenFailure::DeviceError;
  CUresult init = api.cuInit(0);
  if (!check(init, "cuInit")) {
    if (init == CUDA_ERROR_NO_DEVICE) {
      failure = OpenFailure::NoDevice;
      errorMessage = "no CUDA device";
    } else {
      // No usable driver (a stub library, a driver older than the library,
      // no kernel module): nothing can run here.
      failure = OpenFailure::NoRuntime;
      errorMessage = "CUDA driver unusable: " + errorMessage;
    }
    return false;
  }
  int count = 0;
  if (!check(api.cuDeviceGetCount(&count), "cuDeviceGetCount"))
    return false;
  if (count == 0 || index < 0 || index >= count) {
    failure = OpenFailure::NoDevice;
    errorMessage = count == 0 ? "no CUDA device"
                              : "no CUDA device " + std::to_string(index) +
                                    " (" + std::to_string(count) + " present)";
    return false;
  }
  char name[256] = {0};
  int major = 0, minor = 0, version = 0;
  if (!check(api.cuDeviceGet(&device, index), "cuDeviceGet") ||
      !check(api.cuDeviceGetName(name, sizeof(name) - 1, device),
             "cuDeviceGetName") ||
      !check(api.cuDeviceGetAttribute(
                 &major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device),
             "cuDeviceGetAttribute") ||
      !check(api.cuDeviceGetAttribute(
                 &minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device),
             "cuDeviceGetAttribute") ||
      !check(api.cuDriverGetVersion(&version), "cuDriverGetVersion"))
    return false;
  deviceInfo.driver = std::to_string(version / 1000) + "." +
                      std::to_string(version % 1000 / 10);
  deviceInfo.name = name;
  deviceInfo.chip = "sm_" + std::to_string(major * 10 + minor);
  CUcontext retained = nullptr;
  if (!check(api.cuDevicePrimaryCtxRetain(&retained, device),
             "cuDevicePrimaryCtxRetain"))
    return false;
  context = retained;
  return check(api.cuCtxSetCurrent(context), "cuCtxSetCurrent");
}

bool CudaDevice::loadModule(const std::string &image) {
  return check(api.cuModuleLoadData(&module, image.data()), "cuModuleLoadData");
}

bool CudaDevice::getFunction(const std::string &symbol, KernelHandle &kernel) {
  CUfunction function = nullptr;
  if (!check(api.cuModuleGetFunction(&function, module, symbol.c_str()),
             "cuModuleGetFunction"))
    return false;
  kernel = function;
  return true;
}

bool CudaDevice::setMaxDynamicSharedMemory(KernelHandle kernel,
                                           unsigned bytes) {
  return check(
      api.cuFuncSetAttribute(
          kernel, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, int(bytes)),
      "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)");
}

bool CudaDevice::launch(KernelHandle kernel, const unsigned grid[3],
                        const unsigned block[3], unsigned sharedMemBytes,
                        const std::vector<DevicePtr> &args) {
  std::vector<CUdeviceptr> values(args.begin(), args.end());
  std::vector<void *> params;
  for (CUdeviceptr &value : values)
    params.push_back(&value);
  CUstream stream = capturing ? captureStream : userStream;
  // Only into graphs: captured on a stream of their own, where the
  // programmatic edges between kernels become part of the graph.
  if (programmatic && capturing) {
    CUlaunchAttribute attribute{};
    attribute.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
    attribute.value.programmaticStreamSerializationAllowed = 1;
    CUlaunchConfig config{grid[0],    grid[1],  grid[2],        block[0],
                          block[1],   block[2], sharedMemBytes, stream,
                          &attribute, 1};
    return check(api.cuLaunchKernelEx(&config, kernel, params.data(), nullptr),
                 "cuLaunchKernelEx");
  }
  return check(api.cuLaunchKernel(kernel, grid[0], grid[1], grid[2], block[0],
                                  block[1], block[2], sharedMemBytes, stream,
                                  params.data(), nullptr),
               "cuLaunchKernel");
}

bool CudaDevice::allocate(uint64_t bytes, DevicePtr &ptr) {
  CUdeviceptr buffer = 0;
  // A zero-byte allocation fails; every tensor gets at least one byte.
  if (!check(api.cuMemAlloc(&buffer, bytes ? bytes : 1), "cuMemAlloc_v2"))
    return false;
  buffers.push_back(buffer);
  ptr = buffer;
  return true;
}

bool CudaDevice::copyToDevice(DevicePtr dst, const void *src, uint64_t bytes) {
  return !bytes || check(api.cuMemcpyHtoD(dst, src, bytes), "cuMemcpyHtoD_v2");
}

bool CudaDevice::copyToHost(void *dst, DevicePtr src, uint64_t bytes) {
  return !bytes || check(api.cuMemcpyDtoH(dst, src, bytes), "cuMemcpyDtoH_v2");
}

bool CudaDevice::fillZero(DevicePtr dst, uint64_t bytes) {
  // While capturing, a memset node of the graph.
  if (capturing)
    return !bytes || check(api.cuMemsetD8Async(dst, 0, bytes, captureStream),
                           "cuMemsetD8Async");
  // On the caller's stream: asynchronous, in order with its work.
  if (userStream)
    return !bytes || check(api.cuMemsetD8Async(dst, 0, bytes, userStream),
                           "cuMemsetD8Async");
  return !bytes || check(api.cuMemsetD8(dst, 0, bytes), "cuMemsetD8_v2");
}

bool CudaDevice::setStream(void *stream) {
  if (!check(api.cuCtxSetCurrent(context), "cuCtxSetCurrent"))
    return false;
  if (stream && !api.cuMemsetD8Async) {
    errorMessage = "this CUDA driver lacks cuMemsetD8Async: launching on a "
                   "caller's stream needs it";
    return false;
  }
  userStream = stream;
  return true;
}

bool CudaDevice::synchronize() {
  return check(api.cuCtxSynchronize(), "cuCtxSynchronize");
}

bool CudaDevice::createEvent(EventHandle &event) {
  CUevent created = nullptr;
  if (!check(api.cuEventCreate(&created, CU_EVENT_DEFAULT), "cuEventCreate"))
    return false;
  events.push_back(created);
  event = created;
  return true;
}

bool CudaDevice::recordEvent(EventHandle event) {
  return check(api.cuEventRecord(event, userStream), "cuEventRecord");
}

bool CudaDevice::elapsedMs(EventHandle start, EventHandle end, float &ms) {
  return check(api.cuEventSynchronize(end), "cuEventSynchronize") &&
         check(api.cuEventElapsedTime(&ms, start, end), "cuEventElapsedTime");
}

bool CudaDevice::beginCapture() {
  if (!api.cuStreamCreate)
    return unsupported("graph capture (the driver has no graph API)");
  if (graphExec || capturing) {
    errorMessage = "graph capture: the device already holds a graph";
    return false;
  }
  if (!captureStream &&
      !check(api.cuStreamCreate(&captureStream, CU_STREAM_NON_BLOCKING),
             "cuStreamCreate"))
    return false;
  if (!check(api.cuStreamBeginCapture(captureStream,
                                      CU_STREAM_CAPTURE_MODE_RELAXED),
             "cuStreamBeginCapture"))
    return false;
  capturing = true;
  return true;
}

bool CudaDevice::endCapture() {
  if (!capturing) {
    errorMessage = "graph capture: no capture in progress";
    return false;
  }
  capturing = false;
  return check(api.cuStreamEndCapture(captureStream, &graph),
               "cuStreamEndCapture") &&
         check(api.cuGraphInstantiateWithFlags(&graphExec, graph, 0),
               "cuGraphInstantiateWithFlags");
}

bool CudaDevice::replayGraph(unsigned count, EventHandle start,
                             EventHandle end) {
  if (!graphExec) {
    errorMessage = "graph replay: no graph was captured";
    return false;
  }
  if (!check(api.cuEventRecord(start, captureStream), "cuEventRecord"))
    return false;
  for (unsigned i = 0; i < count; ++i)
    if (!check(api.cuGraphLaunch(graphExec, captureStream), "cuGraphLaunch"))
      return false;
  return check(api.cuEventRecord(end, captureStream), "cuEventRecord");
}

std::unique_ptr<Device> runtime::openCudaDevice(int index, OpenFailure &failure,
                                                std::string &error) {
  failure = OpenFailure::NoRuntime;
  void *library = openLibrary({"libcuda.so.1", "libcuda.so"});
  if (!library) {
    error = "no CUDA driver: libcuda.so.1 not found";
    return nullptr;
  }
  CudaApi api;
  std::string missing;
  if (!resolveAll(library, api, missing)) {
    error = "CUDA driver unusable: libcuda.so.1 has no " + missing;
    dlclose(library);
    return nullptr;
  }
  resolveGraphs(library, api);
  std::string missingEx;
  if (!resolveSymbol(library, api.cuLaunchKernelEx, {"cuLaunchKernelEx"},
                     missingEx))
    api.cuLaunchKernelEx = nullptr;
  auto device = std::make_unique<CudaDevice>(library, api);
  if (!device->open(index, failure)) {
    error = device->error();
    return nullptr;
  }
  return device;
}

std::unique_ptr<Device> runtime::openDevice(Platform platform, int index,
                                            OpenFailure &failure,
                                            std::string &error) {
  return platform == Platform::Cuda ? openCudaDevice(index, failure, error)
                                    : openHipDevice(index, failure, error);
}
