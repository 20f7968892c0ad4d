//===- BatchLoops.cpp - Batch dimensions of tiles become grid loops -------===//
//
// Extraction may prefer a statement that carries a batch dimension whole in
// its tiles (`tile.full` over 32 heads: `[32, tile_i1, tile_i2]` scores) to
// one that loops over it: fewer loops, the same kernels. On a GPU the
// difference is the grid: a kernel's blocks come from its top-level loops,
// so every head then runs in one block (causal attention at 2K rows: 32
// heads per block) or, worse, every block reads every head's K and V.
//
// A batch dimension is a dimension of the statement's tiles along which
// nothing mixes: elementwise ops, the batch of matmuls, reductions and
// broadcasts over other dimensions, layout ops that keep it, and loads and
// stores that take it whole (`tile.full`). Such a statement computes each
// batch element independently, so it equals `loop b (S[b])` where S[b] is S
// with the dimension cut to the one element `tile b` selects (Trinity's
// loop tiling read backwards). The rewrite wraps the statement in that loop
// (step 1), which the partitioner then maps onto the grid.
//
// Found by union-find over (value, dimension) and (access, tensor dimension)
// slots, joined through each op's dimension correspondence and through the
// tensor (so every access of a tensor in the statement takes a dimension
// in the same class). A class of slots becomes a loop when it is the batch
// dimension of a matmul (the attention and batched-GEMM statements this is
// for), no op mixes it (a reduction or contraction over it, a reshape that
// merges it, an access that indexes it by anything but `tile.full`, a
// dense constant), its extent is one concrete number above 1, every store
// of the statement carries it, no access has two dimensions in it, and no
// value in it is used outside the statement.
//
//===----------------------------------------------------------------------===//

#include "Partition.h"

#include "TileDialect/IR/TileOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"

#include <map>

using namespace mlir;
using namespace mlir::tileir;

namespace {
/// A dimension of a tile value, or (with `access`) tensor dimension `dim`
/// of a load's or store's access.
struct Slot {
  void *key = nullptr;
  unsigned dim = 0;
  bool access = false;
  bool operator<(const Slot &o) const {
    return std::tie(key, dim, access) < std::tie(o.key, o.dim, o.access);
  }
};

class BatchFinder {
public:
  explicit BatchFinder(Value stmt) : stmt(stmt) {}

  /// The classes that may become loops, each as its value dimensions and
  /// access dimensions, with the extent.
  struct Batch {
    SmallVector<std::pair<Value, unsigned>> values;
    SmallVector<std::pair<Operation *, unsigned>> accesses;
    int64_t extent = 0;
  };
  SmallVector<Batch> find();

private:
  unsigned slot(Slot s) {
    auto [it, inserted] = ids.try_emplace(s, slots.size());
    if (inserted) {
      slots.push_back(s);
      parent.push_back(it->second);
    }
    return it->second;
  }
  unsigned valueSlot(Value v, unsigned d) {
    return slot({v.getAsOpaquePointer(), d, false});
  }
  unsigned accessSlot(Operation *op, unsigned d) {
    return slot({op, d, true});
  }
  unsigned leader(unsigned s) {
    while (parent[s] != s)
      s = parent[s] = parent[parent[s]];
    return s;
  }
  void join(unsigned a, unsigned b) { parent[leader(a)] = leader(b); }
  void block(unsigned s) { blocked.push_back(s); }
  void blockAll(Value v) {
    if (auto type = dyn_cast<TileType>(v.getType()))
      for (unsigned d = 0; d < type.getRank(); ++d)
        block(valueSlot(v, d));
  }
  /// Joins the dimensions of two shapes a reshape relates: equal non-unit
  /// extents in order, up to the first mismatch, after which every
  /// remaining dimension is blocked.
  void joinReshape(Value from, Value to);
  void visit(Operation *op);

  Value stmt;
  std::map<Slot, unsigned> ids;
  SmallVector<Slot> slots;
  SmallVector<unsigned> parent;
  SmallVector<unsigned> blocked;
  SmallVector<std::pair<Value, unsigned>> matmulBatches;
  llvm::SetVector<Operation *> ops;
};
} // namespace

static ArrayRef<TileDim> shapeOf(Value v) {
  return cast<TileType>(v.getType()).getShape();
}

void BatchFinder::joinReshape(Value from, Value to) {
  ArrayRef<TileDim> a = shapeOf(from), b = shapeOf(to);
  auto isUnit = [](const TileDim &d) {
    return d.isConcrete() && d.getConcrete() == 1;
  };
  unsigned i = 0, j = 0;
  bool matching = true;
  while (i < a.size() || j < b.size()) {
    if (i < a.size() && isUnit(a[i])) {
      ++i;
      continue;
    }
    if (j < b.size() && isUnit(b[j])) {
      ++j;
      continue;
    }
    if (matching && i < a.size() && j < b.size() && a[i] == b[j]) {
      join(valueSlot(from, i++), valueSlot(to, j++));
      continue;
    }
    matching = false;
    if (i < a.size())
      block(valueSlot(from, i++));
    if (j < b.size())
      block(valueSlot(to, j++));
  }
}

void BatchFinder::visit(Operation *op) {
  auto sameDims = [&](Value result, ValueRange operands) {
    for (unsigned d = 0; d < shapeOf(result).size(); ++d)
      for (Value operand : operands)
        join(valueSlot(result, d), valueSlot(operand, d));
  };
  // An access's dimensions are its tensor's: every access of one tensor
  // in the statement falls in the same classes.
  auto accessDims = [&](Operation *access, Value tile, ValueRange indices) {
    Value tensor = access->getOperand(isa<LoadOp>(access) ? 0 : 1);
    for (auto [d, index] : llvm::enumerate(indices)) {
      unsigned s = accessSlot(access, d);
      join(s, valueSlot(tile, d));
      join(s, valueSlot(tensor, d));
      if (!index.getDefiningOp<FullIndexOp>())
        block(s);
    }
  };
  if (auto load = dyn_cast<LoadOp>(op)) {
    accessDims(op, load.getResult(), load.getIndices());
  } else if (auto store = dyn_cast<StoreOp>(op)) {
    accessDims(op, store.getValue(), store.getIndices());
  } else if (auto mm = dyn_cast<MatmulOp>(op)) {
    Value r = mm.getResult(), a = mm.getLhs(), b = mm.getRhs();
    unsigned rank = shapeOf(r).size();
    for (unsigned d = 0; d + 2 < rank; ++d) {
      join(valueSlot(r, d), valueSlot(a, d));
      join(valueSlot(r, d), valueSlot(b, d));
      matmulBatches.push_back({r, d});
    }
    join(valueSlot(r, rank - 2), valueSlot(a, rank - 2));
    join(valueSlot(r, rank - 1), valueSlot(b, rank - 1));
    block(valueSlot(a, rank - 1));
    block(valueSlot(b, rank - 2));
  } else if (isa<RSumOp, RMaxOp, RMinOp>(op)) {
    Value operand = op->getOperand(0), r = op->getResult(0);
    auto axis = cast<IntegerAttr>(op->getAttr("axis")).getInt();
    for (unsigned d = 0, e = 0; d < shapeOf(operand).size(); ++d) {
      if (int64_t(d) == axis) {
        block(valueSlot(operand, d));
        continue;
      }
      join(valueSlot(operand, d), valueSlot(r, e++));
    }
  } else if (auto bcast = dyn_cast<BcastOp>(op)) {
    ArrayRef<int64_t> dims = bcast.getDims();
    Value r = bcast.getResult(), operand = bcast.getOperand();
    for (unsigned d = 0, e = 0; d < shapeOf(r).size(); ++d)
      if (!llvm::is_contained(dims, int64_t(d)))
        join(valueSlot(r, d), valueSlot(operand, e++));
      else
        valueSlot(r, d);
  } else if (auto permute = dyn_cast<PermuteOp>(op)) {
    for (auto [d, from] : llvm::enumerate(permute.getPermutation()))
      join(valueSlot(permute.getResult(), d),
           valueSlot(permute.getOperand(), from));
  } else if (auto transpose = dyn_cast<TransposeOp>(op)) {
    unsigned d0 = transpose.getDim0(), d1 = transpose.getDim1();
    for (unsigned d = 0; d < shapeOf(transpose.getResult()).size(); ++d)
      join(valueSlot(transpose.getResult(), d),
           valueSlot(transpose.getOperand(), d == d0   ? d1
                                             : d == d1 ? d0
                                                       : d));
  } else if (isa<ReshapeOp, SqueezeOp, UnsqueezeOp>(op)) {
    joinReshape(op->getOperand(0), op->getResult(0));
  } else if (auto concat = dyn_cast<ConcatOp>(op)) {
    sameDims(concat.getResult(), concat.getInputs());
    block(valueSlot(concat.getResult(), concat.getAxis()));
  } else if (auto constant = dyn_cast<ConstantOp>(op)) {
    if (!constant.isSplat())
      blockAll(constant.getResult());
  } else if (op->getNumResults() == 1 &&
             isa<TileType>(op->getResultTypes()[0]) &&
             (op->hasTrait<OpTrait::SameOperandsAndResultType>() ||
              isa<CastOp, CmpOp, SelectOp>(op))) {
    sameDims(op->getResult(0), op->getOperands());
  } else {
    for (Value v : op->getResults())
      blockAll(v);
    for (Value v : op->getOperands())
      blockAll(v);
  }
}

SmallVector<BatchFinder::Batch> BatchFinder::find() {
  SmallVector<Value> work{stmt};
  while (!work.empty()) {
    Operation *op = work.pop_back_val().getDefiningOp();
    if (!op || isa<VarOp, SizeOp>(op) || !ops.insert(op))
      continue;
    llvm::append_range(work, op->getOperands());
  }
  for (Operation *op : ops)
    visit(op);

  llvm::DenseSet<unsigned> dead, done;
  for (unsigned s : blocked)
    dead.insert(leader(s));
  SmallVector<StoreOp> stores;
  for (Operation *op : ops)
    if (auto store = dyn_cast<StoreOp>(op))
      stores.push_back(store);
  SmallVector<Batch> batches;
  for (auto [value, dim] : matmulBatches) {
    unsigned root = leader(valueSlot(value, dim));
    if (dead.contains(root) || !done.insert(root).second)
      continue;
    Batch batch;
    bool ok = true;
    for (unsigned i = 0; i < slots.size() && ok; ++i) {
      if (leader(i) != root)
        continue;
      const Slot &s = slots[i];
      if (s.access) {
        batch.accesses.push_back({static_cast<Operation *>(s.key), s.dim});
        continue;
      }
      Value v = Value::getFromOpaquePointer(s.key);
      if (!isa<TileType>(v.getType()))
        continue; // A tensor's dimension: its accesses are the members.
      TileDim extent = shapeOf(v)[s.dim];
      ok &= extent.isConcrete() && extent.getConcrete() > 1 &&
            (batch.extent == 0 || batch.extent == extent.getConcrete());
      batch.extent = extent.getConcrete();
      // Every user of the value is in the statement.
      ok &= llvm::all_of(v.getUsers(),
                         [&](Operation *user) { return ops.contains(user); });
      batch.values.push_back({v, s.dim});
    }
    if (!ok || batch.accesses.empty())
      continue;
    // One dimension per access; every store carries the class. (Every
    // access of a tensor falls in the class at the same dimension: their
    // slots are joined through the tensor's.)
    llvm::SmallPtrSet<Operation *, 16> accessOps;
    for (auto [op, d] : batch.accesses)
      ok &= accessOps.insert(op).second;
    ok &= llvm::all_of(stores, [&](StoreOp s) {
      return accessOps.contains(s.getOperation());
    });
    if (ok)
      batches.push_back(std::move(batch));
  }
  return batches;
}

/// A variable name not yet declared in `program`.
static std::string freshName(ProgramOp program, unsigned &counter) {
  llvm::StringSet<> names;
  for (auto var : program.getBodyBlock().getOps<VarOp>())
    names.insert(var.getName());
  std::string name;
  do
    name = "batch" + std::to_string(counter++);
  while (names.contains(name));
  return name;
}

unsigned gpu_lowering::addBatchLoops(ProgramOp program) {
  SmallVector<Value> leaves;
  collectSequenceLeaves(program.getRoot(), leaves);
  Block &block = program.getBodyBlock();
  MLIRContext *ctx = program.getContext();
  unsigned count = 0, counter = 0;
  for (Value leaf : leaves) {
    Value stmt = leaf;
    for (BatchFinder::Batch &batch : BatchFinder(stmt).find()) {
      OpBuilder b(ctx);
      b.setInsertionPointToStart(&block);
      Location loc = stmt.getLoc();
      Value var = VarOp::create(b, loc, VarType::get(ctx),
                                b.getStringAttr(freshName(program, counter)));
      Value step = SizeOp::create(b, loc, int64_t(1));
      Value index = TileIndexOp::create(b, loc, IndexExprType::get(ctx), var);
      for (auto [v, d] : batch.values) {
        auto type = cast<TileType>(v.getType());
        SmallVector<TileDim> shape(type.getShape());
        shape[d] = TileDim::concrete(1);
        v.setType(TileType::get(ctx, shape, type.getElementType()));
      }
      for (auto [op, d] : batch.accesses) {
        unsigned first = isa<LoadOp>(op) ? 1 : 2;
        op->setOperand(first + d, index);
      }
      b.setInsertionPointAfterValue(stmt);
      auto loop = LoopOp::create(b, loc, StmtType::get(ctx), var,
                                 b.getI64IntegerAttr(0),
                                 b.getI64IntegerAttr(batch.extent), step, stmt);
      stmt.replaceAllUsesExcept(loop, loop);
      stmt = loop;
      ++count;
    }
  }
  return count;
}
