//===- InitAll.h - Register everything tile-opt needs ---------*- C++ -*-===//

#ifndef TILEDIALECT_INITALL_H
#define TILEDIALECT_INITALL_H

namespace mlir {
class DialectRegistry;

namespace tileir {

/// Adds the tile dialect, the upstream dialects the pipeline from linalg to
/// NVVM / ROCDL device binaries uses, and their interface extensions
/// (bufferization models, conversion-to-LLVM, GPU targets, LLVM IR
/// translation) to `registry`.
void registerAllDialects(DialectRegistry &registry);

/// Registers the tile passes and pipelines and the upstream passes the
/// pipeline uses, for command-line tools built on MlirOptMain.
void registerAllPasses();

/// Adds the tile dialect alone. The dialects its passes create are their
/// dependent dialects, loaded when a pass runs; the interfaces the upstream
/// lowering needs (bufferization, conversion to LLVM, GPU targets) must be in
/// the registry already, as in stock mlir-opt. What the dialect plugin
/// registers.
void registerTileDialect(DialectRegistry &registry);

/// Registers the tile passes and the named pipelines
/// (--tile-lower-to-nvvm, --tile-lower-to-rocdl) alone. What the pass plugin
/// registers.
void registerTilePassesAndPipelines();

} // namespace tileir
} // namespace mlir

#endif // TILEDIALECT_INITALL_H
