//===- Check.cpp - Numerical check of a candidate against its input -------===//

#include "TileDialect/Extraction/Check.h"
#include "TileDialect/Interpreter/TileInterpreter.h"
#include "TileDialect/Reference/LinalgInterpreter.h"
#include "TileDialect/Support/Compare.h"
#include "TileDialect/Support/ElementKindOf.h"
#include "TileDialect/Support/RandomInit.h"

#include "TileDialect/IR/TileOps.h"

#include "mlir/IR/Threading.h"
#include "llvm/Support/Format.h"

#include <cmath>
#include <functional>

using namespace mlir;
using namespace mlir::tileir;

/// The distribution of each input of `linalg` (its `tile.init` attribute,
/// else the default for its name), in argument order.
static FailureOr<std::vector<InitSpec>> declaredInits(func::FuncOp linalg) {
  std::vector<InitSpec> inits;
  for (unsigned i = 0, e = linalg.getNumArguments(); i < e; ++i) {
    FailureOr<std::optional<InitSpec>> declared = declaredInit(linalg, i);
    if (failed(declared))
      return failure();
    inits.push_back(declared->value_or(defaultInitFor(argumentName(linalg, i))));
  }
  return inits;
}

/// Fresh tensors for `program`: its k-th input or inout tensor filled from
/// stream k (as tile-run fills them) with `inits[k]` when given, else the
/// default for its name; the rest zero.
static FailureOr<std::vector<HostTensor>>
makeTensors(ProgramOp program, uint64_t seed, ArrayRef<InitSpec> inits,
            std::vector<CandidateChecker::DrawnInput> &drawn) {
  std::vector<HostTensor> tensors;
  unsigned k = 0;
  for (BlockArgument arg : program.getBodyBlock().getArguments()) {
    auto type = cast<TensorRefType>(arg.getType());
    std::optional<ElementKind> kind = elementKindOf(type.getElementType());
    if (!kind)
      return failure();
    std::string name = program.getTensorName(arg.getArgNumber()).str();
    HostTensor t(
        name,
        std::vector<int64_t>(type.getShape().begin(), type.getShape().end()),
        *kind);
    if (type.getRole() == TensorRole::Input ||
        type.getRole() == TensorRole::InOut) {
      InitSpec spec = k < inits.size() ? inits[k] : defaultInitFor(name);
      fillRandom(t, seed, k, spec);
      drawn.push_back({arg.getArgNumber(), k, spec});
      ++k;
    } else if (type.getRole() == TensorRole::Positions) {
      t.fillPositions();
    }
    tensors.push_back(std::move(t));
  }
  return tensors;
}

static LogicalResult
run(ProgramOp program, std::vector<HostTensor> &tensors,
    std::optional<std::chrono::steady_clock::time_point> deadline,
    bool &timedOut, Precision precision = Precision::F64) {
  TileInterpreterOptions options;
  options.precision = precision;
  options.tileSizes = chooseDefaultTileSizes(program);
  options.deadline = deadline;
  options.timedOut = &timedOut;
  return interpretTileProgram(program, tensors, options);
}

/// Whether `root` converts values to a float type that can round them (the
/// ops Precision::F64Casts rounds; exact casts included, which costs only a
/// second run).
static bool hasConversion(Operation *root) {
  WalkResult walk = root->walk([](Operation *op) {
    return isRoundingConversion(op) || isa<CastOp>(op)
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  return walk.wasInterrupted();
}

/// The largest relative error of one output, each output normalized by its
/// own largest magnitude (Compare.h: NaN matches NaN).
static double relativeError(ArrayRef<const std::vector<double> *> a,
                            ArrayRef<const std::vector<double> *> b) {
  double worst = 0;
  for (auto [x, y] : llvm::zip_equal(a, b)) {
    Comparison cmp;
    cmp.add(x->data(), y->data(), y->size());
    worst = std::max(worst, cmp.relativeError());
  }
  return worst;
}

/// Both sides of the check run in fp64, so a right candidate differs from
/// the reference by reassociation only: every element must also be within
/// the tolerance of its own magnitude plus this fraction of its output's
/// largest. An output normalized by its largest magnitude alone hides
/// elements near zero that were never written (issue 40's wrong
/// candidate: 1e-3 values left at 0 beside a -0.5).
static constexpr double kElementFloor = 1e-3;

CandidateChecker::CandidateChecker(
    ProgramOp reference, uint64_t seed, double tolerance, func::FuncOp linalg,
    std::optional<std::chrono::steady_clock::time_point> deadline)
    : tolerance(tolerance), deadline(deadline) {
  std::vector<InitSpec> inits;
  if (linalg) {
    FailureOr<std::vector<InitSpec>> declared = declaredInits(linalg);
    if (failed(declared)) {
      error = "a tile.init attribute of the linalg function is not "
              "normal(MEAN, STDDEV) or uniform(LOW, HIGH)";
      return;
    }
    inits = std::move(*declared);
  }
  FailureOr<std::vector<HostTensor>> ref =
      makeTensors(reference, seed, inits, drawn);
  if (failed(ref)) {
    error = "the input program has unsupported tensor types";
    return;
  }
  // Drawing the inputs costs more than copying them: keep one copy.
  initial = *ref;
  std::vector<HostTensor> args;
  if (linalg) {
    for (BlockArgument arg : reference.getBodyBlock().getArguments()) {
      TensorRole role = cast<TensorRefType>(arg.getType()).getRole();
      if (role == TensorRole::Input || role == TensorRole::InOut)
        args.push_back(initial[arg.getArgNumber()]);
    }
    if (args.size() != linalg.getNumArguments()) {
      error = "the input program does not have the linalg function's "
              "arguments";
      return;
    }
  }
  // The program and, with `linalg`, the function on the same inputs, at
  // once on the context's threads; for a reference with conversions, also
  // the kernels' reference: the same with its conversions rounded.
  bool converts = linalg ? hasConversion(linalg) : hasConversion(reference);
  LogicalResult programRun = success(), kernelRun = success();
  FailureOr<std::vector<HostTensor>> expected = std::vector<HostTensor>();
  FailureOr<std::vector<HostTensor>> kernelExpected = std::vector<HostTensor>();
  std::vector<HostTensor> kernelTensors;
  bool programTimedOut = false, linalgTimedOut = false, kernelTimedOut = false;
  SmallVector<std::function<void()>, 3> tasks;
  tasks.push_back([&] {
    programRun = run(reference, *ref, deadline, programTimedOut);
  });
  if (linalg)
    tasks.push_back([&] {
      expected = interpretLinalgFunction(linalg, args, Precision::F64,
                                         deadline, &linalgTimedOut);
    });
  if (converts && linalg)
    tasks.push_back([&] {
      kernelExpected = interpretLinalgFunction(
          linalg, args, Precision::F64Casts, deadline, &kernelTimedOut);
    });
  if (converts && !linalg) {
    kernelTensors = *ref;
    tasks.push_back([&] {
      kernelRun = run(reference, kernelTensors, deadline, kernelTimedOut,
                      Precision::F64Casts);
    });
  }
  parallelFor(reference.getContext(), 0, tasks.size(),
              [&](size_t task) { tasks[task](); });
  if (programTimedOut || linalgTimedOut || kernelTimedOut) {
    error = std::string("the check's time budget ran out while running ") +
            (programTimedOut || (kernelTimedOut && !linalg)
                 ? "the input program"
                 : "the linalg reference");
    return;
  }
  if (failed(programRun) || failed(kernelRun)) {
    error = "the input program failed to run";
    return;
  }
  FailureOr<SmallVector<unsigned>> outs = getProgramOutputs(reference);
  if (failed(outs)) {
    error = "the input program names an unknown result tensor";
    return;
  }
  for (unsigned i : *outs)
    outputs.push_back(std::move((*ref)[i].data));
  outputTensors.assign(outs->begin(), outs->end());
  if (converts && !linalg)
    for (unsigned i : *outs)
      kernelOutputs.push_back(std::move(kernelTensors[i].data));
  if (!linalg)
    return;

  // The linalg results become the expected outputs, once the converted
  // program agrees with them.
  if (failed(expected) || failed(kernelExpected)) {
    error = "the linalg function failed to run";
    return;
  }
  if (outputs.size() != expected->size()) {
    error = "the input program does not have the linalg function's results";
    return;
  }
  SmallVector<const std::vector<double> *> got, want;
  for (auto [o, e] : llvm::zip_equal(outputs, *expected)) {
    if (o.size() != e.data.size()) {
      error = "the input program's outputs have other shapes than the "
              "linalg function's results";
      return;
    }
    got.push_back(&o);
    want.push_back(&e.data);
  }
  double inputError = relativeError(got, want);
  if (!(inputError <= tolerance)) {
    error = "the input program differs from the linalg function by " +
            std::to_string(inputError);
    return;
  }
  for (auto [o, e] : llvm::zip_equal(outputs, *expected))
    o = std::move(e.data);
  for (HostTensor &e : *kernelExpected)
    kernelOutputs.push_back(std::move(e.data));
}

size_t CandidateChecker::numNonFiniteExpected() const {
  size_t n = 0;
  for (const std::vector<double> &o : outputs)
    n += llvm::count_if(o, [](double v) { return !std::isfinite(v); });
  return n;
}

size_t CandidateChecker::numExpected() const {
  size_t n = 0;
  for (const std::vector<double> &o : outputs)
    n += o.size();
  return n;
}

CheckResult CandidateChecker::check(ProgramOp candidate) const {
  CheckResult result;
  result.error = error;
  if (!error.empty())
    return result;
  // A candidate has the input's tensors (it is built from them); check.
  FailureOr<SmallVector<unsigned>> outs = getProgramOutputs(candidate);
  Block &block = candidate.getBodyBlock();
  bool same = succeeded(outs) && block.getNumArguments() == initial.size() &&
              outs->size() == outputs.size();
  for (unsigned i = 0; same && i < initial.size(); ++i) {
    auto type = cast<TensorRefType>(block.getArgument(i).getType());
    same = candidate.getTensorName(i) == initial[i].name &&
           llvm::equal(type.getShape(), initial[i].shape);
  }
  if (!same) {
    result.error = "the candidate's tensors differ from the input's";
    return result;
  }
  std::vector<HostTensor> cand = initial;
  if (failed(run(candidate, cand, deadline, result.timedOut))) {
    result.error = result.timedOut ? "not checked: the check's time budget "
                                     "ran out"
                                   : "the candidate failed to run";
    return result;
  }
  SmallVector<const std::vector<double> *> got, want;
  for (size_t o = 0; o < outs->size(); ++o) {
    const std::vector<double> &a = cand[(*outs)[o]].data, &b = outputs[o];
    if (a.size() != b.size()) {
      result.error = "the candidate's outputs have other shapes";
      return result;
    }
    got.push_back(&a);
    want.push_back(&b);
  }
  result.maxRelError = relativeError(got, want);
  result.passed = result.maxRelError <= tolerance;
  // The element farthest off, over all outputs.
  std::optional<std::pair<size_t, ElementError>> worst;
  for (size_t o = 0; o < outs->size(); ++o) {
    ElementError e = maxElementError(got[o]->data(), want[o]->data(),
                                     want[o]->size(), kElementFloor);
    if (!worst || e.error > worst->second.error)
      worst = {o, e};
  }
  if (worst) {
    result.maxElementError = worst->second.error;
    result.passed &= result.maxElementError <= tolerance;
  }
  if (!result.passed && worst && worst->second.error > 0) {
    auto [o, e] = *worst;
    llvm::raw_string_ostream os(result.mismatch);
    os << "element " << e.index << " of '" << initial[(*outs)[o]].name
       << "' is " << llvm::format("%g", (*got[o])[e.index])
       << " where the reference has "
       << llvm::format("%g", (*want[o])[e.index]);
  }
  return result;
}
