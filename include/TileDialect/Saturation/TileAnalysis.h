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

#include "TileDialect/Analysis/Access.h"
#include "TileDialect/EGraph/EGraph.h"
#include "TileDialect/IR/TileDim.h"

#include "mlir/IR/Types.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <vector>

namespace mlir::tileir {

class TileEGraph;

/// A class's reads and writes, sorted and unique. Classes with the same
/// accesses share one list (a loop and its body; a class and the members
/// joined into it): a copy is a pointer copy, and a change copies the list
/// first if it is shared.
class AccessSet {
public:
  using List = llvm::SmallVector<Access, 2>;

  const Access *begin() const {
    return list ? list->accesses.begin() : nullptr;
  }
  const Access *end() const { return list ? list->accesses.end() : nullptr; }
  size_t size() const { return list ? list->accesses.size() : 0; }
  bool empty() const { return size() == 0; }
  const Access &operator[](size_t i) const { return list->accesses[i]; }
  operator llvm::ArrayRef<Access>() const { return {begin(), end()}; }

  /// Adds `other`'s accesses; returns true if any was new.
  bool unite(const AccessSet &other);
  /// Adds one access.
  void insert(const Access &access);
  /// The list, to change in place (the caller keeps it sorted and unique
  /// where that matters).
  List &mutate();

private:
  struct Shared : llvm::RefCountedBase<Shared> {
    List accesses;
  };
  llvm::IntrusiveRefCntPtr<Shared> list;
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
  AccessSet accesses;
  /// Loop variables used and not bound inside, and bound inside; sorted.
  /// A loop binds its variable here only when its body mentions it: `loop
  /// m S` with S free of m (loop-invariant code motion makes it S's equal)
  /// binds nothing that S's uses could be confused with, and counting it
  /// would make S's class refuse to move into another loop over m.
  llvm::SmallVector<uint32_t, 4> freeVars, boundVars;
  bool hasSeqNode = false, hasNonSeqNode = false;
  /// Some member contains a loop (bound variables or not): the class is not
  /// straight-line code for the insertion rules and forwarding.
  bool hasLoop = false;
  /// Some member, or something it computes from, is a `tile.matmul`.
  bool hasMatmul = false;

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

  /// The class data's size: mostly the access summaries, which a sequence
  /// class holds for every statement it covers.
  size_t memoryBytes() const override;

private:
  ClassData compute(const egraph::ENode &node) const;
  bool join(ClassData &into, const ClassData &from) const;

  TileEGraph &tg;
  std::vector<ClassData> data; // indexed by id
  /// Accesses held by all classes (kept up to date by make, merge, remake).
  size_t storedAccesses = 0;
};

} // namespace mlir::tileir

#endif // TILEDIALECT_SATURATION_TILEANALYSIS_H
