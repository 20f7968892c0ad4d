//===- PdlRule.cpp - pdl.pattern interpreted over the e-graph -------------===//

#include "TileDialect/Rules/PdlRule.h"
#include "TileDialect/IR/TileTypes.h"

#include "mlir/Dialect/PDL/IR/PDLTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::tileir;
using egraph::ENode;
using egraph::Id;

namespace {
/// A `pdl.operation` of the matcher.
struct Atom {
  uint32_t op = ~0u; ///< operator id, ~0u for any
  int slot = -1;     ///< the slot holding the matched class
  /// Operand slots; at most one is a range (`pdl.operands`).
  llvm::SmallVector<int, 4> operands;
  int rangeOperand = -1; ///< index into `operands` of the range, or -1
  llvm::SmallVector<std::pair<StringAttr, int>, 2> attrs;
  int typeSlot = -1;
};

struct Constraint {
  std::string name;
  const NativeConstraint *fn = nullptr;
  llvm::SmallVector<int, 4> args;
  bool negated = false;
};

/// One step of the rewrite region.
struct Action {
  enum Kind { Create, Replace, Native } kind;
  // Create: operation name, operand slots (ranges expanded), attrs, type
  // slots; result into `result`.
  std::optional<OperationName> name;
  llvm::SmallVector<int, 4> operands;
  llvm::SmallVector<std::pair<StringAttr, int>, 2> attrs;
  int typeSlot = -1;
  int result = -1;
  // Replace: `result` (root slot) with `operands[0]`.
  // Native: function and argument / result slots.
  const NativeRewrite *fn = nullptr;
  std::string fnName;
  llvm::SmallVector<int, 2> results;
  Location loc;
  Action(Kind kind, Location loc) : kind(kind), loc(loc) {}
};
} // namespace

struct PdlRule::Program {
  unsigned numSlots = 0;
  /// Constant slots (pdl.attribute / pdl.type with a value).
  std::vector<PdlSlot> initial;
  /// Type constraints on `pdl.operand`s: (value slot, type slot).
  llvm::SmallVector<std::pair<int, int>, 4> operandTypes;
  /// Atoms in the order they are matched; atoms[0] is the root.
  std::vector<Atom> atoms;
  std::vector<Constraint> constraints;
  /// The checks: operand types, then constraints, in order (check k < the
  /// number of operand types is operandTypes[k], the rest constraints).
  /// Those run right after atom i is bound are [checksEnd[i - 1],
  /// checksEnd[i]) (from 0 for the root). A check runs once every slot it
  /// reads is bound, but never before an earlier one, so a constraint may
  /// rely on the ones written before it.
  llvm::SmallVector<unsigned, 8> checksEnd;
  std::vector<Action> actions;

  void scheduleChecks();
};

void PdlRule::Program::scheduleChecks() {
  // The atom after which each slot is bound: constants before any.
  std::vector<int> boundAt(numSlots, int(atoms.size()) - 1);
  for (size_t s = 0; s < initial.size() && s < numSlots; ++s)
    if (initial[s].kind != PdlSlot::Unbound)
      boundAt[s] = -1;
  for (int i = atoms.size(); i-- > 0;) {
    const Atom &atom = atoms[i];
    auto bind = [&](int s) {
      if (s >= 0 && boundAt[s] != -1)
        boundAt[s] = std::min(boundAt[s], i);
    };
    bind(atom.slot);
    for (int s : atom.operands)
      bind(s);
    for (auto [name, s] : atom.attrs)
      bind(s);
    bind(atom.typeSlot);
  }
  checksEnd.assign(atoms.size(), 0);
  int at = 0;
  auto place = [&](llvm::ArrayRef<int> reads) {
    for (int s : reads)
      at = std::max(at, boundAt[s]);
    for (size_t i = at; i < atoms.size(); ++i)
      ++checksEnd[i];
  };
  for (auto [value, type] : operandTypes)
    place({value, type});
  for (const Constraint &c : constraints)
    place(c.args);
}

PdlRule::PdlRule(std::string name, Location loc, RuleContext &context)
    : name(std::move(name)), loc(loc), context(context) {}
PdlRule::~PdlRule() = default;

std::string PdlRule::kebabName(StringRef patternName) {
  std::string out;
  for (size_t i = 0; i < patternName.size(); ++i) {
    char c = patternName[i];
    if (llvm::isUpper(c)) {
      if (i > 0 && (llvm::isLower(patternName[i - 1]) || llvm::isDigit(patternName[i - 1])))
        out.push_back('-');
      out.push_back(llvm::toLower(c));
    } else {
      out.push_back(c);
    }
  }
  return out;
}

//===----------------------------------------------------------------------===//
// Compilation
//===----------------------------------------------------------------------===//

namespace {
class Compiler {
public:
  Compiler(PdlRule::Program &prog, TileEGraph &tg, const NativeRegistry &n)
      : prog(prog), tg(tg), natives(n) {}

  LogicalResult compile(pdl::PatternOp pattern);

private:
  int slotOf(Value v) {
    auto it = slots.find(v);
    if (it != slots.end())
      return it->second;
    int s = prog.numSlots++;
    prog.initial.emplace_back();
    slots[v] = s;
    return s;
  }
  void alias(Value v, int slot) { slots[v] = slot; }
  LogicalResult matcherOp(Operation *op);
  LogicalResult rewriteOp(Operation *op);
  /// Ops both regions share (attributes, types, results); null if `op` is
  /// none of them.
  std::optional<LogicalResult> commonOp(Operation *op, bool inRewrite);
  /// The attribute slots and the result type slot of a `pdl.operation`.
  LogicalResult operationSlots(
      pdl::OperationOp o,
      llvm::SmallVectorImpl<std::pair<StringAttr, int>> &attrs,
      int &typeSlot);

  PdlRule::Program &prog;
  TileEGraph &tg;
  const NativeRegistry &natives;
  llvm::DenseMap<Value, int> slots;
  llvm::DenseMap<int, unsigned> atomOfSlot; // op slot -> index in pending
  std::vector<Atom> pending;
};
} // namespace

std::optional<LogicalResult> Compiler::commonOp(Operation *op,
                                                bool inRewrite) {
  if (auto a = dyn_cast<pdl::AttributeOp>(op)) {
    int s = slotOf(a);
    if (!a.getValue()) {
      if (inRewrite)
        return op->emitError("attributes created in a rewrite need a value");
      return success();
    }
    prog.initial[s].kind = PdlSlot::Attr;
    prog.initial[s].attr = *a.getValue();
    return success();
  }
  if (auto t = dyn_cast<pdl::TypeOp>(op)) {
    int s = slotOf(t);
    if (!t.getConstantType()) {
      if (inRewrite)
        return op->emitError("types created in a rewrite need a value");
      return success();
    }
    prog.initial[s].kind = PdlSlot::TypeVal;
    prog.initial[s].type = *t.getConstantType();
    return success();
  }
  if (auto r = dyn_cast<pdl::ResultOp>(op)) {
    if (r.getIndex() != 0)
      return op->emitError("tile ops have one result");
    alias(r, slotOf(r.getParent()));
    return success();
  }
  if (auto r = dyn_cast<pdl::ResultsOp>(op)) {
    alias(r, slotOf(r.getParent()));
    return success();
  }
  return std::nullopt;
}

LogicalResult Compiler::operationSlots(
    pdl::OperationOp o,
    llvm::SmallVectorImpl<std::pair<StringAttr, int>> &attrs, int &typeSlot) {
  for (auto [nameAttr, value] :
       llvm::zip(o.getAttributeValueNames(), o.getAttributeValues()))
    attrs.push_back({cast<StringAttr>(nameAttr), slotOf(value)});
  if (o.getTypeValues().size() > 1)
    return o.emitError("tile ops have one result");
  if (!o.getTypeValues().empty())
    typeSlot = slotOf(o.getTypeValues()[0]);
  return success();
}

LogicalResult Compiler::matcherOp(Operation *op) {
  if (auto o = dyn_cast<pdl::OperandOp>(op)) {
    int s = slotOf(o);
    if (o.getValueType())
      prog.operandTypes.push_back({s, slotOf(o.getValueType())});
    return success();
  }
  if (auto o = dyn_cast<pdl::OperandsOp>(op)) {
    slotOf(o);
    return success();
  }
  if (auto t = dyn_cast<pdl::TypesOp>(op)) {
    int s = slotOf(t);
    if (auto c = t.getConstantTypes(); c && c->size() == 1) {
      prog.initial[s].kind = PdlSlot::TypeVal;
      prog.initial[s].type = cast<TypeAttr>((*c)[0]).getValue();
    }
    return success();
  }
  if (std::optional<LogicalResult> done = commonOp(op, /*inRewrite=*/false))
    return *done;
  if (auto o = dyn_cast<pdl::OperationOp>(op)) {
    Atom atom;
    if (auto name = o.getOpName())
      atom.op = tg.getOpId(OperationName(*name, op->getContext()));
    atom.slot = slotOf(o);
    for (Value v : o.getOperandValues()) {
      // `results of %op` is one value: tile ops have one result.
      if (isa<pdl::RangeType>(v.getType()) &&
          !isa_and_nonnull<pdl::ResultsOp>(v.getDefiningOp())) {
        if (atom.rangeOperand >= 0)
          return op->emitError("the e-matcher supports one operand range per "
                               "operation");
        atom.rangeOperand = atom.operands.size();
      }
      atom.operands.push_back(slotOf(v));
    }
    if (failed(operationSlots(o, atom.attrs, atom.typeSlot)))
      return failure();
    atomOfSlot[atom.slot] = pending.size();
    pending.push_back(std::move(atom));
    return success();
  }
  if (auto c = dyn_cast<pdl::ApplyNativeConstraintOp>(op)) {
    Constraint con;
    con.name = c.getName().str();
    auto it = natives.constraints.find(c.getName());
    if (it == natives.constraints.end())
      return op->emitError("unknown native constraint '") << c.getName() << "'";
    con.fn = &it->second;
    con.negated = c.getIsNegated();
    for (Value v : c.getArgs())
      con.args.push_back(slotOf(v));
    if (!c.getResults().empty())
      return op->emitError("native constraints with results are not supported");
    prog.constraints.push_back(std::move(con));
    return success();
  }
  return op->emitError("unsupported in a rule's matcher: ") << op->getName();
}

LogicalResult Compiler::rewriteOp(Operation *op) {
  if (std::optional<LogicalResult> done = commonOp(op, /*inRewrite=*/true))
    return *done;
  if (auto o = dyn_cast<pdl::OperationOp>(op)) {
    if (!o.getOpName())
      return op->emitError("created operations need a name");
    Action act(Action::Create, op->getLoc());
    act.name = OperationName(*o.getOpName(), op->getContext());
    for (Value v : o.getOperandValues())
      act.operands.push_back(slotOf(v));
    if (failed(operationSlots(o, act.attrs, act.typeSlot)))
      return failure();
    act.result = slotOf(o);
    prog.actions.push_back(std::move(act));
    return success();
  }
  if (auto r = dyn_cast<pdl::ReplaceOp>(op)) {
    Action act(Action::Replace, op->getLoc());
    act.result = slotOf(r.getOpValue());
    if (r.getReplOperation())
      act.operands.push_back(slotOf(r.getReplOperation()));
    else if (r.getReplValues().size() == 1)
      act.operands.push_back(slotOf(r.getReplValues()[0]));
    else
      return op->emitError("replace with exactly one value");
    prog.actions.push_back(std::move(act));
    return success();
  }
  if (auto n = dyn_cast<pdl::ApplyNativeRewriteOp>(op)) {
    Action act(Action::Native, op->getLoc());
    auto it = natives.rewrites.find(n.getName());
    if (it == natives.rewrites.end())
      return op->emitError("unknown native rewrite '") << n.getName() << "'";
    act.fn = &it->second;
    act.fnName = n.getName().str();
    for (Value v : n.getArgs())
      act.operands.push_back(slotOf(v));
    for (Value v : n.getResults())
      act.results.push_back(slotOf(v));
    prog.actions.push_back(std::move(act));
    return success();
  }
  return op->emitError("unsupported in a rule's rewrite: ") << op->getName();
}

LogicalResult Compiler::compile(pdl::PatternOp pattern) {
  pdl::RewriteOp rewrite = pattern.getRewriter();
  for (Operation &op : pattern.getBodyRegion().front()) {
    if (&op == rewrite.getOperation())
      continue;
    if (failed(matcherOp(&op)))
      return failure();
  }
  if (!rewrite.getRoot())
    return rewrite.emitError("rules need a root operation");
  if (rewrite.getNameAttr())
    return rewrite.emitError("external rewriters are not supported; use a "
                             "rewrite region with native rewrites");
  auto rootIt = atomOfSlot.find(slotOf(rewrite.getRoot()));
  if (rootIt == atomOfSlot.end())
    return rewrite.emitError("the root must be a matched operation");
  // Order atoms by a preorder walk from the root along operands.
  llvm::SmallVector<unsigned> stack{rootIt->second};
  llvm::DenseSet<unsigned> seen{rootIt->second};
  while (!stack.empty()) {
    unsigned a = stack.pop_back_val();
    prog.atoms.push_back(pending[a]);
    for (int operand : llvm::reverse(pending[a].operands)) {
      auto it = atomOfSlot.find(operand);
      if (it != atomOfSlot.end() && seen.insert(it->second).second)
        stack.push_back(it->second);
    }
  }
  if (prog.atoms.size() != pending.size())
    return pattern.emitError("every matched operation must be reachable from "
                             "the root through operands");
  prog.scheduleChecks();
  if (!rewrite.getBodyRegion().empty())
    for (Operation &op : rewrite.getBodyRegion().front())
      if (failed(rewriteOp(&op)))
        return failure();
  return success();
}

std::unique_ptr<PdlRule> PdlRule::compile(pdl::PatternOp pattern,
                                          RuleContext &context,
                                          const NativeRegistry &natives) {
  std::string name = kebabName(pattern.getSymName().value_or("unnamed"));
  std::unique_ptr<PdlRule> rule(
      new PdlRule(name, pattern.getLoc(), context));
  rule->program = std::make_unique<Program>();
  Compiler compiler(*rule->program, context.tg, natives);
  if (mlir::failed(compiler.compile(pattern)))
    return nullptr;
  return rule;
}

//===----------------------------------------------------------------------===//
// Matching
//===----------------------------------------------------------------------===//

namespace {
/// Orders e-nodes and operator ids by operator.
struct OpLess {
  bool operator()(const ENode &node, uint32_t op) const {
    return node.op < op;
  }
  bool operator()(uint32_t op, const ENode &node) const {
    return op < node.op;
  }
};

class Matcher {
public:
  Matcher(const PdlRule::Program &prog, RuleContext &ctx, size_t limit,
          std::vector<std::vector<PdlSlot>> &out, size_t &blocked)
      : prog(prog), ctx(ctx), eg(ctx.tg.graph()), limit(limit), out(out),
        blocked(blocked), slots(prog.initial) {}

  void run() {
    const Atom &root = prog.atoms[0];
    if (root.op == ~0u) {
      for (Id c : eg.classIds())
        if (!visitRoot(c))
          return;
      return;
    }
    for (Id c : eg.classesWithOp(root.op))
      if (!visitRoot(c))
        return;
  }

private:
  /// Returns false once the limit is exceeded.
  bool visitRoot(Id c) {
    slots[prog.atoms[0].slot] = PdlSlot::ofClass(c);
    matchAtom(0);
    slots[prog.atoms[0].slot] = prog.initial[prog.atoms[0].slot];
    return out.size() <= limit;
  }

  bool bindClass(int s, Id c, llvm::SmallVectorImpl<int> &trail) {
    PdlSlot &slot = slots[s];
    if (slot.kind == PdlSlot::Unbound) {
      slot = PdlSlot::ofClass(eg.find(c));
      trail.push_back(s);
      return true;
    }
    return slot.kind == PdlSlot::Class && eg.find(slot.cls) == eg.find(c);
  }
  bool bindRange(int s, llvm::ArrayRef<Id> cs,
                 llvm::SmallVectorImpl<int> &trail) {
    PdlSlot &slot = slots[s];
    if (slot.kind == PdlSlot::Unbound) {
      slot.kind = PdlSlot::Range;
      slot.range.clear();
      for (Id c : cs)
        slot.range.push_back(eg.find(c));
      trail.push_back(s);
      return true;
    }
    if (slot.kind != PdlSlot::Range || slot.range.size() != cs.size())
      return false;
    for (size_t i = 0; i < cs.size(); ++i)
      if (eg.find(slot.range[i]) != eg.find(cs[i]))
        return false;
    return true;
  }
  bool bindAttr(int s, Attribute a, llvm::SmallVectorImpl<int> &trail) {
    PdlSlot &slot = slots[s];
    if (slot.kind == PdlSlot::Unbound) {
      slot.kind = PdlSlot::Attr;
      slot.attr = a;
      trail.push_back(s);
      return true;
    }
    return slot.kind == PdlSlot::Attr && slot.attr == a;
  }
  bool bindType(int s, Type t, llvm::SmallVectorImpl<int> &trail) {
    PdlSlot &slot = slots[s];
    if (slot.kind == PdlSlot::Unbound) {
      slot.kind = PdlSlot::TypeVal;
      slot.type = t;
      trail.push_back(s);
      return true;
    }
    return slot.kind == PdlSlot::TypeVal && slot.type == t;
  }

  bool bindNode(const Atom &atom, const ENode &node,
                llvm::SmallVectorImpl<int> &trail) {
    size_t fixed = atom.operands.size() - (atom.rangeOperand >= 0 ? 1 : 0);
    if (atom.rangeOperand < 0 ? node.children.size() != fixed
                              : node.children.size() < fixed)
      return false;
    size_t rangeLen = node.children.size() - fixed;
    size_t child = 0;
    for (size_t i = 0; i < atom.operands.size(); ++i) {
      if ((int)i == atom.rangeOperand) {
        if (!bindRange(atom.operands[i],
                       llvm::ArrayRef<Id>(node.children).slice(child, rangeLen),
                       trail))
          return false;
        child += rangeLen;
        continue;
      }
      if (!bindClass(atom.operands[i], node.children[child++], trail))
        return false;
    }
    DictionaryAttr attrs = ctx.tg.getAttrs(node.payload);
    for (auto &[name, s] : atom.attrs) {
      Attribute a = attrs.get(name);
      if (!a || !bindAttr(s, a, trail))
        return false;
    }
    if (atom.typeSlot >= 0 &&
        !bindType(atom.typeSlot, ctx.tg.getType(node), trail))
      return false;
    return true;
  }

  void matchAtom(size_t i) {
    if (out.size() > limit)
      return;
    if (i == prog.atoms.size()) {
      finish();
      return;
    }
    const Atom &atom = prog.atoms[i];
    const PdlSlot &slot = slots[atom.slot];
    if (slot.kind != PdlSlot::Class)
      return;
    const egraph::EClass &cls = eg.getClass(eg.find(slot.cls));
    // A rebuilt class's nodes are sorted by operator first: only the run
    // of the atom's operator is looked at.
    llvm::ArrayRef<ENode> nodes = cls.nodes;
    if (atom.op != ~0u) {
      auto [first, last] = std::equal_range(
          nodes.begin(), nodes.end(), atom.op, OpLess());
      nodes = nodes.slice(first - nodes.begin(), last - first);
    }
    llvm::SmallVector<int, 8> trail;
    for (const ENode &node : nodes) {
      if (bindNode(atom, node, trail) && passesChecks(i))
        matchAtom(i + 1);
      for (int s : trail)
        slots[s] = prog.initial[s];
      trail.clear();
      if (out.size() > limit)
        return;
    }
  }

  void finish() { out.push_back(slots); }

  /// Runs the checks placed after atom i (Program::checksEnd).
  bool passesChecks(size_t i) {
    unsigned first = i == 0 ? 0 : prog.checksEnd[i - 1];
    size_t types = prog.operandTypes.size();
    for (unsigned k = first; k < prog.checksEnd[i]; ++k) {
      if (k < types) {
        auto [valueSlot, typeSlot] = prog.operandTypes[k];
        const PdlSlot &v = slots[valueSlot];
        const PdlSlot &t = slots[typeSlot];
        if (v.kind != PdlSlot::Class)
          return false;
        if (t.kind == PdlSlot::TypeVal && t.type != ctx.tg.data(v.cls).type)
          return false;
        continue;
      }
      const Constraint &c = prog.constraints[k - types];
      llvm::SmallVector<const PdlSlot *, 4> args;
      for (int s : c.args)
        args.push_back(&slots[s]);
      if ((*c.fn)(ctx, args) == c.negated) {
        ++blocked;
        return false;
      }
    }
    return true;
  }

  const PdlRule::Program &prog;
  RuleContext &ctx;
  const egraph::EGraph &eg;
  size_t limit;
  std::vector<std::vector<PdlSlot>> &out;
  size_t &blocked;
  std::vector<PdlSlot> slots;
};
} // namespace

size_t PdlRule::search(const egraph::EGraph &egraph, size_t limit) {
  assert(!egraph.isDirty() && "matching needs a rebuilt e-graph (class "
                              "nodes sorted by operator)");
  matches.clear();
  blocked = 0;
  Matcher(*program, context, limit, matches, blocked).run();
  return matches.size();
}

//===----------------------------------------------------------------------===//
// Applying
//===----------------------------------------------------------------------===//

/// The result type of a created op when the rule gives none.
static Type inferResultType(TileEGraph &tg, OperationName name,
                            llvm::ArrayRef<Id> children) {
  MLIRContext *ctx = tg.getContext();
  StringRef n = name.getStringRef();
  if (n == "tile.store" || n == "tile.seq" || n == "tile.loop" ||
      n == "tile.nop")
    return StmtType::get(ctx);
  static const llvm::StringSet<> sameAsOperand = {
      "tile.add",  "tile.sub",  "tile.mul",     "tile.div",     "tile.max",
      "tile.min",  "tile.neg",  "tile.abs",     "tile.sqr",     "tile.exp",
      "tile.log",  "tile.sqrt", "tile.rsqrt",   "tile.sigmoid", "tile.tanh",
      "tile.erf"};
  if (sameAsOperand.contains(n) && !children.empty()) {
    Type t = tg.data(children[0]).type;
    for (Id c : children)
      if (tg.data(c).type != t)
        return nullptr;
    return t;
  }
  if (n == "tile.select" && children.size() == 3)
    return tg.data(children[1]).type;
  return nullptr;
}

size_t PdlRule::apply(egraph::EGraph &eg) {
  size_t changed = 0;
  TileEGraph &tg = context.tg;
  for (std::vector<PdlSlot> &slots : matches) {
    bool ok = true;
    bool didChange = false;
    for (const Action &act : program->actions) {
      if (!ok)
        break;
      switch (act.kind) {
      case Action::Create: {
        llvm::SmallVector<Id, 4> children;
        for (int s : act.operands) {
          const PdlSlot &slot = slots[s];
          if (slot.kind == PdlSlot::Range)
            children.append(slot.range.begin(), slot.range.end());
          else if (slot.kind == PdlSlot::Class)
            children.push_back(slot.cls);
          else
            ok = false;
        }
        llvm::SmallVector<NamedAttribute, 2> attrs;
        for (auto &[name, s] : act.attrs) {
          if (slots[s].kind != PdlSlot::Attr)
            ok = false;
          else
            attrs.push_back(NamedAttribute(name, slots[s].attr));
        }
        Type type;
        if (act.typeSlot >= 0 && slots[act.typeSlot].kind == PdlSlot::TypeVal)
          type = slots[act.typeSlot].type;
        else if (ok)
          type = inferResultType(tg, *act.name, children);
        if (!ok || !type) {
          ok = false;
          break;
        }
        size_t before = eg.numClasses();
        Id id = tg.add(*act.name, children,
                       DictionaryAttr::get(tg.getContext(), attrs), type);
        didChange |= eg.numClasses() != before;
        slots[act.result] = PdlSlot::ofClass(id);
        break;
      }
      case Action::Native: {
        llvm::SmallVector<const PdlSlot *, 4> args;
        for (int s : act.operands)
          args.push_back(&slots[s]);
        llvm::SmallVector<PdlSlot, 1> results;
        size_t before = eg.numClasses();
        if (mlir::failed((*act.fn)(context, args, results)) ||
            results.size() != act.results.size()) {
          ok = false;
          break;
        }
        didChange |= eg.numClasses() != before;
        for (size_t i = 0; i < results.size(); ++i)
          slots[act.results[i]] = results[i];
        break;
      }
      case Action::Replace: {
        const PdlSlot &root = slots[act.result];
        const PdlSlot &with = slots[act.operands[0]];
        if (root.kind != PdlSlot::Class || with.kind != PdlSlot::Class) {
          ok = false;
          break;
        }
        didChange |= eg.merge(root.cls, with.cls);
        break;
      }
      }
    }
    if (!ok)
      ++failed;
    else if (didChange)
      ++changed;
  }
  matches.clear();
  return changed;
}
