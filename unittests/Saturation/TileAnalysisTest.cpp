//===- TileAnalysisTest.cpp - Bound variables of e-classes ----------------===//
//
// A loop binds its variable in the e-class analysis only when its body
// mentions it (issue 46, cause 3): `loop m S` with S free of m is S's equal
// (loop-invariant code motion), and the merged class must not read as
// binding m, or S can never move into another loop over m. A loop whose
// body uses m binds m, and keeps binding it after any merge.
//
//===----------------------------------------------------------------------===//

#include "ProgramEGraph.h"

using namespace mlir;
using namespace mlir::tileir;
using egraph::Id;

namespace {

// s: T = 2 X (no m); loop_s: loop m s; u: U[m] = 2 X[m]; loop_u: loop m u.
constexpr const char *kProgram = R"mlir(
tile.program @p(%X: !tile.tensor<16xf32, input>,
                %T: !tile.tensor<16xf32, output>,
                %U: !tile.tensor<16xf32, output>)
    attributes {tile.results = ["T", "U"]} {
  %full = tile.full
  %m = tile.var "m"
  %c4 = tile.size 4
  %tm = tile.tile %m
  %x = tile.load %X[%full] : !tile.tensor<16xf32, input> -> !tile.tile<[16], f32>
  %two = tile.constant 2.0 : !tile.tile<[16], f32>
  %xs = tile.mul %x, %two : !tile.tile<[16], f32>
  %s = tile.store %xs, %T[%full] : !tile.tile<[16], f32>, !tile.tensor<16xf32, output> loc("s")
  %loop_s = tile.loop %m = 0 to 16 step %c4 body %s loc("loop_s")
  %xm = tile.load %X[%tm] : !tile.tensor<16xf32, input> -> !tile.tile<[4], f32>
  %two4 = tile.constant 2.0 : !tile.tile<[4], f32>
  %xms = tile.mul %xm, %two4 : !tile.tile<[4], f32>
  %u = tile.store %xms, %U[%tm] : !tile.tile<[4], f32>, !tile.tensor<16xf32, output> loc("u")
  %loop_u = tile.loop %m = 0 to 16 step %c4 body %u loc("loop_u")
  %r = tile.seq %loop_s, %loop_u
  tile.yield %r
}
)mlir";

class TileAnalysisTest : public ProgramEGraphTest {
protected:
  TileAnalysisTest() : ProgramEGraphTest(kProgram), m(varId("m")) {}

  uint32_t m;
};

TEST_F(TileAnalysisTest, ALoopWhoseBodyUsesItsVariableBindsIt) {
  ASSERT_TRUE(added);
  EXPECT_TRUE(tg.data(classOf("u")).usesVar(m));
  EXPECT_TRUE(tg.data(classOf("loop_u")).bindsVar(m));
  EXPECT_FALSE(tg.data(classOf("loop_u")).usesVar(m));
}

TEST_F(TileAnalysisTest, ALoopWhoseBodyIgnoresItsVariableBindsNothing) {
  ASSERT_TRUE(added);
  EXPECT_FALSE(tg.data(classOf("loop_s")).bindsVar(m));
  EXPECT_TRUE(tg.data(classOf("loop_s")).boundVars.empty());
  // Loop-invariant code motion's merge: S's class stays free of m.
  Id s = classOf("s");
  tg.graph().merge(classOf("loop_s"), s);
  tg.graph().rebuild();
  const ClassData &merged = tg.data(tg.graph().find(s));
  EXPECT_FALSE(merged.bindsVar(m));
  EXPECT_FALSE(merged.usesVar(m));
  EXPECT_TRUE(merged.boundVars.empty());
  // It still holds a loop: the straight-line guards (insertion 1 and 2,
  // forwarding) keep treating it as a nest.
  EXPECT_TRUE(merged.hasLoop);
  EXPECT_FALSE(tg.data(classOf("u")).hasLoop);
}

TEST_F(TileAnalysisTest, AClassWithARealBinderKeepsBindingAfterAMerge) {
  ASSERT_TRUE(added);
  // Merging a real binder of m into a class keeps m bound there (the union
  // over members): nothing may move that class into a loop over m.
  Id loopU = classOf("loop_u");
  tg.graph().merge(loopU, classOf("loop_s"));
  tg.graph().rebuild();
  EXPECT_TRUE(tg.data(tg.graph().find(loopU)).bindsVar(m));
}

} // namespace
