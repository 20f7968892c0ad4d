//===- Saturate.cpp - The --tile-saturate pass ----------------------------===//

#include "TileDialect/IR/TileOps.h"
#include "TileDialect/Rules/Saturate.h"
#include "TileDialect/Transforms/Passes.h"
#include "WriteReport.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/Format.h"

#include <cmath>

namespace mlir::tileir {
#define GEN_PASS_DEF_TILESATURATE
#include "TileDialect/Transforms/Passes.h.inc"
} // namespace mlir::tileir

#define DEBUG_TYPE "tile-saturate"

using namespace mlir;
using namespace mlir::tileir;

namespace {

struct TileSaturatePass
    : public tileir::impl::TileSaturateBase<TileSaturatePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    OwningOpRef<ModuleOp> goals;
    if (!goalPath.empty()) {
      goals = parseSourceFile<ModuleOp>(goalPath, ParserConfig(&getContext()));
      if (!goals) {
        module.emitError("cannot read the goal file '") << goalPath << "'";
        return signalPassFailure();
      }
    }
    auto programs = llvm::to_vector(module.getOps<ProgramOp>());
    llvm::json::Array reports;
    bool ok = true;
    for (ProgramOp program : programs)
      ok &= succeeded(saturate(program, goals ? *goals : ModuleOp(), reports));
    if (!reportPath.empty()) {
      if (reports.empty())
        return signalPassFailure();
      llvm::json::Value value = programs.size() == 1
                                    ? std::move(reports[0])
                                    : llvm::json::Value(std::move(reports));
      if (failed(writeText(module, reportPath, [&](raw_ostream &os) {
            os << llvm::formatv("{0:2}", value) << "\n";
          })))
        return signalPassFailure();
    }
    if (!ok)
      signalPassFailure();
  }

  LogicalResult saturate(ProgramOp program, ModuleOp goals,
                         llvm::json::Array &reports) {
    SaturateOptions options;
    options.limits.maxIterations = iterations;
    options.limits.maxNodes = maxNodes;
    options.limits.maxSeconds = timeout;
    options.backoff.enabled = backoff;
    options.backoff.matchLimit = matchLimit;
    options.backoff.banLength = banLength;
    options.ruleFiles.assign(ruleFiles.begin(), ruleFiles.end());
    options.only.assign(only.begin(), only.end());
    options.disable.assign(disable.begin(), disable.end());
    options.propagateExpressions = propagate;
    options.legalityTimeoutMs = legalityTimeoutMs;
    std::string name = program.getSymName().str();
    if (progress)
      options.progress = [name](unsigned i,
                                const egraph::IterationStats &s) {
        llvm::errs() << llvm::formatv(
            "tile-saturate @{0}: iteration {1}: {2} e-nodes, {3} e-classes, "
            "{4} applied, {5:f3} s\n",
            name, i + 1, s.nodes, s.classes, s.applied,
            s.searchSeconds + s.applySeconds + s.rebuildSeconds +
                s.hookSeconds);
      };
    FailureOr<std::unique_ptr<Saturation>> sat =
        Saturation::run(program, options);
    if (failed(sat))
      return failure();
    Saturation &s = **sat;
    const egraph::EGraph &eg = s.getEGraph().graph();
    const egraph::RunReport &report = s.getReport();
    numIterations += report.iterations.size();
    numClasses += eg.numClasses();
    numNodes += eg.numNodes();
    for (const egraph::RuleStats &r : report.rules) {
      numApplied += r.applied;
      numBlocked += r.blocked;
    }
    llvm::json::Object json = s.toJSON();
    double log10 = *json.getNumber("log10_programs");
    if (std::isfinite(log10) && log10 > 0)
      numLog10Programs += (uint64_t)log10;
    json["program"] = name;
    LogicalResult goalResult = success();
    if (goals) {
      llvm::json::Array goalJson;
      goalResult = checkGoals(program, goals, s, goalJson);
      json["goals"] = std::move(goalJson);
    }
    if (!dotPath.empty()) {
      if (eg.numNodes() > 5000) {
        program.emitWarning("e-graph too large for DOT output (")
            << eg.numNodes() << " e-nodes); not written";
      } else if (failed(writeText(program, dotPath, [&](raw_ostream &os) {
                   eg.writeDot(os, [&](const egraph::ENode &n) {
                     return s.getEGraph().label(n);
                   });
                 }))) {
        return failure();
      }
    }
    reports.push_back(std::move(json));
    return goalResult;
  }

  /// The start => goal test: every goal program is looked up.
  LogicalResult checkGoals(ProgramOp program, ModuleOp goals, Saturation &s,
                           llvm::json::Array &out) {
    auto all = llvm::to_vector(goals.getOps<ProgramOp>());
    if (all.empty())
      return goals.emitError("the goal file has no tile.program");
    // With several goals, each is checked against the program of its name.
    if (all.size() > 1)
      llvm::erase_if(all, [&](ProgramOp goal) {
        return goal.getSymName() != program.getSymName();
      });
    bool anyFailed = false;
    for (ProgramOp goal : all) {
      Operation *missing = nullptr;
      std::optional<egraph::Id> found =
          s.getEGraph().lookupProgram(goal, missing);
      bool represented = found && *found == s.getRoot();
      llvm::json::Object g{{"name", goal.getSymName().str()},
                           {"represented", represented}};
      if (represented) {
        ++numGoalsFound;
        emitRemark(goal.getLoc())
            << "goal @" << goal.getSymName()
            << " is represented in the saturated e-graph of @"
            << program.getSymName();
      } else {
        ++numGoalsMissing;
        anyFailed = true;
        InFlightDiagnostic diag =
            emitError(goal.getLoc())
            << "goal @" << goal.getSymName()
            << " is not represented in the saturated e-graph of @"
            << program.getSymName();
        if (missing) {
          std::string text;
          llvm::raw_string_ostream os(text);
          missing->print(os, OpPrintingFlags().skipRegions());
          diag.attachNote(missing->getLoc())
              << "first goal term not in the e-graph: " << text;
          g["first_missing"] = text;
        } else if (found) {
          diag.attachNote(program.getLoc())
              << "every term is present, but the goal's root is in another "
                 "e-class than the program's";
        }
      }
      out.push_back(std::move(g));
    }
    return success(!anyFailed);
  }
};

} // namespace
