// The lowering plans a program's structure without the interpreter's
// result buffers: a [16384 x 16384] tile (a prefill's scores at 2K x 2K per
// head are as large) took 2 GiB of doubles per value, 10 GiB and 40 s for
// this program, and 18 GiB for causal attention prefill at 2K. Lowered
// here under a 4 GiB address-space limit.
// RUN: sh -c 'ulimit -v 4000000 && tile-opt %s --tile-lower-to-gpu' | FileCheck %s

// CHECK: gpu.func @big_k0
// CHECK: math.exp
// CHECK: arith.constant 2.000000e+00 : f32

tile.program @big(%X: !tile.tensor<16384x16384xf32, input>, %Y: !tile.tensor<16384x16384xf32, output>) {
  %f = tile.full
  %x = tile.load %X[%f, %f] : !tile.tensor<16384x16384xf32, input> -> !tile.tile<[16384, 16384], f32>
  %c = tile.constant 2.0 : !tile.tile<[16384, 16384], f32>
  %e = tile.exp %x : !tile.tile<[16384, 16384], f32>
  %m = tile.mul %e, %c : !tile.tile<[16384, 16384], f32>
  %s = tile.store %m, %Y[%f, %f] : !tile.tile<[16384, 16384], f32>, !tile.tensor<16384x16384xf32, output>
  tile.yield %s
}
