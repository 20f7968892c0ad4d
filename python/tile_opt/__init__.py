"""tile-opt from Python (issue 44: in progress).

`tile_opt.runtime` calls compiled artifacts on PyTorch tensors through the
runtime's C API; compiling from Python (`tile_opt.compile`) is not there yet.
"""
