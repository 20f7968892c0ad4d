//===- Report.cpp - The cost estimate as JSON -----------------------------===//

#include "TileDialect/Cost/CostModel.h"

using namespace mlir;
using namespace mlir::tileir;

static llvm::json::Value toJSON(const KernelCost &k) {
  llvm::json::Array grid;
  for (const std::string &var : k.gridLoops)
    grid.push_back(var);
  return llvm::json::Object{
      {"label", k.label},
      {"grid_loops", std::move(grid)},
      {"grid_size", static_cast<int64_t>(k.gridSize)},
      {"waves", static_cast<int64_t>(k.waves)},
      {"grid_efficiency", k.gridEfficiency},
      {"hbm_read_bytes", static_cast<int64_t>(k.hbmReadBytes)},
      {"hbm_write_bytes", static_cast<int64_t>(k.hbmWriteBytes)},
      {"l2_hit_bytes", static_cast<int64_t>(k.l2HitBytes)},
      {"on_chip_bytes", static_cast<int64_t>(k.onChipBytes)},
      {"matrix_flops", static_cast<int64_t>(k.matrixFlops)},
      {"vector_flops", static_cast<int64_t>(k.vectorFlops)},
      {"launch_us", k.launchUs},
      {"hbm_us", k.hbmUs},
      {"l2_us", k.l2Us},
      {"matrix_us", k.matrixUs},
      {"vector_us", k.vectorUs},
      {"time_us", k.timeUs},
      {"limiter", stringifyLimiter(k.limiter)},
  };
}

llvm::json::Value mlir::tileir::toJSON(const ProgramCost &cost) {
  llvm::json::Object sizes;
  for (const auto &[name, value] : cost.sizes)
    sizes[name] = value;
  llvm::json::Array kernels;
  for (const KernelCost &k : cost.kernels)
    kernels.push_back(::toJSON(k));
  return llvm::json::Object{
      {"program", cost.program},
      {"target", cost.target},
      {"tile_sizes", std::move(sizes)},
      {"kernels", static_cast<int64_t>(cost.numKernels())},
      {"time_us", cost.timeUs},
      {"hbm_bytes", static_cast<int64_t>(cost.hbmBytes)},
      {"matrix_flops", static_cast<int64_t>(cost.matrixFlops)},
      {"vector_flops", static_cast<int64_t>(cost.vectorFlops)},
      {"limiter", stringifyLimiter(cost.limiter)},
      {"per_kernel", std::move(kernels)},
  };
}
