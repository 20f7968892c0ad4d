//===- DeviceRun.cpp - tile-run --device: compile to an artifact ----------===//

#include "TileDialect/Device/Compile.h"

#include "TileDialect/Conversion/Passes.h"
#include "TileDialect/Support/ElementKindOf.h"
#include "TileDialect/Support/Compare.h"
#include "TileDialect/Support/HostTensor.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace mlir::tileir;

/// The backend of `options`' platform.
static GPUBackend backendOf(const DeviceCompileOptions &options) {
  return options.platform == runtime::Platform::Hip ? GPUBackend::ROCDL
                                                    : GPUBackend::NVVM;
}

/// The chip the pipeline targets: `--chip`, else the backend's default.
static std::string targetChip(const DeviceCompileOptions &options) {
  return options.chip.empty() ? getDefaultChip(backendOf(options))
                              : options.chip;
}

FailureOr<runtime::Artifact> tileir::compileArtifact(
    ProgramOp program, const DeviceCompileOptions &options,
    ArrayRef<runtime::TensorInit> inits, ArrayRef<ExpectedOutput> expected,
    GPUConfigAttr *loweredConfig, OwningOpRef<ModuleOp> *lowered) {
  MLIRContext *ctx = program.getContext();
  Location loc = program.getLoc();
  GPUBackend backend = backendOf(options);

  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  module->getBody()->push_back(program->clone());

  GPUPipelineOptions pipeline;
  pipeline.chip = options.chip;
  pipeline.tuning = options.tuning;
  std::string config = options.config;
  if (options.emulate) {
    // The host emulation runs neither matrix-unit register ops nor inline
    // PTX (vector reductions, prefetches): the strategy's matrix units are
    // dropped (matrix units the caller asks for are kept, and refused by
    // the emulation), vector reductions and prefetches always.
    std::string error;
    FailureOr<GPUConfigAttr> given =
        GPUConfigAttr::parseBody(ctx, config, error);
    if (failed(given))
      return emitError(loc, error);
    config = given->withDefault("mma", false)
                 .with("vector_atomics", false)
                 .with("prefetch_bytes", 0)
                 .getBody();
  }
  pipeline.config = config;
  PassManager pm(ctx);
  if (options.emulate)
    addTileLowerToGPUPasses(pm, pipeline, backend);
  else
    buildTileToGPUBinaryPipeline(pm, pipeline, backend);
  if (failed(pm.run(*module)))
    return failure();

  func::FuncOp host;
  gpu::BinaryOp binary;
  for (Operation &op : module->getBody()->getOperations()) {
    if (auto f = dyn_cast<func::FuncOp>(op))
      host = f;
    else if (auto b = dyn_cast<gpu::BinaryOp>(op))
      binary = b;
  }
  if (!host)
    return emitError(loc, "the lowering produced no host function");
  if (loweredConfig)
    *loweredConfig = host->getAttrOfType<GPUConfigAttr>(kGPUConfigAttrName);

  runtime::Artifact artifact;
  artifact.program = program.getSymName().str();
  artifact.platform = options.platform;
  artifact.chip = targetChip(options);
  artifact.binaryFile =
      backend == GPUBackend::ROCDL ? "kernels.hsaco" : "kernels.cubin";
  // The NVVM pipeline starts every kernel with grid dependency control.
  llvm::Expected<std::unique_ptr<GPUTarget>> target =
      GPUTarget::get(backend, artifact.chip);
  if (!target)
    return emitError(loc, llvm::toString(target.takeError()));
  artifact.programmaticLaunch =
      binary && (*target)->hasGridDependencyControl();
  artifact.seed = options.seed;
  artifact.tolerance = options.tolerance;
  artifact.floor = comparisonFloorOf(program);
  if (binary) {
    auto object = cast<gpu::ObjectAttr>(binary.getObjects()[0]);
    artifact.binary = object.getObject().getValue().str();
  }

  Block &programBody = program.getBodyBlock();
  for (BlockArgument arg : host.getArguments()) {
    unsigned i = arg.getArgNumber();
    runtime::TensorDecl decl;
    decl.name = host.getArgAttrOfType<StringAttr>(i, "tile.name").str();
    StringRef role = host.getArgAttrOfType<StringAttr>(i, "tile.role");
    // A positions tensor is the module's, filled when it loads.
    bool positions = role == stringifyTensorRole(TensorRole::Positions);
    decl.role = positions ? runtime::TensorRole::Intermediate
                          : *runtime::parseTensorRole(role.str());
    if (i < programBody.getNumArguments()) {
      auto type = cast<TensorRefType>(programBody.getArgument(i).getType());
      // The lowered shape, which `privatize` may have widened to one copy
      // per iteration of a loop.
      auto shape = host.getArgAttrOfType<DenseI64ArrayAttr>(i, "tile.shape");
      auto memref = dyn_cast<MemRefType>(arg.getType());
      if (shape)
        decl.shape.assign(shape.asArrayRef().begin(), shape.asArrayRef().end());
      if (!shape || !memref ||
          memref.getNumElements() !=
              std::max<int64_t>(1, HostTensor::numElements(decl.shape)))
        return emitError(loc, "the lowered buffer of tensor '")
               << decl.name << "' does not match its shape";
      decl.elementKind = *elementKindOf(type.getElementType());
      decl.init = positions ? runtime::TensorInit::positions() : inits[i];
      // The launches clear it themselves (--tile-merge-kernels zero-buffers).
      if (decl.init.kind == runtime::TensorInit::Zero &&
          host.getArgAttrOfType<StringAttr>(i, "tile.zero"))
        decl.init.once = true;
    } else {
      decl.shape = {cast<MemRefType>(arg.getType()).getNumElements()};
      decl.elementKind = ElementKind::F32;
      // Split epilogues' counters: each call leaves them zero.
      decl.init.once = bool(host.getArgAttrOfType<StringAttr>(i, "tile.zero"));
    }
    artifact.tensors.push_back(std::move(decl));
  }

  auto constant = [](Value v) -> unsigned {
    return unsigned(getConstantIntValue(v).value_or(1));
  };
  for (auto launch : host.getOps<gpu::LaunchFuncOp>()) {
    runtime::KernelLaunch k;
    k.symbol = launch.getKernelName().str();
    k.grid[0] = constant(launch.getGridSizeX());
    k.grid[1] = constant(launch.getGridSizeY());
    k.grid[2] = constant(launch.getGridSizeZ());
    k.block[0] = constant(launch.getBlockSizeX());
    k.block[1] = constant(launch.getBlockSizeY());
    k.block[2] = constant(launch.getBlockSizeZ());
    if (Value bytes = launch.getDynamicSharedMemorySize())
      k.sharedMemBytes = unsigned(getConstantIntValue(bytes).value_or(0));
    for (Value operand : launch.getKernelOperands())
      k.args.push_back(cast<BlockArgument>(operand).getArgNumber());
    artifact.kernels.push_back(std::move(k));
  }

  for (const ExpectedOutput &out : expected) {
    runtime::OutputSpec spec;
    spec.tensor = out.tensor;
    spec.kind = runtime::ExpectedKind::Dense;
    spec.dense = out.values;
    artifact.outputs.push_back(std::move(spec));
  }
  if (lowered)
    *lowered = std::move(module);
  return artifact;
}

std::string tileir::tuningEntryJSON(ProgramOp program,
                                    const DeviceCompileOptions &options,
                                    GPUConfigAttr loweredConfig) {
  llvm::json::Object entry{
      {"program", program.getSymName().str()},
      {"program_hash", programHash(program)},
      {"platform", runtime::toString(options.platform)},
      // The chip the pipeline targeted (--chip or the platform's default),
      // never empty: the lookup takes only entries for its own chip.
      {"chip", targetChip(options)},
      {"gpu_config", loweredConfig ? loweredConfig.getBody() : ""}};
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(entry))) << "\n";
  return text;
}

double mlir::tileir::comparisonFloorOf(Operation *op) {
  auto isF16 = [](Type t) {
    if (auto tile = dyn_cast<TileType>(t))
      t = tile.getElementType();
    else if (auto ref = dyn_cast<TensorRefType>(t))
      t = ref.getElementType();
    return isa<Float16Type>(getElementTypeOrSelf(t));
  };
  WalkResult found = op->walk([&](Operation *o) {
    if (llvm::any_of(o->getResultTypes(), isF16))
      return WalkResult::interrupt();
    for (Region &region : o->getRegions())
      for (Block &block : region)
        if (llvm::any_of(block.getArgumentTypes(), isF16))
          return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return found.wasInterrupted() ? comparisonFloor(ElementKind::F16) : 0.0;
}

double mlir::tileir::kernelToleranceFactor(Operation *op) {
  auto isBF16 = [](Type t) {
    if (auto ref = dyn_cast<TensorRefType>(t))
      t = ref.getElementType();
    return isa<BFloat16Type>(getElementTypeOrSelf(t));
  };
  for (Region &region : op->getRegions())
    for (Block &block : region)
      if (llvm::any_of(block.getArgumentTypes(), isBF16))
        return kBF16ToleranceFactor;
  return 1.0;
}
