// An element-loop matmul whose tile leaves the block a warp (8 x 32 outputs,
// 32 per thread, 4 k slices: 32 threads) gets 4 warps (8 outputs per
// thread) when its grid, split as far as `split_k` allows, stays short of a
// quarter of `min_blocks` (softmax(S) @ V over 32K keys: 256 blocks), and
// keeps its warp otherwise (a MoE grid of 1408 blocks ran slower with 4).
// RUN: tile-opt %s --tile-lower-to-gpu="config={split_k = 4, min_blocks = 256, max_tile_size = 0, thread_elements = 32, k_slices = 4}" --canonicalize --cse | FileCheck %s --check-prefix=FEW
// RUN: tile-opt %s --tile-lower-to-gpu="config={split_k = 4, min_blocks = 64, max_tile_size = 0, thread_elements = 32, k_slices = 4}" --canonicalize --cse | FileCheck %s --check-prefix=ENOUGH
// RUN: tile-run %s --device emulate --gpu-config="split_k = 4, min_blocks = 256, thread_elements = 32, k_slices = 4" | FileCheck %s --check-prefix=EMU
// RUN: tile-run %s --device emulate --gpu-config="split_k = 4, min_blocks = 64, thread_elements = 32, k_slices = 4" | FileCheck %s --check-prefix=EMU
// FEW: gpu.launch_func @pv_kernels::@pv_k0 blocks in (%c32, %c1, %c1) threads in (%c128, %c1, %c1)
// ENOUGH: gpu.launch_func @pv_kernels::@pv_k0 blocks in (%c32, %c1, %c1) threads in (%c32, %c1, %c1)
// EMU-NOT: MISMATCH
// EMU: PASS
tile.program @pv(%P: !tile.tensor<8x1024xf16, input>,
                 %V: !tile.tensor<1024x256xf16, input>,
                 %S: !tile.tensor<8x256xf32, output>) attributes {tile.tile_sizes = {tile_n = 32, tile_k = 64}} {
  %n = tile.var "n"
  %k = tile.var "k"
  %sn = tile.size "tile_n"
  %sk = tile.size "tile_k"
  %full = tile.full
  %tn = tile.tile %n
  %tk = tile.tile %k
  %p = tile.load %P[%full, %tk] : !tile.tensor<8x1024xf16, input> -> !tile.tile<[8, tile_k], f16>
  %v = tile.load %V[%tk, %tn] : !tile.tensor<1024x256xf16, input> -> !tile.tile<[tile_k, tile_n], f16>
  %mm = tile.matmul %p, %v : !tile.tile<[8, tile_k], f16>, !tile.tile<[tile_k, tile_n], f16> -> !tile.tile<[8, tile_n], f32>
  %s = tile.load %S[%full, %tn] : !tile.tensor<8x256xf32, output> -> !tile.tile<[8, tile_n], f32>
  %a = tile.add %s, %mm : !tile.tile<[8, tile_n], f32>
  %st = tile.store %a, %S[%full, %tn] : !tile.tile<[8, tile_n], f32>, !tile.tensor<8x256xf32, output>
  %lk = tile.loop %k = 0 to 1024 step %sk body %st
  %ln = tile.loop %n = 0 to 256 step %sn body %lk
  tile.yield %ln
}
