//===- ArtifactTest.cpp - Artifact manifests and expected files -----------===//

#include "TileDialect/Runtime/Artifact.h"

#include "TempDir.h"

#include "gtest/gtest.h"

using namespace mlir::tileir;
using namespace mlir::tileir::runtime;
using mlir::tileir::testing::TempDir;

namespace {

TensorDecl makeTensor(std::string name, ElementKind kind, TensorRole role,
                      std::vector<int64_t> shape, TensorInit init = {}) {
  TensorDecl t;
  t.name = std::move(name);
  t.elementKind = kind;
  t.role = role;
  t.shape = std::move(shape);
  t.init = init;
  return t;
}

/// An f16 input, an inout bf16 cache, an f32 output, a scalar and a scratch
/// buffer; two kernels.
Artifact sampleArtifact() {
  Artifact a;
  a.program = "decode";
  a.chip = "sm_90";
  a.binaryFile = "kernels.cubin";
  a.binary = std::string("\x7f"
                         "ELF\0bin\n",
                         9);
  a.seed = 42;
  a.tolerance = 0.015;
  a.tensors = {
      makeTensor("x", ElementKind::F16, TensorRole::Input, {4, 8},
                 TensorInit::random(0, {InitSpec::Normal, 0.0, 1.0})),
      makeTensor("Kc", ElementKind::BF16, TensorRole::Inout, {16, 8},
                 TensorInit::random(1, {InitSpec::Uniform, -0.5, 0.25})),
      makeTensor("y", ElementKind::F32, TensorRole::Output, {4, 8}),
      makeTensor("n", ElementKind::F64, TensorRole::Output, {}),
      makeTensor("tmp", ElementKind::I1, TensorRole::Scratch, {3, 0, 2})};
  KernelLaunch k0;
  k0.symbol = "k0";
  k0.grid[0] = 4;
  k0.block[0] = 128;
  k0.args = {0, 1, 4, 0};
  KernelLaunch k1;
  k1.symbol = "k1";
  k1.grid[1] = 2;
  k1.block[2] = 3;
  k1.sharedMemBytes = 65536;
  k1.args = {1, 2, 3};
  a.kernels = {k0, k1};
  OutputSpec y;
  y.tensor = 2;
  y.kind = ExpectedKind::Dense;
  for (int i = 0; i < 32; ++i)
    y.dense.push_back(i * 0.1);
  OutputSpec n;
  n.tensor = 3;
  a.outputs = {y, n};
  return a;
}

void expectSameManifest(const Artifact &a, const Artifact &b) {
  EXPECT_EQ(printManifest(a), printManifest(b));
  EXPECT_EQ(a.program, b.program);
  EXPECT_EQ(a.seed, b.seed);
  EXPECT_EQ(a.tolerance, b.tolerance);
  ASSERT_EQ(a.tensors.size(), b.tensors.size());
  for (size_t i = 0; i < a.tensors.size(); ++i) {
    EXPECT_EQ(a.tensors[i].shape, b.tensors[i].shape);
    EXPECT_EQ(a.tensors[i].init.spec.b, b.tensors[i].init.spec.b);
  }
  ASSERT_EQ(a.kernels.size(), b.kernels.size());
  EXPECT_EQ(a.kernels[1].args, b.kernels[1].args);
  EXPECT_EQ(a.kernels[1].sharedMemBytes, b.kernels[1].sharedMemBytes);
}

TEST(ArtifactTest, ManifestRoundTrip) {
  Artifact a = sampleArtifact(), b;
  a.outputs[0].file = "y.bin";
  std::string error;
  ASSERT_TRUE(parseManifest(printManifest(a), "m", b, error)) << error;
  expectSameManifest(a, b);
  EXPECT_EQ(b.floor, 0.0);
  EXPECT_EQ(printManifest(a).find("floor"), std::string::npos);
  a.floor = 6.103515625e-05;
  ASSERT_TRUE(parseManifest(printManifest(a), "m", b, error)) << error;
  EXPECT_EQ(b.floor, a.floor);
  EXPECT_EQ(b.outputs[0].file, "y.bin");
  EXPECT_EQ(b.tensors[4].numElements(), 0);
  EXPECT_EQ(b.tensors[3].numElements(), 1);
  EXPECT_EQ(b.tensors[1].byteSize(), 16u * 8 * 2);
}

TEST(ArtifactTest, CommentsAndBlankLines) {
  Artifact a;
  std::string error;
  ASSERT_TRUE(parseManifest("# header\n\ntile-artifact 1\nprogram p\n"
                            "platform hip\n  chip gfx942\nbinary k.hsaco\n"
                            "seed 18446744073709551615\ntolerance 1e-3\n"
                            "# tensors\ntensor a f32 input 0 zero\n"
                            "kernel f 1 1 1 64 1 1 0 2 a a\t\n"
                            "output a none\n",
                            "m", a, error))
      << error;
  EXPECT_EQ(a.platform, Platform::Hip);
  EXPECT_EQ(a.seed, UINT64_MAX);
  EXPECT_EQ(a.kernels[0].args, (std::vector<unsigned>{0, 0}));
}

TEST(ArtifactTest, WriteAndReadDirectory) {
  TempDir dir;
  Artifact a = sampleArtifact();
  std::string error;
  ASSERT_TRUE(writeArtifact(a, dir.path, error)) << error;
  Artifact b;
  ASSERT_TRUE(readArtifact(dir.path, b, error)) << error;
  EXPECT_EQ(b.binary, a.binary);
  ASSERT_EQ(b.outputs.size(), 2u);
  EXPECT_EQ(b.outputs[0].kind, ExpectedKind::Dense);
  EXPECT_EQ(b.outputs[0].file, "expected.y.bin");
  EXPECT_EQ(b.outputs[0].dense, a.outputs[0].dense);
  EXPECT_EQ(b.outputs[1].kind, ExpectedKind::None);
}

TEST(ArtifactTest, DataInitializersRoundTrip) {
  // Values the caller gave (tile-run --input) travel as `data FILE`.
  TempDir dir;
  Artifact a = sampleArtifact();
  std::vector<double> values(32);
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = 0.5 * double(i) - 3.0; // exact in f16
  a.tensors[0].init = TensorInit::data(values);
  std::string error;
  ASSERT_TRUE(writeArtifact(a, dir.path, error)) << error;
  Artifact b;
  ASSERT_TRUE(readArtifact(dir.path, b, error)) << error;
  EXPECT_EQ(b.tensors[0].init.kind, TensorInit::Data);
  EXPECT_EQ(b.tensors[0].init.file, "input.x.bin");
  EXPECT_EQ(b.tensors[0].init.values, values);
  EXPECT_EQ(initialValues(b.tensors[0], b.seed).data, values);
  EXPECT_NE(printManifest(b).find("tensor x f16 input 2 4 8 data input.x.bin"),
            std::string::npos);

  // A data file of the wrong size names the file and the tensor.
  std::string path = dir.path + "/input.x.bin";
  ASSERT_TRUE(writeFile(path, "short", error)) << error;
  Artifact c;
  EXPECT_FALSE(readArtifact(dir.path, c, error));
  EXPECT_NE(error.find("input.x.bin: 5 bytes, but tensor 'x' has 64"),
            std::string::npos)
      << error;

  // Writing with the wrong number of values fails.
  a.tensors[0].init.values.pop_back();
  EXPECT_FALSE(writeArtifact(a, dir.path, error));
  EXPECT_NE(error.find("tensor 'x' has 31 values, but 32 elements"),
            std::string::npos)
      << error;
}

TEST(ArtifactTest, InoutOutputWrittenSparseWhenFewChange) {
  TempDir dir;
  Artifact a = sampleArtifact();
  HostTensor initial = initialValues(a.tensors[1], a.seed);
  OutputSpec cache;
  cache.tensor = 1;
  cache.kind = ExpectedKind::Dense;
  cache.dense = initial.data;
  // One row of 8 out of 128 elements changes.
  for (int i = 40; i < 48; ++i)
    cache.dense[i] = i;
  a.outputs.push_back(cache);
  std::string error;
  ASSERT_TRUE(writeArtifact(a, dir.path, error)) << error;
  Artifact b;
  ASSERT_TRUE(readArtifact(dir.path, b, error)) << error;
  const OutputSpec &read = b.outputs[2];
  ASSERT_EQ(read.kind, ExpectedKind::Sparse);
  ASSERT_EQ(read.sparse.size(), 8u);
  EXPECT_EQ(read.sparse[0], (SparseEntry{40, 40.0}));
  EXPECT_EQ(expectedValues(read, initial.data), cache.dense);

  // A quarter or more changed: dense.
  for (int i = 0; i < 32; ++i)
    a.outputs[2].dense[i] = -1.0 - i;
  ASSERT_TRUE(writeArtifact(a, dir.path, error)) << error;
  ASSERT_TRUE(readArtifact(dir.path, b, error)) << error;
  EXPECT_EQ(b.outputs[2].kind, ExpectedKind::Dense);
  EXPECT_EQ(b.outputs[2].dense, a.outputs[2].dense);
}

TEST(ArtifactTest, ExpectedFileErrors) {
  TempDir dir;
  std::string path = dir.path + "/e.bin", error;
  ASSERT_TRUE(writeDenseFile(path, {1.0, 2.0, 3.0}, error));
  std::vector<double> values;
  EXPECT_TRUE(readDenseFile(path, 3, values, error));
  EXPECT_EQ(values, (std::vector<double>{1.0, 2.0, 3.0}));
  EXPECT_FALSE(readDenseFile(path, 4, values, error));
  EXPECT_EQ(error, path + ": expected 4 float64 values (32 bytes), found 24 "
                          "bytes");

  std::vector<SparseEntry> entries;
  ASSERT_TRUE(writeSparseFile(path, {{0, 1.5}, {9, -2.0}}, error));
  EXPECT_TRUE(readSparseFile(path, 10, entries, error));
  EXPECT_EQ(entries.size(), 2u);
  EXPECT_FALSE(readSparseFile(path, 9, entries, error));
  EXPECT_EQ(error, path + ": record 1 has index 9, but the tensor has 9 "
                          "elements");
  ASSERT_TRUE(writeFile(path, std::string(12, '\0'), error));
  EXPECT_FALSE(readSparseFile(path, 9, entries, error));
  EXPECT_NE(error.find("(count 0, 12 bytes)"), std::string::npos) << error;
  EXPECT_FALSE(readDenseFile(dir.path + "/missing", 1, values, error));
  EXPECT_NE(error.find("/missing: cannot open"), std::string::npos);
}

TEST(ArtifactTest, WriteRejectsWrongSizes) {
  TempDir dir;
  Artifact a = sampleArtifact();
  a.outputs[0].dense.pop_back();
  std::string error;
  EXPECT_FALSE(writeArtifact(a, dir.path, error));
  EXPECT_EQ(error, "output 'y' has 31 expected values, but the tensor has 32 "
                   "elements");
}

TEST(ArtifactTest, WriteRejectsNamesThatAreNotTokens) {
  TempDir dir;
  Artifact a = sampleArtifact();
  a.tensors[1].name = "K cache";
  std::string error;
  EXPECT_FALSE(writeArtifact(a, dir.path, error));
  EXPECT_EQ(error, "the tensor name 'K cache' is empty, contains whitespace "
                   "or starts with '#'");
  a = sampleArtifact();
  a.kernels[0].symbol = "";
  EXPECT_FALSE(writeArtifact(a, dir.path, error));
  EXPECT_EQ(error, "the kernel symbol '' is empty, contains whitespace or "
                   "starts with '#'");
}

TEST(ArtifactTest, InitialValuesAreFillRandoms) {
  Artifact a = sampleArtifact();
  for (const TensorDecl &tensor : a.tensors) {
    HostTensor expected(tensor.name, tensor.shape, tensor.elementKind);
    if (tensor.init.kind == TensorInit::Random)
      fillRandom(expected, a.seed, tensor.init.stream, tensor.init.spec);
    HostTensor got = initialValues(tensor, a.seed);
    EXPECT_EQ(got.data, expected.data) << tensor.name;
    EXPECT_EQ(got.elementKind, tensor.elementKind);
  }
  // Rounded to the element type: every f16 value is representable.
  HostTensor x = initialValues(a.tensors[0], a.seed);
  for (double v : x.data)
    EXPECT_EQ(roundToElement(ElementKind::F16, v), v);
}

TEST(ArtifactTest, PositionsRoundTripAndHoldTheirIndex) {
  Artifact a = sampleArtifact(), b;
  a.outputs[0].file = "y.bin";
  TensorDecl pos;
  pos.name = "positions5";
  pos.elementKind = ElementKind::F32;
  pos.role = TensorRole::Intermediate;
  pos.shape = {5};
  pos.init = TensorInit::positions();
  a.tensors.push_back(pos);
  std::string text = printManifest(a), error;
  EXPECT_NE(text.find("tensor positions5 f32 intermediate 1 5 positions\n"),
            std::string::npos);
  ASSERT_TRUE(parseManifest(text, "m", b, error)) << error;
  expectSameManifest(a, b);
  EXPECT_EQ(b.tensors.back().init.kind, TensorInit::Positions);
  EXPECT_EQ(initialValues(b.tensors.back(), 7).data,
            (std::vector<double>{0, 1, 2, 3, 4}));
}

struct Malformed {
  const char *text;
  const char *error;
};

class MalformedManifestTest : public ::testing::TestWithParam<Malformed> {};

TEST_P(MalformedManifestTest, NamesFileAndLine) {
  Artifact a;
  std::string error;
  EXPECT_FALSE(parseManifest(GetParam().text, "dir/manifest.txt", a, error));
  EXPECT_EQ(error, GetParam().error);
}

#define HEADER                                                                 \
  "tile-artifact 1\nprogram p\nplatform cuda\nchip sm_90\n"                    \
  "binary k.cubin\nseed 0\ntolerance 0.01\n"
#define T_A "tensor a f32 input 1 4 zero\n"
#define K_A "kernel f 1 1 1 32 1 1 0 1 a\n"

INSTANTIATE_TEST_SUITE_P(
    Records, MalformedManifestTest,
    ::testing::Values(
        Malformed{"", "dir/manifest.txt: missing 'tile-artifact' record"},
        Malformed{"tile-artifact 2\n",
                  "dir/manifest.txt:1: unsupported artifact version '2' (this "
                  "runtime reads version 1)"},
        Malformed{"tile-artifact\n",
                  "dir/manifest.txt:1: expected 'tile-artifact VERSION'"},
        Malformed{"tile-artifact 1\nplatform cuda\n",
                  "dir/manifest.txt:2: expected a 'program' record, found "
                  "'platform'"},
        Malformed{"tile-artifact 1\nprogram p\nplatform metal\n",
                  "dir/manifest.txt:3: unknown platform 'metal' (cuda or hip)"},
        Malformed{"tile-artifact 1\nprogram p q\n",
                  "dir/manifest.txt:2: expected 'program NAME'"},
        Malformed{"tile-artifact 1\nprogram p\nplatform cuda\nchip sm_90\n"
                  "binary k\nseed -1\n",
                  "dir/manifest.txt:6: the seed must be an integer from 0 to "
                  "18446744073709551615, got '-1'"},
        Malformed{"tile-artifact 1\nprogram p\nplatform cuda\nchip sm_90\n"
                  "binary k\nseed 18446744073709551616\n",
                  "dir/manifest.txt:6: the seed must be an integer from 0 to "
                  "18446744073709551615, got '18446744073709551616'"},
        Malformed{"tile-artifact 1\nprogram p\nplatform cuda\nchip sm_90\n"
                  "binary k\nseed 0\ntolerance x\n",
                  "dir/manifest.txt:7: the tolerance must be a number, got "
                  "'x'"},
        Malformed{"tile-artifact 1\nprogram p\nplatform cuda\nchip sm_90\n"
                  "binary k\nseed 0\ntolerance -1\n",
                  "dir/manifest.txt:7: the tolerance must not be negative"},
        Malformed{HEADER, "dir/manifest.txt: no 'kernel' record"},
        Malformed{HEADER "seed 1\n",
                  "dir/manifest.txt:8: duplicate 'seed' record"},
        Malformed{HEADER "floor -1\n",
                  "dir/manifest.txt:8: the floor must not be negative"},
        Malformed{HEADER "floor 1\nfloor 1\n",
                  "dir/manifest.txt:9: duplicate 'floor' record"},
        Malformed{HEADER "tensors a\n",
                  "dir/manifest.txt:8: unknown record 'tensors'"},
        Malformed{HEADER "tensor a f32 input\n",
                  "dir/manifest.txt:8: expected 'tensor NAME DTYPE ROLE RANK "
                  "D0 ... INIT'"},
        Malformed{HEADER "tensor a f8 input 0 zero\n",
                  "dir/manifest.txt:8: unknown element type 'f8' (f16, bf16, "
                  "f32, f64 or i1)"},
        Malformed{HEADER "tensor a f32 weight 0 zero\n",
                  "dir/manifest.txt:8: unknown tensor role 'weight' (input, "
                  "inout, output, intermediate or scratch)"},
        Malformed{HEADER "tensor a f32 input x zero\n",
                  "dir/manifest.txt:8: the rank must be an integer from 0 to "
                  "16, got 'x'"},
        Malformed{HEADER "tensor a f32 input 2 4 zero\n",
                  "dir/manifest.txt:8: expected 2 dimensions and an "
                  "initializer"},
        Malformed{HEADER "tensor a f32 input 1 -4 zero\n",
                  "dir/manifest.txt:8: a dimension must be an integer from 0 "
                  "to 281474976710656, got '-4'"},
        Malformed{HEADER "tensor a f32 input 3 65536 65536 65537 zero\n",
                  "dir/manifest.txt:8: tensor 'a' is too large"},
        Malformed{HEADER "tensor a f32 input 1 4 ones\n",
                  "dir/manifest.txt:8: unknown initializer 'ones' (zero, "
                  "random STREAM normal|uniform A B, positions, or data FILE)"},
        Malformed{HEADER "tensor a f32 intermediate 2 4 4 positions\n",
                  "dir/manifest.txt:8: a positions tensor has one dimension"},
        Malformed{HEADER "tensor a f32 intermediate 1 4 positions 1\n",
                  "dir/manifest.txt:8: unexpected '1' after 'positions'"},
        Malformed{HEADER "tensor a f32 input 1 4 data\n",
                  "dir/manifest.txt:8: expected 'data FILE'"},
        Malformed{HEADER "tensor a f32 input 1 4 data a.bin b.bin\n",
                  "dir/manifest.txt:8: expected 'data FILE'"},
        Malformed{HEADER "tensor a f32 input 1 4 zero 1\n",
                  "dir/manifest.txt:8: unexpected '1' after 'zero'"},
        Malformed{HEADER "tensor a f32 input 1 4 random 0 normal 0\n",
                  "dir/manifest.txt:8: expected 'random STREAM "
                  "normal|uniform A B'"},
        Malformed{HEADER "tensor a f32 input 1 4 random 0 gauss 0 1\n",
                  "dir/manifest.txt:8: unknown distribution 'gauss' (normal "
                  "or uniform)"},
        Malformed{HEADER "tensor a f32 input 1 4 random s normal 0 1\n",
                  "dir/manifest.txt:8: the stream must be an integer from 0 "
                  "to 4294967294, got 's'"},
        Malformed{HEADER "tensor a f32 input 1 4 random 0 normal 0 x\n",
                  "dir/manifest.txt:8: a distribution parameter must be a "
                  "number, got 'x'"},
        Malformed{HEADER "tensor a f32 input 1 4 random 0 normal 0 -1\n",
                  "dir/manifest.txt:8: the standard deviation must not be "
                  "negative"},
        Malformed{HEADER "tensor a f32 input 1 4 random 0 uniform 1 0\n",
                  "dir/manifest.txt:8: the upper bound must not be below the "
                  "lower bound"},
        Malformed{HEADER T_A "tensor a f16 output 0 zero\n",
                  "dir/manifest.txt:9: duplicate tensor 'a'"},
        Malformed{HEADER T_A "kernel f 1 1 1\n",
                  "dir/manifest.txt:9: expected 'kernel SYMBOL GX GY GZ BX BY "
                  "BZ SMEM NARGS ARG...'"},
        Malformed{HEADER T_A "kernel f 0 1 1 32 1 1 0 1 a\n",
                  "dir/manifest.txt:9: grid sizes must be positive"},
        Malformed{HEADER T_A "kernel f 1 1 1 32 1 0 0 1 a\n",
                  "dir/manifest.txt:9: block sizes must be positive"},
        Malformed{HEADER T_A "kernel f 1 1 1 32 1 1 4294967296 1 a\n",
                  "dir/manifest.txt:9: the shared memory size must be an "
                  "integer from 0 to 4294967295, got '4294967296'"},
        Malformed{HEADER T_A "kernel f 1 1 1 32 1 1 0 2 a\n",
                  "dir/manifest.txt:9: kernel 'f' declares 2 arguments but "
                  "lists 1"},
        Malformed{HEADER T_A "kernel f 1 1 1 32 1 1 0 1 b\n",
                  "dir/manifest.txt:9: unknown tensor 'b'"},
        Malformed{HEADER T_A K_A T_A,
                  "dir/manifest.txt:10: 'tensor' record after the 'kernel' "
                  "records"},
        Malformed{HEADER T_A K_A "output b none\n",
                  "dir/manifest.txt:10: unknown tensor 'b'"},
        Malformed{HEADER T_A K_A "output a\n",
                  "dir/manifest.txt:10: expected 'output NAME dense|sparse "
                  "FILE' or 'output NAME none'"},
        Malformed{HEADER T_A K_A "output a dense\n",
                  "dir/manifest.txt:10: expected 'output NAME dense|sparse "
                  "FILE'"},
        Malformed{HEADER T_A K_A "output a none x\n",
                  "dir/manifest.txt:10: expected 'output NAME none'"},
        Malformed{HEADER T_A K_A "output a exact f\n",
                  "dir/manifest.txt:10: unknown expected-value kind 'exact' "
                  "(dense, sparse or none)"},
        Malformed{HEADER T_A K_A "output a none\noutput a none\n",
                  "dir/manifest.txt:11: duplicate output 'a'"},
        Malformed{HEADER T_A K_A "output a none\n" K_A,
                  "dir/manifest.txt:11: 'kernel' record after the 'output' "
                  "records"}));

} // namespace
