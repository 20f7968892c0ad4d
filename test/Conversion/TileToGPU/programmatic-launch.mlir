// --tile-programmatic-launch: every kernel, or every member of a merged
// one, waits for the kernels before it (griddepcontrol.wait at its start,
// or the prefetching kernel's own wait after its prefetches); a kernel of
// at most early-launch-blocks blocks whose successor prefetches launches it
// at entry (griddepcontrol.launch_dependents).
// RUN: tile-opt %s --tile-lower-to-gpu="config={split_k = 2, min_blocks = 4, prefetch_bytes = 2048, block_size = 128, max_tile_size = 0}" --tile-merge-kernels="config={zero_in_kernels = false}" --tile-programmatic-launch | FileCheck %s
// RUN: tile-opt %s --tile-lower-to-gpu="config={split_k = 2, min_blocks = 4, prefetch_bytes = 2048, block_size = 128, max_tile_size = 0}" --tile-merge-kernels="config={zero_in_kernels = false}" --tile-programmatic-launch="config={early_launch_blocks = 4}" | FileCheck %s --check-prefix=LARGE
// RUN: tile-opt %s --tile-lower-to-gpu="config={split_k = 2, min_blocks = 4, block_size = 128, max_tile_size = 0}" --tile-merge-kernels="config={zero_in_kernels = false}" --tile-programmatic-launch | FileCheck %s --check-prefix=NOPF

// k0 (8 blocks) writes T; k1 and k2 (S += T W, S2 += T W, prefetching W)
// and k3 (U = T * T) only read T and W, so they merge into one launch:
// reading W through a prefetch does not order them. k0 launches it early;
// members 1 and 2 wait after their prefetches, member 3 gets a wait.
// CHECK-LABEL: gpu.func @merged_k0
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK-NOT: griddepcontrol
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @merged_k1_2_3
// CHECK-NOT: launch_dependents
// CHECK: scf.if
// CHECK: prefetch.global.L2
// CHECK: nvvm.griddepcontrol wait {tile.prefetched}
// CHECK-NOT: griddepcontrol
// CHECK: } {tile.member}
// CHECK-NEXT: arith.constant
// CHECK: scf.if
// CHECK: prefetch.global.L2
// CHECK: nvvm.griddepcontrol wait {tile.prefetched}
// CHECK-NOT: griddepcontrol
// CHECK: } {tile.member}
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK-NOT: griddepcontrol
// CHECK: } {tile.member}
// CHECK-NOT: griddepcontrol
// CHECK: gpu.return

// With early-launch-blocks=4, k0's 8 blocks are too many to launch early.
// LARGE-LABEL: gpu.func @merged_k0
// LARGE-NEXT: nvvm.griddepcontrol wait
// LARGE-NOT: launch_dependents

// Without prefetches nothing launches early, and every member waits first.
// NOPF-NOT: launch_dependents
// NOPF-LABEL: gpu.func @merged_k0
// NOPF-NEXT: nvvm.griddepcontrol wait
// NOPF-LABEL: gpu.func @merged_k1_2_3
// NOPF-COUNT-3: {{^}} scf.if %{{.*}} {{{$}}
// NOPF-NEXT: nvvm.griddepcontrol wait
// NOPF-NOT: launch_dependents
tile.program @merged(%X: !tile.tensor<16x64xf16, input>,
                     %W: !tile.tensor<64x128xf16, input>,
                     %T: !tile.tensor<16x64xf16, intermediate>,
                     %S: !tile.tensor<16x128xf32, output>,
                     %S2: !tile.tensor<16x128xf32, output>,
                     %U: !tile.tensor<16x64xf16, output>) attributes {tile.tile_sizes = {tile_n = 64, tile_k = 8}} {
  %n = tile.var "n"
  %k = tile.var "k"
  %sn = tile.size "tile_n"
  %sk = tile.size "tile_k"
  %full = tile.full
  %tn = tile.tile %n
  %tk = tile.tile %k
  %x = tile.load %X[%full, %tk] : !tile.tensor<16x64xf16, input> -> !tile.tile<[16, tile_k], f16>
  %x2 = tile.add %x, %x : !tile.tile<[16, tile_k], f16>
  %st0 = tile.store %x2, %T[%full, %tk] : !tile.tile<[16, tile_k], f16>, !tile.tensor<16x64xf16, intermediate>
  %l0 = tile.loop %k = 0 to 64 step %sk body %st0
  %t = tile.load %T[%full, %tk] : !tile.tensor<16x64xf16, intermediate> -> !tile.tile<[16, tile_k], f16>
  %w = tile.load %W[%tk, %tn] : !tile.tensor<64x128xf16, input> -> !tile.tile<[tile_k, tile_n], f16>
  %mm = tile.matmul %t, %w : !tile.tile<[16, tile_k], f16>, !tile.tile<[tile_k, tile_n], f16> -> !tile.tile<[16, tile_n], f32>
  %s = tile.load %S[%full, %tn] : !tile.tensor<16x128xf32, output> -> !tile.tile<[16, tile_n], f32>
  %a = tile.add %s, %mm : !tile.tile<[16, tile_n], f32>
  %st = tile.store %a, %S[%full, %tn] : !tile.tile<[16, tile_n], f32>, !tile.tensor<16x128xf32, output>
  %lk = tile.loop %k = 0 to 64 step %sk body %st
  %ln = tile.loop %n = 0 to 128 step %sn body %lk
  %t2 = tile.load %T[%full, %tk] : !tile.tensor<16x64xf16, intermediate> -> !tile.tile<[16, tile_k], f16>
  %w2 = tile.load %W[%tk, %tn] : !tile.tensor<64x128xf16, input> -> !tile.tile<[tile_k, tile_n], f16>
  %mm2 = tile.matmul %t2, %w2 : !tile.tile<[16, tile_k], f16>, !tile.tile<[tile_k, tile_n], f16> -> !tile.tile<[16, tile_n], f32>
  %s2 = tile.load %S2[%full, %tn] : !tile.tensor<16x128xf32, output> -> !tile.tile<[16, tile_n], f32>
  %a2 = tile.add %s2, %mm2 : !tile.tile<[16, tile_n], f32>
  %st2 = tile.store %a2, %S2[%full, %tn] : !tile.tile<[16, tile_n], f32>, !tile.tensor<16x128xf32, output>
  %lk2 = tile.loop %k = 0 to 64 step %sk body %st2
  %ln2 = tile.loop %n = 0 to 128 step %sn body %lk2
  %t3 = tile.load %T[%full, %tk] : !tile.tensor<16x64xf16, intermediate> -> !tile.tile<[16, tile_k], f16>
  %u = tile.mul %t3, %t3 : !tile.tile<[16, tile_k], f16>
  %st3 = tile.store %u, %U[%full, %tk] : !tile.tile<[16, tile_k], f16>, !tile.tensor<16x64xf16, output>
  %l3 = tile.loop %k = 0 to 64 step %sk body %st3
  %q2 = tile.seq %ln2, %l3
  %q1 = tile.seq %ln, %q2
  %q0 = tile.seq %l0, %q1
  tile.yield %q0
}
