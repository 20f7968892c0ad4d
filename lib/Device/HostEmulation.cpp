//===- HostEmulation.cpp - tile-run --device emulate ----------------------===//

#include "TileDialect/Device/HostEmulation.h"

#include "TileDialect/Conversion/Passes.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/TargetSelect.h"

#include <chrono>
#include <cstring>
#include <deque>

using namespace mlir;
using namespace mlir::tileir;
using namespace mlir::tileir::runtime;

namespace {

/// A device whose memory is host memory and whose kernels are host
/// functions `void(void **args)` (packed: one pointer per argument, the
/// block index x, y, z last).
class HostDevice : public Device {
public:
  HostDevice(std::unique_ptr<ExecutionEngine> engine, std::string prefix)
      : engine(std::move(engine)), prefix(std::move(prefix)) {
    information = {"host emulation of the GPU kernels", "host", "mlir-jit"};
  }

  const DeviceInfo &info() const override { return information; }
  bool loadModule(const std::string &) override { return true; }
  bool getFunction(const std::string &symbol, KernelHandle &kernel) override {
    auto fn = engine->lookupPacked(prefix + symbol);
    if (!fn) {
      errorMessage = "no emulated kernel '" + symbol +
                     "': " + llvm::toString(fn.takeError());
      return false;
    }
    kernels.push_back(*fn);
    kernel = &kernels.back();
    return true;
  }
  bool setMaxDynamicSharedMemory(KernelHandle, unsigned) override {
    return true;
  }
  bool launch(KernelHandle kernel, const unsigned grid[3], const unsigned[3],
              unsigned, const std::vector<DevicePtr> &args) override {
    auto fn = *static_cast<void (**)(void **)>(kernel);
    std::vector<void *> pointers;
    for (DevicePtr arg : args)
      pointers.push_back(reinterpret_cast<void *>(arg));
    int64_t ids[3];
    std::vector<void *> packed;
    for (void *&p : pointers)
      packed.push_back(&p);
    for (int64_t &id : ids)
      packed.push_back(&id);
    for (unsigned z = 0; z < grid[2]; ++z)
      for (unsigned y = 0; y < grid[1]; ++y)
        for (unsigned x = 0; x < grid[0]; ++x) {
          ids[0] = x;
          ids[1] = y;
          ids[2] = z;
          fn(packed.data());
        }
    return true;
  }
  bool allocate(uint64_t bytes, DevicePtr &ptr) override {
    // 256-byte aligned, as cudaMalloc's and hipMalloc's allocations are:
    // the kernels' vector accesses state alignments the lowering derived
    // from that (a vector<8xf32> store is 32-byte aligned), which the
    // host's aligned vector instructions fault on otherwise.
    memory.emplace_back((bytes + sizeof(Chunk) - 1) / sizeof(Chunk) + 1);
    ptr = reinterpret_cast<DevicePtr>(memory.back().data());
    return true;
  }
  bool copyToDevice(DevicePtr dst, const void *src, uint64_t bytes) override {
    std::memcpy(reinterpret_cast<void *>(dst), src, bytes);
    return true;
  }
  bool copyToHost(void *dst, DevicePtr src, uint64_t bytes) override {
    std::memcpy(dst, reinterpret_cast<const void *>(src), bytes);
    return true;
  }
  bool fillZero(DevicePtr dst, uint64_t bytes) override {
    std::memset(reinterpret_cast<void *>(dst), 0, bytes);
    return true;
  }
  bool synchronize() override { return true; }
  bool createEvent(EventHandle &event) override {
    events.emplace_back();
    event = &events.back();
    return true;
  }
  bool recordEvent(EventHandle event) override {
    *static_cast<Clock::time_point *>(event) = Clock::now();
    return true;
  }
  bool elapsedMs(EventHandle start, EventHandle end, float &ms) override {
    ms = std::chrono::duration<float, std::milli>(
             *static_cast<Clock::time_point *>(end) -
             *static_cast<Clock::time_point *>(start))
             .count();
    return true;
  }

private:
  using Clock = std::chrono::steady_clock;
  struct alignas(256) Chunk {
    char bytes[256];
  };
  std::unique_ptr<ExecutionEngine> engine;
  std::string prefix;
  DeviceInfo information;
  std::deque<void (*)(void **)> kernels;
  std::deque<std::vector<Chunk>> memory;
  std::deque<Clock::time_point> events;
};

/// f32 to bf16, rounded to nearest even (NaN stays a quiet NaN). LLVM's x86
/// backend holds bf16 values that cross blocks (the pipelined loads' loop
/// arguments) as f32 and rounds them back with a call to compiler-rt's
/// `__truncsfbf2`, which the JIT's process does not link: the emulation
/// gives it this one.
__bf16 tileEmulationTruncSFBF2(float x) {
  uint32_t bits;
  std::memcpy(&bits, &x, sizeof(bits));
  uint16_t result;
  if ((bits & 0x7fffffffu) > 0x7f800000u)
    result = uint16_t((bits >> 16) | 0x40u);
  else
    result = uint16_t((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);
  __bf16 value;
  std::memcpy(&value, &result, sizeof(value));
  return value;
}

} // namespace

std::unique_ptr<Device> tileir::createHostEmulation(ModuleOp module,
                                                    StringRef kernelModule) {
  MLIRContext *ctx = module.getContext();
  // The launch function's tile.* argument annotations mean nothing to LLVM.
  module.walk([](func::FuncOp f) {
    for (unsigned i = 0, e = f.getNumArguments(); i < e; ++i)
      f.setArgAttrs(i, ArrayRef<NamedAttribute>{});
  });
  PassManager pm(ctx);
  pm.addPass(createTileGPUToHost());
  pm.addPass(createSCFToControlFlowPass());
  arith::ArithExpandOpsPassOptions expand;
  expand.includeBf16 = true;
  pm.addPass(arith::createArithExpandOpsPass(expand));
  // glibc has no rsqrtf: 1 / sqrt(x), as the GPU's rsqrt approximates.
  math::MathExpandOpsPassOptions mathExpand;
  mathExpand.opMnemonics = {"rsqrt"};
  pm.addPass(math::createMathExpandOpsPass(mathExpand));
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  ConvertFuncToLLVMPassOptions func;
  func.useBarePtrCallConv = true;
  pm.addPass(createConvertFuncToLLVMPass(func));
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  if (failed(pm.run(module)))
    return nullptr;

  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  registerBuiltinDialectTranslation(*ctx);
  registerLLVMDialectTranslation(*ctx);
  auto optimize = makeOptimizingTransformer(2, 0, nullptr);
  ExecutionEngineOptions options;
  options.transformer = optimize;
  auto engine = ExecutionEngine::create(module, options);
  if (!engine) {
    emitError(module.getLoc(), "cannot compile the emulated kernels: ")
        << llvm::toString(engine.takeError());
    return nullptr;
  }
  (*engine)->registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap symbols;
    symbols[interner("__truncsfbf2")] = {
        llvm::orc::ExecutorAddr::fromPtr(&tileEmulationTruncSFBF2),
        llvm::JITSymbolFlags::Exported};
    return symbols;
  });
  return std::make_unique<HostDevice>(std::move(*engine),
                                      (kernelModule + "__").str());
}
