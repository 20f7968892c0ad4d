// RUN: tile-opt %s --convert-linalg-to-tile -o %t.mlir
// RUN: tile-run %t.mlir --reference %s | FileCheck %s
// RUN: tile-run %t.mlir --reference %s --device emulate | FileCheck %s
// CHECK-NOT: MISMATCH
// CHECK-NOT: NOT-FINITE
// CHECK: PASS
// Residual add then LayerNorm with weight and bias (GPT-NeoX / Phi-2 style), bf16 in/out, two outputs
// (new residual stream, normalized). Mean by linalg.reduce, variance of centered values, math.rsqrt.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @res_layernorm(
    %X: tensor<6x80xbf16> {tile.name = "X", tile.init = "normal(0.0, 1.0)"},
    %R: tensor<6x80xbf16> {tile.name = "R", tile.init = "normal(0.5, 1.0)"},
    %gamma: tensor<80xbf16> {tile.name = "gamma", tile.init = "normal(1.0, 0.1)"},
    %beta: tensor<80xbf16> {tile.name = "beta", tile.init = "normal(0.0, 0.1)"}
) -> (tensor<6x80xbf16> {tile.name = "H"}, tensor<6x80xbf16> {tile.name = "Y"}) {
  %z = arith.constant 0.0 : f32
  %eh = tensor.empty() : tensor<6x80xf32>
  %h = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%X, %R : tensor<6x80xbf16>, tensor<6x80xbf16>) outs(%eh : tensor<6x80xf32>) {
  ^bb0(%a: bf16, %b: bf16, %o: f32):
    %af = arith.extf %a : bf16 to f32
    %bf = arith.extf %b : bf16 to f32
    %s = arith.addf %af, %bf : f32
    linalg.yield %s : f32
  } -> tensor<6x80xf32>
  %eH = tensor.empty() : tensor<6x80xbf16>
  %H = linalg.map ins(%h : tensor<6x80xf32>) outs(%eH : tensor<6x80xbf16>)
    (%in: f32, %o: bf16) {
      %0 = arith.truncf %in : f32 to bf16
      linalg.yield %0 : bf16
    }
  %es = tensor.empty() : tensor<6xf32>
  %fs = linalg.fill ins(%z : f32) outs(%es : tensor<6xf32>) -> tensor<6xf32>
  %sum = linalg.reduce ins(%h : tensor<6x80xf32>) outs(%fs : tensor<6xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %ec = tensor.empty() : tensor<6x80xf32>
  %cen = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%h, %sum : tensor<6x80xf32>, tensor<6xf32>) outs(%ec : tensor<6x80xf32>) {
  ^bb0(%x: f32, %s: f32, %o: f32):
    %n = arith.constant 80.0 : f32
    %m = arith.divf %s, %n : f32
    %c = arith.subf %x, %m : f32
    linalg.yield %c : f32
  } -> tensor<6x80xf32>
  %fv = linalg.fill ins(%z : f32) outs(%es : tensor<6xf32>) -> tensor<6xf32>
  %vs = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%cen : tensor<6x80xf32>) outs(%fv : tensor<6xf32>) {
  ^bb0(%c: f32, %acc: f32):
    %sq = arith.mulf %c, %c : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  } -> tensor<6xf32>
  %eY = tensor.empty() : tensor<6x80xbf16>
  %Y = linalg.generic {indexing_maps = [#id2, #row, #col, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%cen, %vs, %gamma, %beta : tensor<6x80xf32>, tensor<6xf32>, tensor<80xbf16>, tensor<80xbf16>) outs(%eY : tensor<6x80xbf16>) {
  ^bb0(%c: f32, %v: f32, %g: bf16, %b: bf16, %o: bf16):
    %n = arith.constant 80.0 : f32
    %eps = arith.constant 1.0e-5 : f32
    %var = arith.divf %v, %n : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    %xn = arith.mulf %c, %r : f32
    %gf = arith.extf %g : bf16 to f32
    %bf = arith.extf %b : bf16 to f32
    %y0 = arith.mulf %xn, %gf : f32
    %y1 = arith.addf %y0, %bf : f32
    %y = arith.truncf %y1 : f32 to bf16
    linalg.yield %y : bf16
  } -> tensor<6x80xbf16>
  return %H, %Y : tensor<6x80xbf16>, tensor<6x80xbf16>
}
