//===- PrecisionTest.cpp - F32 versus F64 reference evaluation ------------===//

#include "ReferenceTestSupport.h"

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::testing;

namespace {

using PrecisionTest = ReferenceTest;

TEST_F(PrecisionTest, F16AdditionRoundsOnlyUnderF32) {
  const char *source = R"mlir(
    func.func @f(%a: tensor<2xf16>, %b: tensor<2xf16>) -> tensor<2xf16> {
      %e = tensor.empty() : tensor<2xf16>
      %r = linalg.add ins(%a, %b : tensor<2xf16>, tensor<2xf16>)
                      outs(%e : tensor<2xf16>) -> tensor<2xf16>
      return %r : tensor<2xf16>
    })mlir";
  // Both sums fall halfway between f16 neighbours and round to even.
  HostTensor a = makeTensor({2}, {1.0, 2048.0}, ElementKind::F16);
  HostTensor b = makeTensor({2}, {0x1p-11, 1.0}, ElementKind::F16);
  expectTensor(runOne(source, {a, b}, Precision::F32), {2}, {1.0, 2048.0}, 0.0,
               ElementKind::F16);
  expectTensor(runOne(source, {a, b}, Precision::F64), {2},
               {1.0 + 0x1p-11, 2049.0}, 0.0, ElementKind::F16);
}

TEST_F(PrecisionTest, TruncfInsideBodyRoundsToF16) {
  // out = extf(truncf(x * 3)) in an f32 program.
  const char *source = R"mlir(
    #id = affine_map<(d0) -> (d0)>
    func.func @f(%x: tensor<1xf32>) -> tensor<1xf32> {
      %e = tensor.empty() : tensor<1xf32>
      %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
          ins(%x : tensor<1xf32>) outs(%e : tensor<1xf32>) {
      ^bb0(%a: f32, %o: f32):
        %three = arith.constant 3.0 : f32
        %m = arith.mulf %a, %three : f32
        %h = arith.truncf %m : f32 to f16
        %w = arith.extf %h : f16 to f32
        linalg.yield %w : f32
      } -> tensor<1xf32>
      return %r : tensor<1xf32>
    })mlir";
  double x = roundToElement(ElementKind::F32, 0.1);
  HostTensor input = makeTensor({1}, {x});
  double f32 = roundToElement(ElementKind::F16,
                              roundToElement(ElementKind::F32, x * 3.0));
  EXPECT_NE(f32, x * 3.0);
  expectTensor(runOne(source, {input}, Precision::F32), {1}, {f32});
  expectTensor(runOne(source, {input}, Precision::F64), {1}, {x * 3.0});
  // F64Casts: the multiplication exact, the truncf rounded.
  double casts = roundToElement(ElementKind::F16, x * 3.0);
  expectTensor(runOne(source, {input}, Precision::F64Casts), {1}, {casts});
}

TEST_F(PrecisionTest, F32ArithmeticRoundsEachOp) {
  // (1 + 2^-30) - 1 is 0 in f32 and 2^-30 in double.
  const char *source = R"mlir(
    #id = affine_map<(d0) -> (d0)>
    func.func @f(%x: tensor<1xf32>) -> tensor<1xf32> {
      %e = tensor.empty() : tensor<1xf32>
      %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
          ins(%x : tensor<1xf32>) outs(%e : tensor<1xf32>) {
      ^bb0(%a: f32, %o: f32):
        %one = arith.constant 1.0 : f32
        %s = arith.addf %a, %one : f32
        %d = arith.subf %s, %one : f32
        linalg.yield %d : f32
      } -> tensor<1xf32>
      return %r : tensor<1xf32>
    })mlir";
  HostTensor input = makeTensor({1}, {0x1p-30});
  expectTensor(runOne(source, {input}, Precision::F32), {1}, {0.0});
  expectTensor(runOne(source, {input}, Precision::F64), {1}, {0x1p-30});
}

TEST_F(PrecisionTest, ArgumentsAreRoundedToTheirTypeUnderF32) {
  const char *source = R"mlir(
    func.func @f(%x: tensor<1xf16>) -> tensor<1xf16> {
      %e = tensor.empty() : tensor<1xf16>
      %r = linalg.copy ins(%x : tensor<1xf16>) outs(%e : tensor<1xf16>) -> tensor<1xf16>
      return %r : tensor<1xf16>
    })mlir";
  HostTensor input = makeTensor({1}, {0.1}, ElementKind::F16);
  expectTensor(runOne(source, {input}, Precision::F32), {1},
               {roundToElement(ElementKind::F16, 0.1)});
  expectTensor(runOne(source, {input}, Precision::F64), {1}, {0.1});
}

TEST_F(PrecisionTest, ContractionRoundsOncePerOutputElement) {
  // 1 + 2^-11 + 2^-11 in f16: one rounding of the exact sum gives
  // 1 + 2^-10 (representable), while rounding after each addition (a tie,
  // to even) stays at 1.
  const char *source = R"mlir(
    func.func @f(%a: tensor<1x3xf16>, %b: tensor<3x1xf16>) -> tensor<1x1xf16> {
      %zero = arith.constant 0.0 : f16
      %e = tensor.empty() : tensor<1x1xf16>
      %acc = linalg.fill ins(%zero : f16) outs(%e : tensor<1x1xf16>) -> tensor<1x1xf16>
      %r = linalg.matmul ins(%a, %b : tensor<1x3xf16>, tensor<3x1xf16>)
                         outs(%acc : tensor<1x1xf16>) -> tensor<1x1xf16>
      return %r : tensor<1x1xf16>
    })mlir";
  HostTensor a = makeTensor({1, 3}, {1.0, 0x1p-11, 0x1p-11}, ElementKind::F16);
  HostTensor b = makeTensor({3, 1}, {1.0, 1.0, 1.0}, ElementKind::F16);
  expectTensor(runOne(source, {a, b}, Precision::F32), {1, 1}, {1.0 + 0x1p-10},
               0.0, ElementKind::F16);
}

} // namespace
