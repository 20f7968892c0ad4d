// Found by tools/tile-fuzz (found with seed 1039 (5 ops), shrunk to 1 ops in 48 tests (9 s): transpose).
// The emulated device's buffers were 16-byte aligned; the lowering's 32-byte aligned vector<8xf32> stores (cudaMalloc gives 256) faulted on the host's aligned AVX stores, in most runs.
//
// RUN: tile-opt %s --convert-linalg-to-tile -o %t.tile.mlir
// RUN: tile-run %t.tile.mlir --reference %s --precision f32 --tolerance 0.001 --seed 39 --device emulate | FileCheck %s
// CHECK-NOT: MISMATCH
// CHECK-NOT: NOT-FINITE
// CHECK: PASS

func.func @fuzz(
    %a4: tensor<24x8xf32> {tile.name = "a4", tile.init = "uniform(0.1, 1.0)"}
) -> (
    tensor<8x24xf32> {tile.name = "r0"}
) {
  %v4_e = tensor.empty() : tensor<8x24xf32>
  %v4 = linalg.transpose ins(%a4 : tensor<24x8xf32>) outs(%v4_e : tensor<8x24xf32>) permutation = [1, 0]
  return %v4 : tensor<8x24xf32>
}
