//===- HipDevice.cpp - The HIP module API through dlopen ------------------===//
//
// The AMD counterpart of CudaDevice.cpp, through libamdhip64.so. Written
// against the HIP documentation and not yet run on a device (there is none
// here): see docs/Runtime.md.
//
//===----------------------------------------------------------------------===//

#include "TileDialect/Runtime/Device.h"

#include "DynamicLibrary.h"

using namespace mlir::tileir;
using namespace mlir::tileir::runtime;

namespace {

using hipError_t = int;
using hipDevice_t = int;
using hipModule_t = void *;
using hipFunction_t = void *;
using hipStream_t = void *;
using hipEvent_t = void *;

constexpr hipError_t hipSuccess = 0;
constexpr hipError_t hipErrorNoDevice = 100;

/// The HIP entry points, resolved with dlsym.
struct HipApi {
  const char *(*hipGetErrorName)(hipError_t);
  const char *(*hipGetErrorString)(hipError_t);
  hipError_t (*hipInit)(unsigned);
  hipError_t (*hipDriverGetVersion)(int *);
  hipError_t (*hipGetDeviceCount)(int *);
  hipError_t (*hipSetDevice)(int);
  hipError_t (*hipDeviceGet)(hipDevice_t *, int);
  hipError_t (*hipDeviceGetName)(char *, int, hipDevice_t);
  hipError_t (*hipDeviceComputeCapability)(int *, int *, hipDevice_t);
  hipError_t (*hipDeviceSynchronize)();
  hipError_t (*hipModuleLoadData)(hipModule_t *, const void *);
  hipError_t (*hipModuleUnload)(hipModule_t);
  hipError_t (*hipModuleGetFunction)(hipFunction_t *, hipModule_t,
                                     const char *);
  hipError_t (*hipModuleLaunchKernel)(hipFunction_t, unsigned, unsigned,
                                      unsigned, unsigned, unsigned, unsigned,
                                      unsigned, hipStream_t, void **, void **);
  hipError_t (*hipMalloc)(void **, size_t);
  hipError_t (*hipFree)(void *);
  hipError_t (*hipMemcpyHtoD)(void *, const void *, size_t);
  hipError_t (*hipMemcpyDtoH)(void *, void *, size_t);
  hipError_t (*hipMemset)(void *, int, size_t);
  hipError_t (*hipMemsetAsync)(void *, int, size_t, hipStream_t);
  hipError_t (*hipEventCreate)(hipEvent_t *);
  hipError_t (*hipEventDestroy)(hipEvent_t);
  hipError_t (*hipEventRecord)(hipEvent_t, hipStream_t);
  hipError_t (*hipEventSynchronize)(hipEvent_t);
  hipError_t (*hipEventElapsedTime)(float *, hipEvent_t, hipEvent_t);
};

bool resolveAll(void *lib, HipApi &api, std::string &missing) {
#define RESOLVE(NAME) resolveSymbol(lib, api.NAME, {#NAME}, missing)
  return RESOLVE(hipGetErrorName) && RESOLVE(hipGetErrorString) &&
         RESOLVE(hipInit) && RESOLVE(hipDriverGetVersion) &&
         RESOLVE(hipGetDeviceCount) && RESOLVE(hipSetDevice) &&
         RESOLVE(hipDeviceGet) && RESOLVE(hipDeviceGetName) &&
         RESOLVE(hipDeviceComputeCapability) && RESOLVE(hipDeviceSynchronize) &&
         RESOLVE(hipModuleLoadData) && RESOLVE(hipModuleUnload) &&
         RESOLVE(hipModuleGetFunction) && RESOLVE(hipModuleLaunchKernel) &&
         RESOLVE(hipMalloc) && RESOLVE(hipFree) && RESOLVE(hipMemcpyHtoD) &&
         RESOLVE(hipMemcpyDtoH) && RESOLVE(hipMemset) &&
         RESOLVE(hipMemsetAsync) &&
         RESOLVE(hipEventCreate) && RESOLVE(hipEventDestroy) &&
         RESOLVE(hipEventRecord) && RESOLVE(hipEventSynchronize) &&
         RESOLVE(hipEventElapsedTime);
#undef RESOLVE
}

class HipDevice final : public Device {
public:
  HipDevice(void *library, const HipApi &api) : library(library), api(api) {}
  ~HipDevice() override;

  bool open(int index, OpenFailure &failure);

  const DeviceInfo &info() const override { return deviceInfo; }
  bool loadModule(const std::string &image) override {
    return check(api.hipModuleLoadData(&module, image.data()),
                 "hipModuleLoadData");
  }
  bool getFunction(const std::string &symbol, KernelHandle &kernel) override {
    hipFunction_t function = nullptr;
    if (!check(api.hipModuleGetFunction(&function, module, symbol.c_str()),
               "hipModuleGetFunction"))
      return false;
    kernel = function;
    return true;
  }
  /// AMD GPUs give a kernel all of a workgroup's LDS without opting in.
  bool setMaxDynamicSharedMemory(KernelHandle, unsigned) override {
    return true;
  }
  bool launch(KernelHandle kernel, const unsigned grid[3],
              const unsigned block[3], unsigned sharedMemBytes,
              const std::vector<DevicePtr> &args) override;
  bool allocate(uint64_t bytes, DevicePtr &ptr) override;
  bool copyToDevice(DevicePtr dst, const void *src, uint64_t bytes) override {
    return !bytes || check(api.hipMemcpyHtoD(toPointer(dst), src, bytes),
                           "hipMemcpyHtoD");
  }
  bool copyToHost(void *dst, DevicePtr src, uint64_t bytes) override {
    return !bytes || check(api.hipMemcpyDtoH(dst, toPointer(src), bytes),
                           "hipMemcpyDtoH");
  }
  bool fillZero(DevicePtr dst, uint64_t bytes) override {
    // On the caller's stream: asynchronous, in order with its work.
    if (userStream)
      return !bytes || check(api.hipMemsetAsync(toPointer(dst), 0, bytes,
                                                userStream),
                             "hipMemsetAsync");
    return !bytes ||
           check(api.hipMemset(toPointer(dst), 0, bytes), "hipMemset");
  }
  /// Later launches, clears and event records go to `stream` (null: the
  /// null stream), the device made current on the calling thread first.
  bool setStream(void *stream) override {
    if (!check(api.hipSetDevice(deviceIndex), "hipSetDevice"))
      return false;
    userStream = stream;
    return true;
  }
  bool synchronize() override {
    return check(api.hipDeviceSynchronize(), "hipDeviceSynchronize");
  }
  bool createEvent(EventHandle &event) override;
  bool recordEvent(EventHandle event) override {
    return check(api.hipEventRecord(event, userStream), "hipEventRecord");
  }
  bool elapsedMs(EventHandle start, EventHandle end, float &ms) override {
    return check(api.hipEventSynchronize(end), "hipEventSynchronize") &&
           check(api.hipEventElapsedTime(&ms, start, end),
                 "hipEventElapsedTime");
  }

private:
  static void *toPointer(DevicePtr ptr) {
    return reinterpret_cast<void *>(static_cast<uintptr_t>(ptr));
  }
  bool check(hipError_t result, const char *call) {
    if (result == hipSuccess)
      return true;
    const char *name = api.hipGetErrorName(result);
    const char *description = api.hipGetErrorString(result);
    errorMessage = std::string(call) + ": " + (name ? name : "unknown") + " (" +
                   std::to_string(result) +
                   "): " + (description ? description : "no description");
    return false;
  }

  void *library;
  HipApi api;
  DeviceInfo deviceInfo;
  bool opened = false;
  hipModule_t module = nullptr;
  int deviceIndex = 0;
  /// The caller's stream (setStream); null: the null stream.
  hipStream_t userStream = nullptr;
  std::vector<void *> buffers;
  std::vector<hipEvent_t> events;
};

} // namespace

HipDevice::~HipDevice() {
  if (opened) {
    for (hipEvent_t event : events)
      api.hipEventDestroy(event);
    for (void *buffer : buffers)
      api.hipFree(buffer);
    if (module)
      api.hipModuleUnload(module);
  }
  dlclose(library);
}

bool HipDevice::open(int index, OpenFailure &failure) {
  failure = OpenFailure::DeviceError;
  hipError_t init = api.hipInit(0);
  int count = 0;
  if (init == hipErrorNoDevice ||
      (init == hipSuccess && api.hipGetDeviceCount(&count) == hipSuccess &&
       (count == 0 || index < 0 || index >= count))) {
    failure = OpenFailure::NoDevice;
    errorMessage = count == 0 ? "no HIP device"
                              : "no HIP device " + std::to_string(index) +
                                    " (" + std::to_string(count) + " present)";
    return false;
  }
  if (!check(init, "hipInit")) {
    failure = OpenFailure::NoRuntime;
    errorMessage = "HIP runtime unusable: " + errorMessage;
    return false;
  }
  hipDevice_t device = 0;
  char name[256] = {0};
  int major = 0, minor = 0, version = 0;
  if (!check(api.hipSetDevice(index), "hipSetDevice") ||
      !check(api.hipDeviceGet(&device, index), "hipDeviceGet") ||
      !check(api.hipDeviceGetName(name, sizeof(name) - 1, device),
             "hipDeviceGetName") ||
      !check(api.hipDeviceComputeCapability(&major, &minor, device),
             "hipDeviceComputeCapability") ||
      !check(api.hipDriverGetVersion(&version), "hipDriverGetVersion"))
    return false;
  deviceIndex = index;
  deviceInfo.driver = std::to_string(version);
  deviceInfo.name = name;
  // The compute capability names the gfx family (9.4 for gfx94x), not the
  // exact target.
  deviceInfo.chip = "gfx" + std::to_string(major) + std::to_string(minor) + "x";
  opened = true;
  return true;
}

bool HipDevice::launch(KernelHandle kernel, const unsigned grid[3],
                       const unsigned block[3], unsigned sharedMemBytes,
                       const std::vector<DevicePtr> &args) {
  std::vector<void *> values;
  for (DevicePtr arg : args)
    values.push_back(toPointer(arg));
  std::vector<void *> params;
  for (void *&value : values)
    params.push_back(&value);
  return check(api.hipModuleLaunchKernel(
                   kernel, grid[0], grid[1], grid[2], block[0], block[1],
                   block[2], sharedMemBytes, userStream, params.data(),
                   nullptr),
               "hipModuleLaunchKernel");
}

bool HipDevice::allocate(uint64_t bytes, DevicePtr &ptr) {
  void *buffer = nullptr;
  if (!check(api.hipMalloc(&buffer, bytes ? bytes : 1), "hipMalloc"))
    return false;
  buffers.push_back(buffer);
  ptr = reinterpret_cast<uintptr_t>(buffer);
  return true;
}

bool HipDevice::createEvent(EventHandle &event) {
  hipEvent_t created = nullptr;
  if (!check(api.hipEventCreate(&created), "hipEventCreate"))
    return false;
  events.push_back(created);
  event = created;
  return true;
}

std::unique_ptr<Device> runtime::openHipDevice(int index, OpenFailure &failure,
                                               std::string &error) {
  failure = OpenFailure::NoRuntime;
  void *library = openLibrary({"libamdhip64.so", "libamdhip64.so.6"});
  if (!library) {
    error = "no HIP runtime: libamdhip64.so not found";
    return nullptr;
  }
  HipApi api;
  std::string missing;
  if (!resolveAll(library, api, missing)) {
    error = "HIP runtime unusable: libamdhip64.so has no " + missing;
    dlclose(library);
    return nullptr;
  }
  auto device = std::make_unique<HipDevice>(library, api);
  if (!device->open(index, failure)) {
    error = device->error();
    return nullptr;
  }
  return device;
}
