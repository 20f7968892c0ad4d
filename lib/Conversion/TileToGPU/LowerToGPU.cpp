//===- LowerToGPU.cpp - Tile programs to GPU kernels and a launch sequence ===//
//
// The `--tile-lower-to-gpu` pass: resolves each program with the
// interpreter's plan builder (tile sizes bound, shapes concrete, accesses
// checked in bounds), partitions it into kernels (Partition.cpp), emits each
// kernel (KernelEmitter.cpp) and a host function that launches them in order.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"
#include "Partition.h"

#include "TileDialect/Conversion/Passes.h"
#include "TileDialect/Conversion/TileToGPU/Strategy.h"
#include "TileDialect/Interpreter/TileInterpreter.h"
#include "TileDialect/Support/ElementKindOf.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::tileir {
#define GEN_PASS_DEF_TILELOWERTOGPU
#include "TileDialect/Conversion/Passes.h.inc"
} // namespace mlir::tileir

using namespace mlir;
using namespace mlir::tileir;

void tileir::alignWorkgroupBuffers(Operation *kernel) {
  auto func = cast<gpu::GPUFuncOp>(kernel);
  Builder b(func.getContext());
  for (unsigned i = 0, e = func.getNumWorkgroupAttributions(); i < e; ++i)
    func.setWorkgroupAttributionAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                                     b.getI64IntegerAttr(16));
}

using namespace mlir::tileir::gpu_lowering;

/// (Row tile, key tile) pairs of an online warp loop up to which its key
/// tile is 32 rather than 64 (see the size search).
static constexpr int64_t kFewWarpLoopPairs = 512;

/// The iterations of `kernel`'s warp loop over all its blocks: its grid
/// points (row tiles) times the loop's trips, however the loop is split.
static int64_t warpLoopIterations(const interp::Plan &plan,
                                  const Kernel &kernel) {
  const interp::StmtNode &loop = plan.stmts[kernel.warpLoop->loop];
  return kernel.numBlocks / kernel.splitChunks *
         ((loop.end - loop.start) / loop.step);
}

/// The tile sizes of `program`: its `tile.tile_sizes` attribute overridden by
/// the configuration's `tile_sizes`, then, with a positive `cap`, the
/// defaults `chooseDefaultTileSizes` picks (under `caps` for the sizes of
/// statements configured apart); every symbolic size the program declares
/// must be bound.
static FailureOr<llvm::StringMap<int64_t>>
resolveTileSizes(ProgramOp program, DictionaryAttr overrides, int64_t cap,
                 const llvm::StringMap<int64_t> &caps,
                 llvm::StringSet<> &defaulted) {
  llvm::StringMap<int64_t> sizes;
  if (Attribute attr = program->getAttr("tile.tile_sizes")) {
    auto dict = dyn_cast<DictionaryAttr>(attr);
    if (!dict)
      return program.emitOpError(
          "'tile.tile_sizes' must be a dictionary of integers");
    for (NamedAttribute entry : dict) {
      auto value = dyn_cast<IntegerAttr>(entry.getValue());
      if (!value || value.getInt() <= 0)
        return program.emitOpError("'tile.tile_sizes' entry '")
               << entry.getName().getValue() << "' must be a positive integer";
      sizes[entry.getName().getValue()] = value.getInt();
    }
  }
  for (NamedAttribute size : overrides)
    sizes[size.getName().getValue()] =
        cast<IntegerAttr>(size.getValue()).getValue().getSExtValue();
  if (cap > 0)
    for (const auto &entry : chooseDefaultTileSizes(program, cap, caps))
      if (sizes.try_emplace(entry.getKey(), entry.getValue()).second)
        defaulted.insert(entry.getKey());
  for (auto size : program.getBodyBlock().getOps<SizeOp>()) {
    auto symbol = dyn_cast<StringAttr>(size.getValue());
    if (symbol && !sizes.count(symbol.getValue()))
      return size.emitOpError("tile size '")
             << symbol.getValue()
             << "' has no value: bind it with the configuration's "
                "tile_sizes = {"
             << symbol.getValue()
             << " = N}, the program's tile.tile_sizes attribute or "
                "max_tile_size";
  }
  return sizes;
}

/// The pairs of tensors `tile.may_alias` declares, by argument number.
static SmallVector<std::pair<unsigned, unsigned>>
getAliases(ProgramOp program) {
  SmallVector<std::pair<unsigned, unsigned>> pairs;
  auto attr = program->getAttrOfType<ArrayAttr>("tile.may_alias");
  if (!attr)
    return pairs;
  auto find = [&](Attribute name) {
    StringRef n = cast<StringAttr>(name).getValue();
    for (unsigned i = 0, e = program.getTensorNames().size(); i < e; ++i)
      if (program.getTensorName(i) == n)
        return i;
    return ~0u;
  };
  for (Attribute pair : attr) {
    auto names = cast<ArrayAttr>(pair);
    pairs.push_back({find(names[0]), find(names[1])});
  }
  return pairs;
}

namespace {

/// The top-level statements configured apart (`tile.gpu_config` on a
/// statement's op, `--tile-select-gpu-config`): each one's configuration,
/// the program's overridden by the statement's fields, then by the `config`
/// option's; the statement of each of their statement ops; and the cap of
/// each symbolic size their loops step by (their `max_tile_size`).
struct StatementConfigs {
  SmallVector<GPUConfigAttr> configs;
  llvm::DenseMap<Operation *, unsigned> statementOf;
  llvm::StringMap<int64_t> caps;
};

} // namespace

static FailureOr<StatementConfigs>
getStatementConfigs(ProgramOp program, GPUConfigAttr programConfig,
                    StringRef optionText) {
  StatementConfigs result;
  llvm::StringSet<> conflicting;
  for (OpOperand *use : getTopLevelStatements(program)) {
    Operation *op = use->get().getDefiningOp();
    if (!op || !op->hasAttr(kGPUConfigAttrName))
      continue;
    // The statement's fields, then the option's, over the program's (which
    // already has the option's).
    FailureOr<GPUConfigAttr> own = resolveGPUConfig(op, optionText);
    if (failed(own))
      return failure();
    GPUConfigAttr config = programConfig.overriddenBy(*own);
    unsigned index = result.configs.size();
    result.configs.push_back(config);
    for (Operation *inner : getStatementOps(use->get())) {
      if (isa<LoopOp, StoreOp, SeqOp>(inner))
        result.statementOf.try_emplace(inner, index);
      auto loop = dyn_cast<LoopOp>(inner);
      std::optional<TileDim> step = loop ? loop.getStepDim() : std::nullopt;
      if (!step || step->isConcrete())
        continue;
      // A size shared with statements of other caps keeps the program's.
      auto [it, inserted] =
          result.caps.try_emplace(step->sym.getValue(), config.getMaxTileSize());
      if (!inserted && it->second != config.getMaxTileSize())
        conflicting.insert(step->sym.getValue());
    }
  }
  for (const auto &symbol : conflicting)
    result.caps.erase(symbol.getKey());
  for (auto size : program.getBodyBlock().getOps<SizeOp>())
    if (auto symbol = dyn_cast<StringAttr>(size.getValue()))
      if (result.caps.count(symbol.getValue()))
        for (Operation *user : size->getUsers())
          if (auto loop = dyn_cast<LoopOp>(user);
              loop && !result.statementOf.count(loop))
            result.caps.erase(symbol.getValue());
  return result;
}

namespace {

struct TileLowerToGPUPass
    : public tileir::impl::TileLowerToGPUBase<TileLowerToGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<ProgramOp> programs(module.getOps<ProgramOp>());
    for (ProgramOp program : programs)
      if (failed(lower(program)))
        return signalPassFailure();
    if (!programs.empty())
      module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                      UnitAttr::get(&getContext()));
  }

  LogicalResult lower(ProgramOp program);
};

} // namespace

LogicalResult TileLowerToGPUPass::lower(ProgramOp program) {
  MLIRContext *ctx = &getContext();
  Location loc = program.getLoc();
  FailureOr<GPUConfigAttr> resolved = resolveGPUConfig(program, config);
  if (failed(resolved))
    return failure();
  GPUConfigAttr c = *resolved;
  const bool mma = c.getMma(), warpLoops = c.getWarpLoops();

  FailureOr<StatementConfigs> statements =
      getStatementConfigs(program, c, config);
  if (failed(statements))
    return failure();
  llvm::StringSet<> defaulted;
  FailureOr<llvm::StringMap<int64_t>> sizes =
      resolveTileSizes(program, c.getTileSizes(), c.getMaxTileSize(),
                       statements->caps, defaulted);
  if (failed(sizes))
    return failure();
  SmallVector<std::pair<unsigned, unsigned>> aliases = getAliases(program);
  // Sizes that must not change after this point (privatized copies are
  // counted under them).
  llvm::StringSet<> pinned;
  if (c.getBatchLoops())
    addBatchLoops(program);
  if (c.getPrivatize())
    numPrivatized += privatizeTensors(program, *sizes, aliases, pinned);

  // Tensors: element kinds GPU kernels can hold.
  Block &body = program.getBodyBlock();
  SmallVector<ElementKind> kinds;
  SmallVector<TensorRole> roles;
  SmallVector<int64_t> numElements;
  SmallVector<Type> memrefTypes;
  for (BlockArgument arg : body.getArguments()) {
    auto type = cast<TensorRefType>(arg.getType());
    std::optional<ElementKind> kind = elementKindOf(type.getElementType());
    Type storage = kind ? getStorageType(ctx, *kind) : Type();
    if (!storage)
      return program.emitOpError("tensor '")
             << program.getTensorName(arg.getArgNumber()) << "' of type "
             << type.getElementType()
             << " cannot be lowered to GPU kernels (f16, bf16, f32 and i1 "
                "are supported)";
    kinds.push_back(*kind);
    roles.push_back(type.getRole());
    numElements.push_back(HostTensor::numElements(
        std::vector<int64_t>(type.getShape().begin(), type.getShape().end())));
    memrefTypes.push_back(
        MemRefType::get({std::max<int64_t>(1, numElements.back())}, storage));
  }

  // The options a configuration partitions its statements with.
  auto makeOptions = [&](GPUConfigAttr from) {
    PartitionOptions o;
    o.sharedMemoryBytes = from.getSharedMemory();
    o.blockSize = from.getBlockSize();
    o.elementLoops = from.getElementLoops();
    o.splitK = from.getSplitK();
    o.minBlocks = from.getMinBlocks();
    o.threadElements = from.getThreadElements();
    o.kSlices = from.getKSlices();
    o.reduceLanes = from.getReduceLanes();
    o.groupReductions = from.getGroupReductions();
    o.fissionBlocks = from.getFissionBlocks();
    o.mma = from.getMma();
    o.warpLoops = from.getWarpLoops();
    o.blockMatmul = from.getBlockMatmul();
    o.tf32 = from.getTf32();
    o.vectorAtomics = from.getVectorAtomics();
    o.tensorKinds = kinds;
    o.tensorRoles = roles;
    o.tensorElements = numElements;
    return o;
  };
  PartitionOptions partitionOptions = makeOptions(c);
  SmallVector<PartitionOptions> statementOptions =
      llvm::map_to_vector(statements->configs, makeOptions);
  auto optionsFor = [&](Operation *op) -> const PartitionOptions * {
    auto it = statements->statementOf.find(op);
    return it == statements->statementOf.end() ? nullptr
                                               : &statementOptions[it->second];
  };
  TileInterpreterOptions planOptions;
  planOptions.precision = Precision::F32;
  planOptions.tileSizes = *sizes;
  planOptions.allocateBuffers = false;
  SmallVector<bool> startsZero = llvm::map_to_vector(roles, [](TensorRole r) {
    return r == TensorRole::Intermediate || r == TensorRole::Output;
  });
  // The plan under the current sizes, with what they make trivial folded.
  gpu_lowering::PlanFolds folds;
  auto makePlan = [&]() -> FailureOr<interp::Plan> {
    FailureOr<interp::Plan> built = interp::buildPlan(program, planOptions);
    if (succeeded(built))
      folds = gpu_lowering::foldPlan(*built, startsZero, aliases);
    return built;
  };
  FailureOr<interp::Plan> plan = makePlan();
  if (failed(plan))
    return failure();
  std::vector<Kernel> kernels =
      partitionPlan(*plan, aliases, partitionOptions, optionsFor);
  // A defaulted size whose loops all span one range R takes R when that
  // makes more kernels warp loops: one trip, the loop folds
  // (`foldPlan`), and an accumulation of a per-iteration tile becomes the
  // plain store a warp loop starts with (FlashAttention's scores over the
  // head dimension, `loop i4 { S += Q Kc^T }`). Such sizes are not halved
  // below.
  llvm::StringSet<> whole;
  // A size the warp-loop searches below may change: defaulted, neither
  // pinned nor already made whole.
  auto adjustable = [&](StringRef symbol) {
    return defaulted.contains(symbol) && !pinned.contains(symbol) &&
           !whole.contains(symbol);
  };
  // The warp loops, each counted by the share of the matrix units' 16 rows
  // its tiles fill: halving a defaulted 16-row tile to 8 keeps a warp loop
  // (its rows repeated) but wastes half of it.
  auto warpLoopFill = [](ArrayRef<Kernel> ks) {
    double fill = 0;
    for (const Kernel &k : ks)
      if (k.warpLoop)
        fill += double(k.warpLoop->rows) / 16;
    return fill;
  };
  // The plan and kernels under the current `sizes`.
  auto rebind = [&]() -> LogicalResult {
    planOptions.tileSizes = *sizes;
    plan = makePlan();
    if (failed(plan))
      return failure();
    kernels = partitionPlan(*plan, aliases, partitionOptions, optionsFor);
    return success();
  };
  auto widen = [&]() -> LogicalResult {
    if (!mma || !warpLoops)
      return success();
    llvm::StringMap<int64_t> ranges; // -1: loops of different ranges.
    for (auto loop : body.getOps<LoopOp>()) {
      std::optional<TileDim> step = loop.getStepDim();
      if (!step || step->isConcrete() || !adjustable(step->sym.getValue()))
        continue;
      int64_t range = loop.getEndIndex() - loop.getStartIndex();
      auto [it, inserted] = ranges.try_emplace(step->sym.getValue(), range);
      if (!inserted && it->second != range)
        it->second = -1;
    }
    llvm::SmallVector<StringRef> names(ranges.keys());
    llvm::sort(names);
    for (StringRef name : names) {
      int64_t range = ranges.lookup(name), before = sizes->lookup(name);
      if (range <= before)
        continue;
      auto fillBefore = warpLoopFill(kernels);
      (*sizes)[name] = range;
      {
        // A size the plan refuses is only not taken.
        ScopedDiagnosticHandler quiet(ctx,
                                      [](Diagnostic &) { return success(); });
        if (succeeded(rebind()) && warpLoopFill(kernels) > fillBefore) {
          whole.insert(name);
          continue;
        }
      }
      (*sizes)[name] = before;
      if (failed(rebind()))
        return failure();
    }
    return success();
  };
  if (failed(widen()))
    return failure();
  // Defaulted sizes shrink until every kernel with work per block beyond
  // one tile (a loop below its grid) fills `min_blocks` blocks: halve the
  // largest defaulted size stepping a grid loop of the kernel with the
  // fewest blocks, while that helps. A kernel that stores one tile per
  // block is not a reason to shrink the tiles that other kernels share
  // (only its own).
  // Sizes stepping the grid of a split accumulation are kept: splitting
  // gave that kernel its blocks, and smaller tiles would make it read its
  // operands more often (but for batch dimensions, which every operand
  // moves with, and for k lanes short of a cache line, `kLanesShort`).
  // So are those of a block matmul, split or not: its tiles shrunk below
  // 64 x 64 are no block matmul.
  // The symbolic size a grid loop steps by, if any.
  auto sizeSymbol = [&](const GridLoop &g) -> StringAttr {
    auto size = cast<LoopOp>(plan->stmts[g.stmt].op)
                    .getStep()
                    .getDefiningOp<SizeOp>();
    return size ? dyn_cast<StringAttr>(size.getValue()) : nullptr;
  };
  while (true) {
    std::optional<std::string> shrink;
    int64_t fewest = std::numeric_limits<int64_t>::max();
    llvm::StringSet<> kept = whole;
    for (const auto &symbol : pinned)
      kept.insert(symbol.getKey());
    for (const Kernel &kernel : kernels) {
      // (A matmul whose k lanes a smaller tile of outputs would widen
      // re-reads only its few rows of A: its tiles may shrink.)
      if ((kernel.splitChunks == 1 && !kernel.blockMatmul) ||
          kernel.kLanesShort)
        continue;
      // A batch dimension (every load moves with it: attention's heads)
      // re-reads nothing when its tiles shrink. Positions (linalg.index) are
      // not data worth keeping: a causal mask's key positions, read in
      // every head, do not keep the heads' tiles whole.
      SmallVector<const interp::Access *> writes, reads;
      collectAccesses(*plan, kernel.body, writes, reads);
      for (const GridLoop &g : kernel.grid)
        if (StringAttr symbol = sizeSymbol(g))
          if (!llvm::all_of(reads, [&](const interp::Access *read) {
                return roles[read->tensor] == TensorRole::Positions ||
                       movesWithLoop(*read, g.var);
              }))
            kept.insert(symbol.getValue());
    }
    // The kernels each size steps loops of (grid loops or loops below).
    llvm::StringMap<unsigned> sizeUses;
    for (const Kernel &kernel : kernels) {
      llvm::StringSet<> used;
      auto use = [&](unsigned stmt) {
        auto loop = dyn_cast_or_null<LoopOp>(plan->stmts[stmt].op);
        if (!loop)
          return;
        if (auto size = loop.getStep().getDefiningOp<SizeOp>())
          if (auto symbol = dyn_cast<StringAttr>(size.getValue()))
            used.insert(symbol.getValue());
      };
      for (const GridLoop &g : kernel.grid)
        use(g.stmt);
      SmallVector<unsigned> stack{kernel.body};
      while (!stack.empty()) {
        const interp::StmtNode &stmt = plan->stmts[stack.pop_back_val()];
        if (stmt.kind == interp::StmtNode::Kind::Loop) {
          use(unsigned(&stmt - plan->stmts.data()));
          stack.push_back(stmt.first);
        } else if (stmt.kind == interp::StmtNode::Kind::Seq) {
          stack.push_back(stmt.first);
          stack.push_back(stmt.second);
        }
      }
      for (const auto &symbol : used)
        ++sizeUses[symbol.getKey()];
    }
    for (const Kernel &kernel : kernels) {
      if (kernel.numBlocks >= fewest || kernel.numBlocks >= kernel.minBlocks)
        continue;
      // A kernel storing one tile per block shrinks only sizes of its own,
      // and only when it reduces rows (a statement configured apart: a
      // softmax's max over 1024 keys, 32 rows in one block, took 26 us on
      // the H200, 6.6 us on 32 blocks; an elementwise tile split finer only
      // gets smaller blocks).
      bool storesTile =
          plan->stmts[kernel.body].kind == interp::StmtNode::Kind::Store;
      if (storesTile && !storesReduction(*plan, kernel.body))
        continue;
      std::optional<std::string> pick;
      int64_t largest = 1;
      auto consider = [&](const GridLoop &g) {
        StringAttr symbol = sizeSymbol(g);
        if (!symbol || !defaulted.contains(symbol.getValue()) ||
            kept.contains(symbol.getValue()) ||
            (storesTile && sizeUses.lookup(symbol.getValue()) > 1))
          return;
        int64_t value = sizes->lookup(symbol.getValue());
        if (value > largest) {
          largest = value;
          pick = symbol.getValue().str();
        }
      };
      for (const GridLoop &g : kernel.grid)
        consider(g);
      for (const KernelPart &part : kernel.parts)
        if (part.loop)
          consider(*part.loop);
      if (pick) {
        fewest = kernel.numBlocks;
        shrink = pick;
      }
    }
    if (!shrink)
      break;
    auto fillBefore = warpLoopFill(kernels);
    (*sizes)[*shrink] /= 2;
    if (failed(rebind()))
      return failure();
    // Blocks are not worth a warp loop (the head dimension of the scores
    // also steps the grid of another kernel): the size stays.
    if (warpLoopFill(kernels) < fillBefore) {
      (*sizes)[*shrink] *= 2;
      if (failed(rebind()))
        return failure();
      whole.insert(*shrink);
      continue;
    }
    // Smaller tiles may be what a warp loop needs to form (16 query rows of
    // FlashAttention's scores, whose head dimension can then be whole).
    if (failed(widen()))
      return failure();
  }
  // A kernel with blocks enough may still lack the 16 rows a warp loop
  // takes (FlashAttention's query tile): a defaulted size of its grid
  // halved towards 16, with the sizes `widen` then makes whole, is kept
  // when that makes more warp loops (the 2K causal prefill's 32-row tiles
  // ran as block-level code).
  if (mma && warpLoops) {
    std::vector<std::string> names;
    for (const Kernel &kernel : kernels)
      if (!kernel.warpLoop)
        for (const GridLoop &g : kernel.grid)
          if (StringAttr symbol = sizeSymbol(g))
            if (adjustable(symbol.getValue()))
              names.push_back(symbol.getValue().str());
    llvm::sort(names);
    names.erase(llvm::unique(names), names.end());
    for (const std::string &name : names) {
      llvm::StringMap<int64_t> sizesBefore = *sizes;
      llvm::StringSet<> wholeBefore = whole;
      auto fillBefore = warpLoopFill(kernels);
      bool better = false;
      for (int64_t size = sizesBefore.lookup(name) / 2; size >= 16 && !better;
           size /= 2) {
        *sizes = sizesBefore;
        whole = wholeBefore;
        (*sizes)[name] = size;
        ScopedDiagnosticHandler quiet(ctx,
                                      [](Diagnostic &) { return success(); });
        better = succeeded(rebind()) && succeeded(widen()) &&
                 warpLoopFill(kernels) > fillBefore;
      }
      if (better) {
        whole.insert(name);
        continue;
      }
      *sizes = sizesBefore;
      whole = wholeBefore;
      if (failed(rebind()))
        return failure();
    }
  }
  // An online warp loop with few (row tile, key tile) pairs to spread
  // over the warps is bound by one warp's chain of dependent instructions
  // (one iteration: the scores, the softmax, P.V and the merges), not by
  // its loads: halving its key tile from 64 halves the chain and doubles
  // the warps. On the H200 (bench/results/h200-2026-11-29-key-tiles.md)
  // 1-token decodes of 128 / 256 / 512 pairs ran 9% / 4% / 4% faster at 32
  // keys; those of 2048 and 4096 pairs 15-28% slower.
  std::optional<std::string> keyTile;
  for (const Kernel &kernel : kernels) {
    if (!mma || !warpLoops || !kernel.warpLoop || !kernel.warpLoop->online)
      continue;
    auto loop =
        dyn_cast_or_null<LoopOp>(plan->stmts[kernel.warpLoop->loop].op);
    std::optional<TileDim> step = loop ? loop.getStepDim() : std::nullopt;
    if (!step || step->isConcrete() || !adjustable(step->sym.getValue()) ||
        sizes->lookup(step->sym.getValue()) != 64)
      continue;
    if (warpLoopIterations(*plan, kernel) <= kFewWarpLoopPairs)
      keyTile = step->sym.getValue().str();
  }
  if (keyTile) {
    auto fillBefore = warpLoopFill(kernels);
    (*sizes)[*keyTile] = 32;
    bool kept = false;
    {
      ScopedDiagnosticHandler quiet(ctx,
                                    [](Diagnostic &) { return success(); });
      kept = succeeded(rebind()) && warpLoopFill(kernels) >= fillBefore;
    }
    if (!kept) {
      (*sizes)[*keyTile] = 64;
      if (failed(rebind()))
        return failure();
    }
  }
  for (const interp::ExprNode &node : plan->exprs)
    if (node.elementKind == ElementKind::F64)
      return node.op->emitOpError(
          "has f64 tiles, which GPU kernels do not support");

  // Tensors that nothing must clear: found before copies are elided, when
  // every tensor still has its own first writer.
  SmallVector<ArrayRef<int64_t>> shapes =
      llvm::map_to_vector(body.getArguments(), [](BlockArgument arg) {
        return cast<TensorRefType>(arg.getType()).getShape();
      });
  numFoldedLoops += folds.loops;
  numStoredAccumulations += folds.accumulations;
  gpu_lowering::markZeroAccumulators(*plan, kernels, startsZero, aliases);
  llvm::BitVector overwritten =
      gpu_lowering::findOverwrittenTensors(*plan, kernels, shapes, aliases);
  // Copies between tensors of one layout that can share a buffer.
  auto bufferOf =
      llvm::to_vector(llvm::seq<unsigned>(0, body.getNumArguments()));
  if (c.getElideCopies()) {
    size_t before = kernels.size();
    bufferOf = gpu_lowering::elideCopies(*plan, kernels, roles, kinds,
                                         numElements, aliases);
    numElidedCopies += before - kernels.size();
  }
  gpu_lowering::planPrefetches(*plan, kernels, kinds, c.getPrefetchBytes());
  int64_t counterElements = 0;
  if (c.getSplitEpilogues() > 0) {
    size_t before = kernels.size();
    counterElements = gpu_lowering::fuseSplitEpilogues(
        *plan, kernels, aliases, c.getSplitEpilogues());
    numSplitEpilogues += before - kernels.size();
  }
  // Online warp loops split across blocks count their blocks per grid
  // point.
  for (Kernel &kernel : kernels)
    if (kernel.splitsOnline()) {
      kernel.warpLoop->online->counters = counterElements;
      counterElements += kernel.numBlocks / kernel.splitChunks;
    }

  int64_t scratchElements = 0;
  for (const Kernel &kernel : kernels) {
    if (kernel.numBlocks > std::numeric_limits<int32_t>::max())
      return program.emitOpError("kernel ")
             << (&kernel - kernels.data()) << " needs " << kernel.numBlocks
             << " blocks, more than one grid dimension holds";
    scratchElements =
        std::max(scratchElements, kernel.numBlocks * kernel.scratchElements);
  }
  auto scratchType = MemRefType::get({std::max<int64_t>(1, scratchElements)},
                                     Float32Type::get(ctx));

  // The host function: one memref per tensor, then the scratch.
  OpBuilder b(program);
  StringRef name = program.getSymName();
  // The host function takes the program's name (a symbol no other op has);
  // the kernels' module must not clash either.
  std::string kernelsName = (name + "_kernels").str();
  if (SymbolTable::lookupSymbolIn(program->getParentOfType<ModuleOp>(),
                                  kernelsName))
    return program.emitOpError("cannot be lowered: the module already "
                               "defines '")
           << kernelsName << "', the name of its kernels' gpu.module";
  auto countersType = MemRefType::get({counterElements}, Float32Type::get(ctx));
  SmallVector<Type> hostArgs(memrefTypes);
  if (scratchElements)
    hostArgs.push_back(scratchType);
  if (counterElements)
    hostArgs.push_back(countersType);
  auto host =
      func::FuncOp::create(b, loc, name, b.getFunctionType(hostArgs, {}));
  for (BlockArgument arg : body.getArguments()) {
    auto type = cast<TensorRefType>(arg.getType());
    unsigned i = arg.getArgNumber();
    host.setArgAttr(i, "tile.name", b.getStringAttr(program.getTensorName(i)));
    host.setArgAttr(i, "tile.role",
                    b.getStringAttr(stringifyTensorRole(type.getRole())));
    host.setArgAttr(i, "tile.shape", b.getDenseI64ArrayAttr(type.getShape()));
  }
  // A buffer is overwritten when every tensor using it is.
  llvm::BitVector bufferOverwritten(bufferOf.size(), true);
  for (auto [tensor, buffer] : llvm::enumerate(bufferOf))
    if (!overwritten.test(tensor))
      bufferOverwritten.reset(buffer);
  for (unsigned buffer : bufferOverwritten.set_bits())
    host.setArgAttr(buffer, "tile.overwritten", b.getUnitAttr());
  if (scratchElements) {
    unsigned arg = memrefTypes.size();
    host.setArgAttr(arg, "tile.name", b.getStringAttr("__scratch"));
    host.setArgAttr(arg, "tile.role", b.getStringAttr("scratch"));
  }
  if (counterElements) {
    // Cleared once before the first call; each epilogue clears its counter.
    unsigned arg = hostArgs.size() - 1;
    host.setArgAttr(arg, "tile.name", b.getStringAttr("__counters"));
    host.setArgAttr(arg, "tile.role", b.getStringAttr("scratch"));
    host.setArgAttr(arg, "tile.zero", b.getStringAttr("restored"));
    host.setArgAttr(arg, "tile.counters", b.getUnitAttr());
  }
  if (Attribute results = program->getAttr("tile.results"))
    host->setAttr("tile.results", results);
  SmallVector<NamedAttribute> sizeAttrs;
  for (const auto &entry : *sizes)
    sizeAttrs.push_back(
        b.getNamedAttr(entry.getKey(), b.getI64IntegerAttr(entry.getValue())));
  host->setAttr("tile.tile_sizes", b.getDictionaryAttr(sizeAttrs));
  // The configuration the kernels were lowered with, their tile sizes
  // included, for the passes after this one and for tuning entries.
  GPUConfigAttr lowered = c;
  for (const auto &entry : *sizes)
    lowered = lowered.withTileSize(entry.getKey(), entry.getValue());
  host->setAttr(kGPUConfigAttrName, lowered);
  // The buffers that may overlap, for passes that reorder launches.
  if (!aliases.empty()) {
    SmallVector<Attribute> pairs;
    for (auto [x, y] : aliases)
      if (x < bufferOf.size() && y < bufferOf.size())
        pairs.push_back(b.getDenseI64ArrayAttr(
            {int64_t(bufferOf[x]), int64_t(bufferOf[y])}));
    host->setAttr("tile.may_alias", b.getArrayAttr(pairs));
  }
  Block *entry = host.addEntryBlock();

  // The kernels.
  auto gpuModule = gpu::GPUModuleOp::create(b, loc, kernelsName);
  gpuModule->setAttr(kGPUConfigAttrName, lowered);
  OpBuilder kb = OpBuilder::atBlockBegin(gpuModule.getBody());
  OpBuilder hb = OpBuilder::atBlockBegin(entry);
  auto indexConstant = [&](int64_t v) {
    return arith::ConstantIndexOp::create(hb, loc, v).getResult();
  };
  Value one = indexConstant(1);
  // Each kernel names its top-level statement (the cost model's estimate
  // as lowered reads it).
  SmallVector<unsigned> topLevel;
  collectSequence(*plan, plan->root, topLevel);
  llvm::DenseMap<unsigned, int64_t> topLevelIndex;
  for (auto [i, id] : llvm::enumerate(topLevel))
    topLevelIndex[id] = i;
  llvm::BitVector usedBuffers(entry->getNumArguments());
  for (auto [k, kernel] : llvm::enumerate(kernels)) {
    SmallVector<Type> argTypes;
    SmallVector<Value> operands;
    for (unsigned tensor : kernel.tensors) {
      argTypes.push_back(memrefTypes[tensor]);
      operands.push_back(entry->getArgument(bufferOf[tensor]));
    }
    if (kernel.scratchElements) {
      argTypes.push_back(scratchType);
      operands.push_back(entry->getArgument(memrefTypes.size()));
    }
    if (kernel.usesCounters()) {
      argTypes.push_back(countersType);
      operands.push_back(entry->getArguments().back());
    }
    SmallVector<Type> workgroup;
    if (kernel.sharedElements)
      workgroup.push_back(MemRefType::get(
          {kernel.sharedElements}, Float32Type::get(ctx), AffineMap(),
          gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup)));
    if (kernel.sharedHalfElements && !kernel.dynamicSharedHalf)
      workgroup.push_back(MemRefType::get(
          {kernel.sharedHalfElements}, Float16Type::get(ctx), AffineMap(),
          gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup)));
    auto func = gpu::GPUFuncOp::create(kb, loc, (name + "_k" + Twine(k)).str(),
                                       kb.getFunctionType(argTypes, {}),
                                       workgroup, TypeRange());
    func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), kb.getUnitAttr());
    alignWorkgroupBuffers(func);
    func.setKnownBlockSizeAttr(
        kb.getDenseI32ArrayAttr({int32_t(kernel.threads), 1, 1}));
    if (auto it = topLevelIndex.find(kernel.stmt); it != topLevelIndex.end())
      func->setAttr(kStatementAttrName, kb.getI64IntegerAttr(it->second));
    if (kernel.warpLoop)
      func->setAttr(kWarpLoopAttrName,
                    kb.getDenseI64ArrayAttr({int64_t(kernel.warpLoop->warps),
                                             warpLoopIterations(*plan,
                                                                kernel)}));
    // A statement configured apart may pipeline its loads otherwise than
    // the program (`--tile-pipeline-loads` reads this per kernel).
    if (auto it = statements->statementOf.find(plan->stmts[kernel.stmt].op);
        it != statements->statementOf.end()) {
      unsigned own = statements->configs[it->second].getPipelineLoads();
      if (own != c.getPipelineLoads())
        func->setAttr(kPipelineLoadsAttrName, kb.getI64IntegerAttr(own));
    }
    // Producers of one epilogue may run in one grid (MergeKernels).
    if (kernel.epilogue)
      func->setAttr("tile.epilogue",
                    kb.getI64IntegerAttr(kernel.epilogueCounters));
    if (failed(emitKernelBody(*plan, kernel, kinds, roles, func)))
      return failure();
    gpu::LaunchFuncOp::create(
        hb, loc, func,
        gpu::KernelDim3{indexConstant(kernel.numBlocks), one, one},
        gpu::KernelDim3{indexConstant(kernel.threads), one, one},
        /*dynamicSharedMemorySize=*/
        kernel.dynamicSharedHalf
            ? arith::ConstantIntOp::create(hb, loc, hb.getI32Type(),
                                           kernel.sharedHalfElements * 2)
                  .getResult()
            : Value(),
        operands);
    ++numKernels;
    numGridLoops += kernel.grid.size() +
                    (kernel.parts.front().loop ? kernel.parts.size() : 0);
    for (auto [arg, operand] : llvm::zip(func.getArguments(), operands))
      if (!arg.use_empty())
        if (auto buffer = dyn_cast<BlockArgument>(operand))
          usedBuffers.set(buffer.getArgNumber());
  }
  // An intermediate no kernel touches (a warp loop holds its tiles in
  // registers: the 2K causal prefill's 768 MB of scores) has nothing to
  // clear.
  for (unsigned buffer : llvm::seq<unsigned>(0, memrefTypes.size()))
    if (!usedBuffers.test(buffer) && roles[buffer] == TensorRole::Intermediate)
      host.setArgAttr(buffer, "tile.overwritten", b.getUnitAttr());
  func::ReturnOp::create(hb, loc);
  program.erase();
  return success();
}
