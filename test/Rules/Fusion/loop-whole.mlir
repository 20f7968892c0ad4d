// RUN: not tile-opt %s --tile-saturate="only=loop-whole iterations=1 backoff=false propagate=false goal=%S/Inputs/loop-whole.mlir" -o /dev/null 2>&1 | FileCheck %s

// loop-whole: loop i = 0 to n step tile_i (b) -> b[tile i := [0, n), tile_i := n]
// for a parallel loop (every write of b is to the iteration's own tile) over
// at most 128 elements with a symbolic step, guarded by WholeLoopLegal.

// @fires: Y[i] = exp(A[i]) over 64 elements runs as one whole tile
// CHECK-DAG: remark: goal @fires is represented
// @reduction: S += rsum(A[k]) writes S in every iteration (not parallel); no whole form
// CHECK-DAG: error: goal @reduction is not represented
// @large: the loop covers 256 elements, more than one tile may hold; no whole form
// CHECK-DAG: error: goal @large is not represented
// @concrete: the step is fixed (16), not a tile size to choose; no whole form
// CHECK-DAG: error: goal @concrete is not represented

tile.program @fires(
    %A: !tile.tensor<64xf32, input>,
    %Y: !tile.tensor<64xf32, output>,
    %S: !tile.tensor<1xf32, output>) {
  %i = tile.var "i"
  %ts = tile.size "tile_i"
  %ti = tile.tile %i
  %a = tile.load %A[%ti] : !tile.tensor<64xf32, input> -> !tile.tile<[tile_i], f32>
  %e = tile.exp %a : !tile.tile<[tile_i], f32>
  %st = tile.store %e, %Y[%ti] : !tile.tile<[tile_i], f32>, !tile.tensor<64xf32, output>
  %l = tile.loop %i = 0 to 64 step %ts body %st
  tile.yield %l
}

tile.program @reduction(
    %A: !tile.tensor<64xf32, input>,
    %Y: !tile.tensor<64xf32, output>,
    %S: !tile.tensor<1xf32, output>) {
  %full = tile.full
  %k = tile.var "k"
  %ts = tile.size "tile_k"
  %tk = tile.tile %k
  %a = tile.load %A[%tk] : !tile.tensor<64xf32, input> -> !tile.tile<[tile_k], f32>
  %s = tile.load %S[%full] : !tile.tensor<1xf32, output> -> !tile.tile<[1], f32>
  %u = tile.unsqueeze %a, 0 : !tile.tile<[tile_k], f32> -> !tile.tile<[1, tile_k], f32>
  %r = tile.rsum %u, 1 : !tile.tile<[1, tile_k], f32> -> !tile.tile<[1], f32>
  %n = tile.add %s, %r : !tile.tile<[1], f32>
  %st = tile.store %n, %S[%full] : !tile.tile<[1], f32>, !tile.tensor<1xf32, output>
  %l = tile.loop %k = 0 to 64 step %ts body %st
  tile.yield %l
}

tile.program @large(
    %A: !tile.tensor<256xf32, input>,
    %Y: !tile.tensor<256xf32, output>,
    %S: !tile.tensor<1xf32, output>) {
  %i = tile.var "i"
  %ts = tile.size "tile_i"
  %ti = tile.tile %i
  %a = tile.load %A[%ti] : !tile.tensor<256xf32, input> -> !tile.tile<[tile_i], f32>
  %e = tile.exp %a : !tile.tile<[tile_i], f32>
  %st = tile.store %e, %Y[%ti] : !tile.tile<[tile_i], f32>, !tile.tensor<256xf32, output>
  %l = tile.loop %i = 0 to 256 step %ts body %st
  tile.yield %l
}

tile.program @concrete(
    %A: !tile.tensor<64xf32, input>,
    %Y: !tile.tensor<64xf32, output>,
    %S: !tile.tensor<1xf32, output>) {
  %i = tile.var "i"
  %ts = tile.size 16
  %ti = tile.tile %i
  %a = tile.load %A[%ti] : !tile.tensor<64xf32, input> -> !tile.tile<[16], f32>
  %e = tile.exp %a : !tile.tile<[16], f32>
  %st = tile.store %e, %Y[%ti] : !tile.tile<[16], f32>, !tile.tensor<64xf32, output>
  %l = tile.loop %i = 0 to 64 step %ts body %st
  tile.yield %l
}
