// RUN: tile-opt %s --convert-linalg-to-tile -o %t.mlir
// RUN: tile-run %t.mlir --reference %s --input allowed=@%S/Inputs/p27b_allowed.npy | FileCheck %s
// RUN: tile-run %t.mlir --reference %s --input allowed=@%S/Inputs/p27b_allowed.npy --device emulate | FileCheck %s
// CHECK-NOT: MISMATCH
// CHECK-NOT: NOT-FINITE
// CHECK: PASS
// Decode sampling head with torch-style inputs: 0/1 float vocab mask (cmpf) applied by arith.select,
// a 0-d temperature tensor broadcast by a generic map (d0, d1) -> (), softmax via linalg.softmax over dim 1.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#sc = affine_map<(d0, d1) -> ()>
func.func @sample_probs_f32mask(
    %logits: tensor<3x50xf32> {tile.name = "logits", tile.init = "normal(0.0, 2.0)"},
    %allowed: tensor<3x50xf32> {tile.name = "allowed"},
    %temp: tensor<f32> {tile.name = "temp", tile.init = "uniform(0.5, 1.5)"}
) -> (tensor<3x50xf32> {tile.name = "probs"}) {
  %e0 = tensor.empty() : tensor<3x50xf32>
  %L = linalg.generic {indexing_maps = [#id2, #id2, #sc, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%logits, %allowed, %temp : tensor<3x50xf32>, tensor<3x50xf32>, tensor<f32>) outs(%e0 : tensor<3x50xf32>) {
  ^bb0(%x: f32, %af: f32, %t: f32, %o: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %d = arith.divf %x, %t : f32
    %c0 = arith.constant 0.5 : f32
    %a = arith.cmpf ogt, %af, %c0 : f32
    %r = arith.select %a, %d, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<3x50xf32>
  %e1 = tensor.empty() : tensor<3x50xf32>
  %P = linalg.softmax dimension(1) ins(%L : tensor<3x50xf32>) outs(%e1 : tensor<3x50xf32>) -> tensor<3x50xf32>
  return %P : tensor<3x50xf32>
}
