// RUN: tile-opt %s -split-input-file --convert-linalg-to-tile=fuse=false | FileCheck %s
// RUN: tile-opt %s -split-input-file --convert-linalg-to-tile="fuse=false own-reduction-variables=true" | FileCheck %s --check-prefix=OWN
// Op by op; fusion before planning is fuse.mlir.

// A matmul accumulating into a zero fill: no statement for the fill, one loop
// nest with the reduction loop innermost, and an accumulating store.
// CHECK-LABEL: tile.program @matmul(
// CHECK-SAME: %[[A:.*]]: !tile.tensor<8x16xf16, input>, %[[B:.*]]: !tile.tensor<16x4xf16, input>, %[[C:.*]]: !tile.tensor<8x4xf32, output>)
// CHECK-NOT: tile.constant
// CHECK: %[[LA:.*]] = tile.load %[[A]][%[[I:.*]], %[[K:.*]]] : {{.*}} -> !tile.tile<[tile_i0, tile_r0], f16>
// CHECK: %[[LB:.*]] = tile.load %[[B]][%[[K]], %[[J:.*]]] : {{.*}} -> !tile.tile<[tile_r0, tile_i1], f16>
// CHECK: %[[MM:.*]] = tile.matmul %[[LA]], %[[LB]] : {{.*}} -> !tile.tile<[tile_i0, tile_i1], f32>
// CHECK: %[[LC:.*]] = tile.load %[[C]][%[[I]], %[[J]]]
// CHECK: %[[ACC:.*]] = tile.add %[[LC]], %[[MM]]
// CHECK: %[[S:.*]] = tile.store %[[ACC]], %[[C]][%[[I]], %[[J]]]
// CHECK: %[[L2:.*]] = tile.loop %r0 = 0 to 16 step %tile_r0 body %[[S]]
// CHECK: %[[L1:.*]] = tile.loop %i1 = 0 to 4 step %tile_i1 body %[[L2]]
// CHECK: %[[L0:.*]] = tile.loop %i0 = 0 to 8 step %tile_i0 body %[[L1]]
// CHECK: tile.yield %[[L0]]
func.func @matmul(%a: tensor<8x16xf16>, %b: tensor<16x4xf16>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  %r = linalg.matmul ins(%a, %b : tensor<8x16xf16>, tensor<16x4xf16>) outs(%f : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

// -----

// A fill with a non-zero value is a statement; the matmul then accumulates
// in place into the filled tensor, which is the output.
// CHECK-LABEL: tile.program @matmul_bias(
// CHECK-SAME: %[[C:[a-z0-9]*]]: !tile.tensor<8x4xf32, output>)
// CHECK: %[[ONE:.*]] = tile.constant 1.000000e+00 : !tile.tile<[tile_i0, tile_i1], f32>
// CHECK: tile.store %[[ONE]], %[[C]]
// CHECK: tile.matmul
// CHECK: tile.store %{{.*}}, %[[C]]
func.func @matmul_bias(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>) -> tensor<8x4xf32> {
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<8x4xf32>
  %f = linalg.fill ins(%one : f32) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  %r = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x4xf32>) outs(%f : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

// -----

// A transposed operand is permuted into [k, n] before the matmul.
// CHECK-LABEL: tile.program @matmul_transpose_b
// CHECK: %[[LB:.*]] = tile.load %{{.*}} -> !tile.tile<[tile_i1, tile_r0], f32>
// CHECK: %[[T:.*]] = tile.permute %[[LB]] [1, 0] : !tile.tile<[tile_i1, tile_r0], f32> -> !tile.tile<[tile_r0, tile_i1], f32>
// CHECK: tile.matmul %{{.*}}, %[[T]]
func.func @matmul_transpose_b(%a: tensor<8x16xf32>, %b: tensor<4x16xf32>) -> tensor<8x4xf32> {
  %e = tensor.empty() : tensor<8x4xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<8x16xf32>, tensor<4x16xf32>) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

// -----

// CHECK-LABEL: tile.program @batch_matmul
// CHECK: tile.matmul %{{.*}}, %{{.*}} : !tile.tile<[tile_i0, tile_i1, tile_r0], f16>, !tile.tile<[tile_i0, tile_r0, tile_i2], f16> -> !tile.tile<[tile_i0, tile_i1, tile_i2], f32>
// CHECK: tile.loop %r0 = 0 to 8
// CHECK: tile.loop %i2 = 0 to 16
// CHECK: tile.loop %i1 = 0 to 4
// CHECK: tile.loop %i0 = 0 to 2
func.func @batch_matmul(%a: tensor<2x4x8xf16>, %b: tensor<2x8x16xf16>) -> tensor<2x4x16xf32> {
  %e = tensor.empty() : tensor<2x4x16xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x4x8xf16>, tensor<2x8x16xf16>) outs(%e : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  return %r : tensor<2x4x16xf32>
}

// -----

// The loops walk the output; the input tile is permuted into their order.
// CHECK-LABEL: tile.program @transpose
// CHECK: %[[L:.*]] = tile.load %{{.*}}[%[[A:.*]], %[[B:.*]], %[[C:.*]]] : !tile.tensor<2x4x8xf32, input> -> !tile.tile<[tile_i1, tile_i0, tile_i2], f32>
// CHECK: %[[P:.*]] = tile.permute %[[L]] [1, 0, 2] : {{.*}} -> !tile.tile<[tile_i0, tile_i1, tile_i2], f32>
// CHECK: tile.store %[[P]], %{{.*}}[%[[B]], %[[A]], %[[C]]]
func.func @transpose(%a: tensor<2x4x8xf32>) -> tensor<4x2x8xf32> {
  %e = tensor.empty() : tensor<4x2x8xf32>
  %r = linalg.transpose ins(%a : tensor<2x4x8xf32>) outs(%e : tensor<4x2x8xf32>) permutation = [1, 0, 2]
  return %r : tensor<4x2x8xf32>
}

// -----

// CHECK-LABEL: tile.program @broadcast
// CHECK: %[[L:.*]] = tile.load %{{.*}} -> !tile.tile<[tile_i1], f32>
// CHECK: tile.bcast %[[L]] [0] : !tile.tile<[tile_i1], f32> -> !tile.tile<[tile_i0, tile_i1], f32>
func.func @broadcast(%a: tensor<8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.broadcast ins(%a : tensor<8xf32>) outs(%e : tensor<4x8xf32>) dimensions = [0]
  return %r : tensor<4x8xf32>
}

// -----

// A reduction: the reduced loop is reduced inside the tile and accumulated
// across iterations.
// CHECK-LABEL: tile.program @reduce_sum
// CHECK: %[[L:.*]] = tile.load %{{.*}} -> !tile.tile<[tile_i0, tile_r0], f32>
// CHECK: %[[R:.*]] = tile.rsum %[[L]], 1 : !tile.tile<[tile_i0, tile_r0], f32> -> !tile.tile<[tile_i0], f32>
// CHECK: %[[O:.*]] = tile.load %[[OUT:.*]][%{{.*}}] : !tile.tensor<4xf32, output>
// CHECK: %[[A:.*]] = tile.add %[[O]], %[[R]]
// CHECK: tile.store %[[A]], %[[OUT]]
func.func @reduce_sum(%a: tensor<4x8xf32>) -> tensor<4xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.reduce ins(%a : tensor<4x8xf32>) outs(%f : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<4xf32>
}

// -----

// Elementwise named ops, and loops over the same tensor dimension sharing one
// loop variable across ops.
// CHECK-LABEL: tile.program @elementwise
// CHECK: tile.exp %{{.*}} : !tile.tile<[tile_i0, tile_i1], f32>
// CHECK: %[[L1:.*]] = tile.loop %i1 = 0 to 8
// CHECK: %[[L0:.*]] = tile.loop %i0 = 0 to 4 step %tile_i0 body %[[L1]]
// CHECK: tile.add %{{.*}}, %{{.*}} : !tile.tile<[tile_i0, tile_i1], f32>
// CHECK: %[[M1:.*]] = tile.loop %i1 = 0 to 8
// CHECK: %[[M0:.*]] = tile.loop %i0 = 0 to 4 step %tile_i0 body %[[M1]]
// CHECK: tile.seq %[[L0]], %[[M0]]
func.func @elementwise(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %x = linalg.exp ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %y = linalg.add ins(%x, %a : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e2 : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// A generic with a broadcast operand and an arith/math body, extf included.
// CHECK-LABEL: tile.program @generic_div
// CHECK: %[[X:.*]] = tile.load %{{.*}} -> !tile.tile<[tile_i0, tile_i1], f16>
// CHECK: %[[S:.*]] = tile.load %{{.*}} -> !tile.tile<[tile_i0], f32>
// CHECK: %[[SB:.*]] = tile.bcast %[[S]] [1] : !tile.tile<[tile_i0], f32> -> !tile.tile<[tile_i0, tile_i1], f32>
// CHECK: %[[XF:.*]] = tile.cast %[[X]] : !tile.tile<[tile_i0, tile_i1], f16> -> !tile.tile<[tile_i0, tile_i1], f32>
// CHECK: %[[SQ:.*]] = tile.sqrt %[[SB]]
// CHECK: %[[D:.*]] = tile.div %[[XF]], %[[SQ]]
// CHECK: %[[T:.*]] = tile.cast %[[D]] : {{.*}} -> !tile.tile<[tile_i0, tile_i1], f16>
// CHECK: tile.store %[[T]]
#map2 = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
func.func @generic_div(%x: tensor<4x8xf16>, %s: tensor<4xf32>) -> tensor<4x8xf16> {
  %e = tensor.empty() : tensor<4x8xf16>
  %r = linalg.generic {indexing_maps = [#map2, #map1, #map2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<4x8xf16>, tensor<4xf32>) outs(%e : tensor<4x8xf16>) {
  ^bb0(%a: f16, %b: f32, %o: f16):
    %af = arith.extf %a : f16 to f32
    %q = math.sqrt %b : f32
    %d = arith.divf %af, %q : f32
    %t = arith.truncf %d : f32 to f16
    linalg.yield %t : f16
  } -> tensor<4x8xf16>
  return %r : tensor<4x8xf16>
}

// -----

// Compare and select, with a constant in the body.
// CHECK-LABEL: tile.program @relu
// CHECK: %[[Z:.*]] = tile.constant 0.000000e+00 : !tile.tile<[tile_i0], f32>
// CHECK: %[[M:.*]] = tile.cmp gt, %[[X:.*]], %[[Z]]
// CHECK: tile.select %[[M]], %[[X]], %[[Z]]
func.func @relu(%x: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %z = arith.constant 0.0 : f32
    %c = arith.cmpf ogt, %a, %z : f32
    %s = arith.select %c, %a, %z : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  return %r : tensor<16xf32>
}

// -----

// linalg.softmax is decomposed first: max, exp(x - max), sum, divide.
// CHECK-LABEL: tile.program @softmax
// CHECK: tile.constant nan
// CHECK: tile.rmax
// CHECK: tile.max
// CHECK: tile.sub
// CHECK: tile.exp
// CHECK: tile.rsum
// CHECK: tile.div
func.func @softmax(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}

// -----

// A head split: one iteration per head, with a concrete step over the
// columns, as Trinity's naive programs do.
// CHECK-LABEL: tile.program @expand
// CHECK: %[[S0:.*]] = tile.var "s0"
// CHECK: %[[C8:.*]] = tile.size 8
// CHECK: %[[T:.*]] = tile.tile %[[S0]]
// CHECK: %[[E:.*]] = tile.elem %[[S0]]
// CHECK: %[[L:.*]] = tile.load %{{.*}}[%[[F:.*]], %[[T]]] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 8], f32>
// CHECK: %[[R:.*]] = tile.reshape %[[L]] : !tile.tile<[4, 8], f32> -> !tile.tile<[4, 1, 8], f32>
// CHECK: %[[S:.*]] = tile.store %[[R]], %{{.*}}[%[[F]], %[[E]], %[[F]]]
// CHECK: tile.loop %[[S0]] = 0 to 16 step %[[C8]] body %[[S]]
func.func @expand(%x: tensor<4x16xf32>) -> tensor<4x2x8xf32> {
  %r = tensor.expand_shape %x [[0], [1, 2]] output_shape [4, 2, 8] : tensor<4x16xf32> into tensor<4x2x8xf32>
  return %r : tensor<4x2x8xf32>
}

// -----

// CHECK-LABEL: tile.program @collapse
// CHECK: %[[L:.*]] = tile.load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : !tile.tensor<4x2x8xf32, input> -> !tile.tile<[4, 1, 8], f32>
// CHECK: %[[R:.*]] = tile.reshape %[[L]] : !tile.tile<[4, 1, 8], f32> -> !tile.tile<[4, 8], f32>
// CHECK: tile.store %[[R]]
func.func @collapse(%x: tensor<4x2x8xf32>) -> tensor<4x16xf32> {
  %r = tensor.collapse_shape %x [[0], [1, 2]] : tensor<4x2x8xf32> into tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// -----

// A group that only adds or drops unit dimensions moves whole: one statement,
// no loop, and the loops over its dimension (the rows of a grouped-query
// decode's queries) keep symbolic sizes.
// CHECK-LABEL: tile.program @collapse_unit
// CHECK: %[[L:.*]] = tile.load %{{.*}}[%[[F:.*]], %[[F]], %[[F]], %[[F]]] : !tile.tensor<2x4x1x8xf32, input> -> !tile.tile<[2, 4, 1, 8], f32>
// CHECK: %[[R:.*]] = tile.reshape %[[L]] : !tile.tile<[2, 4, 1, 8], f32> -> !tile.tile<[2, 4, 8], f32>
// CHECK: %[[S:.*]] = tile.store %[[R]], %{{.*}}[%[[F]], %[[F]], %[[F]]]
// CHECK-NOT: tile.loop %{{.*}} body %[[S]]
// CHECK: tile.load %{{.*}} -> !tile.tile<[tile_i0, tile_i1, tile_i2], f32>
// CHECK-NOT: tile.size 1
func.func @collapse_unit(%x: tensor<2x4x1x8xf32>) -> tensor<2x4x8xf32> {
  %r = tensor.collapse_shape %x [[0], [1, 2], [3]] : tensor<2x4x1x8xf32> into tensor<2x4x8xf32>
  %e = tensor.empty() : tensor<2x4x8xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%r : tensor<2x4x8xf32>) outs(%e : tensor<2x4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.negf %in : f32
    linalg.yield %v : f32
  } -> tensor<2x4x8xf32>
  return %n : tensor<2x4x8xf32>
}

// -----

// An insert_slice into an argument that the function returns is an in-place
// update of an inout tensor: no copy, a const_tile store.
// CHECK-LABEL: tile.program @kv_update(
// CHECK-SAME: %[[KC:.*]]: !tile.tensor<2x16x8xf16, inout>, %[[K:.*]]: !tile.tensor<2x4x8xf16, input>)
// CHECK: %[[L:.*]] = tile.load %[[K]][%[[H:.*]], %[[F:.*]], %{{.*}}] : !tile.tensor<2x4x8xf16, input> -> !tile.tile<[tile_i0, 4, tile_i1], f16>
// CHECK: %[[NEW:.*]] = tile.const_tile 12, 4
// CHECK: tile.store %[[L]], %[[KC]][%[[H]], %[[NEW]], %{{.*}}]
// CHECK-NOT: tile.store
func.func @kv_update(%kc: tensor<2x16x8xf16>, %k: tensor<2x4x8xf16>) -> tensor<2x16x8xf16> {
  %r = tensor.insert_slice %k into %kc[0, 12, 0] [2, 4, 8] [1, 1, 1] : tensor<2x4x8xf16> into tensor<2x16x8xf16>
  return %r : tensor<2x16x8xf16>
}

// -----

// CHECK-LABEL: tile.program @extract
// CHECK: %[[S:.*]] = tile.const_tile 2, 4
// CHECK: tile.load %{{.*}}[%{{.*}}, %[[S]]] : !tile.tensor<4x16xf32, input> -> !tile.tile<[tile_i0, 4], f32>
func.func @extract(%x: tensor<4x16xf32>) -> tensor<4x4xf32> {
  %r = tensor.extract_slice %x[0, 2] [4, 4] [1, 1] : tensor<4x16xf32> to tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// -----

// A dense constant tensor is stored whole; an argument returned unchanged is
// copied into its own output.
// CHECK-LABEL: tile.program @constant_and_passthrough(
// CHECK-SAME: %[[X:[a-zA-Z0-9]*]]: !tile.tensor<2xf32, input>, %[[C:[a-zA-Z0-9]*]]: !tile.tensor<2xf32, output>, %[[Y:[a-zA-Z0-9]*]]: !tile.tensor<2xf32, output>)
// CHECK-SAME: attributes {tile.results = ["c", "y"]}
// CHECK: %[[D:.*]] = tile.constant dense<[1.000000e+00, 2.000000e+00]> : !tile.tile<[2], f32>
// CHECK: tile.store %[[D]], %[[C]]
// CHECK: %[[L:.*]] = tile.load %[[X]]
// CHECK: tile.store %[[L]], %[[Y]]
func.func @constant_and_passthrough(%x: tensor<2xf32> {tile.name = "x"}) -> (tensor<2xf32> {tile.name = "c"}, tensor<2xf32> {tile.name = "y"}) {
  %c = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  return %c, %x : tensor<2xf32>, tensor<2xf32>
}

// -----

// An accumulation into a value that is read again must not clobber it: the
// init is copied first.
// CHECK-LABEL: tile.program @copy_init(
// CHECK-SAME: %[[A:[a-zA-Z0-9]*]]: !tile.tensor<4x4xf32, input>, %[[B:[a-zA-Z0-9]*]]: !tile.tensor<4x4xf32, input>, %[[T:[a-zA-Z0-9]*]]: !tile.tensor<4x4xf32, output>
// CHECK: %[[L:.*]] = tile.load %[[B]]
// CHECK: tile.store %[[L]], %[[T]]
// CHECK: tile.matmul
func.func @copy_init(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %r = linalg.matmul ins(%a, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%b : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %r, %b : tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

// Heads: the projection's columns are split into heads [4, 16] -> [4, 2, 8]
// and transposed. Every loop over the heads dimension (the transpose's
// first loop) steps one head at a time with tile.elem, like the reshape's
// own loop, and loops over either side of the split (the heads; the
// projection's 16 columns) go outside the other loops of their nest: the
// projection nest is columns, then rows, then the reduction.
// CHECK-LABEL: tile.program @heads
// CHECK: %[[ROWS:.*]] = tile.var "i0"
// CHECK: %[[COLS:.*]] = tile.var "i1"
// CHECK: %[[HEADS:.*]] = tile.var "i2"
// CHECK: %[[ONE:.*]] = tile.size 1
// CHECK: tile.matmul
// CHECK: %[[R:.*]] = tile.loop %{{.*}} = 0 to 32 step
// CHECK-NEXT: %[[M:.*]] = tile.loop %[[ROWS]] = 0 to 4 step %{{.*}} body %[[R]]
// CHECK-NEXT: tile.loop %[[COLS]] = 0 to 16 step %{{.*}} body %[[M]]
// CHECK: tile.reshape
// CHECK: %[[EH:.*]] = tile.elem %[[HEADS]]
// CHECK: tile.load %{{.*}}[%{{.*}}, %[[EH]], %{{.*}}] : !tile.tensor<4x2x8xf32, intermediate> -> !tile.tile<[tile_i3, 1, tile_i4], f32>
// CHECK: tile.permute
// CHECK: %[[T:.*]] = tile.loop %{{.*}} = 0 to 8 step %tile_i4
// CHECK-NEXT: %[[TM:.*]] = tile.loop %{{.*}} = 0 to 4 step %tile_i3 body %[[T]]
// CHECK-NEXT: tile.loop %[[HEADS]] = 0 to 2 step %[[ONE]] body %[[TM]]
func.func @heads(%x: tensor<4x32xf32>, %w: tensor<32x16xf32>) -> tensor<2x4x8xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %p = linalg.matmul ins(%x, %w : tensor<4x32xf32>, tensor<32x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  %r = tensor.expand_shape %p [[0], [1, 2]] output_shape [4, 2, 8] : tensor<4x16xf32> into tensor<4x2x8xf32>
  %ti = tensor.empty() : tensor<2x4x8xf32>
  %t = linalg.transpose ins(%r : tensor<4x2x8xf32>) outs(%ti : tensor<2x4x8xf32>) permutation = [1, 0, 2]
  return %t : tensor<2x4x8xf32>
}

// -----

// Without a reshape, a batch dimension keeps its symbolic tile size and the
// loops keep the order of the op's dimensions.
// CHECK-LABEL: tile.program @batch
// CHECK-NOT: tile.size 1
// CHECK: tile.load %{{.*}} -> !tile.tile<[tile_i0, tile_i1, tile_r0], f32>
// CHECK: %[[K:.*]] = tile.loop %{{.*}} = 0 to 8 step %tile_r0
// CHECK: %[[N:.*]] = tile.loop %{{.*}} = 0 to 4 step %tile_i2 body %[[K]]
// CHECK: %[[M:.*]] = tile.loop %{{.*}} = 0 to 4 step %tile_i1 body %[[N]]
// CHECK: tile.loop %{{.*}} = 0 to 2 step %tile_i0 body %[[M]]
func.func @batch(%a: tensor<2x4x8xf32>, %b: tensor<2x8x4xf32>) -> tensor<2x4x4xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x4x8xf32>, tensor<2x8x4xf32>) outs(%f : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %r : tensor<2x4x4xf32>
}

// -----

// A computed tensor inserted into an argument in place (a KV-cache append of
// the cast, transposed K): its producer writes straight into the slice, the
// head-local row loop runs whole (tile.full on the source, const_tile on the
// cache), and no copy is left.
// CHECK-LABEL: tile.program @direct_insert(
// CHECK-SAME: %[[KC:[a-zA-Z0-9]*]]: !tile.tensor<2x16x8xf16, inout>, %[[K:[a-zA-Z0-9]*]]: !tile.tensor<4x2x8xf32, input>)
// CHECK: %[[F:.*]] = tile.full
// CHECK: %[[L:.*]] = tile.load %[[K]][%[[F]], %{{.*}}, %{{.*}}] : !tile.tensor<4x2x8xf32, input> -> !tile.tile<[4, tile_i0, tile_i1], f32>
// CHECK: %[[P:.*]] = tile.permute %[[L]] [1, 0, 2]
// CHECK: %[[C:.*]] = tile.cast %[[P]] : !tile.tile<[tile_i0, 4, tile_i1], f32> -> !tile.tile<[tile_i0, 4, tile_i1], f16>
// CHECK: %[[NEW:.*]] = tile.const_tile 12, 4
// CHECK: tile.store %[[C]], %[[KC]][%{{.*}}, %[[NEW]], %{{.*}}]
// CHECK-NOT: tile.store
#perm102 = affine_map<(d0, d1, d2) -> (d1, d0, d2)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @direct_insert(%kc: tensor<2x16x8xf16>, %k: tensor<4x2x8xf32>) -> tensor<2x16x8xf16> {
  %e = tensor.empty() : tensor<2x4x8xf16>
  %kt = linalg.generic {indexing_maps = [#perm102, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%k : tensor<4x2x8xf32>) outs(%e : tensor<2x4x8xf16>) {
  ^bb0(%a: f32, %o: f16):
    %t = arith.truncf %a : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2x4x8xf16>
  %r = tensor.insert_slice %kt into %kc[0, 12, 0] [2, 4, 8] [1, 1, 1] : tensor<2x4x8xf16> into tensor<2x16x8xf16>
  return %r : tensor<2x16x8xf16>
}

// -----

// Must not write in place: the inserted tensor has another reader (it is
// also returned), so it keeps its own tensor and the insert its copy.
// CHECK-LABEL: tile.program @insert_source_read_twice(
// CHECK: tile.exp
// CHECK: tile.store %{{.*}}, %[[T:[a-zA-Z0-9]*]][
// CHECK: %[[L:.*]] = tile.load %[[T]]
// CHECK: tile.store %[[L]], %{{.*}}[%{{.*}}, %{{.*}}]
func.func @insert_source_read_twice(%kc: tensor<8x4xf32>, %n: tensor<2x4xf32>) -> (tensor<8x4xf32>, tensor<2x4xf32>) {
  %e = tensor.empty() : tensor<2x4xf32>
  %x = linalg.exp ins(%n : tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %r = tensor.insert_slice %x into %kc[6, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<8x4xf32>
  return %r, %x : tensor<8x4xf32>, tensor<2x4xf32>
}

// -----

// Must not write in place: the cache is read between the producer and the
// insert, and must still hold its old rows there.
// CHECK-LABEL: tile.program @insert_dest_read_between(
// CHECK: tile.exp
// CHECK: tile.store %{{.*}}, %[[T:t[0-9]+]][
// CHECK: tile.load %Kc
// CHECK: %[[L:.*]] = tile.load %[[T]]
// CHECK: tile.store %[[L]], %Kc[
func.func @insert_dest_read_between(%Kc: tensor<8x4xf32> {tile.name = "Kc"}, %n: tensor<2x4xf32>) -> (tensor<8x4xf32> {tile.name = "Kc"}, tensor<8x4xf32>) {
  %e = tensor.empty() : tensor<2x4xf32>
  %x = linalg.exp ins(%n : tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %e8 = tensor.empty() : tensor<8x4xf32>
  %y = linalg.exp ins(%Kc : tensor<8x4xf32>) outs(%e8 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %r = tensor.insert_slice %x into %Kc[6, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<8x4xf32>
  return %r, %y : tensor<8x4xf32>, tensor<8x4xf32>
}

// -----

// Must not write in place: the matmul accumulates into zeros, which the
// cache's slice does not hold.
// CHECK-LABEL: tile.program @insert_accumulation(
// CHECK: tile.matmul
// CHECK: tile.store %{{.*}}, %[[T:t[0-9]+]][
// CHECK: %[[L:.*]] = tile.load %[[T]]
// CHECK: tile.store %[[L]], %Kc[
func.func @insert_accumulation(%Kc: tensor<8x4xf32> {tile.name = "Kc"}, %a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> (tensor<8x4xf32> {tile.name = "Kc"}) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %m = linalg.matmul ins(%a, %b : tensor<2x3xf32>, tensor<3x4xf32>) outs(%z : tensor<2x4xf32>) -> tensor<2x4xf32>
  %r = tensor.insert_slice %m into %Kc[6, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
// A GEMM whose K loop reads an intermediate (the cast of another GEMM's
// result): by default the K loop shares the variable of the loops that wrote
// that dimension (i1, the first GEMM's columns and the cast's); with
// own-reduction-variables it gets its own (r1). The first GEMM's K loop,
// which reads only arguments, and the cast's loop, which is parallel, keep
// theirs either way.
// CHECK-LABEL: tile.program @chain(
// CHECK: tile.loop %r0 = 0 to 16 step %tile_r0
// CHECK: tile.loop %i1 = 0 to 16 step %tile_i1
// CHECK: %[[H:.*]] = tile.load %t1[%{{.*}}, %[[K:.*]]] : {{.*}} -> !tile.tile<[tile_i0, tile_i1], f16>
// CHECK: tile.load %arg2[%[[K]], %{{.*}}] : {{.*}} -> !tile.tile<[tile_i1, tile_i2], f16>
// CHECK: tile.loop %i1 = 0 to 16 step %tile_i1 body
// CHECK-NEXT: tile.loop %i2 = 0 to 4 step %tile_i2 body
// OWN-LABEL: tile.program @chain(
// OWN: %r1 = tile.var "r1"
// OWN: tile.loop %r0 = 0 to 16 step %tile_r0
// OWN: tile.store {{.*}}, %t1[%{{.*}}, %[[C:.*]]] : !tile.tile<[tile_i0, tile_i1], f16>
// OWN: tile.loop %i1 = 0 to 16 step %tile_i1
// OWN: %[[K:.*]] = tile.tile %r1
// OWN: tile.load %t1[%{{.*}}, %[[K]]] : {{.*}} -> !tile.tile<[tile_i0, tile_r1], f16>
// OWN: tile.load %arg2[%[[K]], %{{.*}}] : {{.*}} -> !tile.tile<[tile_r1, tile_i2], f16>
// OWN: tile.loop %r1 = 0 to 16 step %tile_r1 body
// OWN-NEXT: tile.loop %i2 = 0 to 4 step %tile_i2 body
func.func @chain(%a: tensor<8x16xf16>, %b: tensor<16x16xf16>, %c: tensor<16x4xf16>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %t = linalg.matmul ins(%a, %b : tensor<8x16xf16>, tensor<16x16xf16>) outs(%f : tensor<8x16xf32>) -> tensor<8x16xf32>
  %eh = tensor.empty() : tensor<8x16xf16>
  %h = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%t : tensor<8x16xf32>) outs(%eh : tensor<8x16xf16>) {
  ^bb0(%x: f32, %o: f16):
    %y = arith.truncf %x : f32 to f16
    linalg.yield %y : f16
  } -> tensor<8x16xf16>
  %e2 = tensor.empty() : tensor<8x4xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %r = linalg.matmul ins(%h, %c : tensor<8x16xf16>, tensor<16x4xf16>) outs(%f2 : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}
