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
    return success();
  }
};

} // namespace
