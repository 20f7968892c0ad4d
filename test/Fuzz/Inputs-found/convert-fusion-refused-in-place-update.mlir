// tile-fuzz reproducer: convert, refused-after-fusion: it updates an argument in place, but the argument is read again after the update
// found with seed 1124 (8 ops), shrunk to 2 ops in 25 tests (1 s): insert,insert
// ops: 2
// failing command (as run by tile-fuzz): /work/main/build/bin/tile-opt /tmp/fz/run1/work/seed-1124/P.mlir --convert-linalg-to-tile -o /tmp/fz/run1/work/seed-1124/P.tile.mlir
//
// RUN: tile-opt %s --convert-linalg-to-tile -o %t.tile.mlir 2>&1 | FileCheck %s --allow-empty
// CHECK-NOT: error
//
func.func @fuzz(
    %a4: tensor<2xf16> {tile.name = "a4", tile.init = "normal(0.0, 0.1)"},
    %a5: tensor<1xf16> {tile.name = "a5", tile.init = "uniform(-0.12, 0.12)"}
) -> (
    tensor<2xf16> {tile.name = "a4"},
    tensor<2xf16> {tile.name = "r1"}
) {
  %v5 = tensor.insert_slice %a5 into %a4[0] [1] [1] : tensor<1xf16> into tensor<2xf16>
  %v7 = tensor.insert_slice %a5 into %v5[0] [1] [1] : tensor<1xf16> into tensor<2xf16>
  return %v5, %v7 : tensor<2xf16>, tensor<2xf16>
}
