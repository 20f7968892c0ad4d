// RUN: tile-opt %s --convert-linalg-to-tile -o %t.mlir
// RUN: tile-run %t.mlir --reference %s | FileCheck %s
// RUN: tile-run %t.mlir --reference %s --device emulate | FileCheck %s
// CHECK-NOT: MISMATCH
// CHECK-NOT: NOT-FINITE
// CHECK: PASS
// MoE layer, dense-dispatch form: router logits X Wr^T, linalg.softmax over experts, top-1 gate
// (p == max_e p ? p : 0, arith.cmpf + select), every expert's SwiGLU via batch_matmul on X broadcast
// over experts, combined by a generic that reduces over the expert dimension with permuted maps.
#mA = affine_map<(m, n, k) -> (m, k)>
#mBt = affine_map<(m, n, k) -> (n, k)>
#mC = affine_map<(m, n, k) -> (m, n)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @moe_top1(
    %X: tensor<4x32xf32> {tile.name = "X", tile.init = "normal(0.0, 1.0)"},
    %Wr: tensor<4x32xf32> {tile.name = "Wr", tile.init = "normal(0.0, 0.5)"},
    %W1: tensor<4x32x40xf32> {tile.name = "W1", tile.init = "normal(0.0, 0.1)"},
    %W3: tensor<4x32x40xf32> {tile.name = "W3", tile.init = "normal(0.0, 0.1)"},
    %W2: tensor<4x40x32xf32> {tile.name = "W2", tile.init = "normal(0.0, 0.1)"}
) -> (tensor<4x32xf32> {tile.name = "Y"}, tensor<4x4xf32> {tile.name = "gate"}) {
  %z = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %eL = tensor.empty() : tensor<4x4xf32>
  %fL = linalg.fill ins(%z : f32) outs(%eL : tensor<4x4xf32>) -> tensor<4x4xf32>
  %L = linalg.matmul indexing_maps = [#mA, #mBt, #mC] ins(%X, %Wr : tensor<4x32xf32>, tensor<4x32xf32>) outs(%fL : tensor<4x4xf32>) -> tensor<4x4xf32>
  %eP = tensor.empty() : tensor<4x4xf32>
  %P = linalg.softmax dimension(1) ins(%L : tensor<4x4xf32>) outs(%eP : tensor<4x4xf32>) -> tensor<4x4xf32>
  %eM = tensor.empty() : tensor<4xf32>
  %fM = linalg.fill ins(%ninf : f32) outs(%eM : tensor<4xf32>) -> tensor<4xf32>
  %Pm = linalg.reduce ins(%P : tensor<4x4xf32>) outs(%fM : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  %eG = tensor.empty() : tensor<4x4xf32>
  %G = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%P, %Pm : tensor<4x4xf32>, tensor<4xf32>) outs(%eG : tensor<4x4xf32>) {
  ^bb0(%p: f32, %m: f32, %o: f32):
    %c0 = arith.constant 0.0 : f32
    %is = arith.cmpf oeq, %p, %m : f32
    %g = arith.select %is, %p, %c0 : f32
    linalg.yield %g : f32
  } -> tensor<4x4xf32>
  %eXb = tensor.empty() : tensor<4x4x32xf32>
  %Xb = linalg.broadcast ins(%X : tensor<4x32xf32>) outs(%eXb : tensor<4x4x32xf32>) dimensions = [0]
  %eH = tensor.empty() : tensor<4x4x40xf32>
  %fH = linalg.fill ins(%z : f32) outs(%eH : tensor<4x4x40xf32>) -> tensor<4x4x40xf32>
  %H1 = linalg.batch_matmul ins(%Xb, %W1 : tensor<4x4x32xf32>, tensor<4x32x40xf32>) outs(%fH : tensor<4x4x40xf32>) -> tensor<4x4x40xf32>
  %H3 = linalg.batch_matmul ins(%Xb, %W3 : tensor<4x4x32xf32>, tensor<4x32x40xf32>) outs(%fH : tensor<4x4x40xf32>) -> tensor<4x4x40xf32>
  %eA = tensor.empty() : tensor<4x4x40xf32>
  %A = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%H1, %H3 : tensor<4x4x40xf32>, tensor<4x4x40xf32>) outs(%eA : tensor<4x4x40xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %n = arith.negf %a : f32
    %e = math.exp %n : f32
    %d = arith.addf %e, %one : f32
    %s = arith.divf %a, %d : f32
    %r = arith.mulf %s, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x4x40xf32>
  %eYe = tensor.empty() : tensor<4x4x32xf32>
  %fYe = linalg.fill ins(%z : f32) outs(%eYe : tensor<4x4x32xf32>) -> tensor<4x4x32xf32>
  %Ye = linalg.batch_matmul ins(%A, %W2 : tensor<4x4x40xf32>, tensor<4x40x32xf32>) outs(%fYe : tensor<4x4x32xf32>) -> tensor<4x4x32xf32>
  %eY = tensor.empty() : tensor<4x32xf32>
  %fY = linalg.fill ins(%z : f32) outs(%eY : tensor<4x32xf32>) -> tensor<4x32xf32>
  %Y = linalg.generic {indexing_maps = [affine_map<(t, d, e) -> (t, e)>, affine_map<(t, d, e) -> (e, t, d)>, affine_map<(t, d, e) -> (t, d)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%G, %Ye : tensor<4x4xf32>, tensor<4x4x32xf32>) outs(%fY : tensor<4x32xf32>) {
  ^bb0(%g: f32, %y: f32, %acc: f32):
    %m = arith.mulf %g, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x32xf32>
  return %Y, %G : tensor<4x32xf32>, tensor<4x4xf32>
}
