// Found by tools/tile-fuzz (found with seed 5186 (3 ops), shrunk to 1 ops in 17 tests (4 s): transpose).
// The same misaligned emulated buffers, in --tile-optimize's emulation of its candidates: a SIGSEGV of tile-opt.
//
// RUN: tile-opt %s --tile-optimize -o %t.opt.mlir 2>&1 | FileCheck %s
// CHECK-NOT: error
// CHECK-NOT: dropped:
// CHECK: remark: extracted

func.func @fuzz(
    %a1: tensor<8x8xf32> {tile.name = "a1", tile.init = "uniform(-1.0, 1.0)"}
) -> (
    tensor<8x8xf32> {tile.name = "r0"}
) {
  %v2_e = tensor.empty() : tensor<8x8xf32>
  %v2 = linalg.transpose ins(%a1 : tensor<8x8xf32>) outs(%v2_e : tensor<8x8xf32>) permutation = [1, 0]
  return %v2 : tensor<8x8xf32>
}
