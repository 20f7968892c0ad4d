#!/usr/bin/env python3
"""Benchmarks the six workloads against PyTorch and the HBM floor on a GPU.

Run on the GPU machine, in the repository root (see bench/gpu/README.md):

  python3 bench/gpu/bench.py --artifacts DIR --runner build/bin/tile-gpu-run \
      --out bench/results [--configs llama falcon] [--workloads ...] [--quick]

For each config x workload of docs/Workloads.md:

1. HBM floor: the compulsory bytes (bench/workloads/generate.py's
   compulsory_bytes: every input read once, every output written once, the
   caches read whole and only their M new rows written) over the copy
   bandwidth measured here (a 1 GiB device-to-device copy, read + written
   bytes over its median time).
2. PyTorch: eager, eager+SDPA, torch.compile and compile+SDPA, written from
   the linalg programs of bench/workloads/ (fp16 storage, f32 accumulation,
   f32 softmax statistics; the KV-cache update is part of every variant).
   Inputs come from torch's seeded generator with the docs/Workloads.md
   distributions. Each variant is checked against eager (max|a-b|/max|b| <=
   2e-2 on every output, caches included) and timed as the reference
   times of docs/Workloads.md were:
   one call captured in a CUDA graph, median of 50 samples of 10 replays.
   Eager is also checked against the linalg reference itself, when an
   artifact of the workload is there: the artifact's inputs are regenerated
   (docs/RandomInputs.md) and eager's outputs compared with its expected
   outputs (fp64 CPU evaluation of the linalg program).
3. Ours: every artifact directory <config>-<workload>-<variant> under
   --artifacts, run as `RUNNER DIR --graph --quiet --warmup 10
   --repetitions 100` (the launch sequence captured once in a CUDA graph,
   median over runs of 10 replays, per call, as PyTorch is timed; with
   --no-graph, `--time`: device events around plain launches); its
   median_us and whether it passed (PASS, exit 0).

Writes <out>/<device-slug>-<date>.json and .md. Needs only torch and the
standard library (bench/workloads/generate.py, stdlib only, is imported for
the shapes, distributions and compulsory bytes).

--cpu-smoke runs the PyTorch functions on the CPU at the scaled shapes of
test/Workloads (generate.py's "small" config) against an independent fp64
einsum transcription, and exercises the rest of the script (no CUDA graphs,
no timing worth reading).

--suite (config `suite`) runs the benchmark suite of bench/workloads/suite.py
instead (bench/workloads/suite/: MLPs, norms, rope, softmax, MoE, decode
attention at real model sizes), its artifacts suite-<program>-default from
bench/gpu/make-suite-artifacts.sh; its shapes, distributions and compulsory
bytes come from suite.py. With --cpu-smoke, at the scaled-down sizes of
test/Workloads/suite (artifacts from SCALED=1 make-suite-artifacts.sh).
"""

import argparse
import datetime
import gc
import json
import math
import os
import re
import statistics
import subprocess
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "bench", "workloads"))
import generate as gen  # noqa: E402  (bench/workloads/generate.py)
from graph_timing import time_graph  # noqa: E402  (bench/gpu/graph_timing.py)
import suite  # noqa: E402  (bench/workloads/suite.py)

WORKLOADS = gen.WORKLOADS
ATTENTION = ("vanilla", "prenorm", "qknorm", "keyformer", "roco")
PT_VARIANTS = ("eager", "eager+sdpa", "compile", "compile+sdpa")
CHECK_TOL = 2e-2   # variant vs eager (brief)
REF_TOL = 1e-2     # eager vs the linalg reference (tile-gpu-run's tolerance)
RMS_EPS = 1e-6
LN_EPS = 1e-5
SUITE_SIZE = "full"  # the suite's sizes: "small" under --cpu-smoke

torch = None  # imported in main(), so that --help works without torch
F = None


def log(*a):
    print(*a, flush=True)


# ---------------------------------------------------------------------------
# The workloads in PyTorch. Arguments in the linalg order (bench/workloads/
# README.md); each returns its outputs but the caches (O2 or out, then the
# extra outputs); Kc and Vc are updated in place, as tensor.insert_slice does
# in the linalg, and are the last two outputs of the workload.
# ---------------------------------------------------------------------------


def mm32_out_dtype(a, b):
    """a @ b with f16 operands and an f32 result (f32 accumulation)."""
    if a.dim() == 2:
        return torch.mm(a, b, out_dtype=torch.float32)
    return torch.bmm(a, b, out_dtype=torch.float32)


def mm32_cast(a, b):
    """a @ b accumulated in f32 but rounded to the storage type, then f32:
    the fallback where out_dtype is missing (one extra rounding)."""
    return torch.matmul(a, b).float()


def rms(x, g):
    """x / sqrt(mean(x*x, -1) + 1e-6) * g in f32, stored in g's dtype."""
    xf = x.float()
    den = torch.sqrt(xf.pow(2).mean(-1, keepdim=True) + RMS_EPS)
    return (xf / den * g.float()).to(g.dtype)


def heads(x, w, H, d):
    """transpose(reshape(x @ w, (M, H, d)), (1, 0, 2)): [H, M, d], stored."""
    return (x @ w).view(x.shape[0], H, d).transpose(0, 1)


def attention(Q, K, V, Kc, Vc, sdpa, mm32, need="none"):
    """The attention core of docs/Workloads.md with the cache update.

    Q, K, V [H, M, d]; Kc, Vc [H, P, d] updated in place at rows P-M..P-1.
    Returns O2 [M, H*d] and, as `need` asks ("scores", "probs"), the f32
    scores C = Q @ Kc^T and probabilities Cdiv = softmax(C) [H, M, P].
    softmax(C) is exp(C) / sum(exp(C)): torch.softmax subtracts the row
    maximum first, which does not change the function (and, inputs keeping
    exp in range, not the f32 result beyond rounding). SDPA computes
    softmax(Q K^T * scale) V with the probabilities rounded to f16 for the
    second product, as the linalg's Cdiv16: with scale=1.0 it is O exactly.
    """
    H, M, d = Q.shape
    P = Kc.shape[1]
    Kc[:, P - M:].copy_(K)
    Vc[:, P - M:].copy_(V)
    C = Cdiv = None
    if sdpa:
        O = F.scaled_dot_product_attention(
            Q.unsqueeze(0), Kc.unsqueeze(0), Vc.unsqueeze(0), scale=1.0)[0]
    if not sdpa or need in ("scores", "probs"):
        C = mm32(Q, Kc.transpose(1, 2))
    if not sdpa or need == "probs":
        Cdiv = torch.softmax(C, dim=-1)
    if not sdpa:
        O = torch.bmm(Cdiv.to(Q.dtype), Vc)
    O2 = O.transpose(0, 1).reshape(M, H * d)
    return O2, C, Cdiv


def w_vanilla(X, WQ, WK, WV, Kc, Vc, *, sdpa, mm32):
    H, d = Kc.shape[0], Kc.shape[2]
    Q, K, V = heads(X, WQ, H, d), heads(X, WK, H, d), heads(X, WV, H, d)
    O2, _, _ = attention(Q, K, V, Kc, Vc, sdpa, mm32)
    return (O2,)


def w_prenorm(X, g, WQ, WK, WV, Kc, Vc, *, sdpa, mm32):
    return w_vanilla(rms(X, g), WQ, WK, WV, Kc, Vc, sdpa=sdpa, mm32=mm32)


def w_qknorm(X, WQ, WK, WV, gq, gk, Kc, Vc, *, sdpa, mm32):
    H, d = Kc.shape[0], Kc.shape[2]
    Q = rms(heads(X, WQ, H, d), gq)
    K = rms(heads(X, WK, H, d), gk)
    V = heads(X, WV, H, d)
    O2, _, _ = attention(Q, K, V, Kc, Vc, sdpa, mm32)
    return (O2,)


def w_keyformer(X, WQ, WK, WV, noise, Kc, Vc, *, sdpa, mm32):
    H, d = Kc.shape[0], Kc.shape[2]
    Q, K, V = heads(X, WQ, H, d), heads(X, WK, H, d), heads(X, WV, H, d)
    O2, C, _ = attention(Q, K, V, Kc, Vc, sdpa, mm32, need="scores")
    Cp = (C + noise.float()) / 1.5
    C_out = torch.softmax(Cp, dim=-1).sum(1)
    return O2, C_out.to(X.dtype)


def w_roco(X, WQ, WK, WV, Kc, Vc, *, sdpa, mm32):
    H, d = Kc.shape[0], Kc.shape[2]
    Q, K, V = heads(X, WQ, H, d), heads(X, WK, H, d), heads(X, WV, H, d)
    O2, _, Cdiv = attention(Q, K, V, Kc, Vc, sdpa, mm32, need="probs")
    return O2, Cdiv.sum(1).to(X.dtype), (Cdiv * Cdiv).sum(1).to(X.dtype)


def w_ffn(O2in, X, WO, g, W1a, W1b, W2, *, sdpa, mm32):
    A2 = mm32(O2in, WO) + X.float()
    A3 = rms(A2, g)
    F1 = (mm32(A3, W1a) * F.silu(mm32(A3, W1b))).to(X.dtype)
    return (F1 @ W2,)


IMPLS = {"vanilla": w_vanilla, "prenorm": w_prenorm, "qknorm": w_qknorm,
         "keyformer": w_keyformer, "roco": w_roco, "ffn": w_ffn}


# The suite (bench/workloads/suite.py), one function per kind of program,
# written from its linalg: f16 storage, f32 accumulation, the same values
# rounded to f16 (A, Xn, the rope halves, the probabilities).


def s_gated(act):
    def fn(X, W1, W3, W2, *, sdpa, mm32):
        A = (act(mm32(X, W1)) * mm32(X, W3)).to(X.dtype)
        return (A @ W2,)
    return fn


def s_gated_linear(act):
    """nn.Linear's layout: the weights stored [out, in], x @ W^T."""
    gated = s_gated(act)

    def fn(X, W1, W3, W2, *, sdpa, mm32):
        return gated(X, W1.t(), W3.t(), W2.t(), sdpa=sdpa, mm32=mm32)
    return fn


def gelu_tanh(x):
    return F.gelu(x, approximate="tanh")


def layernorm(x, gamma, beta):
    """layer_norm in f32 (biased variance, eps 1e-5), stored in x's dtype."""
    return F.layer_norm(x.float(), x.shape[-1:], gamma.float(), beta.float(),
                        eps=LN_EPS).to(x.dtype)


def s_rmsnorm_proj(X, g, W, *, sdpa, mm32):
    return ((X.float() + mm32(rms(X, g), W)).to(X.dtype),)


def s_layernorm_proj(X, gamma, beta, W, *, sdpa, mm32):
    return (layernorm(X, gamma, beta) @ W,)


def s_rmsnorm(X, g, *, sdpa, mm32):
    return (rms(X, g),)


def s_layernorm(X, gamma, beta, *, sdpa, mm32):
    return (layernorm(X, gamma, beta),)


def s_qkv_rope(X, WQ, WK, WV, cos, sin, *, sdpa, mm32):
    M, h = cos.shape
    c, s = cos.float()[:, None], sin.float()[:, None]

    def rope(w):  # per head, halves (q1, q2) -> (q1 c - q2 s, q2 c + q1 s)
        q = mm32(X, w).view(M, -1, 2, h)
        q1, q2 = q[:, :, 0], q[:, :, 1]
        return torch.cat((q1 * c - q2 * s, q2 * c + q1 * s),
                         dim=-1).to(X.dtype).view(M, -1)
    return rope(WQ), rope(WK), X @ WV


def s_softmax_pv(S, V, *, sdpa, mm32):
    return (torch.bmm(torch.softmax(S.float(), dim=-1).to(S.dtype), V),)


def s_attn_decode(Q, Kc, Vc, *, sdpa, mm32):
    """GQA without copies: query head h = k * G + j reads KV head k, so the
    G heads of a group are G * M query rows of KV head k."""
    H, M, d = Q.shape
    KVH = Kc.shape[0]
    Qg = Q.reshape(KVH, H // KVH * M, d)
    if sdpa:
        O = F.scaled_dot_product_attention(
            Qg.unsqueeze(0), Kc.unsqueeze(0), Vc.unsqueeze(0))[0]
    else:
        C = mm32(Qg, Kc.transpose(1, 2))
        Pr = torch.softmax(C * (1.0 / math.sqrt(d)), dim=-1).to(Q.dtype)
        O = torch.bmm(Pr, Vc)
    return (O.reshape(H, M, d),)


def causal_visible(M, P, device):
    """[M, P] booleans: row i (the last M of P positions) sees keys
    j <= i + P - M."""
    i = torch.arange(M, device=device)[:, None]
    j = torch.arange(P, device=device)[None, :]
    return j <= i + (P - M)


def s_attn_causal(Q, Kc, Vc, *, sdpa, mm32):
    H, M, d = Q.shape
    P = Kc.shape[1]
    if sdpa:  # [1, H, M, d]: the layout SDPA's fused kernels take
        q, k, v = Q.unsqueeze(0), Kc.unsqueeze(0), Vc.unsqueeze(0)
        if M == P:
            return (F.scaled_dot_product_attention(q, k, v,
                                                   is_causal=True)[0],)
        return (F.scaled_dot_product_attention(
            q, k, v, attn_mask=causal_visible(M, P, Q.device))[0],)
    C = mm32(Q, Kc.transpose(1, 2)) * (1.0 / math.sqrt(d))
    C = C.masked_fill(~causal_visible(M, P, Q.device), float("-inf"))
    Pr = torch.softmax(C, dim=-1).to(Q.dtype)
    return (torch.bmm(Pr, Vc),)


def s_decoder(X, g1, WQ, WK, WV, cos, sin, Kc, Vc, WO, g2, W1, W3, W2, *,
              sdpa, mm32):
    """suite.py's decoder: attention over the cache (GQA as rows of a KV
    head), residuals, SwiGLU; returns Y and the new tokens' K, V."""
    M, D = X.shape
    KVH, _, d = Kc.shape
    H = WQ.shape[1] // d
    Xn = rms(X, g1)
    Q, K, V = s_qkv_rope(Xn, WQ, WK, WV, cos, sin, sdpa=sdpa, mm32=mm32)
    Qh = Q.view(M, H, d).transpose(0, 1)
    (O,) = s_attn_decode(Qh, Kc, Vc, sdpa=sdpa, mm32=mm32)
    X2 = (X.float() + mm32(O.transpose(0, 1).reshape(M, H * d), WO)
          ).to(X.dtype)
    (Y1,) = s_gated(lambda x: F.silu(x))(rms(X2, g2), W1, W3, W2,
                                         sdpa=sdpa, mm32=mm32)
    return (X2 + Y1, K, V)


SUITE_IMPLS = {"swiglu": s_gated(lambda x: F.silu(x)),
               "swiglu_linear": s_gated_linear(lambda x: F.silu(x)),
               "geglu": s_gated(gelu_tanh),
               "rmsnorm_proj": s_rmsnorm_proj,
               "layernorm_proj": s_layernorm_proj,
               "rmsnorm": s_rmsnorm, "layernorm": s_layernorm,
               "qkv_rope": s_qkv_rope, "softmax_pv": s_softmax_pv,
               "moe": s_gated(lambda x: F.silu(x)),
               "attn_decode": s_attn_decode, "attn_causal": s_attn_causal,
               "decoder": s_decoder}


def make_fn(workload, sdpa, mm32):
    impl = IMPLS.get(workload) or SUITE_IMPLS[suite.kind(workload)]

    def fn(*args):
        return impl(*args, sdpa=sdpa, mm32=mm32)
    return fn


def has_caches(workload):
    return workload in ATTENTION


def has_sdpa(workload):
    return workload in ATTENTION or (
        workload in suite.PROGRAMS and
        suite.kind(workload) in ("attn_decode", "attn_causal", "decoder"))


def run_outputs(fn, args, workload):
    """All outputs in the linalg result order: fn's, then Kc, Vc."""
    outs = tuple(fn(*args))
    if has_caches(workload):
        outs += (args[-2], args[-1])
    return outs


# ---------------------------------------------------------------------------
# An independent fp64 transcription of generate.py (einsum, explicit exp /
# sum / divide), for --cpu-smoke only.
# ---------------------------------------------------------------------------


def literal(workload, args):
    if workload in suite.PROGRAMS:
        return suite_literal(workload, args)
    a = dict(zip(arg_names(workload, "small"), [t.double() for t in args]))

    def rms_(x, g):
        return x / torch.sqrt((x * x).sum(-1, keepdim=True) / x.shape[-1]
                              + RMS_EPS) * g

    if workload == "ffn":
        A2 = torch.einsum("mk,kn->mn", a["O2in"], a["WO"]) + a["X"]
        A3 = rms_(A2, a["g"])
        F1a = torch.einsum("mk,kf->mf", A3, a["W1a"])
        F1b = torch.einsum("mk,kf->mf", A3, a["W1b"])
        F1 = F1a * F1b * (1.0 / (1.0 + torch.exp(-F1b)))
        return (torch.einsum("mf,fn->mn", F1, a["W2"]),)
    Kc, Vc = a["Kc"].clone(), a["Vc"].clone()
    H, P, d = Kc.shape
    X = rms_(a["X"], a["g"]) if workload == "prenorm" else a["X"]
    M = X.shape[0]

    def hd(w):  # q[h, m, e] = sum_k X[m, k] w[k, h*d + e]
        return torch.einsum("mk,khe->hme", X, w.reshape(-1, H, d))

    Q, K, V = hd(a["WQ"]), hd(a["WK"]), hd(a["WV"])
    if workload == "qknorm":
        Q, K = rms_(Q, a["gq"]), rms_(K, a["gk"])
    Kc[:, P - M:, :] = K
    Vc[:, P - M:, :] = V
    C = torch.einsum("hme,hpe->hmp", Q, Kc)
    E = torch.exp(C)
    Cdiv = E / E.sum(2, keepdim=True)
    O = torch.einsum("hmp,hpe->hme", Cdiv, Vc)
    O2 = torch.einsum("hme->mhe", O).reshape(M, H * d)
    outs = (O2,)
    if workload == "keyformer":
        Ep = torch.exp((C + a["noise"]) / 1.5)
        outs += ((Ep / Ep.sum(2, keepdim=True)).sum(1),)
    if workload == "roco":
        outs += (Cdiv.sum(1), (Cdiv * Cdiv).sum(1))
    return outs + (Kc, Vc)


def suite_literal(name, args):
    """The suite's programs (suite.py) in fp64: einsum, explicit exp / max /
    sum / tanh, GQA by an explicit loop over the query heads."""
    a = dict(zip([n for n, _, _ in suite.arg_specs(name, "small")],
                 [t.double() for t in args]))
    k = suite.kind(name)

    def sigmoid(x):
        return 1.0 / (1.0 + torch.exp(-x))

    def softmax(x):  # over the last axis, max subtracted
        e = torch.exp(x - x.max(-1, keepdim=True).values)
        return e / e.sum(-1, keepdim=True)

    def rms_(x, g):
        return x / torch.sqrt((x * x).sum(-1, keepdim=True) / x.shape[-1]
                              + RMS_EPS) * g

    def ln(x, gamma, beta):
        mu = x.sum(-1, keepdim=True) / x.shape[-1]
        var = ((x - mu) ** 2).sum(-1, keepdim=True) / x.shape[-1]
        return (x - mu) / torch.sqrt(var + LN_EPS) * gamma + beta

    def rope(x, w, cos, sin):  # [M, heads, d]: per head of x @ w, the
        h = cos.shape[1]       # halves (q1, q2) -> (q1 c - q2 s, q2 c + q1 s)
        q = torch.einsum("mk,kje->mje", x, w.reshape(x.shape[1], -1, 2 * h))
        q1, q2 = q[..., :h], q[..., h:]
        c, s = cos[:, None, :], sin[:, None, :]
        return torch.cat((q1 * c - q2 * s, q2 * c + q1 * s), -1)

    def gqa(Q, Kc, Vc):  # Q [H, M, d]: query head h reads KV head h // G
        H, M, d = Q.shape
        G = H // Kc.shape[0]
        O = torch.empty_like(Q)
        for hq in range(H):
            c = torch.einsum("me,pe->mp", Q[hq], Kc[hq // G]) / math.sqrt(d)
            O[hq] = softmax(c) @ Vc[hq // G]
        return O

    if k == "swiglu_linear":  # nn.Linear's layout: W^T of each weight
        a = {n: (t.transpose(-1, -2) if n.startswith("W") else t)
             for n, t in a.items()}
        k = "swiglu"
    if k in ("swiglu", "geglu", "moe"):
        eq = "...mk,...kf->...mf"
        H1 = torch.einsum(eq, a["X"], a["W1"])
        H3 = torch.einsum(eq, a["X"], a["W3"])
        if k == "geglu":
            act = 0.5 * H1 * (1.0 + torch.tanh(
                math.sqrt(2.0 / math.pi) * (H1 + 0.044715 * H1 ** 3)))
        else:
            act = H1 * sigmoid(H1)
        return (torch.einsum("...mf,...fk->...mk", act * H3, a["W2"]),)
    if k == "rmsnorm_proj":
        return (a["X"] + torch.einsum("mk,kn->mn", rms_(a["X"], a["g"]),
                                      a["W"]),)
    if k == "layernorm_proj":
        return (torch.einsum("mk,kn->mn", ln(a["X"], a["gamma"], a["beta"]),
                             a["W"]),)
    if k == "rmsnorm":
        return (rms_(a["X"], a["g"]),)
    if k == "layernorm":
        return (ln(a["X"], a["gamma"], a["beta"]),)
    if k == "qkv_rope":
        X, M = a["X"], a["X"].shape[0]
        return (rope(X, a["WQ"], a["cos"], a["sin"]).reshape(M, -1),
                rope(X, a["WK"], a["cos"], a["sin"]).reshape(M, -1),
                X @ a["WV"])
    if k == "softmax_pv":
        return (torch.einsum("hmp,hpe->hme", softmax(a["S"]), a["V"]),)
    if k == "attn_decode":
        return (gqa(a["Q"], a["Kc"], a["Vc"]),)
    if k == "decoder":
        X, M = a["X"], a["X"].shape[0]
        Xn = rms_(X, a["g1"])
        Q = rope(Xn, a["WQ"], a["cos"], a["sin"])  # [M, H, d]
        O = gqa(Q.transpose(0, 1), a["Kc"], a["Vc"]).transpose(0, 1)
        X2 = X + O.reshape(M, -1) @ a["WO"]
        X2n = rms_(X2, a["g2"])
        H1, H3 = X2n @ a["W1"], X2n @ a["W3"]
        return (X2 + (H1 * sigmoid(H1) * H3) @ a["W2"],
                rope(Xn, a["WK"], a["cos"], a["sin"]).reshape(M, -1),
                Xn @ a["WV"])
    if k == "attn_causal":
        Q, Kc, Vc = a["Q"], a["Kc"], a["Vc"]
        d = Q.shape[-1]
        c = torch.einsum("hme,hpe->hmp", Q, Kc) / math.sqrt(d)
        c = c.masked_fill(~causal_visible(Q.shape[1], Kc.shape[1], c.device),
                          float("-inf"))
        return (torch.einsum("hmp,hpe->hme", softmax(c), Vc),)
    raise KeyError(name)


# ---------------------------------------------------------------------------
# Inputs
# ---------------------------------------------------------------------------


def arg_specs(workload, config):
    """[(name, shape, (mean, stddev))] of the linalg function, in order."""
    if config == "suite":
        return suite.arg_specs(workload, SUITE_SIZE)
    return gen.build(workload, gen.CONFIGS[config]).args


def arg_names(workload, config):
    return [n for n, _, _ in arg_specs(workload, config)]


def result_shapes(workload, config):
    if config == "suite":
        return suite.result_specs(workload, SUITE_SIZE)
    f = gen.build(workload, gen.CONFIGS[config])
    return [(n, f.shape(v)) for v, n in f.results]


def torch_inputs(workload, config, seed, device, dtype):
    """The arguments drawn from torch's seeded generator (docs/Workloads.md
    distributions), one generator stream per argument."""
    out = []
    for i, (_, shape, (mean, std)) in enumerate(arg_specs(workload,
                                                          config)):
        g = torch.Generator(device=device)
        g.manual_seed(seed * 1000 + i)
        t = torch.randn(shape, generator=g, device=device,
                        dtype=torch.float32)
        out.append((t * std + mean).to(dtype))
    return out


# The generator of docs/RandomInputs.md (splitmix64 + Box-Muller), in int64
# torch arithmetic (wrapping multiplication; logical shifts by masking).
_GOLDEN = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB
_STREAM = 0xD1B54A32D192ED03
_M64 = (1 << 64) - 1


def _signed(c):
    c &= _M64
    return c - (1 << 64) if c >> 63 else c


def _mix_py(z):
    z = ((z ^ (z >> 30)) * _MIX1) & _M64
    z = ((z ^ (z >> 27)) * _MIX2) & _M64
    return z ^ (z >> 31)


def _shr(z, k):
    return (z >> k) & ((1 << (64 - k)) - 1)


def _mix_t(z):
    z = (z ^ _shr(z, 30)) * _signed(_MIX1)
    z = (z ^ _shr(z, 27)) * _signed(_MIX2)
    return z ^ _shr(z, 31)


def splitmix_normal(n, seed, stream, mean, std, device, chunk=1 << 24):
    """float64 tensor of n draws of fillRandom(seed, stream, normal(mean,
    std)), before rounding to the element type."""
    start = _mix_py((seed + _GOLDEN) & _M64) ^ ((_STREAM * (stream + 1))
                                                 & _M64)
    pairs = (n + 1) // 2
    out = torch.empty(2 * pairs, dtype=torch.float64, device=device)
    for p0 in range(0, pairs, chunk):
        p1 = min(pairs, p0 + chunk)
        j = torch.arange(2 * p0 + 1, 2 * p1 + 1, dtype=torch.int64,
                         device=device)
        z = _mix_t(j * _signed(_GOLDEN) + _signed(start))
        u = (_shr(z, 11).to(torch.float64) + 0.5) * 2.0 ** -53
        u1, u2 = u[0::2], u[1::2]
        r = torch.sqrt(-2.0 * torch.log(u1))
        t = (2.0 * math.pi) * u2
        o = out[2 * p0:2 * p1].view(-1, 2)
        o[:, 0] = mean + std * r * torch.cos(t)
        o[:, 1] = mean + std * r * torch.sin(t)
    return out[:n]


def check_generator():
    """The splitmix64 reference values (unittests/Support)."""
    z = torch.tensor([_signed(_GOLDEN), _signed(2 * _GOLDEN)],
                     dtype=torch.int64)
    got = [v & _M64 for v in _mix_t(z).tolist()]
    want = [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4]
    assert got == want and [_mix_py(_GOLDEN), _mix_py(2 * _GOLDEN & _M64)] \
        == want, "splitmix64 does not reproduce its reference values"


# ---------------------------------------------------------------------------
# Artifacts: the reference check and our runs
# ---------------------------------------------------------------------------


DTYPES = {"f16": "float16", "bf16": "bfloat16", "f32": "float32",
          "f64": "float64"}


def read_manifest(path):
    m = {"tensors": [], "outputs": [], "kernels": 0, "seed": 0}
    with open(os.path.join(path, "manifest.txt")) as f:
        for line in f:
            t = line.split()
            if not t or t[0].startswith("#"):
                continue
            if t[0] == "seed":
                m["seed"] = int(t[1])
            elif t[0] == "tensor":
                rank = int(t[4])
                shape = [int(x) for x in t[5:5 + rank]]
                m["tensors"].append(dict(name=t[1], dtype=t[2], role=t[3],
                                         shape=shape, init=t[5 + rank:]))
            elif t[0] == "kernel":
                m["kernels"] += 1
            elif t[0] == "output":
                m["outputs"].append((t[1], t[2], t[3] if len(t) > 3
                                     else None))
    return m


def read_expected(path, kind, fname, initial):
    data = open(os.path.join(path, fname), "rb").read()
    if kind == "dense":
        return torch.frombuffer(bytearray(data), dtype=torch.float64).clone()
    count = int.from_bytes(data[:8], "little")
    rec = torch.frombuffer(bytearray(data[8:8 + 16 * count]),
                           dtype=torch.int64).view(count, 2)
    out = initial.double().flatten().cpu().clone()
    out[rec[:, 0]] = rec[:, 1].contiguous().view(torch.float64)
    return out


def reference_check(workload, config, art_dir, device, dtype):
    """Eager on the artifact's inputs vs the artifact's expected outputs
    (the linalg program evaluated in fp64): max_rel_err per output."""
    m = read_manifest(art_dir)
    specs = arg_specs(workload, config)
    rand = sorted((t for t in m["tensors"] if len(t["init"]) >= 5
                   and t["init"][0] == "random"),
                  key=lambda t: int(t["init"][1]))
    if len(rand) != len(specs):
        return {"error": "%d random tensors in the manifest, %d arguments"
                % (len(rand), len(specs))}
    args, by_name = [], {}
    for t, (name, shape, _) in zip(rand, specs):
        if list(shape) != t["shape"] or t["init"][2] != "normal":
            return {"error": "tensor %s %s does not match argument %s %s"
                    % (t["name"], t["shape"], name, list(shape))}
        n = math.prod(shape)
        v = splitmix_normal(n, m["seed"], int(t["init"][1]),
                            float(t["init"][3]), float(t["init"][4]), device)
        x = v.to(getattr(torch, DTYPES[t["dtype"]])).view(shape)
        args.append(x.to(dtype))
        by_name[t["name"]] = x
    initial = {k: v.clone() for k, v in by_name.items()}
    outs = run_outputs(make_fn(workload, False, MM32), args, workload)
    sync(device)
    if len(outs) != len(m["outputs"]):
        return {"error": "%d outputs, the manifest lists %d"
                % (len(outs), len(m["outputs"]))}
    errs = {}
    for out, (name, kind, fname) in zip(outs, m["outputs"]):
        if kind == "none":
            continue
        init = initial.get(name)
        if init is None:
            init = torch.zeros(out.numel(), dtype=torch.float64)
        ref = read_expected(art_dir, kind, fname, init)
        errs[name] = rel_err(out, ref.view(out.shape))
    return {"artifact": os.path.basename(art_dir.rstrip("/")),
            "max_rel_err": errs,
            "pass": all(e <= REF_TOL for e in errs.values())}


def find_artifacts(root):
    """{(config, workload): {variant: dir}}."""
    found = {}
    if not root or not os.path.isdir(root):
        return found
    pat = re.compile(r"^(%s)-(%s)-(.+)$" % (
        "|".join(list(gen.CONFIGS) + ["suite"]),
        "|".join(list(WORKLOADS) + list(suite.PROGRAMS))))
    for name in sorted(os.listdir(root)):
        path = os.path.join(root, name)
        mo = pat.match(name)
        if mo and os.path.isfile(os.path.join(path, "manifest.txt")):
            found.setdefault((mo.group(1), mo.group(2)), {})[mo.group(3)] = \
                path
    return found


def run_ours(runner, art_dir, warmup, reps, timeout, graph=True):
    cmd = [runner, art_dir, "--graph" if graph else "--time", "--quiet",
           "--warmup", str(warmup), "--repetitions", str(reps)]
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"us": None, "pass": False, "status": None,
                "note": "timed out after %d s" % timeout}
    except OSError as e:
        return {"us": None, "pass": False, "status": None, "note": str(e)}
    out = p.stdout
    mo = re.search(r"median_us=([0-9.eE+-]+)", out)
    km = re.search(r"kernels=(\d+)", out)
    passed = p.returncode == 0 and re.search(r"^PASS", out, re.M) is not None
    r = {"us": float(mo.group(1)) if mo else None, "pass": passed,
         "status": p.returncode,
         "kernels": int(km.group(1)) if km else None}
    if not passed or r["us"] is None:
        r["note"] = " / ".join(out.strip().splitlines()[-4:])
    return r


# ---------------------------------------------------------------------------
# Measurement
# ---------------------------------------------------------------------------


def rel_err(a, b):
    a = a.detach().double().cpu().flatten()
    b = b.detach().double().cpu().flatten()
    if not torch.isfinite(a).all():
        return float("inf")
    den = b.abs().max().item()
    diff = (a - b).abs().max().item()
    return diff / den if den > 0 else diff


def sync(device):
    if device == "cuda":
        torch.cuda.synchronize()


def time_wall(fn, args, samples, replays):
    """--cpu-smoke stand-in for time_graph (wall clock)."""
    fn(*args)
    times = []
    for _ in range(samples):
        t0 = time.perf_counter()
        for _ in range(replays):
            outs = fn(*args)
        times.append((time.perf_counter() - t0) * 1e6 / replays)
    return statistics.median(times), outs, None


def copy_bandwidth(device, runs, nbytes=1 << 30):
    """Bytes read + written per second by dst.copy_(src), median of runs."""
    if device != "cuda":
        nbytes = 1 << 26
    src = torch.empty(nbytes, dtype=torch.uint8, device=device)
    src.fill_(1)
    dst = torch.empty_like(src)
    for _ in range(5):
        dst.copy_(src)
    sync(device)
    times = []
    for _ in range(runs):
        if device == "cuda":
            a = torch.cuda.Event(enable_timing=True)
            b = torch.cuda.Event(enable_timing=True)
            a.record()
            dst.copy_(src)
            b.record()
            b.synchronize()
            times.append(a.elapsed_time(b) / 1e3)
        else:
            t0 = time.perf_counter()
            dst.copy_(src)
            times.append(time.perf_counter() - t0)
    del src, dst
    return 2.0 * nbytes / statistics.median(times)


def short(e):
    s = "%s: %s" % (type(e).__name__, str(e).strip().splitlines()[0]
                    if str(e).strip() else "")
    return s[:300]


MM32 = None  # mm32_out_dtype where torch has out_dtype, else mm32_cast


def probe_out_dtype(device, dtype):
    try:
        a = torch.randn(4, 8, device=device, dtype=dtype)
        r = torch.mm(a, a.t(), out_dtype=torch.float32)
        rb = torch.bmm(a[None], a.t()[None], out_dtype=torch.float32)
        ok = r.dtype == torch.float32 and rb.dtype == torch.float32
        return ok and rel_err(r, a.float() @ a.float().t()) < 1e-3
    except Exception:
        return False


def measure_pytorch(workload, config, args, opts):
    """Every PyTorch variant of one workload: check against eager, time."""
    device = opts.device
    timer = time_graph if device == "cuda" else time_wall
    pristine = [a.clone() for a in args[-2:]] if has_caches(workload) else []

    def reset():
        if pristine:
            args[-2].copy_(pristine[0])
            args[-1].copy_(pristine[1])

    results, ref = {}, None
    for variant in PT_VARIANTS:
        sdpa = variant.endswith("+sdpa")
        compiled = variant.startswith("compile")
        r = {"us": None}
        results[variant] = r
        if variant in opts.skip_variants:
            r["note"] = "skipped"
        elif sdpa and not has_sdpa(workload):
            r["note"] = "no attention"
        elif sdpa and not hasattr(F, "scaled_dot_product_attention"):
            r["note"] = "no scaled_dot_product_attention in this torch"
        elif compiled and not hasattr(torch, "compile"):
            r["note"] = "no torch.compile in this torch"
        if "note" in r:
            log("  %-13s - (%s)" % (variant, r["note"]))
            continue
        modes = [MM32] + ([mm32_cast] if MM32 is not mm32_cast else [])
        for mm32 in (modes if compiled else [MM32]):
            fn = make_fn(workload, sdpa, mm32)
            try:
                if compiled:
                    torch._dynamo.reset()
                    try:
                        cfn = torch.compile(fn, fullgraph=True, dynamic=False)
                        reset()
                        outs = run_outputs(cfn, args, workload)
                        r["fullgraph"] = True
                    except Exception as e:
                        r["fullgraph_error"] = short(e)
                        torch._dynamo.reset()
                        cfn = torch.compile(fn, dynamic=False)
                        reset()
                        outs = run_outputs(cfn, args, workload)
                        r["fullgraph"] = False
                    fn = cfn
                else:
                    reset()
                    outs = run_outputs(fn, args, workload)
                sync(device)
                outs = [o.clone() for o in outs]
                if ref is None:
                    ref = outs  # eager is the first variant
                errs = [rel_err(o, x) for o, x in zip(outs, ref)]
                r["max_rel_err_vs_eager"] = max(errs)
                if max(errs) > CHECK_TOL:
                    r["note"] = ("wrong: max_rel_err %.3g vs eager"
                                 % max(errs))
                    break
                reset()
                us, gouts, graph = timer(fn, args, opts.samples,
                                         opts.replays)
                gouts = list(gouts) + (list(args[-2:]) if pristine else [])
                gerr = max(rel_err(o, x) for o, x in zip(gouts, ref))
                del graph
                if gerr > CHECK_TOL:
                    r["note"] = ("wrong after graph replay: max_rel_err %.3g"
                                 % gerr)
                    break
                r["us"] = us
                if mm32 is mm32_cast and MM32 is not mm32_cast:
                    r["note"] = ("f32 matmul results via f16 + cast "
                                 "(out_dtype failed: %s)"
                                 % r.pop("error", "?"))
                r.pop("error", None)
                break
            except Exception as e:
                r["error"] = short(e)
                if opts.verbose:
                    traceback.print_exc()
        if r["us"] is None and "note" not in r:
            r["note"] = r.get("error", "failed")
        log("  %-13s %s" % (variant, ("%.1f us" % r["us"]) if r["us"]
                            is not None else "- (%s)" % r["note"]))
        gc.collect()
    reset()
    return results


def device_info(opts):
    info = {"device": "cpu", "driver": None,
            "torch": torch.__version__,
            "cuda": getattr(torch.version, "cuda", None)}
    try:
        import triton
        info["triton"] = triton.__version__
    except Exception:
        info["triton"] = None
    if opts.device != "cuda":
        return info
    info["device"] = torch.cuda.get_device_name(0)
    cc = torch.cuda.get_device_capability(0)
    info["compute_capability"] = "sm_%d%d" % cc
    try:
        info["driver"] = subprocess.run(
            ["nvidia-smi", "--query-gpu=driver_version",
             "--format=csv,noheader"], stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True,
            timeout=30).stdout.strip().splitlines()[0]
    except Exception:
        pass
    if not info["driver"] and opts.runner:
        try:
            out = subprocess.run([opts.runner, "--probe"],
                                 stdout=subprocess.PIPE, text=True,
                                 timeout=60).stdout
            mo = re.search(r"driver (\S+)", out)
            info["driver"] = mo.group(1) if mo else None
        except Exception:
            pass
    return info


def slug(name):
    s = re.sub(r"^nvidia\s+", "", name.strip().lower())
    return re.sub(r"[^a-z0-9]+", "-", s).strip("-") or "device"


# ---------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------


def fmt(us):
    return "%.1f" % us if us is not None else "–"


def ratio(a, b):
    return a / b if a is not None and b else None


def fmt_ratio(x):
    return "%.2f" % x if x is not None else "–"


def geomean(xs):
    xs = [x for x in xs if x]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def write_report(report, out_dir, stem):
    os.makedirs(out_dir, exist_ok=True)
    jpath = os.path.join(out_dir, stem + ".json")
    with open(jpath, "w") as f:
        json.dump(report, f, indent=1, sort_keys=False)
        f.write("\n")
    d = report
    graph = d["settings"].get("runner_graph", False)
    L = ["# Workloads vs PyTorch and the HBM floor, %s (%s)%s" % (
        d["device"], d["date"], ", --quick: a smoke test, not a measurement"
        if d["settings"]["quick"] else ""), "",
         "Device: %s, driver %s; torch %s, CUDA %s, Triton %s. Copy "
         "bandwidth (1 GiB device-to-device `copy_`, read + written bytes): "
         "%s." % (d["device"], d["driver"], d["torch"], d["cuda"],
                  d["triton"], " / ".join(
                      "%.3f TB/s" % (b / 1e12) for b in sorted(
                          {w["copy_bandwidth"] for w in d["workloads"]}
                          or {d["copy_bandwidth"]}))
                  + ("" if len({w["copy_bandwidth"] for w in
                                d["workloads"]}) < 2 else
                     " (separate runs; each floor uses its own run's)")),
         "",
         "Made by `%s`. Times are us per call. PyTorch: one call captured in "
         "a CUDA graph, median of %d samples of %d replays; %s storage, "
         "f32 accumulation (%s), every variant checked against eager "
         "(max_rel_err <= %g). Ours: `tile-gpu-run %s` (median of %d "
         "runs after %d warm-up runs, %s), only variants that passed count. "
         "HBM floor: "
         "compulsory bytes (bench/workloads/generate.py --bytes, or suite.py "
         "--bytes for the suite) over the "
         "copy bandwidth." % (d["command"], d["settings"]["samples"],
                              d["settings"]["replays"],
                              d["settings"].get("storage", "f16"),
                              d["settings"]["f32_matmul_results"], CHECK_TOL,
                              "--graph" if graph else "--time",
                              d["settings"]["runner_repetitions"],
                              d["settings"]["runner_warmup"],
                              "the launch sequence captured once in a CUDA "
                              "graph, each run 10 replays between device "
                              "events, per call" if graph else
                              "device events around the launches, no CUDA "
                              "graph"), "",
         "| config | workload | HBM floor | eager | eager+SDPA | compile | "
         "compile+SDPA | best PyTorch | ours (variant) | ours/floor | "
         "ours/PyTorch |",
         "|---|---|---|---|---|---|---|---|---|---|---|"]
    for w in d["workloads"]:
        pt = w["pytorch"]
        best = w["best_pytorch"]
        ob = w["ours_best"]
        L.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |"
                 % (w["config"], w["workload"], fmt(w["floor_us"]),
                    *(fmt(pt[v]["us"]) for v in PT_VARIANTS),
                    "%s (%s)" % (fmt(best["us"]), best["variant"])
                    if best else "–",
                    "%s (%s)" % (fmt(ob["us"]), ob["variant"]) if ob
                    else "–",
                    fmt_ratio(w["ours_over_floor"]),
                    fmt_ratio(w["ours_over_pytorch"])))
    gm = d.get("geomean_ours_over_floor")
    gp = d.get("geomean_ours_over_pytorch")
    L += ["", "Geometric mean of ours/floor: %s (%d workloads); of "
          "ours/best PyTorch: %s." % (fmt_ratio(gm), d["geomean_count"],
                                      fmt_ratio(gp)), ""]
    L += ["## Our variants", "",
          "| config | workload | variant | us | kernels | pass |",
          "|---|---|---|---|---|---|"]
    for w in d["workloads"]:
        for v, r in sorted(w["ours"].items()):
            L.append("| %s | %s | %s | %s | %s | %s |" % (
                w["config"], w["workload"], v, fmt(r["us"]),
                r.get("kernels") or "–",
                "PASS" if r["pass"] else "FAIL (%s)"
                % r.get("note", r["status"])))
    notes = []
    for w in d["workloads"]:
        for v in PT_VARIANTS:
            r = w["pytorch"][v]
            if r.get("note") in ("no attention", "skipped"):
                continue
            if r["us"] is None:
                notes.append("- %s %s %s: – (%s)" % (w["config"],
                                                      w["workload"], v,
                                                      r.get("note")))
            elif r.get("fullgraph") is False:
                notes.append("- %s %s %s: not fullgraph (%s)" % (
                    w["config"], w["workload"], v, r.get("fullgraph_error")))
            elif r.get("note"):
                notes.append("- %s %s %s: %s" % (w["config"], w["workload"],
                                                  v, r["note"]))
        rc = w.get("reference_check")
        if rc:
            if "error" in rc:
                notes.append("- %s %s: reference check not done (%s)" % (
                    w["config"], w["workload"], rc["error"]))
            else:
                notes.append("- %s %s: eager vs the linalg reference (%s): "
                             "%s%s" % (w["config"], w["workload"],
                                       rc["artifact"], ", ".join(
                                           "%s %.1e" % kv for kv in
                                           rc["max_rel_err"].items()),
                                       "" if rc["pass"] else
                                       " — ABOVE %g" % REF_TOL))
    if notes:
        L += ["", "## Notes", ""] + notes
    L = L[:7] + [l.replace("|", "/") if l.startswith("- ") else l
                 for l in L[7:]]
    with open(os.path.join(out_dir, stem + ".md"), "w") as f:
        f.write("\n".join(L) + "\n")
    return jpath


def summarize(entry):
    pt = {v: r["us"] for v, r in entry["pytorch"].items()
          if r["us"] is not None}
    entry["best_pytorch"] = ({"variant": min(pt, key=pt.get),
                              "us": min(pt.values())} if pt else None)
    ours = {v: r["us"] for v, r in entry["ours"].items()
            if r["pass"] and r["us"] is not None}
    entry["ours_best"] = ({"variant": min(ours, key=ours.get),
                           "us": min(ours.values())} if ours else None)
    ob = entry["ours_best"]["us"] if ours else None
    entry["ours_over_floor"] = ratio(ob, entry["floor_us"])
    entry["ours_over_pytorch"] = ratio(
        ob, entry["best_pytorch"]["us"] if pt else None)


def print_table(workloads):
    cols = ["config", "workload", "floor", "eager", "eager+sdpa", "compile",
            "compile+sdpa", "best PT", "ours", "variant", "/floor", "/PT"]
    rows = [cols]
    for w in workloads:
        pt = w["pytorch"]
        ob = w["ours_best"]
        rows.append([w["config"], w["workload"], fmt(w["floor_us"])]
                    + [fmt(pt[v]["us"]) for v in PT_VARIANTS]
                    + [fmt(w["best_pytorch"]["us"]) if w["best_pytorch"]
                       else "–",
                       fmt(ob["us"]) if ob else "–",
                       ob["variant"] if ob else "–",
                       fmt_ratio(w["ours_over_floor"]),
                       fmt_ratio(w["ours_over_pytorch"])])
    widths = [max(len(r[i]) for r in rows) for i in range(len(cols))]
    for r in rows:
        log("  ".join(c.rjust(wd) for c, wd in zip(r, widths)))


# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------


def cpu_smoke(opts):
    """Eager (and SDPA where torch has it) at the scaled shapes vs the fp64
    transcription; output shapes vs the linalg results."""
    check_generator()
    dtype = torch.float32
    try:  # f16 matmul on the CPU needs a recent torch
        torch.ones(2, 2, dtype=torch.float16) @ torch.ones(
            2, 2, dtype=torch.float16)
        dtype = torch.float16
    except Exception:
        pass
    opts.dtype = dtype
    ok = True
    config = "suite" if opts.suite else "small"
    for w in (suite.PROGRAMS if opts.suite else WORKLOADS):
        args = torch_inputs(w, config, 0, "cpu", dtype)
        ref = literal(w, [a.clone() for a in args])
        shapes = result_shapes(w, config)
        for sdpa in ([False, True] if has_sdpa(w) and hasattr(
                F, "scaled_dot_product_attention") else [False]):
            a = [x.clone() for x in args]
            outs = run_outputs(make_fn(w, sdpa, MM32), a, w)
            for o, r, (n, s) in zip(outs, ref, shapes):
                e = rel_err(o, r)
                good = tuple(o.shape) == tuple(s) and o.dtype == dtype and \
                    e < (1e-2 if dtype == torch.float16 else 1e-5)
                ok &= good
                log("smoke %-9s sdpa=%d %-6s shape=%s err=%.2e %s" % (
                    w, sdpa, n, "x".join(map(str, o.shape)), e,
                    "ok" if good else "BAD"))
            ok &= len(outs) == len(shapes)
    return ok


def finish(report, entries):
    """Orders the entries and adds the geometric means."""
    order = {(c, w): i for i, (c, w) in enumerate(
        [(c, w) for c in gen.CONFIGS for w in WORKLOADS]
        + [("suite", w) for w in suite.PROGRAMS])}
    entries.sort(key=lambda e: order[(e["config"], e["workload"])])
    passed = [e for e in entries if e["ours_over_floor"]]
    report.update(workloads=entries,
                  geomean_ours_over_floor=geomean(
                      [e["ours_over_floor"] for e in passed]),
                  geomean_ours_over_pytorch=geomean(
                      [e["ours_over_pytorch"] for e in passed]),
                  geomean_count=len(passed))
    return report


def combine(paths, out_dir, stem):
    reports = []
    for path in paths:
        with open(path) as f:
            reports.append(json.load(f))
    entries = {}
    for r in reports:
        for e in r["workloads"]:
            entries[(e["config"], e["workload"])] = e
    report = dict(reports[0])
    report["command"] = " ; ".join(r["command"] for r in reports)
    report["settings"]["quick"] = any(r["settings"]["quick"]
                                      for r in reports)
    bws = sorted({e["copy_bandwidth"] for e in entries.values()})
    report["copy_bandwidth"] = statistics.median(bws)
    finish(report, list(entries.values()))
    stem = stem or "%s-%s" % (slug(report["device"]), report["date"])
    path = write_report(report, out_dir, stem)
    print_table(report["workloads"])
    log("wrote %s and .md" % path)
    return 0


def main(argv):
    global torch, F, MM32, SUITE_SIZE
    p = argparse.ArgumentParser(
        description=__doc__.split("\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n".join(__doc__.split("\n")[2:]))
    p.add_argument("--artifacts", help="directory of artifact directories "
                   "<config>-<workload>-<variant> (bench/gpu/make-artifacts.sh)")
    p.add_argument("--runner", default="build/bin/tile-gpu-run")
    p.add_argument("--out", default="bench/results")
    p.add_argument("--configs", nargs="+", default=["llama", "falcon"],
                   choices=["llama", "falcon", "suite"])
    p.add_argument("--workloads", nargs="+",
                   choices=list(WORKLOADS) + list(suite.PROGRAMS),
                   help="a subset (default: every workload of each config)")
    p.add_argument("--suite", action="store_true",
                   help="the benchmark suite (bench/workloads/suite.py) "
                   "instead of the six workloads: --configs suite")
    p.add_argument("--quick", action="store_true",
                   help="few repetitions: a smoke test, not a measurement")
    p.add_argument("--samples", type=int, help="CUDA-graph samples (50)")
    p.add_argument("--replays", type=int, help="replays per sample (10)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--skip", nargs="+", default=[], dest="skip_variants",
                   choices=list(PT_VARIANTS), help="PyTorch variants to skip")
    p.add_argument("--no-ref-check", action="store_true",
                   help="do not check eager against the artifacts' "
                   "expected outputs")
    p.add_argument("--no-graph", action="store_true",
                   help="time our artifacts with device events around plain "
                   "launches (tile-gpu-run --time) instead of CUDA-graph "
                   "replays (--graph)")
    p.add_argument("--no-ours", action="store_true",
                   help="do not run the artifacts")
    p.add_argument("--f16-scores", action="store_true",
                   help="f32 matmul results (C, A1, F1a, F1b) through f16 "
                   "matmuls + cast even where torch has out_dtype")
    p.add_argument("--dtype", choices=["f16", "bf16"], default="f16",
                   dest="dtype_name",
                   help="16-bit type of the PyTorch variants' tensors: bf16 "
                   "for suite artifacts made with DTYPE=bf16 "
                   "make-suite-artifacts.sh (f16)")
    p.add_argument("--runner-timeout", type=int, default=900)
    p.add_argument("--merge", action="store_true",
                   help="merge into today's result files of this device "
                   "(replacing the workloads measured again)")
    p.add_argument("--stem", help="result file name without extension "
                   "(default <device-slug>-<date>)")
    p.add_argument("--cpu-smoke", action="store_true",
                   help="run the PyTorch functions on the CPU at the scaled "
                   "shapes (no GPU needed), then the whole script on the CPU")
    p.add_argument("--combine", nargs="+", metavar="JSON",
                   help="no measurement: merge result files of separate "
                   "runs (later files win per workload) into --out, and "
                   "write its .md (needs no torch)")
    p.add_argument("--verbose", action="store_true")
    opts = p.parse_args(argv)
    if opts.suite:
        opts.configs = ["suite"]
    opts.suite = opts.configs == ["suite"]
    if opts.combine:
        return combine(opts.combine, opts.out, opts.stem)

    import torch as _torch
    import torch.nn.functional as _F
    torch, F = _torch, _F

    if opts.cpu_smoke:
        opts.device = "cpu"
        MM32 = mm32_cast
        SUITE_SIZE = "small"
        if not cpu_smoke(opts):
            log("cpu smoke: FAILED")
            return 1
        log("cpu smoke: the PyTorch functions match the fp64 transcription")
        opts.configs = ["suite"] if opts.suite else ["small"]
        opts.quick = True
    else:
        if not torch.cuda.is_available():
            log("bench.py: no CUDA device (use --cpu-smoke on a machine "
                "without a GPU)")
            return 3
        opts.device = "cuda"
        opts.dtype = getattr(torch, DTYPES[opts.dtype_name])
        torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = \
            False
        MM32 = (mm32_out_dtype if not opts.f16_scores
                and probe_out_dtype("cuda", opts.dtype) else mm32_cast)
    opts.samples = opts.samples or (10 if opts.quick else 50)
    opts.replays = opts.replays or (3 if opts.quick else 10)
    warmup, reps = (2, 10) if opts.quick else (10, 100)
    check_generator()

    info = device_info(opts)
    bw = copy_bandwidth(opts.device, 10 if opts.quick else 100)
    log("device: %s, driver %s, torch %s, CUDA %s, Triton %s" % (
        info["device"], info["driver"], info["torch"], info["cuda"],
        info["triton"]))
    log("copy bandwidth: %.3f TB/s (read + written bytes of a %s "
        "device-to-device copy, median)" % (
            bw / 1e12, "1 GiB" if opts.device == "cuda" else "64 MiB"))
    log("f32 matmul results: %s" % ("torch.mm/bmm out_dtype=float32"
                                     if MM32 is mm32_out_dtype else
                                     "%s matmul + cast" % opts.dtype_name))
    arts = find_artifacts(opts.artifacts)
    if opts.artifacts and not arts:
        log("warning: no <config>-<workload>-<variant> artifact under %s"
            % opts.artifacts)

    entries = []
    for config in opts.configs:
        programs = suite.PROGRAMS if config == "suite" else WORKLOADS
        for w in [w for w in opts.workloads or programs if w in programs]:
            log("== %s %s" % (config, w))
            read, written = (suite.compulsory_bytes(w, SUITE_SIZE)
                             if config == "suite" else
                             gen.compulsory_bytes(w, config))
            entry = {"config": config, "workload": w,
                     "compulsory_bytes": read + written,
                     "copy_bandwidth": bw,
                     "floor_us": (read + written) / bw * 1e6}
            log("  floor         %.1f us (%.1f MB)" % (
                entry["floor_us"], (read + written) / 1e6))
            mine = arts.get((config, w), {})
            if mine and not opts.no_ref_check:
                try:
                    entry["reference_check"] = reference_check(
                        w, config, sorted(mine.values())[0], opts.device,
                        opts.dtype)
                except Exception as e:
                    entry["reference_check"] = {"error": short(e)}
                rc = entry["reference_check"]
                log("  reference     %s" % (
                    rc.get("error") or ", ".join(
                        "%s %.1e" % kv for kv in rc["max_rel_err"].items())
                    + ("" if rc["pass"] else "  ABOVE %g" % REF_TOL)))
                gc.collect()
                if opts.device == "cuda":
                    torch.cuda.empty_cache()
            args = torch_inputs(w, config, opts.seed, opts.device,
                                opts.dtype)
            entry["pytorch"] = measure_pytorch(w, config, args, opts)
            del args
            gc.collect()
            if opts.device == "cuda":
                torch.cuda.empty_cache()
            entry["ours"] = {}
            if not opts.no_ours:
                for variant, path in sorted(mine.items()):
                    r = run_ours(opts.runner, path, warmup, reps,
                                 opts.runner_timeout, not opts.no_graph)
                    entry["ours"][variant] = r
                    log("  ours %-8s %s" % (variant, "%s us %s" % (
                        fmt(r["us"]), "PASS" if r["pass"] else
                        "FAIL (%s)" % r.get("note", r["status"]))))
            summarize(entry)
            entries.append(entry)

    date = datetime.date.today().isoformat()
    stem = opts.stem or "%s-%s" % (slug(info["device"]), date)
    if opts.merge and os.path.exists(os.path.join(opts.out, stem + ".json")):
        with open(os.path.join(opts.out, stem + ".json")) as f:
            old = json.load(f)
        keys = {(e["config"], e["workload"]) for e in entries}
        entries = [e for e in old["workloads"]
                   if (e["config"], e["workload"]) not in keys] + entries
    report = dict(info, date=date, copy_bandwidth=bw,
                  command="python3 bench/gpu/bench.py " + " ".join(argv),
                  settings={"samples": opts.samples,
                            "replays": opts.replays, "seed": opts.seed,
                            "runner_warmup": warmup,
                            "runner_graph": not opts.no_graph,
                            "runner_repetitions": reps,
                            "quick": opts.quick,
                            "check_tolerance": CHECK_TOL,
                            "f32_matmul_results": (
                                "torch.mm/bmm out_dtype=float32"
                                if MM32 is mm32_out_dtype
                                else "%s matmul + cast" % opts.dtype_name),
                            "storage": opts.dtype_name,
                            "allow_fp16_reduced_precision_reduction": False})
    finish(report, entries)
    log("")
    print_table(entries)
    log("geomean ours/floor: %s over %d workloads" % (
        fmt_ratio(report["geomean_ours_over_floor"]),
        report["geomean_count"]))
    path = write_report(report, opts.out, stem)
    log("wrote %s and .md" % path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
