//===- Contraction.h - Fast evaluation of linalg contractions --*- C++ -*-===//
//
// Internal to the reference evaluator: contractions (matmul, batch_matmul,
// their transposed variants and generics of the same form) are far too large
// at full size for the per-point body evaluator, so they are recognized and
// run by a blocked loop nest instead.
//
// Numerics: products and their sum over the reduction dimension are computed
// in double, in increasing order of the reduction index, then added to the
// initial output value and rounded once per output element to the output
// element type (under Precision::F32 only). The
// per-point evaluator would instead round after every multiply and add; the
// difference is the rounding error of an f32 (or f16) accumulation, which a
// reference should not carry.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_LIB_REFERENCE_CONTRACTION_H
#define TILEDIALECT_LIB_REFERENCE_CONTRACTION_H

#include "TileDialect/Support/HostTensor.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Support/LLVM.h"

namespace mlir::tileir::reference {

/// How a structured op reads or writes one tensor operand: element
/// `base + sum_d index[d] * strides[d]` at iteration point `index`.
struct StridedAccess {
  int64_t base = 0;
  SmallVector<int64_t> strides;
};

/// A linalg op of the form
///   out(batch, m, n) += lhs(batch, m, k) * rhs(batch, k, n)
/// (any layout, through projected-permutation indexing maps), possibly with
/// extf / truncf applied to the inputs in its body.
struct ContractionPlan {
  SmallVector<unsigned> batchDims;
  /// The m and n loops; absent for a matrix-vector or vector-matrix product.
  std::optional<unsigned> mDim, nDim;
  unsigned kDim = 0;
  /// Element kinds each input element is rounded to, in order, before the
  /// multiplication (from arith.truncf in the body); empty under F64.
  SmallVector<ElementKind, 2> lhsRoundings, rhsRoundings;
};

/// Recognizes `op` as a contraction the fast path can run.
std::optional<ContractionPlan> matchContraction(linalg::LinalgOp op,
                                                Precision precision);

/// Runs `plan` over the loop ranges `ranges`: reads `lhs` and `rhs`, and
/// accumulates into `out` (which holds the initial values), rounding each
/// output element once to `outKind` under F32.
void runContraction(const ContractionPlan &plan, ArrayRef<int64_t> ranges,
                    const double *lhs, const StridedAccess &lhsAccess,
                    const double *rhs, const StridedAccess &rhsAccess,
                    double *out, const StridedAccess &outAccess,
                    ElementKind outKind, Precision precision);

} // namespace mlir::tileir::reference

#endif // TILEDIALECT_LIB_REFERENCE_CONTRACTION_H
