//===- TempDir.h - A temporary directory for the runtime's unit tests -----===//

#ifndef TILEDIALECT_UNITTESTS_RUNTIME_TEMPDIR_H
#define TILEDIALECT_UNITTESTS_RUNTIME_TEMPDIR_H

#include <cstdlib>
#include <string>
#include <unistd.h>

namespace mlir::tileir::testing {

/// A fresh directory /tmp/tile-test-XXXXXX, removed with its files at the
/// end.
struct TempDir {
  std::string path;
  TempDir() {
    char name[] = "/tmp/tile-test-XXXXXX";
    path = mkdtemp(name);
  }
  ~TempDir() { (void)std::system(("rm -rf " + path).c_str()); }
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;
};

} // namespace mlir::tileir::testing

#endif // TILEDIALECT_UNITTESTS_RUNTIME_TEMPDIR_H
