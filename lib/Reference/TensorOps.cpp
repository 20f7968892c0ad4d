//===- TensorOps.cpp - Evaluation of constants and tensor ops -------------===//
//
// arith.constant, tensor.empty and the tensor ops that move data without
// computing: reshapes (row-major reinterpretation), slices, concatenation,
// casts, and the element-wise tensor.extract / insert / from_elements / splat.
// All shapes, offsets, sizes and strides must be static.
//
//===----------------------------------------------------------------------===//

#include "Evaluators.h"
#include "ScalarProgram.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::reference;

HostTensor reference::makeZeroTensor(RankedTensorType type) {
  std::optional<ElementKind> kind = elementKindOf(type.getElementType());
  assert(kind && type.hasStaticShape() && "unchecked tensor type");
  return HostTensor(
      "", std::vector<int64_t>(type.getShape().begin(), type.getShape().end()),
      *kind);
}

/// Copies the box `sizes` from `src` (starting at `srcOffset`, with
/// `srcStrides` per dimension) to `dst` (likewise).
static void copyBox(const double *src, int64_t srcOffset,
                    ArrayRef<int64_t> srcStrides, double *dst,
                    int64_t dstOffset, ArrayRef<int64_t> dstStrides,
                    ArrayRef<int64_t> sizes) {
  if (sizes.empty()) {
    dst[dstOffset] = src[srcOffset];
    return;
  }
  if (sizes.size() == 1) {
    for (int64_t i = 0; i < sizes[0]; ++i)
      dst[dstOffset + i * dstStrides[0]] = src[srcOffset + i * srcStrides[0]];
    return;
  }
  for (int64_t i = 0; i < sizes[0]; ++i)
    copyBox(src, srcOffset + i * srcStrides[0], srcStrides.drop_front(), dst,
            dstOffset + i * dstStrides[0], dstStrides.drop_front(),
            sizes.drop_front());
}

namespace {

/// A static slice of a tensor of shape `shape`: base offset and per-dimension
/// strides into its row-major data.
struct Slice {
  int64_t base = 0;
  SmallVector<int64_t> strides;
};

} // namespace

static FailureOr<Slice> getSlice(Operation *op, ArrayRef<int64_t> shape,
                                 ArrayRef<int64_t> offsets,
                                 ArrayRef<int64_t> sizes,
                                 ArrayRef<int64_t> strides) {
  auto dynamic = [](ArrayRef<int64_t> values) {
    return llvm::any_of(values, ShapedType::isDynamic);
  };
  if (dynamic(offsets) || dynamic(sizes) || dynamic(strides))
    return op->emitOpError()
           << "has dynamic offsets, sizes or strides; the reference evaluator "
              "supports static slices only";
  if (offsets.size() != shape.size())
    return op->emitOpError() << "has a slice rank that differs from its "
                                "tensor rank";
  SmallVector<int64_t> tensorStrides = getRowMajorStrides(shape);
  Slice slice;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (strides[d] < 1)
      return op->emitOpError()
             << "has stride " << strides[d] << " in dimension " << d
             << "; the reference evaluator supports "
                "positive strides only";
    if (sizes[d] > 0 && (offsets[d] < 0 ||
                         offsets[d] + (sizes[d] - 1) * strides[d] >= shape[d]))
      return op->emitOpError()
             << "has a slice out of bounds in dimension " << d;
    slice.base += offsets[d] * tensorStrides[d];
    slice.strides.push_back(strides[d] * tensorStrides[d]);
  }
  return slice;
}

static LogicalResult evaluateConstant(arith::ConstantOp op, Environment &env) {
  Attribute value = op.getValue();
  if (std::optional<double> scalar = getScalarAttributeValue(value)) {
    env.bindScalar(op.getResult(), *scalar);
    return success();
  }
  auto dense = dyn_cast<DenseElementsAttr>(value);
  auto type = dyn_cast<RankedTensorType>(op.getType());
  if (!dense || !type)
    return op.emitOpError() << "holds a constant the reference evaluator does "
                               "not support (only scalars and dense tensors)";
  HostTensor tensor = makeZeroTensor(type);
  Type elementType = type.getElementType();
  auto toDouble = [](APFloat value) {
    bool losesInfo;
    value.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
                  &losesInfo);
    return value.convertToDouble();
  };
  if (isa<FloatType>(elementType)) {
    if (dense.isSplat())
      std::fill(tensor.data.begin(), tensor.data.end(),
                toDouble(dense.getSplatValue<APFloat>()));
    else
      for (auto [i, element] : llvm::enumerate(dense.getValues<APFloat>()))
        tensor.data[i] = toDouble(element);
  } else {
    if (dense.isSplat())
      std::fill(tensor.data.begin(), tensor.data.end(),
                dense.getSplatValue<bool>() ? 1.0 : 0.0);
    else
      for (auto [i, element] : llvm::enumerate(dense.getValues<bool>()))
        tensor.data[i] = element ? 1.0 : 0.0;
  }
  env.bind(op.getResult(), std::move(tensor));
  return success();
}

static LogicalResult evaluateReshape(Operation *op, Value source,
                                     Environment &env) {
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  HostTensor tensor = env.takeTensor(source, op);
  if (tensor.numElements() != type.getNumElements())
    return op->emitOpError() << "changes the number of elements";
  tensor.shape.assign(type.getShape().begin(), type.getShape().end());
  env.bind(op->getResult(0), std::move(tensor));
  return success();
}

static LogicalResult evaluateExtractSlice(tensor::ExtractSliceOp op,
                                          Environment &env) {
  const HostTensor *source = env.lookupTensor(op.getSource());
  FailureOr<Slice> slice = getSlice(op, source->shape, op.getStaticOffsets(),
                                    op.getStaticSizes(), op.getStaticStrides());
  if (failed(slice))
    return failure();
  HostTensor result = makeZeroTensor(op.getType());
  ArrayRef<int64_t> sizes = op.getStaticSizes();
  copyBox(source->data.data(), slice->base, slice->strides, result.data.data(),
          0, getRowMajorStrides(sizes), sizes);
  env.bind(op.getResult(), std::move(result));
  return success();
}

static LogicalResult evaluateInsertSlice(tensor::InsertSliceOp op,
                                         Environment &env) {
  const HostTensor *source = env.lookupTensor(op.getSource());
  HostTensor dest = env.takeTensor(op.getDest(), op);
  FailureOr<Slice> slice = getSlice(op, dest.shape, op.getStaticOffsets(),
                                    op.getStaticSizes(), op.getStaticStrides());
  if (failed(slice))
    return failure();
  ArrayRef<int64_t> sizes = op.getStaticSizes();
  copyBox(source->data.data(), 0, getRowMajorStrides(sizes), dest.data.data(),
          slice->base, slice->strides, sizes);
  env.bind(op.getResult(), std::move(dest));
  return success();
}

static LogicalResult evaluateConcat(tensor::ConcatOp op, Environment &env) {
  HostTensor result = makeZeroTensor(op.getResultType());
  int64_t dim = static_cast<int64_t>(op.getDim());
  SmallVector<int64_t> resultStrides = getRowMajorStrides(result.shape);
  int64_t offset = 0;
  for (Value input : op.getInputs()) {
    const HostTensor *tensor = env.lookupTensor(input);
    copyBox(tensor->data.data(), 0, getRowMajorStrides(tensor->shape),
            result.data.data(), offset * resultStrides[dim], resultStrides,
            tensor->shape);
    offset += tensor->shape[dim];
  }
  env.bind(op.getResult(), std::move(result));
  return success();
}

static LogicalResult evaluateExtract(tensor::ExtractOp op, Environment &env) {
  const HostTensor *tensor = env.lookupTensor(op.getTensor());
  SmallVector<int64_t> strides = getRowMajorStrides(tensor->shape);
  int64_t offset = 0;
  for (auto [d, index] : llvm::enumerate(op.getIndices())) {
    std::optional<double> value = env.lookupScalar(index);
    if (!value)
      return op.emitOpError() << "index #" << d << " has no known value";
    auto position = static_cast<int64_t>(*value);
    if (position < 0 || position >= tensor->shape[d])
      return op.emitOpError() << "reads out of bounds in dimension " << d;
    offset += position * strides[d];
  }
  env.bindScalar(op.getResult(), tensor->data[offset]);
  return success();
}

static LogicalResult evaluateInsert(tensor::InsertOp op, Environment &env) {
  std::optional<double> scalar = env.lookupScalar(op.getScalar());
  if (!scalar)
    return op.emitOpError() << "inserts a value with no known scalar";
  HostTensor dest = env.takeTensor(op.getDest(), op);
  SmallVector<int64_t> strides = getRowMajorStrides(dest.shape);
  int64_t offset = 0;
  for (auto [d, index] : llvm::enumerate(op.getIndices())) {
    std::optional<double> value = env.lookupScalar(index);
    if (!value)
      return op.emitOpError() << "index #" << d << " has no known value";
    auto position = static_cast<int64_t>(*value);
    if (position < 0 || position >= dest.shape[d])
      return op.emitOpError() << "writes out of bounds in dimension " << d;
    offset += position * strides[d];
  }
  dest.data[offset] = env.round(dest.elementKind, *scalar);
  env.bind(op.getResult(), std::move(dest));
  return success();
}

static LogicalResult evaluateFromElements(tensor::FromElementsOp op,
                                          Environment &env) {
  HostTensor result = makeZeroTensor(op.getType());
  for (auto [i, element] : llvm::enumerate(op.getElements())) {
    std::optional<double> value = env.lookupScalar(element);
    if (!value)
      return op.emitOpError() << "element #" << i << " has no known value";
    result.data[i] = env.round(result.elementKind, *value);
  }
  env.bind(op.getResult(), std::move(result));
  return success();
}

static LogicalResult evaluateSplat(tensor::SplatOp op, Environment &env) {
  std::optional<double> value = env.lookupScalar(op.getInput());
  if (!value)
    return op.emitOpError() << "splats a value with no known scalar";
  HostTensor result = makeZeroTensor(op.getType());
  std::fill(result.data.begin(), result.data.end(),
            env.round(result.elementKind, *value));
  env.bind(op.getResult(), std::move(result));
  return success();
}

FailureOr<bool> reference::evaluateTensorOp(Operation *op, Environment &env) {
  LogicalResult result = success();
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    result = evaluateConstant(constant, env);
  } else if (auto empty = dyn_cast<tensor::EmptyOp>(op)) {
    env.bind(empty.getResult(), makeZeroTensor(empty.getType()));
  } else if (auto cast = dyn_cast<tensor::CastOp>(op)) {
    // Both types are static (checked by the caller), hence equal shapes.
    env.bindAlias(cast.getResult(), cast.getSource());
  } else if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op)) {
    result = evaluateReshape(op, expand.getSrc(), env);
  } else if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op)) {
    result = evaluateReshape(op, collapse.getSrc(), env);
  } else if (auto extractSlice = dyn_cast<tensor::ExtractSliceOp>(op)) {
    result = evaluateExtractSlice(extractSlice, env);
  } else if (auto insertSlice = dyn_cast<tensor::InsertSliceOp>(op)) {
    result = evaluateInsertSlice(insertSlice, env);
  } else if (auto concat = dyn_cast<tensor::ConcatOp>(op)) {
    result = evaluateConcat(concat, env);
  } else if (auto extract = dyn_cast<tensor::ExtractOp>(op)) {
    result = evaluateExtract(extract, env);
  } else if (auto insert = dyn_cast<tensor::InsertOp>(op)) {
    result = evaluateInsert(insert, env);
  } else if (auto fromElements = dyn_cast<tensor::FromElementsOp>(op)) {
    result = evaluateFromElements(fromElements, env);
  } else if (auto splat = dyn_cast<tensor::SplatOp>(op)) {
    result = evaluateSplat(splat, env);
  } else {
    return false;
  }
  if (failed(result))
    return failure();
  return true;
}
