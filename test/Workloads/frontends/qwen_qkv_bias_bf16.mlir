// RUN: tile-opt %s --convert-linalg-to-tile -o %t.mlir
// RUN: tile-run %t.mlir --reference %s | FileCheck %s
// RUN: tile-run %t.mlir --reference %s --device emulate | FileCheck %s
// CHECK-NOT: MISMATCH
// CHECK-NOT: NOT-FINITE
// CHECK: PASS
// Qwen2-style QKV projection with bias, GQA (H=4, KVH=2, d=16), bf16 weights, batch dim 1.
// torch-mlir style: linalg.transpose of weights, linalg.matmul into f32, bias by linalg.broadcast + linalg.add.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @qwen_qkv(
    %X: tensor<1x4x64xbf16> {tile.name = "X", tile.init = "normal(0.0, 1.0)"},
    %Wq: tensor<64x64xbf16> {tile.name = "Wq", tile.init = "normal(0.0, 0.05)"},
    %bq: tensor<64xbf16> {tile.name = "bq", tile.init = "normal(0.0, 0.5)"},
    %Wk: tensor<32x64xbf16> {tile.name = "Wk", tile.init = "normal(0.0, 0.05)"},
    %bk: tensor<32xbf16> {tile.name = "bk", tile.init = "normal(0.0, 0.5)"},
    %Wv: tensor<32x64xbf16> {tile.name = "Wv", tile.init = "normal(0.0, 0.05)"},
    %bv: tensor<32xbf16> {tile.name = "bv", tile.init = "normal(0.0, 0.5)"}
) -> (tensor<1x4x4x16xbf16> {tile.name = "Q"}, tensor<1x2x4x16xbf16> {tile.name = "K"}, tensor<1x2x4x16xbf16> {tile.name = "V"}) {
  %z = arith.constant 0.0 : f32
  %x2 = tensor.collapse_shape %X [[0, 1], [2]] : tensor<1x4x64xbf16> into tensor<4x64xbf16>
  // Q
  %eqT = tensor.empty() : tensor<64x64xbf16>
  %WqT = linalg.transpose ins(%Wq : tensor<64x64xbf16>) outs(%eqT : tensor<64x64xbf16>) permutation = [1, 0]
  %eq0 = tensor.empty() : tensor<4x64xf32>
  %fq = linalg.fill ins(%z : f32) outs(%eq0 : tensor<4x64xf32>) -> tensor<4x64xf32>
  %q0 = linalg.matmul ins(%x2, %WqT : tensor<4x64xbf16>, tensor<64x64xbf16>) outs(%fq : tensor<4x64xf32>) -> tensor<4x64xf32>
  %eqb = tensor.empty() : tensor<64xf32>
  %bqf = linalg.map ins(%bq : tensor<64xbf16>) outs(%eqb : tensor<64xf32>)
    (%in: bf16, %o: f32) {
      %0 = arith.extf %in : bf16 to f32
      linalg.yield %0 : f32
    }
  %eqbb = tensor.empty() : tensor<4x64xf32>
  %bqb = linalg.broadcast ins(%bqf : tensor<64xf32>) outs(%eqbb : tensor<4x64xf32>) dimensions = [0]
  %eq1 = tensor.empty() : tensor<4x64xf32>
  %q1 = linalg.add ins(%q0, %bqb : tensor<4x64xf32>, tensor<4x64xf32>) outs(%eq1 : tensor<4x64xf32>) -> tensor<4x64xf32>
  %eq2 = tensor.empty() : tensor<4x64xbf16>
  %q2 = linalg.map ins(%q1 : tensor<4x64xf32>) outs(%eq2 : tensor<4x64xbf16>)
    (%in: f32, %o: bf16) {
      %0 = arith.truncf %in : f32 to bf16
      linalg.yield %0 : bf16
    }
  %q3 = tensor.expand_shape %q2 [[0, 1], [2, 3]] output_shape [1, 4, 4, 16] : tensor<4x64xbf16> into tensor<1x4x4x16xbf16>
  %eq4 = tensor.empty() : tensor<1x4x4x16xbf16>
  %Q = linalg.transpose ins(%q3 : tensor<1x4x4x16xbf16>) outs(%eq4 : tensor<1x4x4x16xbf16>) permutation = [0, 2, 1, 3]
  // K
  %ekT = tensor.empty() : tensor<64x32xbf16>
  %WkT = linalg.transpose ins(%Wk : tensor<32x64xbf16>) outs(%ekT : tensor<64x32xbf16>) permutation = [1, 0]
  %ek0 = tensor.empty() : tensor<4x32xf32>
  %fk = linalg.fill ins(%z : f32) outs(%ek0 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %k0 = linalg.matmul ins(%x2, %WkT : tensor<4x64xbf16>, tensor<64x32xbf16>) outs(%fk : tensor<4x32xf32>) -> tensor<4x32xf32>
  %ekb = tensor.empty() : tensor<32xf32>
  %bkf = linalg.map ins(%bk : tensor<32xbf16>) outs(%ekb : tensor<32xf32>)
    (%in: bf16, %o: f32) {
      %0 = arith.extf %in : bf16 to f32
      linalg.yield %0 : f32
    }
  %ekbb = tensor.empty() : tensor<4x32xf32>
  %bkb = linalg.broadcast ins(%bkf : tensor<32xf32>) outs(%ekbb : tensor<4x32xf32>) dimensions = [0]
  %ek1 = tensor.empty() : tensor<4x32xf32>
  %k1 = linalg.add ins(%k0, %bkb : tensor<4x32xf32>, tensor<4x32xf32>) outs(%ek1 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %ek2 = tensor.empty() : tensor<4x32xbf16>
  %k2 = linalg.map ins(%k1 : tensor<4x32xf32>) outs(%ek2 : tensor<4x32xbf16>)
    (%in: f32, %o: bf16) {
      %0 = arith.truncf %in : f32 to bf16
      linalg.yield %0 : bf16
    }
  %k3 = tensor.expand_shape %k2 [[0, 1], [2, 3]] output_shape [1, 4, 2, 16] : tensor<4x32xbf16> into tensor<1x4x2x16xbf16>
  %ek4 = tensor.empty() : tensor<1x2x4x16xbf16>
  %K = linalg.transpose ins(%k3 : tensor<1x4x2x16xbf16>) outs(%ek4 : tensor<1x2x4x16xbf16>) permutation = [0, 2, 1, 3]
  // V
  %evT = tensor.empty() : tensor<64x32xbf16>
  %WvT = linalg.transpose ins(%Wv : tensor<32x64xbf16>) outs(%evT : tensor<64x32xbf16>) permutation = [1, 0]
  %ev0 = tensor.empty() : tensor<4x32xf32>
  %fv = linalg.fill ins(%z : f32) outs(%ev0 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %v0 = linalg.matmul ins(%x2, %WvT : tensor<4x64xbf16>, tensor<64x32xbf16>) outs(%fv : tensor<4x32xf32>) -> tensor<4x32xf32>
  %evb = tensor.empty() : tensor<32xf32>
  %bvf = linalg.map ins(%bv : tensor<32xbf16>) outs(%evb : tensor<32xf32>)
    (%in: bf16, %o: f32) {
      %0 = arith.extf %in : bf16 to f32
      linalg.yield %0 : f32
    }
  %evbb = tensor.empty() : tensor<4x32xf32>
  %bvb = linalg.broadcast ins(%bvf : tensor<32xf32>) outs(%evbb : tensor<4x32xf32>) dimensions = [0]
  %ev1 = tensor.empty() : tensor<4x32xf32>
  %v1 = linalg.add ins(%v0, %bvb : tensor<4x32xf32>, tensor<4x32xf32>) outs(%ev1 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %ev2 = tensor.empty() : tensor<4x32xbf16>
  %v2 = linalg.map ins(%v1 : tensor<4x32xf32>) outs(%ev2 : tensor<4x32xbf16>)
    (%in: f32, %o: bf16) {
      %0 = arith.truncf %in : f32 to bf16
      linalg.yield %0 : bf16
    }
  %v3 = tensor.expand_shape %v2 [[0, 1], [2, 3]] output_shape [1, 4, 2, 16] : tensor<4x32xbf16> into tensor<1x4x2x16xbf16>
  %ev4 = tensor.empty() : tensor<1x2x4x16xbf16>
  %V = linalg.transpose ins(%v3 : tensor<1x4x2x16xbf16>) outs(%ev4 : tensor<1x2x4x16xbf16>) permutation = [0, 2, 1, 3]
  return %Q, %K, %V : tensor<1x4x4x16xbf16>, tensor<1x2x4x16xbf16>, tensor<1x2x4x16xbf16>
}
