//===- Substitute.cpp - Copy a sub-e-graph with replacements --------------===//

#include "TileDialect/Saturation/Substitute.h"
#include "TileDialect/IR/TileTypes.h"

using namespace mlir;
using namespace mlir::tileir;
using egraph::ENode;
using egraph::Id;

Type mlir::tileir::specializeType(Type type, StringAttr sym, int64_t value) {
  auto tile = dyn_cast<TileType>(type);
  if (!sym || !tile)
    return type;
  llvm::SmallVector<TileDim> shape(tile.getShape());
  bool changed = false;
  for (TileDim &d : shape)
    if (d.sym == sym) {
      d = TileDim::concrete(d.coeff * value);
      changed = true;
    }
  if (!changed)
    return type;
  return TileType::get(type.getContext(), shape, tile.getElementType());
}

namespace {
class Substituter {
public:
  Substituter(TileEGraph &tg, const Substitution &s) : tg(tg), s(s) {}

  /// The replacement of class `c`, or failure.
  FailureOr<Id> visit(Id c);

private:
  bool typeMentions(Type t) const {
    if (!s.sizeSymbol)
      return false;
    auto tile = dyn_cast<TileType>(t);
    return tile && llvm::any_of(tile.getShape(), [&](const TileDim &d) {
             return d.sym == s.sizeSymbol;
           });
  }
  /// Whether anything below `c` can change.
  bool affected(Id c);
  /// The copy of `loop`, which binds the replaced variable `bound`: its body
  /// keeps that variable (and gets the rest of the substitution).
  FailureOr<Id> visitUnderBinder(const egraph::ENode &loop, uint32_t bound,
                                 Type type);
  /// Whether index class `c` is a tile or an element of the whole variable.
  bool indexesWhole(Id c) const;
  /// The replacement of `c`, a tile of the whole variable, indexing dimension
  /// `dim` of the tensor leaf class `tensor`: `tile.full` when the dimension
  /// is the whole range long.
  std::optional<Id> wholeFull(Id c, Id tensor, unsigned dim);

  TileEGraph &tg;
  const Substitution &s;
  llvm::DenseMap<Id, Id> done;
  llvm::DenseMap<Id, bool> affectedMemo;
  llvm::DenseSet<Id> inProgress;
};
} // namespace

bool Substituter::affected(Id c) {
  egraph::EGraph &eg = tg.graph();
  c = eg.find(c);
  if (s.classes.count(c))
    return true;
  auto it = affectedMemo.find(c);
  if (it != affectedMemo.end())
    return it->second;
  const ClassData &d = tg.data(c);
  bool result = false;
  if ((s.fromVar != ~0u && d.usesVar(s.fromVar)) ||
      (s.wholeVar != ~0u && d.usesVar(s.wholeVar)))
    result = true;
  else if (s.sizeSymbol && typeMentions(d.type))
    result = true;
  else if (!s.classes.empty() || s.sizeSymbol) {
    // Replaced classes and specialized types can sit anywhere below.
    affectedMemo[c] = false; // breaks cycles
    for (const ENode &n : eg.getClass(c).nodes) {
      for (Id child : n.children)
        if (affected(child)) {
          result = true;
          break;
        }
      if (result)
        break;
    }
  }
  affectedMemo[c] = result;
  return result;
}

FailureOr<Id> Substituter::visit(Id c) {
  egraph::EGraph &eg = tg.graph();
  c = eg.find(c);
  if (auto it = s.classes.find(c); it != s.classes.end())
    return it->second;
  if (auto it = done.find(c); it != done.end())
    return it->second;
  if (!affected(c))
    return c;
  // The same renaming of the same class recurs across calls: the reindexing
  // rules match one pair of loops once per tail of the sequence around them,
  // and loop bodies share their statements. A copy is reused while its class
  // has not grown (one made from fewer members is still equal to the class,
  // only with fewer alternatives). Class replacements are per call.
  std::optional<TileEGraph::SubstitutionKey> key;
  size_t numNodes = eg.getClass(c).nodes.size();
  if (s.classes.empty()) {
    key.emplace(c, s.fromVar, s.toVar, s.wholeVar, s.wholeExtent,
                s.sizeSymbol.getAsOpaquePointer(),
                s.sizeValue, unsigned(s.tileToElem));
    auto &memo = tg.substitutionMemo();
    auto it = memo.find(*key);
    if (it != memo.end() && it->second.rootNodes == numNodes) {
      if (it->second.result == egraph::kNoId)
        return failure();
      return done[c] = eg.find(it->second.result);
    }
  }
  if (indexesWhole(c)) {
    // An element of the whole variable fails the node using it; a tile
    // becomes [0, n) (wholeFull gives tile.full where it can).
    if (tg.data(c).index->kind == IndexTerm::Elem)
      return failure();
    MLIRContext *ctx = tg.getContext();
    auto i64 = IntegerType::get(ctx, 64);
    return tg.add(
        "tile.const_tile", {},
        {NamedAttribute(StringAttr::get(ctx, "base"), IntegerAttr::get(i64, 0)),
         NamedAttribute(StringAttr::get(ctx, "size"),
                        IntegerAttr::get(i64, s.wholeExtent))},
        IndexExprType::get(ctx));
  }
  if (!inProgress.insert(c).second)
    return failure(); // cyclic through this class: skip the node using it
  // Copy the node list: adding nodes may reallocate the class storage.
  std::vector<ENode> nodes = eg.getClass(c).nodes;
  std::optional<Id> result;
  bool sawSize = false;
  for (const ENode &node : nodes) {
    NodeKind kind = tg.getKind(node);
    Type type = specializeType(tg.getType(node), s.sizeSymbol, s.sizeValue);
    DictionaryAttr attrs = tg.getAttrs(node.payload);
    llvm::SmallVector<Id, 4> children;
    bool ok = true;
    if (kind == NodeKind::Loop) {
      // A loop binding a replaced variable: the occurrences in its body are
      // its own. A loop binding the new name would capture it.
      uint32_t bound = tg.data(node.children[0]).var;
      if (bound != ~0u && bound == s.toVar)
        continue;
      if (bound != ~0u && (bound == s.fromVar || bound == s.wholeVar)) {
        FailureOr<Id> copy = visitUnderBinder(node, bound, type);
        if (failed(copy))
          continue;
        if (result)
          eg.merge(*result, *copy);
        else
          result = *copy;
        continue;
      }
    }
    if ((kind == NodeKind::TileIdx || kind == NodeKind::Elem) &&
        s.fromVar != ~0u && tg.data(node.children[0]).var == s.fromVar) {
      if (kind == NodeKind::TileIdx && s.tileToElem) {
        Id elem = tg.add("tile.elem", {tg.getVarClass(s.toVar)},
                         attrs.getValue(), type);
        if (result)
          eg.merge(*result, elem);
        else
          result = elem;
        continue;
      }
      children.push_back(tg.getVarClass(s.toVar));
    } else if (kind == NodeKind::Size && s.sizeSymbol &&
               attrs.get("value") == s.sizeSymbol) {
      sawSize = true;
      continue;
    } else {
      bool access = kind == NodeKind::Load || kind == NodeKind::Store;
      unsigned tensorPos = kind == NodeKind::Load ? 0 : 1;
      for (auto [i, child] : llvm::enumerate(node.children)) {
        if (access && i > tensorPos) {
          if (std::optional<Id> full = wholeFull(
                  child, node.children[tensorPos], i - tensorPos - 1)) {
            children.push_back(*full);
            continue;
          }
        }
        FailureOr<Id> mapped = visit(child);
        if (failed(mapped)) {
          ok = false;
          break;
        }
        children.push_back(*mapped);
      }
    }
    if (!ok)
      continue;
    Id id = tg.add(tg.getOpName(node.op), children, attrs, type);
    if (result)
      eg.merge(*result, id);
    else
      result = id;
  }
  inProgress.erase(c);
  if (key)
    tg.substitutionMemo()[*key] = {sawSize || !result ? egraph::kNoId
                                                      : *result,
                                   numNodes};
  if (sawSize || !result)
    return failure();
  done[c] = *result;
  return *result;
}

FailureOr<Id> Substituter::visitUnderBinder(const ENode &loop, uint32_t bound,
                                            Type type) {
  Substitution inner = s;
  if (bound == s.fromVar)
    inner.fromVar = inner.toVar = ~0u;
  if (bound == s.wholeVar)
    inner.wholeVar = ~0u;
  Substituter sub(tg, inner);
  llvm::SmallVector<Id, 4> children;
  for (Id child : loop.children) {
    FailureOr<Id> mapped = sub.visit(child);
    if (failed(mapped))
      return failure();
    children.push_back(*mapped);
  }
  return tg.add(tg.getOpName(loop.op), children, tg.getAttrs(loop.payload),
                type);
}

bool Substituter::indexesWhole(Id c) const {
  const std::optional<IndexTerm> &index = tg.data(c).index;
  return s.wholeVar != ~0u && index && index->usesVar(s.wholeVar);
}

std::optional<Id> Substituter::wholeFull(Id c, Id tensor, unsigned dim) {
  egraph::EGraph &eg = tg.graph();
  c = eg.find(c);
  if (!indexesWhole(c) || tg.data(c).index->kind != IndexTerm::Tile)
    return std::nullopt;
  for (const ENode &leaf : eg.getClass(eg.find(tensor)).nodes) {
    auto ref = dyn_cast<TensorRefType>(tg.getType(leaf));
    if (!ref || dim >= ref.getShape().size() ||
        ref.getShape()[dim] != s.wholeExtent)
      continue;
    return tg.add("tile.full", {}, {}, IndexExprType::get(tg.getContext()));
  }
  return std::nullopt;
}

FailureOr<Id> mlir::tileir::substitute(TileEGraph &tg, Id root,
                                       const Substitution &subst) {
  Substituter sub(tg, subst);
  return sub.visit(root);
}
