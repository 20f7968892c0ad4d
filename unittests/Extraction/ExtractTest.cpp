//===- ExtractTest.cpp - Two-pass extraction and candidate checks ---------===//

#include "TileDialect/Extraction/Check.h"
#include "TileDialect/Extraction/Extract.h"
#include "TileDialect/IR/TileDialect.h"
#include "TileDialect/Rules/Saturate.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/PDL/IR/PDL.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tileir;

namespace {

/// B = exp(A) then C = B + 1, tile by tile: two loops that may fuse (the
/// second reads only the tile the first wrote in the same iteration).
constexpr llvm::StringLiteral kProgram = R"mlir(
tile.program @p(%A: !tile.tensor<64xf32, input>,
    %B: !tile.tensor<64xf32, intermediate>, %C: !tile.tensor<64xf32, output>) {
  %i = tile.var "i"
  %s = tile.size 16
  %t = tile.tile %i
  %a = tile.load %A[%t] : !tile.tensor<64xf32, input> -> !tile.tile<[16], f32>
  %e = tile.exp %a : !tile.tile<[16], f32>
  %sb = tile.store %e, %B[%t] : !tile.tile<[16], f32>, !tile.tensor<64xf32, intermediate>
  %l1 = tile.loop %i = 0 to 64 step %s body %sb
  %b = tile.load %B[%t] : !tile.tensor<64xf32, intermediate> -> !tile.tile<[16], f32>
  %one = tile.constant 1.0 : !tile.tile<[16], f32>
  %c = tile.add %b, %one : !tile.tile<[16], f32>
  %sc = tile.store %c, %C[%t] : !tile.tile<[16], f32>, !tile.tensor<64xf32, output>
  %l2 = tile.loop %i = 0 to 64 step %s body %sc
  %r = tile.seq %l1, %l2
  tile.yield %r
}
)mlir";

class ExtractTest : public ::testing::Test {
protected:
  ExtractTest() {
    context.loadDialect<TileDialect, pdl::PDLDialect, func::FuncDialect,
                        linalg::LinalgDialect, tensor::TensorDialect,
                        arith::ArithDialect>();
  }

  ProgramOp parse(StringRef text) {
    module = parseSourceString<ModuleOp>(text, ParserConfig(&context));
    return module ? *module->getOps<ProgramOp>().begin() : nullptr;
  }

  std::vector<Candidate> extract(ProgramOp p, std::vector<std::string> only,
                                 ExtractStats &stats, unsigned topK = 4) {
    SaturateOptions sopts;
    sopts.only = std::move(only);
    auto sat = Saturation::run(p, sopts);
    EXPECT_TRUE(succeeded(sat));
    ExtractOptions eopts;
    eopts.topK = topK;
    auto cands = extractCandidates((*sat)->getEGraph(), (*sat)->getRoot(), p,
                                   eopts, stats);
    EXPECT_TRUE(succeeded(cands));
    return *cands;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

TEST_F(ExtractTest, FusionLowersTheKernelCount) {
  ProgramOp p = parse(kProgram);
  ASSERT_TRUE(p);
  ExtractStats stats;
  std::vector<Candidate> cands = extract(p, {"Fusion"}, stats);
  ASSERT_FALSE(cands.empty());
  EXPECT_EQ(cands.front().structure.kernels, 1u);
  EXPECT_EQ(cands.front().structure.loops, 1u);
  EXPECT_TRUE(stats.fixpoint);
  // Best first, and named so.
  EXPECT_EQ(cands.front().program.getSymName(), "p_c0");
  for (size_t i = 1; i < cands.size(); ++i)
    EXPECT_LE(cands[i - 1].structure.kernels, cands[i].structure.kernels);
  // Every candidate computes what the input computes.
  CandidateChecker checker(p, /*seed=*/1, /*tolerance=*/1e-12);
  for (const Candidate &c : cands) {
    CheckResult r = checker.check(c.program);
    EXPECT_TRUE(r.passed) << r.error << " " << r.maxRelError;
  }
}

TEST_F(ExtractTest, WithoutFusionTwoKernelsRemain) {
  ProgramOp p = parse(kProgram);
  ASSERT_TRUE(p);
  ExtractStats stats;
  std::vector<Candidate> cands = extract(p, {"Sequence"}, stats);
  ASSERT_EQ(cands.size(), 1u);
  EXPECT_EQ(cands.front().structure.kernels, 2u);
}

TEST_F(ExtractTest, CrossingsCountTilesBetweenLoops) {
  ProgramOp p = parse(kProgram);
  ASSERT_TRUE(p);
  ExtractStats stats;
  // Unfused: C's loop reads B, written by the other kernel.
  EXPECT_EQ(extract(p, {"Sequence"}, stats).front().structure.crossings, 1u);
  // Fused: B is written in the same loop that reads it.
  EXPECT_EQ(extract(p, {"Fusion"}, stats).front().structure.crossings, 0u);
}

/// Whether `p` stores into the tensor named `name`.
bool storesInto(ProgramOp p, StringRef name) {
  bool found = false;
  p.walk([&](StoreOp store) {
    auto arg = dyn_cast<BlockArgument>(store.getTensor());
    found |= arg && p.getTensorName(arg.getArgNumber()) == name;
  });
  return found;
}

TEST_F(ExtractTest, DropsAnIntermediateNothingNeedsToLoad) {
  ProgramOp p = parse(kProgram);
  ASSERT_TRUE(p);
  ExtractStats stats;
  // Fused, propagation gives C = exp(A) + 1 without the load of B, so B's
  // store is dead and the best candidate leaves it out.
  std::vector<Candidate> cands = extract(p, {"Fusion"}, stats);
  EXPECT_EQ(stats.droppedTensors, 1u);
  ASSERT_FALSE(cands.empty());
  EXPECT_EQ(cands.front().structure.kernels, 1u);
  EXPECT_EQ(cands.front().structure.stores, 1u);
  EXPECT_FALSE(storesInto(cands.front().program, "B"));
  CandidateChecker checker(p, /*seed=*/3, /*tolerance=*/1e-12);
  for (const Candidate &c : cands) {
    CheckResult r = checker.check(c.program);
    EXPECT_TRUE(r.passed) << r.error << " " << r.maxRelError;
  }
}

TEST_F(ExtractTest, KeepsAnOutputAndAnIntermediateThatMustBeLoaded) {
  // B an output: its stores are observable.
  std::string text = kProgram.str();
  for (size_t at;
       (at = text.find("64xf32, intermediate")) != std::string::npos;)
    text.replace(at, 20, "64xf32, output");
  ProgramOp p = parse(text);
  ASSERT_TRUE(p);
  ExtractStats stats;
  std::vector<Candidate> cands = extract(p, {"Fusion"}, stats);
  EXPECT_EQ(stats.droppedTensors, 0u);
  for (const Candidate &c : cands)
    EXPECT_TRUE(storesInto(c.program, "B"));
  // A sum every later element divides by: no expression replaces its load.
  p = parse(R"mlir(
tile.program @q(%A: !tile.tensor<64xf32, input>,
    %S: !tile.tensor<1xf32, intermediate>, %B: !tile.tensor<64xf32, output>) {
  %k = tile.var "k"
  %tk = tile.size 16
  %t = tile.tile %k
  %f = tile.full
  %a = tile.load %A[%t] : !tile.tensor<64xf32, input> -> !tile.tile<[16], f32>
  %s = tile.load %S[%f] : !tile.tensor<1xf32, intermediate> -> !tile.tile<[1], f32>
  %r = tile.rsum %a, 0 : !tile.tile<[16], f32> -> !tile.tile<[], f32>
  %rb = tile.bcast %r [0] : !tile.tile<[], f32> -> !tile.tile<[1], f32>
  %n = tile.add %s, %rb : !tile.tile<[1], f32>
  %st = tile.store %n, %S[%f] : !tile.tile<[1], f32>, !tile.tensor<1xf32, intermediate>
  %l1 = tile.loop %k = 0 to 64 step %tk body %st
  %s0 = tile.rsum %s, 0 : !tile.tile<[1], f32> -> !tile.tile<[], f32>
  %sb = tile.bcast %s0 [0] : !tile.tile<[], f32> -> !tile.tile<[16], f32>
  %d = tile.div %a, %sb : !tile.tile<[16], f32>
  %sd = tile.store %d, %B[%t] : !tile.tile<[16], f32>, !tile.tensor<64xf32, output>
  %l2 = tile.loop %k = 0 to 64 step %tk body %sd
  %r2 = tile.seq %l1, %l2
  tile.yield %r2
}
)mlir");
  ASSERT_TRUE(p);
  cands = extract(p, {"Fusion"}, stats);
  EXPECT_EQ(stats.droppedTensors, 0u);
  ASSERT_FALSE(cands.empty());
  for (const Candidate &c : cands)
    EXPECT_TRUE(storesInto(c.program, "S"));
}

TEST_F(ExtractTest, CheckerCatchesAWrongCandidate) {
  ProgramOp p = parse(kProgram);
  ASSERT_TRUE(p);
  // A "candidate" that forgets the exp.
  OpBuilder b(&context);
  b.setInsertionPointToEnd(module->getBody());
  auto wrong = cast<ProgramOp>(b.clone(*p));
  wrong.setSymName("wrong");
  wrong.walk([&](ExpOp exp) {
    exp.getResult().replaceAllUsesWith(exp.getOperand());
    exp.erase();
  });
  CandidateChecker checker(p, /*seed=*/1, /*tolerance=*/1e-2);
  CheckResult r = checker.check(wrong);
  EXPECT_TRUE(r.error.empty()) << r.error;
  EXPECT_FALSE(r.passed);
  EXPECT_GT(r.maxRelError, 1e-2);
}

TEST_F(ExtractTest, CheckerComparesElementByElement) {
  // D = exp(A) - 1.7 crosses zero. A candidate subtracting 1.705 is 0.005
  // off everywhere: under 1e-2 of D's largest magnitude (over 1), but far
  // off for the elements of D near zero. The check must see it.
  ProgramOp p = parse(R"mlir(
tile.program @p(%A: !tile.tensor<64xf32, input>, %D: !tile.tensor<64xf32, output>) {
  %i = tile.var "i"
  %s = tile.size 16
  %t = tile.tile %i
  %a = tile.load %A[%t] : !tile.tensor<64xf32, input> -> !tile.tile<[16], f32>
  %e = tile.exp %a : !tile.tile<[16], f32>
  %c = tile.constant 1.7 : !tile.tile<[16], f32>
  %d = tile.sub %e, %c : !tile.tile<[16], f32>
  %sd = tile.store %d, %D[%t] : !tile.tile<[16], f32>, !tile.tensor<64xf32, output>
  %l = tile.loop %i = 0 to 64 step %s body %sd
  tile.yield %l
}
)mlir");
  ASSERT_TRUE(p);
  // The same with 1.7 replaced by `k`.
  auto withConstant = [&](double k) {
    OpBuilder b(&context);
    b.setInsertionPointToEnd(module->getBody());
    auto copy = cast<ProgramOp>(b.clone(*p));
    copy.walk([&](ConstantOp c) {
      c->setAttr("value", FloatAttr::get(Float32Type::get(&context), k));
    });
    return copy;
  };
  CandidateChecker checker(p, /*seed=*/1, /*tolerance=*/1e-2);
  // 1e-6 off everywhere: passes (1e-6 / (|D| + 1e-3 max |D|) < 1e-2).
  CheckResult close = checker.check(withConstant(1.7 + 1e-6));
  EXPECT_TRUE(close.passed) << close.mismatch;
  CheckResult off = checker.check(withConstant(1.705));
  EXPECT_LT(off.maxRelError, 1e-2);
  EXPECT_FALSE(off.passed);
  EXPECT_GT(off.maxElementError, 1e-2);
  EXPECT_NE(off.mismatch.find("of 'D' is"), std::string::npos) << off.mismatch;
}

/// The linalg function kProgram computes (C = exp(A) + 1), with `UNARY`
/// standing for the exp.
std::string linalgFunction(StringRef unary) {
  return (R"mlir(
func.func @p(%A: tensor<64xf32>) -> tensor<64xf32> {
  %e0 = tensor.empty() : tensor<64xf32>
  %e = linalg.)mlir" +
          unary + R"mlir( ins(%A : tensor<64xf32>) outs(%e0 : tensor<64xf32>) -> tensor<64xf32>
  %one = arith.constant 1.0 : f32
  %o0 = tensor.empty() : tensor<64xf32>
  %ones = linalg.fill ins(%one : f32) outs(%o0 : tensor<64xf32>) -> tensor<64xf32>
  %c0 = tensor.empty() : tensor<64xf32>
  %c = linalg.add ins(%e, %ones : tensor<64xf32>, tensor<64xf32>) outs(%c0 : tensor<64xf32>) -> tensor<64xf32>
  return %c : tensor<64xf32>
}
)mlir")
      .str();
}

TEST_F(ExtractTest, CheckerComparesWithTheLinalgFunction) {
  ProgramOp p = parse(kProgram);
  ASSERT_TRUE(p);
  OwningOpRef<ModuleOp> ref =
      parseSourceString<ModuleOp>(linalgFunction("exp"), ParserConfig(&context));
  ASSERT_TRUE(ref);
  auto func = *ref->getOps<func::FuncOp>().begin();
  CandidateChecker checker(p, /*seed=*/1, /*tolerance=*/1e-6, func);
  CheckResult r = checker.check(p);
  EXPECT_TRUE(r.error.empty()) << r.error;
  EXPECT_TRUE(r.passed);
  EXPECT_LT(r.maxRelError, 1e-12);
}

TEST_F(ExtractTest, CheckerRefusesAProgramThatDiffersFromItsLinalgFunction) {
  ProgramOp p = parse(kProgram);
  ASSERT_TRUE(p);
  // The function negates where the program exponentiates: nothing is
  // checked against a wrong reference.
  OwningOpRef<ModuleOp> ref = parseSourceString<ModuleOp>(
      linalgFunction("negf"), ParserConfig(&context));
  ASSERT_TRUE(ref);
  auto func = *ref->getOps<func::FuncOp>().begin();
  CandidateChecker checker(p, /*seed=*/1, /*tolerance=*/1e-2, func);
  CheckResult r = checker.check(p);
  EXPECT_FALSE(r.passed);
  EXPECT_NE(r.error.find("differs from the linalg function"),
            std::string::npos)
      << r.error;
}

} // namespace
