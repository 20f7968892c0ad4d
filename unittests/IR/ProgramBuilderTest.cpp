//===- ProgramBuilderTest.cpp - Build and verify tile programs in C++ -----===//

#include "TileDialect/IR/TileOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tileir;

namespace {

/// Builds `B[i] = exp(A[i])` tiled by `tile_i`, optionally with a second
/// loop that rebinds `i` inside the first.
class ProgramBuilderTest : public ::testing::Test {
protected:
  ProgramBuilderTest() : builder(&context) {
    context.loadDialect<TileDialect>();
  }

  ProgramOp build(bool rebind) {
    Location loc = builder.getUnknownLoc();
    module = ModuleOp::create(loc);
    builder.setInsertionPointToEnd(module->getBody());
    Type f32 = builder.getF32Type();
    auto in = TensorRefType::get(&context, {64}, f32, TensorRole::Input);
    auto out = TensorRefType::get(&context, {64}, f32, TensorRole::Output);
    auto program = ProgramOp::create(builder, loc, "exp", {"A", "B"},
                                     ArrayRef<TensorRefType>{in, out});
    Block &body = program.getBodyBlock();
    builder.setInsertionPointToEnd(&body);
    auto i = VarOp::create(builder, loc, VarType::get(&context),
                           builder.getStringAttr("i"));
    auto step = SizeOp::create(builder, loc, "tile_i");
    auto index = TileIndexOp::create(builder, loc, IndexExprType::get(&context), i);
    auto tile = TileType::get(&context, {step.getDim()}, f32);
    auto load = LoadOp::create(builder, loc, tile, body.getArgument(0),
                               ValueRange{index});
    auto exp = ExpOp::create(builder, loc, load);
    auto store =
        StoreOp::create(builder, loc, StmtType::get(&context), exp,
                        body.getArgument(1), ValueRange{index});
    Value root = LoopOp::create(builder, loc, StmtType::get(&context), i,
                                builder.getI64IntegerAttr(0),
                                builder.getI64IntegerAttr(64), step, store);
    if (rebind)
      root = LoopOp::create(builder, loc, StmtType::get(&context), i,
                            builder.getI64IntegerAttr(0),
                            builder.getI64IntegerAttr(64), step, root);
    YieldOp::create(builder, loc, root);
    return program;
  }

  MLIRContext context;
  OpBuilder builder;
  OwningOpRef<ModuleOp> module;
};

TEST_F(ProgramBuilderTest, BuiltProgramVerifies) {
  ProgramOp program = build(/*rebind=*/false);
  EXPECT_TRUE(succeeded(verify(*module)));
  EXPECT_EQ(program.getTensorName(0), "A");
  EXPECT_EQ(program.getTensorName(program.getBodyBlock().getArgument(1)), "B");
  auto loop = program.getRoot().getDefiningOp<LoopOp>();
  ASSERT_TRUE(loop);
  EXPECT_EQ(loop.getVarOp().getName(), "i");
  EXPECT_EQ(*loop.getStepDim(),
            TileDim::symbolic(StringAttr::get(&context, "tile_i")));
  EXPECT_EQ(loop.getStartIndex(), 0);
  EXPECT_EQ(loop.getEndIndex(), 64);
}

TEST_F(ProgramBuilderTest, RebindingIsRejected) {
  build(/*rebind=*/true);
  std::string message;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    if (message.empty())
      message = diag.str();
    return success();
  });
  EXPECT_TRUE(failed(verify(*module)));
  EXPECT_EQ(message, "'tile.loop' op rebinds loop variable 'i', which an "
                     "enclosing loop already binds");
}

} // namespace
