//===- Npy.cpp - NumPy .npy files in and out ------------------------------===//

#include "TileDialect/Runtime/Npy.h"

#include "TileDialect/Runtime/Artifact.h"
#include "TileDialect/Runtime/ElementBits.h"

#include <cstring>

using namespace mlir::tileir;
using namespace mlir::tileir::runtime;

static const char kMagic[] = "\x93NUMPY";

const char *runtime::npyDescr(ElementKind kind) {
  switch (kind) {
  case ElementKind::F16:
    return "<f2";
  case ElementKind::BF16:
  case ElementKind::F32:
    return "<f4";
  case ElementKind::F64:
    return "<f8";
  case ElementKind::I1:
    return "|b1";
  }
  return "<f4";
}

/// The element kind a descr's bytes are read as.
static bool kindOfDescr(const std::string &descr, ElementKind &kind) {
  if (descr.size() != 3)
    return false;
  char order = descr[0];
  std::string type = descr.substr(1);
  if (type == "b1" || type == "u1" || type == "i1") {
    kind = ElementKind::I1;
    return order == '|' || order == '<' || order == '=';
  }
  if (order != '<' && order != '=')
    return false;
  if (type == "f2")
    kind = ElementKind::F16;
  else if (type == "f4")
    kind = ElementKind::F32;
  else if (type == "f8")
    kind = ElementKind::F64;
  else
    return false;
  return true;
}

/// The text after `'key':` in a header dictionary, or npos.
static size_t valueOf(const std::string &header, const std::string &key) {
  size_t at = header.find("'" + key + "'");
  if (at == std::string::npos)
    return at;
  size_t colon = header.find(':', at);
  if (colon == std::string::npos)
    return colon;
  size_t v = colon + 1;
  while (v < header.size() && header[v] == ' ')
    ++v;
  return v;
}

bool runtime::readNpy(const std::string &path, NpyArray &array,
                      std::string &error) {
  std::string bytes;
  if (!readFile(path, bytes, error))
    return false;
  auto fail = [&](const std::string &why) {
    error = path + ": not a .npy file: " + why;
    return false;
  };
  if (bytes.size() < 10 || bytes.compare(0, 6, kMagic) != 0)
    return fail("no \\x93NUMPY magic");
  unsigned major = (unsigned char)bytes[6];
  size_t headerLen, headerStart;
  if (major == 1) {
    headerLen = (unsigned char)bytes[8] | ((unsigned char)bytes[9] << 8);
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12)
      return fail("truncated header");
    headerLen = 0;
    for (int i = 3; i >= 0; --i)
      headerLen = headerLen << 8 | (unsigned char)bytes[8 + i];
    headerStart = 12;
  } else {
    return fail("unsupported format version " + std::to_string(major));
  }
  if (bytes.size() < headerStart + headerLen)
    return fail("truncated header");
  std::string header = bytes.substr(headerStart, headerLen);

  size_t d = valueOf(header, "descr");
  if (d == std::string::npos || header[d] != '\'')
    return fail("no 'descr' in the header");
  size_t dEnd = header.find('\'', d + 1);
  if (dEnd == std::string::npos)
    return fail("a malformed 'descr'");
  array.descr = header.substr(d + 1, dEnd - d - 1);
  ElementKind kind;
  if (!kindOfDescr(array.descr, kind))
    return fail("unsupported element type '" + array.descr +
                "' (float16, float32, float64 or bool, little-endian)");

  size_t f = valueOf(header, "fortran_order");
  if (f == std::string::npos)
    return fail("no 'fortran_order' in the header");
  if (header.compare(f, 4, "True") == 0)
    return fail("Fortran order is not supported (save a C-contiguous array)");

  size_t s = valueOf(header, "shape");
  if (s == std::string::npos || header[s] != '(')
    return fail("no 'shape' in the header");
  size_t sEnd = header.find(')', s);
  if (sEnd == std::string::npos)
    return fail("a malformed 'shape'");
  array.shape.clear();
  uint64_t elements = 1;
  std::string dims = header.substr(s + 1, sEnd - s - 1);
  size_t pos = 0;
  while (pos < dims.size()) {
    while (pos < dims.size() && (dims[pos] == ' ' || dims[pos] == ','))
      ++pos;
    if (pos == dims.size())
      break;
    size_t end = pos;
    while (end < dims.size() && dims[end] >= '0' && dims[end] <= '9')
      ++end;
    if (end == pos || end - pos > 15)
      return fail("a malformed 'shape' '(" + dims + ")'");
    int64_t dim = std::stoll(dims.substr(pos, end - pos));
    array.shape.push_back(dim);
    elements = dim == 0 ? 0 : elements * uint64_t(dim);
    if (elements > (uint64_t(1) << 48))
      return fail("the array is too large");
    pos = end;
  }
  size_t dataStart = headerStart + headerLen;
  uint64_t dataBytes = elements * elementSize(kind);
  if (bytes.size() - dataStart != dataBytes)
    return fail(std::to_string(bytes.size() - dataStart) +
                " bytes of data, expected " + std::to_string(dataBytes));
  array.values.resize(elements);
  decodeElements(kind, bytes.data() + dataStart, int64_t(elements),
                 array.values.data());
  return true;
}

static std::string shapeText(const std::vector<int64_t> &shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

bool runtime::readNpyAs(const std::string &path, ElementKind kind,
                        const std::vector<int64_t> &shape,
                        const std::string &what, std::vector<double> &values,
                        std::string &error) {
  NpyArray array;
  if (!readNpy(path, array, error))
    return false;
  std::string want = npyDescr(kind);
  bool sameType = array.descr == want ||
                  (array.descr[0] == '=' && array.descr.substr(1) ==
                                                want.substr(1)) ||
                  (kind == ElementKind::I1 &&
                   (array.descr == "|u1" || array.descr == "|i1"));
  if (!sameType) {
    error = path + ": " + what + " is " + toString(kind) + " (numpy '" + want +
            "'), the file holds '" + array.descr + "'";
    return false;
  }
  if (array.shape != shape) {
    error = path + ": " + what + " has shape " + shapeText(shape) +
            ", the file " + shapeText(array.shape);
    return false;
  }
  values = std::move(array.values);
  if (kind == ElementKind::BF16)
    for (double &v : values)
      v = fromBF16Bits(toBF16Bits(v));
  if (kind == ElementKind::I1)
    for (double &v : values)
      v = v != 0.0;
  return true;
}

bool runtime::writeNpy(const std::string &path, ElementKind kind,
                       const std::vector<int64_t> &shape,
                       const std::vector<double> &values, std::string &error) {
  ElementKind fileKind = kind == ElementKind::BF16 ? ElementKind::F32 : kind;
  std::string header = std::string("{'descr': '") + npyDescr(kind) +
                       "', 'fortran_order': False, 'shape': " +
                       shapeText(shape) + ", }";
  // Magic, version, length, header: padded with spaces to a multiple of 64
  // bytes, ending in a newline.
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string bytes(kMagic, 6);
  bytes += char(1);
  bytes += char(0);
  bytes += char(header.size() & 0xff);
  bytes += char(header.size() >> 8);
  bytes += header;
  size_t start = bytes.size();
  bytes.resize(start + values.size() * elementSize(fileKind));
  encodeElements(fileKind, values.data(), int64_t(values.size()),
                 bytes.data() + start);
  return writeFile(path, bytes, error);
}
