// RUN: tile-opt %s --split-input-file --tile-check-legality -o /dev/null 2>&1 | FileCheck %s
// REQUIRES: z3

// Fusing loop L1 (iteration i) with the following loop L2 (iteration j)
// reorders exactly the pairs j < i: fused, L2's iteration j runs before L1's
// iteration i. Pairs in the same iteration, and pairs with j > i, keep their
// order, so a conflict among them does not block fusion.
// In every program below some pair of iterations conflicts, so swapping the
// two loops is illegal; each such refusal is checked too.

// Producer and consumer of B tile by tile (the loops bind different
// variables over one range and step).
// Legal: fusion: the consumer at j reads only the tile the producer wrote at
// i = j.
// Illegal: swapping the loops: the tiles read are the tiles written
// (i and j must be equal).
tile.program @elementwise_chain(
    %A: !tile.tensor<64xf32, input>,
    %B: !tile.tensor<64xf32, intermediate>,
    %C: !tile.tensor<64xf32, output>) {
  %i = tile.var "i"
  %j = tile.var "j"
  %c16 = tile.size 16
  %ti = tile.tile %i
  %tj = tile.tile %j
  %a = tile.load %A[%ti] : !tile.tensor<64xf32, input> -> !tile.tile<[16], f32>
  %e = tile.exp %a : !tile.tile<[16], f32>
  %s1 = tile.store %e, %B[%ti] : !tile.tile<[16], f32>, !tile.tensor<64xf32, intermediate>
  %l1 = tile.loop %i = 0 to 64 step %c16 body %s1
  %b = tile.load %B[%tj] : !tile.tensor<64xf32, intermediate> -> !tile.tile<[16], f32>
  %s2 = tile.store %b, %C[%tj] : !tile.tile<[16], f32>, !tile.tensor<64xf32, output>
  // CHECK-DAG: :[[@LINE+2]]:{{[0-9]+}}: remark: cannot swap with the previous statement: write of B[tile i] in the previous statement and read of B[tile j] in this statement conflict; witness: the previous statement at i = [[V:0|16|32|48]] and this statement at j = [[V]] both touch B[{{[0-9]+}}]
  // CHECK-DAG: :[[@LINE+1]]:{{[0-9]+}}: remark: may fuse with the previous loop
  %l2 = tile.loop %j = 0 to 64 step %c16 body %s2
  %q = tile.seq %l1, %l2
  tile.yield %q
}
// CHECK: remark: legality: 0 of 1 adjacent statement pairs may swap, 1 of 1 adjacent loop pairs may fuse

// -----

// The consumer reads the first tile B[0:4] in every iteration.
// Legal: fusion: B[0:4] is written at i = 0, before any iteration of the
// consumer, and never again.
tile.program @read_first_tile(
    %A: !tile.tensor<16xf32, input>,
    %B: !tile.tensor<16xf32, intermediate>,
    %C: !tile.tensor<16xf32, output>) {
  %i = tile.var "i"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %first = tile.const_tile 0, 4
  %a = tile.load %A[%ti] : !tile.tensor<16xf32, input> -> !tile.tile<[4], f32>
  %s1 = tile.store %a, %B[%ti] : !tile.tile<[4], f32>, !tile.tensor<16xf32, intermediate>
  %l1 = tile.loop %i = 0 to 16 step %c4 body %s1
  %b = tile.load %B[%first] : !tile.tensor<16xf32, intermediate> -> !tile.tile<[4], f32>
  %s2 = tile.store %b, %C[%ti] : !tile.tile<[4], f32>, !tile.tensor<16xf32, output>
  // CHECK-DAG: :[[@LINE+2]]:{{[0-9]+}}: remark: cannot swap with the previous statement: write of B[tile i] in the previous statement and read of B[0:4] in this statement conflict; witness: the previous statement at i = 0 and this statement both touch B[{{[0-3]}}]
  // CHECK-DAG: :[[@LINE+1]]:{{[0-9]+}}: remark: may fuse with the previous loop
  %l2 = tile.loop %i = 0 to 16 step %c4 body %s2
  %q = tile.seq %l1, %l2
  tile.yield %q
}
// CHECK: remark: legality: 0 of 1 adjacent statement pairs may swap, 1 of 1 adjacent loop pairs may fuse

// -----

// The consumer reads element B[12] (in the last tile) in every iteration.
// Illegal: fusion: a later iteration of the producer (i = 12) writes what
// earlier iterations of the consumer (i = 0, 4, 8) read.
tile.program @read_last_element(
    %A: !tile.tensor<16xf32, input>,
    %B: !tile.tensor<16xf32, intermediate>,
    %C: !tile.tensor<16x1xf32, output>) {
  %i = tile.var "i"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %f = tile.full
  %last = tile.const_tile 12, 1
  %a = tile.load %A[%ti] : !tile.tensor<16xf32, input> -> !tile.tile<[4], f32>
  %s1 = tile.store %a, %B[%ti] : !tile.tile<[4], f32>, !tile.tensor<16xf32, intermediate>
  %l1 = tile.loop %i = 0 to 16 step %c4 body %s1
  %b = tile.load %B[%last] : !tile.tensor<16xf32, intermediate> -> !tile.tile<[1], f32>
  %bb = tile.bcast %b [0] : !tile.tile<[1], f32> -> !tile.tile<[4, 1], f32>
  %s2 = tile.store %bb, %C[%ti, %f] : !tile.tile<[4, 1], f32>, !tile.tensor<16x1xf32, output>
  // CHECK-DAG: :[[@LINE+2]]:{{[0-9]+}}: remark: cannot swap with the previous statement: write of B[tile i] in the previous statement and read of B[12:13] in this statement conflict; witness: the previous statement at i = 12 and this statement both touch B[12]
  // CHECK-DAG: :[[@LINE+1]]:{{[0-9]+}}: remark: cannot fuse with the previous loop: write of B[tile i] in the previous loop and read of B[12:13] in this loop conflict; witness: the previous loop at i = 12 and this loop at i = {{0|4|8}} both touch B[12]
  %l2 = tile.loop %i = 0 to 16 step %c4 body %s2
  %q = tile.seq %l1, %l2
  tile.yield %q
}
// CHECK: remark: legality: 0 of 1 adjacent statement pairs may swap, 0 of 1 adjacent loop pairs may fuse

// -----

// L1 reads X tile by tile, L2 overwrites X in place tile by tile.
// Legal: fusion (an in-place update: L2 at j overwrites only the tile L1 read
// at i = j, which ran before it).
// Illegal: swapping (L1 would read the new values).
tile.program @in_place_update(
    %A: !tile.tensor<16xf32, input>,
    %X: !tile.tensor<16xf32, inout>,
    %O: !tile.tensor<16xf32, output>) {
  %i = tile.var "i"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %x = tile.load %X[%ti] : !tile.tensor<16xf32, inout> -> !tile.tile<[4], f32>
  %s1 = tile.store %x, %O[%ti] : !tile.tile<[4], f32>, !tile.tensor<16xf32, output>
  %l1 = tile.loop %i = 0 to 16 step %c4 body %s1
  %a = tile.load %A[%ti] : !tile.tensor<16xf32, input> -> !tile.tile<[4], f32>
  %s2 = tile.store %a, %X[%ti] : !tile.tile<[4], f32>, !tile.tensor<16xf32, inout>
  // CHECK-DAG: :[[@LINE+2]]:{{[0-9]+}}: remark: cannot swap with the previous statement: read of X[tile i] in the previous statement and write of X[tile i] in this statement conflict; witness: the previous statement at i = [[V:0|4|8|12]] and this statement at i = [[V]] both touch X[{{[0-9]+}}]
  // CHECK-DAG: :[[@LINE+1]]:{{[0-9]+}}: remark: may fuse with the previous loop
  %l2 = tile.loop %i = 0 to 16 step %c4 body %s2
  %q = tile.seq %l1, %l2
  tile.yield %q
}
// CHECK: remark: legality: 0 of 1 adjacent statement pairs may swap, 1 of 1 adjacent loop pairs may fuse

// -----

// L1 reads X tile by tile, L2 overwrites all of X in every iteration.
// Illegal: fusion: L2 at j = 0 would overwrite the tiles L1 reads at i > 0
// (write after read).
tile.program @overwrite_all(
    %A: !tile.tensor<16xf32, input>,
    %X: !tile.tensor<16xf32, inout>,
    %O: !tile.tensor<16xf32, output>) {
  %i = tile.var "i"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %f = tile.full
  %x = tile.load %X[%ti] : !tile.tensor<16xf32, inout> -> !tile.tile<[4], f32>
  %s1 = tile.store %x, %O[%ti] : !tile.tile<[4], f32>, !tile.tensor<16xf32, output>
  %l1 = tile.loop %i = 0 to 16 step %c4 body %s1
  %a = tile.load %A[%f] : !tile.tensor<16xf32, input> -> !tile.tile<[16], f32>
  %s2 = tile.store %a, %X[%f] : !tile.tile<[16], f32>, !tile.tensor<16xf32, inout>
  // CHECK-DAG: :[[@LINE+2]]:{{[0-9]+}}: remark: cannot swap with the previous statement: read of X[tile i] in the previous statement and write of X[full] in this statement conflict; witness: the previous statement at i = {{0|4|8|12}} and this statement both touch X[{{[0-9]+}}]
  // CHECK-DAG: :[[@LINE+1]]:{{[0-9]+}}: remark: cannot fuse with the previous loop: read of X[tile i] in the previous loop and write of X[full] in this loop conflict; witness: the previous loop at i = {{4|8|12}} and this loop at i = {{0|4|8}} both touch X[{{[4-9]|1[0-5]}}]
  %l2 = tile.loop %i = 0 to 16 step %c4 body %s2
  %q = tile.seq %l1, %l2
  tile.yield %q
}
// CHECK: remark: legality: 0 of 1 adjacent statement pairs may swap, 0 of 1 adjacent loop pairs may fuse

// -----

// L1 writes X tile by tile; L2 writes the first tile X[0:4] in every
// iteration (write after write).
// Legal: fusion: L1 writes X[0:4] only at i = 0, before L2 starts, so L2's
// value is last either way.
// Illegal: swapping: L1's value of X[0:4] would be last.
tile.program @overwrite_first_tile(
    %A: !tile.tensor<16xf32, input>,
    %B: !tile.tensor<4xf32, input>,
    %X: !tile.tensor<16xf32, output>) {
  %i = tile.var "i"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %f = tile.full
  %first = tile.const_tile 0, 4
  %a = tile.load %A[%ti] : !tile.tensor<16xf32, input> -> !tile.tile<[4], f32>
  %s1 = tile.store %a, %X[%ti] : !tile.tile<[4], f32>, !tile.tensor<16xf32, output>
  %l1 = tile.loop %i = 0 to 16 step %c4 body %s1
  %b = tile.load %B[%f] : !tile.tensor<4xf32, input> -> !tile.tile<[4], f32>
  %s2 = tile.store %b, %X[%first] : !tile.tile<[4], f32>, !tile.tensor<16xf32, output>
  // CHECK-DAG: :[[@LINE+2]]:{{[0-9]+}}: remark: cannot swap with the previous statement: write of X[tile i] in the previous statement and write of X[0:4] in this statement conflict; witness: the previous statement at i = 0 and this statement both touch X[{{[0-3]}}]
  // CHECK-DAG: :[[@LINE+1]]:{{[0-9]+}}: remark: may fuse with the previous loop
  %l2 = tile.loop %i = 0 to 16 step %c4 body %s2
  %q = tile.seq %l1, %l2
  tile.yield %q
}
// CHECK: remark: legality: 0 of 1 adjacent statement pairs may swap, 1 of 1 adjacent loop pairs may fuse

// -----

// As @overwrite_first_tile, but L2 writes the last tile X[12:16].
// Illegal: fusion: L1 at i = 12 would overwrite what L2 wrote at an earlier
// iteration, leaving L1's value last.
tile.program @overwrite_last_tile(
    %A: !tile.tensor<16xf32, input>,
    %B: !tile.tensor<4xf32, input>,
    %X: !tile.tensor<16xf32, output>) {
  %i = tile.var "i"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %f = tile.full
  %last = tile.const_tile 12, 4
  %a = tile.load %A[%ti] : !tile.tensor<16xf32, input> -> !tile.tile<[4], f32>
  %s1 = tile.store %a, %X[%ti] : !tile.tile<[4], f32>, !tile.tensor<16xf32, output>
  %l1 = tile.loop %i = 0 to 16 step %c4 body %s1
  %b = tile.load %B[%f] : !tile.tensor<4xf32, input> -> !tile.tile<[4], f32>
  %s2 = tile.store %b, %X[%last] : !tile.tile<[4], f32>, !tile.tensor<16xf32, output>
  // CHECK-DAG: :[[@LINE+2]]:{{[0-9]+}}: remark: cannot swap with the previous statement: write of X[tile i] in the previous statement and write of X[12:16] in this statement conflict; witness: the previous statement at i = 12 and this statement both touch X[{{1[2-5]}}]
  // CHECK-DAG: :[[@LINE+1]]:{{[0-9]+}}: remark: cannot fuse with the previous loop: write of X[tile i] in the previous loop and write of X[12:16] in this loop conflict; witness: the previous loop at i = 12 and this loop at i = {{0|4|8}} both touch X[{{1[2-5]}}]
  %l2 = tile.loop %i = 0 to 16 step %c4 body %s2
  %q = tile.seq %l1, %l2
  tile.yield %q
}
// CHECK: remark: legality: 0 of 1 adjacent statement pairs may swap, 0 of 1 adjacent loop pairs may fuse

// -----

// L1 writes T[elem i] (element i / 4, so elements 0..3 over i = 0, 4, 8, 12);
// L2 reads the tile T[i : i + 4].
// Illegal: fusion: L1 at iteration 1, 2 or 3 writes element 1, 2 or 3, which
// L2 read at iteration 0 (i = 0, tile [0, 4)); only i = 0 is forced for L2.
tile.program @elem_then_tile(
    %A: !tile.tensor<4x1xf32, input>,
    %T: !tile.tensor<16xf32, intermediate>,
    %O: !tile.tensor<16xf32, output>) {
  %i = tile.var "i"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %ei = tile.elem %i
  %f = tile.full
  %a = tile.load %A[%ei, %f] : !tile.tensor<4x1xf32, input> -> !tile.tile<[1, 1], f32>
  %a1 = tile.squeeze %a, 1 : !tile.tile<[1, 1], f32> -> !tile.tile<[1], f32>
  %s1 = tile.store %a1, %T[%ei] : !tile.tile<[1], f32>, !tile.tensor<16xf32, intermediate>
  %l1 = tile.loop %i = 0 to 16 step %c4 body %s1
  %t = tile.load %T[%ti] : !tile.tensor<16xf32, intermediate> -> !tile.tile<[4], f32>
  %s2 = tile.store %t, %O[%ti] : !tile.tile<[4], f32>, !tile.tensor<16xf32, output>
  // CHECK-DAG: :[[@LINE+2]]:{{[0-9]+}}: remark: cannot swap with the previous statement: write of T[elem i] in the previous statement and read of T[tile i] in this statement conflict; witness: the previous statement at i = {{0|4|8|12}} and this statement at i = 0 both touch T[{{[0-3]}}]
  // CHECK-DAG: :[[@LINE+1]]:{{[0-9]+}}: remark: cannot fuse with the previous loop: write of T[elem i] in the previous loop and read of T[tile i] in this loop conflict; witness: the previous loop at i = [[I:4|8|12]] and this loop at i = 0 both touch T[{{1|2|3}}]
  %l2 = tile.loop %i = 0 to 16 step %c4 body %s2
  %q = tile.seq %l1, %l2
  tile.yield %q
}
// CHECK: remark: legality: 0 of 1 adjacent statement pairs may swap, 0 of 1 adjacent loop pairs may fuse

// -----

// The mirror of @elem_then_tile: L1 writes the tile T[i : i + 4], L2 reads
// T[elem i] (element i / 4 in 0..3).
// Legal: fusion: L1 at iteration i' > j writes [4 i', 4 i' + 4), which starts
// at 4 or above, while L2 at iteration j reads element j <= 3.
// Illegal: swapping (L2 reads elements 0..3, written by L1 at i = 0).
tile.program @tile_then_elem(
    %A: !tile.tensor<16xf32, input>,
    %T: !tile.tensor<16xf32, intermediate>,
    %O: !tile.tensor<4xf32, output>) {
  %i = tile.var "i"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %ei = tile.elem %i
  %a = tile.load %A[%ti] : !tile.tensor<16xf32, input> -> !tile.tile<[4], f32>
  %s1 = tile.store %a, %T[%ti] : !tile.tile<[4], f32>, !tile.tensor<16xf32, intermediate>
  %l1 = tile.loop %i = 0 to 16 step %c4 body %s1
  %t = tile.load %T[%ei] : !tile.tensor<16xf32, intermediate> -> !tile.tile<[1], f32>
  %s2 = tile.store %t, %O[%ei] : !tile.tile<[1], f32>, !tile.tensor<4xf32, output>
  // CHECK-DAG: :[[@LINE+2]]:{{[0-9]+}}: remark: cannot swap with the previous statement: write of T[tile i] in the previous statement and read of T[elem i] in this statement conflict; witness: the previous statement at i = 0 and this statement at i = {{0|4|8|12}} both touch T[{{[0-3]}}]
  // CHECK-DAG: :[[@LINE+1]]:{{[0-9]+}}: remark: may fuse with the previous loop
  %l2 = tile.loop %i = 0 to 16 step %c4 body %s2
  %q = tile.seq %l1, %l2
  tile.yield %q
}
// CHECK: remark: legality: 0 of 1 adjacent statement pairs may swap, 1 of 1 adjacent loop pairs may fuse

// -----

// Loops with a nonzero start: i = 4, 8 (tiles [4, 8) and [8, 12)).
// Legal: fusion when L2 reads T[4] in every iteration: it is written at the
// first iteration (i = 4), before L2 starts.
tile.program @start4_read_first(
    %A: !tile.tensor<16xf32, input>,
    %T: !tile.tensor<16xf32, intermediate>,
    %O: !tile.tensor<16xf32, output>) {
  %i = tile.var "i"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %f = tile.full
  %e4 = tile.const_tile 4, 1
  %a = tile.load %A[%ti] : !tile.tensor<16xf32, input> -> !tile.tile<[4], f32>
  %s1 = tile.store %a, %T[%ti] : !tile.tile<[4], f32>, !tile.tensor<16xf32, intermediate>
  %l1 = tile.loop %i = 4 to 12 step %c4 body %s1
  %t = tile.load %T[%e4] : !tile.tensor<16xf32, intermediate> -> !tile.tile<[1], f32>
  %tb = tile.bcast %t [0] : !tile.tile<[1], f32> -> !tile.tile<[4, 1], f32>
  %tr = tile.squeeze %tb, 1 : !tile.tile<[4, 1], f32> -> !tile.tile<[4], f32>
  %s2 = tile.store %tr, %O[%ti] : !tile.tile<[4], f32>, !tile.tensor<16xf32, output>
  // CHECK-DAG: :[[@LINE+2]]:{{[0-9]+}}: remark: cannot swap with the previous statement: write of T[tile i] in the previous statement and read of T[4:5] in this statement conflict; witness: the previous statement at i = 4 and this statement both touch T[4]
  // CHECK-DAG: :[[@LINE+1]]:{{[0-9]+}}: remark: may fuse with the previous loop
  %l2 = tile.loop %i = 4 to 12 step %c4 body %s2
  %q = tile.seq %l1, %l2
  tile.yield %q
}
// CHECK: remark: legality: 0 of 1 adjacent statement pairs may swap, 1 of 1 adjacent loop pairs may fuse

// -----

// As @start4_read_first, but L2 reads T[8].
// Illegal: fusion: T[8] is written at the second iteration (i = 8), after L2's
// first iteration (i = 4) read it. Everything in the witness is forced.
tile.program @start4_read_second(
    %A: !tile.tensor<16xf32, input>,
    %T: !tile.tensor<16xf32, intermediate>,
    %O: !tile.tensor<16xf32, output>) {
  %i = tile.var "i"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %f = tile.full
  %e8 = tile.const_tile 8, 1
  %a = tile.load %A[%ti] : !tile.tensor<16xf32, input> -> !tile.tile<[4], f32>
  %s1 = tile.store %a, %T[%ti] : !tile.tile<[4], f32>, !tile.tensor<16xf32, intermediate>
  %l1 = tile.loop %i = 4 to 12 step %c4 body %s1
  %t = tile.load %T[%e8] : !tile.tensor<16xf32, intermediate> -> !tile.tile<[1], f32>
  %tb = tile.bcast %t [0] : !tile.tile<[1], f32> -> !tile.tile<[4, 1], f32>
  %tr = tile.squeeze %tb, 1 : !tile.tile<[4, 1], f32> -> !tile.tile<[4], f32>
  %s2 = tile.store %tr, %O[%ti] : !tile.tile<[4], f32>, !tile.tensor<16xf32, output>
  // CHECK-DAG: :[[@LINE+2]]:{{[0-9]+}}: remark: cannot swap with the previous statement: write of T[tile i] in the previous statement and read of T[8:9] in this statement conflict; witness: the previous statement at i = 8 and this statement both touch T[8]
  // CHECK-DAG: :[[@LINE+1]]:{{[0-9]+}}: remark: cannot fuse with the previous loop: write of T[tile i] in the previous loop and read of T[8:9] in this loop conflict; witness: the previous loop at i = 8 and this loop at i = 4 both touch T[8]
  %l2 = tile.loop %i = 4 to 12 step %c4 body %s2
  %q = tile.seq %l1, %l2
  tile.yield %q
}
// CHECK: remark: legality: 0 of 1 adjacent statement pairs may swap, 0 of 1 adjacent loop pairs may fuse
