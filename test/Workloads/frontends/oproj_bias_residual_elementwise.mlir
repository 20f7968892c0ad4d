// RUN: tile-opt %s --convert-linalg-to-tile -o %t.mlir
// RUN: tile-run %t.mlir --reference %s | FileCheck %s
// RUN: tile-run %t.mlir --reference %s --device emulate | FileCheck %s
// CHECK-NOT: MISMATCH
// CHECK-NOT: NOT-FINITE
// CHECK: PASS
// Attention output projection + bias + residual: Y = X + (O Wo^T + bo), written with the newer
// linalg.elementwise op (indexing_maps for the bias broadcast) and linalg.matmul with a transposed-B map.
#mA = affine_map<(m, n, k) -> (m, k)>
#mBt = affine_map<(m, n, k) -> (n, k)>
#mC = affine_map<(m, n, k) -> (m, n)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @oproj_residual(
    %O: tensor<4x96xf16> {tile.name = "O", tile.init = "normal(0.0, 1.0)"},
    %Wo: tensor<96x96xf16> {tile.name = "Wo", tile.init = "normal(0.0, 0.05)"},
    %bo: tensor<96xf32> {tile.name = "bo", tile.init = "normal(0.0, 0.5)"},
    %X: tensor<4x96xf32> {tile.name = "X", tile.init = "normal(0.0, 1.0)"}
) -> (tensor<4x96xf32> {tile.name = "Y"}) {
  %z = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x96xf32>
  %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<4x96xf32>) -> tensor<4x96xf32>
  %P = linalg.matmul indexing_maps = [#mA, #mBt, #mC] ins(%O, %Wo : tensor<4x96xf16>, tensor<96x96xf16>) outs(%f0 : tensor<4x96xf32>) -> tensor<4x96xf32>
  %e1 = tensor.empty() : tensor<4x96xf32>
  %Pb = linalg.elementwise kind=#linalg.elementwise_kind<add> indexing_maps = [#id2, #col, #id2]
      ins(%P, %bo : tensor<4x96xf32>, tensor<96xf32>) outs(%e1 : tensor<4x96xf32>) -> tensor<4x96xf32>
  %e2 = tensor.empty() : tensor<4x96xf32>
  %Y = linalg.elementwise kind=#linalg.elementwise_kind<add>
      ins(%X, %Pb : tensor<4x96xf32>, tensor<4x96xf32>) outs(%e2 : tensor<4x96xf32>) -> tensor<4x96xf32>
  return %Y : tensor<4x96xf32>
}
