"""tile-opt from Python: compile linalg programs and call the kernels on
PyTorch tensors (python/README.md).

    import tile_opt
    kernel = tile_opt.compile("model.mlir")
    y = kernel(x, g, w)        # CUDA tensors: the GPU; CPU: the host emulation
"""

from .compiler import (CompileError, CompiledKernel, ModuleKernel,  # noqa
                       ToolsNotFound, cache_dir, compile, tools_dir)
