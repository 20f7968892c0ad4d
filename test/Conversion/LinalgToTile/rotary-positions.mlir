// Rotary angles computed in the graph (what a model's rotary embedding
// does from its positions): theta = (i + offset) * base^(-j / n), then
// x cos(theta) + y sin(theta). linalg.index gives the positions, math.cos
// and math.sin become tile.cos and tile.sin; checked against the fp64
// linalg reference on the CPU and through the GPU lowering's host
// emulation, and lowered to PTX (where the CUDA toolkit is installed).
// RUN: tile-opt %s --convert-linalg-to-tile | FileCheck %s
// RUN: tile-opt %s --convert-linalg-to-tile -o %t.mlir
// RUN: tile-run %t.mlir --reference %s | FileCheck %s --check-prefix=NUM
// RUN: tile-run %t.mlir --reference %s --max-tile-size 1 --seed 3 | FileCheck %s --check-prefix=NUM
// RUN: tile-run %t.mlir --reference %s --device emulate | FileCheck %s --check-prefix=NUM
// NUM-NOT: MISMATCH
// NUM: PASS

// CHECK-LABEL: tile.program @rotary(
// CHECK-SAME: %positions8: !tile.tensor<8xf32, positions>, %positions16: !tile.tensor<16xf32, positions>
// CHECK: tile.exp
// CHECK: %[[T:.*]] = tile.mul
// CHECK-DAG: tile.cos %[[T]]
// CHECK-DAG: tile.sin %[[T]]
#m = affine_map<(d0, d1) -> (d0, d1)>
func.func @rotary(%x: tensor<8x16xf32> {tile.name = "x"},
                  %y: tensor<8x16xf32> {tile.name = "y"})
    -> (tensor<8x16xf32> {tile.name = "r"}) {
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [#m, #m, #m], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %off = arith.constant 4093 : index
    %p = arith.addi %i, %off : index
    %p64 = arith.index_cast %p : index to i64
    %pf = arith.sitofp %p64 : i64 to f32
    %j64 = arith.index_cast %j : index to i64
    %jf = arith.sitofp %j64 : i64 to f32
    // base^(-j / 16) = exp(-j ln(10000) / 16)
    %k = arith.constant -0.575646273 : f32
    %l = arith.mulf %jf, %k : f32
    %g = math.exp %l : f32
    %theta = arith.mulf %pf, %g : f32
    %c = math.cos %theta : f32
    %s = math.sin %theta : f32
    %ac = arith.mulf %a, %c : f32
    %bs = arith.mulf %b, %s : f32
    %v = arith.addf %ac, %bs : f32
    linalg.yield %v : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}
