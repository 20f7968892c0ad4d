//===- PdlRuleTest.cpp - When the e-matcher runs a rule's guards ----------===//

#include "ProgramEGraph.h"

#include "TileDialect/Rules/PdlRule.h"

#include "mlir/Dialect/PDL/IR/PDL.h"

using namespace mlir;
using namespace mlir::tileir;

namespace {

// Two statements: `seq(s1, s2)`, s2 a store (not a sequence).
const char *kProgram = R"mlir(
tile.program @two(%A: !tile.tensor<4xf32, input>,
                  %B: !tile.tensor<4xf32, output>,
                  %C: !tile.tensor<4xf32, output>) {
  %full = tile.full
  %x = tile.load %A[%full] : !tile.tensor<4xf32, input> -> !tile.tile<[4], f32>
  %s1 = tile.store %x, %B[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, output>
  %s2 = tile.store %x, %C[%full] : !tile.tile<[4], f32>, !tile.tensor<4xf32, output>
  %root = tile.seq %s1, %s2
  tile.yield %root
}
)mlir";

// `seq(a, seq(b, t))` with guards `GUARDS` (a guard on `a` alone can run
// once the root is bound; one on `a` and `b` only after the inner sequence).
const char *kPattern = R"mlir(
pdl.pattern @tail : benefit(1) {
  %a = pdl.operand
  %b = pdl.operand
  %t = pdl.operand
  %inner = pdl.operation "tile.seq"(%b, %t : !pdl.value, !pdl.value)
  %iv = pdl.result 0 of %inner
  %root = pdl.operation "tile.seq"(%a, %iv : !pdl.value, !pdl.value)
  GUARDS
  pdl.rewrite %root {
    pdl.replace %root with (%iv : !pdl.value)
  }
}
)mlir";

class PdlRuleTest : public ProgramEGraphTest {
protected:
  PdlRuleTest() : ProgramEGraphTest(kProgram) {
    context.loadDialect<pdl::PDLDialect>();
    auto count = [](unsigned &calls) {
      return [&calls](RuleContext &, ArrayRef<const PdlSlot *>) {
        ++calls;
        return false;
      };
    };
    natives.constraints["OnA"] = count(onA);
    natives.constraints["OnAB"] = count(onAB);
  }

  /// Searches the e-graph with the pattern under `guards`; returns the
  /// blocked count.
  size_t search(StringRef guards) {
    std::string source = kPattern;
    source.replace(source.find("GUARDS"), 6, guards.str());
    module2 = parseSourceString<ModuleOp>(source, ParserConfig(&context));
    EXPECT_TRUE(module2);
    auto pattern = *module2->getOps<pdl::PatternOp>().begin();
    std::unique_ptr<PdlRule> rule =
        PdlRule::compile(pattern, ruleContext, natives);
    EXPECT_TRUE(rule);
    tg.graph().rebuild();
    EXPECT_EQ(rule->search(tg.graph(), 1000), 0u);
    return rule->numBlocked();
  }

  ProgramFacts facts;
  RuleContext ruleContext{tg, facts};
  NativeRegistry natives;
  OwningOpRef<ModuleOp> module2;
  unsigned onA = 0, onAB = 0;
};

TEST_F(PdlRuleTest, GuardRunsOnceItsValuesAreBound) {
  ASSERT_TRUE(added);
  // The inner sequence never matches (s2 is a store), but `a` is bound at
  // the root: its guard runs there, before the inner atom is tried, and
  // blocks the partial match.
  EXPECT_EQ(search(R"(pdl.apply_native_constraint "OnA"(%a : !pdl.value))"),
            1u);
  EXPECT_EQ(onA, 1u);
}

TEST_F(PdlRuleTest, GuardNeverRunsBeforeAnEarlierOne) {
  ASSERT_TRUE(added);
  // OnA is written after OnAB, which needs the inner sequence: neither runs.
  EXPECT_EQ(search(R"(pdl.apply_native_constraint "OnAB"(%a, %b : !pdl.value, !pdl.value)
  pdl.apply_native_constraint "OnA"(%a : !pdl.value))"),
            0u);
  EXPECT_EQ(onA, 0u);
  EXPECT_EQ(onAB, 0u);
}

} // namespace
