// Found by tools/tile-fuzz (seed 100012, shrunk, then reduced by hand).
// A generic that reads its init (an argument) fused with its reader is one
// generic with two outputs; the output whose value loads the init was
// stored after the store that overwrote the init, so it read the new value
// (every store evaluates its loads when it runs). Stores of one op are now
// ordered so that none overwrites a tensor a later one loads.
//
// RUN: tile-opt %s --convert-linalg-to-tile -o %t.tile.mlir
// RUN: tile-run %t.tile.mlir --reference %s | FileCheck %s
// RUN: tile-run %t.tile.mlir --reference %s --device emulate | FileCheck %s
// RUN: tile-opt %s --tile-optimize -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPT
// CHECK-NOT: MISMATCH
// CHECK: PASS
// OPT-NOT: error
// OPT: remark: extracted {{[1-9]}} candidate(s) of @f (0 dropped by the check)

func.func @f(%a5: tensor<2xf32> {tile.name = "a5", tile.init = "normal(0.0, 0.1)"}, %a6: tensor<2xf32> {tile.name = "a6", tile.init = "uniform(1.11, 2.71)"}) -> (tensor<2xf32> {tile.name = "r3"}) {
  %v5 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a5 : tensor<2xf32>) outs(%a6 : tensor<2xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %x1 = math.log %out : f32
    %x2 = arith.minnumf %x1, %in0 : f32
    linalg.yield %x2 : f32
  } -> tensor<2xf32>
  %v7_e = tensor.empty() : tensor<2xf32>
  %v7 = linalg.abs ins(%v5 : tensor<2xf32>) outs(%v7_e : tensor<2xf32>) -> tensor<2xf32>
  return %v7 : tensor<2xf32>
}
