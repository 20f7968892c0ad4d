//===- Environment.cpp - Values of a function under evaluation ------------===//

#include "Environment.h"

#include "mlir/IR/Block.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::reference;

bool reference::isRepresentable(ElementKind kind, double value) {
  if (!std::isfinite(value))
    return true;
  switch (kind) {
  case ElementKind::F64:
    return true;
  case ElementKind::I1:
    return value == 0.0 || value == 1.0;
  case ElementKind::F32:
  case ElementKind::BF16:
  case ElementKind::F16:
    break;
  }
  auto single = static_cast<float>(value);
  if (static_cast<double>(single) != value)
    return false;
  uint32_t bits;
  std::memcpy(&bits, &single, sizeof(bits));
  if (kind == ElementKind::F32)
    return true;
  if (kind == ElementKind::BF16)
    return (bits & 0xFFFF) == 0;
  // f16: exponent at most 15; normal numbers (exponent >= -14) keep 10 of the
  // 23 mantissa bits; below that, multiples of 2^-24.
  int exponent = static_cast<int>((bits >> 23) & 0xFF) - 127;
  if (exponent > 15)
    return false;
  if (exponent >= -14)
    return (bits & 0x1FFF) == 0;
  double scaled = std::fabs(value) * 0x1p24;
  return scaled == std::floor(scaled);
}

SmallVector<int64_t> reference::getRowMajorStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

void Environment::countUses(Block &body) {
  for (Operation &op : body) {
    llvm::SetVector<Value> used;
    op.walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        if (operand.getParentBlock() == &body)
          used.insert(operand);
    });
    for (Value value : used)
      ++remainingUses[value];
    usedValues[&op] = SmallVector<Value, 4>(used.begin(), used.end());
  }
}

void Environment::bind(Value value, HostTensor &&tensor) {
  Entry &entry = entries[value];
  entry.tensor = std::make_shared<HostTensor>(std::move(tensor));
  entry.borrowed = false;
}

void Environment::bindBorrowed(Value value, const HostTensor &tensor) {
  Entry &entry = entries[value];
  entry.tensor = TensorRef(&tensor, [](const HostTensor *) {});
  entry.borrowed = true;
}

void Environment::bindAlias(Value value, Value source) {
  auto it = entries.find(source);
  assert(it != entries.end() && "aliasing an unbound value");
  Entry copy = it->second;
  entries[value] = std::move(copy);
}

void Environment::bindScalar(Value value, double scalar) {
  Entry &entry = entries[value];
  entry.tensor.reset();
  entry.scalar = scalar;
  entry.borrowed = false;
}

const HostTensor *Environment::lookupTensor(Value value) const {
  auto it = entries.find(value);
  if (it == entries.end())
    return nullptr;
  return it->second.tensor.get();
}

std::optional<double> Environment::lookupScalar(Value value) const {
  auto it = entries.find(value);
  if (it == entries.end() || it->second.tensor)
    return std::nullopt;
  return it->second.scalar;
}

HostTensor Environment::takeTensor(Value value, Operation *user) {
  auto it = entries.find(value);
  assert(it != entries.end() && it->second.tensor &&
         "taking an unbound tensor");
  Entry &entry = it->second;
  auto usesIt = remainingUses.find(value);
  bool lastUser = usesIt != remainingUses.end() && usesIt->second == 1;
  bool usedOnce = llvm::count(user->getOperands(), value) == 1;
  if (!entry.borrowed && lastUser && usedOnce &&
      entry.tensor.use_count() == 1) {
    // The environment created this tensor (non-const) and holds the only
    // reference: moving out of it is safe.
    HostTensor result =
        std::move(const_cast<HostTensor &>(*entry.tensor)); // NOLINT
    entries.erase(it);
    return result;
  }
  return *entry.tensor;
}

void Environment::release(Operation *op) {
  auto it = usedValues.find(op);
  if (it != usedValues.end()) {
    for (Value value : it->second)
      if (--remainingUses[value] == 0)
        entries.erase(value);
    usedValues.erase(it);
  }
  for (Value result : op->getResults())
    if (!remainingUses.count(result))
      entries.erase(result);
}
