//===- TileOps.td - Tile dialect operations ----------------*- tablegen -*-===//

#ifndef TILE_OPS_TD
#define TILE_OPS_TD

include "TileDialect/IR/TileBase.td"
include "TileDialect/IR/TileTypes.td"
include "TileDialect/IR/TileAttrs.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Program structure
//===----------------------------------------------------------------------===//

def Tile_ProgramOp : Tile_Op<"program", [
    IsolatedFromAbove, Symbol, SingleBlock,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>]> {
  let summary = "a tile program: its tensors and its root statement";
  let description = [{
    Holds one tile program. The block arguments are the tensors the program
    declares (inputs, outputs, inout tensors and intermediates); their names
    are kept for diagnostics and reports. The body is a DAG of pure ops and
    ends with `tile.yield` of the root statement. Loads and stores may only
    name the program's own tensors.

    The verifier checks the whole program: every loop variable is used
    only inside a loop that binds it and is never rebound by a nested loop;
    all loops binding one variable agree on its range and step; loads and
    stores index exactly the region their tile covers, within the tensor's
    bounds; and symbolic tile extents name tile sizes of the program.

    Example:

    ```mlir
    tile.program @add(%A: !tile.tensor<64xf32, input>,
                      %B: !tile.tensor<64xf32, output>) {
      %i = tile.var "i"
      %ti = tile.size "tile_i"
      %t = tile.tile %i
      %a = tile.load %A[%t] : !tile.tensor<64xf32, input> -> !tile.tile<[tile_i], f32>
      %e = tile.exp %a : !tile.tile<[tile_i], f32>
      %s = tile.store %e, %B[%t] : !tile.tile<[tile_i], f32>, !tile.tensor<64xf32, output>
      %l = tile.loop %i = 0 to 64 step %ti body %s
      tile.yield %l
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, StrArrayAttr:$tensor_names);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let builders = [
    OpBuilder<(ins "::llvm::StringRef":$name,
                   "::llvm::ArrayRef<::llvm::StringRef>":$tensorNames,
                   "::llvm::ArrayRef<::mlir::tileir::TensorRefType>":$tensorTypes)>
  ];
  let extraClassDeclaration = [{
    /// The yield that ends the body, or null while the body is incomplete.
    YieldOp getYield();
    /// The root statement, or null while the body is incomplete.
    ::mlir::Value getRoot();
    /// The declared name of a tensor argument.
    ::llvm::StringRef getTensorName(unsigned index) {
      return ::llvm::cast<::mlir::StringAttr>(getTensorNames()[index]).getValue();
    }
    /// The declared name of `tensor`, a block argument of this program.
    ::llvm::StringRef getTensorName(::mlir::Value tensor);
    ::mlir::Block &getBodyBlock() { return getBody().front(); }
  }];
}

def Tile_YieldOp : Tile_Op<"yield", [Pure, Terminator, HasParent<"ProgramOp">]> {
  let summary = "yields the root statement of a program";
  let description = [{
    Names the statement the enclosing `tile.program` executes. It must be
    the last op of the program body.

    Example: `tile.yield %root`
  }];
  let arguments = (ins Tile_StmtType:$root);
  let assemblyFormat = "$root attr-dict";
}

//===----------------------------------------------------------------------===//
// Loop variables, tile sizes and index expressions
//===----------------------------------------------------------------------===//

def Tile_VarOp : Tile_Op<"var", [Pure, HasParent<"ProgramOp">,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "declares a loop variable";
  let description = [{
    Declares a named loop variable. A `tile.loop` binds it; index
    expressions (`tile.tile`, `tile.elem`) use it inside that loop. Names
    are unique within a program.

    Example: `%n = tile.var "n"`
  }];
  let arguments = (ins StrAttr:$name);
  let results = (outs Tile_VarType:$result);
  let assemblyFormat = "$name attr-dict";
  let hasVerifier = 1;
}

def Tile_SizeOp : Tile_Op<"size", [Pure,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "a loop step: a concrete integer or a symbolic tile size";
  let description = [{
    A tile size used as a loop step. `tile.size 128` is concrete;
    `tile.size "tile_k"` is a symbolic tile size, chosen when the program is
    lowered (by an option, an attribute or autotuning). Symbolic extents in
    tile types (`!tile.tile<[16, tile_k], f16>`) refer to these names.

    Example: `%tk = tile.size "tile_k"`, `%c128 = tile.size 128`
  }];
  let arguments = (ins AnyAttrOf<[I64Attr, StrAttr]>:$value);
  let results = (outs Tile_SizeType:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let builders = [
    OpBuilder<(ins "int64_t":$value)>,
    OpBuilder<(ins "::llvm::StringRef":$symbol)>
  ];
  let extraClassDeclaration = [{
    /// The size as a tile extent (concrete or symbolic).
    ::mlir::tileir::TileDim getDim();
  }];
}

class Tile_IndexOp<string mnemonic, list<Trait> traits = []>
    : Tile_Op<mnemonic, !listconcat([Pure], traits)> {
  let results = (outs Tile_IndexType:$result);
}

def Tile_FullIndexOp : Tile_IndexOp<"full"> {
  let summary = "the whole extent of a dimension";
  let description = [{
    Indexes the full extent `[:]` of the dimension it stands for.

    Example: `%f = tile.full`
  }];
  let assemblyFormat = "attr-dict";
}

def Tile_TileIndexOp : Tile_IndexOp<"tile"> {
  let summary = "the tile of a dimension selected by a loop variable";
  let description = [{
    Indexes `[v, v + s)` where `v` is the loop variable and `s` the step of
    the loop that binds it. The indexed extent is `s`.

    Example: `%tk = tile.tile %k`
  }];
  let arguments = (ins Tile_VarType:$var);
  let assemblyFormat = "$var attr-dict";
}

def Tile_ElemIndexOp : Tile_IndexOp<"elem"> {
  let summary = "one element of a dimension selected by a loop variable";
  let description = [{
    Indexes the single element `v / s` where `v` is the loop variable and
    `s` the step of the loop that binds it; the dimension is kept with
    extent 1. With `v` stepping by 128 over `[0, 4096)`, `tile.elem`
    selects heads `0..31`.

    Example: `%eh = tile.elem %h`
  }];
  let arguments = (ins Tile_VarType:$var);
  let assemblyFormat = "$var attr-dict";
}

def Tile_ConstTileIndexOp : Tile_IndexOp<"const_tile"> {
  let summary = "a fixed slice of a dimension";
  let description = [{
    Indexes `[base, base + size)`, independent of any loop variable (the
    KV-cache update writes `[1008, 1024)`).

    Example: `%c = tile.const_tile 1008, 16`
  }];
  let arguments = (ins I64Attr:$base, I64Attr:$size);
  let assemblyFormat = "$base `,` $size attr-dict";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    int64_t getBaseIndex() { return getBaseAttr().getInt(); }
    int64_t getSizeIndex() { return getSizeAttr().getInt(); }
  }];
}

//===----------------------------------------------------------------------===//
// Memory access
//===----------------------------------------------------------------------===//

def Tile_LoadOp : Tile_Op<"load", [Pure]> {
  let summary = "loads a tile of a tensor";
  let description = [{
    Reads the region of `tensor` selected by one index expression per
    dimension. The result keeps the tensor's rank; its extents are the
    indexed extents (`tile.elem` gives 1) and its element type is the
    tensor's.

    Example:

    ```mlir
    %x = tile.load %X[%full, %tk] : !tile.tensor<16x4096xf16, input> -> !tile.tile<[16, tile_k], f16>
    ```
  }];
  let arguments = (ins Tile_TensorRefType:$tensor,
                       Variadic<Tile_IndexType>:$indices);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = [{
    $tensor `[` $indices `]` attr-dict `:` qualified(type($tensor)) `->`
    qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Tile_StoreOp : Tile_Op<"store", [Pure]> {
  let summary = "stores a tile into a tensor";
  let description = [{
    A statement that writes `value` to the region of `tensor` selected by
    one index expression per dimension. The tile's shape must equal the
    indexed region and its element type the tensor's; `input` tensors
    cannot be written (declare them `inout`).

    Example:

    ```mlir
    %s = tile.store %v, %O[%full, %tn] : !tile.tile<[16, tile_n], f16>, !tile.tensor<16x4096xf16, output>
    ```
  }];
  let arguments = (ins Tile_AnyTile:$value, Tile_TensorRefType:$tensor,
                       Variadic<Tile_IndexType>:$indices);
  let results = (outs Tile_StmtType:$result);
  let assemblyFormat = [{
    $value `,` $tensor `[` $indices `]` attr-dict `:` qualified(type($value))
    `,` qualified(type($tensor))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

def Tile_SeqOp : Tile_Op<"seq", [Pure]> {
  let summary = "runs two statements in order";
  let description = [{
    Executes `first`, then `second`. Rewriting keeps sequences
    right-nested (`seq a (seq b c)`).

    Example: `%s = tile.seq %a, %b`
  }];
  let arguments = (ins Tile_StmtType:$first, Tile_StmtType:$second);
  let results = (outs Tile_StmtType:$result);
  let assemblyFormat = "$first `,` $second attr-dict";
}

def Tile_NopOp : Tile_Op<"nop", [Pure]> {
  let summary = "a statement that does nothing";
  let description = [{
    The empty statement (`dummy` in the Trinity paper), left behind when
    rewriting moves a statement out of a loop body.

    Example: `%d = tile.nop`
  }];
  let results = (outs Tile_StmtType:$result);
  let assemblyFormat = "attr-dict";
}

def Tile_LoopOp : Tile_Op<"loop", [Pure]> {
  let summary = "iterates a statement over a range of a loop variable";
  let description = [{
    Executes `body` with `var` taking the values `start`, `start + step`,
    ... below `end`. The step is a `tile.size`: a concrete step must divide
    `end - start`; a symbolic one is assumed to. All loops that bind one
    variable agree on its range and step, and no loop rebinds a variable of
    an enclosing loop. Whether iterations may run in parallel is decided by
    analysis, not declared.

    Example: `%l = tile.loop %k = 0 to 4096 step %tk body %s`
  }];
  let arguments = (ins Tile_VarType:$var, I64Attr:$start, I64Attr:$end,
                       Tile_SizeType:$step, Tile_StmtType:$body);
  let results = (outs Tile_StmtType:$result);
  let assemblyFormat = [{
    $var `=` $start `to` $end `step` $step `body` $body attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The variable this loop binds.
    VarOp getVarOp();
    int64_t getStartIndex() { return getStartAttr().getInt(); }
    int64_t getEndIndex() { return getEndAttr().getInt(); }
    /// The step as a tile extent, or std::nullopt if it is not a tile.size.
    std::optional<::mlir::tileir::TileDim> getStepDim();
  }];
}

//===----------------------------------------------------------------------===//
// Elementwise compute
//===----------------------------------------------------------------------===//

class Tile_BinaryOp<string mnemonic, list<Trait> traits = []>
    : Tile_Op<mnemonic, !listconcat([Pure, SameOperandsAndResultType], traits)> {
  let arguments = (ins Tile_FloatTile:$lhs, Tile_FloatTile:$rhs);
  let results = (outs Tile_FloatTile:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` qualified(type($result))";
  let description = [{
    Elementwise on two tiles of the same shape and element type; shapes are
    never broadcast implicitly (use `tile.bcast`).

    Example: `%c = tile.}] # mnemonic # [{ %a, %b : !tile.tile<[16, tile_n], f32>`
  }];
}

def Tile_AddOp : Tile_BinaryOp<"add", [Commutative]> { let summary = "elementwise addition"; }
def Tile_SubOp : Tile_BinaryOp<"sub"> { let summary = "elementwise subtraction"; }
def Tile_MulOp : Tile_BinaryOp<"mul", [Commutative]> { let summary = "elementwise multiplication"; }
def Tile_DivOp : Tile_BinaryOp<"div"> { let summary = "elementwise division"; }
def Tile_MaxOp : Tile_BinaryOp<"max", [Commutative]> {
  let summary = "elementwise maximum (IEEE maxNum: a NaN operand yields the other)";
}
def Tile_MinOp : Tile_BinaryOp<"min", [Commutative]> {
  let summary = "elementwise minimum (IEEE minNum: a NaN operand yields the other)";
}

class Tile_UnaryOp<string mnemonic, string formula>
    : Tile_Op<mnemonic, [Pure, SameOperandsAndResultType]> {
  let arguments = (ins Tile_FloatTile:$operand);
  let results = (outs Tile_FloatTile:$result);
  let assemblyFormat = "$operand attr-dict `:` qualified(type($result))";
  let summary = "elementwise " # formula;
  let description = [{
    Computes }] # formula # [{ for every element of a float tile.

    Example: `%y = tile.}] # mnemonic # [{ %x : !tile.tile<[16, tile_p], f32>`
  }];
}

def Tile_NegOp : Tile_UnaryOp<"neg", "`-x`">;
def Tile_AbsOp : Tile_UnaryOp<"abs", "`|x|`">;
def Tile_SqrOp : Tile_UnaryOp<"sqr", "`x * x`">;
def Tile_ExpOp : Tile_UnaryOp<"exp", "`e^x`">;
def Tile_LogOp : Tile_UnaryOp<"log", "the natural logarithm `ln(x)`">;
def Tile_SqrtOp : Tile_UnaryOp<"sqrt", "the square root">;
def Tile_RsqrtOp : Tile_UnaryOp<"rsqrt", "the reciprocal square root `1 / sqrt(x)`">;
def Tile_SigmoidOp : Tile_UnaryOp<"sigmoid", "the logistic function `1 / (1 + e^-x)`">;
def Tile_TanhOp : Tile_UnaryOp<"tanh", "the hyperbolic tangent">;
def Tile_ErfOp : Tile_UnaryOp<"erf", "the error function">;
def Tile_SinOp : Tile_UnaryOp<"sin", "the sine (radians)">;
def Tile_CosOp : Tile_UnaryOp<"cos", "the cosine (radians)">;

def Tile_CmpPredicate : I32EnumAttr<"CmpPredicate", "tile comparison predicate", [
    I32EnumAttrCase<"eq", 0>, I32EnumAttrCase<"ne", 1>,
    I32EnumAttrCase<"lt", 2>, I32EnumAttrCase<"le", 3>,
    I32EnumAttrCase<"gt", 4>, I32EnumAttrCase<"ge", 5>
  ]> {
  let cppNamespace = "::mlir::tileir";
}

def Tile_CmpOp : Tile_Op<"cmp", [Pure, AllTypesMatch<["lhs", "rhs"]>]> {
  let summary = "elementwise comparison";
  let description = [{
    Compares two float tiles of one type elementwise (ordered comparisons:
    a NaN operand gives false, except for `ne`) and yields a tile of `i1`
    of the same shape, for masks and `tile.select`.

    Example: `%m = tile.cmp lt, %a, %b : !tile.tile<[16], f32> -> !tile.tile<[16], i1>`
  }];
  let arguments = (ins Tile_CmpPredicate:$predicate, Tile_FloatTile:$lhs,
                       Tile_FloatTile:$rhs);
  let results = (outs Tile_BoolTile:$result);
  let assemblyFormat = [{
    $predicate `,` $lhs `,` $rhs attr-dict `:` qualified(type($lhs)) `->`
    qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Tile_SelectOp : Tile_Op<"select", [Pure,
    AllTypesMatch<["trueValue", "falseValue", "result"]>]> {
  let summary = "elementwise choice between two tiles";
  let description = [{
    Yields `trueValue` where `condition` holds and `falseValue` elsewhere;
    the condition is a tile of `i1` with the same shape.

    Example: `%r = tile.select %m, %a, %b : !tile.tile<[16], i1>, !tile.tile<[16], f32>`
  }];
  let arguments = (ins Tile_BoolTile:$condition, Tile_AnyTile:$trueValue,
                       Tile_AnyTile:$falseValue);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = [{
    $condition `,` $trueValue `,` $falseValue attr-dict `:`
    qualified(type($condition)) `,` qualified(type($result))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Reductions and contractions
//===----------------------------------------------------------------------===//

class Tile_ReduceOp<string mnemonic, string what>
    : Tile_Op<mnemonic, [Pure]> {
  let summary = "reduces a tile along one axis by " # what;
  let description = [{
    Reduces `operand` along `axis` by }] # what # [{; the axis is removed
    from the result shape.

    Example: `%s = tile.}] # mnemonic # [{ %e, 2 : !tile.tile<[1, 16, tile_p], f32> -> !tile.tile<[1, 16], f32>`
  }];
  let arguments = (ins Tile_FloatTile:$operand, I64Attr:$axis);
  let results = (outs Tile_FloatTile:$result);
  let assemblyFormat = [{
    $operand `,` $axis attr-dict `:` qualified(type($operand)) `->`
    qualified(type($result))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    int64_t axis() { return getAxisAttr().getInt(); }
  }];
}

def Tile_RSumOp : Tile_ReduceOp<"rsum", "summation">;
def Tile_RMaxOp : Tile_ReduceOp<"rmax", "maximum (IEEE maxNum: NaN elements are skipped)">;
def Tile_RMinOp : Tile_ReduceOp<"rmin", "minimum (IEEE minNum: NaN elements are skipped)">;

def Tile_MatmulOp : Tile_Op<"matmul", [Pure]> {
  let summary = "batched matrix multiplication";
  let description = [{
    Multiplies `[..., m, k]` by `[..., k, n]` into `[..., m, n]`; leading
    batch extents must agree. Operands share an element type; the result
    may use a wider one (fp16 operands, fp32 accumulation).

    Example:

    ```mlir
    %c = tile.matmul %q, %kt : !tile.tile<[1, 16, 128], f16>, !tile.tile<[1, 128, tile_p], f16> -> !tile.tile<[1, 16, tile_p], f32>
    ```
  }];
  let arguments = (ins Tile_FloatTile:$lhs, Tile_FloatTile:$rhs);
  let results = (outs Tile_FloatTile:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` qualified(type($lhs)) `,` qualified(type($rhs))
    `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Layout
//===----------------------------------------------------------------------===//

class Tile_LayoutOp<string mnemonic, list<Trait> traits = []>
    : Tile_Op<mnemonic, !listconcat([Pure], traits)> {
  let results = (outs Tile_AnyTile:$result);
  let hasVerifier = 1;
}

def Tile_PermuteOp : Tile_LayoutOp<"permute"> {
  let summary = "permutes the dimensions of a tile";
  let description = [{
    Result dimension `i` is operand dimension `permutation[i]`.

    Example: `%y = tile.permute %x [1, 0, 2] : !tile.tile<[16, 1, 128], f16> -> !tile.tile<[1, 16, 128], f16>`
  }];
  let arguments = (ins Tile_AnyTile:$operand, DenseI64ArrayAttr:$permutation);
  let assemblyFormat = [{
    $operand $permutation attr-dict `:` qualified(type($operand)) `->`
    qualified(type($result))
  }];
}

def Tile_TransposeOp : Tile_LayoutOp<"transpose"> {
  let summary = "swaps two dimensions of a tile";
  let description = [{
    A `tile.permute` that exchanges dimensions `dim0` and `dim1`.

    Example: `%kt = tile.transpose %k, 1, 2 : !tile.tile<[1, tile_p, 128], f16> -> !tile.tile<[1, 128, tile_p], f16>`
  }];
  let arguments = (ins Tile_AnyTile:$operand, I64Attr:$dim0, I64Attr:$dim1);
  let assemblyFormat = [{
    $operand `,` $dim0 `,` $dim1 attr-dict `:` qualified(type($operand)) `->`
    qualified(type($result))
  }];
  let extraClassDeclaration = [{
    int64_t dim0() { return getDim0Attr().getInt(); }
    int64_t dim1() { return getDim1Attr().getInt(); }
  }];
}

def Tile_BcastOp : Tile_LayoutOp<"bcast"> {
  let summary = "broadcasts a tile along new dimensions";
  let description = [{
    Inserts the dimensions listed in `dims` (positions in the result) and
    repeats the operand along them; their extents come from the result
    type. `tile.bcast %s [2]` is NumPy's `s[:, :, None]` expanded to the
    shape of the other operand.

    Example: `%b = tile.bcast %s [2] : !tile.tile<[1, 16], f32> -> !tile.tile<[1, 16, 128], f32>`
  }];
  let arguments = (ins Tile_AnyTile:$operand, DenseI64ArrayAttr:$dims);
  let assemblyFormat = [{
    $operand $dims attr-dict `:` qualified(type($operand)) `->`
    qualified(type($result))
  }];
}

def Tile_SqueezeOp : Tile_LayoutOp<"squeeze"> {
  let summary = "removes a dimension of extent 1";
  let description = [{
    Drops dimension `axis`, whose extent must be 1.

    Example: `%y = tile.squeeze %x, 1 : !tile.tile<[16, 1, 128], f32> -> !tile.tile<[16, 128], f32>`
  }];
  let arguments = (ins Tile_AnyTile:$operand, I64Attr:$axis);
  let assemblyFormat = [{
    $operand `,` $axis attr-dict `:` qualified(type($operand)) `->`
    qualified(type($result))
  }];
  let extraClassDeclaration = [{
    int64_t axis() { return getAxisAttr().getInt(); }
  }];
}

def Tile_UnsqueezeOp : Tile_LayoutOp<"unsqueeze"> {
  let summary = "inserts a dimension of extent 1";
  let description = [{
    Inserts a dimension of extent 1 at position `axis` of the result.

    Example: `%y = tile.unsqueeze %x, 1 : !tile.tile<[16, 128], f32> -> !tile.tile<[16, 1, 128], f32>`
  }];
  let arguments = (ins Tile_AnyTile:$operand, I64Attr:$axis);
  let assemblyFormat = [{
    $operand `,` $axis attr-dict `:` qualified(type($operand)) `->`
    qualified(type($result))
  }];
  let extraClassDeclaration = [{
    int64_t axis() { return getAxisAttr().getInt(); }
  }];
}

def Tile_ReshapeOp : Tile_LayoutOp<"reshape"> {
  let summary = "reinterprets a tile in another shape, row-major";
  let description = [{
    Keeps the elements in row-major order under a new shape with the same
    element count (symbolic extents must match as factors).

    Example: `%y = tile.reshape %x : !tile.tile<[16, 4, 32], f32> -> !tile.tile<[16, 128], f32>`
  }];
  let arguments = (ins Tile_AnyTile:$operand);
  let assemblyFormat = [{
    $operand attr-dict `:` qualified(type($operand)) `->` qualified(type($result))
  }];
}

def Tile_ConcatOp : Tile_LayoutOp<"concat"> {
  let summary = "concatenates tiles along an axis";
  let description = [{
    Joins two or more tiles of one rank and element type along `axis`; the
    other extents must agree.

    Example: `%c = tile.concat %a, %b axis 1 : !tile.tile<[16, tile_n], f32>, !tile.tile<[16, tile_n], f32> -> !tile.tile<[16, 2*tile_n], f32>`
  }];
  let arguments = (ins Variadic<Tile_AnyTile>:$inputs, I64Attr:$axis);
  let assemblyFormat = [{
    $inputs `axis` $axis attr-dict `:` qualified(type($inputs)) `->`
    qualified(type($result))
  }];
  let extraClassDeclaration = [{
    int64_t axis() { return getAxisAttr().getInt(); }
  }];
}

def Tile_CastOp : Tile_LayoutOp<"cast"> {
  let summary = "converts the element type of a tile";
  let description = [{
    Converts each element to another float type (rounding to nearest even)
    or from `i1` (false is 0, true is 1); the shape is unchanged.

    Example: `%y = tile.cast %x : !tile.tile<[16, tile_n], f32> -> !tile.tile<[16, tile_n], f16>`
  }];
  let arguments = (ins Tile_AnyTile:$operand);
  let assemblyFormat = [{
    $operand attr-dict `:` qualified(type($operand)) `->` qualified(type($result))
  }];
}

def Tile_ConstantOp : Tile_Op<"constant", [Pure, ConstantLike]> {
  let summary = "a constant tile: a splat scalar or dense values";
  let description = [{
    A tile whose elements are all `value` (a float, any shape, symbolic
    extents allowed) or, with `dense<...>`, the given nested list of values
    (concrete shapes only). Values that have no decimal spelling print as
    `inf`, `-inf` and `nan`.

    Example:

    ```mlir
    %one = tile.constant 1.0 : !tile.tile<[1, 16], f32>
    %w = tile.constant dense<[[1.0, 2.0]]> : !tile.tile<[1, 2], f32>
    ```
  }];
  let arguments = (ins AnyAttr:$value);
  let results = (outs Tile_FloatTile:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Whether every element has the same value.
    bool isSplat() { return ::llvm::isa<::mlir::FloatAttr>(getValue()); }
  }];
}

#endif // TILE_OPS_TD
