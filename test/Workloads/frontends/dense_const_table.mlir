// RUN: tile-opt %s --convert-linalg-to-tile -o %t.mlir
// RUN: tile-run %t.mlir --reference %s | FileCheck %s
// RUN: tile-run %t.mlir --reference %s --device emulate | FileCheck %s
// CHECK-NOT: MISMATCH
// CHECK-NOT: NOT-FINITE
// CHECK: PASS
// JAX-style baked constants: a non-splat dense tensor constant (inverse frequencies for rope) used as a generic operand,
// positions from linalg.index, cos/sin from math.cos / math.sin of the angles.
#m2 = affine_map<(m, j) -> (m, j)>
#c = affine_map<(m, j) -> (j)>
func.func @rope_tables(%x: tensor<5x4xf32> {tile.name = "x", tile.init = "normal(0.0, 1.0)"}) -> (tensor<5x4xf32> {tile.name = "y"}) {
  %invf = arith.constant dense<[1.0, 0.1, 0.01, 0.001]> : tensor<4xf32>
  %e = tensor.empty() : tensor<5x4xf32>
  %y = linalg.generic {indexing_maps = [#m2, #c, #m2], iterator_types = ["parallel", "parallel"]} ins(%x, %invf : tensor<5x4xf32>, tensor<4xf32>) outs(%e : tensor<5x4xf32>) {
  ^bb0(%a: f32, %f: f32, %o: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %p = arith.sitofp %ii : i32 to f32
    %ang = arith.mulf %p, %f : f32
    %cs = math.cos %ang : f32
    %r = arith.mulf %a, %cs : f32
    linalg.yield %r : f32
  } -> tensor<5x4xf32>
  return %y : tensor<5x4xf32>
}
