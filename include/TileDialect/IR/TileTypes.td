//===- TileTypes.td - Tile dialect types -------------------*- tablegen -*-===//

#ifndef TILE_TYPES_TD
#define TILE_TYPES_TD

include "TileDialect/IR/TileBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

def Tile_TensorRole : I32EnumAttr<"TensorRole", "role of a tensor in a program", [
    I32EnumAttrCase<"Input", 0, "input">,
    I32EnumAttrCase<"Output", 1, "output">,
    I32EnumAttrCase<"InOut", 2, "inout">,
    I32EnumAttrCase<"Intermediate", 3, "intermediate">,
    I32EnumAttrCase<"Positions", 4, "positions">
  ]> {
  let cppNamespace = "::mlir::tileir";
  let genSpecializedAttr = 0;
}

class Tile_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Tile_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Tile_StmtType : Tile_Type<"Stmt", "stmt"> {
  let summary = "a statement";
  let description = [{
    The type of statements: `tile.store`, `tile.seq`, `tile.loop` and
    `tile.nop` produce it, and `tile.program` yields its root statement.
  }];
}

def Tile_IndexType : Tile_Type<"IndexExpr", "index"> {
  let summary = "a per-dimension index expression";
  let description = [{
    The type of the per-dimension index expressions `tile.full`,
    `tile.tile`, `tile.elem` and `tile.const_tile` that `tile.load` and
    `tile.store` take, one per tensor dimension.
  }];
}

def Tile_VarType : Tile_Type<"Var", "var"> {
  let summary = "a loop variable";
  let description = [{
    The type of loop variables, made by `tile.var` and bound by `tile.loop`.
  }];
}

def Tile_SizeType : Tile_Type<"Size", "size"> {
  let summary = "a tile size: a concrete integer or a named symbol";
  let description = [{
    The type of loop steps, made by `tile.size`: either a concrete integer
    (`tile.size 128`) or a symbolic tile size (`tile.size "tile_k"`) that
    is bound to a number only when the program is lowered.
  }];
}

def Tile_TensorRefType : Tile_Type<"TensorRef", "tensor"> {
  let summary = "a reference to a tensor in memory";
  let description = [{
    A tensor the program reads or writes, with its static shape, element
    type and role: `input` (read only), `output` (written, starts as
    zeros), `inout` (read and written in place, such as a KV cache) or
    `intermediate` (a temporary that may live on chip or off chip) or
    `positions` (read only, one dimension, f32: element `n` holds `n`; what
    `linalg.index` becomes, so that a position is a load whose index names
    the loop variable, like any other read). The element type is a float
    type, or i1 (a boolean mask: one byte an element in memory, loaded as
    an i1 tile).

    Example: `!tile.tensor<16x4096xf16, input>`.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "::mlir::Type":$elementType,
                        "::mlir::tileir::TensorRole":$role);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getRank() const { return getShape().size(); }
    /// Whether statements may store into this tensor.
    bool isWritable() const {
      return getRole() != TensorRole::Input &&
             getRole() != TensorRole::Positions;
    }
  }];
}

def Tile_TileType : Tile_Type<"Tile", "tile"> {
  let summary = "a tile value: a small tensor with possibly symbolic extents";
  let description = [{
    A value held on chip: a small tensor whose extents are concrete
    integers, symbolic tile sizes (`tile_k`) or multiples of one
    (`2*tile_k`). Rank 0 denotes a scalar.

    Example: `!tile.tile<[16, tile_k], f16>`, `!tile.tile<[], f32>`.
  }];
  let parameters = (ins ArrayRefParameter<"::mlir::tileir::TileDim">:$shape,
                        "::mlir::Type":$elementType);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getRank() const { return getShape().size(); }
    /// The same shape with another element type.
    TileType withElementType(::mlir::Type type) const {
      return TileType::get(getContext(), getShape(), type);
    }
    /// Whether every extent is a concrete integer.
    bool hasStaticShape() const;
  }];
}

def Tile_AnyTile : Type<CPred<"::llvm::isa<::mlir::tileir::TileType>($_self)">,
                        "tile value", "::mlir::tileir::TileType">;
def Tile_FloatTile : Type<And<[Tile_AnyTile.predicate,
    CPred<"::llvm::isa<::mlir::FloatType>("
          "::llvm::cast<::mlir::tileir::TileType>($_self).getElementType())">]>,
    "tile of floats", "::mlir::tileir::TileType">;
def Tile_BoolTile : Type<And<[Tile_AnyTile.predicate,
    CPred<"::llvm::cast<::mlir::tileir::TileType>($_self).getElementType()"
          ".isInteger(1)">]>,
    "tile of i1", "::mlir::tileir::TileType">;

#endif // TILE_TYPES_TD
