// A program the GPU lowering refuses (f64 tensors).
tile.program @wide(%A: !tile.tensor<64xf64, input>, %B: !tile.tensor<64xf64, output>) {
  %i = tile.var "i"
  %ti = tile.size "tile_i"
  %t = tile.tile %i
  %a = tile.load %A[%t] : !tile.tensor<64xf64, input> -> !tile.tile<[tile_i], f64>
  %s = tile.store %a, %B[%t] : !tile.tile<[tile_i], f64>, !tile.tensor<64xf64, output>
  %l = tile.loop %i = 0 to 64 step %ti body %s
  tile.yield %l
}
