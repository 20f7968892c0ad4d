//===- tile-run.cpp - Run tile programs and linalg functions on the CPU ---===//
//
// tile-run FILE.mlir [--reference REF.mlir]: runs a tile program (with the
// CPU interpreter) or a linalg function (with the reference evaluator) on
// seeded random inputs; with a reference, runs it on the same inputs and
// compares every output. Exit status: 0 success, 1 mismatch, 2 bad input.
//
//===----------------------------------------------------------------------===//

#include "TileDialect/Device/CheckLowered.h"
#include "TileDialect/Device/Compile.h"
#include "TileDialect/Device/HostEmulation.h"

#include "TileDialect/IR/TileDialect.h"
#include "TileDialect/InitAll.h"
#include "TileDialect/Runtime/Npy.h"
#include "TileDialect/Runtime/Runner.h"
#include "TileDialect/IR/TileOps.h"
#include "TileDialect/Interpreter/TileInterpreter.h"
#include "TileDialect/Reference/LinalgInterpreter.h"
#include "TileDialect/Support/Compare.h"
#include "TileDialect/Support/Version.h"
#include "TileDialect/Support/ElementKindOf.h"
#include "TileDialect/Support/HostMemory.h"
#include "TileDialect/Support/RandomInit.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include "llvm/Support/FileSystem.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>

using namespace mlir;
using namespace mlir::tileir;
namespace cl = llvm::cl;

static cl::OptionCategory runCategory("tile-run options");

static cl::opt<std::string> inputFile(cl::Positional, cl::Required,
                                      cl::desc("<program.mlir>"),
                                      cl::cat(runCategory));
static cl::opt<std::string>
    referenceFile("reference", cl::value_desc("REF.mlir"),
                  cl::desc("A linalg function to compare every output with "
                           "(the one named like the program or, for a "
                           "candidate NAME_cK, NAME; else the only "
                           "one)"),
                  cl::cat(runCategory));
static cl::opt<std::string>
    entry("entry",
          cl::desc("The tile.program or func.func to run (default: "
                   "the only tile.program, else the only function)"),
          cl::cat(runCategory));
static cl::opt<uint64_t> seed("seed", cl::init(0),
                              cl::desc("Seed of the random inputs"),
                              cl::cat(runCategory));
static cl::opt<std::string>
    precision("precision", cl::init("f64"),
              cl::desc("Arithmetic of the program: f64 (exact), f64-casts "
                       "(exact, but explicit conversions round to their "
                       "type, as a kernel's do) or f32 (round every value "
                       "to its element type)"),
              cl::cat(runCategory));
static cl::opt<std::string>
    referencePrecision("reference-precision",
                       cl::desc("Arithmetic of the reference: f64, f64-casts "
                                "or f32 (default: f64 for a program run in "
                                "f64 on the CPU; f64-casts for one that "
                                "rounds, --precision f32 or f64-casts, and "
                                "for kernels, --device)"),
                       cl::cat(runCategory));
static cl::list<std::string>
    tileSizeArgs("tile-sizes", cl::CommaSeparated, cl::value_desc("NAME=N,..."),
                 cl::desc("Values of symbolic tile sizes (default: the "
                          "largest power of two up to 32 dividing their "
                          "loops)"),
                 cl::cat(runCategory));
static cl::opt<int64_t> maxTileSize(
    "max-tile-size", cl::init(32),
    cl::desc("Cap of the default tile sizes (1 runs every loop element by "
             "element)"),
    cl::cat(runCategory));
static cl::list<std::string>
    inputArgs("input", cl::value_desc("NAME=@FILE.npy"),
              cl::desc("The values of input NAME from a .npy file (its "
                       "element type and shape must be the tensor's) "
                       "instead of seeded random ones; the reference reads "
                       "the same values. Repeatable"),
              cl::cat(runCategory));
static cl::opt<std::string>
    outputDir("output-dir", cl::value_desc("DIR"),
              cl::desc("Write every output of the run as DIR/NAME.npy "
                       "(DIR is created)"),
              cl::cat(runCategory));
static cl::list<std::string>
    initArgs("init", cl::value_desc("NAME=normal(M,S)"),
             cl::desc("Distribution of an input, by name (default: the "
                      "reference's tile.init attribute, else the "
                      "distribution docs/Workloads.md gives that name)"),
             cl::cat(runCategory));
static cl::opt<double>
    tolerance("tolerance", cl::init(1e-6),
              cl::desc("Largest max_rel_err that passes (max |out - ref| "
                       "over max |ref|)"),
              cl::cat(runCategory));
static cl::opt<bool> timeIt("time",
                            cl::desc("Print the median run time (median_us=)"),
                            cl::cat(runCategory));
static cl::opt<uint64_t> hostMemoryLimitMB(
    "host-memory-limit-mb", cl::init(0),
    cl::desc("Refuse programs whose host tensors (doubles) need more than "
             "this many MiB (0: half the machine's memory)"),
    cl::cat(runCategory));
static cl::opt<unsigned> repetitions("repetitions", cl::init(5),
                                     cl::desc("Runs timed by --time (CPU; "
                                              "the GPU default is 100)"),
                                     cl::cat(runCategory));
static cl::opt<std::string>
    device("device", cl::init("cpu"),
           cl::desc("Where to run a tile program: cpu (the interpreter), "
                    "cuda or hip (lowered, written as an artifact and "
                    "launched; docs/Runtime.md), or emulate (the CUDA "
                    "lowering's kernels run on the CPU, blocks and threads "
                    "one after another: --tile-gpu-to-host)"),
           cl::cat(runCategory));
static cl::opt<std::string>
    chip("chip",
         cl::desc("GPU target chip (default sm_90 for cuda, gfx942 "
                  "for hip)"),
         cl::cat(runCategory));
static cl::opt<std::string>
    artifactDir("artifact", cl::value_desc("DIR"),
                cl::desc("Write the GPU artifact into DIR (created; default: "
                         "a temporary directory)"),
                cl::cat(runCategory));
static cl::opt<bool>
    compileOnly("compile-only",
                cl::desc("With --device: write the artifact, do not run it"),
                cl::cat(runCategory));
static cl::opt<bool> emulateCheck(
    "emulate-check", cl::init(true),
    cl::desc("With --device cuda/hip --compile-only: also run the kernels "
             "in the host emulation against the expected outputs (lowered "
             "as written but without matrix-unit register ops and inline "
             "PTX, which the host cannot run)"),
    cl::cat(runCategory));
static cl::opt<std::string> gpuConfig(
    "gpu-config", cl::value_desc("FIELDS"),
    cl::desc("GPU: fields of #tile.gpu_config that override the strategy's "
             "choice and the tuning cache, e.g. \"mma = true, split_k = 8\" "
             "(docs/GPULowering.md lists them; --tile-sizes and an explicit "
             "--max-tile-size add to them)"),
    cl::cat(runCategory));
static cl::opt<std::string> tuningCache(
    "tuning", cl::value_desc("CACHE.json"),
    cl::desc("GPU: take the configuration of the program's entry in this "
             "tuning cache (bench/gpu/tune.py) where --gpu-config does not "
             "set it"),
    cl::cat(runCategory));

namespace {

constexpr int kExitMismatch = 1;
constexpr int kExitBadInput = 2;

/// A tensor the runnable reads or writes, as the runner sees it.
struct Param {
  std::string name;
  HostTensor tensor;
  /// Whether it is filled with random data (inputs and inout tensors).
  bool isInput;
  /// The distribution declared by a `tile.init` attribute, if any.
  std::optional<InitSpec> declaredInit;
};

/// A tile.program or a func.func, with what it reads and writes.
struct Runnable {
  Operation *op = nullptr;
  std::vector<Param> params;
  /// Indices into params (program) or results (function) of the outputs.
  std::vector<unsigned> outputs;
  std::vector<std::string> outputNames;
};

int fail(const llvm::Twine &message) {
  llvm::errs() << "tile-run: " << message << "\n";
  return kExitBadInput;
}

std::optional<Precision> parsePrecision(StringRef text) {
  if (text == "f64")
    return Precision::F64;
  if (text == "f64-casts")
    return Precision::F64Casts;
  if (text == "f32")
    return Precision::F32;
  return std::nullopt;
}

/// The reference's precision: --reference-precision, else f64 for a program
/// that computes in f64 and f64-casts for one whose conversions round (kernels
/// and the rounding interpreter): `x - f32(f16(x))` is then the same rounding
/// error on both sides instead of 0 against it.
Precision referencePrecisionFor(bool kernels) {
  if (!referencePrecision.empty())
    return *parsePrecision(referencePrecision);
  if (!kernels && *parsePrecision(precision) == Precision::F64)
    return Precision::F64;
  return Precision::F64Casts;
}

std::string shapeString(const std::vector<int64_t> &shape) {
  std::string s;
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? "x" : "") + std::to_string(shape[i]);
  return s.empty() ? "scalar" : s;
}

FailureOr<Runnable> describeProgram(ProgramOp program) {
  Runnable r;
  r.op = program;
  for (BlockArgument arg : program.getBodyBlock().getArguments()) {
    auto type = cast<TensorRefType>(arg.getType());
    std::optional<ElementKind> kind = elementKindOf(type.getElementType());
    if (!kind)
      return program.emitError("unsupported element type ")
             << type.getElementType();
    std::string name = program.getTensorName(arg.getArgNumber()).str();
    bool input = type.getRole() == TensorRole::Input ||
                 type.getRole() == TensorRole::InOut;
    HostTensor tensor(
        name,
        std::vector<int64_t>(type.getShape().begin(), type.getShape().end()),
        *kind);
    if (type.getRole() == TensorRole::Positions)
      tensor.fillPositions();
    r.params.push_back({name, std::move(tensor), input, std::nullopt});
  }
  FailureOr<SmallVector<unsigned>> outputs = getProgramOutputs(program);
  if (failed(outputs))
    return failure();
  for (unsigned i : *outputs) {
    r.outputs.push_back(i);
    r.outputNames.push_back(r.params[i].name);
  }
  return r;
}

FailureOr<Runnable> describeFunction(func::FuncOp func) {
  Runnable r;
  r.op = func;
  for (auto [i, arg] : llvm::enumerate(func.getArguments())) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    std::optional<ElementKind> kind =
        type && type.hasStaticShape() ? elementKindOf(type.getElementType())
                                      : std::nullopt;
    if (!kind)
      return func.emitError("argument #")
             << i << " is not a static-shape float tensor";
    std::string name = argumentName(func, i);
    FailureOr<std::optional<InitSpec>> init = declaredInit(func, i);
    if (failed(init))
      return func.emitError("argument #")
             << i << " has a tile.init attribute that is not "
             << "normal(MEAN, STDDEV) or uniform(LOW, HIGH)";
    r.params.push_back(
        {name,
         HostTensor(name,
                    std::vector<int64_t>(type.getShape().begin(),
                                         type.getShape().end()),
                    *kind),
         true, *init});
  }
  for (unsigned i = 0; i < func.getNumResults(); ++i) {
    auto nameAttr = func.getResultAttrOfType<StringAttr>(i, "tile.name");
    r.outputs.push_back(i);
    r.outputNames.push_back(nameAttr ? nameAttr.str()
                                     : "result" + std::to_string(i));
  }
  return r;
}

/// What running `op` holds on the host at most: a program's tensors three
/// times (prepared, copied for the run, outputs), a function's arguments
/// once more than its evaluation holds them.
uint64_t hostBytesOf(Operation *op) {
  if (auto program = dyn_cast<ProgramOp>(op))
    return mulBytes(programHostBytes(program), 3);
  auto func = cast<func::FuncOp>(op);
  return addBytes(linalgHostBytes(func), linalgArgumentBytes(func));
}

/// Finds the runnable of `module`: `name` if given, else the only program,
/// else the only function with a body.
FailureOr<Runnable> findRunnable(ModuleOp module, StringRef name,
                                 StringRef file) {
  SmallVector<Operation *> programs, funcs;
  for (Operation &op : module.getBody()->getOperations()) {
    if (auto program = dyn_cast<ProgramOp>(op)) {
      if (name.empty() || program.getSymName() == name)
        programs.push_back(program);
    } else if (auto func = dyn_cast<func::FuncOp>(op)) {
      if (!func.isExternal() && (name.empty() || func.getSymName() == name))
        funcs.push_back(func);
    }
  }
  SmallVector<Operation *> &pick = programs.empty() ? funcs : programs;
  if (pick.size() != 1) {
    llvm::errs() << "tile-run: " << file << ": "
                 << (pick.empty() ? "no tile.program or func.func"
                                  : "several candidates")
                 << (name.empty() ? "" : " named '" + name.str() + "'")
                 << "; choose one with --entry\n";
    return failure();
  }
  // Refused before anything is allocated: an allocation that fails aborts.
  if (std::optional<std::string> refusal = exceedsHostMemory(
          hostBytesOf(pick.front()), hostMemoryLimitMB << 20)) {
    pick.front()->emitError("cannot run on the host: it ")
        << *refusal << " (--host-memory-limit-mb sets the limit)";
    return failure();
  }
  if (auto program = dyn_cast<ProgramOp>(pick.front()))
    return describeProgram(program);
  return describeFunction(cast<func::FuncOp>(pick.front()));
}

/// Copies of the tensors `r` reads and writes, filled as prepared.
std::vector<HostTensor> tensorsOf(const Runnable &r) {
  std::vector<HostTensor> tensors;
  for (const Param &p : r.params)
    tensors.push_back(p.tensor);
  return tensors;
}

/// Runs `r` on `tensors` (one per param) and returns its outputs.
FailureOr<std::vector<HostTensor>>
run(Runnable &r, std::vector<HostTensor> tensors, Precision precision,
    const llvm::StringMap<int64_t> &tileSizes) {
  if (auto program = dyn_cast<ProgramOp>(r.op)) {
    TileInterpreterOptions options;
    options.precision = precision;
    options.tileSizes = tileSizes;
    if (failed(interpretTileProgram(program, tensors, options)))
      return failure();
    std::vector<HostTensor> outputs;
    for (unsigned i : r.outputs)
      outputs.push_back(std::move(tensors[i]));
    return outputs;
  }
  return interpretLinalgFunction(cast<func::FuncOp>(r.op), tensors, precision);
}

/// tile-run --device: expected outputs on the CPU (the reference, else the
/// program itself in f64), the program lowered into an artifact, which is
/// written and, unless --compile-only, launched.
int runOnDevice(Runnable &runnable, Runnable *reference,
                const std::vector<runtime::TensorInit> &inits,
                const llvm::StringMap<int64_t> &tileSizes,
                const llvm::StringMap<int64_t> &givenSizes) {
  bool emulate = device == "emulate";
  std::optional<runtime::Platform> platform =
      emulate ? runtime::Platform::Cuda : runtime::parsePlatform(device);
  if (!platform)
    return fail("--device takes cpu, cuda, hip or emulate, got '" + device +
                "'");
  auto program = dyn_cast<ProgramOp>(runnable.op);
  if (!program)
    return fail("--device runs tile programs; lower a linalg function with "
                "tile-opt --tile-optimize first");

  FailureOr<std::vector<HostTensor>> expected =
      reference ? run(*reference, tensorsOf(*reference),
                      referencePrecisionFor(/*kernels=*/true), {})
                : run(runnable, tensorsOf(runnable), Precision::F64Casts,
                      tileSizes);
  if (failed(expected))
    return kExitBadInput;
  if (expected->size() != runnable.outputs.size())
    return fail("the program writes " + llvm::Twine(runnable.outputs.size()) +
                " outputs but the reference returns " +
                llvm::Twine(expected->size()));
  std::vector<ExpectedOutput> outputs;
  for (auto [i, tensor] : llvm::enumerate(runnable.outputs))
    outputs.push_back({tensor, std::move((*expected)[i].data)});

  DeviceCompileOptions options;
  options.platform = *platform;
  options.chip = chip;
  // The command line's fields: --gpu-config, then the sizes given with
  // --tile-sizes and an explicit --max-tile-size (the strategy binds the
  // others and may shrink them for the grid).
  GPUConfigAttr given = GPUConfigAttr::get(program.getContext());
  if (!gpuConfig.empty()) {
    std::string error;
    FailureOr<GPUConfigAttr> parsed =
        GPUConfigAttr::parseBody(program.getContext(), gpuConfig, error);
    if (failed(parsed))
      return fail("--gpu-config: " + error);
    given = *parsed;
  }
  for (const auto &entry : givenSizes)
    given = given.withTileSize(entry.getKey(), entry.getValue());
  if (maxTileSize.getNumOccurrences())
    given = given.with("max_tile_size", maxTileSize);
  options.config = given.getBody();
  options.tuning = tuningCache;
  options.seed = seed;
  // f16 (or bf16) storage and f32 arithmetic against an fp64 reference.
  double limit = tolerance.getNumOccurrences()
                     ? tolerance
                     : 1e-2 * kernelToleranceFactor(program);
  options.tolerance = limit;
  options.emulate = emulate;
  GPUConfigAttr loweredConfig;
  OwningOpRef<ModuleOp> lowered;
  FailureOr<runtime::Artifact> artifact = compileArtifact(
      program, options, inits, outputs, &loweredConfig, &lowered);
  if (failed(artifact))
    return kExitBadInput;
  if (loweredConfig)
    llvm::outs() << "gpu config: " << loweredConfig.getBody() << "\n";
  runtime::RunOptions run;
  run.platform = *platform;
  run.tolerance = limit;
  run.time = timeIt;
  if (repetitions.getNumOccurrences())
    run.repetitions = repetitions;
  run.toolName = "tile-run";
  if (!outputDir.empty()) {
    if (compileOnly)
      return fail("--output-dir: --compile-only runs nothing");
    if (std::error_code ec = llvm::sys::fs::create_directories(outputDir))
      return fail("cannot create '" + outputDir + "': " + ec.message());
    run.outputDir = outputDir;
  }
  if (emulate) {
    if (compileOnly || !artifactDir.empty())
      return fail("--device emulate runs in this process; it writes no "
                  "artifact");
    std::unique_ptr<runtime::Device> host =
        createHostEmulation(*lowered, program.getSymName().str() + "_kernels");
    if (!host)
      return kExitBadInput;
    llvm::outs().flush();
    return runtime::runArtifactOn(*artifact, *host, run, std::cout, std::cerr);
  }

  SmallString<128> dir(artifactDir);
  if (dir.empty()) {
    if (llvm::sys::fs::createUniqueDirectory("tile-artifact", dir))
      return fail("cannot create a temporary directory");
  } else if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
    return fail("cannot create '" + dir + "': " + ec.message());
  }
  std::string error;
  if (!runtime::writeArtifact(*artifact, dir.str().str(), error))
    return fail(error);
  // What tuning needs to reproduce this artifact (bench/gpu/tune.py).
  if (!runtime::writeFile((dir + "/tuning.json").str(),
                          tuningEntryJSON(program, options, loweredConfig),
                          error))
    return fail(error);
  if (compileOnly) {
    llvm::outs() << "artifact: " << dir << " (" << artifact->kernels.size()
                 << " kernels)\n";
    if (!emulateCheck)
      return 0;
    // What ships is checked: the same program and options, its kernels run
    // on the host.
    LoweredCheck check = checkLoweredKernels(program, options, inits, outputs);
    bool differs = loweredConfig && loweredConfig.getMma();
    if (check.status == LoweredCheck::Status::Passed) {
      llvm::outs() << "emulation: the kernels match the expected outputs in "
                      "the host emulation"
                   << (differs ? " (lowered with mma=false: the matrix-unit "
                                 "kernels cannot run on the host)"
                               : "")
                   << "\n";
      return 0;
    }
    llvm::outs() << "emulation: FAIL: " << check.detail << "\n";
    return kExitMismatch;
  }
  llvm::outs().flush();
  int status = runtime::runArtifact(dir.str().str(), run, std::cout, std::cerr);
  if (artifactDir.empty())
    llvm::sys::fs::remove_directories(dir);
  return status;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(runCategory);
  cl::SetVersionPrinter(
      [](raw_ostream &os) { tileir::printTileVersion(os, "tile-run"); });
  cl::ParseCommandLineOptions(
      argc, argv,
      "tile-run: run a tile program or a linalg function on seeded random "
      "inputs, and compare it with a reference\n");

  if (maxTileSize < 1)
    return fail("--max-tile-size must be at least 1");
  if (!(tolerance >= 0))
    return fail("--tolerance must be a number at least 0");
  std::optional<Precision> programPrecision = parsePrecision(precision);
  if (!programPrecision ||
      (!referencePrecision.empty() && !parsePrecision(referencePrecision)))
    return fail("--precision and --reference-precision take f64, f64-casts "
                "or f32");

  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  // Diagnostics point at the op; printing the whole program is noise.
  context.printOpOnDiagnostic(false);

  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(inputFile, sourceMgr,
                                                           &context);
  if (!module)
    return kExitBadInput;
  FailureOr<Runnable> runnable = findRunnable(*module, entry, inputFile);
  if (failed(runnable))
    return kExitBadInput;

  OwningOpRef<ModuleOp> refModule;
  std::optional<Runnable> reference;
  llvm::SourceMgr refSourceMgr;
  std::optional<SourceMgrDiagnosticHandler> refDiagHandler;
  if (!referenceFile.empty()) {
    refDiagHandler.emplace(refSourceMgr, &context);
    refModule = parseSourceFile<ModuleOp>(referenceFile, refSourceMgr, &context);
    if (!refModule)
      return kExitBadInput;
    // The function of the same name as the runnable (or, for an
    // optimizer's candidate NAME_cK, NAME), else the only one.
    StringRef name = SymbolTable::getSymbolName(runnable->op).getValue();
    auto namesake = [&](StringRef wanted) {
      bool found = false;
      refModule->walk([&](func::FuncOp f) {
        found |= f.getSymName() == wanted && !f.isExternal();
      });
      return found;
    };
    bool hasNamesake = namesake(name);
    if (!hasNamesake) {
      auto [base, suffix] = name.rsplit("_c");
      if (!suffix.empty() && llvm::all_of(suffix, llvm::isDigit) &&
          namesake(base)) {
        name = base;
        hasNamesake = true;
      }
    }
    FailureOr<Runnable> ref =
        findRunnable(*refModule, hasNamesake ? name : "", referenceFile);
    if (failed(ref))
      return kExitBadInput;
    if (!isa<func::FuncOp>(ref->op))
      return fail("the reference must be a func.func on linalg");
    reference = std::move(*ref);
  }

  // Inputs: the i-th input of the runnable is the i-th argument of the
  // reference; both are filled from the stream of index i.
  std::vector<unsigned> inputs;
  for (auto [i, p] : llvm::enumerate(runnable->params))
    if (p.isInput)
      inputs.push_back(i);
  if (reference && reference->params.size() != inputs.size())
    return fail("the program reads " + llvm::Twine(inputs.size()) +
                " input tensors but the reference takes " +
                llvm::Twine(reference->params.size()) + " arguments");
  llvm::StringMap<InitSpec> overrides;
  for (const std::string &arg : initArgs) {
    size_t eq = arg.find('=');
    std::optional<InitSpec> spec =
        eq == std::string::npos ? std::nullopt
                                : InitSpec::parse(arg.substr(eq + 1));
    if (!spec)
      return fail("--init takes NAME=normal(MEAN, STDDEV) or "
                  "NAME=uniform(LOW, HIGH), got '" + arg + "'");
    overrides[arg.substr(0, eq)] = *spec;
  }
  // --input NAME=@FILE: the caller's values.
  llvm::StringMap<std::string> givenInputs;
  for (const std::string &arg : inputArgs) {
    size_t eq = arg.find("=@");
    if (eq == std::string::npos || eq == 0 || eq + 2 == arg.size())
      return fail("--input takes NAME=@FILE.npy, got '" + arg + "'");
    givenInputs[arg.substr(0, eq)] = arg.substr(eq + 2);
  }
  for (const auto &entry : givenInputs)
    if (llvm::none_of(inputs, [&](unsigned index) {
          return runnable->params[index].name == entry.getKey();
        }))
      return fail("--input " + entry.getKey() +
                  ": the program has no input named '" + entry.getKey() + "'");
  std::vector<runtime::TensorInit> inputInits(runnable->params.size());
  for (auto [k, index] : llvm::enumerate(inputs)) {
    Param &p = runnable->params[index];
    Param *ref = reference ? &reference->params[k] : nullptr;
    if (ref && (ref->tensor.shape != p.tensor.shape ||
                ref->tensor.elementKind != p.tensor.elementKind))
      return fail("input '" + p.name + "' (" + shapeString(p.tensor.shape) +
                  "x" + toString(p.tensor.elementKind) +
                  ") does not match reference argument '" + ref->name + "' (" +
                  shapeString(ref->tensor.shape) + "x" +
                  toString(ref->tensor.elementKind) + ")");
    InitSpec spec = defaultInitFor(ref ? ref->name : p.name);
    if (auto it = overrides.find(p.name); it != overrides.end())
      spec = it->second;
    else if (ref && ref->declaredInit)
      spec = *ref->declaredInit;
    else if (p.declaredInit)
      spec = *p.declaredInit;
    if (auto it = givenInputs.find(p.name); it != givenInputs.end()) {
      std::string error;
      if (!runtime::readNpyAs(it->second, p.tensor.elementKind, p.tensor.shape,
                              "input '" + p.name + "'", p.tensor.data, error))
        return fail(error);
      inputInits[index] = runtime::TensorInit::data(p.tensor.data);
    } else {
      fillRandom(p.tensor, seed, k, spec);
      inputInits[index] = runtime::TensorInit::random(unsigned(k), spec);
    }
    if (ref)
      ref->tensor.data = p.tensor.data;
  }

  llvm::StringMap<int64_t> givenSizes;
  if (std::optional<std::string> bad =
          parseTileSizeAssignments(tileSizeArgs, givenSizes))
    return fail("--tile-sizes takes NAME=N with N > 0, got '" + *bad + "'");
  llvm::StringMap<int64_t> tileSizes;
  if (auto program = dyn_cast<ProgramOp>(runnable->op))
    tileSizes = chooseDefaultTileSizes(program, maxTileSize);
  for (const auto &entry : givenSizes)
    tileSizes[entry.getKey()] = entry.getValue();

  if (device != "cpu")
    return runOnDevice(*runnable, reference ? &*reference : nullptr,
                       inputInits, tileSizes, givenSizes);

  FailureOr<std::vector<HostTensor>> outputs =
      run(*runnable, tensorsOf(*runnable), *programPrecision, tileSizes);
  if (failed(outputs))
    return kExitBadInput;

  if (timeIt) {
    std::vector<double> micros;
    for (unsigned i = 0; i < std::max(1u, unsigned(repetitions)); ++i) {
      std::vector<HostTensor> fresh = tensorsOf(*runnable);
      auto start = std::chrono::steady_clock::now();
      (void)run(*runnable, std::move(fresh), *programPrecision, tileSizes);
      micros.push_back(std::chrono::duration<double, std::micro>(
                           std::chrono::steady_clock::now() - start)
                           .count());
    }
    llvm::sort(micros);
    llvm::outs() << llvm::format("median_us=%.1f\n", micros[micros.size() / 2]);
  }

  if (!outputDir.empty()) {
    if (std::error_code ec = llvm::sys::fs::create_directories(outputDir))
      return fail("cannot create '" + outputDir + "': " + ec.message());
    for (auto [name, out] : llvm::zip(runnable->outputNames, *outputs)) {
      std::string error;
      if (!runtime::writeNpy(outputDir + "/" + name + ".npy", out.elementKind,
                             out.shape, out.data, error))
        return fail(error);
    }
  }

  if (!reference) {
    for (auto [name, out] : llvm::zip(runnable->outputNames, *outputs)) {
      double sum = 0, maxAbs = 0;
      for (double v : out.data)
        sum += v, maxAbs = std::max(maxAbs, std::fabs(v));
      llvm::outs() << name << ": shape=" << shapeString(out.shape)
                   << llvm::format(" sum=%.6g max_abs=%.6g\n", sum, maxAbs);
    }
    return 0;
  }

  FailureOr<std::vector<HostTensor>> expected =
      run(*reference, tensorsOf(*reference),
          referencePrecisionFor(/*kernels=*/false), {});
  if (failed(expected))
    return kExitBadInput;
  if (expected->size() != outputs->size())
    return fail("the program writes " + llvm::Twine(outputs->size()) +
                " outputs but the reference returns " +
                llvm::Twine(expected->size()));
  bool pass = true;
  double programFloor = comparisonFloorOf(runnable->op);
  for (size_t i = 0; i < outputs->size(); ++i) {
    const HostTensor &out = (*outputs)[i], &ref = (*expected)[i];
    const std::string &name = runnable->outputNames[i];
    if (out.shape != ref.shape)
      return fail("output '" + name + "' has shape " + shapeString(out.shape) +
                  " but reference result #" + llvm::Twine(i) + " has " +
                  shapeString(ref.shape));
    Comparison cmp;
    cmp.add(out.data.data(), ref.data.data(), out.data.size());
    double floor = std::max(comparisonFloor(out.elementKind), programFloor);
    double maxErr = cmp.maxAbsError, rel = cmp.relativeError(floor);
    bool finite = cmp.finite(), ok = cmp.passes(tolerance, floor);
    pass &= ok;
    llvm::outs() << name << ": shape=" << shapeString(out.shape)
                 << llvm::format(" max_abs_err=%.3e max_rel_err=%.3e ", maxErr,
                                 rel)
                 << (ok ? "ok" : finite ? "MISMATCH" : "NOT-FINITE") << "\n";
  }
  llvm::outs() << (pass ? "PASS" : "FAIL") << ": " << outputs->size()
               << " outputs, tolerance " << llvm::format("%g", tolerance.getValue())
               << ", seed " << seed << "\n";
  return pass ? 0 : kExitMismatch;
}
