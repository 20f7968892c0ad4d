// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={element_loops = false, mma = true, max_tile_size = 0}" --canonicalize --cse | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={element_loops = false, max_tile_size = 0}" --canonicalize --cse | FileCheck %s --check-prefix=OFF
// RUN: %if cuda-toolkit %{ tile-opt %s --split-input-file --tile-lower-to-nvvm="format=isa config={element_loops = false, mma = true}" | FileCheck %s --check-prefix=PTX %}
// RUN: %if cuda %{ tile-run %s --entry mm --device cuda --gpu-config="element_loops = false, mma = true" | FileCheck %s --check-prefix=GPU %}
// RUN: tile-run %s --entry mm --device emulate --gpu-config="element_loops = false, mma = true" | FileCheck %s --check-prefix=GPU
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={mma = true, thread_elements = 16, max_tile_size = 0}" --canonicalize --cse | FileCheck %s --check-prefix=SYNC
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={thread_elements = 16, max_tile_size = 0}" --canonicalize --cse | FileCheck %s --check-prefix=NOSYNC
// RUN: %if cuda-toolkit %{ tile-opt %s --split-input-file --tile-lower-to-nvvm="format=isa config={mma = true, thread_elements = 16}" | FileCheck %s --check-prefix=SYNCPTX %}
// RUN: not tile-run %s --entry sync_bf16 --device emulate --gpu-config="mma = true, thread_elements = 16" 2>&1 | FileCheck %s --check-prefix=EMULATE
// GPU: PASS
// EMULATE: error: 'llvm.inline_asm' op exchanges registers across a warp's threads

// With mma, a matmul of f16 tiles into f32 with sizes that are multiples of
// 16 is computed by warps on the matrix units: the operands are staged as
// f16 in shared memory, one warp per 16x16 result tile.
// CHECK-LABEL: gpu.func @mm_k0
// CHECK-SAME: workgroup(%[[F32:.*]] : memref<1024xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[F16:.*]] : memref<2048xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK: memref.store {{.*}}, %[[F16]]
// CHECK: gpu.barrier
// CHECK: gpu.subgroup_mma_constant_matrix
// CHECK: gpu.subgroup_mma_load_matrix %[[F16]]{{.*}} -> !gpu.mma_matrix<16x16xf16, "AOp">
// CHECK: gpu.subgroup_mma_load_matrix %[[F16]]{{.*}} -> !gpu.mma_matrix<16x16xf16, "BOp">
// CHECK: gpu.subgroup_mma_compute
// CHECK: gpu.subgroup_mma_store_matrix {{.*}}, %[[F32]]
// OFF-LABEL: gpu.func @mm_k0
// OFF-NOT: subgroup_mma
// OFF: gpu.return
// PTX: wmma.mma.sync.aligned.row.row.m16n16k16.f32.f32
tile.program @mm(%A: !tile.tensor<32x64xf16, input>, %B: !tile.tensor<64x32xf16, input>,
                 %C: !tile.tensor<32x32xf32, output>) attributes {tile.tile_sizes = {tile_k = 32}} {
  %k = tile.var "k"
  %tk = tile.size "tile_k"
  %t = tile.tile %k
  %full = tile.full
  %a = tile.load %A[%full, %t] : !tile.tensor<32x64xf16, input> -> !tile.tile<[32, tile_k], f16>
  %b = tile.load %B[%t, %full] : !tile.tensor<64x32xf16, input> -> !tile.tile<[tile_k, 32], f16>
  %c = tile.load %C[%full, %full] : !tile.tensor<32x32xf32, output> -> !tile.tile<[32, 32], f32>
  %p = tile.matmul %a, %b : !tile.tile<[32, tile_k], f16>, !tile.tile<[tile_k, 32], f16> -> !tile.tile<[32, 32], f32>
  %n = tile.add %c, %p : !tile.tile<[32, 32], f32>
  %s = tile.store %n, %C[%full, %full] : !tile.tile<[32, 32], f32>, !tile.tensor<32x32xf32, output>
  %l = tile.loop %k = 0 to 64 step %tk body %s
  tile.yield %l
}

// -----

// A 24-row matmul is not a multiple of 16: the vector units compute it.
// CHECK-LABEL: gpu.func @odd_k0
// CHECK-NOT: subgroup_mma
// CHECK: gpu.return
tile.program @odd(%A: !tile.tensor<24x32xf16, input>, %B: !tile.tensor<32x32xf16, input>,
                  %C: !tile.tensor<24x32xf32, output>) {
  %full = tile.full
  %a = tile.load %A[%full, %full] : !tile.tensor<24x32xf16, input> -> !tile.tile<[24, 32], f16>
  %b = tile.load %B[%full, %full] : !tile.tensor<32x32xf16, input> -> !tile.tile<[32, 32], f16>
  %p = tile.matmul %a, %b : !tile.tile<[24, 32], f16>, !tile.tile<[32, 32], f16> -> !tile.tile<[24, 32], f32>
  %s = tile.store %p, %C[%full, %full] : !tile.tile<[24, 32], f32>, !tile.tensor<24x32xf32, output>
  tile.yield %s
}

// -----

// f32 operands: the vector units compute it.
// CHECK-LABEL: gpu.func @wide_k0
// CHECK-NOT: subgroup_mma
// CHECK: gpu.return
tile.program @wide(%A: !tile.tensor<32x32xf32, input>, %B: !tile.tensor<32x32xf32, input>,
                   %C: !tile.tensor<32x32xf32, output>) {
  %full = tile.full
  %a = tile.load %A[%full, %full] : !tile.tensor<32x32xf32, input> -> !tile.tile<[32, 32], f32>
  %b = tile.load %B[%full, %full] : !tile.tensor<32x32xf32, input> -> !tile.tile<[32, 32], f32>
  %p = tile.matmul %a, %b : !tile.tile<[32, 32], f32>, !tile.tile<[32, 32], f32> -> !tile.tile<[32, 32], f32>
  %s = tile.store %p, %C[%full, %full] : !tile.tile<[32, 32], f32>, !tile.tensor<32x32xf32, output>
  tile.yield %s
}

// -----

// With element loops, an accumulation whose lanes hold a matmul of f16
// tiles with 16-row tiles and B's rows loadable as vectors runs on the
// matrix units from registers: each warp holds a 16 x 32 tile as 4
// m16n8k16 tiles; per 16 steps of k a lane needs 4 values of A's rows g and
// g + 8 and 4 of each of 4 rows of B (one column of each tile), and 4
// nvgpu.mma.sync; tile_k = 32 is 2 such steps, all loads first, paired: one
// run of 8 values of each of A's rows (16 bytes) and 8 rows of B. Without
// mma, the lanes are blocks of rows on the vector units.
// SYNC-LABEL: gpu.func @sync_k0
// SYNC-COUNT-2: vector.load %arg0{{.*}} : memref<1024xf16>, vector<8xf16>
// SYNC-COUNT-8: vector.load %arg1{{.*}} : memref<8192xf16>, vector<4xf16>
// SYNC-NOT: vector.load
// SYNC: %[[T0:.*]] = nvgpu.mma.sync({{.*}}, %[[ZERO:.*]]) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// SYNC-COUNT-3: nvgpu.mma.sync({{.*}}, %[[ZERO]])
// SYNC: nvgpu.mma.sync({{.*}}, %[[T0]])
// SYNC-COUNT-3: nvgpu.mma.sync
// SYNC-NOT: nvgpu.mma.sync
// SYNC: gpu.return
// NOSYNC-LABEL: gpu.func @sync_k0
// NOSYNC-NOT: nvgpu
// NOSYNC: gpu.return
// SYNCPTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
tile.program @sync(%X: !tile.tensor<16x64xf16, input>,
                   %W: !tile.tensor<64x128xf16, input>,
                   %S: !tile.tensor<16x128xf32, output>) attributes {tile.tile_sizes = {tile_n = 32, tile_k = 32}} {
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

// B stored transposed ([n, k], as K in Q K^T): per pair of 16 steps of k a
// lane loads one run of 8 values of k (16 bytes) along each tile's row of W
// (its column of B), and the matrix units compute the accumulation.
// SYNC-LABEL: gpu.func @sync_transposed_k0
// SYNC-COUNT-2: vector.load %arg0{{.*}} : memref<1024xf16>, vector<8xf16>
// SYNC-COUNT-4: vector.load %arg1{{.*}} : memref<8192xf16>, vector<8xf16>
// SYNC-NOT: vector.load
// SYNC-COUNT-8: nvgpu.mma.sync
// SYNC-NOT: nvgpu.mma.sync
// SYNC: gpu.return
tile.program @sync_transposed(%X: !tile.tensor<16x64xf16, input>,
                   %W: !tile.tensor<128x64xf16, input>,
                   %S: !tile.tensor<16x128xf32, output>) attributes {tile.tile_sizes = {tile_n = 32, tile_k = 32}} {
  %n = tile.var "n"
  %k = tile.var "k"
  %sn = tile.size "tile_n"
  %sk = tile.size "tile_k"
  %full = tile.full
  %tn = tile.tile %n
  %tk = tile.tile %k
  %x = tile.load %X[%full, %tk] : !tile.tensor<16x64xf16, input> -> !tile.tile<[16, tile_k], f16>
  %wt = tile.load %W[%tn, %tk] : !tile.tensor<128x64xf16, input> -> !tile.tile<[tile_n, tile_k], f16>
  %w = tile.permute %wt [1, 0] : !tile.tile<[tile_n, tile_k], f16> -> !tile.tile<[tile_k, tile_n], f16>
  %mm = tile.matmul %x, %w : !tile.tile<[16, tile_k], f16>, !tile.tile<[tile_k, tile_n], f16> -> !tile.tile<[16, tile_n], f32>
  %s = tile.load %S[%full, %tn] : !tile.tensor<16x128xf32, output> -> !tile.tile<[16, tile_n], f32>
  %a = tile.add %s, %mm : !tile.tile<[16, tile_n], f32>
  %st = tile.store %a, %S[%full, %tn] : !tile.tile<[16, tile_n], f32>, !tile.tensor<16x128xf32, output>
  %lk = tile.loop %k = 0 to 64 step %sk body %st
  %ln = tile.loop %n = 0 to 128 step %sn body %lk
  tile.yield %ln
}

// -----

// bf16 operands take the same lanes (bf16 loads, one mma.sync m16n8k16 per
// tile and step), the instruction as inline PTX (nvgpu's conversion does
// not type bf16). Here B is nn.Linear's [n, k] weight.
// SYNC-LABEL: gpu.func @sync_bf16_k0
// SYNC-COUNT-2: vector.load %arg0{{.*}} : memref<1024xbf16>, vector<8xbf16>
// SYNC-COUNT-4: vector.load %arg1{{.*}} : memref<8192xbf16>, vector<8xbf16>
// SYNC-NOT: vector.load
// SYNC-COUNT-8: llvm.inline_asm "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// SYNC-NOT: mma.sync
// SYNC: gpu.return
// NOSYNC-LABEL: gpu.func @sync_bf16_k0
// NOSYNC-NOT: mma.sync
// NOSYNC: gpu.return
// SYNCPTX: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
tile.program @sync_bf16(%X: !tile.tensor<16x64xbf16, input>,
                   %W: !tile.tensor<128x64xbf16, input>,
                   %S: !tile.tensor<16x128xf32, output>) attributes {tile.tile_sizes = {tile_n = 32, tile_k = 32}} {
  %n = tile.var "n"
  %k = tile.var "k"
  %sn = tile.size "tile_n"
  %sk = tile.size "tile_k"
  %full = tile.full
  %tn = tile.tile %n
  %tk = tile.tile %k
  %x = tile.load %X[%full, %tk] : !tile.tensor<16x64xbf16, input> -> !tile.tile<[16, tile_k], bf16>
  %wt = tile.load %W[%tn, %tk] : !tile.tensor<128x64xbf16, input> -> !tile.tile<[tile_n, tile_k], bf16>
  %w = tile.permute %wt [1, 0] : !tile.tile<[tile_n, tile_k], bf16> -> !tile.tile<[tile_k, tile_n], bf16>
  %mm = tile.matmul %x, %w : !tile.tile<[16, tile_k], bf16>, !tile.tile<[tile_k, tile_n], bf16> -> !tile.tile<[16, tile_n], f32>
  %s = tile.load %S[%full, %tn] : !tile.tensor<16x128xf32, output> -> !tile.tile<[16, tile_n], f32>
  %a = tile.add %s, %mm : !tile.tile<[16, tile_n], f32>
  %st = tile.store %a, %S[%full, %tn] : !tile.tile<[16, tile_n], f32>, !tile.tensor<16x128xf32, output>
  %lk = tile.loop %k = 0 to 64 step %sk body %st
  %ln = tile.loop %n = 0 to 128 step %sn body %lk
  tile.yield %ln
}

// -----

// A computed left operand is rounded to bf16 when B is bf16: here A is
// X * 2 (elementwise), B row-major ([k, n]) with runs of 4 per row.
// SYNC-LABEL: gpu.func @sync_bf16_computed_k0
// SYNC: arith.truncf {{.*}} : f32 to bf16
// SYNC: llvm.inline_asm "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// SYNC-NOT: nvgpu.mma.sync
// SYNC: gpu.return
tile.program @sync_bf16_computed(%X: !tile.tensor<16x64xbf16, input>,
                   %W: !tile.tensor<64x128xbf16, input>,
                   %S: !tile.tensor<16x128xf32, output>) attributes {tile.tile_sizes = {tile_n = 32, tile_k = 32}} {
  %n = tile.var "n"
  %k = tile.var "k"
  %sn = tile.size "tile_n"
  %sk = tile.size "tile_k"
  %full = tile.full
  %tn = tile.tile %n
  %tk = tile.tile %k
  %x = tile.load %X[%full, %tk] : !tile.tensor<16x64xbf16, input> -> !tile.tile<[16, tile_k], bf16>
  %x2 = tile.add %x, %x : !tile.tile<[16, tile_k], bf16>
  %w = tile.load %W[%tk, %tn] : !tile.tensor<64x128xbf16, input> -> !tile.tile<[tile_k, tile_n], bf16>
  %mm = tile.matmul %x2, %w : !tile.tile<[16, tile_k], bf16>, !tile.tile<[tile_k, tile_n], bf16> -> !tile.tile<[16, tile_n], f32>
  %s = tile.load %S[%full, %tn] : !tile.tensor<16x128xf32, output> -> !tile.tile<[16, tile_n], f32>
  %a = tile.add %s, %mm : !tile.tile<[16, tile_n], f32>
  %st = tile.store %a, %S[%full, %tn] : !tile.tile<[16, tile_n], f32>, !tile.tensor<16x128xf32, output>
  %lk = tile.loop %k = 0 to 64 step %sk body %st
  %ln = tile.loop %n = 0 to 128 step %sn body %lk
  tile.yield %ln
}

// -----

// B transposed, but W's rows are 70 elements long: runs of 4 along them are
// not aligned vectors, so the vector units compute the accumulation.
// SYNC-LABEL: gpu.func @sync_transposed_unaligned_k0
// SYNC-NOT: nvgpu.mma.sync
// SYNC: gpu.return
tile.program @sync_transposed_unaligned(%X: !tile.tensor<16x64xf16, input>,
                   %W: !tile.tensor<128x70xf16, input>,
                   %S: !tile.tensor<16x128xf32, output>) attributes {tile.tile_sizes = {tile_n = 32, tile_k = 32}} {
  %n = tile.var "n"
  %k = tile.var "k"
  %sn = tile.size "tile_n"
  %sk = tile.size "tile_k"
  %full = tile.full
  %tn = tile.tile %n
  %tk = tile.tile %k
  %x = tile.load %X[%full, %tk] : !tile.tensor<16x64xf16, input> -> !tile.tile<[16, tile_k], f16>
  %wt = tile.load %W[%tn, %tk] : !tile.tensor<128x70xf16, input> -> !tile.tile<[tile_n, tile_k], f16>
  %w = tile.permute %wt [1, 0] : !tile.tile<[tile_n, tile_k], f16> -> !tile.tile<[tile_k, tile_n], f16>
  %mm = tile.matmul %x, %w : !tile.tile<[16, tile_k], f16>, !tile.tile<[tile_k, tile_n], f16> -> !tile.tile<[16, tile_n], f32>
  %s = tile.load %S[%full, %tn] : !tile.tensor<16x128xf32, output> -> !tile.tile<[16, tile_n], f32>
  %a = tile.add %s, %mm : !tile.tile<[16, tile_n], f32>
  %st = tile.store %a, %S[%full, %tn] : !tile.tile<[16, tile_n], f32>, !tile.tensor<16x128xf32, output>
  %lk = tile.loop %k = 0 to 64 step %sk body %st
  %ln = tile.loop %n = 0 to 128 step %sn body %lk
  tile.yield %ln
}

// -----

// B transposed with rows of 68 elements: runs of 4 along them are aligned
// 8-byte vectors, runs of 8 are not 16-byte aligned, so the steps are not
// paired (A's runs neither: both operands share the permutation of k).
// SYNC-LABEL: gpu.func @sync_transposed_unpaired_k0
// SYNC-COUNT-2: vector.load %arg0{{.*}} : memref<1024xf16>, vector<4xf16>
// SYNC-COUNT-4: vector.load %arg1{{.*}} : memref<8704xf16>, vector<4xf16>
// SYNC-COUNT-2: vector.load %arg0{{.*}} : memref<1024xf16>, vector<4xf16>
// SYNC-COUNT-4: vector.load %arg1{{.*}} : memref<8704xf16>, vector<4xf16>
// SYNC-NOT: vector.load
// SYNC-COUNT-8: nvgpu.mma.sync
// SYNC-NOT: nvgpu.mma.sync
// SYNC: gpu.return
tile.program @sync_transposed_unpaired(%X: !tile.tensor<16x64xf16, input>,
                   %W: !tile.tensor<128x68xf16, input>,
                   %S: !tile.tensor<16x128xf32, output>) attributes {tile.tile_sizes = {tile_n = 32, tile_k = 32}} {
  %n = tile.var "n"
  %k = tile.var "k"
  %sn = tile.size "tile_n"
  %sk = tile.size "tile_k"
  %full = tile.full
  %tn = tile.tile %n
  %tk = tile.tile %k
  %x = tile.load %X[%full, %tk] : !tile.tensor<16x64xf16, input> -> !tile.tile<[16, tile_k], f16>
  %wt = tile.load %W[%tn, %tk] : !tile.tensor<128x68xf16, input> -> !tile.tile<[tile_n, tile_k], f16>
  %w = tile.permute %wt [1, 0] : !tile.tile<[tile_n, tile_k], f16> -> !tile.tile<[tile_k, tile_n], f16>
  %mm = tile.matmul %x, %w : !tile.tile<[16, tile_k], f16>, !tile.tile<[tile_k, tile_n], f16> -> !tile.tile<[16, tile_n], f32>
  %s = tile.load %S[%full, %tn] : !tile.tensor<16x128xf32, output> -> !tile.tile<[16, tile_n], f32>
  %a = tile.add %s, %mm : !tile.tile<[16, tile_n], f32>
  %st = tile.store %a, %S[%full, %tn] : !tile.tile<[16, tile_n], f32>, !tile.tensor<16x128xf32, output>
  %lk = tile.loop %k = 0 to 64 step %sk body %st
  %ln = tile.loop %n = 0 to 128 step %sn body %lk
  tile.yield %ln
}

// -----

// One step of k covers all of it (tile_k = 64): the loop has one iteration
// but stays the accumulation loop in the block (not a grid loop), so the
// matrix units still compute it: 4 steps of 16 x 4 tiles.
// SYNC-LABEL: gpu.func @sync_one_step_k0
// SYNC-COUNT-16: nvgpu.mma.sync
// SYNC-NOT: nvgpu.mma.sync
// SYNC: gpu.return
tile.program @sync_one_step(%X: !tile.tensor<16x64xf16, input>,
                   %W: !tile.tensor<64x128xf16, input>,
                   %S: !tile.tensor<16x128xf32, output>) attributes {tile.tile_sizes = {tile_n = 32, tile_k = 64}} {
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

// 8 rows: no 16-row matrix-unit tile.
// SYNC-LABEL: gpu.func @sync_rows8_k0
// SYNC-NOT: nvgpu.mma.sync
// SYNC: gpu.return
tile.program @sync_rows8(%X: !tile.tensor<8x64xf16, input>,
                   %W: !tile.tensor<64x256xf16, input>,
                   %S: !tile.tensor<8x256xf32, output>) attributes {tile.tile_sizes = {tile_n = 64, tile_k = 32}} {
  %n = tile.var "n"
  %k = tile.var "k"
  %sn = tile.size "tile_n"
  %sk = tile.size "tile_k"
  %full = tile.full
  %tn = tile.tile %n
  %tk = tile.tile %k
  %x = tile.load %X[%full, %tk] : !tile.tensor<8x64xf16, input> -> !tile.tile<[8, tile_k], f16>
  %w = tile.load %W[%tk, %tn] : !tile.tensor<64x256xf16, input> -> !tile.tile<[tile_k, tile_n], f16>
  %mm = tile.matmul %x, %w : !tile.tile<[8, tile_k], f16>, !tile.tile<[tile_k, tile_n], f16> -> !tile.tile<[8, tile_n], f32>
  %s = tile.load %S[%full, %tn] : !tile.tensor<8x256xf32, output> -> !tile.tile<[8, tile_n], f32>
  %a = tile.add %s, %mm : !tile.tile<[8, tile_n], f32>
  %st = tile.store %a, %S[%full, %tn] : !tile.tile<[8, tile_n], f32>, !tile.tensor<8x256xf32, output>
  %lk = tile.loop %k = 0 to 64 step %sk body %st
  %ln = tile.loop %n = 0 to 256 step %sn body %lk
  tile.yield %ln
}

// -----

// A computed left operand (a prologue: cast(exp(C) / bcast(S)), as P in
// P.V): each lane computes its runs of A's rows from C's f32 values and
// S's row value and packs them as f16, and the matrix units compute the
// accumulation; B's rows still load as vectors.
// SYNC-LABEL: gpu.func @sync_prologue_k0
// SYNC: math.exp
// SYNC: arith.divf
// SYNC: arith.truncf {{.*}} : f32 to f16
// SYNC: nvgpu.mma.sync
// SYNC: gpu.return
// NOSYNC-LABEL: gpu.func @sync_prologue_k0
// NOSYNC-NOT: nvgpu
// NOSYNC: gpu.return
tile.program @sync_prologue(%C: !tile.tensor<16x64xf32, input>,
                   %Sm: !tile.tensor<16xf32, input>,
                   %W: !tile.tensor<64x128xf16, input>,
                   %S: !tile.tensor<16x128xf32, output>) attributes {tile.tile_sizes = {tile_n = 32, tile_k = 32}} {
  %n = tile.var "n"
  %k = tile.var "k"
  %sn = tile.size "tile_n"
  %sk = tile.size "tile_k"
  %full = tile.full
  %tn = tile.tile %n
  %tk = tile.tile %k
  %c = tile.load %C[%full, %tk] : !tile.tensor<16x64xf32, input> -> !tile.tile<[16, tile_k], f32>
  %e = tile.exp %c : !tile.tile<[16, tile_k], f32>
  %sm = tile.load %Sm[%full] : !tile.tensor<16xf32, input> -> !tile.tile<[16], f32>
  %sb = tile.bcast %sm [1] : !tile.tile<[16], f32> -> !tile.tile<[16, tile_k], f32>
  %d = tile.div %e, %sb : !tile.tile<[16, tile_k], f32>
  %h = tile.cast %d : !tile.tile<[16, tile_k], f32> -> !tile.tile<[16, tile_k], f16>
  %w = tile.load %W[%tk, %tn] : !tile.tensor<64x128xf16, input> -> !tile.tile<[tile_k, tile_n], f16>
  %mm = tile.matmul %h, %w : !tile.tile<[16, tile_k], f16>, !tile.tile<[tile_k, tile_n], f16> -> !tile.tile<[16, tile_n], f32>
  %s = tile.load %S[%full, %tn] : !tile.tensor<16x128xf32, output> -> !tile.tile<[16, tile_n], f32>
  %a = tile.add %s, %mm : !tile.tile<[16, tile_n], f32>
  %st = tile.store %a, %S[%full, %tn] : !tile.tile<[16, tile_n], f32>, !tile.tensor<16x128xf32, output>
  %lk = tile.loop %k = 0 to 64 step %sk body %st
  %ln = tile.loop %n = 0 to 128 step %sn body %lk
  tile.yield %ln
}

// -----

// A left operand holding a reduction is no prologue for the matrix units
// (each element would repeat the sum): the vector units compute it.
// SYNC-LABEL: gpu.func @sync_reduced_operand_k0
// SYNC-NOT: nvgpu.mma.sync
// SYNC: gpu.return
tile.program @sync_reduced_operand(%C: !tile.tensor<16x64x4xf32, input>,
                   %W: !tile.tensor<64x128xf16, input>,
                   %S: !tile.tensor<16x128xf32, output>) attributes {tile.tile_sizes = {tile_n = 32, tile_k = 32}} {
  %n = tile.var "n"
  %k = tile.var "k"
  %sn = tile.size "tile_n"
  %sk = tile.size "tile_k"
  %full = tile.full
  %tn = tile.tile %n
  %tk = tile.tile %k
  %c = tile.load %C[%full, %tk, %full] : !tile.tensor<16x64x4xf32, input> -> !tile.tile<[16, tile_k, 4], f32>
  %r = tile.rsum %c, 2 : !tile.tile<[16, tile_k, 4], f32> -> !tile.tile<[16, tile_k], f32>
  %h = tile.cast %r : !tile.tile<[16, tile_k], f32> -> !tile.tile<[16, tile_k], f16>
  %w = tile.load %W[%tk, %tn] : !tile.tensor<64x128xf16, input> -> !tile.tile<[tile_k, tile_n], f16>
  %mm = tile.matmul %h, %w : !tile.tile<[16, tile_k], f16>, !tile.tile<[tile_k, tile_n], f16> -> !tile.tile<[16, tile_n], f32>
  %s = tile.load %S[%full, %tn] : !tile.tensor<16x128xf32, output> -> !tile.tile<[16, tile_n], f32>
  %a = tile.add %s, %mm : !tile.tile<[16, tile_n], f32>
  %st = tile.store %a, %S[%full, %tn] : !tile.tile<[16, tile_n], f32>, !tile.tensor<16x128xf32, output>
  %lk = tile.loop %k = 0 to 64 step %sk body %st
  %ln = tile.loop %n = 0 to 128 step %sn body %lk
  tile.yield %ln
}
