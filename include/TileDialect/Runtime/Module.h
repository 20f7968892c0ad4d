//===- Module.h - An artifact loaded for a caller to run ------*- C++ -*-===//
//
// What a program that calls the kernels needs, under the C API
// (tile-c/Runtime.h), whose clients include tile-gpu-run's runner:
//
// - the artifact's kernels loaded on a device;
// - its arguments (inputs, inouts, outputs) bound to the caller's device
//   buffers;
// - its intermediates and scratch tensors in buffers the module owns,
//   allocated once and reused by every call;
// - one call: clear what starts as zeros, then launch the kernels in order,
//   asynchronously on the device's current stream, without waiting (so a
//   call can be captured into a CUDA graph).
//
// No MLIR or LLVM types.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_RUNTIME_MODULE_H
#define TILEDIALECT_RUNTIME_MODULE_H

#include "TileDialect/Runtime/Artifact.h"
#include "TileDialect/Runtime/Device.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::tileir::runtime {

/// Whether the caller binds `role`'s tensors (inputs, inouts, outputs) or
/// the module owns them (intermediates, scratch).
bool isArgumentRole(TensorRole role);

struct ModuleOptions {
  /// The module also allocates and binds the arguments that start as
  /// zeros (the outputs), next to its own zero-start tensors, so that one
  /// memset clears them all: tile-gpu-run's layout. Off for callers, who
  /// bind their own outputs.
  bool ownZeroArguments = false;
  /// Launch every kernel on its own even where the artifact allows
  /// programmatic launches.
  bool plainLaunch = false;
};

class Module {
public:
  /// Loads `artifact` on `device`, which must outlive the module: the
  /// binary, the kernels, and the module's own buffers. The tensors that the
  /// launches clear themselves (`zero once`) are cleared here, once. Returns
  /// null and sets `error` on failure.
  static std::unique_ptr<Module> load(const Artifact &artifact, Device &device,
                                      const ModuleOptions &options,
                                      std::string &error);

  /// The arguments: indices into the artifact's tensors, in manifest order.
  const std::vector<unsigned> &getArguments() const { return arguments; }
  /// The argument named `name`, or -1.
  int findArgument(const std::string &name) const;
  /// Binds argument `index` to the caller's buffer at `ptr`, which must hold
  /// the whole tensor, dense and row-major.
  bool bind(unsigned index, DevicePtr ptr);
  /// The buffer of tensor `tensor` (an index into the artifact's tensors):
  /// the bound one, the module's own, or 0 if unbound.
  DevicePtr getBuffer(unsigned tensor) const { return buffers[tensor]; }
  /// The first argument (an index into getArguments()) not bound yet.
  std::optional<unsigned> findUnbound() const;
  /// The number of tensors the launches clear themselves.
  unsigned getNumClearedByLaunches() const { return numOnce; }

  /// One call's first step: clears the tensors that start as zeros for this
  /// call (the module's own and the bound outputs).
  bool clear();
  /// Launches kernel `i` (in the artifact's order) on its buffers.
  bool launch(size_t i);
  /// One call: clear(), then every launch; asynchronous. Fails, touching
  /// nothing, if an argument is unbound.
  bool run();

  /// The last failure: what failed and why.
  const std::string &error() const { return errorMessage; }

private:
  Module(const Artifact &artifact, Device &device, const ModuleOptions &options)
      : artifact(artifact), device(device), options(options) {}
  bool prepare();
  bool fail(const std::string &context, const std::string &why);
  bool deviceFailure(const std::string &context) {
    return fail(context, device.error());
  }

  const Artifact &artifact;
  Device &device;
  ModuleOptions options;
  std::vector<unsigned> arguments;
  /// Per tensor: its buffer (0: an argument not bound yet).
  std::vector<DevicePtr> buffers;
  std::vector<KernelHandle> functions;
  /// The module's zero-start tensors share one allocation: first those
  /// cleared every call (`perCallZeroBytes`), then the `zero once` ones.
  DevicePtr zeroArena = 0;
  uint64_t perCallZeroBytes = 0;
  /// Per tensor: its slice of the arena, if it has one.
  std::vector<std::optional<DevicePtr>> arenaSlice;
  unsigned numOnce = 0;
  std::string errorMessage;
};

} // namespace mlir::tileir::runtime

#endif // TILEDIALECT_RUNTIME_MODULE_H
