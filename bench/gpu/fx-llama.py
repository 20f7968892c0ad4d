#!/usr/bin/env python3
"""Llama-3-8B blocks written as nn.Modules, compiled with
tile_opt.compile(module, example_inputs) through torch.fx, run on a GPU
through the runtime's C API, checked against the module in PyTorch eager,
captured in a CUDA graph, and timed against eager and torch.compile in the
same run:

  --block mlp        RMSNorm, SwiGLU (gate, up, down nn.Linear), residual;
                     optimized (tile-opt --tile-optimize)
  --block attention  RMSNorm, Q/K/V nn.Linear, rotary embedding, the new
                     key and value written into the f16 KV caches in place,
                     GQA attention over the first pos + T cache rows
                     (softmax in f32), output projection, residual;
                     converted only (the default path: saturating attention
                     with its projections takes minutes, issue 46)

Two steps, since the compiler and the GPU are on different machines here:

    # here (tools and CUDA toolkit): export, compile the artifact
    python3 bench/gpu/fx-llama.py prepare OUT --block attention --tokens 1
    # there (GPU, torch 2.x): the same seeded module, the artifact
    TILE_RUNTIME_LIBRARY=.../libtile_runtime.so \\
        python3 bench/gpu/fx-llama.py run OUT --out results.json
"""

import argparse
import json
import math
import os
import subprocess
import sys

import torch

from graph_timing import time_graph

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python"))

D, H = 4096, 14336
HEADS, KV_HEADS, HEAD_DIM = 32, 8, 128
CACHE, POS = 4096, 1023  # cache rows; the new tokens' first row


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


class Attention(torch.nn.Module):
    def __init__(self, tokens):
        super().__init__()
        self.norm = RMSNorm(D)
        self.wq = torch.nn.Linear(D, HEADS * HEAD_DIM, bias=False)
        self.wk = torch.nn.Linear(D, KV_HEADS * HEAD_DIM, bias=False)
        self.wv = torch.nn.Linear(D, KV_HEADS * HEAD_DIM, bias=False)
        self.wo = torch.nn.Linear(HEADS * HEAD_DIM, D, bias=False)
        self.tokens = tokens

    @staticmethod
    def rope(x, cos, sin):  # x [heads, T, HEAD_DIM]; rotate-half
        half = HEAD_DIM // 2
        rotated = torch.cat((-x[..., half:], x[..., :half]), dim=-1)
        return x * cos + rotated * sin

    def forward(self, x, cos, sin, k_cache, v_cache):
        T = self.tokens
        y = self.norm(x)
        q = self.wq(y).view(T, HEADS, HEAD_DIM).transpose(0, 1)
        k = self.wk(y).view(T, KV_HEADS, HEAD_DIM).transpose(0, 1)
        v = self.wv(y).view(T, KV_HEADS, HEAD_DIM).transpose(0, 1)
        q, k = self.rope(q, cos, sin), self.rope(k, cos, sin)
        k_cache[:, POS:POS + T].copy_(k)
        v_cache[:, POS:POS + T].copy_(v)
        keys, values = k_cache[:, :POS + T], v_cache[:, :POS + T]
        qg = q.reshape(KV_HEADS, HEADS // KV_HEADS * T, HEAD_DIM)
        scores = (qg @ keys.transpose(1, 2)).float() * (1.0 / math.sqrt(
            HEAD_DIM))
        p = torch.softmax(scores, dim=-1).half()
        o = (p @ values).reshape(HEADS, T, HEAD_DIM).transpose(0, 1)
        return x + self.wo(o.reshape(T, HEADS * HEAD_DIM))


def make_module(block, tokens):
    torch.manual_seed(0)
    m = MLP() if block == "mlp" else Attention(tokens)
    with torch.no_grad():
        for p in m.parameters():
            p.normal_(0.0, 0.02)
        m.norm.weight.normal_(1.0, 0.1)
    return m.half()


def make_inputs(block, tokens, device="cpu"):
    """The block's inputs, seeded: x; for attention also the rotary tables
    of position POS and the f16 caches (N(0, 1) keys and values)."""
    torch.manual_seed(1)
    x = torch.randn(tokens, D, device=device).half()
    if block == "mlp":
        return [x]
    angle = torch.arange(POS, POS + tokens, device=device)[:, None] * (
        10000.0 ** (-torch.arange(0, HEAD_DIM, 2, device=device) / HEAD_DIM))
    angle = torch.cat((angle, angle), dim=-1)
    caches = [torch.randn(KV_HEADS, CACHE, HEAD_DIM, device=device).half()
              for _ in range(2)]
    return [x, angle.cos().half(), angle.sin().half()] + caches


def floor_bytes(block, tokens):
    if block == "mlp":
        return 3 * D * H * 2
    weights = (2 * D * HEADS * HEAD_DIM + 2 * D * KV_HEADS * HEAD_DIM) * 2
    return weights + 2 * KV_HEADS * (POS + tokens) * HEAD_DIM * 2


def prepare(args):
    import tile_opt
    os.environ.setdefault("TILE_OPT_CACHE", os.path.join(args.dir, "cache"))
    m = make_module(args.block, args.tokens)
    kernel = tile_opt.compile(m, make_inputs(args.block, args.tokens),
                              optimize=args.block == "mlp")
    print(kernel)
    art = os.path.join(args.dir, "artifact")
    subprocess.run([os.path.join(tile_opt.tools_dir(), "tile-run"),
                    kernel.kernel.program_path, "--reference",
                    os.path.join(kernel.kernel.directory, "source.mlir"),
                    "--device", "cuda", "--compile-only", "--artifact", art],
                   check=True)
    with open(os.path.join(args.dir, "kernel.json"), "w") as f:
        json.dump({"block": args.block, "tokens": args.tokens,
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
    block, tokens = meta.get("block", "mlp"), meta["tokens"]
    m = make_module(block, tokens).cuda()
    kernel = rt.load(os.path.join(args.dir, "artifact"))
    print(kernel)
    # The parameters in the kernel's argument order (the exporter names
    # them by their qualified names, '.' as '_').
    by_name = {n.replace(".", "_"): p.detach().contiguous()
               for n, p in m.named_parameters()}
    inputs = make_inputs(block, tokens, "cuda")
    params = [by_name[n] for n in meta["arguments"][len(inputs):]]
    res = {"block": block, "tokens": tokens, "device": kernel.device_name}

    def rel(a, b):
        return ((a.double() - b.double()).abs().max()
                / b.double().abs().max()).item()

    with torch.no_grad():
        theirs = [t.clone() for t in inputs]
        ref = m(*theirs)
        ours = [t.clone() for t in inputs]
        y = kernel(*ours, *params)
        torch.cuda.synchronize()
        res["rel_err_vs_eager"] = rel(y, ref)
        # The caches the block wrote in place (attention).
        res["cache_rel_err"] = max([rel(a, b) for a, b in
                                    zip(ours[3:], theirs[3:])], default=0.0)
        # In a CUDA graph, with the input changed in place before replay.
        xs, ys = [t.clone() for t in inputs], torch.empty_like(y)
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            kernel(*xs, *params, out=ys)
        torch.cuda.current_stream().wait_stream(s)
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            kernel(*xs, *params, out=ys)
        x2 = torch.randn_like(inputs[0])
        xs[0].copy_(x2)
        g.replay()
        torch.cuda.synchronize()
        ref2 = m(x2, *[t.clone() for t in inputs[1:]])
        res["graph_rel_err"] = rel(ys, ref2)
        yo = torch.empty_like(y)
        res["tile_us"] = time_us(lambda: kernel(*ours, *params, out=yo))
        res["eager_us"] = time_us(lambda: m(*theirs))
        try:
            cm = torch.compile(m)
            cm(*theirs)
            res["torch_compile_us"] = time_us(lambda: cm(*theirs))
        except Exception as e:
            res["torch_compile_us"] = None
            res["torch_compile_error"] = str(e)[:200]
    res["hbm_floor_us_at_4_8TBps"] = floor_bytes(block, tokens) / 4.8e6
    res["pass"] = all(res[k] < 1e-2 for k in (
        "rel_err_vs_eager", "graph_rel_err", "cache_rel_err"))
    print(json.dumps(res, indent=1))
    if args.out:
        json.dump(res, open(args.out, "w"), indent=1)
    return 0 if res["pass"] else 1


def main():
    p = argparse.ArgumentParser()
    p.add_argument("step", choices=["prepare", "run"])
    p.add_argument("dir")
    p.add_argument("--block", choices=["mlp", "attention"], default="mlp",
                   help="prepare: the block (run reads it from DIR)")
    p.add_argument("--tokens", type=int, default=1)
    p.add_argument("--out")
    args = p.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    return prepare(args) if args.step == "prepare" else run(args) or 0


if __name__ == "__main__":
    sys.exit(main())
