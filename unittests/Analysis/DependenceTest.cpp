//===- DependenceTest.cpp - The Z3 dependence oracle ----------------------===//

#include "TileDialect/Analysis/Dependence.h"

#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::tileir;

namespace {

IndexTerm tileOf(uint32_t v) { return {IndexTerm::Tile, v}; }
IndexTerm elemOf(uint32_t v) { return {IndexTerm::Elem, v}; }
IndexTerm slice(int64_t base, int64_t size) {
  return {IndexTerm::Const, ~0u, base, size};
}
IndexTerm full() { return {IndexTerm::Full}; }

Access access(uint32_t tensor, bool write, std::vector<IndexTerm> dims) {
  Access a;
  a.tensor = tensor;
  a.write = write;
  a.dims.assign(dims.begin(), dims.end());
  return a;
}

class DependenceTest : public ::testing::Test {
protected:
  enum : uint32_t { A, B, S };
  enum : uint32_t { V, H, K, W };

  DependenceTest() {
    oracle.setTensor(A, {"A", {128}, 4});
    oracle.setTensor(B, {"B", {128}, 4});
    oracle.setTensor(S, {"S", {8, 16}, 4});
    oracle.setLoop(V, {"v", 0, 64, TileDim::concrete(16)});
    oracle.setLoop(H, {"h", 0, 8, TileDim::concrete(2)});
    oracle.setLoop(W, {"w", 16, 64, TileDim::concrete(16)});
  }

  DependenceResult check(std::vector<Access> first, std::vector<Access> second,
                         std::optional<DependenceQuery::Order> order = {},
                         std::vector<uint32_t> bound1 = {},
                         std::vector<uint32_t> bound2 = {}) {
    firstStore = std::move(first);
    secondStore = std::move(second);
    bound1Store = std::move(bound1);
    bound2Store = std::move(bound2);
    DependenceQuery q;
    q.first = {firstStore, bound1Store};
    q.second = {secondStore, bound2Store};
    q.order = order;
    return oracle.check(q);
  }

  MLIRContext context;
  DependenceOracle oracle;
  std::vector<Access> firstStore, secondStore;
  std::vector<uint32_t> bound1Store, bound2Store;
};

TEST_F(DependenceTest, SameTileSameIterationConflicts) {
  DependenceResult r = check({access(B, true, {tileOf(V)})},
                             {access(B, false, {tileOf(V)})});
  ASSERT_EQ(r.verdict, DependenceVerdict::Conflict);
  ASSERT_TRUE(r.witness);
  EXPECT_EQ(r.witness->firstVars, r.witness->secondVars);
}

TEST_F(DependenceTest, FusionOrderSeparatesIterations) {
  // Fusion reorders iteration i of the first loop after j < i of the second.
  EXPECT_TRUE(check({access(B, true, {tileOf(V)})},
                    {access(B, false, {tileOf(V)})},
                    DependenceQuery::Order{V, V})
                  .independent());
  // The second reads B[0:16] in every iteration; only iteration 0 of the
  // first writes it, and no j < 0 exists: legal only because of the order.
  EXPECT_TRUE(check({access(B, true, {tileOf(V)})},
                    {access(B, false, {slice(0, 16)})},
                    DependenceQuery::Order{V, V})
                  .independent());
  // The other way round, iteration 1 of the first reads B[0:16] after
  // iteration 0 of the second wrote it.
  DependenceResult r = check({access(B, false, {slice(0, 16)})},
                             {access(B, true, {tileOf(V)})},
                             DependenceQuery::Order{V, V});
  ASSERT_EQ(r.verdict, DependenceVerdict::Conflict);
  EXPECT_EQ(r.witness->secondVars[0].second, 0);
  EXPECT_GT(r.witness->firstVars[0].second, 0);
}

TEST_F(DependenceTest, UnlikeIndexKinds) {
  // v covers [0, 64): never the slice [64, 80).
  EXPECT_TRUE(check({access(B, true, {tileOf(V)})},
                    {access(B, false, {slice(64, 16)})})
                  .independent());
  // `elem h` with step 2 over [0, 8) selects elements 0..3.
  EXPECT_TRUE(check({access(A, true, {elemOf(H)})},
                    {access(A, false, {slice(4, 4)})})
                  .independent());
  DependenceResult r = check({access(A, true, {elemOf(H)})},
                             {access(A, false, {slice(3, 1)})});
  ASSERT_EQ(r.verdict, DependenceVerdict::Conflict);
  EXPECT_EQ(r.witness->element[0], 3);
  EXPECT_EQ(r.witness->firstVars[0].second, 6);
  // full meets everything.
  EXPECT_FALSE(check({access(B, true, {full()})},
                     {access(B, false, {slice(100, 1)})})
                   .independent());
}

TEST_F(DependenceTest, NonZeroStart) {
  EXPECT_TRUE(check({access(B, true, {tileOf(W)})},
                    {access(B, false, {slice(0, 16)})})
                  .independent());
  EXPECT_FALSE(check({access(B, true, {tileOf(W)})},
                     {access(B, false, {slice(16, 1)})})
                   .independent());
}

TEST_F(DependenceTest, SymbolicSizesCoverEveryAdmissibleValue) {
  auto tk = TileDim::symbolic(StringAttr::get(&context, "tile_k"));
  oracle.setLoop(K, {"k", 0, 64, tk});
  // Iteration i > j of the first writes [i*s, i*s+s); the second reads
  // [0, 16) in every iteration: for s < 16 they meet.
  DependenceResult r = check({access(B, true, {tileOf(K)})},
                             {access(B, false, {slice(0, 16)})},
                             DependenceQuery::Order{K, K});
  ASSERT_EQ(r.verdict, DependenceVerdict::Conflict);
  ASSERT_EQ(r.witness->sizes.size(), 1u);
  EXPECT_EQ(r.witness->sizes[0].first, "tile_k");
  int64_t s = r.witness->sizes[0].second;
  EXPECT_TRUE(s >= 1 && s < 16 && 64 % s == 0);
  // Same tile, reordered iterations: disjoint for every size.
  EXPECT_TRUE(check({access(B, true, {tileOf(K)})},
                    {access(B, false, {tileOf(K)})},
                    DependenceQuery::Order{K, K})
                  .independent());
}

TEST_F(DependenceTest, Aliasing) {
  EXPECT_TRUE(check({access(B, true, {tileOf(V)})},
                    {access(A, false, {tileOf(V)})})
                  .independent());
  EXPECT_EQ(oracle.getStats().solverCalls, 0u);
  oracle.addMayAlias(A, B);
  EXPECT_FALSE(check({access(B, true, {tileOf(V)})},
                     {access(A, false, {tileOf(V)})})
                   .independent());
  // Byte ranges: an f16 tensor over the f32 one. Elements [32, 64) of the
  // f16 view are bytes [64, 128), elements [16, 32) of the f32 one.
  oracle.setTensor(A, {"A", {128}, 2});
  EXPECT_TRUE(check({access(A, true, {slice(32, 32)})},
                    {access(B, false, {slice(0, 16)})})
                  .independent());
  EXPECT_FALSE(check({access(A, true, {slice(32, 32)})},
                     {access(B, false, {slice(16, 16)})})
                   .independent());
}

TEST_F(DependenceTest, BoundVariablesRangeIndependently) {
  // A loop over v inside the first side writes B[tile v]; the second reads
  // B[tile v] at the enclosing v: some iteration inside meets it.
  EXPECT_FALSE(check({access(B, true, {tileOf(V)})},
                     {access(B, false, {slice(48, 16)})}, std::nullopt, {V})
                   .independent());
  // `elem h` (step 2 over [0, 8)) reaches rows 0..3 only.
  EXPECT_TRUE(check({access(S, true, {elemOf(H), full()})},
                    {access(S, false, {slice(4, 4), full()})}, std::nullopt,
                    {H})
                  .independent());
  EXPECT_FALSE(check({access(S, true, {elemOf(H), full()})},
                     {access(S, false, {slice(3, 1), full()})}, std::nullopt,
                     {H})
                   .independent());
}

TEST_F(DependenceTest, ReadsNeverConflictAndAnswersAreCached) {
  EXPECT_TRUE(check({access(B, false, {tileOf(V)})},
                    {access(B, false, {tileOf(V)})})
                  .independent());
  EXPECT_EQ(oracle.getStats().pairs, 0u);
  check({access(B, true, {tileOf(V)})}, {access(B, false, {slice(64, 16)})});
  check({access(B, true, {tileOf(V)})}, {access(B, false, {slice(64, 16)})});
  EXPECT_EQ(oracle.getStats().solverCalls, 1u);
  EXPECT_EQ(oracle.getStats().cacheHits, 1u);
}

TEST_F(DependenceTest, SameProblemUnderOtherNamesAsksTheSolverOnce) {
  // u ranges as v does, B is shaped as A: the second pair poses the first
  // pair's problem with other names, and its witness names its own.
  const uint32_t u = 7;
  oracle.setLoop(u, {"u", 0, 64, TileDim::concrete(16)});
  DependenceResult first =
      check({access(A, true, {tileOf(V)})}, {access(A, false, {slice(40, 1)})});
  DependenceResult second =
      check({access(B, true, {tileOf(u)})}, {access(B, false, {slice(40, 1)})});
  EXPECT_EQ(oracle.getStats().solverCalls, 1u);
  EXPECT_EQ(oracle.getStats().cacheHits, 0u);
  ASSERT_TRUE(first.witness && second.witness);
  EXPECT_EQ(oracle.describe(*first.witness, "P", "Q"),
            "P at v = 32 and Q at v = 32 both touch A[40]");
  EXPECT_EQ(oracle.describe(*second.witness, "P", "Q"),
            "P at u = 32 and Q at u = 32 both touch B[40]");
  // Another range is another problem.
  check({access(A, true, {tileOf(W)})}, {access(A, false, {slice(40, 1)})});
  EXPECT_EQ(oracle.getStats().solverCalls, 2u);
}

TEST_F(DependenceTest, MissingLoopIsUnknown) {
  DependenceResult r = check({access(B, true, {tileOf(99)})},
                             {access(B, false, {slice(0, 1)})});
  EXPECT_EQ(r.verdict, DependenceVerdict::Unknown);
  EXPECT_FALSE(r.independent());
  EXPECT_EQ(oracle.getStats().unknown, 1u);
}

TEST_F(DependenceTest, DescribesWitnesses) {
  DependenceResult r = check({access(A, true, {elemOf(H)})},
                             {access(A, false, {slice(3, 1)})});
  ASSERT_TRUE(r.witness);
  EXPECT_EQ(oracle.describe(r.witness->first), "write of A[elem h]");
  EXPECT_EQ(oracle.describe(*r.witness, "P", "Q"),
            "P at h = 6 and Q at h = 6 both touch A[3]");
}

} // namespace
