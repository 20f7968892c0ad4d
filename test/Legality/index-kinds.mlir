// RUN: tile-opt %s --split-input-file --tile-check-legality -o /dev/null 2>&1 | FileCheck %s
// REQUIRES: z3

// One tensor reached through different index kinds: `tile v` selects
// [v, v + step), `elem v` the single element v / step, `full` everything,
// `const_tile b, n` the slice [b, b + n).

// c = 0, 8 (step 8): `elem c` selects rows 0 and 1 of T.
// Legal: swapping the loop writing T[elem c, full] with a read of rows 2..3.
tile.program @elem_step8_vs_const_disjoint(
    %A: !tile.tensor<16xf32, input>,
    %T: !tile.tensor<4x8xf32, intermediate>,
    %O: !tile.tensor<2x8xf32, output>) {
  %c = tile.var "c"
  %c8 = tile.size 8
  %tc = tile.tile %c
  %ec = tile.elem %c
  %f = tile.full
  %rows = tile.const_tile 2, 2
  %a = tile.load %A[%tc] : !tile.tensor<16xf32, input> -> !tile.tile<[8], f32>
  %au = tile.unsqueeze %a, 0 : !tile.tile<[8], f32> -> !tile.tile<[1, 8], f32>
  %w = tile.store %au, %T[%ec, %f] : !tile.tile<[1, 8], f32>, !tile.tensor<4x8xf32, intermediate>
  %l = tile.loop %c = 0 to 16 step %c8 body %w
  %t = tile.load %T[%rows, %f] : !tile.tensor<4x8xf32, intermediate> -> !tile.tile<[2, 8], f32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: may swap with the previous statement
  %r = tile.store %t, %O[%f, %f] : !tile.tile<[2, 8], f32>, !tile.tensor<2x8xf32, output>
  %q = tile.seq %l, %r
  tile.yield %q
}
// CHECK: remark: legality: 1 of 1 adjacent statement pairs may swap

// -----

// Illegal: swapping the loop writing T[elem c, full] (c = 0, 8) with a read of
// row 1: written at c = 8 (element 8 / 8 = 1), not at c = 1.
tile.program @elem_step8_vs_const_meet(
    %A: !tile.tensor<16xf32, input>,
    %T: !tile.tensor<4x8xf32, intermediate>,
    %O: !tile.tensor<1x8xf32, output>) {
  %c = tile.var "c"
  %c8 = tile.size 8
  %tc = tile.tile %c
  %ec = tile.elem %c
  %f = tile.full
  %row1 = tile.const_tile 1, 1
  %a = tile.load %A[%tc] : !tile.tensor<16xf32, input> -> !tile.tile<[8], f32>
  %au = tile.unsqueeze %a, 0 : !tile.tile<[8], f32> -> !tile.tile<[1, 8], f32>
  %w = tile.store %au, %T[%ec, %f] : !tile.tile<[1, 8], f32>, !tile.tensor<4x8xf32, intermediate>
  %l = tile.loop %c = 0 to 16 step %c8 body %w
  %t = tile.load %T[%row1, %f] : !tile.tensor<4x8xf32, intermediate> -> !tile.tile<[1, 8], f32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: cannot swap with the previous statement: write of T[elem c, full] in the previous statement and read of T[1:2, full] in this statement conflict; witness: the previous statement at c = 8 and this statement both touch T[1, {{[0-7]}}]
  %r = tile.store %t, %O[%f, %f] : !tile.tile<[1, 8], f32>, !tile.tensor<1x8xf32, output>
  %q = tile.seq %l, %r
  tile.yield %q
}
// CHECK: remark: legality: 0 of 1 adjacent statement pairs may swap

// -----

// A nonzero start that is not a multiple of the step: c = 2, 10 (step 8), so
// `elem c` selects rows 2 / 8 = 0 and 10 / 8 = 1.
// Legal: swapping the loop with a read of rows 2..3.
tile.program @elem_offset_start_disjoint(
    %A: !tile.tensor<18xf32, input>,
    %T: !tile.tensor<4x8xf32, intermediate>,
    %O: !tile.tensor<2x8xf32, output>) {
  %c = tile.var "c"
  %c8 = tile.size 8
  %tc = tile.tile %c
  %ec = tile.elem %c
  %f = tile.full
  %rows = tile.const_tile 2, 2
  %a = tile.load %A[%tc] : !tile.tensor<18xf32, input> -> !tile.tile<[8], f32>
  %au = tile.unsqueeze %a, 0 : !tile.tile<[8], f32> -> !tile.tile<[1, 8], f32>
  %w = tile.store %au, %T[%ec, %f] : !tile.tile<[1, 8], f32>, !tile.tensor<4x8xf32, intermediate>
  %l = tile.loop %c = 2 to 18 step %c8 body %w
  %t = tile.load %T[%rows, %f] : !tile.tensor<4x8xf32, intermediate> -> !tile.tile<[2, 8], f32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: may swap with the previous statement
  %r = tile.store %t, %O[%f, %f] : !tile.tile<[2, 8], f32>, !tile.tensor<2x8xf32, output>
  %q = tile.seq %l, %r
  tile.yield %q
}
// CHECK: remark: legality: 1 of 1 adjacent statement pairs may swap

// -----

// Illegal: swapping the loop of @elem_offset_start_disjoint (c = 2, 10) with
// a read of row 1, written at c = 10.
tile.program @elem_offset_start_meet(
    %A: !tile.tensor<18xf32, input>,
    %T: !tile.tensor<4x8xf32, intermediate>,
    %O: !tile.tensor<1x8xf32, output>) {
  %c = tile.var "c"
  %c8 = tile.size 8
  %tc = tile.tile %c
  %ec = tile.elem %c
  %f = tile.full
  %row1 = tile.const_tile 1, 1
  %a = tile.load %A[%tc] : !tile.tensor<18xf32, input> -> !tile.tile<[8], f32>
  %au = tile.unsqueeze %a, 0 : !tile.tile<[8], f32> -> !tile.tile<[1, 8], f32>
  %w = tile.store %au, %T[%ec, %f] : !tile.tile<[1, 8], f32>, !tile.tensor<4x8xf32, intermediate>
  %l = tile.loop %c = 2 to 18 step %c8 body %w
  %t = tile.load %T[%row1, %f] : !tile.tensor<4x8xf32, intermediate> -> !tile.tile<[1, 8], f32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: cannot swap with the previous statement: write of T[elem c, full] in the previous statement and read of T[1:2, full] in this statement conflict; witness: the previous statement at c = 10 and this statement both touch T[1, {{[0-7]}}]
  %r = tile.store %t, %O[%f, %f] : !tile.tile<[1, 8], f32>, !tile.tensor<1x8xf32, output>
  %q = tile.seq %l, %r
  tile.yield %q
}
// CHECK: remark: legality: 0 of 1 adjacent statement pairs may swap

// -----

// `tile i` (i = 0, 2: rows [0, 4)) against `elem h` (h = 0..3: row h).
// Illegal: swapping a loop writing T[tile i, full] with a loop reading
// T[elem h, full]: row h lies in the tile at i = h - h mod 2.
// `elem c` with c = 0, 8 (rows 0, 1) against `tile m` with m = 8 (rows 8..15).
// Legal: swapping the loop writing U[elem c] with a loop reading U[tile m].
tile.program @tile_vs_elem(
    %A: !tile.tensor<4x8xf32, input>,
    %T: !tile.tensor<4x8xf32, intermediate>,
    %U: !tile.tensor<16xf32, intermediate>,
    %O: !tile.tensor<4x8xf32, output>,
    %P: !tile.tensor<16xf32, output>) {
  %i = tile.var "i"
  %h = tile.var "h"
  %c = tile.var "c"
  %m = tile.var "m"
  %c1 = tile.size 1
  %c2 = tile.size 2
  %c8 = tile.size 8
  %ti = tile.tile %i
  %eh = tile.elem %h
  %ec = tile.elem %c
  %tm = tile.tile %m
  %f = tile.full
  %e0 = tile.const_tile 0, 1
  %a = tile.load %A[%ti, %f] : !tile.tensor<4x8xf32, input> -> !tile.tile<[2, 8], f32>
  %w = tile.store %a, %T[%ti, %f] : !tile.tile<[2, 8], f32>, !tile.tensor<4x8xf32, intermediate>
  %l1 = tile.loop %i = 0 to 4 step %c2 body %w
  %t = tile.load %T[%eh, %f] : !tile.tensor<4x8xf32, intermediate> -> !tile.tile<[1, 8], f32>
  %r = tile.store %t, %O[%eh, %f] : !tile.tile<[1, 8], f32>, !tile.tensor<4x8xf32, output>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: cannot swap with the previous statement: write of T[tile i, full] in the previous statement and read of T[elem h, full] in this statement conflict; witness: the previous statement at i = {{0|2}} and this statement at h = {{[0-3]}} both touch T[{{[0-3]}}, {{[0-7]}}]
  %l2 = tile.loop %h = 0 to 4 step %c1 body %r
  %a0 = tile.load %A[%e0, %f] : !tile.tensor<4x8xf32, input> -> !tile.tile<[1, 8], f32>
  %a0r = tile.squeeze %a0, 0 : !tile.tile<[1, 8], f32> -> !tile.tile<[8], f32>
  %a1 = tile.rsum %a0r, 0 : !tile.tile<[8], f32> -> !tile.tile<[], f32>
  %a1b = tile.bcast %a1 [0] : !tile.tile<[], f32> -> !tile.tile<[1], f32>
  %wu = tile.store %a1b, %U[%ec] : !tile.tile<[1], f32>, !tile.tensor<16xf32, intermediate>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: may swap with the previous statement
  %l3 = tile.loop %c = 0 to 16 step %c8 body %wu
  %u = tile.load %U[%tm] : !tile.tensor<16xf32, intermediate> -> !tile.tile<[8], f32>
  %ru = tile.store %u, %P[%tm] : !tile.tile<[8], f32>, !tile.tensor<16xf32, output>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: may swap with the previous statement
  %l4 = tile.loop %m = 8 to 16 step %c8 body %ru
  %q3 = tile.seq %l3, %l4
  %q2 = tile.seq %l2, %q3
  %q1 = tile.seq %l1, %q2
  tile.yield %q1
}
// The pair (%l2, %l3) touches different tensors.
// CHECK: remark: legality: 2 of 3 adjacent statement pairs may swap, 0 of 0 adjacent loop pairs may fuse

// -----

// Tiles over disjoint ranges of one dimension: i = 0, 4 (rows [0, 8)) and
// m = 8, 12 (rows [8, 16)).
// Legal: swapping the loop writing T[tile i] with the loop reading T[tile m].
// Tiles over overlapping ranges: n = 4, 8 (rows [4, 12)).
// Illegal: swapping the loop reading T[tile m] with a loop writing T[tile n]
// (they meet at m = n = 8).
tile.program @tile_ranges(
    %A: !tile.tensor<16xf32, input>,
    %T: !tile.tensor<16xf32, intermediate>,
    %O: !tile.tensor<16xf32, output>) {
  %i = tile.var "i"
  %m = tile.var "m"
  %n = tile.var "n"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %tm = tile.tile %m
  %tn = tile.tile %n
  %a = tile.load %A[%ti] : !tile.tensor<16xf32, input> -> !tile.tile<[4], f32>
  %w = tile.store %a, %T[%ti] : !tile.tile<[4], f32>, !tile.tensor<16xf32, intermediate>
  %l1 = tile.loop %i = 0 to 8 step %c4 body %w
  %t = tile.load %T[%tm] : !tile.tensor<16xf32, intermediate> -> !tile.tile<[4], f32>
  %r = tile.store %t, %O[%tm] : !tile.tile<[4], f32>, !tile.tensor<16xf32, output>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: may swap with the previous statement
  %l2 = tile.loop %m = 8 to 16 step %c4 body %r
  %an = tile.load %A[%tn] : !tile.tensor<16xf32, input> -> !tile.tile<[4], f32>
  %wn = tile.store %an, %T[%tn] : !tile.tile<[4], f32>, !tile.tensor<16xf32, intermediate>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: cannot swap with the previous statement: read of T[tile m] in the previous statement and write of T[tile n] in this statement conflict; witness: the previous statement at m = 8 and this statement at n = 8 both touch T[{{8|9|10|11}}]
  %l3 = tile.loop %n = 4 to 12 step %c4 body %wn
  %q2 = tile.seq %l2, %l3
  %q1 = tile.seq %l1, %q2
  tile.yield %q1
}
// CHECK: remark: legality: 1 of 2 adjacent statement pairs may swap, 0 of 0 adjacent loop pairs may fuse

// -----

// `full` in one dimension, disjoint slices in the other.
// Legal: swapping a write of T[full, 0:4] with a loop reading T[elem h, 4:8].
// Illegal: swapping that loop with a following write of all of T (write
// after read of row h, columns 4..7).
// Illegal: swapping the write of all of T with a second loop reading
// T[elem h, 4:8] (read after write).
tile.program @full_vs_elem(
    %A: !tile.tensor<4x8xf32, input>,
    %T: !tile.tensor<4x8xf32, intermediate>,
    %O: !tile.tensor<4x4xf32, output>,
    %P: !tile.tensor<4x4xf32, output>) {
  %h = tile.var "h"
  %c1 = tile.size 1
  %eh = tile.elem %h
  %f = tile.full
  %lo = tile.const_tile 0, 4
  %hi = tile.const_tile 4, 4
  %a = tile.load %A[%f, %lo] : !tile.tensor<4x8xf32, input> -> !tile.tile<[4, 4], f32>
  %w = tile.store %a, %T[%f, %lo] : !tile.tile<[4, 4], f32>, !tile.tensor<4x8xf32, intermediate>
  %t = tile.load %T[%eh, %hi] : !tile.tensor<4x8xf32, intermediate> -> !tile.tile<[1, 4], f32>
  %r = tile.store %t, %O[%eh, %f] : !tile.tile<[1, 4], f32>, !tile.tensor<4x4xf32, output>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: may swap with the previous statement
  %l = tile.loop %h = 0 to 4 step %c1 body %r
  %aa = tile.load %A[%f, %f] : !tile.tensor<4x8xf32, input> -> !tile.tile<[4, 8], f32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: cannot swap with the previous statement: read of T[elem h, 4:8] in the previous statement and write of T[full, full] in this statement conflict; witness: the previous statement at h = [[H:[0-3]]] and this statement both touch T{{\[}}[[H]], {{[4-7]}}]
  %wa = tile.store %aa, %T[%f, %f] : !tile.tile<[4, 8], f32>, !tile.tensor<4x8xf32, intermediate>
  %r2 = tile.store %t, %P[%eh, %f] : !tile.tile<[1, 4], f32>, !tile.tensor<4x4xf32, output>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: cannot swap with the previous statement: write of T[full, full] in the previous statement and read of T[elem h, 4:8] in this statement conflict; witness: the previous statement and this statement at h = [[H:[0-3]]] both touch T{{\[}}[[H]], {{[4-7]}}]
  %l2 = tile.loop %h = 0 to 4 step %c1 body %r2
  %q3 = tile.seq %wa, %l2
  %q2 = tile.seq %l, %q3
  %q1 = tile.seq %w, %q2
  tile.yield %q1
}
// CHECK: remark: legality: 1 of 3 adjacent statement pairs may swap

// -----

// A nonzero start that is not a multiple of the step: i = 2, 6 (step 4), so
// `tile i` selects [2, 6) and [6, 10).
// Legal: swapping the loop writing T[tile i] with a read of T[0:2].
tile.program @tile_offset_start_disjoint(
    %A: !tile.tensor<16xf32, input>,
    %T: !tile.tensor<16xf32, intermediate>,
    %O: !tile.tensor<2xf32, output>) {
  %i = tile.var "i"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %f = tile.full
  %lo = tile.const_tile 0, 2
  %a = tile.load %A[%ti] : !tile.tensor<16xf32, input> -> !tile.tile<[4], f32>
  %w = tile.store %a, %T[%ti] : !tile.tile<[4], f32>, !tile.tensor<16xf32, intermediate>
  %l = tile.loop %i = 2 to 10 step %c4 body %w
  %t = tile.load %T[%lo] : !tile.tensor<16xf32, intermediate> -> !tile.tile<[2], f32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: may swap with the previous statement
  %r = tile.store %t, %O[%f] : !tile.tile<[2], f32>, !tile.tensor<2xf32, output>
  %q = tile.seq %l, %r
  tile.yield %q
}
// CHECK: remark: legality: 1 of 1 adjacent statement pairs may swap

// -----

// Illegal: swapping the loop of @tile_offset_start_disjoint (tiles [2, 6) and
// [6, 10)) with a read of T[9]: the tile at i = 6 contains it.
tile.program @tile_offset_start_meet(
    %A: !tile.tensor<16xf32, input>,
    %T: !tile.tensor<16xf32, intermediate>,
    %O: !tile.tensor<1xf32, output>) {
  %i = tile.var "i"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %f = tile.full
  %e9 = tile.const_tile 9, 1
  %a = tile.load %A[%ti] : !tile.tensor<16xf32, input> -> !tile.tile<[4], f32>
  %w = tile.store %a, %T[%ti] : !tile.tile<[4], f32>, !tile.tensor<16xf32, intermediate>
  %l = tile.loop %i = 2 to 10 step %c4 body %w
  %t = tile.load %T[%e9] : !tile.tensor<16xf32, intermediate> -> !tile.tile<[1], f32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: cannot swap with the previous statement: write of T[tile i] in the previous statement and read of T[9:10] in this statement conflict; witness: the previous statement at i = 6 and this statement both touch T[9]
  %r = tile.store %t, %O[%f] : !tile.tile<[1], f32>, !tile.tensor<1xf32, output>
  %q = tile.seq %l, %r
  tile.yield %q
}
// CHECK: remark: legality: 0 of 1 adjacent statement pairs may swap
