/*===-- tile-c/Runtime.h - Run compiled kernels on your buffers --*- C -*-===*\
|*                                                                            *|
|* Loads an artifact that tile-run --compile-only (or tile-opt's pipelines)   *|
|* wrote, and runs its kernels on the caller's device buffers and stream.     *|
|* Plain C; the library (libTileRuntime.a) links neither MLIR nor LLVM and    *|
|* opens the CUDA driver (or HIP) at run time.                                *|
|*                                                                            *|
|*   TileModule *m;                                                           *|
|*   if (tileModuleLoad("art", TILE_PLATFORM_DEFAULT, 0, &m) != TILE_OK)      *|
|*     fprintf(stderr, "%s\n", tileLastError());                              *|
|*   tileModuleBind(m, tileModuleFindArgument(m, "X"), (uint64_t)x_device);   *|
|*   ... bind every argument ...                                              *|
|*   tileModuleRun(m, stream);      (asynchronous; capturable into a graph)   *|
|*   tileModuleDestroy(m);                                                    *|
|*                                                                            *|
|* The arguments are the program's inputs, inouts (updated in place, e.g. KV  *|
|* caches) and outputs, dense and row-major, in the manifest's order. The     *|
|* module owns the intermediates: allocated once at load, reused by every     *|
|* call. Outputs start as zeros: each call clears them on the stream before   *|
|* the kernels run. Every function returns a status; on failure               *|
|* tileLastError() says what failed and why (per thread). Nothing aborts.     *|
|* docs/Runtime.md describes the API; test/Runtime/capi-runtime.c uses all of *|
|* it.                                                                        *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef TILE_C_RUNTIME_H
#define TILE_C_RUNTIME_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct TileModule TileModule;

typedef enum TileStatus {
  TILE_OK = 0,
  /* A bad argument: a null pointer, an index out of range, an unbound
   * argument at run time. */
  TILE_ERROR_INVALID_ARGUMENT = 1,
  /* The artifact directory cannot be read or is malformed. */
  TILE_ERROR_BAD_ARTIFACT = 2,
  /* No driver library, or no such device. */
  TILE_ERROR_NO_DEVICE = 3,
  /* A driver call failed. */
  TILE_ERROR_DEVICE = 4,
} TileStatus;

typedef enum TilePlatform {
  /* The platform the artifact was compiled for. */
  TILE_PLATFORM_DEFAULT = 0,
  TILE_PLATFORM_CUDA = 1,
  TILE_PLATFORM_HIP = 2,
} TilePlatform;

typedef enum TileRole {
  TILE_ROLE_INPUT = 0,
  /* Read and updated in place. */
  TILE_ROLE_INOUT = 1,
  /* Written; cleared to zeros by each call before the kernels run. */
  TILE_ROLE_OUTPUT = 2,
} TileRole;

typedef enum TileDType {
  TILE_DTYPE_F16 = 0,
  TILE_DTYPE_BF16 = 1,
  TILE_DTYPE_F32 = 2,
  TILE_DTYPE_F64 = 3,
  /* One byte per element. */
  TILE_DTYPE_I1 = 4,
} TileDType;

typedef struct TileArgumentInfo {
  /* Owned by the module; valid until it is destroyed. */
  const char *name;
  TileRole role;
  TileDType dtype;
  /* 0 for a scalar. */
  int32_t rank;
  /* `rank` sizes, row-major; owned by the module. */
  const int64_t *shape;
  /* The buffer the argument needs: elements times element size. */
  uint64_t bytes;
} TileArgumentInfo;

/* The message of the calling thread's last failure ("" if none). */
const char *tileLastError(void);

/* Loads the artifact in directory `artifactDir` on device `deviceIndex` of
 * `platform`: reads it, opens the device, loads the kernels and allocates
 * the module's own buffers. */
TileStatus tileModuleLoad(const char *artifactDir, TilePlatform platform,
                          int32_t deviceIndex, TileModule **module);

/* How tileModuleLoadWithOptions loads: zero-initialize, then set fields
 * (all zeros: tileModuleLoad's behaviour). */
typedef struct TileLoadOptions {
  /* Nonzero: the module allocates the outputs itself, beside its own
   * tensors that start as zeros, so that one clear covers them all; they
   * need no binding (tileModuleArgumentPointer gives their buffers), and
   * binding one replaces its buffer. */
  int32_t ownOutputs;
  /* Nonzero: every kernel launches on its own, even where the artifact
   * allows programmatic launches (a kernel starting as the previous one
   * ends, inside a CUDA graph). */
  int32_t plainLaunches;
} TileLoadOptions;

/* tileModuleLoad with `options` (null: all zeros). */
TileStatus tileModuleLoadWithOptions(const char *artifactDir,
                                     TilePlatform platform,
                                     int32_t deviceIndex,
                                     const TileLoadOptions *options,
                                     TileModule **module);

/* Frees the module's buffers and kernels. Null is allowed. */
void tileModuleDestroy(TileModule *module);

/* The program's name; the device's name and chip (sm_90, gfx942). */
const char *tileModuleProgram(const TileModule *module);
const char *tileModuleDeviceName(const TileModule *module);
const char *tileModuleChip(const TileModule *module);

int32_t tileModuleNumArguments(const TileModule *module);
TileStatus tileModuleArgumentInfo(const TileModule *module, int32_t index,
                                  TileArgumentInfo *info);
/* The index of the argument named `name`, or -1. */
int32_t tileModuleFindArgument(const TileModule *module, const char *name);

/* Binds argument `index` to the device buffer at `devicePtr` (a CUdeviceptr
 * or HIP device pointer of the module's device), which must hold
 * tileArgumentInfo's `bytes`, dense and row-major. Bindings stay until
 * rebound. */
TileStatus tileModuleBind(TileModule *module, int32_t index,
                          uint64_t devicePtr);

/* One call: clears the outputs and the intermediates that start as zeros,
 * then launches every kernel in order, on `stream` (a CUstream or
 * hipStream_t of the device's primary context; null: the default stream).
 * Asynchronous: returns after the launches; synchronize the stream before
 * reading the outputs. With a stream, no host synchronization happens, so
 * the call may be captured into a CUDA graph. Fails, launching nothing, if
 * an argument is unbound. */
TileStatus tileModuleRun(TileModule *module, void *stream);

/* The buffer argument `index` uses: the one bound, the module's own (an
 * output under TileLoadOptions.ownOutputs), or 0 if it is unbound. */
TileStatus tileModuleArgumentPointer(const TileModule *module, int32_t index,
                                     uint64_t *devicePtr);

/* A call in steps, for callers that time or check kernels one by one
 * (tile-gpu-run): tileModuleRun(m, s) is tileModuleClear(m, s), then
 * tileModuleLaunch(m, k, s) for k = 0 .. tileModuleNumKernels(m) - 1.
 * Asynchronous, like tileModuleRun; both fail, queueing nothing, if an
 * argument is unbound. */
int32_t tileModuleNumKernels(const TileModule *module);
/* Launch `kernel`'s symbol ("" if out of range); owned by the module. */
const char *tileModuleKernelName(const TileModule *module, int32_t kernel);
/* Clears the outputs and the intermediates that start as zeros. */
TileStatus tileModuleClear(TileModule *module, void *stream);
/* Launches kernel `kernel` (in the artifact's order) on its buffers. */
TileStatus tileModuleLaunch(TileModule *module, int32_t kernel, void *stream);

/* Waits for everything queued on the device. */
TileStatus tileModuleSynchronize(TileModule *module);

/* For callers without their own driver bindings (tile-gpu-run, tests):
 * device memory owned by the module (freed with it) and copies. */
TileStatus tileModuleAllocate(TileModule *module, uint64_t bytes,
                              uint64_t *devicePtr);
TileStatus tileModuleCopyToDevice(TileModule *module, uint64_t devicePtr,
                                  const void *host, uint64_t bytes);
TileStatus tileModuleCopyToHost(TileModule *module, void *host,
                                uint64_t devicePtr, uint64_t bytes);

/* The runtime's version, "0.2.0 (git 3b63af70c1d2)". */
const char *tileRuntimeVersion(void);

#ifdef __cplusplus
}
#endif

#endif /* TILE_C_RUNTIME_H */
