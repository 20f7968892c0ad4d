// RUN: not tile-opt %s --tile-saturate="only=alge-factor-loop-body-div iterations=1 backoff=false propagate=false goal=%S/Inputs/alge-factor-loop-body-div.mlir" -o /dev/null 2>&1 | FileCheck %s

// alge-factor-loop-body-div: loop i (S = S * m + a / d) -> seq(loop i (S = S * m + a), S = S / d),
// guarded by NotUsesVar(i, d), NotUsesVar(i, load S) and ZeroInitAccumulator(S).

// @fires: S is an intermediate whose only writer is the accumulation (starts at zero), d = D[:] does not use i; the rule factors d out of the loop
// CHECK-DAG: remark: goal @fires is represented
// @fires_output: S is an output, which starts at zero too; the rule factors d out of the loop
// CHECK-DAG: remark: goal @fires_output is represented
// @blocked: S is inout, so it starts with a value the factored form would also divide (ZeroInitAccumulator is false); the factored form must not appear
// CHECK-DAG: error: goal @blocked is not represented

// Start: S is an intermediate whose only writer is the accumulation (starts at zero), d = D[:] does not use i
tile.program @fires(
    %A: !tile.tensor<16xf32, input>,
    %D: !tile.tensor<4xf32, input>,
    %E: !tile.tensor<16xf32, input>,
    %M: !tile.tensor<4xf32, input>,
    %S: !tile.tensor<4xf32, intermediate>,
    %O: !tile.tensor<4xf32, output>) {
  %full = tile.full
  %i = tile.var "i"
  %j = tile.var "j"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %tj = tile.tile %j
  %lo = tile.const_tile 0, 4
  %hi = tile.const_tile 12, 4
  %s = tile.load %S[%full] : !tile.tensor<4xf32, intermediate> -> !tile.tile<[4], f32>
  %a = tile.load %A[%ti] : !tile.tensor<16xf32, input> -> !tile.tile<[4], f32>
  %d = tile.load %D[%full] : !tile.tensor<4xf32, input> -> !tile.tile<[4], f32>
  %m = tile.load %M[%full] : !tile.tensor<4xf32, input> -> !tile.tile<[4], f32>
  %q = tile.div %a, %d : !tile.tile<[4], f32>
  %sm = tile.mul %s, %m : !tile.tile<[4], f32>
  %n = tile.add %sm, %q : !tile.tile<[4], f32>
  %b = tile.store %n, %S[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, intermediate>
  %l = tile.loop %i = 0 to 16 step %c4 body %b
  tile.yield %l
}

// Start: S is the program's output (outputs start at zero, as intermediates do) and its only writer is the accumulation; the rule fires as for @fires
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

// Start: S is inout, so it starts with a value the factored form would also divide (ZeroInitAccumulator is false)
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
