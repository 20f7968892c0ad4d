// Found by tools/tile-fuzz (found with seed 1124 (8 ops), shrunk to 2 ops in 25 tests (1 s): insert,insert).
// Elementwise fusion merged ops into a generic the conversion refuses, so a function whose every op converts was refused; the converter now falls back to the function as written, with a remark.
//
// RUN: tile-opt %s --convert-linalg-to-tile -o %t.tile.mlir 2>&1 | FileCheck %s --allow-empty
// CHECK-NOT: error
// RUN: tile-opt %s --convert-linalg-to-tile -o %t.2.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: remark: @fuzz converted without elementwise fusion: fused, it is refused
// RUN: tile-run %t.2.mlir --reference %s --precision f32 --tolerance 2e-2 --device emulate | FileCheck %s --check-prefix=EMU
// EMU-NOT: MISMATCH
// EMU: PASS

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
