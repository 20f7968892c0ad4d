// RUN: tile-opt %s --convert-linalg-to-tile -o %t.mlir
// RUN: tile-run %t.mlir --reference %s | FileCheck %s
// RUN: tile-run %t.mlir --reference %s --device emulate | FileCheck %s
// The mask from a .npy (numpy bool) as well as drawn (true where a normal
// draw is positive: half the elements).
// RUN: tile-run %t.mlir --reference %s --input allowed=@%S/Inputs/p27_allowed.npy --device emulate | FileCheck %s
// RUN: tile-opt %s --tile-optimize 2>&1 | FileCheck %s --check-prefix=OPT
// OPT: remark: extracted {{[0-9]+}} candidate(s) of @sample_probs (0 dropped by the check)
// CHECK-NOT: MISMATCH
// CHECK-NOT: NOT-FINITE
// CHECK: PASS
// Decode sampling head with torch-style inputs: bool attention/vocab mask (tensor<i1>) applied by arith.select,
// a 0-d temperature tensor broadcast by a generic map (d0, d1) -> (), softmax via linalg.softmax over dim 1.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#sc = affine_map<(d0, d1) -> ()>
func.func @sample_probs(
    %logits: tensor<3x50xf32> {tile.name = "logits", tile.init = "normal(0.0, 2.0)"},
    %allowed: tensor<3x50xi1> {tile.name = "allowed"},
    %temp: tensor<f32> {tile.name = "temp", tile.init = "uniform(0.5, 1.5)"}
) -> (tensor<3x50xf32> {tile.name = "probs"}) {
  %e0 = tensor.empty() : tensor<3x50xf32>
  %L = linalg.generic {indexing_maps = [#id2, #id2, #sc, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%logits, %allowed, %temp : tensor<3x50xf32>, tensor<3x50xi1>, tensor<f32>) outs(%e0 : tensor<3x50xf32>) {
  ^bb0(%x: f32, %a: i1, %t: f32, %o: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %d = arith.divf %x, %t : f32
    %r = arith.select %a, %d, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<3x50xf32>
  %e1 = tensor.empty() : tensor<3x50xf32>
  %P = linalg.softmax dimension(1) ins(%L : tensor<3x50xf32>) outs(%e1 : tensor<3x50xf32>) -> tensor<3x50xf32>
  return %P : tensor<3x50xf32>
}
