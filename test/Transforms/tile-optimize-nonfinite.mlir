// RUN: tile-opt %s --tile-optimize -o /dev/null 2>&1 | FileCheck %s

// The check compares NaN with NaN as a match: sqrt of normal(0, 1) inputs is
// NaN where the input is negative, in the linalg reference and in every
// candidate alike, and no candidate is dropped (before, each "differed by
// inf"). The check warns that its expected outputs are not finite.
// CHECK: warning: the check's expected outputs of @nan_sum are not finite at 8 of 8 elements
// CHECK: remark: extracted 2 candidate(s) of @nan_sum (0 dropped by the check)

// The check draws its inputs as tile-run does, from the linalg arguments'
// tile.init: positive inputs give finite outputs, and no warning.
// CHECK-NOT: warning: the check's expected outputs of @positive_sum
// CHECK: remark: extracted 2 candidate(s) of @positive_sum (0 dropped by the check)

#m = affine_map<(d0, d1) -> (d0, d1)>
func.func @nan_sum(%X: tensor<8x32xf32> {tile.name = "X"}) -> (tensor<8xf32> {tile.name = "Y"}) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %l = linalg.generic {indexing_maps = [#m, #m], iterator_types = ["parallel", "parallel"]} ins(%X : tensor<8x32xf32>) outs(%e : tensor<8x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.sqrt %x : f32
    linalg.yield %y : f32 } -> tensor<8x32xf32>
  %e8 = tensor.empty() : tensor<8xf32>
  %z8 = linalg.fill ins(%zero : f32) outs(%e8 : tensor<8xf32>) -> tensor<8xf32>
  %s = linalg.reduce ins(%l : tensor<8x32xf32>) outs(%z8 : tensor<8xf32>) dimensions = [1]
    (%in: f32, %acc: f32) { %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32 }
  return %s : tensor<8xf32>
}

func.func @positive_sum(%X: tensor<8x32xf32> {tile.name = "X", tile.init = "uniform(0.5, 2.0)"}) -> (tensor<8xf32> {tile.name = "Y"}) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %l = linalg.generic {indexing_maps = [#m, #m], iterator_types = ["parallel", "parallel"]} ins(%X : tensor<8x32xf32>) outs(%e : tensor<8x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.sqrt %x : f32
    linalg.yield %y : f32 } -> tensor<8x32xf32>
  %e8 = tensor.empty() : tensor<8xf32>
  %z8 = linalg.fill ins(%zero : f32) outs(%e8 : tensor<8xf32>) -> tensor<8xf32>
  %s = linalg.reduce ins(%l : tensor<8x32xf32>) outs(%z8 : tensor<8xf32>) dimensions = [1]
    (%in: f32, %acc: f32) { %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32 }
  return %s : tensor<8xf32>
}
