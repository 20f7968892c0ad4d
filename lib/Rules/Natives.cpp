//===- Natives.cpp - Native constraints and rewrites of the rules ---------===//

#include "TileDialect/Rules/Natives.h"
#include "NativeBuilders.h"
#include "OnlineSoftmax.h"
#include "TileDialect/IR/TileTypes.h"
#include "TileDialect/Saturation/Legality.h"
#include "TileDialect/Saturation/Substitute.h"

using namespace mlir;
using namespace mlir::tileir;
using egraph::Id;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static const ClassData &dataOf(RuleContext &ctx, const PdlSlot *s) {
  return ctx.tg.data(s->cls);
}
static uint32_t varOf(RuleContext &ctx, const PdlSlot *s) {
  return ctx.tg.data(s->cls).var;
}

/// Whether nothing `x` reads may be written by `y`.
static bool readsMissWrites(RuleContext &ctx, const ClassData &x,
                            const ClassData &y) {
  return independent(ctx.tg, x, y, AccessFilter::Reads, AccessFilter::Writes);
}
static bool writesMissWrites(RuleContext &ctx, const ClassData &x,
                             const ClassData &y) {
  return independent(ctx.tg, x, y, AccessFilter::Writes,
                     AccessFilter::Writes);
}

//===----------------------------------------------------------------------===//
// Loop-structure guards
//===----------------------------------------------------------------------===//

/// Commutes(a, b): swapping two statements keeps every dependence.
static bool commutes(RuleContext &ctx, llvm::ArrayRef<const PdlSlot *> args) {
  if (!isClass(args, 2))
    return false;
  const ClassData &a = dataOf(ctx, args[0]), &b = dataOf(ctx, args[1]);
  return a.hasNonSeqNode && b.hasNonSeqNode && independent(ctx.tg, a, b);
}

/// FusionLegal(v, b1, b2): `loop v b1; loop v b2` == `loop v (b1; b2)`:
/// no access of b1 in iteration i meets a conflicting access of b2 in an
/// earlier iteration j < i (the pairs whose order fusion swaps).
static bool fusionLegal(RuleContext &ctx,
                        llvm::ArrayRef<const PdlSlot *> args) {
  if (!isClass(args, 3))
    return false;
  uint32_t v = varOf(ctx, args[0]);
  return v != ~0u &&
         independent(ctx.tg, dataOf(ctx, args[1]), dataOf(ctx, args[2]),
                     AccessFilter::All, AccessFilter::All,
                     DependenceQuery::Order{v, v});
}

/// A statement with no loop in any member: what insertions 1 and 2 move.
static bool isStraightLine(const ClassData &d) {
  return !d.hasLoop && d.hasNonSeqNode;
}

/// A loop nest computing no matmul: what the producer insertion moves.
static bool isProducerNest(const ClassData &d) {
  return d.hasLoop && !d.hasMatmul && d.hasNonSeqNode;
}

/// InsertAfterLegal(v, b1, b2): `loop v b1; b2` == `loop v (b1; b2)`: b2
/// is straight-line code (no member with a loop: nests move by the
/// producer and recompute insertions, whose guards ask that the loop needs
/// them), does not use v, is idempotent, and b1 never reads what b2
/// writes.
static bool insertAfterLegal(RuleContext &ctx,
                             llvm::ArrayRef<const PdlSlot *> args) {
  if (!isClass(args, 3))
    return false;
  uint32_t v = varOf(ctx, args[0]);
  const ClassData &b1 = dataOf(ctx, args[1]), &b2 = dataOf(ctx, args[2]);
  return v != ~0u && !b2.usesVar(v) && isStraightLine(b2) &&
         isIdempotent(ctx.tg, b2) && readsMissWrites(ctx, b1, b2);
}

/// InsertBeforeLegal(v, b1, b2): `b1; loop v b2` == `loop v (b1; b2)`: b1
/// is straight-line code, does not use v, is idempotent, and b2 never
/// writes what b1 reads or writes (it may read what b1 writes).
static bool insertBeforeLegal(RuleContext &ctx,
                              llvm::ArrayRef<const PdlSlot *> args) {
  if (!isClass(args, 3))
    return false;
  uint32_t v = varOf(ctx, args[0]);
  const ClassData &b1 = dataOf(ctx, args[1]), &b2 = dataOf(ctx, args[2]);
  return v != ~0u && !b1.usesVar(v) && isStraightLine(b1) &&
         isIdempotent(ctx.tg, b1) && readsMissWrites(ctx, b1, b2) &&
         writesMissWrites(ctx, b1, b2);
}

/// The one tensor `d` writes, if it writes exactly one.
static std::optional<uint32_t> onlyWrittenTensor(const ClassData &d) {
  std::optional<uint32_t> t;
  for (const Access &a : d.accesses) {
    if (!a.write)
      continue;
    if (t && *t != a.tensor)
      return std::nullopt;
    t = a.tensor;
  }
  return t;
}

/// The input's writer of the zero-start accumulator b1 computes, if b1 is
/// (equivalent to) that whole top-level statement and writes nothing else.
static const ProgramFacts::Writer *accumulatorWriter(RuleContext &ctx,
                                                     const PdlSlot *b1) {
  std::optional<uint32_t> t = onlyWrittenTensor(dataOf(ctx, b1));
  if (!t)
    return nullptr;
  auto it = ctx.facts.accumulatorWriters.find(*t);
  egraph::EGraph &eg = ctx.tg.graph();
  if (it == ctx.facts.accumulatorWriters.end() ||
      eg.find(it->second.statement) != eg.find(b1->cls))
    return nullptr;
  return &it->second;
}

/// The guards both recomputing insertions share, for `b1; loop v b2` ==
/// `loop v (...; b1; b2)`: the loop runs at least once, b1 neither uses nor
/// binds v, b2 reads something b1 writes (elsewhere the copy is pure cost)
/// but no part of it that moves with v (that is loop fusion's case), and
/// b2 writes nothing b1 reads or writes.
static bool recomputeLegal(RuleContext &ctx,
                           llvm::ArrayRef<const PdlSlot *> args) {
  if (!isClass(args, 3))
    return false;
  uint32_t v = varOf(ctx, args[0]);
  if (v == ~0u)
    return false;
  const LoopRange *range = ctx.tg.getLoopRange(v);
  const ClassData &b1 = dataOf(ctx, args[1]), &b2 = dataOf(ctx, args[2]);
  if (!range || range->end <= range->start || b1.usesVar(v) || b1.bindsVar(v))
    return false;
  // b2 reads what b1 writes, and never a part that moves with v: each
  // iteration needs all of it (otherwise fusing the two loops splits the
  // producer across the iterations instead of repeating it).
  bool readsWritten = false;
  for (const Access &r : b2.accesses) {
    if (r.write || llvm::none_of(b1.accesses, [&](const Access &w) {
          return w.write && w.tensor == r.tensor;
        }))
      continue;
    if (llvm::any_of(r.dims, [&](const IndexTerm &t) { return t.usesVar(v); }))
      return false;
    readsWritten = true;
  }
  return readsWritten && readsMissWrites(ctx, b1, b2) &&
         writesMissWrites(ctx, b1, b2);
}

/// RecomputeBeforeLegal(v, b1, b2): `b1; loop v b2` ==
/// `loop v (T = 0; b1; b2)` where b1 is the input's whole writer of a
/// zero-start accumulator T (ProgramFacts::accumulatorWriters) and writes
/// nothing else: every iteration clears T and recomputes it, so b2 reads
/// the value b1 left, and T holds it after the loop. b1 may contain loops
/// and read T (it accumulates). See recomputeLegal for the other guards.
static bool recomputeBeforeLegal(RuleContext &ctx,
                                 llvm::ArrayRef<const PdlSlot *> args) {
  // The writer lookup first: it refuses almost every match, cheaply.
  return isClass(args, 3) && accumulatorWriter(ctx, args[1]) &&
         recomputeLegal(ctx, args);
}

/// ProducerBeforeLegal(v, b1, b2): `b1; loop v b2` == `loop v (b1; b2)`
/// for a loop nest b1 that is idempotent (reads nothing it writes), so
/// every iteration recomputes the same values: an elementwise producer
/// (RMSNorm's normalized rows) moving into the loop of the projection that
/// reads it. Contractions are not repeated (b1 computes no matmul);
/// straight-line b1 is LoopInsertion2's. See recomputeLegal for the rest.
static bool producerBeforeLegal(RuleContext &ctx,
                                llvm::ArrayRef<const PdlSlot *> args) {
  if (!isClass(args, 3))
    return false;
  // The class's flags first: they refuse most matches, cheaply.
  const ClassData &b1 = dataOf(ctx, args[1]);
  return isProducerNest(b1) && recomputeLegal(ctx, args) &&
         isIdempotent(ctx.tg, b1);
}

/// StraightLine(b): b is a statement with no loop, as insertions 1 and 2
/// move (part of their guards).
static bool straightLine(RuleContext &ctx,
                         llvm::ArrayRef<const PdlSlot *> args) {
  return isClass(args, 1) && isStraightLine(dataOf(ctx, args[0]));
}

/// ProducerNest(b): b is a loop nest computing no matmul, as the producer
/// insertion moves (part of ProducerBeforeLegal).
static bool producerNest(RuleContext &ctx,
                         llvm::ArrayRef<const PdlSlot *> args) {
  return isClass(args, 1) && isProducerNest(dataOf(ctx, args[0]));
}

/// AccumulatorWriter(b): b is the input's whole writer of a zero-start
/// accumulator (part of RecomputeBeforeLegal).
static bool isAccumulatorWriter(RuleContext &ctx,
                                llvm::ArrayRef<const PdlSlot *> args) {
  return isClass(args, 1) && accumulatorWriter(ctx, args[0]);
}

/// LoopInvariant(v, body): `loop v body` == `body`.
static bool loopInvariant(RuleContext &ctx,
                          llvm::ArrayRef<const PdlSlot *> args) {
  if (!isClass(args, 2))
    return false;
  uint32_t v = varOf(ctx, args[0]);
  const ClassData &body = dataOf(ctx, args[1]);
  return v != ~0u && !body.usesVar(v) && isIdempotent(ctx.tg, body);
}

/// NotUsesVar(v, x).
static bool notUsesVar(RuleContext &ctx,
                       llvm::ArrayRef<const PdlSlot *> args) {
  if (!isClass(args, 2))
    return false;
  uint32_t v = varOf(ctx, args[0]);
  return v != ~0u && !dataOf(ctx, args[1]).usesVar(v);
}

/// ZeroInitAccumulator(T): T starts zero and its first writer is the
/// accumulation that matched (see ProgramFacts).
static bool zeroInitAccumulator(RuleContext &ctx,
                                llvm::ArrayRef<const PdlSlot *> args) {
  if (!isClass(args, 1))
    return false;
  uint32_t t = dataOf(ctx, args[0]).tensor;
  return t != ~0u && ctx.facts.zeroInitAccumulators.contains(t);
}

//===----------------------------------------------------------------------===//
// Value guards
//===----------------------------------------------------------------------===//

/// BroadcastsLastDim(dims, t): `dims` is exactly the last dimension of tile
/// type t (the contraction dimension of a matmul's left operand).
static bool broadcastsLastDim(RuleContext &,
                              llvm::ArrayRef<const PdlSlot *> args) {
  if (args.size() != 2 || args[0]->kind != PdlSlot::Attr ||
      args[1]->kind != PdlSlot::TypeVal)
    return false;
  auto dims = dyn_cast<DenseI64ArrayAttr>(args[0]->attr);
  auto tile = dyn_cast<TileType>(args[1]->type);
  return dims && tile && dims.size() == 1 &&
         dims[0] == tile.getRank() - 1;
}

/// ElementTypeOf(x, t): x's element type is t's.
static bool sameElementType(RuleContext &ctx,
                            llvm::ArrayRef<const PdlSlot *> args) {
  if (args.size() != 2 || args[0]->kind != PdlSlot::Class ||
      args[1]->kind != PdlSlot::TypeVal)
    return false;
  auto a = dyn_cast<TileType>(dataOf(ctx, args[0]).type);
  auto b = dyn_cast<TileType>(args[1]->type);
  return a && b && a.getElementType() == b.getElementType();
}

/// SameType(x, y).
static bool sameType(RuleContext &ctx, llvm::ArrayRef<const PdlSlot *> args) {
  return isClass(args, 2) &&
         dataOf(ctx, args[0]).type == dataOf(ctx, args[1]).type;
}

/// IsSplat(x, value): x is a splat constant equal to `value` (a float attr).
static bool isSplat(RuleContext &ctx, llvm::ArrayRef<const PdlSlot *> args) {
  if (args.size() != 2 || args[0]->kind != PdlSlot::Class ||
      args[1]->kind != PdlSlot::Attr)
    return false;
  auto f = dyn_cast<FloatAttr>(args[1]->attr);
  const ClassData &d = dataOf(ctx, args[0]);
  return f && d.splat && *d.splat == f.getValueAsDouble();
}

/// NonZero(x): x is a non-zero splat or an exponential.
static bool nonZero(RuleContext &ctx, llvm::ArrayRef<const PdlSlot *> args) {
  if (!isClass(args, 1))
    return false;
  const ClassData &d = dataOf(ctx, args[0]);
  if (d.splat)
    return *d.splat != 0;
  egraph::EGraph &eg = ctx.tg.graph();
  for (const egraph::ENode &n : eg.getClass(eg.find(args[0]->cls)).nodes)
    if (ctx.tg.getOpName(n.op).getStringRef() == "tile.exp")
      return true;
  return false;
}

/// RankIs(x, n).
static bool rankIs(RuleContext &ctx, llvm::ArrayRef<const PdlSlot *> args) {
  if (args.size() != 2 || args[0]->kind != PdlSlot::Class ||
      args[1]->kind != PdlSlot::Attr)
    return false;
  auto tile = dyn_cast<TileType>(dataOf(ctx, args[0]).type);
  auto n = dyn_cast<IntegerAttr>(args[1]->attr);
  return tile && n && tile.getRank() == n.getInt();
}

/// The type of `concat(x, y)` along `axis`, if the operands agree elsewhere.
static TileType concatType(TileType x, TileType y, int64_t axis) {
  if (!x || !y || x.getRank() != y.getRank() || axis < 0 ||
      axis >= x.getRank() || x.getElementType() != y.getElementType())
    return nullptr;
  llvm::SmallVector<TileDim> shape(x.getShape());
  for (int64_t d = 0; d < x.getRank(); ++d)
    if (d != axis && x.getShape()[d] != y.getShape()[d])
      return nullptr;
  std::optional<TileDim> sum = shape[axis].add(y.getShape()[axis]);
  if (!sum)
    return nullptr;
  shape[axis] = *sum;
  return TileType::get(x.getContext(), shape, x.getElementType());
}

/// Concatenable(x, y, axis).
static bool concatenable(RuleContext &ctx,
                         llvm::ArrayRef<const PdlSlot *> args) {
  if (args.size() != 3 || args[0]->kind != PdlSlot::Class ||
      args[1]->kind != PdlSlot::Class || args[2]->kind != PdlSlot::Attr)
    return false;
  auto axis = dyn_cast<IntegerAttr>(args[2]->attr);
  return axis && concatType(dyn_cast<TileType>(dataOf(ctx, args[0]).type),
                            dyn_cast<TileType>(dataOf(ctx, args[1]).type),
                            axis.getInt());
}

/// The shape of `matmul(a, b)` with element type `et`.
static TileType matmulType(TileType a, TileType b, Type et) {
  if (!a || !b || a.getRank() != b.getRank() || a.getRank() < 2)
    return nullptr;
  int64_t r = a.getRank();
  if (a.getShape()[r - 1] != b.getShape()[r - 2])
    return nullptr;
  llvm::SmallVector<TileDim> shape(a.getShape().drop_back());
  shape.push_back(b.getShape()[r - 1]);
  for (int64_t d = 0; d + 2 < r; ++d)
    if (a.getShape()[d] != b.getShape()[d])
      return nullptr;
  return TileType::get(a.getContext(), shape, et);
}

/// Contractible(a, b): matmul(a, b) is well-formed.
static bool contractible(RuleContext &ctx,
                         llvm::ArrayRef<const PdlSlot *> args) {
  if (!isClass(args, 2))
    return false;
  auto a = dyn_cast<TileType>(dataOf(ctx, args[0]).type);
  auto b = dyn_cast<TileType>(dataOf(ctx, args[1]).type);
  return a && b && a.getElementType() == b.getElementType() &&
         matmulType(a, b, a.getElementType());
}

//===----------------------------------------------------------------------===//
// Rewrites
//===----------------------------------------------------------------------===//

/// BroadcastTo(b, dims, like): `tile.bcast b [dims]` with the shape of `like`
/// and b's element type.
static LogicalResult broadcastTo(RuleContext &ctx,
                                 llvm::ArrayRef<const PdlSlot *> args,
                                 llvm::SmallVectorImpl<PdlSlot> &results) {
  if (args.size() != 3 || args[0]->kind != PdlSlot::Class ||
      args[1]->kind != PdlSlot::Attr || args[2]->kind != PdlSlot::Class)
    return failure();
  auto b = dyn_cast<TileType>(dataOf(ctx, args[0]).type);
  auto like = dyn_cast<TileType>(dataOf(ctx, args[2]).type);
  if (!b || !like)
    return failure();
  Type type = TileType::get(ctx.tg.getContext(), like.getShape(),
                            b.getElementType());
  Id id = addBcast(ctx.tg, args[0]->cls, args[1]->attr, type);
  results.push_back(PdlSlot::ofClass(id));
  return success();
}

/// CastLike(x, like): `tile.cast x` to x's shape with like's element type.
static LogicalResult castLike(RuleContext &ctx,
                              llvm::ArrayRef<const PdlSlot *> args,
                              llvm::SmallVectorImpl<PdlSlot> &results) {
  if (!isClass(args, 2))
    return failure();
  auto x = dyn_cast<TileType>(dataOf(ctx, args[0]).type);
  auto like = dyn_cast<TileType>(dataOf(ctx, args[1]).type);
  if (!x || !like)
    return failure();
  if (x.getElementType() == like.getElementType()) {
    results.push_back(PdlSlot::ofClass(args[0]->cls));
    return success();
  }
  Type type = TileType::get(ctx.tg.getContext(), x.getShape(),
                            like.getElementType());
  Id id = ctx.tg.add("tile.cast", {args[0]->cls}, {}, type);
  results.push_back(PdlSlot::ofClass(id));
  return success();
}

/// SplatLike(x, value): a splat constant of x's type.
static LogicalResult splatLike(RuleContext &ctx,
                               llvm::ArrayRef<const PdlSlot *> args,
                               llvm::SmallVectorImpl<PdlSlot> &results) {
  if (args.size() != 2 || args[0]->kind != PdlSlot::Class ||
      args[1]->kind != PdlSlot::Attr)
    return failure();
  auto tile = dyn_cast<TileType>(dataOf(ctx, args[0]).type);
  auto f = dyn_cast<FloatAttr>(args[1]->attr);
  if (!tile || !f)
    return failure();
  Id id = addSplat(ctx.tg, tile, f.getValueAsDouble());
  results.push_back(PdlSlot::ofClass(id));
  return success();
}

/// ResetOf(b1): `T[full, ...] = 0`, for the zero-start accumulator T that
/// b1 writes (see RecomputeBeforeLegal).
static LogicalResult resetOf(RuleContext &ctx,
                             llvm::ArrayRef<const PdlSlot *> args,
                             llvm::SmallVectorImpl<PdlSlot> &results) {
  if (!isClass(args, 1))
    return failure();
  const ProgramFacts::Writer *writer = accumulatorWriter(ctx, args[0]);
  if (!writer)
    return failure();
  TileEGraph &tg = ctx.tg;
  auto tensor = dyn_cast_or_null<TensorRefType>(tg.data(writer->tensor).type);
  if (!tensor)
    return failure();
  MLIRContext *mctx = tg.getContext();
  llvm::SmallVector<TileDim> shape;
  for (int64_t n : tensor.getShape())
    shape.push_back(TileDim::concrete(n));
  Id zero = addSplat(tg, TileType::get(mctx, shape, tensor.getElementType()),
                     0.0);
  Id full = tg.add("tile.full", {}, {}, IndexExprType::get(mctx));
  llvm::SmallVector<Id> operands{zero, writer->tensor};
  operands.append(tensor.getRank(), full);
  Id store = tg.add("tile.store", operands, {}, StmtType::get(mctx));
  results.push_back(PdlSlot::ofClass(store));
  return success();
}

/// ConcatOf(x, y, axis).
static LogicalResult concatOf(RuleContext &ctx,
                              llvm::ArrayRef<const PdlSlot *> args,
                              llvm::SmallVectorImpl<PdlSlot> &results) {
  if (args.size() != 3 || args[0]->kind != PdlSlot::Class ||
      args[1]->kind != PdlSlot::Class || args[2]->kind != PdlSlot::Attr)
    return failure();
  auto axis = dyn_cast<IntegerAttr>(args[2]->attr);
  if (!axis)
    return failure();
  TileType type = concatType(dyn_cast<TileType>(dataOf(ctx, args[0]).type),
                             dyn_cast<TileType>(dataOf(ctx, args[1]).type),
                             axis.getInt());
  if (!type)
    return failure();
  MLIRContext *mctx = ctx.tg.getContext();
  Id id = ctx.tg.add(
      "tile.concat", {args[0]->cls, args[1]->cls},
      {NamedAttribute(StringAttr::get(mctx, "axis"), args[2]->attr)}, type);
  results.push_back(PdlSlot::ofClass(id));
  return success();
}

/// MatmulOf(a, b, like): `matmul(a, b)` with like's element type.
static LogicalResult matmulOf(RuleContext &ctx,
                              llvm::ArrayRef<const PdlSlot *> args,
                              llvm::SmallVectorImpl<PdlSlot> &results) {
  if (!isClass(args, 3))
    return failure();
  auto like = dyn_cast<TileType>(dataOf(ctx, args[2]).type);
  if (!like)
    return failure();
  TileType type = matmulType(dyn_cast<TileType>(dataOf(ctx, args[0]).type),
                             dyn_cast<TileType>(dataOf(ctx, args[1]).type),
                             like.getElementType());
  if (!type)
    return failure();
  Id id = ctx.tg.add("tile.matmul", {args[0]->cls, args[1]->cls}, {}, type);
  results.push_back(PdlSlot::ofClass(id));
  return success();
}

//===----------------------------------------------------------------------===//
// Loop fusion with iteration-space reindexing
//===----------------------------------------------------------------------===//

namespace {
/// How `loop v1 b1; loop v2 b2` fuses into one loop over `to`.
struct ReindexPlan {
  uint32_t from = ~0u, to = ~0u;
  bool reindexFirst = false; ///< b1 is re-expressed (else b2)
  /// Tiles of `from` become elements of `to` (Substitution::tileToElem).
  bool tileToElem = false;
  StringAttr sizeSymbol;     ///< specialized in the re-expressed body
  int64_t sizeValue = 0;
};
} // namespace

static std::optional<int64_t> tripCount(const LoopRange &r) {
  if (!r.step.isConcrete() || r.step.getConcrete() <= 0)
    return std::nullopt;
  int64_t n = r.end - r.start;
  if (n % r.step.getConcrete())
    return std::nullopt;
  return n / r.step.getConcrete();
}

/// Summary of `d` after renaming variable `from` to `to` (and its tiles to
/// elements of `to` with `tileToElem`).
static ClassData renamed(const ClassData &d, uint32_t from, uint32_t to,
                         bool tileToElem) {
  ClassData out = d;
  for (Access &a : out.accesses.mutate())
    for (IndexTerm &t : a.dims)
      if (t.usesVar(from)) {
        t.var = to;
        if (tileToElem && t.kind == IndexTerm::Tile)
          t.kind = IndexTerm::Elem;
      }
  for (uint32_t &v : out.freeVars)
    if (v == from)
      v = to;
  llvm::sort(out.freeVars);
  return out;
}

/// Whether any `tile.tile %from` is reachable in the class (a tile index
/// changes its extent unless the steps agree).
static bool usesTileOf(RuleContext &ctx, Id cls, uint32_t var) {
  const ClassData &d = ctx.tg.data(cls);
  for (const Access &a : d.accesses)
    for (const IndexTerm &t : a.dims)
      if (t.kind == IndexTerm::Tile && t.var == var)
        return true;
  return false;
}

/// Whether a free variable of `d` other than `var` steps by tile size `sym`
/// (specializing `sym` in `d` would change that loop too).
static bool otherVarStepsBy(TileEGraph &tg, const ClassData &d, uint32_t var,
                            StringAttr sym) {
  return llvm::any_of(d.freeVars, [&](uint32_t w) {
    const LoopRange *r = tg.getLoopRange(w);
    return w != var && r && r->step.sym == sym;
  });
}

static std::optional<ReindexPlan>
planReindex(RuleContext &ctx, llvm::ArrayRef<const PdlSlot *> args) {
  if (!isClass(args, 4))
    return std::nullopt;
  TileEGraph &tg = ctx.tg;
  uint32_t v1 = varOf(ctx, args[0]), v2 = varOf(ctx, args[2]);
  if (v1 == ~0u || v2 == ~0u || v1 == v2)
    return std::nullopt;
  const LoopRange *r1 = tg.getLoopRange(v1), *r2 = tg.getLoopRange(v2);
  if (!r1 || !r2 || r1->start != 0 || r2->start != 0)
    return std::nullopt;
  ReindexPlan plan;
  // The loop with a concrete step keeps its variable; the first if both.
  bool c1 = r1->step.isConcrete(), c2 = r2->step.isConcrete();
  plan.reindexFirst = !c1 && c2;
  plan.from = plan.reindexFirst ? v1 : v2;
  plan.to = plan.reindexFirst ? v2 : v1;
  const LoopRange &src = plan.reindexFirst ? *r1 : *r2;
  const LoopRange &dst = plan.reindexFirst ? *r2 : *r1;
  TileDim srcStep = src.step;
  if (c1 && c2) {
    if (tripCount(*r1) != tripCount(*r2))
      return std::nullopt;
  } else if (c1 != c2) {
    // Specialize the symbolic step so the trip counts agree.
    std::optional<int64_t> trips = tripCount(dst);
    if (!trips || *trips == 0 || src.end % *trips ||
        src.step.coeff != 1)
      return std::nullopt;
    plan.sizeSymbol = src.step.sym;
    plan.sizeValue = src.end / *trips;
    srcStep = TileDim::concrete(plan.sizeValue);
  } else {
    if (r1->step != r2->step || r1->end != r2->end)
      return std::nullopt;
  }
  Id srcBody = plan.reindexFirst ? args[1]->cls : args[3]->cls;
  const ClassData &sb = tg.data(srcBody);
  if (sb.usesVar(plan.to) || sb.bindsVar(plan.to))
    return std::nullopt;
  // A tile of `from` is re-expressed over `to` only where the steps agree,
  // or where it is one element (Trinity's (tile h) with tile_h = 1 against
  // (elem n) of a loop stepping by the head size): it becomes `tile.elem`.
  if (srcStep != dst.step && usesTileOf(ctx, srcBody, plan.from)) {
    if (srcStep != TileDim::concrete(1))
      return std::nullopt;
    plan.tileToElem = true;
  }
  if (plan.sizeSymbol && otherVarStepsBy(tg, sb, plan.from, plan.sizeSymbol))
    return std::nullopt;
  return plan;
}

/// ReindexFusionLegal(v1, b1, v2, b2).
static bool reindexFusionLegal(RuleContext &ctx,
                               llvm::ArrayRef<const PdlSlot *> args) {
  std::optional<ReindexPlan> plan = planReindex(ctx, args);
  if (!plan)
    return false;
  ClassData b1 = dataOf(ctx, args[1]), b2 = dataOf(ctx, args[3]);
  if (plan->reindexFirst)
    b1 = renamed(b1, plan->from, plan->to, plan->tileToElem);
  else
    b2 = renamed(b2, plan->from, plan->to, plan->tileToElem);
  return independent(ctx.tg, b1, b2, AccessFilter::All, AccessFilter::All,
                     DependenceQuery::Order{plan->to, plan->to});
}

/// ReindexFuse(v1, b1, v2, b2) -> `loop to (b1'; b2')`.
static LogicalResult reindexFuse(RuleContext &ctx,
                                 llvm::ArrayRef<const PdlSlot *> args,
                                 llvm::SmallVectorImpl<PdlSlot> &results) {
  std::optional<ReindexPlan> plan = planReindex(ctx, args);
  if (!plan)
    return failure();
  TileEGraph &tg = ctx.tg;
  Substitution subst;
  subst.fromVar = plan->from;
  subst.toVar = plan->to;
  subst.sizeSymbol = plan->sizeSymbol;
  subst.sizeValue = plan->sizeValue;
  subst.tileToElem = plan->tileToElem;
  Id b1 = args[1]->cls, b2 = args[3]->cls;
  FailureOr<Id> moved = substitute(tg, plan->reindexFirst ? b1 : b2, subst);
  if (failed(moved))
    return failure();
  (plan->reindexFirst ? b1 : b2) = *moved;
  MLIRContext *mctx = tg.getContext();
  Type stmt = StmtType::get(mctx);
  Id body = tg.add("tile.seq", {b1, b2}, {}, stmt);
  const LoopRange *r = tg.getLoopRange(plan->to);
  Id step = tg.add(
      "tile.size", {},
      {NamedAttribute(StringAttr::get(mctx, "value"),
                      r->step.isConcrete()
                          ? Attribute(IntegerAttr::get(
                                IntegerType::get(mctx, 64),
                                r->step.getConcrete()))
                          : Attribute(r->step.sym))},
      SizeType::get(mctx));
  auto i64 = IntegerType::get(mctx, 64);
  Id loop = tg.add(
      "tile.loop", {tg.getVarClass(plan->to), step, body},
      {NamedAttribute(StringAttr::get(mctx, "start"),
                      IntegerAttr::get(i64, r->start)),
       NamedAttribute(StringAttr::get(mctx, "end"),
                      IntegerAttr::get(i64, r->end))},
      stmt);
  results.push_back(PdlSlot::ofClass(loop));
  return success();
}

//===----------------------------------------------------------------------===//
// Whole loops
//===----------------------------------------------------------------------===//

/// The largest range a loop may be run whole over: one tile of this many
/// elements still fits the register and shared-memory tiles the lowering
/// uses (the targets' largest default tile size).
static constexpr int64_t kMaxWholeLoopExtent = 128;

/// How `loop v = 0 to n step tile_v body b` runs as one iteration: tiles of
/// v become [0, n) and tile_v becomes n in the body.
static std::optional<Substitution>
planWhole(RuleContext &ctx, llvm::ArrayRef<const PdlSlot *> args) {
  if (!isClass(args, 2))
    return std::nullopt;
  TileEGraph &tg = ctx.tg;
  uint32_t v = varOf(ctx, args[0]);
  const LoopRange *r = v == ~0u ? nullptr : tg.getLoopRange(v);
  if (!r || r->start != 0 || r->step.isConcrete() || r->step.coeff != 1)
    return std::nullopt;
  int64_t n = r->end - r->start;
  if (n <= 1 || n > kMaxWholeLoopExtent)
    return std::nullopt;
  const ClassData &b = tg.data(args[1]->cls);
  for (const Access &a : b.accesses) {
    for (const IndexTerm &t : a.dims)
      if (t.kind == IndexTerm::Elem && t.var == v)
        return std::nullopt;
    // Only parallel loops: every write is to the iteration's own tile.
    if (a.write && llvm::none_of(a.dims, [&](const IndexTerm &t) {
          return t.kind == IndexTerm::Tile && t.var == v;
        }))
      return std::nullopt;
  }
  if (otherVarStepsBy(tg, b, v, r->step.sym))
    return std::nullopt;
  Substitution subst;
  subst.wholeVar = v;
  subst.wholeExtent = n;
  subst.sizeSymbol = r->step.sym;
  subst.sizeValue = n;
  return subst;
}

/// WholeLoopLegal(v, b).
static bool wholeLoopLegal(RuleContext &ctx,
                           llvm::ArrayRef<const PdlSlot *> args) {
  return planWhole(ctx, args).has_value();
}

/// WholeLoop(v, b) -> `b` with v's one tile and tile_v specialized.
static LogicalResult wholeLoop(RuleContext &ctx,
                               llvm::ArrayRef<const PdlSlot *> args,
                               llvm::SmallVectorImpl<PdlSlot> &results) {
  std::optional<Substitution> subst = planWhole(ctx, args);
  if (!subst)
    return failure();
  FailureOr<Id> body = substitute(ctx.tg, args[1]->cls, *subst);
  if (failed(body))
    return failure();
  results.push_back(PdlSlot::ofClass(*body));
  return success();
}

//===----------------------------------------------------------------------===//
// Registry
//===----------------------------------------------------------------------===//

const NativeRegistry &mlir::tileir::getTileNatives() {
  static const NativeRegistry registry = [] {
    NativeRegistry r;
    r.constraints["Commutes"] = commutes;
    r.constraints["FusionLegal"] = fusionLegal;
    r.constraints["InsertAfterLegal"] = insertAfterLegal;
    r.constraints["InsertBeforeLegal"] = insertBeforeLegal;
    r.constraints["RecomputeBeforeLegal"] = recomputeBeforeLegal;
    r.constraints["ProducerBeforeLegal"] = producerBeforeLegal;
    r.constraints["StraightLine"] = straightLine;
    r.constraints["ProducerNest"] = producerNest;
    r.constraints["AccumulatorWriter"] = isAccumulatorWriter;
    r.constraints["LoopInvariant"] = loopInvariant;
    r.constraints["NotUsesVar"] = notUsesVar;
    r.constraints["ZeroInitAccumulator"] = zeroInitAccumulator;
    r.constraints["ReindexFusionLegal"] = reindexFusionLegal;
    r.constraints["WholeLoopLegal"] = wholeLoopLegal;
    r.constraints["BroadcastsLastDim"] = broadcastsLastDim;
    r.constraints["SameElementType"] = sameElementType;
    r.constraints["SameType"] = sameType;
    r.constraints["IsSplat"] = isSplat;
    r.constraints["NonZero"] = nonZero;
    r.constraints["RankIs"] = rankIs;
    r.constraints["Concatenable"] = concatenable;
    r.constraints["Contractible"] = contractible;
    r.rewrites["BroadcastTo"] = broadcastTo;
    r.rewrites["SplatLike"] = splatLike;
    r.rewrites["CastLike"] = castLike;
    r.rewrites["ReindexFuse"] = reindexFuse;
    r.rewrites["WholeLoop"] = wholeLoop;
    r.rewrites["ConcatOf"] = concatOf;
    r.rewrites["ResetOf"] = resetOf;
    r.rewrites["MatmulOf"] = matmulOf;
    registerOnlineSoftmaxNatives(r);
    return r;
  }();
  return registry;
}
