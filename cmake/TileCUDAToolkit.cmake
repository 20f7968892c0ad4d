# The CUDA toolkit the nvvm pipeline uses by default: ptxas (cubins) and
# libdevice (math functions, linked into every module). gpu-module-to-binary
# expects both under one directory (bin/ptxas, nvvm/libdevice/libdevice.10.bc).
#
# Sets TILE_CUDA_TOOLKIT_DIR to such a directory, or to "" when ptxas or
# libdevice is missing (the nvvm pipeline then falls back to $CUDA_HOME and the
# tests that make PTX or cubins are unsupported). A toolkit laid out otherwise
# (a ptxas wrapper on PATH, Debian's nvidia-cuda-toolkit) is assembled in the
# build tree from links. -DTILE_CUDA_TOOLKIT_DIR=DIR chooses one by hand.

set(TILE_CUDA_TOOLKIT_DIR "" CACHE PATH
  "CUDA toolkit for the nvvm pipeline (bin/ptxas, nvvm/libdevice); empty: search")

function(tile_is_cuda_toolkit dir result)
  if(EXISTS "${dir}/bin/ptxas" AND EXISTS "${dir}/nvvm/libdevice/libdevice.10.bc")
    set(${result} TRUE PARENT_SCOPE)
  else()
    set(${result} FALSE PARENT_SCOPE)
  endif()
endfunction()

function(tile_find_cuda_toolkit result)
  # Whole toolkits first, the conventional places in order.
  file(GLOB versioned LIST_DIRECTORIES true /usr/local/cuda-*)
  list(SORT versioned COMPARE NATURAL ORDER DESCENDING)
  set(candidates "$ENV{CUDA_HOME}" "$ENV{CUDA_PATH}" "$ENV{CUDA_ROOT}"
    /usr/local/cuda ${versioned} /opt/cuda)
  find_program(ptxas ptxas NO_CACHE)
  if(ptxas)
    # The toolkit around the ptxas on PATH, through links.
    get_filename_component(real "${ptxas}" REALPATH)
    get_filename_component(bin "${real}" DIRECTORY)
    get_filename_component(root "${bin}" DIRECTORY)
    list(INSERT candidates 0 "${root}")
  endif()
  foreach(dir IN LISTS candidates)
    if(dir)
      tile_is_cuda_toolkit("${dir}" ok)
      if(ok)
        set(${result} "${dir}" PARENT_SCOPE)
        return()
      endif()
    endif()
  endforeach()

  # Pieces in other places: assemble a toolkit from links.
  find_file(libdevice libdevice.10.bc NO_CACHE
    PATHS /usr/lib/nvidia-cuda-toolkit /usr/lib/cuda /usr/share/cuda
    PATH_SUFFIXES nvvm/libdevice libdevice)
  if(ptxas AND libdevice)
    set(dir "${CMAKE_BINARY_DIR}/cuda-toolkit")
    file(MAKE_DIRECTORY "${dir}/bin" "${dir}/nvvm/libdevice")
    file(CREATE_LINK "${ptxas}" "${dir}/bin/ptxas" SYMBOLIC)
    file(CREATE_LINK "${libdevice}" "${dir}/nvvm/libdevice/libdevice.10.bc" SYMBOLIC)
    set(${result} "${dir}" PARENT_SCOPE)
    return()
  endif()
  set(${result} "" PARENT_SCOPE)
endfunction()

if(TILE_CUDA_TOOLKIT_DIR)
  tile_is_cuda_toolkit("${TILE_CUDA_TOOLKIT_DIR}" ok)
  if(NOT ok)
    message(FATAL_ERROR "TILE_CUDA_TOOLKIT_DIR=${TILE_CUDA_TOOLKIT_DIR} has no "
      "bin/ptxas and nvvm/libdevice/libdevice.10.bc")
  endif()
  set(TILE_CUDA_TOOLKIT "${TILE_CUDA_TOOLKIT_DIR}")
else()
  tile_find_cuda_toolkit(TILE_CUDA_TOOLKIT)
endif()

if(TILE_CUDA_TOOLKIT)
  message(STATUS "CUDA toolkit for the nvvm pipeline: ${TILE_CUDA_TOOLKIT}")
else()
  message(STATUS "CUDA toolkit for the nvvm pipeline: none (ptxas or libdevice "
    "missing; PTX and cubin tests unsupported)")
endif()
