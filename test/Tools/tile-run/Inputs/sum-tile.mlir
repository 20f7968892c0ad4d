// Row sums of a 4x8 input, as a tile program.
tile.program @sum(%x: !tile.tensor<4x8xf32, input>, %s: !tile.tensor<4xf32, output>) {
  %r = tile.var "r"
  %tr = tile.size "tile_r"
  %f = tile.full
  %t = tile.tile %r
  %a = tile.load %x[%f, %t] : !tile.tensor<4x8xf32, input> -> !tile.tile<[4, tile_r], f32>
  %p = tile.rsum %a, 1 : !tile.tile<[4, tile_r], f32> -> !tile.tile<[4], f32>
  %o = tile.load %s[%f] : !tile.tensor<4xf32, output> -> !tile.tile<[4], f32>
  %n = tile.add %o, %p : !tile.tile<[4], f32>
  %st = tile.store %n, %s[%f] : !tile.tile<[4], f32>, !tile.tensor<4xf32, output>
  %l = tile.loop %r = 0 to 8 step %tr body %st
  tile.yield %l
}
