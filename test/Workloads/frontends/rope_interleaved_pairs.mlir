// RUN: tile-opt %s --convert-linalg-to-tile -o %t.mlir
// RUN: tile-run %t.mlir --reference %s | FileCheck %s
// RUN: tile-run %t.mlir --reference %s --device emulate | FileCheck %s
// CHECK-NOT: MISMATCH
// CHECK-NOT: NOT-FINITE
// CHECK: PASS
// Meta/GPT-J interleaved rope (pairs (x[2i], x[2i+1]) rotated, view_as_complex style): expand_shape the head dim
// into [.., 20, 2], extract_slice real/imag parts, complex multiply with cos/sin [M, 20], re-interleave with
// insert_slice, collapse back. K [1, 3(M), 2(KVH), 40(d)] bf16 with f32 math.
#m4 = affine_map<(b, m, h, j) -> (b, m, h, j)>
#cs = affine_map<(b, m, h, j) -> (m, j)>
func.func @rope_interleaved(
    %k: tensor<1x3x2x40xbf16> {tile.name = "k", tile.init = "normal(0.0, 1.0)"},
    %cos: tensor<3x20xf32> {tile.name = "cos", tile.init = "uniform(-1.0, 1.0)"},
    %sin: tensor<3x20xf32> {tile.name = "sin", tile.init = "uniform(-1.0, 1.0)"}
) -> (tensor<1x3x2x40xbf16> {tile.name = "kr"}) {
  %k5 = tensor.expand_shape %k [[0], [1], [2], [3, 4]] output_shape [1, 3, 2, 20, 2] : tensor<1x3x2x40xbf16> into tensor<1x3x2x20x2xbf16>
  %re5 = tensor.extract_slice %k5[0, 0, 0, 0, 0] [1, 3, 2, 20, 1] [1, 1, 1, 1, 1] : tensor<1x3x2x20x2xbf16> to tensor<1x3x2x20x1xbf16>
  %im5 = tensor.extract_slice %k5[0, 0, 0, 0, 1] [1, 3, 2, 20, 1] [1, 1, 1, 1, 1] : tensor<1x3x2x20x2xbf16> to tensor<1x3x2x20x1xbf16>
  %re = tensor.collapse_shape %re5 [[0], [1], [2], [3, 4]] : tensor<1x3x2x20x1xbf16> into tensor<1x3x2x20xbf16>
  %im = tensor.collapse_shape %im5 [[0], [1], [2], [3, 4]] : tensor<1x3x2x20x1xbf16> into tensor<1x3x2x20xbf16>
  %e0 = tensor.empty() : tensor<1x3x2x20xbf16>
  %e1 = tensor.empty() : tensor<1x3x2x20xbf16>
  %rr, %ri = linalg.generic {indexing_maps = [#m4, #m4, #cs, #cs, #m4, #m4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%re, %im, %cos, %sin : tensor<1x3x2x20xbf16>, tensor<1x3x2x20xbf16>, tensor<3x20xf32>, tensor<3x20xf32>)
      outs(%e0, %e1 : tensor<1x3x2x20xbf16>, tensor<1x3x2x20xbf16>) {
  ^bb0(%a16: bf16, %b16: bf16, %c: f32, %s: f32, %o0: bf16, %o1: bf16):
    %a = arith.extf %a16 : bf16 to f32
    %b = arith.extf %b16 : bf16 to f32
    %ac = arith.mulf %a, %c : f32
    %bs = arith.mulf %b, %s : f32
    %r0 = arith.subf %ac, %bs : f32
    %as = arith.mulf %a, %s : f32
    %bc = arith.mulf %b, %c : f32
    %r1 = arith.addf %as, %bc : f32
    %t0 = arith.truncf %r0 : f32 to bf16
    %t1 = arith.truncf %r1 : f32 to bf16
    linalg.yield %t0, %t1 : bf16, bf16
  } -> (tensor<1x3x2x20xbf16>, tensor<1x3x2x20xbf16>)
  %rr5 = tensor.expand_shape %rr [[0], [1], [2], [3, 4]] output_shape [1, 3, 2, 20, 1] : tensor<1x3x2x20xbf16> into tensor<1x3x2x20x1xbf16>
  %ri5 = tensor.expand_shape %ri [[0], [1], [2], [3, 4]] output_shape [1, 3, 2, 20, 1] : tensor<1x3x2x20xbf16> into tensor<1x3x2x20x1xbf16>
  %eo = tensor.empty() : tensor<1x3x2x20x2xbf16>
  %o0 = tensor.insert_slice %rr5 into %eo[0, 0, 0, 0, 0] [1, 3, 2, 20, 1] [1, 1, 1, 1, 1] : tensor<1x3x2x20x1xbf16> into tensor<1x3x2x20x2xbf16>
  %o1 = tensor.insert_slice %ri5 into %o0[0, 0, 0, 0, 1] [1, 3, 2, 20, 1] [1, 1, 1, 1, 1] : tensor<1x3x2x20x1xbf16> into tensor<1x3x2x20x2xbf16>
  %kr = tensor.collapse_shape %o1 [[0], [1], [2], [3, 4]] : tensor<1x3x2x20x2xbf16> into tensor<1x3x2x40xbf16>
  return %kr : tensor<1x3x2x40xbf16>
}
