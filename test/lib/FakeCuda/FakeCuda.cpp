//===- FakeCuda.cpp - A CUDA driver that runs kernels on the host ---------===//
//
// A stand-in for libcuda.so.1 for testing the runtime where there is no GPU:
// the entry points tile-gpu-run resolves, over host memory, with a few
// "kernels" written in C++ and a module image that must start with `FAKE`.
// Tests put its directory on LD_LIBRARY_PATH. FAKE_CUDA_DEVICES=0 makes
// cuInit report that there is no device; FAKE_CUDA_COUNT=1 prints the number
// of kernels run (and of uploads) to stderr at exit. Graphs: one stream captures launches,
// which cuGraphLaunch runs again.
//
//===----------------------------------------------------------------------===//

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

using CUresult = int;
using Params = void **;

/// A kernel: its parameters and the number of threads launched.
using HostKernel = void (*)(Params params, unsigned threads);

struct Function {
  const char *name;
  HostKernel run;
  /// The number of pointer parameters.
  int numArgs;
  int maxDynamicSharedMemory = 48 * 1024;
};

float *floatParam(Params params, int i) {
  return *reinterpret_cast<float **>(params[i]);
}

/// c = a + b.
void addF32(Params params, unsigned threads) {
  float *a = floatParam(params, 0), *b = floatParam(params, 1),
        *c = floatParam(params, 2);
  for (unsigned i = 0; i < threads; ++i)
    c[i] = a[i] + b[i];
}

/// c = a - b.
void subF32(Params params, unsigned threads) {
  float *a = floatParam(params, 0), *b = floatParam(params, 1),
        *c = floatParam(params, 2);
  for (unsigned i = 0; i < threads; ++i)
    c[i] = a[i] - b[i];
}

/// c += a + b (an accumulation: c must start as zeros).
void accumulateF32(Params params, unsigned threads) {
  float *a = floatParam(params, 0), *b = floatParam(params, 1),
        *c = floatParam(params, 2);
  for (unsigned i = 0; i < threads; ++i)
    c[i] += a[i] + b[i];
}

/// c = NaN.
void nanF32(Params params, unsigned threads) {
  float *c = floatParam(params, 2);
  for (unsigned i = 0; i < threads; ++i)
    c[i] = NAN;
}

/// Doubles the elements [threads, 2 * threads) of its argument in place.
void scaleRow(Params params, unsigned threads) {
  float *x = floatParam(params, 0);
  for (unsigned i = threads; i < 2 * threads; ++i)
    x[i] *= 2.0f;
}

/// A captured memset: parameters (pointer, byte count).
void memsetZero(Params params, unsigned) {
  std::memset(
      reinterpret_cast<void *>(*static_cast<unsigned long long *>(params[0])),
      0, *static_cast<unsigned long long *>(params[1]));
}
Function memsetNode = {"memset", memsetZero, 2};

Function functions[] = {{"add_f32", addF32, 3},
                        {"sub_f32", subF32, 3},
                        {"nan_f32", nanF32, 3},
                        {"accumulate_f32", accumulateF32, 3},
                        {"scale_row", scaleRow, 1}};

int module = 0;
int context = 0;

/// A launch recorded while a stream captures: the function, the threads and
/// the parameter values (device pointers).
struct Launch {
  Function *function;
  unsigned threads;
  std::vector<unsigned long long> args;
};

/// The one stream that can capture, whether it is capturing, and the graph.
int stream = 0;
unsigned kernelsRun = 0;
/// Host-to-device copies (tensor uploads).
unsigned uploads = 0;
bool capturing = false;
std::vector<Launch> graph;
int graphExec = 0;

double nowMs() {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

} // namespace

extern "C" {

CUresult cuGetErrorName(CUresult error, const char **name) {
  switch (error) {
  case 1:
    *name = "CUDA_ERROR_INVALID_VALUE";
    return 0;
  case 200:
    *name = "CUDA_ERROR_INVALID_IMAGE";
    return 0;
  case 500:
    *name = "CUDA_ERROR_NOT_FOUND";
    return 0;
  }
  return 1;
}

CUresult cuGetErrorString(CUresult error, const char **text) {
  switch (error) {
  case 1:
    *text = "invalid argument";
    return 0;
  case 200:
    *text = "device kernel image is invalid";
    return 0;
  case 500:
    *text = "named symbol not found";
    return 0;
  }
  return 1;
}

static unsigned programmaticLaunches = 0;
static unsigned graphMemsets = 0;

static void printKernelsRun() {
  std::fflush(stdout);
  std::fprintf(stderr, "fake-cuda: %u kernels run\n", kernelsRun);
  if (programmaticLaunches)
    std::fprintf(stderr, "fake-cuda: %u programmatic launches\n",
                 programmaticLaunches);
  if (graphMemsets)
    std::fprintf(stderr, "fake-cuda: %u memsets replayed\n", graphMemsets);
  std::fprintf(stderr, "fake-cuda: %u uploads\n", uploads);
}

CUresult cuInit(unsigned) {
  if (const char *count = std::getenv("FAKE_CUDA_COUNT");
      count && std::strcmp(count, "1") == 0)
    std::atexit(printKernelsRun);
  const char *devices = std::getenv("FAKE_CUDA_DEVICES");
  return devices && std::string(devices) == "0" ? 100 : 0;
}
CUresult cuDriverGetVersion(int *version) {
  *version = 13000;
  return 0;
}
CUresult cuDeviceGetCount(int *count) {
  *count = 1;
  return 0;
}
CUresult cuDeviceGet(int *device, int index) {
  *device = index;
  return 0;
}
CUresult cuDeviceGetName(char *name, int length, int) {
  std::strncpy(name, "Fake GPU", length);
  return 0;
}
CUresult cuDeviceGetAttribute(int *value, int attribute, int) {
  *value = attribute == 75 ? 9 : 0;
  return 0;
}
CUresult cuDevicePrimaryCtxRetain(void **ctx, int) {
  *ctx = &context;
  return 0;
}
CUresult cuDevicePrimaryCtxRelease_v2(int) { return 0; }
CUresult cuCtxSetCurrent(void *) { return 0; }
// Waiting while a stream captures is an error (CUDA_ERROR_STREAM_CAPTURE_
// UNSUPPORTED).
CUresult cuCtxSynchronize() { return capturing ? 900 : 0; }

CUresult cuModuleLoadData(void **result, const void *image) {
  if (std::memcmp(image, "FAKE", 4) != 0)
    return 200;
  *result = &module;
  return 0;
}
CUresult cuModuleUnload(void *) { return 0; }
CUresult cuModuleGetFunction(void **result, void *, const char *name) {
  for (Function &function : functions)
    if (std::strcmp(function.name, name) == 0) {
      *result = &function;
      return 0;
    }
  return 500;
}
CUresult cuFuncSetAttribute(void *function, int attribute, int value) {
  if (attribute != 8 || value > 227 * 1024)
    return 1;
  static_cast<Function *>(function)->maxDynamicSharedMemory = value;
  return 0;
}
CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz,
                        unsigned bx, unsigned by, unsigned bz, unsigned smem,
                        void *s, void **params, void **) {
  auto *function = static_cast<Function *>(f);
  if (int(smem) > function->maxDynamicSharedMemory || !params)
    return 1;
  unsigned threads = gx * gy * gz * bx * by * bz;
  if (capturing && s == &stream) {
    // Recorded, not run.
    Launch launch{function, threads, {}};
    for (int i = 0; i < function->numArgs; ++i)
      launch.args.push_back(*static_cast<unsigned long long *>(params[i]));
    graph.push_back(launch);
    return 0;
  }
  function->run(params, threads);
  ++kernelsRun;
  return 0;
}

// cuda.h's launch configuration (only programmatic stream serialization,
// attribute 6, is accepted).
union LaunchAttributeValue {
  char pad[64];
  int programmaticStreamSerializationAllowed;
};
struct LaunchAttribute {
  int id;
  char pad[4];
  LaunchAttributeValue value;
};
struct LaunchConfig {
  unsigned gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  void *hStream;
  LaunchAttribute *attrs;
  unsigned numAttrs;
};
static_assert(sizeof(LaunchAttribute) == 72 && sizeof(LaunchConfig) == 56,
              "the layout of cuda.h");

CUresult cuLaunchKernelEx(const LaunchConfig *config, void *f, void **params,
                          void **extra) {
  if (config->numAttrs != 1 || config->attrs[0].id != 6 ||
      config->attrs[0].value.programmaticStreamSerializationAllowed != 1)
    return 1;
  ++programmaticLaunches;
  return cuLaunchKernel(f, config->gridDimX, config->gridDimY, config->gridDimZ,
                        config->blockDimX, config->blockDimY, config->blockDimZ,
                        config->sharedMemBytes, config->hStream, params, extra);
}

CUresult cuStreamCreate(void **result, unsigned) {
  *result = &stream;
  return 0;
}
CUresult cuStreamDestroy_v2(void *) { return 0; }
CUresult cuStreamBeginCapture_v2(void *s, int) {
  if (s != &stream || capturing)
    return 1;
  capturing = true;
  graph.clear();
  return 0;
}
CUresult cuStreamEndCapture(void *s, void **result) {
  if (s != &stream || !capturing)
    return 1;
  capturing = false;
  *result = &graph;
  return 0;
}
CUresult cuGraphInstantiateWithFlags(void **result, void *g,
                                     unsigned long long) {
  if (g != &graph)
    return 1;
  *result = &graphExec;
  return 0;
}
CUresult cuGraphLaunch(void *exec, void *s) {
  if (exec != &graphExec || s != &stream)
    return 1;
  for (Launch &launch : graph) {
    std::vector<void *> params;
    for (unsigned long long &arg : launch.args)
      params.push_back(&arg);
    launch.function->run(params.data(), launch.threads);
    if (launch.function != &memsetNode)
      ++kernelsRun;
    else
      ++graphMemsets;
  }
  return 0;
}
CUresult cuGraphExecDestroy(void *) { return 0; }
CUresult cuGraphDestroy(void *) { return 0; }

CUresult cuMemAlloc_v2(unsigned long long *ptr, size_t bytes) {
  *ptr = reinterpret_cast<unsigned long long>(std::malloc(bytes));
  return 0;
}
CUresult cuMemFree_v2(unsigned long long ptr) {
  std::free(reinterpret_cast<void *>(ptr));
  return 0;
}
CUresult cuMemcpyHtoD_v2(unsigned long long dst, const void *src, size_t n) {
  ++uploads;
  std::memcpy(reinterpret_cast<void *>(dst), src, n);
  return 0;
}
CUresult cuMemcpyDtoH_v2(void *dst, unsigned long long src, size_t n) {
  std::memcpy(dst, reinterpret_cast<void *>(src), n);
  return 0;
}
CUresult cuMemsetD8_v2(unsigned long long dst, unsigned char value,
                       size_t n) {
  std::memset(reinterpret_cast<void *>(dst), value, n);
  return 0;
}
CUresult cuMemsetD8Async(unsigned long long dst, unsigned char value, size_t n,
                         void *s) {
  if (!capturing || s != &stream || value != 0)
    return cuMemsetD8_v2(dst, value, n);
  graph.push_back(Launch{&memsetNode, 0, {dst, n}});
  return 0;
}

CUresult cuEventCreate(void **event, unsigned) {
  *event = new double(0);
  return 0;
}
CUresult cuEventDestroy_v2(void *event) {
  delete static_cast<double *>(event);
  return 0;
}
CUresult cuEventRecord(void *event, void *) {
  *static_cast<double *>(event) = nowMs();
  return 0;
}
CUresult cuEventSynchronize(void *) { return 0; }
CUresult cuEventElapsedTime(float *ms, void *start, void *end) {
  *ms = float(*static_cast<double *>(end) - *static_cast<double *>(start));
  return 0;
}

} // extern "C"
