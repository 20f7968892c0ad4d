//===- TileBase.td - Tile dialect definition ---------------*- tablegen -*-===//

#ifndef TILE_BASE_TD
#define TILE_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let cppNamespace = "::mlir::tileir";
  let summary = "A tile-level term IR for equality saturation over GPU kernels";
  let description = [{
    The `tile` dialect is a term IR in the style of the Trinity paper: a whole
    tile program is a DAG of SSA values. Statements (`tile.store`, `tile.seq`,
    `tile.loop`, `tile.nop`) are values of type `!tile.stmt`; tile values,
    per-dimension index expressions, loop variables and tile sizes are values
    too. Because every construct is an operand of its parent, PDL patterns can
    match loops and sequences, and converting a program to an e-graph and
    back is one-to-one.

    Semantics: the program denotes the tree obtained by unfolding the DAG
    from the root statement yielded by `tile.program`. SSA sharing is purely
    structural (hash-consing); a shared `tile.load` is evaluated at each of
    its uses, in the context of that use. Output and intermediate tensors
    start as zeros; input and inout tensors start with the caller's data;
    element n of a positions tensor holds n.
    A loop variable `v` stepping by `s` denotes the tile `[v, v + s)` through
    `tile.tile` and the element `v / s` through `tile.elem`.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
}

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, traits>;

#endif // TILE_BASE_TD
