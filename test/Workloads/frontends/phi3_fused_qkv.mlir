// RUN: tile-opt %s --convert-linalg-to-tile -o %t.mlir
// RUN: tile-run %t.mlir --reference %s | FileCheck %s
// RUN: tile-run %t.mlir --reference %s --device emulate | FileCheck %s
// CHECK-NOT: MISMATCH
// CHECK-NOT: NOT-FINITE
// CHECK: PASS
// Phi-3 fused QKV projection: qkv = X Wqkv^T (torch-mlir: linalg.transpose of the weight, matmul f32 acc),
// split by tensor.extract_slice into Q, K, V, heads split by expand_shape, transposed to [H, M, d].
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @phi3_qkv(
    %X: tensor<2x96xf16> {tile.name = "X", tile.init = "normal(0.0, 1.0)"},
    %W: tensor<288x96xf16> {tile.name = "Wqkv", tile.init = "normal(0.0, 0.05)"}
) -> (tensor<3x2x32xf16> {tile.name = "Q"}, tensor<3x2x32xf16> {tile.name = "K"}, tensor<3x2x32xf16> {tile.name = "V"}) {
  %z = arith.constant 0.0 : f32
  %eT = tensor.empty() : tensor<96x288xf16>
  %WT = linalg.transpose ins(%W : tensor<288x96xf16>) outs(%eT : tensor<96x288xf16>) permutation = [1, 0]
  %e0 = tensor.empty() : tensor<2x288xf32>
  %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<2x288xf32>) -> tensor<2x288xf32>
  %qkv32 = linalg.matmul ins(%X, %WT : tensor<2x96xf16>, tensor<96x288xf16>) outs(%f0 : tensor<2x288xf32>) -> tensor<2x288xf32>
  %e1 = tensor.empty() : tensor<2x288xf16>
  %qkv = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%qkv32 : tensor<2x288xf32>) outs(%e1 : tensor<2x288xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2x288xf16>
  %q = tensor.extract_slice %qkv[0, 0] [2, 96] [1, 1] : tensor<2x288xf16> to tensor<2x96xf16>
  %k = tensor.extract_slice %qkv[0, 96] [2, 96] [1, 1] : tensor<2x288xf16> to tensor<2x96xf16>
  %v = tensor.extract_slice %qkv[0, 192] [2, 96] [1, 1] : tensor<2x288xf16> to tensor<2x96xf16>
  %q3 = tensor.expand_shape %q [[0], [1, 2]] output_shape [2, 3, 32] : tensor<2x96xf16> into tensor<2x3x32xf16>
  %k3 = tensor.expand_shape %k [[0], [1, 2]] output_shape [2, 3, 32] : tensor<2x96xf16> into tensor<2x3x32xf16>
  %v3 = tensor.expand_shape %v [[0], [1, 2]] output_shape [2, 3, 32] : tensor<2x96xf16> into tensor<2x3x32xf16>
  %eq = tensor.empty() : tensor<3x2x32xf16>
  %Q = linalg.transpose ins(%q3 : tensor<2x3x32xf16>) outs(%eq : tensor<3x2x32xf16>) permutation = [1, 0, 2]
  %ek = tensor.empty() : tensor<3x2x32xf16>
  %K = linalg.transpose ins(%k3 : tensor<2x3x32xf16>) outs(%ek : tensor<3x2x32xf16>) permutation = [1, 0, 2]
  %ev = tensor.empty() : tensor<3x2x32xf16>
  %V = linalg.transpose ins(%v3 : tensor<2x3x32xf16>) outs(%ev : tensor<3x2x32xf16>) permutation = [1, 0, 2]
  return %Q, %K, %V : tensor<3x2x32xf16>, tensor<3x2x32xf16>, tensor<3x2x32xf16>
}
