//===- DiagnosticsTest.cpp - What the reference evaluator refuses ---------===//

#include "ReferenceTestSupport.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::testing;

namespace {

class DiagnosticsTest : public ReferenceTest {
protected:
  DiagnosticsTest() { context.loadDialect<scf::SCFDialect>(); }

  /// Expects evaluating `source` on `args` to fail with a diagnostic that
  /// contains `message`.
  void expectFailure(StringRef source, ArrayRef<HostTensor> args,
                     StringRef message) {
    func::FuncOp func = parse(source);
    ASSERT_TRUE(func);
    diagnostics.clear();
    EXPECT_TRUE(failed(interpretLinalgFunction(func, args, Precision::F64)));
    ASSERT_EQ(diagnostics.size(), 1u);
    EXPECT_NE(diagnostics.front().find(message.str()), std::string::npos)
        << "diagnostic: " << diagnostics.front();
  }
};

TEST_F(DiagnosticsTest, UnsupportedOpInFunction) {
  const char *source = R"mlir(
    func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%t = %x) -> (tensor<4xf32>) {
        scf.yield %t : tensor<4xf32>
      }
      return %r : tensor<4xf32>
    })mlir";
  expectFailure(source, {makeTensor({4}, {1, 2, 3, 4})},
                "'scf.for' op is not supported by the reference evaluator");
}

TEST_F(DiagnosticsTest, UnsupportedOpInBody) {
  const char *source = R"mlir(
    #id = affine_map<(d0) -> (d0)>
    func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
      %e = tensor.empty() : tensor<2xf32>
      %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
          ins(%x : tensor<2xf32>) outs(%e : tensor<2xf32>) {
      ^bb0(%a: f32, %o: f32):
        %t = math.atan %a : f32
        linalg.yield %t : f32
      } -> tensor<2xf32>
      return %r : tensor<2xf32>
    })mlir";
  expectFailure(source, {makeTensor({2}, {1, 2})},
                "'math.atan' op is not supported by the reference evaluator "
                "inside a linalg body");
}

TEST_F(DiagnosticsTest, DynamicShapeArgument) {
  const char *source = R"mlir(
    func.func @f(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
      return %x : tensor<?x4xf32>
    })mlir";
  expectFailure(source, {makeTensor({1, 4}, {1, 2, 3, 4})},
                "'func.func' op argument #0 has dynamic shape in type "
                "'tensor<?x4xf32>'; the reference evaluator supports static "
                "shapes only");
}

TEST_F(DiagnosticsTest, DynamicShapeResult) {
  const char *source = R"mlir(
    func.func @f(%x: tensor<4xf32>) -> tensor<?xf32> {
      %c = tensor.cast %x : tensor<4xf32> to tensor<?xf32>
      return %c : tensor<?xf32>
    })mlir";
  expectFailure(source, {makeTensor({4}, {1, 2, 3, 4})},
                "'tensor.cast' op result #0 has dynamic shape");
}

TEST_F(DiagnosticsTest, ArgumentOfAnotherShape) {
  const char *source = R"mlir(
    func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
      return %x : tensor<2xf32>
    })mlir";
  expectFailure(source, {makeTensor({3}, {1, 2, 3})},
                "argument #0 of type 'tensor<2xf32>' was given a tensor of "
                "another shape");
}

TEST_F(DiagnosticsTest, WrongArgumentCount) {
  const char *source = R"mlir(
    func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
      return %x : tensor<2xf32>
    })mlir";
  expectFailure(source, {},
                "takes 1 arguments but the reference evaluator "
                "was given 0");
}

} // namespace
