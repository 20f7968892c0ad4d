// Goals of rsum-rebase.mlir.

tile.program @fires(
    %Y: !tile.tensor<4x8xf32, input>,
    %M1: !tile.tensor<4xf32, input>,
    %M2: !tile.tensor<4xf32, input>,
    %M3: !tile.tensor<4xf32, input>,
    %W: !tile.tensor<8x8xf32, input>,
    %O: !tile.tensor<4xf32, output>) {
  %full = tile.full
  %y = tile.load %Y[%full, %full] : !tile.tensor<4x8xf32, input> -> !tile.tile<[4, 8], f32>
  %m1 = tile.load %M1[%full] : !tile.tensor<4xf32, input> -> !tile.tile<[4], f32>
  %m2 = tile.load %M2[%full] : !tile.tensor<4xf32, input> -> !tile.tile<[4], f32>
  %m3 = tile.load %M3[%full] : !tile.tensor<4xf32, input> -> !tile.tile<[4], f32>
  %w = tile.load %W[%full, %full] : !tile.tensor<8x8xf32, input> -> !tile.tile<[8, 8], f32>
  %b2 = tile.bcast %m2 [1] : !tile.tile<[4], f32> -> !tile.tile<[4, 8], f32>
  %d1 = tile.sub %y, %b2 : !tile.tile<[4, 8], f32>
  %e1 = tile.exp %d1 : !tile.tile<[4, 8], f32>
  %r = tile.rsum %e1, 1 : !tile.tile<[4, 8], f32> -> !tile.tile<[4], f32>
  %st = tile.store %r, %O[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, output>
  tile.yield %st
}

tile.program @blocked(
    %Y: !tile.tensor<4x8xf32, input>,
    %M1: !tile.tensor<4xf32, input>,
    %M2: !tile.tensor<4xf32, input>,
    %M3: !tile.tensor<4xf32, input>,
    %W: !tile.tensor<8x8xf32, input>,
    %O: !tile.tensor<4xf32, output>) {
  %full = tile.full
  %y = tile.load %Y[%full, %full] : !tile.tensor<4x8xf32, input> -> !tile.tile<[4, 8], f32>
  %m1 = tile.load %M1[%full] : !tile.tensor<4xf32, input> -> !tile.tile<[4], f32>
  %m2 = tile.load %M2[%full] : !tile.tensor<4xf32, input> -> !tile.tile<[4], f32>
  %m3 = tile.load %M3[%full] : !tile.tensor<4xf32, input> -> !tile.tile<[4], f32>
  %w = tile.load %W[%full, %full] : !tile.tensor<8x8xf32, input> -> !tile.tile<[8, 8], f32>
  %b2 = tile.bcast %m2 [1] : !tile.tile<[4], f32> -> !tile.tile<[4, 8], f32>
  %d1 = tile.sub %y, %b2 : !tile.tile<[4, 8], f32>
  %e1 = tile.exp %d1 : !tile.tile<[4, 8], f32>
  %r = tile.rsum %e1, 1 : !tile.tile<[4, 8], f32> -> !tile.tile<[4], f32>
  %st = tile.store %r, %O[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, output>
  tile.yield %st
}
