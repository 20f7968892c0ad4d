//===- Kernels.h - Compute kernels of the tile interpreter -----*- C++ -*-===//
//
// The loops that do the interpreter's arithmetic on contiguous row-major
// buffers of doubles: strided copies (loads, stores and layout ops),
// elementwise maps, reductions, batched matmul and element rounding. Every
// kernel is called once per tile with the operation chosen outside its loop,
// so the inner loops are plain and vectorizable. No MLIR dependency.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_INTERPRETER_KERNELS_H
#define TILEDIALECT_INTERPRETER_KERNELS_H

#include "TileDialect/Support/HostTensor.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>

namespace mlir::tileir::interp {

/// Elementwise functions of one operand.
enum class UnaryFn : uint8_t {
  Neg,
  Abs,
  Sqr,
  Exp,
  Log,
  Sqrt,
  Rsqrt,
  Sigmoid,
  Tanh,
  Erf,
  Sin,
  Cos
};

/// Elementwise functions of two operands. `Max` and `Min` propagate NaN.
enum class BinaryFn : uint8_t { Add, Sub, Mul, Div, Max, Min };

/// Comparisons; all are ordered (false on NaN) except `Ne`.
enum class CmpFn : uint8_t { Eq, Ne, Lt, Le, Gt, Ge };

/// Reductions along one axis. `Max` and `Min` propagate NaN.
enum class ReduceFn : uint8_t { Sum, Max, Min };

/// A copy of an N-d region between two strided buffers, with adjacent
/// dimensions that are contiguous on both sides merged and extent-1
/// dimensions dropped when it is made, so that the inner loop is as long as
/// possible. A stride of 0 on the source side repeats a value (broadcast).
class StridedCopy {
public:
  StridedCopy() = default;
  /// A copy of a region of `shape` read with `srcStrides` and written with
  /// `dstStrides` (element strides, one per dimension).
  StridedCopy(llvm::ArrayRef<int64_t> shape, llvm::ArrayRef<int64_t> srcStrides,
              llvm::ArrayRef<int64_t> dstStrides);

  /// Copies the region from `src` to `dst`, the addresses of its first
  /// element on each side.
  void run(const double *src, double *dst) const;

  /// The merged region: its extents and, per dimension, the element strides
  /// on each side (code generators walk the same copy).
  llvm::ArrayRef<int64_t> getShape() const { return shape; }
  llvm::ArrayRef<int64_t> getSrcStrides() const { return srcStrides; }
  llvm::ArrayRef<int64_t> getDstStrides() const { return dstStrides; }

private:
  llvm::SmallVector<int64_t, 4> shape, srcStrides, dstStrides;
};

/// The row-major strides of `shape`.
llvm::SmallVector<int64_t, 4> rowMajorStrides(llvm::ArrayRef<int64_t> shape);

/// `out[i] = fn(in[i])` for `n` elements; `out` may equal `in`.
void applyUnary(UnaryFn fn, const double *in, double *out, int64_t n);

/// `out[i] = fn(lhs[i], rhs[i])` for `n` elements.
void applyBinary(BinaryFn fn, const double *lhs, const double *rhs, double *out,
                 int64_t n);

/// `out[i] = fn(lhs[i], rhs[i]) ? 1 : 0` for `n` elements.
void applyCmp(CmpFn fn, const double *lhs, const double *rhs, double *out,
              int64_t n);

/// `out[i] = cond[i] != 0 ? onTrue[i] : onFalse[i]` for `n` elements.
void applySelect(const double *cond, const double *onTrue,
                 const double *onFalse, double *out, int64_t n);

/// Reduces `in`, viewed as `[outer, extent, inner]`, along its middle axis
/// into `out` of shape `[outer, inner]`. Sums accumulate in double.
void applyReduce(ReduceFn fn, const double *in, double *out, int64_t outer,
                 int64_t extent, int64_t inner);

/// `c[b] = a[b] x b[b]` for `batch` matrices, `a` being `m x k`, `b` `k x n`
/// and `c` `m x n`, all row-major and contiguous. Accumulates in double in
/// i-k-j order (the inner loop runs along rows of `b` and `c`).
void applyMatmul(const double *a, const double *b, double *c, int64_t batch,
                 int64_t m, int64_t k, int64_t n);

} // namespace mlir::tileir::interp

#endif // TILEDIALECT_INTERPRETER_KERNELS_H
