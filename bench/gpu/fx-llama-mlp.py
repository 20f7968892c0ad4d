#!/usr/bin/env python3
"""The Llama-3-8B MLP block written as an nn.Module (RMSNorm, SwiGLU, the
residual), compiled with tile_opt.compile(module, example_inputs) through
torch.fx, run on a GPU through the runtime's C API, checked against the
module in PyTorch eager, captured in a CUDA graph, and timed against eager
and torch.compile in the same run.

Two steps, since the compiler and the GPU are on different machines here:

    # here (tools and CUDA toolkit): export, optimize, compile the artifact
    python3 bench/gpu/fx-llama-mlp.py prepare OUT --tokens 1
    # there (GPU, torch 2.x): the same seeded module, the artifact
    TILE_RUNTIME_LIBRARY=.../libtile_runtime.so \\
        python3 bench/gpu/fx-llama-mlp.py run OUT --out results.json
"""

import argparse
import json
import os
import subprocess
import sys

import torch

from graph_timing import time_graph

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python"))

D, H = 4096, 14336


class RMSNorm(torch.nn.Module):
    def __init__(self, d):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.ones(d))

    def forward(self, x):
        xf = x.float()
        return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + 1e-5)
                ).half() * self.weight


class MLP(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = RMSNorm(D)
        self.gate = torch.nn.Linear(D, H, bias=False)
        self.up = torch.nn.Linear(D, H, bias=False)
        self.down = torch.nn.Linear(H, D, bias=False)

    def forward(self, x):
        y = self.norm(x)
        return x + self.down(torch.nn.functional.silu(self.gate(y)) * self.up(y))


def make_module():
    torch.manual_seed(0)
    m = MLP()
    with torch.no_grad():
        for p in m.parameters():
            p.normal_(0.0, 0.02)
        m.norm.weight.normal_(1.0, 0.1)
    return m.half()


def prepare(args):
    import tile_opt
    os.environ.setdefault("TILE_OPT_CACHE", os.path.join(args.dir, "cache"))
    m = make_module()
    torch.manual_seed(1)
    x = torch.randn(args.tokens, D).half()
    kernel = tile_opt.compile(m, (x,))
    print(kernel)
    art = os.path.join(args.dir, "artifact")
    subprocess.run([os.path.join(tile_opt.tools_dir(), "tile-run"),
                    kernel.kernel.program_path, "--reference",
                    os.path.join(kernel.kernel.directory, "source.mlir"),
                    "--device", "cuda", "--compile-only", "--artifact", art],
                   check=True)
    with open(os.path.join(args.dir, "kernel.json"), "w") as f:
        json.dump({"tokens": args.tokens,
                   "kernels": open(kernel.kernel.program_path).read().count(
                       "tile.program"),
                   "arguments": [a.name for a in kernel.kernel.inputs]}, f)


def time_us(fn):
    """Per-call us of `fn` in a CUDA graph (bench.py's time_graph): median of
    200 samples of 10 back-to-back replays."""
    return time_graph(fn, (), 200, 10)[0]


def run(args):
    import tile_opt.runtime as rt
    meta = json.load(open(os.path.join(args.dir, "kernel.json")))
    m = make_module().cuda()
    kernel = rt.load(os.path.join(args.dir, "artifact"))
    print(kernel)
    params = [p.detach().contiguous() for p in
              (m.norm.weight, m.gate.weight, m.up.weight, m.down.weight)]
    torch.manual_seed(1)
    x = torch.randn(meta["tokens"], D, device="cuda").half()
    res = {"tokens": meta["tokens"], "device": kernel.device_name}
    with torch.no_grad():
        ref = m(x)
        y = kernel(x, *params)
        torch.cuda.synchronize()
        err = ((y.double() - ref.double()).abs().max()
               / ref.double().abs().max()).item()
        res["rel_err_vs_eager"] = err
        # In a CUDA graph, with the input changed in place before replay.
        xs, ys = x.clone(), torch.empty_like(y)
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            kernel(xs, *params, out=ys)
        torch.cuda.current_stream().wait_stream(s)
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            kernel(xs, *params, out=ys)
        x2 = torch.randn_like(x)
        xs.copy_(x2)
        g.replay()
        torch.cuda.synchronize()
        ref2 = m(x2)
        res["graph_rel_err"] = ((ys.double() - ref2.double()).abs().max()
                                / ref2.double().abs().max()).item()
        yo = torch.empty_like(y)
        res["tile_us"] = time_us(lambda: kernel(x, *params, out=yo))
        res["eager_us"] = time_us(lambda: m(x))
        try:
            cm = torch.compile(m)
            cm(x)
            res["torch_compile_us"] = time_us(lambda: cm(x))
        except Exception as e:
            res["torch_compile_us"] = None
            res["torch_compile_error"] = str(e)[:200]
    res["hbm_floor_us_at_4_8TBps"] = (3 * D * H * 2) / 4.8e6
    res["pass"] = res["rel_err_vs_eager"] < 1e-2 and res["graph_rel_err"] < 1e-2
    print(json.dumps(res, indent=1))
    if args.out:
        json.dump(res, open(args.out, "w"), indent=1)
    return 0 if res["pass"] else 1


def main():
    p = argparse.ArgumentParser()
    p.add_argument("step", choices=["prepare", "run"])
    p.add_argument("dir")
    p.add_argument("--tokens", type=int, default=1)
    p.add_argument("--out")
    args = p.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    return prepare(args) if args.step == "prepare" else run(args) or 0


if __name__ == "__main__":
    sys.exit(main())
