//===- tile-opt.cpp - The tile-opt driver ---------------------------------===//

#include "TileDialect/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::tileir::registerAllDialects(registry);
  mlir::tileir::registerAllPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "tile-opt: tile-level equality saturation for GPU kernels\n",
      registry));
}
