//===- ProgramsTest.cpp - Loops, indices and whole programs ---------------===//

#include "InterpreterTestUtil.h"

#include "TileDialect/Support/RandomInit.h"

#include "llvm/Support/MemoryBuffer.h"

#include <cmath>
#include <random>

using namespace mlir;
using namespace mlir::tileir;

namespace {

//===----------------------------------------------------------------------===//
// Index expressions and loops
//===----------------------------------------------------------------------===//

/// O[tile i] = 2 * A[tile i] over [0, 8) by the symbolic tile_i.
const char *kScaleByTiles = R"mlir(
tile.program @scale(%A: !tile.tensor<8xf32, input>,
                    %O: !tile.tensor<8xf32, output>) {
  %i = tile.var "i"
  %tile_i = tile.size "tile_i"
  %ti = tile.tile %i
  %two = tile.constant 2.0 : !tile.tile<[tile_i], f32>
  %a = tile.load %A[%ti] : !tile.tensor<8xf32, input> -> !tile.tile<[tile_i], f32>
  %r = tile.mul %a, %two : !tile.tile<[tile_i], f32>
  %s = tile.store %r, %O[%ti] : !tile.tile<[tile_i], f32>, !tile.tensor<8xf32, output>
  %l = tile.loop %i = 0 to 8 step %tile_i body %s
  tile.yield %l
}
)mlir";

TEST_F(InterpreterTest, TileIndexWithSymbolicStep) {
  std::vector<double> a = {1, 2, 3, 4, 5, 6, 7, 8};
  std::vector<double> expected = {2, 4, 6, 8, 10, 12, 14, 16};
  for (int64_t size : {1, 2, 4, 8})
    EXPECT_EQ(runProgram(kScaleByTiles, {{"A", a}}, Precision::F64,
                         {{"tile_i", size}}),
              expected)
        << "tile_i = " << size;
}

/// With c stepping by 2 over [0, 8), `tile.elem %c` selects rows 0..3 of O
/// while `tile.tile %c` selects column pairs of A: O[j][r] = A[r][2j] +
/// A[r][2j + 1].
TEST_F(InterpreterTest, ElemIndexDividesByTheStep) {
  const char *source = R"mlir(
tile.program @pairs(%A: !tile.tensor<3x8xf32, input>,
                    %O: !tile.tensor<4x3xf32, output>) {
  %c = tile.var "c"
  %c2 = tile.size 2
  %full = tile.full
  %tc = tile.tile %c
  %ec = tile.elem %c
  %a = tile.load %A[%full, %tc] : !tile.tensor<3x8xf32, input> -> !tile.tile<[3, 2], f32>
  %sum = tile.rsum %a, 1 : !tile.tile<[3, 2], f32> -> !tile.tile<[3], f32>
  %row = tile.unsqueeze %sum, 0 : !tile.tile<[3], f32> -> !tile.tile<[1, 3], f32>
  %s = tile.store %row, %O[%ec, %full] : !tile.tile<[1, 3], f32>, !tile.tensor<4x3xf32, output>
  %l = tile.loop %c = 0 to 8 step %c2 body %s
  tile.yield %l
}
)mlir";
  std::vector<double> a(24);
  for (int i = 0; i < 24; ++i)
    a[i] = i * i;
  std::vector<double> expected;
  for (int j = 0; j < 4; ++j)
    for (int r = 0; r < 3; ++r)
      expected.push_back(a[r * 8 + 2 * j] + a[r * 8 + 2 * j + 1]);
  EXPECT_EQ(runProgram(source, {{"A", a}}), expected);
}

/// `tile.const_tile` selects a fixed slice on either side; the rest of O
/// stays zero.
TEST_F(InterpreterTest, ConstTileIndex) {
  const char *source = R"mlir(
tile.program @slice(%A: !tile.tensor<2x4xf32, input>,
                    %O: !tile.tensor<2x6xf32, output>) {
  %full = tile.full
  %src = tile.const_tile 1, 3
  %dst = tile.const_tile 2, 3
  %a = tile.load %A[%full, %src] : !tile.tensor<2x4xf32, input> -> !tile.tile<[2, 3], f32>
  %s = tile.store %a, %O[%full, %dst] : !tile.tile<[2, 3], f32>, !tile.tensor<2x6xf32, output>
  tile.yield %s
}
)mlir";
  EXPECT_EQ(runProgram(source, {{"A", {0, 1, 2, 3, 4, 5, 6, 7}}}),
            (std::vector<double>{0, 0, 1, 2, 3, 0, 0, 0, 5, 6, 7, 0}));
}

/// Two nested loops over a 2-D tensor: O[tile m, tile n] = A[...] + 1,
/// with a concrete and a symbolic step.
TEST_F(InterpreterTest, NestedLoopsCoverTheTensor) {
  const char *source = R"mlir(
tile.program @inc(%A: !tile.tensor<4x6xf32, input>,
                  %O: !tile.tensor<4x6xf32, output>) {
  %m = tile.var "m"
  %n = tile.var "n"
  %c2 = tile.size 2
  %tile_n = tile.size "tile_n"
  %tm = tile.tile %m
  %tn = tile.tile %n
  %one = tile.constant 1.0 : !tile.tile<[2, tile_n], f32>
  %a = tile.load %A[%tm, %tn] : !tile.tensor<4x6xf32, input> -> !tile.tile<[2, tile_n], f32>
  %r = tile.add %a, %one : !tile.tile<[2, tile_n], f32>
  %s = tile.store %r, %O[%tm, %tn] : !tile.tile<[2, tile_n], f32>, !tile.tensor<4x6xf32, output>
  %ln = tile.loop %n = 0 to 6 step %tile_n body %s
  %lm = tile.loop %m = 0 to 4 step %c2 body %ln
  tile.yield %lm
}
)mlir";
  std::vector<double> a(24), expected(24);
  for (int i = 0; i < 24; ++i) {
    a[i] = 0.5 * i;
    expected[i] = a[i] + 1;
  }
  for (int64_t size : {1, 2, 3, 6})
    EXPECT_EQ(
        runProgram(source, {{"A", a}}, Precision::F64, {{"tile_n", size}}),
        expected)
        << "tile_n = " << size;
}

/// A loop over [4, 12) starts at its start: O[tile i - ...] sees only the
/// upper two thirds of A.
TEST_F(InterpreterTest, LoopWithNonZeroStart) {
  const char *source = R"mlir(
tile.program @upper(%A: !tile.tensor<12xf32, input>,
                    %O: !tile.tensor<12xf32, output>) {
  %i = tile.var "i"
  %c4 = tile.size 4
  %ti = tile.tile %i
  %a = tile.load %A[%ti] : !tile.tensor<12xf32, input> -> !tile.tile<[4], f32>
  %s = tile.store %a, %O[%ti] : !tile.tile<[4], f32>, !tile.tensor<12xf32, output>
  %l = tile.loop %i = 4 to 12 step %c4 body %s
  tile.yield %l
}
)mlir";
  std::vector<double> a(12, 1.0), expected(12, 1.0);
  std::fill(expected.begin(), expected.begin() + 4, 0.0);
  EXPECT_EQ(runProgram(source, {{"A", a}}), expected);
}

/// A tile extent `2*tile_n`: the concat of two tiles of tile_n.
TEST_F(InterpreterTest, MultipleOfSymbolicExtent) {
  const char *source = R"mlir(
tile.program @interleave(%A: !tile.tensor<8xf32, input>,
                         %B: !tile.tensor<8xf32, input>,
                         %O: !tile.tensor<2x8xf32, output>) {
  %n = tile.var "n"
  %tile_n = tile.size "tile_n"
  %full = tile.full
  %tn = tile.tile %n
  %a = tile.load %A[%tn] : !tile.tensor<8xf32, input> -> !tile.tile<[tile_n], f32>
  %b = tile.load %B[%tn] : !tile.tensor<8xf32, input> -> !tile.tile<[tile_n], f32>
  %ab = tile.concat %a, %b axis 0 : !tile.tile<[tile_n], f32>, !tile.tile<[tile_n], f32> -> !tile.tile<[2*tile_n], f32>
  %r = tile.reshape %ab : !tile.tile<[2*tile_n], f32> -> !tile.tile<[2, tile_n], f32>
  %s = tile.store %r, %O[%full, %tn] : !tile.tile<[2, tile_n], f32>, !tile.tensor<2x8xf32, output>
  %l = tile.loop %n = 0 to 8 step %tile_n body %s
  tile.yield %l
}
)mlir";
  std::vector<double> a = {0, 1, 2, 3, 4, 5, 6, 7};
  std::vector<double> b = {10, 11, 12, 13, 14, 15, 16, 17};
  std::vector<double> expected = a;
  expected.insert(expected.end(), b.begin(), b.end());
  for (int64_t size : {1, 4, 8})
    EXPECT_EQ(runProgram(source, {{"A", a}, {"B", b}}, Precision::F64,
                         {{"tile_n", size}}),
              expected);
}

//===----------------------------------------------------------------------===//
// Accumulation, in-place updates and the tree semantics
//===----------------------------------------------------------------------===//

/// C[tile m, tile n] += A[tile m, tile k] @ B[tile k, tile n], the loop
/// nest of Trinity's Figure 3, for every tiling.
TEST_F(InterpreterTest, TiledMatmulAccumulatesOverK) {
  const char *source = R"mlir(
tile.program @mm(%A: !tile.tensor<4x8xf32, input>,
                 %B: !tile.tensor<8x4xf32, input>,
                 %O: !tile.tensor<4x4xf32, output>) {
  %m = tile.var "m"
  %n = tile.var "n"
  %k = tile.var "k"
  %tile_m = tile.size "tile_m"
  %tile_n = tile.size "tile_n"
  %tile_k = tile.size "tile_k"
  %tm = tile.tile %m
  %tn = tile.tile %n
  %tk = tile.tile %k
  %c = tile.load %O[%tm, %tn] : !tile.tensor<4x4xf32, output> -> !tile.tile<[tile_m, tile_n], f32>
  %a = tile.load %A[%tm, %tk] : !tile.tensor<4x8xf32, input> -> !tile.tile<[tile_m, tile_k], f32>
  %b = tile.load %B[%tk, %tn] : !tile.tensor<8x4xf32, input> -> !tile.tile<[tile_k, tile_n], f32>
  %ab = tile.matmul %a, %b : !tile.tile<[tile_m, tile_k], f32>, !tile.tile<[tile_k, tile_n], f32> -> !tile.tile<[tile_m, tile_n], f32>
  %cn = tile.add %c, %ab : !tile.tile<[tile_m, tile_n], f32>
  %s = tile.store %cn, %O[%tm, %tn] : !tile.tile<[tile_m, tile_n], f32>, !tile.tensor<4x4xf32, output>
  %lk = tile.loop %k = 0 to 8 step %tile_k body %s
  %ln = tile.loop %n = 0 to 4 step %tile_n body %lk
  %lm = tile.loop %m = 0 to 4 step %tile_m body %ln
  tile.yield %lm
}
)mlir";
  // A[i][k] = i + k, B[k][j] = k - j: O[i][j] = sum_k (i + k)(k - j).
  std::vector<double> a, b, expected;
  for (int i = 0; i < 4; ++i)
    for (int k = 0; k < 8; ++k)
      a.push_back(i + k);
  for (int k = 0; k < 8; ++k)
    for (int j = 0; j < 4; ++j)
      b.push_back(k - j);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      // sum_k (i + k)(k - j) = 140 + 28 (i - j) - 8 i j.
      expected.push_back(140 + 28 * (i - j) - 8 * i * j);
    }
  for (int64_t tm : {1, 2, 4})
    for (int64_t tk : {1, 4, 8})
      EXPECT_EQ(runProgram(source, {{"A", a}, {"B", b}}, Precision::F64,
                           {{"tile_m", tm}, {"tile_n", 2}, {"tile_k", tk}}),
                expected)
          << "tile_m = " << tm << ", tile_k = " << tk;
}

/// An inout tensor keeps the caller's data, is updated in place, and the
/// input is left alone; a trailing tile.nop does nothing.
TEST_F(InterpreterTest, InOutUpdatedInPlace) {
  const char *source = R"mlir(
tile.program @cache(%X: !tile.tensor<2xf32, input>,
                    %Kc: !tile.tensor<6xf32, inout>) {
  %i = tile.var "i"
  %c2 = tile.size 2
  %full = tile.full
  %ti = tile.tile %i
  %new = tile.const_tile 4, 2
  %x = tile.load %X[%full] : !tile.tensor<2xf32, input> -> !tile.tile<[2], f32>
  %append = tile.store %x, %Kc[%new] : !tile.tile<[2], f32>, !tile.tensor<6xf32, inout>
  %k = tile.load %Kc[%ti] : !tile.tensor<6xf32, inout> -> !tile.tile<[2], f32>
  %k2 = tile.add %k, %k : !tile.tile<[2], f32>
  %double = tile.store %k2, %Kc[%ti] : !tile.tile<[2], f32>, !tile.tensor<6xf32, inout>
  %l = tile.loop %i = 0 to 6 step %c2 body %double
  %nop = tile.nop
  %s1 = tile.seq %l, %nop
  %s = tile.seq %append, %s1
  tile.yield %s
}
)mlir";
  ProgramOp program = parse(source);
  ASSERT_TRUE(program);
  std::vector<HostTensor> tensors = makeTensors(program);
  get(tensors, "X").data = {10, 20};
  get(tensors, "Kc").data = {1, 2, 3, 4, 5, 6};
  ASSERT_TRUE(succeeded(run(program, tensors))) << diagnostics;
  EXPECT_EQ(get(tensors, "Kc").data, (std::vector<double>{2, 4, 6, 8, 20, 40}));
  EXPECT_EQ(get(tensors, "X").data, (std::vector<double>{10, 20}));
}

/// One load op used by two stores reads the tensor as it is at each store:
/// SSA sharing is structural, not a reuse of values.
TEST_F(InterpreterTest, SharedLoadIsEvaluatedAtEachUse) {
  const char *source = R"mlir(
tile.program @share(%T: !tile.tensor<3xf32, inout>,
                    %O: !tile.tensor<3xf32, output>) {
  %full = tile.full
  %t = tile.load %T[%full] : !tile.tensor<3xf32, inout> -> !tile.tile<[3], f32>
  %one = tile.constant 1.0 : !tile.tile<[3], f32>
  %t1 = tile.add %t, %one : !tile.tile<[3], f32>
  %bump = tile.store %t1, %T[%full] : !tile.tile<[3], f32>, !tile.tensor<3xf32, inout>
  %tt = tile.mul %t, %t : !tile.tile<[3], f32>
  %copy = tile.store %tt, %O[%full] : !tile.tile<[3], f32>, !tile.tensor<3xf32, output>
  %s1 = tile.seq %bump, %copy
  %s0 = tile.seq %bump, %s1
  tile.yield %s0
}
)mlir";
  ProgramOp program = parse(source);
  ASSERT_TRUE(program);
  std::vector<HostTensor> tensors = makeTensors(program);
  get(tensors, "T").data = {1, 2, 3};
  ASSERT_TRUE(succeeded(run(program, tensors))) << diagnostics;
  // T is bumped twice; O squares T after both bumps.
  EXPECT_EQ(get(tensors, "T").data, (std::vector<double>{3, 4, 5}));
  EXPECT_EQ(get(tensors, "O").data, (std::vector<double>{9, 16, 25}));
}

/// A load inside a loop is evaluated in every iteration, even when its
/// indices do not depend on the loop variable (a running sum).
TEST_F(InterpreterTest, AccumulationAcrossIterations) {
  const char *source = R"mlir(
tile.program @sum(%A: !tile.tensor<12xf32, input>,
                  %O: !tile.tensor<1xf32, output>) {
  %k = tile.var "k"
  %tile_k = tile.size "tile_k"
  %full = tile.full
  %tk = tile.tile %k
  %a = tile.load %A[%tk] : !tile.tensor<12xf32, input> -> !tile.tile<[tile_k], f32>
  %part = tile.rsum %a, 0 : !tile.tile<[tile_k], f32> -> !tile.tile<[], f32>
  %p1 = tile.unsqueeze %part, 0 : !tile.tile<[], f32> -> !tile.tile<[1], f32>
  %o = tile.load %O[%full] : !tile.tensor<1xf32, output> -> !tile.tile<[1], f32>
  %on = tile.add %o, %p1 : !tile.tile<[1], f32>
  %s = tile.store %on, %O[%full] : !tile.tile<[1], f32>, !tile.tensor<1xf32, output>
  %l = tile.loop %k = 0 to 12 step %tile_k body %s
  tile.yield %l
}
)mlir";
  std::vector<double> a(12);
  for (int i = 0; i < 12; ++i)
    a[i] = i + 1;
  for (int64_t size : {1, 3, 4, 12})
    EXPECT_EQ(
        runProgram(source, {{"A", a}}, Precision::F64, {{"tile_k", size}}),
        (std::vector<double>{78}));
}

//===----------------------------------------------------------------------===//
// Precision
//===----------------------------------------------------------------------===//

/// f16 data and f16 arithmetic round in F32 and not in F64; f32 arithmetic
/// rounds to float in F32.
TEST_F(InterpreterTest, PrecisionF32RoundsF64DoesNot) {
  const char *source = R"mlir(
tile.program @mixed(%X: !tile.tensor<3xf16, input>,
                    %Y: !tile.tensor<3xf32, input>,
                    %H: !tile.tensor<3xf16, output>,
                    %O: !tile.tensor<3xf32, output>) {
  %full = tile.full
  %x = tile.load %X[%full] : !tile.tensor<3xf16, input> -> !tile.tile<[3], f16>
  %xx = tile.add %x, %x : !tile.tile<[3], f16>
  %sh = tile.store %xx, %H[%full] : !tile.tile<[3], f16>, !tile.tensor<3xf16, output>
  %y = tile.load %Y[%full] : !tile.tensor<3xf32, input> -> !tile.tile<[3], f32>
  %x32 = tile.cast %x : !tile.tile<[3], f16> -> !tile.tile<[3], f32>
  %r = tile.add %x32, %y : !tile.tile<[3], f32>
  %so = tile.store %r, %O[%full] : !tile.tile<[3], f32>, !tile.tensor<3xf32, output>
  %s = tile.seq %sh, %so
  tile.yield %s
}
)mlir";
  ProgramOp program = parse(source);
  ASSERT_TRUE(program);
  std::vector<double> x = {0.1, 1.0 / 3.0, 1000.7};
  std::vector<double> y = {1e-9, 0.0, 0.0};
  auto runWith = [&](Precision precision) {
    std::vector<HostTensor> tensors = makeTensors(program);
    get(tensors, "X").data = x;
    get(tensors, "Y").data = y;
    EXPECT_TRUE(succeeded(run(program, tensors, precision))) << diagnostics;
    return std::make_pair(get(tensors, "H").data, get(tensors, "O").data);
  };

  auto [h64, o64] = runWith(Precision::F64);
  EXPECT_EQ(h64, (std::vector<double>{0.2, 2.0 / 3.0, 2001.4}));
  EXPECT_EQ(o64, (std::vector<double>{0.1 + 1e-9, 1.0 / 3.0, 1000.7}));

  auto [h32, o32] = runWith(Precision::F32);
  auto f16 = [](double v) { return roundToElement(ElementKind::F16, v); };
  // 0.1 is 0.0999755859375 in f16; 1000.7 is 1000.5; 2001 is f16's 2001.0.
  EXPECT_EQ(f16(0.1), 0.0999755859375);
  EXPECT_EQ(f16(1000.7), 1000.5);
  EXPECT_EQ(h32, (std::vector<double>{2 * f16(0.1), f16(2 * f16(1.0 / 3.0)),
                                      2001.0}));
  // 1e-9 vanishes next to 0.0999... in f32.
  EXPECT_EQ(o32, (std::vector<double>{f16(0.1), f16(1.0 / 3.0), 1000.5}));
}

/// In F32, loads round every element exactly as roundToElement does, for
/// f16 and bf16, including ties, subnormals, overflow and special values.
TEST_F(InterpreterTest, LoadRoundingMatchesRoundToElement) {
  const char *source = R"mlir(
tile.program @copy(%A: !tile.tensor<512xf16, input>,
                   %B: !tile.tensor<512xbf16, input>,
                   %O: !tile.tensor<512xf16, output>,
                   %P: !tile.tensor<512xbf16, output>) {
  %full = tile.full
  %a = tile.load %A[%full] : !tile.tensor<512xf16, input> -> !tile.tile<[512], f16>
  %b = tile.load %B[%full] : !tile.tensor<512xbf16, input> -> !tile.tile<[512], bf16>
  %sa = tile.store %a, %O[%full] : !tile.tile<[512], f16>, !tile.tensor<512xf16, output>
  %sb = tile.store %b, %P[%full] : !tile.tile<[512], bf16>, !tile.tensor<512xbf16, output>
  %s = tile.seq %sa, %sb
  tile.yield %s
}
)mlir";
  ProgramOp program = parse(source);
  ASSERT_TRUE(program);
  std::vector<double> values = {0.0,
                                -0.0,
                                1.0,
                                -1.0,
                                65504.0,
                                65519.0,
                                65520.0,
                                -65520.0,
                                1e6,
                                std::ldexp(1.0, -14),
                                std::ldexp(1.0, -25),
                                std::ldexp(3.0, -25),
                                std::ldexp(1.0, -24) * 1.5,
                                std::ldexp(1.0, -26),
                                1e-300,
                                1.0 + std::ldexp(1.0, -11),
                                1.0 + std::ldexp(3.0, -11),
                                1.0 + std::ldexp(1.0, -8),
                                3.4e38,
                                3.3895e38,
                                std::ldexp(1.0, -133),
                                std::ldexp(3.0, -134),
                                std::ldexp(1.0, -127),
                                1e308,
                                INFINITY,
                                -INFINITY};
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-140, 130);
  while (values.size() < 511)
    values.push_back(std::ldexp(mantissa(rng), exponent(rng)));
  values.push_back(std::nan(""));

  std::vector<HostTensor> tensors = makeTensors(program);
  get(tensors, "A").data = values;
  get(tensors, "B").data = values;
  ASSERT_TRUE(succeeded(run(program, tensors, Precision::F32))) << diagnostics;
  for (auto [kind, name] : {std::make_pair(ElementKind::F16, "O"),
                            std::make_pair(ElementKind::BF16, "P")}) {
    const std::vector<double> &out = get(tensors, name).data;
    for (size_t i = 0; i < values.size(); ++i) {
      double expected = roundToElement(kind, values[i]);
      if (std::isnan(expected)) {
        EXPECT_TRUE(std::isnan(out[i]));
        continue;
      }
      EXPECT_EQ(out[i], expected) << toString(kind) << " of " << values[i];
      EXPECT_EQ(std::signbit(out[i]), std::signbit(expected)) << values[i];
    }
  }
}

//===----------------------------------------------------------------------===//
// A whole program: the scaled-down vanilla attention of test/Examples
//===----------------------------------------------------------------------===//

/// The program of test/Examples/vanilla.mlir (M=4, H=2, d=8, P=16).
std::string readVanilla() {
  auto buffer = llvm::MemoryBuffer::getFile(TILE_SOURCE_DIR
                                            "/test/Examples/vanilla.mlir");
  return buffer ? (*buffer)->getBuffer().str() : std::string();
}

/// Seeded inputs with the workloads' distributions (docs/RandomInputs.md)
/// for every input and inout tensor of `program`.
std::vector<HostTensor> randomTensors(ProgramOp program, uint64_t seed) {
  std::vector<HostTensor> tensors = InterpreterTest::makeTensors(program);
  unsigned index = 0;
  for (BlockArgument arg : program.getBodyBlock().getArguments()) {
    auto role = cast<TensorRefType>(arg.getType()).getRole();
    if (role != TensorRole::Input && role != TensorRole::InOut)
      continue;
    HostTensor &tensor = tensors[arg.getArgNumber()];
    fillRandom(tensor, seed, index++, defaultInitFor(tensor.name));
  }
  return tensors;
}

/// max |a - b| / max |b| over the written tensors.
double maxRelativeDifference(const std::vector<HostTensor> &a,
                             const std::vector<HostTensor> &b,
                             llvm::ArrayRef<const char *> names) {
  double diff = 0.0, scale = 0.0;
  for (const char *name : names) {
    const HostTensor &x =
        *llvm::find_if(a, [&](const HostTensor &t) { return t.name == name; });
    const HostTensor &y =
        *llvm::find_if(b, [&](const HostTensor &t) { return t.name == name; });
    for (size_t i = 0; i < x.data.size(); ++i) {
      diff = std::max(diff, std::fabs(x.data[i] - y.data[i]));
      scale = std::max(scale, std::fabs(y.data[i]));
    }
  }
  return scale == 0.0 ? diff : diff / scale;
}

TEST_F(InterpreterTest, VanillaResultsDoNotDependOnTileSizes) {
  std::string source = readVanilla();
  ASSERT_FALSE(source.empty()) << "cannot read test/Examples/vanilla.mlir";
  ProgramOp program = parse(source);
  ASSERT_TRUE(program);
  llvm::StringMap<int64_t> defaults = chooseDefaultTileSizes(program);
  EXPECT_EQ(defaults.lookup("tile_n"), 16);
  EXPECT_EQ(defaults.lookup("tile_k"), 16);
  EXPECT_EQ(defaults.lookup("tile_p"), 16);

  auto runWith = [&](Precision precision, int64_t n, int64_t k, int64_t p) {
    std::vector<HostTensor> tensors = randomTensors(program, 42);
    EXPECT_TRUE(succeeded(run(program, tensors, precision,
                              {{"tile_n", n}, {"tile_k", k}, {"tile_p", p}})))
        << diagnostics;
    return tensors;
  };
  const char *written[] = {"O2", "Kc", "Vc", "S", "O"};
  std::vector<HostTensor> reference = runWith(Precision::F64, 16, 16, 16);
  // The softmax sums of a row of exponentials are positive.
  for (double s : get(reference, "S").data)
    EXPECT_GT(s, 0.0);
  for (auto [n, k, p] : {std::make_tuple(1, 1, 1), std::make_tuple(4, 4, 4),
                         std::make_tuple(2, 8, 16), std::make_tuple(16, 1, 4)})
    EXPECT_LE(maxRelativeDifference(runWith(Precision::F64, n, k, p), reference,
                                    written),
              1e-12)
        << "tile sizes " << n << ", " << k << ", " << p;

  // F32 rounds to f16 along the way: close to F64, but not equal.
  std::vector<HostTensor> f32 = runWith(Precision::F32, 4, 4, 4);
  double err = maxRelativeDifference(f32, reference, {"O2"});
  EXPECT_LT(err, 1e-2);
  EXPECT_GT(err, 1e-6);
}

} // namespace
