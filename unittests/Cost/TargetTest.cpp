//===- TargetTest.cpp - Target descriptions -------------------------------===//

#include "TileDialect/Cost/Target.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace mlir::tileir;

namespace {

TEST(TargetTest, BundledTargetsAreKnown) {
  llvm::SmallVector<std::string> names = knownTargetNames();
  for (const char *name : {"gfx942", "sm_80", "sm_89", "sm_90", "sm_90_h200"})
    EXPECT_TRUE(llvm::is_contained(names, name)) << name;
}

TEST(TargetTest, H100Numbers) {
  llvm::Expected<TargetDesc> t = getTarget("sm_90");
  ASSERT_TRUE(bool(t)) << llvm::toString(t.takeError());
  EXPECT_EQ(t->computeUnits, 132u);
  EXPECT_EQ(t->sharedMemoryPerCU, 228u * 1024);
  EXPECT_EQ(t->registersPerCU, 256u * 1024);
  EXPECT_EQ(t->warpSize, 32u);
  EXPECT_DOUBLE_EQ(t->hbmBandwidth, 3.35e12);
  EXPECT_DOUBLE_EQ(t->matrixPeak, 989e12);
  EXPECT_DOUBLE_EQ(t->launchOverhead, 1e-6);
}

TEST(TargetTest, AliasesFindTheSameTarget) {
  llvm::Expected<TargetDesc> h200 = getTarget("h200");
  ASSERT_TRUE(bool(h200)) << llvm::toString(h200.takeError());
  EXPECT_EQ(h200->name, "sm_90_h200");
  EXPECT_DOUBLE_EQ(h200->hbmBandwidth, 4.8e12);
  llvm::Expected<TargetDesc> mi300 = getTarget("mi300x");
  ASSERT_TRUE(bool(mi300)) << llvm::toString(mi300.takeError());
  EXPECT_EQ(mi300->name, "gfx942");
  EXPECT_EQ(mi300->warpSize, 64u);
}

TEST(TargetTest, UnknownNameListsKnownTargets) {
  llvm::Expected<TargetDesc> t = getTarget("sm_100");
  ASSERT_FALSE(bool(t));
  std::string message = llvm::toString(t.takeError());
  EXPECT_NE(message.find("unknown target 'sm_100'"), std::string::npos);
  EXPECT_NE(message.find("gfx942 (AMD Instinct MI300X)"), std::string::npos);
  EXPECT_NE(message.find("sm_80"), std::string::npos);
}

TEST(TargetTest, ParseErrorsNameTheProblem) {
  llvm::Expected<TargetDesc> t = parseTarget("[1]", "x.json");
  ASSERT_FALSE(bool(t));
  EXPECT_EQ(llvm::toString(t.takeError()), "x.json: expected a JSON object");

  t = parseTarget(R"({"name": "a", "cu": 3})", "y.json");
  ASSERT_FALSE(bool(t));
  EXPECT_EQ(llvm::toString(t.takeError()), "y.json: unknown key 'cu'");

  t = parseTarget(R"({"name": "a", "device": "d", "vendor": "v"})", "z.json");
  ASSERT_FALSE(bool(t));
  EXPECT_EQ(llvm::toString(t.takeError()),
            "z.json: missing number 'compute_units'");
}

TEST(TargetTest, LoadsADescriptionFromAFile) {
  llvm::SmallString<64> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("tile-target", "json", path));
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    ASSERT_FALSE(ec);
    os << R"({"name": "toy", "device": "Toy GPU", "vendor": "none",
      "compute_units": 4, "shared_memory_per_cu_kib": 64,
      "registers_per_cu_kib": 64, "max_threads_per_cu": 1024,
      "warp_size": 32, "hbm_bandwidth_gbps": 100, "l2_size_mib": 1,
      "l2_bandwidth_gbps": 400, "matrix_peak_tflops": 10,
      "vector_peak_tflops": 1, "launch_overhead_us": 5})";
  }
  llvm::Expected<TargetDesc> t = resolveTarget(path);
  llvm::sys::fs::remove(path);
  ASSERT_TRUE(bool(t)) << llvm::toString(t.takeError());
  EXPECT_EQ(t->name, "toy");
  EXPECT_EQ(t->computeUnits, 4u);
  EXPECT_EQ(t->defaultTileSize, 0);
  EXPECT_DOUBLE_EQ(t->hbmBandwidth, 1e11);

  llvm::Expected<TargetDesc> missing = resolveTarget("/nonexistent/t.json");
  ASSERT_FALSE(bool(missing));
  EXPECT_NE(llvm::toString(missing.takeError()).find("cannot read target file"),
            std::string::npos);
}

} // namespace
