//===- TileEGraph.h - Tile programs in an e-graph ---------------*- C++ -*-===//
//
// The bridge between tile programs and the MLIR-free e-graph core: one e-node
// per op (operator = the op's name, payload = its attributes and result
// type, children = its operands), one leaf per program tensor (by name and
// type). Adding a program and extracting its original choice gives the same
// program back; a goal program can be looked up without adding anything.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_SATURATION_TILEEGRAPH_H
#define TILEDIALECT_SATURATION_TILEEGRAPH_H

#include "TileDialect/Analysis/Dependence.h"
#include "TileDialect/EGraph/EGraph.h"
#include "TileDialect/IR/TileOps.h"
#include "TileDialect/Saturation/TileAnalysis.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <tuple>

namespace mlir::tileir {

/// The kinds of e-node operators the analysis and guards distinguish.
enum class NodeKind : uint8_t {
  Tensor, Var, Size, Full, TileIdx, Elem, ConstTile, Load, Store, Seq, Nop,
  Loop, Constant, Compute
};

/// What a loop variable ranges over (all loops binding it agree).
struct LoopRange {
  int64_t start = 0, end = 0;
  TileDim step;
};

class TileEGraph {
public:
  explicit TileEGraph(MLIRContext *context);

  MLIRContext *getContext() const { return context; }
  egraph::EGraph &graph() { return egraph; }
  const egraph::EGraph &graph() const { return egraph; }
  const TileAnalysis &analysis() const { return tileAnalysis; }
  const ClassData &data(egraph::Id id) const { return tileAnalysis.get(id); }

  //===--- Interning ------------------------------------------------------===//
  uint32_t getOpId(OperationName name);
  OperationName getOpName(uint32_t op) const { return opNames[op]; }
  NodeKind getKind(uint32_t op) const { return opKinds[op]; }
  NodeKind getKind(const egraph::ENode &node) const { return opKinds[node.op]; }
  uint32_t getPayload(DictionaryAttr attrs, Type type);
  DictionaryAttr getAttrs(uint32_t payload) const {
    return payloads[payload].first;
  }
  Type getType(uint32_t payload) const { return payloads[payload].second; }
  Type getType(const egraph::ENode &node) const {
    return payloads[node.payload].second;
  }
  /// The pseudo operator of tensor leaves (`tile.tensor_ref`).
  uint32_t getTensorOp() const { return tensorOp; }

  /// Loop variables and tensors are numbered by name.
  uint32_t getVarId(StringAttr name);
  StringAttr getVarName(uint32_t id) const { return varNames[id]; }
  uint32_t getTensorId(StringAttr name);
  StringAttr getTensorName(uint32_t id) const { return tensorNames[id]; }
  /// The range of a loop variable, once a loop binding it was added.
  const LoopRange *getLoopRange(uint32_t var) const;
  /// The dependence oracle, told about every tensor and loop added (tensor
  /// ids and loop variable ids as here).
  DependenceOracle &dependence() { return oracle; }
  const DependenceOracle &dependence() const { return oracle; }
  /// The class of `tile.var "name"` (added on demand).
  egraph::Id getVarClass(uint32_t var);

  //===--- Building -------------------------------------------------------===//
  /// Adds one node (children are class ids).
  egraph::Id add(OperationName name, ArrayRef<egraph::Id> children,
                 DictionaryAttr attrs, Type type);
  egraph::Id add(StringRef name, ArrayRef<egraph::Id> children,
                 ArrayRef<NamedAttribute> attrs, Type type);
  /// Adds every op of `program`; returns the class of the yielded statement.
  /// Fails with a diagnostic on ops that cannot be represented.
  FailureOr<egraph::Id> addProgram(ProgramOp program);
  /// The e-node each op of the last added program became.
  const llvm::DenseMap<Operation *, egraph::ENode> &getOriginalNodes() const {
    return originalNodes;
  }
  /// Looks `program` up without adding: the class of its root if every
  /// subterm is represented; otherwise null and `missing` is set to the first
  /// op (in program order) whose term is not represented.
  std::optional<egraph::Id> lookupProgram(ProgramOp program,
                                          Operation *&missing);

  //===--- Extraction -----------------------------------------------------===//
  /// Builds a program named `name` with the tensors of `like` whose yielded
  /// statement is the term rooted at `root`, taking in each class the node
  /// `choose` returns (null: fail). Returns null after a diagnostic at
  /// `like` if a choice is missing or cyclic.
  ProgramOp extract(OpBuilder &builder, ProgramOp like, StringRef name,
                    egraph::Id root,
                    llvm::function_ref<const egraph::ENode *(egraph::Id)>
                        choose);

  /// A short label for a node: `tile.loop %k`, `tile.load %Q`, ...
  std::string label(const egraph::ENode &node) const;

  //===--- Memo of substitute() ------------------------------------------===//
  /// What substitute() (Substitute.h) copied: a class and the renaming
  /// (variables, whole variable and its extent, specialized size symbol and
  /// value, tiles to elements).
  using SubstitutionKey =
      std::tuple<egraph::Id, uint32_t, uint32_t, uint32_t, int64_t,
                 const void *, int64_t, unsigned>;
  /// The copy (kNoId: none) and how many nodes the class had then: a class
  /// that grew since is copied again.
  struct SubstitutionAnswer {
    egraph::Id result;
    size_t rootNodes;
  };
  llvm::DenseMap<SubstitutionKey, SubstitutionAnswer> &substitutionMemo() {
    return substitutions;
  }

private:
  MLIRContext *context;
  TileAnalysis tileAnalysis;
  egraph::EGraph egraph;
  DependenceOracle oracle;

  llvm::DenseMap<OperationName, uint32_t> opIds;
  std::vector<OperationName> opNames;
  std::vector<NodeKind> opKinds;
  llvm::DenseMap<std::pair<Attribute, Type>, uint32_t> payloadIds;
  std::vector<std::pair<DictionaryAttr, Type>> payloads;
  uint32_t tensorOp;

  llvm::DenseMap<StringAttr, uint32_t> varIds, tensorIds;
  std::vector<StringAttr> varNames, tensorNames;
  std::vector<std::optional<LoopRange>> loopRanges;
  llvm::DenseMap<Operation *, egraph::ENode> originalNodes;
  llvm::DenseMap<SubstitutionKey, SubstitutionAnswer> substitutions;

  friend class TileAnalysis;
};

} // namespace mlir::tileir

#endif // TILEDIALECT_SATURATION_TILEEGRAPH_H
