//===- CheckLegality.cpp - The --tile-check-legality pass -----------------===//
//
// Puts a program into an e-graph (for the access summaries of its
// statements) and asks the dependence oracle about every pair of adjacent
// statements: may they swap, and, for two loops over one range, may they
// fuse.
//
//===----------------------------------------------------------------------===//

#include "TileDialect/IR/TileOps.h"
#include "TileDialect/Saturation/Legality.h"
#include "TileDialect/Saturation/TileEGraph.h"
#include "TileDialect/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir::tileir {
#define GEN_PASS_DEF_TILECHECKLEGALITY
#include "TileDialect/Transforms/Passes.h.inc"
} // namespace mlir::tileir

using namespace mlir;
using namespace mlir::tileir;

namespace {

struct Counts {
  unsigned swapsLegal = 0, swapsRefused = 0, fusionsLegal = 0,
           fusionsRefused = 0, unknown = 0;
};

class Checker {
public:
  Checker(TileEGraph &tg, Counts &counts) : tg(tg), counts(counts) {
    for (auto &[op, node] : tg.getOriginalNodes())
      if (std::optional<egraph::Id> id = tg.graph().lookup(node))
        classOf[op->getResult(0)] = *id;
  }

  /// Checks every sequence reachable from `stmt`.
  void visit(Value stmt) {
    if (!visited.insert(stmt).second)
      return;
    if (auto loop = stmt.getDefiningOp<LoopOp>())
      return visit(loop.getBody());
    if (!stmt.getDefiningOp<SeqOp>())
      return;
    SmallVector<Value> stmts;
    collectSequenceLeaves(stmt, stmts);
    for (size_t i = 0; i + 1 < stmts.size(); ++i)
      checkPair(stmts[i], stmts[i + 1]);
    for (Value s : stmts)
      visit(s);
  }

private:
  const ClassData *data(Value v) {
    auto it = classOf.find(v);
    return it == classOf.end() ? nullptr : &tg.data(it->second);
  }

  /// Why a query failed, as text after "cannot ...: ".
  std::string explain(const DependenceResult &r, StringRef first,
                      StringRef second) {
    DependenceOracle &o = tg.dependence();
    std::string text;
    llvm::raw_string_ostream os(text);
    if (!r.witness) {
      os << "the solver could not decide";
      return text;
    }
    const DependenceWitness &w = *r.witness;
    os << o.describe(w.first) << " in " << first << " and "
       << o.describe(w.second) << " in " << second;
    if (r.verdict != DependenceVerdict::Conflict) {
      os << " may conflict: the solver could not decide (unknown or timeout)";
      return text;
    }
    os << " conflict; witness: " << o.describe(w, first, second);
    return text;
  }

  void checkPair(Value prev, Value next) {
    Operation *op = next.getDefiningOp();
    const ClassData *a = data(prev), *b = data(next);
    if (!op || !a || !b)
      return;
    DependenceQuery q;
    q.first = statementAccesses(*a);
    q.second = statementAccesses(*b);
    report(q, op, prev, "swap", "statement", counts.swapsLegal,
           counts.swapsRefused);
    auto l1 = prev.getDefiningOp<LoopOp>(), l2 = next.getDefiningOp<LoopOp>();
    if (!l1 || !l2 || l1.getStartIndex() != l2.getStartIndex() ||
        l1.getEndIndex() != l2.getEndIndex() ||
        l1.getStepDim() != l2.getStepDim())
      return;
    const ClassData *body1 = data(l1.getBody()), *body2 = data(l2.getBody());
    const ClassData *v1 = data(l1.getVar()), *v2 = data(l2.getVar());
    if (!body1 || !body2 || !v1 || !v2 || v1->var == ~0u || v2->var == ~0u)
      return;
    DependenceQuery f;
    f.first = statementAccesses(*body1);
    f.second = statementAccesses(*body2);
    f.order = DependenceQuery::Order{v1->var, v2->var};
    report(f, op, prev, "fuse", "loop", counts.fusionsLegal,
           counts.fusionsRefused);
  }

  /// Asks `q` and reports `may <verb> with the previous <what>` or the
  /// refusal with its witness, on `op`.
  void report(const DependenceQuery &q, Operation *op, Value prev,
              StringRef verb, StringRef what, unsigned &legal,
              unsigned &refused) {
    DependenceResult r = tg.dependence().check(q);
    if (r.verdict == DependenceVerdict::Unknown)
      ++counts.unknown;
    std::string previous = ("the previous " + what).str();
    if (r.independent()) {
      ++legal;
      emitRemark(op->getLoc()) << "may " << verb << " with " << previous;
      return;
    }
    ++refused;
    InFlightDiagnostic diag =
        emitRemark(op->getLoc())
        << "cannot " << verb << " with " << previous << ": "
        << explain(r, previous, ("this " + what).str());
    diag.attachNote(prev.getLoc()) << previous;
  }

  TileEGraph &tg;
  Counts &counts;
  llvm::DenseMap<Value, egraph::Id> classOf;
  llvm::DenseSet<Value> visited;
};

struct TileCheckLegalityPass
    : public tileir::impl::TileCheckLegalityBase<TileCheckLegalityPass> {
  using Base::Base;

  void runOnOperation() override {
    bool ok = true;
    for (ProgramOp program : getOperation().getOps<ProgramOp>()) {
      TileEGraph tg(&getContext());
      tg.dependence().setTimeoutMs(timeoutMs);
      if (failed(tg.addProgram(program))) {
        ok = false;
        continue;
      }
      Counts counts;
      Checker checker(tg, counts);
      checker.visit(program.getRoot());
      const DependenceStats &s = tg.dependence().getStats();
      emitRemark(program.getLoc(), "legality: ")
          << counts.swapsLegal << " of "
          << counts.swapsLegal + counts.swapsRefused
          << " adjacent statement pairs may swap, " << counts.fusionsLegal
          << " of " << counts.fusionsLegal + counts.fusionsRefused
          << " adjacent loop pairs may fuse; " << s.solverCalls
          << " solver calls, " << s.unknown << " unknown";
      numSwapsLegal += counts.swapsLegal;
      numSwapsRefused += counts.swapsRefused;
      numFusionsLegal += counts.fusionsLegal;
      numFusionsRefused += counts.fusionsRefused;
      numUnknown += counts.unknown;
    }
    if (!ok)
      signalPassFailure();
    markAllAnalysesPreserved();
  }
};

} // namespace
