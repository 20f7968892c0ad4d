//===- GPUConfigTest.cpp - #tile.gpu_config fields and overrides ----------===//

#include "TileDialect/IR/TileAttrs.h"
#include "TileDialect/IR/TileDialect.h"

#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tileir;

namespace {

class GPUConfigTest : public ::testing::Test {
protected:
  GPUConfigTest() { context.loadDialect<TileDialect>(); }

  GPUConfigAttr parse(StringRef text) {
    std::string error;
    FailureOr<GPUConfigAttr> config =
        GPUConfigAttr::parseBody(&context, text, error);
    EXPECT_TRUE(succeeded(config)) << error;
    return succeeded(config) ? *config : GPUConfigAttr();
  }

  MLIRContext context;
};

TEST_F(GPUConfigTest, UnsetFieldsTakeTheirDefaults) {
  GPUConfigAttr config = GPUConfigAttr::get(&context);
  EXPECT_EQ(config.getMaxTileSize(), 32);
  EXPECT_EQ(config.getSplitK(), 1);
  EXPECT_FALSE(config.getMma());
  EXPECT_TRUE(config.getElementLoops());
  EXPECT_FALSE(config.isSet("split_k"));
  EXPECT_EQ(config.getBody(), "");
  // Every knob of the table has its default through the accessors: spot
  // checks of both kinds against the table itself.
  for (const GPUConfigKnob &knob : getGPUConfigKnobs()) {
    if (knob.key == "k_slices")
      EXPECT_EQ(config.getKSlices(), knob.defaultValue);
    if (knob.key == "warp_loops")
      EXPECT_EQ(config.getWarpLoops(), knob.defaultValue != 0);
  }
}

TEST_F(GPUConfigTest, BodyRoundTrips) {
  GPUConfigAttr config =
      parse("{tile_sizes = {tile_i0 = 16}, mma = true, split_k = 8}");
  EXPECT_EQ(config.getBody(),
            "split_k = 8, mma = true, tile_sizes = {tile_i0 = 16}");
  EXPECT_EQ(parse(config.getBody()), config);
  EXPECT_EQ(parse("\"mma = true\""), parse("mma = true"));
}

TEST_F(GPUConfigTest, OverridesFieldByField) {
  GPUConfigAttr strategy =
      parse("mma = true, split_k = 8, tile_sizes = {a = 16, b = 32}");
  GPUConfigAttr given = parse("mma = false, tile_sizes = {b = 64}");
  GPUConfigAttr merged = strategy.overriddenBy(given);
  // A field set to its default still overrides.
  EXPECT_FALSE(merged.getMma());
  EXPECT_TRUE(merged.isSet("mma"));
  EXPECT_EQ(merged.getSplitK(), 8);
  EXPECT_EQ(merged.getTileSizes().getAs<IntegerAttr>("a").getInt(), 16);
  EXPECT_EQ(merged.getTileSizes().getAs<IntegerAttr>("b").getInt(), 64);
  EXPECT_EQ(strategy.overriddenBy(GPUConfigAttr()), strategy);
}

TEST_F(GPUConfigTest, WithAndWithout) {
  GPUConfigAttr config = GPUConfigAttr::get(&context).with("k_slices", 4);
  EXPECT_EQ(config.getKSlices(), 4);
  EXPECT_EQ(config.withDefault("k_slices", 2).getKSlices(), 4);
  EXPECT_EQ(config.withDefault("split_k", 2).getSplitK(), 2);
  EXPECT_FALSE(config.without("k_slices").isSet("k_slices"));
  EXPECT_TRUE(config.with("tf32", true).getTf32());
}

TEST_F(GPUConfigTest, RejectsBadText) {
  std::string error;
  EXPECT_TRUE(failed(GPUConfigAttr::parseBody(&context, "split_k = ", error)));
  EXPECT_NE(error.find("invalid gpu config"), std::string::npos);
  EXPECT_TRUE(
      failed(GPUConfigAttr::parseBody(&context, "mma = true) x", error)));
  EXPECT_TRUE(failed(GPUConfigAttr::parseBody(&context, "nope = 1", error)));
  EXPECT_NE(error.find("no field 'nope'"), std::string::npos);
}

} // namespace
