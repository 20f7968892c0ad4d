//===- PdlRule.h - pdl.pattern interpreted over the e-graph -----*- C++ -*-===//
//
// The e-matcher (docs/Design.md decision 3): a `pdl.pattern` is compiled into
// operation atoms over shared slots and interpreted over the e-graph.
// `pdl.operation` matches an e-node of that name inside an e-class, shared
// SSA values are shared e-class variables, attribute and type constraints
// compare payloads, native constraints are guards; in the rewrite region
// created operations are hash-consed, native rewrites compute values and
// `pdl.replace` unions. Matching and applying are separate phases.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_RULES_PDLRULE_H
#define TILEDIALECT_RULES_PDLRULE_H

#include "TileDialect/EGraph/Runner.h"
#include "TileDialect/Rules/Natives.h"

#include "mlir/Dialect/PDL/IR/PDL.h"
#include "mlir/Dialect/PDL/IR/PDLOps.h"

#include <memory>

namespace mlir::tileir {

class PdlRule : public egraph::Rule {
public:
  /// Compiles `pattern`; emits a diagnostic and returns null if it uses a
  /// construct the e-matcher does not support or an unknown native.
  static std::unique_ptr<PdlRule> compile(pdl::PatternOp pattern,
                                          RuleContext &context,
                                          const NativeRegistry &natives);
  ~PdlRule() override;

  llvm::StringRef getName() const override { return name; }
  size_t search(const egraph::EGraph &egraph, size_t limit) override;
  size_t apply(egraph::EGraph &egraph) override;
  void clearMatches() override { matches.clear(); }
  size_t numBlocked() const override { return blocked; }
  /// Applications cancelled because a result could not be built (a native
  /// rewrite failed or a result type could not be inferred).
  size_t numFailed() const { return failed; }
  Location getLoc() const { return loc; }

  /// Rule name from a PDLL pattern name: `LoopFusionTail` ->
  /// `loop-fusion-tail`.
  static std::string kebabName(llvm::StringRef patternName);

  struct Program;

private:
  PdlRule(std::string name, Location loc, RuleContext &context);

  std::string name;
  Location loc;
  RuleContext &context;
  std::unique_ptr<Program> program;
  std::vector<std::vector<PdlSlot>> matches;
  size_t blocked = 0, failed = 0;
};

} // namespace mlir::tileir

#endif // TILEDIALECT_RULES_PDLRULE_H
