//===- CAPI.cpp - The runtime's C API (tile-c/Runtime.h) ------------------===//
//
// A thin layer over Module: a TileModule holds the artifact, the device and
// the module loaded on it; every entry point turns a failure into a status
// and the thread's last-error message. tile-gpu-run's runner is a client.
//
//===----------------------------------------------------------------------===//

#include "tile-c/Runtime.h"

#include "TileDialect/Runtime/CAPIModule.h"
#include "TileDialect/VersionString.h"

#include <string>

using namespace mlir::tileir;
using namespace mlir::tileir::runtime;

/// The artifact and device are the module's own (tileModuleLoad) or the
/// caller's (loadModuleOn).
struct TileModule {
  Artifact ownArtifact;
  std::unique_ptr<Device> ownDevice;
  const Artifact *artifact = nullptr;
  Device *device = nullptr;
  std::unique_ptr<Module> module;
};

static thread_local std::string lastError;

static TileStatus failWith(TileStatus status, const std::string &message) {
  lastError = message;
  return status;
}

static TileStatus ok() {
  lastError.clear();
  return TILE_OK;
}

static TileStatus deviceFailure(TileModule *m, const std::string &context) {
  return failWith(TILE_ERROR_DEVICE, context + m->device->error());
}

const char *tileLastError(void) { return lastError.c_str(); }

/// Loads `m`'s module on its device; on success hands `m` to `out`.
static TileStatus loadModule(std::unique_ptr<TileModule> m,
                             const TileLoadOptions *options,
                             TileModule **out) {
  ModuleOptions moduleOptions;
  if (options) {
    moduleOptions.ownZeroArguments = options->ownOutputs != 0;
    moduleOptions.plainLaunch = options->plainLaunches != 0;
  }
  std::string error;
  m->module = Module::load(*m->artifact, *m->device, moduleOptions, error);
  if (!m->module)
    return failWith(TILE_ERROR_DEVICE, error);
  *out = m.release();
  return ok();
}

TileStatus tileModuleLoadWithOptions(const char *artifactDir,
                                     TilePlatform platform,
                                     int32_t deviceIndex,
                                     const TileLoadOptions *options,
                                     TileModule **out) {
  if (!artifactDir || !out)
    return failWith(TILE_ERROR_INVALID_ARGUMENT,
                    "tileModuleLoad: null artifact directory or result");
  *out = nullptr;
  auto m = std::make_unique<TileModule>();
  std::string error;
  if (!readArtifact(artifactDir, m->ownArtifact, error))
    return failWith(TILE_ERROR_BAD_ARTIFACT, error);
  m->artifact = &m->ownArtifact;
  Platform wanted = m->artifact->platform;
  if (platform == TILE_PLATFORM_CUDA)
    wanted = Platform::Cuda;
  else if (platform == TILE_PLATFORM_HIP)
    wanted = Platform::Hip;
  else if (platform != TILE_PLATFORM_DEFAULT)
    return failWith(TILE_ERROR_INVALID_ARGUMENT,
                    "tileModuleLoad: unknown platform " +
                        std::to_string(int(platform)));
  if (wanted != m->artifact->platform)
    return failWith(TILE_ERROR_BAD_ARTIFACT,
                    std::string("the artifact is for ") +
                        toString(m->artifact->platform) + ", not " +
                        toString(wanted));
  OpenFailure failure;
  m->ownDevice = openDevice(wanted, deviceIndex, failure, error);
  if (!m->ownDevice)
    return failWith(failure == OpenFailure::DeviceError ? TILE_ERROR_DEVICE
                                                        : TILE_ERROR_NO_DEVICE,
                    error);
  m->device = m->ownDevice.get();
  return loadModule(std::move(m), options, out);
}

TileStatus tileModuleLoad(const char *artifactDir, TilePlatform platform,
                          int32_t deviceIndex, TileModule **out) {
  return tileModuleLoadWithOptions(artifactDir, platform, deviceIndex,
                                   nullptr, out);
}

TileStatus runtime::loadModuleOn(const Artifact &artifact, Device &device,
                                 const TileLoadOptions *options,
                                 TileModule **out) {
  if (!out)
    return failWith(TILE_ERROR_INVALID_ARGUMENT, "loadModuleOn: null result");
  *out = nullptr;
  auto m = std::make_unique<TileModule>();
  m->artifact = &artifact;
  m->device = &device;
  return loadModule(std::move(m), options, out);
}

Device &runtime::getDevice(TileModule *module) { return *module->device; }

const Artifact &runtime::getArtifact(const TileModule *module) {
  return *module->artifact;
}

const Module &runtime::getModule(const TileModule *module) {
  return *module->module;
}

void tileModuleDestroy(TileModule *module) {
  if (!module)
    return;
  // The module's buffers before the device that frees them.
  module->module.reset();
  delete module;
}

const char *tileModuleProgram(const TileModule *module) {
  return module ? module->artifact->program.c_str() : "";
}

const char *tileModuleDeviceName(const TileModule *module) {
  return module ? module->device->info().name.c_str() : "";
}

const char *tileModuleChip(const TileModule *module) {
  return module ? module->device->info().chip.c_str() : "";
}

int32_t tileModuleNumArguments(const TileModule *module) {
  return module ? int32_t(module->module->getArguments().size()) : 0;
}

static TileStatus checkIndex(const TileModule *module, int32_t index,
                             const char *function) {
  if (!module)
    return failWith(TILE_ERROR_INVALID_ARGUMENT,
                    std::string(function) + ": null module");
  int32_t n = int32_t(module->module->getArguments().size());
  if (index < 0 || index >= n)
    return failWith(TILE_ERROR_INVALID_ARGUMENT,
                    std::string(function) + ": no argument #" +
                        std::to_string(index) + " (the program has " +
                        std::to_string(n) + ")");
  return TILE_OK;
}

static TileDType toDType(ElementKind kind) {
  switch (kind) {
  case ElementKind::F16:
    return TILE_DTYPE_F16;
  case ElementKind::BF16:
    return TILE_DTYPE_BF16;
  case ElementKind::F32:
    return TILE_DTYPE_F32;
  case ElementKind::F64:
    return TILE_DTYPE_F64;
  case ElementKind::I1:
    return TILE_DTYPE_I1;
  }
  return TILE_DTYPE_F32;
}

TileStatus tileModuleArgumentInfo(const TileModule *module, int32_t index,
                                  TileArgumentInfo *info) {
  if (TileStatus s = checkIndex(module, index, "tileModuleArgumentInfo"))
    return s;
  if (!info)
    return failWith(TILE_ERROR_INVALID_ARGUMENT,
                    "tileModuleArgumentInfo: null result");
  const TensorDecl &t =
      module->artifact->tensors[module->module->getArguments()[index]];
  info->name = t.name.c_str();
  info->role = t.role == TensorRole::Input   ? TILE_ROLE_INPUT
               : t.role == TensorRole::Inout ? TILE_ROLE_INOUT
                                             : TILE_ROLE_OUTPUT;
  info->dtype = toDType(t.elementKind);
  info->rank = int32_t(t.shape.size());
  info->shape = t.shape.data();
  info->bytes = t.byteSize();
  return ok();
}

int32_t tileModuleFindArgument(const TileModule *module, const char *name) {
  if (!module || !name)
    return -1;
  return module->module->findArgument(name);
}

TileStatus tileModuleBind(TileModule *module, int32_t index,
                          uint64_t devicePtr) {
  if (TileStatus s = checkIndex(module, index, "tileModuleBind"))
    return s;
  if (!module->module->bind(unsigned(index), devicePtr))
    return failWith(TILE_ERROR_INVALID_ARGUMENT,
                    "tileModuleBind: " + module->module->error());
  return ok();
}

/// Fails unless `module` is set and its arguments are all bound; then sets
/// `stream` as the device's.
static TileStatus prepareCall(TileModule *module, void *stream,
                              const char *function) {
  if (!module)
    return failWith(TILE_ERROR_INVALID_ARGUMENT,
                    std::string(function) + ": null module");
  // A missing binding is the caller's mistake, not the device's.
  if (std::optional<unsigned> i = module->module->findUnbound())
    return failWith(
        TILE_ERROR_INVALID_ARGUMENT,
        std::string(function) + ": argument '" +
            module->artifact->tensors[module->module->getArguments()[*i]].name +
            "' is not bound");
  if (!module->device->setStream(stream))
    return deviceFailure(module, std::string(function) + ": ");
  return TILE_OK;
}

TileStatus tileModuleRun(TileModule *module, void *stream) {
  if (TileStatus s = prepareCall(module, stream, "tileModuleRun"))
    return s;
  if (!module->module->run())
    return failWith(TILE_ERROR_DEVICE,
                    "tileModuleRun: " + module->module->error());
  return ok();
}

TileStatus tileModuleArgumentPointer(const TileModule *module, int32_t index,
                                     uint64_t *devicePtr) {
  if (TileStatus s = checkIndex(module, index, "tileModuleArgumentPointer"))
    return s;
  if (!devicePtr)
    return failWith(TILE_ERROR_INVALID_ARGUMENT,
                    "tileModuleArgumentPointer: null result");
  *devicePtr = module->module->getBuffer(module->module->getArguments()[index]);
  return ok();
}

int32_t tileModuleNumKernels(const TileModule *module) {
  return module ? int32_t(module->artifact->kernels.size()) : 0;
}

const char *tileModuleKernelName(const TileModule *module, int32_t kernel) {
  if (!module || kernel < 0 || kernel >= tileModuleNumKernels(module))
    return "";
  return module->artifact->kernels[kernel].symbol.c_str();
}

TileStatus tileModuleClear(TileModule *module, void *stream) {
  if (TileStatus s = prepareCall(module, stream, "tileModuleClear"))
    return s;
  if (!module->module->clear())
    return failWith(TILE_ERROR_DEVICE,
                    "tileModuleClear: " + module->module->error());
  return ok();
}

TileStatus tileModuleLaunch(TileModule *module, int32_t kernel, void *stream) {
  if (module && (kernel < 0 || kernel >= tileModuleNumKernels(module)))
    return failWith(TILE_ERROR_INVALID_ARGUMENT,
                    "tileModuleLaunch: no kernel #" + std::to_string(kernel) +
                        " (the artifact launches " +
                        std::to_string(tileModuleNumKernels(module)) + ")");
  if (TileStatus s = prepareCall(module, stream, "tileModuleLaunch"))
    return s;
  // The module's message names the kernel and the launch.
  if (!module->module->launch(size_t(kernel)))
    return failWith(TILE_ERROR_DEVICE, module->module->error());
  return ok();
}

TileStatus tileModuleSynchronize(TileModule *module) {
  if (!module)
    return failWith(TILE_ERROR_INVALID_ARGUMENT,
                    "tileModuleSynchronize: null module");
  if (!module->device->synchronize())
    return deviceFailure(module, "tileModuleSynchronize: ");
  return ok();
}

TileStatus tileModuleAllocate(TileModule *module, uint64_t bytes,
                              uint64_t *devicePtr) {
  if (!module || !devicePtr)
    return failWith(TILE_ERROR_INVALID_ARGUMENT,
                    "tileModuleAllocate: null module or result");
  DevicePtr ptr = 0;
  if (!module->device->allocate(bytes, ptr))
    return deviceFailure(module, "tileModuleAllocate: ");
  *devicePtr = ptr;
  return ok();
}

TileStatus tileModuleCopyToDevice(TileModule *module, uint64_t devicePtr,
                                  const void *host, uint64_t bytes) {
  if (!module || (!host && bytes))
    return failWith(TILE_ERROR_INVALID_ARGUMENT,
                    "tileModuleCopyToDevice: null module or host buffer");
  if (!module->device->copyToDevice(devicePtr, host, bytes))
    return deviceFailure(module, "tileModuleCopyToDevice: ");
  return ok();
}

TileStatus tileModuleCopyToHost(TileModule *module, void *host,
                                uint64_t devicePtr, uint64_t bytes) {
  if (!module || (!host && bytes))
    return failWith(TILE_ERROR_INVALID_ARGUMENT,
                    "tileModuleCopyToHost: null module or host buffer");
  if (!module->device->copyToHost(host, devicePtr, bytes))
    return deviceFailure(module, "tileModuleCopyToHost: ");
  return ok();
}

const char *tileRuntimeVersion(void) {
  return tileVersionString().c_str();
}
