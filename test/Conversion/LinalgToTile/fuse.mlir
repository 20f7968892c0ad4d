// RUN: tile-opt %s -split-input-file --convert-linalg-to-tile | FileCheck %s
// RUN: tile-opt %s -split-input-file --convert-linalg-to-tile=fuse=false | FileCheck %s --check-prefix=NOFUSE
// RUN: tile-opt %s -split-input-file --convert-linalg-to-tile=prologues=false | FileCheck %s --check-prefix=NOPRO
// RUN: tile-opt %s -split-input-file --convert-linalg-to-tile=prologue-max-columns=8 | FileCheck %s --check-prefix=NARROW

// An elementwise chain (exp, add, truncf) is one loop nest with one store.
// CHECK-LABEL: tile.program @chain(
// CHECK: tile.exp
// CHECK-NEXT: tile.add
// CHECK-NEXT: tile.cast
// CHECK-NEXT: tile.store {{.*}}, %result0[
// CHECK-NOT: tile.store
// CHECK: tile.yield
// NOFUSE-LABEL: tile.program @chain(
// NOFUSE-COUNT-3: tile.store
func.func @chain(%A: tensor<4x8xf32>, %B: tensor<4x8xf32>) -> tensor<4x8xf16> {
  %e = tensor.empty() : tensor<4x8xf32>
  %x = linalg.exp ins(%A : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %y = linalg.add ins(%x, %B : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %h = tensor.empty() : tensor<4x8xf16>
  %z = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%y : tensor<4x8xf32>) outs(%h : tensor<4x8xf16>) {
  ^bb0(%in: f32, %out: f16):
    %v = arith.truncf %in : f32 to f16
    linalg.yield %v : f16
  } -> tensor<4x8xf16>
  return %z : tensor<4x8xf16>
}

// -----

// Softmax pieces: exp has two readers, the row sum and the division; it is
// recomputed in both, and nothing stores it.
// CHECK-LABEL: tile.program @softmax(
// CHECK-SAME: %t0: !tile.tensor<4xf32, intermediate>
// CHECK-NOT: intermediate
// CHECK: tile.exp
// CHECK: tile.rsum
// CHECK: tile.store {{.*}}, %t0[
// CHECK: tile.exp
// CHECK: tile.div
// CHECK: tile.store {{.*}}, %result0[
// CHECK-NOT: tile.store
// NOFUSE-LABEL: tile.program @softmax(
// NOFUSE-COUNT-3: tile.store
func.func @softmax(%C: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %E = linalg.exp ins(%C : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %s0 = tensor.empty() : tensor<4xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%s0 : tensor<4xf32>) -> tensor<4xf32>
  %S = linalg.reduce ins(%E : tensor<4x8xf32>) outs(%sz : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%E, %S : tensor<4x8xf32>, tensor<4xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %s: f32, %out: f32):
    %q = arith.divf %x, %s : f32
    linalg.yield %q : f32
  } -> tensor<4x8xf32>
  return %d : tensor<4x8xf32>
}

// -----

// A transpose read by a contraction: the matmul loads K itself and permutes
// the tile; the transpose of the A side likewise.
// CHECK-LABEL: tile.program @scores(
// CHECK-NOT: intermediate
// CHECK: %[[K:.*]] = tile.load %arg1[{{.*}}] : !tile.tensor<2x16x8xf16, input> -> !tile.tile<[tile_i0, tile_i2, tile_r0], f16>
// CHECK: tile.permute %[[K]] [0, 2, 1]
// CHECK: tile.matmul
// CHECK: tile.store {{.*}}, %result0[
// CHECK-NOT: tile.store
// NOFUSE-LABEL: tile.program @scores(
// NOFUSE-COUNT-3: tile.store
func.func @scores(%Q: tensor<4x2x8xf16>, %K: tensor<2x16x8xf16>) -> tensor<2x4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %qe = tensor.empty() : tensor<2x4x8xf16>
  %Qt = linalg.transpose ins(%Q : tensor<4x2x8xf16>) outs(%qe : tensor<2x4x8xf16>) permutation = [1, 0, 2]
  %ke = tensor.empty() : tensor<2x8x16xf16>
  %Kt = linalg.transpose ins(%K : tensor<2x16x8xf16>) outs(%ke : tensor<2x8x16xf16>) permutation = [0, 2, 1]
  %ce = tensor.empty() : tensor<2x4x16xf32>
  %cz = linalg.fill ins(%zero : f32) outs(%ce : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  %C = linalg.batch_matmul ins(%Qt, %Kt : tensor<2x4x8xf16>, tensor<2x8x16xf16>) outs(%cz : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  return %C : tensor<2x4x16xf32>
}

// -----

// A prologue: an elementwise producer of a contraction's left operand is
// fused into it, and the matmul reads the computed operand (one store).
// Without prologues it stays its own nest.
// CHECK-LABEL: tile.program @scaled_matmul(
// CHECK-NOT: intermediate
// CHECK: tile.load %arg0[{{.*}}] : !tile.tensor<4x8xf32, input>
// CHECK: %[[A2:.*]] = tile.mul
// CHECK: tile.matmul %[[A2]], %{{.*}} : !tile.tile<[tile_i0, tile_r0], f32>, !tile.tile<[tile_r0, tile_i1], f32>
// CHECK: tile.store {{.*}}, %result0[
// CHECK-NOT: tile.store
// With at most 8 columns, this 16-column matmul takes no prologue.
// NARROW-LABEL: tile.program @scaled_matmul(
// NARROW: tile.store {{.*}}, %t0[
// NARROW: tile.matmul
// NOPRO-LABEL: tile.program @scaled_matmul(
// NOPRO: tile.mul
// NOPRO: tile.store {{.*}}, %t0[
// NOPRO: tile.matmul
// NOPRO: tile.store {{.*}}, %result0[
func.func @scaled_matmul(%A: tensor<4x8xf32>, %B: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %A2 = linalg.mul ins(%A, %A : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %ce = tensor.empty() : tensor<4x16xf32>
  %cz = linalg.fill ins(%zero : f32) outs(%ce : tensor<4x16xf32>) -> tensor<4x16xf32>
  %C = linalg.matmul ins(%A2, %B : tensor<4x8xf32>, tensor<8x16xf32>) outs(%cz : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %C : tensor<4x16xf32>
}

// -----

// A softmax's division and cast, then P @ V (batched, f16 operands): the
// matmul's left operand is cast(div(exp(C), bcast(S))) of the loaded C and
// S, still f16, so that it can run on the matrix units.
// CHECK-LABEL: tile.program @pv_prologue(
// CHECK-NOT: intermediate
// CHECK: %[[C:.*]] = tile.load %arg0[{{.*}}] : !tile.tensor<2x4x16xf32, input> -> !tile.tile<[tile_i0, tile_i1, tile_r0], f32>
// CHECK: %[[S:.*]] = tile.load %arg1[{{.*}}] : !tile.tensor<2x4xf32, input>
// CHECK: %[[SB:.*]] = tile.bcast %[[S]] [2]
// CHECK: %[[E:.*]] = tile.exp %[[C]]
// CHECK: %[[D:.*]] = tile.div %[[E]], %[[SB]]
// CHECK: %[[H:.*]] = tile.cast %[[D]] : !tile.tile<[tile_i0, tile_i1, tile_r0], f32> -> !tile.tile<[tile_i0, tile_i1, tile_r0], f16>
// CHECK: %[[V:.*]] = tile.load %arg2[
// CHECK: tile.matmul %[[H]], %[[V]] : !tile.tile<[tile_i0, tile_i1, tile_r0], f16>, !tile.tile<[tile_i0, tile_r0, tile_i2], f16>
// CHECK-NOT: tile.store {{.*}}, %t
// NARROW-LABEL: tile.program @pv_prologue(
// NARROW-NOT: intermediate
// NARROW: tile.matmul
// NOPRO-LABEL: tile.program @pv_prologue(
// NOPRO: tile.store {{.*}}, %t0[
// NOPRO: tile.matmul
#pv_c = affine_map<(h, m, p) -> (h, m, p)>
#pv_s = affine_map<(h, m, p) -> (h, m)>
func.func @pv_prologue(%C: tensor<2x4x16xf32>, %S: tensor<2x4xf32>, %V: tensor<2x16x8xf16>) -> tensor<2x4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %pe = tensor.empty() : tensor<2x4x16xf16>
  %P = linalg.generic {indexing_maps = [#pv_c, #pv_s, #pv_c], iterator_types = ["parallel", "parallel", "parallel"]} ins(%C, %S : tensor<2x4x16xf32>, tensor<2x4xf32>) outs(%pe : tensor<2x4x16xf16>) {
  ^bb0(%c: f32, %s: f32, %o: f16):
    %x = math.exp %c : f32
    %d = arith.divf %x, %s : f32
    %h = arith.truncf %d : f32 to f16
    linalg.yield %h : f16
  } -> tensor<2x4x16xf16>
  %oe = tensor.empty() : tensor<2x4x8xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %O = linalg.batch_matmul ins(%P, %V : tensor<2x4x16xf16>, tensor<2x16x8xf16>) outs(%oz : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  return %O : tensor<2x4x8xf32>
}

// -----

// Must not fuse: an elementwise producer of a contraction's right operand
// (weights and caches stay plain loads); and a reduction is no prologue.
// CHECK-LABEL: tile.program @right_operand(
// CHECK: tile.mul
// CHECK: tile.store {{.*}}, %t0[
// CHECK: tile.rsum
// CHECK: tile.store {{.*}}, %t1[
// CHECK: tile.matmul
// CHECK: tile.store {{.*}}, %result0[
func.func @right_operand(%A: tensor<4x8xf32>, %B: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %B2 = linalg.mul ins(%B, %B : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %re = tensor.empty() : tensor<4xf32>
  %rz = linalg.fill ins(%zero : f32) outs(%re : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.reduce ins(%A : tensor<4x8xf32>) outs(%rz : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %sum = arith.addf %in, %acc : f32
      linalg.yield %sum : f32
    }
  %ae = tensor.empty() : tensor<4x8xf32>
  %A2 = linalg.broadcast ins(%r : tensor<4xf32>) outs(%ae : tensor<4x8xf32>) dimensions = [1]
  %ce = tensor.empty() : tensor<4x16xf32>
  %cz = linalg.fill ins(%zero : f32) outs(%ce : tensor<4x16xf32>) -> tensor<4x16xf32>
  %C = linalg.matmul ins(%A2, %B2 : tensor<4x8xf32>, tensor<8x16xf32>) outs(%cz : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %C : tensor<4x16xf32>
}

// -----

// Must not fuse: the producer reads the cache before it is updated in place,
// and its reader comes after the update.
// CHECK-LABEL: tile.program @before_update(
// CHECK: tile.exp
// CHECK: tile.store {{.*}}, %t0[
// CHECK: tile.store {{.*}}, %Kc[
// CHECK: tile.load %t0
// CHECK: tile.add
func.func @before_update(%Kc: tensor<8x4xf32> {tile.name = "Kc"}, %N: tensor<2x4xf32>) -> (tensor<8x4xf32> {tile.name = "Kc"}, tensor<8x4xf32>) {
  %e = tensor.empty() : tensor<8x4xf32>
  %x = linalg.exp ins(%Kc : tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  %u = tensor.insert_slice %N into %Kc[6, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<8x4xf32>
  %y = linalg.add ins(%x, %x : tensor<8x4xf32>, tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %u, %y : tensor<8x4xf32>, tensor<8x4xf32>
}

// -----

// Each square reads its producer twice, so fusing recomputes it twice: the
// fused body doubles at every step, and fusion stops before a body would
// pass 64 ops: four nests of about 64 multiplies instead of one of 255.
// CHECK-LABEL: tile.program @squares(
// CHECK-COUNT-3: tile.store {{.*}}, %t{{[0-9]+}}[
// CHECK-NOT: tile.store {{.*}}, %t
// CHECK: tile.store {{.*}}, %result0[
func.func @squares(%A: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %x1 = linalg.mul ins(%A, %A : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %x2 = linalg.mul ins(%x1, %x1 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %x3 = linalg.mul ins(%x2, %x2 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %x4 = linalg.mul ins(%x3, %x3 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %x5 = linalg.mul ins(%x4, %x4 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %x6 = linalg.mul ins(%x5, %x5 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %x7 = linalg.mul ins(%x6, %x6 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %x8 = linalg.mul ins(%x7, %x7 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %x8 : tensor<4x8xf32>
}

// -----

// A transpose written as a linalg.generic folds into a named contraction
// like linalg.transpose does.
// CHECK-LABEL: tile.program @generic_transpose(
// CHECK-NOT: intermediate
// CHECK: tile.permute
// CHECK: tile.matmul
// CHECK: tile.store {{.*}}, %result0[
// CHECK-NOT: tile.store
// NOFUSE-LABEL: tile.program @generic_transpose(
// NOFUSE-COUNT-2: tile.store
func.func @generic_transpose(%A: tensor<4x8xf16>, %B: tensor<16x8xf16>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %be = tensor.empty() : tensor<8x16xf16>
  %Bt = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%B : tensor<16x8xf16>) outs(%be : tensor<8x16xf16>) {
  ^bb0(%in: f16, %out: f16):
    linalg.yield %in : f16
  } -> tensor<8x16xf16>
  %ce = tensor.empty() : tensor<4x16xf32>
  %cz = linalg.fill ins(%zero : f32) outs(%ce : tensor<4x16xf32>) -> tensor<4x16xf32>
  %C = linalg.matmul ins(%A, %Bt : tensor<4x8xf16>, tensor<8x16xf16>) outs(%cz : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %C : tensor<4x16xf32>
}

// -----

// Reshapes move out from between elementwise ops: the expand_shape after
// the cast goes above it (the cast runs over [4, 2, 8]) and the cast fuses
// with the head transpose, so the matmul result's reshape is the only copy
// left (which the GPU lowering turns into a shared buffer); the
// collapse_shape before the final cast goes below it, onto the result.
// Without fusion: matmul, exp, reshape, transpose, reshape, cast.
// CHECK-LABEL: tile.program @heads(
// CHECK: tile.matmul
// CHECK: tile.store {{.*}}, %t0[
// CHECK: tile.reshape {{.*}} -> !tile.tile<[4, 1, 8], f32>
// CHECK-NEXT: tile.store {{.*}}, %t1[
// CHECK: tile.load %t1
// CHECK-NEXT: tile.permute
// CHECK-NEXT: tile.exp
// CHECK-NEXT: tile.cast
// CHECK-NEXT: tile.store {{.*}}, %t2[
// CHECK: tile.reshape {{.*}} -> !tile.tile<[2, 8], f16>
// CHECK-NEXT: tile.store {{.*}}, %result0[
// CHECK-NOT: tile.store
// NOFUSE-LABEL: tile.program @heads(
// NOFUSE-COUNT-6: tile.store
func.func @heads(%X: tensor<4x8xf16>, %W: tensor<8x16xf16>) -> tensor<2x32xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %P = linalg.matmul ins(%X, %W : tensor<4x8xf16>, tensor<8x16xf16>) outs(%z : tensor<4x16xf32>) -> tensor<4x16xf32>
  %h = tensor.empty() : tensor<4x16xf32>
  %E = linalg.exp ins(%P : tensor<4x16xf32>) outs(%h : tensor<4x16xf32>) -> tensor<4x16xf32>
  %R = tensor.expand_shape %E [[0], [1, 2]] output_shape [4, 2, 8] : tensor<4x16xf32> into tensor<4x2x8xf32>
  %t = tensor.empty() : tensor<2x4x8xf32>
  %T = linalg.transpose ins(%R : tensor<4x2x8xf32>) outs(%t : tensor<2x4x8xf32>) permutation = [1, 0, 2]
  %F = tensor.collapse_shape %T [[0], [1, 2]] : tensor<2x4x8xf32> into tensor<2x32xf32>
  %c = tensor.empty() : tensor<2x32xf16>
  %O = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%F : tensor<2x32xf32>) outs(%c : tensor<2x32xf16>) {
  ^bb0(%in: f32, %out: f16):
    %v = arith.truncf %in : f32 to f16
    linalg.yield %v : f16
  } -> tensor<2x32xf16>
  return %O : tensor<2x32xf16>
}

// -----

// Must not: a reshape after a reduction stays after it (the reduction is
// not expanded), and the exp reading the reshape stays its own nest.
// CHECK-LABEL: tile.program @reduce_reshape(
// CHECK: tile.rsum
// CHECK: tile.store {{.*}}, %t0[
// CHECK: tile.reshape
// CHECK-NEXT: tile.store {{.*}}, %t1[
// CHECK: tile.exp
// CHECK-NEXT: tile.store {{.*}}, %result0[
func.func @reduce_reshape(%A: tensor<4x8xf32>) -> tensor<2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<4xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%s0 : tensor<4xf32>) -> tensor<4xf32>
  %S = linalg.reduce ins(%A : tensor<4x8xf32>) outs(%sz : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  %R = tensor.expand_shape %S [[0, 1]] output_shape [2, 2] : tensor<4xf32> into tensor<2x2xf32>
  %e = tensor.empty() : tensor<2x2xf32>
  %E = linalg.exp ins(%R : tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %E : tensor<2x2xf32>
}
