//===- RuleTerm.h - A rewrite rule read from a pdl.pattern ------*- C++ -*-===//
//
// The prover's own view of a rule: the matched term and the replacement as
// one DAG of nodes (pattern variables and operations, with native rewrites
// turned into the operations they build), the attribute and type slots
// they share, and the native constraints. Read from a `pdl.pattern`.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_PROVER_RULETERM_H
#define TILEDIALECT_PROVER_RULETERM_H

#include "mlir/Dialect/PDL/IR/PDLOps.h"
#include "mlir/IR/Attributes.h"

#include <map>
#include <string>
#include <vector>

namespace mlir::tileir::prover {

/// A node of either side of a rule.
struct TermNode {
  enum Kind { Var, Op };
  Kind kind = Var;
  /// Var: its name; Op: the operation name (`tile.add`).
  std::string name;
  std::vector<unsigned> operands;
  /// Attribute name -> attribute slot.
  std::map<std::string, unsigned> attrs;
  /// The result type slot the rewrite gives this operation, or -1.
  int typeSlot = -1;
  /// Native rewrites that build a value "like" another (BroadcastTo,
  /// SplatLike): the node whose shape the result takes, or -1.
  int like = -1;
  /// Created by the rewrite (else matched).
  bool rhs = false;
};

/// An attribute: a constant, or a variable the matcher binds.
struct AttrSlot {
  Attribute value; ///< null for a variable
};

/// A type: bound by the matcher to the result of a node.
struct TypeSlot {
  int node = -1; ///< the matched node whose type it is, -1 if unbound
};

/// A native constraint: arguments are value nodes, attribute or type slots.
struct ConstraintUse {
  struct Arg {
    enum Kind { Value, Attr, Type } kind;
    unsigned index;
  };
  std::string name;
  std::vector<Arg> args;
  bool negated = false;
};

struct RuleTerm {
  std::string name;   ///< kebab-case, as the e-matcher names it
  std::string family; ///< the file or bundled family
  Location loc;
  bool statement = false; ///< rooted at a statement
  std::vector<TermNode> nodes;
  std::vector<AttrSlot> attrs;
  std::vector<TypeSlot> types;
  std::vector<ConstraintUse> constraints;
  unsigned lhsRoot = 0, rhsRoot = 0;

  explicit RuleTerm(Location loc) : loc(loc) {}
};

/// Reads `pattern`. Emits a diagnostic and fails on constructs the prover
/// does not know (unknown ops, natives, multi-result ops, erase, ...);
/// statement rules are returned with `statement` set and no nodes.
FailureOr<RuleTerm> readRule(pdl::PatternOp pattern, llvm::StringRef family);

/// The value operations the prover has semantics for.
bool isKnownValueOp(llvm::StringRef name);

} // namespace mlir::tileir::prover

#endif // TILEDIALECT_PROVER_RULETERM_H
