//===- ArtifactFiles.cpp - Read and write artifact directories ------------===//

#include "TileDialect/Runtime/Artifact.h"
#include "TileDialect/Runtime/ElementBits.h"

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>

using namespace mlir::tileir;
using namespace mlir::tileir::runtime;

bool runtime::readFile(const std::string &path, std::string &contents,
                       std::string &error) {
  std::FILE *file = std::fopen(path.c_str(), "rb");
  if (!file) {
    error = path + ": cannot open: " + std::strerror(errno);
    return false;
  }
  contents.clear();
  char buffer[1 << 16];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof(buffer), file)) > 0)
    contents.append(buffer, n);
  bool ok = !std::ferror(file);
  std::fclose(file);
  if (!ok)
    error = path + ": cannot read";
  return ok;
}

bool runtime::writeFile(const std::string &path, const std::string &contents,
                        std::string &error) {
  std::FILE *file = std::fopen(path.c_str(), "wb");
  if (!file) {
    error = path + ": cannot write: " + std::strerror(errno);
    return false;
  }
  bool ok =
      std::fwrite(contents.data(), 1, contents.size(), file) == contents.size();
  ok &= std::fclose(file) == 0;
  if (!ok)
    error = path + ": cannot write";
  return ok;
}

//===----------------------------------------------------------------------===//
// Little-endian values
//===----------------------------------------------------------------------===//

static void appendU64(std::string &out, uint64_t value) {
  for (unsigned i = 0; i < 8; ++i)
    out.push_back(char((value >> (8 * i)) & 0xFF));
}

static void appendF64(std::string &out, double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  appendU64(out, bits);
}

static uint64_t loadU64(const std::string &in, size_t offset) {
  uint64_t value = 0;
  for (unsigned i = 0; i < 8; ++i)
    value |= uint64_t(static_cast<unsigned char>(in[offset + i])) << (8 * i);
  return value;
}

static double loadF64(const std::string &in, size_t offset) {
  uint64_t bits = loadU64(in, offset);
  double value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

//===----------------------------------------------------------------------===//
// Expected-value files
//===----------------------------------------------------------------------===//

bool runtime::readDenseFile(const std::string &path, int64_t numElements,
                            std::vector<double> &values, std::string &error) {
  std::string bytes;
  if (!readFile(path, bytes, error))
    return false;
  if (bytes.size() != uint64_t(numElements) * 8) {
    error = path + ": expected " + std::to_string(numElements) +
            " float64 values (" + std::to_string(numElements * 8) +
            " bytes), found " + std::to_string(bytes.size()) + " bytes";
    return false;
  }
  values.resize(numElements);
  for (int64_t i = 0; i < numElements; ++i)
    values[i] = loadF64(bytes, 8 * i);
  return true;
}

bool runtime::readSparseFile(const std::string &path, int64_t numElements,
                             std::vector<SparseEntry> &entries,
                             std::string &error) {
  std::string bytes;
  if (!readFile(path, bytes, error))
    return false;
  uint64_t count = bytes.size() >= 8 ? loadU64(bytes, 0) : 0;
  if (bytes.size() < 8 || (bytes.size() - 8) / 16 != count ||
      (bytes.size() - 8) % 16 != 0) {
    error = path + ": expected a uint64 count and that many 16-byte records" +
            (bytes.size() >= 8 ? " (count " + std::to_string(count) + ", " +
                                     std::to_string(bytes.size()) + " bytes)"
                               : std::string(" (file too short)"));
    return false;
  }
  entries.resize(count);
  for (uint64_t i = 0; i < count; ++i) {
    entries[i].index = loadU64(bytes, 8 + 16 * i);
    entries[i].value = loadF64(bytes, 16 + 16 * i);
    if (entries[i].index >= uint64_t(numElements)) {
      error = path + ": record " + std::to_string(i) + " has index " +
              std::to_string(entries[i].index) + ", but the tensor has " +
              std::to_string(numElements) + " elements";
      return false;
    }
  }
  return true;
}

bool runtime::writeDenseFile(const std::string &path,
                             const std::vector<double> &values,
                             std::string &error) {
  std::string bytes;
  bytes.reserve(values.size() * 8);
  for (double value : values)
    appendF64(bytes, value);
  return writeFile(path, bytes, error);
}

bool runtime::writeSparseFile(const std::string &path,
                              const std::vector<SparseEntry> &entries,
                              std::string &error) {
  std::string bytes;
  bytes.reserve(8 + entries.size() * 16);
  appendU64(bytes, entries.size());
  for (const SparseEntry &entry : entries) {
    appendU64(bytes, entry.index);
    appendF64(bytes, entry.value);
  }
  return writeFile(path, bytes, error);
}

//===----------------------------------------------------------------------===//
// Directories
//===----------------------------------------------------------------------===//

static std::string joinPath(const std::string &dir, const std::string &file) {
  if (dir.empty() || dir.back() == '/')
    return dir + file;
  return dir + "/" + file;
}

bool runtime::readArtifact(const std::string &dir, Artifact &artifact,
                           std::string &error) {
  std::string manifestPath = joinPath(dir, "manifest.txt"), text;
  if (!readFile(manifestPath, text, error) ||
      !parseManifest(text, manifestPath, artifact, error) ||
      !readFile(joinPath(dir, artifact.binaryFile), artifact.binary, error))
    return false;
  // Values the caller gave: the tensor's element bytes.
  for (TensorDecl &tensor : artifact.tensors) {
    if (tensor.init.kind != TensorInit::Data)
      continue;
    std::string path = joinPath(dir, tensor.init.file), bytes;
    if (!readFile(path, bytes, error))
      return false;
    if (bytes.size() != tensor.byteSize()) {
      error = path + ": " + std::to_string(bytes.size()) +
              " bytes, but tensor '" + tensor.name + "' has " +
              std::to_string(tensor.byteSize());
      return false;
    }
    tensor.init.values.resize(tensor.numElements());
    decodeElements(tensor.elementKind, bytes.data(), tensor.numElements(),
                   tensor.init.values.data());
  }
  for (OutputSpec &output : artifact.outputs) {
    std::string path = joinPath(dir, output.file);
    int64_t n = artifact.tensors[output.tensor].numElements();
    if (output.kind == ExpectedKind::Dense &&
        !readDenseFile(path, n, output.dense, error))
      return false;
    if (output.kind == ExpectedKind::Sparse &&
        !readSparseFile(path, n, output.sparse, error))
      return false;
  }
  return true;
}

/// Turns the dense expected values of an inout tensor into sparse ones when
/// fewer than a quarter of its elements change.
static void chooseSparse(OutputSpec &output, const TensorDecl &tensor,
                         uint64_t seed) {
  HostTensor initial = initialValues(tensor, seed);
  std::vector<SparseEntry> changed;
  for (size_t i = 0; i < output.dense.size(); ++i) {
    if (output.dense[i] == initial.data[i])
      continue;
    changed.push_back({i, output.dense[i]});
    if (changed.size() * 4 >= output.dense.size())
      return;
  }
  output.kind = ExpectedKind::Sparse;
  output.sparse = std::move(changed);
  output.dense.clear();
}

/// Whether `token` can be one token of the manifest: not empty, no
/// whitespace, not starting a comment.
static bool isToken(const std::string &token) {
  if (token.empty() || token[0] == '#')
    return false;
  for (char c : token)
    if (std::isspace(static_cast<unsigned char>(c)))
      return false;
  return true;
}

/// Checks the names the manifest will hold.
static bool checkNames(const Artifact &artifact, std::string &error) {
  std::vector<std::pair<const char *, const std::string *>> names = {
      {"program name", &artifact.program},
      {"chip", &artifact.chip},
      {"binary file", &artifact.binaryFile}};
  for (const TensorDecl &tensor : artifact.tensors)
    names.push_back({"tensor name", &tensor.name});
  for (const KernelLaunch &kernel : artifact.kernels)
    names.push_back({"kernel symbol", &kernel.symbol});
  for (const OutputSpec &output : artifact.outputs)
    if (!output.file.empty())
      names.push_back({"expected file", &output.file});
  for (auto [what, name] : names)
    if (!isToken(*name)) {
      error = std::string("the ") + what + " '" + *name +
              "' is empty, contains whitespace or starts with '#'";
      return false;
    }
  return true;
}

bool runtime::writeArtifact(const Artifact &original, const std::string &dir,
                            std::string &error) {
  if (!checkNames(original, error))
    return false;
  Artifact artifact = original;
  for (OutputSpec &output : artifact.outputs) {
    if (output.tensor >= artifact.tensors.size()) {
      error = "output #" + std::to_string(&output - &artifact.outputs[0]) +
              " names tensor #" + std::to_string(output.tensor) +
              ", but there are " + std::to_string(artifact.tensors.size());
      return false;
    }
    const TensorDecl &tensor = artifact.tensors[output.tensor];
    if (output.kind == ExpectedKind::None)
      continue;
    if (output.file.empty())
      output.file = "expected." + tensor.name + ".bin";
    if (output.kind == ExpectedKind::Dense &&
        output.dense.size() != uint64_t(tensor.numElements())) {
      error = "output '" + tensor.name + "' has " +
              std::to_string(output.dense.size()) +
              " expected values, but the tensor has " +
              std::to_string(tensor.numElements()) + " elements";
      return false;
    }
    if (output.kind == ExpectedKind::Dense && tensor.role == TensorRole::Inout)
      chooseSparse(output, tensor, artifact.seed);
    std::string path = joinPath(dir, output.file);
    if (output.kind == ExpectedKind::Dense
            ? !writeDenseFile(path, output.dense, error)
            : !writeSparseFile(path, output.sparse, error))
      return false;
  }
  for (TensorDecl &tensor : artifact.tensors) {
    if (tensor.init.kind != TensorInit::Data)
      continue;
    if (tensor.init.file.empty())
      tensor.init.file = "input." + tensor.name + ".bin";
    if (tensor.init.values.size() != uint64_t(tensor.numElements())) {
      error = "tensor '" + tensor.name + "' has " +
              std::to_string(tensor.init.values.size()) +
              " values, but " + std::to_string(tensor.numElements()) +
              " elements";
      return false;
    }
    std::string bytes(tensor.byteSize(), '\0');
    encodeElements(tensor.elementKind, tensor.init.values.data(),
                   tensor.numElements(), bytes.data());
    if (!isToken(tensor.init.file)) {
      error = "the data file '" + tensor.init.file + "' of tensor '" +
              tensor.name + "' is not a single token";
      return false;
    }
    if (!writeFile(joinPath(dir, tensor.init.file), bytes, error))
      return false;
  }
  for (const KernelLaunch &kernel : artifact.kernels)
    for (unsigned arg : kernel.args)
      if (arg >= artifact.tensors.size()) {
        error = "kernel '" + kernel.symbol + "' names tensor #" +
                std::to_string(arg) + ", but there are " +
                std::to_string(artifact.tensors.size());
        return false;
      }
  return writeFile(joinPath(dir, artifact.binaryFile), artifact.binary,
                   error) &&
         writeFile(joinPath(dir, "manifest.txt"), printManifest(artifact),
                   error);
}
