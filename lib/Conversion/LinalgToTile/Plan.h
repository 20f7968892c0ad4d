//===- Plan.h - What the linalg-to-tile conversion will emit --*- C++ -*-===//
//
// The conversion works in three steps: plan the program's tensors and loop
// nests from the function (Plan.cpp), group the loops of different nests that
// walk the same tensor dimension into shared loop variables (Plan.cpp), then
// emit the tile ops (Emit.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_LINALGTOTILE_PLAN_H
#define LIB_CONVERSION_LINALGTOTILE_PLAN_H

#include "TileDialect/IR/TileOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::tileir::linalg_to_tile {

/// A tensor of the program being built.
struct Slot {
  std::string name;
  RankedTensorType type;
  TensorRole role;
};

/// How a nest indexes one dimension of a tensor.
struct DimIndex {
  enum Kind { Loop, Full, Slice } kind = Full;
  /// The nest loop, for Loop.
  unsigned loop = 0;
  /// The slice [base, base + size), for Slice.
  int64_t base = 0, size = 0;

  static DimIndex ofLoop(unsigned l) { return {Loop, l, 0, 0}; }
  static DimIndex full() { return {}; }
  static DimIndex slice(int64_t base, int64_t size) {
    return {Slice, 0, base, size};
  }
};

/// One tensor a nest reads or writes, with the index of each dimension.
struct Access {
  unsigned slot;
  SmallVector<DimIndex> dims;
};

/// One top-level statement to emit.
struct Nest {
  enum Kind {
    /// A linalg structured op.
    Linalg,
    /// A whole-tensor copy from `accesses[0]` to `accesses[1]`.
    Copy,
    /// tensor.insert_slice / extract_slice: `accesses[0]` (read) to
    /// `accesses[1]` (written).
    Slice,
    /// tensor.expand_shape / collapse_shape into `resultSlot`.
    Reshape,
    /// An arith.constant tensor stored whole into `resultSlot`.
    Constant,
  } kind;
  Operation *op = nullptr;
  /// The extent of each loop of the nest (Linalg, Copy, Slice).
  SmallVector<int64_t> extents;
  /// Whether each loop is a reduction (Linalg).
  SmallVector<bool> isReduction;
  /// Loops that are not iterated although their extent exceeds 1: every
  /// tensor dimension they walk is indexed whole (tile.full), or by the slice
  /// the loop's dimension of the result is written into (a producer that
  /// writes straight into the region an insert_slice would copy it to).
  SmallVector<unsigned> wholeLoops;
  SmallVector<Access> accesses;
  /// The loop whose positions each `linalg.index` of the body reads
  /// (Linalg): their accesses, of positions tensors, follow the inputs and
  /// outputs in `accesses`, in this order.
  SmallVector<unsigned> positionLoops;
  /// The slot of each result of `op` (Linalg, Reshape, Constant).
  SmallVector<unsigned> resultSlots;
  /// The shared loop variable of each loop, or -1 for loops of extent 1 and
  /// whole loops, which are not emitted (their dimensions are indexed with
  /// tile.full).
  SmallVector<int> loopClass;

  /// Whether loop `l` is not iterated (extent 1, or whole).
  bool isUnrolled(unsigned l) const {
    return extents[l] <= 1 || llvm::is_contained(wholeLoops, l);
  }
};

/// A loop variable shared by nests: its range is [0, extent).
struct LoopClass {
  std::string name;
  int64_t extent;
  /// The class walks the outer dimension of a reshape's split group (the
  /// heads of [M, H*d] -> [M, H, d]): it steps one element at a time and
  /// indexes with tile.elem, as the reshape's own loop over that dimension
  /// does, so that the optimizer can fuse the two (tile-size 1 per head).
  bool unit = false;
  /// The class walks either side of a reshape's split group (`unit`, or
  /// the H*d dimension): its loops go outside the other loops of a nest, as
  /// the reshape's own loop is, so that nests can fuse around it.
  bool outer = false;
};

/// Everything the emitter needs.
struct Plan {
  func::FuncOp func;
  std::vector<Slot> slots;
  /// The slot of each tensor value of the function that has one.
  DenseMap<Value, unsigned> slotOf;
  std::vector<Nest> nests;
  SmallVector<LoopClass> classes;
  /// The slot holding each function result, in order.
  SmallVector<unsigned> resultSlots;
};

/// The reassociation groups of a tensor.expand_shape or collapse_shape.
SmallVector<ReassociationIndices> getReshapeGroups(Operation *op);

/// Whether a reshape moves `group` (dimensions of the split side `split`)
/// one element of its outer dimension at a time: the group's first
/// dimension and the others together both have more than one element.
/// Otherwise the group is only unit dimensions added or dropped, and the
/// reshape takes all of it at once.
bool isSplitGroup(RankedTensorType split, ArrayRef<int64_t> group);

/// A contraction `out = out + x * y` over one reduction loop `k`
/// (Contraction.cpp): `x` is computed from inputs that walk only batch, m and k
/// loops (the left operand), `y` from inputs that walk only batch, n and k
/// loops.
struct ContractionSides {
  Value x, y;
  SmallVector<OpOperand *> lhsOperands, rhsOperands;
  SmallVector<unsigned> batch, m, n;
  unsigned k = 0;
};

/// The loops an indexing map walks, one per result that is a loop (each
/// dimension of a projected permutation's tensor).
SmallVector<unsigned> getIndexedLoops(AffineMap map);

/// The sides of `op` when it is such a contraction with one m and one n
/// loop (a named contraction generalized, or one with operand prologues).
std::optional<ContractionSides> matchContraction(linalg::LinalgOp op);

/// Fuses elementwise producers into the linalg ops that read them
/// (Fuse.cpp): recomputed in every non-contraction reader; into
/// contractions permutations, and any elementwise producer of the left
/// operand of one with at most `prologueMaxColumns` result columns (n; -1:
/// none). Generalizes named ops it may fuse.
void fuseElementwise(func::FuncOp func, int64_t prologueMaxColumns);

/// Plans the tensors and nests of `func` and groups their loops (with
/// `ownReductionVariables`, reduction loops apart from the dimensions of the
/// intermediates they read). Emits an error on the op that cannot be
/// converted and fails.
FailureOr<Plan> planConversion(func::FuncOp func, bool ownReductionVariables);

/// Emits the program of `plan` before `plan.func`.
FailureOr<ProgramOp> emitProgram(Plan &plan);

} // namespace mlir::tileir::linalg_to_tile

#endif // LIB_CONVERSION_LINALGTOTILE_PLAN_H
