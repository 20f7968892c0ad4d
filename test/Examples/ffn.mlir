// RUN: tile-opt %s | FileCheck %s
// RUN: tile-opt %s | tile-opt > %t.1.mlir
// RUN: tile-opt %s --mlir-print-op-generic | tile-opt > %t.2.mlir
// RUN: tile-opt %s > %t.0.mlir
// RUN: diff %t.0.mlir %t.1.mlir
// RUN: diff %t.0.mlir %t.2.mlir
// RUN: tile-run %s --reference %S/../Workloads/ffn.mlir --tolerance 1e-6 | FileCheck %s --check-prefix=CMP
// CMP-NOT: MISMATCH
// CMP: PASS

// SwiGLU FFN block: A3 = rms(O2in @ WO + X, g), out = ((A3 @ W1a) * silu(A3 @ W1b)) @ W2;
// naive (one loop nest per op, Trinity Figure 4(a)),
// scaled down: M=4 tokens, D=16, F=32.

// CHECK-LABEL: tile.program @ffn
tile.program @ffn(
    %O2in: !tile.tensor<4x16xf16, input>,
    %X: !tile.tensor<4x16xf16, input>,
    %WO: !tile.tensor<16x16xf16, input>,
    %g: !tile.tensor<16xf16, input>,
    %W1a: !tile.tensor<16x32xf16, input>,
    %W1b: !tile.tensor<16x32xf16, input>,
    %W2: !tile.tensor<32x16xf16, input>,
    %out: !tile.tensor<4x16xf16, output>,
    %A1: !tile.tensor<4x16xf32, intermediate>,
    %A2: !tile.tensor<4x16xf32, intermediate>,
    %SS: !tile.tensor<4xf32, intermediate>,
    %A3: !tile.tensor<4x16xf16, intermediate>,
    %F1a: !tile.tensor<4x32xf32, intermediate>,
    %F1b: !tile.tensor<4x32xf32, intermediate>,
    %F1: !tile.tensor<4x32xf16, intermediate>,
    %F2: !tile.tensor<4x16xf32, intermediate>) attributes {tile.results = ["out"]} {
  %n = tile.var "n"
  %k = tile.var "k"
  %f = tile.var "f"
  %kf = tile.var "kf"
  %tile_n = tile.size "tile_n"
  %tile_k = tile.size "tile_k"
  %tile_f = tile.size "tile_f"
  %tile_kf = tile.size "tile_kf"
  %full = tile.full
  %tn = tile.tile %n
  %tk = tile.tile %k
  %tf = tile.tile %f
  %tkf = tile.tile %kf

  // A1 = O2in @ WO: accumulate over k.
  %o2k = tile.load %O2in[%full, %tk] : !tile.tensor<4x16xf16, input> -> !tile.tile<[4, tile_k], f16>
  %wo = tile.load %WO[%tk, %tn] : !tile.tensor<16x16xf16, input> -> !tile.tile<[tile_k, tile_n], f16>
  %a1 = tile.load %A1[%full, %tn] : !tile.tensor<4x16xf32, intermediate> -> !tile.tile<[4, tile_n], f32>
  %ow = tile.matmul %o2k, %wo : !tile.tile<[4, tile_k], f16>, !tile.tile<[tile_k, tile_n], f16> -> !tile.tile<[4, tile_n], f32>
  %a1n = tile.add %a1, %ow : !tile.tile<[4, tile_n], f32>
  %sa1 = tile.store %a1n, %A1[%full, %tn] : !tile.tile<[4, tile_n], f32>, !tile.tensor<4x16xf32, intermediate>
  %la1k = tile.loop %k = 0 to 16 step %tile_k body %sa1
  %la1 = tile.loop %n = 0 to 16 step %tile_n body %la1k

  // A2 = A1 + X
  %a1l = tile.load %A1[%full, %tn] : !tile.tensor<4x16xf32, intermediate> -> !tile.tile<[4, tile_n], f32>
  %xl = tile.load %X[%full, %tn] : !tile.tensor<4x16xf16, input> -> !tile.tile<[4, tile_n], f16>
  %xf = tile.cast %xl : !tile.tile<[4, tile_n], f16> -> !tile.tile<[4, tile_n], f32>
  %a2t = tile.add %a1l, %xf : !tile.tile<[4, tile_n], f32>
  %sa2 = tile.store %a2t, %A2[%full, %tn] : !tile.tile<[4, tile_n], f32>, !tile.tensor<4x16xf32, intermediate>
  %la2 = tile.loop %n = 0 to 16 step %tile_n body %sa2

  // A3 = rms(A2, g): SS = sum(A2 * A2, axis=-1), accumulated over k.
  %ark = tile.load %A2[%full, %tk] : !tile.tensor<4x16xf32, intermediate> -> !tile.tile<[4, tile_k], f32>
  %arsq = tile.mul %ark, %ark : !tile.tile<[4, tile_k], f32>
  %arr = tile.rsum %arsq, 1 : !tile.tile<[4, tile_k], f32> -> !tile.tile<[4], f32>
  %arssl = tile.load %SS[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %arssn = tile.add %arssl, %arr : !tile.tile<[4], f32>
  %arsss = tile.store %arssn, %SS[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, intermediate>
  %arlss = tile.loop %k = 0 to 16 step %tile_k body %arsss

  // A3 = A2 / sqrt(SS / D + 1e-6) * g
  %arn = tile.load %A2[%full, %tn] : !tile.tensor<4x16xf32, intermediate> -> !tile.tile<[4, tile_n], f32>
  %arssh = tile.load %SS[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %ardim = tile.constant 16.0 : !tile.tile<[4], f32>
  %armean = tile.div %arssh, %ardim : !tile.tile<[4], f32>
  %areps = tile.constant 1.0e-06 : !tile.tile<[4], f32>
  %armeps = tile.add %armean, %areps : !tile.tile<[4], f32>
  %arrms = tile.sqrt %armeps : !tile.tile<[4], f32>
  %arrmsb = tile.bcast %arrms [1] : !tile.tile<[4], f32> -> !tile.tile<[4, tile_n], f32>
  %ardiv = tile.div %arn, %arrmsb : !tile.tile<[4, tile_n], f32>
  %arg = tile.load %g[%tn] : !tile.tensor<16xf16, input> -> !tile.tile<[tile_n], f16>
  %argf = tile.cast %arg : !tile.tile<[tile_n], f16> -> !tile.tile<[tile_n], f32>
  %argb = tile.bcast %argf [0] : !tile.tile<[tile_n], f32> -> !tile.tile<[4, tile_n], f32>
  %art = tile.mul %ardiv, %argb : !tile.tile<[4, tile_n], f32>
  %art16 = tile.cast %art : !tile.tile<[4, tile_n], f32> -> !tile.tile<[4, tile_n], f16>
  %arst = tile.store %art16, %A3[%full, %tn] : !tile.tile<[4, tile_n], f16>, !tile.tensor<4x16xf16, intermediate>
  %arlt = tile.loop %n = 0 to 16 step %tile_n body %arst

  // F1a = A3 @ W1a (and F1b): accumulate over k.
  %a3k = tile.load %A3[%full, %tk] : !tile.tensor<4x16xf16, intermediate> -> !tile.tile<[4, tile_k], f16>
  %w1a = tile.load %W1a[%tk, %tf] : !tile.tensor<16x32xf16, input> -> !tile.tile<[tile_k, tile_f], f16>
  %f1a = tile.load %F1a[%full, %tf] : !tile.tensor<4x32xf32, intermediate> -> !tile.tile<[4, tile_f], f32>
  %f1amm = tile.matmul %a3k, %w1a : !tile.tile<[4, tile_k], f16>, !tile.tile<[tile_k, tile_f], f16> -> !tile.tile<[4, tile_f], f32>
  %f1an = tile.add %f1a, %f1amm : !tile.tile<[4, tile_f], f32>
  %sf1a = tile.store %f1an, %F1a[%full, %tf] : !tile.tile<[4, tile_f], f32>, !tile.tensor<4x32xf32, intermediate>
  %lf1ak = tile.loop %k = 0 to 16 step %tile_k body %sf1a
  %lf1a = tile.loop %f = 0 to 32 step %tile_f body %lf1ak

  %w1b = tile.load %W1b[%tk, %tf] : !tile.tensor<16x32xf16, input> -> !tile.tile<[tile_k, tile_f], f16>
  %f1b = tile.load %F1b[%full, %tf] : !tile.tensor<4x32xf32, intermediate> -> !tile.tile<[4, tile_f], f32>
  %f1bmm = tile.matmul %a3k, %w1b : !tile.tile<[4, tile_k], f16>, !tile.tile<[tile_k, tile_f], f16> -> !tile.tile<[4, tile_f], f32>
  %f1bn = tile.add %f1b, %f1bmm : !tile.tile<[4, tile_f], f32>
  %sf1b = tile.store %f1bn, %F1b[%full, %tf] : !tile.tile<[4, tile_f], f32>, !tile.tensor<4x32xf32, intermediate>
  %lf1bk = tile.loop %k = 0 to 16 step %tile_k body %sf1b
  %lf1b = tile.loop %f = 0 to 32 step %tile_f body %lf1bk

  // F1 = F1a * F1b * sigmoid(F1b)
  %f1al = tile.load %F1a[%full, %tf] : !tile.tensor<4x32xf32, intermediate> -> !tile.tile<[4, tile_f], f32>
  %f1bl = tile.load %F1b[%full, %tf] : !tile.tensor<4x32xf32, intermediate> -> !tile.tile<[4, tile_f], f32>
  %f1ab = tile.mul %f1al, %f1bl : !tile.tile<[4, tile_f], f32>
  %f1bs = tile.sigmoid %f1bl : !tile.tile<[4, tile_f], f32>
  %f1t = tile.mul %f1ab, %f1bs : !tile.tile<[4, tile_f], f32>
  %f1t16 = tile.cast %f1t : !tile.tile<[4, tile_f], f32> -> !tile.tile<[4, tile_f], f16>
  %sf1 = tile.store %f1t16, %F1[%full, %tf] : !tile.tile<[4, tile_f], f16>, !tile.tensor<4x32xf16, intermediate>
  %lf1 = tile.loop %f = 0 to 32 step %tile_f body %sf1

  // F2 = F1 @ W2: accumulate over kf (F2 is out in f32).
  %f1k = tile.load %F1[%full, %tkf] : !tile.tensor<4x32xf16, intermediate> -> !tile.tile<[4, tile_kf], f16>
  %w2 = tile.load %W2[%tkf, %tn] : !tile.tensor<32x16xf16, input> -> !tile.tile<[tile_kf, tile_n], f16>
  %f2 = tile.load %F2[%full, %tn] : !tile.tensor<4x16xf32, intermediate> -> !tile.tile<[4, tile_n], f32>
  %f2mm = tile.matmul %f1k, %w2 : !tile.tile<[4, tile_kf], f16>, !tile.tile<[tile_kf, tile_n], f16> -> !tile.tile<[4, tile_n], f32>
  %f2n = tile.add %f2, %f2mm : !tile.tile<[4, tile_n], f32>
  %sf2 = tile.store %f2n, %F2[%full, %tn] : !tile.tile<[4, tile_n], f32>, !tile.tensor<4x16xf32, intermediate>
  %lf2k = tile.loop %kf = 0 to 32 step %tile_kf body %sf2
  %lf2 = tile.loop %n = 0 to 16 step %tile_n body %lf2k

  // out = F2, stored as f16
  %f2l = tile.load %F2[%full, %tn] : !tile.tensor<4x16xf32, intermediate> -> !tile.tile<[4, tile_n], f32>
  %f2l16 = tile.cast %f2l : !tile.tile<[4, tile_n], f32> -> !tile.tile<[4, tile_n], f16>
  %sout = tile.store %f2l16, %out[%full, %tn] : !tile.tile<[4, tile_n], f16>, !tile.tensor<4x16xf16, output>
  %lout = tile.loop %n = 0 to 16 step %tile_n body %sout

  %s8 = tile.seq %lf2, %lout
  %s7 = tile.seq %lf1, %s8
  %s6 = tile.seq %lf1b, %s7
  %s5 = tile.seq %lf1a, %s6
  %s4 = tile.seq %arlt, %s5
  %s3 = tile.seq %arlss, %s4
  %s2 = tile.seq %la2, %s3
  %s1 = tile.seq %la1, %s2
  tile.yield %s1
}
