//===- TensorOpsTest.cpp - Reference evaluation of tensor ops -------------===//

#include "ReferenceTestSupport.h"

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::testing;

namespace {

using TensorOpsTest = ReferenceTest;

TEST_F(TensorOpsTest, ExpandAndCollapseShape) {
  const char *source = R"mlir(
    func.func @f(%x: tensor<2x6xf32>) -> (tensor<2x2x3xf32>, tensor<12xf32>) {
      %e = tensor.expand_shape %x [[0], [1, 2]] output_shape [2, 2, 3]
          : tensor<2x6xf32> into tensor<2x2x3xf32>
      %c = tensor.collapse_shape %e [[0, 1, 2]] : tensor<2x2x3xf32> into tensor<12xf32>
      return %e, %c : tensor<2x2x3xf32>, tensor<12xf32>
    })mlir";
  std::vector<double> data = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  FailureOr<std::vector<HostTensor>> results =
      run(source, {makeTensor({2, 6}, data)});
  ASSERT_TRUE(succeeded(results));
  expectTensor((*results)[0], {2, 2, 3}, data);
  expectTensor((*results)[1], {12}, data);
}

TEST_F(TensorOpsTest, ExtractSliceRankReducingAndStrided) {
  const char *source = R"mlir(
    func.func @f(%x: tensor<3x4xf32>) -> (tensor<4xf32>, tensor<2x2xf32>) {
      %row = tensor.extract_slice %x[1, 0] [1, 4] [1, 1] : tensor<3x4xf32> to tensor<4xf32>
      %box = tensor.extract_slice %x[0, 1] [2, 2] [2, 2] : tensor<3x4xf32> to tensor<2x2xf32>
      return %row, %box : tensor<4xf32>, tensor<2x2xf32>
    })mlir";
  FailureOr<std::vector<HostTensor>> results =
      run(source, {makeTensor({3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11})});
  ASSERT_TRUE(succeeded(results));
  expectTensor((*results)[0], {4}, {4, 5, 6, 7});
  expectTensor((*results)[1], {2, 2}, {1, 3, 9, 11});
}

TEST_F(TensorOpsTest, InsertSliceUpdatesArgumentDerivedTensor) {
  // The KV-cache update: new rows written into a cache passed as argument.
  const char *source = R"mlir(
    func.func @f(%cache: tensor<2x4x2xf32>, %new: tensor<2x2xf32>) -> tensor<2x4x2xf32> {
      %k = tensor.expand_shape %new [[0, 1], [2]] output_shape [2, 1, 2]
          : tensor<2x2xf32> into tensor<2x1x2xf32>
      %r = tensor.insert_slice %k into %cache[0, 3, 0] [2, 1, 2] [1, 1, 1]
          : tensor<2x1x2xf32> into tensor<2x4x2xf32>
      return %r : tensor<2x4x2xf32>
    })mlir";
  HostTensor cache = makeTensor({2, 4, 2}, std::vector<double>(16, 0.5));
  HostTensor update = makeTensor({2, 2}, {1, 2, 3, 4});
  expectTensor(runOne(source, {cache, update}), {2, 4, 2},
               {0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 1, 2, //
                0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 3, 4});
  // The caller's tensor is left as it was.
  expectTensor(cache, {2, 4, 2}, std::vector<double>(16, 0.5));
}

TEST_F(TensorOpsTest, RankReducingInsertSlice) {
  const char *source = R"mlir(
    func.func @f(%row: tensor<3xf32>) -> tensor<2x3xf32> {
      %zero = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<2x3xf32>
      %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
      %r = tensor.insert_slice %row into %z[1, 0] [1, 3] [1, 1] : tensor<3xf32> into tensor<2x3xf32>
      return %r : tensor<2x3xf32>
    })mlir";
  expectTensor(runOne(source, {makeTensor({3}, {7, 8, 9})}), {2, 3},
               {0, 0, 0, 7, 8, 9});
}

TEST_F(TensorOpsTest, ConstantsCastConcat) {
  const char *source = R"mlir(
    func.func @f() -> (tensor<2x2xf32>, tensor<3x2xf16>, tensor<2xi1>) {
      %d = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
      %s = arith.constant dense<0.5> : tensor<1x2xf16>
      %b = arith.constant dense<[true, false]> : tensor<2xi1>
      %c = tensor.cast %d : tensor<2x2xf32> to tensor<2x2xf32>
      %h = arith.constant dense<[[1.5, -2.0], [0.25, 8.0]]> : tensor<2x2xf16>
      %cat = tensor.concat dim(0) %s, %h : (tensor<1x2xf16>, tensor<2x2xf16>) -> tensor<3x2xf16>
      return %c, %cat, %b : tensor<2x2xf32>, tensor<3x2xf16>, tensor<2xi1>
    })mlir";
  FailureOr<std::vector<HostTensor>> results = run(source, {});
  ASSERT_TRUE(succeeded(results));
  expectTensor((*results)[0], {2, 2}, {1, 2, 3, 4});
  expectTensor((*results)[1], {3, 2}, {0.5, 0.5, 1.5, -2, 0.25, 8}, 0.0,
               ElementKind::F16);
  expectTensor((*results)[2], {2}, {1, 0}, 0.0, ElementKind::I1);
}

TEST_F(TensorOpsTest, ScalarElementOps) {
  const char *source = R"mlir(
    func.func @f(%x: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<3xf16>) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %a = tensor.extract %x[%c1, %c0] : tensor<2x2xf32>
      %b = arith.addf %a, %a : f32
      %y = tensor.insert %b into %x[%c0, %c1] : tensor<2x2xf32>
      %h = arith.truncf %b : f32 to f16
      %one = arith.constant 1.0 : f16
      %v = tensor.from_elements %h, %one, %h : tensor<3xf16>
      %s = tensor.splat %one : tensor<2x2xf16>
      return %y, %v : tensor<2x2xf32>, tensor<3xf16>
    })mlir";
  FailureOr<std::vector<HostTensor>> results =
      run(source, {makeTensor({2, 2}, {1, 2, 3, 4})});
  ASSERT_TRUE(succeeded(results));
  expectTensor((*results)[0], {2, 2}, {1, 6, 3, 4});
  expectTensor((*results)[1], {3}, {6, 1, 6}, 0.0, ElementKind::F16);
}

} // namespace
