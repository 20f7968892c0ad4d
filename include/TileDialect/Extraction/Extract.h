//===- Extract.h - Two-pass extraction of candidate programs ----*- C++ -*-===//
//
// Trinity's two-pass extraction (section 5.1, Algorithm 1) over a saturated
// tile e-graph:
//
//   Pass 1 picks loop structures: for the e-classes of statements (seq,
//   loop, store, nop) the k best derivations by kernel count (the number of
//   top-level statements of the root sequence), ties broken by fewer loops
//   and then fewer stores. Values are left open (semi-expressions).
//   Derivations are k-best lists per e-class, relaxed to a fixpoint, so the
//   10^14+ programs of an e-graph are never enumerated.
//
//   Pass 2 fills in the values of each semi-expression kernel by kernel:
//   with kernel boundaries fixed, a load costs HBM traffic when its tensor
//   is an input, inout or written by another kernel, and almost nothing when
//   this kernel writes it (Trinity 5.2); compute ops cost their FLOPs. Each
//   value e-class takes its cheapest node under that kernel's costs.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_EXTRACTION_EXTRACT_H
#define TILEDIALECT_EXTRACTION_EXTRACT_H

#include "TileDialect/Saturation/TileEGraph.h"

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::tileir {

struct ExtractOptions {
  /// Candidates to return.
  unsigned topK = 4;
  /// Derivations kept per e-class in pass 1 (at least topK); the root's
  /// list is the pool of semi-expressions pass 2 completes and ranks.
  unsigned perClass = 8;
  /// Relaxation rounds of pass 1 before giving up on a fixpoint.
  unsigned maxRounds = 64;
  /// When set, pass 1 stops relaxing and no further candidate is built
  /// once it has passed (what was found by then is returned; the stats say
  /// `timedOut`).
  std::optional<std::chrono::steady_clock::time_point> deadline;
  /// Extent assumed for symbolic tile sizes in pass 2's costs.
  int64_t symbolicExtent = 64;
  /// Pass 2's unit costs, relative to one byte of HBM traffic (defaults:
  /// an H100's bandwidths and peaks; `costsFor` derives them from a target).
  double onChipByte = 0.02, vectorFlop = 0.056, matrixFlop = 0.0034,
         transcendental = 4.0;
};

struct TargetDesc;
/// `options` with pass 2's unit costs from `target`: a vector or matrix
/// FLOP costs the HBM bytes moved in the time it takes; an on-chip byte the
/// HBM-to-L2 bandwidth ratio over 4 (shared memory is faster than L2).
ExtractOptions costsFor(ExtractOptions options, const TargetDesc &target);

/// Pass 1's cost of a loop structure (compared lexicographically): kernels,
/// then repeated statements (inside a loop, not using its variable: the
/// same work every iteration, which the recompute insertions create), then
/// loop crossings (an intermediate a store reads that is not stored inside
/// the innermost loop around that store, so it makes an HBM round trip
/// under Trinity's placement), then loops and stores.
struct StructureCost {
  unsigned kernels = 0, crossings = 0, loops = 0, stores = 0;
  /// Statements a loop repeats without using its variable (the same work
  /// every iteration: a recomputed statistic), counted per enclosing loop.
  unsigned repeated = 0;
  bool operator<(const StructureCost &o) const {
    return std::tie(kernels, repeated, crossings, loops, stores) <
           std::tie(o.kernels, o.repeated, o.crossings, o.loops, o.stores);
  }
  bool operator==(const StructureCost &o) const {
    return kernels == o.kernels && repeated == o.repeated &&
           crossings == o.crossings && loops == o.loops && stores == o.stores;
  }
  StructureCost operator+(const StructureCost &o) const {
    return {kernels + o.kernels, crossings + o.crossings, loops + o.loops,
            stores + o.stores, repeated + o.repeated};
  }
};

/// One extracted candidate.
struct Candidate {
  ProgramOp program;
  StructureCost structure;
  /// Pass 2's cost: weighted HBM bytes and FLOPs of the chosen values.
  double valueCost = 0;
};

/// Cuts `cands` (ranked best first) to its first `topK`, erasing the rest,
/// but for one with the fewest loops among those with the fewest kernels,
/// which takes the last place if none of the first has as few.
void keepTopK(std::vector<Candidate> &cands, unsigned topK);

struct ExtractStats {
  unsigned statementClasses = 0, rounds = 0, semiExpressions = 0,
           cyclicSkipped = 0, duplicateSkipped = 0;
  /// Intermediates the second extraction leaves out (findDroppableTensors).
  unsigned droppedTensors = 0;
  bool fixpoint = false;
  /// The deadline stopped the extraction.
  bool timedOut = false;
  double seconds = 0;
};

/// Extracts up to `options.topK` distinct programs rooted at `root`, built
/// with `like`'s tensors and named `<like>_c<i>`, best first. The programs
/// are created before `like` in its block.
FailureOr<std::vector<Candidate>>
extractCandidates(TileEGraph &tg, egraph::Id root, ProgramOp like,
                  const ExtractOptions &options, ExtractStats &stats);

} // namespace mlir::tileir

#endif // TILEDIALECT_EXTRACTION_EXTRACT_H
