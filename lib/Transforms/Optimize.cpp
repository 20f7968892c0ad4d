//===- Optimize.cpp - The --tile-optimize pass ----------------------------===//
//
// linalg in, checked tile candidates out: a fixed pipeline of
// --convert-linalg-to-tile and --tile-extract.
//
//===----------------------------------------------------------------------===//

#include "TileDialect/Conversion/Passes.h"
#include "TileDialect/IR/TileDialect.h"
#include "TileDialect/Transforms/Passes.h"

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
    TileExtractOptions extract;
    extract.topK = topK;
    extract.iterations = iterations;
    extract.target = target;
    extract.check = check;
    extract.tolerance = tolerance;
    extract.seed = seed;
    extract.reportPath = reportPath;
    OpPassManager pm(ModuleOp::getOperationName());
    pm.addPass(createConvertLinalgToTile());
    pm.addPass(createTileExtract(extract));
    if (failed(runPipeline(pm, getOperation())))
      signalPassFailure();
  }
};

} // namespace
