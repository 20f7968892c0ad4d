//===- SubstituteTest.cpp - Renaming loop variables in an e-graph --------===//
//
// substitute() renames the free occurrences of a loop variable and only
// those: a loop that binds the renamed variable keeps its body, and a loop
// that binds the new name refuses the renaming (it would capture). The
// e-graph holds such terms once equal classes merge: a statement using i0
// in sequence with a whole loop over i0.
//
//===----------------------------------------------------------------------===//

#include "ProgramEGraph.h"

#include "TileDialect/Saturation/Substitute.h"

using namespace mlir;
using namespace mlir::tileir;
using egraph::Id;

namespace {

// y[i0] = x[i0] and z[i0] = x[i0] over i0; y[s0] = x[s0] over s0;
// z[i0, s0] = x[i0, s0] over i0 and s0.
constexpr const char *kProgram = R"mlir(
tile.program @p(%x: !tile.tensor<4x4xf32, input>,
                %y: !tile.tensor<4x4xf32, output>,
                %z: !tile.tensor<4x4xf32, output>)
    attributes {tile.results = ["y", "z"]} {
  %i0 = tile.var "i0"
  %s0 = tile.var "s0"
  %c2 = tile.size 2
  %f = tile.full
  %ti = tile.tile %i0
  %ts = tile.tile %s0
  %0 = tile.load %x[%ti, %f] : !tile.tensor<4x4xf32, input> -> !tile.tile<[2, 4], f32>
  %y_i0 = tile.store %0, %y[%ti, %f] : !tile.tile<[2, 4], f32>, !tile.tensor<4x4xf32, output> loc("y_i0")
  %1 = tile.loop %i0 = 0 to 4 step %c2 body %y_i0
  %z_i0 = tile.store %0, %z[%ti, %f] : !tile.tile<[2, 4], f32>, !tile.tensor<4x4xf32, output> loc("z_i0")
  %loop_z = tile.loop %i0 = 0 to 4 step %c2 body %z_i0 loc("loop_z")
  %2 = tile.load %x[%ts, %f] : !tile.tensor<4x4xf32, input> -> !tile.tile<[2, 4], f32>
  %y_s0 = tile.store %2, %y[%ts, %f] : !tile.tile<[2, 4], f32>, !tile.tensor<4x4xf32, output> loc("y_s0")
  %3 = tile.loop %s0 = 0 to 4 step %c2 body %y_s0
  %4 = tile.load %x[%ti, %ts] : !tile.tensor<4x4xf32, input> -> !tile.tile<[2, 2], f32>
  %z_i0_s0 = tile.store %4, %z[%ti, %ts] : !tile.tile<[2, 2], f32>, !tile.tensor<4x4xf32, output>
  %inner_s0 = tile.loop %s0 = 0 to 4 step %c2 body %z_i0_s0 loc("inner_s0")
  %5 = tile.loop %i0 = 0 to 4 step %c2 body %inner_s0
  %6 = tile.seq %3, %5
  %7 = tile.seq %loop_z, %6
  %8 = tile.seq %1, %7
  tile.yield %8
}
)mlir";

class SubstituteTest : public ProgramEGraphTest {
protected:
  SubstituteTest() : ProgramEGraphTest(kProgram) {}

  Substitution renaming(StringRef from, StringRef to) {
    Substitution s;
    s.fromVar = varId(from);
    s.toVar = varId(to);
    return s;
  }
};

TEST_F(SubstituteTest, RenamesFreeOccurrences) {
  ASSERT_TRUE(added);
  FailureOr<Id> renamed =
      substitute(tg, classOf("y_i0"), renaming("i0", "s0"));
  ASSERT_TRUE(succeeded(renamed));
  EXPECT_EQ(tg.graph().find(*renamed), classOf("y_s0"));
}

TEST_F(SubstituteTest, KeepsTheBodyOfALoopBindingTheRenamedVariable) {
  ASSERT_TRUE(added);
  // A class's data is the union over its members, so one class can both
  // name i0 freely and hold a loop binding i0 (saturation makes such
  // classes: issue 40's wrong candidate came from one). The merge below
  // makes one: `loop i0 (z[i0] = x[i0])` with `y[i0] = x[i0]`. Renaming
  // i0 must leave the loop's body alone.
  Id loopZ = classOf("loop_z"), yI0 = classOf("y_i0");
  tg.graph().merge(loopZ, yI0);
  tg.graph().rebuild();
  FailureOr<Id> renamed =
      substitute(tg, tg.graph().find(loopZ), renaming("i0", "s0"));
  ASSERT_TRUE(succeeded(renamed));
  // The copy holds the loop unchanged and y[s0] = x[s0], and no loop over
  // i0 of z[s0] = x[s0].
  EXPECT_EQ(tg.graph().find(*renamed), tg.graph().find(classOf("y_s0")));
  EXPECT_EQ(tg.graph().find(*renamed), tg.graph().find(loopZ));
  for (const egraph::ENode &n : tg.graph().getClass(*renamed).nodes)
    if (tg.getKind(n) == NodeKind::Loop)
      EXPECT_EQ(tg.graph().find(n.children[2]),
                tg.graph().find(classOf("z_i0")));
}

TEST_F(SubstituteTest, RefusesToCaptureTheNewName) {
  ASSERT_TRUE(added);
  // `loop s0 (z[i0, s0] = x[i0, s0])` renamed i0 -> s0 would read the
  // diagonal only.
  FailureOr<Id> renamed =
      substitute(tg, classOf("inner_s0"), renaming("i0", "s0"));
  EXPECT_TRUE(failed(renamed));
}

} // namespace
