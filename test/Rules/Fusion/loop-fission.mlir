// RUN: not tile-opt %s --tile-saturate="only=loop-fission iterations=1 backoff=false propagate=false goal=%S/Inputs/loop-fission.mlir" -o /dev/null 2>&1 | FileCheck %s

// loop-fission: loop i (b1; b2) -> seq(loop i b1, loop i b2),
// guarded by FusionLegal(i, b1, b2).

// @fires: b1: X[i] = A[i], b2: P[i] = X[i]; the rule splits the loop
// CHECK-DAG: remark: goal @fires is represented
// @blocked: b1: X[i] = A[i], b2: P[i] = X[12:16]: in the fused loop iteration 0 reads X[12:16] before it is written, after fission it reads the new values (FusionLegal is false); the split loops must not appear
// CHECK-DAG: error: goal @blocked is not represented

// Start: b1: X[i] = A[i], b2: P[i] = X[i]
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
  %bb = tile.seq %b1, %b2
  %l = tile.loop %i = 0 to 16 step %c4 body %bb
  tile.yield %l
}

// Start: b1: X[i] = A[i], b2: P[i] = X[12:16]: in the fused loop iteration 0 reads X[12:16] before it is written, after fission it reads the new values (FusionLegal is false)
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
  %bb = tile.seq %b1, %b2
  %l = tile.loop %i = 0 to 16 step %c4 body %bb
  tile.yield %l
}
