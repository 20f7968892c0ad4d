// RUN: tile-opt %s --convert-linalg-to-tile -o %t.mlir
// RUN: tile-run %t.mlir --reference %s | FileCheck %s
// RUN: tile-run %t.mlir --reference %s --device emulate | FileCheck %s
// CHECK-NOT: MISMATCH
// CHECK-NOT: NOT-FINITE
// CHECK: PASS
// GeGLU MLP (Gemma): Y = (gelu_tanh(X Wg^T) * (X Wu^T)) Wd^T, nn.Linear [out,in] weights,
// matmuls written as linalg.matmul with a transposed-B indexing map, f16 accumulation (torch-mlir default).
#mA = affine_map<(m, n, k) -> (m, k)>
#mBt = affine_map<(m, n, k) -> (n, k)>
#mC = affine_map<(m, n, k) -> (m, n)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @geglu_linear(
    %X: tensor<3x80xf16> {tile.name = "X", tile.init = "normal(0.0, 1.0)"},
    %Wg: tensor<176x80xf16> {tile.name = "Wg", tile.init = "normal(0.0, 0.1)"},
    %Wu: tensor<176x80xf16> {tile.name = "Wu", tile.init = "normal(0.0, 0.1)"},
    %Wd: tensor<80x176xf16> {tile.name = "Wd", tile.init = "normal(0.0, 0.1)"}
) -> (tensor<3x80xf16> {tile.name = "Y"}) {
  %z = arith.constant 0.0 : f16
  %e0 = tensor.empty() : tensor<3x176xf16>
  %f0 = linalg.fill ins(%z : f16) outs(%e0 : tensor<3x176xf16>) -> tensor<3x176xf16>
  %G = linalg.matmul indexing_maps = [#mA, #mBt, #mC] ins(%X, %Wg : tensor<3x80xf16>, tensor<176x80xf16>) outs(%f0 : tensor<3x176xf16>) -> tensor<3x176xf16>
  %U = linalg.matmul indexing_maps = [#mA, #mBt, #mC] ins(%X, %Wu : tensor<3x80xf16>, tensor<176x80xf16>) outs(%f0 : tensor<3x176xf16>) -> tensor<3x176xf16>
  %e1 = tensor.empty() : tensor<3x176xf16>
  %H = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%G, %U : tensor<3x176xf16>, tensor<3x176xf16>) outs(%e1 : tensor<3x176xf16>) {
  ^bb0(%g16: f16, %u16: f16, %out: f16):
    %g = arith.extf %g16 : f16 to f32
    %u = arith.extf %u16 : f16 to f32
    %c0 = arith.constant 0.5 : f32
    %c1 = arith.constant 1.0 : f32
    %c2 = arith.constant 0.7978845608028654 : f32
    %c3 = arith.constant 0.044715 : f32
    %g3 = arith.mulf %g, %g : f32
    %g3b = arith.mulf %g3, %g : f32
    %t0 = arith.mulf %g3b, %c3 : f32
    %t1 = arith.addf %g, %t0 : f32
    %t2 = arith.mulf %t1, %c2 : f32
    %t3 = math.tanh %t2 : f32
    %t4 = arith.addf %t3, %c1 : f32
    %t5 = arith.mulf %g, %c0 : f32
    %gl = arith.mulf %t5, %t4 : f32
    %h = arith.mulf %gl, %u : f32
    %h16 = arith.truncf %h : f32 to f16
    linalg.yield %h16 : f16
  } -> tensor<3x176xf16>
  %e2 = tensor.empty() : tensor<3x80xf16>
  %f2 = linalg.fill ins(%z : f16) outs(%e2 : tensor<3x80xf16>) -> tensor<3x80xf16>
  %Y = linalg.matmul indexing_maps = [#mA, #mBt, #mC] ins(%H, %Wd : tensor<3x176xf16>, tensor<80x176xf16>) outs(%f2 : tensor<3x80xf16>) -> tensor<3x80xf16>
  return %Y : tensor<3x80xf16>
}
