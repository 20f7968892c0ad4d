//===- ProgramEGraph.h - A tile program in an e-graph, for tests -*- C++ -*-===//
//
// The fixture of the saturation unit tests: parses one tile program, adds
// it to a TileEGraph, and finds the class of an op by its `loc("name")`.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_UNITTESTS_SATURATION_PROGRAMEGRAPH_H
#define TILEDIALECT_UNITTESTS_SATURATION_PROGRAMEGRAPH_H

#include "TileDialect/IR/TileDialect.h"
#include "TileDialect/IR/TileOps.h"
#include "TileDialect/Saturation/TileEGraph.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

namespace mlir::tileir {

class ProgramEGraphTest : public ::testing::Test {
protected:
  /// Parses `source` (one tile.program) and adds it; `added` says whether
  /// both worked.
  explicit ProgramEGraphTest(const char *source) : tg(&context) {
    context.loadDialect<TileDialect>();
    module = parseSourceString<ModuleOp>(source, ParserConfig(&context));
    if (!module)
      return;
    program = *module->getOps<ProgramOp>().begin();
    added = succeeded(tg.addProgram(program));
  }

  /// The class of the op located at `loc(name)`.
  egraph::Id classOf(StringRef name) {
    egraph::Id found = egraph::kNoId;
    program.walk([&](Operation *op) {
      auto loc = dyn_cast<NameLoc>(op->getLoc());
      if (loc && loc.getName() == name)
        found = tg.graph().find(
            *tg.graph().lookup(tg.getOriginalNodes().lookup(op)));
    });
    EXPECT_NE(found, egraph::kNoId) << "no op at loc(\"" << name.str() << "\")";
    return found;
  }

  /// The id of loop variable `name`.
  uint32_t varId(StringRef name) {
    return tg.getVarId(StringAttr::get(&context, name));
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  ProgramOp program;
  TileEGraph tg;
  bool added = false;
};

} // namespace mlir::tileir

#endif // TILEDIALECT_UNITTESTS_SATURATION_PROGRAMEGRAPH_H
