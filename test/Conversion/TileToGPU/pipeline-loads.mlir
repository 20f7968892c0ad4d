// RUN: tile-opt %s --split-input-file --pass-pipeline="builtin.module(gpu.module(tile-pipeline-loads{config={pipeline_loads = 1}},canonicalize))" | FileCheck %s
// RUN: tile-opt %s --split-input-file --pass-pipeline="builtin.module(gpu.module(tile-pipeline-loads{config={pipeline_loads = 2}},canonicalize))" | FileCheck %s --check-prefix=TWO
// RUN: tile-opt %s --split-input-file --pass-pipeline="builtin.module(gpu.module(tile-pipeline-loads{config={pipeline_loads = 0}},canonicalize))" | FileCheck %s --check-prefix=OFF

// A sum over a static range: the first load goes before the loop, each
// iteration loads the next element before adding the one it carries, and
// the last addition is peeled after the loop.
// CHECK-LABEL: gpu.func @static_sum
// CHECK: %[[FIRST:.*]] = vector.load %arg0[%c0]
// CHECK: %[[LOOP:.*]]:2 = scf.for %[[I:.*]] = %c0 to %c96 step %c32 iter_args(%[[ACC:.*]] = %{{.*}}, %[[CUR:.*]] = %[[FIRST]])
// CHECK:   %[[NEXT_I:.*]] = arith.addi %[[I]], %c32
// CHECK:   %[[NEXT:.*]] = vector.load %arg0[%[[NEXT_I]]]
// CHECK:   %[[SUM:.*]] = arith.addf %[[ACC]], %[[CUR]]
// CHECK:   scf.yield %[[SUM]], %[[NEXT]]
// CHECK: %[[LAST:.*]] = arith.addf %[[LOOP]]#0, %[[LOOP]]#1
// CHECK: vector.store %[[LAST]], %arg1
// Two iterations ahead: two loads before the loop, two additions after.
// TWO-LABEL: gpu.func @static_sum
// TWO-COUNT-2: vector.load %arg0
// TWO: scf.for {{.*}} to %c64 step %c32
// TWO: vector.load %arg0
// TWO: scf.yield
// TWO-COUNT-2: arith.addf
// OFF-LABEL: gpu.func @static_sum
// OFF: scf.for {{.*}} to %c128 step %c32
// OFF-NEXT: vector.load %arg0
gpu.module @m {
  gpu.func @static_sum(%in: memref<128xf32>, %out: memref<4xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant dense<0.0> : vector<4xf32>
    %sum = scf.for %i = %c0 to %c128 step %c32 iter_args(%acc = %zero) -> (vector<4xf32>) {
      %v = vector.load %in[%i] : memref<128xf32>, vector<4xf32>
      %s = arith.addf %acc, %v : vector<4xf32>
      scf.yield %s : vector<4xf32>
    }
    vector.store %sum, %out[%c0] : memref<4xf32>, vector<4xf32>
    gpu.return
  }
}

// -----

// Bounds known only at run time (a thread's range): the loads for an
// iteration that may not exist run under scf.if, zeros otherwise.
// CHECK-LABEL: gpu.func @dynamic_sum
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[HAS:.*]] = arith.cmpi slt, %[[TID]], %c100
// CHECK: %[[FIRST:.*]] = scf.if %[[HAS]] -> (f32)
// CHECK-NEXT: memref.load %arg0[%[[TID]]]
// CHECK: } else {
// CHECK-NEXT: scf.yield %cst
// CHECK: scf.for %[[I:.*]] = %[[TID]] to %c100 step %c32 iter_args(%{{.*}} = %cst, %[[CUR:.*]] = %[[FIRST]])
// CHECK:   %[[MORE:.*]] = arith.cmpi slt, %[[I]], %c68
// CHECK:   %[[NEXT_I:.*]] = arith.addi %[[I]], %c32
// CHECK:   scf.if %[[MORE]] -> (f32)
// CHECK-NEXT: memref.load %arg0[%[[NEXT_I]]]
// CHECK:   arith.addf %{{.*}}, %[[CUR]]
gpu.module @m {
  gpu.func @dynamic_sum(%in: memref<100xf32>, %out: memref<32xf32>) kernel {
    %c32 = arith.constant 32 : index
    %c100 = arith.constant 100 : index
    %zero = arith.constant 0.0 : f32
    %tid = gpu.thread_id x
    %sum = scf.for %i = %tid to %c100 step %c32 iter_args(%acc = %zero) -> (f32) {
      %v = memref.load %in[%i] : memref<100xf32>
      %s = arith.addf %acc, %v : f32
      scf.yield %s : f32
    }
    memref.store %sum, %out[%tid] : memref<32xf32>
    gpu.return
  }
}

// -----

// Must not: the loop stores to global memory (a load moved ahead could
// read before a store of the same iteration).
// CHECK-LABEL: gpu.func @stores
// CHECK: scf.for
// CHECK-NEXT: memref.load
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: memref.store
gpu.module @m {
  gpu.func @stores(%buf: memref<128xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    scf.for %i = %c0 to %c128 step %c1 {
      %v = memref.load %buf[%i] : memref<128xf32>
      %d = arith.mulf %v, %v : f32
      memref.store %d, %buf[%i] : memref<128xf32>
    }
    gpu.return
  }
}

// -----

// Must not: the address depends on a value the loop carries (a chain of
// indices), which is only known after the previous iteration.
// CHECK-LABEL: gpu.func @chase
// CHECK: scf.for
// CHECK-NEXT: memref.load %arg0[%{{.*}}]
// CHECK-NEXT: arith.index_cast
// CHECK-NEXT: scf.yield
gpu.module @m {
  gpu.func @chase(%next: memref<128xi32>, %out: memref<1xindex>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %end = scf.for %i = %c0 to %c16 step %c1 iter_args(%p = %c0) -> (index) {
      %n = memref.load %next[%p] : memref<128xi32>
      %q = arith.index_cast %n : i32 to index
      scf.yield %q : index
    }
    memref.store %end, %out[%c0] : memref<1xindex>
    gpu.return
  }
}

// -----

// Must not: the loads are from workgroup memory (no DRAM latency to hide),
// or the loop synchronizes the block, or it runs no more times than the
// loads would run ahead (two iterations: once ahead, not twice).
// CHECK-LABEL: gpu.func @not_global
// CHECK: scf.for
// CHECK-NEXT: memref.load %arg1
// CHECK-LABEL: gpu.func @barrier
// CHECK: scf.for
// CHECK-NEXT: memref.load %arg0
// CHECK-NEXT: gpu.barrier
// CHECK-LABEL: gpu.func @twice
// CHECK: vector.load %arg0[%c0]
// CHECK-NEXT: vector.load %arg0[%c4]
// TWO-LABEL: gpu.func @twice
// TWO-NOT: vector.load
// TWO: scf.for {{.*}} to %c8 step %c4
// TWO-NEXT: vector.load %arg0
gpu.module @m {
  gpu.func @not_global(%out: memref<1xf32>)
      workgroup(%tile : memref<64xf32, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f32
    %sum = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> (f32) {
      %v = memref.load %tile[%i] : memref<64xf32, #gpu.address_space<workgroup>>
      %s = arith.addf %acc, %v : f32
      scf.yield %s : f32
    }
    memref.store %sum, %out[%c0] : memref<1xf32>
    gpu.return
  }
  gpu.func @barrier(%in: memref<64xf32>, %out: memref<1xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f32
    %sum = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> (f32) {
      %v = memref.load %in[%i] : memref<64xf32>
      gpu.barrier
      %s = arith.addf %acc, %v : f32
      scf.yield %s : f32
    }
    memref.store %sum, %out[%c0] : memref<1xf32>
    gpu.return
  }
  gpu.func @twice(%in: memref<8xf32>, %out: memref<4xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %zero = arith.constant dense<0.0> : vector<4xf32>
    %sum = scf.for %i = %c0 to %c8 step %c4 iter_args(%acc = %zero) -> (vector<4xf32>) {
      %v = vector.load %in[%i] : memref<8xf32>, vector<4xf32>
      %s = arith.addf %acc, %v : vector<4xf32>
      scf.yield %s : vector<4xf32>
    }
    vector.store %sum, %out[%c0] : memref<4xf32>, vector<4xf32>
    gpu.return
  }
}

// -----

// A kernel's own distance (`tile.pipeline_loads`, set by the lowering for a
// statement configured apart) replaces the module's: with the module's 1,
// @own_off is not pipelined and @own_two loads two iterations ahead.
// CHECK-LABEL: gpu.func @own_off
// CHECK: scf.for {{.*}} to %c128 step %c32
// CHECK-NEXT: vector.load %arg0
// CHECK-LABEL: gpu.func @own_two
// CHECK-COUNT-2: vector.load %arg0
// CHECK: scf.for {{.*}} to %c64 step %c32
gpu.module @own {
  gpu.func @own_off(%in: memref<128xf32>, %out: memref<4xf32>) kernel attributes {tile.pipeline_loads = 0 : i64} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant dense<0.0> : vector<4xf32>
    %sum = scf.for %i = %c0 to %c128 step %c32 iter_args(%acc = %zero) -> (vector<4xf32>) {
      %v = vector.load %in[%i] : memref<128xf32>, vector<4xf32>
      %s = arith.addf %acc, %v : vector<4xf32>
      scf.yield %s : vector<4xf32>
    }
    vector.store %sum, %out[%c0] : memref<4xf32>, vector<4xf32>
    gpu.return
  }
  gpu.func @own_two(%in: memref<128xf32>, %out: memref<4xf32>) kernel attributes {tile.pipeline_loads = 2 : i64} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant dense<0.0> : vector<4xf32>
    %sum = scf.for %i = %c0 to %c128 step %c32 iter_args(%acc = %zero) -> (vector<4xf32>) {
      %v = vector.load %in[%i] : memref<128xf32>, vector<4xf32>
      %s = arith.addf %acc, %v : vector<4xf32>
      scf.yield %s : vector<4xf32>
    }
    vector.store %sum, %out[%c0] : memref<4xf32>, vector<4xf32>
    gpu.return
  }
}
