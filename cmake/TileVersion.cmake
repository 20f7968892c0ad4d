# The project's version and the git revision it was built from.
#
# include/TileDialect/Version.h (configured) holds TILE_VERSION, the project()
# version; include/TileDialect/VCSRevision.h (regenerated whenever git's HEAD
# moves, by LLVM's GenerateVersionFromVCS.cmake) holds TILE_REVISION and
# TILE_REPOSITORY. Both are plain C headers: the runtime and tile-gpu-run,
# which do not link LLVM, print them too. Target TileVCSRevision makes the
# second; whatever includes it depends on that target.

configure_file(${PROJECT_SOURCE_DIR}/include/TileDialect/Version.h.in
  ${PROJECT_BINARY_DIR}/include/TileDialect/Version.h @ONLY)

set(tile_vcs_header ${PROJECT_BINARY_DIR}/include/TileDialect/VCSRevision.h)
set(tile_vcs_depends)
if(EXISTS ${PROJECT_SOURCE_DIR}/.git/logs/HEAD)
  list(APPEND tile_vcs_depends ${PROJECT_SOURCE_DIR}/.git/logs/HEAD)
endif()
add_custom_command(OUTPUT ${tile_vcs_header}
  COMMAND ${CMAKE_COMMAND} -DNAMES=TILE
    -DTILE_SOURCE_DIR=${PROJECT_SOURCE_DIR}
    -DHEADER_FILE=${tile_vcs_header}
    -P ${LLVM_CMAKE_DIR}/GenerateVersionFromVCS.cmake
  DEPENDS ${tile_vcs_depends} ${LLVM_CMAKE_DIR}/GenerateVersionFromVCS.cmake
  COMMENT "Recording the git revision in VCSRevision.h"
  VERBATIM)
add_custom_target(TileVCSRevision DEPENDS ${tile_vcs_header})
