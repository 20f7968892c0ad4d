// RUN: tile-opt %s --convert-linalg-to-tile -o %t.mlir
// RUN: tile-run %t.mlir --reference %s | FileCheck %s
// RUN: tile-run %t.mlir --reference %s --device emulate | FileCheck %s
// CHECK-NOT: MISMATCH
// CHECK-NOT: NOT-FINITE
// CHECK: PASS
// HF rotary embedding on Q [B=1,H=2,M=3,d=80] (80-dim heads): rotate_half(x) = cat(-x2, x1) written as torch-mlir
// lowers aten.cat (insert_slice into tensor.empty), named linalg.negf/mul/add, cos/sin [M,d] broadcast over B,H.
func.func @rope_half(
    %q: tensor<1x2x3x80xf16> {tile.name = "q", tile.init = "normal(0.0, 1.0)"},
    %cos: tensor<3x80xf16> {tile.name = "cos", tile.init = "uniform(-1.0, 1.0)"},
    %sin: tensor<3x80xf16> {tile.name = "sin", tile.init = "uniform(-1.0, 1.0)"}
) -> (tensor<1x2x3x80xf16> {tile.name = "qr"}) {
  %x1 = tensor.extract_slice %q[0, 0, 0, 0] [1, 2, 3, 40] [1, 1, 1, 1] : tensor<1x2x3x80xf16> to tensor<1x2x3x40xf16>
  %x2 = tensor.extract_slice %q[0, 0, 0, 40] [1, 2, 3, 40] [1, 1, 1, 1] : tensor<1x2x3x80xf16> to tensor<1x2x3x40xf16>
  %en = tensor.empty() : tensor<1x2x3x40xf16>
  %nx2 = linalg.negf ins(%x2 : tensor<1x2x3x40xf16>) outs(%en : tensor<1x2x3x40xf16>) -> tensor<1x2x3x40xf16>
  %er = tensor.empty() : tensor<1x2x3x80xf16>
  %r0 = tensor.insert_slice %nx2 into %er[0, 0, 0, 0] [1, 2, 3, 40] [1, 1, 1, 1] : tensor<1x2x3x40xf16> into tensor<1x2x3x80xf16>
  %rot = tensor.insert_slice %x1 into %r0[0, 0, 0, 40] [1, 2, 3, 40] [1, 1, 1, 1] : tensor<1x2x3x40xf16> into tensor<1x2x3x80xf16>
  %ec = tensor.empty() : tensor<1x2x3x80xf16>
  %cb = linalg.broadcast ins(%cos : tensor<3x80xf16>) outs(%ec : tensor<1x2x3x80xf16>) dimensions = [0, 1]
  %es = tensor.empty() : tensor<1x2x3x80xf16>
  %sb = linalg.broadcast ins(%sin : tensor<3x80xf16>) outs(%es : tensor<1x2x3x80xf16>) dimensions = [0, 1]
  %e1 = tensor.empty() : tensor<1x2x3x80xf16>
  %a = linalg.mul ins(%q, %cb : tensor<1x2x3x80xf16>, tensor<1x2x3x80xf16>) outs(%e1 : tensor<1x2x3x80xf16>) -> tensor<1x2x3x80xf16>
  %e2 = tensor.empty() : tensor<1x2x3x80xf16>
  %b = linalg.mul ins(%rot, %sb : tensor<1x2x3x80xf16>, tensor<1x2x3x80xf16>) outs(%e2 : tensor<1x2x3x80xf16>) -> tensor<1x2x3x80xf16>
  %e3 = tensor.empty() : tensor<1x2x3x80xf16>
  %r = linalg.add ins(%a, %b : tensor<1x2x3x80xf16>, tensor<1x2x3x80xf16>) outs(%e3 : tensor<1x2x3x80xf16>) -> tensor<1x2x3x80xf16>
  return %r : tensor<1x2x3x80xf16>
}
