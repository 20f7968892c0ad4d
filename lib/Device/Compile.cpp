//===- DeviceRun.cpp - tile-run --device: compile to an artifact ----------===//

#include "TileDialect/Device/Compile.h"

#include "TileDialect/Conversion/Passes.h"
#include "TileDialect/Support/ElementKindOf.h"
#include "TileDialect/Support/HostTensor.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace mlir::tileir;

FailureOr<runtime::Artifact> tileir::compileArtifact(
    ProgramOp program, const DeviceCompileOptions &options,
    ArrayRef<runtime::TensorInit> inits, ArrayRef<ExpectedOutput> expected,
    llvm::StringMap<int64_t> *resolvedSizes, OwningOpRef<ModuleOp> *lowered) {
  MLIRContext *ctx = program.getContext();
  Location loc = program.getLoc();
  bool rocdl = options.platform == runtime::Platform::Hip;

  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  module->getBody()->push_back(program->clone());

  GPUPipelineOptions pipeline;
  std::vector<std::string> sizes;
  for (const auto &entry : options.tileSizes)
    sizes.push_back((entry.getKey() + "=" + Twine(entry.getValue())).str());
  pipeline.tileSizes = sizes;
  pipeline.maxTileSize = options.maxTileSize;
  pipeline.minBlocks = options.minBlocks;
  pipeline.blockSize = options.blockSize;
  pipeline.elementLoops = options.elementLoops;
  pipeline.splitK = options.splitK;
  pipeline.threadElements = options.threadElements;
  pipeline.kSlices = options.kSlices;
  pipeline.fissionBlocks = options.fissionBlocks;
  pipeline.privatize = options.privatize;
  pipeline.warpLoops = options.warpLoops;
  pipeline.tf32 = options.tf32;
  pipeline.mma = options.mma;
  // The host emulation cannot run the inline PTX of vector reductions.
  pipeline.vectorAtomics = options.vectorAtomics && !options.emulate;
  pipeline.pipelineLoads = options.pipelineLoads;
  pipeline.prefetchBytes = options.prefetchBytes;
  pipeline.splitEpilogues = options.splitEpilogues;
  pipeline.earlyLaunchBlocks = options.earlyLaunchBlocks;
  pipeline.mergeKernels = options.mergeKernels;
  pipeline.zeroInKernels = options.zeroInKernels;
  pipeline.chip = options.chip;
  PassManager pm(ctx);
  if (options.emulate)
    addTileLowerToGPUPass(pm, pipeline, rocdl);
  else
    buildTileToGPUBinaryPipeline(pm, pipeline, rocdl);
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
  if (resolvedSizes)
    if (auto sizes = host->getAttrOfType<DictionaryAttr>("tile.tile_sizes"))
      for (NamedAttribute entry : sizes)
        (*resolvedSizes)[entry.getName().getValue()] =
            cast<IntegerAttr>(entry.getValue()).getInt();

  runtime::Artifact artifact;
  artifact.program = program.getSymName().str();
  artifact.platform = options.platform;
  artifact.chip =
      options.chip.empty() ? (rocdl ? "gfx942" : "sm_90") : options.chip;
  artifact.binaryFile = rocdl ? "kernels.hsaco" : "kernels.cubin";
  // The NVVM pipeline starts every kernel with grid dependency control.
  artifact.programmaticLaunch =
      binary && !rocdl && supportsProgrammaticLaunch(artifact.chip);
  artifact.seed = options.seed;
  artifact.tolerance = options.tolerance;
  if (binary) {
    auto object = cast<gpu::ObjectAttr>(binary.getObjects()[0]);
    artifact.binary = object.getObject().getValue().str();
  }

  Block &programBody = program.getBodyBlock();
  for (BlockArgument arg : host.getArguments()) {
    unsigned i = arg.getArgNumber();
    runtime::TensorDecl decl;
    decl.name = host.getArgAttrOfType<StringAttr>(i, "tile.name").str();
    decl.role = *runtime::parseTensorRole(
        host.getArgAttrOfType<StringAttr>(i, "tile.role").str());
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
      decl.init = inits[i];
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
                                    const llvm::StringMap<int64_t> &sizes) {
  llvm::json::Object tileSizes;
  for (const auto &entry : sizes)
    tileSizes[entry.getKey()] = entry.getValue();
  llvm::json::Object entry{{"program", program.getSymName().str()},
                           {"program_hash", programHash(program)},
                           {"platform", runtime::toString(options.platform)},
                           // The chip the pipeline targeted (--chip or
                           // the platform's default), never empty: the
                           // lookup takes only entries for its own chip.
                           {"chip", pipelineChip(options.chip,
                                                 options.platform ==
                                                     runtime::Platform::Hip)},
                           {"tile_sizes", std::move(tileSizes)},
                           {"element_loops", options.elementLoops},
                           {"split_k", int64_t(options.splitK)},
                           {"thread_elements", int64_t(options.threadElements)},
                           {"k_slices", int64_t(options.kSlices)},
                           {"fission_blocks", options.fissionBlocks},
                           {"privatize", options.privatize},
                           {"warp_loops", options.warpLoops},
                           {"tf32", options.tf32},
                           {"mma", options.mma},
                           {"vector_atomics", options.vectorAtomics},
                           {"pipeline_loads", int64_t(options.pipelineLoads)},
                           {"prefetch_bytes", options.prefetchBytes},
                           {"split_epilogues", options.splitEpilogues},
                           {"early_launch_blocks", options.earlyLaunchBlocks},
                           {"merge_kernels", options.mergeKernels},
                           {"zero_in_kernels", options.zeroInKernels},
                           {"block_size", int64_t(options.blockSize)},
                           {"min_blocks", options.minBlocks},
                           {"max_tile_size", options.maxTileSize}};
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(entry))) << "\n";
  return text;
}

llvm::Expected<std::string>
tileir::applyTuning(StringRef path, ProgramOp program,
                    DeviceCompileOptions &options,
                    const llvm::StringSet<> &fixedSizes, bool keepLowering) {
  // The chip the pipeline will target, so that an entry for another chip
  // does not apply when --chip is left to its default.
  llvm::Expected<TuningLookup> lookup = lookupTuning(
      path, program,
      pipelineChip(options.chip, options.platform == runtime::Platform::Hip));
  if (!lookup)
    return lookup.takeError();
  if (!lookup->entry)
    return lookup->message;
  const TuningEntry &entry = *lookup->entry;
  for (const auto &size : entry.tileSizes)
    if (!fixedSizes.contains(size.getKey()))
      options.tileSizes[size.getKey()] = size.getValue();
  if (keepLowering)
    return lookup->message;
  forEachLoweringOption(entry, options, [](auto &field, const auto &value) {
    if (value)
      field = static_cast<std::decay_t<decltype(field)>>(*value);
  });
  return lookup->message;
}
