//===- EGraphTest.cpp - Hash-consing, union-find, rebuild, congruence -----===//

#include "TestLanguage.h"

#include "gtest/gtest.h"

#include <algorithm>

using namespace mlir::tileir::egraph;
using namespace mlir::tileir::egraph::test;

namespace {

TEST(EGraphTest, HashConsesEqualNodes) {
  EGraph g;
  Id a = var(g, 0), b = var(g, 1);
  Id s1 = add(g, a, b);
  Id s2 = add(g, a, b);
  EXPECT_EQ(s1, s2);
  EXPECT_NE(add(g, b, a), s1);
  EXPECT_EQ(var(g, 0), a);
  EXPECT_EQ(g.numNodes(), 4u);
  EXPECT_EQ(g.numClasses(), 4u);
  EXPECT_EQ(g.numIds(), 4u);
  EXPECT_FALSE(g.isDirty());
}

TEST(EGraphTest, VerifyReportsPendingMerges) {
  EGraph g;
  Id a = var(g, 0), b = var(g, 1);
  f(g, a);
  f(g, b);
  EXPECT_TRUE(g.verify());
  g.merge(a, b);
  std::string why;
  EXPECT_FALSE(g.verify(&why));
  EXPECT_EQ(why, "merges are pending a rebuild");
  g.rebuild();
  EXPECT_TRUE(g.verify(&why)) << why;
}

TEST(EGraphTest, LookupNeverAdds) {
  EGraph g;
  Id a = var(g, 0);
  EXPECT_EQ(g.lookup(ENode(Var, 0)), a);
  EXPECT_FALSE(g.lookup(ENode(Var, 1)).has_value());
  EXPECT_FALSE(g.lookup(ENode(F, 0, {a})).has_value());
  EXPECT_EQ(g.numNodes(), 1u);
  EXPECT_EQ(g.numIds(), 1u);
}

TEST(EGraphTest, UnionFind) {
  EGraph g;
  Id a = var(g, 0), b = var(g, 1), c = var(g, 2);
  EXPECT_TRUE(g.merge(a, b));
  EXPECT_FALSE(g.merge(b, a));
  EXPECT_EQ(g.find(a), g.find(b));
  EXPECT_NE(g.find(a), g.find(c));
  EXPECT_TRUE(g.merge(c, a));
  EXPECT_EQ(g.find(a), g.find(c));
  EXPECT_TRUE(g.isDirty());
  EXPECT_EQ(g.rebuild(), 0u);
  EXPECT_FALSE(g.isDirty());
  EXPECT_EQ(g.numClasses(), 1u);
  EXPECT_EQ(g.getClass(a).nodes.size(), 3u);
  EXPECT_EQ(g.classIds(), std::vector<Id>{g.find(a)});
}

TEST(EGraphTest, CongruenceAfterRebuild) {
  // The classic egg test: f(a), f(b), merge a b, rebuild -> f(a) == f(b).
  EGraph g;
  Id a = var(g, 0), b = var(g, 1);
  Id fa = f(g, a), fb = f(g, b);
  EXPECT_NE(g.find(fa), g.find(fb));
  g.merge(a, b);
  EXPECT_EQ(g.rebuild(), 1u);
  EXPECT_EQ(g.find(fa), g.find(fb));
  EXPECT_EQ(g.numNodes(), 3u);
  EXPECT_EQ(g.numClasses(), 2u);
  EXPECT_EQ(g.getClass(fa).nodes.size(), 1u);
  // Both spellings of the node now look up the same class.
  EXPECT_EQ(g.lookup(ENode(F, 0, {a})), g.find(fa));
  EXPECT_EQ(g.lookup(ENode(F, 0, {b})), g.find(fa));
  EXPECT_EQ(f(g, b), g.find(fa));
}

TEST(EGraphTest, ChainsOfCongruences) {
  // f^n(a) and f^n(b) for n = 1..50 all collapse after merging a and b.
  EGraph g;
  Id a = var(g, 0), b = var(g, 1);
  std::vector<Id> fas, fbs;
  Id x = a, y = b;
  for (int i = 0; i < 50; ++i) {
    fas.push_back(x = f(g, x));
    fbs.push_back(y = f(g, y));
  }
  EXPECT_EQ(g.numClasses(), 102u);
  g.merge(a, b);
  EXPECT_EQ(g.rebuild(), 50u);
  for (int i = 0; i < 50; ++i)
    EXPECT_EQ(g.find(fas[i]), g.find(fbs[i]));
  EXPECT_EQ(g.numClasses(), 51u);
  EXPECT_EQ(g.numNodes(), 52u);
  EXPECT_TRUE(g.verify());
}

TEST(EGraphTest, CongruenceOverSeveralChildren) {
  EGraph g;
  Id a = var(g, 0), b = var(g, 1), c = var(g, 2), d = var(g, 3);
  Id ac = add(g, a, c), bd = add(g, b, d);
  g.merge(a, b);
  g.rebuild();
  EXPECT_NE(g.find(ac), g.find(bd));
  g.merge(c, d);
  g.rebuild();
  EXPECT_EQ(g.find(ac), g.find(bd));
}

TEST(EGraphTest, CyclesAndSelfLoops) {
  // x = f(x) makes a self loop; congruence still works through it.
  EGraph g;
  Id a = var(g, 0);
  Id fa = f(g, a);
  g.merge(a, fa);
  g.rebuild();
  EXPECT_EQ(g.numClasses(), 1u);
  EXPECT_EQ(f(g, a), g.find(a));
  EXPECT_EQ(f(g, f(g, a)), g.find(a));
  const EClass &cls = g.getClass(a);
  EXPECT_EQ(cls.nodes.size(), 2u);
}

TEST(EGraphTest, NodesAndParentsAreDeduplicated) {
  EGraph g;
  Id a = var(g, 0), b = var(g, 1);
  Id fa = f(g, a), fb = f(g, b);
  Id s = add(g, fa, fb);
  g.merge(a, b);
  g.rebuild();
  // f(a) and f(b) are one node now; + has children (f, f).
  const EClass &fc = g.getClass(fa);
  EXPECT_EQ(fc.nodes.size(), 1u);
  EXPECT_EQ(fc.parents.size(), 1u);
  const EClass &ac = g.getClass(a);
  EXPECT_EQ(ac.nodes.size(), 2u);
  EXPECT_EQ(ac.parents.size(), 1u);
  EXPECT_EQ(g.getClass(s).nodes[0].children[0], g.find(fa));
  EXPECT_EQ(g.getClass(s).nodes[0].children[1], g.find(fa));
}

TEST(EGraphTest, ClassesWithOpAreSortedAndCanonical) {
  EGraph g;
  Id a = var(g, 0), b = var(g, 1), c = var(g, 2);
  Id fa = f(g, a), fb = f(g, b), fc = f(g, c);
  g.rebuild();
  EXPECT_EQ(g.classesWithOp(F).vec(), (std::vector<Id>{fa, fb, fc}));
  EXPECT_TRUE(g.classesWithOp(Mul).empty());
  g.merge(fc, a);
  g.merge(a, b);
  g.rebuild();
  std::vector<Id> fs = g.classesWithOp(F).vec();
  EXPECT_TRUE(std::is_sorted(fs.begin(), fs.end()));
  for (Id id : fs)
    EXPECT_EQ(g.find(id), id);
  EXPECT_EQ(std::adjacent_find(fs.begin(), fs.end()), fs.end());
  // x0, x1 and f(x2) are one class; x2 is its own.
  std::vector<Id> vars = g.classesWithOp(Var).vec();
  std::vector<Id> expected = {g.find(a), g.find(c)};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(vars, expected);
  std::vector<Id> all = g.classIds();
  EXPECT_TRUE(std::is_sorted(all.begin(), all.end()));
  EXPECT_EQ(all.size(), g.numClasses());
}

TEST(EGraphTest, ManyRandomMergesKeepInvariants) {
  // Build a grid of f/+ nodes, merge pseudo-random leaves and check that every
  // node is in the memo under its canonical form and congruent nodes agree.
  EGraph g;
  std::vector<Id> leaves;
  for (uint32_t i = 0; i < 64; ++i)
    leaves.push_back(var(g, i));
  std::vector<Id> sums;
  for (size_t i = 0; i < 64; ++i)
    for (size_t j = 0; j < 64; j += 7)
      sums.push_back(add(g, leaves[i], leaves[j]));
  uint32_t state = 12345;
  for (int k = 0; k < 40; ++k) {
    state = state * 1103515245 + 12345;
    Id x = leaves[(state >> 8) % 64];
    state = state * 1103515245 + 12345;
    Id y = leaves[(state >> 8) % 64];
    g.merge(x, y);
    if (k % 10 == 9)
      g.rebuild();
  }
  g.rebuild();
  size_t total = 0;
  for (Id id : g.classIds())
    total += g.getClass(id).nodes.size();
  EXPECT_EQ(total, g.numNodes());
  std::string why;
  EXPECT_TRUE(g.verify(&why)) << why;
  for (Id id : g.classIds())
    for (const ENode &node : g.getClass(id).nodes) {
      EXPECT_EQ(g.canonicalize(node), node);
      EXPECT_EQ(g.lookup(node), id);
    }
  for (size_t i = 0; i < 64; ++i)
    for (size_t j = 0; j < 64; j += 7)
      EXPECT_EQ(g.lookup(ENode(Add, 0, {leaves[i], leaves[j]})),
                g.find(sums[i * 10 + j / 7]));
}

TEST(EGraphTest, NoStaleSpellingAfterChildrenMergeInTurn) {
  // n = a + b is a parent of a and of b. Merging a into x rewrites the memo
  // entry to x + b through a's parent list; merging b into z later reaches n
  // through b's parent list, which still spells it a + b.
  EGraph g;
  Id a = var(g, 0), b = var(g, 1), x = var(g, 2), z = var(g, 3);
  for (uint32_t i = 0; i < 3; ++i) {
    // More parents keep x and z the roots.
    g.add(ENode(G, i, {x}));
    g.add(ENode(G, i, {z}));
  }
  Id n = add(g, a, b);
  g.merge(a, x);
  g.rebuild();
  EXPECT_EQ(g.numNodes(), 11u);
  g.merge(b, z);
  g.rebuild();
  EXPECT_EQ(g.find(x), x);
  EXPECT_EQ(g.find(z), z);
  EXPECT_EQ(g.numNodes(), 11u);
  EXPECT_EQ(g.lookup(ENode(Add, 0, {x, z})), g.find(n));
  std::string why;
  EXPECT_TRUE(g.verify(&why)) << why;
}

TEST(EGraphTest, MemoHoldsExactlyTheCanonicalNodes) {
  // A node's children merge in separate rebuilds, each time on the side whose
  // parent list has an older spelling of it: no stale spelling may survive.
  for (uint32_t seed = 1; seed < 30; ++seed) {
    EGraph g;
    std::vector<Id> leaves;
    for (uint32_t i = 0; i < 12; ++i)
      leaves.push_back(var(g, i));
    for (uint32_t i = 0; i < 12; ++i)
      for (uint32_t j = 0; j < 12; ++j)
        add(g, leaves[i], leaves[j]);
    uint32_t state = seed;
    for (int k = 0; k < 8; ++k) {
      state = state * 1103515245 + 12345;
      Id x = leaves[(state >> 8) % 12];
      state = state * 1103515245 + 12345;
      Id y = leaves[(state >> 8) % 12];
      g.merge(x, y);
      g.rebuild();
      size_t total = 0;
      for (Id id : g.classIds())
        total += g.getClass(id).nodes.size();
      ASSERT_EQ(total, g.numNodes()) << "seed " << seed << " step " << k;
      std::string why;
      ASSERT_TRUE(g.verify(&why)) << why;
    }
  }
}

/// Congruence closure the slow way: a union-find over terms, closed by
/// comparing every pair of terms until nothing changes.
class NaiveClosure {
public:
  struct Term {
    uint32_t op, payload;
    std::vector<size_t> children;
  };
  std::vector<Term> terms;

  size_t addTerm(Term term) {
    terms.push_back(std::move(term));
    parent.push_back(parent.size());
    return terms.size() - 1;
  }
  size_t find(size_t x) {
    while (parent[x] != x)
      x = parent[x] = parent[parent[x]];
    return x;
  }
  void merge(size_t a, size_t b) { parent[find(a)] = find(b); }
  void close() {
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t i = 0; i < terms.size(); ++i)
        for (size_t j = i + 1; j < terms.size(); ++j)
          if (find(i) != find(j) && congruent(terms[i], terms[j])) {
            merge(i, j);
            changed = true;
          }
    }
  }

private:
  bool congruent(const Term &a, const Term &b) {
    if (a.op != b.op || a.payload != b.payload ||
        a.children.size() != b.children.size())
      return false;
    for (size_t k = 0; k < a.children.size(); ++k)
      if (find(a.children[k]) != find(b.children[k]))
        return false;
    return true;
  }
  std::vector<size_t> parent;
};

TEST(EGraphTest, MatchesNaiveCongruenceClosure) {
  for (uint32_t seed = 1; seed <= 12; ++seed) {
    EGraph g;
    NaiveClosure ref;
    std::vector<Id> ids;
    uint32_t state = seed * 7919;
    auto next = [&] {
      state = state * 1103515245 + 12345;
      return state >> 8;
    };
    auto addRandom = [&] {
      NaiveClosure::Term term;
      if (ids.size() < 6 || next() % 8 == 0) {
        term = {Var, next() % 6, {}};
      } else {
        unsigned arity = 1 + next() % 2;
        term = {arity == 1 ? F : Add, 0, {}};
        for (unsigned k = 0; k < arity; ++k)
          term.children.push_back(next() % ids.size());
      }
      ENode node(term.op, term.payload);
      for (size_t child : term.children)
        node.children.push_back(ids[child]);
      ids.push_back(g.add(node));
      ref.addTerm(term);
    };
    for (int i = 0; i < 120; ++i)
      addRandom();
    for (int round = 0; round < 6; ++round) {
      for (int k = 0; k < 3; ++k) {
        size_t a = next() % ids.size(), b = next() % ids.size();
        g.merge(ids[a], ids[b]);
        ref.merge(a, b);
        // Adding while merges are pending must not lose congruences.
        addRandom();
      }
      g.rebuild();
      ref.close();
      std::string why;
      ASSERT_TRUE(g.verify(&why)) << why;
      for (size_t i = 0; i < ids.size(); ++i)
        for (size_t j = i + 1; j < ids.size(); ++j)
          ASSERT_EQ(g.find(ids[i]) == g.find(ids[j]), ref.find(i) == ref.find(j))
              << "seed " << seed << " round " << round << " terms " << i
              << ", " << j;
    }
  }
}

} // namespace
