// Split accumulations add their partial sums to the f32 result with one
// vector reduction (red.global.add.v4.f32, inline PTX) per aligned run of 4
// elements, or 2, with `vector-atomics`; element by element without it, and
// where the result's rows are not aligned runs.
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={split_k = 2, thread_elements = 64, min_blocks = 8, vector_atomics = true, max_tile_size = 0}" --canonicalize --cse | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={split_k = 2, thread_elements = 64, min_blocks = 8, k_slices = 1, vector_atomics = true, max_tile_size = 0}" --canonicalize --cse | FileCheck %s --check-prefix=NOSLICES
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={split_k = 2, thread_elements = 64, min_blocks = 8, max_tile_size = 0}" --canonicalize --cse | FileCheck %s --check-prefix=OFF
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={split_k = 2, thread_elements = 2, min_blocks = 8, k_slices = 1, vector_atomics = true, max_tile_size = 0}" --canonicalize --cse | FileCheck %s --check-prefix=PAIRS
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={split_k = 2, thread_elements = 2, min_blocks = 8, vector_atomics = true, max_tile_size = 0}" --canonicalize --cse | FileCheck %s --check-prefix=PAIRS
// RUN: not tile-opt %s --split-input-file --tile-lower-to-gpu="config={split_k = 2, thread_elements = 64, min_blocks = 8, vector_atomics = true, max_tile_size = 0}" --tile-gpu-to-host 2>&1 | FileCheck %s --check-prefix=HOST

// S[16, 128] += X W in 2 chunks per 16x32 tile, each cut into 8 k slices
// whose partial tiles meet in shared memory: each thread then sums the
// slices of runs of 4 consecutive elements (512 / 4 = 128 runs on 64
// threads) and adds each run with one vector reduction at its address (the
// tensor's aligned pointer plus 4 bytes per element). With k-slices=1 the
// 16 lanes of a thread (2 rows of 8 columns) are 4 runs, added straight
// from the registers. Without the option: one atomic_rmw per element.
// CHECK-LABEL: func.func @runs4
// CHECK: gpu.func @runs4_k0
// CHECK: gpu.barrier
// CHECK-NEXT: scf.for %{{.*}} = %thread_id_x to %c128 step %c64 {
// CHECK-COUNT-32: memref.load
// CHECK: memref.extract_aligned_pointer_as_index %arg2 : memref<2048xf32> -> index
// CHECK: llvm.inline_asm has_side_effects "{ .reg .b64 %ga; cvta.to.global.u64 %ga, $0; red.global.add.v4.f32 [%ga], {$1, $2, $3, $4}; }", "l,f,f,f,f"
// CHECK-NOT: memref.atomic_rmw
// CHECK: gpu.barrier
// CHECK-NEXT: gpu.return
// NOSLICES-LABEL: gpu.func @runs4_k0
// NOSLICES-NOT: memref.atomic_rmw
// NOSLICES-COUNT-4: llvm.inline_asm has_side_effects "{{.*}}red.global.add.v4.f32
// NOSLICES-NOT: llvm.inline_asm
// NOSLICES: gpu.return
// OFF-LABEL: gpu.func @runs4_k0
// OFF-NOT: llvm.inline_asm
// OFF: memref.atomic_rmw addf
// OFF-NOT: llvm.inline_asm
// OFF: gpu.return
// HOST: error: 'llvm.inline_asm' op is device assembly, which the host emulation cannot run; lower with vector-atomics=false to emulate
tile.program @runs4(%X: !tile.tensor<16x64xf16, input>,
                    %W: !tile.tensor<64x128xf16, input>,
                    %S: !tile.tensor<16x128xf32, output>) attributes {tile.tile_sizes = {tile_n = 32, tile_k = 4}} {
  %n = tile.var "n"
  %k = tile.var "k"
  %sn = tile.size "tile_n"
  %sk = tile.size "tile_k"
  %full = tile.full
  %tn = tile.tile %n
  %tk = tile.tile %k
  %x = tile.load %X[%full, %tk] : !tile.tensor<16x64xf16, input> -> !tile.tile<[16, tile_k], f16>
  %w = tile.load %W[%tk, %tn] : !tile.tensor<64x128xf16, input> -> !tile.tile<[tile_k, tile_n], f16>
  %mm = tile.matmul %x, %w : !tile.tile<[16, tile_k], f16>, !tile.tile<[tile_k, tile_n], f16> -> !tile.tile<[16, tile_n], f32>
  %s = tile.load %S[%full, %tn] : !tile.tensor<16x128xf32, output> -> !tile.tile<[16, tile_n], f32>
  %a = tile.add %s, %mm : !tile.tile<[16, tile_n], f32>
  %st = tile.store %a, %S[%full, %tn] : !tile.tile<[16, tile_n], f32>, !tile.tensor<16x128xf32, output>
  %lk = tile.loop %k = 0 to 64 step %sk body %st
  %ln = tile.loop %n = 0 to 128 step %sn body %lk
  tile.yield %ln
}

// -----

// Rows of 6 elements: runs of 2 (8-byte vector reductions). With 2 lanes
// per thread (a lane block of 1 x 2), from the registers or from the k
// slices' sums in shared memory. With 64 elements per thread and 8 slices
// the tile of 96 would leave the block 16 threads: threads take 8 elements
// each instead and the block 8 slices (96 threads), whose sums meet in
// shared memory and are added in runs of 2. Without slices, 3 strided
// lanes per thread (96 elements on 32 threads) are not a run: one atomic
// each.
// PAIRS-LABEL: gpu.func @runs2_k0
// PAIRS-NOT: memref.atomic_rmw
// PAIRS: red.global.add.v2.f32 [%ga], {$1, $2}; }", "l,f,f"
// PAIRS-NOT: memref.atomic_rmw
// PAIRS: gpu.return
// CHECK-LABEL: gpu.func @runs2_k0
// CHECK-SAME: known_block_size = array<i32: 96, 1, 1>
// CHECK-NOT: memref.atomic_rmw
// CHECK: red.global.add.v2.f32 [%ga], {$1, $2}; }", "l,f,f"
// CHECK-NOT: memref.atomic_rmw
// CHECK: gpu.return
// NOSLICES-LABEL: gpu.func @runs2_k0
// NOSLICES-NOT: llvm.inline_asm
// NOSLICES-COUNT-3: memref.atomic_rmw
// NOSLICES-NOT: llvm.inline_asm
// NOSLICES: gpu.return
tile.program @runs2(%X: !tile.tensor<16x64xf32, input>,
                    %W: !tile.tensor<64x6xf32, input>,
                    %S: !tile.tensor<16x6xf32, output>) attributes {tile.tile_sizes = {tile_k = 4}} {
  %k = tile.var "k"
  %sk = tile.size "tile_k"
  %full = tile.full
  %tk = tile.tile %k
  %x = tile.load %X[%full, %tk] : !tile.tensor<16x64xf32, input> -> !tile.tile<[16, tile_k], f32>
  %w = tile.load %W[%tk, %full] : !tile.tensor<64x6xf32, input> -> !tile.tile<[tile_k, 6], f32>
  %mm = tile.matmul %x, %w : !tile.tile<[16, tile_k], f32>, !tile.tile<[tile_k, 6], f32> -> !tile.tile<[16, 6], f32>
  %s = tile.load %S[%full, %full] : !tile.tensor<16x6xf32, output> -> !tile.tile<[16, 6], f32>
  %a = tile.add %s, %mm : !tile.tile<[16, 6], f32>
  %st = tile.store %a, %S[%full, %full] : !tile.tile<[16, 6], f32>, !tile.tensor<16x6xf32, output>
  %lk = tile.loop %k = 0 to 64 step %sk body %st
  tile.yield %lk
}

// -----

// Rows of 5 elements are not aligned runs: one atomic per element.
// CHECK-LABEL: gpu.func @runs1_k0
// CHECK-NOT: llvm.inline_asm
// CHECK: memref.atomic_rmw addf
// CHECK-NOT: llvm.inline_asm
// CHECK: gpu.return
tile.program @runs1(%X: !tile.tensor<16x64xf32, input>,
                    %W: !tile.tensor<64x5xf32, input>,
                    %S: !tile.tensor<16x5xf32, output>) attributes {tile.tile_sizes = {tile_k = 4}} {
  %k = tile.var "k"
  %sk = tile.size "tile_k"
  %full = tile.full
  %tk = tile.tile %k
  %x = tile.load %X[%full, %tk] : !tile.tensor<16x64xf32, input> -> !tile.tile<[16, tile_k], f32>
  %w = tile.load %W[%tk, %full] : !tile.tensor<64x5xf32, input> -> !tile.tile<[tile_k, 5], f32>
  %mm = tile.matmul %x, %w : !tile.tile<[16, tile_k], f32>, !tile.tile<[tile_k, 5], f32> -> !tile.tile<[16, 5], f32>
  %s = tile.load %S[%full, %full] : !tile.tensor<16x5xf32, output> -> !tile.tile<[16, 5], f32>
  %a = tile.add %s, %mm : !tile.tile<[16, 5], f32>
  %st = tile.store %a, %S[%full, %full] : !tile.tile<[16, 5], f32>, !tile.tensor<16x5xf32, output>
  %lk = tile.loop %k = 0 to 64 step %sk body %st
  tile.yield %lk
}
