// Trinity Figure 4(f)'s FlashAttention loop (the attention core of the
// vanilla goal examples/goals/vanilla-fig4f.mlir) at the llama decode shapes:
// 32 heads, 16 rows, d = 128, P = 1024. As Figure 4(d)
// (figure4d-llama.mlir), but P.V multiplies the unnormalized f32 logits by
// cast(V) in f32, as assoc-div-matmul-cast (docs/Rules.md) leaves it:
// exp(Q K^T) exceeds f16's range at the workloads' data, so the f16 P of
// Figure 4(d) overflows there. Lowered with tf32 (docs/GPULowering.md,
// warp loops) P.V runs on the matrix units as tf32.
tile.program @flash_f32_llama(
    %Q: !tile.tensor<32x16x128xf16, input>,
    %Kc: !tile.tensor<32x1024x128xf16, input>,
    %Vc: !tile.tensor<32x1024x128xf16, input>,
    %O: !tile.tensor<32x16x128xf32, output>,
    %logit: !tile.tensor<32x16x1024xf32, intermediate>,
    %accm: !tile.tensor<32x16xf32, intermediate>) {
  %h = tile.var "h"
  %p = tile.var "p"
  %tile_p = tile.size "tile_p"
  %c1 = tile.size 1
  %full = tile.full
  %eh = tile.elem %h
  %tp = tile.tile %p
  %qh = tile.load %Q[%eh, %full, %full] : !tile.tensor<32x16x128xf16, input> -> !tile.tile<[1, 16, 128], f16>
  %kp = tile.load %Kc[%eh, %tp, %full] : !tile.tensor<32x1024x128xf16, input> -> !tile.tile<[1, tile_p, 128], f16>
  %kpt = tile.transpose %kp, 1, 2 : !tile.tile<[1, tile_p, 128], f16> -> !tile.tile<[1, 128, tile_p], f16>
  %qk = tile.matmul %qh, %kpt : !tile.tile<[1, 16, 128], f16>, !tile.tile<[1, 128, tile_p], f16> -> !tile.tile<[1, 16, tile_p], f32>
  %lg = tile.exp %qk : !tile.tile<[1, 16, tile_p], f32>
  %slg = tile.store %lg, %logit[%eh, %full, %tp] : !tile.tile<[1, 16, tile_p], f32>, !tile.tensor<32x16x1024xf32, intermediate>
  %lgl = tile.load %logit[%eh, %full, %tp] : !tile.tensor<32x16x1024xf32, intermediate> -> !tile.tile<[1, 16, tile_p], f32>
  %acc = tile.load %accm[%eh, %full] : !tile.tensor<32x16xf32, intermediate> -> !tile.tile<[1, 16], f32>
  %lgs = tile.rsum %lgl, 2 : !tile.tile<[1, 16, tile_p], f32> -> !tile.tile<[1, 16], f32>
  %accn = tile.add %acc, %lgs : !tile.tile<[1, 16], f32>
  %sacc = tile.store %accn, %accm[%eh, %full] : !tile.tile<[1, 16], f32>, !tile.tensor<32x16xf32, intermediate>
  %o = tile.load %O[%eh, %full, %full] : !tile.tensor<32x16x128xf32, output> -> !tile.tile<[1, 16, 128], f32>
  %vp = tile.load %Vc[%eh, %tp, %full] : !tile.tensor<32x1024x128xf16, input> -> !tile.tile<[1, tile_p, 128], f16>
  %vp32 = tile.cast %vp : !tile.tile<[1, tile_p, 128], f16> -> !tile.tile<[1, tile_p, 128], f32>
  %pv = tile.matmul %lgl, %vp32 : !tile.tile<[1, 16, tile_p], f32>, !tile.tile<[1, tile_p, 128], f32> -> !tile.tile<[1, 16, 128], f32>
  %on = tile.add %o, %pv : !tile.tile<[1, 16, 128], f32>
  %so = tile.store %on, %O[%eh, %full, %full] : !tile.tile<[1, 16, 128], f32>, !tile.tensor<32x16x128xf32, output>
  %att2 = tile.seq %sacc, %so
  %att1 = tile.seq %slg, %att2
  %lp = tile.loop %p = 0 to 1024 step %tile_p body %att1
  %accb = tile.bcast %acc [2] : !tile.tile<[1, 16], f32> -> !tile.tile<[1, 16, 128], f32>
  %od = tile.div %o, %accb : !tile.tile<[1, 16, 128], f32>
  %sod = tile.store %od, %O[%eh, %full, %full] : !tile.tile<[1, 16, 128], f32>, !tile.tensor<32x16x128xf32, output>
  %att = tile.seq %lp, %sod
  %lh = tile.loop %h = 0 to 32 step %c1 body %att
  tile.yield %lh
}
