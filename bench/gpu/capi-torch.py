#!/usr/bin/env python3
"""The runtime's C API from PyTorch, on a GPU: a compiled artifact called on
torch tensors through python/tile_opt/runtime.py (ctypes over
libtile_runtime.so), checked against PyTorch, reused, captured in a CUDA
graph, and timed against PyTorch in the same run.

The artifact is the README's quick start program, Y = rms(X, g) @ W
(examples/quickstart.mlir), compiled here with

    tile-opt examples/quickstart.mlir --tile-optimize="top-k=1" -o best.mlir
    tile-run best.mlir --reference examples/quickstart.mlir --device cuda \\
        --compile-only --artifact ART

and run on the GPU machine with

    TILE_RUNTIME_LIBRARY=.../libtile_runtime.so \\
        python3 bench/gpu/capi-torch.py ART --out results.json
"""

import argparse
import json
import os
import sys

import torch

from graph_timing import time_graph

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python"))
import tile_opt.runtime as rt  # noqa: E402


def reference(x, g, w):
    xf = x.float()
    den = torch.sqrt((xf * xf).mean(dim=1, keepdim=True) + 1e-6)
    xn = (xf / den * g.float()).half()
    return (xn.float() @ w.float()).half()


def rel_err(a, b):
    a, b = a.double(), b.double()
    return ((a - b).abs().max() / b.abs().max().clamp_min(1e-30)).item()


def time_us(fn):
    """Per-call us of `fn` in a CUDA graph (bench.py's time_graph): median of
    200 samples of 10 back-to-back replays."""
    return time_graph(fn, (), 200, 10)[0]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("artifact")
    p.add_argument("--out")
    args = p.parse_args()
    results = {"runtime": rt.version(), "torch": torch.__version__}

    kernel = rt.load(args.artifact)
    print(kernel)
    results["device"] = kernel.device_name
    (M, K), (_, N) = kernel.inputs[0].shape, kernel.inputs[2].shape
    torch.manual_seed(0)
    x = torch.randn(M, K, device="cuda", dtype=torch.float16)
    g = (1 + 0.1 * torch.randn(K, device="cuda")).half()
    w = (0.02 * torch.randn(K, N, device="cuda")).half()
    tol = 1e-2

    # Called on torch tensors; outputs allocated.
    y = kernel(x, g, w)
    torch.cuda.synchronize()
    err = rel_err(y, reference(x, g, w))
    print("call: max_rel_err=%.3e" % err)
    results["call_rel_err"] = err
    ok = err <= tol

    # Reused with new inputs, into the caller's output.
    x2 = torch.randn(M, K, device="cuda", dtype=torch.float16)
    out = torch.full((M, N), 7.0, device="cuda", dtype=torch.float16)
    kernel(x2, g, w, out=out)
    torch.cuda.synchronize()
    err = rel_err(out, reference(x2, g, w))
    print("reuse, out=: max_rel_err=%.3e" % err)
    results["reuse_rel_err"] = err
    ok &= err <= tol

    # Captured in a CUDA graph on a side stream, replayed after the input
    # changed in place.
    xs = x.clone()
    ys = torch.empty(M, N, device="cuda", dtype=torch.float16)
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        kernel(xs, g, w, out=ys)
    torch.cuda.current_stream().wait_stream(s)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        kernel(xs, g, w, out=ys)
    xs.copy_(x2)
    graph.replay()
    torch.cuda.synchronize()
    err = rel_err(ys, reference(x2, g, w))
    print("graph replay: max_rel_err=%.3e" % err)
    results["graph_rel_err"] = err
    ok &= err <= tol

    # Errors a caller makes.
    errors = {}
    for what, call in [
            ("dtype", lambda: kernel(x.float(), g, w)),
            ("shape", lambda: kernel(x[:, :8], g, w)),
            ("device", lambda: kernel(x.cpu(), g, w)),
            ("contiguity", lambda: kernel(x.t().contiguous().t(), g, w)),
            ("count", lambda: kernel(x, g))]:
        try:
            call()
            errors[what] = "NOT RAISED"
            ok = False
        except (TypeError, ValueError) as e:
            errors[what] = str(e)
        print("%s: %s" % (what, errors[what]))
    results["errors"] = errors

    # Timed against PyTorch (eager and torch.compile), all as graph replays.
    yo = torch.empty(M, N, device="cuda", dtype=torch.float16)
    results["tile_us"] = time_us(lambda: kernel(x, g, w, out=yo))
    results["torch_eager_us"] = time_us(lambda: reference(x, g, w))
    try:
        compiled = torch.compile(reference)
        compiled(x, g, w)
        results["torch_compile_us"] = time_us(lambda: compiled(x, g, w))
    except Exception as e:  # no compiler toolchain on the machine
        results["torch_compile_us"] = None
        results["torch_compile_error"] = str(e)[:200]
    floor_bytes = 2 * (M * K + K + K * N + M * N)
    results["hbm_bytes"] = floor_bytes
    print("tile %.1f us, torch eager %.1f us, torch.compile %s us" % (
        results["tile_us"], results["torch_eager_us"],
        results["torch_compile_us"]))
    results["pass"] = bool(ok)
    print("PASS" if ok else "FAIL")
    if args.out:
        with open(args.out, "w") as f:
            json.dump(results, f, indent=1)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
