//===- Artifact.h - Compiled programs the GPU runtime runs ----*- C++ -*-===//
//
// An artifact is a directory the compiler writes and the GPU runtime reads:
// `manifest.txt` (tensors, kernels in launch order, outputs), one device
// binary and the expected outputs. The format is docs/Runtime.md. No MLIR or
// LLVM dependency: this is linked into tools that run where neither exists.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_RUNTIME_ARTIFACT_H
#define TILEDIALECT_RUNTIME_ARTIFACT_H

#include "TileDialect/Support/HostTensor.h"
#include "TileDialect/Support/RandomInit.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mlir::tileir::runtime {

/// The GPU runtime an artifact's binary is for.
enum class Platform { Cuda, Hip };

/// What a tensor is to the program.
enum class TensorRole { Input, Inout, Output, Intermediate, Scratch };

/// `cuda` / `hip`, and back.
const char *toString(Platform platform);
std::optional<Platform> parsePlatform(const std::string &name);
/// `input`, `inout`, `output`, `intermediate`, `scratch`, and back.
const char *toString(TensorRole role);
std::optional<TensorRole> parseTensorRole(const std::string &name);

/// Bytes per element on the device: 2, 2, 4, 8 and 1 (i1 as one byte).
unsigned elementSize(ElementKind kind);

/// How a tensor's device buffer is set before every run.
struct TensorInit {
  /// Positions: element n holds n (what linalg.index reads; the module
  /// fills it once, nobody writes it).
  enum Kind { Zero, Random, Data, Positions } kind = Zero;
  /// Random: the generator stream (docs/RandomInputs.md) and distribution.
  unsigned stream = 0;
  InitSpec spec;
  /// Data: the values (given by the caller, `--input NAME=@x.npy`), stored
  /// in `file` (relative to the artifact directory; when writing, empty
  /// means `input.NAME.bin`) as the tensor's element bytes.
  std::string file;
  std::vector<double> values;
  /// Zero: cleared before the first call only (`zero once`): the launches
  /// clear it themselves, before they use it or after.
  bool once = false;

  static TensorInit random(unsigned stream, InitSpec spec) {
    TensorInit init;
    init.kind = Random;
    init.stream = stream;
    init.spec = spec;
    return init;
  }
  /// Whether the caller puts the values in place (random or given data);
  /// the module clears zeros and fills positions itself.
  bool byCaller() const { return kind == Random || kind == Data; }

  static TensorInit positions() {
    TensorInit init;
    init.kind = Positions;
    return init;
  }
  static TensorInit data(std::vector<double> values) {
    TensorInit init;
    init.kind = Data;
    init.values = std::move(values);
    return init;
  }
};

/// One device buffer: a dense row-major tensor.
struct TensorDecl {
  std::string name;
  ElementKind elementKind = ElementKind::F32;
  TensorRole role = TensorRole::Input;
  /// Empty for a scalar (one element).
  std::vector<int64_t> shape;
  TensorInit init;

  int64_t numElements() const { return HostTensor::numElements(shape); }
  uint64_t byteSize() const {
    return uint64_t(numElements()) * elementSize(elementKind);
  }
};

/// One kernel launch; launches run in order on one stream.
struct KernelLaunch {
  std::string symbol;
  unsigned grid[3] = {1, 1, 1};
  unsigned block[3] = {1, 1, 1};
  /// Bytes of dynamic shared memory.
  unsigned sharedMemBytes = 0;
  /// The kernel's parameters: indices into Artifact::tensors, each passed as
  /// a device pointer to that tensor's buffer.
  std::vector<unsigned> args;
};

/// One expected element of a sparse expected output.
struct SparseEntry {
  /// Flat row-major index.
  uint64_t index = 0;
  double value = 0.0;

  bool operator==(const SparseEntry &other) const {
    return index == other.index && value == other.value;
  }
};

/// How the expected values of an output are given.
enum class ExpectedKind { None, Dense, Sparse };

/// An output to compare after the run.
struct OutputSpec {
  /// Index into Artifact::tensors.
  unsigned tensor = 0;
  ExpectedKind kind = ExpectedKind::None;
  /// The expected-values file, relative to the artifact directory. When
  /// writing, empty means `expected.NAME.bin`.
  std::string file;
  /// Dense: one value per element.
  std::vector<double> dense;
  /// Sparse: the elements that differ from the tensor's initial values.
  std::vector<SparseEntry> sparse;
};

/// A whole artifact, held in memory (binary and expected values included).
struct Artifact {
  std::string program;
  Platform platform = Platform::Cuda;
  /// Informational: sm_80, sm_90, gfx942, ...
  std::string chip;
  /// The device binary's file name, relative to the directory, and contents.
  std::string binaryFile = "kernels.bin";
  std::string binary;
  /// The seed of the random inputs.
  uint64_t seed = 0;
  /// The default largest max_rel_err that passes.
  double tolerance = 1e-2;
  /// Outputs are compared relative to at least this magnitude (record
  /// `floor X`, optional): f16's smallest normal for a program that computes
  /// anything in f16 (`comparisonFloorOf`), whatever its outputs' types.
  double floor = 0;
  /// Whether every kernel waits for its predecessor's completion itself
  /// (`griddepcontrol.wait` on sm_90+), so that kernels may be launched with
  /// programmatic stream serialization (record `launch programmatic`).
  bool programmaticLaunch = false;
  std::vector<TensorDecl> tensors;
  std::vector<KernelLaunch> kernels;
  std::vector<OutputSpec> outputs;

  /// The index of the tensor named `name`, if any.
  std::optional<unsigned> findTensor(const std::string &name) const;
};

/// The version `tile-artifact` records carry.
constexpr unsigned kArtifactVersion = 1;

/// Parses the text of a manifest into `artifact` (neither the binary nor the
/// expected files are read). On failure returns false and sets `error` to
/// `FILENAME:LINE: message`.
bool parseManifest(const std::string &text, const std::string &fileName,
                   Artifact &artifact, std::string &error);

/// Prints `artifact`'s manifest.
std::string printManifest(const Artifact &artifact);

/// Reads the artifact in directory `dir`: the manifest, the binary and every
/// expected file, and checks them against each other. On failure returns
/// false and sets `error` to a message naming the file (and line).
bool readArtifact(const std::string &dir, Artifact &artifact,
                  std::string &error);

/// Writes `artifact` into directory `dir` (which must exist): the manifest,
/// the binary and the expected files. A dense output of an `inout` tensor of
/// which fewer than a quarter of the elements differ from the initial values
/// is written sparse (the manifest says which). Names must be single tokens
/// (no whitespace). Returns false and sets `error` on failure.
bool writeArtifact(const Artifact &artifact, const std::string &dir,
                   std::string &error);

/// The values `tensor` holds before every run: its random inputs under
/// `seed` (exactly fillRandom's, rounded to the element type) or zeros.
HostTensor initialValues(const TensorDecl &tensor, uint64_t seed);

/// The dense expected values of `output`: its dense values, or the tensor's
/// `initial` values with the sparse entries applied.
std::vector<double> expectedValues(const OutputSpec &output,
                                   const std::vector<double> &initial);

/// Expected-value files (little-endian): dense is numElements float64
/// values; sparse is a uint64 count and that many (uint64 index, float64
/// value) records. `numElements` checks the size / indices.
bool readDenseFile(const std::string &path, int64_t numElements,
                   std::vector<double> &values, std::string &error);
bool readSparseFile(const std::string &path, int64_t numElements,
                    std::vector<SparseEntry> &entries, std::string &error);
bool writeDenseFile(const std::string &path, const std::vector<double> &values,
                    std::string &error);
bool writeSparseFile(const std::string &path,
                     const std::vector<SparseEntry> &entries,
                     std::string &error);

/// Reads / writes a whole file as bytes.
bool readFile(const std::string &path, std::string &contents,
              std::string &error);
bool writeFile(const std::string &path, const std::string &contents,
               std::string &error);

} // namespace mlir::tileir::runtime

#endif // TILEDIALECT_RUNTIME_ARTIFACT_H
