//===- NpyTest.cpp - .npy files in and out --------------------------------===//

#include "TileDialect/Runtime/Npy.h"

#include "TileDialect/Runtime/Artifact.h"

#include "TempDir.h"

#include "gtest/gtest.h"
#include <cmath>

using namespace mlir::tileir;
using namespace mlir::tileir::runtime;
using mlir::tileir::testing::TempDir;

namespace {

TEST(NpyTest, RoundTripEveryElementType) {
  TempDir dir;
  std::vector<double> values = {0.0, -1.5, 2.25, 65504.0, 1e-3, 7.0};
  for (ElementKind kind : {ElementKind::F16, ElementKind::BF16,
                           ElementKind::F32, ElementKind::F64}) {
    std::string path = dir.path + "/a.npy", error;
    ASSERT_TRUE(writeNpy(path, kind, {2, 3}, values, error)) << error;
    std::vector<double> read;
    ASSERT_TRUE(readNpyAs(path, kind, {2, 3}, "t", read, error)) << error;
    ASSERT_EQ(read.size(), values.size());
    // Written rounded to the kind, read back exactly.
    for (size_t i = 0; i < values.size(); ++i)
      EXPECT_NEAR(read[i], values[i], std::abs(values[i]) * 1e-2 + 1e-3)
          << toString(kind) << " element " << i;
  }
  std::string path = dir.path + "/b.npy", error;
  ASSERT_TRUE(writeNpy(path, ElementKind::I1, {4}, {0, 1, 1, 0}, error));
  std::vector<double> read;
  ASSERT_TRUE(readNpyAs(path, ElementKind::I1, {4}, "b", read, error));
  EXPECT_EQ(read, (std::vector<double>{0, 1, 1, 0}));
}

TEST(NpyTest, ReadsWhatNumpyWrites) {
  // numpy.save(np.array([[1, 2, 3]], dtype=np.float32)), version 1.0; and a
  // scalar.
  TempDir dir;
  std::string header = "{'descr': '<f4', 'fortran_order': False, "
                       "'shape': (1, 3), }";
  header.append(117 - header.size(), ' ');
  header += '\n';
  std::string bytes = std::string("\x93NUMPY\x01\x00", 8) + char(118) +
                      char(0) + header;
  float data[3] = {1, 2, 3};
  bytes.append(reinterpret_cast<const char *>(data), sizeof data);
  std::string path = dir.path + "/np.npy", error;
  ASSERT_TRUE(writeFile(path, bytes, error));
  NpyArray array;
  ASSERT_TRUE(readNpy(path, array, error)) << error;
  EXPECT_EQ(array.descr, "<f4");
  EXPECT_EQ(array.shape, (std::vector<int64_t>{1, 3}));
  EXPECT_EQ(array.values, (std::vector<double>{1, 2, 3}));

  ASSERT_TRUE(writeNpy(path, ElementKind::F64, {}, {4.5}, error));
  ASSERT_TRUE(readNpy(path, array, error)) << error;
  EXPECT_TRUE(array.shape.empty());
  EXPECT_EQ(array.values, (std::vector<double>{4.5}));
}

TEST(NpyTest, ErrorsNameTheFileAndTheProblem) {
  TempDir dir;
  std::string path = dir.path + "/bad.npy", error;
  NpyArray array;
  auto expectError = [&](const std::string &contents,
                         const std::string &message) {
    ASSERT_TRUE(writeFile(path, contents, error));
    EXPECT_FALSE(readNpy(path, array, error));
    EXPECT_NE(error.find(message), std::string::npos) << error;
    EXPECT_NE(error.find("bad.npy"), std::string::npos) << error;
  };
  expectError("not numpy", "no \\x93NUMPY magic");
  auto withHeader = [](const std::string &dict, const std::string &data) {
    return std::string("\x93NUMPY\x01\x00", 8) + char(dict.size()) + char(0) +
           dict + data;
  };
  expectError(withHeader("{'descr': '>f4', 'fortran_order': False, "
                         "'shape': (1,), }",
                         "abcd"),
              "unsupported element type '>f4'");
  expectError(withHeader("{'descr': '<f4', 'fortran_order': True, "
                         "'shape': (1,), }",
                         "abcd"),
              "Fortran order is not supported");
  expectError(withHeader("{'descr': '<f4', 'fortran_order': False, "
                         "'shape': (2,), }",
                         "abcd"),
              "4 bytes of data, expected 8");
  expectError(withHeader("{'descr': '<c8', 'fortran_order': False, "
                         "'shape': (1,), }",
                         "abcdefgh"),
              "unsupported element type '<c8'");
  expectError(std::string("\x93NUMPY\x04\x00\x00\x00", 10),
              "unsupported format version 4");

  // The tensor's type and shape must be the file's.
  ASSERT_TRUE(writeNpy(path, ElementKind::F32, {2, 2}, {1, 2, 3, 4}, error));
  std::vector<double> values;
  EXPECT_FALSE(readNpyAs(path, ElementKind::F16, {2, 2}, "input 'x'", values,
                         error));
  EXPECT_NE(error.find("input 'x' is f16 (numpy '<f2'), the file holds '<f4'"),
            std::string::npos)
      << error;
  EXPECT_FALSE(readNpyAs(path, ElementKind::F32, {4}, "input 'x'", values,
                         error));
  EXPECT_NE(error.find("input 'x' has shape (4,), the file (2, 2)"),
            std::string::npos)
      << error;
}

} // namespace
