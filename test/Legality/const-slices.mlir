// RUN: tile-opt %s --split-input-file --tile-check-legality -o /dev/null 2>&1 | FileCheck %s
// REQUIRES: z3

// `tile.const_tile b, n` selects the slice [b, b + n): slices that touch
// (one ends where the other starts) do not overlap.

// Legal: swapping `T[0:8] = A` and `O = T[8:16]` (adjacent slices).
tile.program @adjacent_raw(
    %A: !tile.tensor<8xf32, input>,
    %T: !tile.tensor<16xf32, intermediate>,
    %O: !tile.tensor<8xf32, output>) {
  %lo = tile.const_tile 0, 8
  %hi = tile.const_tile 8, 8
  %f = tile.full
  %a = tile.load %A[%f] : !tile.tensor<8xf32, input> -> !tile.tile<[8], f32>
  %w = tile.store %a, %T[%lo] : !tile.tile<[8], f32>, !tile.tensor<16xf32, intermediate>
  %t = tile.load %T[%hi] : !tile.tensor<16xf32, intermediate> -> !tile.tile<[8], f32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: may swap with the previous statement
  %r = tile.store %t, %O[%f] : !tile.tile<[8], f32>, !tile.tensor<8xf32, output>
  %q = tile.seq %w, %r
  tile.yield %q
}
// CHECK: remark: legality: 1 of 1 adjacent statement pairs may swap

// -----

// Illegal: swapping `T[0:9] = A` and `O = T[8:16]`: the slices share exactly
// T[8].
tile.program @overlapping_raw(
    %A: !tile.tensor<9xf32, input>,
    %T: !tile.tensor<16xf32, intermediate>,
    %O: !tile.tensor<8xf32, output>) {
  %lo = tile.const_tile 0, 9
  %hi = tile.const_tile 8, 8
  %f = tile.full
  %a = tile.load %A[%f] : !tile.tensor<9xf32, input> -> !tile.tile<[9], f32>
  %w = tile.store %a, %T[%lo] : !tile.tile<[9], f32>, !tile.tensor<16xf32, intermediate>
  %t = tile.load %T[%hi] : !tile.tensor<16xf32, intermediate> -> !tile.tile<[8], f32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: cannot swap with the previous statement: write of T[0:9] in the previous statement and read of T[8:16] in this statement conflict; witness: the previous statement and this statement both touch T[8]
  %r = tile.store %t, %O[%f] : !tile.tile<[8], f32>, !tile.tensor<8xf32, output>
  %q = tile.seq %w, %r
  tile.yield %q
}
// CHECK: remark: legality: 0 of 1 adjacent statement pairs may swap

// -----

// Write after read: `O = T[0:8]` then an update of the upper part of T.
// Legal: swapping it with `T[8:16] = A` (adjacent).
// Illegal: swapping `O2 = T[0:8]` with `T[7:16] = B` (T[7] would change
// before it is read).
tile.program @war(
    %A: !tile.tensor<8xf32, input>,
    %B: !tile.tensor<9xf32, input>,
    %T: !tile.tensor<16xf32, inout>,
    %O: !tile.tensor<8xf32, output>,
    %O2: !tile.tensor<8xf32, output>) {
  %lo = tile.const_tile 0, 8
  %hi = tile.const_tile 8, 8
  %hi9 = tile.const_tile 7, 9
  %f = tile.full
  %t = tile.load %T[%lo] : !tile.tensor<16xf32, inout> -> !tile.tile<[8], f32>
  %r = tile.store %t, %O[%f] : !tile.tile<[8], f32>, !tile.tensor<8xf32, output>
  %a = tile.load %A[%f] : !tile.tensor<8xf32, input> -> !tile.tile<[8], f32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: may swap with the previous statement
  %w = tile.store %a, %T[%hi] : !tile.tile<[8], f32>, !tile.tensor<16xf32, inout>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: may swap with the previous statement
  %r2 = tile.store %t, %O2[%f] : !tile.tile<[8], f32>, !tile.tensor<8xf32, output>
  %b = tile.load %B[%f] : !tile.tensor<9xf32, input> -> !tile.tile<[9], f32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: cannot swap with the previous statement: read of T[0:8] in the previous statement and write of T[7:16] in this statement conflict; witness: the previous statement and this statement both touch T[7]
  %w2 = tile.store %b, %T[%hi9] : !tile.tile<[9], f32>, !tile.tensor<16xf32, inout>
  %q3 = tile.seq %r2, %w2
  %q2 = tile.seq %w, %q3
  %q1 = tile.seq %r, %q2
  tile.yield %q1
}
// The middle pair (`T[8:16] = A`, `O2 = T[0:8]`) is a legal read after an
// adjacent write.
// CHECK: remark: legality: 2 of 3 adjacent statement pairs may swap

// -----

// Write after write.
// Legal: swapping `T[0:8] = A` and `T[8:16] = A` (adjacent).
// Illegal: swapping `T[8:16] = A` and `T[15:16] = B` (both write T[15]; the
// last writer decides its value).
tile.program @waw(
    %A: !tile.tensor<8xf32, input>,
    %B: !tile.tensor<1xf32, input>,
    %T: !tile.tensor<16xf32, output>) {
  %lo = tile.const_tile 0, 8
  %hi = tile.const_tile 8, 8
  %last = tile.const_tile 15, 1
  %f = tile.full
  %a = tile.load %A[%f] : !tile.tensor<8xf32, input> -> !tile.tile<[8], f32>
  %w1 = tile.store %a, %T[%lo] : !tile.tile<[8], f32>, !tile.tensor<16xf32, output>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: may swap with the previous statement
  %w2 = tile.store %a, %T[%hi] : !tile.tile<[8], f32>, !tile.tensor<16xf32, output>
  %b = tile.load %B[%f] : !tile.tensor<1xf32, input> -> !tile.tile<[1], f32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: cannot swap with the previous statement: write of T[8:16] in the previous statement and write of T[15:16] in this statement conflict; witness: the previous statement and this statement both touch T[15]
  %w3 = tile.store %b, %T[%last] : !tile.tile<[1], f32>, !tile.tensor<16xf32, output>
  %q2 = tile.seq %w2, %w3
  %q1 = tile.seq %w1, %q2
  tile.yield %q1
}
// CHECK: remark: legality: 1 of 2 adjacent statement pairs may swap

// -----

// Two-dimensional slices are disjoint when any one dimension is.
// Legal: swapping a write of T[0:4, 0:8] and a read of T[2:4, 8:16] (rows
// overlap, columns only touch).
tile.program @two_d_disjoint(
    %A: !tile.tensor<4x8xf32, input>,
    %T: !tile.tensor<8x16xf32, intermediate>,
    %O: !tile.tensor<2x8xf32, output>) {
  %r0_4 = tile.const_tile 0, 4
  %r2_2 = tile.const_tile 2, 2
  %c0_8 = tile.const_tile 0, 8
  %c8_8 = tile.const_tile 8, 8
  %f = tile.full
  %a = tile.load %A[%f, %f] : !tile.tensor<4x8xf32, input> -> !tile.tile<[4, 8], f32>
  %w = tile.store %a, %T[%r0_4, %c0_8] : !tile.tile<[4, 8], f32>, !tile.tensor<8x16xf32, intermediate>
  %t = tile.load %T[%r2_2, %c8_8] : !tile.tensor<8x16xf32, intermediate> -> !tile.tile<[2, 8], f32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: may swap with the previous statement
  %r = tile.store %t, %O[%f, %f] : !tile.tile<[2, 8], f32>, !tile.tensor<2x8xf32, output>
  %q = tile.seq %w, %r
  tile.yield %q
}
// CHECK: remark: legality: 1 of 1 adjacent statement pairs may swap

// -----

// Illegal: swapping a write of T[0:4, 0:9] and a read of T[3:4, 8:16]: they
// meet in exactly one element, T[3, 8].
tile.program @two_d_overlap(
    %A: !tile.tensor<4x9xf32, input>,
    %T: !tile.tensor<8x16xf32, intermediate>,
    %O: !tile.tensor<1x8xf32, output>) {
  %r0_4 = tile.const_tile 0, 4
  %r3_1 = tile.const_tile 3, 1
  %c0_9 = tile.const_tile 0, 9
  %c8_8 = tile.const_tile 8, 8
  %f = tile.full
  %a = tile.load %A[%f, %f] : !tile.tensor<4x9xf32, input> -> !tile.tile<[4, 9], f32>
  %w = tile.store %a, %T[%r0_4, %c0_9] : !tile.tile<[4, 9], f32>, !tile.tensor<8x16xf32, intermediate>
  %t = tile.load %T[%r3_1, %c8_8] : !tile.tensor<8x16xf32, intermediate> -> !tile.tile<[1, 8], f32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: cannot swap with the previous statement: write of T[0:4, 0:9] in the previous statement and read of T[3:4, 8:16] in this statement conflict; witness: the previous statement and this statement both touch T[3, 8]
  %r = tile.store %t, %O[%f, %f] : !tile.tile<[1, 8], f32>, !tile.tensor<1x8xf32, output>
  %q = tile.seq %w, %r
  tile.yield %q
}
// CHECK: remark: legality: 0 of 1 adjacent statement pairs may swap

// -----

// A loop writes T[tile i] for i = 0, 4 (so T[0:8]).
// Legal: swapping it with a read of T[8:16] (the slice starts where the last
// tile ends).
tile.program @tiles_vs_slice_disjoint(
    %A: !tile.tensor<8xf32, input>,
    %T: !tile.tensor<16xf32, intermediate>,
    %O: !tile.tensor<8xf32, output>) {
  %i = tile.var "i"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %hi = tile.const_tile 8, 8
  %f = tile.full
  %a = tile.load %A[%ti] : !tile.tensor<8xf32, input> -> !tile.tile<[4], f32>
  %w = tile.store %a, %T[%ti] : !tile.tile<[4], f32>, !tile.tensor<16xf32, intermediate>
  %l = tile.loop %i = 0 to 8 step %c4 body %w
  %t = tile.load %T[%hi] : !tile.tensor<16xf32, intermediate> -> !tile.tile<[8], f32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: may swap with the previous statement
  %r = tile.store %t, %O[%f] : !tile.tile<[8], f32>, !tile.tensor<8xf32, output>
  %q = tile.seq %l, %r
  tile.yield %q
}
// CHECK: remark: legality: 1 of 1 adjacent statement pairs may swap

// -----

// Illegal: swapping the loop of @tiles_vs_slice_disjoint with a read of
// T[7:8]: only the tile at i = 4 contains T[7].
tile.program @tiles_vs_slice_meet(
    %A: !tile.tensor<8xf32, input>,
    %T: !tile.tensor<16xf32, intermediate>,
    %O: !tile.tensor<1xf32, output>) {
  %i = tile.var "i"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %e7 = tile.const_tile 7, 1
  %f = tile.full
  %a = tile.load %A[%ti] : !tile.tensor<8xf32, input> -> !tile.tile<[4], f32>
  %w = tile.store %a, %T[%ti] : !tile.tile<[4], f32>, !tile.tensor<16xf32, intermediate>
  %l = tile.loop %i = 0 to 8 step %c4 body %w
  %t = tile.load %T[%e7] : !tile.tensor<16xf32, intermediate> -> !tile.tile<[1], f32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: cannot swap with the previous statement: write of T[tile i] in the previous statement and read of T[7:8] in this statement conflict; witness: the previous statement at i = 4 and this statement both touch T[7]
  %r = tile.store %t, %O[%f] : !tile.tile<[1], f32>, !tile.tensor<1xf32, output>
  %q = tile.seq %l, %r
  tile.yield %q
}
// CHECK: remark: legality: 0 of 1 adjacent statement pairs may swap

// -----

// Illegal: swapping a write of all of T with a read of the slice T[5:6].
tile.program @full_vs_slice(
    %A: !tile.tensor<16xf32, input>,
    %T: !tile.tensor<16xf32, intermediate>,
    %O: !tile.tensor<1xf32, output>) {
  %e5 = tile.const_tile 5, 1
  %f = tile.full
  %a = tile.load %A[%f] : !tile.tensor<16xf32, input> -> !tile.tile<[16], f32>
  %w = tile.store %a, %T[%f] : !tile.tile<[16], f32>, !tile.tensor<16xf32, intermediate>
  %t = tile.load %T[%e5] : !tile.tensor<16xf32, intermediate> -> !tile.tile<[1], f32>
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: cannot swap with the previous statement: write of T[full] in the previous statement and read of T[5:6] in this statement conflict; witness: the previous statement and this statement both touch T[5]
  %r = tile.store %t, %O[%f] : !tile.tile<[1], f32>, !tile.tensor<1xf32, output>
  %q = tile.seq %w, %r
  tile.yield %q
}
// CHECK: remark: legality: 0 of 1 adjacent statement pairs may swap
