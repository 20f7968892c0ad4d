//===- Contraction.cpp - Fast evaluation of linalg contractions -----------===//

#include "Contraction.h"
#include "Environment.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <algorithm>
#include <vector>

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::reference;

//===----------------------------------------------------------------------===//
// Matching
//===----------------------------------------------------------------------===//

/// Follows arith.extf / arith.truncf from `value` back to a block argument of
/// `body`, recording the truncations in application order. Returns the
/// argument number, or nullopt if the chain holds anything else.
static std::optional<unsigned>
traceInputChain(Block *body, Value value, SmallVectorImpl<ElementKind> &rounds,
                llvm::SmallPtrSetImpl<Operation *> &visited) {
  SmallVector<ElementKind, 2> reversed;
  while (Operation *def = value.getDefiningOp()) {
    if (def->getBlock() != body || !isa<arith::ExtFOp, arith::TruncFOp>(def))
      return std::nullopt;
    if (isa<arith::TruncFOp>(def)) {
      std::optional<ElementKind> kind =
          elementKindOf(def->getResult(0).getType());
      if (!kind)
        return std::nullopt;
      reversed.push_back(*kind);
    }
    visited.insert(def);
    value = def->getOperand(0);
  }
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg || arg.getOwner() != body)
    return std::nullopt;
  rounds.append(reversed.rbegin(), reversed.rend());
  return arg.getArgNumber();
}

std::optional<ContractionPlan>
reference::matchContraction(linalg::LinalgOp op, Precision precision) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      !op.hasOnlyProjectedPermutations() ||
      !linalg::isaContractionOpInterface(op))
    return std::nullopt;
  for (OpOperand *input : op.getDpsInputOperands())
    if (!isa<RankedTensorType>(input->get().getType()))
      return std::nullopt;

  // The body must be exactly yield(addf(acc, mulf(chain(in0), chain(in1))))
  // with the operands of addf and mulf in either order.
  Block *body = op.getBlock();
  if (!body || body->getNumArguments() != 3)
    return std::nullopt;
  Operation *yield = body->getTerminator();
  if (yield->getNumOperands() != 1)
    return std::nullopt;
  auto add = yield->getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add || add->getBlock() != body)
    return std::nullopt;
  Value acc = body->getArgument(2);
  Value product;
  if (add.getLhs() == acc)
    product = add.getRhs();
  else if (add.getRhs() == acc)
    product = add.getLhs();
  else
    return std::nullopt;
  auto mul = product.getDefiningOp<arith::MulFOp>();
  if (!mul || mul->getBlock() != body)
    return std::nullopt;

  llvm::SmallPtrSet<Operation *, 8> visited = {yield, add, mul};
  SmallVector<ElementKind, 2> lhsRounds, rhsRounds;
  std::optional<unsigned> lhsArg =
      traceInputChain(body, mul.getLhs(), lhsRounds, visited);
  std::optional<unsigned> rhsArg =
      traceInputChain(body, mul.getRhs(), rhsRounds, visited);
  if (!lhsArg || !rhsArg || *lhsArg == *rhsArg || *lhsArg > 1 || *rhsArg > 1)
    return std::nullopt;
  if (*lhsArg == 1)
    std::swap(lhsRounds, rhsRounds);
  if (body->getOperations().size() != visited.size())
    return std::nullopt;

  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.size() > 1 || dims->n.size() > 1 ||
      dims->k.size() != 1)
    return std::nullopt;
  if (dims->batch.size() + dims->m.size() + dims->n.size() + 1 !=
      op.getNumLoops())
    return std::nullopt;

  ContractionPlan plan;
  plan.batchDims.assign(dims->batch.begin(), dims->batch.end());
  if (!dims->m.empty())
    plan.mDim = dims->m.front();
  if (!dims->n.empty())
    plan.nDim = dims->n.front();
  plan.kDim = dims->k.front();
  if (roundsConversions(precision)) {
    plan.lhsRoundings = std::move(lhsRounds);
    plan.rhsRoundings = std::move(rhsRounds);
  }
  return plan;
}

//===----------------------------------------------------------------------===//
// Kernel
//===----------------------------------------------------------------------===//

namespace {

// Block sizes: a packed rhs panel of kBlock x nBlock doubles (512 KiB) stays
// in L2, the accumulators of one lhs row block in L1/L2.
constexpr int64_t kBlock = 128;
constexpr int64_t nBlock = 512;
constexpr int64_t mBlock = 64;
// Register tile of the micro-kernel.
constexpr int64_t mTile = 4;
constexpr int64_t nTile = 8;

/// A 2-d strided view of one matrix operand within one batch.
struct Matrix {
  const double *data;
  int64_t rowStride, colStride;
  ArrayRef<ElementKind> roundings;
};

/// Packs `rows` x `cols` elements of `matrix` from (row0, col0) into `packed`
/// row-major, applying its roundings.
void pack(const Matrix &matrix, int64_t row0, int64_t col0, int64_t rows,
          int64_t cols, double *packed) {
  for (int64_t r = 0; r < rows; ++r) {
    const double *row =
        matrix.data + (row0 + r) * matrix.rowStride + col0 * matrix.colStride;
    double *dst = packed + r * cols;
    for (int64_t c = 0; c < cols; ++c)
      dst[c] = row[c * matrix.colStride];
    for (ElementKind kind : matrix.roundings)
      for (int64_t c = 0; c < cols; ++c)
        dst[c] = roundToElement(kind, dst[c]);
  }
}

/// acc[mb x nb] += a[mb x kb] * b[kb x nb], row-major, with rows of b
/// `ldb` apart. Every accumulator sums its products in increasing k,
/// whichever path computes it, so results depend neither on the blocking nor
/// on the instruction set the loop is compiled for (AVX2 where the machine
/// has it: wider vectors, no fused multiply-add).
__attribute__((target_clones("avx2", "default"))) void
multiplyPacked(const double *__restrict a, const double *__restrict b,
               double *__restrict acc, int64_t mb, int64_t kb, int64_t nb,
               int64_t ldb) {
  int64_t mMain = mb - mb % mTile, nMain = nb - nb % nTile;
  for (int64_t m = 0; m < mMain; m += mTile) {
    for (int64_t n = 0; n < nMain; n += nTile) {
      double c[mTile][nTile];
      for (int64_t i = 0; i < mTile; ++i)
        for (int64_t j = 0; j < nTile; ++j)
          c[i][j] = acc[(m + i) * nb + n + j];
      for (int64_t k = 0; k < kb; ++k) {
        const double *bRow = b + k * ldb + n;
        for (int64_t i = 0; i < mTile; ++i) {
          double aValue = a[(m + i) * kb + k];
          for (int64_t j = 0; j < nTile; ++j)
            c[i][j] += aValue * bRow[j];
        }
      }
      for (int64_t i = 0; i < mTile; ++i)
        for (int64_t j = 0; j < nTile; ++j)
          acc[(m + i) * nb + n + j] = c[i][j];
    }
    // Columns left over by the register tile.
    for (int64_t i = m; i < m + mTile; ++i)
      for (int64_t k = 0; k < kb; ++k)
        for (int64_t j = nMain; j < nb; ++j)
          acc[i * nb + j] += a[i * kb + k] * b[k * ldb + j];
  }
  // Rows left over by the register tile.
  for (int64_t i = mMain; i < mb; ++i)
    for (int64_t k = 0; k < kb; ++k) {
      double aValue = a[i * kb + k];
      for (int64_t j = 0; j < nb; ++j)
        acc[i * nb + j] += aValue * b[k * ldb + j];
    }
}

} // namespace

void reference::runContraction(const ContractionPlan &plan,
                               ArrayRef<int64_t> ranges, const double *lhs,
                               const StridedAccess &lhsAccess,
                               const double *rhs,
                               const StridedAccess &rhsAccess, double *out,
                               const StridedAccess &outAccess,
                               ElementKind outKind, Precision precision) {
  auto extent = [&](std::optional<unsigned> dim) {
    return dim ? ranges[*dim] : int64_t(1);
  };
  auto stride = [](const StridedAccess &access, std::optional<unsigned> dim) {
    return dim ? access.strides[*dim] : int64_t(0);
  };
  const int64_t m = extent(plan.mDim), n = extent(plan.nDim),
                k = ranges[plan.kDim];
  int64_t numBatches = 1;
  for (unsigned dim : plan.batchDims)
    numBatches *= ranges[dim];
  if (m == 0 || n == 0 || numBatches == 0)
    return;

  std::vector<double> lhsPacked(mBlock * kBlock), rhsPacked(kBlock * nBlock);
  std::vector<double> acc(m * std::min(n, nBlock));
  SmallVector<int64_t> batchIndex(plan.batchDims.size(), 0);
  for (int64_t batch = 0; batch < numBatches; ++batch) {
    int64_t lhsOffset = lhsAccess.base, rhsOffset = rhsAccess.base,
            outOffset = outAccess.base;
    for (auto [i, dim] : llvm::enumerate(plan.batchDims)) {
      lhsOffset += batchIndex[i] * lhsAccess.strides[dim];
      rhsOffset += batchIndex[i] * rhsAccess.strides[dim];
      outOffset += batchIndex[i] * outAccess.strides[dim];
    }
    Matrix a{lhs + lhsOffset, stride(lhsAccess, plan.mDim),
             lhsAccess.strides[plan.kDim], plan.lhsRoundings};
    Matrix b{rhs + rhsOffset, rhsAccess.strides[plan.kDim],
             stride(rhsAccess, plan.nDim), plan.rhsRoundings};
    int64_t outRowStride = stride(outAccess, plan.mDim),
            outColStride = stride(outAccess, plan.nDim);

    for (int64_t n0 = 0; n0 < n; n0 += nBlock) {
      int64_t nb = std::min(nBlock, n - n0);
      std::fill(acc.begin(), acc.begin() + m * nb, 0.0);
      for (int64_t k0 = 0; k0 < k; k0 += kBlock) {
        int64_t kb = std::min(kBlock, k - k0);
        // The rhs panel is read in place when its rows are contiguous and
        // need no rounding; otherwise packed.
        const double *panel = b.data + k0 * b.rowStride + n0;
        int64_t ldb = b.rowStride;
        if (b.colStride != 1 || !b.roundings.empty()) {
          pack(b, k0, n0, kb, nb, rhsPacked.data());
          panel = rhsPacked.data();
          ldb = nb;
        }
        for (int64_t m0 = 0; m0 < m; m0 += mBlock) {
          int64_t mb = std::min(mBlock, m - m0);
          pack(a, m0, k0, mb, kb, lhsPacked.data());
          multiplyPacked(lhsPacked.data(), panel, acc.data() + m0 * nb, mb, kb,
                         nb, ldb);
        }
      }
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < nb; ++j) {
          double &element =
              out[outOffset + i * outRowStride + (n0 + j) * outColStride];
          element = roundFor(precision, outKind, element + acc[i * nb + j]);
        }
    }

    for (int64_t i = static_cast<int64_t>(batchIndex.size()) - 1; i >= 0; --i) {
      if (++batchIndex[i] < ranges[plan.batchDims[i]])
        break;
      batchIndex[i] = 0;
    }
  }
}
