// RUN: tile-opt %s --split-input-file --tile-check-legality -o /dev/null 2>&1 | FileCheck %s
// REQUIRES: z3

// A KV cache: an `inout` tensor Kc[head, position, d] holding 12 old positions
// from the caller; each step appends 4 new positions, Kc[:, 12:16, :] = K,
// then attention reads Kc (as in the vanilla workload).

// Legal: swapping the append with a loop reading only the old rows
// Kc[h, 0:12, :] (the caller's data, untouched by the append).
// Legal: fusing them (the loops run over the same h range).
tile.program @append_then_read_old(
    %K: !tile.tensor<2x4x8xf16, input>,
    %Kc: !tile.tensor<2x16x8xf16, inout>,
    %O: !tile.tensor<2x12x8xf16, output>) {
  %h = tile.var "h"
  %c1 = tile.size 1
  %eh = tile.elem %h
  %f = tile.full
  %new = tile.const_tile 12, 4
  %old = tile.const_tile 0, 12
  %kn = tile.load %K[%eh, %f, %f] : !tile.tensor<2x4x8xf16, input> -> !tile.tile<[1, 4, 8], f16>
  %skc = tile.store %kn, %Kc[%eh, %new, %f] : !tile.tile<[1, 4, 8], f16>, !tile.tensor<2x16x8xf16, inout>
  %lkc = tile.loop %h = 0 to 2 step %c1 body %skc
  %ko = tile.load %Kc[%eh, %old, %f] : !tile.tensor<2x16x8xf16, inout> -> !tile.tile<[1, 12, 8], f16>
  %so = tile.store %ko, %O[%eh, %f, %f] : !tile.tile<[1, 12, 8], f16>, !tile.tensor<2x12x8xf16, output>
  // CHECK-DAG: :[[@LINE+2]]:{{[0-9]+}}: remark: may swap with the previous statement
  // CHECK-DAG: :[[@LINE+1]]:{{[0-9]+}}: remark: may fuse with the previous loop
  %lo = tile.loop %h = 0 to 2 step %c1 body %so
  %q = tile.seq %lkc, %lo
  tile.yield %q
}
// CHECK: remark: legality: 1 of 1 adjacent statement pairs may swap, 1 of 1 adjacent loop pairs may fuse

// -----

// Attention reads all 16 positions of head h in tiles of 4 (p = 0, 4, 8, 12).
// Illegal: swapping the append with it: the tile at p = 12 is the new rows
// (it would read the caller's stale data there).
// Legal: fusing them over h: iteration h of the append writes only head h,
// which the reader at h' < h never reads.
tile.program @append_then_read_all(
    %K: !tile.tensor<2x4x8xf16, input>,
    %Kc: !tile.tensor<2x16x8xf16, inout>,
    %C: !tile.tensor<2x8x16xf16, output>) {
  %h = tile.var "h"
  %p = tile.var "p"
  %c1 = tile.size 1
  %c4 = tile.size 4
  %eh = tile.elem %h
  %tp = tile.tile %p
  %f = tile.full
  %new = tile.const_tile 12, 4
  %kn = tile.load %K[%eh, %f, %f] : !tile.tensor<2x4x8xf16, input> -> !tile.tile<[1, 4, 8], f16>
  %skc = tile.store %kn, %Kc[%eh, %new, %f] : !tile.tile<[1, 4, 8], f16>, !tile.tensor<2x16x8xf16, inout>
  %lkc = tile.loop %h = 0 to 2 step %c1 body %skc
  %kt = tile.load %Kc[%eh, %tp, %f] : !tile.tensor<2x16x8xf16, inout> -> !tile.tile<[1, 4, 8], f16>
  %ktt = tile.permute %kt [0, 2, 1] : !tile.tile<[1, 4, 8], f16> -> !tile.tile<[1, 8, 4], f16>
  %sc = tile.store %ktt, %C[%eh, %f, %tp] : !tile.tile<[1, 8, 4], f16>, !tile.tensor<2x8x16xf16, output>
  %lp = tile.loop %p = 0 to 16 step %c4 body %sc
  // CHECK-DAG: :[[@LINE+2]]:{{[0-9]+}}: remark: cannot swap with the previous statement: write of Kc[elem h, 12:16, full] in the previous statement and read of Kc[elem h, tile p, full] in this statement conflict; witness: the previous statement at h = [[H:0|1]] and this statement at h = [[H]], p = 12 both touch Kc{{\[}}[[H]], {{1[2-5]}}, {{[0-7]}}]
  // CHECK-DAG: :[[@LINE+1]]:{{[0-9]+}}: remark: may fuse with the previous loop
  %lc = tile.loop %h = 0 to 2 step %c1 body %lp
  %q = tile.seq %lkc, %lc
  tile.yield %q
}
// CHECK: remark: legality: 0 of 1 adjacent statement pairs may swap, 1 of 1 adjacent loop pairs may fuse

// -----

// The reader takes all heads at once (Kc[:, p-tile, :], e.g. for a
// head-mixing reduction), still inside a loop over h.
// Illegal: fusing it with the append over h: the append at h = 1 writes
// Kc[1, 12:16] after the reader at h = 0 read it (only p = 12 meets the new
// rows).
tile.program @append_then_read_all_heads(
    %K: !tile.tensor<2x4x8xf16, input>,
    %Kc: !tile.tensor<2x16x8xf16, inout>,
    %C: !tile.tensor<2x2x16x8xf16, output>) {
  %h = tile.var "h"
  %p = tile.var "p"
  %c1 = tile.size 1
  %c4 = tile.size 4
  %eh = tile.elem %h
  %tp = tile.tile %p
  %f = tile.full
  %new = tile.const_tile 12, 4
  %kn = tile.load %K[%eh, %f, %f] : !tile.tensor<2x4x8xf16, input> -> !tile.tile<[1, 4, 8], f16>
  %skc = tile.store %kn, %Kc[%eh, %new, %f] : !tile.tile<[1, 4, 8], f16>, !tile.tensor<2x16x8xf16, inout>
  %lkc = tile.loop %h = 0 to 2 step %c1 body %skc
  %kt = tile.load %Kc[%f, %tp, %f] : !tile.tensor<2x16x8xf16, inout> -> !tile.tile<[2, 4, 8], f16>
  %ktu = tile.unsqueeze %kt, 0 : !tile.tile<[2, 4, 8], f16> -> !tile.tile<[1, 2, 4, 8], f16>
  %sc = tile.store %ktu, %C[%eh, %f, %tp, %f] : !tile.tile<[1, 2, 4, 8], f16>, !tile.tensor<2x2x16x8xf16, output>
  %lp = tile.loop %p = 0 to 16 step %c4 body %sc
  // CHECK-DAG: :[[@LINE+2]]:{{[0-9]+}}: remark: cannot swap with the previous statement: write of Kc[elem h, 12:16, full] in the previous statement and read of Kc[full, tile p, full] in this statement conflict
  // CHECK-DAG: :[[@LINE+1]]:{{[0-9]+}}: remark: cannot fuse with the previous loop: write of Kc[elem h, 12:16, full] in the previous loop and read of Kc[full, tile p, full] in this loop conflict; witness: the previous loop at h = 1 and this loop at {{h = 0, p = 12|p = 12, h = 0}} both touch Kc[1, {{1[2-5]}}, {{[0-7]}}]
  %lc = tile.loop %h = 0 to 2 step %c1 body %lp
  %q = tile.seq %lkc, %lc
  tile.yield %q
}
// CHECK: remark: legality: 0 of 1 adjacent statement pairs may swap, 0 of 1 adjacent loop pairs may fuse

// -----

// A sliding window reads old positions 8..15 (before this step's append) and
// then the append overwrites positions 12..15.
// Illegal: swapping the read with the append (write after read of the old
// rows 12..15: the read would see the new rows).
// Appending the V cache is independent of the K cache.
// Legal: swapping the K append with the V append. Legal: fusing them.
tile.program @read_window_then_append(
    %K: !tile.tensor<2x4x8xf16, input>,
    %V: !tile.tensor<2x4x8xf16, input>,
    %Kc: !tile.tensor<2x16x8xf16, inout>,
    %Vc: !tile.tensor<2x16x8xf16, inout>,
    %W: !tile.tensor<2x8x8xf16, output>) {
  %h = tile.var "h"
  %c1 = tile.size 1
  %eh = tile.elem %h
  %f = tile.full
  %new = tile.const_tile 12, 4
  %win = tile.const_tile 8, 8
  %kw = tile.load %Kc[%eh, %win, %f] : !tile.tensor<2x16x8xf16, inout> -> !tile.tile<[1, 8, 8], f16>
  %sw = tile.store %kw, %W[%eh, %f, %f] : !tile.tile<[1, 8, 8], f16>, !tile.tensor<2x8x8xf16, output>
  %lw = tile.loop %h = 0 to 2 step %c1 body %sw
  %kn = tile.load %K[%eh, %f, %f] : !tile.tensor<2x4x8xf16, input> -> !tile.tile<[1, 4, 8], f16>
  %skc = tile.store %kn, %Kc[%eh, %new, %f] : !tile.tile<[1, 4, 8], f16>, !tile.tensor<2x16x8xf16, inout>
  // CHECK-DAG: :[[@LINE+2]]:{{[0-9]+}}: remark: cannot swap with the previous statement: read of Kc[elem h, 8:16, full] in the previous statement and write of Kc[elem h, 12:16, full] in this statement conflict; witness: the previous statement at h = [[H:0|1]] and this statement at h = [[H]] both touch Kc{{\[}}[[H]], {{1[2-5]}}, {{[0-7]}}]
  // CHECK-DAG: :[[@LINE+1]]:{{[0-9]+}}: remark: may fuse with the previous loop
  %lkc = tile.loop %h = 0 to 2 step %c1 body %skc
  %vn = tile.load %V[%eh, %f, %f] : !tile.tensor<2x4x8xf16, input> -> !tile.tile<[1, 4, 8], f16>
  %svc = tile.store %vn, %Vc[%eh, %new, %f] : !tile.tile<[1, 4, 8], f16>, !tile.tensor<2x16x8xf16, inout>
  // CHECK-DAG: :[[@LINE+2]]:{{[0-9]+}}: remark: may swap with the previous statement
  // CHECK-DAG: :[[@LINE+1]]:{{[0-9]+}}: remark: may fuse with the previous loop
  %lvc = tile.loop %h = 0 to 2 step %c1 body %svc
  %q2 = tile.seq %lkc, %lvc
  %q1 = tile.seq %lw, %q2
  tile.yield %q1
}
// The window read and the append also fuse: the same head in each iteration.
// CHECK: remark: legality: 1 of 2 adjacent statement pairs may swap, 2 of 2 adjacent loop pairs may fuse
