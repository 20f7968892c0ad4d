//===- DynamicLibrary.h - Entry points resolved with dlsym ------*- C++ -*-===//
//
// Private to lib/Runtime: the driver libraries are opened with dlopen so that
// nothing links against them.
//
//===----------------------------------------------------------------------===//

#ifndef TILEDIALECT_LIB_RUNTIME_DYNAMICLIBRARY_H
#define TILEDIALECT_LIB_RUNTIME_DYNAMICLIBRARY_H

#include <dlfcn.h>
#include <initializer_list>
#include <string>

namespace mlir::tileir::runtime {

/// Sets `slot` to the first of `names` that `library` defines; otherwise
/// sets `missing` to the first name and returns false.
template <typename Fn>
bool resolveSymbol(void *library, Fn &slot,
                   std::initializer_list<const char *> names,
                   std::string &missing) {
  for (const char *name : names)
    if (void *symbol = dlsym(library, name)) {
      slot = reinterpret_cast<Fn>(symbol);
      return true;
    }
  missing = *names.begin();
  return false;
}

/// dlopens the first of `names` that loads, or returns null.
inline void *openLibrary(std::initializer_list<const char *> names) {
  for (const char *name : names)
    if (void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL))
      return library;
  return nullptr;
}

} // namespace mlir::tileir::runtime

#endif // TILEDIALECT_LIB_RUNTIME_DYNAMICLIBRARY_H
