//===- PhasePass.cpp - A phase of a pass, timed under it ------------------===//

#include "PhasePass.h"

#include <map>

using namespace mlir;
using namespace mlir::tileir;

namespace {

struct PhasePass : public PassWrapper<PhasePass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(PhasePass)

  PhasePass(StringRef name, llvm::function_ref<LogicalResult()> fn)
      : name(name.str()), fn(fn) {}
  PhasePass(const PhasePass &other)
      : PassWrapper(other), name(other.name), fn(other.fn) {}

  StringRef getName() const override { return name; }
  StringRef getArgument() const override { return "tile-phase"; }
  StringRef getDescription() const override {
    return "A phase of --tile-extract or --tile-optimize";
  }

  void runOnOperation() override {
    if (failed(fn()))
      signalPassFailure();
  }

  std::string name;
  /// The work of this run; set before each run of a reused pass.
  llvm::function_ref<LogicalResult()> fn;
};

/// One pass manager per phase, reused for every program and round: timings
/// key a pass's timer by the pass object, so each phase's runs add up under
/// one entry.
struct PhasePipelines {
  struct Phase {
    std::unique_ptr<OpPassManager> pm;
    PhasePass *pass;
  };
  std::map<std::pair<std::string, std::string>, Phase> phases;
};

} // namespace

PhaseRunner tileir::makePhaseRunner(
    StringRef pass,
    std::function<LogicalResult(OpPassManager &, Operation *)> runPipeline) {
  auto pipelines = std::make_shared<PhasePipelines>();
  std::string prefix = pass.str();
  return [prefix, runPipeline, pipelines](
             StringRef phase, Operation *anchor,
             llvm::function_ref<LogicalResult()> fn) {
    std::string anchorName = anchor->getName().getStringRef().str();
    PhasePipelines::Phase &p =
        pipelines->phases[{anchorName, phase.str()}];
    if (!p.pm) {
      p.pm = std::make_unique<OpPassManager>(anchorName);
      auto phasePass = std::make_unique<PhasePass>(prefix + ": " + phase.str(),
                                                   llvm::function_ref<LogicalResult()>());
      p.pass = phasePass.get();
      p.pm->addPass(std::move(phasePass));
    }
    p.pass->fn = fn;
    return runPipeline(*p.pm, anchor);
  };
}
