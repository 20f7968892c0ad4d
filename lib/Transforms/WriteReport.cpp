//===- WriteReport.cpp - Report files of the tile passes ------------------===//

#include "WriteReport.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;

LogicalResult tileir::writeText(Operation *anchor, StringRef path,
                                llvm::function_ref<void(raw_ostream &)> write) {
  if (path == "-") {
    write(llvm::outs());
    return success();
  }
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(path, &error);
  if (!file)
    return anchor->emitError("cannot write '") << path << "': " << error;
  write(file->os());
  file->keep();
  return success();
}

LogicalResult tileir::writeJSON(Operation *anchor, StringRef path,
                                llvm::json::Value value) {
  return writeText(anchor, path, [&](raw_ostream &os) {
    os << llvm::formatv("{0:2}", value) << "\n";
  });
}
