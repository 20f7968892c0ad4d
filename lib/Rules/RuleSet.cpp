//===- RuleSet.cpp - The rewrite rules saturation applies -----------------===//

#include "TileDialect/Rules/RuleSet.h"

#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace mlir::tileir;

#include "BundledRules.inc"

llvm::ArrayRef<BundledRules> mlir::tileir::getBundledRules() {
  return kBundledRules;
}

static LogicalResult addModule(RuleSet &, OwningOpRef<ModuleOp> module,
                               llvm::StringRef family, RuleContext &rules,
                               std::vector<OwningOpRef<ModuleOp>> &modules,
                               std::vector<std::unique_ptr<PdlRule>> &out,
                               std::vector<std::string> &families) {
  for (auto pattern : module->getOps<pdl::PatternOp>()) {
    std::unique_ptr<PdlRule> rule =
        PdlRule::compile(pattern, rules, getTileNatives());
    if (!rule)
      return failure();
    out.push_back(std::move(rule));
    families.push_back(family.str());
  }
  modules.push_back(std::move(module));
  return success();
}

FailureOr<RuleSet> RuleSet::load(MLIRContext *context, RuleContext &rules,
                                 llvm::ArrayRef<std::string> extraFiles) {
  RuleSet set;
  context->loadDialect<pdl::PDLDialect>();
  for (const BundledRules &b : getBundledRules()) {
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(
        b.pdl, ParserConfig(context), b.family);
    if (!module)
      return failure();
    if (failed(addModule(set, std::move(module), b.family, rules,
                         set.modules, set.rules, set.families)))
      return failure();
  }
  for (const std::string &file : extraFiles) {
    OwningOpRef<ModuleOp> module =
        parseSourceFile<ModuleOp>(file, ParserConfig(context));
    if (!module)
      return failure();
    if (failed(addModule(set, std::move(module),
                         llvm::sys::path::stem(file), rules, set.modules,
                         set.rules, set.families)))
      return failure();
  }
  // Rule names must be unique: reports and selections use them.
  llvm::StringSet<> seen;
  for (const auto &rule : set.rules)
    if (!seen.insert(rule->getName()).second)
      return emitError(rule->getLoc())
             << "duplicate rule name '" << rule->getName() << "'";
  return set;
}

LogicalResult RuleSet::select(llvm::ArrayRef<std::string> only,
                              llvm::ArrayRef<std::string> disable,
                              Location loc) {
  auto matches = [&](size_t i, llvm::StringRef name) {
    return rules[i]->getName() == name || families[i] == name;
  };
  for (const auto *list : {&only, &disable})
    for (const std::string &name : *list) {
      bool known = false;
      for (size_t i = 0; i < rules.size() && !known; ++i)
        known = matches(i, name);
      if (!known)
        return emitError(loc) << "unknown rule or rule family '" << name
                              << "'";
    }
  std::vector<std::unique_ptr<PdlRule>> kept;
  std::vector<std::string> keptFamilies;
  for (size_t i = 0; i < rules.size(); ++i) {
    bool in = only.empty() ||
              llvm::any_of(only, [&](auto &n) { return matches(i, n); });
    bool out = llvm::any_of(disable, [&](auto &n) { return matches(i, n); });
    if (in && !out) {
      kept.push_back(std::move(rules[i]));
      keptFamilies.push_back(families[i]);
    }
  }
  rules = std::move(kept);
  families = std::move(keptFamilies);
  return success();
}
