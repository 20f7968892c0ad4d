tile.program @gemm(%A: !tile.tensor<16x256xf16, input>,
                   %B: !tile.tensor<256x512xf16, input>,
                   %C: !tile.tensor<16x512xf32, output>) {
  %i = tile.var "i"
  %j = tile.var "j"
  %k = tile.var "k"
  %ti = tile.size "tile_i"
  %tj = tile.size "tile_j"
  %tk = tile.size "tile_k"
  %xi = tile.tile %i
  %xj = tile.tile %j
  %xk = tile.tile %k
  %a = tile.load %A[%xi, %xk] : !tile.tensor<16x256xf16, input> -> !tile.tile<[tile_i, tile_k], f16>
  %b = tile.load %B[%xk, %xj] : !tile.tensor<256x512xf16, input> -> !tile.tile<[tile_k, tile_j], f16>
  %m = tile.matmul %a, %b : !tile.tile<[tile_i, tile_k], f16>, !tile.tile<[tile_k, tile_j], f16> -> !tile.tile<[tile_i, tile_j], f32>
  %c = tile.load %C[%xi, %xj] : !tile.tensor<16x512xf32, output> -> !tile.tile<[tile_i, tile_j], f32>
  %n = tile.add %c, %m : !tile.tile<[tile_i, tile_j], f32>
  %s = tile.store %n, %C[%xi, %xj] : !tile.tile<[tile_i, tile_j], f32>, !tile.tensor<16x512xf32, output>
  %lk = tile.loop %k = 0 to 256 step %tk body %s
  %lj = tile.loop %j = 0 to 512 step %tj body %lk
  %li = tile.loop %i = 0 to 16 step %ti body %lj
  tile.yield %li
}
