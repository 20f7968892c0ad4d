// RUN: not tile-opt %s --tile-saturate="only=loop-fusion iterations=1 backoff=false propagate=false goal=%S/Inputs/loop-fusion.mlir" -o /dev/null 2>&1 | FileCheck %s

// loop-fusion: seq(loop i b1, seq(loop i b2, t)) -> seq(loop i (b1; b2), t),
// guarded by FusionLegal(i, b1, b2) (no conflict between different iterations).

// @fires: b1: X[i] = A[i], b2: P[i] = X[i], a dependence within one iteration only; the rule fuses the loops
// CHECK-DAG: remark: goal @fires is represented
// @blocked: b1: X[i] = A[i], b2: P[i] = X[12:16]: iteration 0 of the fused loop would read X[12:16] before iteration 3 writes it (FusionLegal is false); the fused loop must not appear
// CHECK-DAG: error: goal @blocked is not represented
// @exact: b2 reads X[0:4] in every iteration; fusion is legal (exact order)
// CHECK-DAG: remark: goal @exact is represented

// Start: b1: X[i] = A[i], b2: P[i] = X[i], a dependence within one iteration only
tile.program @fires(
    %A: !tile.tensor<16xf32, input>,
    %B: !tile.tensor<16xf32, input>,
    %C: !tile.tensor<16xf32, input>,
    %X: !tile.tensor<16xf32, intermediate>,
    %Q: !tile.tensor<16xf32, inout>,
    %O: !tile.tensor<16xf32, output>,
    %P: !tile.tensor<16xf32, output>,
    %R: !tile.tensor<16xf32, output>) {
  %full = tile.full
  %i = tile.var "i"
  %j = tile.var "j"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %tj = tile.tile %j
  %lo = tile.const_tile 0, 4
  %hi = tile.const_tile 12, 4
  %b1v = tile.load %A[%ti] : !tile.tensor<16xf32, input> -> !tile.tile<[4], f32>
  %b1 = tile.store %b1v, %X[%ti] : !tile.tile<[4], f32>, !tile.tensor<16xf32, intermediate>
  %b2v = tile.load %X[%ti] : !tile.tensor<16xf32, intermediate> -> !tile.tile<[4], f32>
  %b2 = tile.store %b2v, %P[%ti] : !tile.tile<[4], f32>, !tile.tensor<16xf32, output>
  %tv = tile.load %C[%full] : !tile.tensor<16xf32, input> -> !tile.tile<[16], f32>
  %t = tile.store %tv, %R[%full] : !tile.tile<[16], f32>, !tile.tensor<16xf32, output>
  %l1 = tile.loop %i = 0 to 16 step %c4 body %b1
  %l2 = tile.loop %i = 0 to 16 step %c4 body %b2
  %s2 = tile.seq %l2, %t
  %r = tile.seq %l1, %s2
  tile.yield %r
}

// Start: b1: X[i] = A[i], b2: P[i] = X[12:16]: iteration 0 of the fused loop would read X[12:16] before iteration 3 writes it (FusionLegal is false)
tile.program @blocked(
    %A: !tile.tensor<16xf32, input>,
    %B: !tile.tensor<16xf32, input>,
    %C: !tile.tensor<16xf32, input>,
    %X: !tile.tensor<16xf32, intermediate>,
    %Q: !tile.tensor<16xf32, inout>,
    %O: !tile.tensor<16xf32, output>,
    %P: !tile.tensor<16xf32, output>,
    %R: !tile.tensor<16xf32, output>) {
  %full = tile.full
  %i = tile.var "i"
  %j = tile.var "j"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %tj = tile.tile %j
  %lo = tile.const_tile 0, 4
  %hi = tile.const_tile 12, 4
  %b1v = tile.load %A[%ti] : !tile.tensor<16xf32, input> -> !tile.tile<[4], f32>
  %b1 = tile.store %b1v, %X[%ti] : !tile.tile<[4], f32>, !tile.tensor<16xf32, intermediate>
  %b2v = tile.load %X[%hi] : !tile.tensor<16xf32, intermediate> -> !tile.tile<[4], f32>
  %b2 = tile.store %b2v, %P[%ti] : !tile.tile<[4], f32>, !tile.tensor<16xf32, output>
  %tv = tile.load %C[%full] : !tile.tensor<16xf32, input> -> !tile.tile<[16], f32>
  %t = tile.store %tv, %R[%full] : !tile.tile<[16], f32>, !tile.tensor<16xf32, output>
  %l1 = tile.loop %i = 0 to 16 step %c4 body %b1
  %l2 = tile.loop %i = 0 to 16 step %c4 body %b2
  %s2 = tile.seq %l2, %t
  %r = tile.seq %l1, %s2
  tile.yield %r
}

// Start: b1: X[i] = A[i], b2: P[i] = X[0:4]: every iteration of b2 reads the
// tile iteration 0 of b1 wrote, and fusion only reorders b1(i) after b2(j)
// with j < i, none of which meet: legal (a guard that only knows "different
// iterations" refuses it)
tile.program @exact(
    %A: !tile.tensor<16xf32, input>,
    %B: !tile.tensor<16xf32, input>,
    %C: !tile.tensor<16xf32, input>,
    %X: !tile.tensor<16xf32, intermediate>,
    %Q: !tile.tensor<16xf32, inout>,
    %O: !tile.tensor<16xf32, output>,
    %P: !tile.tensor<16xf32, output>,
    %R: !tile.tensor<16xf32, output>) {
  %full = tile.full
  %i = tile.var "i"
  %j = tile.var "j"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %tj = tile.tile %j
  %lo = tile.const_tile 0, 4
  %hi = tile.const_tile 12, 4
  %b1v = tile.load %A[%ti] : !tile.tensor<16xf32, input> -> !tile.tile<[4], f32>
  %b1 = tile.store %b1v, %X[%ti] : !tile.tile<[4], f32>, !tile.tensor<16xf32, intermediate>
  %b2v = tile.load %X[%lo] : !tile.tensor<16xf32, intermediate> -> !tile.tile<[4], f32>
  %b2 = tile.store %b2v, %P[%ti] : !tile.tile<[4], f32>, !tile.tensor<16xf32, output>
  %tv = tile.load %C[%full] : !tile.tensor<16xf32, input> -> !tile.tile<[16], f32>
  %t = tile.store %tv, %R[%full] : !tile.tile<[16], f32>, !tile.tensor<16xf32, output>
  %l1 = tile.loop %i = 0 to 16 step %c4 body %b1
  %l2 = tile.loop %i = 0 to 16 step %c4 body %b2
  %s2 = tile.seq %l2, %t
  %r = tile.seq %l1, %s2
  tile.yield %r
}
