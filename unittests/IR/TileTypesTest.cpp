//===- TileTypesTest.cpp - Tile extents and types -------------------------===//

#include "TileDialect/IR/TileDialect.h"
#include "TileDialect/IR/TileTypes.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tileir;

namespace {

class TileTypesTest : public ::testing::Test {
protected:
  TileTypesTest() { context.loadDialect<TileDialect>(); }

  StringAttr sym(StringRef name) { return StringAttr::get(&context, name); }

  std::string print(Type type) {
    std::string s;
    llvm::raw_string_ostream os(s);
    type.print(os);
    return s;
  }

  MLIRContext context;
};

TEST_F(TileTypesTest, DimEqualityAndSum) {
  TileDim four = TileDim::concrete(4);
  TileDim tk = TileDim::symbolic(sym("tile_k"));
  EXPECT_EQ(four, TileDim::concrete(4));
  EXPECT_NE(four, tk);
  EXPECT_NE(tk, TileDim::symbolic(sym("tile_n")));
  EXPECT_EQ(*four.add(TileDim::concrete(12)), TileDim::concrete(16));
  EXPECT_EQ(*tk.add(tk), TileDim::symbolic(sym("tile_k"), 2));
  EXPECT_FALSE(four.add(tk).has_value());
  EXPECT_EQ(toString(TileDim::symbolic(sym("tile_k"), 3)), "3*tile_k");
  EXPECT_EQ(toString(ArrayRef<TileDim>{four, tk}), "[4, tile_k]");
}

TEST_F(TileTypesTest, SameElementCount) {
  TileDim tk = TileDim::symbolic(sym("tile_k"));
  TileDim tn = TileDim::symbolic(sym("tile_n"));
  auto c = TileDim::concrete;
  EXPECT_TRUE(haveSameElementCount({c(4), c(8)}, {c(32)}));
  EXPECT_TRUE(haveSameElementCount({c(4), tk, tn}, {tn, c(2), tk, c(2)}));
  EXPECT_TRUE(haveSameElementCount({TileDim::symbolic(sym("tile_k"), 2)},
                                   {c(2), tk}));
  EXPECT_FALSE(haveSameElementCount({c(4), tk}, {c(4), tn}));
  EXPECT_FALSE(haveSameElementCount({c(4), tk}, {c(4)}));
  EXPECT_FALSE(haveSameElementCount({c(3)}, {c(4)}));
  // Overflow is never "the same".
  EXPECT_FALSE(haveSameElementCount({c(INT64_MAX), c(4)}, {c(4)}));
}

TEST_F(TileTypesTest, ParsePrintRoundTrip) {
  for (StringRef text :
       {"!tile.tile<[16, tile_k], f16>", "!tile.tile<[], f32>",
        "!tile.tile<[2*tile_n, 1], i1>", "!tile.tensor<16x4096xf16, input>",
        "!tile.tensor<f32, inout>", "!tile.tensor<2x3xbf16, intermediate>",
        "!tile.stmt", "!tile.index", "!tile.var", "!tile.size"}) {
    Type type = parseType(text, &context);
    ASSERT_TRUE(type) << text.str();
    EXPECT_EQ(print(type), text.str());
  }
}

TEST_F(TileTypesTest, TensorAccessors) {
  auto type = cast<TensorRefType>(
      parseType("!tile.tensor<2x3xf16, input>", &context));
  EXPECT_EQ(type.getRank(), 2);
  EXPECT_FALSE(type.isWritable());
  auto out = TensorRefType::get(&context, {4}, Type(Float32Type::get(&context)),
                                TensorRole::InOut);
  EXPECT_TRUE(out.isWritable());
}

TEST_F(TileTypesTest, TileAccessors) {
  auto type =
      cast<TileType>(parseType("!tile.tile<[4, tile_k], f16>", &context));
  EXPECT_EQ(type.getRank(), 2);
  EXPECT_FALSE(type.hasStaticShape());
  TileType f32 = type.withElementType(Float32Type::get(&context));
  EXPECT_EQ(f32.getShape(), type.getShape());
  EXPECT_TRUE(f32.getElementType().isF32());
  EXPECT_TRUE(
      cast<TileType>(parseType("!tile.tile<[4, 2], f16>", &context))
          .hasStaticShape());
}

TEST_F(TileTypesTest, InvalidTypesAreDiagnosed) {
  std::string message;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    message = diag.str();
    return success();
  });
  auto loc = UnknownLoc::get(&context);
  auto emit = [&] { return emitError(loc); };
  TileType bad = TileType::getChecked(
      llvm::function_ref<InFlightDiagnostic()>(emit), &context,
      ArrayRef<TileDim>{TileDim::concrete(-1)}, Type(Float32Type::get(&context)));
  EXPECT_FALSE(bad);
  EXPECT_EQ(message, "tile extents must be positive, got -1");
  TensorRefType badTensor = TensorRefType::getChecked(
      llvm::function_ref<InFlightDiagnostic()>(emit), &context, ArrayRef<int64_t>{4},
      Type(IntegerType::get(&context, 8)), TensorRole::Input);
  EXPECT_FALSE(badTensor);
  EXPECT_EQ(message,
            "tensor element type must be a float type or i1, got 'i8'");
}

} // namespace
