#!/usr/bin/env python3
"""Generates the naive tile programs of the six benchmark workloads.

The workloads are those of docs/Workloads.md (vanilla, prenorm, qknorm,
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

    def seq(self, prefix, stmts):
        """A right-nested tile.seq chain of `stmts` in order, seq(a, seq(b,
        seq(c, d))), named prefix1 (the outermost) .. prefix<n-1>; returns
        the name of the outermost seq (or the statement, if only one)."""
        n = len(stmts)
        assert n >= 1
        top = stmts[n - 1]
        for i in range(n - 1, 0, -1):
            r = "%s%d" % (prefix, i)
            self._def(r)
            self.line("%%%s = tile.seq %%%s, %%%s" % (r, stmts[i - 1], top))
            top = r
        return top

    def seq_chain(self, stmts):
        """The root: a right-nested tile.seq chain of `stmts` in order."""
        assert len(stmts) >= 1
        self.line("tile.yield %%%s" % self.seq("s", stmts))

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
        assert ea == eb and ea in ("f16", "f32")
        assert sa[-1] == sb[-2] and sa[:-2] == sb[:-2]
        self._new(r, sa[:-1] + sb[-1:], "f32")
        self.line("%%%s = tile.matmul %%%s, %%%s : %s, %s -> %s" % (
            r, a, b, self._ty(a), self._ty(b), self._ty(r)))
        return r

    # Output ----------------------------------------------------------------

    def text(self, header, check, checks=()):
        out = []
        if check:
            out.append("// CHECK-LABEL: tile.program @%s" % self.name)
            out.extend("// " + c for c in checks)
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


def attention_decls(b, cfg, skip=()):
    """The loop variables, sizes and index expressions of the attention
    workloads; `skip` names ones a program does not use (a goal program)."""
    d = cfg["d"]
    for v in ("n", "k", "c", "h", "p"):
        if v not in skip:
            b.var(v)
    for s in ("tile_n", "tile_k", "tile_p"):
        if s not in skip:
            b.size(s, s)
    for s, v in (("c%d" % d, d), ("c1", 1)):
        if s not in skip:
            b.size(s, v)
    b.full("full")
    for r, kind, var, extent in (("tn", "tile", "n", "tile_n"),
                                 ("tk", "tile", "k", "tile_k"),
                                 ("tc", "tile", "c", d),
                                 ("ec", "elem", "c", None),
                                 ("eh", "elem", "h", None),
                                 ("tp", "tile", "p", "tile_p")):
        if r in skip:
            continue
        if kind == "tile":
            b.tile(r, var, extent)
        else:
            b.elem(r, var)
    b.const_tile("new", cfg["PRE"], cfg["P"] - cfg["PRE"])


def projections(b, cfg, src, col="tn"):
    """Q1 = src @ WQ, K1 = src @ WK, V1 = src @ WV; returns the loops.

    col="tc" (a goal program): the bodies re-expressed on the head loop c
    (tile.tile %n -> tile.tile %c, tile_n -> d); returns the k-loops only."""
    D = cfg["D"]
    b.line()
    if col == "tn":
        b.comment("Q1 = %s @ WQ (and K1, V1): accumulate over k." % src)
    else:
        b.comment("Q1[:, c:c+d] = %s @ WQ[:, c:c+d] (and K1, V1): the naive "
                  "k-loops with" % src)
        b.comment("tile.tile %%n -> tile.tile %%c and tile_n -> %d (%%q1 is "
                  "thus the same term as %%q1h below)." % cfg["d"])
    b.load("x", src, ("full", "tk"))
    loops = []
    for i, (w, acc) in enumerate((("WQ", "Q1"), ("WK", "K1"), ("WV", "V1"))):
        if i:
            b.line()
        lw, la = w.lower(), acc.lower()  # wq, q1
        q = la[0]
        b.load(lw, w, ("tk", col))
        b.load(la, acc, ("full", col))
        b.matmul("x" + q, "x", lw)
        b.add(la + "n", la, "x" + q)
        b.store("s" + la, la + "n", acc, ("full", col))
        lk = b.loop("l%sk" % la, "k", D, "tile_k", "s" + la)
        if col == "tn":
            loops.append(b.loop("l" + la, "n", D, "tile_n", lk))
        else:
            loops.append(lk)
    return loops


def heads(b, cfg, loops=True):
    """Q = transpose(reshape(Q1, (M, H, d)), (1, 0, 2)) and K, V; returns
    the loops (loops=False: the loop bodies)."""
    D, d = cfg["D"], cfg["d"]
    b.line()
    b.comment("Q = transpose(reshape(Q1, (M, H, d)), (1, 0, 2)), one head "
              "(d columns) per step of c.")
    out = []
    for i, t in enumerate(("Q", "K", "V")):
        if i:
            b.line()
        a = t.lower()
        b.load(a + "1h", t + "1", ("full", "tc"))
        b.cast(a + "1h16", a + "1h", "f16")
        b.unsqueeze(a + "1u", a + "1h16", 1)
        b.permute(a + "h", a + "1u", (1, 0, 2))
        st = b.store("s" + a, a + "h", t, ("ec", "full", "full"))
        out.append(b.loop("l" + a, "c", D, "c%d" % d, st) if loops else st)
    return out


def cache_update(b, cfg, k_src="K", v_src="V", h="eh", loops=True):
    """Kc[:, PRE:P, :] = k_src, Vc likewise, one head per step of the loop
    whose element index is `h`; returns the loops (loops=False: the
    bodies)."""
    H = cfg["H"]
    b.line()
    b.comment("Kc[:, PRE:P, :] = %s ; Vc[:, PRE:P, :] = %s" % (k_src, v_src))
    b.load("kn", k_src, (h, "full", "full"))
    skc = b.store("skc", "kn", "Kc", (h, "new", "full"))
    out = [b.loop("lkc", "h", H, "c1", skc) if loops else skc]
    b.load("vn", v_src, (h, "full", "full"))
    svc = b.store("svc", "vn", "Vc", (h, "new", "full"))
    out.append(b.loop("lvc", "h", H, "c1", svc) if loops else svc)
    return out


def scores(b, cfg, q_src="Q", h="eh", loops=True):
    """C = q_src @ Kc^T, E = exp(C), S = sum(E, axis=2): the h-loops (one
    head per step) of p-loops; loops=False: the p-loop bodies."""
    H, P = cfg["H"], cfg["P"]
    out = []
    b.line()
    b.comment("C = %s @ transpose(Kc, (0, 2, 1))" % q_src)
    b.load("qt", q_src, (h, "full", "full"))
    b.load("kct", "Kc", (h, "tp", "full"))
    b.permute("kctt", "kct", (0, 2, 1))
    b.matmul("ct", "qt", "kctt")
    out.append(b.store("sc", "ct", "C", (h, "full", "tp")))
    if loops:
        b.loop("lcp", "p", P, "tile_p", "sc")
        out[-1] = b.loop("lc", "h", H, "c1", "lcp")

    b.line()
    b.comment("E = exp(C)")
    b.load("cl", "C", (h, "full", "tp"))
    b.unary("exp", "et", "cl")
    out.append(b.store("se", "et", "E", (h, "full", "tp")))
    if loops:
        b.loop("lep", "p", P, "tile_p", "se")
        out[-1] = b.loop("le", "h", H, "c1", "lep")

    b.line()
    b.comment("S = sum(E, axis=2)")
    b.load("el", "E", (h, "full", "tp"))
    b.load("sl", "S", (h, "full"))
    b.rsum("er", "el", 2)
    b.add("sn", "sl", "er")
    out.append(b.store("ss", "sn", "S", (h, "full")))
    if loops:
        b.loop("lsp", "p", P, "tile_p", "ss")
        out[-1] = b.loop("ls", "h", H, "c1", "lsp")
    return out


def output_heads(b, cfg, loop=True):
    """O2 = reshape(transpose(O, (1, 0, 2)), (M, H*d)); the loop (or with
    loop=False its body)."""
    D, d = cfg["D"], cfg["d"]
    b.line()
    b.comment("O2 = reshape(transpose(O, (1, 0, 2)), (M, H*d))")
    b.load("oh", "O", ("ec", "full", "full"))
    b.permute("ohp", "oh", (1, 0, 2))
    b.squeeze("ohs", "ohp", 1)
    b.cast("oh16", "ohs", "f16")
    so2 = b.store("so2", "oh16", "O2", ("full", "tc"))
    return b.loop("lo2", "c", D, "c%d" % d, so2) if loop else so2


def attention(b, cfg, q_src="Q"):
    """C, E, S, O and O2 of the attention core; returns the loops."""
    M, H, P = cfg["M"], cfg["H"], cfg["P"]
    loops = scores(b, cfg, q_src)

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

    loops.append(output_heads(b, cfg))
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


def attention_tensors(b, name, cfg):
    """The tensors (block arguments) of an attention workload, in order."""
    M, D, H, d, P = cfg["M"], cfg["D"], cfg["H"], cfg["d"], cfg["P"]
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


def attention_workload(name, cfg):
    M, H, P = cfg["M"], cfg["H"], cfg["P"]
    b = Program(name)
    attention_tensors(b, name, cfg)
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


# Goal programs ---------------------------------------------------------------
#
# Programs that equality saturation must find represented in the saturated
# e-graph of a naive workload: exactly the terms our rewrite rules derive from
# it. Unchanged subterms are the naive program's ops (same tensors, tile.var
# and tile.size names, index expressions); term identity is structural, so the
# SSA names and the order of the ops in the file do not matter.

GOALS = (("vanilla", "fig4d"), ("vanilla", "fig4f"))

NUMERICS_NOTE = [
    "Numerics: the unnormalised E = exp(C) stays f32 and Vc is cast up "
    "(cast(E) : f16",
    "would overflow once C > ln(65504) ~ 11.1, which the full-size inputs "
    "reach).",
]

GOAL_TITLES = {
    "fig4d": [
        "Goal for vanilla: Trinity Figure 4(d), FlashAttention. Derived from "
        "the naive",
        "program (vanilla.mlir) by:",
        "  1. assoc-div-matmul through the cast in O's body:",
        "       matmul(cast(div(E, bcast(S) [2])) : f16, Vc)",
        "         -> div(matmul(cast(E) : f16, Vc), bcast(S) [2] : [1, M, d])",
        "  2. algebraic factoring of the p-loop of O (div):",
        "       loop p (store O (add (load O) (div v1 v2)))",
        "         -> seq(loop p (store O (add (load O) v1)),",
        "                store O (div (load O) v2))",
        "  3. loop fusion of the h-loops of C, E, S, O (bodies re-nested "
        "right),",
        "     then of the p-loops of C, E, S and the factored O.",
        "Result: the naive Q1, K1, V1, Q, K, V and cache-update loops, then",
        "  loop h (seq(loop p (seq(C, seq(E, seq(S, O += cast(E) @ Vc)))),",
        "              O = O / S)),",
        "then the naive O2 loop.",
    ],
    "fig4f": [
        "Goal for vanilla: Trinity Figure 4(f), everything in one loop over "
        "heads. From",
        "Figure 4(d) (vanilla-fig4d.mlir), loop fusion with iteration-space "
        "reindexing",
        "fuses every top-level loop into the head loop `loop c = 0 to D step "
        "d` of the",
        "naive Q, K, V and O2 loops (same trip count H): in a re-expressed "
        "body",
        "tile.elem %h -> tile.elem %c and tile.tile %n -> tile.tile %c, and "
        "the",
        "projections' symbolic step tile_n is specialised to d (every tile_n "
        "in their",
        "types becomes d). The projections' k-loops stay separate. Body, "
        "right-nested:",
        "  loop k Q1', loop k K1', loop k V1', Q, K, V, Kc', Vc',",
        "  loop p (seq(C', seq(E', seq(S', O' += cast(E') @ Vc)))), "
        "O' = O' / S', O2",
        "(' : re-expressed on c).",
    ],
}


def goal_fig4d(cfg):
    """Trinity Figure 4(d) for vanilla (see GOAL_TITLES)."""
    b = Program("vanilla_fig4d")
    attention_tensors(b, "vanilla", cfg)
    attention_decls(b, cfg)
    stmts = projections(b, cfg, "X")
    stmts += heads(b, cfg)
    stmts += cache_update(b, cfg)
    lfh = flash(b, cfg, "eh")
    stmts.append(lfh)
    stmts.append(output_heads(b, cfg))
    b.line()
    b.seq_chain(stmts)
    return b


def goal_fig4f(cfg):
    """Trinity Figure 4(f) for vanilla (see GOAL_TITLES)."""
    D, d = cfg["D"], cfg["d"]
    b = Program("vanilla_fig4f")
    attention_tensors(b, "vanilla", cfg)
    # n, h, tile_n and the step 1 of the h-loops are gone, and with them
    # tile.tile %n and tile.elem %h.
    attention_decls(b, cfg, skip=("n", "h", "tile_n", "c1", "tn", "eh"))
    body = projections(b, cfg, "X", col="tc")
    body += heads(b, cfg, loops=False)
    body += cache_update(b, cfg, h="ec", loops=False)
    body += flash(b, cfg, "ec", h_loop=False)
    body.append(output_heads(b, cfg, loop=False))
    b.line()
    b.comment("The one loop: c steps over the heads, d columns at a time.")
    top = b.seq("b", body)
    b.loop("lall", "c", D, "c%d" % d, top)
    b.line("tile.yield %lall")
    return b


def flash(b, cfg, h, h_loop=True):
    """C, E, S and O of vanilla as in Figure 4(d): one p-loop for C, E, S and
    the unnormalised O += E @ cast(Vc) (in f32: E = exp(C) can exceed the
    f16 range), then O = O / S. `h` is the head's
    element index; returns the h-loop, or with h_loop=False the p-loop and
    the division store."""
    M, H, P, d = cfg["M"], cfg["H"], cfg["P"], cfg["d"]
    p_body = scores(b, cfg, "Q", h, loops=False)

    b.line()
    b.comment("O += E @ cast(Vc) (assoc-div-matmul through the cast, then "
              "factoring out the division by S)")
    b.load("ol", "O", (h, "full", "full"))
    b.load("vct", "Vc", (h, "tp", "full"))
    b.cast("vct32", "vct", "f32")
    b.matmul("pv", "el", "vct32")
    b.add("on", "ol", "pv")
    p_body.append(b.store("so", "on", "O", (h, "full", "full")))

    b.line()
    b.comment("O = O / S[:, :, None], once per head after the p-loop")
    b.load("sh", "S", (h, "full"))
    b.bcast("sb", "sh", (2,), (1, M, d))
    b.div("od", "ol", "sb")
    sdiv = b.store("sod", "od", "O", (h, "full", "full"))

    b.line()
    b.comment("The fused p-loop")
    lfp = b.loop("lfp", "p", P, "tile_p", b.seq("fp", p_body))
    if not h_loop:
        return [lfp, sdiv]
    b.comment("The fused h-loop")
    return b.loop("lfh", "h", H, "c1", b.seq("fh", [lfp, sdiv]))


GOAL_CHECKS = {
    "fig4d": [
        # E is divided by S nowhere inside the p-loop: the only div is the
        # one of O by S after it, at the matmul result type.
        "CHECK-NOT: tile.div",
        "CHECK: %[[SB:.+]] = tile.bcast %{{.+}} [2] : !tile.tile<[1, {M}], "
        "f32> -> !tile.tile<[1, {M}, {d}], f32>",
        "CHECK-NEXT: %[[OD:.+]] = tile.div %{{.+}}, %[[SB]] : "
        "!tile.tile<[1, {M}, {d}], f32>",
        "CHECK-NOT: tile.div",
        # The fused p-loop (C, E, S, O) and the h-loop around it with the
        # division after it.
        "CHECK: %[[LFP:.+]] = tile.loop %p = 0 to {P} step %tile_p body",
        "CHECK: %[[FH:.+]] = tile.seq %[[LFP]], %{{.+}}",
        "CHECK-NEXT: %[[LFH:.+]] = tile.loop %h = 0 to {H} step %c1 body "
        "%[[FH]]",
        # The h-loop comes between the cache updates and the O2 loop.
        "CHECK: tile.seq %[[LFH]], %{{.+}}",
    ],
    "fig4f": [
        # Exactly one top-level loop: the root is the c-loop, and there are
        # five loops in all (it, three k-loops and the p-loop).
        "CHECK-COUNT-4: tile.loop",
        "CHECK-NOT: tile.loop",
        "CHECK: %[[ROOT:.+]] = tile.loop %c = 0 to {D} step %c{d} body",
        "CHECK-NEXT: tile.yield %[[ROOT]]",
    ],
}

# Checked over the whole output: nothing of the eliminated loops is left.
GOAL_NOT = {
    "fig4d": [],
    "fig4f": ["tile_n", "tile.elem %h", "tile.var \"h\"",
              "tile.var \"n\""],
}


def render_goal(name, fig, cfg, small):
    lines = GOAL_TITLES[fig] + NUMERICS_NOTE + [size_line(name, cfg, small)]
    if not small:
        lines.append("Generated by examples/generate.py; edit that, not "
                     "this file.")
    header = "".join("// %s\n" % l for l in lines) + "\n"
    checks = []
    for c in GOAL_CHECKS[fig]:
        for k, v in cfg.items():
            c = c.replace("{%s}" % k, str(v))
        checks.append(c)
    if small:
        run = RUN_LINES + REFERENCE_RUN_LINES.replace(
            "%S/../Workloads", "%S/../../Workloads") % name
        nots = GOAL_NOT[fig]
        if nots:
            run += "// RUN: tile-opt %s | FileCheck %s --check-prefix=GONE\n"
            run += "".join("// GONE-NOT: %s\n" % n for n in nots)
        header = run + "\n" + header
    b = goal_fig4d(cfg) if fig == "fig4d" else goal_fig4f(cfg)
    return b.text(header, check=small, checks=checks)


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
        goal_dir = os.path.join(out_dir, "goals")
        os.makedirs(goal_dir, exist_ok=True)
        for name, fig in GOALS:
            path = os.path.join(goal_dir, "%s-%s.mlir" % (name, fig))
            with open(path, "w", newline="\n") as f:
                f.write(render_goal(name, fig, cfg, small))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
