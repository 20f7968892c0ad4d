#!/usr/bin/env python3
"""Generates the naive tile programs of the six benchmark workloads.

The workloads are those of shared/WORKLOADS.md (vanilla, prenorm, qknorm,
keyformer, roco, ffn), written as naive tile programs in the style of
Trinity Figure 4(a): one loop nest per tensor-level op, reductions as
accumulating stores into zero-initialised tensors, f16 storage for inputs,
outputs and KV caches, f32 for matmul accumulators and statistics.

Each workload is emitted in two sizes from one description, so they cannot
drift apart:

  examples/<name>.mlir       full size, LLaMA3-8B configuration
  test/Examples/<name>.mlir  scaled down, with lit RUN lines

Usage: generate.py [--root DIR]   (DIR defaults to the repository root;
the files are written under DIR/examples and DIR/test/Examples).
test/Examples/generated.test regenerates into a temporary directory and
diffs against the committed files. Python 3 standard library only.
"""

import argparse
import os
import sys

WORKLOADS = ("vanilla", "prenorm", "qknorm", "keyformer", "roco", "ffn")

# M: new tokens, D: hidden, H: heads, d: head dim, P: KV length,
# PRE: cached prefix, F: FFN width.
LLAMA = dict(M=16, D=4096, H=32, d=128, P=1024, PRE=1008, F=14336)
SMALL = dict(M=4, D=16, H=2, d=8, P=16, PRE=12, F=32)

RUN_LINES = """\
// RUN: tile-opt %s | FileCheck %s
// RUN: tile-opt %s | tile-opt > %t.1.mlir
// RUN: tile-opt %s --mlir-print-op-generic | tile-opt > %t.2.mlir
// RUN: tile-opt %s > %t.0.mlir
// RUN: diff %t.0.mlir %t.1.mlir
// RUN: diff %t.0.mlir %t.2.mlir
"""

NAIVE = "naive (one loop nest per op, Trinity Figure 4(a)),"

# The lines of each workload's header comment before the size line.
TITLES = {
    "vanilla": ["Vanilla attention block, " + NAIVE],
    "prenorm": ["Pre-norm attention block: Xn = rms(X, g), then vanilla "
                "attention on Xn;", NAIVE],
    "qknorm": ["QK-norm attention block: vanilla with Q = rms(Q, gq), "
               "K = rms(K, gk) per head over d;", NAIVE],
    "keyformer": ["KeyFormer attention block: vanilla plus "
                  "C_out = sum(softmax((C + noise) / 1.5), axis=1);", NAIVE],
    "roco": ["RoCo attention block: vanilla plus C_out1 = sum(Cdiv, axis=1), "
             "C_out2 = sum(Cdiv * Cdiv, axis=1);", NAIVE],
    "ffn": ["SwiGLU FFN block: A3 = rms(O2in @ WO + X, g), "
            "out = ((A3 @ W1a) * silu(A3 @ W1b)) @ W2;", NAIVE],
}


def _dim(x):
    return str(x)


def tile_type(shape, et):
    return "!tile.tile<[%s], %s>" % (", ".join(_dim(s) for s in shape), et)


def tensor_type(shape, et, role):
    return "!tile.tensor<%s%s, %s>" % ("".join("%dx" % s for s in shape), et,
                                       role)


class Program:
    """Emits one tile program as text, tracking the type of every value."""

    def __init__(self, name):
        self.name = name
        self.tensors = []  # (name, shape, et, role)
        self.tensor = {}  # name -> (shape, et, role)
        self.index = {}  # index value name -> extent (None: full)
        self.types = {}  # tile value name -> (shape, et)
        self.defined = set()
        self.body = []

    # Declarations ----------------------------------------------------------

    def declare(self, name, shape, et, role):
        assert name not in self.tensor, name
        self.tensors.append((name, tuple(shape), et, role))
        self.tensor[name] = (tuple(shape), et, role)

    def _def(self, name):
        assert name not in self.defined and name not in self.tensor, name
        self.defined.add(name)

    def line(self, text=""):
        self.body.append(("  " + text) if text else "")

    def comment(self, text):
        self.line("// " + text)

    def var(self, name):
        self._def(name)
        self.line('%%%s = tile.var "%s"' % (name, name))

    def size(self, name, value):
        self._def(name)
        if isinstance(value, str):
            self.line('%%%s = tile.size "%s"' % (name, value))
        else:
            self.line("%%%s = tile.size %d" % (name, value))

    def full(self, name):
        self._def(name)
        self.index[name] = None
        self.line("%%%s = tile.full" % name)

    def tile(self, name, var, extent):
        self._def(name)
        self.index[name] = extent
        self.line("%%%s = tile.tile %%%s" % (name, var))

    def elem(self, name, var):
        self._def(name)
        self.index[name] = 1
        self.line("%%%s = tile.elem %%%s" % (name, var))

    def const_tile(self, name, base, size):
        self._def(name)
        self.index[name] = size
        self.line("%%%s = tile.const_tile %d, %d" % (name, base, size))

    # Memory ----------------------------------------------------------------

    def _region(self, tensor, idx):
        shape = self.tensor[tensor][0]
        assert len(idx) == len(shape), (tensor, idx)
        return tuple(shape[i] if self.index[x] is None else self.index[x]
                     for i, x in enumerate(idx))

    def _ttype(self, tensor):
        return tensor_type(*self.tensor[tensor])

    def _ty(self, v):
        return tile_type(*self.types[v])

    def _new(self, r, shape, et):
        self._def(r)
        self.types[r] = (tuple(shape), et)

    def load(self, r, tensor, idx):
        self._new(r, self._region(tensor, idx), self.tensor[tensor][1])
        self.line("%%%s = tile.load %%%s[%s] : %s -> %s" % (
            r, tensor, ", ".join("%" + x for x in idx), self._ttype(tensor),
            self._ty(r)))
        return r

    def store(self, r, v, tensor, idx):
        assert self.types[v] == (self._region(tensor, idx),
                                 self.tensor[tensor][1]), (r, v, tensor)
        self._def(r)
        self.line("%%%s = tile.store %%%s, %%%s[%s] : %s, %s" % (
            r, v, tensor, ", ".join("%" + x for x in idx), self._ty(v),
            self._ttype(tensor)))
        return r

    def loop(self, r, var, end, step, body):
        self._def(r)
        self.line("%%%s = tile.loop %%%s = 0 to %d step %%%s body %%%s" % (
            r, var, end, step, body))
        return r

    def seq_chain(self, stmts):
        """The root: a right-nested tile.seq chain of `stmts` in order."""
        n = len(stmts)
        assert n >= 2
        for i in range(n - 1, 0, -1):
            second = stmts[n - 1] if i == n - 1 else "s%d" % (i + 1)
            self._def("s%d" % i)
            self.line("%%s%d = tile.seq %%%s, %%%s" % (i, stmts[i - 1], second))
        self.line("tile.yield %s1")

    # Compute ---------------------------------------------------------------

    def binary(self, op, r, a, b):
        assert self.types[a] == self.types[b], (op, r, a, b)
        self._new(r, *self.types[a])
        self.line("%%%s = tile.%s %%%s, %%%s : %s" % (r, op, a, b,
                                                       self._ty(r)))
        return r

    def add(self, r, a, b):
        return self.binary("add", r, a, b)

    def mul(self, r, a, b):
        return self.binary("mul", r, a, b)

    def div(self, r, a, b):
        return self.binary("div", r, a, b)

    def unary(self, op, r, a):
        self._new(r, *self.types[a])
        self.line("%%%s = tile.%s %%%s : %s" % (r, op, a, self._ty(r)))
        return r

    def constant(self, r, value, shape, et="f32"):
        self._new(r, shape, et)
        self.line("%%%s = tile.constant %s : %s" % (r, value, self._ty(r)))
        return r

    def _layout(self, r, op, a, attr, shape, et=None):
        self._new(r, shape, et or self.types[a][1])
        self.line("%%%s = tile.%s %%%s%s : %s -> %s" % (
            r, op, a, attr, self._ty(a), self._ty(r)))
        return r

    def cast(self, r, a, et):
        return self._layout(r, "cast", a, "", self.types[a][0], et)

    def unsqueeze(self, r, a, axis):
        shape = list(self.types[a][0])
        shape.insert(axis, 1)
        return self._layout(r, "unsqueeze", a, ", %d" % axis, shape)

    def squeeze(self, r, a, axis):
        shape = list(self.types[a][0])
        assert shape[axis] == 1
        del shape[axis]
        return self._layout(r, "squeeze", a, ", %d" % axis, shape)

    def permute(self, r, a, perm):
        shape = [self.types[a][0][p] for p in perm]
        return self._layout(r, "permute", a,
                            " [%s]" % ", ".join(str(p) for p in perm), shape)

    def rsum(self, r, a, axis):
        shape = list(self.types[a][0])
        del shape[axis]
        return self._layout(r, "rsum", a, ", %d" % axis, shape)

    def bcast(self, r, a, dims, shape):
        kept = [s for i, s in enumerate(shape) if i not in dims]
        assert tuple(kept) == self.types[a][0], (r, a, dims, shape)
        return self._layout(r, "bcast", a,
                            " [%s]" % ", ".join(str(d) for d in dims), shape)

    def matmul(self, r, a, b):
        sa, ea = self.types[a]
        sb, eb = self.types[b]
        assert ea == eb == "f16" and sa[-1] == sb[-2] and sa[:-2] == sb[:-2]
        self._new(r, sa[:-1] + sb[-1:], "f32")
        self.line("%%%s = tile.matmul %%%s, %%%s : %s, %s -> %s" % (
            r, a, b, self._ty(a), self._ty(b), self._ty(r)))
        return r

    # Output ----------------------------------------------------------------

    def text(self, header, check):
        out = []
        if check:
            out.append("// CHECK-LABEL: tile.program @%s" % self.name)
        out.append("tile.program @%s(" % self.name)
        # The results of the linalg function (bench/workloads): the outputs,
        # then the updated caches.
        results = ([t[0] for t in self.tensors if t[3] == "output"] +
                   [t[0] for t in self.tensors if t[3] == "inout"])
        attrs = ") attributes {tile.results = [%s]} {" % ", ".join(
            '"%s"' % r for r in results)
        for i, (name, shape, et, role) in enumerate(self.tensors):
            end = attrs if i == len(self.tensors) - 1 else ","
            out.append("    %%%s: %s%s" % (name, tensor_type(shape, et, role),
                                           end))
        out.extend(self.body)
        out.append("}")
        return header + "\n".join(out) + "\n"


# The hand-written program computes what the linalg workload computes.
REFERENCE_RUN_LINES = """\
// RUN: tile-run %%s --reference %%S/../Workloads/%s.mlir --tolerance 1e-6 | FileCheck %%s --check-prefix=CMP
// CMP-NOT: MISMATCH
// CMP: PASS
"""


def fmt_float(x):
    return repr(float(x))


# Building blocks -------------------------------------------------------------


def attention_decls(b, cfg):
    d = cfg["d"]
    for v in ("n", "k", "c", "h", "p"):
        b.var(v)
    b.size("tile_n", "tile_n")
    b.size("tile_k", "tile_k")
    b.size("tile_p", "tile_p")
    b.size("c%d" % d, d)
    b.size("c1", 1)
    b.full("full")
    b.tile("tn", "n", "tile_n")
    b.tile("tk", "k", "tile_k")
    b.tile("tc", "c", d)
    b.elem("ec", "c")
    b.elem("eh", "h")
    b.tile("tp", "p", "tile_p")
    b.const_tile("new", cfg["PRE"], cfg["P"] - cfg["PRE"])


def projections(b, cfg, src):
    """Q1 = src @ WQ, K1 = src @ WK, V1 = src @ WV; returns the loops."""
    D = cfg["D"]
    b.line()
    b.comment("Q1 = %s @ WQ (and K1, V1): accumulate over k." % src)
    b.load("x", src, ("full", "tk"))
    loops = []
    for i, (w, acc) in enumerate((("WQ", "Q1"), ("WK", "K1"), ("WV", "V1"))):
        if i:
            b.line()
        lw, la = w.lower(), acc.lower()  # wq, q1
        q = la[0]
        b.load(lw, w, ("tk", "tn"))
        b.load(la, acc, ("full", "tn"))
        b.matmul("x" + q, "x", lw)
        b.add(la + "n", la, "x" + q)
        b.store("s" + la, la + "n", acc, ("full", "tn"))
        b.loop("l%sk" % la, "k", D, "tile_k", "s" + la)
        loops.append(b.loop("l" + la, "n", D, "tile_n", "l%sk" % la))
    return loops


def heads(b, cfg):
    """Q = transpose(reshape(Q1, (M, H, d)), (1, 0, 2)) and K, V."""
    D, d = cfg["D"], cfg["d"]
    b.line()
    b.comment("Q = transpose(reshape(Q1, (M, H, d)), (1, 0, 2)), one head "
              "(d columns) per step of c.")
    loops = []
    for i, t in enumerate(("Q", "K", "V")):
        if i:
            b.line()
        a = t.lower()
        b.load(a + "1h", t + "1", ("full", "tc"))
        b.cast(a + "1h16", a + "1h", "f16")
        b.unsqueeze(a + "1u", a + "1h16", 1)
        b.permute(a + "h", a + "1u", (1, 0, 2))
        b.store("s" + a, a + "h", t, ("ec", "full", "full"))
        loops.append(b.loop("l" + a, "c", D, "c%d" % d, "s" + a))
    return loops


def cache_update(b, cfg, k_src="K", v_src="V"):
    H = cfg["H"]
    b.line()
    b.comment("Kc[:, PRE:P, :] = %s ; Vc[:, PRE:P, :] = %s" % (k_src, v_src))
    b.load("kn", k_src, ("eh", "full", "full"))
    b.store("skc", "kn", "Kc", ("eh", "new", "full"))
    lkc = b.loop("lkc", "h", H, "c1", "skc")
    b.load("vn", v_src, ("eh", "full", "full"))
    b.store("svc", "vn", "Vc", ("eh", "new", "full"))
    lvc = b.loop("lvc", "h", H, "c1", "svc")
    return [lkc, lvc]


def attention(b, cfg, q_src="Q"):
    """C, E, S, O and O2 of the attention core; returns the loops."""
    M, D, H, d, P = cfg["M"], cfg["D"], cfg["H"], cfg["d"], cfg["P"]
    loops = []
    b.line()
    b.comment("C = %s @ transpose(Kc, (0, 2, 1))" % q_src)
    b.load("qt", q_src, ("eh", "full", "full"))
    b.load("kct", "Kc", ("eh", "tp", "full"))
    b.permute("kctt", "kct", (0, 2, 1))
    b.matmul("ct", "qt", "kctt")
    b.store("sc", "ct", "C", ("eh", "full", "tp"))
    b.loop("lcp", "p", P, "tile_p", "sc")
    loops.append(b.loop("lc", "h", H, "c1", "lcp"))

    b.line()
    b.comment("E = exp(C)")
    b.load("cl", "C", ("eh", "full", "tp"))
    b.unary("exp", "et", "cl")
    b.store("se", "et", "E", ("eh", "full", "tp"))
    b.loop("lep", "p", P, "tile_p", "se")
    loops.append(b.loop("le", "h", H, "c1", "lep"))

    b.line()
    b.comment("S = sum(E, axis=2)")
    b.load("el", "E", ("eh", "full", "tp"))
    b.load("sl", "S", ("eh", "full"))
    b.rsum("er", "el", 2)
    b.add("sn", "sl", "er")
    b.store("ss", "sn", "S", ("eh", "full"))
    b.loop("lsp", "p", P, "tile_p", "ss")
    loops.append(b.loop("ls", "h", H, "c1", "lsp"))

    b.line()
    b.comment("O = (E / S[:, :, None]) @ Vc")
    b.load("ol", "O", ("eh", "full", "full"))
    b.load("sh", "S", ("eh", "full"))
    b.bcast("sb", "sh", (2,), (1, M, "tile_p"))
    b.div("cdiv", "el", "sb")
    b.cast("cdiv16", "cdiv", "f16")
    b.load("vct", "Vc", ("eh", "tp", "full"))
    b.matmul("pv", "cdiv16", "vct")
    b.add("on", "ol", "pv")
    b.store("so", "on", "O", ("eh", "full", "full"))
    b.loop("lop", "p", P, "tile_p", "so")
    loops.append(b.loop("lo", "h", H, "c1", "lop"))

    b.line()
    b.comment("O2 = reshape(transpose(O, (1, 0, 2)), (M, H*d))")
    b.load("oh", "O", ("ec", "full", "full"))
    b.permute("ohp", "oh", (1, 0, 2))
    b.squeeze("ohs", "ohp", 1)
    b.cast("oh16", "ohs", "f16")
    b.store("so2", "oh16", "O2", ("full", "tc"))
    loops.append(b.loop("lo2", "c", D, "c%d" % d, "so2"))
    return loops


def rms_rows(b, cfg, p, src, dst, stat, g):
    """dst = rms(src, g) over the last axis (D) of an [M, D] tensor: the sum
    of squares accumulated over k into stat, then a loop that normalises.
    `p` prefixes the value names."""
    M, D = cfg["M"], cfg["D"]
    f16 = b.tensor[src][1] == "f16"
    b.line()
    b.comment("%s = rms(%s, g): %s = sum(%s * %s, axis=-1), accumulated "
              "over k." % (dst, src, stat, src, src))
    xk = b.load(p + "k", src, ("full", "tk"))
    if f16:
        xk = b.cast(p + "kf", xk, "f32")
    b.mul(p + "sq", xk, xk)
    b.rsum(p + "r", p + "sq", 1)
    b.load(p + "ssl", stat, ("full",))
    b.add(p + "ssn", p + "ssl", p + "r")
    b.store(p + "sss", p + "ssn", stat, ("full",))
    lss = b.loop(p + "lss", "k", D, "tile_k", p + "sss")

    b.line()
    b.comment("%s = %s / sqrt(%s / D + 1e-6) * g" % (dst, src, stat))
    xn = b.load(p + "n", src, ("full", "tn"))
    if f16:
        xn = b.cast(p + "nf", xn, "f32")
    b.load(p + "ssh", stat, ("full",))
    b.constant(p + "dim", fmt_float(D), (M,))
    b.div(p + "mean", p + "ssh", p + "dim")
    b.constant(p + "eps", "1.0e-06", (M,))
    b.add(p + "meps", p + "mean", p + "eps")
    b.unary("sqrt", p + "rms", p + "meps")
    b.bcast(p + "rmsb", p + "rms", (1,), (M, "tile_n"))
    b.div(p + "div", xn, p + "rmsb")
    b.load(p + "g", g, ("tn",))
    b.cast(p + "gf", p + "g", "f32")
    b.bcast(p + "gb", p + "gf", (0,), (M, "tile_n"))
    b.mul(p + "t", p + "div", p + "gb")
    b.cast(p + "t16", p + "t", "f16")
    b.store(p + "st", p + "t16", dst, ("full", "tn"))
    lnorm = b.loop(p + "lt", "n", D, "tile_n", p + "st")
    return [lss, lnorm]


def rms_heads(b, cfg, p, src, dst, stat, g):
    """dst = rms(src, g) over the head dim of an [H, M, d] tensor, one head
    per step of h. The head dim is never tiled, so the sum of squares is a
    plain store (like C = Q @ Kc^T, whose contraction is untiled too)."""
    M, H, d = cfg["M"], cfg["H"], cfg["d"]
    b.line()
    b.comment("%s = rms(%s, %s) over the head dim: %s = sum(%s * %s, "
              "axis=-1)." % (dst, src, g, stat, src, src))
    b.load(p + "l", src, ("eh", "full", "full"))
    b.cast(p + "f", p + "l", "f32")
    b.mul(p + "sq", p + "f", p + "f")
    b.rsum(p + "r", p + "sq", 2)
    b.store(p + "ss", p + "r", stat, ("eh", "full"))
    lss = b.loop(p + "lss", "h", H, "c1", p + "ss")

    b.line()
    b.comment("%s = %s / sqrt(%s / d + 1e-6) * %s" % (dst, src, stat, g))
    b.load(p + "ssh", stat, ("eh", "full"))
    b.constant(p + "dim", fmt_float(d), (1, M))
    b.div(p + "mean", p + "ssh", p + "dim")
    b.constant(p + "eps", "1.0e-06", (1, M))
    b.add(p + "meps", p + "mean", p + "eps")
    b.unary("sqrt", p + "rms", p + "meps")
    b.bcast(p + "rmsb", p + "rms", (2,), (1, M, d))
    b.div(p + "div", p + "f", p + "rmsb")
    b.load(p + "g", g, ("full",))
    b.cast(p + "gf", p + "g", "f32")
    b.bcast(p + "gb", p + "gf", (0, 1), (1, M, d))
    b.mul(p + "t", p + "div", p + "gb")
    b.cast(p + "t16", p + "t", "f16")
    b.store(p + "st", p + "t16", dst, ("eh", "full", "full"))
    lnorm = b.loop(p + "lt", "h", H, "c1", p + "st")
    return [lss, lnorm]


# Workloads -------------------------------------------------------------------


def attention_workload(name, cfg):
    M, D, H, d, P = cfg["M"], cfg["D"], cfg["H"], cfg["d"], cfg["P"]
    b = Program(name)
    b.declare("X", (M, D), "f16", "input")
    if name == "prenorm":
        b.declare("g", (D,), "f16", "input")
    for w in ("WQ", "WK", "WV"):
        b.declare(w, (D, D), "f16", "input")
    if name == "qknorm":
        b.declare("gq", (d,), "f16", "input")
        b.declare("gk", (d,), "f16", "input")
    if name == "keyformer":
        b.declare("noise", (H, M, P), "f16", "input")
    b.declare("Kc", (H, P, d), "f16", "inout")
    b.declare("Vc", (H, P, d), "f16", "inout")
    b.declare("O2", (M, D), "f16", "output")
    if name == "keyformer":
        b.declare("C_out", (H, P), "f16", "output")
    if name == "roco":
        b.declare("C_out1", (H, P), "f16", "output")
        b.declare("C_out2", (H, P), "f16", "output")
    if name == "prenorm":
        b.declare("SS", (M,), "f32", "intermediate")
        b.declare("Xn", (M, D), "f16", "intermediate")
    for t in ("Q1", "K1", "V1"):
        b.declare(t, (M, D), "f32", "intermediate")
    for t in ("Q", "K", "V"):
        b.declare(t, (H, M, d), "f16", "intermediate")
    if name == "qknorm":
        b.declare("SQ", (H, M), "f32", "intermediate")
        b.declare("Qn", (H, M, d), "f16", "intermediate")
        b.declare("SK", (H, M), "f32", "intermediate")
        b.declare("Kn", (H, M, d), "f16", "intermediate")
    b.declare("C", (H, M, P), "f32", "intermediate")
    b.declare("E", (H, M, P), "f32", "intermediate")
    b.declare("S", (H, M), "f32", "intermediate")
    b.declare("O", (H, M, d), "f32", "intermediate")
    if name == "keyformer":
        b.declare("Cp", (H, M, P), "f32", "intermediate")
        b.declare("Ep", (H, M, P), "f32", "intermediate")
        b.declare("Sp", (H, M), "f32", "intermediate")

    attention_decls(b, cfg)
    stmts = []
    src = "X"
    if name == "prenorm":
        stmts += rms_rows(b, cfg, "xr", "X", "Xn", "SS", "g")
        src = "Xn"
    stmts += projections(b, cfg, src)
    stmts += heads(b, cfg)
    q_src, k_src = "Q", "K"
    if name == "qknorm":
        stmts += rms_heads(b, cfg, "qr", "Q", "Qn", "SQ", "gq")
        stmts += rms_heads(b, cfg, "kr", "K", "Kn", "SK", "gk")
        q_src, k_src = "Qn", "Kn"
    stmts += cache_update(b, cfg, k_src)
    stmts += attention(b, cfg, q_src)

    if name == "keyformer":
        b.line()
        b.comment("Cp = (C + noise) / 1.5")
        b.load("nz", "noise", ("eh", "full", "tp"))
        b.cast("nzf", "nz", "f32")
        b.add("cpa", "cl", "nzf")
        b.constant("c15", "1.5", (1, M, "tile_p"))
        b.div("cpt", "cpa", "c15")
        b.store("scp", "cpt", "Cp", ("eh", "full", "tp"))
        b.loop("lpcp", "p", P, "tile_p", "scp")
        stmts.append(b.loop("lpc", "h", H, "c1", "lpcp"))

        b.line()
        b.comment("Ep = exp(Cp)")
        b.load("cpl", "Cp", ("eh", "full", "tp"))
        b.unary("exp", "ept", "cpl")
        b.store("sep", "ept", "Ep", ("eh", "full", "tp"))
        b.loop("lpep", "p", P, "tile_p", "sep")
        stmts.append(b.loop("lpe", "h", H, "c1", "lpep"))

        b.line()
        b.comment("Sp = sum(Ep, axis=2)")
        b.load("epl", "Ep", ("eh", "full", "tp"))
        b.load("spl", "Sp", ("eh", "full"))
        b.rsum("epr", "epl", 2)
        b.add("spn", "spl", "epr")
        b.store("ssp", "spn", "Sp", ("eh", "full"))
        b.loop("lpsp", "p", P, "tile_p", "ssp")
        stmts.append(b.loop("lps", "h", H, "c1", "lpsp"))

        b.line()
        b.comment("C_out = sum(Ep / Sp[:, :, None], axis=1)")
        b.load("sph", "Sp", ("eh", "full"))
        b.bcast("spb", "sph", (2,), (1, M, "tile_p"))
        b.div("epdiv", "epl", "spb")
        b.rsum("cor", "epdiv", 1)
        b.cast("cor16", "cor", "f16")
        b.store("sco", "cor16", "C_out", ("eh", "tp"))
        b.loop("lcop", "p", P, "tile_p", "sco")
        stmts.append(b.loop("lco", "h", H, "c1", "lcop"))

    if name == "roco":
        b.line()
        b.comment("C_out1 = sum(Cdiv, axis=1), Cdiv = E / S[:, :, None]")
        b.rsum("c1r", "cdiv", 1)
        b.cast("c1r16", "c1r", "f16")
        b.store("sco1", "c1r16", "C_out1", ("eh", "tp"))
        b.loop("lco1p", "p", P, "tile_p", "sco1")
        stmts.append(b.loop("lco1", "h", H, "c1", "lco1p"))

        b.line()
        b.comment("C_out2 = sum(Cdiv * Cdiv, axis=1)")
        b.mul("cdsq", "cdiv", "cdiv")
        b.rsum("c2r", "cdsq", 1)
        b.cast("c2r16", "c2r", "f16")
        b.store("sco2", "c2r16", "C_out2", ("eh", "tp"))
        b.loop("lco2p", "p", P, "tile_p", "sco2")
        stmts.append(b.loop("lco2", "h", H, "c1", "lco2p"))

    b.line()
    b.seq_chain(stmts)
    return b


def ffn_workload(cfg):
    M, D, F = cfg["M"], cfg["D"], cfg["F"]
    b = Program("ffn")
    b.declare("O2in", (M, D), "f16", "input")
    b.declare("X", (M, D), "f16", "input")
    b.declare("WO", (D, D), "f16", "input")
    b.declare("g", (D,), "f16", "input")
    b.declare("W1a", (D, F), "f16", "input")
    b.declare("W1b", (D, F), "f16", "input")
    b.declare("W2", (F, D), "f16", "input")
    b.declare("out", (M, D), "f16", "output")
    b.declare("A1", (M, D), "f32", "intermediate")
    b.declare("A2", (M, D), "f32", "intermediate")
    b.declare("SS", (M,), "f32", "intermediate")
    b.declare("A3", (M, D), "f16", "intermediate")
    b.declare("F1a", (M, F), "f32", "intermediate")
    b.declare("F1b", (M, F), "f32", "intermediate")
    b.declare("F1", (M, F), "f16", "intermediate")
    b.declare("F2", (M, D), "f32", "intermediate")

    # n, k: columns and reduction over D; f, kf: columns and reduction over F.
    for v in ("n", "k", "f", "kf"):
        b.var(v)
    for s in ("tile_n", "tile_k", "tile_f", "tile_kf"):
        b.size(s, s)
    b.full("full")
    b.tile("tn", "n", "tile_n")
    b.tile("tk", "k", "tile_k")
    b.tile("tf", "f", "tile_f")
    b.tile("tkf", "kf", "tile_kf")

    stmts = []
    b.line()
    b.comment("A1 = O2in @ WO: accumulate over k.")
    b.load("o2k", "O2in", ("full", "tk"))
    b.load("wo", "WO", ("tk", "tn"))
    b.load("a1", "A1", ("full", "tn"))
    b.matmul("ow", "o2k", "wo")
    b.add("a1n", "a1", "ow")
    b.store("sa1", "a1n", "A1", ("full", "tn"))
    b.loop("la1k", "k", D, "tile_k", "sa1")
    stmts.append(b.loop("la1", "n", D, "tile_n", "la1k"))

    b.line()
    b.comment("A2 = A1 + X")
    b.load("a1l", "A1", ("full", "tn"))
    b.load("xl", "X", ("full", "tn"))
    b.cast("xf", "xl", "f32")
    b.add("a2t", "a1l", "xf")
    b.store("sa2", "a2t", "A2", ("full", "tn"))
    stmts.append(b.loop("la2", "n", D, "tile_n", "sa2"))

    stmts += rms_rows(b, cfg, "ar", "A2", "A3", "SS", "g")

    for i, (w, acc) in enumerate((("W1a", "F1a"), ("W1b", "F1b"))):
        b.line()
        if i == 0:
            b.comment("F1a = A3 @ W1a (and F1b): accumulate over k.")
            b.load("a3k", "A3", ("full", "tk"))
        lw, la = w.lower(), acc.lower()
        b.load(lw, w, ("tk", "tf"))
        b.load(la, acc, ("full", "tf"))
        b.matmul(la + "mm", "a3k", lw)
        b.add(la + "n", la, la + "mm")
        b.store("s" + la, la + "n", acc, ("full", "tf"))
        b.loop("l%sk" % la, "k", D, "tile_k", "s" + la)
        stmts.append(b.loop("l" + la, "f", F, "tile_f", "l%sk" % la))

    b.line()
    b.comment("F1 = F1a * F1b * sigmoid(F1b)")
    b.load("f1al", "F1a", ("full", "tf"))
    b.load("f1bl", "F1b", ("full", "tf"))
    b.mul("f1ab", "f1al", "f1bl")
    b.unary("sigmoid", "f1bs", "f1bl")
    b.mul("f1t", "f1ab", "f1bs")
    b.cast("f1t16", "f1t", "f16")
    b.store("sf1", "f1t16", "F1", ("full", "tf"))
    stmts.append(b.loop("lf1", "f", F, "tile_f", "sf1"))

    b.line()
    b.comment("F2 = F1 @ W2: accumulate over kf (F2 is out in f32).")
    b.load("f1k", "F1", ("full", "tkf"))
    b.load("w2", "W2", ("tkf", "tn"))
    b.load("f2", "F2", ("full", "tn"))
    b.matmul("f2mm", "f1k", "w2")
    b.add("f2n", "f2", "f2mm")
    b.store("sf2", "f2n", "F2", ("full", "tn"))
    b.loop("lf2k", "kf", F, "tile_kf", "sf2")
    stmts.append(b.loop("lf2", "n", D, "tile_n", "lf2k"))

    b.line()
    b.comment("out = F2, stored as f16")
    b.load("f2l", "F2", ("full", "tn"))
    b.cast("f2l16", "f2l", "f16")
    b.store("sout", "f2l16", "out", ("full", "tn"))
    stmts.append(b.loop("lout", "n", D, "tile_n", "sout"))

    b.line()
    b.seq_chain(stmts)
    return b


def build(name, cfg):
    if name == "ffn":
        return ffn_workload(cfg)
    return attention_workload(name, cfg)


def size_line(name, cfg, small):
    c = cfg
    what = "scaled down" if small else "LLaMA3-8B configuration"
    if name == "ffn":
        return "%s: M=%d tokens, D=%d, F=%d." % (what, c["M"], c["D"], c["F"])
    return ("%s: M=%d tokens, H=%d heads, d=%d, D=H*d=%d, P=%d, PRE=%d."
            % (what, c["M"], c["H"], c["d"], c["D"], c["P"], c["PRE"]))


def render(name, cfg, small):
    lines = TITLES[name] + [size_line(name, cfg, small)]
    if not small:
        lines.append("Generated by examples/generate.py; edit that, not "
                     "this file.")
    header = "".join("// %s\n" % l for l in lines) + "\n"
    if small:
        header = RUN_LINES + REFERENCE_RUN_LINES % name + "\n" + header
    return build(name, cfg).text(header, check=small)


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=os.path.dirname(here),
                        help="write DIR/examples and DIR/test/Examples "
                        "(default: the repository root)")
    args = parser.parse_args(argv)
    for sub, cfg, small in (("examples", LLAMA, False),
                            (os.path.join("test", "Examples"), SMALL, True)):
        out_dir = os.path.join(args.root, sub)
        os.makedirs(out_dir, exist_ok=True)
        for name in WORKLOADS:
            path = os.path.join(out_dir, name + ".mlir")
            with open(path, "w", newline="\n") as f:
                f.write(render(name, cfg, small))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
