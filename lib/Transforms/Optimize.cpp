//===- Optimize.cpp - The --tile-optimize pass ----------------------------===//
//
// linalg in, checked tile candidates out: --convert-linalg-to-tile, then
// --tile-extract's work on each program with the linalg function it came from
// as the check's reference.
//
//===----------------------------------------------------------------------===//

#include "ExtractProgram.h"
#include "PhasePass.h"
#include "TileDialect/Conversion/Passes.h"
#include "TileDialect/Conversion/TileToGPU/Tuning.h"
#include "TileDialect/IR/TileDialect.h"
#include "TileDialect/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include <chrono>

namespace mlir::tileir {
#define GEN_PASS_DEF_TILEOPTIMIZE
#include "TileDialect/Transforms/Passes.h.inc"
} // namespace mlir::tileir

using namespace mlir;
using namespace mlir::tileir;

namespace {

struct TileOptimizePass
    : public tileir::impl::TileOptimizeBase<TileOptimizePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The budget counts from here: the conversion is part of it.
    auto start = std::chrono::steady_clock::now();
    // The functions as they were, for the check.
    OwningOpRef<ModuleOp> originals = ModuleOp::create(module.getLoc());
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isExternal())
        originals->getBody()->push_back(func->clone());

    OpPassManager pm(ModuleOp::getOperationName());
    pm.addPass(createConvertLinalgToTile());
    if (failed(runPipeline(pm, module)))
      return signalPassFailure();

    // Programs with a measured winner in the tuning cache: replaced by it,
    // and kept out of the extraction.
    OwningOpRef<ModuleOp> tuned = ModuleOp::create(module.getLoc());
    if (!tuning.empty() && failed(applyTuning(module, *tuned)))
      return signalPassFailure();

    TileExtractOptions extract;
    extract.topK = topK;
    extract.iterations = iterations;
    extract.rounds = rounds;
    extract.refineIterations = refineIterations;
    extract.target = target;
    extract.check = check;
    extract.tolerance = tolerance;
    extract.seed = seed;
    extract.maxNodes = maxNodes;
    extract.timeout = timeout;
    extract.extractTimeout = extractTimeout;
    extract.checkTimeout = checkTimeout;
    extract.progress = progress;
    extract.emulate = emulate;
    extract.emulateTolerance = emulateTolerance;
    extract.emulateBudget = emulateBudget;
    ExtractCounts counts;
    ExtractContext context;
    if (budget > 0)
      context.deadline = start + std::chrono::duration_cast<
                                     std::chrono::steady_clock::duration>(
                                     std::chrono::duration<double>(budget));
    context.runPhase = makePhaseRunner(
        "tile-optimize", [this](OpPassManager &pm, Operation *op) {
          return runPipeline(pm, op);
        });
    if (failed(extractAll(module, extract, *originals, reportPath, counts,
                          context)))
      signalPassFailure();
    for (Operation &op : llvm::make_early_inc_range(*tuned->getBody()))
      op.moveBefore(module.getBody(), module.getBody()->end());
  }

  /// Why `candidate` cannot stand for `program` (nothing if it can): it
  /// must have each of the program's input, inout and output tensors, by
  /// name, with the same type (its intermediates are its own).
  static std::optional<std::string> differentInterface(ProgramOp program,
                                                       ProgramOp candidate) {
    llvm::StringMap<Type> theirs;
    for (BlockArgument arg : candidate.getBodyBlock().getArguments())
      theirs[candidate.getTensorName(arg.getArgNumber())] = arg.getType();
    for (BlockArgument arg : program.getBodyBlock().getArguments()) {
      auto type = cast<TensorRefType>(arg.getType());
      if (type.getRole() == TensorRole::Intermediate)
        continue;
      StringRef name = program.getTensorName(arg.getArgNumber());
      auto it = theirs.find(name);
      std::string text;
      llvm::raw_string_ostream os(text);
      if (it == theirs.end()) {
        os << "no tensor '" << name << "'";
        return text;
      }
      if (it->second != type) {
        os << "tensor '" << name << "' is " << it->second << ", not "
           << type;
        return text;
      }
    }
    return std::nullopt;
  }

  /// Moves each program of `module` that the tuning cache has an entry for
  /// into `tuned`, as the entry's winner (its candidate, or the program)
  /// with the entry's configuration attached.
  LogicalResult applyTuning(ModuleOp module, ModuleOp tuned) {
    for (ProgramOp program : llvm::to_vector(module.getOps<ProgramOp>())) {
      llvm::Expected<TuningLookup> found =
          lookupTunedProgram(tuning, program, target);
      if (!found) {
        program.emitError(llvm::toString(found.takeError()));
        return failure();
      }
      if (!found->entry) {
        program.emitRemark(found->message);
        continue;
      }
      program.emitRemark(found->message + " (measured winner; not saturated)");
      ProgramOp winner = program;
      if (!found->entry->candidateProgram.empty()) {
        OwningOpRef<ModuleOp> parsed = parseSourceString<ModuleOp>(
            found->entry->candidateProgram, ParserConfig(module.getContext()));
        SmallVector<ProgramOp> candidates;
        if (parsed)
          candidates = llvm::to_vector(parsed->getOps<ProgramOp>());
        if (candidates.size() != 1) {
          program.emitError(found->message +
                            ": the entry's candidate_program is not one tile "
                            "program");
          return failure();
        }
        winner = candidates.front();
        if (std::optional<std::string> why = differentInterface(program,
                                                                winner)) {
          program.emitError(found->message +
                            ": the entry's candidate_program does not take "
                            "the program's inputs and outputs (" +
                            *why + "); re-tune, or remove the entry");
          return failure();
        }
        if (Attribute results = program->getAttr("tile.results");
            results && !winner->hasAttr("tile.results"))
          winner->setAttr("tile.results", results);
        winner->moveBefore(program);
        program.erase();
      }
      winner->setAttr("tile.gpu_config", found->entry->config);
      winner->moveBefore(tuned.getBody(), tuned.getBody()->end());
    }
    return success();
  }
};

} // namespace
