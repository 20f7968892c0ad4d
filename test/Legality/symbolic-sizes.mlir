// RUN: tile-opt %s --split-input-file --tile-check-legality -o /dev/null 2>&1 | FileCheck %s
// REQUIRES: z3

// Symbolic tile sizes (`tile.size "tile_k"`): the size is chosen at lowering
// among the positive values that divide the range of every loop stepping by
// it, so a verdict must hold for each of them; a refusal names a size.

// k = 0 to 64 step tile_k: `elem k` selects element k / tile_k, which ranges
// over 0 .. 64 / tile_k - 1: up to 63 for tile_k = 1, only 0 for 64.
// Illegal: swapping the loop writing T[elem k] with a read of T[32]: legal
// for tile_k >= 2, but tile_k = 1 writes T[32] at k = 32.
tile.program @elem_reach_needs_size_1(
    %A: !tile.tensor<64xf32, input>,
    %T: !tile.tensor<64xf32, intermediate>,
    %O: !tile.tensor<1xf32, output>) {
  %k = tile.var "k"
  %tk = tile.size "tile_k"
  %ek = tile.elem %k
  %f = tile.full
  %e32 = tile.const_tile 32, 1
  %a = tile.load %A[%ek] : !tile.tensor<64xf32, input> -> !tile.tile<[1], f32>
  %w = tile.store %a, %T[%ek] : !tile.tile<[1], f32>, !tile.tensor<64xf32, intermediate>
  %l = tile.loop %k = 0 to 64 step %tk body %w
  %t = tile.load %T[%e32] : !tile.tensor<64xf32, intermediate> -> !tile.tile<[1], f32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: cannot swap with the previous statement: write of T[elem k] in the previous statement and read of T[32:33] in this statement conflict; witness: the previous statement at k = 32 and this statement (tile_k = 1) both touch T[32]
  %r = tile.store %t, %O[%f] : !tile.tile<[1], f32>, !tile.tensor<1xf32, output>
  %q = tile.seq %l, %r
  tile.yield %q
}
// CHECK: remark: legality: 0 of 1 adjacent statement pairs may swap

// -----

// Legal: swapping the loop writing T[elem k] (elements below 64 / tile_k,
// so below 64 for every size) with a read of T[64:128].
tile.program @elem_reach_bounded(
    %A: !tile.tensor<64xf32, input>,
    %T: !tile.tensor<128xf32, intermediate>,
    %O: !tile.tensor<64xf32, output>) {
  %k = tile.var "k"
  %tk = tile.size "tile_k"
  %ek = tile.elem %k
  %f = tile.full
  %hi = tile.const_tile 64, 64
  %a = tile.load %A[%ek] : !tile.tensor<64xf32, input> -> !tile.tile<[1], f32>
  %w = tile.store %a, %T[%ek] : !tile.tile<[1], f32>, !tile.tensor<128xf32, intermediate>
  %l = tile.loop %k = 0 to 64 step %tk body %w
  %t = tile.load %T[%hi] : !tile.tensor<128xf32, intermediate> -> !tile.tile<[64], f32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: may swap with the previous statement
  %r = tile.store %t, %O[%f] : !tile.tile<[64], f32>, !tile.tensor<64xf32, output>
  %q = tile.seq %l, %r
  tile.yield %q
}
// CHECK: remark: legality: 1 of 1 adjacent statement pairs may swap

// -----

// L1 writes T[tile k]; L2 reads T[0:2] in every iteration.
// Illegal: fusion: legal when tile_k >= 2 (T[0:2] is written at k = 0 only),
// but with tile_k = 1 the producer writes T[1] at k = 1, after the consumer
// read it at k = 0.
tile.program @fusion_needs_size_1(
    %A: !tile.tensor<64xf32, input>,
    %T: !tile.tensor<64xf32, intermediate>,
    %O: !tile.tensor<64x2xf32, output>) {
  %k = tile.var "k"
  %tk = tile.size "tile_k"
  %t_k = tile.tile %k
  %f = tile.full
  %first = tile.const_tile 0, 2
  %a = tile.load %A[%t_k] : !tile.tensor<64xf32, input> -> !tile.tile<[tile_k], f32>
  %w = tile.store %a, %T[%t_k] : !tile.tile<[tile_k], f32>, !tile.tensor<64xf32, intermediate>
  %l1 = tile.loop %k = 0 to 64 step %tk body %w
  %t = tile.load %T[%first] : !tile.tensor<64xf32, intermediate> -> !tile.tile<[2], f32>
  %tb = tile.bcast %t [0] : !tile.tile<[2], f32> -> !tile.tile<[tile_k, 2], f32>
  %r = tile.store %tb, %O[%t_k, %f] : !tile.tile<[tile_k, 2], f32>, !tile.tensor<64x2xf32, output>
  // CHECK-DAG: :[[@LINE+2]]:{{[0-9]+}}: remark: cannot swap with the previous statement: write of T[tile k] in the previous statement and read of T[0:2] in this statement conflict
  // CHECK-DAG: :[[@LINE+1]]:{{[0-9]+}}: remark: cannot fuse with the previous loop: write of T[tile k] in the previous loop and read of T[0:2] in this loop conflict; witness: the previous loop at k = 1 and this loop at k = 0 (tile_k = 1) both touch T[1]
  %l2 = tile.loop %k = 0 to 64 step %tk body %r
  %q = tile.seq %l1, %l2
  tile.yield %q
}
// CHECK: remark: legality: 0 of 1 adjacent statement pairs may swap, 0 of 1 adjacent loop pairs may fuse

// -----

// Legal: fusing an elementwise producer and consumer over T[tile k], for
// every tile_k.
// Illegal: swapping them (for any size; only k = k' is forced).
tile.program @fusion_any_size(
    %A: !tile.tensor<64xf32, input>,
    %T: !tile.tensor<64xf32, intermediate>,
    %O: !tile.tensor<64xf32, output>) {
  %k = tile.var "k"
  %tk = tile.size "tile_k"
  %t_k = tile.tile %k
  %a = tile.load %A[%t_k] : !tile.tensor<64xf32, input> -> !tile.tile<[tile_k], f32>
  %e = tile.exp %a : !tile.tile<[tile_k], f32>
  %w = tile.store %e, %T[%t_k] : !tile.tile<[tile_k], f32>, !tile.tensor<64xf32, intermediate>
  %l1 = tile.loop %k = 0 to 64 step %tk body %w
  %t = tile.load %T[%t_k] : !tile.tensor<64xf32, intermediate> -> !tile.tile<[tile_k], f32>
  %r = tile.store %t, %O[%t_k] : !tile.tile<[tile_k], f32>, !tile.tensor<64xf32, output>
  // CHECK-DAG: :[[@LINE+2]]:{{[0-9]+}}: remark: cannot swap with the previous statement: write of T[tile k] in the previous statement and read of T[tile k] in this statement conflict; witness: the previous statement at k = [[K:[0-9]+]] and this statement at k = [[K]] (tile_k = {{[0-9]+}}) both touch T[{{[0-9]+}}]
  // CHECK-DAG: :[[@LINE+1]]:{{[0-9]+}}: remark: may fuse with the previous loop
  %l2 = tile.loop %k = 0 to 64 step %tk body %r
  %q = tile.seq %l1, %l2
  tile.yield %q
}
// CHECK: remark: legality: 0 of 1 adjacent statement pairs may swap, 1 of 1 adjacent loop pairs may fuse

// -----

// L1 writes T[elem k] (element = iteration index), L2 reads T[tile k]. Fusion
// conflicts iff some iteration i >= 1 of L1 writes element i inside the tile
// [j * tile_k, (j + 1) * tile_k) that L2 read at j < i: possible exactly when
// 2 <= tile_k <= 32. But tile_k also steps the loop over m in [0, 3), so its
// only admissible value is 1 (then element i is tile i).
// Legal: fusing L1 and L2.
// Illegal: swapping L1 and L2 (the only size is forced: T[0] at k = 0).
// Legal: swapping L2 with the loop over m (other tensors; no fusion: other
// range).
tile.program @fusion_legal_by_admissible_sizes(
    %A: !tile.tensor<64xf32, input>,
    %T: !tile.tensor<64xf32, intermediate>,
    %O: !tile.tensor<64xf32, output>,
    %Y: !tile.tensor<3xf32, input>,
    %U: !tile.tensor<3xf32, output>) {
  %k = tile.var "k"
  %m = tile.var "m"
  %tk = tile.size "tile_k"
  %ek = tile.elem %k
  %t_k = tile.tile %k
  %t_m = tile.tile %m
  %a = tile.load %A[%ek] : !tile.tensor<64xf32, input> -> !tile.tile<[1], f32>
  %w = tile.store %a, %T[%ek] : !tile.tile<[1], f32>, !tile.tensor<64xf32, intermediate>
  %l1 = tile.loop %k = 0 to 64 step %tk body %w
  %t = tile.load %T[%t_k] : !tile.tensor<64xf32, intermediate> -> !tile.tile<[tile_k], f32>
  %r = tile.store %t, %O[%t_k] : !tile.tile<[tile_k], f32>, !tile.tensor<64xf32, output>
  // CHECK-DAG: :[[@LINE+2]]:{{[0-9]+}}: remark: cannot swap with the previous statement: write of T[elem k] in the previous statement and read of T[tile k] in this statement conflict; witness: the previous statement at k = 0 and this statement at k = 0 (tile_k = 1) both touch T[0]
  // CHECK-DAG: :[[@LINE+1]]:{{[0-9]+}}: remark: may fuse with the previous loop
  %l2 = tile.loop %k = 0 to 64 step %tk body %r
  %y = tile.load %Y[%t_m] : !tile.tensor<3xf32, input> -> !tile.tile<[tile_k], f32>
  %u = tile.store %y, %U[%t_m] : !tile.tile<[tile_k], f32>, !tile.tensor<3xf32, output>
  // CHECK-DAG: :[[@LINE+1]]:{{[0-9]+}}: remark: may swap with the previous statement
  %l3 = tile.loop %m = 0 to 3 step %tk body %u
  %q2 = tile.seq %l2, %l3
  %q1 = tile.seq %l1, %q2
  tile.yield %q1
}
// CHECK: remark: legality: 1 of 2 adjacent statement pairs may swap, 1 of 1 adjacent loop pairs may fuse

// -----

// @fusion_legal_by_admissible_sizes with m in [0, 48): tile_k may now be any
// common divisor of 64 and 48 (1, 2, 4, 8, 16).
// Illegal: fusing L1 and L2 (a witness size is 2, 4, 8 or 16).
// Illegal: swapping L1 and L2.
tile.program @fusion_illegal_by_admissible_sizes(
    %A: !tile.tensor<64xf32, input>,
    %T: !tile.tensor<64xf32, intermediate>,
    %O: !tile.tensor<64xf32, output>,
    %Y: !tile.tensor<48xf32, input>,
    %U: !tile.tensor<48xf32, output>) {
  %k = tile.var "k"
  %m = tile.var "m"
  %tk = tile.size "tile_k"
  %ek = tile.elem %k
  %t_k = tile.tile %k
  %t_m = tile.tile %m
  %a = tile.load %A[%ek] : !tile.tensor<64xf32, input> -> !tile.tile<[1], f32>
  %w = tile.store %a, %T[%ek] : !tile.tile<[1], f32>, !tile.tensor<64xf32, intermediate>
  %l1 = tile.loop %k = 0 to 64 step %tk body %w
  %t = tile.load %T[%t_k] : !tile.tensor<64xf32, intermediate> -> !tile.tile<[tile_k], f32>
  %r = tile.store %t, %O[%t_k] : !tile.tile<[tile_k], f32>, !tile.tensor<64xf32, output>
  // CHECK-DAG: :[[@LINE+2]]:{{[0-9]+}}: remark: cannot swap with the previous statement: write of T[elem k] in the previous statement and read of T[tile k] in this statement conflict
  // CHECK-DAG: :[[@LINE+1]]:{{[0-9]+}}: remark: cannot fuse with the previous loop: write of T[elem k] in the previous loop and read of T[tile k] in this loop conflict; witness: the previous loop at k = {{[0-9]+}} and this loop at k = {{[0-9]+}} (tile_k = {{2|4|8|16}}) both touch T[{{[0-9]+}}]
  %l2 = tile.loop %k = 0 to 64 step %tk body %r
  %y = tile.load %Y[%t_m] : !tile.tensor<48xf32, input> -> !tile.tile<[tile_k], f32>
  %u = tile.store %y, %U[%t_m] : !tile.tile<[tile_k], f32>, !tile.tensor<48xf32, output>
  // CHECK-DAG: :[[@LINE+1]]:{{[0-9]+}}: remark: may swap with the previous statement
  %l3 = tile.loop %m = 0 to 48 step %tk body %u
  %q2 = tile.seq %l2, %l3
  %q1 = tile.seq %l1, %q2
  tile.yield %q1
}
// CHECK: remark: legality: 1 of 2 adjacent statement pairs may swap, 0 of 1 adjacent loop pairs may fuse

// -----

// k = 16 to 64 step tile_k (tile_k divides 48): `elem k` selects
// k / tile_k = floor(16 / tile_k) + iteration, which is 0 at k = 16 only when
// tile_k > 16, that is tile_k = 24 or 48.
// Illegal: swapping the loop writing T[elem k] with a read of T[0].
tile.program @elem_offset_start_symbolic(
    %A: !tile.tensor<64xf32, input>,
    %T: !tile.tensor<64xf32, intermediate>,
    %O: !tile.tensor<1xf32, output>) {
  %k = tile.var "k"
  %tk = tile.size "tile_k"
  %ek = tile.elem %k
  %f = tile.full
  %e0 = tile.const_tile 0, 1
  %a = tile.load %A[%ek] : !tile.tensor<64xf32, input> -> !tile.tile<[1], f32>
  %w = tile.store %a, %T[%ek] : !tile.tile<[1], f32>, !tile.tensor<64xf32, intermediate>
  %l = tile.loop %k = 16 to 64 step %tk body %w
  %t = tile.load %T[%e0] : !tile.tensor<64xf32, intermediate> -> !tile.tile<[1], f32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: cannot swap with the previous statement: write of T[elem k] in the previous statement and read of T[0:1] in this statement conflict; witness: the previous statement at k = 16 and this statement (tile_k = {{24|48}}) both touch T[0]
  %r = tile.store %t, %O[%f] : !tile.tile<[1], f32>, !tile.tensor<1xf32, output>
  %q = tile.seq %l, %r
  tile.yield %q
}
// CHECK: remark: legality: 0 of 1 adjacent statement pairs may swap

// -----

// k = 32 to 64 step tile_k (tile_k divides 32): k / tile_k >= 1 for every
// size, so `elem k` never selects element 0.
// Legal: swapping the loop writing T[elem k] with a read of T[0].
tile.program @elem_offset_start_symbolic_legal(
    %A: !tile.tensor<64xf32, input>,
    %T: !tile.tensor<64xf32, intermediate>,
    %O: !tile.tensor<1xf32, output>) {
  %k = tile.var "k"
  %tk = tile.size "tile_k"
  %ek = tile.elem %k
  %f = tile.full
  %e0 = tile.const_tile 0, 1
  %a = tile.load %A[%ek] : !tile.tensor<64xf32, input> -> !tile.tile<[1], f32>
  %w = tile.store %a, %T[%ek] : !tile.tile<[1], f32>, !tile.tensor<64xf32, intermediate>
  %l = tile.loop %k = 32 to 64 step %tk body %w
  %t = tile.load %T[%e0] : !tile.tensor<64xf32, intermediate> -> !tile.tile<[1], f32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: may swap with the previous statement
  %r = tile.store %t, %O[%f] : !tile.tile<[1], f32>, !tile.tensor<1xf32, output>
  %q = tile.seq %l, %r
  tile.yield %q
}
// CHECK: remark: legality: 1 of 1 adjacent statement pairs may swap
