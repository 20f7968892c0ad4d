// RUN: tile-opt %s -split-input-file | FileCheck %s
// RUN: tile-opt %s -split-input-file | tile-opt -split-input-file | FileCheck %s
// RUN: tile-opt %s -split-input-file --mlir-print-op-generic | tile-opt -split-input-file | FileCheck %s

// The optimized programs of the Trinity paper (ASPLOS'26): Figure 4 (b)-(f)
// (the fully fused attention case study of section 5.3) and the Appendix E
// programs of Figure 10 (vanilla, H100), Figure 12 (keyformer, H100) and
// Figure 14 (keyformer, RTX 4090), at the llama sizes M=16, D=4096, H=32,
// d=128, P=1024, PRE=1008 (see docs/Workloads.md).
//
// Conventions, shared by all programs:
// - Element types: X, weights, caches, noise, Q/K/V and the outputs are f16;
//   the projection accumulators Q1/K1/V1, logits, softmax statistics and O
//   are f32 intermediates. Matmuls are f16 x f16 -> f32; an f32 operand
//   (logits into the P@V matmul, Q1/K1/V1 into Q/K/V, O into O2) is first
//   converted with tile.cast. The figures leave all of these casts implicit.
// - `Q1,K1,V1` (and `K_cache,V_cache`, `C,C_perturb`, ...) in the paper
//   stands for parallel statements; each is expanded into one store per
//   tensor, in the listed order, right-nested with tile.seq.
// - Figure 4's sugar `A[i] += e` is (store A (+ (load A i) e) i), `/=` is
//   (store A (/ (load A i) (bcast ...)) i), `x^T` of a K_cache tile
//   [1, tile_p, 128] swaps its last two dimensions, and
//   `transpose(expand_dims(x, 1), 0, 1)` is tile.unsqueeze + tile.transpose.
// - Identical subterms (the same load at the same index, the same exp or
//   matmul) are written once and shared, as the term IR hash-conses them.
// - `dummy` is tile.nop.

// Figure 4(b): loop fusion and distributivity. The logit and accm nests are
// fused into one h/p nest; in the second nest the division by accm is moved
// after the P@V matmul (still inside the p-loop).
// The elided "QKV projection, reshape, permute ..." is the naive program of
// Figure 4(a): one n/k nest computing Q1, K1, V1 and one loop splitting them
// into heads. Figure 4 binds `n` both with step tile_n (projection) and with
// step 128 (reshape); since all loops binding a variable must agree, the
// reshape loop uses `c`. Figure 4 omits the KV-cache update and the output
// reshape to O2; both are added as in the naive program (one h-loop storing
// both caches before attention, one c-loop writing O2 after it).
// Figure 4's parentheses are unbalanced sugar; we follow the two h-loop
// nests the text describes.

// CHECK-LABEL: tile.program @fig4b
// CHECK-SAME: %K_cache: !tile.tensor<32x1024x128xf16, inout>
// The naive projection (step tile_n) and the head split (c, step 128).
// CHECK:      tile.loop %n = 0 to 4096 step %tile_n body
// CHECK:      tile.loop %c = 0 to 4096 step %c128 body
// First attention nest: logit and accm share one p-loop.
// CHECK:      %[[LOGIT:.*]] = tile.exp %{{.*}} : !tile.tile<[1, 16, tile_p], f32>
// CHECK-NEXT: %[[SLOGIT:.*]] = tile.store %[[LOGIT]], %logit[
// CHECK:      %[[ACC:.*]] = tile.load %accm[
// CHECK:      %[[SACC:.*]] = tile.store %{{.*}}, %accm[
// CHECK-NEXT: %[[B1:.*]] = tile.seq %[[SLOGIT]], %[[SACC]]
// CHECK-NEXT: %[[P1:.*]] = tile.loop %p = 0 to 1024 step %tile_p body %[[B1]]
// CHECK-NEXT: %[[H1:.*]] = tile.loop %h = 0 to 32 step %c1 body %[[P1]]
// Second nest: (logit @ V_cache) / accm, the division after the matmul but
// still inside the p-loop.
// CHECK:      %[[PV:.*]] = tile.matmul %{{.*}}, %{{.*}} : !tile.tile<[1, 16, tile_p], f16>, !tile.tile<[1, tile_p, 128], f16> -> !tile.tile<[1, 16, 128], f32>
// CHECK-NEXT: %[[ACCB:.*]] = tile.bcast %[[ACC]] [2] : !tile.tile<[1, 16], f32> -> !tile.tile<[1, 16, 128], f32>
// CHECK-NEXT: %[[DIV:.*]] = tile.div %[[PV]], %[[ACCB]]
// CHECK-NEXT: %[[ON:.*]] = tile.add %{{.*}}, %[[DIV]]
// CHECK-NEXT: %[[SO:.*]] = tile.store %[[ON]], %O[
// CHECK-NEXT: %[[P2:.*]] = tile.loop %p = 0 to 1024 step %tile_p body %[[SO]]
// CHECK-NEXT: %[[H2:.*]] = tile.loop %h = 0 to 32 step %c1 body %[[P2]]
// CHECK:      %[[R4:.*]] = tile.seq %[[H2]], %{{.*}}
// CHECK-NEXT: tile.seq %[[H1]], %[[R4]]
tile.program @fig4b(
    %X: !tile.tensor<16x4096xf16, input>,
    %WQ: !tile.tensor<4096x4096xf16, input>,
    %WK: !tile.tensor<4096x4096xf16, input>,
    %WV: !tile.tensor<4096x4096xf16, input>,
    %K_cache: !tile.tensor<32x1024x128xf16, inout>,
    %V_cache: !tile.tensor<32x1024x128xf16, inout>,
    %O2: !tile.tensor<16x4096xf16, output>,
    %Q1: !tile.tensor<16x4096xf32, intermediate>,
    %K1: !tile.tensor<16x4096xf32, intermediate>,
    %V1: !tile.tensor<16x4096xf32, intermediate>,
    %Q: !tile.tensor<32x16x128xf16, intermediate>,
    %K: !tile.tensor<32x16x128xf16, intermediate>,
    %V: !tile.tensor<32x16x128xf16, intermediate>,
    %logit: !tile.tensor<32x16x1024xf32, intermediate>,
    %accm: !tile.tensor<32x16xf32, intermediate>,
    %O: !tile.tensor<32x16x128xf32, intermediate>) {
  %n = tile.var "n"
  %k = tile.var "k"
  %c = tile.var "c"
  %h = tile.var "h"
  %p = tile.var "p"
  %tile_n = tile.size "tile_n"
  %tile_k = tile.size "tile_k"
  %tile_p = tile.size "tile_p"
  %c128 = tile.size 128
  %c1 = tile.size 1
  %full = tile.full
  %tn = tile.tile %n
  %tk = tile.tile %k
  %tc = tile.tile %c
  %ec = tile.elem %c
  %eh = tile.elem %h
  %tp = tile.tile %p
  %new = tile.const_tile 1008, 16

  // (loop 0 4096 tile_n n (loop 0 4096 tile_k k
  //   (Q1,K1,V1[:, tile n] += X[:, tile k] * WQ,WK,WV[tile k, tile n])))
  %x = tile.load %X[%full, %tk] : !tile.tensor<16x4096xf16, input> -> !tile.tile<[16, tile_k], f16>
  %wq = tile.load %WQ[%tk, %tn] : !tile.tensor<4096x4096xf16, input> -> !tile.tile<[tile_k, tile_n], f16>
  %q1 = tile.load %Q1[%full, %tn] : !tile.tensor<16x4096xf32, intermediate> -> !tile.tile<[16, tile_n], f32>
  %xq = tile.matmul %x, %wq : !tile.tile<[16, tile_k], f16>, !tile.tile<[tile_k, tile_n], f16> -> !tile.tile<[16, tile_n], f32>
  %q1n = tile.add %q1, %xq : !tile.tile<[16, tile_n], f32>
  %sq1 = tile.store %q1n, %Q1[%full, %tn] : !tile.tile<[16, tile_n], f32>, !tile.tensor<16x4096xf32, intermediate>
  %wk = tile.load %WK[%tk, %tn] : !tile.tensor<4096x4096xf16, input> -> !tile.tile<[tile_k, tile_n], f16>
  %k1 = tile.load %K1[%full, %tn] : !tile.tensor<16x4096xf32, intermediate> -> !tile.tile<[16, tile_n], f32>
  %xk = tile.matmul %x, %wk : !tile.tile<[16, tile_k], f16>, !tile.tile<[tile_k, tile_n], f16> -> !tile.tile<[16, tile_n], f32>
  %k1n = tile.add %k1, %xk : !tile.tile<[16, tile_n], f32>
  %sk1 = tile.store %k1n, %K1[%full, %tn] : !tile.tile<[16, tile_n], f32>, !tile.tensor<16x4096xf32, intermediate>
  %wv = tile.load %WV[%tk, %tn] : !tile.tensor<4096x4096xf16, input> -> !tile.tile<[tile_k, tile_n], f16>
  %v1 = tile.load %V1[%full, %tn] : !tile.tensor<16x4096xf32, intermediate> -> !tile.tile<[16, tile_n], f32>
  %xv = tile.matmul %x, %wv : !tile.tile<[16, tile_k], f16>, !tile.tile<[tile_k, tile_n], f16> -> !tile.tile<[16, tile_n], f32>
  %v1n = tile.add %v1, %xv : !tile.tile<[16, tile_n], f32>
  %sv1 = tile.store %v1n, %V1[%full, %tn] : !tile.tile<[16, tile_n], f32>, !tile.tensor<16x4096xf32, intermediate>
  %proj1 = tile.seq %sk1, %sv1
  %proj = tile.seq %sq1, %proj1
  %lk = tile.loop %k = 0 to 4096 step %tile_k body %proj
  %ln = tile.loop %n = 0 to 4096 step %tile_n body %lk

  // (loop 0 4096 128 c
  //   (Q,K,V[elem c, :, :] = transpose(expand_dims(Q1,K1,V1[:, tile c], 1), 0, 1)))
  %q1c = tile.load %Q1[%full, %tc] : !tile.tensor<16x4096xf32, intermediate> -> !tile.tile<[16, 128], f32>
  %q1c16 = tile.cast %q1c : !tile.tile<[16, 128], f32> -> !tile.tile<[16, 128], f16>
  %q1u = tile.unsqueeze %q1c16, 1 : !tile.tile<[16, 128], f16> -> !tile.tile<[16, 1, 128], f16>
  %qc = tile.transpose %q1u, 0, 1 : !tile.tile<[16, 1, 128], f16> -> !tile.tile<[1, 16, 128], f16>
  %sq = tile.store %qc, %Q[%ec, %full, %full] : !tile.tile<[1, 16, 128], f16>, !tile.tensor<32x16x128xf16, intermediate>
  %k1c = tile.load %K1[%full, %tc] : !tile.tensor<16x4096xf32, intermediate> -> !tile.tile<[16, 128], f32>
  %k1c16 = tile.cast %k1c : !tile.tile<[16, 128], f32> -> !tile.tile<[16, 128], f16>
  %k1u = tile.unsqueeze %k1c16, 1 : !tile.tile<[16, 128], f16> -> !tile.tile<[16, 1, 128], f16>
  %kc = tile.transpose %k1u, 0, 1 : !tile.tile<[16, 1, 128], f16> -> !tile.tile<[1, 16, 128], f16>
  %sk = tile.store %kc, %K[%ec, %full, %full] : !tile.tile<[1, 16, 128], f16>, !tile.tensor<32x16x128xf16, intermediate>
  %v1c = tile.load %V1[%full, %tc] : !tile.tensor<16x4096xf32, intermediate> -> !tile.tile<[16, 128], f32>
  %v1c16 = tile.cast %v1c : !tile.tile<[16, 128], f32> -> !tile.tile<[16, 128], f16>
  %v1u = tile.unsqueeze %v1c16, 1 : !tile.tile<[16, 128], f16> -> !tile.tile<[16, 1, 128], f16>
  %vc = tile.transpose %v1u, 0, 1 : !tile.tile<[16, 1, 128], f16> -> !tile.tile<[1, 16, 128], f16>
  %sv = tile.store %vc, %V[%ec, %full, %full] : !tile.tile<[1, 16, 128], f16>, !tile.tensor<32x16x128xf16, intermediate>
  %heads1 = tile.seq %sk, %sv
  %heads = tile.seq %sq, %heads1
  %lc = tile.loop %c = 0 to 4096 step %c128 body %heads

  // (loop 0 32 1 h (K_cache,V_cache[elem h, 1008:1024, :] = K,V[elem h, :, :]))
  %kh = tile.load %K[%eh, %full, %full] : !tile.tensor<32x16x128xf16, intermediate> -> !tile.tile<[1, 16, 128], f16>
  %skc = tile.store %kh, %K_cache[%eh, %new, %full] : !tile.tile<[1, 16, 128], f16>, !tile.tensor<32x1024x128xf16, inout>
  %vh = tile.load %V[%eh, %full, %full] : !tile.tensor<32x16x128xf16, intermediate> -> !tile.tile<[1, 16, 128], f16>
  %svc = tile.store %vh, %V_cache[%eh, %new, %full] : !tile.tile<[1, 16, 128], f16>, !tile.tensor<32x1024x128xf16, inout>
  %kv = tile.seq %skc, %svc
  %lkv = tile.loop %h = 0 to 32 step %c1 body %kv

  // (loop 0 32 1 h (loop 0 1024 tile_p p
  //   (logit[elem h, :, tile p] = exp(Q[elem h, :, :] * K_cache[elem h, tile p, :]^T))
  //   (accm[elem h, :] += reduce_sum(logit[elem h, :, tile p]))))
  %qh = tile.load %Q[%eh, %full, %full] : !tile.tensor<32x16x128xf16, intermediate> -> !tile.tile<[1, 16, 128], f16>
  %kp = tile.load %K_cache[%eh, %tp, %full] : !tile.tensor<32x1024x128xf16, inout> -> !tile.tile<[1, tile_p, 128], f16>
  %kpt = tile.transpose %kp, 1, 2 : !tile.tile<[1, tile_p, 128], f16> -> !tile.tile<[1, 128, tile_p], f16>
  %qk = tile.matmul %qh, %kpt : !tile.tile<[1, 16, 128], f16>, !tile.tile<[1, 128, tile_p], f16> -> !tile.tile<[1, 16, tile_p], f32>
  %lg = tile.exp %qk : !tile.tile<[1, 16, tile_p], f32>
  %slg = tile.store %lg, %logit[%eh, %full, %tp] : !tile.tile<[1, 16, tile_p], f32>, !tile.tensor<32x16x1024xf32, intermediate>
  %lgl = tile.load %logit[%eh, %full, %tp] : !tile.tensor<32x16x1024xf32, intermediate> -> !tile.tile<[1, 16, tile_p], f32>
  %acc = tile.load %accm[%eh, %full] : !tile.tensor<32x16xf32, intermediate> -> !tile.tile<[1, 16], f32>
  %lgs = tile.rsum %lgl, 2 : !tile.tile<[1, 16, tile_p], f32> -> !tile.tile<[1, 16], f32>
  %accn = tile.add %acc, %lgs : !tile.tile<[1, 16], f32>
  %sacc = tile.store %accn, %accm[%eh, %full] : !tile.tile<[1, 16], f32>, !tile.tensor<32x16xf32, intermediate>
  %att1 = tile.seq %slg, %sacc
  %lp1 = tile.loop %p = 0 to 1024 step %tile_p body %att1
  %lh1 = tile.loop %h = 0 to 32 step %c1 body %lp1

  // (loop 0 32 1 h (loop 0 1024 tile_p p
  //   (O[elem h, :, :] += (logit[elem h, :, tile p] * V_cache[elem h, tile p, :]) / accm[elem h, :])))
  %o = tile.load %O[%eh, %full, %full] : !tile.tensor<32x16x128xf32, intermediate> -> !tile.tile<[1, 16, 128], f32>
  %lg16 = tile.cast %lgl : !tile.tile<[1, 16, tile_p], f32> -> !tile.tile<[1, 16, tile_p], f16>
  %vp = tile.load %V_cache[%eh, %tp, %full] : !tile.tensor<32x1024x128xf16, inout> -> !tile.tile<[1, tile_p, 128], f16>
  %pv = tile.matmul %lg16, %vp : !tile.tile<[1, 16, tile_p], f16>, !tile.tile<[1, tile_p, 128], f16> -> !tile.tile<[1, 16, 128], f32>
  %accb = tile.bcast %acc [2] : !tile.tile<[1, 16], f32> -> !tile.tile<[1, 16, 128], f32>
  %pvd = tile.div %pv, %accb : !tile.tile<[1, 16, 128], f32>
  %on = tile.add %o, %pvd : !tile.tile<[1, 16, 128], f32>
  %so = tile.store %on, %O[%eh, %full, %full] : !tile.tile<[1, 16, 128], f32>, !tile.tensor<32x16x128xf32, intermediate>
  %lp2 = tile.loop %p = 0 to 1024 step %tile_p body %so
  %lh2 = tile.loop %h = 0 to 32 step %c1 body %lp2

  // (loop 0 4096 128 c (O2[:, tile c] = squeeze(permute(O[elem c, :, :], 1, 0, 2), 1)))
  %oc = tile.load %O[%ec, %full, %full] : !tile.tensor<32x16x128xf32, intermediate> -> !tile.tile<[1, 16, 128], f32>
  %ocp = tile.permute %oc [1, 0, 2] : !tile.tile<[1, 16, 128], f32> -> !tile.tile<[16, 1, 128], f32>
  %ocs = tile.squeeze %ocp, 1 : !tile.tile<[16, 1, 128], f32> -> !tile.tile<[16, 128], f32>
  %oc16 = tile.cast %ocs : !tile.tile<[16, 128], f32> -> !tile.tile<[16, 128], f16>
  %so2 = tile.store %oc16, %O2[%full, %tc] : !tile.tile<[16, 128], f16>, !tile.tensor<16x4096xf16, output>
  %lo2 = tile.loop %c = 0 to 4096 step %c128 body %so2

  %r4 = tile.seq %lh2, %lo2
  %r3 = tile.seq %lh1, %r4
  %r2 = tile.seq %lkv, %r3
  %r1 = tile.seq %lc, %r2
  %r0 = tile.seq %ln, %r1
  tile.yield %r0
}

// -----

// Figure 4(c): algebraic factoring in the loop body. The division by accm is
// hoisted out of the p-loop: O accumulates logit * V_cache over p, then is
// divided once per head. Everything outside the attention is as in @fig4b.

// CHECK-LABEL: tile.program @fig4c
// CHECK:      %[[ACC:.*]] = tile.load %accm[
// CHECK:      %[[SACC:.*]] = tile.store %{{.*}}, %accm[
// CHECK-NEXT: %[[B1:.*]] = tile.seq %{{.*}}, %[[SACC]]
// CHECK-NEXT: %[[P1:.*]] = tile.loop %p = 0 to 1024 step %tile_p body %[[B1]]
// CHECK-NEXT: %[[H1:.*]] = tile.loop %h = 0 to 32 step %c1 body %[[P1]]
// The p-loop only accumulates logit @ V_cache ...
// CHECK:      %[[O:.*]] = tile.load %O[
// CHECK:      %[[PV:.*]] = tile.matmul
// CHECK-NEXT: %[[ON:.*]] = tile.add %[[O]], %[[PV]]
// CHECK-NEXT: %[[SO:.*]] = tile.store %[[ON]], %O[
// CHECK-NEXT: %[[P2:.*]] = tile.loop %p = 0 to 1024 step %tile_p body %[[SO]]
// ... and O is divided by accm once per head, after it.
// CHECK-NEXT: %[[ACCB:.*]] = tile.bcast %[[ACC]] [2]
// CHECK-NEXT: %[[DIV:.*]] = tile.div %[[O]], %[[ACCB]]
// CHECK-NEXT: %[[SDIV:.*]] = tile.store %[[DIV]], %O[
// CHECK-NEXT: %[[B2:.*]] = tile.seq %[[P2]], %[[SDIV]]
// CHECK-NEXT: %[[H2:.*]] = tile.loop %h = 0 to 32 step %c1 body %[[B2]]
// CHECK:      %[[R4:.*]] = tile.seq %[[H2]], %{{.*}}
// CHECK-NEXT: tile.seq %[[H1]], %[[R4]]
tile.program @fig4c(
    %X: !tile.tensor<16x4096xf16, input>,
    %WQ: !tile.tensor<4096x4096xf16, input>,
    %WK: !tile.tensor<4096x4096xf16, input>,
    %WV: !tile.tensor<4096x4096xf16, input>,
    %K_cache: !tile.tensor<32x1024x128xf16, inout>,
    %V_cache: !tile.tensor<32x1024x128xf16, inout>,
    %O2: !tile.tensor<16x4096xf16, output>,
    %Q1: !tile.tensor<16x4096xf32, intermediate>,
    %K1: !tile.tensor<16x4096xf32, intermediate>,
    %V1: !tile.tensor<16x4096xf32, intermediate>,
    %Q: !tile.tensor<32x16x128xf16, intermediate>,
    %K: !tile.tensor<32x16x128xf16, intermediate>,
    %V: !tile.tensor<32x16x128xf16, intermediate>,
    %logit: !tile.tensor<32x16x1024xf32, intermediate>,
    %accm: !tile.tensor<32x16xf32, intermediate>,
    %O: !tile.tensor<32x16x128xf32, intermediate>) {
  %n = tile.var "n"
  %k = tile.var "k"
  %c = tile.var "c"
  %h = tile.var "h"
  %p = tile.var "p"
  %tile_n = tile.size "tile_n"
  %tile_k = tile.size "tile_k"
  %tile_p = tile.size "tile_p"
  %c128 = tile.size 128
  %c1 = tile.size 1
  %full = tile.full
  %tn = tile.tile %n
  %tk = tile.tile %k
  %tc = tile.tile %c
  %ec = tile.elem %c
  %eh = tile.elem %h
  %tp = tile.tile %p
  %new = tile.const_tile 1008, 16

  // (loop 0 4096 tile_n n (loop 0 4096 tile_k k
  //   (Q1,K1,V1[:, tile n] += X[:, tile k] * WQ,WK,WV[tile k, tile n])))
  %x = tile.load %X[%full, %tk] : !tile.tensor<16x4096xf16, input> -> !tile.tile<[16, tile_k], f16>
  %wq = tile.load %WQ[%tk, %tn] : !tile.tensor<4096x4096xf16, input> -> !tile.tile<[tile_k, tile_n], f16>
  %q1 = tile.load %Q1[%full, %tn] : !tile.tensor<16x4096xf32, intermediate> -> !tile.tile<[16, tile_n], f32>
  %xq = tile.matmul %x, %wq : !tile.tile<[16, tile_k], f16>, !tile.tile<[tile_k, tile_n], f16> -> !tile.tile<[16, tile_n], f32>
  %q1n = tile.add %q1, %xq : !tile.tile<[16, tile_n], f32>
  %sq1 = tile.store %q1n, %Q1[%full, %tn] : !tile.tile<[16, tile_n], f32>, !tile.tensor<16x4096xf32, intermediate>
  %wk = tile.load %WK[%tk, %tn] : !tile.tensor<4096x4096xf16, input> -> !tile.tile<[tile_k, tile_n], f16>
  %k1 = tile.load %K1[%full, %tn] : !tile.tensor<16x4096xf32, intermediate> -> !tile.tile<[16, tile_n], f32>
  %xk = tile.matmul %x, %wk : !tile.tile<[16, tile_k], f16>, !tile.tile<[tile_k, tile_n], f16> -> !tile.tile<[16, tile_n], f32>
  %k1n = tile.add %k1, %xk : !tile.tile<[16, tile_n], f32>
  %sk1 = tile.store %k1n, %K1[%full, %tn] : !tile.tile<[16, tile_n], f32>, !tile.tensor<16x4096xf32, intermediate>
  %wv = tile.load %WV[%tk, %tn] : !tile.tensor<4096x4096xf16, input> -> !tile.tile<[tile_k, tile_n], f16>
  %v1 = tile.load %V1[%full, %tn] : !tile.tensor<16x4096xf32, intermediate> -> !tile.tile<[16, tile_n], f32>
  %xv = tile.matmul %x, %wv : !tile.tile<[16, tile_k], f16>, !tile.tile<[tile_k, tile_n], f16> -> !tile.tile<[16, tile_n], f32>
  %v1n = tile.add %v1, %xv : !tile.tile<[16, tile_n], f32>
  %sv1 = tile.store %v1n, %V1[%full, %tn] : !tile.tile<[16, tile_n], f32>, !tile.tensor<16x4096xf32, intermediate>
  %proj1 = tile.seq %sk1, %sv1
  %proj = tile.seq %sq1, %proj1
  %lk = tile.loop %k = 0 to 4096 step %tile_k body %proj
  %ln = tile.loop %n = 0 to 4096 step %tile_n body %lk

  // (loop 0 4096 128 c
  //   (Q,K,V[elem c, :, :] = transpose(expand_dims(Q1,K1,V1[:, tile c], 1), 0, 1)))
  %q1c = tile.load %Q1[%full, %tc] : !tile.tensor<16x4096xf32, intermediate> -> !tile.tile<[16, 128], f32>
  %q1c16 = tile.cast %q1c : !tile.tile<[16, 128], f32> -> !tile.tile<[16, 128], f16>
  %q1u = tile.unsqueeze %q1c16, 1 : !tile.tile<[16, 128], f16> -> !tile.tile<[16, 1, 128], f16>
  %qc = tile.transpose %q1u, 0, 1 : !tile.tile<[16, 1, 128], f16> -> !tile.tile<[1, 16, 128], f16>
  %sq = tile.store %qc, %Q[%ec, %full, %full] : !tile.tile<[1, 16, 128], f16>, !tile.tensor<32x16x128xf16, intermediate>
  %k1c = tile.load %K1[%full, %tc] : !tile.tensor<16x4096xf32, intermediate> -> !tile.tile<[16, 128], f32>
  %k1c16 = tile.cast %k1c : !tile.tile<[16, 128], f32> -> !tile.tile<[16, 128], f16>
  %k1u = tile.unsqueeze %k1c16, 1 : !tile.tile<[16, 128], f16> -> !tile.tile<[16, 1, 128], f16>
  %kc = tile.transpose %k1u, 0, 1 : !tile.tile<[16, 1, 128], f16> -> !tile.tile<[1, 16, 128], f16>
  %sk = tile.store %kc, %K[%ec, %full, %full] : !tile.tile<[1, 16, 128], f16>, !tile.tensor<32x16x128xf16, intermediate>
  %v1c = tile.load %V1[%full, %tc] : !tile.tensor<16x4096xf32, intermediate> -> !tile.tile<[16, 128], f32>
  %v1c16 = tile.cast %v1c : !tile.tile<[16, 128], f32> -> !tile.tile<[16, 128], f16>
  %v1u = tile.unsqueeze %v1c16, 1 : !tile.tile<[16, 128], f16> -> !tile.tile<[16, 1, 128], f16>
  %vc = tile.transpose %v1u, 0, 1 : !tile.tile<[16, 1, 128], f16> -> !tile.tile<[1, 16, 128], f16>
  %sv = tile.store %vc, %V[%ec, %full, %full] : !tile.tile<[1, 16, 128], f16>, !tile.tensor<32x16x128xf16, intermediate>
  %heads1 = tile.seq %sk, %sv
  %heads = tile.seq %sq, %heads1
  %lc = tile.loop %c = 0 to 4096 step %c128 body %heads

  // (loop 0 32 1 h (K_cache,V_cache[elem h, 1008:1024, :] = K,V[elem h, :, :]))
  %kh = tile.load %K[%eh, %full, %full] : !tile.tensor<32x16x128xf16, intermediate> -> !tile.tile<[1, 16, 128], f16>
  %skc = tile.store %kh, %K_cache[%eh, %new, %full] : !tile.tile<[1, 16, 128], f16>, !tile.tensor<32x1024x128xf16, inout>
  %vh = tile.load %V[%eh, %full, %full] : !tile.tensor<32x16x128xf16, intermediate> -> !tile.tile<[1, 16, 128], f16>
  %svc = tile.store %vh, %V_cache[%eh, %new, %full] : !tile.tile<[1, 16, 128], f16>, !tile.tensor<32x1024x128xf16, inout>
  %kv = tile.seq %skc, %svc
  %lkv = tile.loop %h = 0 to 32 step %c1 body %kv

  // (loop 0 32 1 h (loop 0 1024 tile_p p
  //   (logit[elem h, :, tile p] = exp(Q[elem h, :, :] * K_cache[elem h, tile p, :]^T))
  //   (accm[elem h, :] += reduce_sum(logit[elem h, :, tile p]))))
  %qh = tile.load %Q[%eh, %full, %full] : !tile.tensor<32x16x128xf16, intermediate> -> !tile.tile<[1, 16, 128], f16>
  %kp = tile.load %K_cache[%eh, %tp, %full] : !tile.tensor<32x1024x128xf16, inout> -> !tile.tile<[1, tile_p, 128], f16>
  %kpt = tile.transpose %kp, 1, 2 : !tile.tile<[1, tile_p, 128], f16> -> !tile.tile<[1, 128, tile_p], f16>
  %qk = tile.matmul %qh, %kpt : !tile.tile<[1, 16, 128], f16>, !tile.tile<[1, 128, tile_p], f16> -> !tile.tile<[1, 16, tile_p], f32>
  %lg = tile.exp %qk : !tile.tile<[1, 16, tile_p], f32>
  %slg = tile.store %lg, %logit[%eh, %full, %tp] : !tile.tile<[1, 16, tile_p], f32>, !tile.tensor<32x16x1024xf32, intermediate>
  %lgl = tile.load %logit[%eh, %full, %tp] : !tile.tensor<32x16x1024xf32, intermediate> -> !tile.tile<[1, 16, tile_p], f32>
  %acc = tile.load %accm[%eh, %full] : !tile.tensor<32x16xf32, intermediate> -> !tile.tile<[1, 16], f32>
  %lgs = tile.rsum %lgl, 2 : !tile.tile<[1, 16, tile_p], f32> -> !tile.tile<[1, 16], f32>
  %accn = tile.add %acc, %lgs : !tile.tile<[1, 16], f32>
  %sacc = tile.store %accn, %accm[%eh, %full] : !tile.tile<[1, 16], f32>, !tile.tensor<32x16xf32, intermediate>
  %att1 = tile.seq %slg, %sacc
  %lp1 = tile.loop %p = 0 to 1024 step %tile_p body %att1
  %lh1 = tile.loop %h = 0 to 32 step %c1 body %lp1

  // (loop 0 32 1 h
  //   (loop 0 1024 tile_p p
  //     (O[elem h, :, :] += logit[elem h, :, tile p] * V_cache[elem h, tile p, :]))
  //   (O[elem h, :, :] /= accm[elem h, :]))
  %o = tile.load %O[%eh, %full, %full] : !tile.tensor<32x16x128xf32, intermediate> -> !tile.tile<[1, 16, 128], f32>
  %lg16 = tile.cast %lgl : !tile.tile<[1, 16, tile_p], f32> -> !tile.tile<[1, 16, tile_p], f16>
  %vp = tile.load %V_cache[%eh, %tp, %full] : !tile.tensor<32x1024x128xf16, inout> -> !tile.tile<[1, tile_p, 128], f16>
  %pv = tile.matmul %lg16, %vp : !tile.tile<[1, 16, tile_p], f16>, !tile.tile<[1, tile_p, 128], f16> -> !tile.tile<[1, 16, 128], f32>
  %on = tile.add %o, %pv : !tile.tile<[1, 16, 128], f32>
  %so = tile.store %on, %O[%eh, %full, %full] : !tile.tile<[1, 16, 128], f32>, !tile.tensor<32x16x128xf32, intermediate>
  %lp2 = tile.loop %p = 0 to 1024 step %tile_p body %so
  %accb = tile.bcast %acc [2] : !tile.tile<[1, 16], f32> -> !tile.tile<[1, 16, 128], f32>
  %od = tile.div %o, %accb : !tile.tile<[1, 16, 128], f32>
  %sod = tile.store %od, %O[%eh, %full, %full] : !tile.tile<[1, 16, 128], f32>, !tile.tensor<32x16x128xf32, intermediate>
  %att2 = tile.seq %lp2, %sod
  %lh2 = tile.loop %h = 0 to 32 step %c1 body %att2

  // (loop 0 4096 128 c (O2[:, tile c] = squeeze(permute(O[elem c, :, :], 1, 0, 2), 1)))
  %oc = tile.load %O[%ec, %full, %full] : !tile.tensor<32x16x128xf32, intermediate> -> !tile.tile<[1, 16, 128], f32>
  %ocp = tile.permute %oc [1, 0, 2] : !tile.tile<[1, 16, 128], f32> -> !tile.tile<[16, 1, 128], f32>
  %ocs = tile.squeeze %ocp, 1 : !tile.tile<[16, 1, 128], f32> -> !tile.tile<[16, 128], f32>
  %oc16 = tile.cast %ocs : !tile.tile<[16, 128], f32> -> !tile.tile<[16, 128], f16>
  %so2 = tile.store %oc16, %O2[%full, %tc] : !tile.tile<[16, 128], f16>, !tile.tensor<16x4096xf16, output>
  %lo2 = tile.loop %c = 0 to 4096 step %c128 body %so2

  %r4 = tile.seq %lh2, %lo2
  %r3 = tile.seq %lh1, %r4
  %r2 = tile.seq %lkv, %r3
  %r1 = tile.seq %lc, %r2
  %r0 = tile.seq %ln, %r1
  tile.yield %r0
}

// -----

// Figure 4(d): further loop fusion (FlashAttention). The whole attention runs
// in a single h-loop: one p-loop computes logit, accm and O, and O is divided
// by accm after it. As printed, Figure 4(d) closes the p-loop right after the
// accm statement, leaving `O += logit[elem h, :, tile p] * ...` outside it,
// where `tile p` is unbound; we put that statement inside the p-loop, as the
// text ("the entire attention computation within a single h-loop") and
// Figure 4(f)/Figure 10 intend. Everything else is as in @fig4b.

// CHECK-LABEL: tile.program @fig4d
// One p-loop computes logit, accm and O; the division by the running sum
// follows it, inside the single attention h-loop.
// CHECK:      %[[SLOGIT:.*]] = tile.store %{{.*}}, %logit[
// CHECK:      %[[ACC:.*]] = tile.load %accm[
// CHECK:      %[[SACC:.*]] = tile.store %{{.*}}, %accm[
// CHECK-NEXT: %[[O:.*]] = tile.load %O[
// CHECK:      %[[SO:.*]] = tile.store %{{.*}}, %O[
// CHECK-NEXT: %[[B2:.*]] = tile.seq %[[SACC]], %[[SO]]
// CHECK-NEXT: %[[B1:.*]] = tile.seq %[[SLOGIT]], %[[B2]]
// CHECK-NEXT: %[[P:.*]] = tile.loop %p = 0 to 1024 step %tile_p body %[[B1]]
// CHECK-NEXT: %[[ACCB:.*]] = tile.bcast %[[ACC]] [2]
// CHECK-NEXT: %[[DIV:.*]] = tile.div %[[O]], %[[ACCB]]
// CHECK-NEXT: %[[SDIV:.*]] = tile.store %[[DIV]], %O[
// CHECK-NEXT: %[[B:.*]] = tile.seq %[[P]], %[[SDIV]]
// CHECK-NEXT: %[[H:.*]] = tile.loop %h = 0 to 32 step %c1 body %[[B]]
// CHECK-NOT:  tile.loop %h
// CHECK:      %[[R3:.*]] = tile.seq %[[H]], %{{.*}}
// CHECK-NEXT: %[[R2:.*]] = tile.seq %{{.*}}, %[[R3]]
// CHECK-NEXT: %[[R1:.*]] = tile.seq %{{.*}}, %[[R2]]
// CHECK-NEXT: %[[R0:.*]] = tile.seq %{{.*}}, %[[R1]]
// CHECK-NEXT: tile.yield %[[R0]]
tile.program @fig4d(
    %X: !tile.tensor<16x4096xf16, input>,
    %WQ: !tile.tensor<4096x4096xf16, input>,
    %WK: !tile.tensor<4096x4096xf16, input>,
    %WV: !tile.tensor<4096x4096xf16, input>,
    %K_cache: !tile.tensor<32x1024x128xf16, inout>,
    %V_cache: !tile.tensor<32x1024x128xf16, inout>,
    %O2: !tile.tensor<16x4096xf16, output>,
    %Q1: !tile.tensor<16x4096xf32, intermediate>,
    %K1: !tile.tensor<16x4096xf32, intermediate>,
    %V1: !tile.tensor<16x4096xf32, intermediate>,
    %Q: !tile.tensor<32x16x128xf16, intermediate>,
    %K: !tile.tensor<32x16x128xf16, intermediate>,
    %V: !tile.tensor<32x16x128xf16, intermediate>,
    %logit: !tile.tensor<32x16x1024xf32, intermediate>,
    %accm: !tile.tensor<32x16xf32, intermediate>,
    %O: !tile.tensor<32x16x128xf32, intermediate>) {
  %n = tile.var "n"
  %k = tile.var "k"
  %c = tile.var "c"
  %h = tile.var "h"
  %p = tile.var "p"
  %tile_n = tile.size "tile_n"
  %tile_k = tile.size "tile_k"
  %tile_p = tile.size "tile_p"
  %c128 = tile.size 128
  %c1 = tile.size 1
  %full = tile.full
  %tn = tile.tile %n
  %tk = tile.tile %k
  %tc = tile.tile %c
  %ec = tile.elem %c
  %eh = tile.elem %h
  %tp = tile.tile %p
  %new = tile.const_tile 1008, 16

  // (loop 0 4096 tile_n n (loop 0 4096 tile_k k
  //   (Q1,K1,V1[:, tile n] += X[:, tile k] * WQ,WK,WV[tile k, tile n])))
  %x = tile.load %X[%full, %tk] : !tile.tensor<16x4096xf16, input> -> !tile.tile<[16, tile_k], f16>
  %wq = tile.load %WQ[%tk, %tn] : !tile.tensor<4096x4096xf16, input> -> !tile.tile<[tile_k, tile_n], f16>
  %q1 = tile.load %Q1[%full, %tn] : !tile.tensor<16x4096xf32, intermediate> -> !tile.tile<[16, tile_n], f32>
  %xq = tile.matmul %x, %wq : !tile.tile<[16, tile_k], f16>, !tile.tile<[tile_k, tile_n], f16> -> !tile.tile<[16, tile_n], f32>
  %q1n = tile.add %q1, %xq : !tile.tile<[16, tile_n], f32>
  %sq1 = tile.store %q1n, %Q1[%full, %tn] : !tile.tile<[16, tile_n], f32>, !tile.tensor<16x4096xf32, intermediate>
  %wk = tile.load %WK[%tk, %tn] : !tile.tensor<4096x4096xf16, input> -> !tile.tile<[tile_k, tile_n], f16>
  %k1 = tile.load %K1[%full, %tn] : !tile.tensor<16x4096xf32, intermediate> -> !tile.tile<[16, tile_n], f32>
  %xk = tile.matmul %x, %wk : !tile.tile<[16, tile_k], f16>, !tile.tile<[tile_k, tile_n], f16> -> !tile.tile<[16, tile_n], f32>
  %k1n = tile.add %k1, %xk : !tile.tile<[16, tile_n], f32>
  %sk1 = tile.store %k1n, %K1[%full, %tn] : !tile.tile<[16, tile_n], f32>, !tile.tensor<16x4096xf32, intermediate>
  %wv = tile.load %WV[%tk, %tn] : !tile.tensor<4096x4096xf16, input> -> !tile.tile<[tile_k, tile_n], f16>
  %v1 = tile.load %V1[%full, %tn] : !tile.tensor<16x4096xf32, intermediate> -> !tile.tile<[16, tile_n], f32>
  %xv = tile.matmul %x, %wv : !tile.tile<[16, tile_k], f16>, !tile.tile<[tile_k, tile_n], f16> -> !tile.tile<[16, tile_n], f32>
  %v1n = tile.add %v1, %xv : !tile.tile<[16, tile_n], f32>
  %sv1 = tile.store %v1n, %V1[%full, %tn] : !tile.tile<[16, tile_n], f32>, !tile.tensor<16x4096xf32, intermediate>
  %proj1 = tile.seq %sk1, %sv1
  %proj = tile.seq %sq1, %proj1
  %lk = tile.loop %k = 0 to 4096 step %tile_k body %proj
  %ln = tile.loop %n = 0 to 4096 step %tile_n body %lk

  // (loop 0 4096 128 c
  //   (Q,K,V[elem c, :, :] = transpose(expand_dims(Q1,K1,V1[:, tile c], 1), 0, 1)))
  %q1c = tile.load %Q1[%full, %tc] : !tile.tensor<16x4096xf32, intermediate> -> !tile.tile<[16, 128], f32>
  %q1c16 = tile.cast %q1c : !tile.tile<[16, 128], f32> -> !tile.tile<[16, 128], f16>
  %q1u = tile.unsqueeze %q1c16, 1 : !tile.tile<[16, 128], f16> -> !tile.tile<[16, 1, 128], f16>
  %qc = tile.transpose %q1u, 0, 1 : !tile.tile<[16, 1, 128], f16> -> !tile.tile<[1, 16, 128], f16>
  %sq = tile.store %qc, %Q[%ec, %full, %full] : !tile.tile<[1, 16, 128], f16>, !tile.tensor<32x16x128xf16, intermediate>
  %k1c = tile.load %K1[%full, %tc] : !tile.tensor<16x4096xf32, intermediate> -> !tile.tile<[16, 128], f32>
  %k1c16 = tile.cast %k1c : !tile.tile<[16, 128], f32> -> !tile.tile<[16, 128], f16>
  %k1u = tile.unsqueeze %k1c16, 1 : !tile.tile<[16, 128], f16> -> !tile.tile<[16, 1, 128], f16>
  %kc = tile.transpose %k1u, 0, 1 : !tile.tile<[16, 1, 128], f16> -> !tile.tile<[1, 16, 128], f16>
  %sk = tile.store %kc, %K[%ec, %full, %full] : !tile.tile<[1, 16, 128], f16>, !tile.tensor<32x16x128xf16, intermediate>
  %v1c = tile.load %V1[%full, %tc] : !tile.tensor<16x4096xf32, intermediate> -> !tile.tile<[16, 128], f32>
  %v1c16 = tile.cast %v1c : !tile.tile<[16, 128], f32> -> !tile.tile<[16, 128], f16>
  %v1u = tile.unsqueeze %v1c16, 1 : !tile.tile<[16, 128], f16> -> !tile.tile<[16, 1, 128], f16>
  %vc = tile.transpose %v1u, 0, 1 : !tile.tile<[16, 1, 128], f16> -> !tile.tile<[1, 16, 128], f16>
  %sv = tile.store %vc, %V[%ec, %full, %full] : !tile.tile<[1, 16, 128], f16>, !tile.tensor<32x16x128xf16, intermediate>
  %heads1 = tile.seq %sk, %sv
  %heads = tile.seq %sq, %heads1
  %lc = tile.loop %c = 0 to 4096 step %c128 body %heads

  // (loop 0 32 1 h (K_cache,V_cache[elem h, 1008:1024, :] = K,V[elem h, :, :]))
  %kh = tile.load %K[%eh, %full, %full] : !tile.tensor<32x16x128xf16, intermediate> -> !tile.tile<[1, 16, 128], f16>
  %skc = tile.store %kh, %K_cache[%eh, %new, %full] : !tile.tile<[1, 16, 128], f16>, !tile.tensor<32x1024x128xf16, inout>
  %vh = tile.load %V[%eh, %full, %full] : !tile.tensor<32x16x128xf16, intermediate> -> !tile.tile<[1, 16, 128], f16>
  %svc = tile.store %vh, %V_cache[%eh, %new, %full] : !tile.tile<[1, 16, 128], f16>, !tile.tensor<32x1024x128xf16, inout>
  %kv = tile.seq %skc, %svc
  %lkv = tile.loop %h = 0 to 32 step %c1 body %kv

  // (loop 0 32 1 h
  //   (loop 0 1024 tile_p p
  //     (logit[elem h, :, tile p] = exp(Q[elem h, :, :] * K_cache[elem h, tile p, :]^T))
  //     (accm[elem h, :] += reduce_sum(logit[elem h, :, tile p]))
  //     (O[elem h, :, :] += logit[elem h, :, tile p] * V_cache[elem h, tile p, :]))
  //   (O[elem h, :, :] /= accm[elem h, :]))
  %qh = tile.load %Q[%eh, %full, %full] : !tile.tensor<32x16x128xf16, intermediate> -> !tile.tile<[1, 16, 128], f16>
  %kp = tile.load %K_cache[%eh, %tp, %full] : !tile.tensor<32x1024x128xf16, inout> -> !tile.tile<[1, tile_p, 128], f16>
  %kpt = tile.transpose %kp, 1, 2 : !tile.tile<[1, tile_p, 128], f16> -> !tile.tile<[1, 128, tile_p], f16>
  %qk = tile.matmul %qh, %kpt : !tile.tile<[1, 16, 128], f16>, !tile.tile<[1, 128, tile_p], f16> -> !tile.tile<[1, 16, tile_p], f32>
  %lg = tile.exp %qk : !tile.tile<[1, 16, tile_p], f32>
  %slg = tile.store %lg, %logit[%eh, %full, %tp] : !tile.tile<[1, 16, tile_p], f32>, !tile.tensor<32x16x1024xf32, intermediate>
  %lgl = tile.load %logit[%eh, %full, %tp] : !tile.tensor<32x16x1024xf32, intermediate> -> !tile.tile<[1, 16, tile_p], f32>
  %acc = tile.load %accm[%eh, %full] : !tile.tensor<32x16xf32, intermediate> -> !tile.tile<[1, 16], f32>
  %lgs = tile.rsum %lgl, 2 : !tile.tile<[1, 16, tile_p], f32> -> !tile.tile<[1, 16], f32>
  %accn = tile.add %acc, %lgs : !tile.tile<[1, 16], f32>
  %sacc = tile.store %accn, %accm[%eh, %full] : !tile.tile<[1, 16], f32>, !tile.tensor<32x16xf32, intermediate>
  %o = tile.load %O[%eh, %full, %full] : !tile.tensor<32x16x128xf32, intermediate> -> !tile.tile<[1, 16, 128], f32>
  %lg16 = tile.cast %lgl : !tile.tile<[1, 16, tile_p], f32> -> !tile.tile<[1, 16, tile_p], f16>
  %vp = tile.load %V_cache[%eh, %tp, %full] : !tile.tensor<32x1024x128xf16, inout> -> !tile.tile<[1, tile_p, 128], f16>
  %pv = tile.matmul %lg16, %vp : !tile.tile<[1, 16, tile_p], f16>, !tile.tile<[1, tile_p, 128], f16> -> !tile.tile<[1, 16, 128], f32>
  %on = tile.add %o, %pv : !tile.tile<[1, 16, 128], f32>
  %so = tile.store %on, %O[%eh, %full, %full] : !tile.tile<[1, 16, 128], f32>, !tile.tensor<32x16x128xf32, intermediate>
  %att2 = tile.seq %sacc, %so
  %att1 = tile.seq %slg, %att2
  %lp = tile.loop %p = 0 to 1024 step %tile_p body %att1
  %accb = tile.bcast %acc [2] : !tile.tile<[1, 16], f32> -> !tile.tile<[1, 16, 128], f32>
  %od = tile.div %o, %accb : !tile.tile<[1, 16, 128], f32>
  %sod = tile.store %od, %O[%eh, %full, %full] : !tile.tile<[1, 16, 128], f32>, !tile.tensor<32x16x128xf32, intermediate>
  %att = tile.seq %lp, %sod
  %lh = tile.loop %h = 0 to 32 step %c1 body %att

  // (loop 0 4096 128 c (O2[:, tile c] = squeeze(permute(O[elem c, :, :], 1, 0, 2), 1)))
  %oc = tile.load %O[%ec, %full, %full] : !tile.tensor<32x16x128xf32, intermediate> -> !tile.tile<[1, 16, 128], f32>
  %ocp = tile.permute %oc [1, 0, 2] : !tile.tile<[1, 16, 128], f32> -> !tile.tile<[16, 1, 128], f32>
  %ocs = tile.squeeze %ocp, 1 : !tile.tile<[16, 1, 128], f32> -> !tile.tile<[16, 128], f32>
  %oc16 = tile.cast %ocs : !tile.tile<[16, 128], f32> -> !tile.tile<[16, 128], f16>
  %so2 = tile.store %oc16, %O2[%full, %tc] : !tile.tile<[16, 128], f16>, !tile.tensor<16x4096xf16, output>
  %lo2 = tile.loop %c = 0 to 4096 step %c128 body %so2

  %r3 = tile.seq %lh, %lo2
  %r2 = tile.seq %lkv, %r3
  %r1 = tile.seq %lc, %r2
  %r0 = tile.seq %ln, %r1
  tile.yield %r0
}

// -----

// Figure 4(e): loop fusion with a fixed tile size. The QKV projection now
// steps n by 128 (one head per iteration), so the head split joins it in one
// n-loop. The elided attention is that of @fig4d; the KV-cache update and
// the O2 reshape are as in @fig4b.

// CHECK-LABEL: tile.program @fig4e
// The projection k-loop and the head split share one n-loop stepping by 128.
// CHECK:      %[[EN:.*]] = tile.elem %n
// CHECK:      tile.load %WQ[%{{.*}}] : !tile.tensor<4096x4096xf16, input> -> !tile.tile<[tile_k, 128], f16>
// CHECK:      %[[LK:.*]] = tile.loop %k = 0 to 4096 step %tile_k body
// CHECK:      %[[SQ:.*]] = tile.store %{{.*}}, %Q[%[[EN]],
// CHECK:      %[[SK:.*]] = tile.store %{{.*}}, %K[%[[EN]],
// CHECK:      %[[SV:.*]] = tile.store %{{.*}}, %V[%[[EN]],
// CHECK-NEXT: %[[HD1:.*]] = tile.seq %[[SK]], %[[SV]]
// CHECK-NEXT: %[[HD0:.*]] = tile.seq %[[SQ]], %[[HD1]]
// CHECK-NEXT: %[[NB:.*]] = tile.seq %[[LK]], %[[HD0]]
// CHECK-NEXT: %[[LN:.*]] = tile.loop %n = 0 to 4096 step %c128 body %[[NB]]
// Then the cache update, the FlashAttention h-loop of Figure 4(d), and O2.
// CHECK:      %[[LKV:.*]] = tile.loop %h = 0 to 32 step %c1 body
// CHECK:      %[[P:.*]] = tile.loop %p = 0 to 1024 step %tile_p body
// CHECK:      %[[LH:.*]] = tile.loop %h = 0 to 32 step %c1 body
// CHECK:      %[[LO2:.*]] = tile.loop %c = 0 to 4096 step %c128 body
// CHECK-NEXT: %[[R2:.*]] = tile.seq %[[LH]], %[[LO2]]
// CHECK-NEXT: %[[R1:.*]] = tile.seq %[[LKV]], %[[R2]]
// CHECK-NEXT: %[[R0:.*]] = tile.seq %[[LN]], %[[R1]]
// CHECK-NEXT: tile.yield %[[R0]]
tile.program @fig4e(
    %X: !tile.tensor<16x4096xf16, input>,
    %WQ: !tile.tensor<4096x4096xf16, input>,
    %WK: !tile.tensor<4096x4096xf16, input>,
    %WV: !tile.tensor<4096x4096xf16, input>,
    %K_cache: !tile.tensor<32x1024x128xf16, inout>,
    %V_cache: !tile.tensor<32x1024x128xf16, inout>,
    %O2: !tile.tensor<16x4096xf16, output>,
    %Q1: !tile.tensor<16x4096xf32, intermediate>,
    %K1: !tile.tensor<16x4096xf32, intermediate>,
    %V1: !tile.tensor<16x4096xf32, intermediate>,
    %Q: !tile.tensor<32x16x128xf16, intermediate>,
    %K: !tile.tensor<32x16x128xf16, intermediate>,
    %V: !tile.tensor<32x16x128xf16, intermediate>,
    %logit: !tile.tensor<32x16x1024xf32, intermediate>,
    %accm: !tile.tensor<32x16xf32, intermediate>,
    %O: !tile.tensor<32x16x128xf32, intermediate>) {
  %n = tile.var "n"
  %k = tile.var "k"
  %c = tile.var "c"
  %h = tile.var "h"
  %p = tile.var "p"
  %tile_k = tile.size "tile_k"
  %tile_p = tile.size "tile_p"
  %c128 = tile.size 128
  %c1 = tile.size 1
  %full = tile.full
  %tn = tile.tile %n
  %en = tile.elem %n
  %tk = tile.tile %k
  %tc = tile.tile %c
  %ec = tile.elem %c
  %eh = tile.elem %h
  %tp = tile.tile %p
  %new = tile.const_tile 1008, 16

  // (loop 0 4096 128 n
  //   (loop 0 4096 tile_k k (Q1,K1,V1[:, tile n] += X[:, tile k] * WQ,WK,WV[tile k, tile n]))
  //   (Q,K,V[elem n, :, :] = transpose(expand_dims(Q1,K1,V1[:, tile n], 1), 0, 1)))
  %x = tile.load %X[%full, %tk] : !tile.tensor<16x4096xf16, input> -> !tile.tile<[16, tile_k], f16>
  %wq = tile.load %WQ[%tk, %tn] : !tile.tensor<4096x4096xf16, input> -> !tile.tile<[tile_k, 128], f16>
  %q1 = tile.load %Q1[%full, %tn] : !tile.tensor<16x4096xf32, intermediate> -> !tile.tile<[16, 128], f32>
  %xq = tile.matmul %x, %wq : !tile.tile<[16, tile_k], f16>, !tile.tile<[tile_k, 128], f16> -> !tile.tile<[16, 128], f32>
  %q1n = tile.add %q1, %xq : !tile.tile<[16, 128], f32>
  %sq1 = tile.store %q1n, %Q1[%full, %tn] : !tile.tile<[16, 128], f32>, !tile.tensor<16x4096xf32, intermediate>
  %wk = tile.load %WK[%tk, %tn] : !tile.tensor<4096x4096xf16, input> -> !tile.tile<[tile_k, 128], f16>
  %k1 = tile.load %K1[%full, %tn] : !tile.tensor<16x4096xf32, intermediate> -> !tile.tile<[16, 128], f32>
  %xk = tile.matmul %x, %wk : !tile.tile<[16, tile_k], f16>, !tile.tile<[tile_k, 128], f16> -> !tile.tile<[16, 128], f32>
  %k1n = tile.add %k1, %xk : !tile.tile<[16, 128], f32>
  %sk1 = tile.store %k1n, %K1[%full, %tn] : !tile.tile<[16, 128], f32>, !tile.tensor<16x4096xf32, intermediate>
  %wv = tile.load %WV[%tk, %tn] : !tile.tensor<4096x4096xf16, input> -> !tile.tile<[tile_k, 128], f16>
  %v1 = tile.load %V1[%full, %tn] : !tile.tensor<16x4096xf32, intermediate> -> !tile.tile<[16, 128], f32>
  %xv = tile.matmul %x, %wv : !tile.tile<[16, tile_k], f16>, !tile.tile<[tile_k, 128], f16> -> !tile.tile<[16, 128], f32>
  %v1n = tile.add %v1, %xv : !tile.tile<[16, 128], f32>
  %sv1 = tile.store %v1n, %V1[%full, %tn] : !tile.tile<[16, 128], f32>, !tile.tensor<16x4096xf32, intermediate>
  %proj1 = tile.seq %sk1, %sv1
  %proj = tile.seq %sq1, %proj1
  %lk = tile.loop %k = 0 to 4096 step %tile_k body %proj
  %q116 = tile.cast %q1 : !tile.tile<[16, 128], f32> -> !tile.tile<[16, 128], f16>
  %q1u = tile.unsqueeze %q116, 1 : !tile.tile<[16, 128], f16> -> !tile.tile<[16, 1, 128], f16>
  %qn = tile.transpose %q1u, 0, 1 : !tile.tile<[16, 1, 128], f16> -> !tile.tile<[1, 16, 128], f16>
  %sq = tile.store %qn, %Q[%en, %full, %full] : !tile.tile<[1, 16, 128], f16>, !tile.tensor<32x16x128xf16, intermediate>
  %k116 = tile.cast %k1 : !tile.tile<[16, 128], f32> -> !tile.tile<[16, 128], f16>
  %k1u = tile.unsqueeze %k116, 1 : !tile.tile<[16, 128], f16> -> !tile.tile<[16, 1, 128], f16>
  %kn = tile.transpose %k1u, 0, 1 : !tile.tile<[16, 1, 128], f16> -> !tile.tile<[1, 16, 128], f16>
  %sk = tile.store %kn, %K[%en, %full, %full] : !tile.tile<[1, 16, 128], f16>, !tile.tensor<32x16x128xf16, intermediate>
  %v116 = tile.cast %v1 : !tile.tile<[16, 128], f32> -> !tile.tile<[16, 128], f16>
  %v1u = tile.unsqueeze %v116, 1 : !tile.tile<[16, 128], f16> -> !tile.tile<[16, 1, 128], f16>
  %vn = tile.transpose %v1u, 0, 1 : !tile.tile<[16, 1, 128], f16> -> !tile.tile<[1, 16, 128], f16>
  %sv = tile.store %vn, %V[%en, %full, %full] : !tile.tile<[1, 16, 128], f16>, !tile.tensor<32x16x128xf16, intermediate>
  %heads1 = tile.seq %sk, %sv
  %heads = tile.seq %sq, %heads1
  %nbody = tile.seq %lk, %heads
  %ln = tile.loop %n = 0 to 4096 step %c128 body %nbody

  // (loop 0 32 1 h (K_cache,V_cache[elem h, 1008:1024, :] = K,V[elem h, :, :]))
  %kh = tile.load %K[%eh, %full, %full] : !tile.tensor<32x16x128xf16, intermediate> -> !tile.tile<[1, 16, 128], f16>
  %skc = tile.store %kh, %K_cache[%eh, %new, %full] : !tile.tile<[1, 16, 128], f16>, !tile.tensor<32x1024x128xf16, inout>
  %vh = tile.load %V[%eh, %full, %full] : !tile.tensor<32x16x128xf16, intermediate> -> !tile.tile<[1, 16, 128], f16>
  %svc = tile.store %vh, %V_cache[%eh, %new, %full] : !tile.tile<[1, 16, 128], f16>, !tile.tensor<32x1024x128xf16, inout>
  %kv = tile.seq %skc, %svc
  %lkv = tile.loop %h = 0 to 32 step %c1 body %kv

  // (loop 0 32 1 h
  //   (loop 0 1024 tile_p p
  //     (logit[elem h, :, tile p] = exp(Q[elem h, :, :] * K_cache[elem h, tile p, :]^T))
  //     (accm[elem h, :] += reduce_sum(logit[elem h, :, tile p]))
  //     (O[elem h, :, :] += logit[elem h, :, tile p] * V_cache[elem h, tile p, :]))
  //   (O[elem h, :, :] /= accm[elem h, :]))
  %qh = tile.load %Q[%eh, %full, %full] : !tile.tensor<32x16x128xf16, intermediate> -> !tile.tile<[1, 16, 128], f16>
  %kp = tile.load %K_cache[%eh, %tp, %full] : !tile.tensor<32x1024x128xf16, inout> -> !tile.tile<[1, tile_p, 128], f16>
  %kpt = tile.transpose %kp, 1, 2 : !tile.tile<[1, tile_p, 128], f16> -> !tile.tile<[1, 128, tile_p], f16>
  %qk = tile.matmul %qh, %kpt : !tile.tile<[1, 16, 128], f16>, !tile.tile<[1, 128, tile_p], f16> -> !tile.tile<[1, 16, tile_p], f32>
  %lg = tile.exp %qk : !tile.tile<[1, 16, tile_p], f32>
  %slg = tile.store %lg, %logit[%eh, %full, %tp] : !tile.tile<[1, 16, tile_p], f32>, !tile.tensor<32x16x1024xf32, intermediate>
  %lgl = tile.load %logit[%eh, %full, %tp] : !tile.tensor<32x16x1024xf32, intermediate> -> !tile.tile<[1, 16, tile_p], f32>
  %acc = tile.load %accm[%eh, %full] : !tile.tensor<32x16xf32, intermediate> -> !tile.tile<[1, 16], f32>
  %lgs = tile.rsum %lgl, 2 : !tile.tile<[1, 16, tile_p], f32> -> !tile.tile<[1, 16], f32>
  %accn = tile.add %acc, %lgs : !tile.tile<[1, 16], f32>
  %sacc = tile.store %accn, %accm[%eh, %full] : !tile.tile<[1, 16], f32>, !tile.tensor<32x16xf32, intermediate>
  %o = tile.load %O[%eh, %full, %full] : !tile.tensor<32x16x128xf32, intermediate> -> !tile.tile<[1, 16, 128], f32>
  %lg16 = tile.cast %lgl : !tile.tile<[1, 16, tile_p], f32> -> !tile.tile<[1, 16, tile_p], f16>
  %vp = tile.load %V_cache[%eh, %tp, %full] : !tile.tensor<32x1024x128xf16, inout> -> !tile.tile<[1, tile_p, 128], f16>
  %pv = tile.matmul %lg16, %vp : !tile.tile<[1, 16, tile_p], f16>, !tile.tile<[1, tile_p, 128], f16> -> !tile.tile<[1, 16, 128], f32>
  %on = tile.add %o, %pv : !tile.tile<[1, 16, 128], f32>
  %so = tile.store %on, %O[%eh, %full, %full] : !tile.tile<[1, 16, 128], f32>, !tile.tensor<32x16x128xf32, intermediate>
  %att2 = tile.seq %sacc, %so
  %att1 = tile.seq %slg, %att2
  %lp = tile.loop %p = 0 to 1024 step %tile_p body %att1
  %accb = tile.bcast %acc [2] : !tile.tile<[1, 16], f32> -> !tile.tile<[1, 16, 128], f32>
  %od = tile.div %o, %accb : !tile.tile<[1, 16, 128], f32>
  %sod = tile.store %od, %O[%eh, %full, %full] : !tile.tile<[1, 16, 128], f32>, !tile.tensor<32x16x128xf32, intermediate>
  %att = tile.seq %lp, %sod
  %lh = tile.loop %h = 0 to 32 step %c1 body %att

  // (loop 0 4096 128 c (O2[:, tile c] = squeeze(permute(O[elem c, :, :], 1, 0, 2), 1)))
  %oc = tile.load %O[%ec, %full, %full] : !tile.tensor<32x16x128xf32, intermediate> -> !tile.tile<[1, 16, 128], f32>
  %ocp = tile.permute %oc [1, 0, 2] : !tile.tile<[1, 16, 128], f32> -> !tile.tile<[16, 1, 128], f32>
  %ocs = tile.squeeze %ocp, 1 : !tile.tile<[16, 1, 128], f32> -> !tile.tile<[16, 128], f32>
  %oc16 = tile.cast %ocs : !tile.tile<[16, 128], f32> -> !tile.tile<[16, 128], f16>
  %so2 = tile.store %oc16, %O2[%full, %tc] : !tile.tile<[16, 128], f16>, !tile.tensor<16x4096xf16, output>
  %lo2 = tile.loop %c = 0 to 4096 step %c128 body %so2

  %r2 = tile.seq %lh, %lo2
  %r1 = tile.seq %lkv, %r2
  %r0 = tile.seq %ln, %r1
  tile.yield %r0
}

// -----

// Figure 4(f): loop fusion with iteration-space reindexing. (loop 0 32 1 h)
// and (loop 0 4096 128 n) have the same trip count, so every (elem h) becomes
// (elem n) and the attention joins the projection in one n-loop: a single
// kernel from X to O2. As in Figure 4(d), the printed figure closes the
// p-loop before `O += ...`; we keep that statement inside the p-loop.
// Figure 4(f) shows neither the KV-cache update nor the O2 reshape; we fuse
// both into the n-loop at the places Figure 10 has them (the per-head cache
// store after the head split, the O2 store after the final division).

// CHECK-LABEL: tile.program @fig4f
// A single n-loop stepping by 128 holds the projection k-loop, the head
// split, the cache update, the attention p-loop, the division and O2.
// CHECK:      %[[EN:.*]] = tile.elem %n
// CHECK:      %[[NEW:.*]] = tile.const_tile 1008, 16
// CHECK:      %[[LK:.*]] = tile.loop %k = 0 to 4096 step %tile_k body
// CHECK:      %[[SQ:.*]] = tile.store %{{.*}}, %Q[%[[EN]],
// CHECK:      %[[SKC:.*]] = tile.store %{{.*}}, %K_cache[%[[EN]], %[[NEW]],
// CHECK:      %[[SVC:.*]] = tile.store %{{.*}}, %V_cache[%[[EN]], %[[NEW]],
// CHECK:      tile.load %K_cache[%[[EN]], %{{.*}}] : !tile.tensor<32x1024x128xf16, inout> -> !tile.tile<[1, tile_p, 128], f16>
// CHECK:      %[[LP:.*]] = tile.loop %p = 0 to 1024 step %tile_p body
// CHECK:      %[[SDIV:.*]] = tile.store %{{.*}}, %O[%[[EN]],
// CHECK:      %[[SO2:.*]] = tile.store %{{.*}}, %O2[
// CHECK-NEXT: %[[B7:.*]] = tile.seq %[[SDIV]], %[[SO2]]
// CHECK-NEXT: %[[B6:.*]] = tile.seq %[[LP]], %[[B7]]
// CHECK-NEXT: %[[B5:.*]] = tile.seq %[[SVC]], %[[B6]]
// CHECK-NEXT: %[[B4:.*]] = tile.seq %[[SKC]], %[[B5]]
// CHECK-NEXT: %[[B3:.*]] = tile.seq %{{.*}}, %[[B4]]
// CHECK-NEXT: %[[B2:.*]] = tile.seq %{{.*}}, %[[B3]]
// CHECK-NEXT: %[[B1:.*]] = tile.seq %[[SQ]], %[[B2]]
// CHECK-NEXT: %[[B0:.*]] = tile.seq %[[LK]], %[[B1]]
// CHECK-NEXT: %[[LN:.*]] = tile.loop %n = 0 to 4096 step %c128 body %[[B0]]
// CHECK-NEXT: tile.yield %[[LN]]
tile.program @fig4f(
    %X: !tile.tensor<16x4096xf16, input>,
    %WQ: !tile.tensor<4096x4096xf16, input>,
    %WK: !tile.tensor<4096x4096xf16, input>,
    %WV: !tile.tensor<4096x4096xf16, input>,
    %K_cache: !tile.tensor<32x1024x128xf16, inout>,
    %V_cache: !tile.tensor<32x1024x128xf16, inout>,
    %O2: !tile.tensor<16x4096xf16, output>,
    %Q1: !tile.tensor<16x4096xf32, intermediate>,
    %K1: !tile.tensor<16x4096xf32, intermediate>,
    %V1: !tile.tensor<16x4096xf32, intermediate>,
    %Q: !tile.tensor<32x16x128xf16, intermediate>,
    %K: !tile.tensor<32x16x128xf16, intermediate>,
    %V: !tile.tensor<32x16x128xf16, intermediate>,
    %logit: !tile.tensor<32x16x1024xf32, intermediate>,
    %accm: !tile.tensor<32x16xf32, intermediate>,
    %O: !tile.tensor<32x16x128xf32, intermediate>) {
  %n = tile.var "n"
  %k = tile.var "k"
  %p = tile.var "p"
  %tile_k = tile.size "tile_k"
  %tile_p = tile.size "tile_p"
  %c128 = tile.size 128
  %full = tile.full
  %tn = tile.tile %n
  %en = tile.elem %n
  %tk = tile.tile %k
  %tp = tile.tile %p
  %new = tile.const_tile 1008, 16

  // (loop 0 4096 128 n
  //   (loop 0 4096 tile_k k (Q1,K1,V1[:, tile n] += X[:, tile k] * WQ,WK,WV[tile k, tile n]))
  //   (Q,K,V[elem n, :, :] = transpose(expand_dims(Q1,K1,V1[:, tile n], 1), 0, 1))
  %x = tile.load %X[%full, %tk] : !tile.tensor<16x4096xf16, input> -> !tile.tile<[16, tile_k], f16>
  %wq = tile.load %WQ[%tk, %tn] : !tile.tensor<4096x4096xf16, input> -> !tile.tile<[tile_k, 128], f16>
  %q1 = tile.load %Q1[%full, %tn] : !tile.tensor<16x4096xf32, intermediate> -> !tile.tile<[16, 128], f32>
  %xq = tile.matmul %x, %wq : !tile.tile<[16, tile_k], f16>, !tile.tile<[tile_k, 128], f16> -> !tile.tile<[16, 128], f32>
  %q1n = tile.add %q1, %xq : !tile.tile<[16, 128], f32>
  %sq1 = tile.store %q1n, %Q1[%full, %tn] : !tile.tile<[16, 128], f32>, !tile.tensor<16x4096xf32, intermediate>
  %wk = tile.load %WK[%tk, %tn] : !tile.tensor<4096x4096xf16, input> -> !tile.tile<[tile_k, 128], f16>
  %k1 = tile.load %K1[%full, %tn] : !tile.tensor<16x4096xf32, intermediate> -> !tile.tile<[16, 128], f32>
  %xk = tile.matmul %x, %wk : !tile.tile<[16, tile_k], f16>, !tile.tile<[tile_k, 128], f16> -> !tile.tile<[16, 128], f32>
  %k1n = tile.add %k1, %xk : !tile.tile<[16, 128], f32>
  %sk1 = tile.store %k1n, %K1[%full, %tn] : !tile.tile<[16, 128], f32>, !tile.tensor<16x4096xf32, intermediate>
  %wv = tile.load %WV[%tk, %tn] : !tile.tensor<4096x4096xf16, input> -> !tile.tile<[tile_k, 128], f16>
  %v1 = tile.load %V1[%full, %tn] : !tile.tensor<16x4096xf32, intermediate> -> !tile.tile<[16, 128], f32>
  %xv = tile.matmul %x, %wv : !tile.tile<[16, tile_k], f16>, !tile.tile<[tile_k, 128], f16> -> !tile.tile<[16, 128], f32>
  %v1n = tile.add %v1, %xv : !tile.tile<[16, 128], f32>
  %sv1 = tile.store %v1n, %V1[%full, %tn] : !tile.tile<[16, 128], f32>, !tile.tensor<16x4096xf32, intermediate>
  %proj1 = tile.seq %sk1, %sv1
  %proj = tile.seq %sq1, %proj1
  %lk = tile.loop %k = 0 to 4096 step %tile_k body %proj
  %q116 = tile.cast %q1 : !tile.tile<[16, 128], f32> -> !tile.tile<[16, 128], f16>
  %q1u = tile.unsqueeze %q116, 1 : !tile.tile<[16, 128], f16> -> !tile.tile<[16, 1, 128], f16>
  %qn = tile.transpose %q1u, 0, 1 : !tile.tile<[16, 1, 128], f16> -> !tile.tile<[1, 16, 128], f16>
  %sq = tile.store %qn, %Q[%en, %full, %full] : !tile.tile<[1, 16, 128], f16>, !tile.tensor<32x16x128xf16, intermediate>
  %k116 = tile.cast %k1 : !tile.tile<[16, 128], f32> -> !tile.tile<[16, 128], f16>
  %k1u = tile.unsqueeze %k116, 1 : !tile.tile<[16, 128], f16> -> !tile.tile<[16, 1, 128], f16>
  %kn = tile.transpose %k1u, 0, 1 : !tile.tile<[16, 1, 128], f16> -> !tile.tile<[1, 16, 128], f16>
  %sk = tile.store %kn, %K[%en, %full, %full] : !tile.tile<[1, 16, 128], f16>, !tile.tensor<32x16x128xf16, intermediate>
  %v116 = tile.cast %v1 : !tile.tile<[16, 128], f32> -> !tile.tile<[16, 128], f16>
  %v1u = tile.unsqueeze %v116, 1 : !tile.tile<[16, 128], f16> -> !tile.tile<[16, 1, 128], f16>
  %vn = tile.transpose %v1u, 0, 1 : !tile.tile<[16, 1, 128], f16> -> !tile.tile<[1, 16, 128], f16>
  %sv = tile.store %vn, %V[%en, %full, %full] : !tile.tile<[1, 16, 128], f16>, !tile.tensor<32x16x128xf16, intermediate>

  //   (K_cache,V_cache[elem n, 1008:1024, :] = K,V[elem n, :, :])
  %kh = tile.load %K[%en, %full, %full] : !tile.tensor<32x16x128xf16, intermediate> -> !tile.tile<[1, 16, 128], f16>
  %skc = tile.store %kh, %K_cache[%en, %new, %full] : !tile.tile<[1, 16, 128], f16>, !tile.tensor<32x1024x128xf16, inout>
  %vh = tile.load %V[%en, %full, %full] : !tile.tensor<32x16x128xf16, intermediate> -> !tile.tile<[1, 16, 128], f16>
  %svc = tile.store %vh, %V_cache[%en, %new, %full] : !tile.tile<[1, 16, 128], f16>, !tile.tensor<32x1024x128xf16, inout>

  //   (loop 0 1024 tile_p p
  //     (logit[elem n, :, tile p] = exp(Q[elem n, :, :] * K_cache[elem n, tile p, :]^T))
  //     (accm[elem n, :] += reduce_sum(logit[elem n, :, tile p]))
  //     (O[elem n, :, :] += logit[elem n, :, tile p] * V_cache[elem n, tile p, :]))
  //   (O[elem n, :, :] /= accm[elem n, :])
  %qa = tile.load %Q[%en, %full, %full] : !tile.tensor<32x16x128xf16, intermediate> -> !tile.tile<[1, 16, 128], f16>
  %kp = tile.load %K_cache[%en, %tp, %full] : !tile.tensor<32x1024x128xf16, inout> -> !tile.tile<[1, tile_p, 128], f16>
  %kpt = tile.transpose %kp, 1, 2 : !tile.tile<[1, tile_p, 128], f16> -> !tile.tile<[1, 128, tile_p], f16>
  %qk = tile.matmul %qa, %kpt : !tile.tile<[1, 16, 128], f16>, !tile.tile<[1, 128, tile_p], f16> -> !tile.tile<[1, 16, tile_p], f32>
  %lg = tile.exp %qk : !tile.tile<[1, 16, tile_p], f32>
  %slg = tile.store %lg, %logit[%en, %full, %tp] : !tile.tile<[1, 16, tile_p], f32>, !tile.tensor<32x16x1024xf32, intermediate>
  %lgl = tile.load %logit[%en, %full, %tp] : !tile.tensor<32x16x1024xf32, intermediate> -> !tile.tile<[1, 16, tile_p], f32>
  %acc = tile.load %accm[%en, %full] : !tile.tensor<32x16xf32, intermediate> -> !tile.tile<[1, 16], f32>
  %lgs = tile.rsum %lgl, 2 : !tile.tile<[1, 16, tile_p], f32> -> !tile.tile<[1, 16], f32>
  %accn = tile.add %acc, %lgs : !tile.tile<[1, 16], f32>
  %sacc = tile.store %accn, %accm[%en, %full] : !tile.tile<[1, 16], f32>, !tile.tensor<32x16xf32, intermediate>
  %o = tile.load %O[%en, %full, %full] : !tile.tensor<32x16x128xf32, intermediate> -> !tile.tile<[1, 16, 128], f32>
  %lg16 = tile.cast %lgl : !tile.tile<[1, 16, tile_p], f32> -> !tile.tile<[1, 16, tile_p], f16>
  %vp = tile.load %V_cache[%en, %tp, %full] : !tile.tensor<32x1024x128xf16, inout> -> !tile.tile<[1, tile_p, 128], f16>
  %pv = tile.matmul %lg16, %vp : !tile.tile<[1, 16, tile_p], f16>, !tile.tile<[1, tile_p, 128], f16> -> !tile.tile<[1, 16, 128], f32>
  %on = tile.add %o, %pv : !tile.tile<[1, 16, 128], f32>
  %so = tile.store %on, %O[%en, %full, %full] : !tile.tile<[1, 16, 128], f32>, !tile.tensor<32x16x128xf32, intermediate>
  %att2 = tile.seq %sacc, %so
  %att1 = tile.seq %slg, %att2
  %lp = tile.loop %p = 0 to 1024 step %tile_p body %att1
  %accb = tile.bcast %acc [2] : !tile.tile<[1, 16], f32> -> !tile.tile<[1, 16, 128], f32>
  %od = tile.div %o, %accb : !tile.tile<[1, 16, 128], f32>
  %sod = tile.store %od, %O[%en, %full, %full] : !tile.tile<[1, 16, 128], f32>, !tile.tensor<32x16x128xf32, intermediate>

  //   (O2[:, tile n] = squeeze(permute(O[elem n, :, :], 1, 0, 2), 1)))
  %op = tile.permute %o [1, 0, 2] : !tile.tile<[1, 16, 128], f32> -> !tile.tile<[16, 1, 128], f32>
  %os = tile.squeeze %op, 1 : !tile.tile<[16, 1, 128], f32> -> !tile.tile<[16, 128], f32>
  %o16 = tile.cast %os : !tile.tile<[16, 128], f32> -> !tile.tile<[16, 128], f16>
  %so2 = tile.store %o16, %O2[%full, %tn] : !tile.tile<[16, 128], f16>, !tile.tensor<16x4096xf16, output>

  %b7 = tile.seq %sod, %so2
  %b6 = tile.seq %lp, %b7
  %b5 = tile.seq %svc, %b6
  %b4 = tile.seq %skc, %b5
  %b3 = tile.seq %sv, %b4
  %b2 = tile.seq %sk, %b3
  %b1 = tile.seq %sq, %b2
  %b0 = tile.seq %lk, %b1
  %ln = tile.loop %n = 0 to 4096 step %c128 body %b0
  tile.yield %ln
}

// -----

// Figure 10: the best vanilla program on H100 (the kernel of Figure 11).
// One n-loop stepping by 128 (one head per iteration) holds the QKV
// projection k-loop and a p-loop that redoes the head split and the
// KV-cache update on every iteration (loop insertion) before the online
// softmax; O is divided by C_sum and written to O2 after the p-loop.
// As printed, `(loop 0 4096 tile_k k k` and `(loop 0 1024 tile_p p p` repeat
// the loop variable (we read one), and the parentheses do not balance (three
// `)` too many; `(seq (loop 0 1024 tile_p p dummy ))` closes its seq early);
// we follow the nesting that Figure 11 runs:
// n { k-loop; p-loop; (loop p dummy); O /= C_sum; dummy; O2 = ... }.

// CHECK-LABEL: tile.program @fig10
// CHECK:      %[[EN:.*]] = tile.elem %n
// CHECK:      %[[NEW:.*]] = tile.const_tile 1008, 16
// CHECK-NEXT: %[[NOP:.*]] = tile.nop
// CHECK:      %[[LK:.*]] = tile.loop %k = 0 to 4096 step %tile_k body
// The head split and the cache update are redone inside the p-loop.
// CHECK:      %[[SQ:.*]] = tile.store %{{.*}}, %Q[%[[EN]],
// CHECK:      %[[SKC:.*]] = tile.store %{{.*}}, %K_cache[%[[EN]], %[[NEW]],
// CHECK:      %[[CE:.*]] = tile.exp
// CHECK-NEXT: %[[SCE:.*]] = tile.store %[[CE]], %C_exp[
// CHECK:      %[[CS:.*]] = tile.load %C_sum[
// CHECK:      %[[O:.*]] = tile.load %O[
// CHECK:      %[[SO:.*]] = tile.store %{{.*}}, %O[
// CHECK-NEXT: %[[P9:.*]] = tile.seq %{{.*}}, %[[SO]]
// CHECK-NEXT: %[[P8:.*]] = tile.seq %[[SCE]], %[[P9]]
// CHECK-NEXT: %[[P7:.*]] = tile.seq %[[NOP]], %[[P8]]
// CHECK-NEXT: %[[P6:.*]] = tile.seq %{{.*}}, %[[P7]]
// CHECK-NEXT: %[[P5:.*]] = tile.seq %[[SKC]], %[[P6]]
// CHECK-NEXT: %[[P4:.*]] = tile.seq %{{.*}}, %[[P5]]
// CHECK-NEXT: %[[P3:.*]] = tile.seq %{{.*}}, %[[P4]]
// CHECK-NEXT: %[[P2:.*]] = tile.seq %[[SQ]], %[[P3]]
// CHECK-NEXT: %[[P1:.*]] = tile.seq %[[NOP]], %[[P2]]
// CHECK-NEXT: %[[LP:.*]] = tile.loop %p = 0 to 1024 step %tile_p body %[[P1]]
// CHECK-NEXT: %[[LPE:.*]] = tile.loop %p = 0 to 1024 step %tile_p body %[[NOP]]
// After the p-loop, O /= C_sum and O2 = ..., still inside the n-loop.
// CHECK-NEXT: %[[CSB:.*]] = tile.bcast %[[CS]] [2]
// CHECK-NEXT: %[[DIV:.*]] = tile.div %[[O]], %[[CSB]]
// CHECK-NEXT: %[[SDIV:.*]] = tile.store %[[DIV]], %O[
// CHECK:      %[[SO2:.*]] = tile.store %{{.*}}, %O2[
// CHECK-NEXT: %[[B4:.*]] = tile.seq %[[NOP]], %[[SO2]]
// CHECK-NEXT: %[[B3:.*]] = tile.seq %[[SDIV]], %[[B4]]
// CHECK-NEXT: %[[B2:.*]] = tile.seq %[[LPE]], %[[B3]]
// CHECK-NEXT: %[[B1:.*]] = tile.seq %[[LP]], %[[B2]]
// CHECK-NEXT: %[[B0:.*]] = tile.seq %[[LK]], %[[B1]]
// CHECK-NEXT: %[[LN:.*]] = tile.loop %n = 0 to 4096 step %c128 body %[[B0]]
// CHECK-NEXT: tile.yield %[[LN]]
tile.program @fig10(
    %X: !tile.tensor<16x4096xf16, input>,
    %WQ: !tile.tensor<4096x4096xf16, input>,
    %WK: !tile.tensor<4096x4096xf16, input>,
    %WV: !tile.tensor<4096x4096xf16, input>,
    %K_cache: !tile.tensor<32x1024x128xf16, inout>,
    %V_cache: !tile.tensor<32x1024x128xf16, inout>,
    %O2: !tile.tensor<16x4096xf16, output>,
    %Q1: !tile.tensor<16x4096xf32, intermediate>,
    %K1: !tile.tensor<16x4096xf32, intermediate>,
    %V1: !tile.tensor<16x4096xf32, intermediate>,
    %Q: !tile.tensor<32x16x128xf16, intermediate>,
    %K: !tile.tensor<32x16x128xf16, intermediate>,
    %V: !tile.tensor<32x16x128xf16, intermediate>,
    %C_exp: !tile.tensor<32x16x1024xf32, intermediate>,
    %C_sum: !tile.tensor<32x16xf32, intermediate>,
    %O: !tile.tensor<32x16x128xf32, intermediate>) {
  %n = tile.var "n"
  %k = tile.var "k"
  %p = tile.var "p"
  %tile_k = tile.size "tile_k"
  %tile_p = tile.size "tile_p"
  %c128 = tile.size 128
  %full = tile.full
  %tn = tile.tile %n
  %en = tile.elem %n
  %tk = tile.tile %k
  %tp = tile.tile %p
  %new = tile.const_tile 1008, 16
  %nop = tile.nop
  %one_n = tile.constant 1.0 : !tile.tile<[16, 128], f32>
  %one_s = tile.constant 1.0 : !tile.tile<[1, 16], f32>
  %one_o = tile.constant 1.0 : !tile.tile<[1, 16, 128], f32>

  // (loop 0 4096 128 n (seq
  // (loop 0 4096 tile_k k
  //   (store (tensor Q1,K1,V1)
  //     (+ (* (load (tensor Q1,K1,V1) (index fulltile (tile n))) 1)
  //        (matmul (load (input X) (index fulltile (tile k)))
  //                (load (input WQ,WK,WV) (index (tile k) (tile n)))))
  //     (index fulltile (tile n))))
  %q1 = tile.load %Q1[%full, %tn] : !tile.tensor<16x4096xf32, intermediate> -> !tile.tile<[16, 128], f32>
  %q1m = tile.mul %q1, %one_n : !tile.tile<[16, 128], f32>
  %x = tile.load %X[%full, %tk] : !tile.tensor<16x4096xf16, input> -> !tile.tile<[16, tile_k], f16>
  %wq = tile.load %WQ[%tk, %tn] : !tile.tensor<4096x4096xf16, input> -> !tile.tile<[tile_k, 128], f16>
  %xq = tile.matmul %x, %wq : !tile.tile<[16, tile_k], f16>, !tile.tile<[tile_k, 128], f16> -> !tile.tile<[16, 128], f32>
  %q1n = tile.add %q1m, %xq : !tile.tile<[16, 128], f32>
  %sq1 = tile.store %q1n, %Q1[%full, %tn] : !tile.tile<[16, 128], f32>, !tile.tensor<16x4096xf32, intermediate>
  %k1 = tile.load %K1[%full, %tn] : !tile.tensor<16x4096xf32, intermediate> -> !tile.tile<[16, 128], f32>
  %k1m = tile.mul %k1, %one_n : !tile.tile<[16, 128], f32>
  %wk = tile.load %WK[%tk, %tn] : !tile.tensor<4096x4096xf16, input> -> !tile.tile<[tile_k, 128], f16>
  %xk = tile.matmul %x, %wk : !tile.tile<[16, tile_k], f16>, !tile.tile<[tile_k, 128], f16> -> !tile.tile<[16, 128], f32>
  %k1n = tile.add %k1m, %xk : !tile.tile<[16, 128], f32>
  %sk1 = tile.store %k1n, %K1[%full, %tn] : !tile.tile<[16, 128], f32>, !tile.tensor<16x4096xf32, intermediate>
  %v1 = tile.load %V1[%full, %tn] : !tile.tensor<16x4096xf32, intermediate> -> !tile.tile<[16, 128], f32>
  %v1m = tile.mul %v1, %one_n : !tile.tile<[16, 128], f32>
  %wv = tile.load %WV[%tk, %tn] : !tile.tensor<4096x4096xf16, input> -> !tile.tile<[tile_k, 128], f16>
  %xv = tile.matmul %x, %wv : !tile.tile<[16, tile_k], f16>, !tile.tile<[tile_k, 128], f16> -> !tile.tile<[16, 128], f32>
  %v1n = tile.add %v1m, %xv : !tile.tile<[16, 128], f32>
  %sv1 = tile.store %v1n, %V1[%full, %tn] : !tile.tile<[16, 128], f32>, !tile.tensor<16x4096xf32, intermediate>
  %proj1 = tile.seq %sk1, %sv1
  %proj = tile.seq %sq1, %proj1
  %lk = tile.loop %k = 0 to 4096 step %tile_k body %proj

  // (loop 0 1024 tile_p p (seq dummy (seq
  //   (store (tensor Q,K,V)
  //     (permute3 (unsqueeze (load (tensor Q1,K1,V1) (index fulltile (tile n))) 1) 1 0 2)
  //     (index (elem n) fulltile fulltile))
  %q116 = tile.cast %q1 : !tile.tile<[16, 128], f32> -> !tile.tile<[16, 128], f16>
  %q1u = tile.unsqueeze %q116, 1 : !tile.tile<[16, 128], f16> -> !tile.tile<[16, 1, 128], f16>
  %qn = tile.permute %q1u [1, 0, 2] : !tile.tile<[16, 1, 128], f16> -> !tile.tile<[1, 16, 128], f16>
  %sq = tile.store %qn, %Q[%en, %full, %full] : !tile.tile<[1, 16, 128], f16>, !tile.tensor<32x16x128xf16, intermediate>
  %k116 = tile.cast %k1 : !tile.tile<[16, 128], f32> -> !tile.tile<[16, 128], f16>
  %k1u = tile.unsqueeze %k116, 1 : !tile.tile<[16, 128], f16> -> !tile.tile<[16, 1, 128], f16>
  %kn = tile.permute %k1u [1, 0, 2] : !tile.tile<[16, 1, 128], f16> -> !tile.tile<[1, 16, 128], f16>
  %sk = tile.store %kn, %K[%en, %full, %full] : !tile.tile<[1, 16, 128], f16>, !tile.tensor<32x16x128xf16, intermediate>
  %v116 = tile.cast %v1 : !tile.tile<[16, 128], f32> -> !tile.tile<[16, 128], f16>
  %v1u = tile.unsqueeze %v116, 1 : !tile.tile<[16, 128], f16> -> !tile.tile<[16, 1, 128], f16>
  %vn = tile.permute %v1u [1, 0, 2] : !tile.tile<[16, 1, 128], f16> -> !tile.tile<[1, 16, 128], f16>
  %sv = tile.store %vn, %V[%en, %full, %full] : !tile.tile<[1, 16, 128], f16>, !tile.tensor<32x16x128xf16, intermediate>

  //   (store (input K_cache,V_cache)
  //     (load (tensor K,V) (index (elem n) fulltile fulltile))
  //     (index (elem n) (const_tile 1008 16) fulltile))
  %kh = tile.load %K[%en, %full, %full] : !tile.tensor<32x16x128xf16, intermediate> -> !tile.tile<[1, 16, 128], f16>
  %skc = tile.store %kh, %K_cache[%en, %new, %full] : !tile.tile<[1, 16, 128], f16>, !tile.tensor<32x1024x128xf16, inout>
  %vh = tile.load %V[%en, %full, %full] : !tile.tensor<32x16x128xf16, intermediate> -> !tile.tile<[1, 16, 128], f16>
  %svc = tile.store %vh, %V_cache[%en, %new, %full] : !tile.tile<[1, 16, 128], f16>, !tile.tensor<32x1024x128xf16, inout>

  //   dummy
  //   (store (tensor C_exp)
  //     (exp (matmul (load (tensor Q) (index (elem n) fulltile fulltile))
  //                  (permute3 (load (input K_cache) (index (elem n) (tile p) fulltile)) 0 2 1)))
  //     (index (elem n) fulltile (tile p)))
  %qa = tile.load %Q[%en, %full, %full] : !tile.tensor<32x16x128xf16, intermediate> -> !tile.tile<[1, 16, 128], f16>
  %kp = tile.load %K_cache[%en, %tp, %full] : !tile.tensor<32x1024x128xf16, inout> -> !tile.tile<[1, tile_p, 128], f16>
  %kpt = tile.permute %kp [0, 2, 1] : !tile.tile<[1, tile_p, 128], f16> -> !tile.tile<[1, 128, tile_p], f16>
  %qk = tile.matmul %qa, %kpt : !tile.tile<[1, 16, 128], f16>, !tile.tile<[1, 128, tile_p], f16> -> !tile.tile<[1, 16, tile_p], f32>
  %ce = tile.exp %qk : !tile.tile<[1, 16, tile_p], f32>
  %sce = tile.store %ce, %C_exp[%en, %full, %tp] : !tile.tile<[1, 16, tile_p], f32>, !tile.tensor<32x16x1024xf32, intermediate>

  //   (store (tensor C_sum)
  //     (+ (rsum (load (tensor C_exp) (index (elem n) fulltile (tile p))) 2)
  //        (* 1 (load (tensor C_sum) (index (elem n) fulltile))))
  //     (index (elem n) fulltile))
  %cel = tile.load %C_exp[%en, %full, %tp] : !tile.tensor<32x16x1024xf32, intermediate> -> !tile.tile<[1, 16, tile_p], f32>
  %cer = tile.rsum %cel, 2 : !tile.tile<[1, 16, tile_p], f32> -> !tile.tile<[1, 16], f32>
  %cs = tile.load %C_sum[%en, %full] : !tile.tensor<32x16xf32, intermediate> -> !tile.tile<[1, 16], f32>
  %csm = tile.mul %one_s, %cs : !tile.tile<[1, 16], f32>
  %csn = tile.add %cer, %csm : !tile.tile<[1, 16], f32>
  %scs = tile.store %csn, %C_sum[%en, %full] : !tile.tile<[1, 16], f32>, !tile.tensor<32x16xf32, intermediate>

  //   (store (tensor O)
  //     (+ (matmul (load (tensor C_exp) (index (elem n) fulltile (tile p)))
  //                (load (input V_cache) (index (elem n) (tile p) fulltile)))
  //        (* 1 (load (tensor O) (index (elem n) fulltile fulltile))))
  //     (index (elem n) fulltile fulltile)))
  %ce16 = tile.cast %cel : !tile.tile<[1, 16, tile_p], f32> -> !tile.tile<[1, 16, tile_p], f16>
  %vp = tile.load %V_cache[%en, %tp, %full] : !tile.tensor<32x1024x128xf16, inout> -> !tile.tile<[1, tile_p, 128], f16>
  %pv = tile.matmul %ce16, %vp : !tile.tile<[1, 16, tile_p], f16>, !tile.tile<[1, tile_p, 128], f16> -> !tile.tile<[1, 16, 128], f32>
  %o = tile.load %O[%en, %full, %full] : !tile.tensor<32x16x128xf32, intermediate> -> !tile.tile<[1, 16, 128], f32>
  %om = tile.mul %one_o, %o : !tile.tile<[1, 16, 128], f32>
  %on = tile.add %pv, %om : !tile.tile<[1, 16, 128], f32>
  %so = tile.store %on, %O[%en, %full, %full] : !tile.tile<[1, 16, 128], f32>, !tile.tensor<32x16x128xf32, intermediate>

  %p9 = tile.seq %scs, %so
  %p8 = tile.seq %sce, %p9
  %p7 = tile.seq %nop, %p8
  %p6 = tile.seq %svc, %p7
  %p5 = tile.seq %skc, %p6
  %p4 = tile.seq %sv, %p5
  %p3 = tile.seq %sk, %p4
  %p2 = tile.seq %sq, %p3
  %p1 = tile.seq %nop, %p2
  %lp = tile.loop %p = 0 to 1024 step %tile_p body %p1

  // (loop 0 1024 tile_p p dummy)
  %lpe = tile.loop %p = 0 to 1024 step %tile_p body %nop

  // (store (tensor O)
  //   (/ (load (tensor O) (index (elem n) fulltile fulltile))
  //      (bcast (load (tensor C_sum) (index (elem n) fulltile)) 2))
  //   (index (elem n) fulltile fulltile))
  %csb = tile.bcast %cs [2] : !tile.tile<[1, 16], f32> -> !tile.tile<[1, 16, 128], f32>
  %od = tile.div %o, %csb : !tile.tile<[1, 16, 128], f32>
  %sod = tile.store %od, %O[%en, %full, %full] : !tile.tile<[1, 16, 128], f32>, !tile.tensor<32x16x128xf32, intermediate>

  // dummy
  // (store (output O2)
  //   (squeeze (permute3 (load (tensor O) (index (elem n) fulltile fulltile)) 1 0 2) 1)
  //   (index fulltile (tile n)))
  %op = tile.permute %o [1, 0, 2] : !tile.tile<[1, 16, 128], f32> -> !tile.tile<[16, 1, 128], f32>
  %os = tile.squeeze %op, 1 : !tile.tile<[16, 1, 128], f32> -> !tile.tile<[16, 128], f32>
  %o16 = tile.cast %os : !tile.tile<[16, 128], f32> -> !tile.tile<[16, 128], f16>
  %so2 = tile.store %o16, %O2[%full, %tn] : !tile.tile<[16, 128], f16>, !tile.tensor<16x4096xf16, output>

  %b4 = tile.seq %nop, %so2
  %b3 = tile.seq %sod, %b4
  %b2 = tile.seq %lpe, %b3
  %b1 = tile.seq %lp, %b2
  %b0 = tile.seq %lk, %b1
  %ln = tile.loop %n = 0 to 4096 step %c128 body %b0
  tile.yield %ln
}

// -----

// Figure 12: the best keyformer program on H100 (the kernel of Figure 13).
// One n-loop stepping by 128 (one head per iteration); inside it, after the
// projection, head split and cache update, five separate p-loops spill the
// logits C, C_perturb, their exps and sums to memory ("mid-kernel spill"),
// then C_out, O, the final division and O2. `(/ x 1.5)` divides by a splat
// constant; noise is cast to f32 before it is added to the f32 logits.
// As printed, the parentheses do not balance (five `)` too many; each
// `(seq (loop ...))` closes its seq after the loop); we follow the nesting
// that Figure 13 runs: n { k-loop; dummy; Q,K,V; caches; five p-loops;
// O /= C_sum; dummy; O2 = ... }.

// CHECK-LABEL: tile.program @fig12
// CHECK-SAME: %noise: !tile.tensor<32x16x1024xf16, input>
// CHECK-SAME: %C_out: !tile.tensor<32x1024xf16, output>
// CHECK:      %[[C15:.*]] = tile.constant 1.500000e+00 : !tile.tile<[1, 16, tile_p], f32>
// CHECK:      %[[LK:.*]] = tile.loop %k = 0 to 4096 step %tile_k body
// Five p-loops in sequence ("mid-kernel spill"): C; C_perturb and the exps;
// the sums; C_out; O.
// CHECK:      %[[SC:.*]] = tile.store %{{.*}}, %C[
// CHECK-NEXT: %[[LP1:.*]] = tile.loop %p = 0 to 1024 step %tile_p body %[[SC]]
// CHECK:      %[[CP:.*]] = tile.div %{{.*}}, %[[C15]]
// CHECK-NEXT: tile.store %[[CP]], %C_perturb[
// CHECK:      %[[LP2:.*]] = tile.loop %p = 0 to 1024 step %tile_p body
// CHECK:      %[[LP3:.*]] = tile.loop %p = 0 to 1024 step %tile_p body
// CHECK:      tile.rsum %{{.*}}, 1 : !tile.tile<[1, 16, tile_p], f32> -> !tile.tile<[1, tile_p], f32>
// CHECK:      %[[SCO:.*]] = tile.store %{{.*}}, %C_out[
// CHECK:      %[[LP4:.*]] = tile.loop %p = 0 to 1024 step %tile_p body
// CHECK:      %[[LP5:.*]] = tile.loop %p = 0 to 1024 step %tile_p body
// CHECK:      tile.seq %[[LP5]], %{{.*}}
// CHECK-NEXT: tile.seq %[[LP4]], %{{.*}}
// CHECK-NEXT: tile.seq %[[LP3]], %{{.*}}
// CHECK-NEXT: tile.seq %[[LP2]], %{{.*}}
// CHECK-NEXT: tile.seq %[[LP1]], %{{.*}}
// CHECK:      %[[B0:.*]] = tile.seq %[[LK]], %{{.*}}
// CHECK-NEXT: %[[LN:.*]] = tile.loop %n = 0 to 4096 step %c128 body %[[B0]]
// CHECK-NEXT: tile.yield %[[LN]]
tile.program @fig12(
    %X: !tile.tensor<16x4096xf16, input>,
    %WQ: !tile.tensor<4096x4096xf16, input>,
    %WK: !tile.tensor<4096x4096xf16, input>,
    %WV: !tile.tensor<4096x4096xf16, input>,
    %K_cache: !tile.tensor<32x1024x128xf16, inout>,
    %V_cache: !tile.tensor<32x1024x128xf16, inout>,
    %noise: !tile.tensor<32x16x1024xf16, input>,
    %O2: !tile.tensor<16x4096xf16, output>,
    %C_out: !tile.tensor<32x1024xf16, output>,
    %Q1: !tile.tensor<16x4096xf32, intermediate>,
    %K1: !tile.tensor<16x4096xf32, intermediate>,
    %V1: !tile.tensor<16x4096xf32, intermediate>,
    %Q: !tile.tensor<32x16x128xf16, intermediate>,
    %K: !tile.tensor<32x16x128xf16, intermediate>,
    %V: !tile.tensor<32x16x128xf16, intermediate>,
    %C: !tile.tensor<32x16x1024xf32, intermediate>,
    %C_perturb: !tile.tensor<32x16x1024xf32, intermediate>,
    %C_exp: !tile.tensor<32x16x1024xf32, intermediate>,
    %C_exp_perturb: !tile.tensor<32x16x1024xf32, intermediate>,
    %C_sum: !tile.tensor<32x16xf32, intermediate>,
    %C_sum_perturb: !tile.tensor<32x16xf32, intermediate>,
    %O: !tile.tensor<32x16x128xf32, intermediate>) {
  %n = tile.var "n"
  %k = tile.var "k"
  %p = tile.var "p"
  %tile_k = tile.size "tile_k"
  %tile_p = tile.size "tile_p"
  %c128 = tile.size 128
  %full = tile.full
  %tn = tile.tile %n
  %en = tile.elem %n
  %tk = tile.tile %k
  %tp = tile.tile %p
  %new = tile.const_tile 1008, 16
  %nop = tile.nop
  %one_n = tile.constant 1.0 : !tile.tile<[16, 128], f32>
  %one_s = tile.constant 1.0 : !tile.tile<[1, 16], f32>
  %one_o = tile.constant 1.0 : !tile.tile<[1, 16, 128], f32>
  %c1_5 = tile.constant 1.5 : !tile.tile<[1, 16, tile_p], f32>

  // (loop 0 4096 128 n (seq
  //   (loop 0 4096 tile_k k (store (tensor Q1,K1,V1)
  //     (+ (matmul (load (input X) (index fulltile (tile k)))
  //                (load (input WQ,WK,WV) (index (tile k) (tile n))))
  //        (* 1 (load (tensor Q1,K1,V1) (index fulltile (tile n)))))
  //     (index fulltile (tile n))))
  %x = tile.load %X[%full, %tk] : !tile.tensor<16x4096xf16, input> -> !tile.tile<[16, tile_k], f16>
  %wq = tile.load %WQ[%tk, %tn] : !tile.tensor<4096x4096xf16, input> -> !tile.tile<[tile_k, 128], f16>
  %xq = tile.matmul %x, %wq : !tile.tile<[16, tile_k], f16>, !tile.tile<[tile_k, 128], f16> -> !tile.tile<[16, 128], f32>
  %q1 = tile.load %Q1[%full, %tn] : !tile.tensor<16x4096xf32, intermediate> -> !tile.tile<[16, 128], f32>
  %q1m = tile.mul %one_n, %q1 : !tile.tile<[16, 128], f32>
  %q1n = tile.add %xq, %q1m : !tile.tile<[16, 128], f32>
  %sq1 = tile.store %q1n, %Q1[%full, %tn] : !tile.tile<[16, 128], f32>, !tile.tensor<16x4096xf32, intermediate>
  %wk = tile.load %WK[%tk, %tn] : !tile.tensor<4096x4096xf16, input> -> !tile.tile<[tile_k, 128], f16>
  %xk = tile.matmul %x, %wk : !tile.tile<[16, tile_k], f16>, !tile.tile<[tile_k, 128], f16> -> !tile.tile<[16, 128], f32>
  %k1 = tile.load %K1[%full, %tn] : !tile.tensor<16x4096xf32, intermediate> -> !tile.tile<[16, 128], f32>
  %k1m = tile.mul %one_n, %k1 : !tile.tile<[16, 128], f32>
  %k1n = tile.add %xk, %k1m : !tile.tile<[16, 128], f32>
  %sk1 = tile.store %k1n, %K1[%full, %tn] : !tile.tile<[16, 128], f32>, !tile.tensor<16x4096xf32, intermediate>
  %wv = tile.load %WV[%tk, %tn] : !tile.tensor<4096x4096xf16, input> -> !tile.tile<[tile_k, 128], f16>
  %xv = tile.matmul %x, %wv : !tile.tile<[16, tile_k], f16>, !tile.tile<[tile_k, 128], f16> -> !tile.tile<[16, 128], f32>
  %v1 = tile.load %V1[%full, %tn] : !tile.tensor<16x4096xf32, intermediate> -> !tile.tile<[16, 128], f32>
  %v1m = tile.mul %one_n, %v1 : !tile.tile<[16, 128], f32>
  %v1n = tile.add %xv, %v1m : !tile.tile<[16, 128], f32>
  %sv1 = tile.store %v1n, %V1[%full, %tn] : !tile.tile<[16, 128], f32>, !tile.tensor<16x4096xf32, intermediate>
  %proj1 = tile.seq %sk1, %sv1
  %proj = tile.seq %sq1, %proj1
  %lk = tile.loop %k = 0 to 4096 step %tile_k body %proj

  //   (seq dummy (seq (store (tensor Q,K,V)
  //     (permute3 (unsqueeze (load (tensor Q1,K1,V1) (index fulltile (tile n))) 1) 1 0 2)
  //     (index (elem n) fulltile fulltile))
  %q116 = tile.cast %q1 : !tile.tile<[16, 128], f32> -> !tile.tile<[16, 128], f16>
  %q1u = tile.unsqueeze %q116, 1 : !tile.tile<[16, 128], f16> -> !tile.tile<[16, 1, 128], f16>
  %qn = tile.permute %q1u [1, 0, 2] : !tile.tile<[16, 1, 128], f16> -> !tile.tile<[1, 16, 128], f16>
  %sq = tile.store %qn, %Q[%en, %full, %full] : !tile.tile<[1, 16, 128], f16>, !tile.tensor<32x16x128xf16, intermediate>
  %k116 = tile.cast %k1 : !tile.tile<[16, 128], f32> -> !tile.tile<[16, 128], f16>
  %k1u = tile.unsqueeze %k116, 1 : !tile.tile<[16, 128], f16> -> !tile.tile<[16, 1, 128], f16>
  %kn = tile.permute %k1u [1, 0, 2] : !tile.tile<[16, 1, 128], f16> -> !tile.tile<[1, 16, 128], f16>
  %sk = tile.store %kn, %K[%en, %full, %full] : !tile.tile<[1, 16, 128], f16>, !tile.tensor<32x16x128xf16, intermediate>
  %v116 = tile.cast %v1 : !tile.tile<[16, 128], f32> -> !tile.tile<[16, 128], f16>
  %v1u = tile.unsqueeze %v116, 1 : !tile.tile<[16, 128], f16> -> !tile.tile<[16, 1, 128], f16>
  %vn = tile.permute %v1u [1, 0, 2] : !tile.tile<[16, 1, 128], f16> -> !tile.tile<[1, 16, 128], f16>
  %sv = tile.store %vn, %V[%en, %full, %full] : !tile.tile<[1, 16, 128], f16>, !tile.tensor<32x16x128xf16, intermediate>

  //   (seq (store (input K_cache,V_cache)
  //     (load (tensor K,V) (index (elem n) fulltile fulltile))
  //     (index (elem n) (const_tile 1008 16) fulltile))
  %kh = tile.load %K[%en, %full, %full] : !tile.tensor<32x16x128xf16, intermediate> -> !tile.tile<[1, 16, 128], f16>
  %skc = tile.store %kh, %K_cache[%en, %new, %full] : !tile.tile<[1, 16, 128], f16>, !tile.tensor<32x1024x128xf16, inout>
  %vh = tile.load %V[%en, %full, %full] : !tile.tensor<32x16x128xf16, intermediate> -> !tile.tile<[1, 16, 128], f16>
  %svc = tile.store %vh, %V_cache[%en, %new, %full] : !tile.tile<[1, 16, 128], f16>, !tile.tensor<32x1024x128xf16, inout>

  //   (seq (loop 0 1024 tile_p p (store (tensor C)
  //     (matmul (load (tensor Q) (index (elem n) fulltile fulltile))
  //             (permute3 (load (input K_cache) (index (elem n) (tile p) fulltile)) 0 2 1))
  //     (index (elem n) fulltile (tile p))))
  %qa = tile.load %Q[%en, %full, %full] : !tile.tensor<32x16x128xf16, intermediate> -> !tile.tile<[1, 16, 128], f16>
  %kp = tile.load %K_cache[%en, %tp, %full] : !tile.tensor<32x1024x128xf16, inout> -> !tile.tile<[1, tile_p, 128], f16>
  %kpt = tile.permute %kp [0, 2, 1] : !tile.tile<[1, tile_p, 128], f16> -> !tile.tile<[1, 128, tile_p], f16>
  %qk = tile.matmul %qa, %kpt : !tile.tile<[1, 16, 128], f16>, !tile.tile<[1, 128, tile_p], f16> -> !tile.tile<[1, 16, tile_p], f32>
  %sc = tile.store %qk, %C[%en, %full, %tp] : !tile.tile<[1, 16, tile_p], f32>, !tile.tensor<32x16x1024xf32, intermediate>
  %lp1 = tile.loop %p = 0 to 1024 step %tile_p body %sc

  //   (seq (loop 0 1024 tile_p p (seq
  //     (store (tensor C_perturb)
  //       (/ (+ (load (tensor C) (index (elem n) fulltile (tile p)))
  //             (load (input noise) (index (elem n) fulltile (tile p)))) 1.5)
  //       (index (elem n) fulltile (tile p)))
  //     (store (tensor C_exp,C_exp_perturb)
  //       (exp (load (tensor C,C_perturb) (index (elem n) fulltile (tile p))))
  //       (index (elem n) fulltile (tile p)))))
  %cl = tile.load %C[%en, %full, %tp] : !tile.tensor<32x16x1024xf32, intermediate> -> !tile.tile<[1, 16, tile_p], f32>
  %nz = tile.load %noise[%en, %full, %tp] : !tile.tensor<32x16x1024xf16, input> -> !tile.tile<[1, 16, tile_p], f16>
  %nz32 = tile.cast %nz : !tile.tile<[1, 16, tile_p], f16> -> !tile.tile<[1, 16, tile_p], f32>
  %cpn = tile.add %cl, %nz32 : !tile.tile<[1, 16, tile_p], f32>
  %cp = tile.div %cpn, %c1_5 : !tile.tile<[1, 16, tile_p], f32>
  %scp = tile.store %cp, %C_perturb[%en, %full, %tp] : !tile.tile<[1, 16, tile_p], f32>, !tile.tensor<32x16x1024xf32, intermediate>
  %ce = tile.exp %cl : !tile.tile<[1, 16, tile_p], f32>
  %sce = tile.store %ce, %C_exp[%en, %full, %tp] : !tile.tile<[1, 16, tile_p], f32>, !tile.tensor<32x16x1024xf32, intermediate>
  %cpl = tile.load %C_perturb[%en, %full, %tp] : !tile.tensor<32x16x1024xf32, intermediate> -> !tile.tile<[1, 16, tile_p], f32>
  %cep = tile.exp %cpl : !tile.tile<[1, 16, tile_p], f32>
  %scep = tile.store %cep, %C_exp_perturb[%en, %full, %tp] : !tile.tile<[1, 16, tile_p], f32>, !tile.tensor<32x16x1024xf32, intermediate>
  %e1 = tile.seq %sce, %scep
  %e0 = tile.seq %scp, %e1
  %lp2 = tile.loop %p = 0 to 1024 step %tile_p body %e0

  //   (seq (loop 0 1024 tile_p p (store (tensor C_sum,C_sum_perturb)
  //     (+ (rsum (load (tensor C_exp,C_exp_perturb) (index (elem n) fulltile (tile p))) 2)
  //        (* 1 (load (tensor C_sum,C_sum_perturb) (index (elem n) fulltile))))
  //     (index (elem n) fulltile)))
  %cel = tile.load %C_exp[%en, %full, %tp] : !tile.tensor<32x16x1024xf32, intermediate> -> !tile.tile<[1, 16, tile_p], f32>
  %cepl = tile.load %C_exp_perturb[%en, %full, %tp] : !tile.tensor<32x16x1024xf32, intermediate> -> !tile.tile<[1, 16, tile_p], f32>
  %cs = tile.load %C_sum[%en, %full] : !tile.tensor<32x16xf32, intermediate> -> !tile.tile<[1, 16], f32>
  %csp = tile.load %C_sum_perturb[%en, %full] : !tile.tensor<32x16xf32, intermediate> -> !tile.tile<[1, 16], f32>
  %csr = tile.rsum %cel, 2 : !tile.tile<[1, 16, tile_p], f32> -> !tile.tile<[1, 16], f32>
  %csm = tile.mul %one_s, %cs : !tile.tile<[1, 16], f32>
  %csn = tile.add %csr, %csm : !tile.tile<[1, 16], f32>
  %scs = tile.store %csn, %C_sum[%en, %full] : !tile.tile<[1, 16], f32>, !tile.tensor<32x16xf32, intermediate>
  %cspr = tile.rsum %cepl, 2 : !tile.tile<[1, 16, tile_p], f32> -> !tile.tile<[1, 16], f32>
  %cspm = tile.mul %one_s, %csp : !tile.tile<[1, 16], f32>
  %cspn = tile.add %cspr, %cspm : !tile.tile<[1, 16], f32>
  %scsp = tile.store %cspn, %C_sum_perturb[%en, %full] : !tile.tile<[1, 16], f32>, !tile.tensor<32x16xf32, intermediate>
  %s0 = tile.seq %scs, %scsp
  %lp3 = tile.loop %p = 0 to 1024 step %tile_p body %s0

  //   (seq (loop 0 1024 tile_p p (seq dummy (seq dummy (store (output C_out)
  //     (rsum (/ (load (tensor C_exp_perturb) (index (elem n) fulltile (tile p)))
  //              (bcast (load (tensor C_sum_perturb) (index (elem n) fulltile)) 2)) 1)
  //     (index (elem n) (tile p))))))
  %cspb = tile.bcast %csp [2] : !tile.tile<[1, 16], f32> -> !tile.tile<[1, 16, tile_p], f32>
  %cepd = tile.div %cepl, %cspb : !tile.tile<[1, 16, tile_p], f32>
  %cor = tile.rsum %cepd, 1 : !tile.tile<[1, 16, tile_p], f32> -> !tile.tile<[1, tile_p], f32>
  %co16 = tile.cast %cor : !tile.tile<[1, tile_p], f32> -> !tile.tile<[1, tile_p], f16>
  %sco = tile.store %co16, %C_out[%en, %tp] : !tile.tile<[1, tile_p], f16>, !tile.tensor<32x1024xf16, output>
  %co1 = tile.seq %nop, %sco
  %co0 = tile.seq %nop, %co1
  %lp4 = tile.loop %p = 0 to 1024 step %tile_p body %co0

  //   (seq (loop 0 1024 tile_p p (store (tensor O)
  //     (+ (matmul (load (tensor C_exp) (index (elem n) fulltile (tile p)))
  //                (load (input V_cache) (index (elem n) (tile p) fulltile)))
  //        (* 1 (load (tensor O) (index (elem n) fulltile fulltile))))
  //     (index (elem n) fulltile fulltile)))
  %ce16 = tile.cast %cel : !tile.tile<[1, 16, tile_p], f32> -> !tile.tile<[1, 16, tile_p], f16>
  %vp = tile.load %V_cache[%en, %tp, %full] : !tile.tensor<32x1024x128xf16, inout> -> !tile.tile<[1, tile_p, 128], f16>
  %pv = tile.matmul %ce16, %vp : !tile.tile<[1, 16, tile_p], f16>, !tile.tile<[1, tile_p, 128], f16> -> !tile.tile<[1, 16, 128], f32>
  %o = tile.load %O[%en, %full, %full] : !tile.tensor<32x16x128xf32, intermediate> -> !tile.tile<[1, 16, 128], f32>
  %om = tile.mul %one_o, %o : !tile.tile<[1, 16, 128], f32>
  %on = tile.add %pv, %om : !tile.tile<[1, 16, 128], f32>
  %so = tile.store %on, %O[%en, %full, %full] : !tile.tile<[1, 16, 128], f32>, !tile.tensor<32x16x128xf32, intermediate>
  %lp5 = tile.loop %p = 0 to 1024 step %tile_p body %so

  //   (seq (store (tensor O)
  //     (/ (load (tensor O) (index (elem n) fulltile fulltile))
  //        (bcast (load (tensor C_sum) (index (elem n) fulltile)) 2))
  //     (index (elem n) fulltile fulltile))
  //   (seq dummy (store (output O2)
  //     (squeeze (permute3 (load (tensor O) (index (elem n) fulltile fulltile)) 1 0 2) 1)
  //     (index fulltile (tile n))))
  %csb = tile.bcast %cs [2] : !tile.tile<[1, 16], f32> -> !tile.tile<[1, 16, 128], f32>
  %od = tile.div %o, %csb : !tile.tile<[1, 16, 128], f32>
  %sod = tile.store %od, %O[%en, %full, %full] : !tile.tile<[1, 16, 128], f32>, !tile.tensor<32x16x128xf32, intermediate>
  %op = tile.permute %o [1, 0, 2] : !tile.tile<[1, 16, 128], f32> -> !tile.tile<[16, 1, 128], f32>
  %os = tile.squeeze %op, 1 : !tile.tile<[16, 1, 128], f32> -> !tile.tile<[16, 128], f32>
  %o16 = tile.cast %os : !tile.tile<[16, 128], f32> -> !tile.tile<[16, 128], f16>
  %so2 = tile.store %o16, %O2[%full, %tn] : !tile.tile<[16, 128], f16>, !tile.tensor<16x4096xf16, output>

  %b13 = tile.seq %nop, %so2
  %b12 = tile.seq %sod, %b13
  %b11 = tile.seq %lp5, %b12
  %b10 = tile.seq %lp4, %b11
  %b9 = tile.seq %lp3, %b10
  %b8 = tile.seq %lp2, %b9
  %b7 = tile.seq %lp1, %b8
  %b6 = tile.seq %svc, %b7
  %b5 = tile.seq %skc, %b6
  %b4 = tile.seq %sv, %b5
  %b3 = tile.seq %sk, %b4
  %b2 = tile.seq %sq, %b3
  %b1 = tile.seq %nop, %b2
  %b0 = tile.seq %lk, %b1
  %ln = tile.loop %n = 0 to 4096 step %c128 body %b0
  tile.yield %ln
}

// -----

// Figure 14: the best keyformer program on RTX 4090 (the kernel of Figure 15).
// Everything but C_out happens in one p-loop inside the n-loop (logits kept
// on chip); C_out gets a second p-loop. Figure 14 recomputes the QK^T matmul
// for C_perturb and exp(C), exp(C_perturb) for the sums; these are the same
// terms as the values stored to C, C_exp and C_exp_perturb and are shared.
// The figure's n-loop steps by 64 ("smaller tiles (64)", section 6.3), but
// with d=128 a 64-column tile is half a head: Q,K,V[elem n] would reach head
// 63 of 32 and store [1, 16, 64] into a [1, 16, 128] head (the verifier
// rejects both); at llama sizes we step n by d=128, as in Figures 10 and 12.
// As printed, the parentheses do not balance (five `)` too many): the
// k-loop's `(index fulltile (tile n))` falls outside its store (one `)` too
// many after the matmul) and the first p-loop closes its seq early. We read
// n { k-loop; p-loop; (loop p dummy); C_out p-loop; O /= C_sum; dummy; O2 },
// with the p-loop after the k-loop as the IR has it (Figure 15 indents it
// inside the k-loop, which would run attention on partial Q1/K1/V1 sums).

// CHECK-LABEL: tile.program @fig14
// CHECK:      %[[NOP:.*]] = tile.nop
// CHECK:      %[[LK:.*]] = tile.loop %k = 0 to 4096 step %tile_k body
// CHECK:      %[[SQ:.*]] = tile.store %{{.*}}, %Q[
// One p-loop: C_perturb reuses the QK^T matmul stored to C ...
// CHECK:      %[[QK:.*]] = tile.matmul %{{.*}}, %{{.*}} : !tile.tile<[1, 16, 128], f16>, !tile.tile<[1, 128, tile_p], f16> -> !tile.tile<[1, 16, tile_p], f32>
// CHECK-NEXT: tile.store %[[QK]], %C[
// CHECK:      %[[CPN:.*]] = tile.add %[[QK]], %{{.*}}
// CHECK-NEXT: %[[CP:.*]] = tile.div %[[CPN]], %{{.*}}
// CHECK-NEXT: tile.store %[[CP]], %C_perturb[
// ... and the sums reuse the exps stored to C_exp, C_exp_perturb.
// CHECK:      %[[CE:.*]] = tile.exp
// CHECK-NEXT: tile.store %[[CE]], %C_exp[
// CHECK:      %[[CEP:.*]] = tile.exp
// CHECK-NEXT: tile.store %[[CEP]], %C_exp_perturb[
// CHECK:      tile.rsum %[[CE]], 2
// CHECK:      tile.rsum %[[CEP]], 2
// CHECK:      %[[SO:.*]] = tile.store %{{.*}}, %O[
// CHECK-NEXT: tile.seq %{{.*}}, %[[SO]]
// CHECK:      %[[P1:.*]] = tile.seq %[[SQ]], %{{.*}}
// CHECK-NEXT: %[[P0:.*]] = tile.seq %[[NOP]], %[[P1]]
// CHECK-NEXT: %[[LP:.*]] = tile.loop %p = 0 to 1024 step %tile_p body %[[P0]]
// CHECK-NEXT: %[[LPE:.*]] = tile.loop %p = 0 to 1024 step %tile_p body %[[NOP]]
// A second p-loop for C_out.
// CHECK:      %[[SCO:.*]] = tile.store %{{.*}}, %C_out[
// CHECK-NEXT: %[[CO0:.*]] = tile.seq %[[NOP]], %[[SCO]]
// CHECK-NEXT: %[[LPC:.*]] = tile.loop %p = 0 to 1024 step %tile_p body %[[CO0]]
// CHECK:      tile.seq %[[LPC]], %{{.*}}
// CHECK-NEXT: tile.seq %[[LPE]], %{{.*}}
// CHECK-NEXT: %[[B1:.*]] = tile.seq %[[LP]], %{{.*}}
// CHECK-NEXT: %[[B0:.*]] = tile.seq %[[LK]], %[[B1]]
// CHECK-NEXT: %[[LN:.*]] = tile.loop %n = 0 to 4096 step %c128 body %[[B0]]
// CHECK-NEXT: tile.yield %[[LN]]
tile.program @fig14(
    %X: !tile.tensor<16x4096xf16, input>,
    %WQ: !tile.tensor<4096x4096xf16, input>,
    %WK: !tile.tensor<4096x4096xf16, input>,
    %WV: !tile.tensor<4096x4096xf16, input>,
    %K_cache: !tile.tensor<32x1024x128xf16, inout>,
    %V_cache: !tile.tensor<32x1024x128xf16, inout>,
    %noise: !tile.tensor<32x16x1024xf16, input>,
    %O2: !tile.tensor<16x4096xf16, output>,
    %C_out: !tile.tensor<32x1024xf16, output>,
    %Q1: !tile.tensor<16x4096xf32, intermediate>,
    %K1: !tile.tensor<16x4096xf32, intermediate>,
    %V1: !tile.tensor<16x4096xf32, intermediate>,
    %Q: !tile.tensor<32x16x128xf16, intermediate>,
    %K: !tile.tensor<32x16x128xf16, intermediate>,
    %V: !tile.tensor<32x16x128xf16, intermediate>,
    %C: !tile.tensor<32x16x1024xf32, intermediate>,
    %C_perturb: !tile.tensor<32x16x1024xf32, intermediate>,
    %C_exp: !tile.tensor<32x16x1024xf32, intermediate>,
    %C_exp_perturb: !tile.tensor<32x16x1024xf32, intermediate>,
    %C_sum: !tile.tensor<32x16xf32, intermediate>,
    %C_sum_perturb: !tile.tensor<32x16xf32, intermediate>,
    %O: !tile.tensor<32x16x128xf32, intermediate>) {
  %n = tile.var "n"
  %k = tile.var "k"
  %p = tile.var "p"
  %tile_k = tile.size "tile_k"
  %tile_p = tile.size "tile_p"
  %c128 = tile.size 128
  %full = tile.full
  %tn = tile.tile %n
  %en = tile.elem %n
  %tk = tile.tile %k
  %tp = tile.tile %p
  %new = tile.const_tile 1008, 16
  %nop = tile.nop
  %one_n = tile.constant 1.0 : !tile.tile<[16, 128], f32>
  %one_s = tile.constant 1.0 : !tile.tile<[1, 16], f32>
  %one_o = tile.constant 1.0 : !tile.tile<[1, 16, 128], f32>
  %c1_5 = tile.constant 1.5 : !tile.tile<[1, 16, tile_p], f32>

  // (loop 0 4096 128 n (seq
  //   (loop 0 4096 tile_k k (store (tensor Q1,K1,V1)
  //     (+ (* (load (tensor Q1,K1,V1) (index fulltile (tile n))) 1)
  //        (matmul (load (input X) (index fulltile (tile k)))
  //                (load (input WQ,WK,WV) (index (tile k) (tile n)))))
  //     (index fulltile (tile n))))
  %x = tile.load %X[%full, %tk] : !tile.tensor<16x4096xf16, input> -> !tile.tile<[16, tile_k], f16>
  %wq = tile.load %WQ[%tk, %tn] : !tile.tensor<4096x4096xf16, input> -> !tile.tile<[tile_k, 128], f16>
  %xq = tile.matmul %x, %wq : !tile.tile<[16, tile_k], f16>, !tile.tile<[tile_k, 128], f16> -> !tile.tile<[16, 128], f32>
  %q1 = tile.load %Q1[%full, %tn] : !tile.tensor<16x4096xf32, intermediate> -> !tile.tile<[16, 128], f32>
  %q1m = tile.mul %q1, %one_n : !tile.tile<[16, 128], f32>
  %q1n = tile.add %q1m, %xq : !tile.tile<[16, 128], f32>
  %sq1 = tile.store %q1n, %Q1[%full, %tn] : !tile.tile<[16, 128], f32>, !tile.tensor<16x4096xf32, intermediate>
  %wk = tile.load %WK[%tk, %tn] : !tile.tensor<4096x4096xf16, input> -> !tile.tile<[tile_k, 128], f16>
  %xk = tile.matmul %x, %wk : !tile.tile<[16, tile_k], f16>, !tile.tile<[tile_k, 128], f16> -> !tile.tile<[16, 128], f32>
  %k1 = tile.load %K1[%full, %tn] : !tile.tensor<16x4096xf32, intermediate> -> !tile.tile<[16, 128], f32>
  %k1m = tile.mul %k1, %one_n : !tile.tile<[16, 128], f32>
  %k1n = tile.add %k1m, %xk : !tile.tile<[16, 128], f32>
  %sk1 = tile.store %k1n, %K1[%full, %tn] : !tile.tile<[16, 128], f32>, !tile.tensor<16x4096xf32, intermediate>
  %wv = tile.load %WV[%tk, %tn] : !tile.tensor<4096x4096xf16, input> -> !tile.tile<[tile_k, 128], f16>
  %xv = tile.matmul %x, %wv : !tile.tile<[16, tile_k], f16>, !tile.tile<[tile_k, 128], f16> -> !tile.tile<[16, 128], f32>
  %v1 = tile.load %V1[%full, %tn] : !tile.tensor<16x4096xf32, intermediate> -> !tile.tile<[16, 128], f32>
  %v1m = tile.mul %v1, %one_n : !tile.tile<[16, 128], f32>
  %v1n = tile.add %v1m, %xv : !tile.tile<[16, 128], f32>
  %sv1 = tile.store %v1n, %V1[%full, %tn] : !tile.tile<[16, 128], f32>, !tile.tensor<16x4096xf32, intermediate>
  %proj1 = tile.seq %sk1, %sv1
  %proj = tile.seq %sq1, %proj1
  %lk = tile.loop %k = 0 to 4096 step %tile_k body %proj

  //   (seq (loop 0 1024 tile_p p (seq dummy
  //     (seq (store (tensor Q,K,V)
  //       (permute3 (unsqueeze (load (tensor Q1,K1,V1) (index fulltile (tile n))) 1) 1 0 2)
  //       (index (elem n) fulltile fulltile))
  %q116 = tile.cast %q1 : !tile.tile<[16, 128], f32> -> !tile.tile<[16, 128], f16>
  %q1u = tile.unsqueeze %q116, 1 : !tile.tile<[16, 128], f16> -> !tile.tile<[16, 1, 128], f16>
  %qn = tile.permute %q1u [1, 0, 2] : !tile.tile<[16, 1, 128], f16> -> !tile.tile<[1, 16, 128], f16>
  %sq = tile.store %qn, %Q[%en, %full, %full] : !tile.tile<[1, 16, 128], f16>, !tile.tensor<32x16x128xf16, intermediate>
  %k116 = tile.cast %k1 : !tile.tile<[16, 128], f32> -> !tile.tile<[16, 128], f16>
  %k1u = tile.unsqueeze %k116, 1 : !tile.tile<[16, 128], f16> -> !tile.tile<[16, 1, 128], f16>
  %kn = tile.permute %k1u [1, 0, 2] : !tile.tile<[16, 1, 128], f16> -> !tile.tile<[1, 16, 128], f16>
  %sk = tile.store %kn, %K[%en, %full, %full] : !tile.tile<[1, 16, 128], f16>, !tile.tensor<32x16x128xf16, intermediate>
  %v116 = tile.cast %v1 : !tile.tile<[16, 128], f32> -> !tile.tile<[16, 128], f16>
  %v1u = tile.unsqueeze %v116, 1 : !tile.tile<[16, 128], f16> -> !tile.tile<[16, 1, 128], f16>
  %vn = tile.permute %v1u [1, 0, 2] : !tile.tile<[16, 1, 128], f16> -> !tile.tile<[1, 16, 128], f16>
  %sv = tile.store %vn, %V[%en, %full, %full] : !tile.tile<[1, 16, 128], f16>, !tile.tensor<32x16x128xf16, intermediate>

  //     (seq (store (input K_cache,V_cache)
  //       (load (tensor K,V) (index (elem n) fulltile fulltile))
  //       (index (elem n) (const_tile 1008 16) fulltile))
  %kh = tile.load %K[%en, %full, %full] : !tile.tensor<32x16x128xf16, intermediate> -> !tile.tile<[1, 16, 128], f16>
  %skc = tile.store %kh, %K_cache[%en, %new, %full] : !tile.tile<[1, 16, 128], f16>, !tile.tensor<32x1024x128xf16, inout>
  %vh = tile.load %V[%en, %full, %full] : !tile.tensor<32x16x128xf16, intermediate> -> !tile.tile<[1, 16, 128], f16>
  %svc = tile.store %vh, %V_cache[%en, %new, %full] : !tile.tile<[1, 16, 128], f16>, !tile.tensor<32x1024x128xf16, inout>

  //     (seq (store (tensor C)
  //       (matmul (load (tensor Q) (index (elem n) fulltile fulltile))
  //               (permute3 (load (input K_cache) (index (elem n) (tile p) fulltile)) 0 2 1))
  //       (index (elem n) fulltile (tile p)))
  %qa = tile.load %Q[%en, %full, %full] : !tile.tensor<32x16x128xf16, intermediate> -> !tile.tile<[1, 16, 128], f16>
  %kp = tile.load %K_cache[%en, %tp, %full] : !tile.tensor<32x1024x128xf16, inout> -> !tile.tile<[1, tile_p, 128], f16>
  %kpt = tile.permute %kp [0, 2, 1] : !tile.tile<[1, tile_p, 128], f16> -> !tile.tile<[1, 128, tile_p], f16>
  %qk = tile.matmul %qa, %kpt : !tile.tile<[1, 16, 128], f16>, !tile.tile<[1, 128, tile_p], f16> -> !tile.tile<[1, 16, tile_p], f32>
  %sc = tile.store %qk, %C[%en, %full, %tp] : !tile.tile<[1, 16, tile_p], f32>, !tile.tensor<32x16x1024xf32, intermediate>

  //     (seq (store (tensor C_perturb)
  //       (/ (+ (matmul (load (tensor Q) ...) (permute3 (load (input K_cache) ...) 0 2 1))
  //             (load (input noise) (index (elem n) fulltile (tile p)))) 1.5)
  //       (index (elem n) fulltile (tile p)))
  %nz = tile.load %noise[%en, %full, %tp] : !tile.tensor<32x16x1024xf16, input> -> !tile.tile<[1, 16, tile_p], f16>
  %nz32 = tile.cast %nz : !tile.tile<[1, 16, tile_p], f16> -> !tile.tile<[1, 16, tile_p], f32>
  %cpn = tile.add %qk, %nz32 : !tile.tile<[1, 16, tile_p], f32>
  %cp = tile.div %cpn, %c1_5 : !tile.tile<[1, 16, tile_p], f32>
  %scp = tile.store %cp, %C_perturb[%en, %full, %tp] : !tile.tile<[1, 16, tile_p], f32>, !tile.tensor<32x16x1024xf32, intermediate>

  //     (seq (store (tensor C_exp,C_exp_perturb)
  //       (exp (load (tensor C,C_perturb) (index (elem n) fulltile (tile p))))
  //       (index (elem n) fulltile (tile p)))
  %cl = tile.load %C[%en, %full, %tp] : !tile.tensor<32x16x1024xf32, intermediate> -> !tile.tile<[1, 16, tile_p], f32>
  %ce = tile.exp %cl : !tile.tile<[1, 16, tile_p], f32>
  %sce = tile.store %ce, %C_exp[%en, %full, %tp] : !tile.tile<[1, 16, tile_p], f32>, !tile.tensor<32x16x1024xf32, intermediate>
  %cpl = tile.load %C_perturb[%en, %full, %tp] : !tile.tensor<32x16x1024xf32, intermediate> -> !tile.tile<[1, 16, tile_p], f32>
  %cep = tile.exp %cpl : !tile.tile<[1, 16, tile_p], f32>
  %scep = tile.store %cep, %C_exp_perturb[%en, %full, %tp] : !tile.tile<[1, 16, tile_p], f32>, !tile.tensor<32x16x1024xf32, intermediate>

  //     (seq (store (tensor C_sum,C_sum_perturb)
  //       (+ (* 1 (load (tensor C_sum,C_sum_perturb) (index (elem n) fulltile)))
  //          (rsum (exp (load (tensor C,C_perturb) (index (elem n) fulltile (tile p)))) 2))
  //       (index (elem n) fulltile))
  %cs = tile.load %C_sum[%en, %full] : !tile.tensor<32x16xf32, intermediate> -> !tile.tile<[1, 16], f32>
  %csp = tile.load %C_sum_perturb[%en, %full] : !tile.tensor<32x16xf32, intermediate> -> !tile.tile<[1, 16], f32>
  %csr = tile.rsum %ce, 2 : !tile.tile<[1, 16, tile_p], f32> -> !tile.tile<[1, 16], f32>
  %csm = tile.mul %one_s, %cs : !tile.tile<[1, 16], f32>
  %csn = tile.add %csm, %csr : !tile.tile<[1, 16], f32>
  %scs = tile.store %csn, %C_sum[%en, %full] : !tile.tile<[1, 16], f32>, !tile.tensor<32x16xf32, intermediate>
  %cspr = tile.rsum %cep, 2 : !tile.tile<[1, 16, tile_p], f32> -> !tile.tile<[1, 16], f32>
  %cspm = tile.mul %one_s, %csp : !tile.tile<[1, 16], f32>
  %cspn = tile.add %cspm, %cspr : !tile.tile<[1, 16], f32>
  %scsp = tile.store %cspn, %C_sum_perturb[%en, %full] : !tile.tile<[1, 16], f32>, !tile.tensor<32x16xf32, intermediate>

  //     (store (tensor O)
  //       (+ (* (load (tensor O) (index (elem n) fulltile fulltile)) 1)
  //          (matmul (load (tensor C_exp) (index (elem n) fulltile (tile p)))
  //                  (load (input V_cache) (index (elem n) (tile p) fulltile))))
  //       (index (elem n) fulltile fulltile))))))))))
  %cel = tile.load %C_exp[%en, %full, %tp] : !tile.tensor<32x16x1024xf32, intermediate> -> !tile.tile<[1, 16, tile_p], f32>
  %ce16 = tile.cast %cel : !tile.tile<[1, 16, tile_p], f32> -> !tile.tile<[1, 16, tile_p], f16>
  %vp = tile.load %V_cache[%en, %tp, %full] : !tile.tensor<32x1024x128xf16, inout> -> !tile.tile<[1, tile_p, 128], f16>
  %pv = tile.matmul %ce16, %vp : !tile.tile<[1, 16, tile_p], f16>, !tile.tile<[1, tile_p, 128], f16> -> !tile.tile<[1, 16, 128], f32>
  %o = tile.load %O[%en, %full, %full] : !tile.tensor<32x16x128xf32, intermediate> -> !tile.tile<[1, 16, 128], f32>
  %om = tile.mul %o, %one_o : !tile.tile<[1, 16, 128], f32>
  %on = tile.add %om, %pv : !tile.tile<[1, 16, 128], f32>
  %so = tile.store %on, %O[%en, %full, %full] : !tile.tile<[1, 16, 128], f32>, !tile.tensor<32x16x128xf32, intermediate>
  %p11 = tile.seq %scsp, %so
  %p10 = tile.seq %scs, %p11
  %p9 = tile.seq %scep, %p10
  %p8 = tile.seq %sce, %p9
  %p7 = tile.seq %scp, %p8
  %p6 = tile.seq %sc, %p7
  %p5 = tile.seq %svc, %p6
  %p4 = tile.seq %skc, %p5
  %p3 = tile.seq %sv, %p4
  %p2 = tile.seq %sk, %p3
  %p1 = tile.seq %sq, %p2
  %p0 = tile.seq %nop, %p1
  %lp = tile.loop %p = 0 to 1024 step %tile_p body %p0

  //   (seq (loop 0 1024 tile_p p dummy)
  %lpe = tile.loop %p = 0 to 1024 step %tile_p body %nop

  //   (seq (loop 0 1024 tile_p p (seq dummy (store (output C_out)
  //     (rsum (/ (load (tensor C_exp_perturb) (index (elem n) fulltile (tile p)))
  //              (bcast (load (tensor C_sum_perturb) (index (elem n) fulltile)) 2)) 1)
  //     (index (elem n) (tile p)))))
  %cepl = tile.load %C_exp_perturb[%en, %full, %tp] : !tile.tensor<32x16x1024xf32, intermediate> -> !tile.tile<[1, 16, tile_p], f32>
  %cspb = tile.bcast %csp [2] : !tile.tile<[1, 16], f32> -> !tile.tile<[1, 16, tile_p], f32>
  %cepd = tile.div %cepl, %cspb : !tile.tile<[1, 16, tile_p], f32>
  %cor = tile.rsum %cepd, 1 : !tile.tile<[1, 16, tile_p], f32> -> !tile.tile<[1, tile_p], f32>
  %co16 = tile.cast %cor : !tile.tile<[1, tile_p], f32> -> !tile.tile<[1, tile_p], f16>
  %sco = tile.store %co16, %C_out[%en, %tp] : !tile.tile<[1, tile_p], f16>, !tile.tensor<32x1024xf16, output>
  %co0 = tile.seq %nop, %sco
  %lpc = tile.loop %p = 0 to 1024 step %tile_p body %co0

  //   (seq (store (tensor O)
  //     (/ (load (tensor O) (index (elem n) fulltile fulltile))
  //        (bcast (load (tensor C_sum) (index (elem n) fulltile)) 2))
  //     (index (elem n) fulltile fulltile))
  //   (seq dummy (store (output O2)
  //     (squeeze (permute3 (load (tensor O) (index (elem n) fulltile fulltile)) 1 0 2) 1)
  //     (index fulltile (tile n))))))))
  %csb = tile.bcast %cs [2] : !tile.tile<[1, 16], f32> -> !tile.tile<[1, 16, 128], f32>
  %od = tile.div %o, %csb : !tile.tile<[1, 16, 128], f32>
  %sod = tile.store %od, %O[%en, %full, %full] : !tile.tile<[1, 16, 128], f32>, !tile.tensor<32x16x128xf32, intermediate>
  %op = tile.permute %o [1, 0, 2] : !tile.tile<[1, 16, 128], f32> -> !tile.tile<[16, 1, 128], f32>
  %os = tile.squeeze %op, 1 : !tile.tile<[16, 1, 128], f32> -> !tile.tile<[16, 128], f32>
  %o16 = tile.cast %os : !tile.tile<[16, 128], f32> -> !tile.tile<[16, 128], f16>
  %so2 = tile.store %o16, %O2[%full, %tn] : !tile.tile<[16, 128], f16>, !tile.tensor<16x4096xf16, output>

  %b5 = tile.seq %nop, %so2
  %b4 = tile.seq %sod, %b5
  %b3 = tile.seq %lpc, %b4
  %b2 = tile.seq %lpe, %b3
  %b1 = tile.seq %lp, %b2
  %b0 = tile.seq %lk, %b1
  %ln = tile.loop %n = 0 to 4096 step %c128 body %b0
  tile.yield %ln
}
