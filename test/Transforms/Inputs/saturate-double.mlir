// Goal of the rules=PATH test: the program with x * 2 written x + x.
tile.program @double(%A: !tile.tensor<4x8xf32, input>,
                     %B: !tile.tensor<4x8xf32, output>) {
  %f = tile.full
  %a = tile.load %A[%f, %f] : !tile.tensor<4x8xf32, input> -> !tile.tile<[4, 8], f32>
  %s = tile.add %a, %a : !tile.tile<[4, 8], f32>
  %st = tile.store %s, %B[%f, %f] : !tile.tile<[4, 8], f32>, !tile.tensor<4x8xf32, output>
  tile.yield %st
}
