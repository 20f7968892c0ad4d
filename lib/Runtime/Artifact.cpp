//===- Artifact.cpp - Parse and print artifact manifests ------------------===//

#include "TileDialect/Runtime/Artifact.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <sstream>

using namespace mlir::tileir;
using namespace mlir::tileir::runtime;

const char *runtime::toString(Platform platform) {
  return platform == Platform::Cuda ? "cuda" : "hip";
}

std::optional<Platform> runtime::parsePlatform(const std::string &name) {
  if (name == "cuda")
    return Platform::Cuda;
  if (name == "hip")
    return Platform::Hip;
  return std::nullopt;
}

static constexpr TensorRole kRoles[] = {
    TensorRole::Input, TensorRole::Inout, TensorRole::Output,
    TensorRole::Intermediate, TensorRole::Scratch};

const char *runtime::toString(TensorRole role) {
  switch (role) {
  case TensorRole::Input:
    return "input";
  case TensorRole::Inout:
    return "inout";
  case TensorRole::Output:
    return "output";
  case TensorRole::Intermediate:
    return "intermediate";
  case TensorRole::Scratch:
    return "scratch";
  }
  return "?";
}

std::optional<TensorRole> runtime::parseTensorRole(const std::string &name) {
  for (TensorRole role : kRoles)
    if (name == toString(role))
      return role;
  return std::nullopt;
}

unsigned runtime::elementSize(ElementKind kind) {
  switch (kind) {
  case ElementKind::F16:
  case ElementKind::BF16:
    return 2;
  case ElementKind::F32:
    return 4;
  case ElementKind::F64:
    return 8;
  case ElementKind::I1:
    return 1;
  }
  return 1;
}

std::optional<unsigned> Artifact::findTensor(const std::string &name) const {
  for (unsigned i = 0; i < tensors.size(); ++i)
    if (tensors[i].name == name)
      return i;
  return std::nullopt;
}

HostTensor runtime::initialValues(const TensorDecl &tensor, uint64_t seed) {
  HostTensor host(tensor.name, tensor.shape, tensor.elementKind);
  if (tensor.init.kind == TensorInit::Random)
    fillRandom(host, seed, tensor.init.stream, tensor.init.spec);
  else if (tensor.init.kind == TensorInit::Data)
    host.data = tensor.init.values;
  else if (tensor.init.kind == TensorInit::Positions)
    host.fillPositions();
  return host;
}

std::vector<double>
runtime::expectedValues(const OutputSpec &output,
                        const std::vector<double> &initial) {
  if (output.kind == ExpectedKind::Dense)
    return output.dense;
  std::vector<double> values = initial;
  for (const SparseEntry &entry : output.sparse)
    if (entry.index < values.size())
      values[entry.index] = entry.value;
  return values;
}

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

namespace {

/// Parses one manifest, record by record, remembering where it is.
class ManifestParser {
public:
  ManifestParser(const std::string &fileName, Artifact &artifact,
                 std::string &error)
      : fileName(fileName), artifact(artifact), error(error) {}

  bool parse(const std::string &text);

private:
  bool parseRecord();
  bool parseHeader(unsigned index);
  bool parseTensor();
  bool parseKernel();
  bool parseOutput();

  bool fail(const std::string &message) {
    error = fileName + ":" + std::to_string(line) + ": " + message;
    return false;
  }
  bool expectCount(size_t count, const char *form) {
    if (tokens.size() == count)
      return true;
    return fail(std::string("expected '") + form + "'");
  }
  bool parseUnsigned(const std::string &token, const char *what, uint64_t max,
                     uint64_t &value);
  bool parseDouble(const std::string &token, const char *what, double &value);
  /// `NAME X` with X a number >= 0 (`what` names it in errors).
  bool parseNonNegative(const char *form, const char *what, double &value);
  bool lookupTensor(const std::string &name, unsigned &index);

  const std::string &fileName;
  Artifact &artifact;
  std::string &error;
  std::vector<std::string> tokens;
  unsigned line = 0;
  /// Header records seen so far (they come first, in kHeaderRecords' order).
  unsigned headersSeen = 0;
  /// 0: tensors, 1: kernels, 2: outputs.
  unsigned section = 0;
  bool launchSeen = false;
  bool floorSeen = false;
};

} // namespace

static const char *const kHeaderRecords[] = {
    "tile-artifact", "program", "platform", "chip",
    "binary",        "seed",    "tolerance"};
static constexpr unsigned kNumHeaderRecords = 7;

bool ManifestParser::parseUnsigned(const std::string &token, const char *what,
                                   uint64_t max, uint64_t &value) {
  bool digits = !token.empty() && token.size() <= 20;
  for (char c : token)
    digits &= c >= '0' && c <= '9';
  errno = 0;
  if (digits)
    value = std::strtoull(token.c_str(), nullptr, 10);
  if (!digits || errno == ERANGE || value > max)
    return fail(std::string(what) + " must be an integer from 0 to " +
                std::to_string(max) + ", got '" + token + "'");
  return true;
}

bool ManifestParser::parseNonNegative(const char *form, const char *what,
                                      double &value) {
  if (!expectCount(2, form) || !parseDouble(tokens[1], what, value))
    return false;
  if (value < 0)
    return fail(std::string(what) + " must not be negative");
  return true;
}

bool ManifestParser::parseDouble(const std::string &token, const char *what,
                                 double &value) {
  char *end = nullptr;
  value = std::strtod(token.c_str(), &end);
  if (token.empty() || *end != '\0' || value != value)
    return fail(std::string(what) + " must be a number, got '" + token + "'");
  return true;
}

bool ManifestParser::lookupTensor(const std::string &name, unsigned &index) {
  std::optional<unsigned> found = artifact.findTensor(name);
  if (!found)
    return fail("unknown tensor '" + name + "'");
  index = *found;
  return true;
}

bool ManifestParser::parse(const std::string &text) {
  std::istringstream lines(text);
  std::string content;
  while (std::getline(lines, content)) {
    ++line;
    std::istringstream words(content);
    tokens.clear();
    for (std::string word; words >> word;)
      tokens.push_back(word);
    if (tokens.empty() || tokens[0][0] == '#')
      continue;
    if (!parseRecord())
      return false;
  }
  if (headersSeen < kNumHeaderRecords) {
    error = fileName + ": missing '" + kHeaderRecords[headersSeen] + "' record";
    return false;
  }
  if (artifact.kernels.empty()) {
    error = fileName + ": no 'kernel' record";
    return false;
  }
  return true;
}

bool ManifestParser::parseRecord() {
  const std::string &kind = tokens[0];
  if (headersSeen < kNumHeaderRecords) {
    if (kind != kHeaderRecords[headersSeen])
      return fail(std::string("expected a '") + kHeaderRecords[headersSeen] +
                  "' record, found '" + kind + "'");
    return parseHeader(headersSeen++);
  }
  if (kind == "launch") {
    if (launchSeen)
      return fail("duplicate 'launch' record");
    launchSeen = true;
    if (tokens.size() != 2 ||
        (tokens[1] != "programmatic" && tokens[1] != "plain"))
      return fail("'launch' takes 'programmatic' or 'plain'");
    artifact.programmaticLaunch = tokens[1] == "programmatic";
    return true;
  }
  if (kind == "floor") {
    if (floorSeen)
      return fail("duplicate 'floor' record");
    floorSeen = true;
    return parseNonNegative("floor X", "the floor", artifact.floor);
  }
  static const char *const kSections[] = {"tensor", "kernel", "output"};
  for (unsigned i = 0; i < 3; ++i) {
    if (kind != kSections[i])
      continue;
    if (i < section)
      return fail("'" + kind + "' record after the '" + kSections[section] +
                  "' records");
    section = i;
    return i == 0 ? parseTensor() : i == 1 ? parseKernel() : parseOutput();
  }
  for (const char *header : kHeaderRecords)
    if (kind == header)
      return fail("duplicate '" + kind + "' record");
  return fail("unknown record '" + kind + "'");
}

bool ManifestParser::parseHeader(unsigned index) {
  uint64_t value;
  switch (index) {
  case 0:
    if (!expectCount(2, "tile-artifact VERSION"))
      return false;
    if (tokens[1] != std::to_string(kArtifactVersion))
      return fail("unsupported artifact version '" + tokens[1] +
                  "' (this runtime reads version " +
                  std::to_string(kArtifactVersion) + ")");
    return true;
  case 1:
    if (!expectCount(2, "program NAME"))
      return false;
    artifact.program = tokens[1];
    return true;
  case 2: {
    if (!expectCount(2, "platform cuda|hip"))
      return false;
    std::optional<Platform> platform = parsePlatform(tokens[1]);
    if (!platform)
      return fail("unknown platform '" + tokens[1] + "' (cuda or hip)");
    artifact.platform = *platform;
    return true;
  }
  case 3:
    if (!expectCount(2, "chip NAME"))
      return false;
    artifact.chip = tokens[1];
    return true;
  case 4:
    if (!expectCount(2, "binary FILE"))
      return false;
    artifact.binaryFile = tokens[1];
    return true;
  case 5:
    if (!expectCount(2, "seed N") ||
        !parseUnsigned(tokens[1], "the seed", UINT64_MAX, value))
      return false;
    artifact.seed = value;
    return true;
  default:
    return parseNonNegative("tolerance X", "the tolerance",
                            artifact.tolerance);
  }
}

bool ManifestParser::parseTensor() {
  static const char *form = "tensor NAME DTYPE ROLE RANK D0 ... INIT";
  if (tokens.size() < 6)
    return fail(std::string("expected '") + form + "'");
  TensorDecl tensor;
  tensor.name = tokens[1];
  if (artifact.findTensor(tensor.name))
    return fail("duplicate tensor '" + tensor.name + "'");
  std::optional<ElementKind> kind = parseElementKind(tokens[2]);
  if (!kind)
    return fail("unknown element type '" + tokens[2] +
                "' (f16, bf16, f32, f64 or i1)");
  tensor.elementKind = *kind;
  std::optional<TensorRole> role = parseTensorRole(tokens[3]);
  if (!role)
    return fail("unknown tensor role '" + tokens[3] +
                "' (input, inout, output, intermediate or scratch)");
  tensor.role = *role;
  uint64_t rank, dim;
  if (!parseUnsigned(tokens[4], "the rank", 16, rank))
    return false;
  size_t init = 5 + rank;
  if (tokens.size() <= init)
    return fail("expected " + std::to_string(rank) +
                " dimensions and an initializer");
  // Elements must be countable in bytes; 2^48 is far beyond any device.
  uint64_t elements = 1;
  for (size_t i = 5; i < init; ++i) {
    if (!parseUnsigned(tokens[i], "a dimension", uint64_t(1) << 48, dim))
      return false;
    elements = dim == 0 ? 0 : elements * dim;
    if (elements > (uint64_t(1) << 48))
      return fail("tensor '" + tensor.name + "' is too large");
    tensor.shape.push_back(int64_t(dim));
  }
  if (tokens[init] == "zero") {
    tensor.init.once = tokens.size() > init + 1 && tokens[init + 1] == "once";
    size_t end = init + (tensor.init.once ? 2 : 1);
    if (tokens.size() != end)
      return fail("unexpected '" + tokens[end] + "' after '" + tokens[end - 1] +
                  "'");
  } else if (tokens[init] == "random") {
    if (tokens.size() != init + 5)
      return fail("expected 'random STREAM normal|uniform A B'");
    uint64_t stream;
    if (!parseUnsigned(tokens[init + 1], "the stream", UINT32_MAX - 1, stream))
      return false;
    tensor.init.kind = TensorInit::Random;
    tensor.init.stream = unsigned(stream);
    InitSpec &spec = tensor.init.spec;
    if (tokens[init + 2] == "normal")
      spec.kind = InitSpec::Normal;
    else if (tokens[init + 2] == "uniform")
      spec.kind = InitSpec::Uniform;
    else
      return fail("unknown distribution '" + tokens[init + 2] +
                  "' (normal or uniform)");
    if (!parseDouble(tokens[init + 3], "a distribution parameter", spec.a) ||
        !parseDouble(tokens[init + 4], "a distribution parameter", spec.b))
      return false;
    if (spec.kind == InitSpec::Normal ? spec.b < 0 : spec.b < spec.a)
      return fail(spec.kind == InitSpec::Normal
                      ? "the standard deviation must not be negative"
                      : "the upper bound must not be below the lower bound");
  } else if (tokens[init] == "positions") {
    if (tokens.size() != init + 1)
      return fail("unexpected '" + tokens[init + 1] + "' after 'positions'");
    if (tensor.shape.size() != 1)
      return fail("a positions tensor has one dimension");
    tensor.init.kind = TensorInit::Positions;
  } else if (tokens[init] == "data") {
    if (tokens.size() != init + 2)
      return fail("expected 'data FILE'");
    tensor.init.kind = TensorInit::Data;
    tensor.init.file = tokens[init + 1];
  } else {
    return fail("unknown initializer '" + tokens[init] +
                "' (zero, random STREAM normal|uniform A B, positions, or "
                "data FILE)");
  }
  artifact.tensors.push_back(std::move(tensor));
  return true;
}

bool ManifestParser::parseKernel() {
  if (tokens.size() < 10)
    return fail("expected 'kernel SYMBOL GX GY GZ BX BY BZ SMEM NARGS "
                "ARG...'");
  KernelLaunch kernel;
  kernel.symbol = tokens[1];
  uint64_t value;
  for (unsigned i = 0; i < 6; ++i) {
    if (!parseUnsigned(tokens[2 + i], i < 3 ? "a grid size" : "a block size",
                       UINT32_MAX, value))
      return false;
    if (value == 0)
      return fail(std::string(i < 3 ? "grid" : "block") +
                  " sizes must be positive");
    (i < 3 ? kernel.grid[i] : kernel.block[i - 3]) = unsigned(value);
  }
  if (!parseUnsigned(tokens[8], "the shared memory size", UINT32_MAX, value))
    return false;
  kernel.sharedMemBytes = unsigned(value);
  if (!parseUnsigned(tokens[9], "the argument count", 4096, value))
    return false;
  if (tokens.size() != 10 + value)
    return fail("kernel '" + kernel.symbol + "' declares " +
                std::to_string(value) + " arguments but lists " +
                std::to_string(tokens.size() - 10));
  for (size_t i = 10; i < tokens.size(); ++i) {
    unsigned index;
    if (!lookupTensor(tokens[i], index))
      return false;
    kernel.args.push_back(index);
  }
  artifact.kernels.push_back(std::move(kernel));
  return true;
}

bool ManifestParser::parseOutput() {
  if (tokens.size() < 3)
    return fail("expected 'output NAME dense|sparse FILE' or "
                "'output NAME none'");
  OutputSpec output;
  if (!lookupTensor(tokens[1], output.tensor))
    return false;
  for (const OutputSpec &other : artifact.outputs)
    if (other.tensor == output.tensor)
      return fail("duplicate output '" + tokens[1] + "'");
  if (tokens[2] == "none") {
    if (!expectCount(3, "output NAME none"))
      return false;
  } else if (tokens[2] == "dense" || tokens[2] == "sparse") {
    if (!expectCount(4, "output NAME dense|sparse FILE"))
      return false;
    output.kind =
        tokens[2] == "dense" ? ExpectedKind::Dense : ExpectedKind::Sparse;
    output.file = tokens[3];
  } else {
    return fail("unknown expected-value kind '" + tokens[2] +
                "' (dense, sparse or none)");
  }
  artifact.outputs.push_back(std::move(output));
  return true;
}

bool runtime::parseManifest(const std::string &text,
                            const std::string &fileName, Artifact &artifact,
                            std::string &error) {
  artifact = Artifact();
  return ManifestParser(fileName, artifact, error).parse(text);
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

/// The shortest decimal form that reads back as the same double.
static std::string printDouble(double value) {
  char buffer[32];
  for (int digits = 6; digits <= 17; ++digits) {
    std::snprintf(buffer, sizeof(buffer), "%.*g", digits, value);
    if (std::strtod(buffer, nullptr) == value)
      break;
  }
  return buffer;
}

std::string runtime::printManifest(const Artifact &artifact) {
  std::ostringstream os;
  os << "tile-artifact " << kArtifactVersion << "\n"
     << "program " << artifact.program << "\n"
     << "platform " << toString(artifact.platform) << "\n"
     << "chip " << artifact.chip << "\n"
     << "binary " << artifact.binaryFile << "\n"
     << "seed " << artifact.seed << "\n"
     << "tolerance " << printDouble(artifact.tolerance) << "\n";
  if (artifact.programmaticLaunch)
    os << "launch programmatic\n";
  if (artifact.floor > 0)
    os << "floor " << printDouble(artifact.floor) << "\n";
  for (const TensorDecl &tensor : artifact.tensors) {
    os << "tensor " << tensor.name << " " << toString(tensor.elementKind) << " "
       << toString(tensor.role) << " " << tensor.shape.size();
    for (int64_t dim : tensor.shape)
      os << " " << dim;
    const TensorInit &init = tensor.init;
    if (init.kind == TensorInit::Zero)
      os << (init.once ? " zero once\n" : " zero\n");
    else if (init.kind == TensorInit::Data)
      os << " data " << init.file << "\n";
    else if (init.kind == TensorInit::Positions)
      os << " positions\n";
    else
      os << " random " << init.stream << " "
         << (init.spec.kind == InitSpec::Normal ? "normal " : "uniform ")
         << printDouble(init.spec.a) << " " << printDouble(init.spec.b) << "\n";
  }
  for (const KernelLaunch &kernel : artifact.kernels) {
    os << "kernel " << kernel.symbol;
    for (unsigned size : kernel.grid)
      os << " " << size;
    for (unsigned size : kernel.block)
      os << " " << size;
    os << " " << kernel.sharedMemBytes << " " << kernel.args.size();
    for (unsigned arg : kernel.args)
      os << " " << artifact.tensors[arg].name;
    os << "\n";
  }
  for (const OutputSpec &output : artifact.outputs) {
    os << "output " << artifact.tensors[output.tensor].name;
    if (output.kind == ExpectedKind::None)
      os << " none\n";
    else
      os << (output.kind == ExpectedKind::Dense ? " dense " : " sparse ")
         << output.file << "\n";
  }
  return os.str();
}
