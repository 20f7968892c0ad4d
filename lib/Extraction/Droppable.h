//===- Droppable.h - Intermediates an extraction can do without -*- C++ -*-===//
//
// An intermediate tensor that a program never loads is dead: its stores
// change no output and can be left out. In an e-graph, deadness depends on
// the extraction (expression propagation makes a load of P redundant in one
// node of a class while others still load P), so extraction is told which
// tensors to drop: their loads are unavailable and their stores are left
// out (docs/Extraction.md, "Dropped intermediates").
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_LIB_EXTRACTION_DROPPABLE_H
#define TILEDIALECT_LIB_EXTRACTION_DROPPABLE_H

#include "TileDialect/Saturation/TileEGraph.h"

#include "llvm/ADT/DenseSet.h"

namespace mlir::tileir {

/// A greedily maximal set of tensors, none of them in `offChip` (inputs,
/// outputs, inout tensors) or aliased with another tensor, such that the
/// statement class `root` still has a derivation that loads none of them.
/// Tensors are tried in id order; only tensors that some node loads are
/// considered (one nothing loads needs no choice).
llvm::DenseSet<uint32_t>
findDroppableTensors(TileEGraph &tg, egraph::Id root,
                     const llvm::DenseSet<uint32_t> &offChip);

} // namespace mlir::tileir

#endif // TILEDIALECT_LIB_EXTRACTION_DROPPABLE_H
