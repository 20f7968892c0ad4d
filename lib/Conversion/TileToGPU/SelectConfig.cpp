//===- SelectConfig.cpp - --tile-select-gpu-config ------------------------===//
//
// Records each program's GPU configuration as its `tile.gpu_config`
// attribute: the `config` option over the program's own attribute over its
// tuning entry over the strategy (Strategy.cpp), restricted to the target.
//
//===----------------------------------------------------------------------===//

#include "TileDialect/Conversion/Passes.h"
#include "TileDialect/Conversion/TileToGPU/Strategy.h"
#include "TileDialect/Conversion/TileToGPU/Tuning.h"

#include "mlir/IR/Diagnostics.h"

namespace mlir::tileir {
#define GEN_PASS_DEF_TILESELECTGPUCONFIG
#include "TileDialect/Conversion/Passes.h.inc"
} // namespace mlir::tileir

using namespace mlir;
using namespace mlir::tileir;

FailureOr<GPUConfigAttr> tileir::resolveGPUConfig(Operation *op,
                                                  StringRef optionText) {
  GPUConfigAttr config;
  for (Operation *at = op; at && !config; at = at->getParentOp()) {
    Attribute attr = at->getAttr(kGPUConfigAttrName);
    if (!attr)
      continue;
    config = dyn_cast<GPUConfigAttr>(attr);
    if (!config)
      return at->emitOpError("'")
             << kGPUConfigAttrName << "' must be a #tile.gpu_config, got "
             << attr;
  }
  if (!config)
    config = GPUConfigAttr::get(op->getContext());
  if (optionText.trim().empty())
    return config;
  std::string error;
  FailureOr<GPUConfigAttr> given =
      GPUConfigAttr::parseBody(op->getContext(), optionText, error);
  if (failed(given))
    return op->emitError(error);
  return config.overriddenBy(*given);
}

llvm::Expected<GPUBackend> tileir::parseGPUBackend(StringRef name) {
  if (name == "nvvm" || name == "cuda")
    return GPUBackend::NVVM;
  if (name == "rocdl" || name == "hip")
    return GPUBackend::ROCDL;
  return llvm::createStringError("unknown GPU backend '" + name +
                                 "' (expected nvvm or rocdl)");
}

namespace {

struct TileSelectGPUConfigPass
    : public tileir::impl::TileSelectGPUConfigBase<TileSelectGPUConfigPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto fail = [&](const Twine &message) {
      emitError(module.getLoc(), message);
      signalPassFailure();
    };
    llvm::Expected<GPUBackend> kind = parseGPUBackend(backend);
    if (!kind)
      return fail(llvm::toString(kind.takeError()));
    llvm::Expected<std::unique_ptr<GPUTarget>> target =
        GPUTarget::get(*kind, chip, features);
    if (!target)
      return fail(llvm::toString(target.takeError()));
    GPUConfigAttr given;
    if (!StringRef(config).trim().empty()) {
      std::string error;
      FailureOr<GPUConfigAttr> parsed =
          GPUConfigAttr::parseBody(&getContext(), config, error);
      if (failed(parsed))
        return fail(error);
      given = *parsed;
    }
    for (ProgramOp program : module.getOps<ProgramOp>())
      if (failed(select(program, **target, given)))
        return signalPassFailure();
  }

  LogicalResult select(ProgramOp program, const GPUTarget &target,
                       GPUConfigAttr given) {
    GPUConfigAttr config = chooseGPUConfig(program, target);
    // Statements are configured apart only under the strategy's choice: a
    // tuning entry or the program's own configuration decides for all of
    // it.
    bool strategy = !program->hasAttr(kGPUConfigAttrName);
    if (!tuning.empty()) {
      llvm::Expected<TuningLookup> lookup =
          lookupTuning(tuning, program, target.getChip());
      if (!lookup)
        return emitError(program.getLoc(), llvm::toString(lookup.takeError()));
      emitRemark(program.getLoc(), lookup->message)
          << (lookup->entry ? "" : "; the strategy's configuration applies");
      if (lookup->entry) {
        config = config.overriddenBy(lookup->entry->config);
        ++numTuned;
        strategy = false;
      }
    }
    if (Attribute own = program->getAttr(kGPUConfigAttrName)) {
      auto ownConfig = dyn_cast<GPUConfigAttr>(own);
      if (!ownConfig)
        return program.emitOpError("'")
               << kGPUConfigAttrName << "' must be a #tile.gpu_config, got "
               << own;
      config = config.overriddenBy(ownConfig);
    }
    config = target.restrict(config.overriddenBy(given));
    program->setAttr(kGPUConfigAttrName, config);
    if (strategy && config.getStatementConfigs())
      selectStatements(program, target, given);
    return success();
  }

  /// Records the statements' own configurations (`chooseStatementConfig`,
  /// then the option's fields) as their ops' `tile.gpu_config` and gives
  /// each such statement tile sizes of its own (`untieStatement`, suffix
  /// `_s<statement>`); sizes bound by name for the whole program bind the
  /// renamed ones too.
  void selectStatements(ProgramOp program, const GPUTarget &target,
                        GPUConfigAttr given) {
    auto config = program->getAttrOfType<GPUConfigAttr>(kGPUConfigAttrName);
    auto bound = program->getAttrOfType<DictionaryAttr>("tile.tile_sizes");
    SmallVector<OpOperand *> statements = getTopLevelStatements(program);
    if (statements.size() < 2)
      return;
    ProgramShape shape = analyzeProgramShape(program);
    for (auto [index, use] : llvm::enumerate(statements)) {
      GPUConfigAttr own =
          chooseStatementConfig(use->get(), shape, config, target);
      if (!own)
        continue;
      if (given)
        own = own.overriddenBy(given);
      llvm::StringMap<std::string> renamed =
          untieStatement(*use, ("_s" + Twine(index)).str());
      use->get().getDefiningOp()->setAttr(kGPUConfigAttrName, own);
      ++numStatements;
      DictionaryAttr sizes = config.getTileSizes();
      for (const auto &[from, to] : renamed) {
        if (sizes)
          if (auto value = sizes.getAs<IntegerAttr>(from))
            config = config.withTileSize(to, value.getInt());
        if (bound)
          if (auto value = bound.getAs<IntegerAttr>(from))
            config = config.withTileSize(to, value.getInt());
      }
    }
    program->setAttr(kGPUConfigAttrName, config);
  }
};

} // namespace
