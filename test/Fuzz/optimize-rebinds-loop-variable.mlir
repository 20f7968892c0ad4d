// Found by tools/tile-fuzz (found with seed 5000 (3 ops), shrunk to 2 ops in 25 tests (2 s): extract,transpose).
// Extraction combined a loop nested in a loop of the same variable; the verifier's refusal of that (skipped) candidate reached the user as errors from --tile-optimize, which still exited 0. Such combinations are skipped silently.
//
// RUN: tile-opt %s --tile-optimize -o %t.opt.mlir 2>&1 | FileCheck %s
// CHECK-NOT: error
// CHECK-NOT: dropped:
// CHECK: remark: extracted

func.func @fuzz(
    %a0: tensor<2x2xf32> {tile.name = "a0", tile.init = "uniform(-1.0, 1.0)"}
) -> (
    tensor<2x1xf32> {tile.name = "r0"}
) {
  %v1 = tensor.extract_slice %a0[0, 0] [1, 2] [1, 1] : tensor<2x2xf32> to tensor<1x2xf32>
  %v2_e = tensor.empty() : tensor<2x1xf32>
  %v2 = linalg.transpose ins(%v1 : tensor<1x2xf32>) outs(%v2_e : tensor<2x1xf32>) permutation = [1, 0]
  return %v2 : tensor<2x1xf32>
}
