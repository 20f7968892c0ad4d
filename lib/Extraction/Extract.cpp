//===- Extract.cpp - Two-pass extraction of candidate programs ------------===//

#include "TileDialect/Extraction/Extract.h"
#include "TileDialect/IR/TileTypes.h"

#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringSet.h"

#include <chrono>

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
  Id cls;
  const ENode *node;
  llvm::SmallVector<std::shared_ptr<const Deriv>, 2> children;

  bool better(const Deriv &o) const {
    if (!(cost == o.cost))
      return cost < o.cost;
    if (nodes != o.nodes)
      return nodes < o.nodes;
    return seq < o.seq;
  }
};
using DerivPtr = std::shared_ptr<const Deriv>;

class StructurePass {
public:
  StructurePass(TileEGraph &tg, const ExtractOptions &options,
                ExtractStats &stats)
      : tg(tg), eg(tg.graph()), options(options), stats(stats) {}

  void run() {
    llvm::DenseSet<Id> seen;
    for (StringRef name : {"tile.seq", "tile.loop", "tile.store", "tile.nop"})
      for (Id c : eg.classesWithOp(tg.getOpId(
               OperationName(name, tg.getContext()))))
        if (seen.insert(eg.find(c)).second)
          classes.push_back(eg.find(c));
    stats.statementClasses = classes.size();
    for (unsigned round = 0; round < options.maxRounds; ++round) {
      ++stats.rounds;
      bool changed = false;
      for (Id c : classes)
        for (Mode m : {Top, Nested})
          changed |= relax(c, m);
      if (!changed) {
        stats.fixpoint = true;
        break;
      }
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

  /// Recomputes the k best derivations of `cls` in mode `m`.
  bool relax(Id cls, Mode m) {
    llvm::SmallVector<DerivPtr> cands;
    for (const ENode &n : eg.getClass(cls).nodes) {
      switch (tg.getKind(n)) {
      case NodeKind::Store:
        add(cands, cls, &n, {m == Top ? 1u : 0u, 0, 1}, {});
        break;
      case NodeKind::Nop:
        add(cands, cls, &n, {}, {});
        break;
      case NodeKind::Loop: {
        Id body = eg.find(n.children.back());
        for (const DerivPtr &b : get(body, Nested))
          add(cands, cls, &n, {m == Top ? 1u : 0u, 1, 0}, {b});
        break;
      }
      case NodeKind::Seq: {
        llvm::ArrayRef<DerivPtr> first = get(n.children[0], m);
        llvm::ArrayRef<DerivPtr> second = get(n.children[1], m);
        for (const DerivPtr &a : first)
          for (const DerivPtr &b : second)
            add(cands, cls, &n, {}, {a, b});
        break;
      }
      default:
        break;
      }
    }
    llvm::sort(cands,
                     [](const DerivPtr &a, const DerivPtr &b) {
                       return a->better(*b);
                     });
    if (cands.size() > options.perClass)
      cands.resize(options.perClass);
    llvm::SmallVector<DerivPtr> &old = lists[m][cls];
    bool same = old.size() == cands.size();
    for (size_t i = 0; same && i < old.size(); ++i)
      same = old[i]->node == cands[i]->node &&
             old[i]->children == cands[i]->children;
    if (same)
      return false;
    old = std::move(cands);
    return true;
  }

  void add(llvm::SmallVectorImpl<DerivPtr> &cands, Id cls, const ENode *n,
           StructureCost own, llvm::ArrayRef<DerivPtr> children) {
    auto d = std::make_shared<Deriv>();
    d->seq = nextSeq++;
    d->cls = cls;
    d->node = n;
    d->cost = own;
    d->nodes = 1;
    for (const DerivPtr &c : children) {
      // A direct self-reference (loop-invariant code motion makes
      // `loop v S` a member of S's class) is never wanted.
      if (c->cls == cls)
        return;
      d->cost = d->cost + c->cost;
      d->nodes += c->nodes;
      d->children.push_back(c);
    }
    cands.push_back(std::move(d));
  }

  TileEGraph &tg;
  egraph::EGraph &eg;
  const ExtractOptions &options;
  ExtractStats &stats;
  std::vector<Id> classes;
  llvm::DenseMap<Id, llvm::SmallVector<DerivPtr>> lists[2];
  uint64_t nextSeq = 0;
};

//===----------------------------------------------------------------------===//
// Pass 2: loop bodies in a fixed kernel context
//===----------------------------------------------------------------------===//

/// Relative costs per unit (roughly an H100's: HBM bytes against fp32
/// vector and fp16 matrix FLOPs).
constexpr double kHbmByte = 1.0, kOnChipByte = 0.02, kVectorFlop = 0.056,
                 kMatrixFlop = 0.0034, kTranscendental = 4.0;

class BodyPass {
public:
  BodyPass(TileEGraph &tg, const ExtractOptions &options,
           const llvm::DenseSet<uint32_t> &writtenHere,
           const llvm::DenseSet<uint32_t> &offChipTensors)
      : tg(tg), eg(tg.graph()), options(options), writtenHere(writtenHere),
        offChip(offChipTensors) {}

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
    return bytes(type) * (isOffChip(tensor) ? kHbmByte : kOnChipByte);
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
      return 1 + bytes(type) * (isOffChip(t) ? kHbmByte : kOnChipByte);
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
        return 1 + 2 * elements(type) * k * kMatrixFlop;
      }
      static const llvm::StringSet<> transcendental = {
          "tile.exp",  "tile.log", "tile.sigmoid", "tile.tanh",
          "tile.erf",  "tile.sqrt", "tile.rsqrt"};
      double weight = transcendental.contains(name) ? kTranscendental : 1.0;
      // Reductions read their operand's elements.
      double n0 = n.children.empty() ? elements(type)
                                     : elements(tg.data(n.children[0]).type);
      return 1 + std::max(elements(type), n0) * weight * kVectorFlop;
    }
    default:
      return 0.001;
    }
  }

  TileEGraph &tg;
  egraph::EGraph &eg;
  const ExtractOptions &options;
  const llvm::DenseSet<uint32_t> &writtenHere, &offChip;
  llvm::DenseMap<Id, std::pair<double, const ENode *>> best;
};

//===----------------------------------------------------------------------===//
// Building programs
//===----------------------------------------------------------------------===//

/// The kernels of a root derivation: its statements on the root sequence.
void collectKernels(const DerivPtr &d, TileEGraph &tg,
                    llvm::SmallVectorImpl<DerivPtr> &out) {
  if (tg.getKind(*d->node) == NodeKind::Seq) {
    for (const DerivPtr &c : d->children)
      collectKernels(c, tg, out);
    return;
  }
  out.push_back(d);
}

/// Tensors the stores of a derivation write.
void collectWrites(const DerivPtr &d, TileEGraph &tg,
                   llvm::DenseSet<uint32_t> &out) {
  if (tg.getKind(*d->node) == NodeKind::Store)
    out.insert(tg.data(d->node->children[1]).tensor);
  for (const DerivPtr &c : d->children)
    collectWrites(c, tg, out);
}

/// Pass 2's cost of a kernel: each store's value and the store itself.
double kernelValueCost(const DerivPtr &d, TileEGraph &tg,
                       const BodyPass &body) {
  double cost = 0;
  if (tg.getKind(*d->node) == NodeKind::Store) {
    Id value = d->node->children[0];
    cost += body.cost(value) +
            body.storeCost(tg.data(value).type,
                           tg.data(d->node->children[1]).tensor);
  }
  for (const DerivPtr &c : d->children)
    cost += kernelValueCost(c, tg, body);
  return cost;
}

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

  /// Builds statement derivation `d` with values chosen by `body`.
  FailureOr<Value> statement(const DerivPtr &d, const BodyPass &body) {
    llvm::SmallVector<Value> operands;
    unsigned next = 0;
    for (Id child : d->node->children) {
      FailureOr<Value> v =
          isa<StmtType>(tg.data(child).type)
              ? statement(d->children[next++], body)
              : value(child, body);
      if (failed(v))
        return failure();
      operands.push_back(*v);
    }
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

FailureOr<std::vector<Candidate>>
mlir::tileir::extractCandidates(TileEGraph &tg, Id root, ProgramOp like,
                                const ExtractOptions &options,
                                ExtractStats &stats) {
  auto start = std::chrono::steady_clock::now();
  ExtractOptions opts = options;
  opts.perClass = std::max(opts.perClass, opts.topK);
  StructurePass structures(tg, opts, stats);
  structures.run();
  llvm::DenseSet<uint32_t> offChip = offChipTensors(tg, like);

  std::vector<Candidate> out;
  llvm::DenseSet<llvm::hash_code> seenPrograms;
  OpBuilder top(like);
  for (const DerivPtr &d : structures.get(root, Top)) {
    if (out.size() >= opts.topK)
      break;
    ++stats.semiExpressions;
    llvm::SmallVector<Id> path;
    if (isCyclic(d, path)) {
      ++stats.cyclicSkipped;
      continue;
    }
    // Pass 2, kernel by kernel.
    llvm::SmallVector<DerivPtr> kernels;
    collectKernels(d, tg, kernels);
    std::vector<std::unique_ptr<llvm::DenseSet<uint32_t>>> writes;
    std::vector<std::unique_ptr<BodyPass>> bodies;
    llvm::DenseMap<const Deriv *, const BodyPass *> bodyOf;
    double valueCost = 0;
    for (const DerivPtr &k : kernels) {
      writes.push_back(std::make_unique<llvm::DenseSet<uint32_t>>());
      collectWrites(k, tg, *writes.back());
      bodies.push_back(
          std::make_unique<BodyPass>(tg, opts, *writes.back(), offChip));
      bodies.back()->run();
      bodyOf[k.get()] = bodies.back().get();
    }
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
      FailureOr<Value> s = builder.statement(k, *bodyOf[k.get()]);
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
    if (!ok || failed(verify(program))) {
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
    for (const DerivPtr &k : kernels)
      valueCost += kernelValueCost(k, tg, *bodyOf[k.get()]);
    out.push_back({program, d->cost, valueCost});
  }
  stats.seconds = std::chrono::duration<double>(
                      std::chrono::steady_clock::now() - start)
                      .count();
  return out;
}
