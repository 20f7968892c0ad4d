"""Compiling linalg programs from Python, through the project's tools.

    import tile_opt
    kernel = tile_opt.compile("model.mlir")          # or the MLIR text
    y = kernel(x, g, w)                              # torch tensors

`compile` runs `tile-opt --tile-optimize` in a subprocess and keeps the
result in an on-disk cache keyed by the source, the options and the
compiler's version. A call on CUDA tensors compiles the GPU artifact once
(`tile-run --device cuda --compile-only`) and runs it through the runtime's
C API (tile_opt.runtime); a call on CPU tensors runs the same lowered kernels
in the host emulation (`tile-run --device emulate`), which needs no GPU.
"""

import hashlib
import os
import re
import shutil
import subprocess
import tempfile

from ._checks import check_count, check_tensor

__all__ = ["CompileError", "ToolsNotFound", "CompiledKernel", "ModuleKernel",
           "compile",
           "tools_dir", "cache_dir"]


class CompileError(Exception):
    """A tool refused the program; the message is the tool's."""


class ToolsNotFound(Exception):
    """tile-opt or tile-run is not where the package looks."""


_TOOLS = ("tile-opt", "tile-run")


def tools_dir():
    """$TILE_OPT_TOOLS, else build/bin of the source tree the package sits
    in, else the directory of tile-opt on PATH."""
    env = os.environ.get("TILE_OPT_TOOLS")
    if env:
        candidates = [env]
    else:
        here = os.path.dirname(os.path.abspath(__file__))
        candidates = [os.path.join(here, "..", "..", "build", "bin"),
                      os.path.join(here, "..", "..", "bin")]
        on_path = shutil.which("tile-opt")
        if on_path:
            candidates.append(os.path.dirname(on_path))
    for d in candidates:
        if all(os.access(os.path.join(d, t), os.X_OK) for t in _TOOLS):
            return os.path.normpath(d)
    where = env if env else "build/bin, the install's bin/ or PATH"
    raise ToolsNotFound(
        "tile-opt and tile-run not found in %s: build the project "
        "(./scripts/build.sh) or set TILE_OPT_TOOLS to their directory"
        % where)


def cache_dir():
    """$TILE_OPT_CACHE, else ~/.cache/tile_opt."""
    return os.environ.get("TILE_OPT_CACHE") or os.path.join(
        os.path.expanduser("~"), ".cache", "tile_opt")


def _run(args, what):
    try:
        proc = subprocess.run(args, capture_output=True, text=True)
    except OSError as e:
        raise ToolsNotFound("%s: %s" % (args[0], e)) from e
    if proc.returncode != 0:
        lines = [l for l in proc.stderr.splitlines() if "error" in l]
        raise CompileError("%s failed (exit %d): %s" % (
            what, proc.returncode,
            "\n".join(lines) if lines else proc.stderr.strip()[-2000:]))
    return proc


def _version(tools):
    out = _run([os.path.join(tools, "tile-opt"), "--version"], "tile-opt")
    return out.stdout.splitlines()[0].strip()


# One tensor of a tile program's signature:
#   %X: !tile.tensor<32x512xf16, input>
_TENSOR = re.compile(
    r"%([A-Za-z_][\w$.]*): !tile\.tensor<((?:\d+x)*)(f16|bf16|f32|f64|i1),"
    r" (input|inout|output|intermediate|scratch)>")
_DTYPES = {"f16": "float16", "bf16": "bfloat16", "f32": "float32",
           "f64": "float64", "i1": "bool"}


class _Tensor:
    def __init__(self, name, shape, dtype, role):
        self.name, self.shape, self.dtype_name, self.role = (
            name, shape, _DTYPES[dtype], role)

    def __repr__(self):
        return "%s: %s %s%s" % (self.name, self.role, self.dtype_name,
                                list(self.shape))


def _signature(program_text):
    """(program name, inputs and inouts in order, outputs in tile.results
    order) of the first tile.program of `program_text`."""
    m = re.search(r"tile\.program @([\w$.]+)\((.*?)\)\s*(attributes \{.*?\})?"
                  r"\s*\{", program_text, re.S)
    if not m:
        raise CompileError("no tile.program in the optimizer's output")
    tensors = [_Tensor(n, tuple(int(d) for d in s.split("x") if d), t, r)
               for n, s, t, r in _TENSOR.findall(m.group(2))]
    by_name = {t.name: t for t in tensors}
    results = re.search(r'tile\.results = \[([^\]]*)\]', m.group(3) or "")
    if results:
        outputs = [by_name[n] for n in re.findall(r'"([^"]+)"',
                                                  results.group(1))]
    else:
        outputs = [t for t in tensors if t.role in ("output", "inout")]
    inputs = [t for t in tensors if t.role in ("input", "inout")]
    return m.group(1), inputs, outputs


class CompiledKernel:
    """A linalg program compiled by tile-opt; call it on torch tensors."""

    def __init__(self, directory, tools, source_path, target):
        self.directory = directory
        self._tools = tools
        self._source = source_path
        self.target = target
        self.program_path = os.path.join(directory, "program.mlir")
        with open(self.program_path) as f:
            self.program, self.inputs, self.outputs = _signature(f.read())
        self._gpu = None

    def __repr__(self):
        return "CompiledKernel(%s: %s -> %s)" % (self.program, self.inputs,
                                                 self.outputs)

    # The argument checks both paths share.
    def _check(self, torch, tensors, out):
        check_count(self.program, self.inputs, len(tensors))
        if out is not None:
            outs = (out,) if isinstance(out, torch.Tensor) else tuple(out)
            plain = [o for o in self.outputs if o.role == "output"]
            check_count(self.program, plain, len(outs), "outputs in out=")
            for spec, t in zip(plain, outs):
                check_tensor(torch, "out= tensor '%s' of %s" % (
                    spec.name, self.program), t, spec.shape, spec.dtype_name)
        devices = set()
        for spec, t in zip(self.inputs, tensors):
            check_tensor(torch, "argument '%s' of %s" % (spec.name,
                                                         self.program),
                         t, spec.shape, spec.dtype_name)
            devices.add(t.device.type)
        if len(devices) > 1:
            raise ValueError("%s: the tensors are on different devices (%s)"
                             % (self.program, ", ".join(sorted(devices))))
        return devices.pop() if devices else "cpu"

    def __call__(self, *tensors, out=None):
        """Runs the program: `tensors` are its inputs and inouts in order;
        returns its outputs (allocated, or `out=`). CUDA tensors run on the
        GPU, CPU tensors in the host emulation."""
        import torch
        device = self._check(torch, tensors, out)
        if device == "cuda":
            return self._gpu_kernel()(*tensors, out=out)
        if device != "cpu":
            raise ValueError("%s: tensors on %s are not supported (cuda or "
                             "cpu)" % (self.program, device))
        return self._emulate(torch, tensors, out)

    def _gpu_kernel(self):
        if self._gpu is None:
            from . import runtime
            art = os.path.join(self.directory, "artifact")
            if not os.path.exists(os.path.join(art, "manifest.txt")):
                _run([os.path.join(self._tools, "tile-run"), self.program_path,
                      "--reference", self._source, "--device", "cuda",
                      "--chip", self.target, "--compile-only",
                      "--artifact", art], "tile-run --compile-only")
            self._gpu = runtime.load(art)
        return self._gpu

    def _emulate(self, torch, tensors, out):
        import numpy as np
        with tempfile.TemporaryDirectory(prefix="tile_opt-") as tmp:
            args = [os.path.join(self._tools, "tile-run"), self.program_path,
                    "--device", "emulate", "--output-dir",
                    os.path.join(tmp, "out")]
            for spec, t in zip(self.inputs, tensors):
                path = os.path.join(tmp, spec.name + ".npy")
                array = t.detach().cpu()
                if spec.dtype_name == "bfloat16":
                    array = array.float()
                np.save(path, array.numpy())
                args += ["--input", "%s=@%s" % (spec.name, path)]
            _run(args, "tile-run --device emulate")
            results = []
            for spec in self.outputs:
                value = torch.from_numpy(np.load(os.path.join(
                    tmp, "out", spec.name + ".npy")))
                results.append(value.to(getattr(torch, spec.dtype_name)))
        # Inouts are updated in place, as on the GPU.
        for spec, t in zip(self.inputs, tensors):
            if spec.role == "inout":
                t.copy_(results[[o.name for o in self.outputs].index(
                    spec.name)])
        if out is not None:
            out = (out,) if isinstance(out, torch.Tensor) else tuple(out)
            for o, r in zip(out, (r for s, r in zip(self.outputs, results)
                                  if s.role == "output")):
                o.copy_(r)
            return out[0] if len(out) == 1 else out
        plain = [r for s, r in zip(self.outputs, results)
                 if s.role == "output"]
        return plain[0] if len(plain) == 1 else tuple(plain)

    def check(self, device="emulate"):
        """Runs the compiled program against the linalg source on seeded
        random inputs (tile-run --reference, at its default tolerance:
        1e-2, 3e-2 for a program with bf16 tensors); returns (passed,
        report)."""
        proc = subprocess.run(
            [os.path.join(self._tools, "tile-run"), self.program_path,
             "--reference", self._source, "--device", device] +
            (["--chip", self.target] if device == "cuda" else []),
            capture_output=True, text=True)
        return proc.returncode == 0, proc.stdout + proc.stderr


class ModuleKernel:
    """An nn.Module compiled through torch.fx: call it on the module's
    inputs; its parameters (as they were at compile time) are passed to
    the kernel, moved to the inputs' device once."""

    def __init__(self, kernel, params, source_text, returns_tuple=False):
        self.kernel = kernel
        self.source_text = source_text
        self._params = params
        self._on = {}
        # A module returning a tuple (Hugging Face's `return (h,)`) gets a
        # tuple back, a 1-tuple included.
        self._returns_tuple = returns_tuple

    def __repr__(self):
        return "ModuleKernel(%r, %d parameters)" % (self.kernel,
                                                    len(self._params))

    def __call__(self, *inputs, out=None):
        n = len(self.kernel.inputs) - len(self._params)
        if len(inputs) != n:
            raise TypeError("the module takes %d inputs (%s), got %d" % (
                n, ", ".join(t.name for t in self.kernel.inputs[:n]),
                len(inputs)))
        device = inputs[0].device if inputs else "cpu"
        key = str(device)
        if key not in self._on:
            self._on[key] = [p.to(device).contiguous() for p in self._params]
        result = self.kernel(*inputs, *self._on[key], out=out)
        if self._returns_tuple and not isinstance(result, tuple):
            result = (result,)
        return result

    def check(self, device="emulate"):
        return self.kernel.check(device)


def compile(source, example_inputs=None, entry=None,  # noqa: A001
            target="sm_90", optimize=True):
    """Compiles `source`: the linalg program (a path to an .mlir file, or its
    text), or an nn.Module traced with torch.fx on `example_inputs`
    (tile_opt.fx). Converted to a tile program, optimized (`optimize`:
    saturate, extract, checked against the linalg function), cached. Returns
    a CompiledKernel, or a ModuleKernel for a module."""
    import sys
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(source, torch.nn.Module):
        from . import fx
        if example_inputs is None:
            raise TypeError("compiling an nn.Module needs example_inputs")
        text, params, returns_tuple = fx.export_module(
            source, tuple(example_inputs))
        return ModuleKernel(compile(text, target=target, optimize=optimize),
                            params, text, returns_tuple)
    tools = tools_dir()
    if "\n" not in source and os.path.exists(source):
        with open(source) as f:
            text = f.read()
    else:
        text = source
    options = "entry=%s target=%s optimize=%s" % (entry, target, optimize)
    key = hashlib.sha256("\0".join(
        [text, options, _version(tools)]).encode()).hexdigest()[:24]
    directory = os.path.join(cache_dir(), key)
    program = os.path.join(directory, "program.mlir")
    if not os.path.exists(program):
        os.makedirs(directory, exist_ok=True)
        source_path = os.path.join(directory, "source.mlir")
        with open(source_path, "w") as f:
            f.write(text)
        passes = ['--tile-optimize=top-k=1' if optimize
                  else "--convert-linalg-to-tile"]
        if entry:
            # Only the entry function is compiled.
            passes = ["--symbol-privatize=exclude=" + entry,
                      "--symbol-dce"] + passes
        tmp = program + ".tmp"
        _run([os.path.join(tools, "tile-opt"), source_path] + passes +
             ["-o", tmp], "tile-opt")
        os.replace(tmp, program)  # atomic: concurrent compiles agree
    return CompiledKernel(directory, tools, os.path.join(directory,
                                                         "source.mlir"),
                          target)
