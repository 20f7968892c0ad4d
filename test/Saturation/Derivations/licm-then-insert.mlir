// Cause 3 of issue 46 (bound variables over-approximated).
// RUN: tile-opt %s --tile-saturate="goal=%S/Inputs/licm-then-insert.mlir" -o /dev/null 2>&1 | FileCheck %s
//
// `loop m S` where S does not use m is S (loop-invariant code motion), so
// the class of S holds a loop over m. The e-class analysis counted that
// loop as binding m, and the class then refused to move into another loop
// over m (the insertion guards refuse a statement binding the loop's
// variable), although the loop's body never mentions m. A loop binds its
// variable for the analysis only where its body mentions it.
//
// @fires: S (T = 2 X, whole) under a loop over m that it does not use, then
// a loop over m reading all of T in every iteration (O[:, m] = A[:, m] + T):
// loop-invariant code motion makes the first loop S's equal, and the
// producer insertion moves that class into the second loop, where every
// iteration recomputes T (the loops cannot fuse as they are: every
// iteration of S writes all of T, which other iterations read).
// CHECK: remark: goal @fires is represented
// The blocking case, a nest that really binds m, cannot be written as a
// goal (the verifier refuses a loop rebinding m):
// unittests/Saturation/TileAnalysisTest.cpp checks its class binds m.

tile.program @fires(
    %X: !tile.tensor<16xf32, input>,
    %A: !tile.tensor<16x16xf32, input>,
    %T: !tile.tensor<16xf32, intermediate>,
    %O: !tile.tensor<16x16xf32, output>) {
  %full = tile.full
  %m = tile.var "m"
  %c4 = tile.size 4
  %tm = tile.tile %m
  %x = tile.load %X[%full] : !tile.tensor<16xf32, input> -> !tile.tile<[16], f32>
  %two = tile.constant 2.0 : !tile.tile<[16], f32>
  %xs = tile.mul %x, %two : !tile.tile<[16], f32>
  %s = tile.store %xs, %T[%full] : !tile.tile<[16], f32>, !tile.tensor<16xf32, intermediate>
  %l1 = tile.loop %m = 0 to 16 step %c4 body %s
  %a = tile.load %A[%full, %tm] : !tile.tensor<16x16xf32, input> -> !tile.tile<[16, 4], f32>
  %t = tile.load %T[%full] : !tile.tensor<16xf32, intermediate> -> !tile.tile<[16], f32>
  %tb = tile.bcast %t [1] : !tile.tile<[16], f32> -> !tile.tile<[16, 4], f32>
  %o = tile.add %a, %tb : !tile.tile<[16, 4], f32>
  %b = tile.store %o, %O[%full, %tm] : !tile.tile<[16, 4], f32>, !tile.tensor<16x16xf32, output>
  %l2 = tile.loop %m = 0 to 16 step %c4 body %b
  %r = tile.seq %l1, %l2
  tile.yield %r
}
