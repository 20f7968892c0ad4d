//===- TileAnalysis.h - E-class analysis for tile programs ------*- C++ -*-===//
//
// Per-class facts the rules' guards read: the result type, what an index
// expression selects, the tensor a leaf stands for, the memory accesses of a
// statement or value (each index as a function of loop variables), the loop
// variables used free and bound inside, and splat constants. Data joins by
// union, so a class's summary covers every program it represents.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_SATURATION_TILEANALYSIS_H
#define TILEDIALECT_SATURATION_TILEANALYSIS_H

#include "TileDialect/EGraph/EGraph.h"
#include "TileDialect/IR/TileDim.h"

#include "mlir/IR/Types.h"

#include <optional>
#include <vector>

namespace mlir::tileir {

class TileEGraph;

/// What one index expression selects in one dimension.
struct IndexTerm {
  enum Kind : uint8_t { Full, Tile, Elem, Const };
  Kind kind = Full;
  uint32_t var = ~0u; ///< loop variable id for Tile and Elem
  int64_t base = 0, size = 0; ///< for Const

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

/// The analysis data of one e-class.
struct ClassData {
  Type type;
  std::optional<IndexTerm> index; ///< index classes
  uint32_t var = ~0u;             ///< `tile.var` classes
  std::optional<TileDim> size;    ///< `tile.size` classes
  uint32_t tensor = ~0u;          ///< tensor leaves
  std::optional<double> splat;    ///< splat `tile.constant`s
  /// Reads and writes, sorted and unique.
  llvm::SmallVector<Access, 2> accesses;
  /// Loop variables used and not bound inside, and bound inside; sorted.
  llvm::SmallVector<uint32_t, 4> freeVars, boundVars;
  bool hasSeqNode = false, hasNonSeqNode = false;

  bool usesVar(uint32_t v) const;
  bool bindsVar(uint32_t v) const;
};

/// The e-class analysis. Owned by a TileEGraph.
class TileAnalysis : public egraph::Analysis {
public:
  explicit TileAnalysis(TileEGraph &tg) : tg(tg) {}
  void make(egraph::Id id, const egraph::ENode &node) override;
  bool merge(egraph::Id into, egraph::Id from) override;
  bool remake(egraph::Id id, const egraph::ENode &node) override;

  /// Data of a class (any id; canonicalized).
  const ClassData &get(egraph::Id id) const;

private:
  ClassData compute(const egraph::ENode &node) const;
  bool join(ClassData &into, const ClassData &from) const;

  TileEGraph &tg;
  std::vector<ClassData> data; // indexed by id
};

/// Whether some access of `a` and some access of `b` to the same tensor, one
/// of them a write, may touch the same element. Loop variables free in either
/// take the same value on both sides, except `differentIter`, which is
/// assumed to differ (two iterations of a loop binding it); variables bound
/// inside either side range freely.
bool mayConflict(const ClassData &a, const ClassData &b,
                 std::optional<uint32_t> differentIter = std::nullopt);

/// `d` with only its writes (`writes`) or only its reads. With `asWrites`
/// the kept accesses are marked as writes, so that any overlap with another
/// side's accesses counts in `mayConflict`.
ClassData onlyAccesses(const ClassData &d, bool writes, bool asWrites = false);

/// Whether running statement `s` twice leaves the state of running it once:
/// nothing it writes may be read or read-modify-written by it.
bool isIdempotent(const ClassData &s);

} // namespace mlir::tileir

#endif // TILEDIALECT_SATURATION_TILEANALYSIS_H
