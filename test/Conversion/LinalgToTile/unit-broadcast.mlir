// Front ends broadcast a dimension of extent 1 by indexing it with the
// constant 0: torch-mlir reads a [1, 1, M, P] attention mask for every head
// through `(d0, 0, d2, d3)`. The conversion reads such an input through a
// collapse_shape without those dimensions (constants on wider dimensions,
// or other constants, stay refused: convert-linalg-to-tile-invalid.mlir).
// RUN: tile-opt %s --convert-linalg-to-tile | FileCheck %s
// RUN: tile-opt %s --convert-linalg-to-tile -o %t.mlir
// RUN: tile-run %t.mlir --reference %s --entry mask_add --tolerance 1e-6 | FileCheck %s --check-prefix=CMP
// RUN: tile-run %t.mlir --reference %s --entry mask_add --device emulate | FileCheck %s --check-prefix=CMP
// RUN: tile-run %t.mlir --reference %s --entry scale_rows --tolerance 1e-6 | FileCheck %s --check-prefix=CMP
// RUN: tile-run %t.mlir --reference %s --entry scale_rows --device emulate | FileCheck %s --check-prefix=CMP
// CMP: PASS

// The mask is loaded once per (row, key) tile and broadcast over the heads.
// CHECK-LABEL: tile.program @mask_add
// CHECK: %[[MASK:.*]] = tile.load %mask[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : !tile.tensor<1x1x2x48xf32, input> -> !tile.tile<[1, 1, tile_i1, tile_i2], f32>
// CHECK: tile.bcast %[[MASK]] [1]
// CHECK-LABEL: tile.program @scale_rows

#m4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#mask = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
func.func @mask_add(
    %S: tensor<1x4x2x48xf32> {tile.name = "S", tile.init = "normal(0.0, 1.0)"},
    %M: tensor<1x1x2x48xf32> {tile.name = "mask", tile.init = "normal(0.0, 1.0)"})
    -> (tensor<1x4x2x48xf32> {tile.name = "L"}) {
  %e = tensor.empty() : tensor<1x4x2x48xf32>
  %L = linalg.generic {indexing_maps = [#m4, #mask, #m4],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%S, %M : tensor<1x4x2x48xf32>, tensor<1x1x2x48xf32>)
      outs(%e : tensor<1x4x2x48xf32>) {
  ^bb0(%s: f32, %m: f32, %o: f32):
    %r = arith.addf %s, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x4x2x48xf32>
  return %L : tensor<1x4x2x48xf32>
}

// Every dimension of the scale but the rows is a broadcast unit one, the
// last trailing (a [4, 1, 1] tensor read as (d0, 0, 0)).
#m3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#rows = affine_map<(d0, d1, d2) -> (d0, 0, 0)>
func.func @scale_rows(
    %X: tensor<4x3x8xf32> {tile.name = "X", tile.init = "normal(0.0, 1.0)"},
    %W: tensor<4x1x1xf32> {tile.name = "W", tile.init = "normal(1.0, 0.1)"})
    -> (tensor<4x3x8xf32> {tile.name = "Y"}) {
  %e = tensor.empty() : tensor<4x3x8xf32>
  %Y = linalg.generic {indexing_maps = [#m3, #rows, #m3],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%X, %W : tensor<4x3x8xf32>, tensor<4x1x1xf32>)
      outs(%e : tensor<4x3x8xf32>) {
  ^bb0(%x: f32, %w: f32, %o: f32):
    %r = arith.mulf %x, %w : f32
    linalg.yield %r : f32
  } -> tensor<4x3x8xf32>
  return %Y : tensor<4x3x8xf32>
}
