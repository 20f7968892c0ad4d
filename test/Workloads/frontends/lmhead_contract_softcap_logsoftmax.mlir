// RUN: tile-opt %s --convert-linalg-to-tile -o %t.mlir
// RUN: tile-run %t.mlir --reference %s | FileCheck %s
// RUN: tile-run %t.mlir --reference %s --device emulate | FileCheck %s
// CHECK-NOT: MISMATCH
// CHECK-NOT: NOT-FINITE
// CHECK: PASS
// Final norm output -> tied-embedding LM head via linalg.contract (h E^T, E [V=200, D=64] bf16),
// Gemma-2 final logit softcap 30*tanh(x/30), then log_softmax (max, exp-sum, math.log) -> f32 log-probs.
#cA = affine_map<(m, n, k) -> (m, k)>
#cB = affine_map<(m, n, k) -> (n, k)>
#cC = affine_map<(m, n, k) -> (m, n)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @lmhead(
    %h: tensor<3x64xbf16> {tile.name = "h", tile.init = "normal(0.0, 1.0)"},
    %E: tensor<200x64xbf16> {tile.name = "E", tile.init = "normal(0.0, 0.5)"}
) -> (tensor<3x200xf32> {tile.name = "logp"}) {
  %z = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e0 = tensor.empty() : tensor<3x200xf32>
  %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<3x200xf32>) -> tensor<3x200xf32>
  %L = linalg.contract indexing_maps = [#cA, #cB, #cC] ins(%h, %E : tensor<3x64xbf16>, tensor<200x64xbf16>) outs(%f0 : tensor<3x200xf32>) -> tensor<3x200xf32>
  %e1 = tensor.empty() : tensor<3x200xf32>
  %C = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%L : tensor<3x200xf32>) outs(%e1 : tensor<3x200xf32>) {
  ^bb0(%x: f32, %o: f32):
    %cap = arith.constant 30.0 : f32
    %a = arith.divf %x, %cap : f32
    %t = math.tanh %a : f32
    %r = arith.mulf %t, %cap : f32
    linalg.yield %r : f32
  } -> tensor<3x200xf32>
  %eM = tensor.empty() : tensor<3xf32>
  %fM = linalg.fill ins(%ninf : f32) outs(%eM : tensor<3xf32>) -> tensor<3xf32>
  %M = linalg.reduce ins(%C : tensor<3x200xf32>) outs(%fM : tensor<3xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  %fZ = linalg.fill ins(%z : f32) outs(%eM : tensor<3xf32>) -> tensor<3xf32>
  %Z = linalg.generic {indexing_maps = [#id2, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%C, %M : tensor<3x200xf32>, tensor<3xf32>) outs(%fZ : tensor<3xf32>) {
  ^bb0(%c: f32, %m: f32, %acc: f32):
    %d = arith.subf %c, %m : f32
    %e = math.exp %d : f32
    %s = arith.addf %acc, %e : f32
    linalg.yield %s : f32
  } -> tensor<3xf32>
  %e2 = tensor.empty() : tensor<3x200xf32>
  %LP = linalg.generic {indexing_maps = [#id2, #row, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%C, %M, %Z : tensor<3x200xf32>, tensor<3xf32>, tensor<3xf32>) outs(%e2 : tensor<3x200xf32>) {
  ^bb0(%c: f32, %m: f32, %s: f32, %o: f32):
    %d = arith.subf %c, %m : f32
    %l = math.log %s : f32
    %r = arith.subf %d, %l : f32
    linalg.yield %r : f32
  } -> tensor<3x200xf32>
  return %LP : tensor<3x200xf32>
}
