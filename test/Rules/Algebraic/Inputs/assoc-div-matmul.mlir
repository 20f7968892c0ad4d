// Goals for assoc-div-matmul.mlir (rule assoc-div-matmul).

// The rewritten form; it must be in the e-graph.
tile.program @fires(
    %A: !tile.tensor<4x4xf32, input>,
    %S: !tile.tensor<4xf32, input>,
    %C: !tile.tensor<4x4xf32, input>,
    %O: !tile.tensor<4x4xf32, output>) {
  %full = tile.full
  %a = tile.load %A[%full, %full] : !tile.tensor<4x4xf32, input> -> !tile.tile<[4, 4], f32>
  %s = tile.load %S[%full] : !tile.tensor<4xf32, input> -> !tile.tile<[4], f32>
  %c = tile.load %C[%full, %full] : !tile.tensor<4x4xf32, input> -> !tile.tile<[4, 4], f32>
  %m = tile.matmul %a, %c : !tile.tile<[4, 4], f32>, !tile.tile<[4, 4], f32> -> !tile.tile<[4, 4], f32>
  %sb = tile.bcast %s [1] : !tile.tile<[4], f32> -> !tile.tile<[4, 4], f32>
  %r = tile.div %m, %sb : !tile.tile<[4, 4], f32>
  %st = tile.store %r, %O[%full, %full] : !tile.tile<[4, 4], f32>, !tile.tensor<4x4xf32, output>
  tile.yield %st
}

// The form the rule must not produce here.
tile.program @blocked(
    %A: !tile.tensor<4x4xf32, input>,
    %S: !tile.tensor<4xf32, input>,
    %C: !tile.tensor<4x4xf32, input>,
    %O: !tile.tensor<4x4xf32, output>) {
  %full = tile.full
  %a = tile.load %A[%full, %full] : !tile.tensor<4x4xf32, input> -> !tile.tile<[4, 4], f32>
  %s = tile.load %S[%full] : !tile.tensor<4xf32, input> -> !tile.tile<[4], f32>
  %c = tile.load %C[%full, %full] : !tile.tensor<4x4xf32, input> -> !tile.tile<[4, 4], f32>
  %m = tile.matmul %a, %c : !tile.tile<[4, 4], f32>, !tile.tile<[4, 4], f32> -> !tile.tile<[4, 4], f32>
  %sb = tile.bcast %s [0] : !tile.tile<[4], f32> -> !tile.tile<[4, 4], f32>
  %r = tile.div %m, %sb : !tile.tile<[4, 4], f32>
  %st = tile.store %r, %O[%full, %full] : !tile.tile<[4, 4], f32>, !tile.tensor<4x4xf32, output>
  tile.yield %st
}
