// Row maxima instead of sums: a wrong program for @sum.
tile.program @max(%x: !tile.tensor<4x8xf32, input>, %s: !tile.tensor<4xf32, output>) {
  %f = tile.full
  %a = tile.load %x[%f, %f] : !tile.tensor<4x8xf32, input> -> !tile.tile<[4, 8], f32>
  %p = tile.rmax %a, 1 : !tile.tile<[4, 8], f32> -> !tile.tile<[4], f32>
  %st = tile.store %p, %s[%f] : !tile.tile<[4], f32>, !tile.tensor<4xf32, output>
  tile.yield %st
}
tile.program @other(%x: !tile.tensor<2xf32, input>, %y: !tile.tensor<2xf32, output>) {
  %f = tile.full
  %a = tile.load %x[%f] : !tile.tensor<2xf32, input> -> !tile.tile<[2], f32>
  %st = tile.store %a, %y[%f] : !tile.tile<[2], f32>, !tile.tensor<2xf32, output>
  tile.yield %st
}
