/* The runtime's C API (include/tile-c/Runtime.h) as a caller uses it, against
 * the host-only fake CUDA driver (test/lib/FakeCuda): load, query the
 * arguments, bind the caller's buffers, run, reuse, and every error.
 *
 * The artifact is Inputs/fake with its first kernel accumulating
 * (C += A + B): a call that did not clear the output C first would add to
 * the previous call's result.
 *
 * RUN: rm -rf %t && cp -r %S/../Inputs/fake %t
 * RUN: sed -i 's/^kernel add_f32 /kernel accumulate_f32 /' %t/manifest.txt
 * RUN: env LD_LIBRARY_PATH=%fake_cuda_dir tile-runtime-capi-test %t | FileCheck %s
 * RUN: env LD_LIBRARY_PATH=%fake_cuda_dir FAKE_CUDA_DEVICES=0 tile-runtime-capi-test %t \
 * RUN:   | FileCheck %s --check-prefix=NODEVICE
 * NODEVICE: load: status 3: no CUDA device
 */

#include "tile-c/Runtime.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *roleName(TileRole role) {
  return role == TILE_ROLE_INPUT ? "input"
         : role == TILE_ROLE_INOUT ? "inout"
                                   : "output";
}

/* Prints a status and the last error. */
static int report(const char *what, TileStatus status) {
  if (status != TILE_OK)
    printf("%s: status %d: %s\n", what, (int)status, tileLastError());
  return status == TILE_OK;
}

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  printf("version: %s\n", tileRuntimeVersion());
  // CHECK: version: {{[0-9]+\.[0-9]+\.[0-9]+}}

  /* A directory that is no artifact. */
  TileModule *bad = NULL;
  report("bad", tileModuleLoad("/nonexistent", TILE_PLATFORM_DEFAULT, 0, &bad));
  // CHECK: bad: status 2: {{.*}}/nonexistent{{.*}}
  report("hip", tileModuleLoad(argv[1], TILE_PLATFORM_HIP, 0, &bad));
  // CHECK: hip: status 2: the artifact is for cuda, not hip

  TileModule *m = NULL;
  if (!report("load", tileModuleLoad(argv[1], TILE_PLATFORM_DEFAULT, 0, &m)))
    return 0;
  printf("program %s on %s (%s)\n", tileModuleProgram(m),
         tileModuleDeviceName(m), tileModuleChip(m));
  // CHECK: program fake on Fake GPU (sm_90)

  int32_t n = tileModuleNumArguments(m);
  for (int32_t i = 0; i < n; ++i) {
    TileArgumentInfo info;
    if (!report("info", tileModuleArgumentInfo(m, i, &info)))
      return 1;
    printf("argument %d: %s %s dtype=%d shape=", i, info.name,
           roleName(info.role), (int)info.dtype);
    for (int32_t d = 0; d < info.rank; ++d)
      printf("%s%lld", d ? "x" : "", (long long)info.shape[d]);
    printf(" bytes=%llu\n", (unsigned long long)info.bytes);
  }
  // CHECK: argument 0: A input dtype=2 shape=4x8 bytes=128
  // CHECK: argument 1: B input dtype=2 shape=4x8 bytes=128
  // CHECK: argument 2: C output dtype=2 shape=4x8 bytes=128
  // CHECK: argument 3: Kc inout dtype=2 shape=8x4 bytes=128
  printf("find Kc=%d nope=%d\n", tileModuleFindArgument(m, "Kc"),
         tileModuleFindArgument(m, "nope"));
  // CHECK: find Kc=3 nope=-1
  TileArgumentInfo info;
  report("info 4", tileModuleArgumentInfo(m, 4, &info));
  // CHECK: info 4: status 1: tileModuleArgumentInfo: no argument #4 (the program has 4)

  /* Nothing runs before every argument is bound. */
  report("unbound", tileModuleRun(m, NULL));
  // CHECK: unbound: status 1: tileModuleRun: argument 'A' is not bound

  float a[32], b[32], c[32], kc[32];
  uint64_t pa, pb, pc, pk;
  for (int i = 0; i < 32; ++i) {
    a[i] = (float)i;
    b[i] = 0.5f;
    c[i] = 1000.0f; /* garbage the call must clear */
    kc[i] = (float)(i % 4);
  }
  if (!report("alloc", tileModuleAllocate(m, sizeof a, &pa)) ||
      !report("alloc", tileModuleAllocate(m, sizeof b, &pb)) ||
      !report("alloc", tileModuleAllocate(m, sizeof c, &pc)) ||
      !report("alloc", tileModuleAllocate(m, sizeof kc, &pk)) ||
      !report("copy", tileModuleCopyToDevice(m, pa, a, sizeof a)) ||
      !report("copy", tileModuleCopyToDevice(m, pb, b, sizeof b)) ||
      !report("copy", tileModuleCopyToDevice(m, pc, c, sizeof c)) ||
      !report("copy", tileModuleCopyToDevice(m, pk, kc, sizeof kc)))
    return 1;
  report("bind 7", tileModuleBind(m, 7, pa));
  // CHECK: bind 7: status 1: tileModuleBind: no argument #7 (the program has 4)
  report("bind null", tileModuleBind(m, 0, 0));
  // CHECK: bind null: status 1: tileModuleBind: argument 'A': a null buffer
  if (!report("bind", tileModuleBind(m, tileModuleFindArgument(m, "A"), pa)) ||
      !report("bind", tileModuleBind(m, tileModuleFindArgument(m, "B"), pb)) ||
      !report("bind", tileModuleBind(m, tileModuleFindArgument(m, "C"), pc)) ||
      !report("bind", tileModuleBind(m, tileModuleFindArgument(m, "Kc"), pk)))
    return 1;

  /* Two calls on the same bindings: the output is cleared by each (C is
   * A + B, not twice it), the inout is updated in place by each (row 1 of
   * Kc doubled twice). */
  for (int call = 1; call <= 2; ++call) {
    if (!report("run", tileModuleRun(m, NULL)) ||
        !report("sync", tileModuleSynchronize(m)) ||
        !report("read", tileModuleCopyToHost(m, c, pc, sizeof c)) ||
        !report("read", tileModuleCopyToHost(m, kc, pk, sizeof kc)))
      return 1;
    int cOk = 1, kOk = 1;
    for (int i = 0; i < 32; ++i) {
      cOk &= fabsf(c[i] - (a[i] + b[i])) == 0.0f;
      float k0 = (float)(i % 4);
      float want = i / 4 == 1 ? k0 * (float)(1 << call) : k0;
      kOk &= kc[i] == want;
    }
    printf("call %d: C %s, Kc %s\n", call, cOk ? "= A + B" : "WRONG",
           kOk ? "row 1 scaled in place" : "WRONG");
  }
  // CHECK: call 1: C = A + B, Kc row 1 scaled in place
  // CHECK: call 2: C = A + B, Kc row 1 scaled in place
  printf("last error after success: '%s'\n", tileLastError());
  // CHECK: last error after success: ''

  /* The same call in steps: clear, then each kernel by name. */
  int32_t kernels = tileModuleNumKernels(m);
  if (!report("clear", tileModuleClear(m, NULL)))
    return 1;
  for (int32_t k = 0; k < kernels; ++k) {
    printf("launch %d: %s\n", k, tileModuleKernelName(m, k));
    if (!report("launch", tileModuleLaunch(m, k, NULL)))
      return 1;
  }
  // CHECK: launch 0: accumulate_f32
  // CHECK: launch 1: scale_row
  if (!report("sync", tileModuleSynchronize(m)) ||
      !report("read", tileModuleCopyToHost(m, c, pc, sizeof c)))
    return 1;
  printf("steps: C[5] = %g\n", c[5]);
  // CHECK: steps: C[5] = 5.5
  report("launch 2", tileModuleLaunch(m, kernels, NULL));
  // CHECK: launch 2: status 1: tileModuleLaunch: no kernel #2 (the artifact launches 2)

  tileModuleDestroy(m);

  /* Outputs the module places (TileLoadOptions, C99 designated fields). */
  TileLoadOptions options = {.ownOutputs = 1};
  uint64_t owned = 0;
  if (!report("load owned",
              tileModuleLoadWithOptions(argv[1], TILE_PLATFORM_DEFAULT, 0,
                                        &options, &m)) ||
      !report("pointer", tileModuleArgumentPointer(m, 2, &owned)))
    return 1;
  printf("owned output: %s\n", owned ? "placed" : "unbound");
  // CHECK: owned output: placed
  tileModuleDestroy(m);
  tileModuleDestroy(NULL);
  printf("done\n");
  // CHECK: done
  return 0;
}
