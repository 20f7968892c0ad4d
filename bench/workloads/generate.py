#!/usr/bin/env python3
"""Generates the six benchmark workloads as linalg programs on tensors.

The workloads are those of docs/Workloads.md (vanilla, prenorm, qknorm,
keyformer, roco, ffn). Each is described once below and emitted at three
sizes, so the sizes cannot drift apart:

  bench/workloads/llama/<name>.mlir   full size, LLaMA3-8B configuration
  bench/workloads/falcon/<name>.mlir  full size, Falcon-7B configuration
  test/Workloads/<name>.mlir          scaled down, with lit RUN lines
  test/GPU/Inputs/decode/<name>.mlir  scaled down but M=16, for GPU tests

Conventions (bench/workloads/README.md has the full list): one func.func
@<name> per file; arguments in docs/Workloads.md order, each with
{tile.name = "X", tile.init = "normal(MEAN, STDDEV)"}; results O2 (or out)
first, then extra outputs, then the updated caches Kc, Vc, each with
{tile.name = ...}. Storage is f16; matmuls take f16 operands and
accumulate into f32; exp, sqrt, reductions and softmax statistics are f32.

Usage:
  generate.py [--root DIR]   write the 24 files under DIR (default: the
                             repository root)
  generate.py --bytes        print the compulsory HBM bytes of each
                             full-size workload (the README table)

test/Workloads/generated.test regenerates into a temporary directory and
diffs against the committed files. Python 3 standard library only.
"""

import argparse
import os
import sys

WORKLOADS = ("vanilla", "prenorm", "qknorm", "keyformer", "roco", "ffn")

# M: new tokens, D: hidden, H: heads, d: head dim, P: KV length,
# PRE: cached prefix, F: FFN width.
CONFIGS = {
    "llama": dict(M=16, D=4096, H=32, d=128, P=1024, PRE=1008, F=14336),
    "falcon": dict(M=16, D=4544, H=71, d=64, P=1024, PRE=1008, F=18176),
    "small": dict(M=4, D=16, H=2, d=8, P=16, PRE=12, F=32),
    "decode": dict(M=16, D=256, H=4, d=64, P=64, PRE=48, F=512),
}
CONFIG_TITLES = {
    "llama": "llama (LLaMA3-8B)",
    "falcon": "falcon (Falcon-7B)",
    "small": "scaled down for tests",
    "decode": "scaled down for GPU tests with the full-size M (16 rows: "
              "matrix-unit tiles)",
}

# Input distributions of docs/Workloads.md "Test data": (mean, standard deviation).
X_INIT = (0.0, 1.0)
WEIGHT_INIT = (0.0, 0.02)
KC_INIT = (0.0, 0.3)
VC_INIT = (0.0, 1.0)
NOISE_INIT = (0.0, 0.1)
NORM_INIT = (1.0, 0.1)

RMS_EPS = "1.000000e-06"

TITLES = {
    "vanilla": "vanilla: Q, K, V heads of X @ WQ, X @ WK, X @ WV; KV-cache "
               "update; O2 = attn(Q, K, V).",
    "prenorm": "prenorm: Xn = rms(X, g), then vanilla attention on Xn.",
    "qknorm": "qknorm: vanilla attention with Q = rms(Q, gq), K = rms(K, gk) "
              "over the head dim.",
    "keyformer": "keyformer: vanilla attention plus "
                 "C_out = sum(softmax((C + noise) / 1.5), axis=1).",
    "roco": "roco: vanilla attention plus C_out1 = sum(Cdiv, axis=1), "
            "C_out2 = sum(Cdiv * Cdiv, axis=1).",
    "ffn": "ffn: A3 = rms(O2in @ WO + X, g); "
           "out = ((A3 @ W1a) * silu(A3 @ W1b)) @ W2.",
}

RUN_LINES = """\
// RUN: tile-opt %s | FileCheck %s
// RUN: tile-opt %s --mlir-print-op-generic | tile-opt | FileCheck %s

// Converted to a naive tile program, it computes what the linalg function
// computes (exact arithmetic; tile sizes of up to 32, and of 1; fp16
// storage with f32 arithmetic against the exact reference).
// RUN: tile-opt %s --convert-linalg-to-tile -o %t.tile.mlir
// RUN: tile-run %t.tile.mlir --reference %s --tolerance 1e-6 | FileCheck %s --check-prefix=CMP
// RUN: tile-run %t.tile.mlir --reference %s --tolerance 1e-6 --max-tile-size 1 --seed 7 | FileCheck %s --check-prefix=CMP
// RUN: tile-run %t.tile.mlir --reference %s --tolerance 1e-2 --precision f32 --seed 3 | FileCheck %s --check-prefix=CMP
// CMP-NOT: MISMATCH
// CMP: PASS
"""


def fmt_float(x):
    """A float literal MLIR parses back to the same value."""
    return repr(float(x))


def tensor_type(shape, et):
    return "tensor<%s%s>" % ("".join("%dx" % s for s in shape), et)


def affine_map_name(rank, dims):
    return "#map%d_%s" % (rank, "".join(str(d) for d in dims))


def affine_map_def(rank, dims):
    ds = ["d%d" % i for i in range(rank)]
    return "%s = affine_map<(%s) -> (%s)>" % (
        affine_map_name(rank, dims), ", ".join(ds),
        ", ".join(ds[d] for d in dims))


class Body:
    """The scalar body of a linalg.generic: arith/math ops on block args."""

    def __init__(self, args):
        # args: [(name, et)] for the block arguments (ins, then the out).
        self.types = dict(args)
        self.lines = []
        self.count = 0

    def _new(self, et):
        self.count += 1
        r = "%%v%d" % self.count
        self.types[r] = et
        return r

    def emit(self, et, text):
        r = self._new(et)
        self.lines.append("%s = %s" % (r, text))
        return r

    def const(self, value, et="f32"):
        return self.emit(et, "arith.constant %s : %s" % (value, et))

    def ext(self, x):
        """x as f32 (arith.extf when x is f16)."""
        if self.types[x] == "f32":
            return x
        return self.emit("f32", "arith.extf %s : %s to f32"
                         % (x, self.types[x]))

    def trunc(self, x):
        return self.emit("f16", "arith.truncf %s : %s to f16"
                         % (x, self.types[x]))

    def _bin(self, op, a, b):
        assert self.types[a] == self.types[b], (op, a, b)
        return self.emit(self.types[a], "arith.%s %s, %s : %s"
                         % (op, a, b, self.types[a]))

    def add(self, a, b):
        return self._bin("addf", a, b)

    def sub(self, a, b):
        return self._bin("subf", a, b)

    def mul(self, a, b):
        return self._bin("mulf", a, b)

    def div(self, a, b):
        return self._bin("divf", a, b)

    def neg(self, a):
        return self.emit(self.types[a], "arith.negf %s : %s"
                         % (a, self.types[a]))

    def math(self, op, a):
        return self.emit(self.types[a], "math.%s %s : %s"
                         % (op, a, self.types[a]))

    def index(self, dim):
        """The position along iteration dimension `dim` (linalg.index)."""
        return self.emit("index", "linalg.index %d : index" % dim)

    def iconst(self, value):
        return self.emit("index", "arith.constant %d : index" % value)

    def addi(self, a, b):
        return self.emit("index", "arith.addi %s, %s : index" % (a, b))

    def cmpi(self, pred, a, b):
        return self.emit("i1", "arith.cmpi %s, %s, %s : %s"
                         % (pred, a, b, self.types[a]))

    def select(self, c, a, b):
        assert self.types[a] == self.types[b], (a, b)
        return self.emit(self.types[a], "arith.select %s, %s, %s : %s"
                         % (c, a, b, self.types[a]))


class Func:
    """Emits one func.func of linalg-on-tensors ops, tracking value types."""

    def __init__(self, name):
        self.name = name
        self.args = []  # (name, shape, init)
        self.types = {}  # value name (without %) -> (shape, et)
        self.lines = []
        self.maps = set()
        self.results = []  # (value, tile.name)
        self.have_zero = False
        self.slices = {}  # insert_slice result -> its source

    # Values ----------------------------------------------------------------

    def _new(self, name, shape, et):
        assert name not in self.types, name
        self.types[name] = (tuple(shape), et)
        return name

    def ty(self, v):
        return tensor_type(*self.types[v])

    def shape(self, v):
        return self.types[v][0]

    def arg(self, name, shape, init):
        self.args.append((name, tuple(shape), init))
        return self._new(name, shape, "f16")

    def line(self, text=""):
        self.lines.append(("  " + text) if text else "")

    def comment(self, text):
        self.line("// " + text)

    def empty(self, name, shape, et):
        self._new(name, shape, et)
        self.line("%%%s = tensor.empty() : %s" % (name, self.ty(name)))
        return name

    def zeros(self, name, shape):
        """An f32 accumulator filled with 0.0 (linalg.fill of tensor.empty)."""
        self.have_zero = True
        self.empty(name + "_init", shape, "f32")
        self._new(name, shape, "f32")
        self.line("%%%s = linalg.fill ins(%%zero : f32) outs(%%%s_init : %s) "
                  "-> %s" % (name, name, self.ty(name), self.ty(name)))
        return name

    # Structured ops ----------------------------------------------------------

    def matmul(self, name, a, b):
        """name = a @ b (f16 operands, f32 result); batched for rank 3."""
        sa, sb = self.shape(a), self.shape(b)
        assert self.types[a][1] == "f16" and self.types[b][1] == "f16"
        assert len(sa) == len(sb) and sa[:-2] == sb[:-2], (a, b)
        assert sa[-1] == sb[-2], (a, b, sa, sb)
        shape = sa[:-1] + sb[-1:]
        self.zeros(name + "_zero", shape)
        op = {2: "linalg.matmul", 3: "linalg.batch_matmul"}[len(sa)]
        self._new(name, shape, "f32")
        self.line("%%%s = %s ins(%%%s, %%%s : %s, %s) outs(%%%s_zero : %s) "
                  "-> %s" % (name, op, a, b, self.ty(a), self.ty(b), name,
                             self.ty(name), self.ty(name)))
        return name

    def generic(self, name, ins, shape, et, body_fn):
        """An elementwise linalg.generic over `shape`.

        ins: [(value, dims)], dims the iteration dimensions indexing that
        operand (a projected permutation; None: identity). body_fn(body,
        in_args) returns the scalar to yield (of type et)."""
        rank = len(shape)
        maps, block_args = [], []
        for i, (v, dims) in enumerate(ins):
            dims = tuple(range(rank)) if dims is None else tuple(dims)
            assert len(dims) == len(self.shape(v))
            for k, dim in enumerate(dims):
                assert self.shape(v)[k] == shape[dim], (name, v, dims)
            maps.append((rank, dims))
            block_args.append(("%%in%d" % i if len(ins) > 1 else "%in",
                               self.types[v][1]))
        maps.append((rank, tuple(range(rank))))
        block_args.append(("%out", et))
        self.maps.update(maps)
        body = Body(block_args)
        result = body_fn(body, [a for a, _ in block_args[:-1]])
        assert body.types[result] == et, (name, body.types[result], et)
        self.empty(name + "_init", shape, et)
        self._new(name, shape, et)
        self.line(
            "%%%s = linalg.generic {indexing_maps = [%s], iterator_types = "
            "[%s]} ins(%s : %s) outs(%%%s_init : %s) {" % (
                name, ", ".join(affine_map_name(*m) for m in maps),
                ", ".join(['"parallel"'] * rank),
                ", ".join("%" + v for v, _ in ins),
                ", ".join(self.ty(v) for v, _ in ins), name, self.ty(name)))
        self.line("^bb0(%s):" % ", ".join("%s: %s" % a for a in block_args))
        for text in body.lines:
            self.line("  " + text)
        self.line("  linalg.yield %s : %s" % (result, et))
        self.line("} -> %s" % self.ty(name))
        return name

    def to_f16(self, name, x):
        return self.generic(name, [(x, None)], self.shape(x), "f16",
                            lambda b, a: b.trunc(a[0]))

    def reduce_sum(self, name, x, dims):
        """name = sum(x, axis=dims) in f32 (linalg.reduce with arith.addf)."""
        assert self.types[x][1] == "f32"
        shape = [s for i, s in enumerate(self.shape(x)) if i not in dims]
        self.zeros(name + "_zero", shape)
        self._new(name, shape, "f32")
        self.line("%%%s = linalg.reduce ins(%%%s : %s) outs(%%%s_zero : %s) "
                  "dimensions = [%s]" % (name, x, self.ty(x), name,
                                         self.ty(name),
                                         ", ".join(str(d) for d in dims)))
        self.line("  (%in: f32, %acc: f32) {")
        self.line("    %sum = arith.addf %in, %acc : f32")
        self.line("    linalg.yield %sum : f32")
        self.line("  }")
        return name

    def transpose(self, name, x, perm):
        shape = [self.shape(x)[p] for p in perm]
        self.empty(name + "_init", shape, self.types[x][1])
        self._new(name, shape, self.types[x][1])
        self.line("%%%s = linalg.transpose ins(%%%s : %s) outs(%%%s_init : %s) "
                  "permutation = [%s]" % (name, x, self.ty(x), name,
                                          self.ty(name),
                                          ", ".join(str(p) for p in perm)))
        return name

    def expand(self, name, x, reassoc, shape):
        self._new(name, shape, self.types[x][1])
        self.line("%%%s = tensor.expand_shape %%%s %s output_shape [%s] : %s "
                  "into %s" % (name, x, _reassoc(reassoc),
                               ", ".join(str(s) for s in shape), self.ty(x),
                               self.ty(name)))
        return name

    def collapse(self, name, x, reassoc):
        shape = []
        for group in reassoc:
            n = 1
            for i in group:
                n *= self.shape(x)[i]
            shape.append(n)
        self._new(name, shape, self.types[x][1])
        self.line("%%%s = tensor.collapse_shape %%%s %s : %s into %s"
                  % (name, x, _reassoc(reassoc), self.ty(x), self.ty(name)))
        return name

    def insert_slice(self, name, src, dst, offsets):
        ss, ds = self.shape(src), self.shape(dst)
        assert len(ss) == len(ds) == len(offsets)
        assert all(o + s <= d for o, s, d in zip(offsets, ss, ds))
        self._new(name, ds, self.types[dst][1])
        self.slices[name] = src
        self.line("%%%s = tensor.insert_slice %%%s into %%%s[%s] [%s] [%s] : "
                  "%s into %s" % (name, src, dst,
                                  ", ".join(str(o) for o in offsets),
                                  ", ".join(str(s) for s in ss),
                                  ", ".join("1" for _ in ss),
                                  self.ty(src), self.ty(dst)))
        return name

    def result(self, value, tile_name):
        assert self.types[value][1] == "f16", value
        self.results.append((value, tile_name))

    # Text --------------------------------------------------------------------

    def text(self):
        out = []
        for m in sorted(self.maps, key=lambda m: (-m[0], affine_map_name(*m))):
            out.append(affine_map_def(*m))
        out.append("")
        args = ",\n".join(
            '    %%%s: %s {tile.name = "%s", tile.init = "normal(%s, %s)"}'
            % (n, tensor_type(s, "f16"), n, fmt_float(i[0]), fmt_float(i[1]))
            for n, s, i in self.args)
        res = ",\n".join('    %s {tile.name = "%s"}' % (self.ty(v), n)
                         for v, n in self.results)
        out.append("func.func @%s(\n%s\n) -> (\n%s\n) {" % (self.name, args,
                                                             res))
        if self.have_zero:
            out.append("  %zero = arith.constant 0.0 : f32")
        out.extend(self.lines)
        out.append("")
        out.append("  return %s : %s" % (
            ", ".join("%" + v for v, _ in self.results),
            ", ".join(self.ty(v) for v, _ in self.results)))
        out.append("}")
        return "\n".join(out) + "\n"


def _reassoc(reassoc):
    return "[%s]" % ", ".join("[%s]" % ", ".join(str(i) for i in g)
                              for g in reassoc)


# Building blocks -------------------------------------------------------------


def rms(f, name, x, g):
    """name = rms(x, g) = x / sqrt(mean(x*x, axis=-1) + 1e-6) * g, in f32,
    stored f16. g has the size of x's last dimension."""
    shape = f.shape(x)
    rank = len(shape)
    n = shape[-1]
    assert f.shape(g) == (n,)
    def square(b, a):
        xf = b.ext(a[0])
        return b.mul(xf, xf)

    f.generic(name + "_sq", [(x, None)], shape, "f32", square)
    f.reduce_sum(name + "_ss", name + "_sq", [rank - 1])

    def denominator(b, a):
        mean = b.div(a[0], b.const(fmt_float(n)))
        return b.math("sqrt", b.add(mean, b.const(RMS_EPS)))

    f.generic(name + "_den", [(name + "_ss", None)], shape[:-1], "f32",
              denominator)
    f.generic(name, [(x, None), (name + "_den", range(rank - 1)),
                     (g, [rank - 1])], shape, "f16",
              lambda b, a: b.trunc(b.mul(b.div(b.ext(a[0]), a[1]),
                                         b.ext(a[2]))))
    return name


def heads(f, name, x, w, c):
    """name = transpose(reshape(x @ w, (M, H, d)), (1, 0, 2)), stored f16.
    The intermediate values are named after name's first letter."""
    M, H, d = c["M"], c["H"], c["d"]
    p = name[0]
    f.matmul(p + "1", x, w)
    f.to_f16(p + "1h", p + "1")
    f.expand(p + "r", p + "1h", [[0], [1, 2]], [M, H, d])
    return f.transpose(name, p + "r", [1, 0, 2])


def attention_workload(name, c):
    M, D, H, d, P, PRE = c["M"], c["D"], c["H"], c["d"], c["P"], c["PRE"]
    assert D == H * d and PRE + M == P
    f = Func(name)
    f.arg("X", [M, D], X_INIT)
    if name == "prenorm":
        f.arg("g", [D], NORM_INIT)
    for w in ("WQ", "WK", "WV"):
        f.arg(w, [D, H * d], WEIGHT_INIT)
    if name == "qknorm":
        f.arg("gq", [d], NORM_INIT)
        f.arg("gk", [d], NORM_INIT)
    if name == "keyformer":
        f.arg("noise", [H, M, P], NOISE_INIT)
    f.arg("Kc", [H, P, d], KC_INIT)
    f.arg("Vc", [H, P, d], VC_INIT)

    x = "X"
    if name == "prenorm":
        f.comment("Xn = rms(X, g)")
        x = rms(f, "Xn", "X", "g")
        f.line()

    f.comment("Q, K, V = transpose(reshape(%s @ W, (M, H, d)), (1, 0, 2)), "
              "stored f16" % x)
    q, k, v = "Q", "K", "V"
    if name == "qknorm":
        q, k = "Q0", "K0"
    heads(f, q, x, "WQ", c)
    heads(f, k, x, "WK", c)
    heads(f, v, x, "WV", c)
    f.line()
    if name == "qknorm":
        f.comment("Q = rms(Q, gq), K = rms(K, gk) over the head dim")
        q = rms(f, "Q", q, "gq")
        k = rms(f, "K", k, "gk")
        f.line()

    f.comment("Kc[:, PRE:P, :] = K ;  Vc[:, PRE:P, :] = V")
    f.insert_slice("Kc_new", k, "Kc", [0, PRE, 0])
    f.insert_slice("Vc_new", v, "Vc", [0, PRE, 0])
    f.line()
    f.comment("C = Q @ transpose(Kc, (0, 2, 1))")
    f.transpose("KcT", "Kc_new", [0, 2, 1])
    f.matmul("C", q, "KcT")
    f.comment("E = exp(C); S = sum(E, axis=2); Cdiv = E / S[:, :, None]")
    f.generic("E", [("C", None)], [H, M, P], "f32",
              lambda b, a: b.math("exp", a[0]))
    f.reduce_sum("S", "E", [2])
    f.generic("Cdiv", [("E", None), ("S", [0, 1])], [H, M, P], "f32",
              lambda b, a: b.div(a[0], a[1]))
    f.comment("O = Cdiv @ Vc (Cdiv rounded to f16 for the matmul)")
    f.to_f16("Cdiv16", "Cdiv")
    f.matmul("O", "Cdiv16", "Vc_new")
    f.comment("O2 = reshape(transpose(O, (1, 0, 2)), (M, H*d)), stored f16")
    f.transpose("OT", "O", [1, 0, 2])
    f.collapse("O2f", "OT", [[0], [1, 2]])
    f.to_f16("O2", "O2f")
    outputs = [("O2", "O2")]

    if name == "keyformer":
        f.line()
        f.comment("Cp = (C + noise) / 1.5; Ep = exp(Cp); Sp = sum(Ep, 2)")

        def cp(b, a):
            return b.div(b.add(a[0], b.ext(a[1])), b.const("1.5"))

        f.generic("Cp", [("C", None), ("noise", None)], [H, M, P], "f32", cp)
        f.generic("Ep", [("Cp", None)], [H, M, P], "f32",
                  lambda b, a: b.math("exp", a[0]))
        f.reduce_sum("Sp", "Ep", [2])
        f.comment("C_out = sum(Ep / Sp[:, :, None], axis=1)")
        f.generic("Epdiv", [("Ep", None), ("Sp", [0, 1])], [H, M, P], "f32",
                  lambda b, a: b.div(a[0], a[1]))
        f.reduce_sum("C_out_f", "Epdiv", [1])
        f.to_f16("C_out", "C_out_f")
        outputs.append(("C_out", "C_out"))

    if name == "roco":
        f.line()
        f.comment("C_out1 = sum(Cdiv, axis=1)")
        f.reduce_sum("C_out1_f", "Cdiv", [1])
        f.to_f16("C_out1", "C_out1_f")
        f.comment("C_out2 = sum(Cdiv * Cdiv, axis=1)")
        f.generic("Cdiv_sq", [("Cdiv", None)], [H, M, P], "f32",
                  lambda b, a: b.mul(a[0], a[0]))
        f.reduce_sum("C_out2_f", "Cdiv_sq", [1])
        f.to_f16("C_out2", "C_out2_f")
        outputs += [("C_out1", "C_out1"), ("C_out2", "C_out2")]

    for v_, n in outputs + [("Kc_new", "Kc"), ("Vc_new", "Vc")]:
        f.result(v_, n)
    return f


def ffn_workload(c):
    M, D, F = c["M"], c["D"], c["F"]
    f = Func("ffn")
    f.arg("O2in", [M, D], X_INIT)
    f.arg("X", [M, D], X_INIT)
    f.arg("WO", [D, D], WEIGHT_INIT)
    f.arg("g", [D], NORM_INIT)
    f.arg("W1a", [D, F], WEIGHT_INIT)
    f.arg("W1b", [D, F], WEIGHT_INIT)
    f.arg("W2", [F, D], WEIGHT_INIT)

    f.comment("A1 = O2in @ WO; A2 = A1 + X (f32)")
    f.matmul("A1", "O2in", "WO")
    f.generic("A2", [("A1", None), ("X", None)], [M, D], "f32",
              lambda b, a: b.add(a[0], b.ext(a[1])))
    f.line()
    f.comment("A3 = rms(A2, g), stored f16")
    rms(f, "A3", "A2", "g")
    f.line()
    f.comment("F1a = A3 @ W1a; F1b = A3 @ W1b")
    f.matmul("F1a", "A3", "W1a")
    f.matmul("F1b", "A3", "W1b")
    f.comment("F1 = F1a * F1b * sigmoid(F1b), sigmoid(x) = 1 / (1 + exp(-x)); "
              "stored f16")

    def swiglu(b, a):
        one = b.const("1.0")
        sig = b.div(one, b.add(one, b.math("exp", b.neg(a[1]))))
        return b.trunc(b.mul(b.mul(a[0], a[1]), sig))

    f.generic("F1", [("F1a", None), ("F1b", None)], [M, F], "f16", swiglu)
    f.comment("out = F1 @ W2, stored f16")
    f.matmul("F2", "F1", "W2")
    f.to_f16("out_f16", "F2")
    f.result("out_f16", "out")
    return f


def build(name, c):
    if name == "ffn":
        return ffn_workload(c)
    return attention_workload(name, c)


def size_line(name, config):
    c = CONFIGS[config]
    if name == "ffn":
        sizes = "M=%d, D=%d, F=%d" % (c["M"], c["D"], c["F"])
    else:
        sizes = ("M=%d, D=%d, H=%d, d=%d, P=%d, PRE=%d"
                 % (c["M"], c["D"], c["H"], c["d"], c["P"], c["PRE"]))
    return ("docs/Workloads.md as linalg on tensors, %s: %s."
            % (CONFIG_TITLES[config], sizes))


def render(name, config):
    header = [TITLES[name], size_line(name, config),
              "Generated by bench/workloads/generate.py; edit that, not this "
              "file."]
    text = "".join("// %s\n" % l for l in header) + "\n"
    if config == "small":
        text = RUN_LINES + "\n" + text
        text += "// CHECK-LABEL: func.func @%s(\n" % name
    return text + build(name, CONFIGS[config]).text()


# Compulsory HBM bytes ----------------------------------------------------------

# docs/Workloads.md "The floor": HBM floor in microseconds at the measured copy
# bandwidth of 2.92 TB/s (H100 80GB HBM3).
COPY_BANDWIDTH = 2.92e12
FLOOR_US = {
    ("llama", "vanilla"): 40.3, ("llama", "prenorm"): 40.3,
    ("llama", "qknorm"): 40.3, ("llama", "keyformer"): 40.6,
    ("llama", "roco"): 40.3, ("llama", "ffn"): 132.1,
    ("falcon", "vanilla"): 48.8, ("falcon", "prenorm"): 48.8,
    ("falcon", "qknorm"): 48.8, ("falcon", "keyformer"): 49.7,
    ("falcon", "roco"): 48.9, ("falcon", "ffn"): 183.8,
}


def _numel(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def compulsory_bytes(name, config):
    """(read, written) bytes a kernel must move at least: every f16 input
    read once, every output written once. The caches are updated in place:
    read whole, and only the M new rows (the insert_slice source) written."""
    f = build(name, CONFIGS[config])
    read = sum(2 * _numel(s) for _, s, _ in f.args)
    written = 0
    for v, _ in f.results:
        written += 2 * _numel(f.shape(f.slices.get(v, v)))
    return read, written


def check_floors():
    """The compulsory bytes agree with docs/Workloads.md: its byte counts for
    llama (weights 100.7 MB and caches 16.8 MB of vanilla's about 117 MB;
    WO 33.6 MB and W1a/W1b/W2 352 MB of ffn's about 386 MB) to its rounding,
    and its floors (in us at 2.92 TB/s) within 0.5%: the table's floors
    are not reproduced exactly by any one byte count and bandwidth, so the
    tolerance absorbs its rounding."""
    def mb(*names, config="llama", workload="vanilla"):
        f = build(workload, CONFIGS[config])
        shapes = dict((n, s) for n, s, _ in f.args)
        return sum(2 * _numel(shapes[n]) for n in names) / 1e6

    claims = [(mb("WQ", "WK", "WV"), 100.7, 0.05),
              (mb("Kc", "Vc"), 16.8, 0.05),
              (sum(compulsory_bytes("vanilla", "llama")) / 1e6, 117, 1.5),
              (mb("WO", workload="ffn"), 33.6, 0.05),
              (mb("W1a", "W1b", "W2", workload="ffn"), 352, 0.5),
              (sum(compulsory_bytes("ffn", "llama")) / 1e6, 386, 0.5)]
    for ours, theirs, tol in claims:
        if abs(ours - theirs) > tol:
            raise SystemExit("compulsory bytes: %.3f MB where docs/Workloads.md "
                             "says %s MB" % (ours, theirs))
    for (config, name), us in FLOOR_US.items():
        read, written = compulsory_bytes(name, config)
        ours = (read + written) / COPY_BANDWIDTH * 1e6
        if abs(ours / us - 1) > 0.005:
            raise SystemExit("%s %s: %d bytes is %.2f us at 2.92 TB/s, "
                             "docs/Workloads.md says %.1f us"
                             % (config, name, read + written, ours, us))


def bytes_table():
    rows = ["| config | workload | read (MB) | written (MB) | total (MB) "
            "| at 2.92 TB/s (us) | docs/Workloads.md floor (us) |",
            "|---|---|---|---|---|---|---|"]
    for config in ("llama", "falcon"):
        for name in WORKLOADS:
            read, written = compulsory_bytes(name, config)
            rows.append("| %s | %s | %.2f | %.3f | %.2f | %.1f | %.1f |" % (
                config, name, read / 1e6, written / 1e6,
                (read + written) / 1e6,
                (read + written) / COPY_BANDWIDTH * 1e6,
                FLOOR_US[(config, name)]))
    return "\n".join(rows) + "\n"


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root",
                        default=os.path.dirname(os.path.dirname(here)),
                        help="write under DIR/bench/workloads and "
                        "DIR/test/Workloads (default: the repository root)")
    parser.add_argument("--bytes", action="store_true",
                        help="print the compulsory HBM bytes and exit")
    args = parser.parse_args(argv)
    check_floors()
    if args.bytes:
        sys.stdout.write(bytes_table())
        return 0
    for sub, config in ((os.path.join("bench", "workloads", "llama"), "llama"),
                        (os.path.join("bench", "workloads", "falcon"),
                         "falcon"),
                        (os.path.join("test", "Workloads"), "small"),
                        (os.path.join("test", "GPU", "Inputs", "decode"),
                         "decode")):
        out_dir = os.path.join(args.root, sub)
        os.makedirs(out_dir, exist_ok=True)
        for name in WORKLOADS:
            path = os.path.join(out_dir, name + ".mlir")
            with open(path, "w", newline="\n") as f:
                f.write(render(name, config))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
