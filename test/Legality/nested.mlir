// RUN: tile-opt %s --split-input-file --tile-check-legality -o /dev/null 2>&1 | FileCheck %s
// REQUIRES: z3

// Sequences inside loop bodies: a swap there reorders two statements of the
// same iteration, so variables of the enclosing loops take one value on both
// sides; a fusion there fuses two inner loops within one outer iteration.

// Loop over rows h = 0..3 with body: X[h, :] = A[h, :]; O[h, :] = X[3, :];
// P[h, :] = A[h, :].
// Illegal: swapping the first two body statements (at h = 3 the second reads
// the row the first writes; both sides see the same h).
// Legal: swapping the last two (P and O are distinct outputs; A is an input).
tile.program @body_rows(
    %A: !tile.tensor<4x8xf32, input>,
    %X: !tile.tensor<4x8xf32, intermediate>,
    %O: !tile.tensor<4x8xf32, output>,
    %P: !tile.tensor<4x8xf32, output>) {
  %h = tile.var "h"
  %c1 = tile.size 1
  %eh = tile.elem %h
  %f = tile.full
  %r3 = tile.const_tile 3, 1
  %a = tile.load %A[%eh, %f] : !tile.tensor<4x8xf32, input> -> !tile.tile<[1, 8], f32>
  %w = tile.store %a, %X[%eh, %f] : !tile.tile<[1, 8], f32>, !tile.tensor<4x8xf32, intermediate>
  %x3 = tile.load %X[%r3, %f] : !tile.tensor<4x8xf32, intermediate> -> !tile.tile<[1, 8], f32>
  // CHECK-DAG: :[[@LINE+1]]:{{[0-9]+}}: remark: cannot swap with the previous statement: write of X[elem h, full] in the previous statement and read of X[3:4, full] in this statement conflict; witness: the previous statement at h = 3 and this statement at h = 3 both touch X[3, {{[0-7]}}]
  %r = tile.store %x3, %O[%eh, %f] : !tile.tile<[1, 8], f32>, !tile.tensor<4x8xf32, output>
  // CHECK-DAG: :[[@LINE+1]]:{{[0-9]+}}: remark: may swap with the previous statement
  %p = tile.store %a, %P[%eh, %f] : !tile.tile<[1, 8], f32>, !tile.tensor<4x8xf32, output>
  %b2 = tile.seq %r, %p
  %b1 = tile.seq %w, %b2
  %l = tile.loop %h = 0 to 4 step %c1 body %b1
  tile.yield %l
}
// CHECK: remark: legality: 1 of 2 adjacent statement pairs may swap, 0 of 0 adjacent loop pairs may fuse

// -----

// Softmax numerator and denominator per head h, each an inner loop over
// p-tiles inside the loop over h (Trinity's E = exp(C), S = sum(E)).
// Illegal: swapping the two inner loops (S sums E before it is computed).
// Legal: fusing the two inner loops (iteration p of the sum reads only the
// tile of E that iteration p of the first loop wrote).
tile.program @inner_fusion_legal(
    %C: !tile.tensor<2x4x16xf32, input>,
    %E: !tile.tensor<2x4x16xf32, intermediate>,
    %S: !tile.tensor<2x4xf32, output>) {
  %h = tile.var "h"
  %p = tile.var "p"
  %c1 = tile.size 1
  %c4 = tile.size 4
  %eh = tile.elem %h
  %tp = tile.tile %p
  %f = tile.full
  %cl = tile.load %C[%eh, %f, %tp] : !tile.tensor<2x4x16xf32, input> -> !tile.tile<[1, 4, 4], f32>
  %et = tile.exp %cl : !tile.tile<[1, 4, 4], f32>
  %se = tile.store %et, %E[%eh, %f, %tp] : !tile.tile<[1, 4, 4], f32>, !tile.tensor<2x4x16xf32, intermediate>
  %lep = tile.loop %p = 0 to 16 step %c4 body %se
  %el = tile.load %E[%eh, %f, %tp] : !tile.tensor<2x4x16xf32, intermediate> -> !tile.tile<[1, 4, 4], f32>
  %sl = tile.load %S[%eh, %f] : !tile.tensor<2x4xf32, output> -> !tile.tile<[1, 4], f32>
  %er = tile.rsum %el, 2 : !tile.tile<[1, 4, 4], f32> -> !tile.tile<[1, 4], f32>
  %sn = tile.add %sl, %er : !tile.tile<[1, 4], f32>
  %ss = tile.store %sn, %S[%eh, %f] : !tile.tile<[1, 4], f32>, !tile.tensor<2x4xf32, output>
  // CHECK-DAG: :[[@LINE+2]]:{{[0-9]+}}: remark: cannot swap with the previous statement: write of E[elem h, full, tile p] in the previous statement and read of E[elem h, full, tile p] in this statement conflict; witness: the previous statement at h = [[H:0|1]], p = [[P:0|4|8|12]] and this statement at h = [[H]], p = [[P]] both touch E{{\[}}[[H]], {{[0-3]}}, {{[0-9]+}}]
  // CHECK-DAG: :[[@LINE+1]]:{{[0-9]+}}: remark: may fuse with the previous loop
  %lsp = tile.loop %p = 0 to 16 step %c4 body %ss
  %body = tile.seq %lep, %lsp
  %l = tile.loop %h = 0 to 2 step %c1 body %body
  tile.yield %l
}
// CHECK: remark: legality: 0 of 1 adjacent statement pairs may swap, 1 of 1 adjacent loop pairs may fuse

// -----

// Per head h: S[h] = sum over p-tiles of E[h, :, p-tile], then
// O[h, :, p-tile] = E[h, :, p-tile] / S[h].
// Illegal: fusing the two inner loops: the sum at p = 4 updates S[h] after
// the division at p = 0 read it (within one h).
// Legal: swapping the h loop with a following loop over h that reads only
// the input E and writes an unrelated output Z. Legal: fusing them.
tile.program @inner_fusion_illegal(
    %E: !tile.tensor<2x4x8xf32, input>,
    %S: !tile.tensor<2x4xf32, intermediate>,
    %O: !tile.tensor<2x4x8xf32, output>,
    %Z: !tile.tensor<2x4xf32, output>) {
  %h = tile.var "h"
  %p = tile.var "p"
  %c1 = tile.size 1
  %c4 = tile.size 4
  %eh = tile.elem %h
  %tp = tile.tile %p
  %f = tile.full
  %el = tile.load %E[%eh, %f, %tp] : !tile.tensor<2x4x8xf32, input> -> !tile.tile<[1, 4, 4], f32>
  %sl = tile.load %S[%eh, %f] : !tile.tensor<2x4xf32, intermediate> -> !tile.tile<[1, 4], f32>
  %er = tile.rsum %el, 2 : !tile.tile<[1, 4, 4], f32> -> !tile.tile<[1, 4], f32>
  %sn = tile.add %sl, %er : !tile.tile<[1, 4], f32>
  %ss = tile.store %sn, %S[%eh, %f] : !tile.tile<[1, 4], f32>, !tile.tensor<2x4xf32, intermediate>
  %lsp = tile.loop %p = 0 to 8 step %c4 body %ss
  %sb = tile.bcast %sl [2] : !tile.tile<[1, 4], f32> -> !tile.tile<[1, 4, 4], f32>
  %d = tile.div %el, %sb : !tile.tile<[1, 4, 4], f32>
  %so = tile.store %d, %O[%eh, %f, %tp] : !tile.tile<[1, 4, 4], f32>, !tile.tensor<2x4x8xf32, output>
  // CHECK-DAG: :[[@LINE+2]]:{{[0-9]+}}: remark: cannot swap with the previous statement: write of S[elem h, full] in the previous statement and read of S[elem h, full] in this statement conflict
  // CHECK-DAG: :[[@LINE+1]]:{{[0-9]+}}: remark: cannot fuse with the previous loop: write of S[elem h, full] in the previous loop and read of S[elem h, full] in this loop conflict; witness: the previous loop at h = [[H:0|1]], p = 4 and this loop at h = [[H]], p = 0 both touch S{{\[}}[[H]], {{[0-3]}}]
  %lop = tile.loop %p = 0 to 8 step %c4 body %so
  %body = tile.seq %lsp, %lop
  %l = tile.loop %h = 0 to 2 step %c1 body %body
  %z = tile.store %er, %Z[%eh, %f] : !tile.tile<[1, 4], f32>, !tile.tensor<2x4xf32, output>
  %lzp = tile.loop %p = 0 to 8 step %c4 body %z
  // CHECK-DAG: :[[@LINE+2]]:{{[0-9]+}}: remark: may swap with the previous statement
  // CHECK-DAG: :[[@LINE+1]]:{{[0-9]+}}: remark: may fuse with the previous loop
  %lz = tile.loop %h = 0 to 2 step %c1 body %lzp
  %q = tile.seq %l, %lz
  tile.yield %q
}
// CHECK: remark: legality: 1 of 2 adjacent statement pairs may swap, 1 of 2 adjacent loop pairs may fuse

// -----

// Two levels: a over rows, b over columns; the innermost body writes T[a, b]
// and then reads T[a, 0] (the first column of the row).
// Illegal: swapping the two statements of the innermost body: at b = 0 the
// read is of the element just written.
tile.program @two_levels(
    %A: !tile.tensor<2x4xf32, input>,
    %T: !tile.tensor<2x4xf32, intermediate>,
    %O: !tile.tensor<2x4xf32, output>) {
  %a = tile.var "a"
  %b = tile.var "b"
  %c1 = tile.size 1
  %ea = tile.elem %a
  %eb = tile.elem %b
  %col0 = tile.const_tile 0, 1
  %x = tile.load %A[%ea, %eb] : !tile.tensor<2x4xf32, input> -> !tile.tile<[1, 1], f32>
  %w = tile.store %x, %T[%ea, %eb] : !tile.tile<[1, 1], f32>, !tile.tensor<2x4xf32, intermediate>
  %t = tile.load %T[%ea, %col0] : !tile.tensor<2x4xf32, intermediate> -> !tile.tile<[1, 1], f32>
  // CHECK-DAG: :[[@LINE+1]]:{{[0-9]+}}: remark: cannot swap with the previous statement: write of T[elem a, elem b] in the previous statement and read of T[elem a, 0:1] in this statement conflict; witness: the previous statement at a = [[A:0|1]], b = 0 and this statement at a = [[A]], b = 0 both touch T{{\[}}[[A]], 0]
  %r = tile.store %t, %O[%ea, %eb] : !tile.tile<[1, 1], f32>, !tile.tensor<2x4xf32, output>
  %body = tile.seq %w, %r
  %lb = tile.loop %b = 0 to 4 step %c1 body %body
  %la = tile.loop %a = 0 to 2 step %c1 body %lb
  tile.yield %la
}
// CHECK: remark: legality: 0 of 1 adjacent statement pairs may swap

// -----

// A left-nested sequence, seq(seq(s1, s2), s3), is the statement list
// s1; s2; s3.
// Legal: swapping s2 (writes P) with s1 (writes O).
// Legal: swapping s3 with s2 (s3 reads O, written by s1 only, and writes Q;
// s2 writes P).
tile.program @left_nested(
    %A: !tile.tensor<8xf32, input>,
    %O: !tile.tensor<8xf32, intermediate>,
    %P: !tile.tensor<8xf32, output>,
    %Q: !tile.tensor<8xf32, output>) {
  %f = tile.full
  %a = tile.load %A[%f] : !tile.tensor<8xf32, input> -> !tile.tile<[8], f32>
  %s1 = tile.store %a, %O[%f] : !tile.tile<[8], f32>, !tile.tensor<8xf32, intermediate>
  // CHECK-DAG: :[[@LINE+1]]:{{[0-9]+}}: remark: may swap with the previous statement
  %s2 = tile.store %a, %P[%f] : !tile.tile<[8], f32>, !tile.tensor<8xf32, output>
  %o = tile.load %O[%f] : !tile.tensor<8xf32, intermediate> -> !tile.tile<[8], f32>
  // CHECK-DAG: :[[@LINE+1]]:{{[0-9]+}}: remark: may swap with the previous statement
  %s3 = tile.store %o, %Q[%f] : !tile.tile<[8], f32>, !tile.tensor<8xf32, output>
  %q12 = tile.seq %s1, %s2
  %q = tile.seq %q12, %s3
  tile.yield %q
}
// CHECK: remark: legality: 2 of 2 adjacent statement pairs may swap
