// Goal of ../reindex-tile-to-elem.mlir: one loop over n, P[tile h] as
// P[elem n].
tile.program @fires(
    %A: !tile.tensor<2x4x8xf32, input>,
    %B: !tile.tensor<4x16xf32, input>,
    %P: !tile.tensor<2x4x8xf32, intermediate>,
    %O: !tile.tensor<4x16xf32, output>) {
  %full = tile.full
  %n = tile.var "n"
  %c8 = tile.size 8
  %en = tile.elem %n
  %tn = tile.tile %n
  %a = tile.load %A[%en, %full, %full] : !tile.tensor<2x4x8xf32, input> -> !tile.tile<[1, 4, 8], f32>
  %two = tile.constant 2.0 : !tile.tile<[1, 4, 8], f32>
  %p = tile.mul %a, %two : !tile.tile<[1, 4, 8], f32>
  %s1 = tile.store %p, %P[%en, %full, %full] : !tile.tile<[1, 4, 8], f32>, !tile.tensor<2x4x8xf32, intermediate>
  %q = tile.load %P[%en, %full, %full] : !tile.tensor<2x4x8xf32, intermediate> -> !tile.tile<[1, 4, 8], f32>
  %q2 = tile.squeeze %q, 0 : !tile.tile<[1, 4, 8], f32> -> !tile.tile<[4, 8], f32>
  %b = tile.load %B[%full, %tn] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 8], f32>
  %o = tile.add %q2, %b : !tile.tile<[4, 8], f32>
  %s2 = tile.store %o, %O[%full, %tn] : !tile.tile<[4, 8], f32>, !tile.tensor<4x16xf32, output>
  %body = tile.seq %s1, %s2
  %l = tile.loop %n = 0 to 16 step %c8 body %body
  tile.yield %l
}

// The fused loop of @blocked (wrong: iteration 0 reads head 1 unwritten).
tile.program @blocked(
    %A: !tile.tensor<2x4x8xf32, input>,
    %B: !tile.tensor<4x16xf32, input>,
    %P: !tile.tensor<2x4x8xf32, intermediate>,
    %O: !tile.tensor<4x16xf32, output>) {
  %full = tile.full
  %n = tile.var "n"
  %c8 = tile.size 8
  %en = tile.elem %n
  %tn = tile.tile %n
  %a = tile.load %A[%en, %full, %full] : !tile.tensor<2x4x8xf32, input> -> !tile.tile<[1, 4, 8], f32>
  %two = tile.constant 2.0 : !tile.tile<[1, 4, 8], f32>
  %p = tile.mul %a, %two : !tile.tile<[1, 4, 8], f32>
  %s1 = tile.store %p, %P[%en, %full, %full] : !tile.tile<[1, 4, 8], f32>, !tile.tensor<2x4x8xf32, intermediate>
  %q = tile.load %P[%full, %full, %full] : !tile.tensor<2x4x8xf32, intermediate> -> !tile.tile<[2, 4, 8], f32>
  %q2 = tile.rsum %q, 0 : !tile.tile<[2, 4, 8], f32> -> !tile.tile<[4, 8], f32>
  %b = tile.load %B[%full, %tn] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 8], f32>
  %o = tile.add %q2, %b : !tile.tile<[4, 8], f32>
  %s2 = tile.store %o, %O[%full, %tn] : !tile.tile<[4, 8], f32>, !tile.tensor<4x16xf32, output>
  %body = tile.seq %s1, %s2
  %l = tile.loop %n = 0 to 16 step %c8 body %body
  tile.yield %l
}
