// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={max_tile_size = 4}" | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-lower-to-gpu="config={max_tile_size = 4, elide_copies = false}" | FileCheck %s --check-prefix=KEEP

// A reshape of an intermediate into an intermediate: the copy kernel goes,
// and the kernel reading U (%arg2) reads T's buffer (%arg1).
// CHECK-LABEL: func.func @into_intermediate
// CHECK: gpu.launch_func @into_intermediate_kernels::@into_intermediate_k0 {{.*}} args(%arg0 : memref<32xf32>, %arg1 : memref<32xf32>)
// CHECK: gpu.launch_func @into_intermediate_kernels::@into_intermediate_k1 {{.*}} args(%arg1 : memref<32xf32>, %arg3 : memref<32xf32>)
// CHECK-NOT: gpu.launch_func
// CHECK: return
// KEEP-LABEL: func.func @into_intermediate
// KEEP: @into_intermediate_k0 {{.*}} args(%arg0 : memref<32xf32>, %arg1 : memref<32xf32>)
// KEEP: @into_intermediate_k1 {{.*}} args(%arg1 : memref<32xf32>, %arg2 : memref<32xf32>)
// KEEP: @into_intermediate_k2 {{.*}} args(%arg2 : memref<32xf32>, %arg3 : memref<32xf32>)
tile.program @into_intermediate(%A: !tile.tensor<4x8xf32, input>,
                                %T: !tile.tensor<4x8xf32, intermediate>,
                                %U: !tile.tensor<32xf32, intermediate>,
                                %B: !tile.tensor<32xf32, output>) {
  %full = tile.full
  %i = tile.var "i"
  %ti = tile.size "tile_i"
  %t = tile.tile %i
  %a = tile.load %A[%t, %full] : !tile.tensor<4x8xf32, input> -> !tile.tile<[tile_i, 8], f32>
  %e = tile.exp %a : !tile.tile<[tile_i, 8], f32>
  %s0 = tile.store %e, %T[%t, %full] : !tile.tile<[tile_i, 8], f32>, !tile.tensor<4x8xf32, intermediate>
  %l0 = tile.loop %i = 0 to 4 step %ti body %s0
  %s = tile.var "s"
  %c8 = tile.size 8
  %st = tile.tile %s
  %se = tile.elem %s
  %r = tile.load %T[%se, %full] : !tile.tensor<4x8xf32, intermediate> -> !tile.tile<[1, 8], f32>
  %rr = tile.reshape %r : !tile.tile<[1, 8], f32> -> !tile.tile<[8], f32>
  %s1 = tile.store %rr, %U[%st] : !tile.tile<[8], f32>, !tile.tensor<32xf32, intermediate>
  %l1 = tile.loop %s = 0 to 32 step %c8 body %s1
  %j = tile.var "j"
  %tj = tile.size "tile_j"
  %u = tile.tile %j
  %x = tile.load %U[%u] : !tile.tensor<32xf32, intermediate> -> !tile.tile<[tile_j], f32>
  %y = tile.add %x, %x : !tile.tile<[tile_j], f32>
  %s2 = tile.store %y, %B[%u] : !tile.tile<[tile_j], f32>, !tile.tensor<32xf32, output>
  %l2 = tile.loop %j = 0 to 32 step %tj body %s2
  %q = tile.seq %l1, %l2
  %p = tile.seq %l0, %q
  tile.yield %p
}

// -----

// A reshape of an intermediate into an output nothing else touches: T lives
// in B's buffer (%arg2).
// CHECK-LABEL: func.func @into_output
// CHECK: gpu.launch_func @into_output_kernels::@into_output_k0 {{.*}} args(%arg0 : memref<32xf32>, %arg2 : memref<32xf32>)
// CHECK-NOT: gpu.launch_func
// CHECK: return
// KEEP-LABEL: func.func @into_output
// KEEP: @into_output_k1
tile.program @into_output(%A: !tile.tensor<4x8xf32, input>,
                          %T: !tile.tensor<4x8xf32, intermediate>,
                          %B: !tile.tensor<32xf32, output>) {
  %full = tile.full
  %i = tile.var "i"
  %ti = tile.size "tile_i"
  %t = tile.tile %i
  %a = tile.load %A[%t, %full] : !tile.tensor<4x8xf32, input> -> !tile.tile<[tile_i, 8], f32>
  %e = tile.exp %a : !tile.tile<[tile_i, 8], f32>
  %s0 = tile.store %e, %T[%t, %full] : !tile.tile<[tile_i, 8], f32>, !tile.tensor<4x8xf32, intermediate>
  %l0 = tile.loop %i = 0 to 4 step %ti body %s0
  %s = tile.var "s"
  %c8 = tile.size 8
  %st = tile.tile %s
  %se = tile.elem %s
  %r = tile.load %T[%se, %full] : !tile.tensor<4x8xf32, intermediate> -> !tile.tile<[1, 8], f32>
  %rr = tile.reshape %r : !tile.tile<[1, 8], f32> -> !tile.tile<[8], f32>
  %s1 = tile.store %rr, %B[%st] : !tile.tile<[8], f32>, !tile.tensor<32xf32, output>
  %l1 = tile.loop %s = 0 to 32 step %c8 body %s1
  %p = tile.seq %l0, %l1
  tile.yield %p
}


// -----

// Must not: a transpose is not the same layout.
// CHECK-LABEL: func.func @transpose
// CHECK-COUNT-3: gpu.launch_func
// CHECK-NOT: gpu.launch_func
tile.program @transpose(%A: !tile.tensor<4x8xf32, input>,
                        %T: !tile.tensor<4x8xf32, intermediate>,
                        %U: !tile.tensor<8x4xf32, intermediate>,
                        %B: !tile.tensor<8x4xf32, output>) {
  %full = tile.full
  %i = tile.var "i"
  %ti = tile.size "tile_i"
  %t = tile.tile %i
  %a = tile.load %A[%t, %full] : !tile.tensor<4x8xf32, input> -> !tile.tile<[tile_i, 8], f32>
  %e = tile.exp %a : !tile.tile<[tile_i, 8], f32>
  %s0 = tile.store %e, %T[%t, %full] : !tile.tile<[tile_i, 8], f32>, !tile.tensor<4x8xf32, intermediate>
  %l0 = tile.loop %i = 0 to 4 step %ti body %s0
  %r = tile.load %T[%full, %full] : !tile.tensor<4x8xf32, intermediate> -> !tile.tile<[4, 8], f32>
  %rt = tile.permute %r [1, 0] : !tile.tile<[4, 8], f32> -> !tile.tile<[8, 4], f32>
  %s1 = tile.store %rt, %U[%full, %full] : !tile.tile<[8, 4], f32>, !tile.tensor<8x4xf32, intermediate>
  %x = tile.load %U[%full, %full] : !tile.tensor<8x4xf32, intermediate> -> !tile.tile<[8, 4], f32>
  %y = tile.add %x, %x : !tile.tile<[8, 4], f32>
  %s2 = tile.store %y, %B[%full, %full] : !tile.tile<[8, 4], f32>, !tile.tensor<8x4xf32, output>
  %q = tile.seq %s1, %s2
  %p = tile.seq %l0, %q
  tile.yield %p
}

// -----

// Must not: T is written again after the copy (U keeps the old values), U
// is read before the copy (as zeros), a copy into an inout tensor, a copy
// that covers half of its destination, a copy between tensors declared
// tile.may_alias, a rounding cast.
// CHECK-LABEL: func.func @written_after
// CHECK-COUNT-4: gpu.launch_func
// CHECK-NOT: gpu.launch_func
tile.program @written_after(%A: !tile.tensor<32xf32, input>,
                            %T: !tile.tensor<32xf32, intermediate>,
                            %U: !tile.tensor<4x8xf32, intermediate>,
                            %B: !tile.tensor<4x8xf32, output>) {
  %full = tile.full
  %a = tile.load %A[%full] : !tile.tensor<32xf32, input> -> !tile.tile<[32], f32>
  %s0 = tile.store %a, %T[%full] : !tile.tile<[32], f32>, !tile.tensor<32xf32, intermediate>
  %r = tile.load %T[%full] : !tile.tensor<32xf32, intermediate> -> !tile.tile<[32], f32>
  %rr = tile.reshape %r : !tile.tile<[32], f32> -> !tile.tile<[4, 8], f32>
  %s1 = tile.store %rr, %U[%full, %full] : !tile.tile<[4, 8], f32>, !tile.tensor<4x8xf32, intermediate>
  %e = tile.exp %a : !tile.tile<[32], f32>
  %s2 = tile.store %e, %T[%full] : !tile.tile<[32], f32>, !tile.tensor<32xf32, intermediate>
  %x = tile.load %U[%full, %full] : !tile.tensor<4x8xf32, intermediate> -> !tile.tile<[4, 8], f32>
  %t = tile.load %T[%full] : !tile.tensor<32xf32, intermediate> -> !tile.tile<[32], f32>
  %tr = tile.reshape %t : !tile.tile<[32], f32> -> !tile.tile<[4, 8], f32>
  %y = tile.add %x, %tr : !tile.tile<[4, 8], f32>
  %s3 = tile.store %y, %B[%full, %full] : !tile.tile<[4, 8], f32>, !tile.tensor<4x8xf32, output>
  %q2 = tile.seq %s2, %s3
  %q1 = tile.seq %s1, %q2
  %p = tile.seq %s0, %q1
  tile.yield %p
}

// -----

// CHECK-LABEL: func.func @read_before
// CHECK-COUNT-3: gpu.launch_func
// CHECK-NOT: gpu.launch_func
tile.program @read_before(%A: !tile.tensor<32xf32, input>,
                          %T: !tile.tensor<32xf32, intermediate>,
                          %U: !tile.tensor<4x8xf32, intermediate>,
                          %B: !tile.tensor<4x8xf32, output>) {
  %full = tile.full
  %a = tile.load %A[%full] : !tile.tensor<32xf32, input> -> !tile.tile<[32], f32>
  %ea = tile.exp %a : !tile.tile<[32], f32>
  %s0 = tile.store %ea, %T[%full] : !tile.tile<[32], f32>, !tile.tensor<32xf32, intermediate>
  %x = tile.load %U[%full, %full] : !tile.tensor<4x8xf32, intermediate> -> !tile.tile<[4, 8], f32>
  %y = tile.exp %x : !tile.tile<[4, 8], f32>
  %s1 = tile.store %y, %B[%full, %full] : !tile.tile<[4, 8], f32>, !tile.tensor<4x8xf32, output>
  %r = tile.load %T[%full] : !tile.tensor<32xf32, intermediate> -> !tile.tile<[32], f32>
  %rr = tile.reshape %r : !tile.tile<[32], f32> -> !tile.tile<[4, 8], f32>
  %s2 = tile.store %rr, %U[%full, %full] : !tile.tile<[4, 8], f32>, !tile.tensor<4x8xf32, intermediate>
  %q = tile.seq %s1, %s2
  %p = tile.seq %s0, %q
  tile.yield %p
}

// -----

// CHECK-LABEL: func.func @into_inout
// CHECK-COUNT-2: gpu.launch_func
// CHECK-NOT: gpu.launch_func
tile.program @into_inout(%A: !tile.tensor<32xf32, input>,
                         %T: !tile.tensor<32xf32, intermediate>,
                         %C: !tile.tensor<4x8xf32, inout>) {
  %full = tile.full
  %a = tile.load %A[%full] : !tile.tensor<32xf32, input> -> !tile.tile<[32], f32>
  %e = tile.exp %a : !tile.tile<[32], f32>
  %s0 = tile.store %e, %T[%full] : !tile.tile<[32], f32>, !tile.tensor<32xf32, intermediate>
  %r = tile.load %T[%full] : !tile.tensor<32xf32, intermediate> -> !tile.tile<[32], f32>
  %rr = tile.reshape %r : !tile.tile<[32], f32> -> !tile.tile<[4, 8], f32>
  %s1 = tile.store %rr, %C[%full, %full] : !tile.tile<[4, 8], f32>, !tile.tensor<4x8xf32, inout>
  %p = tile.seq %s0, %s1
  tile.yield %p
}

// -----

// CHECK-LABEL: func.func @partial
// CHECK-COUNT-3: gpu.launch_func
// CHECK-NOT: gpu.launch_func
tile.program @partial(%A: !tile.tensor<4x8xf32, input>,
                      %T: !tile.tensor<4x8xf32, intermediate>,
                      %U: !tile.tensor<32xf32, intermediate>,
                      %B: !tile.tensor<32xf32, output>) {
  %full = tile.full
  %a = tile.load %A[%full, %full] : !tile.tensor<4x8xf32, input> -> !tile.tile<[4, 8], f32>
  %e = tile.exp %a : !tile.tile<[4, 8], f32>
  %s0 = tile.store %e, %T[%full, %full] : !tile.tile<[4, 8], f32>, !tile.tensor<4x8xf32, intermediate>
  %s = tile.var "s"
  %c8 = tile.size 8
  %st = tile.tile %s
  %se = tile.elem %s
  %r = tile.load %T[%se, %full] : !tile.tensor<4x8xf32, intermediate> -> !tile.tile<[1, 8], f32>
  %rr = tile.reshape %r : !tile.tile<[1, 8], f32> -> !tile.tile<[8], f32>
  %s1 = tile.store %rr, %U[%st] : !tile.tile<[8], f32>, !tile.tensor<32xf32, intermediate>
  %l1 = tile.loop %s = 0 to 16 step %c8 body %s1
  %x = tile.load %U[%full] : !tile.tensor<32xf32, intermediate> -> !tile.tile<[32], f32>
  %ex = tile.exp %x : !tile.tile<[32], f32>
  %s2 = tile.store %ex, %B[%full] : !tile.tile<[32], f32>, !tile.tensor<32xf32, output>
  %q = tile.seq %l1, %s2
  %p = tile.seq %s0, %q
  tile.yield %p
}

// -----

// CHECK-LABEL: func.func @declared_alias
// CHECK-COUNT-3: gpu.launch_func
// CHECK-NOT: gpu.launch_func
tile.program @declared_alias(%A: !tile.tensor<32xf32, input>,
                             %T: !tile.tensor<32xf32, intermediate>,
                             %U: !tile.tensor<4x8xf32, intermediate>,
                             %B: !tile.tensor<4x8xf32, output>) attributes {tile.may_alias = [["A", "T"]]} {
  %full = tile.full
  %a = tile.load %A[%full] : !tile.tensor<32xf32, input> -> !tile.tile<[32], f32>
  %e = tile.exp %a : !tile.tile<[32], f32>
  %s0 = tile.store %e, %T[%full] : !tile.tile<[32], f32>, !tile.tensor<32xf32, intermediate>
  %r = tile.load %T[%full] : !tile.tensor<32xf32, intermediate> -> !tile.tile<[32], f32>
  %rr = tile.reshape %r : !tile.tile<[32], f32> -> !tile.tile<[4, 8], f32>
  %s1 = tile.store %rr, %U[%full, %full] : !tile.tile<[4, 8], f32>, !tile.tensor<4x8xf32, intermediate>
  %x = tile.load %U[%full, %full] : !tile.tensor<4x8xf32, intermediate> -> !tile.tile<[4, 8], f32>
  %y = tile.add %x, %x : !tile.tile<[4, 8], f32>
  %s2 = tile.store %y, %B[%full, %full] : !tile.tile<[4, 8], f32>, !tile.tensor<4x8xf32, output>
  %q = tile.seq %s1, %s2
  %p = tile.seq %s0, %q
  tile.yield %p
}

// -----

// CHECK-LABEL: func.func @rounding
// CHECK-COUNT-3: gpu.launch_func
// CHECK-NOT: gpu.launch_func
tile.program @rounding(%A: !tile.tensor<32xf32, input>,
                       %T: !tile.tensor<32xf32, intermediate>,
                       %U: !tile.tensor<4x8xf16, intermediate>,
                       %B: !tile.tensor<4x8xf16, output>) {
  %full = tile.full
  %a = tile.load %A[%full] : !tile.tensor<32xf32, input> -> !tile.tile<[32], f32>
  %e = tile.exp %a : !tile.tile<[32], f32>
  %s0 = tile.store %e, %T[%full] : !tile.tile<[32], f32>, !tile.tensor<32xf32, intermediate>
  %r = tile.load %T[%full] : !tile.tensor<32xf32, intermediate> -> !tile.tile<[32], f32>
  %rr = tile.reshape %r : !tile.tile<[32], f32> -> !tile.tile<[4, 8], f32>
  %rh = tile.cast %rr : !tile.tile<[4, 8], f32> -> !tile.tile<[4, 8], f16>
  %s1 = tile.store %rh, %U[%full, %full] : !tile.tile<[4, 8], f16>, !tile.tensor<4x8xf16, intermediate>
  %x = tile.load %U[%full, %full] : !tile.tensor<4x8xf16, intermediate> -> !tile.tile<[4, 8], f16>
  %y = tile.add %x, %x : !tile.tile<[4, 8], f16>
  %s2 = tile.store %y, %B[%full, %full] : !tile.tile<[4, 8], f16>, !tile.tensor<4x8xf16, output>
  %q = tile.seq %s1, %s2
  %p = tile.seq %s0, %q
  tile.yield %p
}
