"""Modules the torch.fx exporter (tile_opt.fx) once got silently wrong,
each compiled without the optimizer and run on the host emulation against
eager PyTorch; one line per check for fx-regressions.test's FileCheck."""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.environ["TILE_SRC_ROOT"], "python"))
import tile_opt  # noqa: E402
from tile_opt import fx  # noqa: E402


def rel(a, b):
    a, b = a.double(), b.double()
    return ((a - b).abs().max() / b.abs().max()).item()


def compiled(module, inputs):
    return tile_opt.compile(module, inputs, optimize=False)


torch.manual_seed(0)
x = torch.randn(4, 16)


# nn.GELU(approximate='tanh') and F.gelu(..., approximate='tanh') were
# exported as the erf GELU (4e-4 off).
class TanhGelu(torch.nn.Module):
    def __init__(self, functional):
        super().__init__()
        self.functional = functional
        self.act = torch.nn.GELU(approximate="tanh")

    def forward(self, x):
        y = 3.0 * x
        if self.functional:
            return torch.nn.functional.gelu(y, approximate="tanh")
        return self.act(y)


for functional in (False, True):
    m = TanhGelu(functional)
    erf = torch.nn.functional.gelu(3.0 * x)
    out = compiled(m, (x,))(x)
    print("tanh gelu (%s): rel_err<1e-5 %s, differs from erf %s" % (
        "functional" if functional else "module", rel(out, m(x)) < 1e-5,
        rel(out, erf) > 1e-5))


# torch.div(..., rounding_mode=...) was exported as a true division.
class FloorDiv(torch.nn.Module):
    def forward(self, x):
        return torch.div(x, 0.7, rounding_mode="floor")


try:
    fx.export(FloorDiv(), (x,))
    print("rounding_mode: NOT RAISED")
except fx.UnsupportedOp as e:
    print("rounding_mode: %s" % str(e).rsplit("): ", 1)[1])


# A module returning a 1-tuple (Hugging Face's `return (h,)`) got a bare
# tensor back, so out[0] was a row.
class OneTuple(torch.nn.Module):
    def forward(self, x):
        return (x * 2.0,)


out = compiled(OneTuple(), (x,))(x)
print("1-tuple: %s %s" % (type(out).__name__, list(out[0].shape)))

# out= on the CPU path was not checked (a wrong shape was broadcast-filled,
# a wrong dtype cast, extra tensors accepted).
kernel = compiled(OneTuple(), (x,))
for bad in (torch.empty(5, 2, 16), torch.empty(4, 16, dtype=torch.half),
            (torch.empty(4, 16), torch.empty(4, 16))):
    try:
        kernel(x, out=bad)
        print("out=: NOT RAISED")
    except (TypeError, ValueError) as e:
        print("out=: %s" % e)


# bf16 <-> f16 casts wrote an arith.truncf between types of one width.
class HalfOfBf16(torch.nn.Module):
    def forward(self, x):
        return x.half() * 2.0


xb = x.bfloat16()
out = compiled(HalfOfBf16(), (xb,))(xb)
print("bf16 -> f16: %s rel_err<1e-3 %s" % (
    out.dtype, rel(out, HalfOfBf16()(xb)) < 1e-3))


# narrow with a negative start selected nothing sensible (an invalid
# slice); a batch-broadcast matmul gave invalid linalg instead of a refusal.
class NarrowEnd(torch.nn.Module):
    def forward(self, x):
        return x.narrow(0, -2, 2) * 2.0


out = compiled(NarrowEnd(), (x,))(x)
print("narrow(0, -2, 2): rel_err<1e-6 %s" % (rel(out, NarrowEnd()(x)) < 1e-6))


class BroadcastBmm(torch.nn.Module):
    def forward(self, a, b):
        return torch.matmul(a, b)


try:
    fx.export(BroadcastBmm(), (torch.randn(1, 3, 8), torch.randn(4, 8, 5)))
    print("broadcast bmm: NOT RAISED")
except fx.UnsupportedOp as e:
    print("broadcast bmm: %s" % str(e).rsplit("): ", 1)[1])


# Tied weights (one parameter under two names) were refused: "attribute
# 'b.weight' is not a tensor".
class Tied(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Linear(16, 16, bias=False)
        self.b = torch.nn.Linear(16, 16, bias=False)
        self.b.weight = self.a.weight

    def forward(self, x):
        return self.b(self.a(x))


tied = Tied()
out = compiled(tied, (x,))(x)
print("tied weights: rel_err<1e-5 %s" % (rel(out, tied(x)) < 1e-5))

# The parameters are the module's as they were at compile time: the CPU
# path read the live tensors.
before = tied(x).detach()
kernel = compiled(tied, (x,))
with torch.no_grad():
    tied.a.weight.mul_(2.0)
print("weights at compile time: rel_err<1e-5 %s" % (
    rel(kernel(x), before) < 1e-5))


# Ops once refused, now exported (each against eager).
class LayerNormModule(torch.nn.Module):
    def __init__(self, affine):
        super().__init__()
        self.ln = torch.nn.LayerNorm(16, elementwise_affine=affine)

    def forward(self, x):
        return self.ln(x)


class LayerNormFunctional(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.randn(16))
        self.b = torch.nn.Parameter(torch.randn(16))

    def forward(self, x):
        return torch.nn.functional.layer_norm(x, (16,), self.w, self.b, 1e-5)


class Attention4D(torch.nn.Module):
    def forward(self, q, k, v):
        a = torch.softmax(torch.matmul(q, k.transpose(-1, -2)) * 0.25, dim=-1)
        return torch.matmul(a, v)


class RopeChunk(torch.nn.Module):
    def forward(self, x, cos, sin):
        cos, sin = cos.unsqueeze(0), sin.unsqueeze(0)
        halves = x.chunk(2, dim=-1)
        rot = torch.cat((-halves[1], halves[0]), dim=-1)
        return (x * cos + rot * sin).flatten(0, 1)


class RepeatKV(torch.nn.Module):
    def forward(self, k):
        return k.unsqueeze(1).expand(2, 3, 5, 8).reshape(6, 5, 8) * 1.0


class Passthrough(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.drop = torch.nn.Dropout(0.1)
        self.same = torch.nn.Identity()

    def forward(self, x, y):
        return self.same(self.drop(x)) + y.type_as(x)


for name, module, inputs in [
        ("nn.LayerNorm", LayerNormModule(True), (torch.randn(4, 16),)),
        ("nn.LayerNorm without affine", LayerNormModule(False),
         (torch.randn(4, 16),)),
        ("F.layer_norm", LayerNormFunctional(), (torch.randn(2, 3, 16),)),
        ("4-D matmul", Attention4D(), (torch.randn(1, 2, 3, 8),
                                       torch.randn(1, 2, 5, 8),
                                       torch.randn(1, 2, 5, 8))),
        ("chunk, unsqueeze, flatten", RopeChunk(),
         (torch.randn(2, 3, 8), torch.randn(3, 8), torch.randn(3, 8))),
        ("unsqueeze, expand", RepeatKV(), (torch.randn(2, 5, 8),)),
        ("Dropout (eval), Identity, type_as", Passthrough().eval(),
         (torch.randn(4, 8), torch.randn(4, 8).half()))]:
    out = compiled(module, inputs)(*inputs)
    print("%s: rel_err<1e-5 %s" % (name, rel(out, module(*inputs)) < 1e-5))

try:
    fx.export(Passthrough().train(), (x, x))
    print("Dropout (training): NOT RAISED")
except fx.UnsupportedOp as e:
    print("Dropout (training): %s" % str(e).rsplit(": ", 1)[1])


# Bool masks (an input): where and masked_fill, -inf included.
class MaskedScores(torch.nn.Module):
    def __init__(self, how):
        super().__init__()
        self.how = how

    def forward(self, q, k, mask):
        s = q @ k.transpose(0, 1) * 0.25
        if self.how == "where":
            s = torch.where(mask, s, s * 0.0 - 1e4)
        else:
            s = s.masked_fill(mask, float("-inf"))
        return torch.softmax(s, dim=-1)


q, k = torch.randn(4, 8), torch.randn(6, 8)
mask = torch.rand(4, 6) > 0.3
mask[:, 0], mask[:, 1] = True, False
for how in ("where", "masked_fill"):
    for dtype, limit in ((torch.float32, 1e-5), (torch.float16, 1e-2)):
        m = MaskedScores(how)
        qq, kk = q.to(dtype), k.to(dtype)
        out = compiled(m, (qq, kk, mask))(qq, kk, mask)
        ref = m(qq.float(), kk.float(), mask)
        print("%s %s: rel_err<%g %s, finite %s" % (
            how, str(dtype).split(".")[1], limit,
            rel(out.float(), ref) < limit, bool(torch.isfinite(out).all())))
