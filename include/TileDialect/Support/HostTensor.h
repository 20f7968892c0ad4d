//===- HostTensor.h - Dense tensors on the host ---------------*- C++ -*-===//
//
// The data the interpreters and tile-run exchange: a dense row-major tensor
// of doubles with the element type it stands for. No MLIR dependency.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_SUPPORT_HOSTTENSOR_H
#define TILEDIALECT_SUPPORT_HOSTTENSOR_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir::tileir {

/// The element types tensors and tiles hold.
enum class ElementKind { F16, BF16, F32, F64, I1 };

/// How arithmetic is carried out when interpreting a program.
enum class Precision {
  /// Every value rounded to its declared element type after each op (f16
  /// storage stays f16; f32 arithmetic).
  F32,
  /// Every value kept in double, ignoring declared element types: the
  /// real-number meaning the rewrites preserve, against which reassociation
  /// (and moving a cast, as Trinity's mixed-precision rules do) is compared.
  F64,
  /// F64 arithmetic, but the program's explicit conversions (arith.truncf,
  /// sitofp/uitofp to a float, a tile.cast that can change the value) round
  /// to their result type, as the compiled kernels' do: the reference for
  /// kernels. `x - f32(f16(x))` is 0 in F64 and f16's rounding error of x
  /// here.
  F64Casts,
};

/// `f16`, `bf16`, `f32`, `f64` or `i1`.
const char *toString(ElementKind kind);
std::optional<ElementKind> parseElementKind(const std::string &name);

/// Rounds `value` to the nearest value of `kind` (ties to even); i1 maps
/// non-zero to 1. Overflow gives infinity, as IEEE conversion does.
double roundToElement(ElementKind kind, double value);

/// Rounds `n` elements of `data` in place with roundToElement.
void roundInPlace(ElementKind kind, double *data, int64_t n);

/// Rounds the result `value` of arithmetic for `kind` under `precision`:
/// unchanged but in F32.
inline double roundFor(Precision precision, ElementKind kind, double value) {
  return precision == Precision::F32 ? roundToElement(kind, value) : value;
}

/// Whether `precision` rounds the program's explicit conversions.
inline bool roundsConversions(Precision precision) {
  return precision != Precision::F64;
}

/// A dense row-major tensor.
struct HostTensor {
  std::string name;
  std::vector<int64_t> shape;
  ElementKind elementKind = ElementKind::F32;
  std::vector<double> data;

  HostTensor() = default;
  HostTensor(std::string name, std::vector<int64_t> shape, ElementKind kind)
      : name(std::move(name)), shape(std::move(shape)), elementKind(kind),
        data(numElements(this->shape), 0.0) {}

  static int64_t numElements(const std::vector<int64_t> &shape) {
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    return n;
  }
  int64_t numElements() const { return numElements(shape); }

  /// Element n holds n: a positions tensor's values (the tile dialect's
  /// `positions` role, what linalg.index becomes).
  void fillPositions() {
    for (size_t i = 0; i < data.size(); ++i)
      data[i] = double(i);
  }
};

} // namespace mlir::tileir

#endif // TILEDIALECT_SUPPORT_HOSTTENSOR_H
