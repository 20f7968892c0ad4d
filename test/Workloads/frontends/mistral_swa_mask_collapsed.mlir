// RUN: tile-opt %s --convert-linalg-to-tile -o %t.mlir
// RUN: tile-run %t.mlir --reference %s --input mask=@%S/Inputs/p05_mask.npy | FileCheck %s
// RUN: tile-run %t.mlir --reference %s --input mask=@%S/Inputs/p05_mask.npy --device emulate | FileCheck %s
// CHECK-NOT: MISMATCH
// CHECK-NOT: NOT-FINITE
// CHECK: PASS
// Mistral decode attention (2 new tokens), sliding-window additive mask [1,1,M,P] (0 / -inf, from a .npy),
// torch-mlir style: transpose K, collapse batch/heads, batch_matmul, scale, mask add (broadcast via generic map),
// linalg.softmax in f32, truncf, batch_matmul with V, transpose back, collapse heads.
#m4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#mmask = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
func.func @mistral_swa2(
    %Q: tensor<1x4x2x32xf16> {tile.name = "Q", tile.init = "normal(0.0, 1.0)"},
    %K: tensor<1x4x48x32xf16> {tile.name = "K", tile.init = "normal(0.0, 1.0)"},
    %V: tensor<1x4x48x32xf16> {tile.name = "V", tile.init = "normal(0.0, 1.0)"},
    %mask: tensor<1x1x2x48xf16> {tile.name = "mask"}
) -> (tensor<1x2x128xf16> {tile.name = "O"}) {
  %z = arith.constant 0.0 : f32
  %eKT = tensor.empty() : tensor<1x4x32x48xf16>
  %KT = linalg.transpose ins(%K : tensor<1x4x48x32xf16>) outs(%eKT : tensor<1x4x32x48xf16>) permutation = [0, 1, 3, 2]
  %q3 = tensor.collapse_shape %Q [[0, 1], [2], [3]] : tensor<1x4x2x32xf16> into tensor<4x2x32xf16>
  %kt3 = tensor.collapse_shape %KT [[0, 1], [2], [3]] : tensor<1x4x32x48xf16> into tensor<4x32x48xf16>
  %eS = tensor.empty() : tensor<4x2x48xf32>
  %fS = linalg.fill ins(%z : f32) outs(%eS : tensor<4x2x48xf32>) -> tensor<4x2x48xf32>
  %S3 = linalg.batch_matmul ins(%q3, %kt3 : tensor<4x2x32xf16>, tensor<4x32x48xf16>) outs(%fS : tensor<4x2x48xf32>) -> tensor<4x2x48xf32>
  %S = tensor.expand_shape %S3 [[0, 1], [2], [3]] output_shape [1, 4, 2, 48] : tensor<4x2x48xf32> into tensor<1x4x2x48xf32>
  %mask2 = tensor.collapse_shape %mask [[0, 1, 2], [3]] : tensor<1x1x2x48xf16> into tensor<2x48xf16>
  %eL = tensor.empty() : tensor<1x4x2x48xf32>
  %L = linalg.generic {indexing_maps = [#m4, #mmask, #m4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%S, %mask2 : tensor<1x4x2x48xf32>, tensor<2x48xf16>) outs(%eL : tensor<1x4x2x48xf32>) {
  ^bb0(%s: f32, %m: f16, %out: f32):
    %c = arith.constant 0.17677669529663687 : f32
    %a = arith.mulf %s, %c : f32
    %mf = arith.extf %m : f16 to f32
    %r = arith.addf %a, %mf : f32
    linalg.yield %r : f32
  } -> tensor<1x4x2x48xf32>
  %eP = tensor.empty() : tensor<1x4x2x48xf32>
  %P = linalg.softmax dimension(3) ins(%L : tensor<1x4x2x48xf32>) outs(%eP : tensor<1x4x2x48xf32>) -> tensor<1x4x2x48xf32>
  %eP16 = tensor.empty() : tensor<1x4x2x48xf16>
  %P16 = linalg.generic {indexing_maps = [#m4, #m4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%P : tensor<1x4x2x48xf32>) outs(%eP16 : tensor<1x4x2x48xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x4x2x48xf16>
  %p3 = tensor.collapse_shape %P16 [[0, 1], [2], [3]] : tensor<1x4x2x48xf16> into tensor<4x2x48xf16>
  %v3 = tensor.collapse_shape %V [[0, 1], [2], [3]] : tensor<1x4x48x32xf16> into tensor<4x48x32xf16>
  %eO = tensor.empty() : tensor<4x2x32xf32>
  %fO = linalg.fill ins(%z : f32) outs(%eO : tensor<4x2x32xf32>) -> tensor<4x2x32xf32>
  %O3 = linalg.batch_matmul ins(%p3, %v3 : tensor<4x2x48xf16>, tensor<4x48x32xf16>) outs(%fO : tensor<4x2x32xf32>) -> tensor<4x2x32xf32>
  %O4 = tensor.expand_shape %O3 [[0, 1], [2], [3]] output_shape [1, 4, 2, 32] : tensor<4x2x32xf32> into tensor<1x4x2x32xf32>
  %eOT = tensor.empty() : tensor<1x2x4x32xf32>
  %OT = linalg.transpose ins(%O4 : tensor<1x4x2x32xf32>) outs(%eOT : tensor<1x2x4x32xf32>) permutation = [0, 2, 1, 3]
  %Oc = tensor.collapse_shape %OT [[0], [1], [2, 3]] : tensor<1x2x4x32xf32> into tensor<1x2x128xf32>
  %eO16 = tensor.empty() : tensor<1x2x128xf16>
  %O = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%Oc : tensor<1x2x128xf32>) outs(%eO16 : tensor<1x2x128xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x2x128xf16>
  return %O : tensor<1x2x128xf16>
}
