//===- Softmax.cpp - Evaluation of linalg.softmax -------------------------===//
//
// linalg.softmax is not a structured op, so it is evaluated directly, with
// the numerics of its upstream decomposition: along its dimension, the
// maximum (maxnumf), then exp(x - max), their sum, and the quotient, each
// produced value rounded to the element type under Precision::F32.
//
//===----------------------------------------------------------------------===//

#include "Evaluators.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::reference;

LogicalResult reference::evaluateSoftmaxOp(linalg::SoftmaxOp op,
                                           Environment &env) {
  if (!isa<RankedTensorType>(op.getInput().getType()) ||
      op->getNumResults() != 1)
    return op.emitOpError()
           << "does not operate on tensors; the reference evaluator supports "
              "linalg on tensors only";
  const HostTensor *input = env.lookupTensor(op.getInput());
  if (!input)
    return op.emitOpError() << "input has no value";
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  HostTensor result = makeZeroTensor(resultType);
  if (input->shape != result.shape)
    return op.emitOpError() << "has an input shape that differs from its "
                               "result shape";
  uint64_t dim = op.getDimension();
  if (dim >= input->shape.size())
    return op.emitOpError() << "has dimension " << dim << " out of range";

  int64_t outer = 1, inner = 1, length = input->shape[dim];
  for (uint64_t d = 0; d < dim; ++d)
    outer *= input->shape[d];
  for (uint64_t d = dim + 1; d < input->shape.size(); ++d)
    inner *= input->shape[d];

  ElementKind kind = result.elementKind;
  const double *in = input->data.data();
  double *out = result.data.data();
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      int64_t base = o * length * inner + i;
      double max = -std::numeric_limits<double>::infinity();
      for (int64_t j = 0; j < length; ++j) {
        double x = in[base + j * inner];
        if (x > max) // maxnumf: NaN elements are skipped
          max = x;
      }
      double sum = 0.0;
      for (int64_t j = 0; j < length; ++j) {
        double shifted = env.round(kind, in[base + j * inner] - max);
        double e = env.round(kind, std::exp(shifted));
        out[base + j * inner] = e;
        sum = env.round(kind, sum + e);
      }
      for (int64_t j = 0; j < length; ++j)
        out[base + j * inner] = env.round(kind, out[base + j * inner] / sum);
    }
  }
  env.bind(op->getResult(0), std::move(result));
  return success();
}
