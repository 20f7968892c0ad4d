#!/usr/bin/env python3
"""tile-fuzz: a differential tester for the whole tile-opt pipeline.

Generates random well-formed linalg programs (func.func on tensors) from a
seed, runs each through the pipeline and compares with the fp64 linalg
reference (the tools compare; this script reads their verdicts), and shrinks
every failure to a minimal reproducer. tools/tile-fuzz/README.md describes it.

Stages of one program P.mlir (T: the program's tolerance, TOL_F32 / TOL_F16):

  convert            tile-opt P.mlir --convert-linalg-to-tile -o P.tile.mlir
  convert/cpu        tile-run P.tile.mlir --reference P.mlir --precision f32 --tolerance T
  convert/emulate    the same with --device emulate
  optimize           tile-opt P.mlir --tile-optimize -o P.opt.mlir
  optimize/cpu       tile-run P.opt.mlir --entry C --reference P.mlir ... per candidate C
  optimize/emulate   the same with --device emulate

A stage fails on a crash (signal, "Stack dump", "LLVM ERROR"), a timeout, an
error diagnostic (with any exit status), a FAIL / MISMATCH / NOT-FINITE
verdict, or (optimize) a candidate dropped by the pass's own check. A program
the converter refuses with "cannot be converted to tile" is counted as
refused, with its reason. A crash of plain `tile-opt P.mlir` (the parser and
verifier, no pass) is classified as "upstream".

Python 3 standard library only; deterministic: a seed gives one program.
"""

import argparse
import concurrent.futures
import copy
import hashlib
import itertools
import json
import math
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

# ----------------------------------------------------------------------------
# Limits and tolerances
# ----------------------------------------------------------------------------

# tile-run's --tolerance bounds max|out - ref| / max|ref| per output, where
# the reference is the linalg function in fp64 and the program runs with
# --precision f32 (f32 arithmetic, every value rounded to its element type).
# Programs whose values are all f32 differ from the reference by rounding
# only (~1e-6 relative to each output's scale): 1e-3 leaves room for the
# mild error growth of the chains generated here. A program with an f16
# intermediate (a truncf result, an f16 op result, an f16 round trip in a
# body) rounds to 11-bit mantissas (2^-11 ~ 4.9e-4 per rounding), which the
# exact reference does not: 2e-2. f16 *arguments* alone do not count: both
# sides read the same rounded inputs.
TOL_F32 = 1e-3
TOL_F16 = 2e-2
# A mismatch at least this large (relative, as tile-run prints it) is a
# "mismatch-large": wrong results rather than error growth.
LARGE_MISMATCH = 0.1
# A failing command is run again this many times; when it passes in any of
# them the failure is "flaky", and the shrinker tries each candidate up to
# FLAKY_ATTEMPTS times.
FLAKY_RERUNS = 2
FLAKY_ATTEMPTS = 4

MAX_ELEMS = 1 << 16          # elements of any tensor
MAX_MACS = 1 << 20           # multiply-adds of one contraction
MAX_OPS = 8                  # ops of a program (1..MAX_OPS)

# Value ranges the generator keeps every value in (interval analysis), so
# that no program computes NaN or infinity, and domains of the math ops.
CAP = {"f32": 1e5, "f16": 1e4}
EXP_MAX = 8.0                # exp(x) only for x <= 8
LOG_MIN = 0.1                # log(x) only for x >= 0.1
RSQRT_MIN = 0.05             # rsqrt(x) only for x >= 0.05; sqrt for x >= 0
DIV_MIN = 0.05               # x / y only for |y| >= 0.05

DIM_POOL = [(1, 2), (2, 4), (3, 5), (4, 6), (5, 5), (7, 5), (8, 6), (12, 5),
            (16, 6), (24, 3), (32, 5), (33, 4), (48, 3), (64, 3), (96, 2)]

# Input distributions (tile.init) and the ranges the analysis assumes for
# them: normal(m, s) within m +- 6 s (p ~ 2e-9 per element to leave it).
DISTS = [
    ("normal(0.0, 1.0)", 6),
    ("normal(0.0, 0.5)", 6),
    ("normal(0.0, 0.1)", 3),
    ("normal(0.0, 0.02)", 1),
    ("normal(1.0, 0.1)", 4),
    ("uniform(-1.0, 1.0)", 6),
    ("uniform(0.5, 2.0)", 6),
    ("uniform(0.1, 1.0)", 3),
    ("uniform(1.0, 4.0)", 2),
    ("uniform(-2.0, -0.5)", 2),
]


class Invalid(Exception):
    """A program outside the generator's well-formed subset."""


def dist_range(init):
    m = re.match(r"\s*(normal|uniform)\(\s*([-+0-9.eE]+)\s*,\s*([-+0-9.eE]+)\s*\)\s*$", init)
    if not m:
        raise Invalid("bad distribution " + init)
    a, b = float(m.group(2)), float(m.group(3))
    if m.group(1) == "normal":
        return (a - 6 * b, a + 6 * b)
    return (min(a, b), max(a, b))


def prod(xs):
    r = 1
    for x in xs:
        r *= x
    return r


def fmt_float(x):
    return "%.6e" % x


# ----------------------------------------------------------------------------
# Interval arithmetic
# ----------------------------------------------------------------------------

def iv_mul(a, b):
    ps = [a[0] * b[0], a[0] * b[1], a[1] * b[0], a[1] * b[1]]
    return (min(ps), max(ps))


def iv_union(a, b):
    return (min(a[0], b[0]), max(a[1], b[1]))


def iv_away(iv, m):
    return iv[0] >= m or iv[1] <= -m


def iv_abs(iv):
    lo, hi = iv
    if lo >= 0:
        return (lo, hi)
    if hi <= 0:
        return (-hi, -lo)
    return (0.0, max(-lo, hi))


def iv_sum(iv, n):
    return (iv[0] * n, iv[1] * n)


UNARY = ["exp", "log", "sqrt", "rsqrt", "tanh", "erf", "abs", "neg", "recip",
         "square", "relu", "round16"]
BINARY = ["add", "sub", "mul", "div", "maximumf", "minimumf", "maxnumf",
          "minnumf", "sel"]
CMP_PREDS = ["olt", "ogt", "ole", "oge", "ult", "ugt"]


def unary_iv(fn, iv, arg=None):
    """The range of fn over iv, or None outside fn's domain here."""
    lo, hi = iv
    if fn == "exp":
        return (math.exp(lo), math.exp(hi)) if hi <= EXP_MAX else None
    if fn == "log":
        return (math.log(lo), math.log(hi)) if lo >= LOG_MIN else None
    if fn == "sqrt":
        return (math.sqrt(lo), math.sqrt(hi)) if lo >= 0 else None
    if fn == "rsqrt":
        return (1 / math.sqrt(hi), 1 / math.sqrt(lo)) if lo >= RSQRT_MIN else None
    if fn == "tanh":
        return (math.tanh(lo), math.tanh(hi))
    if fn == "erf":
        return (math.erf(lo), math.erf(hi))
    if fn == "abs":
        return iv_abs(iv)
    if fn == "neg":
        return (-hi, -lo)
    if fn == "recip":
        return (1 / hi, 1 / lo) if iv_away(iv, DIV_MIN) else None
    if fn == "square":
        a = iv_abs(iv)
        return (a[0] * a[0], a[1] * a[1])
    if fn == "relu":  # select(x > 0, x, s * x), 0 < s < 1
        s = arg
        return (lo if lo >= 0 else lo * s, hi if hi >= 0 else hi * s)
    if fn == "round16":
        return iv if max(abs(lo), abs(hi)) <= CAP["f16"] else None
    raise Invalid("unknown unary " + fn)


def binary_iv(fn, a, b):
    if fn == "add":
        return (a[0] + b[0], a[1] + b[1])
    if fn == "sub":
        return (a[0] - b[1], a[1] - b[0])
    if fn == "mul":
        return iv_mul(a, b)
    if fn == "div":
        if not iv_away(b, DIV_MIN):
            return None
        return iv_mul(a, (1 / b[1], 1 / b[0]))
    if fn in ("maximumf", "maxnumf"):
        return (max(a[0], b[0]), max(a[1], b[1]))
    if fn in ("minimumf", "minnumf"):
        return (min(a[0], b[0]), min(a[1], b[1]))
    raise Invalid("unknown binary " + fn)


def expr_iv(e, env, out_iv=None):
    """Range of a body expression; env: the input ranges. Raises Invalid."""
    t = e[0]
    if t == "in":
        if e[1] >= len(env):
            raise Invalid("expression reads a missing input")
        r = env[e[1]]
    elif t == "out":
        if out_iv is None:
            raise Invalid("expression reads out without an init")
        r = out_iv
    elif t == "const":
        r = (e[1], e[1])
    elif t == "u":
        r = unary_iv(e[1], expr_iv(e[2], env, out_iv))
        if r is None:
            raise Invalid("%s out of its domain" % e[1])
    elif t == "relu":
        r = unary_iv("relu", expr_iv(e[2], env, out_iv), e[1])
    elif t == "b":
        r = binary_iv(e[1], expr_iv(e[2], env, out_iv), expr_iv(e[3], env, out_iv))
        if r is None:
            raise Invalid("%s out of its domain" % e[1])
    elif t == "sel":
        a, b = expr_iv(e[2], env, out_iv), expr_iv(e[3], env, out_iv)
        # select(cmp(a, b), a, b) is the max or the min of a and b.
        r = iv_union((min(a[0], b[0]), min(a[1], b[1])), (max(a[0], b[0]), max(a[1], b[1])))
    else:
        raise Invalid("unknown expression " + repr(t))
    if max(abs(r[0]), abs(r[1])) > CAP["f32"]:
        raise Invalid("value range too large")
    return r


def expr_inputs(e, acc=None):
    acc = set() if acc is None else acc
    if e[0] == "in":
        acc.add(e[1])
    for c in expr_children(e):
        expr_inputs(c, acc)
    return acc


def expr_children(e):
    if e[0] in ("u", "relu"):
        return [e[2]]
    if e[0] in ("b", "sel"):
        return [e[2], e[3]]
    return []


def expr_uses(e, pred):
    return pred(e) or any(expr_uses(c, pred) for c in expr_children(e))


def expr_str(e):
    t = e[0]
    if t == "in":
        return "in%d" % e[1]
    if t == "out":
        return "out"
    if t == "const":
        return "%g" % e[1]
    if t == "u":
        return "%s(%s)" % (e[1], expr_str(e[2]))
    if t == "relu":
        return "leakyrelu(%s, %g)" % (expr_str(e[2]), e[1])
    if t == "b":
        return "%s(%s, %s)" % (e[1], expr_str(e[2]), expr_str(e[3]))
    if t == "sel":
        return "select(%s %s %s)" % (expr_str(e[2]), e[1], expr_str(e[3]))
    return "?"


def expr_remap(e, mapping):
    if e[0] == "in":
        return ("in", mapping[e[1]])
    if e[0] in ("u", "relu"):
        return (e[0], e[1], expr_remap(e[2], mapping))
    if e[0] in ("b", "sel"):
        return (e[0], e[1], expr_remap(e[2], mapping), expr_remap(e[3], mapping))
    return e


def expr_subtrees(e, path=()):
    """(path, subexpression) pairs, the root first."""
    yield path, e
    for i, c in enumerate(expr_children(e)):
        yield from expr_subtrees(c, path + (i,))


def expr_replace(e, path, new):
    if not path:
        return new
    i = path[0]
    k = 2 + i
    lst = list(e)
    lst[k] = expr_replace(e[k], path[1:], new)
    return tuple(lst)


def expr_has_f16(e):
    return expr_uses(e, lambda x: x[0] == "u" and x[1] == "round16")


# ----------------------------------------------------------------------------
# Program description
# ----------------------------------------------------------------------------
#
# A program is a list of arguments and a list of ops, each op naming its
# inputs (argument or op names) and its result's shape and element type, with
# kind-specific attributes; results name the returned values. The analysis
# below checks shapes and ranges; the renderer prints MLIR; the shrinker edits
# these lists.

class Arg:
    def __init__(self, name, shape, dtype, init, cache=False):
        self.name, self.shape, self.dtype, self.init, self.cache = name, tuple(shape), dtype, init, cache

    def to_json(self):
        return {"name": self.name, "shape": list(self.shape), "dtype": self.dtype,
                "init": self.init, "cache": self.cache}


class Op:
    def __init__(self, name, kind, ins, shape, dtype, attrs):
        self.name, self.kind, self.ins = name, kind, list(ins)
        self.shape, self.dtype, self.attrs = tuple(shape), dtype, dict(attrs)

    def to_json(self):
        a = {}
        for k, v in self.attrs.items():
            a[k] = v
        return {"name": self.name, "kind": self.kind, "ins": self.ins,
                "shape": list(self.shape), "dtype": self.dtype, "attrs": a}


class Program:
    def __init__(self, seed):
        self.seed = seed
        self.args = []
        self.ops = []
        self.results = []

    def clone(self):
        return copy.deepcopy(self)

    def value(self, name):
        for a in self.args:
            if a.name == name:
                return a
        for o in self.ops:
            if o.name == name:
                return o
        return None

    def fresh_arg_name(self):
        used = {a.name for a in self.args}
        i = len(self.args)
        while "a%d" % i in used:
            i += 1
        return "a%d" % i

    def fresh_op_name(self):
        used = {o.name for o in self.ops}
        i = len(self.ops)
        while "v%d" % i in used:
            i += 1
        return "v%d" % i

    def to_json(self):
        return {"seed": self.seed, "args": [a.to_json() for a in self.args],
                "ops": [o.to_json() for o in self.ops], "results": self.results}

    def summary(self):
        return ",".join(op_label(o) for o in self.ops)


def op_label(o):
    k = o.kind
    if k == "named":
        return o.attrs["fn"]
    if k == "matmul":
        return o.attrs["variant"]
    if k == "reduce":
        return "reduce-" + o.attrs["comb"]
    if k == "greduce":
        return "greduce-" + o.attrs["comb"]
    return k


def mlir_op_names(o):
    """The MLIR ops an op renders to (for --inject-failure)."""
    k = o.kind
    if k == "ew":
        return {"linalg.generic"}
    if k == "greduce":
        return {"linalg.generic", "linalg.fill"}
    if k == "named":
        if o.attrs.get("style") == "elementwise":
            return {"linalg.elementwise"}
        return {"linalg." + NAMED_MLIR[o.attrs["fn"]]}
    if k == "reduce":
        return {"linalg.reduce", "linalg.fill"}
    if k == "matmul":
        v = o.attrs["variant"]
        base = {"generic": "linalg.generic", "batch": "linalg.batch_matmul",
                "batch_tb": "linalg.batch_matmul"}.get(v, "linalg.matmul")
        return {base, "linalg.fill"}
    return {{"softmax": "linalg.softmax", "transpose": "linalg.transpose",
             "broadcast": "linalg.broadcast", "expand": "tensor.expand_shape",
             "collapse": "tensor.collapse_shape", "extract": "tensor.extract_slice",
             "insert": "tensor.insert_slice", "constant": "arith.constant",
             "fill": "linalg.fill", "copy": "linalg.copy"}[k]}


NAMED_MLIR = {"exp": "exp", "log": "log", "sqrt": "sqrt", "rsqrt": "rsqrt",
              "tanh": "tanh", "erf": "erf", "abs": "abs", "negf": "negf",
              "reciprocal": "reciprocal", "square": "square", "add": "add",
              "sub": "sub", "mul": "mul", "div": "div", "max": "max", "min": "min"}
NAMED_ELEMENTWISE = dict(NAMED_MLIR, max="max_signed", min="min_signed")
NAMED_UNARY = ["exp", "log", "sqrt", "rsqrt", "tanh", "erf", "abs", "negf",
               "reciprocal", "square"]
NAMED_BINARY = ["add", "sub", "mul", "div", "max", "min"]
NAMED_AS_EXPR = {"negf": "neg", "reciprocal": "recip"}

REDUCE_COMBS = ["add", "maximumf", "maxnumf", "minimumf", "minnumf"]


def identity_of(comb):
    if comb == "add":
        return 0.0
    return -math.inf if comb.startswith("max") else math.inf


def matmul_roles(variant, attrs):
    """Index roles of A, B and the result: lists of 'b', 'm', 'n', 'k'."""
    if variant == "matmul":
        return ["m", "k"], ["k", "n"]
    if variant == "matmul_ta":
        return ["k", "m"], ["k", "n"]
    if variant == "matmul_tb":
        return ["m", "k"], ["n", "k"]
    if variant == "batch":
        return ["b", "m", "k"], ["b", "k", "n"]
    if variant == "batch_tb":
        return ["b", "m", "k"], ["b", "n", "k"]
    if variant == "generic":
        a = ["m", "k"] if not attrs.get("ta") else ["k", "m"]
        b = ["k", "n"] if not attrs.get("tb") else ["n", "k"]
        if attrs.get("batch"):
            a, b = ["b"] + a, ["b"] + b
        return a, b
    raise Invalid("unknown matmul variant " + variant)


def analyze(prog):
    """Shapes, element types and ranges of every value: name -> (shape,
    dtype, (lo, hi)). Raises Invalid for anything outside the subset."""
    info = {}
    names = set()
    for a in prog.args:
        if a.name in names:
            raise Invalid("duplicate name " + a.name)
        names.add(a.name)
        if a.dtype not in ("f32", "f16"):
            raise Invalid("bad dtype")
        if any(d < 1 for d in a.shape) or prod(a.shape) > MAX_ELEMS:
            raise Invalid("bad argument shape")
        info[a.name] = (a.shape, a.dtype, dist_range(a.init))
    cache_uses = {a.name: 0 for a in prog.args if a.cache}
    for op in prog.ops:
        if op.name in names:
            raise Invalid("duplicate name " + op.name)
        for i in op.ins:
            if i not in info:
                raise Invalid("%s reads %s before it is defined" % (op.name, i))
            if i in cache_uses:
                cache_uses[i] += 1
                if op.kind != "insert" or op.ins[1] != i or op.ins[0] == i:
                    raise Invalid("a cache argument read outside its insert")
        if any(d < 1 for d in op.shape) or prod(op.shape) > MAX_ELEMS:
            raise Invalid("bad result shape")
        iv = op_range(op, info)
        clamp = op.attrs.get("clamp")
        if clamp:
            lo, hi = max(iv[0], clamp[0]), min(iv[1], clamp[1])
            if lo <= hi:
                iv = (lo, hi)
        if not (math.isfinite(iv[0]) and math.isfinite(iv[1])):
            raise Invalid("infinite range")
        if max(abs(iv[0]), abs(iv[1])) > CAP[op.dtype]:
            raise Invalid("range of %s too large" % op.name)
        names.add(op.name)
        info[op.name] = (op.shape, op.dtype, iv)
    if any(n > 1 for n in cache_uses.values()):
        raise Invalid("a cache argument updated twice")
    if not prog.results:
        raise Invalid("no results")
    if len(set(prog.results)) != len(prog.results):
        raise Invalid("a value returned twice")
    argnames = {a.name for a in prog.args}
    for r in prog.results:
        if r not in info or r in argnames:
            raise Invalid("bad result " + r)
    return info


def check_map(m, nloops):
    if len(set(m)) != len(m) or any(not (0 <= l < nloops) for l in m):
        raise Invalid("bad indexing map")


def op_range(op, info):
    """Checks op against its inputs and returns its range."""
    k, a = op.kind, op.attrs
    ins = [info[i] for i in op.ins]

    def want(cond, why):
        if not cond:
            raise Invalid("%s (%s): %s" % (op.name, k, why))

    def generic_inputs():
        # A generic's loops, whether it accumulates into its init (the last
        # operand), and its inputs, each checked against its indexing map.
        loops = tuple(a["loops"])
        acc = a.get("acc", False)
        inputs = ins[:-1] if acc else ins
        want(len(a["maps"]) == len(inputs) and inputs, "maps")
        for (shape, _, _), m in zip(inputs, a["maps"]):
            check_map(m, len(loops))
            want(tuple(loops[l] for l in m) == tuple(shape), "input shape")
        return loops, acc, inputs

    if k == "ew":
        loops, acc, inputs = generic_inputs()
        om = a["out_map"]
        check_map(om, len(loops))
        want(len(om) == len(loops), "output map")
        want(tuple(loops[l] for l in om) == op.shape, "output shape")
        out_iv = None
        if acc:
            want(ins[-1][0] == op.shape and ins[-1][1] == op.dtype, "init")
            out_iv = ins[-1][2]
        used = expr_inputs(a["expr"])
        want(used == set(range(len(inputs))), "every input used")
        return expr_iv(a["expr"], [x[2] for x in inputs], out_iv)
    if k == "greduce":
        loops, acc, inputs = generic_inputs()
        red = a["red"]
        want(red and all(0 <= r < len(loops) for r in red), "reduction loops")
        om = a["out_map"]
        check_map(om, len(loops))
        want(sorted(om) == [l for l in range(len(loops)) if l not in red], "output map")
        want(tuple(loops[l] for l in om) == op.shape, "output shape")
        want(op.dtype == "f32", "f32 accumulator")
        want(expr_inputs(a["expr"]) == set(range(len(inputs))), "every input used")
        f = expr_iv(a["expr"], [x[2] for x in inputs])
        n = prod(loops[r] for r in red)
        init = ins[-1][2] if acc else (0.0, 0.0)
        if acc:
            want(ins[-1][0] == op.shape and ins[-1][1] == "f32", "init")
        if a["comb"] == "add":
            s = iv_sum(f, n)
            return (s[0] + init[0], s[1] + init[1])
        if acc:
            return binary_iv(a["comb"], f, init)
        return f
    if k == "named":
        fn = a["fn"]
        if fn in NAMED_UNARY:
            want(len(ins) == 1, "one input")
        else:
            want(len(ins) == 2, "two inputs")
        for s in ins:
            want(s[0] == op.shape and s[1] == op.dtype, "same types")
        if fn in NAMED_UNARY:
            r = unary_iv(NAMED_AS_EXPR.get(fn, fn), ins[0][2])
        else:
            bfn = {"max": "maximumf", "min": "minimumf"}.get(fn, fn)
            r = binary_iv(bfn, ins[0][2], ins[1][2])
        want(r is not None, fn + " out of its domain")
        if op.dtype == "f16":
            want(max(abs(r[0]), abs(r[1])) <= CAP["f16"], "f16 range")
        return r
    if k == "reduce":
        want(len(ins) == 1, "one input")
        shape, dt, iv = ins[0]
        dims = a["dims"]
        want(dims and all(0 <= d < len(shape) for d in dims) and len(set(dims)) == len(dims), "dims")
        want(op.shape == tuple(s for i, s in enumerate(shape) if i not in dims), "output shape")
        want(op.dtype == dt, "dtype")
        if a["comb"] == "add":
            want(dt == "f32", "sums in f32")
            return iv_sum(iv, prod(shape[d] for d in dims))
        return iv
    if k == "matmul":
        want(len(ins) == 2, "two inputs")
        ra, rb = matmul_roles(a["variant"], a)
        (sa, _, ia), (sb, _, ib) = ins
        want(len(sa) == len(ra) and len(sb) == len(rb), "ranks")
        ext = {}
        for roles, shape in ((ra, sa), (rb, sb)):
            for r, d in zip(roles, shape):
                want(ext.setdefault(r, d) == d, "extents of " + r)
        out = ([ext["b"]] if "b" in ext else []) + [ext["m"], ext["n"]]
        want(op.shape == tuple(out), "output shape")
        want(op.dtype == "f32", "f32 result")
        want(prod(ext.values()) <= MAX_MACS, "too many multiply-adds")
        return iv_sum(iv_mul(ia, ib), ext["k"])
    if k == "softmax":
        shape, dt, iv = ins[0]
        want(len(ins) == 1 and shape == op.shape and dt == op.dtype == "f32", "types")
        want(0 <= a["dim"] < len(shape), "dim")
        n = shape[a["dim"]]
        return (math.exp(max(iv[0] - iv[1], -80.0)) / n, 1.0)
    if k == "transpose":
        shape, dt, iv = ins[0]
        p = a["perm"]
        want(sorted(p) == list(range(len(shape))), "permutation")
        want(op.shape == tuple(shape[i] for i in p) and op.dtype == dt, "types")
        return iv
    if k == "broadcast":
        shape, dt, iv = ins[0]
        dims = a["dims"]
        want(len(op.shape) == len(shape) + len(dims), "rank")
        want(all(0 <= d < len(op.shape) for d in dims) and len(set(dims)) == len(dims), "dims")
        kept = tuple(s for i, s in enumerate(op.shape) if i not in dims)
        want(kept == shape and op.dtype == dt, "types")
        return iv
    if k == "expand":
        shape, dt, iv = ins[0]
        d = a["dim"]
        want(0 <= d < len(shape) and len(op.shape) == len(shape) + 1, "rank")
        want(op.shape[:d] == shape[:d] and op.shape[d + 2:] == shape[d + 1:], "shape")
        want(op.shape[d] * op.shape[d + 1] == shape[d] and op.dtype == dt, "factors")
        return iv
    if k == "collapse":
        shape, dt, iv = ins[0]
        s, c = a["start"], a["count"]
        want(c >= 2 and 0 <= s and s + c <= len(shape), "group")
        want(op.shape == shape[:s] + (prod(shape[s:s + c]),) + shape[s + c:] and op.dtype == dt, "shape")
        return iv
    if k == "extract":
        shape, dt, iv = ins[0]
        off = a["offsets"]
        want(len(off) == len(shape) == len(op.shape) and op.dtype == dt, "rank")
        want(all(o >= 0 and o + z <= s for o, z, s in zip(off, op.shape, shape)), "bounds")
        return iv
    if k == "insert":
        (ss, sdt, siv), (ds, ddt, div) = ins
        off = a["offsets"]
        want(len(off) == len(ss) == len(ds) and sdt == ddt == op.dtype and op.shape == ds, "types")
        want(all(o >= 0 and o + z <= s for o, z, s in zip(off, ss, ds)), "bounds")
        return iv_union(siv, div)
    if k == "constant":
        want(not ins, "no inputs")
        return (a["lo"], a["hi"])
    if k == "fill":
        want(not ins, "no inputs")
        return (a["value"], a["value"])
    if k == "copy":
        shape, dt, iv = ins[0]
        want(len(ins) == 1 and shape == op.shape and dt == op.dtype, "types")
        return iv
    raise Invalid("unknown op kind " + k)


def program_tolerance(prog):
    """TOL_F16 when any value is stored or rounded as f16, else TOL_F32."""
    for op in prog.ops:
        if op.dtype == "f16":
            return TOL_F16
        e = op.attrs.get("expr")
        if e is not None and expr_has_f16(e):
            return TOL_F16
    return TOL_F32


# ----------------------------------------------------------------------------
# Rendering to MLIR
# ----------------------------------------------------------------------------

def ttype(shape, dtype):
    if not shape:
        return "tensor<%s>" % dtype
    return "tensor<%sx%s>" % ("x".join(str(d) for d in shape), dtype)


def amap(nloops, results):
    dims = ", ".join("d%d" % i for i in range(nloops))
    return "affine_map<(%s) -> (%s)>" % (dims, ", ".join("d%d" % r for r in results))


def const_lit(x, dtype):
    if math.isinf(x):
        if dtype == "f16":
            return "0xFC00" if x < 0 else "0x7C00"
        return "0xFF800000" if x < 0 else "0x7F800000"
    return fmt_float(x)


class Body:
    """Lines of a linalg body computing f32 scalars, memoized."""

    def __init__(self, prefix, args, outer_consts=None):
        self.prefix = prefix
        self.args = args          # [(ssa name, dtype)] of the inputs
        self.lines = []
        self.memo = {}
        self.n = 0
        self.outer_consts = outer_consts  # dict value -> outer ssa name, or None
        self.out = None           # (ssa, dtype) of the output block argument

    def tmp(self):
        self.n += 1
        return "%%%s%d" % (self.prefix, self.n)

    def const(self, c):
        if self.outer_consts is not None and c in self.outer_consts:
            return self.outer_consts[c]
        key = ("const", c)
        if key not in self.memo:
            t = self.tmp()
            self.lines.append("%s = arith.constant %s : f32" % (t, fmt_float(c)))
            self.memo[key] = t
        return self.memo[key]

    def widen(self, name, dtype):
        if dtype == "f32":
            return name
        key = ("ext", name)
        if key not in self.memo:
            t = self.tmp()
            self.lines.append("%s = arith.extf %s : %s to f32" % (t, name, dtype))
            self.memo[key] = t
        return self.memo[key]

    def emit(self, e):
        if e in self.memo:
            return self.memo[e]
        t = e[0]
        L = self.lines
        if t == "in":
            r = self.widen(*self.args[e[1]])
        elif t == "out":
            r = self.widen(*self.out)
        elif t == "const":
            r = self.const(e[1])
        elif t == "u":
            x = self.emit(e[2])
            fn = e[1]
            r = self.tmp()
            if fn == "neg":
                L.append("%s = arith.negf %s : f32" % (r, x))
            elif fn == "recip":
                one = self.const(1.0)
                L.append("%s = arith.divf %s, %s : f32" % (r, one, x))
            elif fn == "square":
                L.append("%s = arith.mulf %s, %s : f32" % (r, x, x))
            elif fn == "abs":
                L.append("%s = math.absf %s : f32" % (r, x))
            elif fn == "round16":
                h = r
                L.append("%s = arith.truncf %s : f32 to f16" % (h, x))
                r = self.tmp()
                L.append("%s = arith.extf %s : f16 to f32" % (r, h))
            else:
                L.append("%s = math.%s %s : f32" % (r, fn, x))
        elif t == "relu":
            x = self.emit(e[2])
            zero = self.const(0.0)
            s = self.const(e[1])
            c, m, r = self.tmp(), self.tmp(), self.tmp()
            L.append("%s = arith.cmpf ogt, %s, %s : f32" % (c, x, zero))
            L.append("%s = arith.mulf %s, %s : f32" % (m, x, s))
            L.append("%s = arith.select %s, %s, %s : f32" % (r, c, x, m))
        elif t == "b":
            x, y = self.emit(e[2]), self.emit(e[3])
            r = self.tmp()
            L.append("%s = arith.%s %s, %s : f32" % (r, {"add": "addf", "sub": "subf", "mul": "mulf",
                                                          "div": "divf"}.get(e[1], e[1]), x, y))
        elif t == "sel":
            x, y = self.emit(e[2]), self.emit(e[3])
            c, r = self.tmp(), self.tmp()
            L.append("%s = arith.cmpf %s, %s, %s : f32" % (c, e[1], x, y))
            L.append("%s = arith.select %s, %s, %s : f32" % (r, c, x, y))
        else:
            raise Invalid("cannot render " + repr(e))
        self.memo[e] = r
        return r

    def narrow(self, name, dtype):
        if dtype == "f32":
            return name
        t = self.tmp()
        self.lines.append("%s = arith.truncf %s : f32 to %s" % (t, name, dtype))
        return t


def expr_consts(e, acc):
    if e[0] == "const":
        acc.append(e[1])
    if e[0] == "relu":
        acc.extend([0.0, e[1]])
    if e[0] == "u" and e[1] == "recip":
        acc.append(1.0)
    for c in expr_children(e):
        expr_consts(c, acc)
    return acc


def render_op(op, info):
    n = op.name
    a = op.attrs
    k = op.kind
    T = lambda ref: ttype(info[ref][0], info[ref][1])
    DT = lambda ref: info[ref][1]
    out_t = ttype(op.shape, op.dtype)
    L = []

    def empty(suffix="_e"):
        L.append("%%%s%s = tensor.empty() : %s" % (n, suffix, out_t))
        return "%%%s%s" % (n, suffix)

    def fill(value, dtype):
        L.append("%%%s_c = arith.constant %s : %s" % (n, const_lit(value, dtype), dtype))
        e = empty()
        L.append("%%%s_f = linalg.fill ins(%%%s_c : %s) outs(%s : %s) -> %s" % (n, n, dtype, e, out_t, out_t))
        return "%%%s_f" % n

    def ins_clause(refs):
        return "ins(%s : %s)" % (", ".join("%" + r for r in refs), ", ".join(T(r) for r in refs))

    if k in ("ew", "greduce"):
        loops = a["loops"]
        R = len(loops)
        acc = a.get("acc", False)
        inputs = op.ins[:-1] if acc else op.ins
        outer = None
        if a.get("outer_consts"):
            outer = {}
            for j, c in enumerate(sorted(set(expr_consts(a["expr"], [])))):
                nm = "%%%s_k%d" % (n, j)
                L.append("%s = arith.constant %s : f32" % (nm, fmt_float(c)))
                outer[c] = nm
        if acc:
            init = "%" + op.ins[-1]
        elif k == "ew":
            init = empty()
        else:
            init = fill(identity_of(a["comb"]), "f32")
        maps = [amap(R, m) for m in a["maps"]] + [amap(R, a["out_map"])]
        its = ", ".join('"%s"' % ("reduction" if k == "greduce" and l in a["red"] else "parallel")
                        for l in range(R))
        L.append("%%%s = linalg.generic {indexing_maps = [%s], iterator_types = [%s]} %s outs(%s : %s) {"
                 % (n, ", ".join(maps), its, ins_clause(inputs), init, out_t))
        bargs = [("%%in%d" % i, DT(r)) for i, r in enumerate(inputs)]
        L.append("^bb0(%s):" % ", ".join("%s: %s" % x for x in bargs + [("%out", op.dtype)]))
        body = Body("x", bargs, outer)
        body.out = ("%out", op.dtype)
        v = body.emit(a["expr"])
        if k == "greduce":
            o = body.widen("%out", "f32")
            r = body.tmp()
            comb = {"add": "addf"}.get(a["comb"], a["comb"])
            x, y = (o, v) if a.get("order", 0) == 0 else (v, o)
            body.lines.append("%s = arith.%s %s, %s : f32" % (r, comb, x, y))
            v = r
        v = body.narrow(v, op.dtype)
        L.extend("  " + l for l in body.lines)
        L.append("  linalg.yield %s : %s" % (v, op.dtype))
        L.append("} -> %s" % out_t)
    elif k == "named":
        e = empty()
        if a.get("style") == "elementwise":
            L.append("%%%s = linalg.elementwise kind=#linalg.elementwise_kind<%s> %s outs(%s : %s) -> %s"
                     % (n, NAMED_ELEMENTWISE[a["fn"]], ins_clause(op.ins), e, out_t, out_t))
        else:
            L.append("%%%s = linalg.%s %s outs(%s : %s) -> %s"
                     % (n, NAMED_MLIR[a["fn"]], ins_clause(op.ins), e, out_t, out_t))
    elif k == "reduce":
        dt = op.dtype
        f = fill(identity_of(a["comb"]), dt)
        L.append("%%%s = linalg.reduce %s outs(%s : %s) dimensions = [%s]"
                 % (n, ins_clause(op.ins), f, out_t, ", ".join(str(d) for d in a["dims"])))
        L.append("  (%%in: %s, %%init: %s) {" % (dt, dt))
        comb = {"add": "addf"}.get(a["comb"], a["comb"])
        x, y = ("%in", "%init") if a.get("order", 0) == 0 else ("%init", "%in")
        L.append("    %%r = arith.%s %s, %s : %s" % (comb, x, y, dt))
        L.append("    linalg.yield %%r : %s" % dt)
        L.append("  }")
    elif k == "matmul":
        v = a["variant"]
        f = fill(0.0, "f32")
        if v == "generic":
            ra, rb = matmul_roles(v, a)
            order = a["order"]  # loop position of each role
            R = len(order)
            pos = {r: order.index(r) for r in order}
            ma = [pos[r] for r in ra]
            mb = [pos[r] for r in rb]
            mo = [pos[r] for r in (["b"] if a.get("batch") else []) + ["m", "n"]]
            its = ", ".join('"%s"' % ("reduction" if r == "k" else "parallel") for r in order)
            L.append("%%%s = linalg.generic {indexing_maps = [%s, %s, %s], iterator_types = [%s]} %s outs(%s : %s) {"
                     % (n, amap(R, ma), amap(R, mb), amap(R, mo), its, ins_clause(op.ins), f, out_t))
            bargs = [("%%in%d" % i, DT(r)) for i, r in enumerate(op.ins)]
            L.append("^bb0(%s):" % ", ".join("%s: %s" % x for x in bargs + [("%out", "f32")]))
            body = Body("x", bargs)
            x, y = body.widen(*bargs[0]), body.widen(*bargs[1])
            p, s = body.tmp(), body.tmp()
            body.lines.append("%s = arith.mulf %s, %s : f32" % (p, x, y))
            if a.get("order_add", 0) == 0:
                body.lines.append("%s = arith.addf %%out, %s : f32" % (s, p))
            else:
                body.lines.append("%s = arith.addf %s, %%out : f32" % (s, p))
            L.extend("  " + l for l in body.lines)
            L.append("  linalg.yield %s : f32" % s)
            L.append("} -> %s" % out_t)
        else:
            name = "batch_matmul" if v.startswith("batch") else "matmul"
            maps = ""
            if v in ("matmul_ta", "matmul_tb", "batch_tb"):
                ra, rb = matmul_roles(v, a)
                roles = (["b"] if v.startswith("batch") else []) + ["m", "n", "k"]
                R = len(roles)
                ix = lambda rs: [roles.index(r) for r in rs]
                ro = (["b"] if v.startswith("batch") else []) + ["m", "n"]
                maps = " indexing_maps = [%s, %s, %s]" % (amap(R, ix(ra)), amap(R, ix(rb)), amap(R, ix(ro)))
            L.append("%%%s = linalg.%s%s %s outs(%s : %s) -> %s" % (n, name, maps, ins_clause(op.ins), f, out_t, out_t))
    elif k == "softmax":
        e = empty()
        L.append("%%%s = linalg.softmax dimension(%d) %s outs(%s : %s) -> %s"
                 % (n, a["dim"], ins_clause(op.ins), e, out_t, out_t))
    elif k == "transpose":
        e = empty()
        L.append("%%%s = linalg.transpose %s outs(%s : %s) permutation = [%s]"
                 % (n, ins_clause(op.ins), e, out_t, ", ".join(str(p) for p in a["perm"])))
    elif k == "broadcast":
        e = empty()
        L.append("%%%s = linalg.broadcast %s outs(%s : %s) dimensions = [%s]"
                 % (n, ins_clause(op.ins), e, out_t, ", ".join(str(d) for d in a["dims"])))
    elif k in ("expand", "collapse"):
        src = op.ins[0]
        r_src = len(info[src][0])
        if k == "expand":
            d = a["dim"]
            groups, j = [], 0
            for i in range(r_src):
                if i == d:
                    groups.append([j, j + 1])
                    j += 2
                else:
                    groups.append([j])
                    j += 1
            L.append("%%%s = tensor.expand_shape %%%s [%s] output_shape [%s] : %s into %s"
                     % (n, src, ", ".join("[%s]" % ", ".join(map(str, g)) for g in groups),
                        ", ".join(map(str, op.shape)), T(src), out_t))
        else:
            s, c = a["start"], a["count"]
            groups, i = [], 0
            while i < r_src:
                if i == s:
                    groups.append(list(range(s, s + c)))
                    i += c
                else:
                    groups.append([i])
                    i += 1
            L.append("%%%s = tensor.collapse_shape %%%s [%s] : %s into %s"
                     % (n, src, ", ".join("[%s]" % ", ".join(map(str, g)) for g in groups), T(src), out_t))
    elif k == "extract":
        src = op.ins[0]
        L.append("%%%s = tensor.extract_slice %%%s[%s] [%s] [%s] : %s to %s"
                 % (n, src, ", ".join(map(str, a["offsets"])), ", ".join(map(str, op.shape)),
                    ", ".join("1" for _ in op.shape), T(src), out_t))
    elif k == "insert":
        src, dst = op.ins
        ss = info[src][0]
        L.append("%%%s = tensor.insert_slice %%%s into %%%s[%s] [%s] [%s] : %s into %s"
                 % (n, src, dst, ", ".join(map(str, a["offsets"])), ", ".join(map(str, ss)),
                    ", ".join("1" for _ in ss), T(src), out_t))
    elif k == "constant":
        if a.get("splat"):
            L.append("%%%s = arith.constant dense<%s> : %s" % (n, fmt_float(a["lo"]), out_t))
        else:
            rng = random.Random(a["cseed"])
            lo, hi = a["lo"], a["hi"]

            def nest(shape):
                if not shape:
                    v = lo + (hi - lo) * rng.random()
                    if op.dtype == "f16":
                        v = round(v, 3)
                    return fmt_float(v)
                return "[" + ", ".join(nest(shape[1:]) for _ in range(shape[0])) + "]"
            L.append("%%%s = arith.constant dense<%s> : %s" % (n, nest(op.shape), out_t))
    elif k == "fill":
        L.append("%%%s_c = arith.constant %s : %s" % (n, const_lit(a["value"], op.dtype), op.dtype))
        e = empty()
        L.append("%%%s = linalg.fill ins(%%%s_c : %s) outs(%s : %s) -> %s" % (n, n, op.dtype, e, out_t, out_t))
    elif k == "copy":
        e = empty()
        L.append("%%%s = linalg.copy %s outs(%s : %s) -> %s" % (n, ins_clause(op.ins), e, out_t, out_t))
    else:
        raise Invalid("cannot render " + k)
    return L


def result_names(prog):
    names = []
    argnames = {a.name for a in prog.args}
    for i, r in enumerate(prog.results):
        op = prog.value(r)
        nm = "r%d" % i
        if isinstance(op, Op) and op.kind == "insert" and op.ins[1] in argnames:
            nm = op.ins[1]
        names.append(nm)
    return names


def render(prog, header=()):
    info = analyze(prog)
    L = ["// " + h if h else "//" for h in header]
    L.append("func.func @fuzz(")
    args = []
    for a in prog.args:
        args.append('    %%%s: %s {tile.name = "%s", tile.init = "%s"}' % (a.name, ttype(a.shape, a.dtype), a.name, a.init))
    L.append(",\n".join(args))
    res = []
    for r, nm in zip(prog.results, result_names(prog)):
        res.append('    %s {tile.name = "%s"}' % (T_of(info, r), nm))
    L.append(") -> (")
    L.append(",\n".join(res))
    L.append(") {")
    for op in prog.ops:
        L.extend("  " + l for l in render_op(op, info))
    L.append("  return %s : %s" % (", ".join("%" + r for r in prog.results),
                                   ", ".join(T_of(info, r) for r in prog.results)))
    L.append("}")
    return "\n".join(L) + "\n"


def T_of(info, r):
    return ttype(info[r][0], info[r][1])


# ----------------------------------------------------------------------------
# The generator
# ----------------------------------------------------------------------------

class Gen:
    """Builds one random program from a seed; every op is checked by the
    analysis as it is added, so the program stays in the subset."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.prog = Program(seed)
        self.info = {}
        self.uses = {}

    # -- values --------------------------------------------------------------

    def rand_dim(self, cap=96):
        pool = [(d, w) for d, w in DIM_POOL if d <= cap]
        return self.rng.choices([d for d, _ in pool], [w for _, w in pool])[0]

    def rand_shape(self, rank=None, budget=16384):
        rng = self.rng
        if rank is None:
            rank = rng.choices([1, 2, 3, 4], [2, 5, 3, 1])[0]
        shape = []
        for _ in range(rank):
            left = max(1, budget // max(1, prod(shape)))
            shape.append(self.rand_dim(min(96, left)))
        return tuple(shape)

    def fresh(self, shape, dtype=None, need=None, cache=False):
        rng = self.rng
        if dtype is None:
            dtype = "f16" if rng.random() < 0.3 else "f32"
        choices = [(d, w) for d, w in DISTS if need is None or need(dist_range(d))]
        if not choices:
            return None
        init = rng.choices([d for d, _ in choices], [w for _, w in choices])[0]
        name = self.prog.fresh_arg_name()
        self.prog.args.append(Arg(name, shape, dtype, init, cache))
        self.info[name] = (tuple(shape), dtype, dist_range(init))
        return name

    def values(self, pred=lambda n, s, d, iv: True):
        cache = {a.name for a in self.prog.args if a.cache}
        return [n for n, (s, d, iv) in self.info.items() if n not in cache and pred(n, s, d, iv)]

    def pick(self, pred=lambda n, s, d, iv: True, p=0.75):
        """An existing value satisfying pred (probability p when any does),
        favouring unused op results and recent values."""
        cands = self.values(pred)
        if not cands or self.rng.random() >= p:
            return None
        order = list(self.info)
        weights = []
        for c in cands:
            w = 1.0 + order.index(c) / max(1, len(order))
            if c.startswith("v"):
                w *= 2.0
                if not self.uses.get(c):
                    w *= 3.0
            weights.append(w)
        return self.rng.choices(cands, weights)[0]

    def add(self, kind, ins, shape, dtype, **attrs):
        op = Op(self.prog.fresh_op_name(), kind, ins, shape, dtype, attrs)
        try:
            iv = op_range(op, self.info)
            clamp = attrs.get("clamp")
            if clamp:
                iv = (max(iv[0], clamp[0]), min(iv[1], clamp[1]))
            if prod(op.shape) > MAX_ELEMS or any(d < 1 for d in op.shape):
                raise Invalid("size")
            if max(abs(iv[0]), abs(iv[1])) > CAP[dtype]:
                raise Invalid("range")
        except Invalid:
            return None
        self.prog.ops.append(op)
        self.info[op.name] = (op.shape, dtype, iv)
        for i in ins:
            self.uses[i] = self.uses.get(i, 0) + 1
        return op.name

    def shape_of(self, n):
        return self.info[n][0]

    def dtype_of(self, n):
        return self.info[n][1]

    def iv_of(self, n):
        return self.info[n][2]

    # -- body expressions ----------------------------------------------------

    def gen_expr(self, ivs, extra=None, out_iv=None):
        """A random f32 expression using every input once or more; keeps
        every subexpression within its op's domain."""
        rng = self.rng
        terms = [(("in", i), iv) for i, iv in enumerate(ivs)]
        if out_iv is not None:
            terms.append((("out",), out_iv))
        rng.shuffle(terms)
        if extra is None:
            extra = rng.choice([0, 0, 1, 1, 1, 2, 2, 3])

        def wrap(t, prob):
            e, iv = t
            if rng.random() >= prob:
                return t
            fns = UNARY[:]
            rng.shuffle(fns)
            for fn in fns:
                s = round(rng.uniform(0.05, 0.5), 3) if fn == "relu" else None
                r = unary_iv(fn, iv, s)
                if r is None or max(abs(r[0]), abs(r[1])) > CAP["f32"]:
                    continue
                if fn == "relu":
                    return (("relu", s, e), r)
                return (("u", fn, e), r)
            return t

        def combine(x, y):
            fns = BINARY[:]
            rng.shuffle(fns)
            for fn in fns:
                for a, b in ((x, y), (y, x)):
                    if fn == "sel":
                        pred = rng.choice(CMP_PREDS)
                        e = ("sel", pred, a[0], b[0])
                        try:
                            return (e, expr_iv(e, ivs, out_iv))
                        except Invalid:
                            continue
                    r = binary_iv(fn, a[1], b[1])
                    if r is None or max(abs(r[0]), abs(r[1])) > CAP["f32"]:
                        continue
                    return (("b", fn, a[0], b[0]), r)
            return (("b", "add", x[0], y[0]), binary_iv("add", x[1], y[1]))

        terms = [wrap(t, 0.35) for t in terms]
        while len(terms) > 1:
            x = terms.pop(rng.randrange(len(terms)))
            y = terms.pop(rng.randrange(len(terms)))
            terms.append(wrap(combine(x, y), 0.25))
        t = terms[0]
        for _ in range(extra):
            if rng.random() < 0.4:
                c = rng.choice([0.5, 2.0, -1.5, 0.125, 3.0, 1e-3, -0.25])
                t = combine(t, (("const", c), (c, c)))
            else:
                t = wrap(t, 1.0)
        return t

    # -- op builders ---------------------------------------------------------

    def any_value(self, pred=lambda n, s, d, iv: True, p=0.75, shape=None, dtype=None, need=None):
        v = self.pick(pred, p)
        if v is None:
            v = self.fresh(shape or self.rand_shape(), dtype, need)
        return v

    def maps_for(self, shape, loops):
        """Indexing maps (tuples of loops) reading a tensor of `shape` in
        the loop space `loops`."""
        out = []
        R = len(loops)
        for m in itertools.permutations(range(R), len(shape)):
            if all(loops[l] == s for l, s in zip(m, shape)):
                out.append(m)
        return out

    def source(self, shape, dtype=None):
        """A fresh input: usually an argument, at times a constant or fill."""
        rng = self.rng
        r = rng.random()
        if r < 0.04 and prod(shape) <= 64:
            lo = round(rng.uniform(-2, 1), 2)
            hi = round(lo + rng.uniform(0.5, 2), 2)
            return self.add("constant", [], shape, "f32", cseed=rng.randrange(1 << 30), lo=lo, hi=hi)
        if r < 0.05:
            c = rng.choice([0.5, 1.5, -2.0, 3.0])
            return self.add("constant", [], shape, "f32", splat=True, cseed=0, lo=c, hi=c)
        if r < 0.07:
            return self.add("fill", [], shape, "f32", value=rng.choice([0.5, 1.5, -2.0, 3.0]))
        return self.fresh(shape, dtype)

    def b_ew(self, cast=False):
        rng = self.rng
        x = self.any_value()
        sx = self.shape_of(x)
        R = len(sx)
        maps = [tuple(range(R))]
        loops = list(sx)
        if R >= 2 and rng.random() < 0.2:
            perm = list(range(R))
            while perm == list(range(R)):
                rng.shuffle(perm)
            loops = [sx[p] for p in perm]
            maps = [tuple(perm.index(j) for j in range(R))]
        if R == 0 or (not cast and R < 4 and rng.random() < 0.2):
            d = self.rand_dim(max(1, MAX_ELEMS // max(1, prod(loops)) // 4))
            q = rng.randrange(R + 1)
            loops.insert(q, d)
            maps = [tuple(l + 1 if l >= q else l for l in maps[0])]
        ins = [x]
        k = 1 if cast else rng.choice([1, 1, 2, 2, 2, 3])
        for _ in range(k - 1):
            # Another input: an existing value that fits the loop space, or a
            # fresh one of a random map (same shape, broadcast, transposed).
            cands = self.values(lambda n, s, d, iv: n not in ins and len(s) <= len(loops) and self.maps_for(s, loops))
            if cands and rng.random() < 0.6:
                y = rng.choice(cands)
                m = rng.choice(self.maps_for(self.shape_of(y), loops))
            else:
                r = rng.random()
                if r < 0.6:
                    m = tuple(range(len(loops)))
                elif r < 0.85:
                    sub = [l for l in range(len(loops)) if rng.random() < 0.5]
                    m = tuple(sub) if sub else (len(loops) - 1,)
                else:
                    sub = list(range(len(loops)))
                    rng.shuffle(sub)
                    m = tuple(sub[:rng.randint(1, len(sub))])
                y = self.source(tuple(loops[l] for l in m))
                if y is None:
                    continue
            ins.append(y)
            maps.append(m)
        out_map = tuple(range(len(loops)))
        if len(loops) >= 2 and rng.random() < 0.1:
            p = list(out_map)
            rng.shuffle(p)
            out_map = tuple(p)
        shape = tuple(loops[l] for l in out_map)
        if cast:
            expr = ("in", 0)
            dtype = "f16" if self.dtype_of(x) == "f32" else "f32"
        else:
            acc_init = None
            if rng.random() < 0.1:
                acc_init = self.pick(lambda n, s, d, iv: s == shape and n.startswith("v"), p=1.0)
            expr, _ = self.gen_expr([self.iv_of(i) for i in ins],
                                    out_iv=self.iv_of(acc_init) if acc_init else None)
            dtype = "f16" if rng.random() < 0.25 else "f32"
            if acc_init:
                dtype = self.dtype_of(acc_init)
                return self.add("ew", ins + [acc_init], shape, dtype, loops=tuple(loops), maps=maps,
                                out_map=out_map, expr=expr, acc=True,
                                outer_consts=rng.random() < 0.3)
        return self.add("ew", ins, shape, dtype, loops=tuple(loops), maps=maps, out_map=out_map,
                        expr=expr, outer_consts=rng.random() < 0.3)

    def b_named(self):
        rng = self.rng
        if rng.random() < 0.5:
            fn = rng.choice(NAMED_UNARY)
            efn = NAMED_AS_EXPR.get(fn, fn)
            need = lambda iv: unary_iv(efn, iv) is not None
            x = self.any_value(lambda n, s, d, iv: need(iv), need=need)
            if x is None:
                return None
            ins = [x]
        else:
            fn = rng.choice(NAMED_BINARY)
            x = self.any_value()
            s, d = self.shape_of(x), self.dtype_of(x)
            need = (lambda iv: iv_away(iv, 0.25)) if fn == "div" else None
            y = self.pick(lambda n, s2, d2, iv: n != x and s2 == s and d2 == d and (need is None or need(iv)))
            if y is None:
                y = self.fresh(s, d, need)
            ins = [x, y]
        style = "elementwise" if rng.random() < 0.3 else "named"
        return self.add("named", ins, self.shape_of(x), self.dtype_of(x), fn=fn, style=style)

    def b_reduce(self):
        rng = self.rng
        comb = rng.choice(REDUCE_COMBS)
        pred = (lambda n, s, d, iv: len(s) >= 1 and d == "f32") if comb == "add" else (lambda n, s, d, iv: len(s) >= 1)
        x = self.any_value(pred, dtype="f32" if comb == "add" else None,
                           shape=self.rand_shape(rank=self.rng.choice([1, 2, 2, 3])))
        s = self.shape_of(x)
        R = len(s)
        if R == 1 or (R == 2 and rng.random() < 0.1):
            dims = list(range(R))
        else:
            dims = sorted(rng.sample(range(R), 1 if rng.random() < 0.75 else 2))
        shape = tuple(d for i, d in enumerate(s) if i not in dims)
        return self.add("reduce", [x], shape, self.dtype_of(x), dims=dims, comb=comb,
                        order=rng.randrange(2))

    def b_greduce(self):
        rng = self.rng
        x = self.any_value(lambda n, s, d, iv: len(s) >= 1)
        s = self.shape_of(x)
        R = len(s)
        loops = list(s)
        m0 = tuple(range(R))
        if R >= 2 and rng.random() < 0.25:
            perm = list(range(R))
            rng.shuffle(perm)
            loops = [s[p] for p in perm]
            m0 = tuple(perm.index(j) for j in range(R))
        if R == 1 or rng.random() < 0.08:
            red = list(range(R))
        else:
            red = sorted(rng.sample(range(R), 1 if rng.random() < 0.8 else min(2, R - 1)))
        ins, maps = [x], [m0]
        if rng.random() < 0.35:
            cands = self.values(lambda n, s2, d, iv: n != x and self.maps_for(s2, loops))
            if cands and rng.random() < 0.5:
                y = rng.choice(cands)
                m = rng.choice(self.maps_for(self.shape_of(y), loops))
            else:
                m = tuple(range(len(loops))) if rng.random() < 0.6 else tuple(sorted(rng.sample(range(len(loops)), rng.randint(1, len(loops)))))
                y = self.fresh(tuple(loops[l] for l in m))
            ins.append(y)
            maps.append(m)
        comb = rng.choice(REDUCE_COMBS)
        par = [l for l in range(len(loops)) if l not in red]
        out_map = tuple(par)
        if len(par) >= 2 and rng.random() < 0.2:
            p = list(par)
            rng.shuffle(p)
            out_map = tuple(p)
        shape = tuple(loops[l] for l in out_map)
        expr, _ = self.gen_expr([self.iv_of(i) for i in ins], extra=rng.choice([0, 0, 1]))
        attrs = dict(loops=tuple(loops), maps=maps, red=red, out_map=out_map, expr=expr, comb=comb,
                     order=rng.randrange(2), outer_consts=rng.random() < 0.3)
        if rng.random() < 0.1:
            init = self.pick(lambda n, s2, d, iv: s2 == shape and d == "f32" and n.startswith("v"), p=1.0)
            if init:
                return self.add("greduce", ins + [init], shape, "f32", acc=True, **attrs)
        return self.add("greduce", ins, shape, "f32", **attrs)

    def b_matmul(self, variant=None, a=None, b=None):
        rng = self.rng
        if variant is None:
            variant = rng.choice(["matmul", "matmul", "matmul_ta", "matmul_tb", "batch", "batch_tb",
                                  "generic", "generic"])
        attrs = {}
        if variant == "generic":
            attrs = dict(ta=rng.random() < 0.3, tb=rng.random() < 0.4, batch=rng.random() < 0.3,
                         order_add=rng.randrange(2))
        ra, rb = matmul_roles(variant, attrs)
        if a is None:
            a = self.pick(lambda n, s, d, iv: len(s) == len(ra) and prod(s) <= 8192)
        if a is None:
            a = self.fresh(tuple(self.rand_dim(48) for _ in ra), None)
        ext = dict(zip(ra, self.shape_of(a)))
        if b is None:
            b = self.pick(lambda n, s, d, iv: n != a and len(s) == len(rb) and
                          all(ext.get(r, x) == x for r, x in zip(rb, s)))
        if b is None:
            ext.setdefault("n", self.rand_dim(64))
            b = self.fresh(tuple(ext[r] for r in rb), None)
        else:
            ext.update(zip(rb, self.shape_of(b)))
        out = tuple(([ext["b"]] if "b" in ext else []) + [ext["m"], ext["n"]])
        if variant == "generic":
            order = (["b"] if attrs["batch"] else []) + ["m", "n", "k"]
            if rng.random() < 0.5:
                rng.shuffle(order)
            attrs["order"] = order
        return self.add("matmul", [a, b], out, "f32", variant=variant, **attrs)

    def b_softmax(self):
        x = self.any_value(lambda n, s, d, iv: d == "f32" and len(s) >= 1, dtype="f32")
        if self.dtype_of(x) != "f32" or not self.shape_of(x):
            return None
        return self.add("softmax", [x], self.shape_of(x), "f32", dim=self.rng.randrange(len(self.shape_of(x))))

    def b_transpose(self):
        rng = self.rng
        x = self.any_value(lambda n, s, d, iv: len(s) >= 2, shape=self.rand_shape(rank=rng.choice([2, 3])))
        s = self.shape_of(x)
        if len(s) < 2:
            return None
        perm = list(range(len(s)))
        while perm == list(range(len(s))):
            rng.shuffle(perm)
        return self.add("transpose", [x], tuple(s[p] for p in perm), self.dtype_of(x), perm=perm)

    def b_broadcast(self):
        rng = self.rng
        x = self.any_value(lambda n, s, d, iv: len(s) <= 3, shape=self.rand_shape(rank=rng.choice([1, 2])))
        s = list(self.shape_of(x))
        out = s[:]
        dims = []
        for _ in range(rng.choice([1, 1, 2])):
            if len(out) >= 4:
                break
            q = rng.randrange(len(out) + 1)
            out.insert(q, self.rand_dim(max(1, MAX_ELEMS // max(1, prod(out)) // 2)))
            dims = [d + 1 if d >= q else d for d in dims] + [q]
        return self.add("broadcast", [x], tuple(out), self.dtype_of(x), dims=sorted(dims))

    def b_expand(self):
        rng = self.rng

        def splittable(s):
            return [i for i, d in enumerate(s) if any(d % f == 0 for f in range(2, d))]
        x = self.any_value(lambda n, s, d, iv: len(s) <= 3 and splittable(s),
                           shape=(rng.choice([12, 16, 24, 32, 48, 64, 96]),) + self.rand_shape(rank=rng.choice([0, 1]), budget=256))
        s = self.shape_of(x)
        cands = splittable(s)
        if not cands or len(s) > 3:
            return None
        d = rng.choice(cands)
        fs = [f for f in range(2, s[d]) if s[d] % f == 0]
        if rng.random() < 0.1:
            fs = [1, s[d]]
        f = rng.choice(fs)
        out = s[:d] + (f, s[d] // f) + s[d + 1:]
        return self.add("expand", [x], out, self.dtype_of(x), dim=d)

    def b_collapse(self):
        rng = self.rng
        x = self.any_value(lambda n, s, d, iv: len(s) >= 2, shape=self.rand_shape(rank=rng.choice([2, 3])))
        s = self.shape_of(x)
        if len(s) < 2:
            return None
        c = 2 if len(s) == 2 or rng.random() < 0.7 else 3
        start = rng.randrange(len(s) - c + 1)
        out = s[:start] + (prod(s[start:start + c]),) + s[start + c:]
        return self.add("collapse", [x], out, self.dtype_of(x), start=start, count=c)

    def b_extract(self):
        rng = self.rng
        x = self.any_value(lambda n, s, d, iv: len(s) >= 1 and max(s) >= 2)
        s = self.shape_of(x)
        if not s or max(s) < 2:
            return None
        off, size = [], []
        sliced = [i for i, d in enumerate(s) if d >= 2]
        must = rng.choice(sliced)
        for i, d in enumerate(s):
            if d >= 2 and (i == must or rng.random() < 0.3):
                z = rng.randint(1, d - 1)
                o = rng.randint(0, d - z)
            else:
                z, o = d, 0
            off.append(o)
            size.append(z)
        return self.add("extract", [x], tuple(size), self.dtype_of(x), offsets=off)

    def b_insert_cache(self):
        """tensor.insert_slice of a computed value into a fresh cache
        argument, the updated cache returned (KV-cache style)."""
        rng = self.rng
        src = self.pick(lambda n, s, d, iv: n.startswith("v") and len(s) >= 1, p=0.9)
        if src is None:
            return None
        s = self.shape_of(src)
        cache = list(s)
        off = [0] * len(s)
        for i in rng.sample(range(len(s)), 1 if len(s) == 1 or rng.random() < 0.8 else 2):
            extra = rng.choice([1, 2, 3, 4, 8, 12, 16, 32])
            if prod(cache) // cache[i] * (cache[i] + extra) > MAX_ELEMS:
                continue
            cache[i] += extra
            off[i] = rng.choice([0, extra, rng.randint(0, extra)])
        dest = self.fresh(tuple(cache), self.dtype_of(src), cache=True)
        return self.add("insert", [src, dest], tuple(cache), self.dtype_of(src), offsets=off)

    def b_insert_value(self):
        """insert_slice into a computed tensor (not an argument)."""
        rng = self.rng
        pairs = []
        for src in self.values(lambda n, s, d, iv: len(s) >= 1):
            ss, sd = self.shape_of(src), self.dtype_of(src)
            for dst in self.values(lambda n, s, d, iv: n.startswith("v") and n != src and d == sd and len(s) == len(ss)
                                   and s != ss and all(a <= b for a, b in zip(ss, s))):
                pairs.append((src, dst))
        if not pairs:
            return None
        src, dst = rng.choice(pairs)
        off = [rng.randint(0, b - a) for a, b in zip(self.shape_of(src), self.shape_of(dst))]
        return self.add("insert", [src, dst], self.shape_of(dst), self.dtype_of(src), offsets=off)

    def b_copy(self):
        x = self.any_value()
        return self.add("copy", [x], self.shape_of(x), self.dtype_of(x))

    # -- multi-op patterns ---------------------------------------------------

    def m_softmax(self):
        """max, sub, exp, sum, div over one axis."""
        rng = self.rng
        x = self.any_value(lambda n, s, d, iv: len(s) >= 1 and len(s) <= 3,
                           shape=self.rand_shape(rank=rng.choice([1, 2, 2, 3])))
        s = self.shape_of(x)
        if not s:
            return None
        R = len(s)
        ax = rng.randrange(R) if rng.random() < 0.4 else R - 1
        par = [l for l in range(R) if l != ax]
        rshape = tuple(s[l] for l in par)
        ident = tuple(range(R))
        if rng.random() < 0.5 and self.dtype_of(x) == "f32":
            m = self.add("reduce", [x], rshape, "f32", dims=[ax], comb=rng.choice(["maximumf", "maxnumf"]), order=0)
        else:
            m = self.add("greduce", [x], rshape, "f32", loops=s, maps=[ident], red=[ax], out_map=tuple(par),
                         expr=("in", 0), comb=rng.choice(["maximumf", "maxnumf"]), order=rng.randrange(2))
        if m is None:
            return None
        if rng.random() < 0.5:
            e = self.add("ew", [x, m], s, "f32", loops=s, maps=[ident, tuple(par)], out_map=ident,
                         expr=("u", "exp", ("b", "sub", ("in", 0), ("in", 1))), clamp=(0.0, 1.0))
        else:
            d = self.add("ew", [x, m], s, "f32", loops=s, maps=[ident, tuple(par)], out_map=ident,
                         expr=("b", "sub", ("in", 0), ("in", 1)), clamp=(-1e30, 0.0))
            if d is None:
                return None
            e = self.add("named", [d], s, "f32", fn="exp", style=rng.choice(["named", "elementwise"]))
        if e is None:
            return None
        n = s[ax]
        if rng.random() < 0.5:
            z = self.add("reduce", [e], rshape, "f32", dims=[ax], comb="add", order=rng.randrange(2), clamp=(1.0, float(n)))
        else:
            z = self.add("greduce", [e], rshape, "f32", loops=s, maps=[ident], red=[ax], out_map=tuple(par),
                         expr=("in", 0), comb="add", order=rng.randrange(2), clamp=(1.0, float(n)))
        if z is None:
            return None
        return self.add("ew", [e, z], s, "f16" if rng.random() < 0.2 else "f32", loops=s,
                        maps=[ident, tuple(par)], out_map=ident, expr=("b", "div", ("in", 0), ("in", 1)),
                        clamp=(0.0, 1.0))

    def m_rmsnorm(self):
        rng = self.rng
        x = self.any_value(lambda n, s, d, iv: 1 <= len(s) <= 3, shape=self.rand_shape(rank=rng.choice([2, 2, 3])))
        s = self.shape_of(x)
        if not s:
            return None
        R = len(s)
        ax = R - 1
        par = tuple(range(R - 1))
        ident = tuple(range(R))
        ss = self.add("greduce", [x], s[:-1], "f32", loops=s, maps=[ident], red=[ax], out_map=par,
                      expr=("u", "square", ("in", 0)), comb="add", order=rng.randrange(2))
        if ss is None:
            return None
        eps = 1e-2
        fn = rng.choice(["sqrt", "rsqrt"])
        den = self.add("ew", [ss], s[:-1], "f32", loops=s[:-1], maps=[par], out_map=par,
                       expr=("u", fn, ("b", "add", ("b", "mul", ("in", 0), ("const", 1.0 / s[ax])), ("const", eps))),
                       outer_consts=rng.random() < 0.5)
        if den is None:
            return None
        g = self.fresh((s[ax],), rng.choice(["f16", "f32"]), need=lambda iv: iv[0] > 0.3)
        op = ("div", "mul") if fn == "sqrt" else ("mul", "mul")
        expr = ("b", op[1], ("b", op[0], ("in", 0), ("in", 1)), ("in", 2))
        return self.add("ew", [x, den, g], s, rng.choice(["f16", "f32"]), loops=s, maps=[ident, par, (ax,)],
                        out_map=ident, expr=expr)

    def m_heads(self, x=None, H=None):
        """[M, H*d] -> [M, H, d] -> [H, M, d] (after a projection, as the
        attention workloads split heads), sometimes cast to f16."""
        rng = self.rng
        if x is None:
            M = rng.choice([1, 2, 4, 5, 16])
            H = rng.choice([1, 2, 3, 4])
            d = rng.choice([4, 8, 12, 16])
            D = rng.choice([8, 16, 24, 32])
            xin = self.fresh((M, D), "f16")
            w = self.fresh((D, H * d), "f16", need=lambda iv: iv[1] - iv[0] <= 1.0)
            x = self.b_matmul("matmul", xin, w)
            if x is None:
                return None
            if rng.random() < 0.5:
                x = self.add("ew", [x], (M, H * d), "f16", loops=(M, H * d), maps=[(0, 1)], out_map=(0, 1),
                             expr=("in", 0))
                if x is None:
                    return None
        M, HD = self.shape_of(x)
        d = HD // H
        r = self.add("expand", [x], (M, H, d), self.dtype_of(x), dim=1)
        if r is None:
            return None
        return self.add("transpose", [r], (H, M, d), self.dtype_of(x), perm=[1, 0, 2])

    def m_kv(self):
        """vanilla-like: K heads of a projection inserted into a KV cache,
        then Q @ Kc^T, softmax, @ Vc (7 ops)."""
        rng = self.rng
        H = rng.choice([1, 2, 3])
        M = rng.choice([1, 2, 4])
        d = rng.choice([4, 8, 16])
        P = rng.choice([8, 16, 12, 33])
        D = rng.choice([8, 16])
        xin = self.fresh((M, D), "f16")
        w = self.fresh((D, H * d), "f16", need=lambda iv: iv[1] - iv[0] <= 1.0)
        kp = self.b_matmul("matmul", xin, w)
        if kp is None:
            return None
        k = self.m_heads(kp, H)
        if k is None:
            return None
        off = rng.randint(0, P - M) if P > M else 0
        if P < M:
            return None
        kc = self.fresh((H, P, d), "f32", cache=True)
        kc2 = self.add("insert", [k, kc], (H, P, d), "f32", offsets=[0, off, 0])
        if kc2 is None:
            return None
        q = self.fresh((H, M, d), "f16")
        sc = self.b_matmul("batch_tb", q, kc2)
        if sc is None:
            return None
        p = self.add("softmax", [sc], (H, M, P), "f32", dim=2)
        if p is None:
            return None
        vc = self.fresh((H, P, d), "f16")
        return self.b_matmul("batch", p, vc)

    def m_attention(self):
        rng = self.rng
        B = rng.choice([1, 2, 3, 4])
        M = rng.choice([1, 2, 4, 5, 8, 16])
        N = rng.choice([4, 7, 8, 16, 33, 32])
        d = rng.choice([4, 8, 16, 12])
        q = self.fresh((B, M, d), "f16")
        k = self.fresh((B, N, d), "f16")
        v = self.fresh((B, N, d), "f16")
        s = self.b_matmul("batch_tb", q, k)
        if s is None:
            return None
        if rng.random() < 0.5:
            p = self.add("softmax", [s], (B, M, N), "f32", dim=2)
        else:
            ident = (0, 1, 2)
            m = self.add("reduce", [s], (B, M), "f32", dims=[2], comb="maximumf", order=0)
            if m is None:
                return None
            e = self.add("ew", [s, m], (B, M, N), "f32", loops=(B, M, N), maps=[ident, (0, 1)], out_map=ident,
                         expr=("u", "exp", ("b", "sub", ("in", 0), ("in", 1))), clamp=(0.0, 1.0))
            if e is None:
                return None
            z = self.add("reduce", [e], (B, M), "f32", dims=[2], comb="add", order=0, clamp=(1.0, float(N)))
            if z is None:
                return None
            p = self.add("ew", [e, z], (B, M, N), "f32", loops=(B, M, N), maps=[ident, (0, 1)], out_map=ident,
                         expr=("b", "div", ("in", 0), ("in", 1)), clamp=(0.0, 1.0))
        if p is None:
            return None
        if rng.random() < 0.5:
            p = self.add("ew", [p], (B, M, N), "f16", loops=(B, M, N), maps=[(0, 1, 2)], out_map=(0, 1, 2),
                         expr=("in", 0))
            if p is None:
                return None
        return self.b_matmul("batch", p, v)

    # -- the program ---------------------------------------------------------

    BUILDERS = [
        ("ew", 22), ("cast", 4), ("named", 10), ("reduce", 8), ("greduce", 8), ("matmul", 10),
        ("softmax", 4), ("transpose", 5), ("broadcast", 4), ("expand", 4), ("collapse", 3),
        ("extract", 3), ("insert_cache", 6), ("insert_value", 2), ("copy", 1),
        ("m_softmax", 3), ("m_rmsnorm", 2), ("m_attention", 2), ("m_heads", 2), ("m_kv", 2),
    ]
    MACRO_OPS = {"m_softmax": 5, "m_rmsnorm": 3, "m_attention": 7, "m_heads": 4, "m_kv": 7}

    def build(self, n_ops=None):
        rng = self.rng
        target = n_ops if n_ops is not None else rng.choices(range(1, MAX_OPS + 1), [2, 3, 4, 5, 5, 5, 4, 4])[0]
        names = [b for b, _ in self.BUILDERS]
        weights = [w for _, w in self.BUILDERS]
        tries = 0
        # At times a multi-op pattern first, the rest around it.
        first = None
        if rng.random() < 0.2:
            fits = [m for m, k in self.MACRO_OPS.items() if k <= target]
            first = rng.choice(fits) if fits else None
        while len(self.prog.ops) < target and tries < 200:
            tries += 1
            b = rng.choices(names, weights)[0]
            if first:
                b, first = first, None
            if self.MACRO_OPS.get(b, 1) > target - len(self.prog.ops):
                continue
            snapshot = (len(self.prog.args), len(self.prog.ops), dict(self.info), dict(self.uses))
            fn = {"cast": lambda: self.b_ew(cast=True)}.get(b) or getattr(self, b if b.startswith("m_") else "b_" + b)
            r = fn()
            if r is None or len(self.prog.ops) > target:
                # Roll back a partial attempt (fresh arguments included).
                del self.prog.args[snapshot[0]:]
                del self.prog.ops[snapshot[1]:]
                self.info, self.uses = snapshot[2], snapshot[3]
        self.finish()
        return self.prog

    def finish(self):
        rng = self.rng
        prog = self.prog
        # Drop arguments nothing reads (a rolled-back op may have left some).
        used = {i for o in prog.ops for i in o.ins}
        prog.args = [a for a in prog.args if a.name in used]
        res = []
        for o in prog.ops:
            if not self.uses.get(o.name) or (o.kind == "insert" and getattr(prog.value(o.ins[1]), "cache", False)) or rng.random() < 0.15:
                res.append(o.name)
        if not res and prog.ops:
            res.append(prog.ops[-1].name)
        prog.results = res


def generate(seed, n_ops=None):
    g = Gen(seed)
    prog = g.build(n_ops)
    if not prog.ops:
        # Unlucky: one elementwise op on a fresh argument.
        g = Gen(seed + (1 << 40))
        prog = g.build(1)
        prog.seed = seed
    try:
        analyze(prog)
    except Invalid:
        # The generator built something the analysis refuses (seed 42381
        # once stopped a 30-minute run): the program of a derived seed
        # instead, the same every time for this seed.
        for k in range(2, 10):
            g = Gen(seed + k * (1 << 40))
            prog = g.build(n_ops)
            prog.seed = seed
            try:
                if prog.ops:
                    analyze(prog)
                    return prog
            except Invalid:
                continue
        raise
    return prog


# ----------------------------------------------------------------------------
# Running the pipeline
# ----------------------------------------------------------------------------

class Failure:
    def __init__(self, stage, kind, message, command, output, detail=""):
        self.stage, self.kind, self.message = stage, kind, message
        self.command, self.output, self.detail = command, output, detail
        self.flaky = False

    @property
    def key(self):
        return "%s|%s|%s" % (self.stage, self.kind, self.message)

    def slug(self):
        h = hashlib.sha1(self.key.encode()).hexdigest()[:8]
        return "%s.%s.%s" % (self.stage.replace("/", "-"), self.kind, h)


class Outcome:
    def __init__(self):
        self.status = "pass"       # pass | refused | fail
        self.refusal = None
        self.failures = []
        self.candidates = []


def normalize(msg):
    """A diagnostic without locations, names and numbers: failures with the
    same normalized message are one class."""
    m = msg.strip()
    m = re.sub(r"^.*?(error|remark|warning): ", "", m)
    m = re.sub(r"\b[\w./-]+\.mlir(:\d+)*:?", "FILE", m)
    m = re.sub(r"@[\w$.]+", "@F", m)
    m = re.sub(r"%[\w$.#]+", "%V", m)
    m = re.sub(r"'(r|a|v|t|i|r|s)\d+_*'", "'NAME'", m)
    m = re.sub(r"\b\d+(x\d+)+(x?[a-z]+\d+)?\b", "SHAPE", m)
    m = re.sub(r"0x[0-9a-fA-F]+", "N", m)
    m = re.sub(r"[-+]?\d+(\.\d+)?([eE][-+]?\d+)?", "N", m)
    m = re.sub(r"\s+", " ", m)
    return m[:160]


CRASH_MARKERS = ("Stack dump:", "LLVM ERROR", "PLEASE submit a bug report", "Assertion `",
                 "UNREACHABLE executed", "Segmentation fault")


def crash_message(text, rc):
    for line in text.splitlines():
        for mk in ("LLVM ERROR:", "Assertion `", "UNREACHABLE executed"):
            if mk in line:
                return normalize(line[line.index(mk):])
    # The first stack frame inside the project (symbolized stacks only).
    for line in text.splitlines():
        m = re.match(r"\s*#\d+\s+0x[0-9a-f]+\s+(?:in\s+)?(.*?)\s+(?:\(|/)", line)
        if m and ("tileir" in m.group(1) or "TileDialect" in line):
            return normalize(m.group(1))[:120]
    if rc is not None and rc < 0:
        try:
            return "signal " + signal.Signals(-rc).name
        except ValueError:
            return "signal %d" % -rc
    return "crash"


def is_crash(rc, text):
    return (rc is not None and (rc < 0 or rc >= 128)) or any(mk in text for mk in CRASH_MARKERS)


def first_error(text):
    for line in text.splitlines():
        if re.search(r"\berror: ", line):
            return line
    return None


def run_cmd(cmd, timeout, cwd=None):
    """(exit status or None on timeout, stdout + stderr, seconds)."""
    t0 = time.time()
    try:
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=cwd,
                             start_new_session=True)
    except OSError as e:
        return 127, str(e), 0.0
    try:
        out, _ = p.communicate(timeout=timeout)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except OSError:
            pass
        out, _ = p.communicate()
        rc = None
    return rc, out.decode("utf-8", "replace"), time.time() - t0


def shell_join(cmd):
    return " ".join(c if re.match(r"^[\w./=,:+-]+$", c) else "'%s'" % c.replace("'", "'\\''") for c in cmd)


class Runner:
    def __init__(self, opts):
        self.opts = opts
        self.tile_opt = os.path.join(opts.bin, "tile-opt")
        self.tile_run = os.path.join(opts.bin, "tile-run")

    def tool(self, cmd, timeout):
        # The binaries are relinked from time to time: retry a missing one.
        for _ in range(10):
            if os.path.exists(cmd[0]):
                break
            time.sleep(3)
        rc, out, secs = run_cmd(cmd, timeout)
        if rc == 127 or (rc is not None and "Text file busy" in out):
            time.sleep(5)
            rc, out, secs = run_cmd(cmd, timeout)
        return rc, out

    def check_tool(self, stage, cmd, expect_file=None):
        """Runs a tile-opt command; returns a Failure or None."""
        rc, out = self.tool(cmd, self.opts.timeout)
        if rc is None:
            return Failure(stage, "timeout", "timeout after %gs" % self.opts.timeout, cmd, out)
        if is_crash(rc, out):
            return Failure(stage, "crash", crash_message(out, rc), cmd, out)
        err = first_error(out)
        if rc != 0:
            return Failure(stage, "error", normalize(err) if err else "exit status %d" % rc, cmd, out)
        if err:
            return Failure(stage, "error-diag", normalize(err), cmd, out)
        if expect_file and not os.path.exists(expect_file):
            return Failure(stage, "error", "no output file", cmd, out)
        return None

    def check_run(self, stage, cmd):
        rc, out = self.tool(cmd, self.opts.timeout)
        if rc is None:
            return Failure(stage, "timeout", "timeout after %gs" % self.opts.timeout, cmd, out)
        if is_crash(rc, out):
            return Failure(stage, "crash", crash_message(out, rc), cmd, out)
        if "NOT-FINITE" in out:
            return Failure(stage, "not-finite", "", cmd, out)
        if "MISMATCH" in out:
            worst = 0.0
            for m in re.finditer(r"max_rel_err=(\S+)", out):
                try:
                    v = float(m.group(1))
                except ValueError:
                    v = math.inf
                worst = max(worst, v if not math.isnan(v) else math.inf)
            kind = "mismatch-large" if worst >= LARGE_MISMATCH else "mismatch"
            return Failure(stage, kind, "", cmd, out, detail="max_rel_err %.3g" % worst)
        err = first_error(out)
        if err:
            return Failure(stage, "error", normalize(err), cmd, out)
        if rc != 0 or "PASS" not in out:
            lines = [l for l in out.splitlines() if l.strip()]
            return Failure(stage, "exit-%d" % rc, normalize(lines[-1]) if lines else "", cmd, out)
        return None

    def upstream_crash(self, path):
        rc, out = self.tool([self.tile_opt, path, "-o", os.devnull], self.opts.timeout)
        return rc is not None and is_crash(rc, out)

    check_flaky = True

    def run(self, prog, workdir, stages, only=None, inject=None):
        """Runs the stages on prog in workdir. `only` restricts them to the
        steps a failure class needs (shrinking)."""
        os.makedirs(workdir, exist_ok=True)
        res = Outcome()
        path = os.path.join(workdir, "P.mlir")
        for stale in ("P.tile.mlir", "P.opt.mlir"):
            if os.path.exists(os.path.join(workdir, stale)):
                os.remove(os.path.join(workdir, stale))
        text = render(prog, header=program_header(prog))
        with open(path, "w") as f:
            f.write(text)
        tol = "%g" % program_tolerance(prog)
        dseed = str(prog.seed % 1000)
        run_opts = ["--reference", path, "--precision", "f32", "--tolerance", tol, "--seed", dseed]

        def add(f):
            if f is None:
                return False
            if f.kind == "crash" and self.upstream_crash(path):
                f = Failure("upstream", "crash", f.message, [self.tile_opt, path], f.output)
            if self.check_flaky and f.kind not in ("timeout", "dropped", "refused-after-fusion") \
                    and (f.stage in ("convert", "convert/cpu", "convert/emulate", "optimize/cpu",
                                     "optimize/emulate") or (f.stage == "optimize" and f.kind == "crash")):
                # Run the failing command again: a failure that comes and goes
                # is marked flaky (the shrinker then tries each candidate
                # several times).
                again = 0
                for _ in range(FLAKY_RERUNS):
                    g = (self.check_run if "/" in f.stage else self.check_tool)(f.stage, f.command)
                    again += g is not None and g.key == f.key
                if again < FLAKY_RERUNS:
                    f.flaky = True
                    f.detail = ("flaky: failed again in %d of %d reruns; " % (again, FLAKY_RERUNS)) + f.detail
            res.failures.append(f)
            res.status = "fail"
            return True

        if inject:
            # A deliberately failing stage: the program must parse and verify
            # and contain the op.
            f = self.check_tool("parse", [self.tile_opt, path, "-o", os.devnull])
            if f:
                add(f)
                return res
            if any(inject == o.kind or inject in mlir_op_names(o) for o in prog.ops):
                add(Failure("inject", "injected", inject, ["inject", inject], ""))
            return res

        want = lambda s: only is None or s in only
        if "convert" in stages and (only is None or any(s.startswith("convert") for s in only)):
            tpath = os.path.join(workdir, "P.tile.mlir")
            cmd = [self.tile_opt, path, "--convert-linalg-to-tile", "-o", tpath]
            rc, out = self.tool(cmd, self.opts.timeout)
            err = first_error(out)
            f = None
            if rc == 1 and err and "cannot be converted to tile" in err and not is_crash(rc, out) \
                    and "internal error" not in err:
                reason = normalize(err.split("cannot be converted to tile:", 1)[1])
                # Refused after fusion only: the input is in the subset op by
                # op, the converter's own fusion made an op it refuses.
                nf = [self.tile_opt, path, "--convert-linalg-to-tile=fuse=false", "-o", os.devnull]
                nrc, nout = self.tool(nf, self.opts.timeout)
                if nrc != 0:
                    res.status = "refused"
                    res.refusal = reason
                    return res
                f = Failure("convert", "refused-after-fusion", reason, cmd, out)
                add(f)
                if only is None or "convert" in only:
                    return res
            if f is not None:
                pass
            elif rc is None:
                f = Failure("convert", "timeout", "timeout", cmd, out)
            elif is_crash(rc, out):
                f = Failure("convert", "crash", crash_message(out, rc), cmd, out)
            elif rc != 0 or err:
                # An input the parser or verifier rejects is the generator's bug.
                prc, pout = self.tool([self.tile_opt, path, "-o", os.devnull], self.opts.timeout)
                if prc != 0 and prc is not None and not is_crash(prc, pout):
                    f = Failure("generator", "invalid", normalize(first_error(pout) or ""), cmd, pout)
                else:
                    f = Failure("convert", "error" if rc != 0 else "error-diag",
                                normalize(err) if err else "exit status %d" % rc, cmd, out)
            if f is not None and f.kind == "refused-after-fusion":
                pass
            elif add(f):
                if f.stage == "generator":
                    return res
            else:
                if want("convert/cpu"):
                    add(self.check_run("convert/cpu", [self.tile_run, tpath] + run_opts))
                if want("convert/emulate"):
                    add(self.check_run("convert/emulate", [self.tile_run, tpath] + run_opts + ["--device", "emulate"]))
        if "optimize" in stages and (only is None or any(s.startswith("optimize") for s in only)):
            opath = os.path.join(workdir, "P.opt.mlir")
            cmd = [self.tile_opt, path, "--tile-optimize", "-o", opath]
            rc, out = self.tool(cmd, self.opts.timeout)
            f = None
            if rc is None:
                f = Failure("optimize", "timeout", "timeout after %gs" % self.opts.timeout, cmd, out)
            elif is_crash(rc, out):
                f = Failure("optimize", "crash", crash_message(out, rc), cmd, out)
            else:
                err = first_error(out)
                if rc == 1 and err and "cannot be converted to tile" in err and "internal error" not in err:
                    res.status = "refused"
                    res.refusal = normalize(err.split("cannot be converted to tile:", 1)[1])
                    return res
                if rc != 0:
                    f = Failure("optimize", "error", normalize(err) if err else "exit status %d" % rc, cmd, out)
                elif err:
                    f = Failure("optimize", "error-diag", normalize(err), cmd, out)
                else:
                    m = re.search(r"remark: candidate \S+ dropped: (.*)", out)
                    if m and not self.opts.allow_dropped:
                        f = Failure("optimize", "dropped", normalize(re.sub(r"[-+]?\d[\d.e+-]*", "N", m.group(1))),
                                    cmd, out)
            if f is not None and (only is None or "optimize" in only):
                add(f)
            if (f is None or f.kind in ("error-diag", "dropped")) and os.path.exists(opath):
                with open(opath) as fh:
                    cands = re.findall(r"tile\.program @([\w$.]+)\(", fh.read())
                res.candidates = cands
                for c in cands:
                    for st, dev in (("optimize/cpu", []), ("optimize/emulate", ["--device", "emulate"])):
                        if want(st):
                            fl = self.check_run(st, [self.tile_run, opath, "--entry", c] + run_opts + dev)
                            if fl:
                                fl.detail = ("candidate %s; " % c) + fl.detail
                                if not any(x.key == fl.key for x in res.failures):
                                    add(fl)
        return res


def program_header(prog):
    return ["Generated by tools/tile-fuzz/tile-fuzz.py, seed %d: %s" % (prog.seed, prog.summary()),
            "tolerance %g" % program_tolerance(prog)]


# ----------------------------------------------------------------------------
# Shrinking
# ----------------------------------------------------------------------------

def dce(prog):
    """Drops ops no result needs and arguments nothing reads."""
    live = set(prog.results)
    for op in reversed(prog.ops):
        if op.name in live:
            live.update(op.ins)
    prog.ops = [o for o in prog.ops if o.name in live]
    used = {i for o in prog.ops for i in o.ins}
    prog.args = [a for a in prog.args if a.name in used]
    return prog


def replacement_dist(iv):
    """uniform(a, b) with [a, b] inside iv (and inside [-4, 4] if it can)."""
    lo, hi = iv
    a, b = max(lo, -4.0), min(hi, 4.0)
    if a >= b:
        a, b = lo, hi
    if a >= b:
        b = a + 0.01 * max(1.0, abs(a))
    # Round inwards to 3 significant digits.
    def r(x, up):
        if x == 0:
            return 0.0
        q = 10 ** (math.floor(math.log10(abs(x))) - 2)
        return (math.ceil(x / q) if up else math.floor(x / q)) * q
    ra, rb = float("%.3g" % r(a, True)), float("%.3g" % r(b, False))
    if ra < rb and ra >= a and rb <= b:
        a, b = ra, rb
    return "uniform(%r, %r)" % (a, b)


def with_fresh_arg(prog, info, name):
    """A new argument standing for value `name` (same type, range inside
    the value's)."""
    shape, dtype, iv = info[name]
    a = Arg(prog.fresh_arg_name(), shape, dtype, replacement_dist(iv))
    prog.args.append(a)
    return a.name


def rewire(prog, old, new, only_op=None):
    for o in prog.ops:
        if only_op is not None and o.name != only_op:
            continue
        if old in o.ins:
            o.ins = [new if i == old else i for i in o.ins]
            o.attrs.pop("clamp", None)


def shrink_candidates(prog):
    """Smaller or simpler variants of prog, the biggest reductions first."""
    try:
        info = analyze(prog)
    except Invalid:
        return
    cache = {a.name for a in prog.args if a.cache}
    # 1. Drop one op: its readers read a fresh argument (or the op's own
    #    input of the same type); results it was drop out.
    for op in reversed(prog.ops):
        subs = [None]
        for i in op.ins:
            if i not in cache and info[i][0] == op.shape and info[i][1] == op.dtype:
                subs.insert(0, i)
        for sub in subs:
            p = prog.clone()
            if op.name in p.results:
                # Its op inputs become results in its place.
                i = p.results.index(op.name)
                if sub is not None:
                    extra = [sub] if sub.startswith("v") and sub not in p.results else []
                else:
                    extra = [x for x in dict.fromkeys(op.ins) if x.startswith("v") and x not in p.results]
                p.results[i:i + 1] = extra
            p.ops = [o for o in p.ops if o.name != op.name]
            readers = [o for o in p.ops if op.name in o.ins]
            if readers:
                new = sub or with_fresh_arg(p, info, op.name)
                rewire(p, op.name, new)
            if not p.results:
                # Keep the readers' results, else return the op's inputs' readers.
                continue
            yield "drop %s (%s)" % (op.name, op_label(op)), dce(p)
    # 2. Drop one result.
    if len(prog.results) > 1:
        for r in prog.results:
            p = prog.clone()
            p.results = [x for x in p.results if x != r]
            yield "drop result %s" % r, dce(p)
    # 3. Cut one edge: an op reads a fresh argument instead of an op result.
    for op in prog.ops:
        for j, i in enumerate(op.ins):
            if i.startswith("v"):
                p = prog.clone()
                new = with_fresh_arg(p, info, i)
                q = [o for o in p.ops if o.name == op.name][0]
                q.ins[j] = new
                q.attrs.pop("clamp", None)
                yield "cut %s -> %s" % (i, op.name), dce(p)
    # 4. Smaller dimensions, everywhere at once.
    sizes = sorted({d for a in prog.args for d in a.shape} | {d for o in prog.ops for d in o.shape}, reverse=True)
    for s in sizes:
        for t in sorted({1, 2, 3, s // 2, 5, 7} - {s}):
            if t >= s or t < 1:
                continue
            yield "dim %d -> %d" % (s, t), subst_dim(prog, s, t)
    # 5. Simpler ops.
    for idx, op in enumerate(prog.ops):
        for why, q in simplify_op(prog, op, info):
            p = prog.clone()
            fresh = q.attrs.pop("_fresh", None)
            qinfo = info
            if fresh:
                q.ins = []
                qinfo = dict(info)
                for shape, dtype in fresh:
                    arg = Arg(p.fresh_arg_name(), shape, dtype, "uniform(-1.0, 1.0)")
                    p.args.append(arg)
                    q.ins.append(arg.name)
                    qinfo[arg.name] = (arg.shape, arg.dtype, dist_range(arg.init))
            p.ops[idx] = q
            # Results of another type: readers read a fresh argument.
            try:
                op_range(q, qinfo)
            except Invalid:
                continue
            if (q.shape, q.dtype) != (op.shape, op.dtype):
                readers = [o for o in p.ops if op.name in o.ins]
                if readers:
                    pi = dict(info)
                    new = with_fresh_arg(p, pi, op.name)
                    rewire(p, op.name, new)
            yield "simplify %s: %s" % (op.name, why), dce(p)
    # 6. f16 arguments as f32.
    for a in prog.args:
        if a.dtype == "f16":
            p = prog.clone()
            for b in p.args:
                if b.name == a.name:
                    b.dtype = "f32"
            yield "%s as f32" % a.name, p
    # 7. Offsets of slices at 0.
    for idx, op in enumerate(prog.ops):
        if op.kind in ("extract", "insert") and any(op.attrs["offsets"]):
            p = prog.clone()
            p.ops[idx].attrs["offsets"] = [0] * len(op.attrs["offsets"])
            yield "zero offsets of %s" % op.name, p


def subst_dim(prog, s, t):
    p = prog.clone()
    f = lambda shape: tuple(t if d == s else d for d in shape)
    for a in p.args:
        a.shape = f(a.shape)
    for o in p.ops:
        o.shape = f(o.shape)
        if "loops" in o.attrs:
            o.attrs["loops"] = f(o.attrs["loops"])
        if "clamp" in o.attrs and o.kind in ("reduce", "greduce"):
            o.attrs.pop("clamp")
    # Offsets that no longer fit move to 0.
    try:
        info = {}
        for a in p.args:
            info[a.name] = (a.shape, a.dtype)
        for o in p.ops:
            if o.kind == "extract":
                src = info[o.ins[0]][0]
                o.attrs["offsets"] = [x if x + z <= d else 0 for x, z, d in zip(o.attrs["offsets"], o.shape, src)]
            if o.kind == "insert":
                src = info[o.ins[0]][0]
                o.attrs["offsets"] = [x if x + z <= d else 0 for x, z, d in zip(o.attrs["offsets"], src, o.shape)]
            info[o.name] = (o.shape, o.dtype)
    except (KeyError, IndexError):
        pass
    return p


def simplify_op(prog, op, info):
    """Simpler variants of one op (same name)."""
    k, a = op.kind, op.attrs
    if k in ("ew", "greduce"):
        e = a["expr"]
        acc = a.get("acc", False)
        ninputs = len(op.ins) - (1 if acc else 0)
        # A subexpression replaced by one of its children.
        for path, sub in expr_subtrees(e):
            for c in expr_children(sub):
                ne = expr_replace(e, path, c)
                yield "expr %s" % expr_str(ne), prune_inputs(op, ne)
        if a.get("outer_consts"):
            q = copy.deepcopy(op)
            q.attrs["outer_consts"] = False
            yield "inner constants", q
        if acc and not expr_uses(e, lambda x: x[0] == "out"):
            q = copy.deepcopy(op)
            q.ins = q.ins[:-1]
            q.attrs["acc"] = False
            yield "no init", q
        if k == "ew" and op.dtype == "f16":
            q = copy.deepcopy(op)
            q.dtype = "f32"
            yield "f32 result", q
        if k == "ew" and tuple(a["out_map"]) != tuple(range(len(a["loops"]))):
            q = copy.deepcopy(op)
            q.attrs["out_map"] = tuple(range(len(a["loops"])))
            q.shape = tuple(a["loops"])
            yield "identity output map", q
        if k == "greduce" and len(a["red"]) > 1:
            for r in a["red"]:
                q = copy.deepcopy(op)
                q.attrs["red"] = [x for x in a["red"] if x != r]
                par = [l for l in range(len(a["loops"])) if l not in q.attrs["red"]]
                q.attrs["out_map"] = tuple(par)
                q.shape = tuple(a["loops"][l] for l in par)
                yield "fewer reduction loops", q
        if k == "greduce" and a["comb"] != "add":
            q = copy.deepcopy(op)
            q.attrs["comb"] = "maximumf" if a["comb"] != "maximumf" else "add"
            yield "combiner " + q.attrs["comb"], q
    if k == "named":
        if a.get("style") == "elementwise":
            q = copy.deepcopy(op)
            q.attrs["style"] = "named"
            yield "named op", q
        if a["fn"] in NAMED_BINARY:
            q = copy.deepcopy(op)
            q.attrs["fn"] = "abs"
            q.ins = q.ins[:1]
            yield "unary", q
    if k == "matmul" and a["variant"] not in ("matmul", "batch"):
        # The plain contraction of the same extents, on fresh arguments of
        # the shapes it reads (shrink_candidates adds them).
        ra, rb = matmul_roles(a["variant"], a)
        ext = dict(zip(ra, info[op.ins[0]][0]))
        ext.update(zip(rb, info[op.ins[1]][0]))
        q = copy.deepcopy(op)
        q.attrs = {"variant": "matmul"} if len(op.shape) == 2 else {"variant": "batch"}
        na, nb = matmul_roles(q.attrs["variant"], q.attrs)
        q.attrs["_fresh"] = [(tuple(ext[r] for r in na), info[op.ins[0]][1]),
                             (tuple(ext[r] for r in nb), info[op.ins[1]][1])]
        yield "plain " + q.attrs["variant"], q
    if k == "reduce" and len(a["dims"]) > 1:
        for d in a["dims"]:
            q = copy.deepcopy(op)
            q.attrs["dims"] = [x for x in a["dims"] if x != d]
            src = info[op.ins[0]][0]
            q.shape = tuple(s for i, s in enumerate(src) if i not in q.attrs["dims"])
            yield "fewer dims", q
    if k == "reduce" and a.get("order"):
        q = copy.deepcopy(op)
        q.attrs["order"] = 0
        yield "operand order", q


def prune_inputs(op, expr):
    """op with expr, its unused inputs dropped."""
    q = copy.deepcopy(op)
    acc = q.attrs.get("acc", False)
    n = len(q.ins) - (1 if acc else 0)
    used = sorted(expr_inputs(expr))
    mapping = {old: new for new, old in enumerate(used)}
    q.attrs["expr"] = expr_remap(expr, mapping)
    q.attrs["maps"] = [q.attrs["maps"][i] for i in used]
    q.ins = [q.ins[i] for i in used] + (q.ins[n:] if acc else [])
    if acc and not expr_uses(expr, lambda x: x[0] == "out"):
        q.ins = q.ins[:len(used)]
        q.attrs["acc"] = False
    if not used:
        # Every input gone: keep one, read through an identity body.
        q = copy.deepcopy(op)
    return q


def shrink(prog, reproduces, deadline, log=None):
    """Greedy: take the first candidate that still fails the same way,
    until no candidate does or time runs out."""
    best = prog
    seen = set()
    tests = 0
    progress = True
    while progress and time.time() < deadline:
        progress = False
        for why, cand in shrink_candidates(best):
            if time.time() >= deadline:
                break
            try:
                analyze(cand)
                text = render(cand)
            except Invalid:
                continue
            h = hashlib.sha1(text.encode()).hexdigest()
            if h in seen:
                continue
            seen.add(h)
            tests += 1
            if reproduces(cand):
                if log:
                    log("  shrink: %s -> %d ops" % (why, len(cand.ops)))
                best = cand
                progress = True
                break
    return best, tests


# ----------------------------------------------------------------------------
# Reproducers
# ----------------------------------------------------------------------------

def run_lines(f, tol, dseed):
    """Lit RUN lines that pass once the failure is fixed."""
    ropts = "--reference %%s --precision f32 --tolerance %s --seed %s" % (tol, dseed)
    st = f.stage
    if st == "convert":
        return ["RUN: tile-opt %s --convert-linalg-to-tile -o %t.tile.mlir 2>&1 | FileCheck %s --allow-empty",
                "CHECK-NOT: error"]
    if st in ("convert/cpu", "convert/emulate"):
        dev = " --device emulate" if st.endswith("emulate") else ""
        return ["RUN: tile-opt %s --convert-linalg-to-tile -o %t.tile.mlir",
                "RUN: tile-run %%t.tile.mlir %s%s | FileCheck %%s" % (ropts, dev),
                "CHECK-NOT: MISMATCH", "CHECK-NOT: NOT-FINITE", "CHECK: PASS"]
    if st == "optimize":
        return ["RUN: tile-opt %s --tile-optimize -o %t.opt.mlir 2>&1 | FileCheck %s",
                "CHECK-NOT: error", "CHECK-NOT: dropped:", "CHECK: remark: extracted"]
    if st in ("optimize/cpu", "optimize/emulate"):
        dev = " --device emulate" if st.endswith("emulate") else ""
        return ["RUN: tile-opt %s --tile-optimize -o %t.opt.mlir",
                "RUN: for c in $(grep -o 'tile.program @[A-Za-z0-9_]*' %t.opt.mlir | cut -d@ -f2); do \\",
                "RUN:   tile-run %%t.opt.mlir --entry $c %s%s || exit 1; \\" % (ropts, dev),
                "RUN: done | FileCheck %s",
                "CHECK-NOT: MISMATCH", "CHECK-NOT: NOT-FINITE", "CHECK: PASS"]
    if st == "upstream":
        return ["RUN: tile-opt %s -o /dev/null"]
    return []


def binary_stamps(bindir):
    out = []
    for t in ("tile-opt", "tile-run"):
        try:
            out.append("%s %s" % (t, time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(
                os.path.getmtime(os.path.join(bindir, t))))))
        except OSError:
            out.append(t + " missing")
    return ", ".join(out)


def write_repro(outdir, f, prog, orig, tests, secs, binaries=""):
    d = os.path.join(outdir, f.slug())
    os.makedirs(d, exist_ok=True)
    tol = "%g" % program_tolerance(prog)
    dseed = str(prog.seed % 1000)
    header = ["tile-fuzz reproducer: %s, %s%s" % (f.stage, f.kind, (": " + f.message) if f.message else ""),
              "found with seed %d (%d ops), shrunk to %d ops in %d tests (%.0f s): %s"
              % (orig.seed, len(orig.ops), len(prog.ops), tests, secs, prog.summary()),
              "ops: %d" % len(prog.ops),
              "failing command (as run by tile-fuzz): " + shell_join(f.command),
              "binaries: " + binaries,
              ""]
    if f.detail:
        header.insert(1, f.detail)
    header += run_lines(f, tol, dseed) + [""]
    text = render(prog, header=header)
    with open(os.path.join(d, "repro.mlir"), "w") as fh:
        fh.write(text)
    with open(os.path.join(d, "original.mlir"), "w") as fh:
        fh.write(render(orig, header=program_header(orig)))
    with open(os.path.join(d, "message.txt"), "w") as fh:
        fh.write("class: %s\nstage: %s\nkind: %s\nmessage: %s\n%s\ncommand: %s\nbinaries: %s\n\n%s"
                 % (f.key, f.stage, f.kind, f.message, f.detail, shell_join(f.command), binaries, f.output))
    with open(os.path.join(d, "repro.json"), "w") as fh:
        json.dump({"class": f.key, "stage": f.stage, "kind": f.kind, "message": f.message,
                   "ops": len(prog.ops), "seed": orig.seed, "program": prog.to_json()}, fh, indent=1)
    return os.path.join(d, "repro.mlir")


# ----------------------------------------------------------------------------
# Driver
# ----------------------------------------------------------------------------

class State:
    def __init__(self):
        self.lock = threading.Lock()
        self.tried = self.passed = self.refused = 0
        self.refusals = {}
        self.classes = {}      # key -> dict(failure, seeds, repro)
        self.claimed = set()
        self.done = 0


def only_for(f):
    if f.stage == "convert/cpu":
        return {"convert/cpu"}
    if f.stage == "convert/emulate":
        return {"convert/emulate"}
    if f.stage == "convert":
        return {"convert"}
    if f.stage == "optimize":
        return {"optimize"}
    if f.stage == "optimize/cpu":
        return {"optimize/cpu"}
    if f.stage == "optimize/emulate":
        return {"optimize/emulate"}
    return None


def main(argv=None):
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default=os.path.join(repo, "build", "bin"),
                    help="directory of tile-opt and tile-run (default: build/bin of this repository)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the first program; program i uses seed+i")
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--count", type=int, help="programs to try (default 100)")
    g.add_argument("--minutes", type=float, help="try programs for this long")
    ap.add_argument("--out", default="tile-fuzz-out", help="output directory (reproducers, failing programs)")
    ap.add_argument("--jobs", "-j", type=int, default=1, help="programs run in parallel")
    ap.add_argument("--stages", default="convert,optimize", help="comma-separated: convert, optimize")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per command")
    ap.add_argument("--keep-going", action="store_true",
                    help="keep trying programs after a failure (default: stop at the first failing program)")
    ap.add_argument("--shrink-minutes", type=float, default=5.0, help="time limit of one shrink (0: no shrinking)")
    ap.add_argument("--ops", type=int, help="ops per program (default: random 1-%d)" % MAX_OPS)
    ap.add_argument("--inject-failure", metavar="OP",
                    help="testing the shrinker: treat every program containing OP (an op kind such as "
                         "matmul, or an MLIR op name such as linalg.transpose) as failing; no tool runs "
                         "but the parser")
    ap.add_argument("--allow-dropped", action="store_true",
                    help="do not count candidates dropped by --tile-optimize's check as failures")
    ap.add_argument("--print", action="store_true", help="print the programs (MLIR) and exit")
    ap.add_argument("--keep-work", action="store_true", help="keep the directories of passing programs")
    opts = ap.parse_args(argv)

    stages = set(s.strip() for s in opts.stages.split(",") if s.strip())
    if not stages <= {"convert", "optimize"}:
        ap.error("--stages: convert and/or optimize")
    count = opts.count if opts.count is not None else (None if opts.minutes else 100)

    if opts.print:
        for i in range(count or 1):
            prog = generate(opts.seed + i, opts.ops)
            sys.stdout.write(render(prog, header=program_header(prog)))
        return 0

    for t in ("tile-opt", "tile-run"):
        if not os.path.exists(os.path.join(opts.bin, t)):
            ap.error("no %s in %s (--bin)" % (t, opts.bin))
    os.makedirs(opts.out, exist_ok=True)
    work = os.path.join(opts.out, "work")
    os.makedirs(work, exist_ok=True)
    runner = Runner(opts)
    state = State()
    t0 = time.time()
    deadline = t0 + opts.minutes * 60 if opts.minutes else None
    stop = threading.Event()

    def log(msg):
        with state.lock:
            print(msg, flush=True)

    def one(seed):
        if stop.is_set():
            return
        ts = time.time()
        prog = generate(seed, opts.ops)
        wd = os.path.join(work, "seed-%d" % seed)
        res = runner.run(prog, wd, stages, inject=opts.inject_failure)
        with state.lock:
            state.tried += 1
            state.done += 1
            idx = state.done
            if res.status == "pass":
                state.passed += 1
            elif res.status == "refused":
                state.refused += 1
                r = state.refusals.setdefault(res.refusal, [0, seed])
                r[0] += 1
            new = []
            for f in res.failures:
                c = state.classes.setdefault(f.key, {"failure": f, "seeds": [], "repro": None, "ops": None})
                c["seeds"].append(seed)
                if f.key not in state.claimed:
                    state.claimed.add(f.key)
                    new.append(f)
        total = "/%d" % count if count else ""
        verdict = res.status.upper()
        if res.status == "refused":
            verdict += " (%s)" % res.refusal[:80]
        if res.failures:
            verdict = "FAIL " + "; ".join("%s %s%s%s" % (f.stage, f.kind, " (flaky)" if f.flaky else "",
                                                           (" " + f.message[:70]) if f.message else "")
                                          for f in res.failures)
        log("[%d%s] seed=%d ops=%d (%s) %s %.1fs" % (idx, total, seed, len(prog.ops), prog.summary(), verdict,
                                                    time.time() - ts))
        if res.status == "fail":
            keep = os.path.join(opts.out, "programs", "seed-%d" % seed)
            if os.path.exists(keep):
                shutil.rmtree(keep)
            shutil.move(wd, keep)
        elif not opts.keep_work:
            shutil.rmtree(wd, ignore_errors=True)
        for f in new:
            shrink_one(prog, f)
        if res.status == "fail" and not opts.keep_going:
            stop.set()

    def shrink_one(prog, f):
        ts = time.time()
        best, tests = prog, 0
        if opts.shrink_minutes > 0 and f.stage not in ("generator",):
            sdir = os.path.join(work, "shrink-" + f.slug())
            only = only_for(f)

            shrink_runner = Runner(opts)
            shrink_runner.check_flaky = False

            def reproduces(cand):
                for _ in range(FLAKY_ATTEMPTS if f.flaky else 1):
                    r = shrink_runner.run(cand, sdir, stages, only=only, inject=opts.inject_failure)
                    if any(x.key == f.key for x in r.failures):
                        return True
                return False
            log("  shrinking %s (%s) from seed %d, %d ops" % (f.slug(), f.key[:100], prog.seed, len(prog.ops)))
            best, tests = shrink(prog, reproduces, ts + opts.shrink_minutes * 60,
                                 log=log if os.environ.get("TILE_FUZZ_VERBOSE") else None)
            shutil.rmtree(sdir, ignore_errors=True)
        path = write_repro(opts.out, f, best, prog, tests, time.time() - ts, binary_stamps(opts.bin))
        with state.lock:
            state.classes[f.key]["repro"] = path
            state.classes[f.key]["ops"] = len(best.ops)
        log("  reproducer: %s (%d ops, %d tests, %.0f s)" % (path, len(best.ops), tests, time.time() - ts))

    seeds = itertools.count(opts.seed) if count is None else iter(range(opts.seed, opts.seed + count))
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, opts.jobs)) as ex:
        pending = set()
        for s in seeds:
            if stop.is_set() or (deadline and time.time() >= deadline):
                break
            pending.add(ex.submit(one, s))
            while len(pending) >= max(1, opts.jobs):
                done, pending = concurrent.futures.wait(pending, return_when=concurrent.futures.FIRST_COMPLETED)
                for d in done:
                    d.result()
                if stop.is_set() or (deadline and time.time() >= deadline):
                    break
        for d in concurrent.futures.as_completed(pending):
            d.result()
    if not opts.keep_work:
        shutil.rmtree(work, ignore_errors=True)

    secs = time.time() - t0
    fails = {k: c for k, c in state.classes.items()}
    failed_programs = len({s for c in fails.values() for s in c["seeds"]})
    print("")
    print("tile-fuzz summary (seeds from %d, stages %s)" % (opts.seed, ",".join(sorted(stages))))
    print("  programs: %d tried, %d passed, %d refused, %d failed"
          % (state.tried, state.passed, state.refused, failed_programs))
    if state.refusals:
        print("  refused by the converter:")
        for reason, (n, s) in sorted(state.refusals.items(), key=lambda x: -x[1][0]):
            print("    %4d  %s (e.g. seed %d)" % (n, reason, s))
    ups = {k: c for k, c in fails.items() if c["failure"].stage == "upstream"}
    real = {k: c for k, c in fails.items() if c["failure"].stage != "upstream"}
    print("  failure classes: %d" % len(real))
    for k, c in sorted(real.items(), key=lambda x: x[1]["seeds"][0]):
        f = c["failure"]
        print("    [%s %s%s] %s%s" % (f.stage, f.kind, " (flaky)" if f.flaky else "", f.message or "(no message)",
                                  (" -- " + f.detail) if f.detail else ""))
        print("        programs: %d (seeds %s)" % (len(c["seeds"]), ", ".join(map(str, c["seeds"][:8]))))
        if c["repro"]:
            print("        reproducer: %s (%d ops)" % (c["repro"], c["ops"]))
    if ups:
        print("  upstream (the parser crashes on the input): %d" % len(ups))
        for k, c in ups.items():
            print("    %s: seeds %s; %s" % (c["failure"].message, c["seeds"][:8], c["repro"]))
    print("  time: %.1f s" % secs)
    print("failures: %d" % len(fails))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
