//===- CAPITest.cpp - The runtime C API on the fake CUDA driver -----------===//
//
// tile-c/Runtime.h against test/lib/FakeCuda (a host-only libcuda.so.1,
// loaded first so that the runtime's dlopen finds it by its soname) and the
// artifact test/Runtime/Inputs/fake, whose first kernel accumulates
// (C += A + B) so that a call that did not clear its output shows: load,
// query, bind, run, reuse, and every error path with its status and
// message.
//
//===----------------------------------------------------------------------===//

#include "tile-c/Runtime.h"

#include "TempDir.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdlib>
#include <dlfcn.h>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

/// The fake artifact in a temporary directory, its first kernel the
/// accumulating one.
struct FakeArtifact {
  mlir::tileir::testing::TempDir dir;
  const std::string &path = dir.path;
  FakeArtifact() {
    EXPECT_EQ(std::system(("cp -r " TILE_FAKE_ARTIFACT "/. " + path).c_str()),
              0);
    std::ifstream in(path + "/manifest.txt");
    std::stringstream text;
    text << in.rdbuf();
    std::string manifest = text.str();
    size_t at = manifest.find("kernel add_f32 ");
    EXPECT_NE(at, std::string::npos);
    manifest.replace(at, 15, "kernel accumulate_f32 ");
    std::ofstream(path + "/manifest.txt") << manifest;
  }
};

class CAPITest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    // The runtime opens "libcuda.so.1": already loaded, it is this one.
    ASSERT_NE(dlopen(TILE_FAKE_CUDA, RTLD_NOW | RTLD_GLOBAL), nullptr)
        << dlerror();
  }

  TileModule *load() {
    TileModule *module = nullptr;
    EXPECT_EQ(tileModuleLoad(artifact.path.c_str(), TILE_PLATFORM_DEFAULT, 0,
                             &module),
              TILE_OK)
        << tileLastError();
    return module;
  }

  /// A device buffer of the module holding `values`.
  uint64_t upload(TileModule *module, const std::vector<float> &values) {
    uint64_t ptr = 0;
    uint64_t bytes = values.size() * sizeof(float);
    EXPECT_EQ(tileModuleAllocate(module, bytes, &ptr), TILE_OK);
    EXPECT_EQ(tileModuleCopyToDevice(module, ptr, values.data(), bytes),
              TILE_OK);
    return ptr;
  }

  std::vector<float> download(TileModule *module, uint64_t ptr, size_t n) {
    std::vector<float> values(n);
    EXPECT_EQ(tileModuleCopyToHost(module, values.data(), ptr,
                                   n * sizeof(float)),
              TILE_OK);
    return values;
  }

  FakeArtifact artifact;
};

TEST_F(CAPITest, LoadAndQuery) {
  TileModule *m = load();
  ASSERT_NE(m, nullptr);
  EXPECT_STREQ(tileModuleProgram(m), "fake");
  EXPECT_STREQ(tileModuleDeviceName(m), "Fake GPU");
  EXPECT_STREQ(tileModuleChip(m), "sm_90");
  ASSERT_EQ(tileModuleNumArguments(m), 4);
  const char *names[] = {"A", "B", "C", "Kc"};
  TileRole roles[] = {TILE_ROLE_INPUT, TILE_ROLE_INPUT, TILE_ROLE_OUTPUT,
                      TILE_ROLE_INOUT};
  for (int32_t i = 0; i < 4; ++i) {
    TileArgumentInfo info;
    ASSERT_EQ(tileModuleArgumentInfo(m, i, &info), TILE_OK);
    EXPECT_STREQ(info.name, names[i]);
    EXPECT_EQ(info.role, roles[i]);
    EXPECT_EQ(info.dtype, TILE_DTYPE_F32);
    ASSERT_EQ(info.rank, 2);
    EXPECT_EQ(info.shape[0] * info.shape[1], 32);
    EXPECT_EQ(info.bytes, 128u);
    EXPECT_EQ(tileModuleFindArgument(m, names[i]), i);
  }
  EXPECT_EQ(tileModuleFindArgument(m, "nope"), -1);
  tileModuleDestroy(m);
}

TEST_F(CAPITest, RunAndReuse) {
  TileModule *m = load();
  ASSERT_NE(m, nullptr);
  std::vector<float> a(32), b(32, 0.5f), garbage(32, 1000.0f), kc(32);
  for (int i = 0; i < 32; ++i) {
    a[i] = float(i);
    kc[i] = float(i % 4);
  }
  uint64_t pa = upload(m, a), pb = upload(m, b), pc = upload(m, garbage),
           pk = upload(m, kc);
  for (auto [name, ptr] : {std::pair{"A", pa}, {"B", pb}, {"C", pc},
                           {"Kc", pk}})
    ASSERT_EQ(tileModuleBind(m, tileModuleFindArgument(m, name), ptr),
              TILE_OK);
  // Each call clears the output before accumulating into it (C = A + B,
  // not 1000 + A + B, nor twice A + B on the second call) and updates the
  // inout in place (row 1 of Kc doubled once per call).
  for (int call = 1; call <= 3; ++call) {
    ASSERT_EQ(tileModuleRun(m, nullptr), TILE_OK) << tileLastError();
    ASSERT_EQ(tileModuleSynchronize(m), TILE_OK);
    std::vector<float> c = download(m, pc, 32), k = download(m, pk, 32);
    for (int i = 0; i < 32; ++i) {
      EXPECT_EQ(c[i], a[i] + b[i]) << "call " << call << ", element " << i;
      float want = i / 4 == 1 ? kc[i] * float(1 << call) : kc[i];
      EXPECT_EQ(k[i], want) << "call " << call << ", element " << i;
    }
  }
  EXPECT_STREQ(tileLastError(), "");
  // Rebinding the output to a fresh buffer: the next call writes there.
  uint64_t other = upload(m, garbage);
  ASSERT_EQ(tileModuleBind(m, 2, other), TILE_OK);
  ASSERT_EQ(tileModuleRun(m, nullptr), TILE_OK);
  ASSERT_EQ(tileModuleSynchronize(m), TILE_OK);
  EXPECT_EQ(download(m, other, 32)[5], a[5] + b[5]);
  tileModuleDestroy(m);
}

TEST_F(CAPITest, CallInSteps) {
  // tileModuleClear then each tileModuleLaunch, as tile-gpu-run calls them,
  // on outputs the module places (ownOutputs): the same results as
  // tileModuleRun, and the outputs need no binding.
  TileLoadOptions options{};
  options.ownOutputs = 1;
  options.plainLaunches = 1;
  TileModule *m = nullptr;
  ASSERT_EQ(tileModuleLoadWithOptions(artifact.path.c_str(),
                                      TILE_PLATFORM_DEFAULT, 0, &options, &m),
            TILE_OK)
      << tileLastError();
  ASSERT_EQ(tileModuleNumKernels(m), 2);
  EXPECT_STREQ(tileModuleKernelName(m, 0), "accumulate_f32");
  EXPECT_STREQ(tileModuleKernelName(m, 1), "scale_row");
  EXPECT_STREQ(tileModuleKernelName(m, 2), "");
  EXPECT_STREQ(tileModuleKernelName(m, -1), "");
  uint64_t pc = 0;
  ASSERT_EQ(tileModuleArgumentPointer(m, 2, &pc), TILE_OK);
  EXPECT_NE(pc, 0u);
  // The inputs are unbound: their pointers are 0, and nothing launches.
  uint64_t pa = 1;
  ASSERT_EQ(tileModuleArgumentPointer(m, 0, &pa), TILE_OK);
  EXPECT_EQ(pa, 0u);
  EXPECT_EQ(tileModuleLaunch(m, 0, nullptr), TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(tileLastError(), "tileModuleLaunch: argument 'A' is not bound");
  EXPECT_EQ(tileModuleClear(m, nullptr), TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(tileLastError(), "tileModuleClear: argument 'A' is not bound");
  std::vector<float> a(32), b(32, 0.25f), kc(32, 1.5f);
  for (int i = 0; i < 32; ++i)
    a[i] = float(i);
  pa = upload(m, a);
  uint64_t pb = upload(m, b), pk = upload(m, kc);
  ASSERT_EQ(tileModuleBind(m, 0, pa), TILE_OK);
  ASSERT_EQ(tileModuleBind(m, 1, pb), TILE_OK);
  ASSERT_EQ(tileModuleBind(m, 3, pk), TILE_OK);
  for (int call = 1; call <= 2; ++call) {
    ASSERT_EQ(tileModuleClear(m, nullptr), TILE_OK) << tileLastError();
    for (int32_t k = 0; k < tileModuleNumKernels(m); ++k)
      ASSERT_EQ(tileModuleLaunch(m, k, nullptr), TILE_OK) << tileLastError();
    ASSERT_EQ(tileModuleSynchronize(m), TILE_OK);
    std::vector<float> c = download(m, pc, 32), k = download(m, pk, 32);
    for (int i = 0; i < 32; ++i) {
      EXPECT_EQ(c[i], a[i] + b[i]) << "call " << call << ", element " << i;
      EXPECT_EQ(k[i], i / 4 == 1 ? 1.5f * float(1 << call) : 1.5f)
          << "call " << call << ", element " << i;
    }
  }
  EXPECT_EQ(tileModuleLaunch(m, 2, nullptr), TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(tileLastError(),
               "tileModuleLaunch: no kernel #2 (the artifact launches 2)");
  EXPECT_EQ(tileModuleArgumentPointer(m, 4, &pc), TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tileModuleArgumentPointer(m, 0, nullptr),
            TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tileModuleLaunch(nullptr, 0, nullptr),
            TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tileModuleNumKernels(nullptr), 0);
  tileModuleDestroy(m);
}

TEST_F(CAPITest, CallerOutputsByDefault) {
  // Without ownOutputs (tileModuleLoad, or null options) the outputs are
  // the caller's: unbound until bound.
  TileModule *m = nullptr;
  ASSERT_EQ(tileModuleLoadWithOptions(artifact.path.c_str(),
                                      TILE_PLATFORM_DEFAULT, 0, nullptr, &m),
            TILE_OK);
  uint64_t pc = 1;
  ASSERT_EQ(tileModuleArgumentPointer(m, 2, &pc), TILE_OK);
  EXPECT_EQ(pc, 0u);
  tileModuleDestroy(m);
}

TEST_F(CAPITest, Errors) {
  TileModule *m = nullptr;
  EXPECT_EQ(tileModuleLoad("/nonexistent", TILE_PLATFORM_DEFAULT, 0, &m),
            TILE_ERROR_BAD_ARTIFACT);
  EXPECT_NE(std::string(tileLastError()).find("/nonexistent"),
            std::string::npos);
  EXPECT_EQ(m, nullptr);
  EXPECT_EQ(tileModuleLoad(artifact.path.c_str(), TILE_PLATFORM_HIP, 0, &m),
            TILE_ERROR_BAD_ARTIFACT);
  EXPECT_STREQ(tileLastError(), "the artifact is for cuda, not hip");

  m = load();
  ASSERT_NE(m, nullptr);
  TileArgumentInfo info;
  EXPECT_EQ(tileModuleArgumentInfo(m, 4, &info), TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(tileLastError(),
               "tileModuleArgumentInfo: no argument #4 (the program has 4)");
  EXPECT_EQ(tileModuleRun(m, nullptr), TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(tileLastError(), "tileModuleRun: argument 'A' is not bound");
  EXPECT_EQ(tileModuleBind(m, 7, 64), TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(tileLastError(),
               "tileModuleBind: no argument #7 (the program has 4)");
  EXPECT_EQ(tileModuleBind(m, 0, 0), TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(tileLastError(), "tileModuleBind: argument 'A': a null buffer");
  // A success clears the thread's last error.
  EXPECT_EQ(tileModuleSynchronize(m), TILE_OK);
  EXPECT_STREQ(tileLastError(), "");
  tileModuleDestroy(m);
  tileModuleDestroy(nullptr);
}

TEST_F(CAPITest, NoDevice) {
  setenv("FAKE_CUDA_DEVICES", "0", 1);
  TileModule *m = nullptr;
  TileStatus status =
      tileModuleLoad(artifact.path.c_str(), TILE_PLATFORM_DEFAULT, 0, &m);
  unsetenv("FAKE_CUDA_DEVICES");
  EXPECT_EQ(status, TILE_ERROR_NO_DEVICE);
  EXPECT_STREQ(tileLastError(), "no CUDA device");
  EXPECT_EQ(m, nullptr);
}

} // namespace
