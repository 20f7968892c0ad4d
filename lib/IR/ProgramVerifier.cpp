//===- ProgramVerifier.cpp - Whole-program checks of tile.program ---------===//
//
// The checks that need the whole program: loop variables and their scopes,
// the extent of `tile.tile` indices (the step of the loop binding the
// variable), and the symbolic tile sizes a program declares.
//
//===----------------------------------------------------------------------===//

#include "TileDialect/IR/TileOps.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include <map>

using namespace mlir;
using namespace mlir::tileir;

namespace {

/// The iteration space of a loop variable: the loop that first bound it and
/// its range and step.
struct IterationSpace {
  LoopOp loop;
  int64_t start, end;
  TileDim step;

  bool operator==(const IterationSpace &o) const {
    return start == o.start && end == o.end && step == o.step;
  }
};

std::string toString(const IterationSpace &s) {
  return ("[" + llvm::Twine(s.start) + ", " + llvm::Twine(s.end) + ") step " +
          mlir::tileir::toString(s.step))
      .str();
}

/// Walks the statement DAG from the root, tracking which loop variables are
/// bound on the way. A node is visited once per distinct set of bound
/// variables.
class ScopeChecker {
public:
  LogicalResult check(Value root) {
    Context empty;
    return visit(root, empty, /*user=*/nullptr);
  }

private:
  /// The enclosing loops, innermost last.
  using Context = SmallVector<LoopOp, 4>;

  static LoopOp findBinder(const Context &ctx, Value var) {
    for (LoopOp loop : llvm::reverse(ctx))
      if (loop.getVar() == var)
        return loop;
    return {};
  }

  unsigned internContext(const Context &ctx) {
    std::vector<Operation *> key;
    for (LoopOp loop : ctx)
      key.push_back(loop.getVar().getDefiningOp());
    llvm::sort(key);
    key.erase(std::unique(key.begin(), key.end()), key.end());
    return contexts.try_emplace(key, contexts.size()).first->second;
  }

  LogicalResult visit(Value value, Context &ctx, Operation *user) {
    Operation *op = value.getDefiningOp();
    if (!op || !visited.insert({op, internContext(ctx)}).second)
      return success();

    if (auto loop = dyn_cast<LoopOp>(op)) {
      if (LoopOp outer = findBinder(ctx, loop.getVar())) {
        InFlightDiagnostic diag =
            loop.emitOpError("rebinds loop variable '")
            << loop.getVarOp().getName()
            << "', which an enclosing loop already binds";
        diag.attachNote(outer.getLoc()) << "enclosing loop";
        return diag;
      }
      ctx.push_back(loop);
      LogicalResult result = visit(loop.getBody(), ctx, loop);
      ctx.pop_back();
      return result;
    }
    if (isa<TileIndexOp, ElemIndexOp>(op)) {
      Value var = op->getOperand(0);
      if (!findBinder(ctx, var)) {
        InFlightDiagnostic diag =
            op->emitOpError("uses loop variable '")
            << var.getDefiningOp<VarOp>().getName()
            << "' outside of any loop that binds it";
        if (user)
          diag.attachNote(user->getLoc()) << "used here";
        return diag;
      }
      return success();
    }
    for (Value operand : op->getOperands())
      if (failed(visit(operand, ctx, op)))
        return failure();
    return success();
  }

  std::map<std::vector<Operation *>, unsigned> contexts;
  llvm::DenseSet<std::pair<Operation *, unsigned>> visited;
};

} // namespace

/// Checks the dimensions indexed by `tile.tile`: their extent is the step of
/// the loop binding the variable, and that loop's range must fit the tensor.
static LogicalResult
verifyTileIndices(Operation *op, Value tensor, ValueRange indices,
                  TileType tile,
                  const llvm::DenseMap<Value, IterationSpace> &spaces) {
  auto program = op->getParentOfType<ProgramOp>();
  auto tensorType = cast<TensorRefType>(tensor.getType());
  for (auto [dim, index] : llvm::enumerate(indices)) {
    Operation *def = index.getDefiningOp();
    if (!isa_and_nonnull<TileIndexOp, ElemIndexOp>(def))
      continue;
    auto it = spaces.find(def->getOperand(0));
    if (it == spaces.end())
      continue; // Reported by the scope check.
    const IterationSpace &space = it->second;
    int64_t extent = tensorType.getShape()[dim];
    LoopOp loop = space.loop;
    StringRef var = loop.getVarOp().getName();
    if (isa<ElemIndexOp>(def)) {
      if (!space.step.isConcrete())
        continue;
      int64_t last = (space.end - space.step.coeff) / space.step.coeff;
      if (last >= extent)
        return op->emitOpError("element index of '")
               << var << "' reaches " << last << " in dimension " << dim
               << " of tensor '" << program.getTensorName(tensor)
               << "' of extent " << extent;
      continue;
    }
    if (space.end > extent)
      return op->emitOpError("tile of '")
             << var << "' over " << toString(space) << " overruns dimension " << dim
             << " of tensor '" << program.getTensorName(tensor)
             << "' of extent " << extent;
    if (tile.getShape()[dim] != space.step)
      return op->emitOpError("tile ")
             << toString(tile.getShape())
             << " does not match the indexed region: dimension " << dim
             << " has extent " << toString(tile.getShape()[dim])
             << " but the tile of '" << var << "' has extent "
             << toString(space.step);
  }
  return success();
}

/// Checks that every symbolic extent of a tile type names a tile size.
static LogicalResult
verifyTileSymbols(Operation *op, Type type,
                  const llvm::DenseSet<StringAttr> &symbols) {
  auto tile = dyn_cast<TileType>(type);
  if (!tile)
    return success();
  for (const TileDim &dim : tile.getShape())
    if (!dim.isConcrete() && !symbols.contains(dim.sym))
      return op->emitOpError("uses tile extent '")
             << dim.sym.getValue()
             << "', which is not a tile size of the program (declare it "
                "with tile.size \""
             << dim.sym.getValue() << "\")";
  return success();
}

LogicalResult ProgramOp::verifyRegions() {
  Block &block = getBodyBlock();
  llvm::DenseMap<StringAttr, VarOp> varsByName;
  llvm::DenseSet<StringAttr> symbols;
  for (Operation &op : block) {
    if (auto var = dyn_cast<VarOp>(op)) {
      auto [it, inserted] = varsByName.try_emplace(var.getNameAttr(), var);
      if (!inserted) {
        InFlightDiagnostic diag = var.emitOpError("declares loop variable '")
                                  << var.getName() << "' twice";
        diag.attachNote(it->second.getLoc()) << "previous declaration";
        return diag;
      }
    } else if (auto size = dyn_cast<SizeOp>(op)) {
      if (auto sym = dyn_cast<StringAttr>(size.getValue()))
        symbols.insert(sym);
    }
  }

  llvm::DenseMap<Value, IterationSpace> spaces;
  for (auto loop : block.getOps<LoopOp>()) {
    IterationSpace space{loop, loop.getStartIndex(), loop.getEndIndex(),
                         *loop.getStepDim()};
    auto [it, inserted] = spaces.try_emplace(loop.getVar(), space);
    if (!inserted && !(it->second == space)) {
      InFlightDiagnostic diag = loop.emitOpError("binds loop variable '")
                                << loop.getVarOp().getName() << "' to "
                                << toString(space)
                                << ", but another loop binds it to "
                                << toString(it->second);
      diag.attachNote(it->second.loop.getLoc()) << "other loop";
      return diag;
    }
  }

  for (Operation &op : block) {
    for (Type type : op.getResultTypes())
      if (failed(verifyTileSymbols(&op, type, symbols)))
        return failure();
    if (auto load = dyn_cast<LoadOp>(op)) {
      if (failed(verifyTileIndices(load, load.getTensor(), load.getIndices(),
                                   load.getResult().getType(), spaces)))
        return failure();
    } else if (auto store = dyn_cast<StoreOp>(op)) {
      if (failed(verifyTileIndices(store, store.getTensor(),
                                   store.getIndices(),
                                   store.getValue().getType(), spaces)))
        return failure();
    }
  }

  Value root = getRoot();
  if (!root)
    return emitOpError("must end with tile.yield of its root statement");
  return ScopeChecker().check(root);
}
