// RUN: tile-opt %s --tile-estimate-cost="sizes=tile_i=64" -verify-diagnostics -o /dev/null
// RUN: tile-opt %s --tile-estimate-cost -o /dev/null 2>&1 | FileCheck %s

// A given tile size must divide the ranges it steps over; a default is
// halved until it does (128 -> 64 -> 32 for the range 96).
// CHECK: tile sizes tile_i=32

tile.program @exp(%A: !tile.tensor<96xf32, input>,
                  %B: !tile.tensor<96xf32, output>) {
  %i = tile.var "i"
  %ti = tile.size "tile_i"
  %t = tile.tile %i
  %a = tile.load %A[%t] : !tile.tensor<96xf32, input> -> !tile.tile<[tile_i], f32>
  %e = tile.exp %a : !tile.tile<[tile_i], f32>
  %s = tile.store %e, %B[%t] : !tile.tile<[tile_i], f32>, !tile.tensor<96xf32, output>
  // expected-error @below {{tile size tile_i=64 does not divide the range 96 of loop 'i'}}
  %l = tile.loop %i = 0 to 96 step %ti body %s
  tile.yield %l
}
