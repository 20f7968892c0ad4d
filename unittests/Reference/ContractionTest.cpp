//===- ContractionTest.cpp - Reference evaluation of contractions ---------===//

#include "ReferenceTestSupport.h"

#include <string>

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::testing;

namespace {

using ContractionTest = ReferenceTest;

TEST_F(ContractionTest, Matmul) {
  const char *source = R"mlir(
    func.func @f(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>) -> tensor<2x2xf32> {
      %zero = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<2x2xf32>
      %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
      %r = linalg.matmul ins(%a, %b : tensor<2x3xf32>, tensor<3x2xf32>)
                         outs(%acc : tensor<2x2xf32>) -> tensor<2x2xf32>
      return %r : tensor<2x2xf32>
    })mlir";
  HostTensor a = makeTensor({2, 3}, {1, 2, 3, 4, 5, 6});
  HostTensor b = makeTensor({3, 2}, {7, 8, 9, 10, 11, 12});
  expectTensor(runOne(source, {a, b}), {2, 2}, {58, 64, 139, 154});
}

TEST_F(ContractionTest, MatmulAccumulatesIntoInit) {
  const char *source = R"mlir(
    func.func @f(%a: tensor<1x2xf32>, %b: tensor<2x1xf32>, %c: tensor<1x1xf32>) -> tensor<1x1xf32> {
      %r = linalg.matmul ins(%a, %b : tensor<1x2xf32>, tensor<2x1xf32>)
                         outs(%c : tensor<1x1xf32>) -> tensor<1x1xf32>
      return %r : tensor<1x1xf32>
    })mlir";
  HostTensor c = makeTensor({1, 1}, {100});
  expectTensor(runOne(source, {makeTensor({1, 2}, {1, 2}),
                               makeTensor({2, 1}, {3, 4}), c}),
               {1, 1}, {111});
  expectTensor(c, {1, 1}, {100});
}

TEST_F(ContractionTest, TransposedMatmulThroughIndexingMaps) {
  // r = a @ transpose(b), with b stored as [n, k].
  const char *source = R"mlir(
    func.func @f(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x2xf32> {
      %zero = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<2x2xf32>
      %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
      %r = linalg.matmul
          indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                           affine_map<(m, n, k) -> (n, k)>,
                           affine_map<(m, n, k) -> (m, n)>]
          ins(%a, %b : tensor<2x3xf32>, tensor<2x3xf32>)
          outs(%acc : tensor<2x2xf32>) -> tensor<2x2xf32>
      return %r : tensor<2x2xf32>
    })mlir";
  HostTensor a = makeTensor({2, 3}, {1, 2, 3, 4, 5, 6});
  HostTensor b = makeTensor({2, 3}, {1, 0, -1, 2, 1, 0});
  expectTensor(runOne(source, {a, b}), {2, 2}, {-2, 4, -2, 13});
}

TEST_F(ContractionTest, MixedPrecisionBatchMatmul) {
  // f16 inputs, f32 accumulation: the body of the named op holds arith.extf.
  const char *source = R"mlir(
    func.func @f(%a: tensor<2x1x2xf16>, %b: tensor<2x2x2xf16>) -> tensor<2x1x2xf32> {
      %zero = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<2x1x2xf32>
      %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x1x2xf32>) -> tensor<2x1x2xf32>
      %r = linalg.batch_matmul ins(%a, %b : tensor<2x1x2xf16>, tensor<2x2x2xf16>)
                               outs(%acc : tensor<2x1x2xf32>) -> tensor<2x1x2xf32>
      return %r : tensor<2x1x2xf32>
    })mlir";
  HostTensor a = makeTensor({2, 1, 2}, {1, 2, 0.5, -1}, ElementKind::F16);
  HostTensor b =
      makeTensor({2, 2, 2}, {1, 2, 3, 4, 2, 2, 1, 1}, ElementKind::F16);
  for (Precision precision : {Precision::F32, Precision::F64})
    expectTensor(runOne(source, {a, b}, precision), {2, 1, 2}, {7, 10, 0, 0},
                 0.0, ElementKind::F32);
}

TEST_F(ContractionTest, TransposedBatchMatmulThroughIndexingMaps) {
  // C[h, m, p] = sum_d Q[h, m, d] * K[h, p, d], as attention computes scores.
  const char *source = R"mlir(
    func.func @f(%q: tensor<2x1x2xf32>, %k: tensor<2x3x2xf32>) -> tensor<2x1x3xf32> {
      %zero = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<2x1x3xf32>
      %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x1x3xf32>) -> tensor<2x1x3xf32>
      %r = linalg.batch_matmul
          indexing_maps = [affine_map<(h, m, p, d) -> (h, m, d)>,
                           affine_map<(h, m, p, d) -> (h, p, d)>,
                           affine_map<(h, m, p, d) -> (h, m, p)>]
          ins(%q, %k : tensor<2x1x2xf32>, tensor<2x3x2xf32>)
          outs(%acc : tensor<2x1x3xf32>) -> tensor<2x1x3xf32>
      return %r : tensor<2x1x3xf32>
    })mlir";
  HostTensor q = makeTensor({2, 1, 2}, {1, 2, 3, -1});
  HostTensor k = makeTensor({2, 3, 2}, {1, 1, 2, 0, 0, 3, 1, 1, 1, 3, 2, 0});
  expectTensor(runOne(source, {q, k}), {2, 1, 3}, {3, 2, 6, 2, 0, 6});
}

TEST_F(ContractionTest, MatvecAndDot) {
  const char *source = R"mlir(
    func.func @f(%a: tensor<2x3xf32>, %x: tensor<3xf32>, %y: tensor<2xf32>, %s: tensor<f32>)
        -> (tensor<2xf32>, tensor<f32>) {
      %mv = linalg.matvec ins(%a, %x : tensor<2x3xf32>, tensor<3xf32>)
                          outs(%y : tensor<2xf32>) -> tensor<2xf32>
      %d = linalg.dot ins(%x, %x : tensor<3xf32>, tensor<3xf32>)
                      outs(%s : tensor<f32>) -> tensor<f32>
      return %mv, %d : tensor<2xf32>, tensor<f32>
    })mlir";
  HostTensor s("", {}, ElementKind::F32);
  s.data[0] = 1.0;
  FailureOr<std::vector<HostTensor>> results =
      run(source, {makeTensor({2, 3}, {1, 2, 3, 4, 5, 6}),
                   makeTensor({3}, {1, -1, 2}), makeTensor({2}, {10, 20}), s});
  ASSERT_TRUE(succeeded(results));
  expectTensor((*results)[0], {2}, {15, 31});
  expectTensor((*results)[1], {}, {7});
}

TEST_F(ContractionTest, ConvolutionThroughLinearIndexingMaps) {
  // Not a contraction in the fast path's sense: out[i] += x[i + j] * w[j].
  const char *source = R"mlir(
    func.func @f(%x: tensor<5xf32>, %w: tensor<3xf32>) -> tensor<3xf32> {
      %zero = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<3xf32>
      %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
      %r = linalg.conv_1d ins(%x, %w : tensor<5xf32>, tensor<3xf32>)
                          outs(%acc : tensor<3xf32>) -> tensor<3xf32>
      return %r : tensor<3xf32>
    })mlir";
  expectTensor(runOne(source, {makeTensor({5}, {1, 2, 3, 4, 5}),
                               makeTensor({3}, {1, 0, -1})}),
               {3}, {-2, -2, -2});
}

/// A generic contraction out[b, n, m] = init + sum_k A[b, k, m] * B[n, b, k]
/// with odd layouts; with `slowPath` its body holds an unused op, which
/// keeps it off the fast path and on the per-point evaluator.
std::string oddContraction(int64_t b, int64_t m, int64_t n, int64_t k,
                           bool slowPath) {
  auto t = [](std::initializer_list<int64_t> dims) {
    std::string s = "tensor<";
    for (int64_t d : dims)
      s += std::to_string(d) + "x";
    return s + "f32>";
  };
  std::string lhs = t({b, k, m}), rhs = t({n, b, k}), out = t({b, n, m});
  return R"mlir(
    func.func @f(%a: )mlir" +
         lhs + ", %b: " + rhs + ", %c: " + out + ") -> " + out + R"mlir( {
      %r = linalg.generic {
          indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>,
                           affine_map<(b, m, n, k) -> (n, b, k)>,
                           affine_map<(b, m, n, k) -> (b, n, m)>],
          iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
          ins(%a, %b : )mlir" +
         lhs + ", " + rhs + ") outs(%c : " + out +
         R"mlir() {
      ^bb0(%x: f32, %y: f32, %o: f32):
        %p = arith.mulf %y, %x : f32
        )mlir" +
         (slowPath ? "%unused = arith.negf %x : f32" : "") + R"mlir(
        %s = arith.addf %p, %o : f32
        linalg.yield %s : f32
      } -> )mlir" +
         out + R"mlir(
      return %r : )mlir" +
         out + "\n    }";
}

TEST_F(ContractionTest, FastPathMatchesPerPointEvaluation) {
  // Sizes off the kernel's block and register tiles in every dimension.
  const int64_t b = 2, m = 67, n = 515, k = 131;
  HostTensor lhs = randomTensor({b, k, m}, 1);
  HostTensor rhs = randomTensor({n, b, k}, 2);
  HostTensor init = randomTensor({b, n, m}, 3);
  HostTensor fast = runOne(oddContraction(b, m, n, k, false), {lhs, rhs, init});
  HostTensor slow = runOne(oddContraction(b, m, n, k, true), {lhs, rhs, init});
  ASSERT_EQ(fast.data.size(), slow.data.size());
  // Spot-check against a direct sum, then compare everything.
  double direct = init.data[(1 * n + 5) * m + 7];
  for (int64_t kk = 0; kk < k; ++kk)
    direct += lhs.data[(1 * k + kk) * m + 7] * rhs.data[(5 * b + 1) * k + kk];
  EXPECT_NEAR(fast.data[(1 * n + 5) * m + 7], direct, 1e-12);
  for (size_t i = 0; i < fast.data.size(); ++i)
    ASSERT_NEAR(fast.data[i], slow.data[i], 1e-12) << "at element " << i;
}

} // namespace
