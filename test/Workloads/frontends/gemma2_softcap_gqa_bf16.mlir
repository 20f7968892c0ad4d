// RUN: tile-opt %s --convert-linalg-to-tile -o %t.mlir
// RUN: tile-run %t.mlir --reference %s | FileCheck %s
// RUN: tile-run %t.mlir --reference %s --device emulate | FileCheck %s
// CHECK-NOT: MISMATCH
// CHECK-NOT: NOT-FINITE
// CHECK: PASS
// Gemma-2 decode attention: logits softcap tanh(s/50)*50, GQA (H=4, KVH=2) by expand_shape of Q,
// Q.K^T as linalg.batch_matmul with a transposed-B indexing map, softmax written as JAX/StableHLO emits it
// (linalg.generic reductions with a reduction iterator), bf16 storage, f32 math.
#bA = affine_map<(b, m, n, k) -> (b, m, k)>
#bBt = affine_map<(b, m, n, k) -> (b, n, k)>
#bC = affine_map<(b, m, n, k) -> (b, m, n)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#rd3 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @gemma2_attn(
    %Q: tensor<4x1x32xbf16> {tile.name = "Q", tile.init = "normal(0.0, 1.0)"},
    %Kc: tensor<2x40x32xbf16> {tile.name = "Kc", tile.init = "normal(0.0, 1.0)"},
    %Vc: tensor<2x40x32xbf16> {tile.name = "Vc", tile.init = "normal(0.0, 1.0)"}
) -> (tensor<4x1x32xbf16> {tile.name = "O"}) {
  %z = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %Qe = tensor.expand_shape %Q [[0, 1], [2], [3]] output_shape [2, 2, 1, 32] : tensor<4x1x32xbf16> into tensor<2x2x1x32xbf16>
  %Qg = tensor.collapse_shape %Qe [[0], [1, 2], [3]] : tensor<2x2x1x32xbf16> into tensor<2x2x32xbf16>
  %eS = tensor.empty() : tensor<2x2x40xf32>
  %fS = linalg.fill ins(%z : f32) outs(%eS : tensor<2x2x40xf32>) -> tensor<2x2x40xf32>
  %S = linalg.batch_matmul indexing_maps = [#bA, #bBt, #bC] ins(%Qg, %Kc : tensor<2x2x32xbf16>, tensor<2x40x32xbf16>) outs(%fS : tensor<2x2x40xf32>) -> tensor<2x2x40xf32>
  %eC = tensor.empty() : tensor<2x2x40xf32>
  %C = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%S : tensor<2x2x40xf32>) outs(%eC : tensor<2x2x40xf32>) {
  ^bb0(%s: f32, %out: f32):
    %scale = arith.constant 0.17677669529663687 : f32
    %cap = arith.constant 50.0 : f32
    %a = arith.mulf %s, %scale : f32
    %b = arith.divf %a, %cap : f32
    %t = math.tanh %b : f32
    %c = arith.mulf %t, %cap : f32
    linalg.yield %c : f32
  } -> tensor<2x2x40xf32>
  %eM = tensor.empty() : tensor<2x2xf32>
  %fM = linalg.fill ins(%ninf : f32) outs(%eM : tensor<2x2xf32>) -> tensor<2x2xf32>
  %M = linalg.generic {indexing_maps = [#id3, #rd3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%C : tensor<2x2x40xf32>) outs(%fM : tensor<2x2xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  } -> tensor<2x2xf32>
  %eE = tensor.empty() : tensor<2x2x40xf32>
  %E = linalg.generic {indexing_maps = [#id3, #rd3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%C, %M : tensor<2x2x40xf32>, tensor<2x2xf32>) outs(%eE : tensor<2x2x40xf32>) {
  ^bb0(%c: f32, %m: f32, %out: f32):
    %d = arith.subf %c, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<2x2x40xf32>
  %eZ = tensor.empty() : tensor<2x2xf32>
  %fZ = linalg.fill ins(%z : f32) outs(%eZ : tensor<2x2xf32>) -> tensor<2x2xf32>
  %Z = linalg.generic {indexing_maps = [#id3, #rd3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%E : tensor<2x2x40xf32>) outs(%fZ : tensor<2x2xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2x2xf32>
  %eP = tensor.empty() : tensor<2x2x40xbf16>
  %P = linalg.generic {indexing_maps = [#id3, #rd3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%E, %Z : tensor<2x2x40xf32>, tensor<2x2xf32>) outs(%eP : tensor<2x2x40xbf16>) {
  ^bb0(%e: f32, %s: f32, %out: bf16):
    %d = arith.divf %e, %s : f32
    %t = arith.truncf %d : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<2x2x40xbf16>
  %eO = tensor.empty() : tensor<2x2x32xf32>
  %fO = linalg.fill ins(%z : f32) outs(%eO : tensor<2x2x32xf32>) -> tensor<2x2x32xf32>
  %O1 = linalg.batch_matmul ins(%P, %Vc : tensor<2x2x40xbf16>, tensor<2x40x32xbf16>) outs(%fO : tensor<2x2x32xf32>) -> tensor<2x2x32xf32>
  %eOb = tensor.empty() : tensor<2x2x32xbf16>
  %O2 = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%O1 : tensor<2x2x32xf32>) outs(%eOb : tensor<2x2x32xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %t = arith.truncf %in : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<2x2x32xbf16>
  %Oe = tensor.expand_shape %O2 [[0], [1, 2], [3]] output_shape [2, 2, 1, 32] : tensor<2x2x32xbf16> into tensor<2x2x1x32xbf16>
  %O = tensor.collapse_shape %Oe [[0, 1], [2], [3]] : tensor<2x2x1x32xbf16> into tensor<4x1x32xbf16>
  return %O : tensor<4x1x32xbf16>
}
