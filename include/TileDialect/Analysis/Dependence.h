//===- Dependence.h - Exact dependence tests with Z3 ------------*- C++ -*-===//
//
// Decides whether two statements may be reordered: can a write of one and a
// read or write of the other touch the same element, for the iteration pairs
// the reordering changes? Each question is posed to Z3 over integer linear
// arithmetic built from the access summaries (Access.h) and the loops that
// bind their variables: loop bounds, concrete and symbolic steps (a symbolic
// tile size is positive and divides the range of every loop stepping by it),
// `tile` / `elem` / `full` / `const_tile` indices, and tensors that may alias
// (as byte ranges of one row-major buffer). Answers are cached; every solver
// call has a time limit, and "unknown" or a timeout counts as a conflict.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_ANALYSIS_DEPENDENCE_H
#define TILEDIALECT_ANALYSIS_DEPENDENCE_H

#include "TileDialect/Analysis/Access.h"
#include "TileDialect/IR/TileDim.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::tileir {

/// The loop binding a variable: `start to end step step`.
struct LoopInfo {
  std::string name;
  int64_t start = 0, end = 0;
  TileDim step;
};

/// A tensor: its name, shape and element size.
struct TensorInfo {
  std::string name;
  llvm::SmallVector<int64_t, 4> shape;
  unsigned elementBytes = 4;
};

/// One side of a question: a statement's accesses and the loop variables
/// bound inside it (each access ranges over them independently). Variables
/// used but not bound are set by the loops around both statements.
struct StatementAccesses {
  llvm::ArrayRef<Access> accesses;
  llvm::ArrayRef<uint32_t> boundVars;
};

/// Which accesses of a side take part.
enum class AccessFilter { All, Reads, Writes };

/// A question: may an access of `first` and one of `second` (at least one a
/// write) touch the same bytes?
struct DependenceQuery {
  StatementAccesses first, second;
  AccessFilter firstFilter = AccessFilter::All;
  AccessFilter secondFilter = AccessFilter::All;
  /// For loop reorderings: `first` runs at iteration i of loop variable
  /// `firstVar` and `second` at iteration j of `secondVar`, and only pairs
  /// with i > j count (the pairs fusion or fission reorder). Both variables
  /// are free in their side. Without it, free variables take one value.
  struct Order {
    uint32_t firstVar, secondVar;
  };
  std::optional<Order> order;
};

/// A concrete conflict from the solver's model.
struct DependenceWitness {
  Access first, second;
  /// Loop variable values of each side and tile-size values.
  std::vector<std::pair<std::string, int64_t>> firstVars, secondVars, sizes;
  /// An element both touch, as coordinates of `first`'s tensor.
  llvm::SmallVector<int64_t, 4> element;
};

enum class DependenceVerdict { Independent, Conflict, Unknown };

struct DependenceResult {
  DependenceVerdict verdict = DependenceVerdict::Independent;
  /// Set for Conflict; for Unknown, the access pair the solver gave up on
  /// (no values).
  std::optional<DependenceWitness> witness;

  bool independent() const {
    return verdict == DependenceVerdict::Independent;
  }
};

/// Counters of one oracle.
struct DependenceStats {
  uint64_t queries = 0;        ///< check() calls
  uint64_t pairs = 0;          ///< access pairs that needed an answer
  uint64_t trivialPairs = 0;   ///< pairs told apart without the solver
  uint64_t cacheHits = 0;      ///< pairs answered from the cache
  uint64_t solverCalls = 0;    ///< pairs sent to Z3
  uint64_t independent = 0;    ///< queries answered Independent
  uint64_t conflicts = 0;      ///< queries answered Conflict
  uint64_t unknown = 0;        ///< queries answered Unknown (any cause)
  uint64_t timeouts = 0;       ///< solver calls that hit the time limit
  double solverSeconds = 0;    ///< time in Z3
};

class DependenceOracle {
public:
  DependenceOracle();
  ~DependenceOracle();
  DependenceOracle(const DependenceOracle &) = delete;
  DependenceOracle &operator=(const DependenceOracle &) = delete;

  /// Describes the program. Changing a description drops the cache.
  void setTensor(uint32_t id, TensorInfo info);
  void setLoop(uint32_t var, LoopInfo info);
  void addMayAlias(uint32_t a, uint32_t b);
  /// Per solver call, in milliseconds (default 2000).
  void setTimeoutMs(unsigned ms);

  const TensorInfo *getTensor(uint32_t id) const;
  const LoopInfo *getLoop(uint32_t var) const;
  bool mayAlias(uint32_t a, uint32_t b) const;

  /// Answers `q`; a Conflict carries a witness.
  DependenceResult check(const DependenceQuery &q);

  const DependenceStats &getStats() const { return stats; }

  /// `T[tile n, full]`, `write of T[...]` for diagnostics.
  std::string describe(const Access &a) const;
  /// `the previous loop at n = 16 and this loop at n = 0 (tile_k = 32) both
  /// touch T[16, 0]`, naming the sides `first` and `second`.
  std::string describe(const DependenceWitness &w,
                       llvm::StringRef first = "the first",
                       llvm::StringRef second = "the second") const;

private:
  struct Solver;
  std::unique_ptr<Solver> solver;
  std::vector<std::optional<TensorInfo>> tensors;
  std::vector<std::optional<LoopInfo>> loops;
  std::vector<std::pair<uint32_t, uint32_t>> aliases;
  DependenceStats stats;
};

} // namespace mlir::tileir

#endif // TILEDIALECT_ANALYSIS_DEPENDENCE_H
