// RUN: tile-opt %s --split-input-file --tile-select-gpu-config | FileCheck %s --check-prefix=SM90
// RUN: tile-opt %s --split-input-file --tile-select-gpu-config="chip=sm_80" | FileCheck %s --check-prefix=SM80
// RUN: tile-opt %s --split-input-file --tile-select-gpu-config="backend=rocdl chip=gfx942" | FileCheck %s --check-prefix=GFX942
// RUN: tile-opt %s --split-input-file --tile-select-gpu-config="config={mma = false, split_k = 2}" | FileCheck %s --check-prefix=GIVEN
// RUN: tile-opt %s --split-input-file --tile-select-gpu-config="config={statement_configs = false}" | FileCheck %s --check-prefix=NOSTMT
// RUN: not tile-opt %s --split-input-file --tile-select-gpu-config="chip=sm90" 2>&1 | FileCheck %s --check-prefix=BADCHIP
// RUN: not tile-opt %s --split-input-file --tile-select-gpu-config="backend=spirv" 2>&1 | FileCheck %s --check-prefix=BADBACKEND
// RUN: not tile-opt %s --split-input-file --tile-select-gpu-config="config={split_k = 0}" 2>&1 | FileCheck %s --check-prefix=BADCONFIG
// RUN: not tile-opt %s --split-input-file --tile-select-gpu-config="config={pipeline_loads = 17}" 2>&1 | FileCheck %s --check-prefix=DEEPLOADS

// The strategy's choices, per target (the IREE config_*.mlir style: this
// kernel shape on this target gets this configuration). Numbers come from
// the target (SM count: sm_90 132, sm_80 108, gfx942 304 CUs; features),
// switches from the program.

// A decode GEMM with f16 operands accumulating in f32: matrix units where
// the target has them (NVIDIA sm_80 and later), many blocks (16 per SM,
// to the nearest power of two), split accumulations, loads run ahead;
// vector reductions and early launches only on sm_90.
// SM90-LABEL: tile.program @gemm
// SM90-SAME: tile.gpu_config = #tile.gpu_config<max_tile_size = 64, min_blocks = 2048, block_size = 256, shared_memory = 49152, thread_elements = 32, k_slices = 4, split_k = 4, batch_loops = true, mma = true, warp_loops = true, block_matmul = true, vector_atomics = true, pipeline_loads = 1, early_launch_blocks = 528>
// SM80-LABEL: tile.program @gemm
// SM80-SAME: #tile.gpu_config<max_tile_size = 64, min_blocks = 2048, {{.*}}split_k = 4, batch_loops = true, mma = true, warp_loops = true, block_matmul = true, vector_atomics = false, pipeline_loads = 1, early_launch_blocks = 0>
// GFX942-LABEL: tile.program @gemm
// GFX942-SAME: #tile.gpu_config<max_tile_size = 64, min_blocks = 4096, {{.*}}split_k = 4, batch_loops = true, mma = false, warp_loops = true, block_matmul = true, vector_atomics = false, pipeline_loads = 1, early_launch_blocks = 0>
// The config option overrides the strategy field by field.
// GIVEN-LABEL: tile.program @gemm
// GIVEN-SAME: #tile.gpu_config<max_tile_size = 64, min_blocks = 2048, {{.*}}split_k = 2, batch_loops = true, mma = false, warp_loops = true, block_matmul = true, vector_atomics = true,
tile.program @gemm(%A: !tile.tensor<16x256xf16, input>,
                   %B: !tile.tensor<256x512xf16, input>,
                   %C: !tile.tensor<16x512xf32, output>) {
  %i = tile.var "i"
  %j = tile.var "j"
  %k = tile.var "k"
  %ti = tile.size "tile_i"
  %tj = tile.size "tile_j"
  %tk = tile.size "tile_k"
  %xi = tile.tile %i
  %xj = tile.tile %j
  %xk = tile.tile %k
  %a = tile.load %A[%xi, %xk] : !tile.tensor<16x256xf16, input> -> !tile.tile<[tile_i, tile_k], f16>
  %b = tile.load %B[%xk, %xj] : !tile.tensor<256x512xf16, input> -> !tile.tile<[tile_k, tile_j], f16>
  %m = tile.matmul %a, %b : !tile.tile<[tile_i, tile_k], f16>, !tile.tile<[tile_k, tile_j], f16> -> !tile.tile<[tile_i, tile_j], f32>
  %c = tile.load %C[%xi, %xj] : !tile.tensor<16x512xf32, output> -> !tile.tile<[tile_i, tile_j], f32>
  %n = tile.add %c, %m : !tile.tile<[tile_i, tile_j], f32>
  %s = tile.store %n, %C[%xi, %xj] : !tile.tile<[tile_i, tile_j], f32>, !tile.tensor<16x512xf32, output>
  %lk = tile.loop %k = 0 to 256 step %tk body %s
  %lj = tile.loop %j = 0 to 512 step %tj body %lk
  %li = tile.loop %i = 0 to 16 step %ti body %lj
  tile.yield %li
}

// -----

// f32 operands: no matrix units (they take f16), the GEMM settings still.
// SM90-LABEL: tile.program @gemm_f32
// SM90-SAME: #tile.gpu_config<max_tile_size = 64, {{.*}}split_k = 4, batch_loops = true, mma = false,
tile.program @gemm_f32(%A: !tile.tensor<16x256xf32, input>,
                       %B: !tile.tensor<256x512xf32, input>,
                       %C: !tile.tensor<16x512xf32, output>) {
  %i = tile.var "i"
  %j = tile.var "j"
  %k = tile.var "k"
  %ti = tile.size "tile_i"
  %tj = tile.size "tile_j"
  %tk = tile.size "tile_k"
  %xi = tile.tile %i
  %xj = tile.tile %j
  %xk = tile.tile %k
  %a = tile.load %A[%xi, %xk] : !tile.tensor<16x256xf32, input> -> !tile.tile<[tile_i, tile_k], f32>
  %b = tile.load %B[%xk, %xj] : !tile.tensor<256x512xf32, input> -> !tile.tile<[tile_k, tile_j], f32>
  %m = tile.matmul %a, %b : !tile.tile<[tile_i, tile_k], f32>, !tile.tile<[tile_k, tile_j], f32> -> !tile.tile<[tile_i, tile_j], f32>
  %c = tile.load %C[%xi, %xj] : !tile.tensor<16x512xf32, output> -> !tile.tile<[tile_i, tile_j], f32>
  %n = tile.add %c, %m : !tile.tile<[tile_i, tile_j], f32>
  %s = tile.store %n, %C[%xi, %xj] : !tile.tile<[tile_i, tile_j], f32>, !tile.tensor<16x512xf32, output>
  %lk = tile.loop %k = 0 to 256 step %tk body %s
  %lj = tile.loop %j = 0 to 512 step %tj body %lk
  %li = tile.loop %i = 0 to 16 step %ti body %lj
  tile.yield %li
}

// -----

// A row sum (a norm's statistic) and no matmul: element loops over tiles
// up to 256 wide, split up to 4 ways until about 8 blocks per SM (the power
// of two nearest: 1024 on sm_90 and sm_80, 2048 on gfx942), no matrix
// units.
// SM90-LABEL: tile.program @rowsum
// SM90-SAME: #tile.gpu_config<max_tile_size = 256, min_blocks = 1024, block_size = 256, shared_memory = 49152, split_k = 4, batch_loops = true, mma = false, warp_loops = true, block_matmul = true, vector_atomics = true, early_launch_blocks = 528>
// SM80-LABEL: tile.program @rowsum
// SM80-SAME: #tile.gpu_config<max_tile_size = 256, min_blocks = 1024,
// GFX942-LABEL: tile.program @rowsum
// GFX942-SAME: #tile.gpu_config<max_tile_size = 256, min_blocks = 2048,
tile.program @rowsum(%A: !tile.tensor<64x16xf32, input>,
                     %B: !tile.tensor<64xf32, output>) {
  %i = tile.var "i"
  %j = tile.var "j"
  %ti = tile.size "tile_i"
  %tj = tile.size "tile_j"
  %xi = tile.tile %i
  %xj = tile.tile %j
  %a = tile.load %A[%xi, %xj] : !tile.tensor<64x16xf32, input> -> !tile.tile<[tile_i, tile_j], f32>
  %r = tile.rsum %a, 1 : !tile.tile<[tile_i, tile_j], f32> -> !tile.tile<[tile_i], f32>
  %b = tile.load %B[%xi] : !tile.tensor<64xf32, output> -> !tile.tile<[tile_i], f32>
  %n = tile.add %b, %r : !tile.tile<[tile_i], f32>
  %s = tile.store %n, %B[%xi] : !tile.tile<[tile_i], f32>, !tile.tensor<64xf32, output>
  %lj = tile.loop %j = 0 to 16 step %tj body %s
  %l = tile.loop %i = 0 to 64 step %ti body %lj
  tile.yield %l
}

// -----

// The program's own attribute overrides the strategy; the config option
// overrides both. Features the target lacks are turned off whoever asked.
// SM90-LABEL: tile.program @own
// SM90-SAME: #tile.gpu_config<max_tile_size = 8, min_blocks = 1024, {{.*}}split_k = 4,
// GIVEN-LABEL: tile.program @own
// GIVEN-SAME: #tile.gpu_config<max_tile_size = 8, min_blocks = 1024, {{.*}}split_k = 2,
// GFX942-LABEL: tile.program @own
// GFX942-SAME: mma = false,{{.*}}vector_atomics = false
tile.program @own(%A: !tile.tensor<64x16xf32, input>,
                  %B: !tile.tensor<64xf32, output>)
    attributes {tile.gpu_config = #tile.gpu_config<max_tile_size = 8, split_k = 4, mma = true, vector_atomics = true>} {
  %i = tile.var "i"
  %j = tile.var "j"
  %ti = tile.size "tile_i"
  %tj = tile.size "tile_j"
  %xi = tile.tile %i
  %xj = tile.tile %j
  %a = tile.load %A[%xi, %xj] : !tile.tensor<64x16xf32, input> -> !tile.tile<[tile_i, tile_j], f32>
  %r = tile.rsum %a, 1 : !tile.tile<[tile_i, tile_j], f32> -> !tile.tile<[tile_i], f32>
  %b = tile.load %B[%xi] : !tile.tensor<64xf32, output> -> !tile.tile<[tile_i], f32>
  %n = tile.add %b, %r : !tile.tile<[tile_i], f32>
  %s = tile.store %n, %B[%xi] : !tile.tile<[tile_i], f32>, !tile.tensor<64xf32, output>
  %lj = tile.loop %j = 0 to 16 step %tj body %s
  %l = tile.loop %i = 0 to 64 step %ti body %lj
  tile.yield %l
}

// BADCHIP: error: unknown NVVM chip 'sm90' (expected sm_XY)
// BADBACKEND: error: unknown GPU backend 'spirv' (expected nvvm or rocdl)
// BADCONFIG: error: invalid gpu config 'split_k = 0': gpu_config field 'split_k' must be at least 1, got 0
// DEEPLOADS: error: invalid gpu config 'pipeline_loads = 17': gpu_config field 'pipeline_loads' must be at least 0 and at most 16, got 17

// -----

// A softmax-style program (a max reduction beside its matmul): its GEMM
// contracts over the KV length into few tiles, split up to 16 ways; the
// statement that reduces rows without a matmul (the max) gets the norms'
// settings, without load pipelining (softmax@V's row max on the H200: 29.0
// -> 15.2 us, bench/results/h200-2026-11-28-pipeline-loads.md), on its own op and variables and tile sizes of its own (`_s1`,
// the second top-level statement), so that its tiles are sized apart. The
// option's fields override the statement's too (GIVEN); with
// statement_configs off, or with the program's own configuration (@own
// above), nothing is configured apart (NOSTMT).
// SM90-LABEL: tile.program @softmax_like
// SM90-SAME: #tile.gpu_config<max_tile_size = 64, {{.*}}split_k = 16, batch_loops = true, mma = true,
// SM90: tile.loop %k = 0 to 256 step %tile_k body
// SM90: tile.loop %i = 0 to 16 step %tile_i body
// SM90-NOT: gpu_config
// SM90: %[[R:.*]] = tile.rmax %{{.*}} : !tile.tile<[tile_i_s1, tile_j_s1], f32> -> !tile.tile<[tile_i_s1], f32>
// SM90: tile.loop %j_s1 = 0 to 512 step %tile_j_s1 body
// SM90: tile.loop %i_s1 = 0 to 16 step %tile_i_s1 body %{{.*}} {tile.gpu_config = #tile.gpu_config<max_tile_size = 1024, min_blocks = 264, element_loops = false, split_k = 16, pipeline_loads = 0>}
// GIVEN-LABEL: tile.program @softmax_like
// GIVEN: tile.loop %i_s1 = 0 to 16 step %tile_i_s1 body %{{.*}} {tile.gpu_config = #tile.gpu_config<max_tile_size = 1024, min_blocks = 264, element_loops = false, split_k = 2, mma = false, pipeline_loads = 0>}
// NOSTMT-LABEL: tile.program @softmax_like
// NOSTMT-NOT: _s1
// NOSTMT: tile.yield
tile.program @softmax_like(%A: !tile.tensor<16x256xf16, input>,
                           %B: !tile.tensor<256x512xf16, input>,
                           %C: !tile.tensor<16x512xf32, intermediate>,
                           %M: !tile.tensor<16xf32, output>) {
  %i = tile.var "i"
  %j = tile.var "j"
  %k = tile.var "k"
  %ti = tile.size "tile_i"
  %tj = tile.size "tile_j"
  %tk = tile.size "tile_k"
  %xi = tile.tile %i
  %xj = tile.tile %j
  %xk = tile.tile %k
  %a = tile.load %A[%xi, %xk] : !tile.tensor<16x256xf16, input> -> !tile.tile<[tile_i, tile_k], f16>
  %b = tile.load %B[%xk, %xj] : !tile.tensor<256x512xf16, input> -> !tile.tile<[tile_k, tile_j], f16>
  %m = tile.matmul %a, %b : !tile.tile<[tile_i, tile_k], f16>, !tile.tile<[tile_k, tile_j], f16> -> !tile.tile<[tile_i, tile_j], f32>
  %c = tile.load %C[%xi, %xj] : !tile.tensor<16x512xf32, intermediate> -> !tile.tile<[tile_i, tile_j], f32>
  %n = tile.add %c, %m : !tile.tile<[tile_i, tile_j], f32>
  %s = tile.store %n, %C[%xi, %xj] : !tile.tile<[tile_i, tile_j], f32>, !tile.tensor<16x512xf32, intermediate>
  %lk = tile.loop %k = 0 to 256 step %tk body %s
  %lj = tile.loop %j = 0 to 512 step %tj body %lk
  %li = tile.loop %i = 0 to 16 step %ti body %lj
  %c2 = tile.load %C[%xi, %xj] : !tile.tensor<16x512xf32, intermediate> -> !tile.tile<[tile_i, tile_j], f32>
  %r = tile.rmax %c2, 1 : !tile.tile<[tile_i, tile_j], f32> -> !tile.tile<[tile_i], f32>
  %o = tile.load %M[%xi] : !tile.tensor<16xf32, output> -> !tile.tile<[tile_i], f32>
  %x = tile.max %o, %r : !tile.tile<[tile_i], f32>
  %t = tile.store %x, %M[%xi] : !tile.tile<[tile_i], f32>, !tile.tensor<16xf32, output>
  %mj = tile.loop %j = 0 to 512 step %tj body %t
  %mi = tile.loop %i = 0 to 16 step %ti body %mj
  %seq = tile.seq %li, %mi
  tile.yield %seq
}

// -----

// A norm's statistic beside a GEMM and no max reduction (RMSNorm @ W): the
// statement keeps the program's configuration and its sizes (apart, such
// statements measured slower: LayerNorm @ W 18.7 -> 24.9 us on the H200).
// SM90-LABEL: tile.program @norm_gemm
// SM90-SAME: split_k = 4, batch_loops = true, mma = true,
// SM90-NOT: _s1
// SM90: tile.yield
tile.program @norm_gemm(%A: !tile.tensor<16x256xf16, input>,
                        %B: !tile.tensor<256x512xf16, input>,
                        %C: !tile.tensor<16x512xf32, output>,
                        %S: !tile.tensor<16xf32, output>) {
  %i = tile.var "i"
  %j = tile.var "j"
  %k = tile.var "k"
  %ti = tile.size "tile_i"
  %tj = tile.size "tile_j"
  %tk = tile.size "tile_k"
  %xi = tile.tile %i
  %xj = tile.tile %j
  %xk = tile.tile %k
  %a0 = tile.load %A[%xi, %xk] : !tile.tensor<16x256xf16, input> -> !tile.tile<[tile_i, tile_k], f16>
  %a1 = tile.cast %a0 : !tile.tile<[tile_i, tile_k], f16> -> !tile.tile<[tile_i, tile_k], f32>
  %q = tile.sqr %a1 : !tile.tile<[tile_i, tile_k], f32>
  %r = tile.rsum %q, 1 : !tile.tile<[tile_i, tile_k], f32> -> !tile.tile<[tile_i], f32>
  %o = tile.load %S[%xi] : !tile.tensor<16xf32, output> -> !tile.tile<[tile_i], f32>
  %x = tile.add %o, %r : !tile.tile<[tile_i], f32>
  %t = tile.store %x, %S[%xi] : !tile.tile<[tile_i], f32>, !tile.tensor<16xf32, output>
  %sk = tile.loop %k = 0 to 256 step %tk body %t
  %si = tile.loop %i = 0 to 16 step %ti body %sk
  %a = tile.load %A[%xi, %xk] : !tile.tensor<16x256xf16, input> -> !tile.tile<[tile_i, tile_k], f16>
  %b = tile.load %B[%xk, %xj] : !tile.tensor<256x512xf16, input> -> !tile.tile<[tile_k, tile_j], f16>
  %m = tile.matmul %a, %b : !tile.tile<[tile_i, tile_k], f16>, !tile.tile<[tile_k, tile_j], f16> -> !tile.tile<[tile_i, tile_j], f32>
  %c = tile.load %C[%xi, %xj] : !tile.tensor<16x512xf32, output> -> !tile.tile<[tile_i, tile_j], f32>
  %n = tile.add %c, %m : !tile.tile<[tile_i, tile_j], f32>
  %s = tile.store %n, %C[%xi, %xj] : !tile.tile<[tile_i, tile_j], f32>, !tile.tensor<16x512xf32, output>
  %lk = tile.loop %k = 0 to 256 step %tk body %s
  %lj = tile.loop %j = 0 to 512 step %tj body %lk
  %li = tile.loop %i = 0 to 16 step %ti body %lj
  %seq = tile.seq %si, %li
  tile.yield %seq
}

// -----

// A GEMM of prefill size (256 x 256 outputs): block matmuls of 128 x 128
// tiles, split only below one block per SM (sm_90: 132; sm_80: 108).
// SM90-LABEL: tile.program @prefill_gemm
// SM90-SAME: #tile.gpu_config<max_tile_size = 128, min_blocks = 132, {{.*}}mma = true, warp_loops = true, block_matmul = true,
// SM80-LABEL: tile.program @prefill_gemm
// SM80-SAME: #tile.gpu_config<max_tile_size = 128, min_blocks = 108, {{.*}}mma = true, warp_loops = true, block_matmul = true,
tile.program @prefill_gemm(%A: !tile.tensor<256x512xf16, input>,
                           %B: !tile.tensor<512x256xf16, input>,
                           %C: !tile.tensor<256x256xf32, output>) {
  %i = tile.var "i"
  %j = tile.var "j"
  %k = tile.var "k"
  %ti = tile.size "tile_i"
  %tj = tile.size "tile_j"
  %tk = tile.size "tile_k"
  %xi = tile.tile %i
  %xj = tile.tile %j
  %xk = tile.tile %k
  %a = tile.load %A[%xi, %xk] : !tile.tensor<256x512xf16, input> -> !tile.tile<[tile_i, tile_k], f16>
  %b = tile.load %B[%xk, %xj] : !tile.tensor<512x256xf16, input> -> !tile.tile<[tile_k, tile_j], f16>
  %m = tile.matmul %a, %b : !tile.tile<[tile_i, tile_k], f16>, !tile.tile<[tile_k, tile_j], f16> -> !tile.tile<[tile_i, tile_j], f32>
  %c = tile.load %C[%xi, %xj] : !tile.tensor<256x256xf32, output> -> !tile.tile<[tile_i, tile_j], f32>
  %n = tile.add %c, %m : !tile.tile<[tile_i, tile_j], f32>
  %s = tile.store %n, %C[%xi, %xj] : !tile.tile<[tile_i, tile_j], f32>, !tile.tensor<256x256xf32, output>
  %lk = tile.loop %k = 0 to 512 step %tk body %s
  %lj = tile.loop %j = 0 to 256 step %tj body %lk
  %li = tile.loop %i = 0 to 256 step %ti body %lj
  tile.yield %li
}

// -----

// Beside another statement (an elementwise epilogue), the prefill GEMM is
// configured apart (`_s0`); the epilogue keeps the program's 64-wide tiles.
// Batched matmuls (attention's heads) are not GEMMs of prefill size.
// SM90-LABEL: tile.program @prefill_gemm_epilogue
// SM90-SAME: #tile.gpu_config<max_tile_size = 64, min_blocks = 2048,
// SM90: tile.loop %i_s0 = 0 to 256 step %tile_i_s0 body %{{.*}} {tile.gpu_config = #tile.gpu_config<max_tile_size = 128, min_blocks = 132, {{.*}}block_matmul = true,
// SM90-NOT: gpu_config
// SM90: tile.yield
// SM90-LABEL: tile.program @batched
// SM90-SAME: #tile.gpu_config<max_tile_size = 64, min_blocks = 2048,
// SM90-NOT: gpu_config
// SM90: tile.yield
tile.program @prefill_gemm_epilogue(%A: !tile.tensor<256x512xf16, input>,
                                    %B: !tile.tensor<512x256xf16, input>,
                                    %C: !tile.tensor<256x256xf32, intermediate>,
                                    %O: !tile.tensor<256x256xf16, output>) {
  %i = tile.var "i"
  %j = tile.var "j"
  %k = tile.var "k"
  %ti = tile.size "tile_i"
  %tj = tile.size "tile_j"
  %tk = tile.size "tile_k"
  %xi = tile.tile %i
  %xj = tile.tile %j
  %xk = tile.tile %k
  %a = tile.load %A[%xi, %xk] : !tile.tensor<256x512xf16, input> -> !tile.tile<[tile_i, tile_k], f16>
  %b = tile.load %B[%xk, %xj] : !tile.tensor<512x256xf16, input> -> !tile.tile<[tile_k, tile_j], f16>
  %m = tile.matmul %a, %b : !tile.tile<[tile_i, tile_k], f16>, !tile.tile<[tile_k, tile_j], f16> -> !tile.tile<[tile_i, tile_j], f32>
  %c = tile.load %C[%xi, %xj] : !tile.tensor<256x256xf32, intermediate> -> !tile.tile<[tile_i, tile_j], f32>
  %n = tile.add %c, %m : !tile.tile<[tile_i, tile_j], f32>
  %s = tile.store %n, %C[%xi, %xj] : !tile.tile<[tile_i, tile_j], f32>, !tile.tensor<256x256xf32, intermediate>
  %lk = tile.loop %k = 0 to 512 step %tk body %s
  %lj = tile.loop %j = 0 to 256 step %tj body %lk
  %li = tile.loop %i = 0 to 256 step %ti body %lj
  %c2 = tile.load %C[%xi, %xj] : !tile.tensor<256x256xf32, intermediate> -> !tile.tile<[tile_i, tile_j], f32>
  %h = tile.cast %c2 : !tile.tile<[tile_i, tile_j], f32> -> !tile.tile<[tile_i, tile_j], f16>
  %t = tile.store %h, %O[%xi, %xj] : !tile.tile<[tile_i, tile_j], f16>, !tile.tensor<256x256xf16, output>
  %ej = tile.loop %j = 0 to 256 step %tj body %t
  %ei = tile.loop %i = 0 to 256 step %ti body %ej
  %seq = tile.seq %li, %ei
  tile.yield %seq
}

tile.program @batched(%A: !tile.tensor<8x256x128xf16, input>,
                      %B: !tile.tensor<8x128x256xf16, input>,
                      %C: !tile.tensor<8x256x256xf32, output>) {
  %h = tile.var "h"
  %i = tile.var "i"
  %j = tile.var "j"
  %k = tile.var "k"
  %th = tile.size "tile_h"
  %ti = tile.size "tile_i"
  %tj = tile.size "tile_j"
  %tk = tile.size "tile_k"
  %xh = tile.tile %h
  %xi = tile.tile %i
  %xj = tile.tile %j
  %xk = tile.tile %k
  %a = tile.load %A[%xh, %xi, %xk] : !tile.tensor<8x256x128xf16, input> -> !tile.tile<[tile_h, tile_i, tile_k], f16>
  %b = tile.load %B[%xh, %xk, %xj] : !tile.tensor<8x128x256xf16, input> -> !tile.tile<[tile_h, tile_k, tile_j], f16>
  %m = tile.matmul %a, %b : !tile.tile<[tile_h, tile_i, tile_k], f16>, !tile.tile<[tile_h, tile_k, tile_j], f16> -> !tile.tile<[tile_h, tile_i, tile_j], f32>
  %c = tile.load %C[%xh, %xi, %xj] : !tile.tensor<8x256x256xf32, output> -> !tile.tile<[tile_h, tile_i, tile_j], f32>
  %n = tile.add %c, %m : !tile.tile<[tile_h, tile_i, tile_j], f32>
  %s = tile.store %n, %C[%xh, %xi, %xj] : !tile.tile<[tile_h, tile_i, tile_j], f32>, !tile.tensor<8x256x256xf32, output>
  %lk = tile.loop %k = 0 to 128 step %tk body %s
  %lj = tile.loop %j = 0 to 256 step %tj body %lk
  %li = tile.loop %i = 0 to 256 step %ti body %lj
  %lh = tile.loop %h = 0 to 8 step %th body %li
  tile.yield %lh
}

// -----

// Elementwise only (no matmul, no reduction): tiles up to 1024 wide, two
// blocks per SM, whole blocks per tile.
// SM90-LABEL: tile.program @scale
// SM90-SAME: #tile.gpu_config<max_tile_size = 1024, min_blocks = 264, block_size = 256, shared_memory = 49152, element_loops = false, batch_loops = true, mma = false,
tile.program @scale(%A: !tile.tensor<64x16xf32, input>,
                    %B: !tile.tensor<64x16xf32, output>) {
  %i = tile.var "i"
  %j = tile.var "j"
  %ti = tile.size "tile_i"
  %tj = tile.size "tile_j"
  %xi = tile.tile %i
  %xj = tile.tile %j
  %a = tile.load %A[%xi, %xj] : !tile.tensor<64x16xf32, input> -> !tile.tile<[tile_i, tile_j], f32>
  %e = tile.exp %a : !tile.tile<[tile_i, tile_j], f32>
  %s = tile.store %e, %B[%xi, %xj] : !tile.tile<[tile_i, tile_j], f32>, !tile.tensor<64x16xf32, output>
  %lj = tile.loop %j = 0 to 16 step %tj body %s
  %l = tile.loop %i = 0 to 64 step %ti body %lj
  tile.yield %l
}

// -----

// bf16 GEMMs take the matrix units too (block matmuls are the path that
// runs them; the others check for f16 themselves), at prefill size with the
// same settings as f16.
// SM90-LABEL: tile.program @prefill_gemm_bf16
// SM90-SAME: #tile.gpu_config<max_tile_size = 128, min_blocks = 132, {{.*}}mma = true, warp_loops = true, block_matmul = true,
tile.program @prefill_gemm_bf16(%A: !tile.tensor<256x512xbf16, input>,
                                %B: !tile.tensor<512x256xbf16, input>,
                                %C: !tile.tensor<256x256xf32, output>) {
  %i = tile.var "i"
  %j = tile.var "j"
  %k = tile.var "k"
  %ti = tile.size "tile_i"
  %tj = tile.size "tile_j"
  %tk = tile.size "tile_k"
  %xi = tile.tile %i
  %xj = tile.tile %j
  %xk = tile.tile %k
  %a = tile.load %A[%xi, %xk] : !tile.tensor<256x512xbf16, input> -> !tile.tile<[tile_i, tile_k], bf16>
  %b = tile.load %B[%xk, %xj] : !tile.tensor<512x256xbf16, input> -> !tile.tile<[tile_k, tile_j], bf16>
  %m = tile.matmul %a, %b : !tile.tile<[tile_i, tile_k], bf16>, !tile.tile<[tile_k, tile_j], bf16> -> !tile.tile<[tile_i, tile_j], f32>
  %c = tile.load %C[%xi, %xj] : !tile.tensor<256x256xf32, output> -> !tile.tile<[tile_i, tile_j], f32>
  %n = tile.add %c, %m : !tile.tile<[tile_i, tile_j], f32>
  %s = tile.store %n, %C[%xi, %xj] : !tile.tile<[tile_i, tile_j], f32>, !tile.tensor<256x256xf32, output>
  %lk = tile.loop %k = 0 to 512 step %tk body %s
  %lj = tile.loop %j = 0 to 256 step %tj body %lk
  %li = tile.loop %i = 0 to 256 step %ti body %lj
  tile.yield %li
}
