//===- OnlineSoftmax.cpp - The running-max fusion of a safe softmax -------===//
//
// `loop v (M = max(M, rmax X)); loop v (T_k += G_k(exp(Y - M)))` becomes one
// loop that carries the running max (Neptune's rolling update, the running
// max of FlashAttention):
//
//   loop v (alpha = exp(M - M'); T_k = T_k * alpha + G_k(exp(Y - M'));
//           M = M')                    where M' = max(M, rmax X)
//
// It is sound when every G_k is linear in the exponentials that read M, with
// the per-row factor exp(-M) constant along whatever G_k reduces or
// contracts: then G_k(exp(Y - M')) * exp(M' - M'') = G_k(exp(Y - M'')), so by
// induction T_k after iteration j holds the sum over the first j tiles taken
// against the max of those tiles, and after the last iteration the sum the
// second loop computes against the final max. The repair factor's
// broadcast follows from how G_k maps the row dimensions of M onto T_k's
// (factorMapOf). The lemmas the induction step uses (exp-rebase,
// rsum-rebase, matmul-rebase in OnlineSoftmax.pdll) are proved by tile-prove.
//
// A fully masked prefix (M' = -inf) would give exp(-inf - -inf) = NaN; the
// fused body subtracts select(M' == -inf, 0, M') instead, which is M' on
// every row that has seen a finite score, and gives alpha = 0 and
// exponentials 0 on the others; alpha = exp(min(M - M', 0)) is 1, not NaN,
// when M starts at NaN (see onlineSoftmaxFuse).
//
//===----------------------------------------------------------------------===//

#include "OnlineSoftmax.h"
#include "NativeBuilders.h"

#include "TileDialect/IR/TileOps.h"
#include "TileDialect/IR/TileTypes.h"
#include "TileDialect/Saturation/Substitute.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tileir;
using egraph::ENode;
using egraph::Id;

namespace {
/// For each dimension of a tile that is linear in exp(-M): the dimension of
/// M's tile it follows, or -1 where the factor is constant along it.
using FactorMap = llvm::SmallVector<int, 4>;

/// One accumulation `T[idx] = T[idx] + G` of the second loop.
struct Accumulation {
  Id loadT = egraph::kNoId;  ///< `load T[idx]`
  Id value = egraph::kNoId;  ///< G
  llvm::SmallVector<Id, 4> storeOperands; ///< T's leaf and idx
  uint32_t tensor = ~0u;     ///< T
  FactorMap map;             ///< G's factor map
};

struct OnlinePlan {
  Id loadM = egraph::kNoId, newMax = egraph::kNoId, maxStore = egraph::kNoId;
  llvm::SmallVector<Accumulation, 2> accumulations;
};

class Planner {
public:
  Planner(RuleContext &ctx, uint32_t var, Id loadM)
      : ctx(ctx), tg(ctx.tg), eg(ctx.tg.graph()), var(var),
        loadM(eg.find(loadM)) {}

  std::optional<OnlinePlan> plan(Id newMax, Id maxStore, Id b2);

private:
  bool readsM(Id c) const {
    return llvm::any_of(tg.data(c).accesses, [&](const Access &a) {
      return a.tensor == mTensor;
    });
  }
  /// Whether `c` is `M` or `bcast M`; fills the factor map of the result.
  bool isMaxOperand(Id c, FactorMap &map);
  std::optional<FactorMap> factorMapOf(Id c);
  std::optional<FactorMap> factorMapOf(const ENode &node);
  bool collect(Id stmt, llvm::SmallVectorImpl<Id> &stores, unsigned depth);
  std::optional<Accumulation> accumulation(Id store);

  RuleContext &ctx;
  TileEGraph &tg;
  egraph::EGraph &eg;
  uint32_t var;
  Id loadM;
  uint32_t mTensor = ~0u;
  unsigned mRank = 0;
  llvm::DenseMap<Id, std::optional<FactorMap>> memo;
  llvm::DenseSet<Id> visiting;
};
} // namespace

/// The factor map of `tile.bcast x [dims]` with result rank `rank`, given
/// x's: the inserted dimensions are constant.
static FactorMap broadcastMap(llvm::ArrayRef<int> operand,
                              llvm::ArrayRef<int64_t> dims, int64_t rank) {
  FactorMap map;
  size_t next = 0;
  for (int64_t d = 0; d < rank; ++d)
    map.push_back(llvm::is_contained(dims, d) ? -1 : operand[next++]);
  return map;
}

bool Planner::isMaxOperand(Id c, FactorMap &map) {
  c = eg.find(c);
  FactorMap identity;
  for (unsigned i = 0; i < mRank; ++i)
    identity.push_back(i);
  if (c == loadM) {
    map = identity;
    return true;
  }
  for (const ENode &node : eg.getClass(c).nodes) {
    if (tg.getOpName(node.op).getStringRef() != "tile.bcast" ||
        eg.find(node.children[0]) != loadM)
      continue;
    auto dims = dyn_cast_or_null<DenseI64ArrayAttr>(
        tg.getAttrs(node.payload).get("dims"));
    auto type = dyn_cast<TileType>(tg.getType(node));
    if (!dims || !type)
      continue;
    map = broadcastMap(identity, dims.asArrayRef(), type.getRank());
    return true;
  }
  return false;
}

std::optional<FactorMap> Planner::factorMapOf(const ENode &node) {
  StringRef name = tg.getOpName(node.op).getStringRef();
  auto type = dyn_cast<TileType>(tg.getType(node));
  if (!type)
    return std::nullopt;
  auto child = [&](unsigned i) { return eg.find(node.children[i]); };
  auto attrInt = [&](StringRef key) -> std::optional<int64_t> {
    if (auto a = dyn_cast_or_null<IntegerAttr>(
            tg.getAttrs(node.payload).get(key)))
      return a.getInt();
    return std::nullopt;
  };
  if (name == "tile.exp") {
    // exp(Y - M) with Y independent of M.
    for (const ENode &sub : eg.getClass(child(0)).nodes) {
      if (tg.getOpName(sub.op).getStringRef() != "tile.sub" ||
          readsM(sub.children[0]))
        continue;
      FactorMap map;
      if (isMaxOperand(sub.children[1], map))
        return map;
    }
    return std::nullopt;
  }
  if (name == "tile.add" || name == "tile.sub") {
    std::optional<FactorMap> a = factorMapOf(child(0));
    std::optional<FactorMap> b = factorMapOf(child(1));
    if (a && b && *a == *b)
      return a;
    return std::nullopt;
  }
  if (name == "tile.mul") {
    if (!readsM(child(1)))
      return factorMapOf(child(0));
    if (!readsM(child(0)))
      return factorMapOf(child(1));
    return std::nullopt;
  }
  if (name == "tile.div") {
    if (readsM(child(1)))
      return std::nullopt;
    return factorMapOf(child(0));
  }
  if (name == "tile.neg" || name == "tile.cast")
    return factorMapOf(child(0));
  if (name == "tile.rsum") {
    std::optional<FactorMap> a = factorMapOf(child(0));
    std::optional<int64_t> axis = attrInt("axis");
    if (!a || !axis || *axis < 0 || *axis >= (int64_t)a->size() ||
        (*a)[*axis] != -1)
      return std::nullopt;
    a->erase(a->begin() + *axis);
    return a;
  }
  if (name == "tile.bcast") {
    std::optional<FactorMap> a = factorMapOf(child(0));
    auto dims = dyn_cast_or_null<DenseI64ArrayAttr>(
        tg.getAttrs(node.payload).get("dims"));
    if (!a || !dims)
      return std::nullopt;
    return broadcastMap(*a, dims.asArrayRef(), type.getRank());
  }
  if (name == "tile.matmul") {
    int64_t rank = type.getRank();
    bool lhsLinear = readsM(child(0)), rhsLinear = readsM(child(1));
    if (lhsLinear == rhsLinear)
      return std::nullopt;
    std::optional<FactorMap> a = factorMapOf(child(lhsLinear ? 0 : 1));
    if (!a || (int64_t)a->size() != rank)
      return std::nullopt;
    // The factor must be constant along the contraction dimension.
    int64_t k = lhsLinear ? rank - 1 : rank - 2;
    if ((*a)[k] != -1)
      return std::nullopt;
    FactorMap map(a->begin(), a->begin() + rank - 2);
    if (lhsLinear) {
      map.push_back((*a)[rank - 2]);
      map.push_back(-1);
    } else {
      map.push_back(-1);
      map.push_back((*a)[rank - 1]);
    }
    return map;
  }
  return std::nullopt;
}

std::optional<FactorMap> Planner::factorMapOf(Id c) {
  c = eg.find(c);
  if (auto it = memo.find(c); it != memo.end())
    return it->second;
  if (!readsM(c) || !visiting.insert(c).second)
    return std::nullopt;
  std::optional<FactorMap> result;
  std::vector<ENode> nodes = eg.getClass(c).nodes;
  for (const ENode &node : nodes)
    if (tg.getKind(node) == NodeKind::Compute)
      if ((result = factorMapOf(node)))
        break;
  visiting.erase(c);
  memo[c] = result;
  return result;
}

/// The stores of statement `stmt`, if it is (a sequence of) stores.
bool Planner::collect(Id stmt, llvm::SmallVectorImpl<Id> &stores,
                      unsigned depth) {
  if (depth > 16)
    return false;
  stmt = eg.find(stmt);
  for (const ENode &node : eg.getClass(stmt).nodes) {
    if (tg.getKind(node) == NodeKind::Store) {
      stores.push_back(stmt);
      return true;
    }
  }
  for (const ENode &node : eg.getClass(stmt).nodes) {
    if (tg.getKind(node) != NodeKind::Seq)
      continue;
    size_t mark = stores.size();
    if (collect(node.children[0], stores, depth + 1) &&
        collect(node.children[1], stores, depth + 1))
      return true;
    stores.resize(mark);
  }
  return false;
}

std::optional<Accumulation> Planner::accumulation(Id store) {
  for (const ENode &st : eg.getClass(store).nodes) {
    if (tg.getKind(st) != NodeKind::Store)
      continue;
    Id tensorLeaf = eg.find(st.children[1]);
    uint32_t t = tg.data(tensorLeaf).tensor;
    if (t == ~0u || t == mTensor || !ctx.facts.zeroInitAccumulators.contains(t))
      continue;
    llvm::SmallVector<Id, 4> operands;
    bool movesWithVar = false;
    for (Id c : llvm::ArrayRef(st.children).drop_front()) {
      operands.push_back(eg.find(c));
      movesWithVar |= tg.data(c).usesVar(var);
    }
    if (movesWithVar)
      continue;
    for (const ENode &add : eg.getClass(st.children[0]).nodes) {
      if (tg.getOpName(add.op).getStringRef() != "tile.add")
        continue;
      for (unsigned side = 0; side < 2; ++side) {
        Id ld = eg.find(add.children[side]);
        bool isLoadT = llvm::any_of(eg.getClass(ld).nodes, [&](const ENode &n) {
          if (tg.getKind(n) != NodeKind::Load ||
              n.children.size() != operands.size())
            return false;
          for (auto [a, b] : llvm::zip(n.children, operands))
            if (eg.find(a) != b)
              return false;
          return true;
        });
        if (!isLoadT)
          continue;
        Id g = eg.find(add.children[1 - side]);
        std::optional<FactorMap> map = factorMapOf(g);
        if (!map)
          continue;
        Accumulation acc;
        acc.loadT = ld;
        acc.value = g;
        acc.storeOperands = operands;
        acc.map = *map;
        acc.tensor = t;
        return acc;
      }
    }
  }
  return std::nullopt;
}

std::optional<OnlinePlan> Planner::plan(Id newMax, Id maxStore, Id b2) {
  const ClassData &ld = tg.data(loadM);
  if (ld.accesses.size() != 1 || ld.accesses[0].write || ld.usesVar(var))
    return std::nullopt;
  const Access &mAccess = ld.accesses[0];
  mTensor = mAccess.tensor;
  auto mType = dyn_cast<TileType>(ld.type);
  if (!mType)
    return std::nullopt;
  mRank = mType.getRank();

  llvm::SmallVector<Id> stores;
  if (!collect(b2, stores, 0))
    return std::nullopt;
  OnlinePlan plan;
  plan.loadM = loadM;
  plan.newMax = eg.find(newMax);
  plan.maxStore = eg.find(maxStore);
  for (Id store : stores) {
    std::optional<Accumulation> acc = accumulation(store);
    if (!acc)
      return std::nullopt;
    // T's tile shows M's dimensions in order, the rest constant.
    auto tType = cast<TileType>(tg.data(acc->value).type);
    int expect = 0;
    for (auto [i, m] : llvm::enumerate(acc->map)) {
      if (m == -1)
        continue;
      if (m != expect++ ||
          tType.getShape()[i] != mType.getShape()[m])
        return std::nullopt;
    }
    if (expect != (int)mRank)
      return std::nullopt;
    plan.accumulations.push_back(std::move(*acc));
  }
  // G reads M only as the old max, and no accumulator; b2 writes only the
  // accumulators, none of which the max loop reads.
  llvm::DenseSet<uint32_t> accumulators, firstTouches;
  for (const Accumulation &acc : plan.accumulations)
    accumulators.insert(acc.tensor);
  for (const Access &a : tg.data(maxStore).accesses)
    firstTouches.insert(a.tensor);
  for (const Accumulation &acc : plan.accumulations) {
    for (const Access &a : tg.data(acc.value).accesses) {
      if (a.write || accumulators.contains(a.tensor))
        return std::nullopt;
      if (a.tensor == mTensor && a.dims != mAccess.dims)
        return std::nullopt;
    }
  }
  for (const Access &a : tg.data(b2).accesses)
    if (a.write && (firstTouches.contains(a.tensor) ||
                    !accumulators.contains(a.tensor)))
      return std::nullopt;
  return plan;
}

static std::optional<OnlinePlan> planOnline(RuleContext &ctx,
                                            llvm::ArrayRef<const PdlSlot *> args) {
  if (!isClass(args, 5))
    return std::nullopt;
  uint32_t var = ctx.tg.data(args[0]->cls).var;
  if (var == ~0u)
    return std::nullopt;
  Planner planner(ctx, var, args[1]->cls);
  return planner.plan(args[2]->cls, args[3]->cls, args[4]->cls);
}

/// OnlineSoftmaxLegal(v, load M, max(M, rmax X), M = max(...), b2).
static bool onlineSoftmaxLegal(RuleContext &ctx,
                               llvm::ArrayRef<const PdlSlot *> args) {
  return planOnline(ctx, args).has_value();
}

/// OnlineSoftmaxFuse(v, load M, max(M, rmax X), M = max(...), b2) -> the
/// fused loop body.
static LogicalResult onlineSoftmaxFuse(RuleContext &ctx,
                                       llvm::ArrayRef<const PdlSlot *> args,
                                       llvm::SmallVectorImpl<PdlSlot> &results) {
  std::optional<OnlinePlan> plan = planOnline(ctx, args);
  if (!plan)
    return failure();
  TileEGraph &tg = ctx.tg;
  MLIRContext *mctx = tg.getContext();
  auto mType = cast<TileType>(tg.data(plan->loadM).type);
  auto splat = [&](double v) { return addSplat(tg, mType, v); };
  auto boolType =
      TileType::get(mctx, mType.getShape(), IntegerType::get(mctx, 1));
  Id noMax = tg.add(
      "tile.cmp", {plan->newMax, splat(-INFINITY)},
      {NamedAttribute(StringAttr::get(mctx, "predicate"),
                      CmpPredicateAttr::get(mctx, CmpPredicate::eq))},
      boolType);
  Id zero = splat(0.0);
  Id safeMax = tg.add("tile.select", {noMax, zero, plan->newMax}, {}, mType);
  // M <= M', so the min changes nothing where M - M' is a number; a start
  // value that is not (linalg.softmax's max starts at NaN and relies on
  // maxNum) gives alpha = 1 against a zero accumulator instead of NaN.
  Id shift = tg.add("tile.min",
                    {tg.add("tile.sub", {plan->loadM, safeMax}, {}, mType),
                     zero},
                    {}, mType);
  Id alpha = tg.add("tile.exp", {shift}, {}, mType);
  Substitution subst;
  subst.classes[plan->loadM] = safeMax;
  Type stmt = StmtType::get(mctx);
  Id body = plan->maxStore;
  for (const Accumulation &acc : llvm::reverse(plan->accumulations)) {
    FailureOr<Id> g = substitute(tg, acc.value, subst);
    if (failed(g))
      return failure();
    auto tType = cast<TileType>(tg.data(acc.value).type);
    Id scale = alpha;
    llvm::SmallVector<int64_t> dims;
    for (auto [i, m] : llvm::enumerate(acc.map))
      if (m == -1)
        dims.push_back(i);
    if (!dims.empty())
      scale = addBcast(tg, alpha, DenseI64ArrayAttr::get(mctx, dims), tType);
    Id rescaled = tg.add("tile.mul", {acc.loadT, scale}, {}, tType);
    Id sum = tg.add("tile.add", {rescaled, *g}, {}, tType);
    llvm::SmallVector<Id, 4> operands{sum};
    operands.append(acc.storeOperands.begin(), acc.storeOperands.end());
    Id store = tg.add("tile.store", operands, {}, stmt);
    body = tg.add("tile.seq", {store, body}, {}, stmt);
  }
  results.push_back(PdlSlot::ofClass(body));
  return success();
}

void mlir::tileir::registerOnlineSoftmaxNatives(NativeRegistry &registry) {
  registry.constraints["OnlineSoftmaxLegal"] = onlineSoftmaxLegal;
  registry.rewrites["OnlineSoftmaxFuse"] = onlineSoftmaxFuse;
}
