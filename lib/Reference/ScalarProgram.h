//===- ScalarProgram.h - Scalar arith/math code of a linalg body -*- C++
//-*-===//
//
// Internal to the reference evaluator: the scalar ops of a linalg body (or one
// scalar op outside any body) compiled once into a flat register program, so
// that evaluating the body at each iteration point is a short loop over an
// instruction array rather than a walk over MLIR operations.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_LIB_REFERENCE_SCALARPROGRAM_H
#define TILEDIALECT_LIB_REFERENCE_SCALARPROGRAM_H

#include "TileDialect/Support/HostTensor.h"

#include "mlir/IR/Block.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLExtras.h"

#include <vector>

namespace mlir::tileir::reference {

/// The value of a float or integer attribute as a double (i1 true is 1);
/// nullopt for other attributes.
std::optional<double> getScalarAttributeValue(Attribute attr);

/// The operations a `ScalarProgram` executes.
enum class ScalarOpcode : uint8_t {
  Copy, // extf, truncf, casts: the rounding of the result does the work
  AddF,
  SubF,
  MulF,
  DivF,
  RemF,
  NegF,
  MaximumF,
  MaxNumF,
  MinimumF,
  MinNumF,
  CmpF,
  Select,
  Exp,
  Exp2,
  ExpM1,
  Log,
  Log2,
  Log1P,
  Sqrt,
  Rsqrt,
  Tanh,
  Erf,
  AbsF,
  PowF,
  Fma,
  Sin,
  Cos,
  Floor,
  Ceil,
  Round,
  RoundEven,
  Trunc,
  AddI,
  SubI,
  MulI,
  DivSI,
  RemSI,
  CmpI,
  AndI,
  OrI,
  XOrI,
  MaxSI,
  MinSI,
  FPToInt,
  Index,
};

/// One instruction: `regs[result] = opcode(regs[lhs], regs[rhs], regs[third])`
/// then rounded to `roundKind` when it is not negative.
struct ScalarInstr {
  ScalarOpcode opcode;
  int8_t roundKind;
  uint32_t result, lhs, rhs, third;
  /// Comparison predicate or linalg.index dimension.
  int64_t aux;
};

/// A compiled list of scalar ops over a register file. Registers
/// [0, getNumArguments()) hold the block arguments; constants and values
/// captured from outside the body are preloaded by `makeRegisters`.
class ScalarProgram {
public:
  /// Looks up a scalar defined outside the compiled ops; nullopt if there is
  /// none (for instance a tensor).
  using OuterLookup = function_ref<std::optional<double>(Value)>;

  /// Compiles the ops of `block` before its terminator, whose operands become
  /// the program's results. Emits an error on the first op it cannot
  /// compile.
  static FailureOr<ScalarProgram>
  compileBlock(Block &block, Precision precision, OuterLookup lookup);

  /// Compiles the single op `op`, whose operands all come from `lookup`;
  /// its results become the program's results.
  static FailureOr<ScalarProgram> compileOp(Operation *op, Precision precision,
                                            OuterLookup lookup);

  /// Whether `op` is an op `compileOp` knows (a scalar arith or math op).
  static bool isScalarOp(Operation *op);

  unsigned getNumArguments() const { return numArguments; }
  ArrayRef<uint32_t> getResultRegisters() const { return results; }
  /// Whether the program reads linalg.index values.
  bool usesIndices() const { return readsIndices; }

  /// A register file with constants and captured values in place.
  std::vector<double> makeRegisters() const { return initialRegisters; }

  /// Runs the program on `regs`; `indices` gives the iteration point for
  /// linalg.index (may be null when `usesIndices()` is false).
  void run(double *regs, const int64_t *indices) const;

private:
  class Compiler;

  unsigned numArguments = 0;
  bool readsIndices = false;
  std::vector<double> initialRegisters;
  std::vector<ScalarInstr> code;
  SmallVector<uint32_t> results;
};

} // namespace mlir::tileir::reference

#endif // TILEDIALECT_LIB_REFERENCE_SCALARPROGRAM_H
