// RUN: tile-opt %s --convert-linalg-to-tile -o %t.mlir
// RUN: tile-run %t.mlir --reference %s | FileCheck %s
// RUN: tile-run %t.mlir --reference %s --device emulate | FileCheck %s
// CHECK-NOT: MISMATCH
// CHECK-NOT: NOT-FINITE
// CHECK: PASS
// Speculative-decoding style cache write: two separate insert_slices of two draft tokens' K into the same cache
// argument at positions 20 and 21 (chained), plus the cache returned twice-read: attention scores of the
// verifier token against the updated cache, and an unused argument (front ends keep dead inputs).
#bA = affine_map<(b, m, n, k) -> (b, m, k)>
#bBt = affine_map<(b, m, n, k) -> (b, n, k)>
#bC = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @two_token_write(
    %k0: tensor<2x1x16xf16> {tile.name = "k0", tile.init = "normal(0.0, 1.0)"},
    %k1: tensor<2x1x16xf16> {tile.name = "k1", tile.init = "normal(0.0, 1.0)"},
    %unused: tensor<4xf32> {tile.name = "unused", tile.init = "normal(0.0, 1.0)"},
    %q: tensor<2x1x16xf16> {tile.name = "q", tile.init = "normal(0.0, 1.0)"},
    %Kc: tensor<2x24x16xf16> {tile.name = "Kc", tile.init = "normal(0.0, 1.0)"}
) -> (tensor<2x1x24xf32> {tile.name = "S"}, tensor<2x24x16xf16> {tile.name = "Kc"}) {
  %z = arith.constant 0.0 : f32
  %K1 = tensor.insert_slice %k0 into %Kc[0, 20, 0] [2, 1, 16] [1, 1, 1] : tensor<2x1x16xf16> into tensor<2x24x16xf16>
  %K2 = tensor.insert_slice %k1 into %K1[0, 21, 0] [2, 1, 16] [1, 1, 1] : tensor<2x1x16xf16> into tensor<2x24x16xf16>
  %eS = tensor.empty() : tensor<2x1x24xf32>
  %fS = linalg.fill ins(%z : f32) outs(%eS : tensor<2x1x24xf32>) -> tensor<2x1x24xf32>
  %S = linalg.batch_matmul indexing_maps = [#bA, #bBt, #bC] ins(%q, %K2 : tensor<2x1x16xf16>, tensor<2x24x16xf16>) outs(%fS : tensor<2x1x24xf32>) -> tensor<2x1x24xf32>
  return %S, %K2 : tensor<2x1x24xf32>, tensor<2x24x16xf16>
}
