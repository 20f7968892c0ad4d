//===- CAPI.cpp - The runtime's C API (tile-c/Runtime.h) ------------------===//
//
// A thin layer over Module: a TileModule owns the artifact, the device and
// the module loaded on it; every entry point turns a failure into a status
// and the thread's last-error message.
//
//===----------------------------------------------------------------------===//

#include "tile-c/Runtime.h"

#include "TileDialect/Runtime/Module.h"
#include "TileDialect/VersionString.h"

#include <string>

using namespace mlir::tileir;
using namespace mlir::tileir::runtime;

struct TileModule {
  Artifact artifact;
  std::unique_ptr<Device> device;
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

TileStatus tileModuleLoad(const char *artifactDir, TilePlatform platform,
                          int32_t deviceIndex, TileModule **out) {
  if (!artifactDir || !out)
    return failWith(TILE_ERROR_INVALID_ARGUMENT,
                    "tileModuleLoad: null artifact directory or result");
  *out = nullptr;
  auto m = std::make_unique<TileModule>();
  std::string error;
  if (!readArtifact(artifactDir, m->artifact, error))
    return failWith(TILE_ERROR_BAD_ARTIFACT, error);
  Platform wanted = m->artifact.platform;
  if (platform == TILE_PLATFORM_CUDA)
    wanted = Platform::Cuda;
  else if (platform == TILE_PLATFORM_HIP)
    wanted = Platform::Hip;
  else if (platform != TILE_PLATFORM_DEFAULT)
    return failWith(TILE_ERROR_INVALID_ARGUMENT,
                    "tileModuleLoad: unknown platform " +
                        std::to_string(int(platform)));
  if (wanted != m->artifact.platform)
    return failWith(TILE_ERROR_BAD_ARTIFACT,
                    std::string("the artifact is for ") +
                        toString(m->artifact.platform) + ", not " +
                        toString(wanted));
  OpenFailure failure;
  m->device = openDevice(wanted, deviceIndex, failure, error);
  if (!m->device)
    return failWith(failure == OpenFailure::DeviceError ? TILE_ERROR_DEVICE
                                                        : TILE_ERROR_NO_DEVICE,
                    error);
  m->module = Module::load(m->artifact, *m->device, ModuleOptions(), error);
  if (!m->module)
    return failWith(TILE_ERROR_DEVICE, error);
  *out = m.release();
  return ok();
}

void tileModuleDestroy(TileModule *module) {
  if (!module)
    return;
  // The module's buffers before the device that frees them.
  module->module.reset();
  delete module;
}

const char *tileModuleProgram(const TileModule *module) {
  return module ? module->artifact.program.c_str() : "";
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
      module->artifact.tensors[module->module->getArguments()[index]];
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

TileStatus tileModuleRun(TileModule *module, void *stream) {
  if (!module)
    return failWith(TILE_ERROR_INVALID_ARGUMENT, "tileModuleRun: null module");
  // A missing binding is the caller's mistake, not the device's.
  if (std::optional<unsigned> i = module->module->findUnbound())
    return failWith(
        TILE_ERROR_INVALID_ARGUMENT,
        "tileModuleRun: argument '" +
            module->artifact.tensors[module->module->getArguments()[*i]].name +
            "' is not bound");
  if (!module->device->setStream(stream))
    return deviceFailure(module, "tileModuleRun: ");
  if (!module->module->run())
    return failWith(TILE_ERROR_DEVICE,
                    "tileModuleRun: " + module->module->error());
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
