// Every op kind the conversion accepts, checked numerically: the converted
// program computes what the linalg function computes (exact arithmetic, with
// default tile sizes and with every loop element by element).
// RUN: tile-opt %s --convert-linalg-to-tile -o %t.mlir
// RUN: for f in elementwise reductions contractions layout slices inserts softmax; do \
// RUN:   tile-run %t.mlir --entry $f --reference %s --init "x=uniform(0.5, 2)" || exit 1; \
// RUN:   tile-run %t.mlir --entry $f --reference %s --init "x=uniform(0.5, 2)" --max-tile-size 1 --seed 9 || exit 1; \
// RUN: done | FileCheck %s
// CHECK-NOT: MISMATCH
// CHECK-COUNT-14: PASS
// The same with reduction loops apart from the intermediates they read.
// RUN: tile-opt %s --convert-linalg-to-tile=own-reduction-variables=true -o %t.own.mlir
// RUN: for f in elementwise reductions contractions layout slices inserts softmax; do \
// RUN:   tile-run %t.own.mlir --entry $f --reference %s --init "x=uniform(0.5, 2)" --max-tile-size 2 || exit 1; \
// RUN: done | FileCheck %s --check-prefix=OWN
// OWN-NOT: MISMATCH
// OWN-COUNT-7: PASS

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// The elementwise named ops and a generic with compare and select.
func.func @elementwise(%x: tensor<4x8xf32> {tile.name = "x"}, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.exp ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = linalg.log ins(%0 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = linalg.sqrt ins(%1 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %3 = linalg.rsqrt ins(%2 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %4 = linalg.tanh ins(%y : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %5 = linalg.erf ins(%4 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %6 = linalg.abs ins(%y : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %7 = linalg.negf ins(%6 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %8 = linalg.reciprocal ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %9 = linalg.square ins(%8 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %10 = linalg.add ins(%3, %5 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %11 = linalg.sub ins(%10, %7 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %12 = linalg.mul ins(%11, %9 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %13 = linalg.div ins(%12, %x : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %14 = linalg.max ins(%13, %y : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %15 = linalg.min ins(%14, %x : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %16 = linalg.copy ins(%15 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %17 = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%16, %y : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %c = arith.cmpf olt, %a, %b : f32
    %s = arith.select %c, %a, %b : f32
    %h = arith.truncf %s : f32 to f16
    %w = arith.extf %h : f16 to f32
    linalg.yield %w : f32
  } -> tensor<4x8xf32>
  return %17 : tensor<4x8xf32>
}

// Sum, max and min reductions, a reduction with a broadcast division, and a
// fill with a non-zero value.
func.func @reductions(%x: tensor<4x8xf32> {tile.name = "x"}) -> (tensor<4xf32>, tensor<4xf32>, tensor<4x8xf32>) {
  %z = arith.constant 0.0 : f32
  %big = arith.constant 100.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.reduce ins(%x : tensor<4x8xf32>) outs(%f : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  %fb = linalg.fill ins(%big : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %m = linalg.reduce ins(%x : tensor<4x8xf32>) outs(%fb : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %a = arith.minimumf %in, %acc : f32
      linalg.yield %a : f32
    }
  %e2 = tensor.empty() : tensor<4x8xf32>
  %d = linalg.generic {indexing_maps = [#id2, #row, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s, %m : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %o: f32):
    %q = arith.divf %a, %b : f32
    %r = arith.subf %q, %c : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %s, %m, %d : tensor<4xf32>, tensor<4xf32>, tensor<4x8xf32>
}

// matmul, batch_matmul, and a matmul with a transposed operand.
func.func @contractions(%x: tensor<4x8xf16> {tile.name = "x"}, %w: tensor<8x16xf16>, %a: tensor<2x4x8xf32>, %b: tensor<2x6x8xf32>) -> (tensor<4x16xf32>, tensor<2x4x6xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<4x8xf16>, tensor<8x16xf16>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  %e2 = tensor.empty() : tensor<2x4x6xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<2x4x6xf32>) -> tensor<2x4x6xf32>
  %bt = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%a, %b : tensor<2x4x8xf32>, tensor<2x6x8xf32>) outs(%f2 : tensor<2x4x6xf32>) -> tensor<2x4x6xf32>
  return %mm, %bt : tensor<4x16xf32>, tensor<2x4x6xf32>
}

// transpose, broadcast, expand_shape and collapse_shape.
func.func @layout(%x: tensor<4x8xf32> {tile.name = "x"}, %v: tensor<8xf32>) -> (tensor<8x4xf32>, tensor<3x8xf32>, tensor<4x2x4xf32>, tensor<32xf32>) {
  %e = tensor.empty() : tensor<8x4xf32>
  %t = linalg.transpose ins(%x : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>) permutation = [1, 0]
  %e2 = tensor.empty() : tensor<3x8xf32>
  %b = linalg.broadcast ins(%v : tensor<8xf32>) outs(%e2 : tensor<3x8xf32>) dimensions = [0]
  %x3 = tensor.expand_shape %x [[0], [1, 2]] output_shape [4, 2, 4] : tensor<4x8xf32> into tensor<4x2x4xf32>
  %c = tensor.collapse_shape %x3 [[0, 1, 2]] : tensor<4x2x4xf32> into tensor<32xf32>
  return %t, %b, %x3, %c : tensor<8x4xf32>, tensor<3x8xf32>, tensor<4x2x4xf32>, tensor<32xf32>
}

// A slice read, an in-place update of an argument, and a dense constant.
func.func @slices(%x: tensor<4x8xf32> {tile.name = "x"}, %c: tensor<4x16xf32>) -> (tensor<4x16xf32>, tensor<2x8xf32>) {
  %s = tensor.extract_slice %x[1, 0] [2, 8] [1, 1] : tensor<4x8xf32> to tensor<2x8xf32>
  %k = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf32>
  %u = tensor.insert_slice %x into %c[0, 4] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<4x16xf32>
  %v = tensor.insert_slice %k into %u[0, 14] [4, 2] [1, 1] : tensor<4x2xf32> into tensor<4x16xf32>
  return %v, %s : tensor<4x16xf32>, tensor<2x8xf32>
}

// Computed tensors inserted into arguments in place, written by their
// producers straight into the slices: a scaled (broadcast) row block, and
// the exp of x transposed into the last columns of s.
#cols = affine_map<(d0, d1) -> (d1)>
#swap = affine_map<(d0, d1) -> (d1, d0)>
func.func @inserts(%x: tensor<4x8xf32> {tile.name = "x"}, %g: tensor<8xf32>, %c: tensor<8x16xf32>, %s: tensor<8x10xf32>) -> (tensor<8x16xf32>, tensor<8x10xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [#id2, #cols, #id2], iterator_types = ["parallel", "parallel"]} ins(%x, %g : tensor<4x8xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %u = tensor.insert_slice %y into %c[3, 5] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<8x16xf32>
  %e84 = tensor.empty() : tensor<8x4xf32>
  %t = linalg.generic {indexing_maps = [#swap, #id2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e84 : tensor<8x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %x2 = math.exp %a : f32
    linalg.yield %x2 : f32
  } -> tensor<8x4xf32>
  %v = tensor.insert_slice %t into %s[0, 6] [8, 4] [1, 1] : tensor<8x4xf32> into tensor<8x10xf32>
  return %u, %v : tensor<8x16xf32>, tensor<8x10xf32>
}

// linalg.softmax, decomposed.
func.func @softmax(%x: tensor<4x8xf32> {tile.name = "x"}) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}
