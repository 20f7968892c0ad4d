// RUN: tile-opt %s | FileCheck %s
// RUN: tile-opt %s | tile-opt > %t.1.mlir
// RUN: tile-opt %s --mlir-print-op-generic | tile-opt > %t.2.mlir
// RUN: tile-opt %s > %t.0.mlir
// RUN: diff %t.0.mlir %t.1.mlir
// RUN: diff %t.0.mlir %t.2.mlir
// RUN: tile-run %s --reference %S/../Workloads/qknorm.mlir --tolerance 1e-6 | FileCheck %s --check-prefix=CMP
// CMP-NOT: MISMATCH
// CMP: PASS

// QK-norm attention block: vanilla with Q = rms(Q, gq), K = rms(K, gk) per head over d;
// naive (one loop nest per op, Trinity Figure 4(a)),
// scaled down: M=4 tokens, H=2 heads, d=8, D=H*d=16, P=16, PRE=12.

// CHECK-LABEL: tile.program @qknorm
tile.program @qknorm(
    %X: !tile.tensor<4x16xf16, input>,
    %WQ: !tile.tensor<16x16xf16, input>,
    %WK: !tile.tensor<16x16xf16, input>,
    %WV: !tile.tensor<16x16xf16, input>,
    %gq: !tile.tensor<8xf16, input>,
    %gk: !tile.tensor<8xf16, input>,
    %Kc: !tile.tensor<2x16x8xf16, inout>,
    %Vc: !tile.tensor<2x16x8xf16, inout>,
    %O2: !tile.tensor<4x16xf16, output>,
    %Q1: !tile.tensor<4x16xf32, intermediate>,
    %K1: !tile.tensor<4x16xf32, intermediate>,
    %V1: !tile.tensor<4x16xf32, intermediate>,
    %Q: !tile.tensor<2x4x8xf16, intermediate>,
    %K: !tile.tensor<2x4x8xf16, intermediate>,
    %V: !tile.tensor<2x4x8xf16, intermediate>,
    %SQ: !tile.tensor<2x4xf32, intermediate>,
    %Qn: !tile.tensor<2x4x8xf16, intermediate>,
    %SK: !tile.tensor<2x4xf32, intermediate>,
    %Kn: !tile.tensor<2x4x8xf16, intermediate>,
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
  %eh = tile.elem %h
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

  // Qn = rms(Q, gq) over the head dim: SQ = sum(Q * Q, axis=-1).
  %qrl = tile.load %Q[%eh, %full, %full] : !tile.tensor<2x4x8xf16, intermediate> -> !tile.tile<[1, 4, 8], f16>
  %qrf = tile.cast %qrl : !tile.tile<[1, 4, 8], f16> -> !tile.tile<[1, 4, 8], f32>
  %qrsq = tile.mul %qrf, %qrf : !tile.tile<[1, 4, 8], f32>
  %qrr = tile.rsum %qrsq, 2 : !tile.tile<[1, 4, 8], f32> -> !tile.tile<[1, 4], f32>
  %qrss = tile.store %qrr, %SQ[%eh, %full] : !tile.tile<[1, 4], f32>, !tile.tensor<2x4xf32, intermediate>
  %qrlss = tile.loop %h = 0 to 2 step %c1 body %qrss

  // Qn = Q / sqrt(SQ / d + 1e-6) * gq
  %qrssh = tile.load %SQ[%eh, %full] : !tile.tensor<2x4xf32, intermediate> -> !tile.tile<[1, 4], f32>
  %qrdim = tile.constant 8.0 : !tile.tile<[1, 4], f32>
  %qrmean = tile.div %qrssh, %qrdim : !tile.tile<[1, 4], f32>
  %qreps = tile.constant 1.0e-06 : !tile.tile<[1, 4], f32>
  %qrmeps = tile.add %qrmean, %qreps : !tile.tile<[1, 4], f32>
  %qrrms = tile.sqrt %qrmeps : !tile.tile<[1, 4], f32>
  %qrrmsb = tile.bcast %qrrms [2] : !tile.tile<[1, 4], f32> -> !tile.tile<[1, 4, 8], f32>
  %qrdiv = tile.div %qrf, %qrrmsb : !tile.tile<[1, 4, 8], f32>
  %qrg = tile.load %gq[%full] : !tile.tensor<8xf16, input> -> !tile.tile<[8], f16>
  %qrgf = tile.cast %qrg : !tile.tile<[8], f16> -> !tile.tile<[8], f32>
  %qrgb = tile.bcast %qrgf [0, 1] : !tile.tile<[8], f32> -> !tile.tile<[1, 4, 8], f32>
  %qrt = tile.mul %qrdiv, %qrgb : !tile.tile<[1, 4, 8], f32>
  %qrt16 = tile.cast %qrt : !tile.tile<[1, 4, 8], f32> -> !tile.tile<[1, 4, 8], f16>
  %qrst = tile.store %qrt16, %Qn[%eh, %full, %full] : !tile.tile<[1, 4, 8], f16>, !tile.tensor<2x4x8xf16, intermediate>
  %qrlt = tile.loop %h = 0 to 2 step %c1 body %qrst

  // Kn = rms(K, gk) over the head dim: SK = sum(K * K, axis=-1).
  %krl = tile.load %K[%eh, %full, %full] : !tile.tensor<2x4x8xf16, intermediate> -> !tile.tile<[1, 4, 8], f16>
  %krf = tile.cast %krl : !tile.tile<[1, 4, 8], f16> -> !tile.tile<[1, 4, 8], f32>
  %krsq = tile.mul %krf, %krf : !tile.tile<[1, 4, 8], f32>
  %krr = tile.rsum %krsq, 2 : !tile.tile<[1, 4, 8], f32> -> !tile.tile<[1, 4], f32>
  %krss = tile.store %krr, %SK[%eh, %full] : !tile.tile<[1, 4], f32>, !tile.tensor<2x4xf32, intermediate>
  %krlss = tile.loop %h = 0 to 2 step %c1 body %krss

  // Kn = K / sqrt(SK / d + 1e-6) * gk
  %krssh = tile.load %SK[%eh, %full] : !tile.tensor<2x4xf32, intermediate> -> !tile.tile<[1, 4], f32>
  %krdim = tile.constant 8.0 : !tile.tile<[1, 4], f32>
  %krmean = tile.div %krssh, %krdim : !tile.tile<[1, 4], f32>
  %kreps = tile.constant 1.0e-06 : !tile.tile<[1, 4], f32>
  %krmeps = tile.add %krmean, %kreps : !tile.tile<[1, 4], f32>
  %krrms = tile.sqrt %krmeps : !tile.tile<[1, 4], f32>
  %krrmsb = tile.bcast %krrms [2] : !tile.tile<[1, 4], f32> -> !tile.tile<[1, 4, 8], f32>
  %krdiv = tile.div %krf, %krrmsb : !tile.tile<[1, 4, 8], f32>
  %krg = tile.load %gk[%full] : !tile.tensor<8xf16, input> -> !tile.tile<[8], f16>
  %krgf = tile.cast %krg : !tile.tile<[8], f16> -> !tile.tile<[8], f32>
  %krgb = tile.bcast %krgf [0, 1] : !tile.tile<[8], f32> -> !tile.tile<[1, 4, 8], f32>
  %krt = tile.mul %krdiv, %krgb : !tile.tile<[1, 4, 8], f32>
  %krt16 = tile.cast %krt : !tile.tile<[1, 4, 8], f32> -> !tile.tile<[1, 4, 8], f16>
  %krst = tile.store %krt16, %Kn[%eh, %full, %full] : !tile.tile<[1, 4, 8], f16>, !tile.tensor<2x4x8xf16, intermediate>
  %krlt = tile.loop %h = 0 to 2 step %c1 body %krst

  // Kc[:, PRE:P, :] = Kn ; Vc[:, PRE:P, :] = V
  %kn = tile.load %Kn[%eh, %full, %full] : !tile.tensor<2x4x8xf16, intermediate> -> !tile.tile<[1, 4, 8], f16>
  %skc = tile.store %kn, %Kc[%eh, %new, %full] : !tile.tile<[1, 4, 8], f16>, !tile.tensor<2x16x8xf16, inout>
  %lkc = tile.loop %h = 0 to 2 step %c1 body %skc
  %vn = tile.load %V[%eh, %full, %full] : !tile.tensor<2x4x8xf16, intermediate> -> !tile.tile<[1, 4, 8], f16>
  %svc = tile.store %vn, %Vc[%eh, %new, %full] : !tile.tile<[1, 4, 8], f16>, !tile.tensor<2x16x8xf16, inout>
  %lvc = tile.loop %h = 0 to 2 step %c1 body %svc

  // C = Qn @ transpose(Kc, (0, 2, 1))
  %qt = tile.load %Qn[%eh, %full, %full] : !tile.tensor<2x4x8xf16, intermediate> -> !tile.tile<[1, 4, 8], f16>
  %kct = tile.load %Kc[%eh, %tp, %full] : !tile.tensor<2x16x8xf16, inout> -> !tile.tile<[1, tile_p, 8], f16>
  %kctt = tile.permute %kct [0, 2, 1] : !tile.tile<[1, tile_p, 8], f16> -> !tile.tile<[1, 8, tile_p], f16>
  %ct = tile.matmul %qt, %kctt : !tile.tile<[1, 4, 8], f16>, !tile.tile<[1, 8, tile_p], f16> -> !tile.tile<[1, 4, tile_p], f32>
  %sc = tile.store %ct, %C[%eh, %full, %tp] : !tile.tile<[1, 4, tile_p], f32>, !tile.tensor<2x4x16xf32, intermediate>
  %lcp = tile.loop %p = 0 to 16 step %tile_p body %sc
  %lc = tile.loop %h = 0 to 2 step %c1 body %lcp

  // E = exp(C)
  %cl = tile.load %C[%eh, %full, %tp] : !tile.tensor<2x4x16xf32, intermediate> -> !tile.tile<[1, 4, tile_p], f32>
  %et = tile.exp %cl : !tile.tile<[1, 4, tile_p], f32>
  %se = tile.store %et, %E[%eh, %full, %tp] : !tile.tile<[1, 4, tile_p], f32>, !tile.tensor<2x4x16xf32, intermediate>
  %lep = tile.loop %p = 0 to 16 step %tile_p body %se
  %le = tile.loop %h = 0 to 2 step %c1 body %lep

  // S = sum(E, axis=2)
  %el = tile.load %E[%eh, %full, %tp] : !tile.tensor<2x4x16xf32, intermediate> -> !tile.tile<[1, 4, tile_p], f32>
  %sl = tile.load %S[%eh, %full] : !tile.tensor<2x4xf32, intermediate> -> !tile.tile<[1, 4], f32>
  %er = tile.rsum %el, 2 : !tile.tile<[1, 4, tile_p], f32> -> !tile.tile<[1, 4], f32>
  %sn = tile.add %sl, %er : !tile.tile<[1, 4], f32>
  %ss = tile.store %sn, %S[%eh, %full] : !tile.tile<[1, 4], f32>, !tile.tensor<2x4xf32, intermediate>
  %lsp = tile.loop %p = 0 to 16 step %tile_p body %ss
  %ls = tile.loop %h = 0 to 2 step %c1 body %lsp

  // O = (E / S[:, :, None]) @ Vc
  %ol = tile.load %O[%eh, %full, %full] : !tile.tensor<2x4x8xf32, intermediate> -> !tile.tile<[1, 4, 8], f32>
  %sh = tile.load %S[%eh, %full] : !tile.tensor<2x4xf32, intermediate> -> !tile.tile<[1, 4], f32>
  %sb = tile.bcast %sh [2] : !tile.tile<[1, 4], f32> -> !tile.tile<[1, 4, tile_p], f32>
  %cdiv = tile.div %el, %sb : !tile.tile<[1, 4, tile_p], f32>
  %cdiv16 = tile.cast %cdiv : !tile.tile<[1, 4, tile_p], f32> -> !tile.tile<[1, 4, tile_p], f16>
  %vct = tile.load %Vc[%eh, %tp, %full] : !tile.tensor<2x16x8xf16, inout> -> !tile.tile<[1, tile_p, 8], f16>
  %pv = tile.matmul %cdiv16, %vct : !tile.tile<[1, 4, tile_p], f16>, !tile.tile<[1, tile_p, 8], f16> -> !tile.tile<[1, 4, 8], f32>
  %on = tile.add %ol, %pv : !tile.tile<[1, 4, 8], f32>
  %so = tile.store %on, %O[%eh, %full, %full] : !tile.tile<[1, 4, 8], f32>, !tile.tensor<2x4x8xf32, intermediate>
  %lop = tile.loop %p = 0 to 16 step %tile_p body %so
  %lo = tile.loop %h = 0 to 2 step %c1 body %lop

  // O2 = reshape(transpose(O, (1, 0, 2)), (M, H*d))
  %oh = tile.load %O[%ec, %full, %full] : !tile.tensor<2x4x8xf32, intermediate> -> !tile.tile<[1, 4, 8], f32>
  %ohp = tile.permute %oh [1, 0, 2] : !tile.tile<[1, 4, 8], f32> -> !tile.tile<[4, 1, 8], f32>
  %ohs = tile.squeeze %ohp, 1 : !tile.tile<[4, 1, 8], f32> -> !tile.tile<[4, 8], f32>
  %oh16 = tile.cast %ohs : !tile.tile<[4, 8], f32> -> !tile.tile<[4, 8], f16>
  %so2 = tile.store %oh16, %O2[%full, %tc] : !tile.tile<[4, 8], f16>, !tile.tensor<4x16xf16, output>
  %lo2 = tile.loop %c = 0 to 16 step %c8 body %so2

  %s16 = tile.seq %lo, %lo2
  %s15 = tile.seq %ls, %s16
  %s14 = tile.seq %le, %s15
  %s13 = tile.seq %lc, %s14
  %s12 = tile.seq %lvc, %s13
  %s11 = tile.seq %lkc, %s12
  %s10 = tile.seq %krlt, %s11
  %s9 = tile.seq %krlss, %s10
  %s8 = tile.seq %qrlt, %s9
  %s7 = tile.seq %qrlss, %s8
  %s6 = tile.seq %lv, %s7
  %s5 = tile.seq %lk, %s6
  %s4 = tile.seq %lq, %s5
  %s3 = tile.seq %lv1, %s4
  %s2 = tile.seq %lk1, %s3
  %s1 = tile.seq %lq1, %s2
  tile.yield %s1
}
