//===- AttentionTest.cpp - Whole blocks: attention and softmax ------------===//

#include "AttentionProgram.h"
#include "ReferenceTestSupport.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::testing;

namespace {

using AttentionTest = ReferenceTest;

TEST_F(AttentionTest, VanillaAttentionMatchesDirectComputation) {
  const int64_t m = 3, h = 2, d = 4, p = 8, pre = 5, dm = h * d;
  std::vector<HostTensor> args = {
      randomTensor({m, dm}, 11, ElementKind::F16),
      randomTensor({dm, dm}, 12, ElementKind::F16),
      randomTensor({dm, dm}, 13, ElementKind::F16),
      randomTensor({dm, dm}, 14, ElementKind::F16),
      randomTensor({h, p, d}, 15, ElementKind::F16),
      randomTensor({h, p, d}, 16, ElementKind::F16)};
  FailureOr<std::vector<HostTensor>> results =
      run(vanillaAttentionSource(m, h, d, p, pre), args, Precision::F64);
  ASSERT_TRUE(succeeded(results))
      << (diagnostics.empty() ? "" : diagnostics.back());
  ASSERT_EQ(results->size(), 3u);

  // The same block with plain loops, in double.
  const std::vector<double> &x = args[0].data;
  auto project = [&](const std::vector<double> &weight) {
    std::vector<double> out(m * dm, 0.0);
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < dm; ++j)
        for (int64_t k = 0; k < dm; ++k)
          out[i * dm + j] += x[i * dm + k] * weight[k * dm + j];
    return out; // [m, h * d]: head c of row i at i * dm + c * d.
  };
  std::vector<double> q = project(args[1].data), k = project(args[2].data),
                      v = project(args[3].data);
  std::vector<double> kc = args[4].data, vc = args[5].data;
  for (int64_t c = 0; c < h; ++c)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t e = 0; e < d; ++e) {
        kc[(c * p + pre + i) * d + e] = k[i * dm + c * d + e];
        vc[(c * p + pre + i) * d + e] = v[i * dm + c * d + e];
      }
  std::vector<double> o2(m * dm, 0.0);
  for (int64_t c = 0; c < h; ++c)
    for (int64_t i = 0; i < m; ++i) {
      std::vector<double> scores(p);
      double sum = 0.0;
      for (int64_t j = 0; j < p; ++j) {
        double dot = 0.0;
        for (int64_t e = 0; e < d; ++e)
          dot += q[i * dm + c * d + e] * kc[(c * p + j) * d + e];
        scores[j] = std::exp(dot);
        sum += scores[j];
      }
      for (int64_t j = 0; j < p; ++j)
        for (int64_t e = 0; e < d; ++e)
          o2[i * dm + c * d + e] += scores[j] / sum * vc[(c * p + j) * d + e];
    }
  expectTensor((*results)[0], {m, dm}, o2, 1e-12, ElementKind::F16);
  expectTensor((*results)[1], {h, p, d}, kc, 1e-12, ElementKind::F16);
  expectTensor((*results)[2], {h, p, d}, vc, 1e-12, ElementKind::F16);

  // Under F32 the f16 roundings move the output, but not by much.
  FailureOr<std::vector<HostTensor>> rounded =
      run(vanillaAttentionSource(m, h, d, p, pre), args, Precision::F32);
  ASSERT_TRUE(succeeded(rounded));
  expectTensor((*rounded)[0], {m, dm}, o2, 1e-2, ElementKind::F16);
}

TEST_F(AttentionTest, Softmax) {
  const char *source = R"mlir(
    func.func @f(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
      %e = tensor.empty() : tensor<2x3xf32>
      %rows = linalg.softmax dimension(1) ins(%x : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
      %cols = linalg.softmax dimension(0) ins(%x : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
      return %rows, %cols : tensor<2x3xf32>, tensor<2x3xf32>
    })mlir";
  // Large entries: only max subtraction keeps exp finite.
  HostTensor x = makeTensor({2, 3}, {1000, 1001, 1002, 0, 0, std::log(3.0)});
  FailureOr<std::vector<HostTensor>> results = run(source, {x});
  ASSERT_TRUE(succeeded(results));
  double z = 1 + std::exp(1.0) + std::exp(2.0);
  expectTensor((*results)[0], {2, 3},
               {1 / z, std::exp(1.0) / z, std::exp(2.0) / z, 0.2, 0.2, 0.6},
               1e-15);
  expectTensor((*results)[1], {2, 3}, {1, 1, 1, 0, 0, 0}, 1e-15);
}

} // namespace
