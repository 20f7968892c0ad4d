// RUN: tile-opt %s -split-input-file -verify-diagnostics

// Every verifier message of the tile dialect, one case each.

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

// expected-error @+1 {{tensor extents must be positive, got 0}}
func.func private @f(!tile.tensor<0x4xf32, input>)

// -----

// expected-error @+1 {{a positions tensor has one dimension of at most 2^24 elements and element type f32}}
func.func private @f(!tile.tensor<4x4xf32, positions>)

// -----

// expected-error @+1 {{a positions tensor has one dimension of at most 2^24 elements and element type f32}}
func.func private @f(!tile.tensor<4xf16, positions>)

// -----

// expected-error @+1 {{tensor element type must be a float type or i1, got 'i32'}}
func.func private @f(!tile.tensor<4xi32, input>)

// -----

// expected-error @+1 {{unknown tensor role 'weight'; expected input, output, inout or intermediate}}
func.func private @f(!tile.tensor<4xf32, weight>)

// -----

// expected-error @+1 {{tile extents must be positive, got 0}}
func.func private @f(!tile.tile<[0, 4], f32>)

// -----

// expected-error @+1 {{tile element type must be a float type or i1, got 'i32'}}
func.func private @f(!tile.tile<[4], i32>)

// -----

//===----------------------------------------------------------------------===//
// tile.program
//===----------------------------------------------------------------------===//

// expected-error @+1 {{'tile.program' op has 2 tensor names for 1 tensors}}
"tile.program"() <{sym_name = "p", tensor_names = ["A", "B"]}> ({
^bb0(%A: !tile.tensor<4xf32, input>):
  %n = tile.nop
  tile.yield %n
}) : () -> ()

// -----

// expected-error @+1 {{'tile.program' op argument #0 must be a !tile.tensor, got 'f32'}}
"tile.program"() <{sym_name = "p", tensor_names = ["A"]}> ({
^bb0(%A: f32):
  %n = tile.nop
  tile.yield %n
}) : () -> ()

// -----

// expected-error @+1 {{'tile.program' op declares tensor 'A' twice (arguments #0 and #1)}}
"tile.program"() <{sym_name = "p", tensor_names = ["A", "A"]}> ({
^bb0(%A: !tile.tensor<4xf32, input>, %B: !tile.tensor<4xf32, output>):
  %n = tile.nop
  tile.yield %n
}) : () -> ()

// -----

// expected-error @+1 {{'tile.program' op 'tile.may_alias' must be an array of tensor name pairs}}
tile.program @p(%A: !tile.tensor<4xf32, input>) attributes {tile.may_alias = "A"} {
  %n = tile.nop
  tile.yield %n
}

// -----

// expected-error @+1 {{'tile.program' op 'tile.may_alias' entries must be pairs of tensor names, got ["A"]}}
tile.program @p(%A: !tile.tensor<4xf32, input>) attributes {tile.may_alias = [["A"]]} {
  %n = tile.nop
  tile.yield %n
}

// -----

// expected-error @+1 {{'tile.program' op 'tile.may_alias' names unknown tensor "C"}}
tile.program @p(%A: !tile.tensor<4xf32, input>) attributes {tile.may_alias = [["A", "C"]]} {
  %n = tile.nop
  tile.yield %n
}

// -----

// expected-error @+1 {{'tile.program' op 'tile.may_alias' pairs a tensor with itself: ["A", "A"]}}
tile.program @p(%A: !tile.tensor<4xf32, input>) attributes {tile.may_alias = [["A", "A"]]} {
  %n = tile.nop
  tile.yield %n
}

// -----

tile.program @p() {
  %n = tile.var "n"
  // expected-note @-1 {{previous declaration}}
  // expected-error @+1 {{'tile.var' op declares loop variable 'n' twice}}
  %m = tile.var "n"
  %s = tile.nop
  tile.yield %s
}

// -----

tile.program @p() {
  // expected-error @+1 {{'tile.var' op loop variable name 'a b' is not an identifier}}
  %n = tile.var "a b"
  %s = tile.nop
  tile.yield %s
}

// -----

tile.program @p() {
  // expected-error @+1 {{'tile.size' op tile size must be positive, got 0}}
  %c = tile.size 0
  %s = tile.nop
  tile.yield %s
}

// -----

tile.program @p() {
  // expected-error @+1 {{'tile.size' op tile size symbol '1x' is not an identifier}}
  %c = tile.size "1x"
  %s = tile.nop
  tile.yield %s
}

// -----

tile.program @p() {
  // expected-error @+1 {{'tile.const_tile' op base must be non-negative, got -1}}
  %c = tile.const_tile -1, 4
  %s = tile.nop
  tile.yield %s
}

// -----

tile.program @p() {
  // expected-error @+1 {{'tile.const_tile' op size must be positive, got 0}}
  %c = tile.const_tile 0, 0
  %s = tile.nop
  tile.yield %s
}

// -----

//===----------------------------------------------------------------------===//
// tile.load and tile.store
//===----------------------------------------------------------------------===//

func.func @f(%A: !tile.tensor<4xf32, input>) {
  %f = "tile.full"() : () -> !tile.index
  // expected-error @+1 {{'tile.load' op must be nested in a tile.program}}
  %a = "tile.load"(%A, %f) : (!tile.tensor<4xf32, input>, !tile.index) -> !tile.tile<[4], f32>
  return
}

// -----

tile.program @p() {
  %t = builtin.unrealized_conversion_cast to !tile.tensor<4xf32, input>
  %f = tile.full
  // expected-error @+1 {{'tile.load' op accesses a tensor that is not declared by the enclosing tile.program}}
  %a = tile.load %t[%f] : !tile.tensor<4xf32, input> -> !tile.tile<[4], f32>
  %s = tile.nop
  tile.yield %s
}

// -----

tile.program @p(%A: !tile.tensor<4x8xf32, input>) {
  %f = tile.full
  // expected-error @+1 {{'tile.load' op indexes tensor 'A' of rank 2 with 1 indices}}
  %a = tile.load %A[%f] : !tile.tensor<4x8xf32, input> -> !tile.tile<[4, 8], f32>
  %s = tile.nop
  tile.yield %s
}

// -----

tile.program @p(%A: !tile.tensor<4x8xf32, input>) {
  %f = tile.full
  // expected-error @+1 {{'tile.load' op loaded tile [32] must have the rank of tensor 'A' (2)}}
  %a = tile.load %A[%f, %f] : !tile.tensor<4x8xf32, input> -> !tile.tile<[32], f32>
  %s = tile.nop
  tile.yield %s
}

// -----

tile.program @p(%A: !tile.tensor<4x8xf16, input>) {
  %f = tile.full
  // expected-error @+1 {{'tile.load' op loaded element type 'f32' differs from the element type 'f16' of tensor 'A'}}
  %a = tile.load %A[%f, %f] : !tile.tensor<4x8xf16, input> -> !tile.tile<[4, 8], f32>
  %s = tile.nop
  tile.yield %s
}

// -----

tile.program @p(%A: !tile.tensor<4x16xf32, input>) {
  %f = tile.full
  %c = tile.const_tile 14, 4
  // expected-error @+1 {{'tile.load' op slice [14, 18) of dimension 1 is out of bounds for tensor 'A' of extent 16}}
  %a = tile.load %A[%f, %c] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 4], f32>
  %s = tile.nop
  tile.yield %s
}

// -----

tile.program @p(%A: !tile.tensor<4xf32, input>) {
  %i = builtin.unrealized_conversion_cast to !tile.index
  // expected-error @+1 {{'tile.load' op index #0 is not an index expression}}
  %a = tile.load %A[%i] : !tile.tensor<4xf32, input> -> !tile.tile<[4], f32>
  %s = tile.nop
  tile.yield %s
}

// -----

tile.program @p(%A: !tile.tensor<4x16xf32, input>) {
  %f = tile.full
  // expected-error @+1 {{'tile.load' op loaded tile [4, 8] does not match the indexed region: dimension 1 has extent 8 but the index selects 16}}
  %a = tile.load %A[%f, %f] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 8], f32>
  %s = tile.nop
  tile.yield %s
}

// -----

tile.program @p(%A: !tile.tensor<4x16xf32, input>) {
  %h = tile.var "h"
  %e = tile.elem %h
  %f = tile.full
  // expected-error @+1 {{'tile.load' op loaded tile [4, 16] does not match the indexed region: dimension 0 has extent 4 but the index selects 1}}
  %a = tile.load %A[%e, %f] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 16], f32>
  %s = tile.nop
  tile.yield %s
}

// -----

tile.program @p(%A: !tile.tensor<4x16xf32, output>) {
  %f = tile.full
  %c = tile.const_tile 12, 4
  %v = tile.constant 1.0 : !tile.tile<[4, 8], f32>
  // expected-error @+1 {{'tile.store' op stored tile [4, 8] does not match the indexed region: dimension 1 has extent 8 but the index selects 4}}
  %s = tile.store %v, %A[%f, %c] : !tile.tile<[4, 8], f32>, !tile.tensor<4x16xf32, output>
  tile.yield %s
}

// -----

tile.program @p(%A: !tile.tensor<4xf32, input>) {
  %f = tile.full
  %v = tile.constant 1.0 : !tile.tile<[4], f32>
  // expected-error @+1 {{'tile.store' op stores into input tensor 'A'; declare it inout to update it in place}}
  %s = tile.store %v, %A[%f] : !tile.tile<[4], f32>, !tile.tensor<4xf32, input>
  tile.yield %s
}

// -----

tile.program @p(%P: !tile.tensor<4xf32, positions>) {
  %f = tile.full
  %v = tile.constant 1.0 : !tile.tile<[4], f32>
  // expected-error @+1 {{'tile.store' op stores into positions tensor 'P', whose element n is n}}
  %s = tile.store %v, %P[%f] : !tile.tile<[4], f32>, !tile.tensor<4xf32, positions>
  tile.yield %s
}

// -----

//===----------------------------------------------------------------------===//
// tile.loop
//===----------------------------------------------------------------------===//

tile.program @p() {
  %v = builtin.unrealized_conversion_cast to !tile.var
  %c = tile.size 4
  %b = tile.nop
  // expected-error @+1 {{'tile.loop' op loop variable must be defined by tile.var}}
  %l = tile.loop %v = 0 to 16 step %c body %b
  tile.yield %l
}

// -----

tile.program @p() {
  %v = tile.var "i"
  %c = builtin.unrealized_conversion_cast to !tile.size
  %b = tile.nop
  // expected-error @+1 {{'tile.loop' op step must be defined by tile.size}}
  %l = tile.loop %v = 0 to 16 step %c body %b
  tile.yield %l
}

// -----

tile.program @p() {
  %v = tile.var "i"
  %c = tile.size 4
  %b = tile.nop
  // expected-error @+1 {{'tile.loop' op range [4, 4) must be non-empty and start at a non-negative index}}
  %l = tile.loop %v = 4 to 4 step %c body %b
  tile.yield %l
}

// -----

tile.program @p() {
  %v = tile.var "i"
  %c = tile.size 3
  %b = tile.nop
  // expected-error @+1 {{'tile.loop' op step 3 does not divide the range [0, 16)}}
  %l = tile.loop %v = 0 to 16 step %c body %b
  tile.yield %l
}

// -----

//===----------------------------------------------------------------------===//
// Whole-program checks
//===----------------------------------------------------------------------===//

tile.program @p() {
  %v = tile.var "i"
  %c = tile.size 4
  %b = tile.nop
  %inner = tile.loop %v = 0 to 16 step %c body %b
  // expected-error @-1 {{'tile.loop' op rebinds loop variable 'i', which an enclosing loop already binds}}
  %outer = tile.loop %v = 0 to 16 step %c body %inner
  // expected-note @-1 {{enclosing loop}}
  tile.yield %outer
}

// -----

tile.program @p(%A: !tile.tensor<16xf32, output>) {
  %v = tile.var "i"
  %c = tile.size 4
  // expected-error @+1 {{'tile.tile' op uses loop variable 'i' outside of any loop that binds it}}
  %t = tile.tile %v
  %x = tile.constant 1.0 : !tile.tile<[4], f32>
  %s = tile.store %x, %A[%t] : !tile.tile<[4], f32>, !tile.tensor<16xf32, output>
  // expected-note @-1 {{used here}}
  %l = tile.loop %v = 0 to 16 step %c body %s
  %q = tile.seq %l, %s
  tile.yield %q
}

// -----

tile.program @p() {
  %v = tile.var "i"
  %c4 = tile.size 4
  %c8 = tile.size 8
  %b = tile.nop
  %l1 = tile.loop %v = 0 to 16 step %c4 body %b
  // expected-note @-1 {{other loop}}
  // expected-error @+1 {{'tile.loop' op binds loop variable 'i' to [0, 16) step 8, but another loop binds it to [0, 16) step 4}}
  %l2 = tile.loop %v = 0 to 16 step %c8 body %b
  %s = tile.seq %l1, %l2
  tile.yield %s
}

// -----

tile.program @p() {
  // expected-error @+1 {{'tile.constant' op uses tile extent 'tile_q', which is not a tile size of the program (declare it with tile.size "tile_q")}}
  %x = tile.constant 1.0 : !tile.tile<[tile_q], f32>
  %s = tile.nop
  tile.yield %s
}

// -----

tile.program @p(%A: !tile.tensor<2x8xf32, output>) {
  %h = tile.var "h"
  %c1 = tile.size 1
  %e = tile.elem %h
  %f = tile.full
  %x = tile.constant 1.0 : !tile.tile<[1, 8], f32>
  // expected-error @+1 {{'tile.store' op element index of 'h' reaches 2 in dimension 0 of tensor 'A' of extent 2}}
  %s = tile.store %x, %A[%e, %f] : !tile.tile<[1, 8], f32>, !tile.tensor<2x8xf32, output>
  %l = tile.loop %h = 0 to 3 step %c1 body %s
  tile.yield %l
}

// -----

tile.program @p(%A: !tile.tensor<16xf32, output>) {
  %n = tile.var "n"
  %tile_n = tile.size "tile_n"
  %t = tile.tile %n
  %x = tile.constant 1.0 : !tile.tile<[tile_n], f32>
  // expected-error @+1 {{'tile.store' op tile of 'n' over [0, 32) step tile_n overruns dimension 0 of tensor 'A' of extent 16}}
  %s = tile.store %x, %A[%t] : !tile.tile<[tile_n], f32>, !tile.tensor<16xf32, output>
  %l = tile.loop %n = 0 to 32 step %tile_n body %s
  tile.yield %l
}

// -----

tile.program @p(%A: !tile.tensor<4x16xf32, input>) {
  %n = tile.var "n"
  %tile_n = tile.size "tile_n"
  %t = tile.tile %n
  %f = tile.full
  // expected-error @+1 {{'tile.load' op tile [4, 16] does not match the indexed region: dimension 1 has extent 16 but the tile of 'n' has extent tile_n}}
  %a = tile.load %A[%f, %t] : !tile.tensor<4x16xf32, input> -> !tile.tile<[4, 16], f32>
  %s = tile.nop
  %l = tile.loop %n = 0 to 16 step %tile_n body %s
  tile.yield %l
}

// -----

//===----------------------------------------------------------------------===//
// Compute ops
//===----------------------------------------------------------------------===//

tile.program @p() {
  %a = tile.constant 1.0 : !tile.tile<[4], f32>
  %b = tile.constant 1.0 : !tile.tile<[8], f32>
  // expected-error @+1 {{'tile.add' op requires the same type for all operands and results}}
  %c = "tile.add"(%a, %b) : (!tile.tile<[4], f32>, !tile.tile<[8], f32>) -> !tile.tile<[4], f32>
  %s = tile.nop
  tile.yield %s
}

// -----

tile.program @p() {
  %a = tile.constant 1.0 : !tile.tile<[4], f32>
  %m = tile.cmp lt, %a, %a : !tile.tile<[4], f32> -> !tile.tile<[4], i1>
  // expected-error @+1 {{'tile.exp' op operand #0 must be tile of floats}}
  %e = tile.exp %m : !tile.tile<[4], i1>
  %s = tile.nop
  tile.yield %s
}

// -----

tile.program @p() {
  %a = tile.constant 1.0 : !tile.tile<[4], f32>
  // expected-error @+1 {{'tile.cmp' op result shape [8] differs from the operand shape [4]}}
  %m = tile.cmp lt, %a, %a : !tile.tile<[4], f32> -> !tile.tile<[8], i1>
  %s = tile.nop
  tile.yield %s
}

// -----

tile.program @p() {
  %a = tile.constant 1.0 : !tile.tile<[4], f32>
  %b = tile.constant 1.0 : !tile.tile<[8], f32>
  %m = tile.cmp lt, %a, %a : !tile.tile<[4], f32> -> !tile.tile<[4], i1>
  // expected-error @+1 {{'tile.select' op condition shape [4] differs from the value shape [8]}}
  %r = tile.select %m, %b, %b : !tile.tile<[4], i1>, !tile.tile<[8], f32>
  %s = tile.nop
  tile.yield %s
}

// -----

tile.program @p() {
  %a = tile.constant 1.0 : !tile.tile<[4, 8], f32>
  // expected-error @+1 {{'tile.rsum' op axis 2 is out of range for a tile of rank 2}}
  %r = tile.rsum %a, 2 : !tile.tile<[4, 8], f32> -> !tile.tile<[4], f32>
  %s = tile.nop
  tile.yield %s
}

// -----

tile.program @p() {
  %a = tile.constant 1.0 : !tile.tile<[4, 8], f32>
  // expected-error @+1 {{'tile.rmax' op result shape [8] should be [4]}}
  %r = tile.rmax %a, 1 : !tile.tile<[4, 8], f32> -> !tile.tile<[8], f32>
  %s = tile.nop
  tile.yield %s
}

// -----

tile.program @p() {
  %a = tile.constant 1.0 : !tile.tile<[4, 8], f32>
  // expected-error @+1 {{'tile.rmin' op result element type 'f16' differs from the operand's 'f32'}}
  %r = tile.rmin %a, 1 : !tile.tile<[4, 8], f32> -> !tile.tile<[4], f16>
  %s = tile.nop
  tile.yield %s
}

// -----

tile.program @p() {
  %a = tile.constant 1.0 : !tile.tile<[4], f16>
  // expected-error @+1 {{'tile.matmul' op operands must have one rank of at least 2, got 1 and 1}}
  %c = tile.matmul %a, %a : !tile.tile<[4], f16>, !tile.tile<[4], f16> -> !tile.tile<[4], f32>
  %s = tile.nop
  tile.yield %s
}

// -----

tile.program @p() {
  %a = tile.constant 1.0 : !tile.tile<[4, 4], f16>
  %b = tile.constant 1.0 : !tile.tile<[4, 4], f32>
  // expected-error @+1 {{'tile.matmul' op operand element types differ: 'f16' and 'f32'}}
  %c = tile.matmul %a, %b : !tile.tile<[4, 4], f16>, !tile.tile<[4, 4], f32> -> !tile.tile<[4, 4], f32>
  %s = tile.nop
  tile.yield %s
}

// -----

tile.program @p() {
  %a = tile.constant 1.0 : !tile.tile<[1, 4, 8], f16>
  %b = tile.constant 1.0 : !tile.tile<[2, 8, 4], f16>
  // expected-error @+1 {{'tile.matmul' op batch dimension 0 differs: 1 and 2}}
  %c = tile.matmul %a, %b : !tile.tile<[1, 4, 8], f16>, !tile.tile<[2, 8, 4], f16> -> !tile.tile<[1, 4, 4], f32>
  %s = tile.nop
  tile.yield %s
}

// -----

tile.program @p() {
  %tk = tile.size "tile_k"
  %a = tile.constant 1.0 : !tile.tile<[4, tile_k], f16>
  %b = tile.constant 1.0 : !tile.tile<[8, 4], f16>
  // expected-error @+1 {{'tile.matmul' op contraction extents differ: lhs [4, tile_k] has tile_k, rhs [8, 4] has 8}}
  %c = tile.matmul %a, %b : !tile.tile<[4, tile_k], f16>, !tile.tile<[8, 4], f16> -> !tile.tile<[4, 4], f32>
  %s = tile.nop
  tile.yield %s
}

// -----

tile.program @p() {
  %a = tile.constant 1.0 : !tile.tile<[4, 8], f16>
  %b = tile.constant 1.0 : !tile.tile<[8, 2], f16>
  // expected-error @+1 {{'tile.matmul' op result shape [4, 8] should be [4, 2]}}
  %c = tile.matmul %a, %b : !tile.tile<[4, 8], f16>, !tile.tile<[8, 2], f16> -> !tile.tile<[4, 8], f32>
  %s = tile.nop
  tile.yield %s
}

// -----

//===----------------------------------------------------------------------===//
// Layout ops
//===----------------------------------------------------------------------===//

tile.program @p() {
  %a = tile.constant 1.0 : !tile.tile<[4, 8], f32>
  // expected-error @+1 {{'tile.permute' op permutation has 3 entries for a tile of rank 2}}
  %b = tile.permute %a [0, 1, 2] : !tile.tile<[4, 8], f32> -> !tile.tile<[4, 8], f32>
  %s = tile.nop
  tile.yield %s
}

// -----

tile.program @p() {
  %a = tile.constant 1.0 : !tile.tile<[4, 8], f32>
  // expected-error @+1 {{'tile.permute' op [1, 1] is not a permutation of the dimensions 0..1}}
  %b = tile.permute %a [1, 1] : !tile.tile<[4, 8], f32> -> !tile.tile<[8, 8], f32>
  %s = tile.nop
  tile.yield %s
}

// -----

tile.program @p() {
  %a = tile.constant 1.0 : !tile.tile<[4, 8], f32>
  // expected-error @+1 {{'tile.permute' op result shape [4, 8] should be [8, 4]}}
  %b = tile.permute %a [1, 0] : !tile.tile<[4, 8], f32> -> !tile.tile<[4, 8], f32>
  %s = tile.nop
  tile.yield %s
}

// -----

tile.program @p() {
  %a = tile.constant 1.0 : !tile.tile<[4, 8], f32>
  // expected-error @+1 {{'tile.transpose' op transposes dimension 1 with itself}}
  %b = tile.transpose %a, 1, 1 : !tile.tile<[4, 8], f32> -> !tile.tile<[4, 8], f32>
  %s = tile.nop
  tile.yield %s
}

// -----

tile.program @p() {
  %a = tile.constant 1.0 : !tile.tile<[4, 8], f32>
  // expected-error @+1 {{'tile.transpose' op dimension 2 is out of range for a tile of rank 2}}
  %b = tile.transpose %a, 0, 2 : !tile.tile<[4, 8], f32> -> !tile.tile<[4, 8], f32>
  %s = tile.nop
  tile.yield %s
}

// -----

tile.program @p() {
  %a = tile.constant 1.0 : !tile.tile<[4], f32>
  // expected-error @+1 {{'tile.bcast' op must insert at least one dimension}}
  %b = tile.bcast %a [] : !tile.tile<[4], f32> -> !tile.tile<[4], f32>
  %s = tile.nop
  tile.yield %s
}

// -----

tile.program @p() {
  %a = tile.constant 1.0 : !tile.tile<[4], f32>
  // expected-error @+1 {{'tile.bcast' op inserting 1 dimensions into a tile of rank 1 gives rank 2, not 3}}
  %b = tile.bcast %a [0] : !tile.tile<[4], f32> -> !tile.tile<[2, 4, 2], f32>
  %s = tile.nop
  tile.yield %s
}

// -----

tile.program @p() {
  %a = tile.constant 1.0 : !tile.tile<[4], f32>
  // expected-error @+1 {{'tile.bcast' op broadcast dimensions must be strictly increasing}}
  %b = tile.bcast %a [2, 0] : !tile.tile<[4], f32> -> !tile.tile<[2, 4, 2], f32>
  %s = tile.nop
  tile.yield %s
}

// -----

tile.program @p() {
  %a = tile.constant 1.0 : !tile.tile<[4], f32>
  // expected-error @+1 {{'tile.bcast' op broadcast dimension 3 is out of range for a tile of rank 2}}
  %b = tile.bcast %a [3] : !tile.tile<[4], f32> -> !tile.tile<[4, 2], f32>
  %s = tile.nop
  tile.yield %s
}

// -----

tile.program @p() {
  %a = tile.constant 1.0 : !tile.tile<[4], f32>
  // expected-error @+1 {{'tile.bcast' op result shape [4, 2] does not keep the operand shape [4] outside the broadcast dimensions}}
  %b = tile.bcast %a [0] : !tile.tile<[4], f32> -> !tile.tile<[4, 2], f32>
  %s = tile.nop
  tile.yield %s
}

// -----

tile.program @p() {
  %a = tile.constant 1.0 : !tile.tile<[4, 8], f32>
  // expected-error @+1 {{'tile.squeeze' op squeezes dimension 0 of extent 4; only extent 1 can be removed}}
  %b = tile.squeeze %a, 0 : !tile.tile<[4, 8], f32> -> !tile.tile<[8], f32>
  %s = tile.nop
  tile.yield %s
}

// -----

tile.program @p() {
  %a = tile.constant 1.0 : !tile.tile<[4, 8], f32>
  // expected-error @+1 {{'tile.unsqueeze' op axis 3 is out of range for a tile of rank 3}}
  %b = tile.unsqueeze %a, 3 : !tile.tile<[4, 8], f32> -> !tile.tile<[4, 8, 1], f32>
  %s = tile.nop
  tile.yield %s
}

// -----

tile.program @p() {
  %a = tile.constant 1.0 : !tile.tile<[4, 8], f32>
  // expected-error @+1 {{'tile.unsqueeze' op result shape [4, 8, 1] should be [4, 1, 8]}}
  %b = tile.unsqueeze %a, 1 : !tile.tile<[4, 8], f32> -> !tile.tile<[4, 8, 1], f32>
  %s = tile.nop
  tile.yield %s
}

// -----

tile.program @p() {
  %tn = tile.size "tile_n"
  %a = tile.constant 1.0 : !tile.tile<[4, tile_n], f32>
  // expected-error @+1 {{'tile.reshape' op cannot reshape [4, tile_n] into [2, 2, 4]: the element counts differ}}
  %b = tile.reshape %a : !tile.tile<[4, tile_n], f32> -> !tile.tile<[2, 2, 4], f32>
  %s = tile.nop
  tile.yield %s
}

// -----

tile.program @p() {
  %a = tile.constant 1.0 : !tile.tile<[4, 8], f32>
  // expected-error @+1 {{'tile.concat' op needs at least two inputs, got 1}}
  %b = tile.concat %a axis 0 : !tile.tile<[4, 8], f32> -> !tile.tile<[4, 8], f32>
  %s = tile.nop
  tile.yield %s
}

// -----

tile.program @p() {
  %a = tile.constant 1.0 : !tile.tile<[4, 8], f32>
  %b = tile.constant 1.0 : !tile.tile<[4, 8], f16>
  // expected-error @+1 {{'tile.concat' op inputs must share rank and element type}}
  %c = tile.concat %a, %b axis 0 : !tile.tile<[4, 8], f32>, !tile.tile<[4, 8], f16> -> !tile.tile<[8, 8], f32>
  %s = tile.nop
  tile.yield %s
}

// -----

tile.program @p() {
  %a = tile.constant 1.0 : !tile.tile<[4, 8], f32>
  %b = tile.constant 1.0 : !tile.tile<[4, 2], f32>
  // expected-error @+1 {{'tile.concat' op inputs differ in dimension 1 (8 and 2), which is not the concat axis}}
  %c = tile.concat %a, %b axis 0 : !tile.tile<[4, 8], f32>, !tile.tile<[4, 2], f32> -> !tile.tile<[8, 8], f32>
  %s = tile.nop
  tile.yield %s
}

// -----

tile.program @p() {
  %tn = tile.size "tile_n"
  %a = tile.constant 1.0 : !tile.tile<[4, 16], f32>
  %b = tile.constant 1.0 : !tile.tile<[4, tile_n], f32>
  // expected-error @+1 {{'tile.concat' op cannot represent the extent 16 + tile_n along the concat axis}}
  %c = tile.concat %a, %b axis 1 : !tile.tile<[4, 16], f32>, !tile.tile<[4, tile_n], f32> -> !tile.tile<[4, 16], f32>
  %s = tile.nop
  tile.yield %s
}

// -----

tile.program @p() {
  %tn = tile.size "tile_n"
  %a = tile.constant 1.0 : !tile.tile<[4, tile_n], f32>
  // expected-error @+1 {{'tile.concat' op result shape [4, tile_n] should be [4, 2*tile_n]}}
  %c = tile.concat %a, %a axis 1 : !tile.tile<[4, tile_n], f32>, !tile.tile<[4, tile_n], f32> -> !tile.tile<[4, tile_n], f32>
  %s = tile.nop
  tile.yield %s
}

// -----

tile.program @p() {
  %a = tile.constant 1.0 : !tile.tile<[4, 8], f32>
  // expected-error @+1 {{'tile.cast' op cannot change the shape [4, 8] to [8, 4]; use tile.reshape}}
  %b = tile.cast %a : !tile.tile<[4, 8], f32> -> !tile.tile<[8, 4], f16>
  %s = tile.nop
  tile.yield %s
}

// -----

tile.program @p() {
  %a = tile.constant 1.0 : !tile.tile<[4], f32>
  // expected-error @+1 {{'tile.cast' op result element type must be a float type, got 'i1'}}
  %b = tile.cast %a : !tile.tile<[4], f32> -> !tile.tile<[4], i1>
  %s = tile.nop
  tile.yield %s
}

// -----

//===----------------------------------------------------------------------===//
// tile.constant
//===----------------------------------------------------------------------===//

tile.program @p() {
  // expected-error @+1 {{'tile.constant' op value type 'f64' differs from the element type 'f32'}}
  %a = "tile.constant"() <{value = 1.0 : f64}> : () -> !tile.tile<[4], f32>
  %s = tile.nop
  tile.yield %s
}

// -----

tile.program @p() {
  // expected-error @+1 {{'tile.constant' op value must be a float or dense float elements}}
  %a = "tile.constant"() <{value = "one"}> : () -> !tile.tile<[4], f32>
  %s = tile.nop
  tile.yield %s
}

// -----

tile.program @p() {
  %tn = tile.size "tile_n"
  // expected-error @+1 {{'tile.constant' op dense values need a concrete tile shape, got [tile_n]}}
  %a = "tile.constant"() <{value = dense<[1.0, 2.0]> : tensor<2xf32>}> : () -> !tile.tile<[tile_n], f32>
  %s = tile.nop
  tile.yield %s
}

// -----

tile.program @p() {
  // expected-error @+1 {{'tile.constant' op dense values of type 'tensor<3xf32>' do not match the tile type '!tile.tile<[2], f32>'}}
  %a = tile.constant dense<[1.0, 2.0, 3.0]> : !tile.tile<[2], f32>
  %s = tile.nop
  tile.yield %s
}

// -----

tile.program @p() {
  // expected-error @+1 {{dense values are nested unevenly}}
  %a = tile.constant dense<[[1.0, 2.0], [3.0]]> : !tile.tile<[2, 2], f32>
  %s = tile.nop
  tile.yield %s
}

// -----

tile.program @p() {
  // expected-error @+1 {{constant tiles must hold floats}}
  %a = tile.constant 1.0 : !tile.tile<[2], i1>
  %s = tile.nop
  tile.yield %s
}
