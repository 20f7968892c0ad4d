"""torch.fx -> linalg: the ops of real blocks as a linalg program that
tile-opt's converter takes (docs/ConversionPasses.md's subset).

    text, params = export(module, example_inputs)

traces `module` with torch.fx, propagates the example inputs' shapes and
dtypes, and writes one `func.func @forward` on tensors: the inputs, then the
module's parameters (named by their qualified names) as arguments; the
outputs as results. Every op is a `linalg.generic` whose indexing maps are
projected permutations (broadcast unit dimensions are collapsed away first),
or a reshape (`tensor.expand_shape` / `collapse_shape`).

Supported: linear (nn.Linear, F.linear), matmul / @ / bmm (equal batch
dimensions, any number), add, sub, mul, div, neg, exp, sqrt, rsqrt,
sigmoid, silu, tanh, gelu (erf or tanh), pow by 2 or 0.5, sum / mean / amax
over dimensions (keepdim or not), softmax, LayerNorm (module and
functional), dtype casts (to, float, half, type_as), transpose, permute, t,
reshape / view, unsqueeze, squeeze, flatten, expand, where and
masked_fill on a bool tensor, static slicing
(`x[..., a:b]`, integers, narrow), chunk, split and cat, Identity and
Dropout in eval mode, arithmetic on static sizes (`x.shape[0]`), and
nn.Module containers of these.

In-place writes into a slice of an input or a buffer (a KV cache's update):
`t[index] = v` where tracing records it, `t[a:b].copy_(v)` and
`t.narrow(dim, start, length).copy_(v)`, with static bounds. Later reads of
`t` see the write (`tensor.insert_slice`), and `t` becomes an inout: a
result of the argument's own name, written back into the caller's tensor.
(A buffer's writes go to the kernel's copy of it, not the module's.)

Anything else raises UnsupportedOp naming the op and the node it is in.
"""

import copy
import operator

import torch
import torch.fx
from torch.fx.passes.shape_prop import ShapeProp

__all__ = ["UnsupportedOp", "export", "export_module"]


class UnsupportedOp(Exception):
    """An op the exporter cannot express, with the node it is in."""


_ELEM = {torch.float16: "f16", torch.bfloat16: "bf16", torch.float32: "f32",
         torch.float64: "f64", torch.bool: "i1"}


class _Value:
    def __init__(self, ssa, shape, dtype):
        self.ssa, self.shape, self.dtype = ssa, tuple(shape), dtype

    @property
    def elem(self):
        return _ELEM[self.dtype]

    @property
    def type(self):
        return _tensor_type(self.shape, self.dtype)


def _tensor_type(shape, dtype):
    dims = "".join("%dx" % d for d in shape)
    return "tensor<%s%s>" % (dims, _ELEM[dtype])


def _map(rank, dims):
    names = ", ".join("d%d" % i for i in range(rank))
    return "affine_map<(%s) -> (%s)>" % (
        names, ", ".join("d%d" % d for d in dims))


def _float_literal(x, elem):
    """The text of `x` as an `elem` attribute: infinities (masks' -inf) as
    the type's bit pattern, which is how MLIR spells them."""
    x = float(x)
    if x in (float("inf"), float("-inf")):
        bits = {"f16": (0x7C00, 0xFC00), "bf16": (0x7F80, 0xFF80),
                "f32": (0x7F800000, 0xFF800000),
                "f64": (0x7FF0000000000000, 0xFFF0000000000000)}[elem]
        return "0x%X" % bits[x < 0]
    return "%.17e" % x


class _Emitter:
    def __init__(self):
        self.lines = []
        self.count = 0

    def fresh(self, prefix="v"):
        self.count += 1
        return "%%%s%d" % (prefix, self.count)

    def emit(self, line):
        self.lines.append("  " + line)

    # -- building blocks ---------------------------------------------------

    def empty(self, shape, dtype):
        v = self.fresh("e")
        self.emit("%s = tensor.empty() : %s" % (v, _tensor_type(shape, dtype)))
        return v

    def filled(self, shape, dtype, value):
        c, e, f = self.fresh("c"), self.empty(shape, dtype), self.fresh("f")
        self.emit("%s = arith.constant %s : %s" % (c, value, _ELEM[dtype]))
        self.emit("%s = linalg.fill ins(%s : %s) outs(%s : %s) -> %s" % (
            f, c, _ELEM[dtype], e, _tensor_type(shape, dtype),
            _tensor_type(shape, dtype)))
        return f

    def generic(self, inputs, maps, out_shape, out_dtype, iterators, body,
                init=None):
        """`body(args, out)` returns (lines, result) over block arguments
        named %a0.. (inputs) and %o (the output); the result is yielded."""
        rank = len(iterators)
        out = init or self.empty(out_shape, out_dtype)
        r = self.fresh()
        block_args = ["%%a%d: %s" % (i, v.elem) for i, v in enumerate(inputs)]
        block_args.append("%%o: %s" % _ELEM[out_dtype])
        lines, result = body(["%%a%d" % i for i in range(len(inputs))], "%o")
        self.emit("%s = linalg.generic {indexing_maps = [%s], "
                  "iterator_types = [%s]}" % (
                      r, ", ".join(_map(rank, m) for m in maps),
                      ", ".join('"%s"' % t for t in iterators)))
        ins = ""
        if inputs:
            ins = "ins(%s : %s) " % (", ".join(v.ssa for v in inputs),
                                      ", ".join(v.type for v in inputs))
        self.emit("    %souts(%s : %s) {" % (ins, out, _tensor_type(
            out_shape, out_dtype)))
        self.emit("^bb0(%s):" % ", ".join(block_args))
        for line in lines:
            self.emit("  " + line)
        self.emit("  linalg.yield %s : %s" % (result, _ELEM[out_dtype]))
        self.emit("} -> %s" % _tensor_type(out_shape, out_dtype))
        return _Value(r, out_shape, out_dtype)

    def collapse(self, v, keep):
        """`v` without its dimensions not in `keep` (all of size 1)."""
        if len(keep) == len(v.shape):
            return v
        return self.collapse_into(v, [v.shape[i] for i in keep],
                                  _unit_groups(len(v.shape), keep))

    def collapse_into(self, v, shape, groups):
        r = self.fresh()
        self.emit("%s = tensor.collapse_shape %s [%s] : %s into %s" % (
            r, v.ssa, _groups_text(groups), v.type,
            _tensor_type(shape, v.dtype)))
        return _Value(r, shape, v.dtype)

    def expand(self, v, shape, groups):
        r = self.fresh()
        self.emit("%s = tensor.expand_shape %s [%s] output_shape [%s] : %s "
                  "into %s" % (r, v.ssa, _groups_text(groups),
                               ", ".join(map(str, shape)), v.type,
                               _tensor_type(shape, v.dtype)))
        return _Value(r, shape, v.dtype)

    # -- ops ----------------------------------------------------------------

    def elementwise(self, operands, out_dtype, body):
        """`operands` are _Values or Python numbers; torch broadcasting.
        `body(names)` returns (lines, result) computing in out_dtype, with
        each tensor operand already cast to it."""
        tensors = [o for o in operands if isinstance(o, _Value)]
        rank = max(len(t.shape) for t in tensors)
        shape = [1] * rank
        for t in tensors:
            for i, d in enumerate(t.shape):
                j = rank - len(t.shape) + i
                shape[j] = max(shape[j], d)
        ins, maps = [], []
        for t in tensors:
            offset = rank - len(t.shape)
            # Broadcast unit dimensions are collapsed away: the maps stay
            # projected permutations.
            keep = [i for i, d in enumerate(t.shape)
                    if not (d == 1 and shape[offset + i] != 1)]
            ins.append(self.collapse(t, keep))
            maps.append([offset + i for i in keep])
        maps.append(list(range(rank)))
        elem = _ELEM[out_dtype]

        def full_body(args, out):
            lines, names, k = [], [], 0
            for o in operands:
                if isinstance(o, _Value):
                    name = args[k]
                    # A boolean operand (a where's condition) stays i1.
                    if _ELEM[o.dtype] != elem and o.dtype != torch.bool:
                        cast = "%%x%d" % k
                        lines += _cast_lines(cast, name, o.dtype, out_dtype)
                        name = cast
                    names.append(name)
                    k += 1
                else:
                    c = "%%k%d" % len(names)
                    lines.append("%s = arith.constant %s : %s" % (
                        c, _float_literal(o, elem), elem))
                    names.append(c)
            more, result = body(names)
            return lines + more, result
        return self.generic(ins, maps, shape, out_dtype,
                            ["parallel"] * rank, full_body)

    def cast(self, v, dtype):
        if v.dtype == dtype:
            return v
        return self.elementwise([v], dtype, lambda n: ([], n[0]))

    def reduce(self, v, dims, keepdim, kind):
        """sum / mean / amax over `dims`, accumulated in f32."""
        rank = len(v.shape)
        dims = sorted(d % rank for d in dims)
        kept = [i for i in range(rank) if i not in dims]
        out_shape = [v.shape[i] for i in kept]
        acc_dtype = torch.float32 if v.dtype != torch.float64 else v.dtype
        acc = _ELEM[acc_dtype]
        init = self.filled(out_shape, acc_dtype,
                           "0xFF800000" if kind == "amax" and acc == "f32"
                           else ("-1.0e+300" if kind == "amax" else "0.0"))
        order = kept + dims  # parallel loops first

        def body(args, out):
            x = args[0]
            lines = []
            if v.elem != acc:
                lines += _cast_lines("%xa", x, v.dtype, acc_dtype)
                x = "%xa"
            op = "arith.maximumf" if kind == "amax" else "arith.addf"
            lines.append("%%r = %s %s, %s : %s" % (op, x, out, acc))
            return lines, "%r"
        # Iteration space: kept dims, then reduced dims.
        in_map = [order.index(i) for i in range(rank)]
        r = self.generic([v], [in_map, list(range(len(kept)))], out_shape,
                         acc_dtype, ["parallel"] * len(kept) +
                         ["reduction"] * len(dims), body, init=init)
        count = 1
        for d in dims:
            count *= v.shape[d]
        if kind == "mean":
            r = self.elementwise([r, float(count)], acc_dtype, lambda n: (
                ["%%q = arith.divf %s, %s : %s" % (n[0], n[1], acc)], "%q"))
        r = self.cast(r, v.dtype)
        if keepdim:
            shape = [1 if i in dims else v.shape[i] for i in range(rank)]
            r = self.expand(r, shape, _unit_groups(rank, kept))
        return r

    def contraction(self, a, b, transpose_b, out_dtype):
        """a [..., M, K] @ b ([K, N], or [N, K] with transpose_b; or batched
        [..., K, N] against a [..., M, K] of the same batch dimensions),
        accumulated in f32."""
        if len(b.shape) == 2:
            batch = list(a.shape[:-2])
            m, k = a.shape[-2:]
            n = b.shape[0] if transpose_b else b.shape[1]
            nb = len(batch)
            # Loops: batch..., m, n, k.
            lhs = list(range(nb)) + [nb, nb + 2]
            rhs = [nb + 1, nb + 2] if transpose_b else [nb + 2, nb + 1]
        elif len(b.shape) == len(a.shape) >= 3 and not transpose_b and \
                list(a.shape[:-2]) == list(b.shape[:-2]):
            batch = list(a.shape[:-2])
            m, k = a.shape[-2:]
            n = b.shape[-1]
            nb = len(batch)
            lhs = list(range(nb)) + [nb, nb + 2]
            rhs = list(range(nb)) + [nb + 2, nb + 1]
        else:
            raise UnsupportedOp("matmul of shapes %s and %s" % (
                list(a.shape), list(b.shape)))
        out_shape = batch + [m, n]
        acc_dtype = torch.float32 if out_dtype != torch.float64 else out_dtype
        acc = _ELEM[acc_dtype]
        init = self.filled(out_shape, acc_dtype, "0.0")

        def body(args, out):
            x, y, lines = args[0], args[1], []
            if a.elem != acc:
                lines += _cast_lines("%xa", x, a.dtype, acc_dtype)
                x = "%xa"
            if b.elem != acc:
                lines += _cast_lines("%xb", y, b.dtype, acc_dtype)
                y = "%xb"
            lines += ["%%p = arith.mulf %s, %s : %s" % (x, y, acc),
                      "%%s = arith.addf %s, %%p : %s" % (out, acc)]
            return lines, "%s"
        r = self.generic([a, b], [lhs, rhs, list(range(nb + 2))], out_shape,
                         acc_dtype, ["parallel"] * (nb + 2) + ["reduction"],
                         body, init=init)
        return self.cast(r, out_dtype)

    def extract(self, v, offsets, sizes):
        r = self.fresh()
        shape = list(sizes)
        self.emit("%s = tensor.extract_slice %s[%s] [%s] [%s] : %s to %s" % (
            r, v.ssa, ", ".join(map(str, offsets)), ", ".join(map(str, sizes)),
            ", ".join("1" for _ in sizes), v.type,
            _tensor_type(shape, v.dtype)))
        return _Value(r, shape, v.dtype)

    def insert(self, v, dest, offsets):
        """`v` written into `dest` at `offsets` (same rank): the new dest."""
        r = self.fresh()
        self.emit("%s = tensor.insert_slice %s into %s[%s] [%s] [%s] : %s "
                  "into %s" % (r, v.ssa, dest.ssa,
                               ", ".join(map(str, offsets)),
                               ", ".join(map(str, v.shape)),
                               ", ".join("1" for _ in v.shape), v.type,
                               dest.type))
        return _Value(r, dest.shape, dest.dtype)

    def concat(self, values, dim, dtype):
        rank = len(values[0].shape)
        shape = list(values[0].shape)
        shape[dim] = sum(v.shape[dim] for v in values)
        out = _Value(self.empty(shape, dtype), shape, dtype)
        at = 0
        for v in values:
            offsets = [0] * rank
            offsets[dim] = at
            out = self.insert(self.cast(v, dtype), out, offsets)
            at += v.shape[dim]
        return out

    def permute(self, v, perm):
        rank = len(v.shape)
        shape = [v.shape[p] for p in perm]
        # out[d0..] = in[...]: input dim perm[i] is output dim i.
        in_map = [perm.index(j) for j in range(rank)]
        return self.generic([v], [in_map, list(range(rank))], shape, v.dtype,
                            ["parallel"] * rank, lambda a, o: ([], a[0]))

    def reshape(self, v, shape):
        shape = list(shape)
        if -1 in shape:
            known = 1
            for d in shape:
                if d != -1:
                    known *= d
            total = 1
            for d in v.shape:
                total *= d
            shape[shape.index(-1)] = total // known
        if list(v.shape) == shape:
            return v
        groups = _refinement(v.shape, shape)
        if groups is not None:
            return self.expand(v, shape, groups)
        groups = _refinement(shape, v.shape)
        if groups is not None:
            return self.collapse_into(v, shape, groups)
        # Neither refines the other: through one dimension.
        total = 1
        for d in v.shape:
            total *= d
        flat = self.collapse_into(v, [total], [list(range(len(v.shape)))])
        return self.expand(flat, shape, [list(range(len(shape)))])


def _unit_groups(rank, kept):
    """The reassociation between `rank` dimensions and the `kept` ones, the
    others being of size 1: each kept dimension with the unit dimensions
    before it, trailing ones with the last; none when nothing is kept (a
    rank-0 tensor)."""
    groups, current = [], []
    for i in range(rank):
        current.append(i)
        if i in kept:
            groups.append(current)
            current = []
    if current and groups:
        groups[-1].extend(current)
    return groups


def _groups_text(groups):
    return ", ".join("[%s]" % ", ".join(map(str, g)) for g in groups)


def _refinement(coarse, fine):
    """Groups of `fine`'s dimensions whose products are `coarse`'s, in
    order, or None."""
    groups, i = [], 0
    for c in coarse:
        group, product = [], 1
        while i < len(fine) and (product < c or (product == c and
                                                 fine[i] == 1 and
                                                 c == 1 and not group)):
            group.append(i)
            product *= fine[i]
            i += 1
        if product != c or not group:
            return None
        groups.append(group)
    while i < len(fine) and fine[i] == 1 and groups:
        groups[-1].append(i)
        i += 1
    return groups if i == len(fine) else None


def _cast_lines(result, value, src, dst):
    """The body lines converting `value` from `src` to `dst` into `result`:
    one extf or truncf, or, between f16 and bf16 (neither wider), through
    f32."""
    s, d = _ELEM[src], _ELEM[dst]
    width = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64}
    if width[d] == width[s]:
        wide = result + "_f32"
        return ["%s = arith.extf %s : %s to f32" % (wide, value, s),
                "%s = arith.truncf %s : f32 to %s" % (result, wide, d)]
    op = "arith.extf" if width[d] > width[s] else "arith.truncf"
    return ["%s = %s %s : %s to %s" % (result, op, value, s, d)]


def _unary(fn, elem):
    """The body lines of `fn` applied to %x in `elem`."""
    one = "%%one = arith.constant 1.0 : %s" % elem
    return {
        "exp": ["%%y = math.exp %%x : %s" % elem],
        "sqrt": ["%%y = math.sqrt %%x : %s" % elem],
        "rsqrt": ["%%y = math.rsqrt %%x : %s" % elem],
        "tanh": ["%%y = math.tanh %%x : %s" % elem],
        "neg": ["%%y = arith.negf %%x : %s" % elem],
        "square": ["%%y = arith.mulf %%x, %%x : %s" % elem],
        "sigmoid": [one, "%%n = arith.negf %%x : %s" % elem,
                    "%%e = math.exp %%n : %s" % elem,
                    "%%d = arith.addf %%one, %%e : %s" % elem,
                    "%%y = arith.divf %%one, %%d : %s" % elem],
        "silu": [one, "%%n = arith.negf %%x : %s" % elem,
                 "%%e = math.exp %%n : %s" % elem,
                 "%%d = arith.addf %%one, %%e : %s" % elem,
                 "%%y = arith.divf %%x, %%d : %s" % elem],
        "gelu": [one,
                 "%%h = arith.constant 0.5 : %s" % elem,
                 "%%r = arith.constant 0.70710678118654752 : %s" % elem,
                 "%%s = arith.mulf %%x, %%r : %s" % elem,
                 "%%f = math.erf %%s : %s" % elem,
                 "%%p = arith.addf %%one, %%f : %s" % elem,
                 "%%q = arith.mulf %%x, %%p : %s" % elem,
                 "%%y = arith.mulf %%h, %%q : %s" % elem],
        # 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))).
        "gelu_tanh": [one,
                      "%%h = arith.constant 0.5 : %s" % elem,
                      "%%c = arith.constant 0.044715 : %s" % elem,
                      "%%r = arith.constant 0.79788456080286536 : %s" % elem,
                      "%%x2 = arith.mulf %%x, %%x : %s" % elem,
                      "%%x3 = arith.mulf %%x2, %%x : %s" % elem,
                      "%%cx3 = arith.mulf %%c, %%x3 : %s" % elem,
                      "%%i = arith.addf %%x, %%cx3 : %s" % elem,
                      "%%s = arith.mulf %%r, %%i : %s" % elem,
                      "%%t = math.tanh %%s : %s" % elem,
                      "%%p = arith.addf %%one, %%t : %s" % elem,
                      "%%q = arith.mulf %%x, %%p : %s" % elem,
                      "%%y = arith.mulf %%h, %%q : %s" % elem],
    }[fn]


_BINARY = {operator.add: "addf", torch.add: "addf", "add": "addf",
           operator.sub: "subf", torch.sub: "subf", "sub": "subf",
           operator.mul: "mulf", torch.mul: "mulf", "mul": "mulf",
           operator.truediv: "divf", torch.div: "divf", "div": "divf"}
_UNARY = {torch.exp: "exp", "exp": "exp", torch.sqrt: "sqrt", "sqrt": "sqrt",
          torch.rsqrt: "rsqrt", "rsqrt": "rsqrt", torch.sigmoid: "sigmoid",
          "sigmoid": "sigmoid", torch.tanh: "tanh", "tanh": "tanh",
          torch.neg: "neg", operator.neg: "neg", "neg": "neg",
          torch.nn.functional.silu: "silu", torch.nn.functional.gelu: "gelu",
          torch.nn.functional.sigmoid: "sigmoid"}
_MODULE_UNARY = {torch.nn.SiLU: "silu", torch.nn.GELU: "gelu",
                 torch.nn.Sigmoid: "sigmoid", torch.nn.Tanh: "tanh"}
_DTYPE_METHODS = {"float": torch.float32, "half": torch.float16,
                  "double": torch.float64, "bfloat16": torch.bfloat16}


def _region(shape, index):
    """The region `tensor[index]` selects: (offsets, sizes, kept), `kept`
    the dimensions an integer index does not drop. Static slices of step 1,
    integers and one Ellipsis."""
    if not isinstance(index, tuple):
        index = (index,)
    if sum(i is Ellipsis for i in index) > 1:
        raise UnsupportedOp("an index with more than one Ellipsis")
    if Ellipsis in index:
        at = index.index(Ellipsis)
        fill = len(shape) - (len(index) - 1)
        index = index[:at] + (slice(None),) * fill + index[at + 1:]
    if len(index) > len(shape):
        raise UnsupportedOp("an index of %d dimensions into a tensor of %d"
                            % (len(index), len(shape)))
    index = index + (slice(None),) * (len(shape) - len(index))
    offsets, sizes, kept = [], [], []
    for d, (i, extent) in enumerate(zip(index, shape)):
        if isinstance(i, bool) or not isinstance(i, (int, slice)):
            raise UnsupportedOp("index %r (static slices and integers only)"
                                % (i,))
        if isinstance(i, int):
            if not -extent <= i < extent:
                raise UnsupportedOp("index %d out of range %d" % (i, extent))
            offsets.append(i % extent)
            sizes.append(1)
            continue
        start, stop, step = i.indices(extent)
        if step != 1 or any(not isinstance(x, (int, type(None))) for x in
                            (i.start, i.stop, i.step)):
            raise UnsupportedOp("slice %r (static, step 1)" % (i,))
        offsets.append(start)
        sizes.append(max(0, stop - start))
        kept.append(d)
    return offsets, sizes, kept


def _narrow_index(rank, dim, start, length):
    """The index `t.narrow(dim, start, length)` selects."""
    index = [slice(None)] * rank
    # A negative start counts from the end: narrow(0, -2, 2) is [-2:].
    stop = start + length
    index[dim % rank] = slice(start, None if start < 0 <= stop else stop)
    return tuple(index)


def _sanitize(name):
    return "".join(c if c.isalnum() or c == "_" else "_" for c in name)


def export(module, example_inputs, name="forward"):
    """Returns (MLIR text of `@name`, [parameter tensors in argument order
    after the inputs])."""
    text, params, _ = export_module(module, example_inputs, name)
    return text, params


def export_module(module, example_inputs, name="forward"):
    """export's (text, parameters), and whether the module returns a
    tuple (or list) of tensors rather than one tensor: a 1-tuple stays a
    1-tuple for the caller."""
    try:
        gm = torch.fx.symbolic_trace(module)
    except Exception as e:  # torch.fx's own errors, of many types
        raise UnsupportedOp(
            "torch.fx cannot trace the module (%s: %s)%s" % (
                type(e).__name__, e,
                "; torch.fx before 2.0 cannot unpack a traced tuple on "
                "Python 3.11 (a, b = x.chunk(2)): index it (c[0], c[1])"
                if isinstance(e, IndexError) else "")) from None
    # Shapes and dtypes from a run on the meta device: no arithmetic (f16
    # matmuls have no CPU kernels in older PyTorch, and real sizes are
    # large), parameters and inputs as they are otherwise.
    meta_gm = torch.fx.symbolic_trace(copy.deepcopy(module).to("meta"))
    try:
        ShapeProp(meta_gm).propagate(*[
            x.to("meta") if isinstance(x, torch.Tensor) else x
            for x in example_inputs])
    except Exception as e:  # the module's own error on the example inputs
        raise UnsupportedOp("the module does not run on the example inputs "
                            "(as meta tensors): %s: %s" % (
                                type(e).__name__, e)) from None
    for node, meta_node in zip(gm.graph.nodes, meta_gm.graph.nodes):
        node.meta.update(meta_node.meta)
    em = _Emitter()
    values, args, params, arg_names = {}, [], [], set()

    def meta(node):
        m = node.meta.get("tensor_meta")
        if m is None or not hasattr(m, "shape"):
            raise UnsupportedOp("it does not produce one tensor")
        if m.dtype not in _ELEM:
            raise UnsupportedOp("its dtype is %s (f16, bf16, f32 or f64 only)"
                                % m.dtype)
        return tuple(m.shape), m.dtype

    # Arguments written in place (a KV cache's slice assignment): the SSA
    # name of the argument, by the node (input) or ("param", name) (buffer)
    # that holds its latest value, in order.
    mutated = {}
    arg_name_of = {}
    # Slices of inputs and buffers (getitem, narrow): (the tensor's node,
    # the index), so that copy_ into one writes the tensor.
    views = {}

    def argument(tensor_name, shape, dtype, like=None):
        ssa = "%%arg%d" % len(args)
        base = _sanitize(tensor_name)
        nm, k = base, 1
        while nm in arg_names:
            k += 1
            nm = "%s_%d" % (base, k)
        arg_names.add(nm)
        args.append("%s: %s {tile.name = \"%s\", tile.init = \"%s\"}" % (
            ssa, _tensor_type(shape, dtype), nm, _init_like(like)))
        arg_name_of[ssa] = nm
        return _Value(ssa, shape, dtype)

    def parameter(qualified):
        # By its attribute path: tied weights (one tensor under two names,
        # which named_parameters lists once) under either name.
        tensor = None
        for get in (gm.get_parameter, gm.get_buffer):
            try:
                tensor = get(qualified)
                break
            except AttributeError:
                pass
        if tensor is None:
            raise UnsupportedOp("attribute '%s' is not a tensor" % qualified)
        if qualified not in [p[0] for p in params]:
            # As they are now: later in-place updates of the module's
            # weights do not reach the kernel (on the CPU either).
            params.append((qualified, tensor.detach().clone()))
            values[("param", qualified)] = argument(
                qualified, tuple(tensor.shape), tensor.dtype, tensor)
        return values[("param", qualified)]

    def val(x):
        """A node's value; static indices and lists resolved within."""
        if isinstance(x, torch.fx.Node):
            return values[x]
        if isinstance(x, (list, tuple)):
            return type(x)(val(y) for y in x)
        if isinstance(x, slice):
            return slice(val(x.start), val(x.stop), val(x.step))
        return x

    results, placeholders, returns_tuple = [], 0, False
    for node in gm.graph.nodes:
        where = "node '%s' (%s)" % (node.name, node.format_node())
        try:
            if node.op == "placeholder":
                shape, dtype = meta(node)
                example = (example_inputs[placeholders]
                           if placeholders < len(example_inputs) else None)
                placeholders += 1
                values[node] = argument(node.target, shape, dtype, example)
                continue
            if node.op == "get_attr":
                values[node] = parameter(node.target)
                continue
            if node.op == "output":
                out = node.args[0]
                returns_tuple = isinstance(out, (tuple, list))
                results = list(out) if returns_tuple else [out]
                continue
            # In-place writes into a slice of an input or a buffer (a KV
            # cache): `t[index] = v` (operator.setitem, where tracing
            # records it) or `t[index].copy_(v)` / `t.narrow(...).copy_(v)`.
            write = None
            if node.target is operator.setitem:
                write = (node.args[0], val(node.args[1]), node.args[2])
            elif node.op == "call_method" and node.target == "copy_" and \
                    node.args[0] in views:
                dest, index = views[node.args[0]]
                write = (dest, index, node.args[1])
            if write is not None:
                dest, index, value = write
                if not isinstance(dest, torch.fx.Node) or \
                        dest.op not in ("placeholder", "get_attr"):
                    raise UnsupportedOp("assignment into a tensor that is "
                                        "not an input or a buffer")
                # A buffer's later get_attr nodes read its latest value.
                key = dest if dest.op == "placeholder" else (
                    "param", dest.target)
                before = values[key]
                mutated.setdefault(key, before.ssa)
                values[key] = values[dest] = _assign(em, before, index,
                                                     val(value))
                continue
            if node.op == "call_function" and \
                    getattr(node.target, "__module__", None) in (
                        "_operator", "operator") and not any(
                        isinstance(val(x), _Value) for x in node.args):
                # Arithmetic on static values (x.shape[0], pos + T).
                values[node] = node.target(*[val(x) for x in node.args])
                continue
            if node.target is getattr and node.args[1] in ("dtype",
                                                           "shape"):
                # x.dtype / x.shape: static, a Python value.
                v = values[node.args[0]]
                values[node] = v.dtype if node.args[1] == "dtype" else \
                    torch.Size(v.shape)
                continue
            if isinstance(node.args[0] if node.args else None,
                          torch.fx.Node) and \
                    node.args[0].op in ("placeholder", "get_attr"):
                # Slices of inputs and buffers, for copy_ into them.
                if node.target is operator.getitem:
                    views[node] = (node.args[0], val(node.args[1]))
                elif node.target in ("narrow", torch.narrow):
                    dim, start, length = (list(val(node.args[1:])) + [
                        node.kwargs.get(k) for k in ("dim", "start",
                                                     "length")])[:3]
                    views[node] = (node.args[0], _narrow_index(
                        len(values[node.args[0]].shape), dim, start, length))
            values[node] = _lower(em, node, val, parameter, gm, meta)
        except UnsupportedOp as e:
            raise UnsupportedOp("%s: %s" % (where, e)) from None
        except (KeyError, IndexError, TypeError, ValueError) as e:
            raise UnsupportedOp("%s: cannot export (%s: %s)" % (
                where, type(e).__name__, e)) from None

    outs = [values[r] for r in results]
    names = ["out" if len(outs) == 1 else "out%d" % i
             for i in range(len(outs))]
    # Each argument written in place is also a result of its own name: an
    # inout, updated in the caller's buffer.
    for key, ssa in mutated.items():
        outs.append(values[key])
        names.append(arg_name_of[ssa])
    head = "func.func @%s(%s) -> (%s) {" % (
        name, ",\n    ".join(args),
        ", ".join("%s {tile.name = \"%s\"}" % (o.type, n)
                  for o, n in zip(outs, names)))
    body = em.lines + ["  return %s : %s" % (
        ", ".join(o.ssa for o in outs), ", ".join(o.type for o in outs))]
    text = "\n".join([head] + body + ["}"]) + "\n"
    return text, [t for _, t in params], returns_tuple


def _init_like(tensor):
    """The tile.init distribution of an argument: the normal distribution
    with the mean and deviation of the tensor it stands for (a parameter's
    values, an example input), so that the seeded inputs of tile-opt's
    checks look like the real ones (weights of deviation 0.02, not 1, keep
    f16 activations finite); normal(0, 1) without a tensor or for a constant
    one."""
    if not isinstance(tensor, torch.Tensor) or tensor.numel() < 2:
        return "normal(0, 1)"
    t = tensor.detach().double()
    std = t.std().item()
    if not std > 0:
        return "normal(0, 1)"
    return "normal(%.6g, %.6g)" % (t.mean().item(), std)


def _dims(d, rank):
    if d is None:
        return list(range(rank))
    if isinstance(d, int):
        return [d % rank]
    return [x % rank for x in d]


def _lower(em, node, val, parameter, gm, meta):
    target, a, kw = node.target, [val(x) for x in node.args], {
        k: val(v) for k, v in node.kwargs.items()}
    name = target if isinstance(target, str) else getattr(
        target, "__name__", str(target))
    if target in (torch.chunk, "chunk", torch.split, "split"):
        # A tuple of slices (its getitem nodes pick them).
        return _split(em, name, a, kw)
    try:
        shape, dtype = meta(node)
    except UnsupportedOp as e:
        raise UnsupportedOp("%s '%s' is not supported (%s)" % (
            node.op, name, e)) from None
    if node.op == "call_module":
        sub = gm.get_submodule(target)
        if isinstance(sub, torch.nn.Linear):
            w = parameter(target + ".weight")
            r = em.contraction(a[0], w, True, dtype)
            if sub.bias is not None:
                b = parameter(target + ".bias")
                r = em.elementwise([r, b], dtype, lambda n: (
                    ["%%y = arith.addf %s, %s : %s" % (n[0], n[1],
                                                       _ELEM[dtype])], "%y"))
            return r
        for cls, fn in _MODULE_UNARY.items():
            if isinstance(sub, cls):
                if fn == "gelu":
                    fn = _gelu_kind(getattr(sub, "approximate", "none"))
                return em.elementwise([a[0]], dtype, lambda n, fn=fn: (
                    _unary_on(n[0], fn, dtype), "%y"))
        if isinstance(sub, torch.nn.Softmax):
            return _softmax(em, a[0], sub.dim, dtype)
        if isinstance(sub, torch.nn.LayerNorm):
            w = parameter(target + ".weight") if sub.weight is not None \
                else None
            b = parameter(target + ".bias") if sub.bias is not None else None
            return _layer_norm(em, a[0], len(sub.normalized_shape), w, b,
                               sub.eps, dtype)
        if isinstance(sub, (torch.nn.Identity, torch.nn.Dropout)):
            if isinstance(sub, torch.nn.Dropout) and sub.training:
                raise UnsupportedOp("Dropout in training mode (call "
                                    "module.eval())")
            return a[0]
        raise UnsupportedOp("module %s is not supported" % type(sub).__name__)

    if target in _BINARY or (node.op == "call_method" and target in _BINARY):
        op = _BINARY[target]
        if "alpha" in kw:
            raise UnsupportedOp("%s with alpha" % name)
        if kw.get("rounding_mode") is not None:
            raise UnsupportedOp("%s with rounding_mode=%r" % (
                name, kw["rounding_mode"]))
        return em.elementwise(a[:2], dtype, lambda n: (
            ["%%y = arith.%s %s, %s : %s" % (op, n[0], n[1], _ELEM[dtype])],
            "%y"))
    if target in _UNARY or (node.op == "call_method" and target in _UNARY):
        fn = _UNARY[target]
        if fn == "gelu":
            fn = _gelu_kind(kw.get("approximate", "none"))
        return em.elementwise([a[0]], dtype,
                              lambda n: (_unary_on(n[0], fn, dtype), "%y"))
    if target in (torch.pow, operator.pow, "pow"):
        if a[1] == 2:
            return em.elementwise([a[0]], dtype, lambda n: (
                _unary_on(n[0], "square", dtype), "%y"))
        if a[1] == 0.5:
            return em.elementwise([a[0]], dtype, lambda n: (
                _unary_on(n[0], "sqrt", dtype), "%y"))
        raise UnsupportedOp("pow with exponent %r (2 or 0.5)" % (a[1],))
    if target in (torch.sum, "sum", torch.mean, "mean", torch.amax, "amax"):
        kind = {"sum": "sum", "mean": "mean", "amax": "amax"}[
            target if isinstance(target, str) else target.__name__]
        x = a[0]
        d = a[1] if len(a) > 1 else kw.get("dim")
        keep = (a[2] if len(a) > 2 else kw.get("keepdim", False))
        if "dtype" in kw:
            raise UnsupportedOp("%s with dtype=" % kind)
        return em.reduce(x, _dims(d, len(x.shape)), keep, kind)
    if target in (torch.softmax, torch.nn.functional.softmax, "softmax"):
        d = a[1] if len(a) > 1 else kw.get("dim")
        if d is None:
            raise UnsupportedOp("softmax without dim")
        return _softmax(em, a[0], d, dtype)
    if target in (torch.matmul, operator.matmul, "matmul", torch.bmm, "bmm",
                  torch.mm, "mm"):
        return em.contraction(a[0], a[1], False, dtype)
    if target is torch.nn.functional.linear:
        r = em.contraction(a[0], a[1], True, dtype)
        bias = a[2] if len(a) > 2 else kw.get("bias")
        if bias is not None:
            r = em.elementwise([r, bias], dtype, lambda n: (
                ["%%y = arith.addf %s, %s : %s" % (n[0], n[1],
                                                   _ELEM[dtype])], "%y"))
        return r
    if target in ("to", "type") or target in _DTYPE_METHODS:
        return em.cast(a[0], dtype)
    if target in (torch.transpose, "transpose"):
        rank = len(a[0].shape)
        i, j = a[1] % rank, a[2] % rank
        perm = list(range(rank))
        perm[i], perm[j] = perm[j], perm[i]
        return em.permute(a[0], perm)
    if target in (torch.permute, "permute"):
        perm = a[1] if isinstance(a[1], (list, tuple)) else a[1:]
        return em.permute(a[0], [p % len(a[0].shape) for p in perm])
    if target in (torch.t, "t"):
        return em.permute(a[0], [1, 0])
    if target in (torch.reshape, "reshape", "view"):
        new = a[1] if isinstance(a[1], (list, tuple, torch.Size)) else a[1:]
        return em.reshape(a[0], list(new))
    if target is operator.getitem and isinstance(a[0], _Value):
        offsets, sizes, kept = _region(a[0].shape, a[1])
        r = a[0]
        if sizes != list(a[0].shape):
            r = em.extract(a[0], offsets, sizes)
        return em.collapse(r, kept)
    if target in (torch.cat, torch.concat, "cat"):
        tensors = list(a[0])
        d = a[1] if len(a) > 1 else kw.get("dim", 0)
        return em.concat(tensors, d % len(tensors[0].shape), dtype)
    if target in (torch.narrow, "narrow"):
        offsets, sizes, _ = _region(a[0].shape, _narrow_index(
            len(a[0].shape), a[1], a[2], a[3]))
        return em.extract(a[0], offsets, sizes)
    if target in ("contiguous", "clone"):
        return a[0]
    if target in (torch.where, "where") and len(a) == 3 or \
            target in (torch.masked_fill, "masked_fill"):
        # where(cond, x, y), x.masked_fill(mask, value): arith.select on
        # the boolean tensor.
        cond, x, y = (a if target in (torch.where, "where")
                      else (a[1], a[2], a[0]))
        if not isinstance(cond, _Value) or cond.dtype != torch.bool:
            raise UnsupportedOp("%s with a condition that is not a bool "
                                "tensor" % name)
        return em.elementwise([cond, x, y], dtype, lambda n: (
            ["%%y = arith.select %s, %s, %s : %s" % (n[0], n[1], n[2],
                                                    _ELEM[dtype])], "%y"))
    if target is torch.nn.functional.layer_norm:
        normalized = a[1] if len(a) > 1 else kw["normalized_shape"]
        w = a[2] if len(a) > 2 else kw.get("weight")
        b = a[3] if len(a) > 3 else kw.get("bias")
        eps = a[4] if len(a) > 4 else kw.get("eps", 1e-5)
        count = 1 if isinstance(normalized, int) else len(normalized)
        return _layer_norm(em, a[0], count, w, b, eps, dtype)
    if target is torch.nn.functional.dropout:
        if (a[2] if len(a) > 2 else kw.get("training", True)):
            raise UnsupportedOp("dropout with training=True")
        return a[0]
    if target in (torch.unsqueeze, "unsqueeze", torch.squeeze, "squeeze",
                  torch.flatten, "flatten"):
        # Unit dimensions added or removed, dimensions merged: the traced
        # result's shape says which.
        return em.reshape(a[0], list(shape))
    if target in ("expand", "expand_as", torch.broadcast_to):
        # Broadcast to the traced shape: x + 0 over it.
        zeros = _Value(em.filled(list(shape), a[0].dtype, "0.0"),
                       list(shape), a[0].dtype)
        return em.elementwise([a[0], zeros], a[0].dtype, lambda n: (
            ["%%y = arith.addf %s, %s : %s" % (n[0], n[1],
                                               _ELEM[a[0].dtype])], "%y"))
    if target == "type_as":
        return em.cast(a[0], a[1].dtype)
    raise UnsupportedOp("%s '%s' is not supported" % (node.op, name))


def _assign(em, dest, index, value):
    """`dest[index] = value` (a tensor of the region's shape, less the
    dimensions an integer drops, or one that broadcasts to it): the new
    value of dest."""
    offsets, sizes, kept = _region(dest.shape, index)
    region = [sizes[d] for d in kept]
    if not isinstance(value, _Value):
        raise UnsupportedOp("assignment of %r (a tensor only)" % (value,))
    if list(value.shape) != region:
        if len(value.shape) > len(region) or any(
                v not in (1, r) for v, r in zip(value.shape[::-1],
                                                region[::-1])):
            raise UnsupportedOp("assignment of a %s tensor into a %s region"
                                % (list(value.shape), region))
        # Broadcast to the region (elementwise copy).
        value = em.elementwise([value, _Value(em.filled(
            region, dest.dtype, "0.0"), region, dest.dtype)], dest.dtype,
            lambda n: (["%%y = arith.addf %s, %s : %s" % (
                n[0], n[1], _ELEM[dest.dtype])], "%y"))
    value = em.cast(value, dest.dtype)
    if len(kept) != len(sizes):
        value = em.expand(value, sizes, _unit_groups(len(sizes), kept))
    return em.insert(value, dest, offsets)


def _gelu_kind(approximate):
    """The body of gelu(approximate=...): erf, or its tanh approximation."""
    if approximate == "none":
        return "gelu"
    if approximate == "tanh":
        return "gelu_tanh"
    raise UnsupportedOp("gelu(approximate=%r)" % (approximate,))


def _split(em, name, a, kw):
    """chunk(x, n, dim) / split(x, size or sizes, dim): a tuple of slices
    of x along dim."""
    x = a[0]
    dim = (a[2] if len(a) > 2 else kw.get("dim", 0)) % len(x.shape)
    extent = x.shape[dim]
    arg = a[1] if len(a) > 1 else kw.get(
        "chunks" if name == "chunk" else "split_size_or_sections")
    if name == "chunk":
        step = -(-extent // arg)
        sizes = [min(step, extent - s) for s in range(0, extent, step)]
    elif isinstance(arg, int):
        sizes = [min(arg, extent - s) for s in range(0, extent, arg)]
    else:
        sizes = list(arg)
    parts, start = [], 0
    for size in sizes:
        offsets = [0] * len(x.shape)
        offsets[dim] = start
        shape = list(x.shape)
        shape[dim] = size
        parts.append(em.extract(x, offsets, shape) if size != extent else x)
        start += size
    return tuple(parts)


def _layer_norm(em, x, count, weight, bias, eps, dtype):
    """(x - mean) / sqrt(var + eps) * weight + bias over the last `count`
    dimensions, the statistics in f32 for narrower inputs."""
    work = torch.float32 if x.dtype != torch.float64 else x.dtype
    elem = _ELEM[work]
    dims = list(range(len(x.shape) - count, len(x.shape)))
    xf = em.cast(x, work)
    mean = em.reduce(xf, dims, True, "mean")
    centered = em.elementwise([xf, mean], work, lambda n: (
        ["%%y = arith.subf %s, %s : %s" % (n[0], n[1], elem)], "%y"))
    square = em.elementwise([centered], work, lambda n: (
        _unary_on(n[0], "square", work), "%y"))
    var = em.reduce(square, dims, True, "mean")
    y = em.elementwise([centered, var, float(eps)], work, lambda n: (
        ["%%v = arith.addf %s, %s : %s" % (n[1], n[2], elem),
         "%%r = math.rsqrt %%v : %s" % elem,
         "%%y = arith.mulf %s, %%r : %s" % (n[0], elem)], "%y"))
    if weight is not None:
        y = em.elementwise([y, weight], work, lambda n: (
            ["%%y = arith.mulf %s, %s : %s" % (n[0], n[1], elem)], "%y"))
    if bias is not None:
        y = em.elementwise([y, bias], work, lambda n: (
            ["%%y = arith.addf %s, %s : %s" % (n[0], n[1], elem)], "%y"))
    return em.cast(y, dtype)


def _unary_on(x, fn, dtype):
    return [line.replace("%x", x) for line in _unary(fn, _ELEM[dtype])]


def _softmax(em, x, dim, dtype):
    """exp(x - max) / sum, in f32 for narrower inputs."""
    work = torch.float32 if x.dtype != torch.float64 else x.dtype
    xf = em.cast(x, work)
    m = em.reduce(xf, [dim], True, "amax")
    elem = _ELEM[work]
    e = em.elementwise([xf, m], work, lambda n: (
        ["%%s = arith.subf %s, %s : %s" % (n[0], n[1], elem),
         "%%y = math.exp %%s : %s" % elem], "%y"))
    s = em.reduce(e, [dim], True, "sum")
    p = em.elementwise([e, s], work, lambda n: (
        ["%%y = arith.divf %s, %s : %s" % (n[0], n[1], elem)], "%y"))
    return em.cast(p, dtype)
