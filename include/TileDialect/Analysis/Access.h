//===- Access.h - Memory accesses of tile statements ------------*- C++ -*-===//
//
// What a load or store touches, per tensor dimension, as a function of loop
// variables: the vocabulary shared by the e-class analysis (which summarizes
// every access of a statement) and the dependence analysis (which decides
// whether two accesses can touch the same element).
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_ANALYSIS_ACCESS_H
#define TILEDIALECT_ANALYSIS_ACCESS_H

#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <tuple>

namespace mlir::tileir {

/// What one index expression selects in one dimension.
struct IndexTerm {
  enum Kind : uint8_t { Full, Tile, Elem, Const };
  Kind kind = Full;
  uint32_t var = ~0u; ///< loop variable id for Tile and Elem
  int64_t base = 0, size = 0; ///< for Const

  /// Whether the index moves with loop variable `v` (a tile or an element
  /// of its iteration).
  bool usesVar(uint32_t v) const {
    return (kind == Tile || kind == Elem) && var == v;
  }
  bool operator==(const IndexTerm &o) const {
    return kind == o.kind && var == o.var && base == o.base && size == o.size;
  }
  bool operator<(const IndexTerm &o) const {
    return std::tie(kind, var, base, size) <
           std::tie(o.kind, o.var, o.base, o.size);
  }
};

/// One read or write of a tensor region.
struct Access {
  uint32_t tensor = 0; ///< tensor id (TileEGraph::tensorId)
  bool write = false;
  llvm::SmallVector<IndexTerm, 4> dims;

  bool operator==(const Access &o) const {
    return tensor == o.tensor && write == o.write && dims == o.dims;
  }
  bool operator<(const Access &o) const {
    if (tensor != o.tensor)
      return tensor < o.tensor;
    if (write != o.write)
      return write < o.write;
    return std::lexicographical_compare(dims.begin(), dims.end(),
                                        o.dims.begin(), o.dims.end());
  }
};

} // namespace mlir::tileir

#endif // TILEDIALECT_ANALYSIS_ACCESS_H
