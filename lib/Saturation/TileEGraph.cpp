//===- TileEGraph.cpp - Tile programs in an e-graph -----------------------===//

#include "TileDialect/Saturation/TileEGraph.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::tileir;
using egraph::ENode;
using egraph::Id;

static NodeKind kindOf(StringRef name) {
  return llvm::StringSwitch<NodeKind>(name)
      .Case("tile.tensor_ref", NodeKind::Tensor)
      .Case("tile.var", NodeKind::Var)
      .Case("tile.size", NodeKind::Size)
      .Case("tile.full", NodeKind::Full)
      .Case("tile.tile", NodeKind::TileIdx)
      .Case("tile.elem", NodeKind::Elem)
      .Case("tile.const_tile", NodeKind::ConstTile)
      .Case("tile.load", NodeKind::Load)
      .Case("tile.store", NodeKind::Store)
      .Case("tile.seq", NodeKind::Seq)
      .Case("tile.nop", NodeKind::Nop)
      .Case("tile.loop", NodeKind::Loop)
      .Case("tile.constant", NodeKind::Constant)
      .Default(NodeKind::Compute);
}

TileEGraph::TileEGraph(MLIRContext *context)
    : context(context), tileAnalysis(*this), egraph(&tileAnalysis) {
  tensorOp = getOpId(OperationName("tile.tensor_ref", context));
}

uint32_t TileEGraph::getOpId(OperationName name) {
  auto [it, inserted] = opIds.try_emplace(name, opNames.size());
  if (inserted) {
    opNames.push_back(name);
    opKinds.push_back(kindOf(name.getStringRef()));
  }
  return it->second;
}

uint32_t TileEGraph::getPayload(DictionaryAttr attrs, Type type) {
  if (!attrs)
    attrs = DictionaryAttr::get(context);
  auto [it, inserted] =
      payloadIds.try_emplace({Attribute(attrs), type}, payloads.size());
  if (inserted)
    payloads.push_back({attrs, type});
  return it->second;
}

uint32_t TileEGraph::getVarId(StringAttr name) {
  auto [it, inserted] = varIds.try_emplace(name, varNames.size());
  if (inserted) {
    varNames.push_back(name);
    loopRanges.emplace_back();
  }
  return it->second;
}

uint32_t TileEGraph::getTensorId(StringAttr name) {
  auto [it, inserted] = tensorIds.try_emplace(name, tensorNames.size());
  if (inserted)
    tensorNames.push_back(name);
  return it->second;
}

const LoopRange *TileEGraph::getLoopRange(uint32_t var) const {
  if (var >= loopRanges.size() || !loopRanges[var])
    return nullptr;
  return &*loopRanges[var];
}

Id TileEGraph::getVarClass(uint32_t var) {
  return add("tile.var", {},
             {NamedAttribute(StringAttr::get(context, "name"), varNames[var])},
             VarType::get(context));
}

Id TileEGraph::add(OperationName name, ArrayRef<Id> children,
                   DictionaryAttr attrs, Type type) {
  ENode node(getOpId(name), getPayload(attrs, type), children);
  Id id = egraph.add(std::move(node));
  if (getKind(getOpId(name)) == NodeKind::Loop && children.size() == 3) {
    const ClassData &v = data(children[0]);
    const ClassData &s = data(children[1]);
    auto start = attrs.getAs<IntegerAttr>("start");
    auto end = attrs.getAs<IntegerAttr>("end");
    if (v.var != ~0u && s.size && start && end &&
        !loopRanges[v.var]) {
      loopRanges[v.var] = LoopRange{start.getInt(), end.getInt(), *s.size};
      oracle.setLoop(v.var, LoopInfo{varNames[v.var].str(), start.getInt(),
                                     end.getInt(), *s.size});
    }
  }
  return id;
}

Id TileEGraph::add(StringRef name, ArrayRef<Id> children,
                   ArrayRef<NamedAttribute> attrs, Type type) {
  return add(OperationName(name, context), children,
             DictionaryAttr::get(context, attrs), type);
}

/// The node an op becomes, given the classes of its operands; null when the
/// op cannot be represented.
static std::optional<ENode>
nodeFor(TileEGraph &tg, Operation *op,
        const llvm::DenseMap<Value, Id> &classOf) {
  if (op->getNumResults() != 1 || op->getNumRegions() != 0)
    return std::nullopt;
  llvm::SmallVector<Id, 4> children;
  for (Value operand : op->getOperands()) {
    auto it = classOf.find(operand);
    if (it == classOf.end())
      return std::nullopt;
    children.push_back(it->second);
  }
  return ENode(tg.getOpId(op->getName()),
               tg.getPayload(op->getAttrDictionary(),
                             op->getResult(0).getType()),
               children);
}

static Id tensorLeaf(TileEGraph &tg, ProgramOp program, unsigned i,
                     bool addIt, std::optional<Id> &found) {
  MLIRContext *ctx = program.getContext();
  StringAttr name = StringAttr::get(ctx, program.getTensorName(i));
  uint32_t id = tg.getTensorId(name);
  auto attrs = DictionaryAttr::get(
      ctx, {NamedAttribute(StringAttr::get(ctx, "name"), name)});
  Type type = program.getBody().front().getArgument(i).getType();
  auto tensorType = dyn_cast<TensorRefType>(type);
  if (addIt && tensorType && !tg.dependence().getTensor(id)) {
    TensorInfo info;
    info.name = name.str();
    info.shape.assign(tensorType.getShape().begin(),
                      tensorType.getShape().end());
    Type elt = tensorType.getElementType();
    info.elementBytes =
        elt.isIntOrFloat() ? std::max(1u, elt.getIntOrFloatBitWidth() / 8) : 4;
    tg.dependence().setTensor(id, std::move(info));
  }
  ENode node(tg.getTensorOp(), tg.getPayload(attrs, type));
  if (addIt)
    return tg.graph().add(node);
  found = tg.graph().lookup(node);
  return found ? *found : egraph::kNoId;
}

FailureOr<Id> TileEGraph::addProgram(ProgramOp program) {
  llvm::DenseMap<Value, Id> classOf;
  Block &body = program.getBody().front();
  std::optional<Id> unused;
  for (unsigned i = 0, e = body.getNumArguments(); i < e; ++i)
    classOf[body.getArgument(i)] = tensorLeaf(*this, program, i, true, unused);
  if (auto pairs = program->getAttrOfType<ArrayAttr>("tile.may_alias"))
    for (Attribute p : pairs)
      if (auto pair = dyn_cast<ArrayAttr>(p); pair && pair.size() == 2)
        oracle.addMayAlias(getTensorId(cast<StringAttr>(pair[0])),
                           getTensorId(cast<StringAttr>(pair[1])));
  originalNodes.clear();
  for (Operation &op : body.without_terminator()) {
    std::optional<ENode> node = nodeFor(*this, &op, classOf);
    if (!node)
      return op.emitOpError("cannot be represented in the e-graph");
    Id id = add(op.getName(), node->children, op.getAttrDictionary(),
                op.getResult(0).getType());
    classOf[op.getResult(0)] = id;
    originalNodes[&op] = egraph.canonicalize(*node);
  }
  egraph.rebuild();
  auto yield = program.getYield();
  if (yield->getNumOperands() != 1)
    return program.emitOpError("must yield exactly one statement");
  return egraph.find(classOf.lookup(yield->getOperand(0)));
}

std::optional<Id> TileEGraph::lookupProgram(ProgramOp program,
                                            Operation *&missing) {
  missing = nullptr;
  llvm::DenseMap<Value, Id> classOf;
  Block &body = program.getBody().front();
  for (unsigned i = 0, e = body.getNumArguments(); i < e; ++i) {
    std::optional<Id> found;
    tensorLeaf(*this, program, i, false, found);
    if (found)
      classOf[body.getArgument(i)] = *found;
  }
  for (Operation &op : body.without_terminator()) {
    std::optional<ENode> node = nodeFor(*this, &op, classOf);
    std::optional<Id> id;
    if (node)
      id = egraph.lookup(*node);
    if (!id) {
      // Vars and sizes of a goal may be unused by the start program.
      if (isa<VarOp, SizeOp>(op) && node) {
        classOf[op.getResult(0)] = add(op.getName(), node->children,
                                       op.getAttrDictionary(),
                                       op.getResult(0).getType());
        continue;
      }
      if (!missing)
        missing = &op;
      continue;
    }
    classOf[op.getResult(0)] = *id;
  }
  auto yield = program.getYield();
  if (missing || yield->getNumOperands() != 1)
    return std::nullopt;
  auto it = classOf.find(yield->getOperand(0));
  if (it == classOf.end())
    return std::nullopt;
  return egraph.find(it->second);
}

ProgramOp TileEGraph::extract(
    OpBuilder &builder, ProgramOp like, StringRef name, Id root,
    llvm::function_ref<const ENode *(Id)> choose) {
  auto program = cast<ProgramOp>(builder.clone(*like.getOperation()));
  program.setSymName(name);
  Block &body = program.getBody().front();
  while (!body.empty())
    body.back().erase();
  llvm::DenseMap<StringAttr, Value> tensors;
  for (unsigned i = 0, e = body.getNumArguments(); i < e; ++i)
    tensors[StringAttr::get(context, program.getTensorName(i))] =
        body.getArgument(i);

  OpBuilder b = OpBuilder::atBlockEnd(&body);
  llvm::DenseMap<Id, Value> built;
  llvm::DenseSet<Id> onPath;
  // Post-order DFS with an explicit stack: (class, next child index).
  struct Frame {
    Id cls;
    const ENode *node;
    unsigned next;
  };
  llvm::SmallVector<Frame> stack;
  auto push = [&](Id cls) -> LogicalResult {
    cls = egraph.find(cls);
    const ENode *node = choose(cls);
    if (!node) {
      like.emitError("e-graph extraction: no choice for e-class ") << cls;
      return failure();
    }
    if (!onPath.insert(cls).second) {
      like.emitError("e-graph extraction: cyclic choice at e-class ") << cls;
      return failure();
    }
    stack.push_back({cls, node, 0});
    return success();
  };
  if (failed(push(root))) {
    program.erase();
    return nullptr;
  }
  while (!stack.empty()) {
    Frame &top = stack.back();
    if (top.next < top.node->children.size()) {
      Id child = egraph.find(top.node->children[top.next++]);
      if (built.count(child))
        continue;
      if (failed(push(child))) {
        program.erase();
        return nullptr;
      }
      continue;
    }
    const ENode *node = top.node;
    Id cls = top.cls;
    stack.pop_back();
    onPath.erase(cls);
    Value result;
    if (node->op == tensorOp) {
      auto tname = getAttrs(node->payload).getAs<StringAttr>("name");
      result = tensors.lookup(tname);
      if (!result) {
        like.emitError("e-graph extraction: unknown tensor ") << tname;
        program.erase();
        return nullptr;
      }
    } else {
      OperationState state(like.getLoc(), getOpName(node->op));
      for (Id child : node->children)
        state.operands.push_back(built.lookup(egraph.find(child)));
      state.addAttributes(getAttrs(node->payload).getValue());
      state.types.push_back(getType(node->payload));
      result = b.create(state)->getResult(0);
    }
    built[cls] = result;
  }
  YieldOp::create(b, like.getLoc(), built.lookup(egraph.find(root)));
  return program;
}

std::string TileEGraph::label(const ENode &node) const {
  std::string s;
  llvm::raw_string_ostream os(s);
  StringRef name = getOpName(node.op).getStringRef();
  os << name;
  DictionaryAttr attrs = getAttrs(node.payload);
  if (auto n = attrs.getAs<StringAttr>("name"))
    os << " " << n.getValue();
  else if (auto v = attrs.get("value"))
    os << " " << v;
  if (auto a = attrs.get("axis"))
    os << " axis=" << a;
  return s;
}
