//===- Droppable.cpp - Intermediates an extraction can do without ---------===//

#include "Droppable.h"

using namespace mlir;
using namespace mlir::tileir;
using egraph::ENode;
using egraph::Id;

namespace {

/// Whether `root` has a derivation without loads of the tensors in `dropped`,
/// where a store into a dropped tensor is left out (so it needs nothing).
/// A class is available once one of its nodes is; sweeps in id order until
/// nothing changes (children mostly have smaller ids).
bool derivableWithout(TileEGraph &tg, Id root,
                      const llvm::DenseSet<uint32_t> &dropped,
                      llvm::ArrayRef<Id> ids) {
  const egraph::EGraph &eg = tg.graph();
  llvm::DenseSet<Id> available;
  auto nodeAvailable = [&](const ENode &n) {
    NodeKind kind = tg.getKind(n);
    if (kind == NodeKind::Load &&
        dropped.contains(tg.data(n.children[0]).tensor))
      return false;
    if (kind == NodeKind::Store &&
        dropped.contains(tg.data(n.children[1]).tensor))
      return true;
    return llvm::all_of(n.children,
                        [&](Id c) { return available.contains(eg.find(c)); });
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (Id c : ids) {
      if (available.contains(c))
        continue;
      if (llvm::any_of(eg.getClass(c).nodes, nodeAvailable)) {
        available.insert(c);
        changed = true;
      }
    }
  }
  return available.contains(eg.find(root));
}

} // namespace

llvm::DenseSet<uint32_t>
mlir::tileir::findDroppableTensors(TileEGraph &tg, Id root,
                                   const llvm::DenseSet<uint32_t> &offChip) {
  const egraph::EGraph &eg = tg.graph();
  std::vector<Id> ids = eg.classIds();
  // Tensors some node loads, in id order.
  llvm::SmallVector<uint32_t> loaded;
  for (Id c : ids)
    for (const ENode &n : eg.getClass(c).nodes)
      if (tg.getKind(n) == NodeKind::Load) {
        uint32_t t = tg.data(n.children[0]).tensor;
        if (!llvm::is_contained(loaded, t))
          loaded.push_back(t);
      }
  llvm::sort(loaded);
  const DependenceOracle &oracle = tg.dependence();
  auto aliased = [&](uint32_t t) {
    for (uint32_t u = 0; oracle.getTensor(u); ++u)
      if (u != t && oracle.mayAlias(t, u))
        return true;
    return false;
  };
  llvm::DenseSet<uint32_t> dropped;
  for (uint32_t t : loaded) {
    if (offChip.contains(t) || aliased(t))
      continue;
    dropped.insert(t);
    if (!derivableWithout(tg, root, dropped, ids))
      dropped.erase(t);
  }
  return dropped;
}
