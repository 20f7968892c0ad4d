//===- CostModel.cpp - Roofline cost model of tile programs ---------------===//

#include "TileDialect/Cost/CostModel.h"

#include "Kernels.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::cost;

llvm::StringRef mlir::tileir::stringifyLimiter(Limiter limiter) {
  switch (limiter) {
  case Limiter::Launch:
    return "launch";
  case Limiter::Hbm:
    return "hbm";
  case Limiter::L2:
    return "l2";
  case Limiter::Matrix:
    return "matrix";
  case Limiter::Vector:
    return "vector";
  case Limiter::Occupancy:
    return "occupancy";
  case Limiter::Latency:
    return "latency";
  }
  llvm_unreachable("unknown limiter");
}

TileSizeAssignment
mlir::tileir::defaultTileSizes(ProgramOp program, const TargetDesc &target,
                               const TileSizeAssignment &given) {
  TileSizeAssignment sizes = given;
  if (target.defaultTileSize <= 0)
    return sizes;
  Block &body = program.getBodyBlock();
  llvm::StringSet<> fresh;
  for (auto size : body.getOps<SizeOp>())
    if (auto symbol = dyn_cast<StringAttr>(size.getValue()))
      if (sizes.try_emplace(symbol.getValue(), target.defaultTileSize).second)
        fresh.insert(symbol.getValue());
  // Halve each defaulted size until it divides every range it steps over.
  for (auto loop : body.getOps<LoopOp>()) {
    std::optional<TileDim> step = loop.getStepDim();
    if (!step || step->isConcrete() || !fresh.contains(step->sym.getValue()))
      continue;
    int64_t range = loop.getEndIndex() - loop.getStartIndex();
    int64_t &size = sizes[step->sym.getValue()];
    while (size > 1 && range % (size * step->coeff) != 0)
      size /= 2;
  }
  return sizes;
}

LogicalResult mlir::tileir::parseTileSizes(llvm::StringRef text,
                                           TileSizeAssignment &sizes,
                                           std::string &error) {
  llvm::SmallVector<llvm::StringRef> items;
  text.split(items, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (llvm::StringRef item : items) {
    auto [name, value] = item.trim().split('=');
    int64_t number = 0;
    if (name.trim().empty() || value.trim().getAsInteger(10, number) ||
        number <= 0) {
      error = ("malformed tile size '" + item.trim() +
               "' (expected name=positive integer)")
                  .str();
      return failure();
    }
    sizes[name.trim()] = number;
  }
  return success();
}

namespace {

/// One enclosing loop of a statement during the walk.
struct Level {
  Value var;
  uint64_t trips;
};

/// Where each tensor is stored and loaded, by kernel index.
struct Placement {
  llvm::DenseMap<Value, llvm::SmallDenseSet<unsigned, 4>> storedIn, loadedIn;

  bool loadFromHbm(Value tensor, unsigned kernel) const {
    auto role = cast<TensorRefType>(tensor.getType()).getRole();
    if (role == TensorRole::Input || role == TensorRole::InOut ||
        role == TensorRole::Positions)
      return true;
    auto it = storedIn.find(tensor);
    // Stored in this kernel: on chip. Never stored: zeros, made on chip.
    return it != storedIn.end() && !it->second.contains(kernel);
  }

  bool storeToHbm(Value tensor, unsigned kernel) const {
    auto role = cast<TensorRefType>(tensor.getType()).getRole();
    if (role == TensorRole::Output || role == TensorRole::InOut)
      return true;
    auto it = loadedIn.find(tensor);
    return it != loadedIn.end() &&
           llvm::any_of(it->second, [&](unsigned k) { return k != kernel; });
  }
};

/// Counts bytes and FLOPs of one kernel by walking its statement tree.
class KernelCounter {
public:
  KernelCounter(const TileSizeAssignment &sizes, const VectorWeights &weights,
                const Placement &placement, unsigned kernelIndex,
                unsigned numGrid, KernelCost &cost)
      : sizes(sizes), weights(weights), placement(placement),
        kernelIndex(kernelIndex), numGrid(numGrid), cost(cost) {}

  void walk(Value stmt) {
    Operation *op = stmt.getDefiningOp();
    if (auto seq = dyn_cast_or_null<SeqOp>(op)) {
      walk(seq.getFirst());
      walk(seq.getSecond());
    } else if (auto loop = dyn_cast_or_null<LoopOp>(op)) {
      levels.push_back({loop.getVar(), tripCount(loop)});
      walk(loop.getBody());
      levels.pop_back();
    } else if (auto store = dyn_cast_or_null<StoreOp>(op)) {
      visitStore(store);
    }
  }

  /// Bytes re-read from a region small enough to stay in L2.
  uint64_t l2HitBytes(uint64_t l2Size) const {
    uint64_t hits = 0;
    for (auto &[tensor, read] : hbmReads) {
      auto type = cast<TensorRefType>(tensor.getType());
      uint64_t whole = elementBytes(type.getElementType());
      for (int64_t extent : type.getShape())
        whole *= extent;
      uint64_t unique = std::min(whole, read.unique);
      if (unique <= l2Size && read.total > unique)
        hits += read.total - unique;
    }
    return hits;
  }

private:
  struct Reads {
    uint64_t total = 0, unique = 0;
  };

  uint64_t tripCount(LoopOp loop) const {
    return (loop.getEndIndex() - loop.getStartIndex()) /
           extent(*loop.getStepDim());
  }

  int64_t extent(const TileDim &dim) const {
    return dim.isConcrete() ? dim.coeff
                            : dim.coeff * sizes.lookup(dim.sym.getValue());
  }

  static uint64_t elementBytes(Type type) {
    return std::max<uint64_t>(1, type.getIntOrFloatBitWidth() / 8);
  }

  uint64_t elements(Type type) const {
    uint64_t n = 1;
    for (const TileDim &dim : cast<TileType>(type).getShape())
      n *= extent(dim);
    return n;
  }

  uint64_t bytes(Type type) const {
    return elements(type) * elementBytes(cast<TileType>(type).getElementType());
  }

  /// The loop variables `value` depends on through the indices of its loads.
  const llvm::SmallDenseSet<Value, 4> &deps(Value value) {
    auto it = depsMemo.find(value);
    if (it != depsMemo.end())
      return it->second;
    llvm::SmallDenseSet<Value, 4> result;
    if (Operation *op = value.getDefiningOp()) {
      if (auto load = dyn_cast<LoadOp>(op)) {
        for (Value index : load.getIndices())
          if (Value var = indexVar(index))
            result.insert(var);
      } else {
        for (Value operand : op->getOperands())
          if (isa<TileType>(operand.getType()))
            for (Value var : deps(operand))
              result.insert(var);
      }
    }
    return depsMemo[value] = std::move(result);
  }

  /// Executions of something that depends on `vars`: it is hoisted out of
  /// the enclosing loops inside the innermost one it depends on, but never
  /// out of the grid (each block runs it).
  uint64_t executions(const llvm::SmallDenseSet<Value, 4> &vars) const {
    unsigned last = numGrid;
    for (auto [i, level] : llvm::enumerate(levels))
      if (vars.contains(level.var))
        last = std::max<unsigned>(last, i + 1);
    uint64_t count = 1;
    for (unsigned i = 0; i < last && i < levels.size(); ++i)
      count *= levels[i].trips;
    return count;
  }

  /// The distinct elements a load touches over all its executions.
  uint64_t footprint(LoadOp load) const {
    auto type = cast<TensorRefType>(load.getTensor().getType());
    uint64_t n = elementBytes(type.getElementType());
    for (auto [d, index] : llvm::enumerate(load.getIndices())) {
      int64_t dim = type.getShape()[d];
      if (auto c = index.getDefiningOp<ConstTileIndexOp>())
        n *= c.getSizeIndex();
      else if (Value var = indexVar(index))
        n *= std::min<int64_t>(dim, rangeOf(var, index));
      else
        n *= dim;
    }
    return n;
  }

  /// The extent `index` covers over its variable's whole loop.
  int64_t rangeOf(Value var, Value index) const {
    for (Operation *user : var.getUsers())
      if (auto loop = dyn_cast<LoopOp>(user); loop && loop.getVar() == var) {
        int64_t range = loop.getEndIndex() - loop.getStartIndex();
        return index.getDefiningOp<ElemIndexOp>()
                   ? range / extent(*loop.getStepDim())
                   : range;
      }
    return 1;
  }

  void visitStore(StoreOp store) {
    llvm::SmallDenseSet<Value, 4> storeVars;
    for (Value index : store.getIndices())
      if (Value var = indexVar(index))
        storeVars.insert(var);
    uint64_t storeBytes =
        bytes(store.getValue().getType()) * executions(storeVars);
    if (placement.storeToHbm(store.getTensor(), kernelIndex))
      cost.hbmWriteBytes += storeBytes;
    else
      cost.onChipBytes += storeBytes;

    forEachValueOp(store.getValue(), [&](Operation *op) {
      uint64_t count = executions(deps(op->getResult(0)));
      if (auto load = dyn_cast<LoadOp>(op)) {
        uint64_t loadBytes = bytes(load.getType()) * count;
        if (placement.loadFromHbm(load.getTensor(), kernelIndex)) {
          cost.hbmReadBytes += loadBytes;
          Reads &reads = hbmReads[load.getTensor()];
          reads.total += loadBytes;
          reads.unique += footprint(load);
        } else {
          cost.onChipBytes += loadBytes;
        }
        return;
      }
      countFlops(op, count);
    });
  }

  void countFlops(Operation *op, uint64_t count) {
    uint64_t n = elements(op->getResult(0).getType());
    llvm::TypeSwitch<Operation *>(op)
        .Case([&](MatmulOp matmul) {
          auto lhs = cast<TileType>(matmul.getLhs().getType()).getShape();
          uint64_t k = extent(lhs.back());
          cost.matrixFlops += 2 * n * k * count;
        })
        .Case<AddOp, SubOp, MulOp, MaxOp, MinOp, NegOp, AbsOp, SqrOp, CmpOp,
              SelectOp>([&](Operation *) {
          cost.vectorFlops += weights.simple * n * count;
        })
        .Case([&](DivOp) { cost.vectorFlops += weights.division * n * count; })
        .Case<ExpOp, LogOp, SqrtOp, RsqrtOp, SigmoidOp, TanhOp, ErfOp, SinOp,
              CosOp>(
            [&](Operation *) {
              cost.vectorFlops += weights.transcendental * n * count;
            })
        .Case<RSumOp, RMaxOp, RMinOp>([&](Operation *reduce) {
          cost.vectorFlops += weights.reduction *
                              elements(reduce->getOperand(0).getType()) * count;
        })
        .Default([](Operation *) {}); // layout ops, casts, constants
  }

  const TileSizeAssignment &sizes;
  const VectorWeights &weights;
  const Placement &placement;
  unsigned kernelIndex, numGrid;
  KernelCost &cost;
  llvm::SmallVector<Level> levels;
  llvm::DenseMap<Value, llvm::SmallDenseSet<Value, 4>> depsMemo;
  llvm::MapVector<Value, Reads> hbmReads;
};

/// Checks that every symbolic tile size has a positive value dividing the
/// ranges it steps over.
LogicalResult checkSizes(ProgramOp program, const TileSizeAssignment &sizes) {
  Block &body = program.getBodyBlock();
  for (auto size : body.getOps<SizeOp>()) {
    auto symbol = dyn_cast<StringAttr>(size.getValue());
    if (!symbol)
      continue;
    auto it = sizes.find(symbol.getValue());
    if (it == sizes.end())
      return size.emitError("tile size '")
             << symbol.getValue()
             << "' has no value: give one (sizes=" << symbol.getValue()
             << "=N) or use a target with a default tile size";
    if (it->second <= 0)
      return size.emitError("tile size '")
             << symbol.getValue() << "' must be positive, got " << it->second;
  }
  for (auto loop : body.getOps<LoopOp>()) {
    std::optional<TileDim> step = loop.getStepDim();
    if (!step || step->isConcrete())
      continue;
    int64_t value = step->coeff * sizes.lookup(step->sym.getValue());
    int64_t range = loop.getEndIndex() - loop.getStartIndex();
    if (range % value != 0)
      return loop.emitError("tile size ")
             << step->sym.getValue() << "=" << value
             << " does not divide the range " << range << " of loop '"
             << loop.getVarOp().getName() << "'";
  }
  return success();
}

/// The share of an iteration's bytes a warp loop's warp keeps in flight,
/// the memory latency under load, and the warps a compute unit holds
/// (about 150 registers a thread: 3 blocks of 4 warps, ncu on the H200).
/// Fitted on the H200's fused decode attention kernels
/// (bench/results/h200-2026-11-29-warp-loop-estimate.md): Llama-3-8B at
/// 1K / 4K / 32K keys, 128 / 512 / 1024 warps of 64-key iterations (34 KB
/// each: 4 KiB in flight), ran about 9 / 10 / 42 us for 4.3 / 17.3 / 138
/// MB; the roofline alone gave 2.9 / 4.5 / 29.0.
constexpr double kWarpLoopInFlightShare = 1.0 / 8;
constexpr double kMemoryLatencySeconds = 1.2e-6;
/// L2 answers in about 500 ns against HBM's 1.2 us under load: the same
/// bytes in flight carry 2.4x the bandwidth from L2.
constexpr double kL2LatencyAdvantage = 2.4;
constexpr uint64_t kWarpLoopWarpsPerUnit = 12;

/// The body time (without launch) of kernel `k` when a fraction `fill` of
/// the compute units is busy: compute scales with `fill`; each busy unit
/// pulls at most its share of L2 bandwidth, so HBM bandwidth is reached only
/// with enough units busy. Sets the four per-resource times.
/// A unit short of threads (`threadFill` below 1) pulls less bandwidth and
/// issues fewer vector instructions; the matrix units are kept busy by few
/// warps (each holds many independent products).
double bodyTime(KernelCost &k, const TargetDesc &target, double fill,
                double threadFill = 1, double inFlight = 0) {
  double l2Bandwidth = fill * threadFill * target.l2Bandwidth;
  double hbmBandwidth = std::min(target.hbmBandwidth, l2Bandwidth);
  // Bytes in flight bound both (Little's law).
  if (inFlight > 0) {
    l2Bandwidth = std::min(l2Bandwidth, kL2LatencyAdvantage * inFlight);
    hbmBandwidth = std::min(hbmBandwidth, inFlight);
  }
  k.hbmUs = double(k.hbmBytes() - k.l2HitBytes) / hbmBandwidth * 1e6;
  k.l2Us = double(k.hbmBytes()) / l2Bandwidth * 1e6;
  k.matrixUs = double(k.matrixFlops) / (fill * target.matrixPeak) * 1e6;
  k.vectorUs = double(k.vectorFlops) /
               (fill * threadFill * target.vectorPeak) * 1e6;
  return std::max(std::max(k.hbmUs, k.l2Us), k.matrixUs + k.vectorUs);
}

/// Resident blocks a compute unit holds at most.
constexpr uint64_t kMaxBlocksPerUnit = 32;

/// Fills in the times and limiter of a counted kernel; with `ownLaunch`
/// false it runs in another kernel's launch and costs none of its own.
void applyRoofline(KernelCost &k, const TargetDesc &target,
                   bool ownLaunch = true) {
  uint64_t units = std::max(1u, target.computeUnits);
  k.waves = (k.gridSize + units - 1) / units;
  k.gridEfficiency = double(k.gridSize) / double(k.waves * units);
  k.threadFill = 1;
  if (k.threadsPerBlock && target.maxThreadsPerCU) {
    uint64_t resident = std::min<uint64_t>(
        {k.waves, kMaxBlocksPerUnit,
         std::max<uint64_t>(1, target.maxThreadsPerCU / k.threadsPerBlock)});
    double threads = double(resident * k.threadsPerBlock);
    k.threadFill = std::min(1.0, threads / (target.maxThreadsPerCU / 2.0));
  }
  k.launchUs = ownLaunch ? target.launchOverhead * 1e6 : 0;
  double ideal = bodyTime(k, target, /*fill=*/1.0);
  double unbounded = bodyTime(k, target, k.gridEfficiency, k.threadFill);
  double body = unbounded;
  if (k.warpLoopWarps && k.warpLoopIterations)
    body = bodyTime(k, target, k.gridEfficiency, k.threadFill,
                    warpLoopBandwidth(target, k.gridSize, k.warpLoopWarps,
                                      double(k.hbmBytes()) /
                                          double(k.warpLoopIterations)));
  k.timeUs = k.launchUs + body;
  double memory = std::max(k.hbmUs, k.l2Us);
  double compute = k.matrixUs + k.vectorUs;
  if (k.launchUs >= body)
    k.limiter = Limiter::Launch;
  else if (body > unbounded)
    k.limiter = Limiter::Latency;
  else if (body > 2 * ideal)
    k.limiter = Limiter::Occupancy;
  else if (memory >= compute)
    k.limiter = k.hbmUs >= k.l2Us ? Limiter::Hbm : Limiter::L2;
  else
    k.limiter = k.matrixUs >= k.vectorUs ? Limiter::Matrix : Limiter::Vector;
}

} // namespace

double mlir::tileir::warpLoopBandwidth(const TargetDesc &target,
                                       uint64_t gridSize, unsigned warps,
                                       double iterationBytes) {
  uint64_t units = std::max(1u, target.computeUnits);
  uint64_t blocksPerUnit =
      std::max<uint64_t>(1, kWarpLoopWarpsPerUnit / std::max(1u, warps));
  uint64_t resident = std::min(gridSize, units * blocksPerUnit);
  return double(resident * warps) * kWarpLoopInFlightShare * iterationBytes /
         kMemoryLatencySeconds;
}

void mlir::tileir::applyLaunch(ProgramCost &program, KernelCost &k,
                               const TargetDesc &target, uint64_t gridSize,
                               unsigned threadsPerBlock, bool ownLaunch,
                               unsigned warpLoopWarps,
                               uint64_t warpLoopIterations) {
  program.timeUs -= k.timeUs;
  k.gridSize = std::max<uint64_t>(1, gridSize);
  k.threadsPerBlock = threadsPerBlock;
  k.warpLoopWarps = warpLoopWarps;
  k.warpLoopIterations = warpLoopIterations;
  applyRoofline(k, target, ownLaunch);
  program.timeUs += k.timeUs;
  const KernelCost *slowest = &k;
  for (const KernelCost &other : program.kernels)
    if (other.timeUs > slowest->timeUs)
      slowest = &other;
  program.limiter = slowest->limiter;
}

FailureOr<ProgramCost> mlir::tileir::estimate(ProgramOp program,
                                              const TargetDesc &target,
                                              const TileSizeAssignment &sizes,
                                              const VectorWeights &weights) {
  if (failed(checkSizes(program, sizes)))
    return failure();

  ProgramCost result;
  result.program = program.getSymName().str();
  result.target = target.name;
  for (auto size : program.getBodyBlock().getOps<SizeOp>())
    if (auto symbol = dyn_cast<StringAttr>(size.getValue()))
      result.sizes.push_back(
          {symbol.getValue().str(), sizes.lookup(symbol.getValue())});
  llvm::sort(result.sizes);

  llvm::SmallVector<Kernel> kernels = partitionKernels(program);
  Placement placement;
  for (auto [i, kernel] : llvm::enumerate(kernels))
    for (Value stmt : kernel.stmts)
      forEachStore(stmt, [&, i = i](StoreOp store) {
        placement.storedIn[store.getTensor()].insert(i);
        forEachValueOp(store.getValue(), [&](Operation *op) {
          if (auto load = dyn_cast<LoadOp>(op))
            placement.loadedIn[load.getTensor()].insert(i);
        });
      });

  double slowest = -1;
  for (auto [i, kernel] : llvm::enumerate(kernels)) {
    KernelCost &k = result.kernels.emplace_back();
    k.stmt = kernel.stmts.front();
    if (auto loop = k.stmt.getDefiningOp<LoopOp>())
      k.label = ("loop " + loop.getVarOp().getName()).str();
    else
      k.label = "statements";
    KernelCounter counter(sizes, weights, placement, i, kernel.grid.size(), k);
    for (LoopOp loop : kernel.grid) {
      k.gridLoops.push_back(loop.getVarOp().getName().str());
      k.gridSize *= (loop.getEndIndex() - loop.getStartIndex()) /
                    (loop.getStepDim()->coeff *
                     (loop.getStepDim()->isConcrete()
                          ? 1
                          : sizes.lookup(loop.getStepDim()->sym.getValue())));
    }
    for (Value stmt : kernel.stmts)
      counter.walk(stmt);
    k.l2HitBytes = counter.l2HitBytes(target.l2Size);
    applyRoofline(k, target);

    result.timeUs += k.timeUs;
    result.hbmBytes += k.hbmBytes();
    result.matrixFlops += k.matrixFlops;
    result.vectorFlops += k.vectorFlops;
    if (k.timeUs > slowest) {
      slowest = k.timeUs;
      result.limiter = k.limiter;
    }
  }
  return result;
}
