// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={max_tile_size = 0}" --tile-gpu-to-host --canonicalize --verify-diagnostics | FileCheck %s

// A lowered kernel becomes a host function running one block: its thread
// loop runs for thread 0..31 in turn, barriers are gone, the workgroup
// buffer is a stack allocation; the launch is a loop over the grid (one
// block here, so the loops fold away).
// CHECK-NOT: gpu.module
// CHECK-LABEL: func.func @carried_seq(
// CHECK: call @carried_seq_kernels__carried_seq_k0(%arg0, %arg1, %arg2, %c0, %c0, %c0)
// CHECK-LABEL: func.func @carried_seq_kernels__carried_seq_k0(
// CHECK-SAME: %{{.*}}: index, %{{.*}}: index, %{{.*}}: index)
// CHECK-NOT: gpu.
// CHECK: memref.alloca() : memref<4xf32>
// CHECK-NOT: gpu.
// CHECK: scf.for %[[T:.*]] = %c0 to %c32 step %c1 {
// CHECK-NEXT: scf.for %{{.*}} = %[[T]] to %c4 step %c32 {
// CHECK-NOT: gpu.
// CHECK: return
tile.program @carried_seq(%A: !tile.tensor<4x64xf32, input>,
                          %S: !tile.tensor<4xf32, output>,
                          %T: !tile.tensor<4x4xf32, output>) attributes {tile.tile_sizes = {tile_i = 16}} {
  %i = tile.var "i"
  %ti = tile.size "tile_i"
  %t = tile.tile %i
  %full = tile.full
  %a = tile.load %A[%full, %t] : !tile.tensor<4x64xf32, input> -> !tile.tile<[4, tile_i], f32>
  %s = tile.load %S[%full] : !tile.tensor<4xf32, output> -> !tile.tile<[4], f32>
  %r = tile.rsum %a, 1 : !tile.tile<[4, tile_i], f32> -> !tile.tile<[4], f32>
  %n = tile.add %s, %r : !tile.tile<[4], f32>
  %st = tile.store %n, %S[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, output>
  %s2 = tile.load %S[%full] : !tile.tensor<4xf32, output> -> !tile.tile<[4], f32>
  %d = tile.bcast %s2 [1] : !tile.tile<[4], f32> -> !tile.tile<[4, 4], f32>
  %st2 = tile.store %d, %T[%full, %full] : !tile.tile<[4, 4], f32>, !tile.tensor<4x4xf32, output>
  %body = tile.seq %st, %st2
  %l = tile.loop %i = 0 to 64 step %ti body %body
  tile.yield %l
}

// -----

// Four blocks: the launch loops over x.
// CHECK-LABEL: func.func @grid(
// CHECK: scf.for %[[X:.*]] = %c0 to %c4 step %c1 {
// CHECK-NEXT: func.call @grid_kernels__grid_k0(%arg0, %arg1, %[[X]], %c0, %c0)
tile.program @grid(%A: !tile.tensor<64xf32, input>,
                   %B: !tile.tensor<64xf32, output>) attributes {tile.tile_sizes = {tile_i = 16}} {
  %i = tile.var "i"
  %ti = tile.size "tile_i"
  %t = tile.tile %i
  %a = tile.load %A[%t] : !tile.tensor<64xf32, input> -> !tile.tile<[tile_i], f32>
  %e = tile.exp %a : !tile.tile<[tile_i], f32>
  %s = tile.store %e, %B[%t] : !tile.tile<[tile_i], f32>, !tile.tensor<64xf32, output>
  %l = tile.loop %i = 0 to 64 step %ti body %s
  tile.yield %l
}

// -----

// Kernels outside the form the emulation is exact for are refused.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%out: memref<32xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c32 = arith.constant 32 : index
      %v = arith.constant 1.0 : f32
      %tid = gpu.thread_id x
      // expected-error @below {{uses the thread index other than as the lower bound of a thread loop}}
      memref.store %v, %out[%tid] : memref<32xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%out: memref<32xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      %zero = arith.constant 0.0 : f32
      %tid = gpu.thread_id x
      // expected-error @below {{is a thread loop with a barrier inside}}
      scf.for %e = %tid to %c64 step %c32 {
        gpu.barrier
      }
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%out: memref<256xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : index
      %zero = arith.constant 0.0 : f32
      // expected-error @below {{is a matrix-unit op outside a loop over the warps}}
      %m = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<16x16xf32, "COp">
      gpu.subgroup_mma_store_matrix %m, %out[%c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<256xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%out: memref<32xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c32 = arith.constant 32 : index
      %v = arith.constant 1.0 : f32
      %tid = gpu.thread_id x
      %warp = arith.divui %tid, %c32 : index
      // expected-error @below {{uses the warp index other than as the lower bound of a warp loop}}
      memref.store %v, %out[%warp] : memref<32xf32>
      gpu.return
    }
  }
}
