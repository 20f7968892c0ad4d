//===- LoweredCost.cpp - The roofline estimate of a program as lowered ----===//

#include "TileDialect/Device/LoweredCost.h"

#include "TileDialect/Conversion/Passes.h"
#include "TileDialect/Conversion/TileToGPU/Strategy.h"
#include "TileDialect/Conversion/TileToGPU/TileToGPU.h"
#include "TileDialect/IR/TileAttrs.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;
using namespace mlir::tileir;

std::pair<std::string, std::string>
tileir::loweringChip(const TargetDesc &target) {
  if (target.vendor == "amd")
    return {"rocdl", target.name};
  // sm_90_h200 -> sm_90.
  StringRef name = target.name;
  size_t second = name.find('_', name.find('_') + 1);
  return {"nvvm", name.substr(0, second).str()};
}

/// `program` alone in a new module.
static OwningOpRef<ModuleOp> moduleOf(Operation *program) {
  OwningOpRef<ModuleOp> module = ModuleOp::create(program->getLoc());
  module->getBody()->push_back(program->clone());
  return module;
}

/// Whether `kernel` computes on the matrix units (mma.sync, ldmatrix, wmma).
static bool usesMatrixUnits(gpu::GPUFuncOp kernel) {
  return kernel
      .walk([](Operation *op) {
        return isMmaSync(op) ||
                       isa<nvgpu::LdMatrixOp, gpu::SubgroupMmaComputeOp>(op)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

FailureOr<ProgramCost> tileir::estimateAsLowered(ProgramOp program,
                                                 const TargetDesc &target,
                                                 std::string *why) {
  MLIRContext *ctx = program.getContext();
  // A program the lowering refuses is the caller's to estimate otherwise;
  // its diagnostics are not the user's (the first error is `why`).
  ScopedDiagnosticHandler silence(ctx, [&](Diagnostic &diag) {
    if (why && why->empty() && diag.getSeverity() == DiagnosticSeverity::Error)
      *why = diag.str();
    return success();
  });
  auto [backend, chip] = loweringChip(target);
  OwningOpRef<ModuleOp> selected = moduleOf(program);
  PassManager select(ctx);
  TileSelectGPUConfigOptions options;
  options.backend = backend;
  options.chip = chip;
  select.addPass(createTileSelectGPUConfig(options));
  if (failed(select.run(*selected)))
    return failure();
  auto chosen = *selected->getOps<ProgramOp>().begin();
  // The sizes the lowering gives the chosen program's symbolic sizes, and
  // per top-level statement its largest launch (blocks, threads).
  OwningOpRef<ModuleOp> lowered = moduleOf(chosen);
  PassManager lower(ctx);
  lower.addPass(createTileLowerToGPU());
  if (failed(lower.run(*lowered)))
    return failure();
  TileSizeAssignment sizes;
  struct Launch {
    uint64_t threadsInGrid = 0, blocks = 0;
    unsigned threads = 0, warpLoopWarps = 0;
    uint64_t warpLoopIterations = 0;
  };
  llvm::DenseMap<int64_t, Launch> launches;
  // The statements some kernel runs.
  llvm::DenseSet<int64_t> run;
  lowered->walk([&](gpu::GPUFuncOp kernel) {
    if (auto statement = kernel->getAttrOfType<IntegerAttr>(kStatementAttrName))
      run.insert(statement.getInt());
  });
  for (auto host : lowered->getOps<func::FuncOp>()) {
    if (auto dict = host->getAttrOfType<DictionaryAttr>("tile.tile_sizes"))
      for (NamedAttribute entry : dict)
        if (auto value = dyn_cast<IntegerAttr>(entry.getValue()))
          sizes[entry.getName()] = value.getInt();
    host.walk([&](gpu::LaunchFuncOp launch) {
      auto kernel = SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(
          launch, launch.getKernel());
      auto statement =
          kernel ? kernel->getAttrOfType<IntegerAttr>(kStatementAttrName)
                 : IntegerAttr();
      std::optional<int64_t> blocks =
          getConstantIntValue(launch.getGridSizeX());
      std::optional<int64_t> threads =
          getConstantIntValue(launch.getBlockSizeX());
      if (!statement || !blocks || !threads)
        return;
      Launch &largest = launches[statement.getInt()];
      if (uint64_t(*blocks * *threads) <= largest.threadsInGrid)
        return;
      // A kernel on the matrix units keeps many loads in flight per thread
      // (register tiles): its thread count does not limit it (0: not
      // modelled). A warp loop is bound by the bytes its warps keep in
      // flight instead (its warps and iterations, `tile.warp_loop`).
      auto warpLoop =
          kernel->getAttrOfType<DenseI64ArrayAttr>(kWarpLoopAttrName);
      bool isWarpLoop = warpLoop && warpLoop.size() == 2;
      largest = {uint64_t(*blocks * *threads), uint64_t(*blocks),
                 usesMatrixUnits(kernel) ? 0u : unsigned(*threads),
                 isWarpLoop ? unsigned(warpLoop[0]) : 0u,
                 isWarpLoop ? uint64_t(warpLoop[1]) : 0u};
    });
  }
  // Statements whose kernels --tile-merge-kernels runs in another's grid
  // (after the first of a merged kernel's statements).
  llvm::DenseSet<int64_t> merged;
  PassManager merge(ctx);
  merge.addPass(createTileMergeKernels());
  if (succeeded(merge.run(*lowered)))
    lowered->walk([&](gpu::GPUFuncOp kernel) {
      if (auto many =
              kernel->getAttrOfType<DenseI64ArrayAttr>(kStatementsAttrName))
        for (int64_t statement : many.asArrayRef().drop_front())
          if (statement != many.asArrayRef().front())
            merged.insert(statement);
    });
  FailureOr<ProgramCost> cost =
      estimate(chosen, target, defaultTileSizes(chosen, target, sizes));
  if (failed(cost))
    return failure();
  // Each kernel at its launch: the grid as split (split-K adds blocks),
  // the threads its blocks have.
  llvm::DenseMap<Value, int64_t> index;
  for (auto [i, use] : llvm::enumerate(getTopLevelStatements(chosen)))
    index.try_emplace(use->get(), i);
  // The kernels name the caller's statements: `chosen` goes with
  // `selected` on return.
  auto originals = getTopLevelStatements(program);
  // A statement no kernel runs (a copy the lowering elides, an initial
  // value it folds into its readers) costs nothing: on the H200 a 1-token
  // decode's fused candidate estimated 6 kernels ran as 2.
  llvm::erase_if(cost->kernels, [&](const KernelCost &k) {
    int64_t statement = index.lookup_or(k.stmt, -1);
    if (statement < 0 || run.contains(statement))
      return false;
    cost->timeUs -= k.timeUs;
    cost->hbmBytes -= k.hbmBytes();
    cost->matrixFlops -= k.matrixFlops;
    cost->vectorFlops -= k.vectorFlops;
    return true;
  });
  for (KernelCost &k : cost->kernels) {
    int64_t statement = index.lookup_or(k.stmt, -1);
    k.stmt = statement >= 0 && statement < int64_t(originals.size())
                 ? originals[statement]->get()
                 : Value();
    auto it = launches.find(statement);
    if (it != launches.end())
      applyLaunch(*cost, k, target, it->second.blocks, it->second.threads,
                  /*ownLaunch=*/!merged.contains(statement),
                  it->second.warpLoopWarps, it->second.warpLoopIterations);
  }
  return cost;
}
