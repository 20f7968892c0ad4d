// Goals for assoc-add.mlir (rule assoc-add).

// The rewritten form; it must be in the e-graph.
tile.program @fires(
    %A: !tile.tensor<4x4xf32, input>,
    %B: !tile.tensor<4x4xf32, input>,
    %C: !tile.tensor<4x4xf32, input>,
    %O: !tile.tensor<4x4xf32, output>) {
  %full = tile.full
  %a = tile.load %A[%full, %full] : !tile.tensor<4x4xf32, input> -> !tile.tile<[4, 4], f32>
  %b = tile.load %B[%full, %full] : !tile.tensor<4x4xf32, input> -> !tile.tile<[4, 4], f32>
  %c = tile.load %C[%full, %full] : !tile.tensor<4x4xf32, input> -> !tile.tile<[4, 4], f32>
  %t = tile.add %a, %b : !tile.tile<[4, 4], f32>
  %r = tile.add %t, %c : !tile.tile<[4, 4], f32>
  %st = tile.store %r, %O[%full, %full] : !tile.tile<[4, 4], f32>, !tile.tensor<4x4xf32, output>
  tile.yield %st
}

// The form the rule must not produce here.
tile.program @blocked(
    %A: !tile.tensor<4x4xf32, input>,
    %B: !tile.tensor<4x4xf32, input>,
    %C: !tile.tensor<4x4xf32, input>,
    %O: !tile.tensor<4x4xf32, output>) {
  %full = tile.full
  %a = tile.load %A[%full, %full] : !tile.tensor<4x4xf32, input> -> !tile.tile<[4, 4], f32>
  %b = tile.load %B[%full, %full] : !tile.tensor<4x4xf32, input> -> !tile.tile<[4, 4], f32>
  %c = tile.load %C[%full, %full] : !tile.tensor<4x4xf32, input> -> !tile.tile<[4, 4], f32>
  %t = tile.add %a, %b : !tile.tile<[4, 4], f32>
  %r = tile.add %t, %c : !tile.tile<[4, 4], f32>
  %st = tile.store %r, %O[%full, %full] : !tile.tile<[4, 4], f32>, !tile.tensor<4x4xf32, output>
  tile.yield %st
}
