// Cause 5 of issue 46 (the scheduler starving a fusion), in the form the
// issue names: attention with its projections, the head loops written with
// a tile step (Trinity's `loop h tile_h`, indexing Q[tile h]) rather than
// one head per step (test/Examples/vanilla.mlir is this program with
// `elem h` and step 1).
// RUN: tile-opt %s --tile-saturate="goal=%S/../../Examples/goals/vanilla-fig4f.mlir" -o /dev/null 2>&1 | FileCheck %s
//
// Reaching Trinity Figure 4(f) (every loop in one loop over heads, the
// projections' k loops inside it) needs, at the default options and
// scheduler: the reindexing fusion of (tile h) with the head split's
// (elem c) (tile_h specialised to 1, cause 2), then the fusions of each
// statement into that loop, none of them banned before it applies.
// CHECK: remark: goal @vanilla_fig4f is represented in the saturated e-graph of @vanilla
//
// Its one-kernel candidate is extracted and passes the numerical check.
// RUN: tile-opt %s --tile-extract="top-k=1" 2>&1 | FileCheck %s --check-prefix=EXTRACT
// EXTRACT: remark: extracted 1 candidate(s) of @vanilla (0 dropped by the check)
// EXTRACT-SAME: best has 1 kernel(s)
//
// The same program computes what the linalg reference does.
// RUN: tile-run %s --reference %S/../../Workloads/vanilla.mlir --tolerance 1e-6 | FileCheck %s --check-prefix=CMP
// CMP: PASS
//
// Blocking: head loops stepped by a fixed 2 (every head in one iteration)
// cannot become one head per step, so nothing fuses them with the loops
// over c and Figure 4(f) is not reached.
// RUN: not tile-opt %S/Inputs/attention-projections-pinned-heads.mlir --tile-saturate="goal=%S/../../Examples/goals/vanilla-fig4f.mlir" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BLOCKED
// BLOCKED: error: goal @vanilla_fig4f is not represented in the saturated e-graph of @vanilla


// Vanilla attention block, naive (one loop nest per op, Trinity Figure 4(a)),
// scaled down: M=4 tokens, H=2 heads, d=8, D=H*d=16, P=16, PRE=12.

// CHECK-LABEL: tile.program @vanilla
tile.program @vanilla(
    %X: !tile.tensor<4x16xf16, input>,
    %WQ: !tile.tensor<16x16xf16, input>,
    %WK: !tile.tensor<16x16xf16, input>,
    %WV: !tile.tensor<16x16xf16, input>,
    %Kc: !tile.tensor<2x16x8xf16, inout>,
    %Vc: !tile.tensor<2x16x8xf16, inout>,
    %O2: !tile.tensor<4x16xf16, output>,
    %Q1: !tile.tensor<4x16xf32, intermediate>,
    %K1: !tile.tensor<4x16xf32, intermediate>,
    %V1: !tile.tensor<4x16xf32, intermediate>,
    %Q: !tile.tensor<2x4x8xf16, intermediate>,
    %K: !tile.tensor<2x4x8xf16, intermediate>,
    %V: !tile.tensor<2x4x8xf16, intermediate>,
    %C: !tile.tensor<2x4x16xf32, intermediate>,
    %E: !tile.tensor<2x4x16xf32, intermediate>,
    %S: !tile.tensor<2x4xf32, intermediate>,
    %O: !tile.tensor<2x4x8xf32, intermediate>) attributes {tile.results = ["O2", "Kc", "Vc"]} {
  %n = tile.var "n"
  %k = tile.var "k"
  %c = tile.var "c"
  %h = tile.var "h"
  %p = tile.var "p"
  %tile_n = tile.size "tile_n"
  %tile_k = tile.size "tile_k"
  %tile_p = tile.size "tile_p"
  %c8 = tile.size 8
  %c1 = tile.size 1
  %full = tile.full
  %tn = tile.tile %n
  %tk = tile.tile %k
  %tc = tile.tile %c
  %ec = tile.elem %c
  %eh = tile.tile %h
  %tile_h = tile.size "tile_h"
  %tp = tile.tile %p
  %new = tile.const_tile 12, 4

  // Q1 = X @ WQ (and K1, V1): accumulate over k.
  %x = tile.load %X[%full, %tk] : !tile.tensor<4x16xf16, input> -> !tile.tile<[4, tile_k], f16>
  %wq = tile.load %WQ[%tk, %tn] : !tile.tensor<16x16xf16, input> -> !tile.tile<[tile_k, tile_n], f16>
  %q1 = tile.load %Q1[%full, %tn] : !tile.tensor<4x16xf32, intermediate> -> !tile.tile<[4, tile_n], f32>
  %xq = tile.matmul %x, %wq : !tile.tile<[4, tile_k], f16>, !tile.tile<[tile_k, tile_n], f16> -> !tile.tile<[4, tile_n], f32>
  %q1n = tile.add %q1, %xq : !tile.tile<[4, tile_n], f32>
  %sq1 = tile.store %q1n, %Q1[%full, %tn] : !tile.tile<[4, tile_n], f32>, !tile.tensor<4x16xf32, intermediate>
  %lq1k = tile.loop %k = 0 to 16 step %tile_k body %sq1
  %lq1 = tile.loop %n = 0 to 16 step %tile_n body %lq1k

  %wk = tile.load %WK[%tk, %tn] : !tile.tensor<16x16xf16, input> -> !tile.tile<[tile_k, tile_n], f16>
  %k1 = tile.load %K1[%full, %tn] : !tile.tensor<4x16xf32, intermediate> -> !tile.tile<[4, tile_n], f32>
  %xk = tile.matmul %x, %wk : !tile.tile<[4, tile_k], f16>, !tile.tile<[tile_k, tile_n], f16> -> !tile.tile<[4, tile_n], f32>
  %k1n = tile.add %k1, %xk : !tile.tile<[4, tile_n], f32>
  %sk1 = tile.store %k1n, %K1[%full, %tn] : !tile.tile<[4, tile_n], f32>, !tile.tensor<4x16xf32, intermediate>
  %lk1k = tile.loop %k = 0 to 16 step %tile_k body %sk1
  %lk1 = tile.loop %n = 0 to 16 step %tile_n body %lk1k

  %wv = tile.load %WV[%tk, %tn] : !tile.tensor<16x16xf16, input> -> !tile.tile<[tile_k, tile_n], f16>
  %v1 = tile.load %V1[%full, %tn] : !tile.tensor<4x16xf32, intermediate> -> !tile.tile<[4, tile_n], f32>
  %xv = tile.matmul %x, %wv : !tile.tile<[4, tile_k], f16>, !tile.tile<[tile_k, tile_n], f16> -> !tile.tile<[4, tile_n], f32>
  %v1n = tile.add %v1, %xv : !tile.tile<[4, tile_n], f32>
  %sv1 = tile.store %v1n, %V1[%full, %tn] : !tile.tile<[4, tile_n], f32>, !tile.tensor<4x16xf32, intermediate>
  %lv1k = tile.loop %k = 0 to 16 step %tile_k body %sv1
  %lv1 = tile.loop %n = 0 to 16 step %tile_n body %lv1k

  // Q = transpose(reshape(Q1, (M, H, d)), (1, 0, 2)), one head (d columns) per step of c.
  %q1h = tile.load %Q1[%full, %tc] : !tile.tensor<4x16xf32, intermediate> -> !tile.tile<[4, 8], f32>
  %q1h16 = tile.cast %q1h : !tile.tile<[4, 8], f32> -> !tile.tile<[4, 8], f16>
  %q1u = tile.unsqueeze %q1h16, 1 : !tile.tile<[4, 8], f16> -> !tile.tile<[4, 1, 8], f16>
  %qh = tile.permute %q1u [1, 0, 2] : !tile.tile<[4, 1, 8], f16> -> !tile.tile<[1, 4, 8], f16>
  %sq = tile.store %qh, %Q[%ec, %full, %full] : !tile.tile<[1, 4, 8], f16>, !tile.tensor<2x4x8xf16, intermediate>
  %lq = tile.loop %c = 0 to 16 step %c8 body %sq

  %k1h = tile.load %K1[%full, %tc] : !tile.tensor<4x16xf32, intermediate> -> !tile.tile<[4, 8], f32>
  %k1h16 = tile.cast %k1h : !tile.tile<[4, 8], f32> -> !tile.tile<[4, 8], f16>
  %k1u = tile.unsqueeze %k1h16, 1 : !tile.tile<[4, 8], f16> -> !tile.tile<[4, 1, 8], f16>
  %kh = tile.permute %k1u [1, 0, 2] : !tile.tile<[4, 1, 8], f16> -> !tile.tile<[1, 4, 8], f16>
  %sk = tile.store %kh, %K[%ec, %full, %full] : !tile.tile<[1, 4, 8], f16>, !tile.tensor<2x4x8xf16, intermediate>
  %lk = tile.loop %c = 0 to 16 step %c8 body %sk

  %v1h = tile.load %V1[%full, %tc] : !tile.tensor<4x16xf32, intermediate> -> !tile.tile<[4, 8], f32>
  %v1h16 = tile.cast %v1h : !tile.tile<[4, 8], f32> -> !tile.tile<[4, 8], f16>
  %v1u = tile.unsqueeze %v1h16, 1 : !tile.tile<[4, 8], f16> -> !tile.tile<[4, 1, 8], f16>
  %vh = tile.permute %v1u [1, 0, 2] : !tile.tile<[4, 1, 8], f16> -> !tile.tile<[1, 4, 8], f16>
  %sv = tile.store %vh, %V[%ec, %full, %full] : !tile.tile<[1, 4, 8], f16>, !tile.tensor<2x4x8xf16, intermediate>
  %lv = tile.loop %c = 0 to 16 step %c8 body %sv

  // Kc[:, PRE:P, :] = K ; Vc[:, PRE:P, :] = V
  %kn = tile.load %K[%eh, %full, %full] : !tile.tensor<2x4x8xf16, intermediate> -> !tile.tile<[tile_h, 4, 8], f16>
  %skc = tile.store %kn, %Kc[%eh, %new, %full] : !tile.tile<[tile_h, 4, 8], f16>, !tile.tensor<2x16x8xf16, inout>
  %lkc = tile.loop %h = 0 to 2 step %tile_h body %skc
  %vn = tile.load %V[%eh, %full, %full] : !tile.tensor<2x4x8xf16, intermediate> -> !tile.tile<[tile_h, 4, 8], f16>
  %svc = tile.store %vn, %Vc[%eh, %new, %full] : !tile.tile<[tile_h, 4, 8], f16>, !tile.tensor<2x16x8xf16, inout>
  %lvc = tile.loop %h = 0 to 2 step %tile_h body %svc

  // C = Q @ transpose(Kc, (0, 2, 1))
  %qt = tile.load %Q[%eh, %full, %full] : !tile.tensor<2x4x8xf16, intermediate> -> !tile.tile<[tile_h, 4, 8], f16>
  %kct = tile.load %Kc[%eh, %tp, %full] : !tile.tensor<2x16x8xf16, inout> -> !tile.tile<[tile_h, tile_p, 8], f16>
  %kctt = tile.permute %kct [0, 2, 1] : !tile.tile<[tile_h, tile_p, 8], f16> -> !tile.tile<[tile_h, 8, tile_p], f16>
  %ct = tile.matmul %qt, %kctt : !tile.tile<[tile_h, 4, 8], f16>, !tile.tile<[tile_h, 8, tile_p], f16> -> !tile.tile<[tile_h, 4, tile_p], f32>
  %sc = tile.store %ct, %C[%eh, %full, %tp] : !tile.tile<[tile_h, 4, tile_p], f32>, !tile.tensor<2x4x16xf32, intermediate>
  %lcp = tile.loop %p = 0 to 16 step %tile_p body %sc
  %lc = tile.loop %h = 0 to 2 step %tile_h body %lcp

  // E = exp(C)
  %cl = tile.load %C[%eh, %full, %tp] : !tile.tensor<2x4x16xf32, intermediate> -> !tile.tile<[tile_h, 4, tile_p], f32>
  %et = tile.exp %cl : !tile.tile<[tile_h, 4, tile_p], f32>
  %se = tile.store %et, %E[%eh, %full, %tp] : !tile.tile<[tile_h, 4, tile_p], f32>, !tile.tensor<2x4x16xf32, intermediate>
  %lep = tile.loop %p = 0 to 16 step %tile_p body %se
  %le = tile.loop %h = 0 to 2 step %tile_h body %lep

  // S = sum(E, axis=2)
  %el = tile.load %E[%eh, %full, %tp] : !tile.tensor<2x4x16xf32, intermediate> -> !tile.tile<[tile_h, 4, tile_p], f32>
  %sl = tile.load %S[%eh, %full] : !tile.tensor<2x4xf32, intermediate> -> !tile.tile<[tile_h, 4], f32>
  %er = tile.rsum %el, 2 : !tile.tile<[tile_h, 4, tile_p], f32> -> !tile.tile<[tile_h, 4], f32>
  %sn = tile.add %sl, %er : !tile.tile<[tile_h, 4], f32>
  %ss = tile.store %sn, %S[%eh, %full] : !tile.tile<[tile_h, 4], f32>, !tile.tensor<2x4xf32, intermediate>
  %lsp = tile.loop %p = 0 to 16 step %tile_p body %ss
  %ls = tile.loop %h = 0 to 2 step %tile_h body %lsp

  // O = (E / S[:, :, None]) @ Vc
  %ol = tile.load %O[%eh, %full, %full] : !tile.tensor<2x4x8xf32, intermediate> -> !tile.tile<[tile_h, 4, 8], f32>
  %sh = tile.load %S[%eh, %full] : !tile.tensor<2x4xf32, intermediate> -> !tile.tile<[tile_h, 4], f32>
  %sb = tile.bcast %sh [2] : !tile.tile<[tile_h, 4], f32> -> !tile.tile<[tile_h, 4, tile_p], f32>
  %cdiv = tile.div %el, %sb : !tile.tile<[tile_h, 4, tile_p], f32>
  %cdiv16 = tile.cast %cdiv : !tile.tile<[tile_h, 4, tile_p], f32> -> !tile.tile<[tile_h, 4, tile_p], f16>
  %vct = tile.load %Vc[%eh, %tp, %full] : !tile.tensor<2x16x8xf16, inout> -> !tile.tile<[tile_h, tile_p, 8], f16>
  %pv = tile.matmul %cdiv16, %vct : !tile.tile<[tile_h, 4, tile_p], f16>, !tile.tile<[tile_h, tile_p, 8], f16> -> !tile.tile<[tile_h, 4, 8], f32>
  %on = tile.add %ol, %pv : !tile.tile<[tile_h, 4, 8], f32>
  %so = tile.store %on, %O[%eh, %full, %full] : !tile.tile<[tile_h, 4, 8], f32>, !tile.tensor<2x4x8xf32, intermediate>
  %lop = tile.loop %p = 0 to 16 step %tile_p body %so
  %lo = tile.loop %h = 0 to 2 step %tile_h body %lop

  // O2 = reshape(transpose(O, (1, 0, 2)), (M, H*d))
  %oh = tile.load %O[%ec, %full, %full] : !tile.tensor<2x4x8xf32, intermediate> -> !tile.tile<[1, 4, 8], f32>
  %ohp = tile.permute %oh [1, 0, 2] : !tile.tile<[1, 4, 8], f32> -> !tile.tile<[4, 1, 8], f32>
  %ohs = tile.squeeze %ohp, 1 : !tile.tile<[4, 1, 8], f32> -> !tile.tile<[4, 8], f32>
  %oh16 = tile.cast %ohs : !tile.tile<[4, 8], f32> -> !tile.tile<[4, 8], f16>
  %so2 = tile.store %oh16, %O2[%full, %tc] : !tile.tile<[4, 8], f16>, !tile.tensor<4x16xf16, output>
  %lo2 = tile.loop %c = 0 to 16 step %c8 body %so2

  %s12 = tile.seq %lo, %lo2
  %s11 = tile.seq %ls, %s12
  %s10 = tile.seq %le, %s11
  %s9 = tile.seq %lc, %s10
  %s8 = tile.seq %lvc, %s9
  %s7 = tile.seq %lkc, %s8
  %s6 = tile.seq %lv, %s7
  %s5 = tile.seq %lk, %s6
  %s4 = tile.seq %lq, %s5
  %s3 = tile.seq %lv1, %s4
  %s2 = tile.seq %lk1, %s3
  %s1 = tile.seq %lq1, %s2
  tile.yield %s1
}
