//===- consumer.cpp - A program built against an installed tile-opt ------===//
//
// Registers what tile-opt registers, converts the linalg program named on the
// command line to tile programs and prints their names.
//
//===----------------------------------------------------------------------===//

#include "TileDialect/IR/TileOps.h"
#include "TileDialect/InitAll.h"
#include "TileDialect/Support/Version.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

int main(int argc, char **argv) {
  if (argc != 2) {
    llvm::errs() << "usage: tile-consumer FILE.mlir\n";
    return 2;
  }
  DialectRegistry registry;
  tileir::registerAllDialects(registry);
  tileir::registerAllPasses();
  MLIRContext context(registry);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(argv[1], &context);
  if (!module)
    return 1;
  PassManager pm(&context);
  if (failed(parsePassPipeline("convert-linalg-to-tile", pm)) ||
      failed(pm.run(*module)))
    return 1;
  llvm::outs() << "tile-opt " << tileir::getTileVersionString() << "\n";
  module->walk([](tileir::ProgramOp program) {
    llvm::outs() << "converted: @" << program.getSymName() << "\n";
  });
  return 0;
}
