//===- Plugin.cpp - tile-opt as a plugin of stock mlir-opt ----------------===//
//
// One shared library that is both a dialect plugin and a pass plugin:
//
//   mlir-opt --load-dialect-plugin=TilePlugin.so \
//            --load-pass-plugin=TilePlugin.so \
//            --pass-pipeline='builtin.module(convert-linalg-to-tile)' in.mlir
//
// The dialect plugin adds the tile dialect; the pass plugin adds the tile
// passes and the --tile-lower-to-nvvm / --tile-lower-to-rocdl pipelines.
// mlir-opt registers the upstream dialects, passes and interfaces itself.
// Passes loaded from a plugin are reached through --pass-pipeline (mlir-opt
// parses its pass flags before it loads plugins).
//
// The library links the project's archives and resolves MLIR and LLVM from
// the shared libMLIR / libLLVM that mlir-opt itself loads, so there is one
// copy of MLIR in the process (lib/Plugin/CMakeLists.txt).
//
//===----------------------------------------------------------------------===//

#include "TileDialect/InitAll.h"
#include "TileDialect/Support/Version.h"

#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"

using namespace mlir;

extern "C" LLVM_ATTRIBUTE_WEAK DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "Tile", tileir::getTileVersionString(),
          [](DialectRegistry *registry) {
            tileir::registerTileDialect(*registry);
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "TilePasses",
          tileir::getTileVersionString(),
          [] { tileir::registerTilePassesAndPipelines(); }};
}
