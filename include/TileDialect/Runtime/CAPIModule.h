//===- CAPIModule.h - The C API's module for C++ clients -------*- C++ -*-===//
//
// What the runtime's own C++ clients (tile-gpu-run's runner, tile-run's host
// emulation) need beside the C API (tile-c/Runtime.h), which they use for
// everything else: a TileModule on a device and artifact they already hold,
// and access to those. Not exported from libtile_runtime.so.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_RUNTIME_CAPIMODULE_H
#define TILEDIALECT_RUNTIME_CAPIMODULE_H

#include "TileDialect/Runtime/Module.h"
#include "tile-c/Runtime.h"

namespace mlir::tileir::runtime {

/// tileModuleLoadWithOptions for an artifact read and a device opened by the
/// caller (the host emulation, which the C API cannot open): the module
/// borrows both, which must outlive it.
TileStatus loadModuleOn(const Artifact &artifact, Device &device,
                        const TileLoadOptions *options, TileModule **module);

/// The device `module` runs on (the one it opened, or the caller's) and its
/// artifact.
Device &getDevice(TileModule *module);
const Artifact &getArtifact(const TileModule *module);
/// The module underneath, for what the C API does not show: the buffers of
/// tensors that are not arguments, the tensors the launches clear.
const Module &getModule(const TileModule *module);

} // namespace mlir::tileir::runtime

#endif // TILEDIALECT_RUNTIME_CAPIMODULE_H
