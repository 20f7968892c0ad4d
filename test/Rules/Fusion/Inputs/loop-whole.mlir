// Goals for loop-whole.mlir (rule loop-whole): each program run as one whole tile.

tile.program @fires(
    %A: !tile.tensor<64xf32, input>,
    %Y: !tile.tensor<64xf32, output>,
    %S: !tile.tensor<1xf32, output>) {
  %full = tile.full
  %a = tile.load %A[%full] : !tile.tensor<64xf32, input> -> !tile.tile<[64], f32>
  %e = tile.exp %a : !tile.tile<[64], f32>
  %st = tile.store %e, %Y[%full] : !tile.tile<[64], f32>, !tile.tensor<64xf32, output>
  tile.yield %st
}

tile.program @reduction(
    %A: !tile.tensor<64xf32, input>,
    %Y: !tile.tensor<64xf32, output>,
    %S: !tile.tensor<1xf32, output>) {
  %full = tile.full
  %a = tile.load %A[%full] : !tile.tensor<64xf32, input> -> !tile.tile<[64], f32>
  %s = tile.load %S[%full] : !tile.tensor<1xf32, output> -> !tile.tile<[1], f32>
  %u = tile.unsqueeze %a, 0 : !tile.tile<[64], f32> -> !tile.tile<[1, 64], f32>
  %r = tile.rsum %u, 1 : !tile.tile<[1, 64], f32> -> !tile.tile<[1], f32>
  %n = tile.add %s, %r : !tile.tile<[1], f32>
  %st = tile.store %n, %S[%full] : !tile.tile<[1], f32>, !tile.tensor<1xf32, output>
  tile.yield %st
}

tile.program @large(
    %A: !tile.tensor<256xf32, input>,
    %Y: !tile.tensor<256xf32, output>,
    %S: !tile.tensor<1xf32, output>) {
  %full = tile.full
  %a = tile.load %A[%full] : !tile.tensor<256xf32, input> -> !tile.tile<[256], f32>
  %e = tile.exp %a : !tile.tile<[256], f32>
  %st = tile.store %e, %Y[%full] : !tile.tile<[256], f32>, !tile.tensor<256xf32, output>
  tile.yield %st
}

tile.program @concrete(
    %A: !tile.tensor<64xf32, input>,
    %Y: !tile.tensor<64xf32, output>,
    %S: !tile.tensor<1xf32, output>) {
  %full = tile.full
  %a = tile.load %A[%full] : !tile.tensor<64xf32, input> -> !tile.tile<[64], f32>
  %e = tile.exp %a : !tile.tile<[64], f32>
  %st = tile.store %e, %Y[%full] : !tile.tile<[64], f32>, !tile.tensor<64xf32, output>
  tile.yield %st
}
