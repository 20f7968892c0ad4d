// Goal of ../licm-then-insert.mlir: S moved into the loop over m that
// reads it.
tile.program @fires(
    %X: !tile.tensor<16xf32, input>,
    %A: !tile.tensor<16x16xf32, input>,
    %T: !tile.tensor<16xf32, intermediate>,
    %O: !tile.tensor<16x16xf32, output>) {
  %full = tile.full
  %m = tile.var "m"
  %c4 = tile.size 4
  %tm = tile.tile %m
  %x = tile.load %X[%full] : !tile.tensor<16xf32, input> -> !tile.tile<[16], f32>
  %two = tile.constant 2.0 : !tile.tile<[16], f32>
  %xs = tile.mul %x, %two : !tile.tile<[16], f32>
  %s = tile.store %xs, %T[%full] : !tile.tile<[16], f32>, !tile.tensor<16xf32, intermediate>
  %a = tile.load %A[%full, %tm] : !tile.tensor<16x16xf32, input> -> !tile.tile<[16, 4], f32>
  %t = tile.load %T[%full] : !tile.tensor<16xf32, intermediate> -> !tile.tile<[16], f32>
  %tb = tile.bcast %t [1] : !tile.tile<[16], f32> -> !tile.tile<[16, 4], f32>
  %o = tile.add %a, %tb : !tile.tile<[16, 4], f32>
  %b = tile.store %o, %O[%full, %tm] : !tile.tile<[16, 4], f32>, !tile.tensor<16x16xf32, output>
  %body = tile.seq %s, %b
  %l = tile.loop %m = 0 to 16 step %c4 body %body
  tile.yield %l
}
