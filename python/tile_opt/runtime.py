"""Compiled kernels called on PyTorch tensors, through the runtime's C API.

ctypes over libtile_runtime.so (include/tile-c/Runtime.h): no compiled
extension, so one package serves every Python version.

    import tile_opt.runtime as rt
    kernel = rt.load("art")                 # an artifact directory
    y = kernel(x, g, w)                     # inputs and inouts, in order
    kernel(x, g, w, out=(y,))               # into the caller's outputs

A call binds the tensors' device pointers and launches on the current CUDA
stream (torch.cuda.current_stream()), asynchronously, so it can be captured
in a torch.cuda.CUDAGraph. Inouts (KV caches) are updated in place.
"""

import ctypes
import os

from ._checks import check_count, check_tensor

__all__ = ["RuntimeError", "Argument", "Kernel", "load", "library_path"]

_ROLES = {0: "input", 1: "inout", 2: "output"}
# TileDType -> (torch dtype name, bytes per element)
_DTYPES = {0: ("float16", 2), 1: ("bfloat16", 2), 2: ("float32", 4),
           3: ("float64", 8), 4: ("bool", 1)}


class RuntimeError(Exception):  # noqa: A001 (the runtime's own error)
    """A failure the runtime reported: the status and its message."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


class _ArgumentInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("role", ctypes.c_int),
                ("dtype", ctypes.c_int), ("rank", ctypes.c_int32),
                ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("bytes", ctypes.c_uint64)]


def library_path():
    """Where libtile_runtime.so is: $TILE_RUNTIME_LIBRARY, else next to the
    package in a build tree (build/lib) or an install (lib/)."""
    env = os.environ.get("TILE_RUNTIME_LIBRARY")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    for candidate in (os.path.join(here, "..", "..", "build", "lib"),
                      os.path.join(here, "..", "..", "lib"),
                      os.path.join(here, "..", "..", "..", "lib")):
        path = os.path.join(candidate, "libtile_runtime.so")
        if os.path.exists(path):
            return os.path.normpath(path)
    raise FileNotFoundError(
        "libtile_runtime.so not found: build the project or set "
        "TILE_RUNTIME_LIBRARY")


_lib = None


def _library():
    global _lib
    if _lib is not None:
        return _lib
    lib = ctypes.CDLL(library_path())
    c = ctypes
    sigs = {
        "tileLastError": (c.c_char_p, []),
        "tileModuleLoad": (c.c_int, [c.c_char_p, c.c_int, c.c_int32,
                                     c.POINTER(c.c_void_p)]),
        "tileModuleDestroy": (None, [c.c_void_p]),
        "tileModuleProgram": (c.c_char_p, [c.c_void_p]),
        "tileModuleDeviceName": (c.c_char_p, [c.c_void_p]),
        "tileModuleChip": (c.c_char_p, [c.c_void_p]),
        "tileModuleNumArguments": (c.c_int32, [c.c_void_p]),
        "tileModuleArgumentInfo": (c.c_int, [c.c_void_p, c.c_int32,
                                             c.POINTER(_ArgumentInfo)]),
        "tileModuleBind": (c.c_int, [c.c_void_p, c.c_int32, c.c_uint64]),
        "tileModuleRun": (c.c_int, [c.c_void_p, c.c_void_p]),
        "tileModuleSynchronize": (c.c_int, [c.c_void_p]),
        "tileRuntimeVersion": (c.c_char_p, []),
    }
    for name, (restype, argtypes) in sigs.items():
        fn = getattr(lib, name)
        fn.restype = restype
        fn.argtypes = argtypes
    _lib = lib
    return lib


def _check(status):
    if status != 0:
        raise RuntimeError(status, _library().tileLastError().decode())


class Argument:
    """One of the program's inputs, inouts or outputs."""

    def __init__(self, index, info):
        self.index = index
        self.name = info.name.decode()
        self.role = _ROLES[info.role]
        self.dtype_name, self.element_bytes = _DTYPES[info.dtype]
        self.shape = tuple(info.shape[i] for i in range(info.rank))
        self.bytes = info.bytes

    def __repr__(self):
        return "Argument(%s: %s %s%s)" % (self.name, self.role,
                                          self.dtype_name, list(self.shape))


class Kernel:
    """An artifact loaded on a device; call it on tensors."""

    def __init__(self, artifact_dir, device=0):
        lib = _library()
        handle = ctypes.c_void_p()
        _check(lib.tileModuleLoad(os.fsencode(artifact_dir), 0, device,
                                  ctypes.byref(handle)))
        self._handle = handle
        self.device_index = device
        self.program = lib.tileModuleProgram(handle).decode()
        self.device_name = lib.tileModuleDeviceName(handle).decode()
        self.chip = lib.tileModuleChip(handle).decode()
        self.arguments = []
        for i in range(lib.tileModuleNumArguments(handle)):
            info = _ArgumentInfo()
            _check(lib.tileModuleArgumentInfo(handle, i, ctypes.byref(info)))
            self.arguments.append(Argument(i, info))
        self.inputs = [a for a in self.arguments if a.role != "output"]
        self.outputs = [a for a in self.arguments if a.role == "output"]

    def close(self):
        if self._handle:
            _library().tileModuleDestroy(self._handle)
            self._handle = None

    def __del__(self):
        try:
            self.close()
        except Exception:  # interpreter shutdown
            pass

    def __repr__(self):
        return "Kernel(%s on %s (%s): %s)" % (self.program, self.device_name,
                                              self.chip, self.arguments)

    def _check_tensor(self, torch, arg, tensor):
        where = "argument '%s' of %s" % (arg.name, self.program)
        check_tensor(torch, where, tensor, arg.shape, arg.dtype_name)
        if tensor.device.type != "cuda" or (
                tensor.device.index not in (None, self.device_index)):
            raise ValueError("%s: expected a tensor on cuda:%d, got %s"
                             % (where, self.device_index, tensor.device))

    def __call__(self, *tensors, out=None, stream=None):
        """Runs the kernels: `tensors` are the inputs and inouts in order;
        the outputs are allocated, or taken from `out`. Returns the output
        (or a tuple of them). Asynchronous on `stream` (default: the current
        stream)."""
        import torch
        if not self._handle:
            raise ValueError("the kernel is closed")
        check_count(self.program, self.inputs, len(tensors))
        device = torch.device("cuda", self.device_index)
        if out is None:
            out = tuple(torch.empty(a.shape,
                                    dtype=getattr(torch, a.dtype_name),
                                    device=device) for a in self.outputs)
        elif isinstance(out, torch.Tensor):
            out = (out,)
        check_count(self.program, self.outputs, len(out), "outputs in out=")
        lib = _library()
        for arg, tensor in zip(self.inputs + self.outputs,
                               list(tensors) + list(out)):
            self._check_tensor(torch, arg, tensor)
            _check(lib.tileModuleBind(self._handle, arg.index,
                                      tensor.data_ptr()))
        if stream is None:
            stream = torch.cuda.current_stream(device)
        _check(lib.tileModuleRun(self._handle,
                                 ctypes.c_void_p(stream.cuda_stream)))
        return out[0] if len(out) == 1 else out


def load(artifact_dir, device=0):
    """Loads the artifact in `artifact_dir` on CUDA device `device`."""
    return Kernel(artifact_dir, device)


def version():
    return _library().tileRuntimeVersion().decode()
