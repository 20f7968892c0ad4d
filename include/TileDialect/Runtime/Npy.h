//===- Npy.h - NumPy .npy files in and out ---------------------*- C++ -*-===//
//
// The tools take tensors from and give tensors to the caller as .npy files
// (`--input NAME=@x.npy`, `--output-dir DIR`), the format numpy.save writes:
// a magic string, a header dictionary (descr, fortran_order, shape) and the
// elements in row-major order. Versions 1.0, 2.0 and 3.0; little-endian.
//
// The element types map one to one: f16 <-> '<f2', f32 <-> '<f4',
// f64 <-> '<f8', i1 <-> '|b1'. NumPy has no bfloat16: a bf16 tensor is read
// from '<f4' (rounded to bf16) and written as '<f4' (exact).
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_RUNTIME_NPY_H
#define TILEDIALECT_RUNTIME_NPY_H

#include "TileDialect/Support/HostTensor.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::tileir::runtime {

/// An array as read from a .npy file: its values (decoded exactly) and the
/// element type its `descr` names.
struct NpyArray {
  std::string descr;
  std::vector<int64_t> shape;
  std::vector<double> values;
};

/// Reads the .npy file at `path`. On failure returns false and sets `error`
/// to a message naming the file.
bool readNpy(const std::string &path, NpyArray &array, std::string &error);

/// Reads the .npy file at `path` as the values of a tensor of `kind` and
/// `shape`: the file's element type and shape must be the tensor's (see the
/// file comment for bf16). `what` names the tensor in errors.
bool readNpyAs(const std::string &path, ElementKind kind,
               const std::vector<int64_t> &shape, const std::string &what,
               std::vector<double> &values, std::string &error);

/// Writes `values` (rounded to `kind`) as a .npy file of `kind`'s element
/// type and `shape`.
bool writeNpy(const std::string &path, ElementKind kind,
              const std::vector<int64_t> &shape,
              const std::vector<double> &values, std::string &error);

/// The `descr` of `kind`: '<f2', '<f4' (also for bf16), '<f8', '|b1'.
const char *npyDescr(ElementKind kind);

} // namespace mlir::tileir::runtime

#endif // TILEDIALECT_RUNTIME_NPY_H
