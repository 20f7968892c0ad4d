// Found by tools/tile-fuzz (found with seed 5053 (7 ops), shrunk to 1 ops in 25 tests (30 s): broadcast).
// The same misaligned emulated buffers, on a --tile-optimize candidate of a broadcast.
//
// RUN: tile-opt %s --tile-optimize -o %t.opt.mlir
// RUN: for c in $(grep -o 'tile.program @[A-Za-z0-9_]*' %t.opt.mlir | cut -d@ -f2); do \
// RUN:   tile-run %t.opt.mlir --entry $c --reference %s --precision f32 --tolerance 0.001 --seed 53 --device emulate || exit 1; \
// RUN: done | FileCheck %s
// CHECK-NOT: MISMATCH
// CHECK-NOT: NOT-FINITE
// CHECK: PASS

func.func @fuzz(
    %a0: tensor<24xf32> {tile.name = "a0", tile.init = "normal(1.0, 0.1)"}
) -> (
    tensor<24x8xf32> {tile.name = "r0"}
) {
  %v0_e = tensor.empty() : tensor<24x8xf32>
  %v0 = linalg.broadcast ins(%a0 : tensor<24xf32>) outs(%v0_e : tensor<24x8xf32>) dimensions = [1]
  return %v0 : tensor<24x8xf32>
}
