//===- tile-prove.cpp - Prove the value-level rewrite rules sound ---------===//
//
// tile-prove [FILE.pdl.mlir...]: proves every value-level rule of the
// bundled rule families (or of the given PDL files) sound over the reals
// with Z3, and prints one line per rule and a summary. Statement rules are
// skipped. Exit status: 0 when nothing is refuted or unknown, 1 otherwise,
// 2 on bad input. See docs/Prover.md.
//
//===----------------------------------------------------------------------===//

#include "TileDialect/Prover/Prover.h"
#include "TileDialect/Rules/RuleSet.h"
#include "TileDialect/Support/Version.h"

#include "mlir/Dialect/PDL/IR/PDL.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::prover;
namespace cl = llvm::cl;

static cl::OptionCategory proveCategory("tile-prove options");

static cl::list<std::string>
    inputFiles(cl::Positional,
               cl::desc("[rules.pdl.mlir...] (default: the "
                        "bundled rule families)"),
               cl::cat(proveCategory));
static cl::list<std::string>
    ruleFilter("rule", cl::CommaSeparated, cl::value_desc("NAME,..."),
               cl::desc("Only these rules or rule families"),
               cl::cat(proveCategory));
static cl::opt<unsigned>
    timeoutMs("timeout-ms", cl::init(10000),
              cl::desc("Time limit of one Z3 query in milliseconds"),
              cl::cat(proveCategory));
static cl::opt<unsigned>
    maxRank("max-rank", cl::init(3),
            cl::desc("Prove for every root rank from 1 to this"),
            cl::cat(proveCategory));
static cl::opt<std::string>
    jsonPath("json", cl::value_desc("PATH"),
             cl::desc("Write the results as JSON ('-' for stdout)"),
             cl::cat(proveCategory));

namespace {
struct Input {
  OwningOpRef<ModuleOp> module;
  std::string family;
};
} // namespace

static void writeJson(llvm::raw_ostream &os,
                      const std::vector<RuleResult> &results) {
  llvm::json::OStream j(os, 2);
  j.object([&] {
    j.attributeArray("rules", [&] {
      for (const RuleResult &r : results)
        j.object([&] {
          j.attribute("rule", r.name);
          j.attribute("family", r.family);
          j.attribute("verdict", verdictName(r.verdict));
          if (r.verdict != Verdict::Skipped)
            j.attribute("fp", r.fpExact ? "fp-exact" : "reals-only");
          j.attribute("instances", int64_t(r.instances));
          j.attributeArray("axioms", [&] {
            for (const std::string &a : r.axioms)
              j.value(a);
          });
          j.attributeArray("assumptions", [&] {
            for (const std::string &a : r.assumptions)
              j.value(a);
          });
          if (!r.detail.empty())
            j.attribute(r.verdict == Verdict::Refuted ? "counterexample"
                                                      : "detail",
                        r.detail);
        });
    });
  });
  os << "\n";
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(proveCategory);
  cl::SetVersionPrinter(
      [](raw_ostream &os) { tileir::printTileVersion(os, "tile-prove"); });
  cl::ParseCommandLineOptions(
      argc, argv, "tile-prove: proves value-level rewrite rules sound\n");

  MLIRContext context;
  context.loadDialect<pdl::PDLDialect>();
  context.allowUnregisteredDialects();
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &context);

  std::vector<Input> inputs;
  if (inputFiles.empty()) {
    for (const BundledRules &b : getBundledRules()) {
      OwningOpRef<ModuleOp> m =
          parseSourceString<ModuleOp>(b.pdl, ParserConfig(&context), b.family);
      if (!m)
        return 2;
      inputs.push_back({std::move(m), b.family.str()});
    }
  } else {
    for (const std::string &file : inputFiles) {
      if (!llvm::sys::fs::exists(file)) {
        llvm::errs() << "tile-prove: cannot open '" << file << "'\n";
        return 2;
      }
      OwningOpRef<ModuleOp> m =
          parseSourceFile<ModuleOp>(file, sourceMgr, ParserConfig(&context));
      if (!m)
        return 2;
      inputs.push_back(
          {std::move(m),
           llvm::sys::path::stem(llvm::sys::path::stem(file)).str()});
    }
  }

  // Read every rule first: bad input stops before any proof.
  std::vector<RuleTerm> rules;
  bool bad = false;
  for (Input &in : inputs)
    for (auto pattern : in.module->getOps<pdl::PatternOp>()) {
      FailureOr<RuleTerm> rule = readRule(pattern, in.family);
      if (failed(rule)) {
        bad = true;
        continue;
      }
      rules.push_back(std::move(*rule));
    }
  if (bad)
    return 2;
  if (rules.empty()) {
    llvm::errs() << "tile-prove: no pdl.pattern in the input\n";
    return 2;
  }
  llvm::StringSet<> wanted;
  for (const std::string &name : ruleFilter) {
    bool known = llvm::any_of(rules, [&](const RuleTerm &r) {
      return r.name == name || r.family == name;
    });
    if (!known) {
      llvm::errs() << "tile-prove: unknown rule or rule family '" << name
                   << "'\n";
      return 2;
    }
    wanted.insert(name);
  }

  ProverOptions options;
  options.timeoutMs = timeoutMs;
  options.maxRank = maxRank;
  std::vector<RuleResult> results;
  unsigned counts[4] = {0, 0, 0, 0};
  llvm::raw_ostream &os = llvm::outs();
  for (const RuleTerm &rule : rules) {
    if (!wanted.empty() && !wanted.contains(rule.name) &&
        !wanted.contains(rule.family))
      continue;
    RuleResult r = proveRule(rule, options);
    ++counts[int(r.verdict)];
    os << llvm::left_justify(r.name, 26) << " "
       << llvm::left_justify(r.family, 15) << " ";
    if (r.verdict == Verdict::Skipped) {
      os << "skipped: " << r.detail << "\n";
    } else {
      os << llvm::left_justify(verdictName(r.verdict), 8) << " "
         << (r.fpExact ? "fp-exact  " : "reals-only");
      if (!r.assumptions.empty()) {
        os << "  assuming";
        for (const std::string &a : r.assumptions)
          os << " [" << a << "]";
      }
      if (r.verdict == Verdict::Refuted)
        os << "\n    counterexample: " << r.detail;
      else if (r.verdict == Verdict::Unknown)
        os << "\n    " << r.detail;
      os << "\n";
    }
    os.flush();
    results.push_back(std::move(r));
  }
  os << counts[int(Verdict::Proved)] << " proved, "
     << counts[int(Verdict::Refuted)] << " refuted, "
     << counts[int(Verdict::Unknown)] << " unknown, "
     << counts[int(Verdict::Skipped)] << " skipped\n";

  if (!jsonPath.empty()) {
    if (jsonPath == "-") {
      writeJson(llvm::outs(), results);
    } else {
      std::error_code ec;
      llvm::raw_fd_ostream file(jsonPath, ec);
      if (ec) {
        llvm::errs() << "tile-prove: cannot write '" << jsonPath
                     << "': " << ec.message() << "\n";
        return 2;
      }
      writeJson(file, results);
    }
  }
  return counts[int(Verdict::Refuted)] || counts[int(Verdict::Unknown)] ? 1 : 0;
}
