# What `cmake --install` puts in the prefix (docs/Ecosystem.md):
#   bin/      tile-opt, tile-run, tile-prove, tile-gpu-run
#   lib/      the static libraries, TilePlugin.so
#   include/  TileDialect/ (headers, ODS, generated .inc), tile-c/ (C API)
#   lib/cmake/TileDialect/  the package: TileDialectConfig.cmake,
#             TileDialectConfigVersion.cmake, TileDialectTargets.cmake
# Included at the end of the top-level CMakeLists.txt, once every target
# exists. The libraries install themselves (add_mlir_library) into the export
# set MLIRTargets, which is installed here under the TileDialect:: namespace.

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# The tools load the shared libMLIR and libLLVM of the installation they were
# built against; the build tree's rpath is dropped on install, so name it.
set_target_properties(tile-opt tile-run tile-prove TilePlugin PROPERTIES
  INSTALL_RPATH "${LLVM_LIBRARY_DIR}")
install(TARGETS tile-opt tile-run tile-prove tile-gpu-run
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS TilePlugin LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/TileDialect
    ${PROJECT_SOURCE_DIR}/include/tile-c
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h" PATTERN "*.td" PATTERN "*.def")
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/TileDialect
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h" PATTERN "*.inc"
  PATTERN "CMakeFiles" EXCLUDE)

get_property(TILE_EXPORTED_LIBRARIES GLOBAL PROPERTY MLIR_EXPORTS)
list(APPEND TILE_EXPORTED_LIBRARIES TileRuntime)
set(TILE_PACKAGE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/TileDialect)
install(EXPORT MLIRTargets
  FILE TileDialectTargets.cmake
  NAMESPACE TileDialect::
  DESTINATION ${TILE_PACKAGE_DIR})
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/TileDialectConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/TileDialectConfig.cmake
  INSTALL_DESTINATION ${TILE_PACKAGE_DIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_LIBDIR CMAKE_INSTALL_BINDIR)
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/cmake/TileDialectConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/cmake/TileDialectConfig.cmake
  ${PROJECT_BINARY_DIR}/cmake/TileDialectConfigVersion.cmake
  DESTINATION ${TILE_PACKAGE_DIR})
