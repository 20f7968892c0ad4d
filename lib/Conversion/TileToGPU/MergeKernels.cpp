//===- MergeKernels.cpp - Independent launches as one grid ----------------===//
//
// `--tile-merge-kernels`: a host function's launches are grouped, each
// launch joining the earliest group after the last one it depends on that
// it fits (same block size, workgroup memory within the limit), and each
// group of several becomes one kernel whose grid is its members' grids one
// after another: block b runs the member whose range holds b, with its
// block index taken relative to that range. The members' workgroup buffers
// are views of one buffer as large as the largest member's. With
// `zero_in_kernels`, groups also get members that clear the buffers a call
// expects to start as zeros.
//
//===----------------------------------------------------------------------===//

#include "TileDialect/Conversion/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/EquivalenceClasses.h"

namespace mlir::tileir {
#define GEN_PASS_DEF_TILEMERGEKERNELS
#include "TileDialect/Conversion/Passes.h.inc"
} // namespace mlir::tileir

using namespace mlir;
using namespace mlir::tileir;

namespace {

/// A launch and what its kernel does with the host's buffers.
struct Launch {
  gpu::LaunchFuncOp op;
  gpu::GPUFuncOp kernel;
  /// Whether it may join a group (see `mergeable`); one that may not is
  /// ordered against every other launch.
  bool mergeable = false;
  /// A member clearing a buffer (`zero_in_kernels`), named apart.
  bool zero = false;
  int64_t blocks = 0, threads = 0, sharedBytes = 0;
  /// Bytes of dynamic shared memory the launch gives (block matmuls' stages).
  int64_t dynamicBytes = 0;
  /// Alias classes (of host buffers) read and written.
  llvm::SmallDenseSet<unsigned> reads, writes;
  /// The producers of one split epilogue (`tile.epilogue`, its first
  /// counter) touch each other's tensors only in the epilogue, which the
  /// last of them to finish a tile runs: they are independent.
  std::optional<int64_t> epilogue;
  /// The kernel's own load pipelining (`tile.pipeline_loads`), if any.
  Attribute pipelineLoads;
};

/// A group of launches that becomes one kernel. Its members pipeline their
/// loads alike (the merged kernel carries their `tile.pipeline_loads`).
struct Group {
  SmallVector<unsigned> members;
  int64_t blocks = 0, threads = 0, sharedBytes = 0, dynamicBytes = 0;
  bool mergeable = true;
  Attribute pipelineLoads;
};

} // namespace

/// Bytes a workgroup buffer of `type` takes in a merged kernel's shared one
/// (each starts 16-byte aligned).
static int64_t alignedBytes(MemRefType type) {
  return llvm::alignTo(
      type.getNumElements() *
          llvm::divideCeil(type.getElementType().getIntOrFloatBitWidth(), 8),
      16);
}

/// Whether the kernel argument `arg` may be read / written by the kernel.
static void accessesOf(BlockArgument arg, bool &read, bool &write) {
  for (OpOperand &use : arg.getUses()) {
    Operation *user = use.getOwner();
    auto effects = dyn_cast<MemoryEffectOpInterface>(user);
    // The address of a buffer only prefetched into L2 (`tile.prefetch`)
    // counts as a read.
    if (isa<memref::ExtractAlignedPointerAsIndexOp>(user) &&
        user->hasAttr("tile.prefetch")) {
      read = true;
      continue;
    }
    // Unknown effects, a view of the buffer (accessed through it), or its
    // address (accessed through that, as the vector reductions of
    // split accumulations are).
    if (!effects || isa<memref::ExtractAlignedPointerAsIndexOp>(user) ||
        llvm::any_of(user->getResultTypes(),
                     [](Type t) { return isa<BaseMemRefType>(t); })) {
      read = write = true;
      return;
    }
    SmallVector<MemoryEffects::EffectInstance> instances;
    effects.getEffectsOnValue(arg, instances);
    for (const MemoryEffects::EffectInstance &instance : instances) {
      if (isa<MemoryEffects::Read>(instance.getEffect()))
        read = true;
      else
        write = true;
    }
  }
}

/// The constant value of an index operand, or -1.
static int64_t constantOf(Value v) {
  std::optional<int64_t> c = getConstantIntValue(v);
  return c ? *c : -1;
}

/// Whether `launch` can be one member of a merged kernel: a synchronous 1-D
/// launch of constant size (and dynamic shared memory) without clusters, of a
/// one-block kernel with a known 1-D block size whose only grid-dependent
/// ops are `gpu.block_id x` and `gpu.grid_dim x`.
static bool mergeable(Launch &launch) {
  gpu::LaunchFuncOp op = launch.op;
  gpu::GPUFuncOp kernel = launch.kernel;
  if (!kernel || op.getAsyncToken() || !op.getAsyncDependencies().empty() ||
      op.hasClusterSize())
    return false;
  if (Value dynamic = op.getDynamicSharedMemorySize()) {
    launch.dynamicBytes = constantOf(dynamic);
    if (launch.dynamicBytes < 0)
      return false;
  }
  launch.blocks = constantOf(op.getGridSizeX());
  launch.threads = constantOf(op.getBlockSizeX());
  if (launch.blocks < 1 || launch.threads < 1 ||
      constantOf(op.getGridSizeY()) != 1 ||
      constantOf(op.getGridSizeZ()) != 1 ||
      constantOf(op.getBlockSizeY()) != 1 ||
      constantOf(op.getBlockSizeZ()) != 1)
    return false;
  DenseI32ArrayAttr known = kernel.getKnownBlockSizeAttr();
  if (!known ||
      known.asArrayRef() != ArrayRef<int32_t>{int32_t(launch.threads), 1, 1})
    return false;
  if (!kernel.getBody().hasOneBlock() || kernel.getNumPrivateAttributions())
    return false;
  for (BlockArgument buffer : kernel.getWorkgroupAttributions()) {
    auto type = cast<MemRefType>(buffer.getType());
    if (!type.hasStaticShape() || !type.getElementType().isIntOrFloat())
      return false;
    launch.sharedBytes += alignedBytes(type);
  }
  WalkResult walk = kernel.walk([](Operation *nested) {
    if (auto id = dyn_cast<gpu::BlockIdOp>(nested))
      return id.getDimension() == gpu::Dimension::x ? WalkResult::advance()
                                                    : WalkResult::interrupt();
    if (auto dim = dyn_cast<gpu::GridDimOp>(nested))
      return dim.getDimension() == gpu::Dimension::x ? WalkResult::advance()
                                                     : WalkResult::interrupt();
    if (isa<gpu::GlobalIdOp, gpu::ClusterIdOp, gpu::ClusterBlockIdOp,
            gpu::ClusterDimOp, gpu::ClusterDimBlocksOp>(nested))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !walk.wasInterrupted();
}

/// The name of a kernel merging `names`: the first, then what each other
/// adds to the longest prefix it shares with the first (`f_k0`, `f_k2`,
/// `f_k4` -> `f_k0_2_4`).
static std::string mergedName(ArrayRef<StringRef> names) {
  std::string name = names.front().str();
  for (StringRef other : names.drop_front()) {
    size_t common = 0;
    while (common < other.size() && common < names.front().size() &&
           other[common] == names.front()[common])
      ++common;
    StringRef rest = other.drop_front(common);
    name += "_" + (rest.empty() ? other : rest).str();
  }
  return name;
}

/// A kernel `name` of `type` with `threads` threads per block (1-D), inserted
/// in `module` at `at`.
static gpu::GPUFuncOp createKernel(gpu::GPUModuleOp module, Block::iterator at,
                                   Location loc, StringRef name,
                                   FunctionType type, TypeRange workgroup,
                                   int64_t threads) {
  OpBuilder b(module.getContext());
  auto func =
      gpu::GPUFuncOp::create(b, loc, name, type, workgroup, TypeRange());
  SymbolTable(module).insert(func, at);
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  func.setKnownBlockSizeAttr(b.getDenseI32ArrayAttr({int32_t(threads), 1, 1}));
  alignWorkgroupBuffers(func);
  return func;
}

/// A 1-D launch of `func` with `operands` before `before`.
static gpu::LaunchFuncOp createLaunch(gpu::GPUFuncOp func, int64_t blocks,
                                      int64_t threads, ValueRange operands,
                                      Operation *before,
                                      int64_t dynamicBytes = 0) {
  OpBuilder host(before);
  Location loc = func.getLoc();
  auto constant = [&](int64_t v) {
    return arith::ConstantIndexOp::create(host, loc, v).getResult();
  };
  Value one = constant(1);
  return gpu::LaunchFuncOp::create(
      host, loc, func, gpu::KernelDim3{constant(blocks), one, one},
      gpu::KernelDim3{constant(threads), one, one},
      /*dynamicSharedMemorySize=*/
      dynamicBytes ? arith::ConstantIntOp::create(host, loc, host.getI32Type(),
                                                  dynamicBytes)
                         .getResult()
                   : Value(),
      operands);
}

/// Elements each thread of a zeroing member clears.
static constexpr int64_t kZeroPerThread = 8;

/// A kernel in `module` clearing the 1-D static memref `buffer` with
/// `threads` threads per block: block b clears elements b * kZeroPerThread *
/// threads + t, t from the thread's index up to kZeroPerThread * threads in
/// steps of `threads` (a thread loop, as `--tile-gpu-to-host` runs them);
/// and its launch before `before`.
static Launch buildZeroLaunch(gpu::GPUModuleOp module, Value buffer,
                              StringRef name, int64_t threads,
                              Operation *before) {
  auto type = cast<MemRefType>(buffer.getType());
  Location loc = buffer.getLoc();
  OpBuilder b(module.getContext());
  gpu::GPUFuncOp func =
      createKernel(module, Block::iterator(), loc, name,
                   b.getFunctionType({type}, {}), TypeRange(), threads);
  b.setInsertionPointToStart(&func.getBody().front());
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  int64_t span = kZeroPerThread * threads;
  Value zero =
      arith::ConstantOp::create(b, loc, b.getZeroAttr(type.getElementType()));
  Value block = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value thread = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value first = arith::MulIOp::create(b, loc, block, index(span));
  scf::ForOp::create(
      b, loc, thread, index(span), index(threads), ValueRange{},
      [&](OpBuilder &, Location, Value t, ValueRange) {
        Value flat = arith::AddIOp::create(b, loc, first, t);
        Value inside =
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, flat,
                                  index(type.getNumElements()));
        auto ifOp = scf::IfOp::create(b, loc, inside, /*withElseRegion=*/false);
        OpBuilder then = ifOp.getThenBodyBuilder();
        memref::StoreOp::create(then, loc, zero, func.getArgument(0),
                                ValueRange{flat});
        scf::YieldOp::create(b, loc);
      });
  gpu::ReturnOp::create(b, loc);

  Launch launch;
  launch.kernel = func;
  launch.mergeable = true;
  launch.zero = true;
  launch.threads = threads;
  launch.blocks =
      llvm::divideCeil(type.getNumElements(), threads * kZeroPerThread);
  launch.op = createLaunch(func, launch.blocks, threads, buffer, before);
  return launch;
}

/// Builds the kernel of `group` (two or more launches) in `module` and the
/// launch that replaces theirs before `before`. The members' kernels are
/// left as they are.
static void mergeGroup(MutableArrayRef<Launch> launches, const Group &group,
                       gpu::GPUModuleOp module, Operation *before) {
  MLIRContext *ctx = module.getContext();
  Launch &first = launches[group.members.front()];
  Location loc = first.op.getLoc();

  // Arguments: each host value once; workgroup memory: one byte buffer
  // that each member's buffers are views of.
  SmallVector<Value> operands;
  llvm::DenseMap<Value, unsigned> argOf;
  SmallVector<Type> workgroup;
  SmallVector<StringRef> names;
  for (unsigned m : group.members) {
    for (Value v : launches[m].op.getKernelOperands())
      if (argOf.try_emplace(v, operands.size()).second)
        operands.push_back(v);
    if (!launches[m].zero)
      names.push_back(launches[m].kernel.getName());
  }
  if (group.sharedBytes > 0)
    workgroup.push_back(MemRefType::get(
        {group.sharedBytes}, IntegerType::get(ctx, 8), AffineMap(),
        gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup)));
  std::string name = mergedName(names);
  if (names.size() < group.members.size())
    name += "_zero";
  OpBuilder b(ctx);
  gpu::GPUFuncOp func =
      createKernel(module, Block::iterator(first.kernel), loc, name,
                   b.getFunctionType(ValueRange(operands).getTypes(), {}),
                   workgroup, group.threads);
  if (group.pipelineLoads)
    func->setAttr(kPipelineLoadsAttrName, group.pipelineLoads);
  // The top-level statements it runs (the estimate as lowered reads them).
  SmallVector<int64_t> statements;
  for (unsigned m : group.members) {
    Operation *member = launches[m].kernel;
    if (auto one = member->getAttrOfType<IntegerAttr>(kStatementAttrName))
      statements.push_back(one.getInt());
    else if (auto many = member->getAttrOfType<DenseI64ArrayAttr>(
                 kStatementsAttrName))
      llvm::append_range(statements, many.asArrayRef());
  }
  if (!statements.empty())
    func->setAttr(kStatementsAttrName, b.getDenseI64ArrayAttr(statements));

  Block &entry = func.getBody().front();
  b.setInsertionPointToStart(&entry);
  Value block = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  int64_t offset = 0;
  for (unsigned m : group.members) {
    Launch &launch = launches[m];
    // local = block - offset; blocks below the range wrap to large values.
    Value start = arith::ConstantIndexOp::create(b, loc, offset);
    Value local = arith::SubIOp::create(b, loc, block, start);
    Value count = arith::ConstantIndexOp::create(b, loc, launch.blocks);
    Value inRange =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, local, count);
    auto ifOp = scf::IfOp::create(b, loc, inRange, /*withElseRegion=*/false);
    // Where --tile-programmatic-launch puts the member's wait.
    ifOp->setAttr("tile.member", b.getUnitAttr());
    IRMapping mapping;
    for (auto [arg, v] :
         llvm::zip(launch.kernel.getArguments(), launch.op.getKernelOperands()))
      mapping.map(arg, entry.getArgument(argOf.lookup(v)));
    OpBuilder then = ifOp.getThenBodyBuilder();
    int64_t byte = 0;
    for (BlockArgument buffer : launch.kernel.getWorkgroupAttributions()) {
      auto type = cast<MemRefType>(buffer.getType());
      Value shift = arith::ConstantIndexOp::create(then, loc, byte);
      mapping.map(buffer,
                  memref::ViewOp::create(then, loc, type,
                                         func.getWorkgroupAttributions()[0],
                                         shift, ValueRange()));
      byte += alignedBytes(type);
    }
    for (Operation &op : launch.kernel.getBody().front().without_terminator())
      then.clone(op, mapping);
    SmallVector<Operation *> gridOps;
    ifOp.getThenRegion().walk([&](Operation *op) {
      if (isa<gpu::BlockIdOp, gpu::GridDimOp>(op))
        gridOps.push_back(op);
    });
    for (Operation *op : gridOps) {
      op->getResult(0).replaceAllUsesWith(isa<gpu::BlockIdOp>(op) ? local
                                                                  : count);
      op->erase();
    }
    offset += launch.blocks;
  }
  gpu::ReturnOp::create(b, loc);

  // Members' `gpu.dynamic_shared_memory` ops, cloned, share the launch's.
  createLaunch(func, group.blocks, group.threads, operands, before,
               group.dynamicBytes);
}

namespace {
class MergeKernelsPass
    : public tileir::impl::TileMergeKernelsBase<MergeKernelsPass> {
public:
  using Base::Base;
  void runOnOperation() override {
    SmallVector<func::FuncOp> hosts;
    getOperation().walk([&](func::FuncOp f) { hosts.push_back(f); });
    for (func::FuncOp host : hosts) {
      FailureOr<GPUConfigAttr> c = resolveGPUConfig(host, config);
      if (failed(c))
        return signalPassFailure();
      if (c->getMergeKernels())
        mergeLaunches(host, *c);
    }
  }

private:
  /// Adds to `groups` the members clearing the host's buffers that start as
  /// zeros (see the pass description) and marks the host's arguments.
  void addZeroMembers(func::FuncOp host, SmallVector<Launch> &launches,
                      SmallVector<Group> &groups,
                      llvm::EquivalenceClasses<unsigned> &classes) {
    if (groups.empty() ||
        llvm::any_of(launches, [](const Launch &l) { return !l.mergeable; }))
      return;
    auto roleOf = [&](unsigned arg) {
      auto role = host.getArgAttrOfType<StringAttr>(arg, "tile.role");
      return role ? role.getValue() : StringRef();
    };
    auto startsZero = [](StringRef role) {
      return role == "intermediate" || role == "output" || role == "scratch";
    };
    Block &entry = host.getBody().front();
    Builder b(host.getContext());
    for (unsigned arg = 0, e = host.getNumArguments(); arg < e; ++arg) {
      StringRef role = roleOf(arg);
      auto type = dyn_cast<MemRefType>(host.getArgument(arg).getType());
      // A buffer whose clearing the lowering arranged (split epilogues'
      // counters) needs no member.
      if (host.getArgAttr(arg, "tile.zero"))
        continue;
      if (!startsZero(role) || !type || type.getRank() != 1 ||
          !type.hasStaticShape() || !type.getElementType().isIntOrFloat())
        continue;
      unsigned cls = classes.getLeaderValue(arg);
      // A buffer that may alias one the caller sets is the caller's.
      if (llvm::any_of(classes.members(arg), [&](unsigned other) {
            return !startsZero(roleOf(other));
          }))
        continue;
      std::optional<size_t> first, last;
      for (auto [g, group] : llvm::enumerate(groups))
        if (llvm::any_of(group.members, [&](unsigned m) {
              return launches[m].reads.contains(cls) ||
                     launches[m].writes.contains(cls);
            })) {
          if (!first)
            first = g;
          last = g;
        }
      StringRef how;
      std::optional<size_t> target;
      if (!first) {
        how = "unused";
      } else if (host.getArgAttr(arg, "tile.overwritten")) {
        // The lowering found that its first writer writes it whole.
        how = "overwritten";
      } else if (*first > 0) {
        how = "start";
        target = 0;
      } else if (role != "output" && *last + 1 < groups.size()) {
        how = "restored";
        target = *last + 1;
      } else {
        continue;
      }
      if (target) {
        Group &group = groups[*target];
        Launch &member = launches[group.members.front()];
        auto name = host.getArgAttrOfType<StringAttr>(arg, "tile.name");
        std::string kernelName =
            host.getName().str() + "_zero_" +
            (name ? name.getValue().str() : "arg" + std::to_string(arg));
        Launch zero =
            buildZeroLaunch(member.kernel->getParentOfType<gpu::GPUModuleOp>(),
                            entry.getArgument(arg), kernelName, group.threads,
                            entry.getTerminator());
        if (group.blocks + zero.blocks > std::numeric_limits<int32_t>::max()) {
          zero.op.erase();
          zero.kernel.erase();
          continue;
        }
        zero.writes.insert(cls);
        group.members.push_back(launches.size());
        group.blocks += zero.blocks;
        launches.push_back(zero);
        ++numZeroed;
      }
      host.setArgAttr(arg, "tile.zero", b.getStringAttr(how));
    }
  }

  /// Merges the launches of `host` as its configuration's `shared_memory`
  /// and `zero_in_kernels` allow.
  void mergeLaunches(func::FuncOp host, GPUConfigAttr hostConfig) {
    if (!host.getBody().hasOneBlock())
      return;
    Block &entry = host.getBody().front();
    // Only a straight line of launches may be reordered.
    SmallVector<Launch> launches;
    for (Operation &op : entry) {
      if (auto launch = dyn_cast<gpu::LaunchFuncOp>(op)) {
        launches.emplace_back();
        launches.back().op = launch;
        continue;
      }
      if (!isa<arith::ConstantOp, func::ReturnOp>(op))
        return;
    }
    if (launches.size() < 2)
      return;

    // Alias classes of the host's buffers: its arguments, distinct unless
    // `tile.may_alias` pairs them; any other value aliases everything.
    llvm::EquivalenceClasses<unsigned> classes;
    unsigned numArgs = host.getNumArguments();
    for (unsigned i = 0; i < numArgs; ++i)
      classes.insert(i);
    if (auto pairs = host->getAttrOfType<ArrayAttr>("tile.may_alias"))
      for (Attribute pair : pairs)
        if (auto p = dyn_cast<DenseI64ArrayAttr>(pair); p && p.size() == 2)
          classes.unionSets(unsigned(p[0]), unsigned(p[1]));
    auto classOf = [&](Value v) -> std::optional<unsigned> {
      auto arg = dyn_cast<BlockArgument>(v);
      if (!arg || arg.getOwner() != &entry)
        return std::nullopt;
      return classes.getLeaderValue(arg.getArgNumber());
    };

    SymbolTableCollection symbols;
    for (Launch &launch : launches) {
      launch.kernel = symbols.lookupNearestSymbolFrom<gpu::GPUFuncOp>(
          launch.op, launch.op.getKernel());
      launch.mergeable = mergeable(launch);
      if (!launch.mergeable)
        continue;
      if (auto epilogue =
              launch.kernel->getAttrOfType<IntegerAttr>("tile.epilogue"))
        launch.epilogue = epilogue.getInt();
      launch.pipelineLoads = launch.kernel->getAttr(kPipelineLoadsAttrName);
      for (auto [arg, v] : llvm::zip(launch.kernel.getArguments(),
                                     launch.op.getKernelOperands())) {
        if (!isa<MemRefType>(v.getType()))
          continue;
        // Split epilogues' counters: each epilogue has its own.
        if (auto hostArg = dyn_cast<BlockArgument>(v);
            hostArg && hostArg.getOwner() == &entry &&
            host.getArgAttr(hostArg.getArgNumber(), "tile.counters"))
          continue;
        std::optional<unsigned> cls = classOf(v);
        bool read = false, write = false;
        accessesOf(arg, read, write);
        if (!cls && (read || write)) {
          launch.mergeable = false;
          break;
        }
        if (read)
          launch.reads.insert(*cls);
        if (write)
          launch.writes.insert(*cls);
      }
    }
    auto conflict = [&](const Launch &a, const Launch &b) {
      if (!a.mergeable || !b.mergeable)
        return true;
      if (a.epilogue && a.epilogue == b.epilogue)
        return false;
      for (unsigned w : a.writes)
        if (b.reads.contains(w) || b.writes.contains(w))
          return true;
      for (unsigned w : b.writes)
        if (a.reads.contains(w))
          return true;
      return false;
    };

    // Each launch joins the earliest group after its last dependence that
    // it fits, else starts a new group.
    SmallVector<Group> groups;
    for (unsigned i = 0, e = launches.size(); i < e; ++i) {
      const Launch &launch = launches[i];
      size_t first = 0;
      for (size_t g = groups.size(); g-- > 0;)
        if (llvm::any_of(groups[g].members, [&](unsigned m) {
              return conflict(launches[m], launch);
            })) {
          first = g + 1;
          break;
        }
      auto fits = [&](const Group &g) {
        return launch.mergeable && g.mergeable && g.threads == launch.threads &&
               g.pipelineLoads == launch.pipelineLoads &&
               std::max(g.sharedBytes, launch.sharedBytes) <=
                   hostConfig.getSharedMemory() &&
               (g.dynamicBytes == 0) == (launch.dynamicBytes == 0) &&
               g.blocks + launch.blocks <= std::numeric_limits<int32_t>::max();
      };
      Group *target = nullptr;
      for (size_t g = first; g < groups.size() && !target; ++g)
        if (fits(groups[g]))
          target = &groups[g];
      if (!target) {
        groups.emplace_back();
        target = &groups.back();
        target->threads = launch.threads;
        target->mergeable = launch.mergeable;
        target->pipelineLoads = launch.pipelineLoads;
      }
      target->members.push_back(i);
      target->blocks += launch.blocks;
      target->sharedBytes = std::max(target->sharedBytes, launch.sharedBytes);
      target->dynamicBytes =
          std::max(target->dynamicBytes, launch.dynamicBytes);
    }
    if (hostConfig.getZeroInKernels())
      addZeroMembers(host, launches, groups, classes);
    if (llvm::all_of(groups,
                     [](const Group &g) { return g.members.size() == 1; }))
      return;

    // The launches in group order, merged groups as one launch each.
    Operation *end = entry.getTerminator();
    llvm::SmallSetVector<gpu::GPUFuncOp, 8> merged;
    for (const Group &group : groups) {
      if (group.members.size() == 1) {
        launches[group.members.front()].op->moveBefore(end);
        continue;
      }
      auto module = launches[group.members.front()]
                        .kernel->getParentOfType<gpu::GPUModuleOp>();
      mergeGroup(launches, group, module, end);
      for (unsigned m : group.members) {
        merged.insert(launches[m].kernel);
        launches[m].op.erase();
      }
      numMerged += group.members.size();
    }
    // Kernels no launch names any more.
    for (gpu::GPUFuncOp kernel : merged)
      if (SymbolTable::symbolKnownUseEmpty(kernel, getOperation()))
        kernel.erase();
  }
};
} // namespace
