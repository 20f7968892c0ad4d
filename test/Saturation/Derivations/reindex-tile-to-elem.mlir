// Cause 2 of issue 46 (reindexing fusion of (tile h) with (elem n)).
// RUN: not tile-opt %s --tile-saturate="goal=%S/Inputs/reindex-tile-to-elem.mlir" -o /dev/null 2>&1 | FileCheck %s
//
// A loop over heads written with a tile step (h = 0 to 2 step tile_h,
// indexing P[tile h]) and a loop of the same trip count over the model
// dimension (n = 0 to 16 step 8, P[elem n] is head n / 8). With tile_h = 1
// a tile of h is one head, the one elem n selects, so the loops fuse over n
// with P[tile h] re-expressed as P[elem n] (Trinity Figure 4(f)).
// loop-fusion-reindex refused: it renamed tiles only between loops of equal
// steps.
// CHECK-DAG: remark: goal @fires is represented
// Its candidates, fused over n with P[elem n], pass the numerical check.
// RUN: tile-opt %s --tile-extract="top-k=1" 2>&1 | FileCheck %s --check-prefix=EXTRACT
// EXTRACT: remark: extracted 1 candidate(s) of @fires (0 dropped by the check)
// EXTRACT-SAME: best has 1 kernel(s)
// EXTRACT: tile.program @fires_c0
// EXTRACT: tile.elem %n
// @blocked: the second loop reads every head of P (their sum), so head 1
// must be written before iteration 0 reads it; the fused loop must not
// appear.
// CHECK-DAG: error: goal @blocked is not represented

tile.program @fires(
    %A: !tile.tensor<2x4x8xf32, input>,
    %B: !tile.tensor<4x16xf32, input>,
    %P: !tile.tensor<2x4x8xf32, intermediate>,
    %O: !tile.tensor<4x16xf32, output>) {
  %full = tile.full
  %h = tile.var "h"
  %n = tile.var "n"
  %th_size = tile.size "tile_h"
  %c8 = tile.size 8
  %th = tile.tile %h
  %en = tile.elem %n
  %tn = tile.tile %n
  %a = tile.load %A[%th, %full, %full] : !tile.tensor<2x4x8xf32, input> -> !tile.tile<[tile_h, 4, 8], f32>
  %two = tile.constant 2.0 : !tile.tile<[tile_h, 4, 8], f32>
  %p = tile.mul %a, %two : !tile.tile<[tile_h, 4, 8], f32>
  %s1 = tile.store %p, %P[%th, %full, %full] : !tile.tile<[tile_h, 4, 8], f32>, !tile.tensor<2x4x8xf32, intermediate>
  %l1 = tile.loop %h = 0 to 2 step %th_size body %s1
  %q = tile.load %P[%en, %full, %full] : !tile.tensor<2x4x8xf32, intermediate> -> !tile.tile<[1, 4, 8], f32>
  %q2 = tile.squeeze %q, 0 : !tile.tile<[1, 4, 8], f32> -> !tile.tile<[4, 8], f32>
  %b = tile.load %B[%full, %tn] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 8], f32>
  %o = tile.add %q2, %b : !tile.tile<[4, 8], f32>
  %s2 = tile.store %o, %O[%full, %tn] : !tile.tile<[4, 8], f32>, !tile.tensor<4x16xf32, output>
  %l2 = tile.loop %n = 0 to 16 step %c8 body %s2
  %r = tile.seq %l1, %l2
  tile.yield %r
}

tile.program @blocked(
    %A: !tile.tensor<2x4x8xf32, input>,
    %B: !tile.tensor<4x16xf32, input>,
    %P: !tile.tensor<2x4x8xf32, intermediate>,
    %O: !tile.tensor<4x16xf32, output>) {
  %full = tile.full
  %h = tile.var "h"
  %n = tile.var "n"
  %th_size = tile.size "tile_h"
  %c8 = tile.size 8
  %th = tile.tile %h
  %tn = tile.tile %n
  %a = tile.load %A[%th, %full, %full] : !tile.tensor<2x4x8xf32, input> -> !tile.tile<[tile_h, 4, 8], f32>
  %two = tile.constant 2.0 : !tile.tile<[tile_h, 4, 8], f32>
  %p = tile.mul %a, %two : !tile.tile<[tile_h, 4, 8], f32>
  %s1 = tile.store %p, %P[%th, %full, %full] : !tile.tile<[tile_h, 4, 8], f32>, !tile.tensor<2x4x8xf32, intermediate>
  %l1 = tile.loop %h = 0 to 2 step %th_size body %s1
  %q = tile.load %P[%full, %full, %full] : !tile.tensor<2x4x8xf32, intermediate> -> !tile.tile<[2, 4, 8], f32>
  %q2 = tile.rsum %q, 0 : !tile.tile<[2, 4, 8], f32> -> !tile.tile<[4, 8], f32>
  %b = tile.load %B[%full, %tn] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 8], f32>
  %o = tile.add %q2, %b : !tile.tile<[4, 8], f32>
  %s2 = tile.store %o, %O[%full, %tn] : !tile.tile<[4, 8], f32>, !tile.tensor<4x16xf32, output>
  %l2 = tile.loop %n = 0 to 16 step %c8 body %s2
  %r = tile.seq %l1, %l2
  tile.yield %r
}
