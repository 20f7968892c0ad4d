//===- RuleSet.h - The rewrite rules saturation applies ---------*- C++ -*-===//
//
// The bundled rule families (PDLL files under lib/Rules, compiled to PDL by
// mlir-pdll at build time and embedded), plus PDL modules loaded at run time,
// compiled for the e-matcher and filtered by name.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_RULES_RULESET_H
#define TILEDIALECT_RULES_RULESET_H

#include "TileDialect/Rules/PdlRule.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <string>
#include <vector>

namespace mlir::tileir {

/// One bundled rule family: its name (the file it came from) and PDL text.
struct BundledRules {
  llvm::StringRef family;
  llvm::StringRef pdl;
};
llvm::ArrayRef<BundledRules> getBundledRules();

class RuleSet {
public:
  /// Parses and compiles the bundled rules and the PDL files in
  /// `extraFiles`. Diagnostics go to the context's handler.
  static FailureOr<RuleSet> load(MLIRContext *context, RuleContext &rules,
                                 llvm::ArrayRef<std::string> extraFiles);

  /// Keeps the rules named in `only` (all if empty) minus those in
  /// `disable`; a name may be a rule (`loop-fusion`) or a family
  /// (`Fusion`). Unknown names are an error reported at `loc`.
  LogicalResult select(llvm::ArrayRef<std::string> only,
                       llvm::ArrayRef<std::string> disable, Location loc);

  llvm::ArrayRef<std::unique_ptr<PdlRule>> getRules() const { return rules; }
  llvm::StringRef getFamily(size_t i) const { return families[i]; }

private:
  std::vector<OwningOpRef<ModuleOp>> modules;
  std::vector<std::unique_ptr<PdlRule>> rules;
  std::vector<std::string> families;
};

} // namespace mlir::tileir

#endif // TILEDIALECT_RULES_RULESET_H
