// RUN: tile-opt %s --convert-linalg-to-tile -o %t.mlir
// RUN: tile-run %t.mlir --reference %s | FileCheck %s
// RUN: tile-run %t.mlir --reference %s --device emulate | FileCheck %s
// CHECK-NOT: MISMATCH
// CHECK-NOT: NOT-FINITE
// CHECK: PASS
// Odd layouts front ends produce: linalg.softmax over a middle dimension ([B=2, P=37, H=3] scores kept in
// [batch, keys, heads] order, softmax over keys), then a column reduction over dim 1 written as linalg.reduce with
// two dims (mean attention per batch over keys and heads -> KV importance as in H2O/keyformer), and a 4-D
// transpose [0, 2, 3, 1].
func.func @odd_layouts(
    %S: tensor<2x37x3xf16> {tile.name = "S", tile.init = "normal(0.0, 2.0)"},
    %X: tensor<2x3x5x7xf32> {tile.name = "X", tile.init = "normal(0.0, 1.0)"}
) -> (tensor<2x37x3xf16> {tile.name = "P"}, tensor<37xf32> {tile.name = "imp"}, tensor<2x5x7x3xf32> {tile.name = "XT"}) {
  %z = arith.constant 0.0 : f32
  %e32 = tensor.empty() : tensor<2x37x3xf32>
  %S32 = linalg.map ins(%S : tensor<2x37x3xf16>) outs(%e32 : tensor<2x37x3xf32>)
    (%in: f16, %o: f32) {
      %0 = arith.extf %in : f16 to f32
      linalg.yield %0 : f32
    }
  %eP = tensor.empty() : tensor<2x37x3xf32>
  %P = linalg.softmax dimension(1) ins(%S32 : tensor<2x37x3xf32>) outs(%eP : tensor<2x37x3xf32>) -> tensor<2x37x3xf32>
  %eI = tensor.empty() : tensor<37xf32>
  %fI = linalg.fill ins(%z : f32) outs(%eI : tensor<37xf32>) -> tensor<37xf32>
  %imp = linalg.reduce ins(%P : tensor<2x37x3xf32>) outs(%fI : tensor<37xf32>) dimensions = [0, 2]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %eP16 = tensor.empty() : tensor<2x37x3xf16>
  %P16 = linalg.map ins(%P : tensor<2x37x3xf32>) outs(%eP16 : tensor<2x37x3xf16>)
    (%in: f32, %o: f16) {
      %0 = arith.truncf %in : f32 to f16
      linalg.yield %0 : f16
    }
  %eT = tensor.empty() : tensor<2x5x7x3xf32>
  %XT = linalg.transpose ins(%X : tensor<2x3x5x7xf32>) outs(%eT : tensor<2x5x7x3xf32>) permutation = [0, 2, 3, 1]
  return %P16, %imp, %XT : tensor<2x37x3xf16>, tensor<37xf32>, tensor<2x5x7x3xf32>
}
