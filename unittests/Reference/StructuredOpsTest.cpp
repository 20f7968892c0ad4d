//===- StructuredOpsTest.cpp - Reference evaluation of linalg ops ---------===//

#include "ReferenceTestSupport.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::testing;

namespace {

using StructuredOpsTest = ReferenceTest;

TEST_F(StructuredOpsTest, GenericElementwiseBody) {
  // out = max(exp(a) * b - 1, 0) with a captured constant.
  const char *source = R"mlir(
    #id = affine_map<(d0, d1) -> (d0, d1)>
    func.func @f(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>) -> tensor<2x2xf32> {
      %one = arith.constant 1.0 : f32
      %e = tensor.empty() : tensor<2x2xf32>
      %r = linalg.generic {indexing_maps = [#id, #id, #id],
                           iterator_types = ["parallel", "parallel"]}
          ins(%a, %b : tensor<2x2xf32>, tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) {
      ^bb0(%x: f32, %y: f32, %o: f32):
        %zero = arith.constant 0.0 : f32
        %0 = math.exp %x : f32
        %1 = arith.mulf %0, %y : f32
        %2 = arith.subf %1, %one : f32
        %3 = arith.maximumf %2, %zero : f32
        linalg.yield %3 : f32
      } -> tensor<2x2xf32>
      return %r : tensor<2x2xf32>
    })mlir";
  HostTensor a = makeTensor({2, 2}, {0.0, 1.0, -1.0, 2.0});
  HostTensor b = makeTensor({2, 2}, {3.0, 0.5, 1.0, -1.0});
  HostTensor r = runOne(source, {a, b});
  expectTensor(r, {2, 2},
               {2.0, std::max(std::exp(1.0) * 0.5 - 1.0, 0.0), 0.0, 0.0}, 1e-15,
               ElementKind::F32);
}

TEST_F(StructuredOpsTest, MathAndCompareOps) {
  const char *source = R"mlir(
    #id = affine_map<(d0) -> (d0)>
    func.func @f(%a: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
      %e = tensor.empty() : tensor<3xf32>
      %r:2 = linalg.generic {indexing_maps = [#id, #id, #id],
                             iterator_types = ["parallel"]}
          ins(%a : tensor<3xf32>) outs(%e, %e : tensor<3xf32>, tensor<3xf32>) {
      ^bb0(%x: f32, %o0: f32, %o1: f32):
        %two = arith.constant 2.0 : f32
        %zero = arith.constant 0.0 : f32
        %abs = math.absf %x : f32
        %sq = math.sqrt %abs : f32
        %rs = math.rsqrt %abs : f32
        %t = math.tanh %x : f32
        %er = math.erf %x : f32
        %p = math.powf %abs, %two : f32
        %f = math.fma %sq, %rs, %t : f32
        %s = arith.addf %f, %er : f32
        %l = math.log %abs : f32
        %d = arith.divf %l, %two : f32
        %n = arith.negf %d : f32
        %mn = arith.minnumf %n, %p : f32
        %c = arith.cmpf olt, %x, %zero : f32
        %sel = arith.select %c, %mn, %s : f32
        linalg.yield %sel, %p : f32, f32
      } -> (tensor<3xf32>, tensor<3xf32>)
      return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
    })mlir";
  FailureOr<std::vector<HostTensor>> results =
      run(source, {makeTensor({3}, {-4.0, 0.25, 1.0})});
  ASSERT_TRUE(succeeded(results));
  auto positive = [](double x) {
    return std::sqrt(x) * (1 / std::sqrt(x)) + std::tanh(x) + std::erf(x);
  };
  // x = -4: min(-(log 4) / 2, 16).
  expectTensor((*results)[0], {3},
               {-std::log(4.0) / 2, positive(0.25), positive(1.0)}, 1e-15);
  expectTensor((*results)[1], {3}, {16.0, 0.0625, 1.0}, 1e-15);
}

TEST_F(StructuredOpsTest, NamedElementwiseOps) {
  const char *source = R"mlir(
    func.func @f(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>) -> tensor<2x2xf32> {
      %e = tensor.empty() : tensor<2x2xf32>
      %x = linalg.exp ins(%a : tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
      %y = linalg.add ins(%x, %b : tensor<2x2xf32>, tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
      %z = linalg.div ins(%y, %b : tensor<2x2xf32>, tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
      %w = linalg.max ins(%z, %a : tensor<2x2xf32>, tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
      %v = linalg.elementwise kind=#linalg.elementwise_kind<sub>
          ins(%w, %a : tensor<2x2xf32>, tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
      return %v : tensor<2x2xf32>
    })mlir";
  HostTensor a = makeTensor({2, 2}, {0.0, 1.0, 2.0, 3.0});
  HostTensor b = makeTensor({2, 2}, {1.0, 2.0, 4.0, -1.0});
  std::vector<double> expected;
  for (int i = 0; i < 4; ++i)
    expected.push_back(
        std::max((std::exp(a.data[i]) + b.data[i]) / b.data[i], a.data[i]) -
        a.data[i]);
  expectTensor(runOne(source, {a, b}), {2, 2}, expected, 1e-14);
}

TEST_F(StructuredOpsTest, MoreNamedElementwiseOps) {
  // One named op per line; each result is returned.
  const char *ops[] = {"log",  "abs",  "reciprocal", "square", "round", "floor",
                       "ceil", "sqrt", "rsqrt",      "tanh",   "erf",   "negf"};
  std::string source = "func.func @f(%a: tensor<2xf32>) -> (";
  for (size_t i = 0; i < std::size(ops); ++i)
    source += std::string(i ? ", " : "") + "tensor<2xf32>";
  source += ") {\n  %e = tensor.empty() : tensor<2xf32>\n";
  for (size_t i = 0; i < std::size(ops); ++i)
    source += "  %r" + std::to_string(i) + " = linalg." + ops[i] +
              " ins(%a : tensor<2xf32>) outs(%e : tensor<2xf32>) -> "
              "tensor<2xf32>\n";
  source += "  return ";
  for (size_t i = 0; i < std::size(ops); ++i)
    source += std::string(i ? ", " : "") + "%r" + std::to_string(i);
  source += " : ";
  for (size_t i = 0; i < std::size(ops); ++i)
    source += std::string(i ? ", " : "") + "tensor<2xf32>";
  source += "\n}\n";

  FailureOr<std::vector<HostTensor>> results =
      run(source, {makeTensor({2}, {2.5, 0.25})});
  ASSERT_TRUE(succeeded(results)) << diagnostics.back();
  auto unary = [](double (*f)(double)) {
    return std::vector<double>{f(2.5), f(0.25)};
  };
  std::vector<std::vector<double>> expected = {
      unary(std::log),  unary(std::fabs),
      {0.4, 4.0},       {6.25, 0.0625},
      {3.0, 0.0}, // halfway away from zero
      {2.0, 0.0},       {3.0, 1.0},
      unary(std::sqrt), {1 / std::sqrt(2.5), 2.0},
      unary(std::tanh), unary(std::erf),
      {-2.5, -0.25}};
  for (size_t i = 0; i < std::size(ops); ++i) {
    SCOPED_TRACE(ops[i]);
    expectTensor((*results)[i], {2}, expected[i], 1e-15);
  }
}

TEST_F(StructuredOpsTest, FillTransposeBroadcastMap) {
  const char *source = R"mlir(
    func.func @f(%a: tensor<2x3xf32>, %v: tensor<3xf32>) -> (tensor<3x2xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
      %c = arith.constant 7.5 : f32
      %e23 = tensor.empty() : tensor<2x3xf32>
      %e32 = tensor.empty() : tensor<3x2xf32>
      %fill = linalg.fill ins(%c : f32) outs(%e23 : tensor<2x3xf32>) -> tensor<2x3xf32>
      %t = linalg.transpose ins(%a : tensor<2x3xf32>) outs(%e32 : tensor<3x2xf32>) permutation = [1, 0]
      %b = linalg.broadcast ins(%v : tensor<3xf32>) outs(%e23 : tensor<2x3xf32>) dimensions = [0]
      %m = linalg.map { arith.subf } ins(%fill, %b : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e23 : tensor<2x3xf32>)
      return %t, %b, %m : tensor<3x2xf32>, tensor<2x3xf32>, tensor<2x3xf32>
    })mlir";
  HostTensor a = makeTensor({2, 3}, {1, 2, 3, 4, 5, 6});
  HostTensor v = makeTensor({3}, {10, 20, 30});
  FailureOr<std::vector<HostTensor>> results = run(source, {a, v});
  ASSERT_TRUE(succeeded(results));
  expectTensor((*results)[0], {3, 2}, {1, 4, 2, 5, 3, 6});
  expectTensor((*results)[1], {2, 3}, {10, 20, 30, 10, 20, 30});
  expectTensor((*results)[2], {2, 3}, {-2.5, -12.5, -22.5, -2.5, -12.5, -22.5});
}

TEST_F(StructuredOpsTest, ReduceThenBroadcastDivision) {
  // S = sum(E, 1); out = E / S[:, None]: the normalization of attention.
  const char *source = R"mlir(
    func.func @f(%x: tensor<2x3xf32>) -> (tensor<2xf32>, tensor<2x3xf32>) {
      %zero = arith.constant 0.0 : f32
      %e2 = tensor.empty() : tensor<2xf32>
      %acc = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2xf32>) -> tensor<2xf32>
      %s = linalg.reduce ins(%x : tensor<2x3xf32>) outs(%acc : tensor<2xf32>) dimensions = [1]
        (%in: f32, %init: f32) {
          %0 = arith.addf %in, %init : f32
          linalg.yield %0 : f32
        }
      %e23 = tensor.empty() : tensor<2x3xf32>
      %d = linalg.generic {
          indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>,
                           affine_map<(i, j) -> (i, j)>],
          iterator_types = ["parallel", "parallel"]}
          ins(%x, %s : tensor<2x3xf32>, tensor<2xf32>) outs(%e23 : tensor<2x3xf32>) {
      ^bb0(%a: f32, %b: f32, %o: f32):
        %q = arith.divf %a, %b : f32
        linalg.yield %q : f32
      } -> tensor<2x3xf32>
      return %s, %d : tensor<2xf32>, tensor<2x3xf32>
    })mlir";
  HostTensor x = makeTensor({2, 3}, {1, 2, 5, 2, 2, 4});
  FailureOr<std::vector<HostTensor>> results = run(source, {x});
  ASSERT_TRUE(succeeded(results));
  expectTensor((*results)[0], {2}, {8, 8});
  expectTensor((*results)[1], {2, 3}, {0.125, 0.25, 0.625, 0.25, 0.25, 0.5});
}

TEST_F(StructuredOpsTest, GenericReductionWithConstantResultMap) {
  // out[i] = sum_j x[i, j] * w[0, j]: a constant-0 result in an indexing map.
  const char *source = R"mlir(
    func.func @f(%x: tensor<2x3xf32>, %w: tensor<1x3xf32>, %init: tensor<2xf32>) -> tensor<2xf32> {
      %r = linalg.generic {
          indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (0, j)>,
                           affine_map<(i, j) -> (i)>],
          iterator_types = ["parallel", "reduction"]}
          ins(%x, %w : tensor<2x3xf32>, tensor<1x3xf32>) outs(%init : tensor<2xf32>) {
      ^bb0(%a: f32, %b: f32, %o: f32):
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %o, %p : f32
        linalg.yield %s : f32
      } -> tensor<2xf32>
      return %r : tensor<2xf32>
    })mlir";
  HostTensor x = makeTensor({2, 3}, {1, 2, 3, 4, 5, 6});
  HostTensor w = makeTensor({1, 3}, {1, 10, 100});
  HostTensor init = makeTensor({2}, {0.5, -1});
  expectTensor(runOne(source, {x, w, init}), {2}, {321.5, 653});
  // The argument used as init is not modified.
  expectTensor(init, {2}, {0.5, -1});
}

TEST_F(StructuredOpsTest, IndexCausalMask) {
  // out[i, j] = j <= i ? x[i, j] : -inf, through linalg.index.
  const char *source = R"mlir(
    #id = affine_map<(d0, d1) -> (d0, d1)>
    func.func @f(%x: tensor<3x3xf32>) -> tensor<3x3xf32> {
      %e = tensor.empty() : tensor<3x3xf32>
      %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
          ins(%x : tensor<3x3xf32>) outs(%e : tensor<3x3xf32>) {
      ^bb0(%a: f32, %o: f32):
        %i = linalg.index 0 : index
        %j = linalg.index 1 : index
        %ninf = arith.constant 0xFF800000 : f32
        %c = arith.cmpi ule, %j, %i : index
        %s = arith.select %c, %a, %ninf : f32
        linalg.yield %s : f32
      } -> tensor<3x3xf32>
      return %r : tensor<3x3xf32>
    })mlir";
  HostTensor x = makeTensor({3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  double ninf = -INFINITY;
  expectTensor(runOne(source, {x}), {3, 3},
               {1, ninf, ninf, 4, 5, ninf, 7, 8, 9});
}

TEST_F(StructuredOpsTest, ScalarOpsOutsideBodies) {
  // A scalar computed at function level feeds a fill.
  const char *source = R"mlir(
    func.func @f(%s: f32) -> tensor<2xf32> {
      %c = arith.constant 16.0 : f32
      %d = arith.divf %s, %c : f32
      %r = math.sqrt %d : f32
      %e = tensor.empty() : tensor<2xf32>
      %f = linalg.fill ins(%r : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
      return %f : tensor<2xf32>
    })mlir";
  HostTensor s("", {}, ElementKind::F32);
  s.data[0] = 64.0;
  expectTensor(runOne(source, {s}), {2}, {2.0, 2.0});
}

} // namespace
