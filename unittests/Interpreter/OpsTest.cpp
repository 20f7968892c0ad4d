//===- OpsTest.cpp - The interpreter's compute and layout ops -------------===//

#include "InterpreterTestUtil.h"

#include "llvm/ADT/StringExtras.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tileir;

namespace {

/// `2x3` as a tile shape: `[2, 3]`.
std::string tileShape(llvm::StringRef tensorShape) {
  llvm::SmallVector<llvm::StringRef> dims;
  tensorShape.split(dims, 'x');
  return "[" + llvm::join(dims, ", ") + "]";
}

/// A program that loads the inputs `A` (and `B`, if `bShape` is not empty)
/// whole as `%a` and `%b`, computes `body`, which defines `%r`, and stores
/// `%r` whole into the output `O`. Shapes are tensor shapes (`2x3`).
std::string wholeProgram(llvm::StringRef aShape, llvm::StringRef bShape,
                         llvm::StringRef outShape, llvm::StringRef body,
                         llvm::StringRef element = "f32",
                         llvm::StringRef outElement = "f32") {
  auto fulls = [](llvm::StringRef shape) {
    llvm::SmallVector<llvm::StringRef> dims;
    shape.split(dims, 'x');
    return llvm::join(llvm::SmallVector<std::string>(dims.size(), "%f"), ", ");
  };
  std::string a = ("!tile.tensor<" + aShape + "x" + element + ", input>").str();
  std::string b = ("!tile.tensor<" + bShape + "x" + element + ", input>").str();
  std::string o =
      ("!tile.tensor<" + outShape + "x" + outElement + ", output>").str();
  std::string s = "tile.program @t(%A: " + a;
  if (!bShape.empty())
    s += ", %B: " + b;
  s += ", %O: " + o + ") {\n  %f = tile.full\n";
  s += "  %a = tile.load %A[" + fulls(aShape) + "] : " + a + " -> !tile.tile<" +
       tileShape(aShape) + ", " + element.str() + ">\n";
  if (!bShape.empty())
    s += "  %b = tile.load %B[" + fulls(bShape) + "] : " + b +
         " -> !tile.tile<" + tileShape(bShape) + ", " + element.str() + ">\n";
  s += body.str() + "\n";
  s += "  %s = tile.store %r, %O[" + fulls(outShape) + "] : !tile.tile<" +
       tileShape(outShape) + ", " + outElement.str() + ">, " + o + "\n";
  s += "  tile.yield %s\n}\n";
  return s;
}

/// 0, 1, ..., n - 1.
std::vector<double> iota(int n) {
  std::vector<double> v(n);
  for (int i = 0; i < n; ++i)
    v[i] = i;
  return v;
}

const std::vector<double> kA = {1.0, -2.0, 0.5, 4.0, 9.0, -0.25};
const std::vector<double> kB = {3.0, 5.0, -1.0, 2.0, 0.5, 4.0};
const std::vector<double> kPositive = {1.0, 2.0, 0.5, 4.0, 9.0, 0.25};

TEST_F(InterpreterTest, BinaryElementwise) {
  struct Case {
    const char *op;
    std::vector<double> expected;
  };
  const Case cases[] = {
      {"add", {4.0, 3.0, -0.5, 6.0, 9.5, 3.75}},
      {"sub", {-2.0, -7.0, 1.5, 2.0, 8.5, -4.25}},
      {"mul", {3.0, -10.0, -0.5, 8.0, 4.5, -1.0}},
      {"div", {1.0 / 3.0, -0.4, -0.5, 2.0, 18.0, -0.0625}},
      {"max", {3.0, 5.0, 0.5, 4.0, 9.0, 4.0}},
      {"min", {1.0, -2.0, -1.0, 2.0, 0.5, -0.25}},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.op);
    std::string body = std::string("  %r = tile.") + c.op +
                       " %a, %b : !tile.tile<[2, 3], f32>";
    expectNear(runProgram(wholeProgram("2x3", "2x3", "2x3", body),
                          {{"A", kA}, {"B", kB}}),
               c.expected);
  }
}

// tile.max / tile.min follow IEEE maxNum / minNum: a NaN operand yields the
// other one (the identity linalg.softmax's decomposition relies on).
TEST_F(InterpreterTest, MaxAndMinIgnoreNaN) {
  double nan = std::nan("");
  std::vector<double> a = {nan, 1.0, 2.0, nan, 0.0, 3.0};
  std::vector<double> b = {1.0, nan, 1.0, nan, 0.0, 4.0};
  for (const char *op : {"max", "min"}) {
    std::string body =
        std::string("  %r = tile.") + op + " %a, %b : !tile.tile<[2, 3], f32>";
    std::vector<double> r = runProgram(wholeProgram("2x3", "2x3", "2x3", body),
                                       {{"A", a}, {"B", b}});
    ASSERT_EQ(r.size(), 6u);
    EXPECT_EQ(r[0], 1.0);
    EXPECT_EQ(r[1], 1.0);
    EXPECT_TRUE(std::isnan(r[3]));
    EXPECT_EQ(r[2], op == std::string("max") ? 2.0 : 1.0);
    EXPECT_EQ(r[5], op == std::string("max") ? 4.0 : 3.0);
  }
}

TEST_F(InterpreterTest, UnaryElementwise) {
  struct Case {
    const char *op;
    double (*fn)(double);
  };
  const Case cases[] = {
      {"neg", [](double x) { return -x; }},
      {"abs", [](double x) { return std::fabs(x); }},
      {"sqr", [](double x) { return x * x; }},
      {"exp", [](double x) { return std::exp(x); }},
      {"log", [](double x) { return std::log(x); }},
      {"sqrt", [](double x) { return std::sqrt(x); }},
      {"rsqrt", [](double x) { return 1.0 / std::sqrt(x); }},
      {"sigmoid", [](double x) { return 1.0 / (1.0 + std::exp(-x)); }},
      {"tanh", [](double x) { return std::tanh(x); }},
      {"erf", [](double x) { return std::erf(x); }},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.op);
    std::string body =
        std::string("  %r = tile.") + c.op + " %a : !tile.tile<[2, 3], f32>";
    std::vector<double> expected;
    for (double x : kPositive)
      expected.push_back(c.fn(x));
    expectNear(
        runProgram(wholeProgram("2x3", "", "2x3", body), {{"A", kPositive}}),
        expected);
  }
  // A few values by hand.
  std::vector<double> r =
      runProgram(wholeProgram("2x3", "", "2x3",
                              "  %r = tile.rsqrt %a : !tile.tile<[2, 3], f32>"),
                 {{"A", kPositive}});
  expectNear(r, {1.0, std::sqrt(0.5), std::sqrt(2.0), 0.5, 1.0 / 3.0, 2.0});
  r = runProgram(
      wholeProgram("2x3", "", "2x3",
                   "  %r = tile.sigmoid %a : !tile.tile<[2, 3], f32>"),
      {{"A", {0.0, 0.0, 0.0, 0.0, 0.0, 0.0}}});
  expectNear(r, std::vector<double>(6, 0.5));
}

/// `O = cast(cmp(A, B))` and `O = select(cmp(A, B), A, B)` for every
/// predicate, with NaN operands.
TEST_F(InterpreterTest, CmpAndSelect) {
  double nan = std::nan("");
  std::vector<double> a = {1.0, 2.0, nan, 4.0};
  std::vector<double> b = {1.0, 3.0, 5.0, nan};
  struct Case {
    const char *predicate;
    std::vector<double> mask;
  };
  const Case cases[] = {
      {"eq", {1, 0, 0, 0}}, {"ne", {0, 1, 1, 1}}, {"lt", {0, 1, 0, 0}},
      {"le", {1, 1, 0, 0}}, {"gt", {0, 0, 0, 0}}, {"ge", {1, 0, 0, 0}},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.predicate);
    std::string cmp =
        std::string("  %m = tile.cmp ") + c.predicate +
        ", %a, %b : !tile.tile<[4], f32> -> !tile.tile<[4], i1>\n";
    std::vector<double> mask = runProgram(
        wholeProgram("4", "4", "4",
                     cmp + "  %r = tile.cast %m : !tile.tile<[4], i1> -> "
                           "!tile.tile<[4], f32>"),
        {{"A", a}, {"B", b}});
    EXPECT_EQ(mask, c.mask);
    std::vector<double> picked = runProgram(
        wholeProgram("4", "4", "4",
                     cmp + "  %r = tile.select %m, %a, %b : "
                           "!tile.tile<[4], i1>, !tile.tile<[4], f32>"),
        {{"A", a}, {"B", b}});
    ASSERT_EQ(picked.size(), 4u);
    for (int i = 0; i < 4; ++i) {
      double expected = c.mask[i] ? a[i] : b[i];
      if (std::isnan(expected))
        EXPECT_TRUE(std::isnan(picked[i])) << i;
      else
        EXPECT_EQ(picked[i], expected) << i;
    }
  }
}

TEST_F(InterpreterTest, Reductions) {
  // A = 0..23 as 2x3x4.
  auto reduce = [&](const char *op, int axis, llvm::StringRef outShape) {
    std::string body = std::string("  %r = tile.") + op + " %a, " +
                       std::to_string(axis) +
                       " : !tile.tile<[2, 3, 4], f32> -> !tile.tile<" +
                       tileShape(outShape) + ", f32>";
    return runProgram(wholeProgram("2x3x4", "", outShape, body),
                      {{"A", iota(24)}});
  };
  EXPECT_EQ(reduce("rsum", 2, "2x3"),
            (std::vector<double>{6, 22, 38, 54, 70, 86}));
  EXPECT_EQ(
      reduce("rsum", 0, "3x4"),
      (std::vector<double>{12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34}));
  EXPECT_EQ(reduce("rsum", 1, "2x4"),
            (std::vector<double>{12, 15, 18, 21, 48, 51, 54, 57}));
  EXPECT_EQ(reduce("rmax", 1, "2x4"),
            (std::vector<double>{8, 9, 10, 11, 20, 21, 22, 23}));
  EXPECT_EQ(reduce("rmin", 2, "2x3"),
            (std::vector<double>{0, 4, 8, 12, 16, 20}));
  EXPECT_EQ(
      reduce("rmax", 0, "3x4"),
      (std::vector<double>{12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23}));
}

/// A rank-1 tile reduces to a scalar (rank 0), which unsqueezes back.
TEST_F(InterpreterTest, ReductionToScalar) {
  std::string body =
      "  %t = tile.rsum %a, 0 : !tile.tile<[4], f32> -> !tile.tile<[], f32>\n"
      "  %r = tile.unsqueeze %t, 0 : !tile.tile<[], f32> -> "
      "!tile.tile<[1], f32>";
  EXPECT_EQ(runProgram(wholeProgram("4", "", "1", body),
                       {{"A", {1.0, 2.0, 3.0, 4.5}}}),
            (std::vector<double>{10.5}));
}

TEST_F(InterpreterTest, BatchedMatmul) {
  std::string body = "  %r = tile.matmul %a, %b : !tile.tile<[2, 2, 3], f32>, "
                     "!tile.tile<[2, 3, 2], f32> -> !tile.tile<[2, 2, 2], f32>";
  // Batch 0: [[1,2,3],[4,5,6]] x [[1,0],[0,1],[1,1]];
  // batch 1: [[1,0,0],[0,2,0]] x [[1,2],[3,4],[5,6]].
  std::vector<double> a = {1, 2, 3, 4, 5, 6, 1, 0, 0, 0, 2, 0};
  std::vector<double> b = {1, 0, 0, 1, 1, 1, 1, 2, 3, 4, 5, 6};
  EXPECT_EQ(runProgram(wholeProgram("2x2x3", "2x3x2", "2x2x2", body),
                       {{"A", a}, {"B", b}}),
            (std::vector<double>{4, 5, 10, 11, 1, 2, 6, 8}));
}

TEST_F(InterpreterTest, MatmulWidensF16ToF32) {
  std::string body = "  %r = tile.matmul %a, %b : !tile.tile<[1, 2], f16>, "
                     "!tile.tile<[2, 1], f16> -> !tile.tile<[1, 1], f32>";
  std::string source = wholeProgram("1x2", "2x1", "1x1", body, "f16", "f32");
  // 2049 * 1 + 1 * 1 in f32 is exact; the f16 operands round 2049 to 2048.
  EXPECT_EQ(runProgram(source, {{"A", {2049.0, 1.0}}, {"B", {1.0, 1.0}}},
                       Precision::F32),
            (std::vector<double>{2049.0}));
  EXPECT_EQ(runProgram(source, {{"A", {2049.0, 1.0}}, {"B", {1.0, 1.0}}},
                       Precision::F64),
            (std::vector<double>{2050.0}));
}

TEST_F(InterpreterTest, PermuteAndTranspose) {
  // r[i][j][k] = a[j][k][i] for a = 0..23 as 2x3x4.
  std::vector<double> expected;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 3; ++k)
        expected.push_back(j * 12 + k * 4 + i);
  EXPECT_EQ(runProgram(wholeProgram("2x3x4", "", "4x2x3",
                                    "  %r = tile.permute %a [2, 0, 1] : "
                                    "!tile.tile<[2, 3, 4], f32> -> "
                                    "!tile.tile<[4, 2, 3], f32>"),
                       {{"A", iota(24)}}),
            expected);
  EXPECT_EQ(runProgram(wholeProgram("2x3", "", "3x2",
                                    "  %r = tile.transpose %a, 0, 1 : "
                                    "!tile.tile<[2, 3], f32> -> "
                                    "!tile.tile<[3, 2], f32>"),
                       {{"A", iota(6)}}),
            (std::vector<double>{0, 3, 1, 4, 2, 5}));
}

TEST_F(InterpreterTest, Bcast) {
  EXPECT_EQ(runProgram(wholeProgram("2", "", "2x3",
                                    "  %r = tile.bcast %a [1] : "
                                    "!tile.tile<[2], f32> -> "
                                    "!tile.tile<[2, 3], f32>"),
                       {{"A", {7, 8}}}),
            (std::vector<double>{7, 7, 7, 8, 8, 8}));
  EXPECT_EQ(runProgram(wholeProgram("2", "", "3x2",
                                    "  %r = tile.bcast %a [0] : "
                                    "!tile.tile<[2], f32> -> "
                                    "!tile.tile<[3, 2], f32>"),
                       {{"A", {7, 8}}}),
            (std::vector<double>{7, 8, 7, 8, 7, 8}));
  // Two inserted dimensions around the operand's.
  std::vector<double> expected;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 2; ++k)
        expected.push_back(10 + j);
  EXPECT_EQ(runProgram(wholeProgram("3", "", "2x3x2",
                                    "  %r = tile.bcast %a [0, 2] : "
                                    "!tile.tile<[3], f32> -> "
                                    "!tile.tile<[2, 3, 2], f32>"),
                       {{"A", {10, 11, 12}}}),
            expected);
}

TEST_F(InterpreterTest, SqueezeUnsqueezeReshape) {
  EXPECT_EQ(runProgram(wholeProgram("2x1x3", "", "2x3",
                                    "  %r = tile.squeeze %a, 1 : "
                                    "!tile.tile<[2, 1, 3], f32> -> "
                                    "!tile.tile<[2, 3], f32>"),
                       {{"A", iota(6)}}),
            iota(6));
  EXPECT_EQ(runProgram(wholeProgram("2x3", "", "2x3x1",
                                    "  %r = tile.unsqueeze %a, 2 : "
                                    "!tile.tile<[2, 3], f32> -> "
                                    "!tile.tile<[2, 3, 1], f32>"),
                       {{"A", iota(6)}}),
            iota(6));
  // Row-major: reshape then transpose shows the order.
  EXPECT_EQ(runProgram(wholeProgram("2x6", "", "4x3",
                                    "  %t = tile.reshape %a : "
                                    "!tile.tile<[2, 6], f32> -> "
                                    "!tile.tile<[3, 4], f32>\n"
                                    "  %r = tile.transpose %t, 0, 1 : "
                                    "!tile.tile<[3, 4], f32> -> "
                                    "!tile.tile<[4, 3], f32>"),
                       {{"A", iota(12)}}),
            (std::vector<double>{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}));
}

TEST_F(InterpreterTest, Concat) {
  EXPECT_EQ(runProgram(wholeProgram("2x2", "2x3", "2x5",
                                    "  %r = tile.concat %a, %b axis 1 : "
                                    "!tile.tile<[2, 2], f32>, "
                                    "!tile.tile<[2, 3], f32> -> "
                                    "!tile.tile<[2, 5], f32>"),
                       {{"A", {1, 2, 3, 4}}, {"B", {5, 6, 7, 8, 9, 10}}}),
            (std::vector<double>{1, 2, 5, 6, 7, 3, 4, 8, 9, 10}));
  EXPECT_EQ(runProgram(wholeProgram("1x2", "", "3x2",
                                    "  %r = tile.concat %a, %a, %a axis 0 : "
                                    "!tile.tile<[1, 2], f32>, "
                                    "!tile.tile<[1, 2], f32>, "
                                    "!tile.tile<[1, 2], f32> -> "
                                    "!tile.tile<[3, 2], f32>"),
                       {{"A", {1, 2}}}),
            (std::vector<double>{1, 2, 1, 2, 1, 2}));
}

TEST_F(InterpreterTest, CastRoundsInF32AndF64Casts) {
  std::string source = wholeProgram(
      "3", "", "3",
      "  %h = tile.cast %a : !tile.tile<[3], f32> -> !tile.tile<[3], f16>\n"
      "  %r = tile.cast %h : !tile.tile<[3], f16> -> !tile.tile<[3], f32>");
  std::vector<double> in = {0.1, 65519.0, 1.0 + 1.0 / 4096};
  EXPECT_EQ(
      runProgram(source, {{"A", in}}, Precision::F32),
      (std::vector<double>{roundToElement(ElementKind::F16, (double)(float)0.1),
                           65504.0, 1.0}));
  EXPECT_EQ(runProgram(source, {{"A", in}}, Precision::F64), in);
  // F64Casts rounds the casts only: 0.1 is not first rounded to f32.
  EXPECT_EQ(runProgram(source, {{"A", in}}, Precision::F64Casts),
            (std::vector<double>{roundToElement(ElementKind::F16, 0.1),
                                 65504.0, 1.0}));
  // Arithmetic stays exact in F64Casts: (x + 2^-30) - x is 2^-30.
  std::string exact = wholeProgram(
      "1", "", "1",
      "  %c = tile.constant 9.3132257461547852E-10 : !tile.tile<[1], f32>\n"
      "  %p = tile.add %a, %c : !tile.tile<[1], f32>\n"
      "  %r = tile.sub %p, %a : !tile.tile<[1], f32>");
  EXPECT_EQ(runProgram(exact, {{"A", {1.0}}}, Precision::F64Casts),
            (std::vector<double>{0x1p-30}));
  EXPECT_EQ(runProgram(exact, {{"A", {1.0}}}, Precision::F32),
            (std::vector<double>{0.0}));
  // To bf16: 8 significant bits.
  std::string bf16 = wholeProgram(
      "1", "", "1",
      "  %h = tile.cast %a : !tile.tile<[1], f32> -> !tile.tile<[1], bf16>\n"
      "  %r = tile.cast %h : !tile.tile<[1], bf16> -> !tile.tile<[1], f32>");
  EXPECT_EQ(runProgram(bf16, {{"A", {257.0}}}, Precision::F32),
            (std::vector<double>{256.0}));
}

TEST_F(InterpreterTest, Constants) {
  std::string body =
      "  %c = tile.constant 2.5 : !tile.tile<[2, 3], f32>\n"
      "  %d = tile.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : "
      "!tile.tile<[2, 3], f32>\n"
      "  %e = tile.mul %a, %c : !tile.tile<[2, 3], f32>\n"
      "  %r = tile.add %e, %d : !tile.tile<[2, 3], f32>";
  EXPECT_EQ(runProgram(wholeProgram("2x3", "", "2x3", body),
                       {{"A", {0, 1, 2, 3, 4, 5}}}),
            (std::vector<double>{1.0, 4.5, 8.0, 11.5, 15.0, 18.5}));
  // An f16 constant holds the f16 value of its literal in both precisions.
  std::string f16 = wholeProgram(
      "1", "", "1",
      "  %c = tile.constant 0.1 : !tile.tile<[1], f16>\n"
      "  %r = tile.cast %c : !tile.tile<[1], f16> -> !tile.tile<[1], f32>");
  double tenth = roundToElement(ElementKind::F16, 0.1);
  EXPECT_EQ(runProgram(f16, {{"A", {0.0}}}, Precision::F32),
            (std::vector<double>{tenth}));
  EXPECT_EQ(runProgram(f16, {{"A", {0.0}}}, Precision::F64),
            (std::vector<double>{tenth}));
}

} // namespace
