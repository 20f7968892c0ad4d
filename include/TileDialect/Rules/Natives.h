//===- Natives.h - Native constraints and rewrites of the rules -*- C++ -*-===//
//
// The C++ side of the PDLL rules: guards (dependence checks, variable use,
// types) and rewrites whose results must be computed (reindexed loop bodies,
// broadcasts to a computed shape). PDLL declares them as
// `Constraint Name(args);` and `Rewrite Name(args) -> Value;`.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_RULES_NATIVES_H
#define TILEDIALECT_RULES_NATIVES_H

#include "TileDialect/Saturation/TileEGraph.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/DenseSet.h"

#include <functional>

namespace mlir::tileir {

/// A value bound while matching or rewriting: an e-class (`!pdl.value`,
/// `!pdl.operation`), a range of e-classes (`!pdl.range<value>`), an
/// attribute or a type.
struct PdlSlot {
  enum Kind : uint8_t { Unbound, Class, Range, Attr, TypeVal };
  Kind kind = Unbound;
  egraph::Id cls = egraph::kNoId;
  llvm::SmallVector<egraph::Id, 4> range;
  Attribute attr;
  Type type;

  static PdlSlot ofClass(egraph::Id id) {
    PdlSlot s;
    s.kind = Class;
    s.cls = id;
    return s;
  }
};

/// Facts about the input program the guards need (fixed before saturation).
struct ProgramFacts {
  /// Tensors that start zero (`intermediate` and `output`) and whose every
  /// write in the input program is an accumulation `T[i] = f(T[i], ...)`
  /// within one top-level statement: their first writer in any equivalent
  /// program is that accumulation, so it may assume zero at entry.
  llvm::DenseSet<uint32_t> zeroInitAccumulators;
  /// For each of them: the class of that top-level statement (its writer)
  /// and the class of the tensor's leaf, when both are in the e-graph.
  struct Writer {
    egraph::Id statement;
    egraph::Id tensor;
  };
  llvm::DenseMap<uint32_t, Writer> accumulatorWriters;
};

/// What natives see: the e-graph and the program facts.
struct RuleContext {
  TileEGraph &tg;
  const ProgramFacts &facts;
};

using NativeConstraint =
    std::function<bool(RuleContext &, llvm::ArrayRef<const PdlSlot *>)>;
/// A native rewrite fills `results`; failure cancels this application.
using NativeRewrite = std::function<LogicalResult(
    RuleContext &, llvm::ArrayRef<const PdlSlot *>,
    llvm::SmallVectorImpl<PdlSlot> &results)>;

struct NativeRegistry {
  llvm::StringMap<NativeConstraint> constraints;
  llvm::StringMap<NativeRewrite> rewrites;
};

/// The constraints and rewrites the bundled rules use.
const NativeRegistry &getTileNatives();

/// Computes ProgramFacts for an input program.
ProgramFacts computeProgramFacts(TileEGraph &tg, ProgramOp program);

} // namespace mlir::tileir

#endif // TILEDIALECT_RULES_NATIVES_H
