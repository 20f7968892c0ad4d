//===- tile-opt.cpp - The tile-opt driver ---------------------------------===//

#include "TileDialect/InitAll.h"
#include "TileDialect/Support/Version.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"

int main(int argc, char **argv) {
  llvm::cl::SetVersionPrinter([](llvm::raw_ostream &os) {
    mlir::tileir::printTileVersion(os, "tile-opt");
  });
  mlir::DialectRegistry registry;
  mlir::tileir::registerAllDialects(registry);
  mlir::tileir::registerAllPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "tile-opt: tile-level equality saturation for GPU kernels\n",
      registry));
}
