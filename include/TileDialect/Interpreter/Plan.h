//===- Plan.h - A tile program resolved for interpretation -----*- C++ -*-===//
//
// The interpreter runs a `Plan`, not the IR: building it (PlanBuilder.cpp)
// binds the symbolic tile sizes, gives every tile value a concrete shape and
// a preallocated buffer, resolves every index expression to its loop-variable
// slot and step, precomputes the strided copies of loads, stores and layout
// ops, and checks everything that can fail (unbound or non-dividing tile
// sizes, out-of-bounds accesses) before anything runs. Running it
// (Executor.cpp) is then a walk over plain structs with one switch per op.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_INTERPRETER_PLAN_H
#define TILEDIALECT_INTERPRETER_PLAN_H

#include "TileDialect/Interpreter/Kernels.h"

#include "TileDialect/Interpreter/TileInterpreter.h"
#include "TileDialect/Support/ElementKindOf.h"

#include "llvm/ADT/STLExtras.h"

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace mlir::tileir::interp {

/// How one tensor dimension is indexed, with its extent resolved.
struct DimIndex {
  enum class Kind : uint8_t { Full, Tile, Elem, Const };
  Kind kind = Kind::Full;
  /// The loop-variable slot (Tile, Elem).
  unsigned var = 0;
  /// The step of that variable's loops (Elem selects `value / step`).
  int64_t step = 1;
  /// The first index (Const).
  int64_t base = 0;
  /// The number of indices selected.
  int64_t extent = 0;
};

/// The region of a tensor that a `tile.load` reads or a `tile.store` writes.
struct Access {
  unsigned tensor = 0;
  llvm::SmallVector<DimIndex, 4> dims;
  /// The row-major strides of the tensor.
  llvm::SmallVector<int64_t, 4> tensorStrides;
  /// Tensor to tile (load) or tile to tensor (store).
  StridedCopy copy;

  /// The offset of the region's first element in the tensor, given the
  /// current values of the loop variables.
  int64_t offset(llvm::ArrayRef<int64_t> vars) const {
    int64_t result = 0;
    for (auto [dim, stride] : llvm::zip_equal(dims, tensorStrides)) {
      int64_t start = 0;
      switch (dim.kind) {
      case DimIndex::Kind::Full:
        continue;
      case DimIndex::Kind::Tile:
        start = vars[dim.var];
        break;
      case DimIndex::Kind::Elem:
        start = vars[dim.var] / dim.step;
        break;
      case DimIndex::Kind::Const:
        start = dim.base;
        break;
      }
      result += start * stride;
    }
    return result;
  }
};

/// One tile-valued op, with its concrete shape and its result buffer.
struct ExprNode {
  enum class Kind : uint8_t {
    Load,
    Constant,
    Unary,
    Binary,
    Cmp,
    Select,
    Reduce,
    Matmul,
    /// A strided copy of the operand (permute, transpose, bcast).
    Gather,
    /// The operand's buffer itself (reshape, squeeze, unsqueeze, and casts
    /// that change no value).
    Alias,
    Concat,
    /// A copy of the operand rounded to the result's element type.
    Cast,
  };
  Kind kind = Kind::Alias;
  /// The function of Unary, Binary, Cmp and Reduce nodes.
  union {
    UnaryFn unaryFn;
    BinaryFn binaryFn;
    CmpFn cmpFn;
    ReduceFn reduceFn;
  };
  /// The element type of the result.
  ElementKind elementKind = ElementKind::F32;
  /// Whether the result is rounded to `elementKind` after the op (F32 only).
  bool round = false;
  llvm::SmallVector<unsigned, 2> operands;
  llvm::SmallVector<int64_t, 4> shape;
  int64_t numElements = 1;

  /// Load: the region read.
  Access access;
  /// Reduce: `[outer, extent, inner]`; Matmul: `[batch, m, k, n]`.
  int64_t sizes[4] = {0, 0, 0, 0};
  /// Gather: operand to result; Concat: each operand into the result.
  llvm::SmallVector<StridedCopy, 2> copies;
  /// Concat: the offset of each operand's block in the result.
  llvm::SmallVector<int64_t, 2> offsets;

  /// The result buffer (all kinds but Alias); constants are filled once.
  std::vector<double> buffer;
  /// The evaluation during which `value` was computed.
  uint64_t stamp = 0;
  /// The result of the latest evaluation.
  const double *value = nullptr;

  /// The op, for diagnostics.
  Operation *op = nullptr;

  ExprNode() : unaryFn(UnaryFn::Neg) {}
};

/// One statement.
struct StmtNode {
  enum class Kind : uint8_t { Store, Seq, Loop, Nop };
  Kind kind = Kind::Nop;
  /// Seq: the first statement; Loop: the body; Store: the value expression.
  unsigned first = 0;
  /// Seq: the second statement.
  unsigned second = 0;
  /// Loop: the variable slot, range and concrete step.
  unsigned var = 0;
  int64_t start = 0, end = 0, step = 1;
  /// Store: the region written.
  Access access;
  Operation *op = nullptr;
};

/// A program ready to run.
struct Plan {
  std::vector<ExprNode> exprs;
  std::vector<StmtNode> stmts;
  unsigned root = 0;
  unsigned numVars = 0;
};

/// Builds the plan of `program` under `options`, for tensors of the declared
/// shapes. Emits a diagnostic and fails on an unbound or non-positive tile
/// size, a step that does not divide its loop's range, or an access that
/// leaves its tensor in some iteration.
FailureOr<Plan> buildPlan(ProgramOp program,
                          const TileInterpreterOptions &options);

/// Runs `plan` on `tensors` (already checked against the program). With a
/// `deadline`, stops once it has passed and returns false (the tensors then
/// hold a partial run); returns true when the run completed.
bool executePlan(
    Plan &plan, MutableArrayRef<HostTensor> tensors,
    std::optional<std::chrono::steady_clock::time_point> deadline = {});


/// `[2, 3]`, for diagnostics.
std::string shapeToString(ArrayRef<int64_t> shape);

} // namespace mlir::tileir::interp

#endif // TILEDIALECT_INTERPRETER_PLAN_H
