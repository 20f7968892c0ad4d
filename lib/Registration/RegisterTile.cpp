//===- RegisterTile.cpp - Register the tile dialect and passes alone ------===//
//
// The light half of the registration: the project's own dialect, passes and
// pipelines, without the upstream ones. The plugins for stock mlir-opt and the
// C API's tile-only entry points use it; Registration.cpp adds the upstream
// pieces for tile-opt.
//
//===----------------------------------------------------------------------===//

#include "TileDialect/Conversion/Passes.h"
#include "TileDialect/Conversion/TileToGPU/TileToGPU.h"
#include "TileDialect/IR/TileDialect.h"
#include "TileDialect/InitAll.h"
#include "TileDialect/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"

using namespace mlir;

void tileir::registerTileDialect(DialectRegistry &registry) {
  registry.insert<tileir::TileDialect>();
}

void tileir::registerTilePassesAndPipelines() {
  tileir::registerTilePasses();
  tileir::registerTileConversionPasses();
  tileir::registerTileGPUPipelines();
}
