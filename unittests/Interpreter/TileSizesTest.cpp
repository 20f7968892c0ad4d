//===- TileSizesTest.cpp - Default tile sizes -----------------------------===//

#include "InterpreterTestUtil.h"

using namespace mlir;
using namespace mlir::tileir;

namespace {

/// tile_a steps a loop over 48; tile_b loops over 12 and 64 (from 0 and from
/// 16); tile_c is declared but steps no loop; tile_d steps a loop of odd
/// range.
const char *kSizes = R"mlir(
tile.program @sizes(%A: !tile.tensor<80xf32, inout>) {
  %a = tile.var "a"
  %b = tile.var "b"
  %b2 = tile.var "b2"
  %d = tile.var "d"
  %tile_a = tile.size "tile_a"
  %tile_b = tile.size "tile_b"
  %tile_c = tile.size "tile_c"
  %tile_d = tile.size "tile_d"
  %c8 = tile.size 8
  %ta = tile.tile %a
  %tb = tile.tile %b
  %tb2 = tile.tile %b2
  %td = tile.tile %d
  %x = tile.load %A[%ta] : !tile.tensor<80xf32, inout> -> !tile.tile<[tile_a], f32>
  %sa = tile.store %x, %A[%ta] : !tile.tile<[tile_a], f32>, !tile.tensor<80xf32, inout>
  %la = tile.loop %a = 0 to 48 step %tile_a body %sa
  %y = tile.load %A[%tb] : !tile.tensor<80xf32, inout> -> !tile.tile<[tile_b], f32>
  %sb = tile.store %y, %A[%tb] : !tile.tile<[tile_b], f32>, !tile.tensor<80xf32, inout>
  %lb = tile.loop %b = 0 to 12 step %tile_b body %sb
  %y2 = tile.load %A[%tb2] : !tile.tensor<80xf32, inout> -> !tile.tile<[tile_b], f32>
  %sb2 = tile.store %y2, %A[%tb2] : !tile.tile<[tile_b], f32>, !tile.tensor<80xf32, inout>
  %lb2 = tile.loop %b2 = 16 to 80 step %tile_b body %sb2
  %z = tile.load %A[%td] : !tile.tensor<80xf32, inout> -> !tile.tile<[tile_d], f32>
  %sd = tile.store %z, %A[%td] : !tile.tile<[tile_d], f32>, !tile.tensor<80xf32, inout>
  %ld = tile.loop %d = 0 to 7 step %tile_d body %sd
  %s2 = tile.seq %lb2, %ld
  %s1 = tile.seq %lb, %s2
  %s0 = tile.seq %la, %s1
  tile.yield %s0
}
)mlir";

TEST_F(InterpreterTest, ChooseDefaultTileSizes) {
  ProgramOp program = parse(kSizes);
  ASSERT_TRUE(program);
  llvm::StringMap<int64_t> sizes = chooseDefaultTileSizes(program);
  EXPECT_EQ(sizes.size(), 4u);
  EXPECT_EQ(sizes.lookup("tile_a"), 16);
  EXPECT_EQ(sizes.lookup("tile_b"), 4);
  EXPECT_EQ(sizes.lookup("tile_c"), 32);
  EXPECT_EQ(sizes.lookup("tile_d"), 1);

  sizes = chooseDefaultTileSizes(program, /*cap=*/8);
  EXPECT_EQ(sizes.lookup("tile_a"), 8);
  EXPECT_EQ(sizes.lookup("tile_b"), 4);
  EXPECT_EQ(sizes.lookup("tile_c"), 8);

  // A cap that is not a power of two rounds down; below 1 gives 1.
  sizes = chooseDefaultTileSizes(program, /*cap=*/100);
  EXPECT_EQ(sizes.lookup("tile_a"), 16);
  EXPECT_EQ(sizes.lookup("tile_c"), 64);
  sizes = chooseDefaultTileSizes(program, /*cap=*/0);
  EXPECT_EQ(sizes.lookup("tile_a"), 1);
  EXPECT_EQ(sizes.lookup("tile_c"), 1);

  // The defaults are valid bindings.
  std::vector<HostTensor> tensors = makeTensors(program);
  EXPECT_TRUE(succeeded(
      run(program, tensors, Precision::F64, chooseDefaultTileSizes(program))))
      << diagnostics;
}

} // namespace
