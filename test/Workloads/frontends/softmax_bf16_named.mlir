// RUN: tile-opt %s --convert-linalg-to-tile -o %t.mlir
// RUN: tile-run %t.mlir --reference %s | FileCheck %s
// RUN: tile-run %t.mlir --reference %s --device emulate | FileCheck %s
// CHECK-NOT: MISMATCH
// CHECK-NOT: NOT-FINITE
// CHECK: PASS
// linalg.softmax applied directly to a bf16 tensor (torch.softmax(x) on bf16 logits), odd sizes [3, 7, 50], last dim.
func.func @softmax_bf16(
    %X: tensor<3x7x50xbf16> {tile.name = "X", tile.init = "normal(0.0, 3.0)"}
) -> (tensor<3x7x50xbf16> {tile.name = "P"}) {
  %e = tensor.empty() : tensor<3x7x50xbf16>
  %P = linalg.softmax dimension(2) ins(%X : tensor<3x7x50xbf16>) outs(%e : tensor<3x7x50xbf16>) -> tensor<3x7x50xbf16>
  return %P : tensor<3x7x50xbf16>
}
