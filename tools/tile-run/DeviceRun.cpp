//===- DeviceRun.cpp - tile-run --device: compile to an artifact ----------===//

#include "DeviceRun.h"

#include "TileDialect/Conversion/Passes.h"
#include "TileDialect/Support/ElementKindOf.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;
using namespace mlir::tileir;

static std::optional<runtime::TensorRole> parseRole(StringRef role) {
  return runtime::parseTensorRole(role.str());
}

FailureOr<runtime::Artifact>
tileir::compileArtifact(ProgramOp program, const DeviceCompileOptions &options,
                        ArrayRef<runtime::TensorInit> inits,
                        ArrayRef<ExpectedOutput> expected) {
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
  pipeline.chip = options.chip;
  PassManager pm(ctx);
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

  runtime::Artifact artifact;
  artifact.program = program.getSymName().str();
  artifact.platform = options.platform;
  artifact.chip =
      options.chip.empty() ? (rocdl ? "gfx942" : "sm_90") : options.chip;
  artifact.binaryFile = rocdl ? "kernels.hsaco" : "kernels.cubin";
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
    std::optional<runtime::TensorRole> role =
        parseRole(host.getArgAttrOfType<StringAttr>(i, "tile.role").getValue());
    decl.role = *role;
    if (i < programBody.getNumArguments()) {
      auto type = cast<TensorRefType>(programBody.getArgument(i).getType());
      decl.shape.assign(type.getShape().begin(), type.getShape().end());
      decl.elementKind = *elementKindOf(type.getElementType());
      decl.init = inits[i];
    } else {
      decl.shape = {cast<MemRefType>(arg.getType()).getNumElements()};
      decl.elementKind = ElementKind::F32;
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
  return artifact;
}
