//===- RoundTripTest.cpp - Tile program <-> e-graph round trip -----------===//
//
// Adding a program to the e-graph and extracting the original choice of every
// e-class gives back the same program, before and after saturation; the
// extracted program verifies and is found again by lookup.
//
//===----------------------------------------------------------------------===//

#include "TileDialect/IR/TileDialect.h"
#include "TileDialect/IR/TileOps.h"
#include "TileDialect/Rules/Saturate.h"
#include "TileDialect/Saturation/TileEGraph.h"

#include "mlir/Dialect/PDL/IR/PDL.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tileir;

namespace {

class RoundTripTest : public ::testing::TestWithParam<const char *> {
protected:
  RoundTripTest() {
    context.loadDialect<TileDialect, pdl::PDLDialect>();
  }

  ProgramOp parse(StringRef relPath) {
    std::string path = std::string(TILE_SOURCE_DIR) + "/" + relPath.str();
    module = parseSourceFile<ModuleOp>(path, ParserConfig(&context));
    if (!module)
      return nullptr;
    auto programs = module->getOps<ProgramOp>();
    return programs.empty() ? nullptr : *programs.begin();
  }

  /// Extracts, from `tg`, the choice `program` made for every class.
  ProgramOp extractOriginal(TileEGraph &tg, ProgramOp program,
                            egraph::Id root) {
    llvm::DenseMap<egraph::Id, egraph::ENode> choice;
    for (auto &[op, node] : tg.getOriginalNodes())
      choice[tg.graph().find(tg.graph().lookup(node).value())] =
          tg.graph().canonicalize(node);
    OpBuilder builder(&context);
    builder.setInsertionPointToEnd(module->getBody());
    return tg.extract(builder, program, "extracted", root,
                      [&](egraph::Id cls) -> const egraph::ENode * {
                        auto it = choice.find(tg.graph().find(cls));
                        if (it != choice.end())
                          return &it->second;
                        // Tensors are block arguments, not ops: their leaf.
                        for (const egraph::ENode &n :
                             tg.graph().getClass(cls).nodes)
                          if (n.op == tg.getTensorOp())
                            return &n;
                        return nullptr;
                      });
  }

  /// The program's body printed with its ops in a canonical order: two
  /// programs denoting the same term print the same.
  std::string canonicalText(TileEGraph &tg, ProgramOp program) {
    Operation *missing = nullptr;
    std::optional<egraph::Id> root = tg.lookupProgram(program, missing);
    EXPECT_TRUE(root.has_value());
    if (!root)
      return "";
    ProgramOp copy = extractOriginal(tg, program, *root);
    std::string text;
    llvm::raw_string_ostream os(text);
    for (Operation &op : copy.getBody().front())
      os << op << "\n";
    copy.erase();
    return text;
  }

  /// Ops of `program` the yielded statement depends on, counting ops that
  /// hash-cons to one node once (what extraction can give back).
  size_t distinctLiveOps(TileEGraph &tg, ProgramOp program) {
    llvm::DenseSet<egraph::Id> classes;
    llvm::SmallVector<Value> work{program.getYield()->getOperand(0)};
    llvm::DenseSet<Operation *> seen;
    while (!work.empty()) {
      Operation *op = work.pop_back_val().getDefiningOp();
      if (!op || !seen.insert(op).second)
        continue;
      auto it = tg.getOriginalNodes().find(op);
      if (it != tg.getOriginalNodes().end())
        classes.insert(tg.graph().find(*tg.graph().lookup(it->second)));
      for (Value operand : op->getOperands())
        work.push_back(operand);
    }
    return classes.size() + 1; // and the yield
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

TEST_P(RoundTripTest, ExtractingTheOriginalChoiceGivesTheProgramBack) {
  ProgramOp program = parse(GetParam());
  ASSERT_TRUE(program) << "cannot parse " << GetParam();
  TileEGraph tg(&context);
  FailureOr<egraph::Id> root = tg.addProgram(program);
  ASSERT_TRUE(succeeded(root));

  ProgramOp extracted = extractOriginal(tg, program, *root);
  ASSERT_TRUE(extracted);
  EXPECT_TRUE(succeeded(verify(extracted)));
  // The same term: the extracted program's root is the program's class.
  Operation *missing = nullptr;
  std::optional<egraph::Id> again = tg.lookupProgram(extracted, missing);
  ASSERT_TRUE(again.has_value())
      << "missing: " << (missing ? missing->getName().getStringRef().str() : "");
  EXPECT_EQ(*again, tg.graph().find(*root));
  // And the same ops: one per distinct live op of the input.
  EXPECT_EQ(extracted.getBody().front().getOperations().size(),
            distinctLiveOps(tg, program));
  EXPECT_EQ(canonicalText(tg, program), canonicalText(tg, extracted));
}

TEST_P(RoundTripTest, OriginalChoiceSurvivesSaturation) {
  ProgramOp program = parse(GetParam());
  ASSERT_TRUE(program);
  SaturateOptions options;
  options.limits.maxIterations = 3;
  FailureOr<std::unique_ptr<Saturation>> sat =
      Saturation::run(program, options);
  ASSERT_TRUE(succeeded(sat));
  TileEGraph &tg = (*sat)->getEGraph();
  EXPECT_GT(tg.graph().numNodes(),
            program.getBody().front().getOperations().size());
  ProgramOp extracted = extractOriginal(tg, program, (*sat)->getRoot());
  ASSERT_TRUE(extracted);
  EXPECT_TRUE(succeeded(verify(extracted)));
  EXPECT_EQ(extracted.getBody().front().getOperations().size(),
            distinctLiveOps(tg, program));
  Operation *missing = nullptr;
  EXPECT_EQ(tg.lookupProgram(extracted, missing), (*sat)->getRoot());
}

INSTANTIATE_TEST_SUITE_P(Examples, RoundTripTest,
                         ::testing::Values("test/Examples/vanilla.mlir",
                                           "test/Examples/prenorm.mlir",
                                           "test/Examples/qknorm.mlir",
                                           "test/Examples/keyformer.mlir",
                                           "test/Examples/roco.mlir",
                                           "test/Examples/ffn.mlir"));

TEST(RoundTrip, LookupOfAProgramNotAddedFails) {
  MLIRContext context;
  context.loadDialect<TileDialect>();
  const char *text = R"mlir(
tile.program @p(%A: !tile.tensor<4x8xf32, input>, %B: !tile.tensor<4x8xf32, output>) {
  %f = tile.full
  %a = tile.load %A[%f, %f] : !tile.tensor<4x8xf32, input> -> !tile.tile<[4, 8], f32>
  %e = tile.exp %a : !tile.tile<[4, 8], f32>
  %s = tile.store %e, %B[%f, %f] : !tile.tile<[4, 8], f32>, !tile.tensor<4x8xf32, output>
  tile.yield %s
}
tile.program @q(%A: !tile.tensor<4x8xf32, input>, %B: !tile.tensor<4x8xf32, output>) {
  %f = tile.full
  %a = tile.load %A[%f, %f] : !tile.tensor<4x8xf32, input> -> !tile.tile<[4, 8], f32>
  %e = tile.sqrt %a : !tile.tile<[4, 8], f32>
  %s = tile.store %e, %B[%f, %f] : !tile.tile<[4, 8], f32>, !tile.tensor<4x8xf32, output>
  tile.yield %s
}
)mlir";
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(text, ParserConfig(&context));
  ASSERT_TRUE(module);
  auto programs = llvm::to_vector(module->getOps<ProgramOp>());
  TileEGraph tg(&context);
  ASSERT_TRUE(succeeded(tg.addProgram(programs[0])));
  size_t nodes = tg.graph().numNodes();
  Operation *missing = nullptr;
  EXPECT_FALSE(tg.lookupProgram(programs[1], missing).has_value());
  ASSERT_NE(missing, nullptr);
  EXPECT_TRUE(isa<SqrtOp>(missing));
  EXPECT_EQ(tg.graph().numNodes(), nodes) << "lookup must not add";
}

} // namespace
