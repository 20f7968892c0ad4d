//===- Kernels.cpp - Compute kernels of the tile interpreter --------------===//

#include "TileDialect/Interpreter/Kernels.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

using namespace mlir::tileir;
using namespace mlir::tileir::interp;

//===----------------------------------------------------------------------===//
// Strided copies
//===----------------------------------------------------------------------===//

llvm::SmallVector<int64_t, 4>
interp::rowMajorStrides(llvm::ArrayRef<int64_t> shape) {
  llvm::SmallVector<int64_t, 4> strides(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

StridedCopy::StridedCopy(llvm::ArrayRef<int64_t> shape,
                         llvm::ArrayRef<int64_t> srcStrides,
                         llvm::ArrayRef<int64_t> dstStrides) {
  if (llvm::is_contained(shape, 0)) {
    this->shape = {0};
    this->srcStrides = {0};
    this->dstStrides = {0};
    return;
  }
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1)
      continue;
    // Merge into the previous kept dimension when that one steps exactly
    // over a whole row of this one on both sides.
    if (!this->shape.empty() &&
        this->srcStrides.back() == srcStrides[d] * shape[d] &&
        this->dstStrides.back() == dstStrides[d] * shape[d]) {
      this->shape.back() *= shape[d];
      this->srcStrides.back() = srcStrides[d];
      this->dstStrides.back() = dstStrides[d];
      continue;
    }
    this->shape.push_back(shape[d]);
    this->srcStrides.push_back(srcStrides[d]);
    this->dstStrides.push_back(dstStrides[d]);
  }
}

/// Copies one row of `n` elements.
static inline void copyRow(const double *src, int64_t srcStride, double *dst,
                           int64_t dstStride, int64_t n) {
  if (srcStride == 1 && dstStride == 1) {
    std::memcpy(dst, src, n * sizeof(double));
  } else if (srcStride == 0) {
    double v = *src;
    for (int64_t i = 0; i < n; ++i)
      dst[i * dstStride] = v;
  } else if (dstStride == 1) {
    for (int64_t i = 0; i < n; ++i)
      dst[i] = src[i * srcStride];
  } else {
    for (int64_t i = 0; i < n; ++i)
      dst[i * dstStride] = src[i * srcStride];
  }
}

void StridedCopy::run(const double *src, double *dst) const {
  size_t rank = shape.size();
  if (rank == 0) {
    *dst = *src;
    return;
  }
  int64_t n = shape.back(), si = srcStrides.back(), di = dstStrides.back();
  if (n == 0)
    return;
  if (rank == 1) {
    copyRow(src, si, dst, di, n);
    return;
  }
  // Odometer over the outer dimensions, the last one copied as a row.
  llvm::SmallVector<int64_t, 4> index(rank - 1, 0);
  while (true) {
    copyRow(src, si, dst, di, n);
    int64_t d = static_cast<int64_t>(rank) - 2;
    for (; d >= 0; --d) {
      src += srcStrides[d];
      dst += dstStrides[d];
      if (++index[d] < shape[d])
        break;
      src -= srcStrides[d] * shape[d];
      dst -= dstStrides[d] * shape[d];
      index[d] = 0;
    }
    if (d < 0)
      return;
  }
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

/// Runs `f` over `n` elements; instantiated per function so that the switch
/// stays outside the loop.
template <typename F>
static inline void mapUnary(const double *in, double *out, int64_t n, F f) {
  for (int64_t i = 0; i < n; ++i)
    out[i] = f(in[i]);
}

template <typename F>
static inline void mapBinary(const double *lhs, const double *rhs, double *out,
                             int64_t n, F f) {
  for (int64_t i = 0; i < n; ++i)
    out[i] = f(lhs[i], rhs[i]);
}

/// IEEE maxNum, as tile.max and tile.rmax define it: a NaN operand yields the
/// other one.
static inline double maxNum(double a, double b) { return std::fmax(a, b); }

/// IEEE minNum, as tile.min and tile.rmin define it.
static inline double minNum(double a, double b) { return std::fmin(a, b); }

void interp::applyUnary(UnaryFn fn, const double *in, double *out, int64_t n) {
  switch (fn) {
  case UnaryFn::Neg:
    return mapUnary(in, out, n, [](double x) { return -x; });
  case UnaryFn::Abs:
    return mapUnary(in, out, n, [](double x) { return std::fabs(x); });
  case UnaryFn::Sqr:
    return mapUnary(in, out, n, [](double x) { return x * x; });
  case UnaryFn::Exp:
    return mapUnary(in, out, n, [](double x) { return std::exp(x); });
  case UnaryFn::Log:
    return mapUnary(in, out, n, [](double x) { return std::log(x); });
  case UnaryFn::Sqrt:
    return mapUnary(in, out, n, [](double x) { return std::sqrt(x); });
  case UnaryFn::Rsqrt:
    return mapUnary(in, out, n, [](double x) { return 1.0 / std::sqrt(x); });
  case UnaryFn::Sigmoid:
    return mapUnary(in, out, n,
                    [](double x) { return 1.0 / (1.0 + std::exp(-x)); });
  case UnaryFn::Tanh:
    return mapUnary(in, out, n, [](double x) { return std::tanh(x); });
  case UnaryFn::Sin:
    return mapUnary(in, out, n, [](double x) { return std::sin(x); });
  case UnaryFn::Cos:
    return mapUnary(in, out, n, [](double x) { return std::cos(x); });
  case UnaryFn::Erf:
    return mapUnary(in, out, n, [](double x) { return std::erf(x); });
  }
}

void interp::applyBinary(BinaryFn fn, const double *lhs, const double *rhs,
                         double *out, int64_t n) {
  switch (fn) {
  case BinaryFn::Add:
    return mapBinary(lhs, rhs, out, n,
                     [](double a, double b) { return a + b; });
  case BinaryFn::Sub:
    return mapBinary(lhs, rhs, out, n,
                     [](double a, double b) { return a - b; });
  case BinaryFn::Mul:
    return mapBinary(lhs, rhs, out, n,
                     [](double a, double b) { return a * b; });
  case BinaryFn::Div:
    return mapBinary(lhs, rhs, out, n,
                     [](double a, double b) { return a / b; });
  case BinaryFn::Max:
    return mapBinary(lhs, rhs, out, n, maxNum);
  case BinaryFn::Min:
    return mapBinary(lhs, rhs, out, n, minNum);
  }
}

void interp::applyCmp(CmpFn fn, const double *lhs, const double *rhs,
                      double *out, int64_t n) {
  // C++ comparisons of doubles are ordered except `!=`, which is exactly the
  // semantics of tile.cmp.
  auto asDouble = [](bool b) { return b ? 1.0 : 0.0; };
  switch (fn) {
  case CmpFn::Eq:
    return mapBinary(lhs, rhs, out, n,
                     [&](double a, double b) { return asDouble(a == b); });
  case CmpFn::Ne:
    return mapBinary(lhs, rhs, out, n,
                     [&](double a, double b) { return asDouble(a != b); });
  case CmpFn::Lt:
    return mapBinary(lhs, rhs, out, n,
                     [&](double a, double b) { return asDouble(a < b); });
  case CmpFn::Le:
    return mapBinary(lhs, rhs, out, n,
                     [&](double a, double b) { return asDouble(a <= b); });
  case CmpFn::Gt:
    return mapBinary(lhs, rhs, out, n,
                     [&](double a, double b) { return asDouble(a > b); });
  case CmpFn::Ge:
    return mapBinary(lhs, rhs, out, n,
                     [&](double a, double b) { return asDouble(a >= b); });
  }
}

void interp::applySelect(const double *cond, const double *onTrue,
                         const double *onFalse, double *out, int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    out[i] = cond[i] != 0.0 ? onTrue[i] : onFalse[i];
}

//===----------------------------------------------------------------------===//
// Reductions and matmul
//===----------------------------------------------------------------------===//

template <typename F>
static void reduceWith(const double *in, double *out, int64_t outer,
                       int64_t extent, int64_t inner, F combine) {
  for (int64_t o = 0; o < outer; ++o) {
    const double *slab = in + o * extent * inner;
    double *row = out + o * inner;
    std::copy(slab, slab + inner, row);
    for (int64_t e = 1; e < extent; ++e) {
      const double *src = slab + e * inner;
      for (int64_t i = 0; i < inner; ++i)
        row[i] = combine(row[i], src[i]);
    }
  }
}

void interp::applyReduce(ReduceFn fn, const double *in, double *out,
                         int64_t outer, int64_t extent, int64_t inner) {
  switch (fn) {
  case ReduceFn::Sum:
    return reduceWith(in, out, outer, extent, inner,
                      [](double a, double b) { return a + b; });
  case ReduceFn::Max:
    return reduceWith(in, out, outer, extent, inner, maxNum);
  case ReduceFn::Min:
    return reduceWith(in, out, outer, extent, inner, minNum);
  }
}

void interp::applyMatmul(const double *a, const double *b, double *c,
                         int64_t batch, int64_t m, int64_t k, int64_t n) {
  for (int64_t bi = 0; bi < batch; ++bi) {
    const double *ab = a + bi * m * k;
    const double *bb = b + bi * k * n;
    double *cb = c + bi * m * n;
    for (int64_t i = 0; i < m; ++i) {
      double *__restrict crow = cb + i * n;
      std::fill(crow, crow + n, 0.0);
      const double *arow = ab + i * k;
      for (int64_t kk = 0; kk < k; ++kk) {
        double aik = arow[kk];
        const double *__restrict brow = bb + kk * n;
        for (int64_t j = 0; j < n; ++j)
          crow[j] += aik * brow[j];
      }
    }
  }
}

