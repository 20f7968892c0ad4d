// RUN: tile-opt %s | FileCheck %s
// RUN: tile-opt %s | tile-opt | FileCheck %s
// RUN: tile-opt %s --mlir-print-op-generic | tile-opt | FileCheck %s

// Every op and type of the tile dialect, printed and parsed back.

// CHECK-LABEL: func.func private @types
// CHECK-SAME: !tile.stmt, !tile.index, !tile.var, !tile.size
// CHECK-SAME: !tile.tensor<16x4096xf16, input>, !tile.tensor<2x3xf32, output>
// CHECK-SAME: !tile.tensor<f64, inout>, !tile.tensor<8xbf16, intermediate>
// CHECK-SAME: !tile.tile<[16, tile_k], f16>, !tile.tile<[], f32>
// CHECK-SAME: !tile.tile<[2*tile_n, 4], i1>
func.func private @types(!tile.stmt, !tile.index, !tile.var, !tile.size,
    !tile.tensor<16x4096xf16, input>, !tile.tensor<2x3xf32, output>,
    !tile.tensor<f64, inout>, !tile.tensor<8xbf16, intermediate>,
    !tile.tile<[16, tile_k], f16>, !tile.tile<[], f32>,
    !tile.tile<[2 * tile_n, 4], i1>)

// CHECK-LABEL: tile.program @structure(
// CHECK-SAME: %[[A:.*]]: !tile.tensor<4x32xf32, input>, %[[B:.*]]: !tile.tensor<4x32xf32, output>, %[[C:.*]]: !tile.tensor<2x32xf32, inout>
tile.program @structure(%A: !tile.tensor<4x32xf32, input>,
                        %B: !tile.tensor<4x32xf32, output>,
                        %C: !tile.tensor<2x32xf32, inout>) {
  // CHECK: %[[I:.*]] = tile.var "i"
  // CHECK: %[[H:.*]] = tile.var "h"
  // CHECK: %[[TI:.*]] = tile.size "tile_i"
  // CHECK: %[[C1:.*]] = tile.size 1
  // CHECK: %[[F:.*]] = tile.full
  // CHECK: %[[T:.*]] = tile.tile %[[I]]
  // CHECK: %[[E:.*]] = tile.elem %[[H]]
  // CHECK: %[[CT:.*]] = tile.const_tile 28, 4
  %i = tile.var "i"
  %h = tile.var "h"
  %ti = tile.size "tile_i"
  %c1 = tile.size 1
  %f = tile.full
  %t = tile.tile %i
  %e = tile.elem %h
  %ct = tile.const_tile 28, 4
  // CHECK: %[[X:.*]] = tile.load %[[A]][%[[F]], %[[T]]] : !tile.tensor<4x32xf32, input> -> !tile.tile<[4, tile_i], f32>
  // CHECK: %[[S:.*]] = tile.store %[[X]], %[[B]][%[[F]], %[[T]]] : !tile.tile<[4, tile_i], f32>, !tile.tensor<4x32xf32, output>
  // CHECK: %[[L:.*]] = tile.loop %[[I]] = 0 to 32 step %[[TI]] body %[[S]]
  %x = tile.load %A[%f, %t] : !tile.tensor<4x32xf32, input> -> !tile.tile<[4, tile_i], f32>
  %s = tile.store %x, %B[%f, %t] : !tile.tile<[4, tile_i], f32>, !tile.tensor<4x32xf32, output>
  %l = tile.loop %i = 0 to 32 step %ti body %s
  // The last head (elem index 1 of extent 2) and the last slice [28, 32) are in bounds.
  // CHECK: %[[Y:.*]] = tile.load %[[C]][%[[E]], %[[CT]]] : !tile.tensor<2x32xf32, inout> -> !tile.tile<[1, 4], f32>
  // CHECK: %[[Z:.*]] = tile.store %[[Y]], %[[C]][%[[E]], %[[CT]]]
  // CHECK: %[[LH:.*]] = tile.loop %[[H]] = 0 to 2 step %[[C1]] body %[[Z]]
  %y = tile.load %C[%e, %ct] : !tile.tensor<2x32xf32, inout> -> !tile.tile<[1, 4], f32>
  %z = tile.store %y, %C[%e, %ct] : !tile.tile<[1, 4], f32>, !tile.tensor<2x32xf32, inout>
  %lh = tile.loop %h = 0 to 2 step %c1 body %z
  // CHECK: %[[N:.*]] = tile.nop
  // CHECK: %[[Q:.*]] = tile.seq %[[LH]], %[[N]]
  // CHECK: %[[R:.*]] = tile.seq %[[L]], %[[Q]]
  // CHECK: tile.yield %[[R]]
  %n = tile.nop
  %q = tile.seq %lh, %n
  %r = tile.seq %l, %q
  tile.yield %r
}

// CHECK-LABEL: tile.program @compute
tile.program @compute() {
  %tp = tile.size "tile_p"
  // CHECK: %[[A:.*]] = tile.constant 1.500000e+00 : !tile.tile<[4, tile_p], f32>
  // CHECK: %[[B:.*]] = tile.constant -2.000000e+00 : !tile.tile<[4, tile_p], f32>
  %a = tile.constant 1.5 : !tile.tile<[4, tile_p], f32>
  %b = tile.constant -2.0 : !tile.tile<[4, tile_p], f32>
  // CHECK: tile.add %[[A]], %[[B]] : !tile.tile<[4, tile_p], f32>
  // CHECK: tile.sub %[[A]], %[[B]] : !tile.tile<[4, tile_p], f32>
  // CHECK: tile.mul %[[A]], %[[B]] : !tile.tile<[4, tile_p], f32>
  // CHECK: tile.div %[[A]], %[[B]] : !tile.tile<[4, tile_p], f32>
  // CHECK: tile.max %[[A]], %[[B]] : !tile.tile<[4, tile_p], f32>
  // CHECK: tile.min %[[A]], %[[B]] : !tile.tile<[4, tile_p], f32>
  %0 = tile.add %a, %b : !tile.tile<[4, tile_p], f32>
  %1 = tile.sub %a, %b : !tile.tile<[4, tile_p], f32>
  %2 = tile.mul %a, %b : !tile.tile<[4, tile_p], f32>
  %3 = tile.div %a, %b : !tile.tile<[4, tile_p], f32>
  %4 = tile.max %a, %b : !tile.tile<[4, tile_p], f32>
  %5 = tile.min %a, %b : !tile.tile<[4, tile_p], f32>
  // CHECK: tile.neg %[[A]] : !tile.tile<[4, tile_p], f32>
  // CHECK: tile.abs
  // CHECK: tile.sqr
  // CHECK: tile.exp
  // CHECK: tile.log
  // CHECK: tile.sqrt
  // CHECK: tile.rsqrt
  // CHECK: tile.sigmoid
  // CHECK: tile.tanh
  // CHECK: tile.erf
  // CHECK: tile.sin
  // CHECK: tile.cos
  %6 = tile.neg %a : !tile.tile<[4, tile_p], f32>
  %7 = tile.abs %a : !tile.tile<[4, tile_p], f32>
  %8 = tile.sqr %a : !tile.tile<[4, tile_p], f32>
  %9 = tile.exp %a : !tile.tile<[4, tile_p], f32>
  %10 = tile.log %a : !tile.tile<[4, tile_p], f32>
  %11 = tile.sqrt %a : !tile.tile<[4, tile_p], f32>
  %12 = tile.rsqrt %a : !tile.tile<[4, tile_p], f32>
  %13 = tile.sigmoid %a : !tile.tile<[4, tile_p], f32>
  %14 = tile.tanh %a : !tile.tile<[4, tile_p], f32>
  %15 = tile.erf %a : !tile.tile<[4, tile_p], f32>
  %sin = tile.sin %a : !tile.tile<[4, tile_p], f32>
  %cos = tile.cos %a : !tile.tile<[4, tile_p], f32>
  // CHECK: %[[M:.*]] = tile.cmp ge, %[[A]], %[[B]] : !tile.tile<[4, tile_p], f32> -> !tile.tile<[4, tile_p], i1>
  // CHECK: tile.select %[[M]], %[[A]], %[[B]] : !tile.tile<[4, tile_p], i1>, !tile.tile<[4, tile_p], f32>
  %m = tile.cmp ge, %a, %b : !tile.tile<[4, tile_p], f32> -> !tile.tile<[4, tile_p], i1>
  %16 = tile.select %m, %a, %b : !tile.tile<[4, tile_p], i1>, !tile.tile<[4, tile_p], f32>
  // CHECK: tile.cast %[[M]] : !tile.tile<[4, tile_p], i1> -> !tile.tile<[4, tile_p], f32>
  %17 = tile.cast %m : !tile.tile<[4, tile_p], i1> -> !tile.tile<[4, tile_p], f32>
  // CHECK: tile.rsum %[[A]], 1 : !tile.tile<[4, tile_p], f32> -> !tile.tile<[4], f32>
  // CHECK: tile.rmax %[[A]], 0 : !tile.tile<[4, tile_p], f32> -> !tile.tile<[tile_p], f32>
  // CHECK: tile.rmin %[[A]], 1 : !tile.tile<[4, tile_p], f32> -> !tile.tile<[4], f32>
  %18 = tile.rsum %a, 1 : !tile.tile<[4, tile_p], f32> -> !tile.tile<[4], f32>
  %19 = tile.rmax %a, 0 : !tile.tile<[4, tile_p], f32> -> !tile.tile<[tile_p], f32>
  %20 = tile.rmin %a, 1 : !tile.tile<[4, tile_p], f32> -> !tile.tile<[4], f32>
  %n = tile.nop
  tile.yield %n
}

// CHECK-LABEL: tile.program @matmul_and_layout
tile.program @matmul_and_layout() {
  %tp = tile.size "tile_p"
  %q = tile.constant 1.0 : !tile.tile<[1, 16, 128], f16>
  %k = tile.constant 1.0 : !tile.tile<[1, tile_p, 128], f16>
  // CHECK: %[[KT:.*]] = tile.permute %{{.*}} [0, 2, 1] : !tile.tile<[1, tile_p, 128], f16> -> !tile.tile<[1, 128, tile_p], f16>
  // CHECK: tile.matmul %{{.*}}, %[[KT]] : !tile.tile<[1, 16, 128], f16>, !tile.tile<[1, 128, tile_p], f16> -> !tile.tile<[1, 16, tile_p], f32>
  %kt = tile.permute %k [0, 2, 1] : !tile.tile<[1, tile_p, 128], f16> -> !tile.tile<[1, 128, tile_p], f16>
  %c = tile.matmul %q, %kt : !tile.tile<[1, 16, 128], f16>, !tile.tile<[1, 128, tile_p], f16> -> !tile.tile<[1, 16, tile_p], f32>
  // CHECK: tile.transpose %{{.*}}, 1, 2 : !tile.tile<[1, tile_p, 128], f16> -> !tile.tile<[1, 128, tile_p], f16>
  %kt2 = tile.transpose %k, 1, 2 : !tile.tile<[1, tile_p, 128], f16> -> !tile.tile<[1, 128, tile_p], f16>
  %s = tile.constant 2.0 : !tile.tile<[1, 16], f32>
  // CHECK: tile.bcast %{{.*}} [2] : !tile.tile<[1, 16], f32> -> !tile.tile<[1, 16, tile_p], f32>
  %sb = tile.bcast %s [2] : !tile.tile<[1, 16], f32> -> !tile.tile<[1, 16, tile_p], f32>
  // CHECK: tile.bcast %{{.*}} [0, 2] : !tile.tile<[16], f32> -> !tile.tile<[4, 16, 8], f32>
  %v = tile.constant 2.0 : !tile.tile<[16], f32>
  %vb = tile.bcast %v [0, 2] : !tile.tile<[16], f32> -> !tile.tile<[4, 16, 8], f32>
  // CHECK: tile.squeeze %{{.*}}, 0 : !tile.tile<[1, 16, 128], f16> -> !tile.tile<[16, 128], f16>
  // CHECK: tile.unsqueeze %{{.*}}, 1 : !tile.tile<[16, 128], f16> -> !tile.tile<[16, 1, 128], f16>
  %sq = tile.squeeze %q, 0 : !tile.tile<[1, 16, 128], f16> -> !tile.tile<[16, 128], f16>
  %un = tile.unsqueeze %sq, 1 : !tile.tile<[16, 128], f16> -> !tile.tile<[16, 1, 128], f16>
  // CHECK: tile.reshape %{{.*}} : !tile.tile<[16, 128], f16> -> !tile.tile<[16, 4, 32], f16>
  // CHECK: tile.reshape %{{.*}} : !tile.tile<[1, tile_p, 128], f16> -> !tile.tile<[tile_p, 2, 64], f16>
  %r = tile.reshape %sq : !tile.tile<[16, 128], f16> -> !tile.tile<[16, 4, 32], f16>
  %r2 = tile.reshape %k : !tile.tile<[1, tile_p, 128], f16> -> !tile.tile<[tile_p, 2, 64], f16>
  // CHECK: tile.concat %{{.*}}, %{{.*}} axis 1 : !tile.tile<[1, tile_p, 128], f16>, !tile.tile<[1, tile_p, 128], f16> -> !tile.tile<[1, 2*tile_p, 128], f16>
  // CHECK: tile.concat %{{.*}}, %{{.*}}, %{{.*}} axis 2 : {{.*}} -> !tile.tile<[1, 16, 384], f16>
  %cc = tile.concat %k, %k axis 1 : !tile.tile<[1, tile_p, 128], f16>, !tile.tile<[1, tile_p, 128], f16> -> !tile.tile<[1, 2*tile_p, 128], f16>
  %c3 = tile.concat %q, %q, %q axis 2 : !tile.tile<[1, 16, 128], f16>, !tile.tile<[1, 16, 128], f16>, !tile.tile<[1, 16, 128], f16> -> !tile.tile<[1, 16, 384], f16>
  // CHECK: tile.cast %{{.*}} : !tile.tile<[1, 16, tile_p], f32> -> !tile.tile<[1, 16, tile_p], f16>
  %h = tile.cast %c : !tile.tile<[1, 16, tile_p], f32> -> !tile.tile<[1, 16, tile_p], f16>
  // CHECK: tile.constant dense<{{\[}}[1.000000e+00, -2.500000e-01], [3.000000e+00, 4.000000e+00]]> : !tile.tile<[2, 2], f32>
  // CHECK: tile.constant dense<[5.000000e-01]> : !tile.tile<[1], f16>
  // CHECK: tile.constant 0.000000e+00 : !tile.tile<[], f64>
  %d = tile.constant dense<[[1.0, -0.25], [3.0, 4.0]]> : !tile.tile<[2, 2], f32>
  %d1 = tile.constant dense<[0.5]> : !tile.tile<[1], f16>
  %z = tile.constant 0.0 : !tile.tile<[], f64>
  // Values without a decimal spelling keep their value through printing.
  // CHECK: tile.constant nan : !tile.tile<[4], f32>
  // CHECK: tile.constant -inf : !tile.tile<[4], f32>
  // CHECK: tile.constant dense<[inf, -inf, -1.500000e+00]> : !tile.tile<[3], f16>
  %nan = tile.constant nan : !tile.tile<[4], f32>
  %ninf = tile.constant -inf : !tile.tile<[4], f32>
  %inf3 = tile.constant dense<[inf, -inf, -1.5]> : !tile.tile<[3], f16>
  %n = tile.nop
  tile.yield %n
}
