// Cause 1 of issue 46 (factoring refused output accumulators), at the
// default --tile-saturate options (test/Rules/Factoring has the rule alone).
// RUN: not tile-opt %s --tile-saturate="goal=%S/Inputs/output-accumulator.mlir" -o /dev/null 2>&1 | FileCheck %s
//
// loop i (S = S * m + a / d) -> seq(loop i (S = S * m + a), S = S / d) with
// S an output: outputs start at zero as intermediates do, so the
// accumulation is a zero-start accumulator (ZeroInitAccumulator) and d
// factors out of the loop; the same when the output is the result of
// FlashAttention-2's P.V (the deferred division).
// CHECK-DAG: remark: goal @fires_output is represented
// @blocked: S is inout, so it starts with a value the factored form would
// also divide: the factored form must not appear.
// CHECK-DAG: error: goal @blocked is not represented

tile.program @fires_output(
    %A: !tile.tensor<16xf32, input>,
    %D: !tile.tensor<4xf32, input>,
    %E: !tile.tensor<16xf32, input>,
    %M: !tile.tensor<4xf32, input>,
    %S: !tile.tensor<4xf32, output>) {
  %full = tile.full
  %i = tile.var "i"
  %j = tile.var "j"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %tj = tile.tile %j
  %lo = tile.const_tile 0, 4
  %hi = tile.const_tile 12, 4
  %s = tile.load %S[%full] : !tile.tensor<4xf32, output> -> !tile.tile<[4], f32>
  %a = tile.load %A[%ti] : !tile.tensor<16xf32, input> -> !tile.tile<[4], f32>
  %d = tile.load %D[%full] : !tile.tensor<4xf32, input> -> !tile.tile<[4], f32>
  %m = tile.load %M[%full] : !tile.tensor<4xf32, input> -> !tile.tile<[4], f32>
  %q = tile.div %a, %d : !tile.tile<[4], f32>
  %sm = tile.mul %s, %m : !tile.tile<[4], f32>
  %n = tile.add %sm, %q : !tile.tile<[4], f32>
  %b = tile.store %n, %S[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, output>
  %l = tile.loop %i = 0 to 16 step %c4 body %b
  tile.yield %l
}

tile.program @blocked(
    %A: !tile.tensor<16xf32, input>,
    %D: !tile.tensor<4xf32, input>,
    %E: !tile.tensor<16xf32, input>,
    %M: !tile.tensor<4xf32, input>,
    %S: !tile.tensor<4xf32, inout>,
    %O: !tile.tensor<4xf32, output>) {
  %full = tile.full
  %i = tile.var "i"
  %j = tile.var "j"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %tj = tile.tile %j
  %lo = tile.const_tile 0, 4
  %hi = tile.const_tile 12, 4
  %s = tile.load %S[%full] : !tile.tensor<4xf32, inout> -> !tile.tile<[4], f32>
  %a = tile.load %A[%ti] : !tile.tensor<16xf32, input> -> !tile.tile<[4], f32>
  %d = tile.load %D[%full] : !tile.tensor<4xf32, input> -> !tile.tile<[4], f32>
  %m = tile.load %M[%full] : !tile.tensor<4xf32, input> -> !tile.tile<[4], f32>
  %q = tile.div %a, %d : !tile.tile<[4], f32>
  %sm = tile.mul %s, %m : !tile.tile<[4], f32>
  %n = tile.add %sm, %q : !tile.tile<[4], f32>
  %b = tile.store %n, %S[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, inout>
  %l = tile.loop %i = 0 to 16 step %c4 body %b
  tile.yield %l
}
