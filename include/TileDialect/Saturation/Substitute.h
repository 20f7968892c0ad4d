//===- Substitute.h - Copy a sub-e-graph with replacements ------*- C++ -*-===//
//
// Builds the e-class of a term with some of its subterms replaced: classes
// mapped to other classes (expression propagation), a loop variable renamed
// (iteration-space reindexing) or replaced by the one tile of a loop that
// runs once (whole loops), a symbolic tile size specialized to a concrete
// one. Every node of every reached class is copied, so the result
// represents all alternatives of the original. Renaming and whole-loop
// replacement touch free occurrences only: a loop binding the replaced
// variable keeps its body's (a class can hold it beside members that name
// the variable freely), and a loop binding the new name is not copied (the
// renaming would be captured).
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_SATURATION_SUBSTITUTE_H
#define TILEDIALECT_SATURATION_SUBSTITUTE_H

#include "TileDialect/Saturation/TileEGraph.h"

namespace mlir::tileir {

struct Substitution {
  /// Classes replaced by other classes.
  llvm::DenseMap<egraph::Id, egraph::Id> classes;
  /// `tile.tile %from` / `tile.elem %from` become `%to`'s.
  uint32_t fromVar = ~0u, toVar = ~0u;
  /// `tile.tile %from` becomes `tile.elem %to` instead: %from steps by one
  /// (after `sizeSymbol` is specialized), so its tile is the one element
  /// of the iteration, which `tile.elem %to` selects whatever %to's step.
  bool tileToElem = false;
  /// `tile.tile %wholeVar` becomes the slice [0, wholeExtent): `tile.full`
  /// in a dimension of that extent, `tile.const_tile 0, wholeExtent`
  /// elsewhere. A `tile.elem %wholeVar` fails the node using it.
  uint32_t wholeVar = ~0u;
  int64_t wholeExtent = 0;
  /// Every extent `c*sym` becomes `c*value`.
  StringAttr sizeSymbol;
  int64_t sizeValue = 0;
};

/// The class of `root` with `subst` applied. Fails if a `tile.size` of the
/// specialized symbol is reached (a loop inside would change its step).
FailureOr<egraph::Id> substitute(TileEGraph &tg, egraph::Id root,
                                 const Substitution &subst);

/// `type` with `sym` specialized to `value` (tile types only).
Type specializeType(Type type, StringAttr sym, int64_t value);

} // namespace mlir::tileir

#endif // TILEDIALECT_SATURATION_SUBSTITUTE_H
