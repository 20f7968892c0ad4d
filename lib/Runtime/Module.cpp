//===- Module.cpp - An artifact loaded for a caller to run ----------------===//

#include "TileDialect/Runtime/Module.h"
#include "TileDialect/Runtime/ElementBits.h"

#include <algorithm>
#include <map>

using namespace mlir::tileir;
using namespace mlir::tileir::runtime;

/// Dynamic shared memory a kernel may use without opting in.
static constexpr unsigned kDefaultSharedMemLimit = 48 * 1024;

bool runtime::isArgumentRole(TensorRole role) {
  return role == TensorRole::Input || role == TensorRole::Inout ||
         role == TensorRole::Output;
}

std::unique_ptr<Module> Module::load(const Artifact &artifact, Device &device,
                                     const ModuleOptions &options,
                                     std::string &error) {
  std::unique_ptr<Module> module(new Module(artifact, device, options));
  if (!module->prepare()) {
    error = module->error();
    return nullptr;
  }
  return module;
}

bool Module::fail(const std::string &context, const std::string &why) {
  errorMessage = context + why;
  return false;
}

bool Module::prepare() {
  if (!device.loadModule(artifact.binary))
    return deviceFailure("loading " + artifact.binaryFile + ": ");
  device.setProgrammaticLaunch(artifact.programmaticLaunch &&
                               !options.plainLaunch);
  std::map<std::string, KernelHandle> bySymbol;
  std::map<std::string, unsigned> sharedLimit;
  for (size_t i = 0; i < artifact.kernels.size(); ++i) {
    const KernelLaunch &kernel = artifact.kernels[i];
    std::string context = "kernel '" + kernel.symbol + "' (launch #" +
                          std::to_string(i) + "): ";
    auto it = bySymbol.find(kernel.symbol);
    if (it == bySymbol.end()) {
      KernelHandle handle;
      if (!device.getFunction(kernel.symbol, handle))
        return deviceFailure(context);
      it = bySymbol.emplace(kernel.symbol, handle).first;
    }
    functions.push_back(it->second);
    unsigned &limit = sharedLimit[kernel.symbol];
    if (kernel.sharedMemBytes > std::max(limit, kDefaultSharedMemLimit)) {
      if (!device.setMaxDynamicSharedMemory(it->second, kernel.sharedMemBytes))
        return deviceFailure(context);
      limit = kernel.sharedMemBytes;
    }
  }

  size_t numTensors = artifact.tensors.size();
  buffers.assign(numTensors, 0);
  arenaSlice.assign(numTensors, std::nullopt);
  for (size_t i = 0; i < numTensors; ++i)
    if (isArgumentRole(artifact.tensors[i].role))
      arguments.push_back(i);

  // The module's zero-start tensors (and, when asked, the outputs) share
  // one allocation of 256-byte aligned slices, so that one memset clears
  // them all (one node in a graph); those cleared every call come first.
  auto inArena = [&](const TensorDecl &t) {
    return t.init.kind == TensorInit::Zero &&
           (!isArgumentRole(t.role) || options.ownZeroArguments);
  };
  uint64_t zeroBytes = 0;
  std::vector<uint64_t> offset(numTensors, 0);
  for (bool once : {false, true}) {
    for (size_t i = 0; i < numTensors; ++i) {
      const TensorDecl &t = artifact.tensors[i];
      // In the arena, a `zero once` tensor is the launches' to clear; an
      // output the caller binds is cleared every call whatever the manifest
      // says (clear()).
      bool isOnce = t.init.once;
      if (!inArena(t) || isOnce != once)
        continue;
      offset[i] = zeroBytes;
      zeroBytes += (t.byteSize() + 255) / 256 * 256;
      numOnce += once;
    }
    if (!once)
      perCallZeroBytes = zeroBytes;
  }
  if (zeroBytes && !device.allocate(zeroBytes, zeroArena))
    return deviceFailure("the tensors that start as zeros: ");
  for (size_t i = 0; i < numTensors; ++i) {
    const TensorDecl &t = artifact.tensors[i];
    if (inArena(t)) {
      buffers[i] = zeroArena + offset[i];
      arenaSlice[i] = buffers[i];
      continue;
    }
    if (isArgumentRole(t.role))
      continue;
    // An intermediate with initial values of its own: positions are filled
    // here, once (no launch writes them); other values are the caller's.
    DevicePtr ptr;
    if (!device.allocate(t.byteSize(), ptr))
      return deviceFailure("tensor '" + t.name + "': ");
    buffers[i] = ptr;
    if (t.init.kind == TensorInit::Positions) {
      std::string bytes(t.byteSize(), '\0');
      std::vector<double> values = initialValues(t, 0).data;
      encodeElements(t.elementKind, values.data(), t.numElements(),
                     bytes.data());
      if (!device.copyToDevice(ptr, bytes.data(), bytes.size()))
        return deviceFailure("tensor '" + t.name + "': ");
    }
  }
  // The `zero once` tensors start cleared; the launches keep them so.
  if (zeroBytes > perCallZeroBytes &&
      (!device.fillZero(zeroArena + perCallZeroBytes,
                        zeroBytes - perCallZeroBytes) ||
       !device.synchronize()))
    return deviceFailure("the tensors the launches clear: ");
  return true;
}

int Module::findArgument(const std::string &name) const {
  for (size_t i = 0; i < arguments.size(); ++i)
    if (artifact.tensors[arguments[i]].name == name)
      return int(i);
  return -1;
}

bool Module::bind(unsigned index, DevicePtr ptr) {
  if (index >= arguments.size())
    return fail("", "no argument #" + std::to_string(index) + " (the module "
                    "has " + std::to_string(arguments.size()) + ")");
  if (!ptr)
    return fail("", "argument '" + artifact.tensors[arguments[index]].name +
                        "': a null buffer");
  buffers[arguments[index]] = ptr;
  return true;
}

bool Module::clear() {
  if (perCallZeroBytes && !device.fillZero(zeroArena, perCallZeroBytes))
    return deviceFailure("the tensors that start as zeros: ");
  // The caller's outputs: each cleared on its own.
  for (unsigned tensor : arguments) {
    const TensorDecl &t = artifact.tensors[tensor];
    if (t.init.kind != TensorInit::Zero || buffers[tensor] == arenaSlice[tensor])
      continue;
    if (!device.fillZero(buffers[tensor], t.byteSize()))
      return deviceFailure("output '" + t.name + "': ");
  }
  return true;
}

bool Module::launch(size_t i) {
  const KernelLaunch &kernel = artifact.kernels[i];
  std::vector<DevicePtr> args;
  args.reserve(kernel.args.size());
  for (unsigned arg : kernel.args)
    args.push_back(buffers[arg]);
  if (!device.launch(functions[i], kernel.grid, kernel.block,
                     kernel.sharedMemBytes, args))
    return deviceFailure("kernel '" + kernel.symbol + "' (launch #" +
                         std::to_string(i) + "): ");
  return true;
}

std::optional<unsigned> Module::findUnbound() const {
  for (size_t i = 0; i < arguments.size(); ++i)
    if (!buffers[arguments[i]])
      return unsigned(i);
  return std::nullopt;
}

bool Module::run() {
  if (std::optional<unsigned> i = findUnbound())
    return fail("", "argument '" + artifact.tensors[arguments[*i]].name +
                        "' is not bound");
  if (!clear())
    return false;
  for (size_t i = 0; i < artifact.kernels.size(); ++i)
    if (!launch(i))
      return false;
  return true;
}
