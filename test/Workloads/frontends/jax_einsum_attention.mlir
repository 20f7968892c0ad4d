// RUN: tile-opt %s --convert-linalg-to-tile -o %t.mlir
// RUN: tile-run %t.mlir --reference %s | FileCheck %s
// RUN: tile-run %t.mlir --reference %s --device emulate | FileCheck %s
// CHECK-NOT: MISMATCH
// CHECK-NOT: NOT-FINITE
// CHECK: PASS
// JAX/StableHLO->linalg style attention: dot_general as linalg.generic contractions over native
// [seq, heads, dim] layouts (einsum 'qhd,khd->hqk' and 'hqk,khd->qhd'), scale as a dense splat tensor
// constant operand, softmax by generic reductions (stablehlo.reduce) with broadcast maps.
#s_q = affine_map<(h, q, k, d) -> (q, h, d)>
#s_k = affine_map<(h, q, k, d) -> (k, h, d)>
#s_o = affine_map<(h, q, k, d) -> (h, q, k)>
#o_p = affine_map<(q, h, d, k) -> (h, q, k)>
#o_v = affine_map<(q, h, d, k) -> (k, h, d)>
#o_o = affine_map<(q, h, d, k) -> (q, h, d)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#rd3 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @jax_attention(
    %Q: tensor<2x3x24xf32> {tile.name = "Q", tile.init = "normal(0.0, 1.0)"},
    %K: tensor<36x3x24xf32> {tile.name = "K", tile.init = "normal(0.0, 1.0)"},
    %V: tensor<36x3x24xf32> {tile.name = "V", tile.init = "normal(0.0, 1.0)"}
) -> (tensor<2x72xf32> {tile.name = "O"}) {
  %z = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant dense<0.2041241452319315> : tensor<3x2x36xf32>
  %eS = tensor.empty() : tensor<3x2x36xf32>
  %fS = linalg.fill ins(%z : f32) outs(%eS : tensor<3x2x36xf32>) -> tensor<3x2x36xf32>
  %S = linalg.generic {indexing_maps = [#s_q, #s_k, #s_o], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%Q, %K : tensor<2x3x24xf32>, tensor<36x3x24xf32>) outs(%fS : tensor<3x2x36xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<3x2x36xf32>
  %eC = tensor.empty() : tensor<3x2x36xf32>
  %C = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%S, %scale : tensor<3x2x36xf32>, tensor<3x2x36xf32>) outs(%eC : tensor<3x2x36xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<3x2x36xf32>
  %eM = tensor.empty() : tensor<3x2xf32>
  %fM = linalg.fill ins(%ninf : f32) outs(%eM : tensor<3x2xf32>) -> tensor<3x2xf32>
  %M = linalg.generic {indexing_maps = [#id3, #rd3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%C : tensor<3x2x36xf32>) outs(%fM : tensor<3x2xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %acc, %in : f32
    linalg.yield %m : f32
  } -> tensor<3x2xf32>
  %eE = tensor.empty() : tensor<3x2x36xf32>
  %E = linalg.generic {indexing_maps = [#id3, #rd3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%C, %M : tensor<3x2x36xf32>, tensor<3x2xf32>) outs(%eE : tensor<3x2x36xf32>) {
  ^bb0(%c: f32, %m: f32, %o: f32):
    %d = arith.subf %c, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<3x2x36xf32>
  %eZ = tensor.empty() : tensor<3x2xf32>
  %fZ = linalg.fill ins(%z : f32) outs(%eZ : tensor<3x2xf32>) -> tensor<3x2xf32>
  %Z = linalg.generic {indexing_maps = [#id3, #rd3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%E : tensor<3x2x36xf32>) outs(%fZ : tensor<3x2xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %acc, %in : f32
    linalg.yield %s : f32
  } -> tensor<3x2xf32>
  %eP = tensor.empty() : tensor<3x2x36xf32>
  %P = linalg.generic {indexing_maps = [#id3, #rd3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%E, %Z : tensor<3x2x36xf32>, tensor<3x2xf32>) outs(%eP : tensor<3x2x36xf32>) {
  ^bb0(%e: f32, %s: f32, %o: f32):
    %d = arith.divf %e, %s : f32
    linalg.yield %d : f32
  } -> tensor<3x2x36xf32>
  %eO = tensor.empty() : tensor<2x3x24xf32>
  %fO = linalg.fill ins(%z : f32) outs(%eO : tensor<2x3x24xf32>) -> tensor<2x3x24xf32>
  %O3 = linalg.generic {indexing_maps = [#o_p, #o_v, #o_o], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%P, %V : tensor<3x2x36xf32>, tensor<36x3x24xf32>) outs(%fO : tensor<2x3x24xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x3x24xf32>
  %O = tensor.collapse_shape %O3 [[0], [1, 2]] : tensor<2x3x24xf32> into tensor<2x72xf32>
  return %O : tensor<2x72xf32>
}
