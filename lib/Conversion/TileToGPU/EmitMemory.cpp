//===- EmitMemory.cpp - Indices, element kinds and memory accesses --------===//

#include "KernelEmitterImpl.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::interp;
using namespace mlir::tileir::gpu_lowering;

//===----------------------------------------------------------------------===//
// Index arithmetic
//===----------------------------------------------------------------------===//

Value KernelEmitter::add(Value x, Value y) {
  std::optional<int64_t> constX = getConstantIntValue(x),
                         constY = getConstantIntValue(y);
  if (constX && constY)
    return index(*constX + *constY);
  if (constX == 0)
    return y;
  if (constY == 0)
    return x;
  return arith::AddIOp::create(b, loc, x, y);
}

Value KernelEmitter::mul(Value x, int64_t c) {
  if (std::optional<int64_t> constX = getConstantIntValue(x))
    return index(*constX * c);
  if (c == 0)
    return index(0);
  if (c == 1)
    return x;
  return arith::MulIOp::create(b, loc, x, index(c));
}

/// `x` as `y + k` with a constant k (k = 0 when x is no such sum).
static std::pair<Value, int64_t> splitConstant(Value x) {
  if (auto sum = x.getDefiningOp<arith::AddIOp>())
    if (std::optional<int64_t> k = getConstantIntValue(sum.getRhs()))
      return {sum.getLhs(), *k};
  return {x, 0};
}

// Indices are never negative, so (y + k) / c = y / c + k / c and
// (y + k) mod c = y mod c when c divides k: the lanes of a thread
// (element g + i * threads) then share the index arithmetic of g.
Value KernelEmitter::div(Value x, int64_t c) {
  if (std::optional<int64_t> constX = getConstantIntValue(x))
    return index(*constX / c);
  if (c == 1)
    return x;
  if (auto [y, k] = splitConstant(x); k && k % c == 0)
    return add(div(y, c), index(k / c));
  return arith::DivUIOp::create(b, loc, x, index(c));
}

Value KernelEmitter::rem(Value x, int64_t c) {
  if (std::optional<int64_t> constX = getConstantIntValue(x))
    return index(*constX % c);
  if (c == 1)
    return index(0);
  if (auto [y, k] = splitConstant(x); k && k % c == 0)
    return rem(y, c);
  return arith::RemUIOp::create(b, loc, x, index(c));
}

//===----------------------------------------------------------------------===//
// Element kinds
//===----------------------------------------------------------------------===//

int64_t gpu_lowering::vectorElementBytes(MLIRContext *ctx, ElementKind kind) {
  if (kind != ElementKind::F16 && kind != ElementKind::BF16 &&
      kind != ElementKind::F32)
    return 0;
  return getStorageType(ctx, kind).getIntOrFloatBitWidth() / 8;
}

Value KernelEmitter::toF32(Value stored, ElementKind kind) {
  switch (kind) {
  case ElementKind::F16:
  case ElementKind::BF16:
    return arith::ExtFOp::create(b, loc, f32, stored);
  case ElementKind::I1:
    return arith::UIToFPOp::create(b, loc, f32, stored);
  default:
    return stored;
  }
}

Value KernelEmitter::fromF32(Value v, ElementKind kind) {
  switch (kind) {
  case ElementKind::F16:
  case ElementKind::BF16:
    return arith::TruncFOp::create(b, loc, getStorageType(b.getContext(), kind),
                                   v);
  case ElementKind::I1: {
    Value nonzero = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, v,
                                          constant(0.0));
    return arith::ExtUIOp::create(b, loc, b.getI8Type(), nonzero);
  }
  default:
    return v;
  }
}

Value KernelEmitter::round(Value v, ElementKind kind) {
  switch (kind) {
  case ElementKind::F16:
  case ElementKind::BF16:
  case ElementKind::I1:
    return toF32(fromF32(v, kind), kind);
  default:
    return v;
  }
}

//===----------------------------------------------------------------------===//
// Tensors
//===----------------------------------------------------------------------===//

Value KernelEmitter::tensorOffset(const Access &access,
                                  ArrayRef<int64_t> tileShape, Value flat) {
  SmallVector<int64_t, 4> tileStrides = rowMajorStrides(tileShape);
  Value offset = index(0);
  for (auto [d, dim] : llvm::enumerate(access.dims)) {
    Value start;
    switch (dim.kind) {
    case DimIndex::Kind::Full:
      start = index(0);
      break;
    case DimIndex::Kind::Tile:
      start = cx.vars[dim.var];
      break;
    case DimIndex::Kind::Elem:
      start = div(cx.vars[dim.var], dim.step);
      break;
    case DimIndex::Kind::Const:
      start = index(dim.base);
      break;
    }
    Value coord = tileShape[d] == 1
                      ? index(0)
                      : rem(div(flat, tileStrides[d]), tileShape[d]);
    offset = add(offset, mul(add(start, coord), access.tensorStrides[d]));
  }
  return offset;
}

Value KernelEmitter::gatherSource(const StridedCopy &copy, Value flat) {
  Value source = index(0);
  for (auto [extent, src, dst] : llvm::zip_equal(
           copy.getShape(), copy.getSrcStrides(), copy.getDstStrides()))
    source = add(source, mul(rem(div(flat, dst), extent), src));
  return source;
}

bool KernelEmitter::accessRuns(const Access &access, int64_t count) const {
  if (!vectorElementBytes(b.getContext(), tensorKinds[access.tensor]) ||
      access.tensorStrides.back() != 1)
    return false;
  // The run starts at a multiple of `count` in the tensor: every row of the
  // tensor does, and so does the region along the innermost dimension.
  for (int64_t stride : ArrayRef(access.tensorStrides).drop_back())
    if (stride % count != 0)
      return false;
  const DimIndex &inner = access.dims.back();
  switch (inner.kind) {
  case DimIndex::Kind::Full:
    return true;
  case DimIndex::Kind::Const:
    return inner.base % count == 0;
  case DimIndex::Kind::Elem:
    return false;
  case DimIndex::Kind::Tile:
    return llvm::all_of(plan.stmts, [&](const StmtNode &stmt) {
      return stmt.kind != StmtNode::Kind::Loop || stmt.var != inner.var ||
             (stmt.start % count == 0 && stmt.step % count == 0);
    });
  }
  return false;
}

Value KernelEmitter::loadVector(unsigned tensor, Value offset, int64_t width) {
  ElementKind stored = tensorKinds[tensor];
  auto type = VectorType::get({width}, getStorageType(b.getContext(), stored));
  int64_t bytes = vectorElementBytes(b.getContext(), stored);
  return vector::LoadOp::create(b, loc, type, cx.tensorArgs[tensor],
                                ValueRange{offset}, /*nontemporal=*/false,
                                /*alignment=*/llvm::MaybeAlign(width * bytes));
}

void KernelEmitter::storeVector(unsigned tensor, Value offset,
                                ValueRange values) {
  ElementKind stored = tensorKinds[tensor];
  int64_t width = values.size();
  auto type = VectorType::get({width}, getStorageType(b.getContext(), stored));
  SmallVector<Value> elements;
  for (Value v : values)
    elements.push_back(fromF32(v, stored));
  Value vec = vector::FromElementsOp::create(b, loc, type, elements);
  int64_t bytes = vectorElementBytes(b.getContext(), stored);
  vector::StoreOp::create(b, loc, vec, cx.tensorArgs[tensor],
                          ValueRange{offset},
                          /*nontemporal=*/false,
                          /*alignment=*/llvm::MaybeAlign(width * bytes));
}

Value KernelEmitter::globalAddress(unsigned tensor, Value base, Value offset) {
  int64_t bytes = vectorElementBytes(b.getContext(), tensorKinds[tensor]);
  return arith::IndexCastUIOp::create(b, loc, b.getI64Type(),
                                      add(base, mul(offset, bytes)));
}

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

Value KernelEmitter::bufferAddress(const Buffer &buffer, Value flat,
                                   Value &memref) {
  memref = !buffer.shared ? cx.scratch
           : buffer.half  ? cx.sharedHalf
                          : cx.shared;
  Value base = buffer.shared ? index(buffer.offset)
                             : add(cx.scratchBase, index(buffer.offset));
  return add(base, flat);
}

Value KernelEmitter::loadBuffer(const Buffer &buffer, Value flat) {
  Value memref;
  Value address = bufferAddress(buffer, flat, memref);
  Value v = memref::LoadOp::create(b, loc, memref, address);
  return buffer.half ? toF32(v, ElementKind::F16) : v;
}

void KernelEmitter::storeBuffer(const Buffer &buffer, Value flat, Value v) {
  if (buffer.half)
    v = fromF32(v, ElementKind::F16);
  Value memref;
  Value address = bufferAddress(buffer, flat, memref);
  memref::StoreOp::create(b, loc, v, memref, address);
}
