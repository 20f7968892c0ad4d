// RUN: tile-opt %s --convert-linalg-to-tile -o %t.mlir
// RUN: tile-run %t.mlir --reference %s | FileCheck %s
// RUN: tile-run %t.mlir --reference %s --device emulate | FileCheck %s
// CHECK-NOT: MISMATCH
// CHECK-NOT: NOT-FINITE
// CHECK: PASS
// HF repeat_kv GQA decode: K/V [1,KVH=2,P=56,d=24] broadcast over the group (linalg.broadcast) to [1,2,3,56,24],
// collapsed to 6 heads; scores via batch_matmul on transposed K; softmax via linalg.softmax directly in f16.
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @gqa_repeat_kv(
    %Q: tensor<1x6x1x24xf16> {tile.name = "Q", tile.init = "normal(0.0, 1.0)"},
    %K: tensor<1x2x56x24xf16> {tile.name = "K", tile.init = "normal(0.0, 1.0)"},
    %V: tensor<1x2x56x24xf16> {tile.name = "V", tile.init = "normal(0.0, 1.0)"}
) -> (tensor<1x1x144xf16> {tile.name = "O"}) {
  %z = arith.constant 0.0 : f16
  %eKb = tensor.empty() : tensor<1x2x3x56x24xf16>
  %Kb = linalg.broadcast ins(%K : tensor<1x2x56x24xf16>) outs(%eKb : tensor<1x2x3x56x24xf16>) dimensions = [2]
  %Kr = tensor.collapse_shape %Kb [[0], [1, 2], [3], [4]] : tensor<1x2x3x56x24xf16> into tensor<1x6x56x24xf16>
  %eVb = tensor.empty() : tensor<1x2x3x56x24xf16>
  %Vb = linalg.broadcast ins(%V : tensor<1x2x56x24xf16>) outs(%eVb : tensor<1x2x3x56x24xf16>) dimensions = [2]
  %Vr = tensor.collapse_shape %Vb [[0], [1, 2], [3], [4]] : tensor<1x2x3x56x24xf16> into tensor<1x6x56x24xf16>
  %eKT = tensor.empty() : tensor<1x6x24x56xf16>
  %KT = linalg.transpose ins(%Kr : tensor<1x6x56x24xf16>) outs(%eKT : tensor<1x6x24x56xf16>) permutation = [0, 1, 3, 2]
  %q3 = tensor.collapse_shape %Q [[0, 1], [2], [3]] : tensor<1x6x1x24xf16> into tensor<6x1x24xf16>
  %kt3 = tensor.collapse_shape %KT [[0, 1], [2], [3]] : tensor<1x6x24x56xf16> into tensor<6x24x56xf16>
  %v3 = tensor.collapse_shape %Vr [[0, 1], [2], [3]] : tensor<1x6x56x24xf16> into tensor<6x56x24xf16>
  %eS = tensor.empty() : tensor<6x1x56xf16>
  %fS = linalg.fill ins(%z : f16) outs(%eS : tensor<6x1x56xf16>) -> tensor<6x1x56xf16>
  %S = linalg.batch_matmul ins(%q3, %kt3 : tensor<6x1x24xf16>, tensor<6x24x56xf16>) outs(%fS : tensor<6x1x56xf16>) -> tensor<6x1x56xf16>
  %eSc = tensor.empty() : tensor<6x1x56xf16>
  %Sc = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%S : tensor<6x1x56xf16>) outs(%eSc : tensor<6x1x56xf16>) {
  ^bb0(%in: f16, %out: f16):
    %c = arith.constant 0.2041 : f16
    %m = arith.mulf %in, %c : f16
    linalg.yield %m : f16
  } -> tensor<6x1x56xf16>
  %eP = tensor.empty() : tensor<6x1x56xf16>
  %P = linalg.softmax dimension(2) ins(%Sc : tensor<6x1x56xf16>) outs(%eP : tensor<6x1x56xf16>) -> tensor<6x1x56xf16>
  %eO = tensor.empty() : tensor<6x1x24xf16>
  %fO = linalg.fill ins(%z : f16) outs(%eO : tensor<6x1x24xf16>) -> tensor<6x1x24xf16>
  %O3 = linalg.batch_matmul ins(%P, %v3 : tensor<6x1x56xf16>, tensor<6x56x24xf16>) outs(%fO : tensor<6x1x24xf16>) -> tensor<6x1x24xf16>
  %O4 = tensor.expand_shape %O3 [[0, 1], [2], [3]] output_shape [1, 6, 1, 24] : tensor<6x1x24xf16> into tensor<1x6x1x24xf16>
  %eOT = tensor.empty() : tensor<1x1x6x24xf16>
  %OT = linalg.transpose ins(%O4 : tensor<1x6x1x24xf16>) outs(%eOT : tensor<1x1x6x24xf16>) permutation = [0, 2, 1, 3]
  %O = tensor.collapse_shape %OT [[0], [1], [2, 3]] : tensor<1x1x6x24xf16> into tensor<1x1x144xf16>
  return %O : tensor<1x1x144xf16>
}
