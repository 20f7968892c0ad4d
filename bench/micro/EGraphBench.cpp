//===- EGraphBench.cpp - Micro-benchmark of the e-graph core --------------===//
//
// Builds a random arithmetic DAG, then times hash-consed adds, lookups,
// merges with rebuild, program counting, and a few runner iterations of
// commutativity and associativity of + and *. Usage:
//   tile-egraph-bench [nodes (default 50000)] [seed (default 1)]
//                     [runner iterations (default 2)]
//
//===----------------------------------------------------------------------===//

#include "TileDialect/EGraph/EGraph.h"
#include "TileDialect/EGraph/Runner.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdlib>
#include <random>

using namespace mlir::tileir::egraph;

namespace {
enum Op : uint32_t { Num = 1, Var, Add, Mul };

using Clock = std::chrono::steady_clock;
double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// op(a, b) => op(b, a) for one binary operator.
class Commute : public Rule {
public:
  Commute(uint32_t op, std::string name) : op(op), name(std::move(name)) {}
  llvm::StringRef getName() const override { return name; }
  size_t search(const EGraph &g, size_t limit) override {
    matches.clear();
    for (Id cls : g.classesWithOp(op))
      for (const ENode &node : g.getClass(cls).nodes) {
        if (node.op != op)
          continue;
        matches.push_back({cls, node.children[0], node.children[1]});
        if (matches.size() > limit)
          return matches.size();
      }
    return matches.size();
  }
  size_t apply(EGraph &g) override {
    size_t changed = 0;
    for (const Match &m : matches)
      changed += g.merge(m.cls, g.add(ENode(op, 0, {m.b, m.a})));
    matches.clear();
    return changed;
  }
  void clearMatches() override { matches.clear(); }

private:
  struct Match {
    Id cls, a, b;
  };
  uint32_t op;
  std::string name;
  std::vector<Match> matches;
};

/// op(op(a, b), c) => op(a, op(b, c)).
class Associate : public Rule {
public:
  Associate(uint32_t op, std::string name) : op(op), name(std::move(name)) {}
  llvm::StringRef getName() const override { return name; }
  size_t search(const EGraph &g, size_t limit) override {
    matches.clear();
    for (Id cls : g.classesWithOp(op))
      for (const ENode &node : g.getClass(cls).nodes) {
        if (node.op != op)
          continue;
        for (const ENode &left : g.getClass(node.children[0]).nodes) {
          if (left.op != op)
            continue;
          matches.push_back(
              {cls, left.children[0], left.children[1], node.children[1]});
          if (matches.size() > limit)
            return matches.size();
        }
      }
    return matches.size();
  }
  size_t apply(EGraph &g) override {
    size_t changed = 0;
    for (const Match &m : matches) {
      Id inner = g.add(ENode(op, 0, {m.b, m.c}));
      changed += g.merge(m.cls, g.add(ENode(op, 0, {m.a, inner})));
    }
    matches.clear();
    return changed;
  }
  void clearMatches() override { matches.clear(); }

private:
  struct Match {
    Id cls, a, b, c;
  };
  uint32_t op;
  std::string name;
  std::vector<Match> matches;
};

/// A random DAG: `leaves` variables and numbers, then binary + and * nodes
/// whose children are drawn mostly from recent nodes (deep programs).
std::vector<ENode> randomDag(size_t numNodes, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<ENode> nodes;
  nodes.reserve(numNodes);
  size_t leaves = std::max<size_t>(numNodes / 50, 2);
  for (size_t i = 0; i < leaves; ++i)
    nodes.emplace_back(i % 2 ? Var : Num, static_cast<uint32_t>(i));
  while (nodes.size() < numNodes) {
    size_t n = nodes.size();
    auto pick = [&] {
      // Half from the last 64 nodes, half from anywhere.
      if (rng() % 2 && n > 64)
        return static_cast<Id>(n - 1 - rng() % 64);
      return static_cast<Id>(rng() % n);
    };
    Id a = pick(), b = pick();
    nodes.emplace_back(rng() % 2 ? Add : Mul, 0, llvm::ArrayRef<Id>{a, b});
  }
  return nodes;
}

void row(llvm::StringRef what, double seconds, size_t count,
         llvm::StringRef unit) {
  llvm::outs() << llvm::format("| %-38s | %10.2f ms | %9.1f %-8s |\n",
                               what.str().c_str(), seconds * 1e3,
                               count ? seconds * 1e9 / count : 0.0,
                               unit.str().c_str());
}
} // namespace

int main(int argc, char **argv) {
  size_t numNodes = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 50000;
  unsigned seed = argc > 2 ? std::atoi(argv[2]) : 1;
  unsigned iterations = argc > 3 ? std::atoi(argv[3]) : 2;
  std::vector<ENode> dag = randomDag(numNodes, seed);

  llvm::outs() << "tile-egraph-bench: " << numNodes << " nodes, seed " << seed
               << "\n\n";
  llvm::outs() << "| step                                   |      total    "
                  "|  per item           |\n";
  llvm::outs() << "|---|---|---|\n";

  EGraph g;
  g.reserve(numNodes * 2);
  // Node i of the DAG refers to DAG nodes; map them to classes as we go.
  std::vector<Id> ids(dag.size());
  Clock::time_point t = Clock::now();
  for (size_t i = 0; i < dag.size(); ++i) {
    ENode node = dag[i];
    for (Id &child : node.children)
      child = ids[child];
    ids[i] = g.add(std::move(node));
  }
  row("add (hash-consed, new or existing)", secondsSince(t), dag.size(),
      "ns/node");
  size_t distinct = g.numNodes();

  t = Clock::now();
  size_t found = 0;
  for (size_t i = 0; i < dag.size(); ++i) {
    ENode node = dag[i];
    for (Id &child : node.children)
      child = ids[child];
    found += g.lookup(std::move(node)).has_value();
  }
  row("lookup (all nodes again)", secondsSince(t), dag.size(), "ns/node");
  if (found != dag.size())
    llvm::errs() << "error: lookup missed nodes\n";

  t = Clock::now();
  ProgramCount count = g.countPrograms(ids.back());
  row("countPrograms (last node, DAG)", secondsSince(t), g.numClasses(),
      "ns/class");

  // Merge the variables into four classes, then rebuild: congruence closure
  // cascades up the DAG.
  size_t leaves = std::max<size_t>(numNodes / 50, 2);
  size_t numMerges = 0;
  t = Clock::now();
  for (size_t i = 1; i < leaves; i += 2)
    numMerges += g.merge(ids[i], ids[1 + 2 * ((i / 2) % 4)]);
  double mergeSeconds = secondsSince(t);
  t = Clock::now();
  size_t unions = g.rebuild();
  double rebuildSeconds = secondsSince(t);
  size_t classesAfterMerges = g.numClasses();
  row("merge (variables into 4 classes)", mergeSeconds, numMerges, "ns/merge");
  row("rebuild after the merges", rebuildSeconds, numMerges + unions,
      "ns/union");

  t = Clock::now();
  ProgramCount countAfter = g.countPrograms(ids.back());
  row("countPrograms (after merges, cyclic)", secondsSince(t), g.numClasses(),
      "ns/class");

  Commute addComm(Add, "add-comm"), mulComm(Mul, "mul-comm");
  Associate addAssoc(Add, "add-assoc"), mulAssoc(Mul, "mul-assoc");
  RunnerLimits limits;
  limits.maxIterations = iterations;
  limits.maxNodes = 2000000;
  BackoffOptions backoff;
  backoff.matchLimit = 1000000;
  Runner runner(g, limits, backoff);
  for (Rule *rule : {(Rule *)&addComm, (Rule *)&mulComm, (Rule *)&addAssoc,
                     (Rule *)&mulAssoc})
    runner.addRule(rule);
  size_t nodesBefore = g.numNodes();
  RunReport report = runner.run();
  size_t applied = 0;
  for (const IterationStats &it : report.iterations)
    applied += it.applied;
  row("runner: comm+assoc of + and *", report.totalSeconds,
      g.numNodes() - nodesBefore, "ns/new node");
  t = Clock::now();
  ProgramCount countSaturated = g.countPrograms(ids.back());
  row("countPrograms (after the runner)", secondsSince(t), g.numClasses(),
      "ns/class");

  llvm::outs() << "\nDAG: " << dag.size() << " nodes added, " << distinct
               << " distinct; after merges: " << classesAfterMerges
               << " classes; congruence unions: " << unions << "\n";
  llvm::outs() << "programs at the last node: 10^"
               << llvm::format("%.1f", count.log10) << " (DAG), 10^"
               << llvm::format("%.1f", countAfter.log10)
               << " (after merges), 10^"
               << llvm::format("%.1f", countSaturated.log10)
               << " (after the runner)\n";
  llvm::outs() << "runner: stop " << stringifyStopReason(report.stopReason)
               << ", " << report.iterations.size() << " iterations, "
               << applied << " changing applications\n";
  llvm::outs() << "| iter | nodes | classes | applied | search ms | apply ms "
                  "| rebuild ms |\n|---|---|---|---|---|---|---|\n";
  for (size_t i = 0; i < report.iterations.size(); ++i) {
    const IterationStats &it = report.iterations[i];
    llvm::outs() << llvm::format(
        "| %zu | %zu | %zu | %zu | %.1f | %.1f | %.1f |\n", i, it.nodes,
        it.classes, it.applied, it.searchSeconds * 1e3, it.applySeconds * 1e3,
        it.rebuildSeconds * 1e3);
  }
  for (const RuleStats &rs : report.rules)
    llvm::outs() << "rule " << rs.name << ": " << rs.matches << " matches, "
                 << rs.applied << " applied, banned " << rs.timesBanned
                 << "x\n";
  return 0;
}
