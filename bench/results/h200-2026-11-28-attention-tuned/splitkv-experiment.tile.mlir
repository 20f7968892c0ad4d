// An experiment, not a result of the tool (issue 43): split-KV decode attention
// for attn_decode_llama8b_p4k written by hand in the tile dialect. Statement A:
// per KV head and 128-key chunk, the scores, the chunk's max, exp-sum and P.V
// into per-chunk (Mc, Zc, Ac); statement B merges the 32 chunks. Correct on
// the CPU (tile-run --reference bench/workloads/suite/attn_decode_llama8b_p4k.mlir)
// and on the H200, but 142.9 us (statement A 133.5) against the default path's
// 17.6: the lowering of a fused attention body is what split-KV waits for.
module {
  tile.program @attn_decode_llama8b_p4k(%Q: !tile.tensor<32x1x128xf16, input>, %Qg: !tile.tensor<8x4x128xf16, intermediate>, %Kc: !tile.tensor<8x4096x128xf16, input>, %Vc: !tile.tensor<8x4096x128xf16, input>, %Mc: !tile.tensor<8x32x4xf32, intermediate>, %Zc: !tile.tensor<8x32x4xf32, intermediate>, %Ac: !tile.tensor<8x32x4x128xf32, intermediate>, %M: !tile.tensor<8x4xf32, intermediate>, %Z: !tile.tensor<8x4xf32, intermediate>, %A: !tile.tensor<8x4x128xf32, intermediate>, %Og: !tile.tensor<8x4x128xf16, intermediate>, %O: !tile.tensor<32x1x128xf16, output>) attributes {tile.results = ["O"]} {
    %f = tile.full
    %h = tile.var "h"
    %c = tile.var "c"
    %c1 = tile.size 1
    %c4 = tile.size 4
    %c128 = tile.size 128
    %eh = tile.elem %h
    %th = tile.tile %h
    %ec = tile.elem %c
    %tc = tile.tile %c
    // Statement A: per KV head and 128-key chunk.
    %sv = tile.var "sv"
    %tsv = tile.tile %sv
    %esv = tile.elem %sv
    %q0 = tile.load %Q[%tsv, %f, %f] : !tile.tensor<32x1x128xf16, input> -> !tile.tile<[4, 1, 128], f16>
    %q1r = tile.reshape %q0 : !tile.tile<[4, 1, 128], f16> -> !tile.tile<[1, 4, 128], f16>
    %stq = tile.store %q1r, %Qg[%esv, %f, %f] : !tile.tile<[1, 4, 128], f16>, !tile.tensor<8x4x128xf16, intermediate>
    %stQ = tile.loop %sv = 0 to 32 step %c4 body %stq
    %q = tile.load %Qg[%eh, %f, %f] : !tile.tensor<8x4x128xf16, intermediate> -> !tile.tile<[1, 4, 128], f16>
    %k = tile.load %Kc[%eh, %tc, %f] : !tile.tensor<8x4096x128xf16, input> -> !tile.tile<[1, 128, 128], f16>
    %kt = tile.permute %k [0, 2, 1] : !tile.tile<[1, 128, 128], f16> -> !tile.tile<[1, 128, 128], f16>
    %s0 = tile.matmul %q, %kt : !tile.tile<[1, 4, 128], f16>, !tile.tile<[1, 128, 128], f16> -> !tile.tile<[1, 4, 128], f32>
    %sc = tile.constant 0.0883883461 : !tile.tile<[1, 4, 128], f32>
    %s = tile.mul %sc, %s0 : !tile.tile<[1, 4, 128], f32>
    %m = tile.rmax %s, 2 : !tile.tile<[1, 4, 128], f32> -> !tile.tile<[1, 4], f32>
    %mb = tile.bcast %m [2] : !tile.tile<[1, 4], f32> -> !tile.tile<[1, 4, 128], f32>
    %d = tile.sub %s, %mb : !tile.tile<[1, 4, 128], f32>
    %e = tile.exp %d : !tile.tile<[1, 4, 128], f32>
    %z = tile.rsum %e, 2 : !tile.tile<[1, 4, 128], f32> -> !tile.tile<[1, 4], f32>
    %v = tile.load %Vc[%eh, %tc, %f] : !tile.tensor<8x4096x128xf16, input> -> !tile.tile<[1, 128, 128], f16>
    %vf = tile.cast %v : !tile.tile<[1, 128, 128], f16> -> !tile.tile<[1, 128, 128], f32>
    %a = tile.matmul %e, %vf : !tile.tile<[1, 4, 128], f32>, !tile.tile<[1, 128, 128], f32> -> !tile.tile<[1, 4, 128], f32>
    %m2 = tile.reshape %m : !tile.tile<[1, 4], f32> -> !tile.tile<[1, 1, 4], f32>
    %z2 = tile.reshape %z : !tile.tile<[1, 4], f32> -> !tile.tile<[1, 1, 4], f32>
    %a2 = tile.reshape %a : !tile.tile<[1, 4, 128], f32> -> !tile.tile<[1, 1, 4, 128], f32>
    %stm = tile.store %m2, %Mc[%eh, %ec, %f] : !tile.tile<[1, 1, 4], f32>, !tile.tensor<8x32x4xf32, intermediate>
    %stz = tile.store %z2, %Zc[%eh, %ec, %f] : !tile.tile<[1, 1, 4], f32>, !tile.tensor<8x32x4xf32, intermediate>
    %sta = tile.store %a2, %Ac[%eh, %ec, %f, %f] : !tile.tile<[1, 1, 4, 128], f32>, !tile.tensor<8x32x4x128xf32, intermediate>
    %b1 = tile.seq %stz, %sta
    %b2 = tile.seq %stm, %b1
    %lc = tile.loop %c = 0 to 4096 step %c128 body %b2
    %stA = tile.loop %h = 0 to 8 step %c1 body %lc
    // Statement B: merge the 32 chunks of each head.
    %g = tile.var "g"
    %e2 = tile.var "e2"
    %eg = tile.elem %g
    %ee = tile.elem %e2
    %ninf = tile.constant -inf : !tile.tile<[1, 4], f32>
    %minit = tile.store %ninf, %M[%eg, %f] : !tile.tile<[1, 4], f32>, !tile.tensor<8x4xf32, intermediate>
    %mo = tile.load %M[%eg, %f] : !tile.tensor<8x4xf32, intermediate> -> !tile.tile<[1, 4], f32>
    %mcl = tile.load %Mc[%eg, %ee, %f] : !tile.tensor<8x32x4xf32, intermediate> -> !tile.tile<[1, 1, 4], f32>
    %mcr = tile.reshape %mcl : !tile.tile<[1, 1, 4], f32> -> !tile.tile<[1, 4], f32>
    %mn = tile.max %mo, %mcr : !tile.tile<[1, 4], f32>
    %stmn = tile.store %mn, %M[%eg, %f] : !tile.tile<[1, 4], f32>, !tile.tensor<8x4xf32, intermediate>
    %lm = tile.loop %e2 = 0 to 32 step %c1 body %stmn
    %w0 = tile.sub %mcr, %mo : !tile.tile<[1, 4], f32>
    %w = tile.exp %w0 : !tile.tile<[1, 4], f32>
    %zo = tile.load %Z[%eg, %f] : !tile.tensor<8x4xf32, intermediate> -> !tile.tile<[1, 4], f32>
    %zcl = tile.load %Zc[%eg, %ee, %f] : !tile.tensor<8x32x4xf32, intermediate> -> !tile.tile<[1, 1, 4], f32>
    %zcr = tile.reshape %zcl : !tile.tile<[1, 1, 4], f32> -> !tile.tile<[1, 4], f32>
    %zw = tile.mul %zcr, %w : !tile.tile<[1, 4], f32>
    %zn = tile.add %zo, %zw : !tile.tile<[1, 4], f32>
    %stzn = tile.store %zn, %Z[%eg, %f] : !tile.tile<[1, 4], f32>, !tile.tensor<8x4xf32, intermediate>
    %ao = tile.load %A[%eg, %f, %f] : !tile.tensor<8x4x128xf32, intermediate> -> !tile.tile<[1, 4, 128], f32>
    %acl = tile.load %Ac[%eg, %ee, %f, %f] : !tile.tensor<8x32x4x128xf32, intermediate> -> !tile.tile<[1, 1, 4, 128], f32>
    %acr = tile.reshape %acl : !tile.tile<[1, 1, 4, 128], f32> -> !tile.tile<[1, 4, 128], f32>
    %wb = tile.bcast %w [2] : !tile.tile<[1, 4], f32> -> !tile.tile<[1, 4, 128], f32>
    %aw = tile.mul %acr, %wb : !tile.tile<[1, 4, 128], f32>
    %an = tile.add %ao, %aw : !tile.tile<[1, 4, 128], f32>
    %stan = tile.store %an, %A[%eg, %f, %f] : !tile.tile<[1, 4, 128], f32>, !tile.tensor<8x4x128xf32, intermediate>
    %bz = tile.seq %stzn, %stan
    %lz = tile.loop %e2 = 0 to 32 step %c1 body %bz
    %af = tile.load %A[%eg, %f, %f] : !tile.tensor<8x4x128xf32, intermediate> -> !tile.tile<[1, 4, 128], f32>
    %zf = tile.load %Z[%eg, %f] : !tile.tensor<8x4xf32, intermediate> -> !tile.tile<[1, 4], f32>
    %zfb = tile.bcast %zf [2] : !tile.tile<[1, 4], f32> -> !tile.tile<[1, 4, 128], f32>
    %o = tile.div %af, %zfb : !tile.tile<[1, 4, 128], f32>
    %oh = tile.cast %o : !tile.tile<[1, 4, 128], f32> -> !tile.tile<[1, 4, 128], f16>
    %sto = tile.store %oh, %Og[%eg, %f, %f] : !tile.tile<[1, 4, 128], f16>, !tile.tensor<8x4x128xf16, intermediate>
    %q1 = tile.seq %lz, %sto
    %q2 = tile.seq %lm, %q1
    %q3 = tile.seq %minit, %q2
    %stB = tile.loop %g = 0 to 8 step %c1 body %q3
    %s3 = tile.var "s3"
    %ts3 = tile.tile %s3
    %es3 = tile.elem %s3
    %og = tile.load %Og[%es3, %f, %f] : !tile.tensor<8x4x128xf16, intermediate> -> !tile.tile<[1, 4, 128], f16>
    %or = tile.reshape %og : !tile.tile<[1, 4, 128], f16> -> !tile.tile<[4, 1, 128], f16>
    %sto2 = tile.store %or, %O[%ts3, %f, %f] : !tile.tile<[4, 1, 128], f16>, !tile.tensor<32x1x128xf16, output>
    %stC = tile.loop %s3 = 0 to 32 step %c4 body %sto2
    %root00 = tile.seq %stB, %stC
    %root0 = tile.seq %stA, %root00
    %root = tile.seq %stQ, %root0
    tile.yield %root
  }
}
