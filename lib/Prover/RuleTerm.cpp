//===- RuleTerm.cpp - A rewrite rule read from a pdl.pattern --------------===//

#include "TileDialect/Prover/RuleTerm.h"
#include "TileDialect/Rules/PdlRule.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::prover;

bool mlir::tileir::prover::isKnownValueOp(StringRef name) {
  static const llvm::StringSet<> known = {
      "tile.add",       "tile.sub",       "tile.mul",   "tile.div",
      "tile.max",       "tile.min",       "tile.neg",   "tile.abs",
      "tile.sqr",       "tile.exp",       "tile.log",   "tile.sqrt",
      "tile.rsqrt",     "tile.sigmoid",   "tile.tanh",  "tile.erf",
      "tile.rsum",      "tile.rmax",      "tile.rmin",  "tile.matmul",
      "tile.permute",   "tile.transpose", "tile.bcast", "tile.squeeze",
      "tile.unsqueeze", "tile.concat",    "tile.cast",  "tile.constant"};
  return known.contains(name);
}

static bool isStatementOp(StringRef name) {
  return name == "tile.store" || name == "tile.seq" || name == "tile.loop" ||
         name == "tile.nop" || name == "tile.yield" || name == "tile.program";
}

/// The source spelling of a pattern variable, when its location points at
/// `name: Value` (PDLL) or `%name = operand` (PDL).
static std::string sourceName(Location loc) {
  auto fl = dyn_cast<FileLineColLoc>(loc);
  if (!fl)
    return "";
  static llvm::StringMap<std::unique_ptr<llvm::MemoryBuffer>> files;
  auto &buf = files[fl.getFilename().getValue()];
  if (!buf) {
    auto b = llvm::MemoryBuffer::getFile(fl.getFilename().getValue());
    if (!b)
      return "";
    buf = std::move(*b);
  }
  StringRef text = buf->getBuffer();
  for (unsigned line = 1; line < fl.getLine(); ++line) {
    size_t nl = text.find('\n');
    if (nl == StringRef::npos)
      return "";
    text = text.drop_front(nl + 1);
  }
  text = text.take_until([](char c) { return c == '\n'; });
  auto ident = [](StringRef s) {
    return s.take_while([](char c) { return isalnum(c) || c == '_'; });
  };
  StringRef at =
      text.drop_front(std::min<size_t>(fl.getColumn() - 1, text.size()));
  if (at.starts_with("%"))
    return ident(at.drop_front()).str();
  StringRef id = ident(at);
  if (!id.empty() && at.drop_front(id.size()).ltrim().starts_with(":"))
    return id.str();
  // `%name = operand` with the location on `operand`.
  StringRef before = text.take_front(text.size() - at.size()).rtrim();
  if (before.consume_back("=")) {
    before = before.rtrim();
    size_t pct = before.rfind('%');
    if (pct != StringRef::npos)
      return ident(before.drop_front(pct + 1)).str();
  }
  return "";
}

namespace {
class Reader {
public:
  Reader(RuleTerm &rule) : rule(rule) {}

  LogicalResult readMatcher(Block &body);
  LogicalResult readRewrite(pdl::RewriteOp rewrite);

private:
  unsigned addNode(TermNode node) {
    rule.nodes.push_back(std::move(node));
    return rule.nodes.size() - 1;
  }
  FailureOr<unsigned> node(Operation *user, Value v) {
    auto it = values.find(v);
    if (it == values.end())
      return user->emitError("prover: unsupported value in a rule"), failure();
    return it->second;
  }
  LogicalResult readOperation(pdl::OperationOp op, bool rhs);
  LogicalResult readCommon(Operation *op, bool rhs, bool &handled);

  RuleTerm &rule;
  llvm::DenseMap<Value, unsigned> values, attrs, types;
  llvm::StringSet<> names;
};
} // namespace

LogicalResult Reader::readOperation(pdl::OperationOp op, bool rhs) {
  std::optional<StringRef> name = op.getOpName();
  if (!name)
    return op.emitError("prover: operation without a name in a rule");
  if (!isKnownValueOp(*name))
    return op.emitError("prover: unknown operation '")
           << *name << "' in a value rule";
  TermNode n;
  n.kind = TermNode::Op;
  n.name = name->str();
  n.rhs = rhs;
  for (Value v : op.getOperandValues()) {
    FailureOr<unsigned> id = node(op, v);
    if (failed(id))
      return failure();
    n.operands.push_back(*id);
  }
  for (auto [attrName, v] :
       llvm::zip(op.getAttributeValueNames(), op.getAttributeValues()))
    n.attrs[cast<StringAttr>(attrName).str()] = attrs.lookup(v);
  unsigned id = addNode(std::move(n));
  values[op.getOp()] = id;
  if (op.getTypeValues().size() == 1) {
    unsigned slot = types.lookup(op.getTypeValues()[0]);
    if (rhs)
      rule.nodes[id].typeSlot = slot;
    else if (rule.types[slot].node < 0)
      rule.types[slot].node = id;
  }
  return success();
}

LogicalResult Reader::readCommon(Operation *op, bool rhs, bool &handled) {
  handled = true;
  if (auto a = dyn_cast<pdl::AttributeOp>(op)) {
    attrs[a] = rule.attrs.size();
    rule.attrs.push_back({a.getValueAttr() ? *a.getValue() : Attribute()});
    return success();
  }
  if (isa<pdl::TypeOp, pdl::TypesOp>(op)) {
    types[op->getResult(0)] = rule.types.size();
    rule.types.push_back({});
    return success();
  }
  if (auto o = dyn_cast<pdl::OperationOp>(op))
    return readOperation(o, rhs);
  if (auto r = dyn_cast<pdl::ResultOp>(op)) {
    if (r.getIndex() != 0)
      return op->emitError("prover: only single-result operations");
    FailureOr<unsigned> id = node(op, r.getParent());
    if (failed(id))
      return failure();
    values[r] = *id;
    return success();
  }
  if (auto r = dyn_cast<pdl::ResultsOp>(op)) {
    if (r.getIndex() && *r.getIndex() != 0)
      return op->emitError("prover: only single-result operations");
    FailureOr<unsigned> id = node(op, r.getParent());
    if (failed(id))
      return failure();
    values[r] = *id;
    return success();
  }
  handled = false;
  return success();
}

LogicalResult Reader::readMatcher(Block &body) {
  for (Operation &op : body) {
    bool handled;
    if (failed(readCommon(&op, false, handled)))
      return failure();
    if (handled)
      continue;
    if (auto o = dyn_cast<pdl::OperandOp>(op)) {
      TermNode n;
      std::string base = sourceName(o.getLoc());
      if (base.empty())
        base = "v" + std::to_string(rule.nodes.size());
      std::string name = base;
      for (int i = 2; names.contains(name); ++i)
        name = base + std::to_string(i);
      names.insert(name);
      n.name = name;
      unsigned id = addNode(std::move(n));
      values[o] = id;
      if (Value t = o.getValueType()) {
        unsigned slot = types.lookup(t);
        if (rule.types[slot].node < 0)
          rule.types[slot].node = id;
      }
      continue;
    }
    if (auto c = dyn_cast<pdl::ApplyNativeConstraintOp>(op)) {
      static const llvm::StringSet<> known = {
          "BroadcastsLastDim", "SameElementType", "SameType", "IsSplat",
          "NonZero",           "Contractible",    "RankIs",   "Concatenable"};
      if (!known.contains(c.getName()))
        return op.emitError("prover: unknown native constraint '")
               << c.getName() << "'";
      ConstraintUse use;
      use.name = c.getName().str();
      use.negated = c.getIsNegated();
      for (Value v : c.getArgs()) {
        if (values.count(v))
          use.args.push_back({ConstraintUse::Arg::Value, values[v]});
        else if (attrs.count(v))
          use.args.push_back({ConstraintUse::Arg::Attr, attrs[v]});
        else if (types.count(v))
          use.args.push_back({ConstraintUse::Arg::Type, types[v]});
        else
          return op.emitError("prover: unsupported native constraint argument");
      }
      rule.constraints.push_back(std::move(use));
      continue;
    }
    if (auto r = dyn_cast<pdl::RewriteOp>(op)) {
      if (failed(readRewrite(r)))
        return failure();
      continue;
    }
    return op.emitError("prover: unsupported in a rule's matcher: ")
           << op.getName();
  }
  return success();
}

LogicalResult Reader::readRewrite(pdl::RewriteOp rewrite) {
  if (rewrite.getNameAttr() || !rewrite.getRoot())
    return rewrite.emitError(
        "prover: external rewrite functions are not supported");
  FailureOr<unsigned> root = node(rewrite, rewrite.getRoot());
  if (failed(root))
    return failure();
  rule.lhsRoot = *root;
  bool replaced = false;
  for (Operation &op : rewrite.getBodyRegion().front()) {
    bool handled;
    if (failed(readCommon(&op, true, handled)))
      return failure();
    if (handled)
      continue;
    if (auto n = dyn_cast<pdl::ApplyNativeRewriteOp>(op)) {
      llvm::SmallVector<unsigned> vals;
      llvm::SmallVector<unsigned> attrArgs;
      for (Value v : n.getArgs()) {
        if (values.count(v))
          vals.push_back(values[v]);
        else if (attrs.count(v))
          attrArgs.push_back(attrs[v]);
        else
          return op.emitError("prover: unsupported native rewrite argument");
      }
      StringRef name = n.getName();
      TermNode t;
      t.kind = TermNode::Op;
      t.rhs = true;
      auto arity = [&](size_t nv, size_t na) {
        return vals.size() == nv && attrArgs.size() == na;
      };
      if (name == "BroadcastTo" && arity(2, 1)) {
        t.name = "tile.bcast";
        t.operands = {vals[0]};
        t.attrs["dims"] = attrArgs[0];
        t.like = vals[1];
      } else if (name == "SplatLike" && arity(1, 1)) {
        t.name = "tile.constant";
        t.attrs["value"] = attrArgs[0];
        t.like = vals[0];
      } else if (name == "CastLike" && arity(2, 0)) {
        t.name = "tile.cast";
        t.operands = {vals[0]};
      } else if (name == "ConcatOf" && arity(2, 1)) {
        t.name = "tile.concat";
        t.operands = {vals[0], vals[1]};
        t.attrs["axis"] = attrArgs[0];
      } else if (name == "MatmulOf" && arity(3, 0)) {
        t.name = "tile.matmul";
        t.operands = {vals[0], vals[1]};
      } else {
        return op.emitError("prover: unknown native rewrite '")
               << name << "' (or wrong arguments)";
      }
      if (n.getNumResults() != 1)
        return op.emitError("prover: native rewrites with one result only");
      values[n.getResult(0)] = addNode(std::move(t));
      continue;
    }
    if (auto r = dyn_cast<pdl::ReplaceOp>(op)) {
      Value with = r.getReplOperation();
      if (!with) {
        if (r.getReplValues().size() != 1)
          return op.emitError("prover: replacement by one value only");
        with = r.getReplValues()[0];
      }
      FailureOr<unsigned> id = node(&op, with);
      if (failed(id))
        return failure();
      rule.rhsRoot = *id;
      replaced = true;
      continue;
    }
    return op.emitError("prover: unsupported in a rule's rewrite: ")
           << op.getName();
  }
  if (!replaced)
    return rewrite.emitError("prover: the rewrite replaces nothing");
  return success();
}

FailureOr<RuleTerm> mlir::tileir::prover::readRule(pdl::PatternOp pattern,
                                                   StringRef family) {
  RuleTerm rule(pattern.getLoc());
  rule.name = pattern.getSymName() ? PdlRule::kebabName(*pattern.getSymName())
                                   : std::string("unnamed");
  rule.family = family.str();
  pdl::RewriteOp rewrite = pattern.getRewriter();
  if (Value root = rewrite.getRoot())
    if (auto op = root.getDefiningOp<pdl::OperationOp>())
      if (op.getOpName() && isStatementOp(*op.getOpName())) {
        rule.statement = true;
        return rule;
      }
  Reader reader(rule);
  if (failed(reader.readMatcher(pattern.getBodyRegion().front())))
    return failure();
  return rule;
}
