//===- SolverProblem.h - One access-pair question, solver-neutral -*- C++ -*-===//
//
// The plain-data form of "can these two accesses touch the same bytes?" that
// Dependence.cpp builds and Z3Solver.cpp answers. It keeps the Z3-facing
// translation unit (built with exceptions and RTTI) free of MLIR headers.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_LIB_ANALYSIS_SOLVERPROBLEM_H
#define TILEDIALECT_LIB_ANALYSIS_SOLVERPROBLEM_H

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mlir::tileir::solver {

/// A tile-size symbol and the values it may take (positive divisors of the
/// range of every loop that steps by it).
struct Symbol {
  std::string name;
  std::vector<int64_t> values;
};

/// One instance of a loop variable: `start + i * step` for an iteration
/// index `0 <= i`, below `end`; step is `stepCoeff` or `stepCoeff * symbol`.
struct Var {
  std::string name;
  int64_t start = 0, end = 0, stepCoeff = 1;
  int symbol = -1;
};

/// One dimension of an access: the interval it selects.
struct Dim {
  enum Kind { Full, Tile, Elem, Const } kind = Full;
  int var = -1;               ///< Tile, Elem
  int64_t base = 0, size = 0; ///< Const
};

struct Access {
  std::vector<Dim> dims;
  std::vector<int64_t> shape;
  unsigned elementBytes = 4;
  /// Same buffer: compare coordinates; else compare byte ranges of one
  /// row-major buffer (tensors that may alias).
  uint32_t tensor = 0;
};

struct Problem {
  std::vector<Symbol> symbols;
  std::vector<Var> vars;
  Access first, second;
  /// Iteration index of vars[first] > iteration index of vars[second].
  std::optional<std::pair<int, int>> order;
};

struct Answer {
  enum Status { Unsat, Sat, Unknown, Timeout } status = Unknown;
  /// For Sat: a value per var and per symbol, and the first access's
  /// coordinates of a shared element.
  std::vector<int64_t> varValues, symbolValues, element;
  std::string reason; ///< for Unknown
};

/// A Z3 context reused across questions.
class Backend {
public:
  Backend();
  ~Backend();
  Answer solve(const Problem &p, unsigned timeoutMs);

private:
  struct Impl;
  std::unique_ptr<Impl> impl;
};

} // namespace mlir::tileir::solver

#endif // TILEDIALECT_LIB_ANALYSIS_SOLVERPROBLEM_H
