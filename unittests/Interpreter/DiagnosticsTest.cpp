//===- DiagnosticsTest.cpp - What the interpreter reports -----------------===//

#include "InterpreterTestUtil.h"

using namespace mlir;
using namespace mlir::tileir;

namespace {

/// O[tile i] = A[tile i] over [0, 8) by tile_i.
const char *kCopy = R"mlir(
tile.program @copy(%A: !tile.tensor<8xf32, input>,
                   %O: !tile.tensor<8xf32, output>) {
  %i = tile.var "i"
  %tile_i = tile.size "tile_i"
  %ti = tile.tile %i
  %a = tile.load %A[%ti] : !tile.tensor<8xf32, input> -> !tile.tile<[tile_i], f32>
  %s = tile.store %a, %O[%ti] : !tile.tile<[tile_i], f32>, !tile.tensor<8xf32, output>
  %l = tile.loop %i = 0 to 8 step %tile_i body %s
  tile.yield %l
}
)mlir";

/// Fails `program` with `sizes` and returns the diagnostics; the output
/// must stay untouched (everything is checked before anything runs).
class DiagnosticsTest : public InterpreterTest {
public:
  std::string fail(const char *source, llvm::StringMap<int64_t> sizes) {
    ProgramOp program = parse(source);
    if (!program)
      return "";
    std::vector<HostTensor> tensors = makeTensors(program);
    for (HostTensor &tensor : tensors)
      std::fill(tensor.data.begin(), tensor.data.end(), 1.0);
    EXPECT_TRUE(failed(run(program, tensors, Precision::F64, sizes)));
    for (HostTensor &tensor : tensors)
      for (double v : tensor.data)
        EXPECT_EQ(v, 1.0) << "tensor " << tensor.name << " was written";
    return diagnostics;
  }
};

TEST_F(DiagnosticsTest, UnboundTileSize) {
  std::string diag = fail(kCopy, {});
  EXPECT_NE(diag.find("'tile.size' op tile size 'tile_i' has no value; bind "
                      "it in TileInterpreterOptions::tileSizes "
                      "(chooseDefaultTileSizes picks defaults)"),
            std::string::npos)
      << diag;
  EXPECT_NE(diag.find("note: needed here"), std::string::npos) << diag;
  // Another size does not help.
  diag = fail(kCopy, {{"tile_j", 4}});
  EXPECT_NE(diag.find("tile size 'tile_i' has no value"), std::string::npos)
      << diag;
}

TEST_F(DiagnosticsTest, NonPositiveTileSize) {
  std::string diag = fail(kCopy, {{"tile_i", 0}});
  EXPECT_NE(diag.find("tile size 'tile_i' must be positive, got 0"),
            std::string::npos)
      << diag;
}

TEST_F(DiagnosticsTest, TileSizeMustDivideTheLoopRange) {
  std::string diag = fail(kCopy, {{"tile_i", 3}});
  EXPECT_NE(diag.find("'tile.loop' op step 3 does not divide the range "
                      "[0, 8) (tile size 'tile_i')"),
            std::string::npos)
      << diag;
}

/// `tile.elem` with a symbolic step leaves the tensor when the step is too
/// small: with c stepping by 2 over [0, 16), elem c reaches 7, but O has 4
/// rows.
TEST_F(DiagnosticsTest, OutOfBoundsAccess) {
  const char *source = R"mlir(
tile.program @heads(%A: !tile.tensor<2x16xf32, input>,
                    %O: !tile.tensor<2x4xf32, output>) {
  %c = tile.var "c"
  %tile_c = tile.size "tile_c"
  %full = tile.full
  %tc = tile.tile %c
  %ec = tile.elem %c
  %a = tile.load %A[%full, %tc] : !tile.tensor<2x16xf32, input> -> !tile.tile<[2, tile_c], f32>
  %r = tile.rmax %a, 1 : !tile.tile<[2, tile_c], f32> -> !tile.tile<[2], f32>
  %r1 = tile.unsqueeze %r, 1 : !tile.tile<[2], f32> -> !tile.tile<[2, 1], f32>
  %s = tile.store %r1, %O[%full, %ec] : !tile.tile<[2, 1], f32>, !tile.tensor<2x4xf32, output>
  %l = tile.loop %c = 0 to 16 step %tile_c body %s
  tile.yield %l
}
)mlir";
  std::string diag = fail(source, {{"tile_c", 2}});
  EXPECT_NE(diag.find("'tile.store' op access [7, 8) of dimension 1 is out "
                      "of bounds for tensor 'O' of extent 4 (loop variable "
                      "'c' = 14, step 2)"),
            std::string::npos)
      << diag;
  // With a step of 4 the rows are 0..3: it runs.
  ProgramOp program = parse(source);
  ASSERT_TRUE(program);
  std::vector<HostTensor> tensors = makeTensors(program);
  std::vector<double> &a = get(tensors, "A").data;
  for (size_t i = 0; i < a.size(); ++i)
    a[i] = static_cast<double>(i);
  ASSERT_TRUE(succeeded(run(program, tensors, Precision::F64, {{"tile_c", 4}})))
      << diagnostics;
  EXPECT_EQ(get(tensors, "O").data,
            (std::vector<double>{3, 7, 11, 15, 19, 23, 27, 31}));
}

TEST_F(DiagnosticsTest, TensorsMustMatchTheProgram) {
  ProgramOp program = parse(kCopy);
  ASSERT_TRUE(program);
  std::vector<HostTensor> tensors = makeTensors(program);
  tensors.pop_back();
  EXPECT_TRUE(failed(run(program, tensors, Precision::F64, {{"tile_i", 4}})));
  EXPECT_NE(diagnostics.find("declares 2 tensors but the interpreter was "
                             "given 1"),
            std::string::npos)
      << diagnostics;

  tensors = makeTensors(program);
  tensors[1] = HostTensor("O", {4}, ElementKind::F32);
  EXPECT_TRUE(failed(run(program, tensors, Precision::F64, {{"tile_i", 4}})));
  EXPECT_NE(diagnostics.find("tensor 'O' is declared with shape [8] but was "
                             "given shape [4]"),
            std::string::npos)
      << diagnostics;

  tensors = makeTensors(program);
  tensors[0].elementKind = ElementKind::F16;
  EXPECT_TRUE(failed(run(program, tensors, Precision::F64, {{"tile_i", 4}})));
  EXPECT_NE(diagnostics.find("tensor 'A' is declared with element type f32 "
                             "but was given f16 data"),
            std::string::npos)
      << diagnostics;
}

} // namespace
