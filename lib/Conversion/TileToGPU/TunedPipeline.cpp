//===- TunedPipeline.cpp - The device pipelines with a tuning cache -------===//
//
// `--tile-lower-to-nvvm="tuning=CACHE.json"` (and `-rocdl`): the pipeline's
// options depend on the program, whose hash keys the cache, so the pipeline
// is built when the module is seen and run as a dynamic pipeline.
//
//===----------------------------------------------------------------------===//

#include "TileDialect/Conversion/TileToGPU/TileToGPU.h"
#include "TileDialect/Conversion/TileToGPU/Tuning.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringSet.h"

#include <type_traits>

using namespace mlir;
using namespace mlir::tileir;

namespace {

/// `options` with every value the entry sets that `options` does not set
/// explicitly taken from the entry.
void applyEntry(GPUPipelineOptions &options, const TuningEntry &entry) {
  auto take = [](auto &option, const auto &value) {
    using T = std::decay_t<decltype(option.getValue())>;
    if (value && !option.hasValue())
      option = static_cast<T>(*value);
  };
  take(options.maxTileSize, entry.maxTileSize);
  forEachLoweringOption(entry, options, take);
  // Sizes named by `tile-sizes` stay; the entry adds the others.
  llvm::StringSet<> given;
  std::vector<std::string> sizes;
  for (const std::string &size : options.tileSizes) {
    given.insert(StringRef(size).split('=').first);
    sizes.push_back(size);
  }
  std::vector<std::string> added;
  for (const auto &size : entry.tileSizes)
    if (!given.contains(size.getKey()))
      added.push_back((size.getKey() + "=" + Twine(size.getValue())).str());
  llvm::sort(added);
  sizes.insert(sizes.end(), added.begin(), added.end());
  options.tileSizes = sizes;
}

class TunedPipelinePass
    : public PassWrapper<TunedPipelinePass, OperationPass<ModuleOp>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TunedPipelinePass)

  TunedPipelinePass(const GPUPipelineOptions &given, bool rocdl)
      : rocdl(rocdl) {
    options.copyOptionValuesFrom(given);
  }
  TunedPipelinePass(const TunedPipelinePass &other)
      : PassWrapper(other), rocdl(other.rocdl) {
    options.copyOptionValuesFrom(other.options);
  }

  StringRef getArgument() const override { return "tile-tuned-pipeline"; }
  StringRef getDescription() const override {
    return "The device pipeline with options from a tuning cache";
  }

  void getDependentDialects(DialectRegistry &registry) const override {
    OpPassManager pm(ModuleOp::getOperationName());
    GPUPipelineOptions untuned;
    untuned.copyOptionValuesFrom(options);
    untuned.tuning = "";
    buildTileToGPUBinaryPipeline(pm, untuned, rocdl);
    pm.getDependentDialects(registry);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::string chip = pipelineChip(options.chip, rocdl);
    std::optional<TuningEntry> entry;
    ProgramOp tuned;
    SmallVector<std::pair<ProgramOp, std::string>> missing;
    for (ProgramOp program : module.getOps<ProgramOp>()) {
      llvm::Expected<TuningLookup> lookup =
          lookupTuning(options.tuning, program, chip);
      if (!lookup) {
        emitError(program.getLoc(), llvm::toString(lookup.takeError()));
        return signalPassFailure();
      }
      if (!lookup->entry) {
        missing.push_back({program, lookup->message});
        continue;
      }
      if (entry) {
        emitError(program.getLoc(), "tuning: @")
            << program.getSymName() << " and @" << tuned.getSymName()
            << " both have entries in " << options.tuning.getValue()
            << ", and one pipeline lowers them with one set of options: "
               "lower them from separate modules";
        return signalPassFailure();
      }
      emitRemark(program.getLoc(), lookup->message);
      entry = std::move(lookup->entry);
      tuned = program;
    }
    for (auto &[program, message] : missing)
      emitRemark(program.getLoc(), message)
          << (entry ? "; lowered with @" + tuned.getSymName().str() +
                          "'s entry, which this module's pipeline takes"
                    : std::string("; lowered with the pipeline's options"));

    GPUPipelineOptions lowering;
    lowering.copyOptionValuesFrom(options);
    lowering.tuning = "";
    if (entry)
      applyEntry(lowering, *entry);
    OpPassManager pm(ModuleOp::getOperationName());
    buildTileToGPUBinaryPipeline(pm, lowering, rocdl);
    if (failed(runPipeline(pm, module)))
      signalPassFailure();
  }

private:
  GPUPipelineOptions options;
  bool rocdl;
};

} // namespace

std::unique_ptr<Pass>
tileir::createTunedPipelinePass(const GPUPipelineOptions &options,
                                bool rocdl) {
  return std::make_unique<TunedPipelinePass>(options, rocdl);
}
