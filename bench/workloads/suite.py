#!/usr/bin/env python3
"""Generates the benchmark suite: linalg programs at the sizes of real models.

Beside the twelve Trinity workloads of generate.py, the suite covers the
other kernels of a decoder step and of small-batch prefill at the sizes of
Llama-3-8B (D=4096, F=14336, H=32, KVH=8, d=128), Llama-3-70B (D=8192,
F=28672, H=64, KVH=8), Mistral-7B (D=4096, F=14336), Qwen2.5-7B (D=3584,
F=18944, H=28, KVH=4) and Qwen1.5-MoE-A2.7B (D=2048, expert F=1408): gated
MLPs, normalizations with and without their projection, the QKV projection
with rotary embedding, softmax, MoE experts and decode attention (GQA, max
subtraction, 1/sqrt(d)). Each program is described once (PROGRAMS) and
emitted at two sizes:

  bench/workloads/suite/<name>.mlir   full size
  test/Workloads/suite/<name>.mlir    scaled down, with lit RUN lines

Conventions are generate.py's (bench/workloads/README.md), whose emitter
this reuses: one func.func @<name> per file; every argument f16 with
{tile.name = "X", tile.init = "normal(MEAN, STDDEV)"}, every result f16
with {tile.name}; matmuls take f16 operands and accumulate into f32
(linalg.fill of 0.0 into tensor.empty); statistics, exp, reductions in
f32; values rounded to f16 where they are stored.

Usage:
  suite.py [--root DIR]   write the files under DIR (default: the
                          repository root)
  suite.py --bytes        print the compulsory HBM bytes of each full-size
                          program (every input read once, every output
                          written once)
  suite.py --list         print the program names
  suite.py --emit NAME [--dtype bf16]
                          print one full-size program, its f16 tensors
                          and casts in bf16 with --dtype bf16 (the same
                          program as a bf16 model writes it)

bench/gpu/bench.py imports this module (PROGRAMS, build, arg_specs,
result_specs, compulsory_bytes). Python 3 standard library only.
"""

import argparse
import math
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import generate as gen  # noqa: E402  (the emitter and the rms of generate.py)

X_INIT = gen.X_INIT            # activations: normal(0, 1)
WEIGHT_INIT = gen.WEIGHT_INIT  # weights: normal(0, 0.02)
NORM_INIT = gen.NORM_INIT      # norm weights: normal(1, 0.1)
BIAS_INIT = (0.0, 0.1)         # LayerNorm bias
ROPE_INIT = (0.0, 0.5)         # cos / sin tables (values of a rotation)
KV_INIT = (0.0, 1.0)           # K and V caches, scores
LN_EPS = "1.000000e-05"
NEG_INF = "0xFF800000"         # -inf as an f32 literal: the max's init

# Model sizes ------------------------------------------------------------------

LLAMA8B = dict(D=4096, F=14336, H=32, KVH=8, d=128)
LLAMA70B = dict(D=8192, F=28672, H=64, KVH=8, d=128)
MISTRAL7B = dict(D=4096, F=14336, H=32, KVH=8, d=128)
QWEN7B = dict(D=3584, F=18944, H=28, KVH=4, d=128)
QWEN_MOE = dict(D=2048, F=1408)  # Qwen1.5-MoE-A2.7B experts

# name -> (kind, model title, full-size parameters, scaled-down parameters)
# The scaled-down sizes keep each program's structure (the GQA group size,
# the split of the head dim, several rows, experts, heads) at lit-test cost.
PROGRAMS = {
    "swiglu_llama8b_m16": (
        "swiglu", "Llama-3-8B MLP, decode",
        dict(M=16, D=4096, F=14336), dict(M=4, D=16, F=32)),
    "swiglu_llama8b_m1": (
        "swiglu", "Llama-3-8B MLP, decode of one token",
        dict(M=1, D=4096, F=14336), dict(M=1, D=16, F=32)),
    "swiglu_linear_llama8b_m1": (
        "swiglu_linear", "Llama-3-8B MLP with nn.Linear's [out, in] "
        "weights, decode of one token",
        dict(M=1, D=4096, F=14336), dict(M=1, D=16, F=32)),
    "swiglu_linear_llama8b_m16": (
        "swiglu_linear", "Llama-3-8B MLP with nn.Linear's [out, in] "
        "weights, decode",
        dict(M=16, D=4096, F=14336), dict(M=4, D=16, F=32)),
    "swiglu_linear_llama8b_m256": (
        "swiglu_linear", "Llama-3-8B MLP with nn.Linear's [out, in] "
        "weights, prefill",
        dict(M=256, D=4096, F=14336), dict(M=24, D=16, F=32)),
    "swiglu_qwen7b_m16": (
        "swiglu", "Qwen2.5-7B MLP, decode",
        dict(M=16, D=3584, F=18944), dict(M=4, D=24, F=40)),
    "swiglu_llama8b_m256": (
        "swiglu", "Llama-3-8B MLP, prefill",
        dict(M=256, D=4096, F=14336), dict(M=24, D=16, F=32)),
    "geglu_mistral7b_m16": (
        "geglu", "Mistral-7B MLP sizes with a GeGLU gate, decode",
        dict(M=16, D=4096, F=14336), dict(M=4, D=16, F=32)),
    "rmsnorm_proj_llama8b_m16": (
        "rmsnorm_proj", "Llama-3-8B, D x D projection, decode",
        dict(M=16, D=4096), dict(M=4, D=32)),
    "rmsnorm_proj_llama8b_m512": (
        "rmsnorm_proj", "Llama-3-8B, D x D projection, prefill",
        dict(M=512, D=4096), dict(M=48, D=32)),
    "rmsnorm_proj_llama70b_m16": (
        "rmsnorm_proj", "Llama-3-70B, D x D projection, decode",
        dict(M=16, D=8192), dict(M=4, D=48)),
    "layernorm_proj_llama8b_m16": (
        "layernorm_proj", "Llama-3-8B sizes, fused QKV projection "
        "(N = (H + 2 KVH) d), decode",
        dict(M=16, D=4096, N=6144), dict(M=4, D=32, N=48)),
    "rmsnorm_llama8b_m512": (
        "rmsnorm", "Llama-3-8B, prefill",
        dict(M=512, D=4096), dict(M=32, D=64)),
    "layernorm_llama8b_m512": (
        "layernorm", "Llama-3-8B sizes, prefill",
        dict(M=512, D=4096), dict(M=32, D=64)),
    "qkv_rope_llama8b_m16": (
        "qkv_rope", "Llama-3-8B, decode",
        dict(M=16, **LLAMA8B), dict(M=3, D=32, H=6, KVH=2, d=8)),
    "softmax_pv_llama8b_m16_p4k": (
        "softmax_pv", "Llama-3-8B heads, 16 rows of scores over 4096 keys",
        dict(H=32, M=16, P=4096, d=128), dict(H=2, M=4, P=32, d=8)),
    "moe_qwen15moe_e16_t4": (
        "moe", "Qwen1.5-MoE-A2.7B experts, decode: 16 experts of 4 tokens",
        dict(E=16, T=4, **QWEN_MOE), dict(E=4, T=2, D=16, F=24)),
    "attn_decode_llama8b_p1k": (
        "attn_decode", "Llama-3-8B GQA, 1 token, KV length 1024",
        dict(M=1, P=1024, **LLAMA8B), dict(M=1, P=16, H=12, KVH=3,
                                           d=8)),
    "attn_decode_llama8b_p4k": (
        "attn_decode", "Llama-3-8B GQA, 1 token, KV length 4096",
        dict(M=1, P=4096, **LLAMA8B), dict(M=1, P=32, H=12, KVH=3,
                                           d=8)),
    "attn_decode_llama8b_p32k": (
        "attn_decode", "Llama-3-8B GQA, 1 token, KV length 32768",
        dict(M=1, P=32768, **LLAMA8B), dict(M=1, P=128, H=12,
                                            KVH=3, d=8)),
    "attn_decode_qwen7b_p4k": (
        "attn_decode", "Qwen2.5-7B GQA, 1 token, KV length 4096",
        dict(M=1, P=4096, **QWEN7B), dict(M=1, P=24, H=6, KVH=2,
                                          d=8)),
    "attn_decode_llama70b_p4k_m16": (
        "attn_decode", "Llama-3-70B GQA, 16 tokens (speculative "
        "verification), KV length 4096",
        dict(M=16, P=4096, **LLAMA70B), dict(M=3, P=32, H=16, KVH=2,
                                             d=4)),
    "attn_causal_llama2_7b_m16_p4k": (
        "attn_causal", "Llama-2-7B, 16 new tokens (speculative "
        "verification) against 4096 positions",
        dict(H=32, M=16, P=4096, d=128), dict(H=2, M=4, P=24, d=8)),
    "decoder_llama8b_m1_p4k": (
        "decoder", "Llama-3-8B decoder layer (norm, QKV + rope, GQA "
        "attention over 4096 cached positions, O projection, norm, SwiGLU "
        "MLP, residuals), decode of one token",
        dict(M=1, P=4096, **LLAMA8B),
        dict(M=1, P=16, D=32, F=48, H=4, KVH=2, d=8)),
    "decoder_llama8b_m16_p1k": (
        "decoder", "Llama-3-8B decoder layer, 16 tokens (speculative "
        "verification) against 1024 cached positions",
        dict(M=16, P=1024, **LLAMA8B),
        dict(M=3, P=12, D=32, F=48, H=4, KVH=2, d=8)),
    "attn_causal_llama2_7b_p2k": (
        "attn_causal", "Llama-2-7B, prefill of 2048 tokens",
        dict(H=32, M=2048, P=2048, d=128), dict(H=2, M=16, P=16, d=8)),
}

TITLES = {
    "swiglu": "SwiGLU MLP: Y = (silu(X @ W1) * (X @ W3)) @ W2.",
    "swiglu_linear": "SwiGLU MLP, nn.Linear's weights ([out, in]): "
                     "Y = (silu(X @ W1^T) * (X @ W3^T)) @ W2^T.",
    "geglu": "GeGLU MLP: Y = (gelu_tanh(X @ W1) * (X @ W3)) @ W2.",
    "rmsnorm_proj": "RMSNorm, projection and residual: "
                    "Y = X + rms(X, g) @ W.",
    "layernorm_proj": "LayerNorm and projection: "
                      "Y = layernorm(X, gamma, beta) @ W.",
    "rmsnorm": "RMSNorm: Y = X / sqrt(mean(X*X, -1) + 1e-6) * g.",
    "layernorm": "LayerNorm: Y = (X - mean) / sqrt(var + 1e-5) * gamma + "
                 "beta.",
    "qkv_rope": "QKV projection with rotary embedding (rotate-half form) of "
                "Q and K.",
    "softmax_pv": "Row softmax with max subtraction, then @ V: "
                  "O = softmax(S, -1) @ V.",
    "moe": "MoE experts over gathered tokens: "
           "Y[e] = (silu(X[e] @ W1[e]) * (X[e] @ W3[e])) @ W2[e].",
    "attn_causal": "Causal attention (one KV head per query head): "
                   "O = softmax(mask(Q Kc^T / sqrt(d))) Vc with max "
                   "subtraction.",
    "attn_decode": "Decode attention (GQA): "
                   "O = softmax(Q Kc^T / sqrt(d)) Vc with max subtraction.",
    "decoder": "Decoder layer (Llama): X2 = X + attn(rope(rms(X) WQ), "
               "Kc, Vc) WO; Y = X2 + swiglu(rms(X2)); and the new K, V.",
}

# The parameters each kind's size line names, in order.
SIZE_KEYS = {
    "swiglu": "M D F", "swiglu_linear": "M D F", "geglu": "M D F", "rmsnorm_proj": "M D",
    "layernorm_proj": "M D N", "rmsnorm": "M D", "layernorm": "M D",
    "qkv_rope": "M D H KVH d", "softmax_pv": "H M P d",
    "moe": "E T D F", "attn_decode": "H KVH M P d", "attn_causal": "H M P d",
    "decoder": "M P D F H KVH d",
}

RUN_LINES = """\
// RUN: tile-opt %s | FileCheck %s
// RUN: tile-opt %s --mlir-print-op-generic | tile-opt | FileCheck %s

// Converted to a naive tile program, it computes what the linalg function
// computes (exact arithmetic; tile sizes of up to 32, and of 1; fp16
// storage with f32 arithmetic against the exact reference), and so do the
// kernels of the default GPU lowering, run on the CPU (host emulation).
// RUN: tile-opt %s --convert-linalg-to-tile -o %t.tile.mlir
// RUN: tile-run %t.tile.mlir --reference %s --tolerance 1e-6 | FileCheck %s --check-prefix=CMP
// RUN: tile-run %t.tile.mlir --reference %s --tolerance 1e-6 --max-tile-size 1 --seed 7 | FileCheck %s --check-prefix=CMP
// RUN: tile-run %t.tile.mlir --reference %s --tolerance 1e-2 --precision f32 --seed 3 | FileCheck %s --check-prefix=CMP
// RUN: tile-run %t.tile.mlir --reference %s --device emulate | FileCheck %s --check-prefix=CMP
// CMP-NOT: MISMATCH
// CMP: PASS
"""


# The emitter ----------------------------------------------------------------


class Func(gen.Func):
    """generate.py's emitter with what the suite needs beyond it: max
    reductions (init -inf), extract_slice, and named f32 constants."""

    def __init__(self, name):
        super().__init__(name)
        self.consts = {}  # constant name -> literal

    def const(self, name, literal):
        self.consts[name] = literal
        return name

    def filled(self, name, shape, cname):
        self.empty(name + "_init", shape, "f32")
        self._new(name, shape, "f32")
        self.line("%%%s = linalg.fill ins(%%%s : f32) outs(%%%s_init : %s) "
                  "-> %s" % (name, cname, name, self.ty(name),
                             self.ty(name)))
        return name

    def reduce_max(self, name, x, dims):
        """name = max(x, axis=dims) in f32 (linalg.reduce with
        arith.maximumf from -inf)."""
        assert self.types[x][1] == "f32"
        shape = [s for i, s in enumerate(self.shape(x)) if i not in dims]
        self.filled(name + "_ninf", shape, self.const("ninf", NEG_INF))
        self._new(name, shape, "f32")
        self.line("%%%s = linalg.reduce ins(%%%s : %s) outs(%%%s_ninf : %s) "
                  "dimensions = [%s]" % (name, x, self.ty(x), name,
                                         self.ty(name),
                                         ", ".join(str(d) for d in dims)))
        self.line("  (%in: f32, %acc: f32) {")
        self.line("    %max = arith.maximumf %in, %acc : f32")
        self.line("    linalg.yield %max : f32")
        self.line("  }")
        return name

    def extract_slice(self, name, x, offsets, sizes):
        assert len(offsets) == len(sizes) == len(self.shape(x))
        assert all(o + s <= d for o, s, d in
                   zip(offsets, sizes, self.shape(x)))
        self._new(name, sizes, self.types[x][1])
        self.line("%%%s = tensor.extract_slice %%%s[%s] [%s] [%s] : %s to %s"
                  % (name, x, ", ".join(str(o) for o in offsets),
                     ", ".join(str(s) for s in sizes),
                     ", ".join("1" for _ in sizes), self.ty(x),
                     self.ty(name)))
        return name

    def text(self):
        lines = self.lines
        self.lines = ["  %%%s = arith.constant %s : f32" % kv
                      for kv in sorted(self.consts.items())] + lines
        try:
            return super().text()
        finally:
            self.lines = lines


def to_f32(f, name, x):
    return f.generic(name, [(x, None)], f.shape(x), "f32",
                     lambda b, a: b.ext(a[0]))


def silu(b, x):
    """x * sigmoid(x), sigmoid(x) = 1 / (1 + exp(-x))."""
    one = b.const("1.0")
    return b.mul(x, b.div(one, b.add(one, b.math("exp", b.neg(x)))))


def gelu_tanh(b, x):
    """0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))."""
    x3 = b.mul(b.mul(x, x), x)
    inner = b.mul(b.const(gen.fmt_float(math.sqrt(2.0 / math.pi))),
                  b.add(x, b.mul(b.const("0.044715"), x3)))
    one = b.const("1.0")
    return b.mul(b.mul(b.const("0.5"), x),
                 b.add(one, b.math("tanh", inner)))


def layernorm(f, name, x, gamma, beta):
    """name = (x - mean) / sqrt(var + 1e-5) * gamma + beta over the last
    axis, statistics in f32, stored f16 (var: the mean of the squared
    deviations)."""
    shape = f.shape(x)
    rank, n = len(shape), shape[-1]
    rows = list(range(rank - 1))
    f.reduce_sum(name + "_s", to_f32(f, name + "_x", x), [rank - 1])
    f.generic(name + "_mu", [(name + "_s", None)], shape[:-1], "f32",
              lambda b, a: b.div(a[0], b.const(gen.fmt_float(n))))
    f.generic(name + "_xc", [(x, None), (name + "_mu", rows)], shape, "f32",
              lambda b, a: b.sub(b.ext(a[0]), a[1]))
    f.generic(name + "_sq", [(name + "_xc", None)], shape, "f32",
              lambda b, a: b.mul(a[0], a[0]))
    f.reduce_sum(name + "_ss", name + "_sq", [rank - 1])

    def denominator(b, a):
        var = b.div(a[0], b.const(gen.fmt_float(n)))
        return b.math("sqrt", b.add(var, b.const(LN_EPS)))

    f.generic(name + "_den", [(name + "_ss", None)], shape[:-1], "f32",
              denominator)
    f.generic(name, [(name + "_xc", None), (name + "_den", rows),
                     (gamma, [rank - 1]), (beta, [rank - 1])], shape, "f16",
              lambda b, a: b.trunc(b.add(b.mul(b.div(a[0], a[1]),
                                                b.ext(a[2])),
                                          b.ext(a[3]))))
    return name


def softmax16(f, name, s, scale=None, causal_offset=None):
    """name = softmax(s * scale) over the last axis, stored f16: m =
    max(s * scale), E = exp(s * scale - m), Z = sum(E), E / Z (all f32).
    s is f32 (the scores) or f16 (widened first). causal_offset: row i
    sees the keys j <= i + causal_offset, the others are -inf (a causal
    mask of linalg.index positions, in the scaling generic)."""
    shape = f.shape(s)
    rank = len(shape)
    rows = list(range(rank - 1))

    def scaled(b, a):
        x = b.mul(b.ext(a[0]), b.const(gen.fmt_float(scale)))
        if causal_offset is None:
            return x
        limit = b.addi(b.index(rank - 2), b.iconst(causal_offset))
        visible = b.cmpi("ule", b.index(rank - 1), limit)
        return b.select(visible, x, b.const(NEG_INF))
    if scale is not None:
        f.generic(name + "_s", [(s, None)], shape, "f32", scaled)
        s = name + "_s"
    elif f.types[s][1] != "f32":
        s = to_f32(f, name + "_s", s)
    f.reduce_max(name + "_m", s, [rank - 1])
    f.generic(name + "_e", [(s, None), (name + "_m", rows)], shape, "f32",
              lambda b, a: b.math("exp", b.sub(a[0], a[1])))
    f.reduce_sum(name + "_z", name + "_e", [rank - 1])
    f.generic(name, [(name + "_e", None), (name + "_z", rows)], shape, "f16",
              lambda b, a: b.trunc(b.div(a[0], a[1])))
    return name


# The programs ----------------------------------------------------------------


def gated_mlp(f, p, act, batch=(), linear=False):
    """Y = (act(X @ W1) * (X @ W3)) @ W2; batch: leading expert dims.

    linear: the weights in nn.Linear's layout ([out, in]: W1 and W3 are
    [F, D], W2 [D, F]), multiplied through linalg.transpose (x @ W^T)."""
    M, D, F = (p["T"] if batch else p["M"]), p["D"], p["F"]
    b = list(batch)
    f.arg("X", b + [M, D], X_INIT)
    shapes = {"W1": [D, F], "W3": [D, F], "W2": [F, D]}
    for w, shape in shapes.items():
        f.arg(w, b + (shape[::-1] if linear else shape), WEIGHT_INIT)
    weights = {w: w for w in shapes}
    if linear:
        f.comment("nn.Linear's weights: W^T of each ([out, in] stored)")
        for w in shapes:
            weights[w] = f.transpose(w + "T", w, [1, 0])
    f.comment("H1 = X @ W1; H3 = X @ W3 (f32)")
    f.matmul("H1", "X", weights["W1"])
    f.matmul("H3", "X", weights["W3"])
    f.comment("A = %s(H1) * H3, stored f16" % act.__name__)
    f.generic("A", [("H1", None), ("H3", None)], b + [M, F], "f16",
              lambda bd, a: bd.trunc(bd.mul(act(bd, a[0]), a[1])))
    f.comment("Y = A @ W2, stored f16")
    f.matmul("Y1", "A", weights["W2"])
    f.to_f16("Y", "Y1")
    f.result("Y", "Y")


def rmsnorm_proj(f, p):
    M, D = p["M"], p["D"]
    f.arg("X", [M, D], X_INIT)
    f.arg("g", [D], NORM_INIT)
    f.arg("W", [D, D], WEIGHT_INIT)
    f.comment("Xn = rms(X, g), stored f16")
    gen.rms(f, "Xn", "X", "g")
    f.comment("Y = X + Xn @ W, stored f16")
    f.matmul("Y1", "Xn", "W")
    f.generic("Y", [("X", None), ("Y1", None)], [M, D], "f16",
              lambda b, a: b.trunc(b.add(b.ext(a[0]), a[1])))
    f.result("Y", "Y")


def layernorm_proj(f, p):
    M, D, N = p["M"], p["D"], p["N"]
    f.arg("X", [M, D], X_INIT)
    f.arg("gamma", [D], NORM_INIT)
    f.arg("beta", [D], BIAS_INIT)
    f.arg("W", [D, N], WEIGHT_INIT)
    f.comment("Xn = layernorm(X, gamma, beta), stored f16")
    layernorm(f, "Xn", "X", "gamma", "beta")
    f.comment("Y = Xn @ W, stored f16")
    f.matmul("Y1", "Xn", "W")
    f.to_f16("Y", "Y1")
    f.result("Y", "Y")


def rmsnorm_only(f, p):
    f.arg("X", [p["M"], p["D"]], X_INIT)
    f.arg("g", [p["D"]], NORM_INIT)
    gen.rms(f, "Y", "X", "g")
    f.result("Y", "Y")


def layernorm_only(f, p):
    f.arg("X", [p["M"], p["D"]], X_INIT)
    f.arg("gamma", [p["D"]], NORM_INIT)
    f.arg("beta", [p["D"]], BIAS_INIT)
    layernorm(f, "Y", "X", "gamma", "beta")
    f.result("Y", "Y")


def rope(f, name, x, w, heads, p):
    """name = rope(x @ w) as [M, heads * d], stored f16: each head's
    vector q split in halves q1, q2 (d/2 each), out = (q1 cos - q2 sin,
    q2 cos + q1 sin) with the tables cos, sin [M, d/2] of the rows'
    positions."""
    M, d = p["M"], p["d"]
    h = d // 2
    f.matmul(name + "1", x, w)
    f.expand(name + "4", name + "1", [[0], [1, 2, 3]], [M, heads, 2, h])
    lo = f.extract_slice(name + "_lo", name + "4", [0, 0, 0, 0],
                         [M, heads, 1, h])
    hi = f.extract_slice(name + "_hi", name + "4", [0, 0, 1, 0],
                         [M, heads, 1, h])
    half = [M, heads, 1, h]
    ins = [(lo, None), (hi, None), ("cos", [0, 3]), ("sin", [0, 3])]
    f.generic(name + "_rlo", ins, half, "f16",
              lambda b, a: b.trunc(b.sub(b.mul(a[0], b.ext(a[2])),
                                         b.mul(a[1], b.ext(a[3])))))
    f.generic(name + "_rhi", ins, half, "f16",
              lambda b, a: b.trunc(b.add(b.mul(a[1], b.ext(a[2])),
                                         b.mul(a[0], b.ext(a[3])))))
    f.empty(name + "_r", [M, heads, 2, h], "f16")
    f.insert_slice(name + "_r0", name + "_rlo", name + "_r", [0, 0, 0, 0])
    f.insert_slice(name + "_r1", name + "_rhi", name + "_r0", [0, 0, 1, 0])
    return f.collapse(name, name + "_r1", [[0], [1, 2, 3]])


def qkv_rope(f, p):
    M, D, H, KVH, d = p["M"], p["D"], p["H"], p["KVH"], p["d"]
    assert d % 2 == 0
    f.arg("X", [M, D], X_INIT)
    f.arg("WQ", [D, H * d], WEIGHT_INIT)
    f.arg("WK", [D, KVH * d], WEIGHT_INIT)
    f.arg("WV", [D, KVH * d], WEIGHT_INIT)
    f.arg("cos", [M, d // 2], ROPE_INIT)
    f.arg("sin", [M, d // 2], ROPE_INIT)
    f.comment("Q = rope(X @ WQ), K = rope(X @ WK): per head, halves "
              "(q1, q2) -> (q1 cos - q2 sin, q2 cos + q1 sin); stored f16")
    rope(f, "Q", "X", "WQ", H, p)
    rope(f, "K", "X", "WK", KVH, p)
    f.comment("V = X @ WV, stored f16")
    f.matmul("V1", "X", "WV")
    f.to_f16("V", "V1")
    for v in "QKV":
        f.result(v, v)


def softmax_pv(f, p):
    H, M, P, d = p["H"], p["M"], p["P"], p["d"]
    f.arg("S", [H, M, P], KV_INIT)
    f.arg("V", [H, P, d], KV_INIT)
    f.comment("Pr = softmax(S, -1) with max subtraction, stored f16")
    softmax16(f, "Pr", "S")
    f.comment("O = Pr @ V, stored f16")
    f.matmul("O1", "Pr", "V")
    f.to_f16("O", "O1")
    f.result("O", "O")


def attn_decode(f, p):
    H, KVH, M, P, d = p["H"], p["KVH"], p["M"], p["P"], p["d"]
    G = H // KVH
    assert G * KVH == H
    f.arg("Q", [H, M, d], X_INIT)
    f.arg("Kc", [KVH, P, d], KV_INIT)
    f.arg("Vc", [KVH, P, d], KV_INIT)
    f.comment("GQA: query head h = k * G + j reads KV head k (G = H / KVH = "
              "%d): Qg = reshape(Q, (KVH, G * M, d))" % G)
    f.expand("Qe", "Q", [[0, 1], [2], [3]], [KVH, G, M, d])
    f.collapse("Qg", "Qe", [[0], [1, 2], [3]])
    f.comment("C = Qg @ transpose(Kc, (0, 2, 1)) (f32)")
    f.transpose("KcT", "Kc", [0, 2, 1])
    f.matmul("C", "Qg", "KcT")
    f.comment("Pr = softmax(C / sqrt(d)) with max subtraction, stored f16")
    softmax16(f, "Pr", "C", scale=1.0 / math.sqrt(d))
    f.comment("O = reshape(Pr @ Vc, (H, M, d)), stored f16")
    f.matmul("Og1", "Pr", "Vc")
    f.to_f16("Og", "Og1")
    f.expand("Oe", "Og", [[0], [1, 2], [3]], [KVH, G, M, d])
    f.collapse("O", "Oe", [[0, 1], [2], [3]])
    f.result("O", "O")


def attn_causal(f, p):
    H, M, P, d = p["H"], p["M"], p["P"], p["d"]
    f.arg("Q", [H, M, d], X_INIT)
    f.arg("Kc", [H, P, d], KV_INIT)
    f.arg("Vc", [H, P, d], KV_INIT)
    f.comment("C = Q @ transpose(Kc, (0, 2, 1)) (f32)")
    f.transpose("KcT", "Kc", [0, 2, 1])
    f.matmul("C", "Q", "KcT")
    f.comment("Pr = softmax(C / sqrt(d)) with max subtraction and a causal "
              "mask (the %d rows are the last of the %d positions: row i "
              "sees keys j <= i + %d), stored f16" % (M, P, P - M))
    softmax16(f, "Pr", "C", scale=1.0 / math.sqrt(d), causal_offset=P - M)
    f.comment("O = Pr @ Vc, stored f16")
    f.matmul("O1", "Pr", "Vc")
    f.to_f16("O", "O1")
    f.result("O", "O")


def decoder(f, p):
    """One decoder layer of a Llama-style model for M new tokens against a
    KV cache of P positions: Y = X2 + MLP(rms(X2)), X2 = X + attn(rms(X)) WO;
    also the new tokens' K (rotated) and V, which the caller appends to the
    cache (attention reads the P cached positions)."""
    M, D, F, H, KVH, d = p["M"], p["D"], p["F"], p["H"], p["KVH"], p["d"]
    G = H // KVH
    assert G * KVH == H and d % 2 == 0
    f.arg("X", [M, D], X_INIT)
    f.arg("g1", [D], NORM_INIT)
    f.arg("WQ", [D, H * d], WEIGHT_INIT)
    f.arg("WK", [D, KVH * d], WEIGHT_INIT)
    f.arg("WV", [D, KVH * d], WEIGHT_INIT)
    f.arg("cos", [M, d // 2], ROPE_INIT)
    f.arg("sin", [M, d // 2], ROPE_INIT)
    f.arg("Kc", [KVH, p["P"], d], KV_INIT)
    f.arg("Vc", [KVH, p["P"], d], KV_INIT)
    f.arg("WO", [H * d, D], WEIGHT_INIT)
    f.arg("g2", [D], NORM_INIT)
    for w, shape in (("W1", [D, F]), ("W3", [D, F]), ("W2", [F, D])):
        f.arg(w, shape, WEIGHT_INIT)
    f.comment("Xn = rms(X, g1); Q, K = rope(Xn @ WQ, Xn @ WK); V = Xn @ WV")
    gen.rms(f, "Xn", "X", "g1")
    rope(f, "Q", "Xn", "WQ", H, p)
    rope(f, "K", "Xn", "WK", KVH, p)
    f.matmul("V1", "Xn", "WV")
    f.to_f16("V", "V1")
    f.comment("Per head [H, M, d]; GQA groups as rows: Qg [KVH, G * M, d]")
    f.expand("Q3", "Q", [[0], [1, 2]], [M, H, d])
    f.transpose("Qh", "Q3", [1, 0, 2])
    f.expand("Qe", "Qh", [[0, 1], [2], [3]], [KVH, G, M, d])
    f.collapse("Qg", "Qe", [[0], [1, 2], [3]])
    f.comment("Pr = softmax(Qg Kc^T / sqrt(d)) with max subtraction; "
              "Og = Pr @ Vc, stored f16")
    f.transpose("KcT", "Kc", [0, 2, 1])
    f.matmul("C", "Qg", "KcT")
    softmax16(f, "Pr", "C", scale=1.0 / math.sqrt(d))
    f.matmul("Og1", "Pr", "Vc")
    f.to_f16("Og", "Og1")
    f.comment("Heads back to rows: O [M, H * d]; X2 = X + O @ WO, stored f16")
    f.expand("Oe", "Og", [[0], [1, 2], [3]], [KVH, G, M, d])
    f.collapse("Oh", "Oe", [[0, 1], [2], [3]])
    f.transpose("Om", "Oh", [1, 0, 2])
    f.collapse("O", "Om", [[0], [1, 2]])
    f.matmul("A1", "O", "WO")
    f.generic("X2", [("X", None), ("A1", None)], [M, D], "f16",
              lambda b, a: b.trunc(b.add(b.ext(a[0]), a[1])))
    f.comment("Y = X2 + (silu(X2n @ W1) * (X2n @ W3)) @ W2, X2n = rms(X2, g2)")
    gen.rms(f, "X2n", "X2", "g2")
    f.matmul("H1", "X2n", "W1")
    f.matmul("H3", "X2n", "W3")
    f.generic("Ag", [("H1", None), ("H3", None)], [M, F], "f16",
              lambda b, a: b.trunc(b.mul(silu(b, a[0]), a[1])))
    f.matmul("Y1", "Ag", "W2")
    f.generic("Y", [("X2", None), ("Y1", None)], [M, D], "f16",
              lambda b, a: b.trunc(b.add(b.ext(a[0]), a[1])))
    for v in ("Y", "K", "V"):
        f.result(v, v)


BUILDERS = {
    "swiglu": lambda f, p: gated_mlp(f, p, silu),
    "swiglu_linear": lambda f, p: gated_mlp(f, p, silu, linear=True),
    "geglu": lambda f, p: gated_mlp(f, p, gelu_tanh),
    "rmsnorm_proj": rmsnorm_proj,
    "layernorm_proj": layernorm_proj,
    "rmsnorm": rmsnorm_only,
    "layernorm": layernorm_only,
    "qkv_rope": qkv_rope,
    "softmax_pv": softmax_pv,
    "moe": lambda f, p: gated_mlp(f, p, silu, batch=(p["E"],)),
    "attn_decode": attn_decode,
    "attn_causal": attn_causal,
    "decoder": decoder,
}


# Descriptions (bench/gpu/bench.py imports these) ------------------------------


def kind(name):
    return PROGRAMS[name][0]


def params(name, size="full"):
    """The program's sizes: size "full" or "small" (scaled down)."""
    _, _, full, small = PROGRAMS[name]
    return dict(full if size == "full" else small)


def build(name, size="full"):
    f = Func(name)
    BUILDERS[kind(name)](f, params(name, size))
    return f


def arg_specs(name, size="full"):
    """[(name, shape, (mean, stddev))] of the function's arguments."""
    return build(name, size).args


def result_specs(name, size="full"):
    """[(tile.name, shape)] of the function's results."""
    f = build(name, size)
    return [(n, f.shape(v)) for v, n in f.results]


def _numel(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def compulsory_bytes(name, size="full"):
    """(read, written): every f16 argument read once, every f16 result
    written once (nothing is updated in place)."""
    f = build(name, size)
    read = sum(2 * _numel(s) for _, s, _ in f.args)
    written = sum(2 * _numel(f.shape(v)) for v, _ in f.results)
    return read, written


def size_line(name, size):
    p = params(name, size)
    sizes = ", ".join("%s=%d" % (k, p[k]) for k in SIZE_KEYS[kind(name)].split())
    what = PROGRAMS[name][1] if size == "full" else "scaled down for tests"
    return "%s: %s." % (what, sizes)


def render(name, size):
    header = [TITLES[kind(name)], size_line(name, size),
              "Generated by bench/workloads/suite.py; edit that, not this "
              "file."]
    text = "".join("// %s\n" % l for l in header) + "\n"
    if size == "small":
        text = RUN_LINES + "\n" + text
        text += "// CHECK-LABEL: func.func @%s(\n" % name
    return text + build(name, size).text()


def as_dtype(text, dtype):
    """`text` (a program of this module) with its 16-bit float type
    `dtype` ("f16" or "bf16") instead of f16: every f16 element type of a
    tensor (`xf16`) and every f16 scalar type (casts, yields) becomes it."""
    if dtype == "f16":
        return text
    return re.sub(r"(?<=[x ,(:<])f16(?![A-Za-z0-9_])", dtype, text)


def bytes_table():
    rows = ["| program | read (MB) | written (MB) | total (MB) "
            "| at 2.92 TB/s (us) |", "|---|---|---|---|---|"]
    for name in PROGRAMS:
        read, written = compulsory_bytes(name)
        rows.append("| %s | %.2f | %.3f | %.2f | %.1f |" % (
            name, read / 1e6, written / 1e6, (read + written) / 1e6,
            (read + written) / gen.COPY_BANDWIDTH * 1e6))
    return "\n".join(rows) + "\n"


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root",
                        default=os.path.dirname(os.path.dirname(HERE)),
                        help="write under DIR/bench/workloads/suite and "
                        "DIR/test/Workloads/suite (default: the repository "
                        "root)")
    parser.add_argument("--bytes", action="store_true",
                        help="print the compulsory HBM bytes and exit")
    parser.add_argument("--list", action="store_true",
                        help="print the program names and exit")
    parser.add_argument("--emit", metavar="NAME",
                        help="print the full-size program NAME and exit")
    parser.add_argument("--dtype", choices=["f16", "bf16"], default="f16",
                        help="16-bit float type of --emit's tensors")
    args = parser.parse_args(argv)
    if args.emit:
        if args.emit not in PROGRAMS:
            parser.error("no program %r (see --list)" % args.emit)
        sys.stdout.write(as_dtype(render(args.emit, "full"), args.dtype))
        return 0
    if args.bytes:
        sys.stdout.write(bytes_table())
        return 0
    if args.list:
        sys.stdout.write("".join(n + "\n" for n in PROGRAMS))
        return 0
    for sub, size in ((os.path.join("bench", "workloads", "suite"), "full"),
                      (os.path.join("test", "Workloads", "suite"), "small")):
        out_dir = os.path.join(args.root, sub)
        os.makedirs(out_dir, exist_ok=True)
        for name in PROGRAMS:
            with open(os.path.join(out_dir, name + ".mlir"), "w",
                      newline="\n") as out:
                out.write(render(name, size))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
