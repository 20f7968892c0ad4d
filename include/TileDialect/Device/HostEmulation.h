//===- HostEmulation.h - tile-run --device emulate -------------*- C++ -*-===//
//
// Runs the kernels of a lowered tile program on the CPU: the module after
// --tile-lower-to-gpu goes through --tile-gpu-to-host (blocks and threads
// one after another), is lowered to LLVM and JIT-compiled, and a
// runtime::Device whose memory is host memory and whose launches call the
// compiled kernels runs the artifact exactly as a GPU would (same inputs,
// same checks). It checks what the kernels compute, not how fast.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_DEVICE_HOSTEMULATION_H
#define TILEDIALECT_DEVICE_HOSTEMULATION_H

#include "TileDialect/Runtime/Device.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <memory>

namespace mlir::tileir {

/// Compiles `module` (the output of --tile-lower-to-gpu, consumed) for the
/// host and returns a device that runs its kernels; emits a diagnostic and
/// returns null on failure. `kernelModule` is the name of the gpu.module
/// whose kernels the artifact launches.
std::unique_ptr<runtime::Device> createHostEmulation(ModuleOp module,
                                                     StringRef kernelModule);

} // namespace mlir::tileir

#endif // TILEDIALECT_DEVICE_HOSTEMULATION_H
