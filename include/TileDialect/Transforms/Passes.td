//===- Passes.td - Tile dialect passes ---------------------*- tablegen -*-===//

#ifndef TILEDIALECT_TRANSFORMS_PASSES_TD
#define TILEDIALECT_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileProgramStats : Pass<"tile-program-stats", "::mlir::ModuleOp"> {
  let summary = "Print a summary of each tile program";
  let description = [{
    Prints, for every `tile.program` in the module, its tensors by role, its
    top-level loop nests (the kernels a direct lowering would launch, as in
    the Trinity paper's kernel count), its loop variables with their ranges
    and steps, its symbolic tile sizes, the size of the op DAG against the
    size of the program tree it denotes (how much hash-consing shares), and
    the count of each op kind. The IR is not changed.

    Example: `tile-opt examples/vanilla.mlir --tile-program-stats -o /dev/null`
  }];
  let options = [
    Option<"outputPath", "output", "std::string", /*default=*/"\"-\"",
           "Where to write the summary: a file path, or '-' for stderr">
  ];
  let statistics = [
    Statistic<"numPrograms", "programs", "Number of tile programs summarized">,
    Statistic<"numKernels", "top-level-loops",
              "Number of top-level loop nests over all programs">
  ];
}

def TileCheckLegality : Pass<"tile-check-legality", "::mlir::ModuleOp"> {
  let summary = "Report which adjacent statements may be swapped and which "
                "adjacent loops may be fused";
  let description = [{
    For every sequence in each tile program (at any depth), asks the
    dependence analysis (Z3, `lib/Analysis`) about each pair of adjacent
    statements and reports, as remarks on the second statement:

    - whether the two may be swapped: no write of one and read or write of
      the other touch the same element, for any values of the enclosing
      loop variables and any iterations of their own loops;
    - when both are loops over the same range and step, whether they may be
      fused: no access of the first loop in iteration i conflicts with an
      access of the second in an earlier iteration j < i (the pairs fusion
      reorders).

    A refusal names the conflicting accesses and a witness from the model:
    the loop variable values on each side, tile-size values, and an element
    both touch. A query the solver cannot answer within `timeout-ms` is
    reported as refused ("unknown"). Each program gets a summary remark.

    Example: `tile-opt --tile-check-legality prog.mlir -o /dev/null`
  }];
  let options = [
    Option<"timeoutMs", "timeout-ms", "unsigned", /*default=*/"2000",
           "Time limit of one solver call in milliseconds">
  ];
  let statistics = [
    Statistic<"numSwapsLegal", "swaps-legal", "Adjacent pairs that may swap">,
    Statistic<"numSwapsRefused", "swaps-refused",
              "Adjacent pairs that may not swap">,
    Statistic<"numFusionsLegal", "fusions-legal",
              "Adjacent loop pairs that may fuse">,
    Statistic<"numFusionsRefused", "fusions-refused",
              "Adjacent loop pairs that may not fuse">,
    Statistic<"numUnknown", "unknown", "Queries the solver gave up on">
  ];
}

def TileExtract : Pass<"tile-extract", "::mlir::ModuleOp"> {
  let summary = "Saturate each tile program and replace it by its best "
                "checked candidates (two-pass extraction)";
  let description = [{
    Saturates each program (as `--tile-saturate` with its defaults and the
    limits below), then extracts candidates with Trinity's two-pass
    algorithm (docs/Extraction.md): pass 1 keeps the `top-k` loop structures
    with the fewest kernels (ties: fewer loops, then fewer stores) as k-best
    lists per e-class relaxed to a fixpoint, never enumerating programs;
    pass 2 fills each structure's loop bodies kernel by kernel, costing a
    load as HBM traffic unless its tensor is written by the same kernel.
    A second extraction leaves out the intermediates a program can do
    without (their loads replaced by propagated expressions, their stores
    dead); both compete.

    With `rounds` above 1, the most fused candidate of a round (fewest
    kernels, repeated statements, then loop crossings) is saturated again
    (`refine-iterations` iterations, a small e-graph seeded with a good
    program) and extracted, while that improves its structure and it is not
    yet one kernel without crossings; the last improving round's candidates
    are kept. Each round extracts at least 4 candidates to pick the seed
    from, whatever `top-k` is; the first `top-k` of the last kept round are
    the result (so `top-k=1` refines the same seed as the default). A first
    saturation
    of a large program stops at its limits with fusions still open (the
    e-graph grows with every ordering of every statement); a second one
    from its best program finishes them (the converted workloads go from
    four or five kernels to one).

    Every candidate is run by the CPU interpreter against the input program
    on seeded random inputs (`check`), both in fp64; one that differs by
    more than `tolerance` is dropped and counted, where an output differs by
    its max absolute error over its max absolute reference value, and so
    does each element, over its own magnitude plus 1e-3 of the output's (a
    wrong element near zero is not hidden by the output's scale). The candidates replace the input program, named
    `<name>_c<i>` best first, with attributes `tile.kernels`,
    `tile.value_cost`, `tile.check_error` and the roofline estimate on
    `target` with its default tile sizes, `tile.estimated_us`. When the
    input itself is estimated faster than every candidate, a copy of it is
    the first candidate (`<name>_c0`, marked `tile.input`; the candidates
    follow, the last dropped to keep `top-k`), with a remark.

    Long runs are bounded and visible. `budget=S` bounds the whole pass to S
    seconds of wall-clock time: each program gets an equal share of what is
    left when its turn comes, its saturation at most 40% and each extraction
    at most half of what is left of that share, a refinement round starts
    only with half the share left, and the check gets the rest; each
    phase's own limit (`timeout`, `extract-timeout`, `check-timeout`) still
    applies when it is smaller. A remark names what the budget lowered. A
    check cut short drops nothing silently: the input is kept and the pass
    fails, as with `check-timeout`. `progress` prints each phase as it runs;
    under `--mlir-timing` the phases appear as `tile-extract: saturate`,
    `extract`, `reference` and `check` (in a `'tile.program' Pipeline`
    entry: MLIR times a pass's dynamic pipelines at the top level).

    Example: `tile-opt prog.mlir --tile-extract="top-k=4"`
  }];
  let options = [
    Option<"topK", "top-k", "unsigned", /*default=*/"4",
           "Candidates to keep per program">,
    Option<"perClass", "per-class", "unsigned", /*default=*/"8",
           "Loop-structure derivations kept per e-class in pass 1">,
    Option<"iterations", "iterations", "unsigned", /*default=*/"8",
           "Saturation iteration limit">,
    Option<"rounds", "rounds", "unsigned", /*default=*/"2",
           "Saturate-and-extract rounds; later rounds start from the best "
           "candidate and stop when its kernel count no longer drops">,
    Option<"refineIterations", "refine-iterations", "unsigned",
           /*default=*/"3", "Saturation iteration limit of rounds after the "
           "first">,
    Option<"maxNodes", "max-nodes", "unsigned", /*default=*/"200000",
           "Saturation e-node limit">,
    Option<"timeout", "timeout", "double", /*default=*/"60.0",
           "Saturation time limit in seconds">,
    Option<"extractTimeout", "extract-timeout", "double", /*default=*/"60.0",
           "Extraction time limit of one round in seconds: the candidates "
           "found by then are kept">,
    ListOption<"ruleFiles", "rules", "std::string",
               "PDL files with more rules for the saturation">,
    ListOption<"only", "only", "std::string",
               "Saturate with only these rules or families">,
    ListOption<"disable", "disable", "std::string",
               "Saturate without these rules or families">,
    Option<"check", "check", "bool", /*default=*/"true",
           "Check every candidate against the input program">,
    Option<"tolerance", "tolerance", "double", /*default=*/"1e-2",
           "Largest error a checked candidate may have, per output "
           "(normalized by its largest value) and per element">,
    Option<"seed", "seed", "uint64_t", /*default=*/"0",
           "Seed of the check's random inputs">,
    Option<"checkTimeout", "check-timeout", "double", /*default=*/"120.0",
           "Time budget of the check of one program in seconds (the input's "
           "and every candidate's runs); candidates left unchecked when it "
           "runs out are dropped, with the reason in the report">,
    Option<"emulate", "emulate", "bool", /*default=*/"true",
           "Also lower every candidate that passes the check with the "
           "default GPU lowering and run its kernels in the host emulation "
           "on the same inputs; one whose kernels fail to lower or differ "
           "is dropped">,
    Option<"emulateTolerance", "emulate-tolerance", "double",
           /*default=*/"1e-2",
           "Largest normalized output error of the emulated kernels (f32 "
           "arithmetic, f16 storage where declared) against the fp64 "
           "expected outputs, computed with the program's explicit "
           "conversions rounded as the kernels' are; 3 times it for a "
           "program with bf16 tensors">,
    Option<"emulateBudget", "emulate-budget", "double", /*default=*/"20.0",
           "Seconds one candidate's emulation may be expected to take "
           "(estimated as 8 times its interpreter check, as measured on the "
           "full-size llama ffn); above it the emulation is skipped and the "
           "report says so">,
    Option<"budget", "budget", "double", /*default=*/"0",
           "Wall-clock budget of the whole pass in seconds (0: none); each "
           "program gets an equal share of what is left, and caps its "
           "phases' own limits by it (see --tile-extract)">,
    Option<"progress", "progress", "bool", /*default=*/"false",
           "Print each phase to stderr as it runs: saturation iterations, "
           "extraction, each candidate's check">,
    Option<"keepInput", "keep-input", "bool", /*default=*/"false",
           "Keep the input program next to its candidates">,
    Option<"target", "target", "std::string", /*default=*/"\"sm_90\"",
           "Target (name or JSON file, docs/CostModel.md) whose roofline "
           "estimate annotates each candidate (tile.estimated_us); empty: "
           "none">,
    Option<"reportPath", "report", "std::string", /*default=*/"\"\"",
           "Write a JSON report (saturation, extraction, candidates) here">
  ];
  let statistics = [
    Statistic<"numCandidates", "candidates", "Candidates emitted">,
    Statistic<"numDropped", "dropped", "Candidates dropped by the check">
  ];
}

def TileOptimize : Pass<"tile-optimize", "::mlir::ModuleOp"> {
  let summary = "linalg in, best checked tile programs out: convert, "
                "saturate, extract, check";
  let description = [{
    Runs `--convert-linalg-to-tile` and then `--tile-extract` with the
    options below: every linalg function becomes a naive tile program, which
    is saturated and extracted into `top-k` candidates. The check's
    reference is the linalg function itself, evaluated by the independent
    linalg reference evaluator on the same seeded inputs: the converted
    program must agree with it within `tolerance` (else the pass fails and
    keeps it), and so must every candidate.

    `budget`, `progress` and the phases under `--mlir-timing` are those of
    `--tile-extract`; the conversion counts against the budget.

    With `tuning=CACHE` (written by tools/tile-tune), a program the cache
    has an entry for (by its hash, on the chip `target` names, measured with
    this compiler) is not saturated: it is replaced by the measured winner,
    the optimizer's candidate the entry holds or the program itself, with
    the winner's configuration as its `tile.gpu_config`; a remark names the
    entry. Programs without one are optimized as usual.

    Example: `tile-opt model.mlir --tile-optimize="top-k=2 report=r.json"`
  }];
  let options = [
    Option<"topK", "top-k", "unsigned", /*default=*/"4",
           "Candidates to keep per program">,
    Option<"iterations", "iterations", "unsigned", /*default=*/"8",
           "Saturation iteration limit">,
    Option<"rounds", "rounds", "unsigned", /*default=*/"2",
           "Saturate-and-extract rounds (see --tile-extract)">,
    Option<"refineIterations", "refine-iterations", "unsigned",
           /*default=*/"3", "Saturation iteration limit of rounds after the "
           "first">,
    Option<"target", "target", "std::string", /*default=*/"\"sm_90\"",
           "Target of the roofline estimate annotating each candidate">,
    Option<"check", "check", "bool", /*default=*/"true",
           "Check the converted program and every candidate against the "
           "linalg function">,
    Option<"tolerance", "tolerance", "double", /*default=*/"1e-2",
           "Largest error a checked candidate may have, per output "
           "(normalized by its largest value) and per element">,
    Option<"seed", "seed", "uint64_t", /*default=*/"0",
           "Seed of the check's random inputs">,
    Option<"maxNodes", "max-nodes", "unsigned", /*default=*/"200000",
           "Saturation e-node limit">,
    Option<"timeout", "timeout", "double", /*default=*/"60.0",
           "Saturation time limit in seconds">,
    Option<"extractTimeout", "extract-timeout", "double", /*default=*/"60.0",
           "Extraction time limit of one round in seconds">,
    Option<"checkTimeout", "check-timeout", "double", /*default=*/"120.0",
           "Time budget of the check of one program in seconds (see "
           "--tile-extract)">,
    Option<"emulate", "emulate", "bool", /*default=*/"true",
           "Also run every kept candidate's lowered kernels in the host "
           "emulation (see --tile-extract)">,
    Option<"emulateTolerance", "emulate-tolerance", "double",
           /*default=*/"1e-2",
           "Largest normalized output error of the emulated kernels (3 "
           "times it for a program with bf16 tensors)">,
    Option<"emulateBudget", "emulate-budget", "double", /*default=*/"20.0",
           "Seconds one candidate's emulation may be expected to take (see "
           "--tile-extract)">,
    Option<"budget", "budget", "double", /*default=*/"0",
           "Wall-clock budget of the whole pass in seconds (0: none); each "
           "program gets an equal share of what is left, and caps its "
           "phases' own limits by it (see --tile-extract)">,
    Option<"progress", "progress", "bool", /*default=*/"false",
           "Print each phase to stderr as it runs">,
    Option<"reportPath", "report", "std::string", /*default=*/"\"\"",
           "Write the JSON report of --tile-extract here">,
    Option<"tuning", "tuning", "std::string", /*default=*/"\"\"",
           "A tuning cache (tile-tune): a program it has an entry for on "
           "the target's chip is replaced by what measured fastest, the "
           "optimizer's candidate or itself, carrying the measured "
           "configuration as its tile.gpu_config, without saturating">
  ];
  let dependentDialects = ["::mlir::tileir::TileDialect",
                           "::mlir::pdl::PDLDialect"];
}

def TileSaturate : Pass<"tile-saturate", "::mlir::ModuleOp"> {
  let summary = "Equality saturation of each tile program over the rewrite rules";
  let description = [{
    Puts every `tile.program` of the module into an e-graph (one e-node per
    op) and applies the rewrite rules until the e-graph saturates or a limit
    is hit, with Trinity's sequence canonicalization and expression
    propagation between iterations. The rules are the bundled PDLL families
    (Sequence, Fusion, Insertion, Factoring, Algebraic, MixedPrecision,
    Concat; see docs/Rules.md) plus any PDL files given with `rules=`; each
    has a guard over the e-classes' access summaries.

    The program is left unchanged (extraction is `--tile-extract`). With
    `goal=PATH`, the `tile.program` in that file (or, if it has several, the
    one named like the program being saturated) is looked up in the
    saturated e-graph without adding anything: a remark says the goal is
    represented; otherwise an error points at the first op of the goal whose
    term is missing and the pass fails. This is the start => goal test of
    egg.

    Example:
    `tile-opt examples/vanilla.mlir --tile-saturate="iterations=8 report=sat.json" -o /dev/null`
  }];
  let options = [
    Option<"iterations", "iterations", "unsigned", /*default=*/"8",
           "Maximum number of iterations">,
    Option<"maxNodes", "max-nodes", "unsigned", /*default=*/"200000",
           "Stop once the e-graph has more e-nodes than this">,
    Option<"timeout", "timeout", "double", /*default=*/"60.0",
           "Stop after this many seconds">,
    ListOption<"ruleFiles", "rules", "std::string",
               "PDL files (as written by mlir-pdll -x=mlir) with more rules">,
    ListOption<"only", "only", "std::string",
               "Apply only these rules or rule families">,
    ListOption<"disable", "disable", "std::string",
               "Do not apply these rules or rule families">,
    Option<"backoff", "backoff", "bool", /*default=*/"true",
           "Use egg's backoff scheduler (ban rules with too many matches)">,
    Option<"matchLimit", "match-limit", "unsigned", /*default=*/"5000",
           "Backoff scheduler: matches per iteration before a rule is banned">,
    Option<"banLength", "ban-length", "unsigned", /*default=*/"5",
           "Backoff scheduler: iterations a banned rule sits out">,
    Option<"propagate", "propagate", "bool", /*default=*/"true",
           "Run expression propagation between iterations">,
    Option<"legalityTimeoutMs", "legality-timeout-ms", "unsigned",
           /*default=*/"2000",
           "Time limit of one dependence-analysis solver call (ms); an "
           "unanswered query blocks the rule application">,
    Option<"reportPath", "report", "std::string", /*default=*/"\"\"",
           "Write a JSON report to this path ('-' for stdout)">,
    Option<"goalPath", "goal", "std::string", /*default=*/"\"\"",
           "Check that the tile programs in this file are represented">,
    Option<"dotPath", "dot", "std::string", /*default=*/"\"\"",
           "Write the e-graph in Graphviz form (small e-graphs only)">,
    Option<"progress", "progress", "bool", /*default=*/"false",
           "Print one line per iteration to stderr">
  ];
  let dependentDialects = ["::mlir::pdl::PDLDialect"];
  let statistics = [
    Statistic<"numIterations", "iterations", "Iterations run">,
    Statistic<"numClasses", "eclasses", "E-classes after saturation">,
    Statistic<"numNodes", "enodes", "E-nodes after saturation">,
    Statistic<"numApplied", "applied", "Rule applications that changed the e-graph">,
    Statistic<"numBlocked", "blocked", "Matches rejected by a guard">,
    Statistic<"numLog10Programs", "log10-programs",
              "log10 of the number of programs represented (rounded down)">,
    Statistic<"numGoalsFound", "goals-found", "Goal programs represented">,
    Statistic<"numGoalsMissing", "goals-missing", "Goal programs not represented">
  ];
}

def TileEstimateCost : Pass<"tile-estimate-cost", "::mlir::ModuleOp"> {
  let summary = "Estimate the run time of each tile program on a GPU target "
                "with a roofline cost model";
  let description = [{
    Splits every `tile.program` into kernels as a direct lowering would
    (Trinity section 5.2: one kernel per top-level loop nest, runs of
    straight-line top-level statements grouped; the outermost parallel
    loops are the grid; tiles stay on chip unless another kernel reads
    them) and estimates, per kernel, the bytes moved to and from HBM, the
    FLOPs on the matrix and vector units, how well the grid fills the
    device, and a time: launch overhead plus the larger of memory and
    compute time, divided by the grid-fill efficiency. The model and the
    target descriptions are documented in docs/CostModel.md.

    Emits one remark per program with the total (kernels, microseconds,
    limiting factor, tile sizes used); with `kernels=true` also one remark
    per kernel. With `report=PATH` writes the per-kernel numbers as JSON.
    Symbolic tile sizes take their values from `sizes=`, else (unless
    `defaults=false`) from the target's default. With `lowered=true` the
    program is estimated as the GPU lowering runs it instead: as
    `--tile-select-gpu-config` leaves it for the target, at the tile sizes
    `--tile-lower-to-gpu` chooses (docs/CostModel.md, "As lowered"). The IR
    is not changed.

    Example:
    `tile-opt examples/vanilla.mlir --tile-estimate-cost="target=gfx942 sizes=tile_k=64,tile_n=128" -o /dev/null`
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"sm_90\"",
           "Target: a bundled name (sm_80, sm_89, sm_90, sm_90_h200, gfx942, "
           "or an alias such as h100) or a path to a .json description">,
    ListOption<"sizes", "sizes", "std::string",
               "Symbolic tile sizes, as name=value pairs">,
    Option<"useDefaults", "defaults", "bool", /*default=*/"true",
           "Give tile sizes missing from sizes= the target's default">,
    Option<"perKernel", "kernels", "bool", /*default=*/"false",
           "Also emit one remark per kernel">,
    Option<"reportPath", "report", "std::string", /*default=*/"\"\"",
           "Write a JSON report to this path ('-' for stdout)">,
    Option<"lowered", "lowered", "bool", /*default=*/"false",
           "Estimate each program as the GPU lowering runs it: as "
           "--tile-select-gpu-config for the target leaves it, at the tile "
           "sizes --tile-lower-to-gpu gives it (what --tile-optimize "
           "ranks by); sizes= and defaults= do not apply">
  ];
  let statistics = [
    Statistic<"numPrograms", "programs", "Programs estimated">,
    Statistic<"numKernels", "kernels", "Kernels over all programs">
  ];
}

#endif // TILEDIALECT_TRANSFORMS_PASSES_TD
