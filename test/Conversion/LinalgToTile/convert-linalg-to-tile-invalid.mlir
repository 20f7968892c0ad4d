// RUN: tile-opt %s -split-input-file --convert-linalg-to-tile -verify-diagnostics
// RUN: not tile-opt %s -split-input-file --convert-linalg-to-tile 2>&1 | FileCheck %s --check-prefix=NOOUT

// A refusal prints no partial program.
// NOOUT-NOT: tile.program

// Every refusal of --convert-linalg-to-tile, one case each.

// expected-error @+1 {{cannot be converted to tile: argument #0 of type 'tensor<?x4xf32>' is not a static-shape float or i1 tensor}}
func.func @dynamic(%a: tensor<?x4xf32>) -> tensor<?x4xf32> {
  return %a : tensor<?x4xf32>
}

// -----

// expected-error @+1 {{cannot be converted to tile: argument #0 of type 'tensor<4xi32>' is not a static-shape float or i1 tensor}}
func.func @integers(%a: tensor<4xi32>) -> tensor<4xi32> {
  return %a : tensor<4xi32>
}

// -----

func.func @unsupported_op(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{cannot be converted to tile: 'arith.addf' is not supported (expected linalg structured ops, tensor.empty, tensor reshapes and static slices, and arith.constant)}}
  %r = arith.addf %a, %a : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @not_projected(%a: tensor<4x4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  // expected-error @+1 {{cannot be converted to tile: the indexing map affine_map<(d0) -> (d0, d0)> of operand #0 is not a projected permutation}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0, d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : tensor<4x4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// A constant index is taken only as the broadcast of a dimension of extent
// 1 (unit-broadcast.mlir): column 0 of a 4 x 8 tensor is not one.
func.func @constant_of_wide_dim(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  // expected-error @+1 {{cannot be converted to tile: the indexing map affine_map<(d0, d1) -> (d0, 0)> of operand #0 is not a projected permutation}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// Nor on an output (it would store one element of the unit dimension).
func.func @constant_in_output(%a: tensor<4xf32>) -> tensor<4x1xf32> {
  %e = tensor.empty() : tensor<4x1xf32>
  // expected-error @+1 {{cannot be converted to tile: the indexing map affine_map<(d0) -> (d0, 0)> of operand #1 is not a projected permutation}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0, 0)>], iterator_types = ["parallel"]}
      ins(%a : tensor<4xf32>) outs(%e : tensor<4x1xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4x1xf32>
  return %r : tensor<4x1xf32>
}

// -----

func.func @position_overflow(%a: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  // expected-error @+1 {{cannot be converted to tile: 'arith.muli' may reach 24000000, beyond the integers f32 holds exactly (2^24)}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 0 : index
    %c = arith.constant 8000000 : index
    %p = arith.muli %i, %c : index
    %q = arith.index_cast %p : index to i64
    %f = arith.sitofp %q : i64 to f32
    %s = arith.addf %x, %f : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @position_division(%a: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  // expected-error @+1 {{cannot be converted to tile: 'arith.divsi' on integers has no tile counterpart}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 0 : index
    %c = arith.constant 2 : index
    %p = arith.divsi %i, %c : index
    %q = arith.index_cast %p : index to i32
    %f = arith.sitofp %q : i32 to f32
    %s = arith.addf %x, %f : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @position_unsigned_negative(%a: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{cannot be converted to tile: an unsigned operation reads a value that may be negative}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 0 : index
    %c = arith.constant 2 : index
    %d = arith.subi %i, %c : index
    %lt = arith.cmpi ult, %d, %c : index
    %s = arith.select %lt, %x, %zero : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @position_not_of_and(%a: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{cannot be converted to tile: 'arith.xori' on conditions other than `not` of an integer comparison}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %t = arith.constant true
    %a1 = arith.cmpi sge, %i, %c1 : index
    %a2 = arith.cmpi sle, %i, %c2 : index
    %both = arith.andi %a1, %a2 : i1
    %n = arith.xori %both, %t : i1
    %s = arith.select %n, %x, %zero : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @unsupported_body(%a: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  // expected-error @+1 {{cannot be converted to tile: its body uses 'math.atan', which has no tile counterpart}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = math.atan %x : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @product_reduction(%a: tensor<4x8xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  // expected-error @+1 {{cannot be converted to tile: the reduction body is not an accumulation out = combine(out, f(inputs)) with combine one of addf, maximumf, maxnumf, minimumf, minnumf}}
  %r = linalg.reduce ins(%a : tensor<4x8xf32>) outs(%e : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %p = arith.mulf %in, %acc : f32
      linalg.yield %p : f32
    }
  return %r : tensor<4xf32>
}

// -----

func.func @read_after_update(%kc: tensor<8xf32>, %k: tensor<2xf32>) -> (tensor<8xf32>, tensor<2xf32>) {
  // expected-error @+1 {{cannot be converted to tile: it updates an argument in place, but the argument is read again after the update}}
  %r = tensor.insert_slice %k into %kc[6] [2] [1] : tensor<2xf32> into tensor<8xf32>
  // expected-note @+1 {{read here}}
  %old = tensor.extract_slice %kc[0] [2] [1] : tensor<8xf32> to tensor<2xf32>
  return %r, %old : tensor<8xf32>, tensor<2xf32>
}

// -----

func.func @strided(%a: tensor<8xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{cannot be converted to tile: only unit strides are supported}}
  %r = tensor.extract_slice %a[0] [2] [2] : tensor<8xf32> to tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----

func.func @rank_reducing(%a: tensor<4x8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{cannot be converted to tile: rank-reducing slices are not supported}}
  %r = tensor.extract_slice %a[1, 0] [1, 8] [1, 1] : tensor<4x8xf32> to tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

func.func @integer_scalar(%a: tensor<4xf32>) -> tensor<4xf32> {
  %c2 = arith.constant 2 : i32
  %e = tensor.empty() : tensor<4xf32>
  // expected-error @+1 {{cannot be converted to tile: its body uses 'math.fpowi', which has no tile counterpart}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %p = math.fpowi %x, %c2 : f32, i32
    linalg.yield %p : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @out_in_reduced_value(%a: tensor<4x8xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  // expected-error @+1 {{cannot be converted to tile: its body reads the output value outside of an accumulation out = combine(out, f(inputs))}}
  %r = linalg.reduce ins(%a : tensor<4x8xf32>) outs(%e : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %d = arith.subf %in, %acc : f32
      %s = arith.addf %acc, %d : f32
      linalg.yield %s : f32
    }
  return %r : tensor<4xf32>
}

// -----

func.func @output_drops_parallel_dim(%a: tensor<4x8xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  // expected-error @+1 {{cannot be converted to tile: output #0 does not index every parallel dimension}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x8xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
