//===- CostModelTest.cpp - Roofline cost model on small programs ----------===//

#include "TileDialect/Cost/CostModel.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tileir;

namespace {

class CostModelTest : public ::testing::Test {
protected:
  CostModelTest() {
    context.loadDialect<TileDialect>();
    // Round numbers, so that times are easy to check by hand.
    toy.name = "toy";
    toy.device = "Toy GPU";
    toy.computeUnits = 4;
    toy.hbmBandwidth = 1e9; // 1 byte = 1 ns
    toy.l2Bandwidth = 4e9;
    toy.l2Size = 1 << 20;
    toy.matrixPeak = 1e12;
    toy.vectorPeak = 1e10;
    toy.launchOverhead = 1e-6;
    toy.defaultTileSize = 128;
  }

  ProgramOp parse(llvm::StringRef source) {
    std::string errors;
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      errors += diag.str() + "\n";
      return success();
    });
    module = parseSourceString<ModuleOp>(source, ParserConfig(&context));
    EXPECT_TRUE(module) << errors;
    if (!module)
      return {};
    return *module->getBody()->getOps<ProgramOp>().begin();
  }

  /// Estimates `source` with `sizes`; fails the test on an error.
  ProgramCost run(llvm::StringRef source, const TileSizeAssignment &sizes) {
    ProgramOp program = parse(source);
    if (!program)
      return {};
    FailureOr<ProgramCost> cost = estimate(program, toy, sizes);
    EXPECT_TRUE(succeeded(cost));
    return succeeded(cost) ? *cost : ProgramCost();
  }

  /// The error `estimate` reports for `source`.
  std::string error(llvm::StringRef source, const TileSizeAssignment &sizes) {
    ProgramOp program = parse(source);
    std::string message;
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      message += diag.str();
      return success();
    });
    EXPECT_TRUE(failed(estimate(program, toy, sizes)));
    return message;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  TargetDesc toy;
};

// B = exp(A) over 1024 floats in tiles of 128: one kernel, grid 8.
constexpr llvm::StringLiteral kExp = R"mlir(
tile.program @exp(%A: !tile.tensor<1024xf32, input>,
                  %B: !tile.tensor<1024xf32, output>) {
  %i = tile.var "i"
  %ti = tile.size "tile_i"
  %t = tile.tile %i
  %a = tile.load %A[%t] : !tile.tensor<1024xf32, input> -> !tile.tile<[tile_i], f32>
  %e = tile.exp %a : !tile.tile<[tile_i], f32>
  %s = tile.store %e, %B[%t] : !tile.tile<[tile_i], f32>, !tile.tensor<1024xf32, output>
  %l = tile.loop %i = 0 to 1024 step %ti body %s
  tile.yield %l
}
)mlir";

TEST_F(CostModelTest, ElementwiseKernel) {
  ProgramCost cost = run(kExp, {{"tile_i", 128}});
  ASSERT_EQ(cost.numKernels(), 1u);
  const KernelCost &k = cost.kernels[0];
  EXPECT_EQ(k.label, "loop i");
  EXPECT_EQ(k.gridSize, 8u);
  EXPECT_EQ(k.waves, 2u);
  EXPECT_DOUBLE_EQ(k.gridEfficiency, 1.0);
  EXPECT_EQ(k.hbmReadBytes, 4096u);
  EXPECT_EQ(k.hbmWriteBytes, 4096u);
  EXPECT_EQ(k.l2HitBytes, 0u);
  EXPECT_EQ(k.onChipBytes, 0u);
  EXPECT_EQ(k.matrixFlops, 0u);
  EXPECT_EQ(k.vectorFlops, 4u * 1024); // exp weighs 4
  // 8192 B at 1 GB/s = 8.192 us; compute 4096 / 1e10 s = 0.41 us.
  EXPECT_NEAR(k.hbmUs, 8.192, 1e-9);
  EXPECT_NEAR(k.timeUs, 1.0 + 8.192, 1e-9);
  EXPECT_EQ(k.limiter, Limiter::Hbm);
  EXPECT_EQ(cost.sizes.size(), 1u);
  EXPECT_EQ(cost.sizes[0].second, 128);
}

TEST_F(CostModelTest, GridFill) {
  // Grid 8 on 3 units: 3 waves, 8 of 9 block slots busy. 8/9 of the L2
  // bandwidth (4 GB/s) still exceeds HBM's 1 GB/s: no slower.
  toy.computeUnits = 3;
  const KernelCost k = run(kExp, {{"tile_i", 128}}).kernels[0];
  EXPECT_EQ(k.waves, 3u);
  EXPECT_DOUBLE_EQ(k.gridEfficiency, 8.0 / 9.0);
  EXPECT_NEAR(k.timeUs, 1.0 + 8.192, 1e-9);
  EXPECT_EQ(k.limiter, Limiter::Hbm);
  // Grid 2 on 32 units: the two busy units pull 2/32 of 4 GB/s = 0.25 GB/s.
  toy.computeUnits = 32;
  const KernelCost tiny = run(kExp, {{"tile_i", 512}}).kernels[0];
  EXPECT_EQ(tiny.gridSize, 2u);
  EXPECT_DOUBLE_EQ(tiny.gridEfficiency, 1.0 / 16);
  EXPECT_NEAR(tiny.hbmUs, 8192 / 0.25e9 * 1e6, 1e-9);
  EXPECT_NEAR(tiny.timeUs, 1.0 + 32.768, 1e-9);
  EXPECT_EQ(tiny.limiter, Limiter::Occupancy);
}

// C[64, 128] = A[64, 256] @ B[256, 128], accumulated over k.
constexpr llvm::StringLiteral kMatmul = R"mlir(
tile.program @mm(%A: !tile.tensor<64x256xf16, input>,
                 %B: !tile.tensor<256x128xf16, input>,
                 %C: !tile.tensor<64x128xf32, output>) {
  %i = tile.var "i"
  %j = tile.var "j"
  %k = tile.var "k"
  %tm = tile.size "tile_m"
  %tn = tile.size "tile_n"
  %tk = tile.size "tile_k"
  %ti = tile.tile %i
  %tj = tile.tile %j
  %tkk = tile.tile %k
  %a = tile.load %A[%ti, %tkk] : !tile.tensor<64x256xf16, input> -> !tile.tile<[tile_m, tile_k], f16>
  %b = tile.load %B[%tkk, %tj] : !tile.tensor<256x128xf16, input> -> !tile.tile<[tile_k, tile_n], f16>
  %c = tile.load %C[%ti, %tj] : !tile.tensor<64x128xf32, output> -> !tile.tile<[tile_m, tile_n], f32>
  %ab = tile.matmul %a, %b : !tile.tile<[tile_m, tile_k], f16>, !tile.tile<[tile_k, tile_n], f16> -> !tile.tile<[tile_m, tile_n], f32>
  %sum = tile.add %c, %ab : !tile.tile<[tile_m, tile_n], f32>
  %s = tile.store %sum, %C[%ti, %tj] : !tile.tile<[tile_m, tile_n], f32>, !tile.tensor<64x128xf32, output>
  %lk = tile.loop %k = 0 to 256 step %tk body %s
  %lj = tile.loop %j = 0 to 128 step %tn body %lk
  %li = tile.loop %i = 0 to 64 step %tm body %lj
  tile.yield %li
}
)mlir";

TEST_F(CostModelTest, Matmul) {
  ProgramCost cost =
      run(kMatmul, {{"tile_m", 32}, {"tile_n", 64}, {"tile_k", 128}});
  ASSERT_EQ(cost.numKernels(), 1u);
  const KernelCost &k = cost.kernels[0];
  // i and j are parallel, the k loop accumulates.
  EXPECT_EQ(k.gridLoops, (llvm::SmallVector<std::string, 2>{"i", "j"}));
  EXPECT_EQ(k.gridSize, 4u);
  // A is read once per j block, B once per i block: 2 x 32 KiB + 2 x 64 KiB.
  EXPECT_EQ(k.hbmReadBytes, 2u * 64 * 256 * 2 + 2u * 256 * 128 * 2);
  // The re-reads hit L2.
  EXPECT_EQ(k.l2HitBytes, 64u * 256 * 2 + 256u * 128 * 2);
  // C is written once per block; its accumulator load stays on chip.
  EXPECT_EQ(k.hbmWriteBytes, 64u * 128 * 4);
  EXPECT_EQ(k.onChipBytes, 64u * 128 * 4);
  EXPECT_EQ(k.matrixFlops, 2u * 64 * 128 * 256);
  EXPECT_EQ(k.vectorFlops, 64u * 128 * 2); // the add, once per k step
  EXPECT_EQ(cost.matrixFlops, k.matrixFlops);
}

// T = exp(A); B = T * T, as two kernels (T goes through HBM) or one.
constexpr llvm::StringLiteral kTwoKernels = R"mlir(
tile.program @two(%A: !tile.tensor<256xf32, input>,
                  %T: !tile.tensor<256xf32, intermediate>,
                  %B: !tile.tensor<256xf32, output>) {
  %i = tile.var "i"
  %ti = tile.size "tile_i"
  %t = tile.tile %i
  %a = tile.load %A[%t] : !tile.tensor<256xf32, input> -> !tile.tile<[tile_i], f32>
  %e = tile.exp %a : !tile.tile<[tile_i], f32>
  %s1 = tile.store %e, %T[%t] : !tile.tile<[tile_i], f32>, !tile.tensor<256xf32, intermediate>
  %x = tile.load %T[%t] : !tile.tensor<256xf32, intermediate> -> !tile.tile<[tile_i], f32>
  %m = tile.mul %x, %x : !tile.tile<[tile_i], f32>
  %s2 = tile.store %m, %B[%t] : !tile.tile<[tile_i], f32>, !tile.tensor<256xf32, output>
  %l1 = tile.loop %i = 0 to 256 step %ti body %s1
  %l2 = tile.loop %i = 0 to 256 step %ti body %s2
  %root = tile.seq %l1, %l2
  tile.yield %root
}
)mlir";

constexpr llvm::StringLiteral kFused = R"mlir(
tile.program @fused(%A: !tile.tensor<256xf32, input>,
                    %T: !tile.tensor<256xf32, intermediate>,
                    %B: !tile.tensor<256xf32, output>) {
  %i = tile.var "i"
  %ti = tile.size "tile_i"
  %t = tile.tile %i
  %a = tile.load %A[%t] : !tile.tensor<256xf32, input> -> !tile.tile<[tile_i], f32>
  %e = tile.exp %a : !tile.tile<[tile_i], f32>
  %s1 = tile.store %e, %T[%t] : !tile.tile<[tile_i], f32>, !tile.tensor<256xf32, intermediate>
  %x = tile.load %T[%t] : !tile.tensor<256xf32, intermediate> -> !tile.tile<[tile_i], f32>
  %m = tile.mul %x, %x : !tile.tile<[tile_i], f32>
  %s2 = tile.store %m, %B[%t] : !tile.tile<[tile_i], f32>, !tile.tensor<256xf32, output>
  %body = tile.seq %s1, %s2
  %l = tile.loop %i = 0 to 256 step %ti body %body
  tile.yield %l
}
)mlir";

TEST_F(CostModelTest, IntermediateThroughHbmOrOnChip) {
  ProgramCost two = run(kTwoKernels, {{"tile_i", 64}});
  ASSERT_EQ(two.numKernels(), 2u);
  EXPECT_EQ(two.kernels[0].hbmReadBytes, 1024u);  // A
  EXPECT_EQ(two.kernels[0].hbmWriteBytes, 1024u); // T, read by kernel 1
  EXPECT_EQ(two.kernels[1].hbmReadBytes, 1024u);  // T, loaded once per tile
  EXPECT_EQ(two.kernels[1].hbmWriteBytes, 1024u); // B
  EXPECT_EQ(two.hbmBytes, 4096u);
  EXPECT_EQ(two.vectorFlops, 4u * 256 + 256u);

  ProgramCost fused = run(kFused, {{"tile_i", 64}});
  ASSERT_EQ(fused.numKernels(), 1u);
  const KernelCost &k = fused.kernels[0];
  EXPECT_EQ(k.gridSize, 4u);
  EXPECT_EQ(k.hbmReadBytes, 1024u);  // A
  EXPECT_EQ(k.hbmWriteBytes, 1024u); // B; T stays on chip
  EXPECT_EQ(k.onChipBytes, 2048u);   // T stored and loaded
  EXPECT_EQ(fused.vectorFlops, two.vectorFlops);
  EXPECT_LT(fused.timeUs, two.timeUs);
}

// S = sum(A): the loop carries S, so it is not parallel (grid 1).
constexpr llvm::StringLiteral kSum = R"mlir(
tile.program @sum(%A: !tile.tensor<4x256xf32, input>,
                  %S: !tile.tensor<4xf32, output>) {
  %i = tile.var "i"
  %ti = tile.size "tile_i"
  %f = tile.full
  %t = tile.tile %i
  %a = tile.load %A[%f, %t] : !tile.tensor<4x256xf32, input> -> !tile.tile<[4, tile_i], f32>
  %s = tile.load %S[%f] : !tile.tensor<4xf32, output> -> !tile.tile<[4], f32>
  %r = tile.rsum %a, 1 : !tile.tile<[4, tile_i], f32> -> !tile.tile<[4], f32>
  %n = tile.add %s, %r : !tile.tile<[4], f32>
  %st = tile.store %n, %S[%f] : !tile.tile<[4], f32>, !tile.tensor<4xf32, output>
  %l = tile.loop %i = 0 to 256 step %ti body %st
  tile.yield %l
}
)mlir";

TEST_F(CostModelTest, LoopCarriedAccumulationIsSequential) {
  ProgramCost cost = run(kSum, {{"tile_i", 64}});
  const KernelCost &k = cost.kernels[0];
  EXPECT_TRUE(k.gridLoops.empty());
  EXPECT_EQ(k.gridSize, 1u);
  EXPECT_DOUBLE_EQ(k.gridEfficiency, 0.25);
  EXPECT_EQ(k.hbmReadBytes, 4u * 256 * 4);
  EXPECT_EQ(k.hbmWriteBytes, 16u); // S written once, after the loop
  EXPECT_EQ(k.vectorFlops, 4u * 256 + 4u * 4);
}

TEST_F(CostModelTest, StraightLineStatementsFormOneKernel) {
  ProgramCost cost = run(R"mlir(
tile.program @copy(%A: !tile.tensor<8xf32, input>,
                   %B: !tile.tensor<8xf32, output>,
                   %C: !tile.tensor<8xf32, output>) {
  %f = tile.full
  %a = tile.load %A[%f] : !tile.tensor<8xf32, input> -> !tile.tile<[8], f32>
  %s1 = tile.store %a, %B[%f] : !tile.tile<[8], f32>, !tile.tensor<8xf32, output>
  %s2 = tile.store %a, %C[%f] : !tile.tile<[8], f32>, !tile.tensor<8xf32, output>
  %n = tile.nop
  %r1 = tile.seq %s2, %n
  %r = tile.seq %s1, %r1
  tile.yield %r
}
)mlir",
                         {});
  ASSERT_EQ(cost.numKernels(), 1u);
  EXPECT_EQ(cost.kernels[0].label, "statements");
  EXPECT_EQ(cost.kernels[0].hbmReadBytes, 64u);
  EXPECT_EQ(cost.kernels[0].hbmWriteBytes, 64u);
  EXPECT_EQ(cost.kernels[0].limiter, Limiter::Launch);
}

TEST_F(CostModelTest, DefaultSizesDivideTheRanges) {
  ProgramOp program = parse(kMatmul);
  TileSizeAssignment sizes = defaultTileSizes(program, toy, {{"tile_k", 32}});
  EXPECT_EQ(sizes.lookup("tile_m"), 64); // 128 halved to divide 64
  EXPECT_EQ(sizes.lookup("tile_n"), 128);
  EXPECT_EQ(sizes.lookup("tile_k"), 32); // given
  toy.defaultTileSize = 0;
  EXPECT_EQ(defaultTileSizes(program, toy).size(), 0u);
}

TEST_F(CostModelTest, MissingAndBadSizesAreDiagnosed) {
  EXPECT_NE(error(kExp, {}).find("tile size 'tile_i' has no value"),
            std::string::npos);
  EXPECT_NE(error(kExp, {{"tile_i", 96}})
                .find("tile size tile_i=96 does not divide the range 1024 of "
                      "loop 'i'"),
            std::string::npos);
  EXPECT_NE(error(kExp, {{"tile_i", -2}}).find("must be positive"),
            std::string::npos);
}

TEST_F(CostModelTest, ParseTileSizes) {
  TileSizeAssignment sizes;
  std::string message;
  EXPECT_TRUE(
      succeeded(parseTileSizes("tile_k=64, tile_n=128", sizes, message)));
  EXPECT_EQ(sizes.lookup("tile_k"), 64);
  EXPECT_EQ(sizes.lookup("tile_n"), 128);
  EXPECT_TRUE(failed(parseTileSizes("tile_k", sizes, message)));
  EXPECT_EQ(message, "malformed tile size 'tile_k' (expected name=positive "
                     "integer)");
  EXPECT_TRUE(failed(parseTileSizes("tile_k=0", sizes, message)));
}

TEST_F(CostModelTest, JsonReport) {
  ProgramCost cost = run(kFused, {{"tile_i", 64}});
  llvm::json::Value json = toJSON(cost);
  const llvm::json::Object *object = json.getAsObject();
  ASSERT_TRUE(object);
  EXPECT_EQ(object->getString("program"), "fused");
  EXPECT_EQ(object->getInteger("kernels"), 1);
  EXPECT_EQ(object->getObject("tile_sizes")->getInteger("tile_i"), 64);
  const llvm::json::Object *kernel =
      object->getArray("per_kernel")->front().getAsObject();
  EXPECT_EQ(kernel->getInteger("hbm_read_bytes"), 1024);
  EXPECT_EQ(kernel->getString("limiter"), "hbm");
}

} // namespace
