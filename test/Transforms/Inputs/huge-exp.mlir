// 2^20 x 2^20 f32: 2^40 elements, 8 TiB as the host's doubles
// (tile-optimize-budget.mlir).
tile.program @exp(%A: !tile.tensor<1048576x1048576xf32, input>,
                  %B: !tile.tensor<1048576x1048576xf32, output>) {
  %i = tile.var "i"
  %ti = tile.size "tile_i"
  %t = tile.tile %i
  %f = tile.full
  %a = tile.load %A[%t, %f] : !tile.tensor<1048576x1048576xf32, input> -> !tile.tile<[tile_i, 1048576], f32>
  %e = tile.exp %a : !tile.tile<[tile_i, 1048576], f32>
  %s = tile.store %e, %B[%t, %f] : !tile.tile<[tile_i, 1048576], f32>, !tile.tensor<1048576x1048576xf32, output>
  %l = tile.loop %i = 0 to 1048576 step %ti body %s
  tile.yield %l
}
