// RUN: tile-opt %s --tile-estimate-cost="defaults=false" -verify-diagnostics -o /dev/null
// RUN: tile-opt %s --tile-estimate-cost="defaults=false sizes=tile_i=32" -o /dev/null 2>&1 | FileCheck %s

// Without target defaults, every symbolic tile size needs a value.
// CHECK: remark: estimated {{.*}} 1 kernels, {{.*}} tile sizes tile_i=32

tile.program @exp(%A: !tile.tensor<96xf32, input>,
                  %B: !tile.tensor<96xf32, output>) {
  %i = tile.var "i"
  %ti = tile.size "tile_i"
  // expected-error @above {{tile size 'tile_i' has no value: give one (sizes=tile_i=N) or use a target with a default tile size}}
  %t = tile.tile %i
  %a = tile.load %A[%t] : !tile.tensor<96xf32, input> -> !tile.tile<[tile_i], f32>
  %e = tile.exp %a : !tile.tile<[tile_i], f32>
  %s = tile.store %e, %B[%t] : !tile.tile<[tile_i], f32>, !tile.tensor<96xf32, output>
  %l = tile.loop %i = 0 to 96 step %ti body %s
  tile.yield %l
}
