//===- Optimize.cpp - The --tile-optimize pass ----------------------------===//
//
// linalg in, checked tile candidates out: --convert-linalg-to-tile, then
// --tile-extract's work on each program with the linalg function it came from
// as the check's reference.
//
//===----------------------------------------------------------------------===//

#include "ExtractProgram.h"
#include "TileDialect/Conversion/Passes.h"
#include "TileDialect/IR/TileDialect.h"
#include "TileDialect/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

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
    // The functions as they were, for the check.
    OwningOpRef<ModuleOp> originals = ModuleOp::create(module.getLoc());
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isExternal())
        originals->getBody()->push_back(func->clone());

    OpPassManager pm(ModuleOp::getOperationName());
    pm.addPass(createConvertLinalgToTile());
    if (failed(runPipeline(pm, module)))
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
    if (failed(extractAll(module, extract, *originals, reportPath, counts)))
      signalPassFailure();
  }
};

} // namespace
