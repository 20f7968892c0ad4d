//===- Extract.cpp - The --tile-extract pass ------------------------------===//
//
// Saturates each program, extracts its best loop structures and bodies
// (lib/Extraction), checks each candidate against the input on the CPU, and
// replaces the input by the candidates that pass.
//
//===----------------------------------------------------------------------===//

#include "TileDialect/Extraction/Extract.h"
#include "ExtractProgram.h"
#include "TileDialect/Cost/CostModel.h"
#include "TileDialect/Cost/Target.h"
#include "TileDialect/Device/LoweredCost.h"
#include "TileDialect/Extraction/Check.h"
#include "TileDialect/IR/TileOps.h"
#include "TileDialect/Interpreter/TileInterpreter.h"
#include "TileDialect/Reference/LinalgInterpreter.h"
#include "TileDialect/Support/HostMemory.h"
#include "TileDialect/Rules/Saturate.h"
#include "TileDialect/Transforms/Passes.h"
#include "EmulateCandidates.h"
#include "PhasePass.h"
#include "WriteReport.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Threading.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <chrono>
#include <limits>
#include <mutex>

namespace mlir::tileir {
#define GEN_PASS_DEF_TILEEXTRACT
#include "TileDialect/Transforms/Passes.h.inc"
} // namespace mlir::tileir

using namespace mlir;
using namespace mlir::tileir;

/// The time `seconds` from now.
static std::chrono::steady_clock::time_point deadlineAfter(double seconds) {
  return std::chrono::steady_clock::now() +
         std::chrono::duration_cast<std::chrono::steady_clock::duration>(
             std::chrono::duration<double>(seconds));
}

/// The estimate of `program` on `target` as the GPU lowering runs it (at
/// the strategy's configuration and the lowering's tile sizes), else, for a
/// program that does not lower, at the cost model's default sizes.
static FailureOr<ProgramCost> estimateRun(ProgramOp program,
                                          const TargetDesc &target) {
  FailureOr<ProgramCost> cost = estimateAsLowered(program, target);
  if (succeeded(cost))
    return cost;
  return estimate(program, target, defaultTileSizes(program, target));
}

LogicalResult tileir::extractProgram(ProgramOp program,
                                     const TileExtractOptions &opts,
                                     func::FuncOp linalg,
                                     llvm::json::Array &reports,
                                     ExtractCounts &counts,
                                     const ExtractContext &context) {
  if (opts.topK < 1)
    return program.emitError("top-k must be at least 1 (the number of "
                             "candidates to return), got ")
           << opts.topK;
  // Each phase runs through the pass (timed under it) when it asks.
  auto runPhase = [&](StringRef phase,
                      llvm::function_ref<LogicalResult()> fn) {
    return context.runPhase ? context.runPhase(phase, program, fn) : fn();
  };
  // The budget: seconds left of this program's share, and each phase's own
  // limit capped by its part of them. `capped` names the phases the budget
  // cut short, for one remark at the end.
  auto secondsLeft = [&]() {
    if (!context.deadline)
      return std::numeric_limits<double>::infinity();
    return std::max(0.0, std::chrono::duration<double>(
                             *context.deadline -
                             std::chrono::steady_clock::now())
                             .count());
  };
  double share = secondsLeft();
  SmallVector<std::string> capped;
  auto cap = [&](StringRef phase, double limit, double fraction) {
    double left = fraction * secondsLeft();
    if (left >= limit)
      return limit;
    capped.push_back(
        llvm::formatv("{0} limited to {1:F1} s", phase, left).str());
    return left;
  };
  std::optional<TargetDesc> targetDesc;
  if (!opts.target.empty()) {
    llvm::Expected<TargetDesc> t = resolveTarget(opts.target);
    if (!t)
      return program.emitError("--tile-extract: ")
             << llvm::toString(t.takeError());
    targetDesc = std::move(*t);
  }
  // The check holds the tensors on the host several times (the inputs, the
  // reference's run, its outputs, one copy per thread checking a
  // candidate) and the linalg evaluation: refuse before saturating what
  // cannot be checked, rather than abort when an allocation fails.
  if (opts.check) {
    uint64_t copies = 3 + program.getContext()->getNumThreads();
    uint64_t bytes = mulBytes(programHostBytes(program), copies);
    if (linalg)
      bytes = addBytes(bytes, linalgHostBytes(linalg));
    if (std::optional<std::string> refusal = exceedsHostMemory(bytes))
      return program.emitError("cannot check the candidates of @")
             << program.getSymName() << ": the check " << *refusal
             << "; check=false emits unchecked candidates";
  }
  SaturateOptions sopts;
  sopts.limits.maxIterations = opts.iterations;
  sopts.limits.maxNodes = opts.maxNodes;
  sopts.limits.maxSeconds = opts.timeout;
  sopts.ruleFiles.assign(opts.ruleFiles.begin(), opts.ruleFiles.end());
  sopts.only.assign(opts.only.begin(), opts.only.end());
  sopts.disable.assign(opts.disable.begin(), opts.disable.end());
  std::string name = program.getSymName().str();
  // Progress lines, one per phase step, when asked; the checks run on
  // several threads, so lines are written whole under a lock.
  std::mutex progressMutex;
  auto progressLine = [&](const Twine &line) {
    if (!opts.progress)
      return;
    std::lock_guard<std::mutex> lock(progressMutex);
    llvm::errs() << "tile-extract @" << name << ": " << line << "\n";
    llvm::errs().flush();
  };
  unsigned roundNumber = 0;
  if (opts.progress)
    sopts.progress = [&](unsigned i, const egraph::IterationStats &s) {
      progressLine(llvm::formatv("round {0}: iteration {1}: {2} e-nodes, {3} "
                                 "e-classes, {4} applied, {5:f2} s",
                                 roundNumber, i + 1, s.nodes, s.classes,
                                 s.applied,
                                 s.searchSeconds + s.applySeconds +
                                     s.rebuildSeconds + s.hookSeconds));
    };
  // Refinement rounds pick their seed from at least this many candidates
  // of a round, whatever the requested number; the result is cut to it.
  constexpr unsigned kSeedPool = 4;
  ExtractOptions eopts;
  eopts.topK = opts.rounds > 1 ? std::max(opts.topK, kSeedPool) : opts.topK;
  eopts.perClass = opts.perClass;
  if (targetDesc)
    eopts = costsFor(eopts, *targetDesc);
  auto start = std::chrono::steady_clock::now();
  // One round: saturate `seed`, extract `program`'s candidates from it, and
  // record the round. `stats` ends with the last round's extraction.
  llvm::json::Array rounds;
  llvm::json::Value firstSaturation = nullptr;
  ExtractStats stats;
  auto runRound =
      [&](ProgramOp seed,
          const SaturateOptions &limits) -> FailureOr<std::vector<Candidate>> {
    ++roundNumber;
    progressLine(llvm::formatv("round {0}: saturating", roundNumber));
    SaturateOptions roundLimits = limits;
    roundLimits.limits.maxSeconds =
        cap("saturation", limits.limits.maxSeconds, 0.4);
    FailureOr<std::unique_ptr<Saturation>> sat = failure();
    if (failed(runPhase("saturate", [&] {
          sat = Saturation::run(seed, roundLimits);
          return success(succeeded(sat));
        })))
      return failure();
    stats = ExtractStats();
    progressLine(llvm::formatv("round {0}: extracting", roundNumber));
    ExtractOptions roundOptions = eopts;
    double extractLimit = cap("extraction", opts.extractTimeout, 0.5);
    roundOptions.deadline = deadlineAfter(extractLimit);
    FailureOr<std::vector<Candidate>> cs = failure();
    (void)runPhase("extract", [&] {
      cs = extractCandidates((*sat)->getEGraph(), (*sat)->getRoot(), program,
                             roundOptions, stats);
      return success(succeeded(cs));
    });
    if (stats.timedOut)
      emitRemark(program.getLoc())
          << "extraction of @" << name << " (round " << roundNumber
          << ") stopped at "
          << (extractLimit < opts.extractTimeout ? "its share of budget=, "
                                                 : "extract-timeout=")
          << llvm::formatv("{0:F2}", extractLimit).str() << " s, with "
          << cs->size() << " candidate(s)";
    if (failed(cs))
      return failure();
    progressLine(llvm::formatv("round {0}: {1} candidate(s), {2:f2} s",
                               roundNumber, cs->size(), stats.seconds));
    llvm::json::Value saturation = (*sat)->toJSON();
    if (rounds.empty())
      firstSaturation = saturation;
    rounds.push_back(llvm::json::Object{
        {"kernels",
         cs->empty() ? int64_t(-1) : int64_t(cs->front().structure.kernels)},
        {"saturation", std::move(saturation)},
        {"extraction_seconds", stats.seconds}});
    return cs;
  };
  FailureOr<std::vector<Candidate>> cands = runRound(program, sopts);
  if (failed(cands))
    return failure();
  // Refinement rounds: saturate the most fused candidate (fewest kernels,
  // then repeated statements, then loop crossings: an intermediate a
  // sibling loop stores, which fusion may still bring on chip; then pass 2's
  // cost) again, extract, and keep the new candidates while that structure
  // improves. They are named `<program>_c<i>` like the first round's.
  auto rank = [](const StructureCost &s) {
    return std::make_tuple(s.kernels, s.repeated, s.crossings);
  };
  auto mostFused = [&](const std::vector<Candidate> &cs) -> const Candidate & {
    return *llvm::min_element(cs, [&](const Candidate &a, const Candidate &b) {
      return std::make_tuple(rank(a.structure), a.valueCost) <
             std::make_tuple(rank(b.structure), b.valueCost);
    });
  };
  auto settled = [](const StructureCost &s) {
    return s.kernels <= 1 && s.repeated == 0 && s.crossings == 0;
  };
  SaturateOptions refine = sopts;
  refine.limits.maxIterations = opts.refineIterations;
  for (unsigned round = 1; round < opts.rounds && !cands->empty() &&
                           !settled(mostFused(*cands).structure);
       ++round) {
    // A refinement round needs time for its saturation, its extraction and
    // the check after it: none starts on less than half the share.
    if (secondsLeft() < 0.5 * share) {
      capped.push_back(
          llvm::formatv("refinement rounds skipped from round {0}",
                        round + 1)
              .str());
      break;
    }
    ExtractStats previous = stats;
    const Candidate &seed = mostFused(*cands);
    FailureOr<std::vector<Candidate>> better = runRound(seed.program, refine);
    if (failed(better))
      return failure();
    bool improves = !better->empty() &&
                    rank(mostFused(*better).structure) < rank(seed.structure);
    for (Candidate &c : improves ? *cands : *better)
      c.program.erase();
    if (!improves) {
      stats = previous;
      break;
    }
    *cands = std::move(*better);
  }
  keepTopK(*cands, opts.topK);
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();

  MLIRContext *ctx = program.getContext();
  std::optional<CandidateChecker> checker;
  // The check's budget: no interpreter run goes past this deadline.
  auto checkStart = std::chrono::steady_clock::now();
  double checkBudget = cap("check", opts.checkTimeout, 1.0);
  auto deadline = deadlineAfter(checkBudget);
  auto since = [&](std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t)
        .count();
  };
  // The reference runs (the input program and the linalg function).
  double referenceSeconds = 0;
  if (opts.check) {
    progressLine(llvm::formatv("checking {0} candidate(s) against the "
                               "{1} (budget {2:f0} s)",
                               cands->size(),
                               linalg ? "linalg reference" : "input program",
                               checkBudget));
    (void)runPhase("reference", [&] {
      checker.emplace(program, opts.seed, opts.tolerance, linalg, deadline);
      return success();
    });
    referenceSeconds = since(checkStart);
    progressLine(llvm::formatv("reference run in {0:f2} s", referenceSeconds));
    if (!checker->getError().empty()) {
      for (Candidate &c : *cands)
        c.program.erase();
      bool timedOut = since(checkStart) > checkBudget;
      return emitError(program.getLoc(), "cannot check the candidates of @")
             << name << ": " << checker->getError()
             << (!timedOut ? ""
                 : checkBudget < opts.checkTimeout
                     ? llvm::formatv(" (the budget left the check {0:f1} s; "
                                     "raise budget=)",
                                     checkBudget)
                           .str()
                     : llvm::formatv(" (check-timeout={0:f0} s; raise "
                                     "it, or check=false emits "
                                     "unchecked candidates)",
                                     opts.checkTimeout)
                           .str())
             << "; the input program is kept";
    }
    if (size_t bad = checker->numNonFiniteExpected())
      emitWarning(program.getLoc())
          << "the check's expected outputs of @" << program.getSymName()
          << " are not finite at " << bad << " of "
          << checker->numExpected()
          << " elements (NaN or infinity on the seeded inputs; a tile.init "
             "attribute on the linalg arguments sets their distribution): "
             "a candidate must give the same non-finite values there";
  }
  llvm::json::Array candJson;
  unsigned dropped = 0, droppedByEmulation = 0;
  // The candidates that pass, each with its entry in `candJson`, and the
  // best roofline estimate among them.
  SmallVector<std::pair<ProgramOp, size_t>> keptPrograms;
  double bestUs = std::numeric_limits<double>::infinity();
  // The checks only read the IR: run them on the context's threads. A
  // candidate that passes has its lowered kernels run in the emulation.
  std::vector<CheckResult> results(cands->size());
  std::vector<EmulationResult> emulations(cands->size());
  std::optional<CandidateEmulator> emulator;
  if (opts.check && opts.emulate)
    emulator.emplace(*checker, opts.seed, opts.emulateTolerance, deadline);
  // One candidate's check, then the emulation of its lowered kernels.
  auto checkCandidate = [&](size_t i) {
    auto start = std::chrono::steady_clock::now();
    ProgramOp candidate = (*cands)[i].program;
    results[i] = checker->check(candidate);
    const CheckResult &r = results[i];
    progressLine(llvm::formatv(
        "checked {0}: {1} in {2:f2} s", candidate.getSymName(),
        r.passed ? llvm::formatv("passed (error {0:e2})", r.maxRelError).str()
        : r.error.empty()
            ? llvm::formatv("failed (error {0:e2})", r.maxRelError).str()
            : r.error,
        since(start)));
    if (!r.passed || !emulator)
      return;
    double checkSeconds = since(start);
    start = std::chrono::steady_clock::now();
    emulations[i] =
        emulator->check(candidate, checkSeconds, opts.emulateBudget);
    progressLine(llvm::formatv("emulated {0}'s kernels: {1}{2} in {3:f2} s",
                               candidate.getSymName(),
                               emulations[i].name(),
                               emulations[i].detail.empty()
                                   ? ""
                                   : " (" + emulations[i].detail + ")",
                               since(start)));
  };
  if (opts.check)
    (void)runPhase("check", [&] {
      parallelFor(ctx, 0, cands->size(), checkCandidate);
      return success();
    });
  for (auto [i, c] : llvm::enumerate(*cands)) {
    const CheckResult &check = results[i];
    llvm::json::Object entry{{"name", c.program.getSymName().str()},
                             {"kernels", (int64_t)c.structure.kernels},
                             {"loops", (int64_t)c.structure.loops},
                             {"crossings", (int64_t)c.structure.crossings},
                             {"repeated", (int64_t)c.structure.repeated},
                             {"value_cost", c.valueCost}};
    if (opts.check) {
      entry["check"] = check.passed ? "passed" : "failed";
      entry["max_rel_error"] = check.maxRelError;
      entry["max_element_error"] = check.maxElementError;
      if (!check.mismatch.empty())
        entry["mismatch"] = check.mismatch;
      if (!check.error.empty())
        entry["check_error"] = check.error;
      if (check.timedOut)
        entry["check_timed_out"] = true;
      if (emulator && check.passed)
        emulations[i].addTo(entry);
    }
    candJson.push_back(std::move(entry));
    if (opts.check && !check.passed) {
      emitRemark(program.getLoc())
          << "candidate " << c.program.getSymName() << " dropped: "
          << (!check.error.empty()
                  ? check.error
                  : "outputs differ by " +
                        std::to_string(std::max(check.maxRelError,
                                                check.maxElementError)) +
                        (check.mismatch.empty() ? "" : ": " + check.mismatch));
      c.program.erase();
      ++dropped;
      continue;
    }
    if (emulations[i].failed()) {
      emitRemark(program.getLoc())
          << "candidate " << c.program.getSymName()
          << " dropped: its lowered kernels fail in the host emulation: "
          << emulations[i].detail;
      c.program.erase();
      ++dropped;
      ++droppedByEmulation;
      continue;
    }
    auto i64 = [&](int64_t v) {
      return IntegerAttr::get(IntegerType::get(ctx, 64), v);
    };
    c.program->setAttr("tile.kernels", i64(c.structure.kernels));
    c.program->setAttr("tile.value_cost",
                       FloatAttr::get(Float64Type::get(ctx), c.valueCost));
    if (targetDesc) {
      FailureOr<ProgramCost> cost = estimateRun(c.program, *targetDesc);
      if (succeeded(cost)) {
        c.program->setAttr("tile.estimated_us",
                           FloatAttr::get(Float64Type::get(ctx), cost->timeUs));
        if (auto *obj = candJson.back().getAsObject())
          (*obj)["estimated_us"] = cost->timeUs;
        bestUs = std::min(bestUs, cost->timeUs);
      }
    }
    if (opts.check)
      c.program->setAttr(
          "tile.check_error",
          FloatAttr::get(Float64Type::get(ctx), check.maxRelError));
    // Whether the kernels were run: "passed", or why they were not.
    if (emulator)
      c.program->setAttr("tile.emulation",
                         StringAttr::get(ctx, emulations[i].text()));
    keptPrograms.push_back({c.program, candJson.size() - 1});
  }
  // The candidates ranked by estimated time, as lowered, where there is an
  // estimate (the extraction's rank, fewest kernels first, breaks ties and
  // orders the rest, last): their order in the module and their names
  // follow.
  auto entryOf = [&](size_t index) { return candJson[index].getAsObject(); };
  std::string base = program.getSymName().str() + "_c";
  if (targetDesc && keptPrograms.size() > 1) {
    auto estimateOf = [](ProgramOp p) {
      auto us = p->getAttrOfType<FloatAttr>("tile.estimated_us");
      return us ? us.getValueAsDouble()
                : std::numeric_limits<double>::infinity();
    };
    // Equal estimates: fewer loops first (fewer passes over the data; the
    // structure's count, as the report has it).
    auto rankOf = [&](const std::pair<ProgramOp, size_t> &kept) {
      return std::make_pair(
          estimateOf(kept.first),
          entryOf(kept.second)->getInteger("loops").value_or(0));
    };
    std::stable_sort(keptPrograms.begin(), keptPrograms.end(),
                     [&](const auto &a, const auto &b) {
                       return rankOf(a) < rankOf(b);
                     });
    Operation *first = keptPrograms.front().first;
    for (auto &[p, index] : keptPrograms)
      if (p->isBeforeInBlock(first))
        first = p;
    Block *block = first->getBlock();
    Operation *previous = first->getPrevNode();
    for (auto [i, c] : llvm::enumerate(keptPrograms)) {
      if (previous)
        c.first->moveAfter(previous);
      else
        c.first->moveBefore(block, block->begin());
      previous = c.first;
      std::string name = base + std::to_string(i);
      c.first.setSymName(name);
      (*entryOf(c.second))["name"] = name;
    }
  }
  unsigned kept = keptPrograms.size();
  counts.kept += kept;
  counts.dropped += dropped;
  // Extraction ranks loop structures (fewest kernels first) before the
  // roofline estimate, so its best may be slower than the program it
  // started from (a statistic pulled into the head loop makes that loop
  // sequential). Then the input, estimated faster than every candidate,
  // is kept as the first candidate (the last one dropped at `top-k`), and
  // the report names each program as the IR now does.
  bool inputFirst = false;
  llvm::json::Value inputJson = nullptr;
  // Extraction can find no program at all (every combination refused by
  // the verifier), or the check can drop every candidate: the input, a
  // program that is right by construction (and checked against the linalg
  // function), is then the candidate, if its kernels pass.
  bool noneExtracted = kept == 0;
  if ((targetDesc && kept > 0) || noneExtracted) {
    FailureOr<ProgramCost> inputCost =
        targetDesc ? estimateRun(program, *targetDesc)
                   : FailureOr<ProgramCost>(failure());
    // The input ships too when it is kept: its kernels are emulated
    // first, and a failure keeps it out.
    EmulationResult inputEmulation;
    bool faster = noneExtracted ||
                  (succeeded(inputCost) && inputCost->timeUs < bestUs);
    if (faster && emulator) {
      (void)runPhase("check", [&] {
        inputEmulation =
            emulator->check(program, referenceSeconds, opts.emulateBudget);
        return success();
      });
      if (inputEmulation.failed())
        emitRemark(program.getLoc())
            << "the input of @" << program.getSymName()
            << " would be kept, but its lowered kernels fail in the host "
               "emulation ("
            << inputEmulation.detail << "): it is not kept";
    }
    if (faster && !inputEmulation.failed()) {
      inputFirst = true;
      if (noneExtracted && dropped)
        emitWarning(program.getLoc())
            << "every candidate of @" << program.getSymName()
            << " was dropped by the check: the input is kept as the only "
               "candidate";
      else if (noneExtracted)
        emitRemark(program.getLoc())
            << "extraction found no candidate of @" << program.getSymName()
            << ": the input is kept as the only candidate";
      else
        emitRemark(program.getLoc())
            << "every candidate of @" << program.getSymName()
            << " is estimated slower than the input ("
            << llvm::formatv("{0:F1}", bestUs).str() << " us against "
            << llvm::formatv("{0:F1}", inputCost->timeUs).str()
            << " us): the input is kept as the first candidate";
      if (keptPrograms.size() >= opts.topK) {
        auto [last, index] = keptPrograms.pop_back_val();
        last.erase();
        // Its name now belongs to another program.
        (*entryOf(index))["name"] = nullptr;
        (*entryOf(index))["dropped_for_input"] = true;
      }
      OpBuilder b(keptPrograms.empty()
                      ? program.getOperation()
                      : keptPrograms.front().first.getOperation());
      auto input = cast<ProgramOp>(b.clone(*program.getOperation()));
      // Names by rank: the input is c0, the candidates follow.
      input.setSymName(base + "0");
      for (auto [i, c] : llvm::enumerate(keptPrograms)) {
        std::string name = base + std::to_string(i + 1);
        c.first.setSymName(name);
        (*entryOf(c.second))["name"] = name;
      }
      input->setAttr("tile.input", UnitAttr::get(ctx));
      llvm::json::Object inputEntry{{"name", base + "0"}};
      if (succeeded(inputCost)) {
        input->setAttr("tile.estimated_us", FloatAttr::get(Float64Type::get(ctx),
                                                           inputCost->timeUs));
        inputEntry["estimated_us"] = inputCost->timeUs;
      }
      if (emulator) {
        inputEmulation.addTo(inputEntry);
        input->setAttr("tile.emulation",
                       StringAttr::get(ctx, inputEmulation.text()));
      }
      inputJson = std::move(inputEntry);
      if (noneExtracted) {
        ++kept;
        ++counts.kept;
      }
    }
  }
  if (!capped.empty())
    emitRemark(program.getLoc())
        << "the budget of @" << program.getSymName() << " ("
        << llvm::formatv("{0:F1}", share).str()
        << " s): " << llvm::join(capped, ", ");
  {
    InFlightDiagnostic remark = emitRemark(program.getLoc());
    remark << "extracted " << kept << " candidate(s) of @"
           << program.getSymName() << " (" << dropped
           << " dropped by the check) in "
           << llvm::formatv("{0:F2}", seconds).str() << " s (" << rounds.size()
           << " round(s))";
    if (inputFirst)
      remark << "; best is the input";
    else if (kept)
      remark << "; best has "
             << keptPrograms.front()
                    .first->getAttrOfType<IntegerAttr>("tile.kernels")
                    .getInt()
             << " kernel(s)";
  }
  llvm::json::Object report{
      {"program", program.getSymName().str()},
      {"saturation", std::move(firstSaturation)},
      {"extraction",
       llvm::json::Object{
           {"statement_classes", (int64_t)stats.statementClasses},
           {"rounds", (int64_t)stats.rounds},
           {"fixpoint", stats.fixpoint},
           {"timed_out", stats.timedOut},
           {"semi_expressions", (int64_t)stats.semiExpressions},
           {"unusable_skipped", (int64_t)stats.cyclicSkipped},
           {"duplicates_skipped", (int64_t)stats.duplicateSkipped},
           {"dropped_tensors", (int64_t)stats.droppedTensors},
           {"seconds", stats.seconds}}},
      {"rounds", std::move(rounds)},
      {"seconds", seconds},
      {"candidates", std::move(candJson)},
      {"input_first", inputFirst},
      {"input", std::move(inputJson)},
      {"dropped", (int64_t)dropped},
      {"dropped_by_emulation", (int64_t)droppedByEmulation}};
  reports.push_back(std::move(report));
  if (kept == 0)
    return program.emitError("no candidate passed the check; the input "
                             "program is kept");
  if (!opts.keepInput)
    program.erase();
  return success();
}

LogicalResult tileir::extractAll(ModuleOp module,
                                 const TileExtractOptions &opts,
                                 ModuleOp linalgFunctions, StringRef reportPath,
                                 ExtractCounts &counts,
                                 const ExtractContext &context) {
  llvm::json::Array reports;
  bool ok = true;
  SmallVector<ProgramOp> programs = llvm::to_vector(module.getOps<ProgramOp>());
  for (auto [i, program] : llvm::enumerate(programs)) {
    func::FuncOp linalg;
    if (linalgFunctions)
      linalg = dyn_cast_or_null<func::FuncOp>(
          SymbolTable::lookupSymbolIn(linalgFunctions, program.getSymName()));
    // An equal share of what is left for each program still to come.
    ExtractContext programContext = context;
    if (context.deadline) {
      auto now = std::chrono::steady_clock::now();
      auto left = std::max(*context.deadline - now,
                           std::chrono::steady_clock::duration::zero());
      programContext.deadline = now + left / (programs.size() - i);
    }
    ok &= succeeded(
        extractProgram(program, opts, linalg, reports, counts, programContext));
  }
  if (!reportPath.empty() &&
      failed(writeJSON(module, reportPath, std::move(reports))))
    return failure();
  return success(ok);
}

namespace {

struct TileExtractPass : public tileir::impl::TileExtractBase<TileExtractPass> {
  using Base::Base;

  void runOnOperation() override {
    TileExtractOptions opts;
    opts.topK = topK;
    opts.perClass = perClass;
    opts.iterations = iterations;
    opts.rounds = rounds;
    opts.refineIterations = refineIterations;
    opts.maxNodes = maxNodes;
    opts.timeout = timeout;
    opts.extractTimeout = extractTimeout;
    opts.ruleFiles.assign(ruleFiles.begin(), ruleFiles.end());
    opts.only.assign(only.begin(), only.end());
    opts.disable.assign(disable.begin(), disable.end());
    opts.check = check;
    opts.tolerance = tolerance;
    opts.seed = seed;
    opts.keepInput = keepInput;
    opts.checkTimeout = checkTimeout;
    opts.progress = progress;
    opts.emulate = emulate;
    opts.emulateTolerance = emulateTolerance;
    opts.emulateBudget = emulateBudget;
    opts.target = target;
    ExtractCounts counts;
    ExtractContext context;
    if (budget > 0)
      context.deadline = deadlineAfter(budget);
    context.runPhase = makePhaseRunner(
        "tile-extract", [this](OpPassManager &pm, Operation *op) {
          return runPipeline(pm, op);
        });
    LogicalResult result =
        extractAll(getOperation(), opts,
                   /*linalgFunctions=*/nullptr, reportPath, counts, context);
    numCandidates += counts.kept;
    numDropped += counts.dropped;
    if (failed(result))
      signalPassFailure();
  }
};

} // namespace
