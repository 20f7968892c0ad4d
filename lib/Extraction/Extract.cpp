//===- Extract.cpp - Two-pass extraction of candidate programs ------------===//

#include "TileDialect/Extraction/Extract.h"
#include "Droppable.h"
#include "TileDialect/Cost/Target.h"
#include "TileDialect/IR/TileTypes.h"

#include "mlir/IR/Verifier.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <functional>
#include <map>

using namespace mlir;
using namespace mlir::tileir;
using egraph::ENode;
using egraph::Id;

namespace {

//===----------------------------------------------------------------------===//
// Pass 1: loop structures
//===----------------------------------------------------------------------===//

/// Where a statement sits: on the root sequence (each statement there is a
/// kernel) or inside a loop.
enum Mode : unsigned { Top = 0, Nested = 1 };

/// A set of tensor ids (the ids of one program's tensors are dense from 0),
/// one bit each: pass 1 unites them for every derivation it ranks. Sized
/// for the program's tensors up front; an id beyond them grows the set, and
/// sets of different sizes combine (an empty derivation's have no words).
class TensorSet {
public:
  explicit TensorSet(unsigned numTensors = 0)
      : words(llvm::divideCeil(numTensors, 64), 0) {}
  void insert(uint32_t t) {
    grow(t / 64 + 1);
    words[t / 64] |= uint64_t(1) << (t % 64);
  }
  bool contains(uint32_t t) const {
    return t / 64 < words.size() && (words[t / 64] >> (t % 64) & 1);
  }
  void unite(const TensorSet &o) {
    grow(o.words.size());
    for (size_t i = 0; i < o.words.size(); ++i)
      words[i] |= o.words[i];
  }
  /// Adds the members of `a` that are not in `b`.
  void uniteDifference(const TensorSet &a, const TensorSet &b) {
    grow(a.words.size());
    for (size_t i = 0; i < a.words.size(); ++i)
      words[i] |= a.words[i] & ~b.word(i);
  }
  /// The number of members that are not in `o`.
  unsigned countMissingFrom(const TensorSet &o) const {
    unsigned n = 0;
    for (size_t i = 0; i < words.size(); ++i)
      n += llvm::popcount(words[i] & ~o.word(i));
    return n;
  }
  void clear() { std::fill(words.begin(), words.end(), 0); }

private:
  uint64_t word(size_t i) const { return i < words.size() ? words[i] : 0; }
  void grow(size_t n) {
    if (words.size() < n)
      words.resize(n, 0);
  }

  llvm::SmallVector<uint64_t, 2> words;
};

/// One derivation of a statement e-class: a node and derivations of its
/// statement children. Immutable and shared, so that lists may change while
/// older derivations stay valid.
struct Deriv {
  StructureCost cost;
  /// Statement nodes in the derivation: a strictly growing tie-breaker, so
  /// that a derivation through a cycle never beats the one it extends.
  unsigned nodes = 0;
  /// Creation order, for a deterministic sort.
  uint64_t seq = 0;
  /// What the structure does, up to the order of statements in sequences:
  /// which stores sit in which loops. Derivations that differ only in
  /// order (the sequence rules make many) count once per list.
  uint64_t signature = 0;
  /// Intermediates stored anywhere in the derivation and outside any loop
  /// of it; intermediates read by stores outside any loop of it (a store
  /// anywhere in the enclosing loop serves them) and reads that escaped a
  /// loop of it (only a store directly in an enclosing loop serves them: a
  /// tile from a sibling loop is an HBM round trip).
  TensorSet storedAll, storedDirect, pendingAny, pendingDirect;
  Id cls;
  const ENode *node;
  llvm::SmallVector<std::shared_ptr<const Deriv>, 2> children;

  /// Pending reads of intermediates the derivation does not store: a
  /// crossing unless the loop around it stores them.
  unsigned openReads = 0;
  /// Nothing to build: a store into a dropped intermediate, or loops and
  /// sequences of those only. Costs nothing and is left out of the program.
  bool empty = false;
  /// A copy: loops around one store of a tensor's load (or a reshape of
  /// one) into another tensor. At the top level, no kernel: the lowering
  /// gives both tensors one buffer (`tensor.expand_shape` and
  /// `collapse_shape` become such copies).
  bool copy = false;

  /// The cost used to rank derivations of one class: open reads count as
  /// crossings (a derivation storing what it reads never does worse later).
  StructureCost rank() const {
    StructureCost r = cost;
    r.crossings += openReads;
    return r;
  }
  bool better(const Deriv &o) const {
    return ranksBefore(rank(), nodes, seq, o);
  }
  /// Whether a derivation of rank `r`, `n` statement nodes and creation
  /// number `s` goes before `o`.
  static bool ranksBefore(const StructureCost &r, unsigned n, uint64_t s,
                          const Deriv &o) {
    if (!(r == o.rank()))
      return r < o.rank();
    if (n != o.nodes)
      return n < o.nodes;
    return s < o.seq;
  }
};
using DerivPtr = std::shared_ptr<const Deriv>;

/// A derivation being ranked: its costs and placement computed, its
/// children borrowed from their classes' lists. Only the ones a class
/// keeps become shared Derivs (a class of many sequence nodes ranks
/// thousands per round).
struct Proposal {
  Deriv d;
  std::array<const DerivPtr *, 2> children = {nullptr, nullptr};
  unsigned numChildren = 0;
};

class StructurePass {
public:
  /// `reads(value)`: the tensors a value class's expression loads.
  StructurePass(TileEGraph &tg, const ExtractOptions &options,
                const llvm::DenseSet<uint32_t> &offChip,
                const llvm::DenseSet<uint32_t> &dropped,
                std::function<llvm::ArrayRef<uint32_t>(Id)> reads,
                std::function<bool(Id)> available, ExtractStats &stats)
      : tg(tg), eg(tg.graph()), options(options), dropped(dropped),
        reads(std::move(reads)), available(std::move(available)),
        stats(stats) {
    while (tg.dependence().getTensor(numTensors))
      ++numTensors;
    offChipSet = TensorSet(numTensors);
    for (uint32_t t : offChip)
      offChipSet.insert(t);
  }

  void run() {
    llvm::DenseSet<Id> seen;
    for (StringRef name : {"tile.seq", "tile.loop", "tile.store", "tile.nop"})
      for (Id c : eg.classesWithOp(tg.getOpId(
               OperationName(name, tg.getContext()))))
        if (seen.insert(eg.find(c)).second)
          classes.push_back(eg.find(c));
    stats.statementClasses = classes.size();
    // Parents of each statement class, so that a round only revisits the
    // classes whose children's lists changed in the round before.
    llvm::DenseMap<Id, llvm::SmallVector<Id, 2>> parents;
    for (Id c : classes)
      for (const ENode &n : eg.getClass(c).nodes)
        for (Id child : n.children)
          if (isStmt(child))
            parents[eg.find(child)].push_back(c);
    llvm::DenseSet<Id> dirty(classes.begin(), classes.end());
    for (unsigned round = 0; round < options.maxRounds; ++round) {
      if (options.deadline &&
          std::chrono::steady_clock::now() > *options.deadline) {
        stats.timedOut = true;
        break;
      }
      ++stats.rounds;
      llvm::DenseSet<Id> next;
      for (Id c : classes) {
        if (!dirty.contains(c))
          continue;
        bool changed = false;
        for (Mode m : {Top, Nested})
          changed |= relax(c, m);
        if (changed)
          for (Id p : parents.lookup(c))
            next.insert(p);
      }
      if (next.empty()) {
        stats.fixpoint = true;
        break;
      }
      dirty = std::move(next);
    }
  }

  llvm::ArrayRef<DerivPtr> get(Id cls, Mode m) const {
    auto it = lists[m].find(eg.find(cls));
    if (it == lists[m].end())
      return {};
    return it->second;
  }

private:
  bool isStmt(Id c) const { return isa<StmtType>(tg.data(c).type); }

  /// Recomputes the k best derivations of `cls` in mode `m`: the first
  /// `perClass` of distinct signatures in `better` order, that is the best
  /// of each signature, then the best `perClass` of those.
  bool relax(Id cls, Mode m) {
    kept.clear();
    for (const ENode &n : eg.getClass(cls).nodes) {
      switch (tg.getKind(n)) {
      case NodeKind::Store: {
        bool drop = dropped.contains(tg.data(n.children[1]).tensor);
        // A value or index that needs a dropped tensor cannot be built.
        if (drop || llvm::all_of(n.children, available)) {
          bool copy = isCopyStore(n);
          add(cls, &n, {m == Top && !copy ? 1u : 0u, 0, 0, 1}, {}, drop,
              copy);
        }
        break;
      }
      case NodeKind::Nop:
        add(cls, &n, {}, {});
        break;
      case NodeKind::Loop: {
        Id body = eg.find(n.children.back());
        uint32_t var = tg.data(n.children[0]).var;
        for (const DerivPtr &b : get(body, Nested)) {
          const DerivPtr *children[] = {&b};
          add(cls, &n,
              {m == Top && !b->copy ? 1u : 0u, 0, 1, 0,
               countRepeated(*b, var)},
              children, b->empty, b->copy);
        }
        break;
      }
      case NodeKind::Seq: {
        llvm::ArrayRef<DerivPtr> first = get(n.children[0], m);
        llvm::ArrayRef<DerivPtr> second = get(n.children[1], m);
        for (const DerivPtr &a : first)
          for (const DerivPtr &b : second) {
            const DerivPtr *children[] = {&a, &b};
            add(cls, &n, {}, children, a->empty && b->empty);
          }
        break;
      }
      default:
        break;
      }
    }
    llvm::sort(kept, [](const Proposal &a, const Proposal &b) {
      return a.d.better(b.d);
    });
    // Entries the list had already stay the same objects, so that the
    // lists built on them do not change for nothing; the list changed if
    // any entry is new or they moved.
    llvm::SmallVector<DerivPtr> &old = lists[m][cls];
    llvm::SmallVector<DerivPtr> derivs;
    for (Proposal &p : kept) {
      auto reused = llvm::find_if(old, [&](const DerivPtr &o) {
        return o->node == p.d.node && o->children.size() == p.numChildren &&
               llvm::all_of(llvm::seq(p.numChildren), [&](unsigned j) {
                 return o->children[j] == *p.children[j];
               });
      });
      if (reused != old.end()) {
        derivs.push_back(*reused);
        continue;
      }
      auto d = std::make_shared<Deriv>(std::move(p.d));
      for (unsigned j = 0; j < p.numChildren; ++j)
        d->children.push_back(*p.children[j]);
      derivs.push_back(std::move(d));
    }
    if (derivs == old)
      return false;
    old = std::move(derivs);
    return true;
  }

  /// Ranks a derivation of `cls` by node `n` with statement `children`
  /// against the ones `kept` so far; an `empty` one (see Deriv) costs
  /// nothing.
  void add(Id cls, const ENode *n, StructureCost own,
           llvm::ArrayRef<const DerivPtr *> children, bool empty = false,
           bool copy = false) {
    uint64_t seq = nextSeq++;
    StructureCost cost = empty ? StructureCost() : own;
    unsigned nodes = 1;
    for (const DerivPtr *c : children) {
      // A direct self-reference (loop-invariant code motion makes
      // `loop v S` a member of S's class) is never wanted.
      if ((*c)->cls == cls)
        return;
      cost = cost + (*c)->cost;
      nodes += (*c)->nodes;
    }
    // Placement only adds crossings: one that is not better than the worst
    // of a full list before them never will be.
    if (kept.size() >= options.perClass &&
        !Deriv::ranksBefore(cost, nodes, seq, kept[worst].d))
      return;
    Proposal p;
    Deriv &d = p.d;
    d.seq = seq;
    d.cls = cls;
    d.node = n;
    d.cost = cost;
    d.empty = empty;
    d.copy = copy;
    d.nodes = nodes;
    for (const DerivPtr *c : children)
      p.children[p.numChildren++] = c;
    if (!empty) {
      d.signature = signature(*n, children);
      placement(d, children);
    }
    offer(std::move(p));
  }

  /// Keeps `p` if it is the best of its signature so far and among the
  /// `perClass` best signatures.
  void offer(Proposal &&p) {
    bool replaced = false;
    for (Proposal &k : kept)
      if (k.d.signature == p.d.signature) {
        if (!p.d.better(k.d))
          return;
        k = std::move(p);
        replaced = true;
        break;
      }
    if (!replaced && kept.size() < options.perClass) {
      kept.push_back(std::move(p));
    } else if (!replaced) {
      if (!p.d.better(kept[worst].d))
        return;
      kept[worst] = std::move(p);
    }
    if (kept.size() < options.perClass)
      return;
    worst = 0;
    for (size_t i = 1; i < kept.size(); ++i)
      if (kept[worst].d.better(kept[i].d))
        worst = i;
  }

  /// Tracks stored and read intermediates and charges loop crossings (see
  /// Deriv): a loop settles what its subtree serves; what escapes the root
  /// statement of a kernel is a crossing.
  void placement(Deriv &d, llvm::ArrayRef<const DerivPtr *> children) {
    d.storedAll = d.storedDirect = d.pendingAny = d.pendingDirect =
        TensorSet(numTensors);
    NodeKind kind = tg.getKind(*d.node);
    if (kind == NodeKind::Store) {
      uint32_t t = tg.data(d.node->children[1]).tensor;
      if (!offChipSet.contains(t)) {
        d.storedAll.insert(t);
        d.storedDirect.insert(t);
      }
      for (uint32_t r : reads(d.node->children[0]))
        if (!offChipSet.contains(r))
          d.pendingAny.insert(r);
    }
    if (kind == NodeKind::Loop) {
      const Deriv &b = **children[0];
      d.storedAll.unite(b.storedAll);
      d.pendingDirect.uniteDifference(b.pendingAny, b.storedAll);
      d.pendingDirect.uniteDifference(b.pendingDirect, b.storedDirect);
    } else {
      for (const DerivPtr *c : children) {
        d.storedAll.unite((*c)->storedAll);
        d.storedDirect.unite((*c)->storedDirect);
        d.pendingAny.unite((*c)->pendingAny);
        d.pendingDirect.unite((*c)->pendingDirect);
      }
    }
    unsigned open = d.pendingAny.countMissingFrom(d.storedAll) +
                    d.pendingDirect.countMissingFrom(d.storedDirect);
    if (kind != NodeKind::Seq && isTop(d)) {
      d.cost.crossings += open;
      d.pendingAny.clear();
      d.pendingDirect.clear();
      return;
    }
    d.openReads = open;
  }
  bool isTop(const Deriv &d) const { return d.cost.kernels > 0; }

  /// Whether store node `n` can store a load of another tensor, or a
  /// reshape of one (see Deriv::copy).
  bool isCopyStore(const ENode &n) const {
    uint32_t to = tg.data(n.children[1]).tensor;
    auto loadsOther = [&](Id value) {
      return llvm::any_of(eg.getClass(value).nodes, [&](const ENode &v) {
        return tg.getKind(v) == NodeKind::Load &&
               tg.data(v.children[0]).tensor != to;
      });
    };
    if (loadsOther(n.children[0]))
      return true;
    return llvm::any_of(eg.getClass(n.children[0]).nodes, [&](const ENode &v) {
      return tg.getOpName(v.op).getStringRef() == "tile.reshape" &&
             loadsOther(v.children[0]);
    });
  }

  /// The statements of loop body `d` (through its sequences) that do not
  /// use the loop's variable `var`.
  unsigned countRepeated(const Deriv &d, uint32_t var) const {
    if (d.empty)
      return 0;
    switch (tg.getKind(*d.node)) {
    case NodeKind::Seq: {
      unsigned n = 0;
      for (const DerivPtr &c : d.children)
        n += countRepeated(*c, var);
      return n;
    }
    case NodeKind::Nop:
      return 0;
    default:
      return tg.data(d.cls).usesVar(var) ? 0 : 1;
    }
  }

  uint64_t signature(const ENode &n,
                     llvm::ArrayRef<const DerivPtr *> children) {
    switch (tg.getKind(n)) {
    case NodeKind::Seq: // a multiset of statements: order-free sum
      return (*children[0])->signature + (*children[1])->signature;
    case NodeKind::Loop:
      return llvm::hash_combine(1, tg.data(n.children[0]).var,
                                (*children[0])->signature);
    case NodeKind::Store: {
      llvm::hash_code h = llvm::hash_value(2);
      for (size_t i = 1; i < n.children.size(); ++i)
        h = llvm::hash_combine(h, eg.find(n.children[i]));
      return h;
    }
    default:
      return llvm::hash_value(3);
    }
  }

  TileEGraph &tg;
  egraph::EGraph &eg;
  const ExtractOptions &options;
  const llvm::DenseSet<uint32_t> &dropped;
  std::function<llvm::ArrayRef<uint32_t>(Id)> reads;
  std::function<bool(Id)> available;
  ExtractStats &stats;
  uint32_t numTensors = 0;
  TensorSet offChipSet;
  std::vector<Id> classes;
  /// The derivations `relax` keeps so far (at most `perClass`), and the
  /// worst of them once there are `perClass`.
  std::vector<Proposal> kept;
  size_t worst = 0;
  llvm::DenseMap<Id, llvm::SmallVector<DerivPtr>> lists[2];
  uint64_t nextSeq = 0;
};

//===----------------------------------------------------------------------===//
// Pass 2: loop bodies in a fixed kernel context
//===----------------------------------------------------------------------===//

/// Costs are in units of one byte of HBM traffic (ExtractOptions).
constexpr double kHbmByte = 1.0;

class BodyPass {
public:
  /// Loads of `dropped` tensors are unavailable.
  BodyPass(TileEGraph &tg, const ExtractOptions &options,
           llvm::DenseSet<uint32_t> writtenHere,
           const llvm::DenseSet<uint32_t> &offChipTensors,
           const llvm::DenseSet<uint32_t> &dropped)
      : tg(tg), eg(tg.graph()), options(options),
        writtenHere(std::move(writtenHere)), offChip(offChipTensors),
        dropped(dropped) {}

  /// The cheapest node of every value class (egg-style fixpoint).
  void run() {
    std::vector<Id> ids = eg.classIds();
    bool changed = true;
    for (unsigned round = 0; changed && round < 256; ++round) {
      changed = false;
      for (Id c : ids) {
        if (isa<StmtType>(tg.data(c).type))
          continue;
        for (const ENode &n : eg.getClass(c).nodes) {
          double cost = nodeCost(n);
          if (cost < 0)
            continue;
          for (Id child : n.children) {
            auto it = best.find(eg.find(child));
            if (it == best.end()) {
              cost = -1;
              break;
            }
            cost += it->second.first;
          }
          if (cost < 0)
            continue;
          auto it = best.find(c);
          if (it == best.end() || cost < it->second.first) {
            best[c] = {cost, &n};
            changed = true;
          }
        }
      }
    }
  }

  const ENode *choice(Id c) const {
    auto it = best.find(eg.find(c));
    return it == best.end() ? nullptr : it->second.second;
  }
  double cost(Id c) const {
    auto it = best.find(eg.find(c));
    return it == best.end() ? 0 : it->second.first;
  }

  /// Memory cost of storing a tile of `type` to `tensor`.
  double storeCost(Type type, uint32_t tensor) const {
    return bytes(type) * (isOffChip(tensor) ? kHbmByte : options.onChipByte);
  }

private:
  bool isOffChip(uint32_t tensor) const {
    return offChip.contains(tensor) || !writtenHere.contains(tensor);
  }

  double elements(Type type) const {
    auto tile = dyn_cast<TileType>(type);
    if (!tile)
      return 1;
    double n = 1;
    for (const TileDim &d : tile.getShape())
      n *= d.coeff * (d.isConcrete() ? 1 : options.symbolicExtent);
    return n;
  }
  double bytes(Type type) const {
    auto tile = dyn_cast<TileType>(type);
    unsigned width = tile && tile.getElementType().isIntOrFloat()
                         ? tile.getElementType().getIntOrFloatBitWidth()
                         : 32;
    return elements(type) * std::max(1u, width / 8);
  }

  double nodeCost(const ENode &n) const {
    Type type = tg.getType(n);
    switch (tg.getKind(n)) {
    case NodeKind::Load: {
      uint32_t t = tg.data(n.children[0]).tensor;
      if (dropped.contains(t))
        return -1; // unavailable
      return 1 + bytes(type) * (isOffChip(t) ? kHbmByte : options.onChipByte);
    }
    case NodeKind::Constant:
      return 1;
    case NodeKind::Compute: {
      StringRef name = tg.getOpName(n.op).getStringRef();
      if (name == "tile.matmul") {
        // 2 * (result elements) * (contraction extent).
        auto lhs = dyn_cast<TileType>(tg.data(n.children[0]).type);
        double k = 1;
        if (lhs && lhs.getRank() > 0) {
          const TileDim &d = lhs.getShape().back();
          k = d.coeff * (d.isConcrete() ? 1 : options.symbolicExtent);
        }
        return 1 + 2 * elements(type) * k * options.matrixFlop;
      }
      static const llvm::StringSet<> transcendental = {
          "tile.exp",  "tile.log", "tile.sigmoid", "tile.tanh",
          "tile.erf",  "tile.sqrt", "tile.rsqrt"};
      double weight =
          transcendental.contains(name) ? options.transcendental : 1.0;
      // Reductions read their operand's elements.
      double n0 = n.children.empty() ? elements(type)
                                     : elements(tg.data(n.children[0]).type);
      return 1 + std::max(elements(type), n0) * weight * options.vectorFlop;
    }
    default:
      return 0.001;
    }
  }

  TileEGraph &tg;
  egraph::EGraph &eg;
  const ExtractOptions &options;
  llvm::DenseSet<uint32_t> writtenHere;
  const llvm::DenseSet<uint32_t> &offChip;
  const llvm::DenseSet<uint32_t> &dropped;
  llvm::DenseMap<Id, std::pair<double, const ENode *>> best;
};

//===----------------------------------------------------------------------===//
// Building programs
//===----------------------------------------------------------------------===//

/// The kernels of a root derivation: its statements on the root sequence.
void collectKernels(const DerivPtr &d, TileEGraph &tg,
                    llvm::SmallVectorImpl<DerivPtr> &out) {
  if (d->empty)
    return;
  if (tg.getKind(*d->node) == NodeKind::Seq) {
    for (const DerivPtr &c : d->children)
      collectKernels(c, tg, out);
    return;
  }
  out.push_back(d);
}

/// The value choices of every loop context of one candidate: a load is on
/// chip when its tensor is an intermediate stored inside the loop (or
/// kernel) that holds the load, nested loops included; otherwise it comes
/// from HBM (Trinity 5.2: a tile stored in a different loop is reloaded).
class Contexts {
public:
  Contexts(TileEGraph &tg, const ExtractOptions &options,
           const llvm::DenseSet<uint32_t> &offChip,
           const llvm::DenseSet<uint32_t> &dropped)
      : tg(tg), options(options), offChip(offChip), dropped(dropped) {}

  /// The pass for statement derivation `d` (a kernel or a loop).
  const BodyPass &get(const Deriv *d) {
    auto it = byDeriv.find(d);
    if (it != byDeriv.end())
      return *it->second;
    llvm::DenseSet<uint32_t> writes;
    collect(d, writes);
    llvm::SmallVector<uint32_t> key(writes.begin(), writes.end());
    llvm::sort(key);
    auto &pass = bySet[key];
    if (!pass) {
      pass = std::make_unique<BodyPass>(tg, options, std::move(writes), offChip,
                                        dropped);
      pass->run();
    }
    byDeriv[d] = pass.get();
    return *pass;
  }

  /// Pass 2's cost of statement `d` in context `ctx`: each store's value
  /// and the store itself, times the trip counts of the loops around it.
  double cost(const DerivPtr &d, const BodyPass &ctx, double trips) {
    double total = 0;
    if (d->empty)
      return total;
    NodeKind kind = tg.getKind(*d->node);
    if (kind == NodeKind::Store) {
      Id value = d->node->children[0];
      total += trips * (ctx.cost(value) +
                        ctx.storeCost(tg.data(value).type,
                                      tg.data(d->node->children[1]).tensor));
    }
    const BodyPass *inner = &ctx;
    if (kind == NodeKind::Loop) {
      inner = &get(d.get());
      trips *= tripCount(*d->node);
    }
    for (const DerivPtr &c : d->children)
      total += cost(c, *inner, trips);
    return total;
  }

private:
  void collect(const Deriv *d, llvm::DenseSet<uint32_t> &out) {
    if (d->empty)
      return;
    if (tg.getKind(*d->node) == NodeKind::Store)
      out.insert(tg.data(d->node->children[1]).tensor);
    for (const DerivPtr &c : d->children)
      collect(c.get(), out);
  }

  double tripCount(const ENode &loop) {
    const LoopRange *r = tg.getLoopRange(tg.data(loop.children[0]).var);
    if (!r)
      return 1;
    double step = r->step.coeff *
                  (r->step.isConcrete() ? 1 : options.symbolicExtent);
    return std::max(1.0, double(r->end - r->start) / step);
  }

  TileEGraph &tg;
  const ExtractOptions &options;
  const llvm::DenseSet<uint32_t> &offChip;
  const llvm::DenseSet<uint32_t> &dropped;
  llvm::DenseMap<const Deriv *, const BodyPass *> byDeriv;
  std::map<llvm::SmallVector<uint32_t>, std::unique_ptr<BodyPass>> bySet;
};

/// Whether a derivation goes through one e-class twice on a path.
bool isCyclic(const DerivPtr &d, llvm::SmallVectorImpl<Id> &path) {
  if (llvm::is_contained(path, d->cls))
    return true;
  path.push_back(d->cls);
  for (const DerivPtr &c : d->children)
    if (isCyclic(c, path))
      return true;
  path.pop_back();
  return false;
}

class ProgramBuilder {
public:
  ProgramBuilder(TileEGraph &tg, ProgramOp program)
      : tg(tg), eg(tg.graph()), program(program),
        b(OpBuilder::atBlockEnd(&program.getBodyBlock())) {
    for (BlockArgument arg : program.getBodyBlock().getArguments())
      tensors[StringAttr::get(tg.getContext(),
                              program.getTensorName(arg.getArgNumber()))] =
          arg;
  }

  /// Builds statement derivation `d` with values chosen by `body`, and
  /// those inside loops by the loop's context. An empty derivation builds
  /// nothing (a null value); a sequence with an empty side is its other side.
  FailureOr<Value> statement(const DerivPtr &d, const BodyPass &body,
                             Contexts &contexts) {
    if (d->empty)
      return Value();
    const BodyPass &inner = tg.getKind(*d->node) == NodeKind::Loop
                                ? contexts.get(d.get())
                                : body;
    llvm::SmallVector<Value> operands;
    unsigned next = 0;
    for (Id child : d->node->children) {
      FailureOr<Value> v =
          isa<StmtType>(tg.data(child).type)
              ? statement(d->children[next++], inner, contexts)
              : value(child, body);
      if (failed(v))
        return failure();
      operands.push_back(*v);
    }
    if (tg.getKind(*d->node) == NodeKind::Seq && !(operands[0] && operands[1]))
      return operands[0] ? operands[0] : operands[1];
    return create(*d->node, operands);
  }

private:
  FailureOr<Value> value(Id cls, const BodyPass &body) {
    cls = eg.find(cls);
    auto key = std::make_pair(&body, cls);
    if (Value v = built.lookup(key))
      return v;
    // Loop variables, sizes and index expressions are built once.
    if (Value v = leaves.lookup(cls))
      return v;
    const ENode *n = body.choice(cls);
    if (!n || !onPath.insert(cls).second)
      return failure();
    llvm::SmallVector<Value> operands;
    for (Id child : n->children) {
      FailureOr<Value> v = value(child, body);
      if (failed(v)) {
        onPath.erase(cls);
        return failure();
      }
      operands.push_back(*v);
    }
    onPath.erase(cls);
    FailureOr<Value> v = create(*n, operands);
    if (failed(v))
      return failure();
    NodeKind kind = tg.getKind(*n);
    bool leaf = kind == NodeKind::Var || kind == NodeKind::Size ||
                kind == NodeKind::Full || kind == NodeKind::TileIdx ||
                kind == NodeKind::Elem || kind == NodeKind::ConstTile ||
                kind == NodeKind::Tensor;
    (leaf ? leaves[cls] : built[key]) = *v;
    return v;
  }

  FailureOr<Value> create(const ENode &n, llvm::ArrayRef<Value> operands) {
    if (n.op == tg.getTensorOp()) {
      Value t = tensors.lookup(
          tg.getAttrs(n.payload).getAs<StringAttr>("name"));
      if (!t)
        return failure();
      return t;
    }
    OperationState state(program.getLoc(), tg.getOpName(n.op));
    state.addOperands(operands);
    if (DictionaryAttr attrs = tg.getAttrs(n.payload))
      state.addAttributes(attrs.getValue());
    state.addTypes(tg.getType(n));
    return b.create(state)->getResult(0);
  }

  TileEGraph &tg;
  egraph::EGraph &eg;
  ProgramOp program;
  OpBuilder b;
  llvm::DenseMap<StringAttr, Value> tensors;
  llvm::DenseMap<std::pair<const BodyPass *, Id>, Value> built;
  llvm::DenseMap<Id, Value> leaves;
  llvm::DenseSet<Id> onPath;
};

/// Tensors that live off chip whatever the structure: inputs and inout
/// tensors are read from HBM, outputs and inout tensors written to it.
llvm::DenseSet<uint32_t> offChipTensors(TileEGraph &tg, ProgramOp like) {
  llvm::DenseSet<uint32_t> out;
  for (BlockArgument arg : like.getBodyBlock().getArguments()) {
    auto type = cast<TensorRefType>(arg.getType());
    if (type.getRole() != TensorRole::Intermediate)
      out.insert(tg.getTensorId(StringAttr::get(
          tg.getContext(), like.getTensorName(arg.getArgNumber()))));
  }
  return out;
}

} // namespace

/// Sorts candidates best first: kernels (pass 1's objective), then pass 2's
/// cost under each structure's own memory placement; ties keep their order.
static void rankCandidates(std::vector<Candidate> &cands) {
  llvm::DenseMap<Operation *, unsigned> position;
  for (auto [i, c] : llvm::enumerate(cands))
    position[c.program] = i;
  llvm::sort(cands, [&](const Candidate &a, const Candidate &b) {
    return std::make_tuple(a.structure.kernels, a.valueCost,
                           position.lookup(a.program)) <
           std::make_tuple(b.structure.kernels, b.valueCost,
                           position.lookup(b.program));
  });
}

void mlir::tileir::keepTopK(std::vector<Candidate> &cands, unsigned topK) {
  if (cands.size() <= topK)
    return;
  // Of the candidates with the fewest kernels, one with the fewest loops
  // takes the last place if none of the first `topK` has as few. Pass 2
  // prices a loop's work, not how the lowering runs it: a safe softmax's
  // one-pass online loop (scores, running max, sum and P.V in one loop over
  // the keys, on the matrix units) ranked 4th-6th behind its two-pass
  // forms, which ran 2.7x slower (H200, 8 heads x 1024 x 1024, causal).
  if (topK >= 2) {
    unsigned kernels = cands.front().structure.kernels;
    auto loopsOf = [&](const Candidate &c) {
      return c.structure.kernels == kernels
                 ? c.structure.loops
                 : std::numeric_limits<unsigned>::max();
    };
    auto fewest = [&](auto first, auto last) {
      return std::min_element(first, last,
                              [&](const Candidate &a, const Candidate &b) {
                                return loopsOf(a) < loopsOf(b);
                              });
    };
    auto top = cands.begin() + topK;
    auto rest = fewest(top, cands.end());
    if (loopsOf(*rest) < loopsOf(*fewest(cands.begin(), top)))
      std::rotate(top - 1, rest, rest + 1);
  }
  for (Candidate &c : llvm::drop_begin(cands, topK))
    c.program.erase();
  cands.resize(topK);
}

ExtractOptions mlir::tileir::costsFor(ExtractOptions options,
                                      const TargetDesc &target) {
  if (target.hbmBandwidth > 0) {
    if (target.vectorPeak > 0)
      options.vectorFlop = target.hbmBandwidth / target.vectorPeak;
    if (target.matrixPeak > 0)
      options.matrixFlop = target.hbmBandwidth / target.matrixPeak;
    if (target.l2Bandwidth > 0)
      options.onChipByte = target.hbmBandwidth / target.l2Bandwidth / 4;
  }
  return options;
}

/// The empty tensor set (a function-local static: no global constructor).
static const llvm::DenseSet<uint32_t> &noTensors() {
  static const llvm::DenseSet<uint32_t> none;
  return none;
}

/// Extracts candidates with the tensors of `dropped` left out (their loads
/// unavailable, their stores not built) and appends the programs not seen
/// before to `out`.
static void extractInto(TileEGraph &tg, Id root, ProgramOp like,
                        const ExtractOptions &opts,
                        const llvm::DenseSet<uint32_t> &offChip,
                        const llvm::DenseSet<uint32_t> &dropped,
                        ExtractStats &stats, std::vector<Candidate> &out,
                        llvm::DenseSet<llvm::hash_code> &seenPrograms) {
  // Pass 1 charges crossings by the loads of each stored value's cheapest
  // expression with every load on chip (a context-free proxy).
  llvm::DenseSet<uint32_t> everything;
  for (uint32_t t = 0; tg.dependence().getTensor(t); ++t)
    everything.insert(t);
  BodyPass cheapest(tg, opts, everything, noTensors(), dropped);
  cheapest.run();
  // A node-stable map: the recursion hands out references into it.
  std::map<Id, llvm::SmallVector<uint32_t, 4>> readsOf;
  std::function<llvm::ArrayRef<uint32_t>(Id)> reads =
      [&](Id cls) -> llvm::ArrayRef<uint32_t> {
    cls = tg.graph().find(cls);
    auto it = readsOf.find(cls);
    if (it != readsOf.end())
      return it->second;
    readsOf[cls]; // cuts cycles
    llvm::SmallVector<uint32_t, 4> out;
    if (const ENode *n = cheapest.choice(cls)) {
      if (tg.getKind(*n) == NodeKind::Load)
        out.push_back(tg.data(n->children[0]).tensor);
      for (Id c : n->children)
        for (uint32_t t : reads(c))
          if (!llvm::is_contained(out, t))
            out.push_back(t);
    }
    return readsOf[cls] = std::move(out);
  };
  // With tensors dropped, some values have no node left.
  auto available = [&](Id cls) {
    return dropped.empty() || isa<StmtType>(tg.data(cls).type) ||
           cheapest.choice(cls) != nullptr;
  };
  StructurePass structures(tg, opts, offChip, dropped, reads, available, stats);
  structures.run();

  OpBuilder top(like);
  for (const DerivPtr &d : structures.get(root, Top)) {
    if (opts.deadline && std::chrono::steady_clock::now() > *opts.deadline) {
      stats.timedOut = true;
      break;
    }
    ++stats.semiExpressions;
    llvm::SmallVector<Id> path;
    if (isCyclic(d, path)) {
      ++stats.cyclicSkipped;
      continue;
    }
    // Pass 2, loop context by loop context.
    llvm::SmallVector<DerivPtr> kernels;
    collectKernels(d, tg, kernels);
    auto contexts = std::make_unique<Contexts>(tg, opts, offChip, dropped);
    double valueCost = 0;
    for (const DerivPtr &k : kernels)
      valueCost += contexts->cost(k, contexts->get(k.get()), 1.0);
    std::string name =
        (like.getSymName() + "_c" + llvm::Twine(out.size())).str();
    auto program = cast<ProgramOp>(top.clone(*like.getOperation()));
    program.setSymName(name);
    Block &block = program.getBodyBlock();
    while (!block.empty())
      block.back().erase();
    ProgramBuilder builder(tg, program);
    // The root sequence, kernel by kernel, right-nested.
    llvm::SmallVector<Value> stmts;
    bool ok = true;
    for (const DerivPtr &k : kernels) {
      FailureOr<Value> s =
          builder.statement(k, contexts->get(k.get()), *contexts);
      if (failed(s)) {
        ok = false;
        break;
      }
      stmts.push_back(*s);
    }
    if (ok && stmts.empty())
      ok = false;
    if (ok) {
      OpBuilder b = OpBuilder::atBlockEnd(&block);
      Value rootStmt = stmts.back();
      for (size_t i = stmts.size() - 1; i-- > 0;)
        rootStmt = SeqOp::create(b, like.getLoc(), stmts[i], rootStmt);
      YieldOp::create(b, like.getLoc(), rootStmt);
    }
    // A combination the verifier refuses (a loop nested in a loop of the
    // same variable, from classes whose bound variables are joined by
    // union) is not a candidate: skipped and counted, without telling the
    // user about a program nobody wrote.
    bool valid = ok;
    if (valid) {
      ScopedDiagnosticHandler quiet(program.getContext(),
                                    [](Diagnostic &) { return success(); });
      valid = succeeded(verify(program));
    }
    if (!valid) {
      program.erase();
      ++stats.cyclicSkipped;
      continue;
    }
    // Programs differing only in derivations of the same term are one.
    std::string text;
    llvm::raw_string_ostream os(text);
    program.getBody().front().print(os);
    if (!seenPrograms.insert(llvm::hash_value(text)).second) {
      program.erase();
      ++stats.duplicateSkipped;
      continue;
    }
    out.push_back({program, d->cost, valueCost});
  }
}

FailureOr<std::vector<Candidate>>
mlir::tileir::extractCandidates(TileEGraph &tg, Id root, ProgramOp like,
                                const ExtractOptions &options,
                                ExtractStats &stats) {
  auto start = std::chrono::steady_clock::now();
  ExtractOptions opts = options;
  opts.perClass = std::max(opts.perClass, opts.topK);
  llvm::DenseSet<uint32_t> offChip = offChipTensors(tg, like);
  std::vector<Candidate> out;
  llvm::DenseSet<llvm::hash_code> seenPrograms;
  extractInto(tg, root, like, opts, offChip, noTensors(), stats, out,
              seenPrograms);
  // Again without the intermediates a derivation can do without (dead
  // stores once propagation made their loads redundant); both lists compete.
  llvm::DenseSet<uint32_t> dropped = findDroppableTensors(tg, root, offChip);
  stats.droppedTensors = dropped.size();
  if (!dropped.empty())
    extractInto(tg, root, like, opts, offChip, dropped, stats, out,
                seenPrograms);
  rankCandidates(out);
  // Keep the top-k, preferring variety: a candidate with exactly the costs
  // of a better one only fills places left over.
  std::vector<Candidate> kept, alike;
  for (Candidate &c : out) {
    bool same = llvm::any_of(kept, [&](const Candidate &k) {
      return k.structure == c.structure && k.valueCost == c.valueCost;
    });
    (same ? alike : kept).push_back(c);
  }
  for (Candidate &c : alike)
    kept.push_back(c);
  keepTopK(kept, opts.topK);
  rankCandidates(kept);
  out = std::move(kept);
  for (auto [i, c] : llvm::enumerate(out)) {
    c.program.setSymName((like.getSymName() + "_c" + llvm::Twine(i)).str());
    c.program->moveBefore(like);
  }
  stats.seconds = std::chrono::duration<double>(
                      std::chrono::steady_clock::now() - start)
                      .count();
  return out;
}
