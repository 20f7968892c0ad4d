//===- Plan.cpp - Plan the tensors and loop nests of a tile program -------===//

#include "Plan.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/SmallSet.h"

#include <numeric>

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::linalg_to_tile;

namespace {

/// Whether `type` is a tensor the tile dialect can hold.
bool isSupportedTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.hasStaticShape() &&
         (isa<FloatType>(tensor.getElementType()) ||
          tensor.getElementType().isInteger(1)) &&
         llvm::all_of(tensor.getShape(), [](int64_t d) { return d > 0; });
}

/// Whether `value` is a zero float constant.
bool isZeroConstant(Value value) {
  auto cst = value.getDefiningOp<arith::ConstantOp>();
  auto attr = cst ? dyn_cast<FloatAttr>(cst.getValue()) : FloatAttr();
  return attr && attr.getValue().isZero();
}

class Planner {
public:
  Planner(func::FuncOp func, bool ownReductionVariables)
      : ownReductionVariables(ownReductionVariables) {
    plan.func = func;
  }

  FailureOr<Plan> run();

private:
  unsigned addSlot(std::string name, Type type, TensorRole role) {
    plan.slots.push_back(
        {std::move(name), cast<RankedTensorType>(type), role});
    return plan.slots.size() - 1;
  }
  std::string freshName() { return "t" + std::to_string(numTemps++); }

  /// The positions tensor of `extent` elements (one per extent).
  unsigned positionsSlot(int64_t extent) {
    auto [it, inserted] = positionsOf.try_emplace(extent, 0);
    if (inserted) {
      auto f32 = Float32Type::get(plan.func.getContext());
      it->second = addSlot("positions" + std::to_string(extent),
                           RankedTensorType::get({extent}, f32),
                           TensorRole::Positions);
    }
    return it->second;
  }

  /// The slot of a tensor operand, creating a zero intermediate for values
  /// that have none (tensor.empty read as data).
  unsigned slotFor(Value value) {
    auto it = plan.slotOf.find(value);
    if (it != plan.slotOf.end())
      return it->second;
    unsigned slot = addSlot(freshName(), value.getType(),
                            TensorRole::Intermediate);
    plan.slotOf[value] = slot;
    return slot;
  }

  /// The slot `result` is written into, given the init value it starts from.
  /// Adds a copy nest when the init must be preserved.
  unsigned slotForResult(Value result, Value init, bool readsInit);

  void addCopy(unsigned from, unsigned to);
  LogicalResult planLinalg(linalg::LinalgOp op);
  LogicalResult planInsert(tensor::InsertSliceOp op);
  LogicalResult planExtract(tensor::ExtractSliceOp op);
  LogicalResult planReturn(func::ReturnOp op);
  LogicalResult planOp(Operation &op);
  void groupLoops();

  Plan plan;
  /// Reduction loops apart from the intermediates they read (groupLoops).
  bool ownReductionVariables;
  unsigned numTemps = 0;
  /// The positions tensor of each extent (`positionsSlot`).
  llvm::SmallDenseMap<int64_t, unsigned> positionsOf;
  /// The insert_slice each producer result is written through directly
  /// (`findDirectInsert`).
  DenseMap<Value, tensor::InsertSliceOp> directInserts;
  /// Slots already bound to a function result.
  llvm::SmallSet<unsigned, 8> resultSlots;
};

} // namespace

/// The insert_slice whose copy the producer of its source can make itself,
/// by writing its result straight into the destination region: an in-place
/// update of an argument (a KV-cache append) with a source that is a fresh
/// result of a linalg op (one that does not read its init) used only there,
/// where the producer does not read the argument and nothing uses the
/// argument between the producer and the insert (the write moves up to the
/// producer). The loops of the sliced dimensions then run whole.
static tensor::InsertSliceOp findDirectInsert(tensor::InsertSliceOp insert) {
  auto dest = dyn_cast<BlockArgument>(insert.getDest());
  auto result = dyn_cast<OpResult>(insert.getSource());
  if (!dest || !result || !result.hasOneUse() ||
      insert.getSourceType().getRank() != insert.getDestType().getRank() ||
      !insert.hasUnitStride() ||
      ShapedType::isDynamicShape(insert.getStaticOffsets()) ||
      ShapedType::isDynamicShape(insert.getStaticSizes()))
    return {};
  auto producer = dyn_cast<linalg::LinalgOp>(result.getOwner());
  if (!producer || isa<linalg::FillOp>(producer.getOperation()) ||
      producer->getBlock() != insert->getBlock() ||
      llvm::is_contained(producer->getOperands(), dest) ||
      producer.payloadUsesValueFromOperand(
          producer.getDpsInitOperand(result.getResultNumber())))
    return {};
  for (Operation *user : dest.getUsers())
    if (user != insert && producer->isBeforeInBlock(user) &&
        user->isBeforeInBlock(insert))
      return {};
  return insert;
}

unsigned Planner::slotForResult(Value result, Value init, bool readsInit) {
  if (init.getDefiningOp<tensor::EmptyOp>() || !readsInit) {
    unsigned slot = addSlot(freshName(), result.getType(),
                            TensorRole::Intermediate);
    return plan.slotOf[result] = slot;
  }
  unsigned initSlot = slotFor(init);
  // Update in place when nothing else reads the init.
  if (init.hasOneUse() &&
      plan.slots[initSlot].role == TensorRole::Intermediate)
    return plan.slotOf[result] = initSlot;
  unsigned slot =
      addSlot(freshName(), result.getType(), TensorRole::Intermediate);
  addCopy(initSlot, slot);
  return plan.slotOf[result] = slot;
}

void Planner::addCopy(unsigned from, unsigned to) {
  Nest nest;
  nest.kind = Nest::Copy;
  ArrayRef<int64_t> shape = plan.slots[from].type.getShape();
  nest.extents.assign(shape.begin(), shape.end());
  nest.isReduction.assign(shape.size(), false);
  Access read{from, {}}, write{to, {}};
  for (unsigned d = 0; d < shape.size(); ++d) {
    read.dims.push_back(DimIndex::ofLoop(d));
    write.dims.push_back(DimIndex::ofLoop(d));
  }
  nest.accesses = {read, write};
  plan.nests.push_back(std::move(nest));
}

LogicalResult Planner::planLinalg(linalg::LinalgOp op) {
  if (op->getNumRegions() != 1 || !op.getBlock())
    return op->emitOpError("cannot be converted to tile: it has no body");
  if (op.hasIndexSemantics() && linalg::isaContractionOpInterface(op))
    return op->emitOpError("cannot be converted to tile: a contraction whose "
                           "body uses linalg.index");
  for (OpOperand &operand : op->getOpOperands()) {
    if (isa<RankedTensorType>(operand.get().getType()) &&
        !isSupportedTensor(operand.get().getType()))
      return op->emitOpError("cannot be converted to tile: operand #")
             << operand.getOperandNumber() << " of type "
             << operand.get().getType()
             << " is not a static-shape float or i1 tensor";
    if (isa<RankedTensorType>(operand.get().getType()) &&
        !op.getMatchingIndexingMap(&operand).isProjectedPermutation())
      return op->emitOpError("cannot be converted to tile: the indexing map ")
             << AffineMapAttr::get(op.getMatchingIndexingMap(&operand))
             << " of operand #" << operand.getOperandNumber()
             << " is not a projected permutation";
  }

  // linalg.fill of zero into a fresh tensor is a fresh tensor: tensors start
  // as zeros.
  if (auto fill = dyn_cast<linalg::FillOp>(op.getOperation())) {
    if (isZeroConstant(fill.getInputs()[0]) &&
        fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>()) {
      plan.slotOf[fill.getResult(0)] = addSlot(
          freshName(), fill.getResult(0).getType(), TensorRole::Intermediate);
      return success();
    }
  }

  Nest nest;
  nest.kind = Nest::Linalg;
  nest.op = op;
  nest.extents = op.getStaticLoopRanges();
  for (utils::IteratorType it : op.getIteratorTypesArray())
    nest.isReduction.push_back(it == utils::IteratorType::reduction);
  for (auto [result, init] :
       llvm::zip(op->getResults(), op.getDpsInitsMutable())) {
    if (tensor::InsertSliceOp insert = directInserts.lookup(result)) {
      nest.resultSlots.push_back(slotFor(insert.getDest()));
      continue;
    }
    bool reads = op.payloadUsesValueFromOperand(&init);
    nest.resultSlots.push_back(slotForResult(result, init.get(), reads));
  }
  // Accesses: inputs, then outputs (their result slots).
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isa<RankedTensorType>(operand.get().getType()))
      continue;
    unsigned slot =
        op.isDpsInit(&operand)
            ? nest.resultSlots[operand.getOperandNumber() -
                               op.getNumDpsInputs()]
            : slotFor(operand.get());
    Access access{slot, {}};
    AffineMap map = op.getMatchingIndexingMap(&operand);
    tensor::InsertSliceOp insert;
    if (op.isDpsInit(&operand))
      insert = directInserts.lookup(op.getTiedOpResult(&operand));
    for (unsigned j = 0; j < map.getNumResults(); ++j) {
      unsigned loop = map.getDimPosition(j);
      if (insert &&
          insert.getStaticSizes()[j] != insert.getDestType().getDimSize(j)) {
        // Written into the destination's slice: the loop runs whole.
        access.dims.push_back(DimIndex::slice(insert.getStaticOffsets()[j],
                                              insert.getStaticSizes()[j]));
        nest.wholeLoops.push_back(loop);
        continue;
      }
      access.dims.push_back(DimIndex::ofLoop(loop));
    }
    nest.accesses.push_back(std::move(access));
  }
  // linalg.index d: a load of the positions of loop d.
  op.getBlock()->walk([&](linalg::IndexOp index) {
    unsigned loop = index.getDim();
    if (llvm::is_contained(nest.positionLoops, loop))
      return;
    nest.positionLoops.push_back(loop);
    nest.accesses.push_back(
        {positionsSlot(nest.extents[loop]), {DimIndex::ofLoop(loop)}});
  });
  plan.nests.push_back(std::move(nest));
  return success();
}

/// The dimensions of a slice: Loop for dims the slice covers whole (indexed
/// by nest loop `d`), Slice otherwise; `whole` gets the other side's index.
static LogicalResult sliceDims(OffsetSizeAndStrideOpInterface op,
                               RankedTensorType big, Access &bigAccess,
                               Access &smallAccess) {
  if (!op.hasUnitStride())
    return op->emitOpError("cannot be converted to tile: only unit strides "
                           "are supported");
  ArrayRef<int64_t> offsets = op.getStaticOffsets();
  ArrayRef<int64_t> sizes = op.getStaticSizes();
  if (ShapedType::isDynamicShape(offsets) || ShapedType::isDynamicShape(sizes))
    return op->emitOpError("cannot be converted to tile: offsets and sizes "
                           "must be static");
  for (unsigned d = 0; d < big.getRank(); ++d) {
    if (offsets[d] == 0 && sizes[d] == big.getDimSize(d)) {
      bigAccess.dims.push_back(DimIndex::ofLoop(d));
      smallAccess.dims.push_back(DimIndex::ofLoop(d));
    } else {
      bigAccess.dims.push_back(DimIndex::slice(offsets[d], sizes[d]));
      smallAccess.dims.push_back(DimIndex::full());
    }
  }
  return success();
}

/// Sliced dimensions are not iterated: the slice is one tile.
static void dropSlicedLoops(Nest &nest, const Access &big) {
  for (auto [d, index] : llvm::enumerate(big.dims))
    if (index.kind == DimIndex::Slice)
      nest.extents[d] = 1;
}

LogicalResult Planner::planInsert(tensor::InsertSliceOp op) {
  RankedTensorType dest = op.getDestType();
  if (op.getSourceType().getRank() != dest.getRank())
    return op->emitOpError("cannot be converted to tile: rank-reducing "
                           "slices are not supported");
  Value destValue = op.getDest();
  unsigned slot;
  // A reader of the old value after this update, if any.
  Operation *readAfter = nullptr;
  for (Operation *user : destValue.getUsers())
    if (!readAfter && user != op && op->isBeforeInBlock(user))
      readAfter = user;
  // An argument is updated in place, and so is the result of such an
  // update (a chain of inserts into one argument: each token of a
  // multi-token KV-cache write) where nothing reads it after this update
  // (else this update writes a copy).
  auto updated = destValue.getDefiningOp<tensor::InsertSliceOp>();
  bool inPlace = isa<BlockArgument>(destValue) ||
                 (updated && plan.slotOf.count(destValue) &&
                  plan.slots[plan.slotOf.lookup(destValue)].role ==
                      TensorRole::InOut &&
                  !readAfter);
  if (inPlace) {
    // Nothing may read the argument's old value after the update.
    if (readAfter) {
      InFlightDiagnostic diag = op->emitOpError(
          "cannot be converted to tile: it updates an argument in place, "
          "but the argument is read again after the update");
      diag.attachNote(readAfter->getLoc()) << "read here";
      return diag;
    }
    slot = slotFor(destValue);
    plan.slots[slot].role = TensorRole::InOut;
    plan.slotOf[op.getResult()] = slot;
    // The producer of the source wrote it in place already.
    if (directInserts.count(op.getSource()))
      return success();
  } else {
    slot = slotForResult(op.getResult(), destValue, /*readsInit=*/true);
  }
  Nest nest;
  nest.kind = Nest::Slice;
  nest.op = op;
  nest.extents.assign(dest.getShape().begin(), dest.getShape().end());
  nest.isReduction.assign(dest.getRank(), false);
  Access write{slot, {}}, read{slotFor(op.getSource()), {}};
  if (failed(sliceDims(op, dest, write, read)))
    return failure();
  dropSlicedLoops(nest, write);
  nest.accesses = {read, write};
  plan.nests.push_back(std::move(nest));
  return success();
}

LogicalResult Planner::planExtract(tensor::ExtractSliceOp op) {
  RankedTensorType source = op.getSourceType();
  if (op.getResultType().getRank() != source.getRank())
    return op->emitOpError("cannot be converted to tile: rank-reducing "
                           "slices are not supported");
  unsigned slot = addSlot(freshName(), op.getType(), TensorRole::Intermediate);
  plan.slotOf[op.getResult()] = slot;
  Nest nest;
  nest.kind = Nest::Slice;
  nest.op = op;
  nest.extents.assign(source.getShape().begin(), source.getShape().end());
  nest.isReduction.assign(source.getRank(), false);
  Access read{slotFor(op.getSource()), {}}, write{slot, {}};
  if (failed(sliceDims(op, source, read, write)))
    return failure();
  dropSlicedLoops(nest, read);
  nest.accesses = {read, write};
  plan.nests.push_back(std::move(nest));
  return success();
}

LogicalResult Planner::planReturn(func::ReturnOp op) {
  for (auto [i, value] : llvm::enumerate(op.getOperands())) {
    auto nameAttr = plan.func.getResultAttrOfType<StringAttr>(i, "tile.name");
    std::string name =
        nameAttr ? nameAttr.str() : "result" + std::to_string(i);
    unsigned slot = slotFor(value);
    Slot &s = plan.slots[slot];
    if (!resultSlots.contains(slot) &&
        (s.role == TensorRole::Intermediate || s.role == TensorRole::InOut)) {
      if (s.role == TensorRole::Intermediate) {
        s.role = TensorRole::Output;
        s.name = name;
      }
      resultSlots.insert(slot);
      plan.resultSlots.push_back(slot);
      continue;
    }
    // An input returned unchanged, or a value returned twice: copy it.
    unsigned copy = addSlot(name, value.getType(), TensorRole::Output);
    addCopy(slot, copy);
    resultSlots.insert(copy);
    plan.resultSlots.push_back(copy);
  }
  return success();
}

LogicalResult Planner::planOp(Operation &op) {
  for (Type type : op.getResultTypes())
    if (isa<RankedTensorType>(type) && !isSupportedTensor(type))
      return op.emitOpError("cannot be converted to tile: result type ")
             << type << " is not a static-shape float or i1 tensor";
  if (isa<tensor::EmptyOp>(op))
    return success();
  if (auto cst = dyn_cast<arith::ConstantOp>(op)) {
    if (!isa<RankedTensorType>(cst.getType()))
      return success(); // A scalar, used by linalg bodies and fills.
    Nest nest;
    nest.kind = Nest::Constant;
    nest.op = &op;
    nest.resultSlots.push_back(addSlot(freshName(), cst.getType(),
                                       TensorRole::Intermediate));
    plan.slotOf[cst.getResult()] = nest.resultSlots.back();
    plan.nests.push_back(std::move(nest));
    return success();
  }
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return planLinalg(linalgOp);
  if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(op)) {
    Nest nest;
    nest.kind = Nest::Reshape;
    nest.op = &op;
    slotFor(op.getOperand(0));
    nest.resultSlots.push_back(addSlot(freshName(), op.getResult(0).getType(),
                                       TensorRole::Intermediate));
    plan.slotOf[op.getResult(0)] = nest.resultSlots.back();
    plan.nests.push_back(std::move(nest));
    return success();
  }
  if (auto insert = dyn_cast<tensor::InsertSliceOp>(op))
    return planInsert(insert);
  if (auto extract = dyn_cast<tensor::ExtractSliceOp>(op))
    return planExtract(extract);
  if (auto ret = dyn_cast<func::ReturnOp>(op))
    return planReturn(ret);
  return op.emitOpError("cannot be converted to tile: '")
         << op.getName()
         << "' is not supported (expected linalg structured ops, tensor.empty, "
            "tensor reshapes and static slices, and arith.constant)";
}

void Planner::groupLoops() {
  // Union-find over tensor dimensions and nest loops; loops of one nest never
  // share a class (nested loops cannot rebind a variable).
  SmallVector<unsigned> slotBase;
  unsigned next = 0;
  for (const Slot &slot : plan.slots) {
    slotBase.push_back(next);
    next += slot.type.getRank();
  }
  SmallVector<unsigned> nestBase;
  for (const Nest &nest : plan.nests) {
    nestBase.push_back(next);
    next += nest.extents.size();
  }
  SmallVector<unsigned> parent(next);
  std::iota(parent.begin(), parent.end(), 0);
  // The nests with a loop in each class (at its root).
  std::vector<llvm::SmallSet<unsigned, 4>> nestsOf(next);
  std::function<unsigned(unsigned)> find = [&](unsigned x) {
    while (parent[x] != x)
      x = parent[x] = parent[parent[x]];
    return x;
  };
  for (auto [n, nest] : llvm::enumerate(plan.nests))
    for (unsigned l = 0; l < nest.extents.size(); ++l)
      nestsOf[nestBase[n] + l].insert(n);
  // Two classes sharing a nest stay apart. The smaller set is merged into
  // the larger (a chain of n ops unites one class n times: linear, where
  // copying the growing set each time was quadratic).
  auto unite = [&](unsigned a, unsigned b) {
    a = find(a), b = find(b);
    if (a == b)
      return;
    if (nestsOf[a].size() < nestsOf[b].size())
      std::swap(a, b);
    llvm::SmallSet<unsigned, 4> &aNests = nestsOf[a], &bNests = nestsOf[b];
    for (unsigned n : bNests)
      if (aNests.contains(n))
        return;
    parent[b] = a;
    for (unsigned n : bNests)
      aNests.insert(n);
    bNests.clear();
  };
  // A reduction loop may stay apart from the intermediates it reads, so that
  // its tile size is its own rather than the width of the loop that wrote
  // them (a GEMM's K tile after a normalization over the same columns).
  auto apart = [&](const Nest &nest, unsigned loop, const Access &access) {
    return ownReductionVariables && nest.isReduction[loop] &&
           plan.slots[access.slot].role == TensorRole::Intermediate;
  };
  // A positions tensor relates nothing: loops of any nests may read it.
  auto unrelated = [&](const Access &access) {
    return plan.slots[access.slot].role == TensorRole::Positions;
  };
  for (auto [n, nest] : llvm::enumerate(plan.nests))
    for (const Access &access : nest.accesses)
      for (auto [d, index] : llvm::enumerate(access.dims))
        if (index.kind == DimIndex::Loop && !nest.isUnrolled(index.loop) &&
            !apart(nest, index.loop, access) && !unrelated(access))
          unite(nestBase[n] + index.loop, slotBase[access.slot] + d);

  // Number the classes in order of first appearance.
  DenseMap<unsigned, int> classOfRoot;
  unsigned numParallel = 0, numReduction = 0;
  for (auto [n, nest] : llvm::enumerate(plan.nests)) {
    for (unsigned l = 0; l < nest.extents.size(); ++l) {
      if (nest.isUnrolled(l)) {
        nest.loopClass.push_back(-1);
        continue;
      }
      unsigned root = find(nestBase[n] + l);
      auto [it, inserted] = classOfRoot.try_emplace(root, plan.classes.size());
      if (inserted) {
        bool reduction = nest.isReduction[l];
        std::string name = reduction ? "r" + std::to_string(numReduction++)
                                     : "i" + std::to_string(numParallel++);
        plan.classes.push_back({name, nest.extents[l]});
      }
      nest.loopClass.push_back(it->second);
    }
  }

  // Classes over the outer dimension of a reshape's split group.
  for (const Nest &nest : plan.nests) {
    if (nest.kind != Nest::Reshape)
      continue;
    bool expand = isa<tensor::ExpandShapeOp>(nest.op);
    SmallVector<ReassociationIndices> groups = getReshapeGroups(nest.op);
    unsigned sourceSlot = plan.slotOf.lookup(nest.op->getOperand(0));
    unsigned splitSlot = expand ? nest.resultSlots[0] : sourceSlot;
    unsigned wideSlot = expand ? sourceSlot : nest.resultSlots[0];
    auto split = plan.slots[splitSlot].type;
    auto classOf = [&](unsigned slot, int64_t d) -> LoopClass * {
      auto it = classOfRoot.find(find(slotBase[slot] + d));
      return it == classOfRoot.end() ? nullptr : &plan.classes[it->second];
    };
    for (auto [g, group] : llvm::enumerate(groups)) {
      if (!isSplitGroup(split, group))
        continue;
      if (LoopClass *cls = classOf(splitSlot, group.front()))
        cls->unit = cls->outer = true;
      if (LoopClass *cls = classOf(wideSlot, g))
        cls->outer = true;
    }
  }
}

FailureOr<Plan> Planner::run() {
  func::FuncOp func = plan.func;
  if (!func.getBody().hasOneBlock())
    return func.emitOpError("cannot be converted to tile: the body must be a "
                            "single block");
  for (auto [i, arg] : llvm::enumerate(func.getArguments())) {
    if (!isSupportedTensor(arg.getType()))
      return func.emitOpError("cannot be converted to tile: argument #")
             << i << " of type " << arg.getType()
             << " is not a static-shape float or i1 tensor";
    auto nameAttr = func.getArgAttrOfType<StringAttr>(i, "tile.name");
    plan.slotOf[arg] =
        addSlot(nameAttr ? nameAttr.str() : "arg" + std::to_string(i),
                arg.getType(), TensorRole::Input);
  }
  func.walk([&](tensor::InsertSliceOp insert) {
    if (findDirectInsert(insert))
      directInserts[insert.getSource()] = insert;
  });
  for (Operation &op : func.getBody().front())
    if (failed(planOp(op)))
      return failure();

  // Tensor names must be unique.
  llvm::StringMap<unsigned> seen;
  for (auto [i, slot] : llvm::enumerate(plan.slots)) {
    while (seen.contains(slot.name))
      slot.name += "_";
    seen[slot.name] = i;
  }
  groupLoops();
  return std::move(plan);
}

bool mlir::tileir::linalg_to_tile::isSplitGroup(RankedTensorType split,
                                                ArrayRef<int64_t> group) {
  if (group.size() < 2)
    return false;
  int64_t inner = 1;
  for (int64_t d : group.drop_front())
    inner *= split.getDimSize(d);
  return split.getDimSize(group.front()) > 1 && inner > 1;
}

SmallVector<ReassociationIndices>
mlir::tileir::linalg_to_tile::getReshapeGroups(Operation *op) {
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op))
    return expand.getReassociationIndices();
  return cast<tensor::CollapseShapeOp>(op).getReassociationIndices();
}

FailureOr<Plan>
mlir::tileir::linalg_to_tile::planConversion(func::FuncOp func,
                                             bool ownReductionVariables) {
  return Planner(func, ownReductionVariables).run();
}
