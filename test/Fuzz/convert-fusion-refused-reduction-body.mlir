// Found by tools/tile-fuzz (found with seed 1018 (4 ops), shrunk to 3 ops in 43 tests (3 s): broadcast,ew,greduce-add).
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
    %a1: tensor<1x1xf32> {tile.name = "a1", tile.init = "uniform(0.5, 2.0)"}
) -> (
    tensor<1x1xf32> {tile.name = "r0"}
) {
  %v1_e = tensor.empty() : tensor<1x1x1xf32>
  %v1 = linalg.broadcast ins(%a1 : tensor<1x1xf32>) outs(%v1_e : tensor<1x1x1xf32>) dimensions = [2]
  %v2_e = tensor.empty() : tensor<1x1x1xf16>
  %v2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v1 : tensor<1x1x1xf32>) outs(%v2_e : tensor<1x1x1xf16>) {
  ^bb0(%in0: f32, %out: f16):
    %x1 = arith.truncf %in0 : f32 to f16
    linalg.yield %x1 : f16
  } -> tensor<1x1x1xf16>
  %v3_c = arith.constant 0.000000e+00 : f32
  %v3_e = tensor.empty() : tensor<1x1xf32>
  %v3_f = linalg.fill ins(%v3_c : f32) outs(%v3_e : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2, d0)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%v2 : tensor<1x1x1xf16>) outs(%v3_f : tensor<1x1xf32>) {
  ^bb0(%in0: f16, %out: f32):
    %x1 = arith.extf %in0 : f16 to f32
    %x2 = arith.addf %x1, %out : f32
    linalg.yield %x2 : f32
  } -> tensor<1x1xf32>
  return %v3 : tensor<1x1xf32>
}
