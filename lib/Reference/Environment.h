//===- Environment.h - Values of a function under evaluation ---*- C++ -*-===//
//
// Internal to the reference evaluator: what each SSA value of the function
// being evaluated holds (a dense tensor or a scalar), with use counting so
// that tensors are freed after their last user and moved, not copied, into
// the op that last reads them.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_LIB_REFERENCE_ENVIRONMENT_H
#define TILEDIALECT_LIB_REFERENCE_ENVIRONMENT_H

#include "TileDialect/Support/ElementKindOf.h"
#include "TileDialect/Support/HostTensor.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"

#include <memory>

namespace mlir::tileir::reference {

/// A tensor shared between the SSA values that denote the same data (an
/// identity cast, a returned value).
using TensorRef = std::shared_ptr<const HostTensor>;


/// Whether `value` is exactly representable in `kind` (NaN and infinities
/// are); a fast test equivalent to `roundToElement(kind, value) == value`.
bool isRepresentable(ElementKind kind, double value);

/// Row-major strides of `shape`.
SmallVector<int64_t> getRowMajorStrides(ArrayRef<int64_t> shape);

/// The SSA values of one function body under evaluation.
class Environment {
public:
  explicit Environment(Precision precision) : precision(precision) {}

  Precision getPrecision() const { return precision; }

  /// Rounds `value` to `kind` under the evaluation precision.
  double round(ElementKind kind, double value) const {
    return roundFor(precision, kind, value);
  }

  /// Counts, for every value defined in `body` or as its argument, the ops
  /// of `body` that use it (directly or inside their regions).
  void countUses(Block &body);

  /// Binds `value` to `tensor`, which the environment now owns.
  void bind(Value value, HostTensor &&tensor);
  /// Binds `value` to tensor data that the caller keeps alive (never moved
  /// from or modified).
  void bindBorrowed(Value value, const HostTensor &tensor);
  /// Binds `value` to the same tensor as `source`.
  void bindAlias(Value value, Value source);
  void bindScalar(Value value, double scalar);

  /// Whether `value` is bound (to a tensor or a scalar).
  bool contains(Value value) const { return entries.count(value); }

  /// The tensor bound to `value`, or null.
  const HostTensor *lookupTensor(Value value) const;
  /// The scalar bound to `value`, if any.
  std::optional<double> lookupScalar(Value value) const;

  /// Returns the tensor bound to `value` as a tensor the caller may modify:
  /// moved out when `user` is its last user, uses it once, and nothing else
  /// shares it; copied otherwise.
  HostTensor takeTensor(Value value, Operation *user);

  /// Called after `op` (an op of the counted body) is evaluated: frees the
  /// values it was the last user of, and its own results that have no users.
  void release(Operation *op);

private:
  struct Entry {
    TensorRef tensor;
    double scalar = 0.0;
    bool borrowed = false;
  };

  Precision precision;
  DenseMap<Value, Entry> entries;
  DenseMap<Value, unsigned> remainingUses;
  DenseMap<Operation *, SmallVector<Value, 4>> usedValues;
};

} // namespace mlir::tileir::reference

#endif // TILEDIALECT_LIB_REFERENCE_ENVIRONMENT_H
