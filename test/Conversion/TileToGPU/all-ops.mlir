// Every kind of tile value the lowering handles (concat, compare and
// select, a dense constant, broadcast, sigmoid, erf, a max reduction, bf16
// and f16 casts) lowers to a cubin and an hsaco; on a GPU the results match
// the program run by the CPU interpreter in fp64, as they do in the host
// emulation. tile.max is maxNum: arith.maxnumf, not arith.maximumf.
// RUN: tile-opt %s --tile-lower-to-gpu="config={max_tile_size = 0}" | FileCheck %s
// RUN: %if cuda-toolkit %{ tile-opt %s --tile-lower-to-nvvm | FileCheck %s --check-prefix=BIN %}
// RUN: %if rocm-device-libs %{ tile-opt %s --tile-lower-to-rocdl | FileCheck %s --check-prefix=BIN %}
// RUN: %if cuda %{ tile-run %s --device cuda | FileCheck %s --check-prefix=RUN-GPU %}
// The same kernels in the host emulation (the dense constant is a global
// of the gpu.module, which the emulation keeps).
// RUN: tile-run %s --device emulate | FileCheck %s --check-prefix=RUN-GPU

// CHECK-DAG: memref.global "private" constant @__tile_constant_
// CHECK-DAG: scf.if
// CHECK-DAG: arith.cmpf ogt
// CHECK-DAG: arith.select
// CHECK-DAG: math.erf
// CHECK-DAG: arith.maxnumf
// CHECK-NOT: arith.maximumf
// CHECK-DAG: arith.truncf {{.*}} to bf16
// BIN: bin = "\7FELF
// RUN-GPU: PASS
tile.program @ops(%A: !tile.tensor<4x8xf32, input>, %B: !tile.tensor<4x8xf16, input>,
                  %C: !tile.tensor<4x16xf32, output>, %D: !tile.tensor<4x8xbf16, output>) {
  %full = tile.full
  %a = tile.load %A[%full, %full] : !tile.tensor<4x8xf32, input> -> !tile.tile<[4, 8], f32>
  %b = tile.load %B[%full, %full] : !tile.tensor<4x8xf16, input> -> !tile.tile<[4, 8], f16>
  %bf = tile.cast %b : !tile.tile<[4, 8], f16> -> !tile.tile<[4, 8], f32>
  %cat = tile.concat %a, %bf axis 1 : !tile.tile<[4, 8], f32>, !tile.tile<[4, 8], f32> -> !tile.tile<[4, 16], f32>
  %s1 = tile.store %cat, %C[%full, %full] : !tile.tile<[4, 16], f32>, !tile.tensor<4x16xf32, output>
  %m = tile.cmp gt, %a, %bf : !tile.tile<[4, 8], f32> -> !tile.tile<[4, 8], i1>
  %sel = tile.select %m, %a, %bf : !tile.tile<[4, 8], i1>, !tile.tile<[4, 8], f32>
  %k = tile.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : !tile.tile<[8], f32>
  %kb = tile.bcast %k [0] : !tile.tile<[8], f32> -> !tile.tile<[4, 8], f32>
  %t = tile.mul %sel, %kb : !tile.tile<[4, 8], f32>
  %sg = tile.sigmoid %t : !tile.tile<[4, 8], f32>
  %er = tile.erf %sg : !tile.tile<[4, 8], f32>
  %mx = tile.rmax %er, 1 : !tile.tile<[4, 8], f32> -> !tile.tile<[4], f32>
  %mxb = tile.bcast %mx [1] : !tile.tile<[4], f32> -> !tile.tile<[4, 8], f32>
  %d = tile.sub %er, %mxb : !tile.tile<[4, 8], f32>
  %dbf = tile.cast %d : !tile.tile<[4, 8], f32> -> !tile.tile<[4, 8], bf16>
  %s3 = tile.store %dbf, %D[%full, %full] : !tile.tile<[4, 8], bf16>, !tile.tensor<4x8xbf16, output>
  %q = tile.seq %s1, %s3
  tile.yield %q
}
