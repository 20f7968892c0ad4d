//===- TileAnalysis.cpp - E-class analysis for tile programs --------------===//

#include "TileDialect/Saturation/TileAnalysis.h"
#include "TileDialect/IR/TileTypes.h"
#include "TileDialect/Saturation/TileEGraph.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::tileir;
using egraph::ENode;
using egraph::Id;

bool ClassData::usesVar(uint32_t v) const {
  return std::binary_search(freeVars.begin(), freeVars.end(), v);
}
bool ClassData::bindsVar(uint32_t v) const {
  return std::binary_search(boundVars.begin(), boundVars.end(), v);
}

/// Sorted-unique union of `from` into `into`; returns true if `into` grew.
template <typename Vec>
static bool unionInto(Vec &into, const Vec &from) {
  if (from.empty())
    return false;
  if (into.empty()) {
    into = from;
    return true;
  }
  // Most joins add nothing: check without building the merged copy.
  if (std::includes(into.begin(), into.end(), from.begin(), from.end()))
    return false;
  Vec merged;
  merged.reserve(into.size() + from.size());
  std::set_union(into.begin(), into.end(), from.begin(), from.end(),
                 std::back_inserter(merged));
  into = std::move(merged);
  return true;
}

template <typename Vec, typename T>
static void insertSorted(Vec &v, const T &x) {
  auto it = std::lower_bound(v.begin(), v.end(), x);
  if (it == v.end() || !(*it == x))
    v.insert(it, x);
}

bool AccessSet::unite(const AccessSet &other) {
  if (other.empty() || list == other.list)
    return false;
  if (empty()) {
    list = other.list;
    return true;
  }
  // Most joins add nothing: check without building the merged copy (an
  // Access copies its index terms).
  if (std::includes(begin(), end(), other.begin(), other.end()))
    return false;
  if (std::includes(other.begin(), other.end(), begin(), end())) {
    list = other.list;
    return true;
  }
  auto merged = llvm::makeIntrusiveRefCnt<Shared>();
  merged->accesses.reserve(size() + other.size());
  std::set_union(begin(), end(), other.begin(), other.end(),
                 std::back_inserter(merged->accesses));
  list = std::move(merged);
  return true;
}

void AccessSet::insert(const Access &access) {
  auto it = std::lower_bound(begin(), end(), access);
  if (it != end() && *it == access)
    return;
  size_t at = it - begin();
  List &accesses = mutate();
  accesses.insert(accesses.begin() + at, access);
}

AccessSet::List &AccessSet::mutate() {
  if (!list)
    list = llvm::makeIntrusiveRefCnt<Shared>();
  else if (list->UseCount() > 1)
    list = llvm::makeIntrusiveRefCnt<Shared>(*list);
  return list->accesses;
}

ClassData TileAnalysis::compute(const ENode &node) const {
  ClassData d;
  d.type = tg.getType(node);
  NodeKind kind = tg.getKind(node);
  DictionaryAttr attrs = tg.getAttrs(node.payload);
  auto child = [&](unsigned i) -> const ClassData & {
    return get(node.children[i]);
  };
  // Every node inherits the accesses and variables of its children.
  for (Id c : node.children) {
    const ClassData &cd = get(c);
    d.accesses.unite(cd.accesses);
    unionInto(d.freeVars, cd.freeVars);
    unionInto(d.boundVars, cd.boundVars);
    d.hasMatmul |= cd.hasMatmul;
    d.hasLoop |= cd.hasLoop;
  }
  d.hasLoop |= kind == NodeKind::Loop;
  if (kind == NodeKind::Seq)
    d.hasSeqNode = true;
  else
    d.hasNonSeqNode = true;
  switch (kind) {
  case NodeKind::Tensor:
    d.tensor = const_cast<TileEGraph &>(tg).getTensorId(
        attrs.getAs<StringAttr>("name"));
    break;
  case NodeKind::Var:
    d.var = const_cast<TileEGraph &>(tg).getVarId(
        attrs.getAs<StringAttr>("name"));
    break;
  case NodeKind::Size:
    if (auto i = attrs.getAs<IntegerAttr>("value"))
      d.size = TileDim::concrete(i.getInt());
    else if (auto s = attrs.getAs<StringAttr>("value"))
      d.size = TileDim::symbolic(s);
    break;
  case NodeKind::Full:
    d.index = IndexTerm{IndexTerm::Full};
    break;
  case NodeKind::TileIdx:
  case NodeKind::Elem: {
    uint32_t v = child(0).var;
    d.index = IndexTerm{kind == NodeKind::TileIdx ? IndexTerm::Tile
                                                  : IndexTerm::Elem,
                        v};
    insertSorted(d.freeVars, v);
    break;
  }
  case NodeKind::ConstTile:
    d.index = IndexTerm{IndexTerm::Const, ~0u,
                        attrs.getAs<IntegerAttr>("base").getInt(),
                        attrs.getAs<IntegerAttr>("size").getInt()};
    break;
  case NodeKind::Load:
  case NodeKind::Store: {
    unsigned tensorPos = kind == NodeKind::Load ? 0 : 1;
    Access a;
    a.tensor = child(tensorPos).tensor;
    a.write = kind == NodeKind::Store;
    for (unsigned i = tensorPos + 1; i < node.children.size(); ++i)
      a.dims.push_back(child(i).index.value_or(IndexTerm{IndexTerm::Full}));
    d.accesses.insert(a);
    break;
  }
  case NodeKind::Loop: {
    // Bound only where the body mentions it (ClassData::boundVars); a
    // binder of v inside the body keeps v in boundVars.
    uint32_t v = child(0).var;
    auto it = std::lower_bound(d.freeVars.begin(), d.freeVars.end(), v);
    if (it != d.freeVars.end() && *it == v) {
      d.freeVars.erase(it);
      insertSorted(d.boundVars, v);
    }
    break;
  }
  case NodeKind::Compute:
    if (tg.getOpName(node.op).getStringRef() == "tile.matmul")
      d.hasMatmul = true;
    break;
  case NodeKind::Constant:
    if (auto dense = attrs.getAs<DenseElementsAttr>("value")) {
      if (dense.isSplat())
        d.splat = dense.getSplatValue<APFloat>().convertToDouble();
    } else if (auto f = attrs.getAs<FloatAttr>("value")) {
      d.splat = f.getValueAsDouble();
    }
    break;
  default:
    break;
  }
  return d;
}

bool TileAnalysis::join(ClassData &into, const ClassData &from) const {
  bool changed = false;
  if (!into.type && from.type) {
    into.type = from.type;
    changed = true;
  }
  if (!into.index && from.index) {
    into.index = from.index;
    changed = true;
  }
  if (into.var == ~0u && from.var != ~0u) {
    into.var = from.var;
    changed = true;
  }
  if (!into.size && from.size) {
    into.size = from.size;
    changed = true;
  }
  if (into.tensor == ~0u && from.tensor != ~0u) {
    into.tensor = from.tensor;
    changed = true;
  }
  if (!into.splat && from.splat) {
    into.splat = from.splat;
    changed = true;
  }
  changed |= into.accesses.unite(from.accesses);
  changed |= unionInto(into.freeVars, from.freeVars);
  changed |= unionInto(into.boundVars, from.boundVars);
  if (from.hasSeqNode && !into.hasSeqNode) {
    into.hasSeqNode = true;
    changed = true;
  }
  if (from.hasMatmul && !into.hasMatmul) {
    into.hasMatmul = true;
    changed = true;
  }
  if (from.hasLoop && !into.hasLoop) {
    into.hasLoop = true;
    changed = true;
  }
  if (from.hasNonSeqNode && !into.hasNonSeqNode) {
    into.hasNonSeqNode = true;
    changed = true;
  }
  return changed;
}

void TileAnalysis::make(Id id, const ENode &node) {
  if (data.size() <= id)
    data.resize(id + 1);
  storedAccesses -= data[id].accesses.size();
  data[id] = compute(node);
  storedAccesses += data[id].accesses.size();
}

bool TileAnalysis::merge(Id into, Id from) {
  if (data.size() <= std::max(into, from))
    data.resize(std::max(into, from) + 1);
  size_t before = data[into].accesses.size();
  bool changed = join(data[into], data[from]);
  storedAccesses += data[into].accesses.size() - before;
  // `from` is no longer a root: nothing reads its data again (get() finds
  // the root), so it is freed rather than kept beside the joined copy.
  storedAccesses -= data[from].accesses.size();
  data[from] = ClassData();
  return changed;
}

bool TileAnalysis::remake(Id id, const ENode &node) {
  ClassData fresh = compute(node);
  ClassData &into = data[tg.graph().find(id)];
  size_t before = into.accesses.size();
  bool changed = join(into, fresh);
  storedAccesses += into.accesses.size() - before;
  return changed;
}

size_t TileAnalysis::memoryBytes() const {
  return data.capacity() * sizeof(ClassData) +
         storedAccesses * sizeof(Access);
}

const ClassData &TileAnalysis::get(Id id) const {
  return data[tg.graph().find(id)];
}
