"""A seeded generator of small random TensorFlow programs with first, second and third
derivatives, for the differential run against TensorFlow (``record.py``).

``generate(seed)`` returns the source text of one program: a few inputs (Variables or watched
constants, float32 or float64), a chain of differentiable operations that a first course meets
(arithmetic with broadcasting, exp/log/sin/tanh/sigmoid/relu/softplus/square/sqrt/pow,
reductions, matmul, reshape/transpose/slicing, concat/stack, where, maximum/minimum, softmax,
...), then one way of differentiating it: gradients with ``unconnected_gradients``, persistent
tapes, nested tapes (2nd and 3rd order), ``jacobian``, ``batch_jacobian``, ``output_gradients``,
a Hessian as the jacobian of a gradient. A few programs go wrong on purpose (shape mismatches,
mixed dtypes, a second ``gradient`` on a non-persistent tape, ...) so that exception classes and
messages are compared too. The generator tracks shapes and a bound on the values so that the
programs are well defined (``log``/``sqrt``/division see positive values, ``exp`` moderate ones).
"""
from __future__ import annotations

import random

import numpy as np


class _Val:
    def __init__(self, name, shape, bound, low=None, rowwise=True):
        self.name, self.shape, self.bound = name, tuple(shape), float(bound)
        self.low = low            # a positive lower bound on the values, or None
        self.rowwise = rowwise    # row i depends only on row i of x (batch_jacobian)


def _literal(rng, shape, lo=-1.5, hi=1.5):
    a = np.atleast_1d(np.round(rng.uniform(lo, hi, size=shape), 3))
    a[np.abs(a) < 0.05] = 0.35   # no value on a kink (relu at 0, abs at 0)
    return repr(a.tolist()) if shape else repr(float(a[0]))


class _Builder:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.nrng = np.random.default_rng(seed)
        self.lines: list[str] = []
        self.vals: list[_Val] = []
        self.n = 0

    def emit(self, line):
        self.lines.append(line)

    def new(self, code, shape, bound, low=None, rowwise=True):
        name = f"h{self.n}"
        self.n += 1
        self.emit(f"{name} = {code}")
        v = _Val(name, shape, bound, low, rowwise)
        self.vals.append(v)
        return v

    # ---- one operation on the values so far --------------------------------------------
    def step(self, batch):
        r = self.rng
        if self.n == 0:
            a = self.vals[0]                      # the chain starts at x
        elif r.random() < 0.6:
            a = self.vals[-1]
        else:
            a = r.choice(self.vals[-3:])
        choices = ["unary"] * 6 + ["binary"] * 4 + ["scalar"] * 2 + ["shape"] * 2 + \
                  ["reduce"] * 2 + ["matmul", "softmax", "where", "minmax", "concat", "misc"] + \
                  ["extra"] * 4
        kind = r.choice(choices)
        s, b = a.shape, a.bound
        if kind == "extra":
            v = self.extra(a, batch)
            if v is not None:
                return v
            kind = "unary"
        if kind == "unary":
            ops = ["tf.sin", "tf.cos", "tf.tanh", "tf.sigmoid", "tf.nn.relu", "tf.nn.softplus",
                   "tf.math.sigmoid", "tf.nn.elu", "tf.nn.leaky_relu", "tf.abs", "tf.nn.relu6",
                   "tf.math.atan", "tf.nn.swish", "tf.math.erf"]
            if b <= 3:
                ops += ["tf.exp", "tf.math.exp"]
            if b <= 10:
                ops += ["tf.square", "tf.math.square"]
            if a.low and a.low >= 0.05:
                ops += ["tf.math.log", "tf.sqrt", "tf.math.log", "tf.math.reciprocal"]
            op = r.choice(ops)
            bound = {"tf.sin": 1, "tf.cos": 1, "tf.tanh": 1, "tf.sigmoid": 1,
                     "tf.math.sigmoid": 1, "tf.math.atan": 1.6, "tf.math.erf": 1,
                     "tf.nn.relu6": min(b, 6), "tf.exp": np.exp(b), "tf.math.exp": np.exp(b),
                     "tf.square": b * b, "tf.math.square": b * b, "tf.nn.softplus": b + 1,
                     "tf.math.log": max(abs(np.log(a.low or 1)), np.log(b + 1)) + 1,
                     "tf.sqrt": np.sqrt(b) + 1,
                     "tf.math.reciprocal": 1 / (a.low or 1)}.get(op, b + 1)
            low = {"tf.sigmoid": 1 / (1 + np.exp(b)), "tf.math.sigmoid": 1 / (1 + np.exp(b)),
                   "tf.exp": np.exp(-b), "tf.math.exp": np.exp(-b),
                   "tf.nn.softplus": np.log1p(np.exp(-b)),
                   "tf.sqrt": np.sqrt(a.low) if a.low else None,
                   "tf.math.reciprocal": 1 / b if a.low else None}.get(op)
            return self.new(f"{op}({a.name})", s, bound, low, a.rowwise)
        if kind == "binary":
            others = [v for v in self.vals if _broadcastable(v.shape, s)
                      and (not batch or v.rowwise or len(v.shape) < 2)]
            c = r.choice(others)
            shape = tuple(np.broadcast_shapes(s, c.shape))
            rowwise = a.rowwise and c.rowwise
            op = r.choice(["+", "-", "*", "/"] if c.low and c.low >= 0.1 else ["+", "-", "*"])
            if op == "*" and a.bound * c.bound > 50:
                op = "+"
            bound = {"+": b + c.bound, "-": b + c.bound, "*": b * c.bound,
                     "/": b / (c.low or 1)}[op]
            low = a.low + c.low if op == "+" and a.low and c.low else None
            if op == "*" and a.low and c.low:
                low = a.low * c.low
            if r.random() < 0.3:
                fn = {"+": "tf.add", "-": "tf.subtract", "*": "tf.multiply", "/": "tf.divide"}[op]
                return self.new(f"{fn}({a.name}, {c.name})", shape, bound, low, rowwise)
            return self.new(f"{a.name} {op} {c.name}", shape, bound, low, rowwise)
        if kind == "scalar":
            k = r.choice([0.5, 2.0, 3.0, 1.5, -0.7])
            form = r.choice(["mul", "add", "rsub", "pow2", "sq1", "pow"])
            if form == "mul":
                return self.new(f"{a.name} * {k}", s, b * abs(k), None, a.rowwise)
            if form == "add":
                return self.new(f"{a.name} + {k}", s, b + abs(k), None, a.rowwise)
            if form == "rsub":
                return self.new(f"{k} - {a.name}", s, b + abs(k), None, a.rowwise)
            if form == "pow2" and b <= 10:
                return self.new(f"{a.name} ** 2", s, b * b, None, a.rowwise)
            if form == "pow" and a.low and a.low >= 0.05:
                e = r.choice([0.5, 1.5, 3.0, -1.0])
                fn = r.choice(["tf.pow", "tf.math.pow"])
                return self.new(f"{fn}({a.name}, {e})", s, (b + 1) ** 3 + 1 / a.low, None,
                                a.rowwise)
            return self.new(f"tf.square({a.name}) + 1.0", s, b * b + 1, 1.0, a.rowwise)
        if kind == "shape" and len(s) >= 1:
            if batch:
                if len(s) == 2 and s[1] >= 2:
                    return self.new(f"{a.name}[:, 1:]", (s[0], s[1] - 1), b, a.low, a.rowwise)
                return self.new(f"tf.identity({a.name})", s, b, a.low, a.rowwise)
            forms = ["flat", "slice"] + (["transpose", "col", "reshape2"] if len(s) == 2 else
                                         ["reshape2"] if s[0] % 2 == 0 else [])
            form = r.choice(forms)
            if form == "flat":
                return self.new(f"tf.reshape({a.name}, [-1])", (int(np.prod(s)),), b, a.low,
                                False)
            if form == "slice" and s[0] >= 2:
                return self.new(f"{a.name}[1:]", (s[0] - 1,) + s[1:], b, a.low, False)
            if form == "transpose":
                return self.new(f"tf.transpose({a.name})", (s[1], s[0]), b, a.low, False)
            if form == "col":
                return self.new(f"{a.name}[..., 0]", (s[0],), b, a.low, False)
            if form == "reshape2" and len(s) == 1 and s[0] % 2 == 0:
                return self.new(f"tf.reshape({a.name}, [2, -1])", (2, s[0] // 2), b, a.low,
                                False)
            return self.new(f"{a.name}[::-1]", s, b, a.low, False)
        if kind == "reduce" and len(s) >= 1:
            fn = r.choice(["tf.reduce_sum", "tf.reduce_mean", "tf.reduce_max",
                           "tf.reduce_min", "tf.math.reduce_logsumexp"]
                          + (["tf.reduce_prod"] if b < 3 else []))
            if batch and len(s) == 2:
                return self.new(f"{fn}({a.name}, axis=-1, keepdims=True)", (s[0], 1),
                                b * s[1] + 2, None, a.rowwise)
            axis = r.choice([None] + list(range(len(s))))
            keep = r.random() < 0.3
            if axis is None:
                shape = tuple(1 for _ in s) if keep else ()
                args = ", keepdims=True" if keep else ""
            else:
                shape = tuple(1 if i == axis else d for i, d in enumerate(s)) if keep else \
                    tuple(d for i, d in enumerate(s) if i != axis)
                args = f", axis={axis}" + (", keepdims=True" if keep else "")
            n = int(np.prod(s))
            bound = b ** n if fn == "tf.reduce_prod" else b * n + 3
            return self.new(f"{fn}({a.name}{args})", shape, bound, None, False)
        if kind == "matmul" and len(s) == 2:
            k = self.rng.choice([1, 2, 3])
            w = _literal(self.nrng, (s[1], k))
            if not batch and self.rng.random() < 0.4 and b <= 5:
                return self.new(f"tf.matmul({a.name}, {a.name}, transpose_b=True)",
                                (s[0], s[0]), b * b * s[1], None, False)
            op = self.rng.choice(["tf.matmul({}, W)", "{} @ W", "tf.linalg.matmul({}, W)"])
            self.emit(f"W = tf.constant({w}, dtype=DT)")
            return self.new(op.format(a.name), (s[0], k), b * 1.5 * s[1], None, a.rowwise)
        if kind == "softmax" and len(s) >= 1:
            fn = r.choice(["tf.nn.softmax", "tf.nn.log_softmax", "tf.math.softmax"])
            if fn == "tf.nn.log_softmax":
                return self.new(f"{fn}({a.name})", s, 2 * b + 3, None, a.rowwise)
            return self.new(f"{fn}({a.name})", s, 1, None, a.rowwise)
        if kind == "where":
            others = [v for v in self.vals if v.shape == s and v is not a]
            if others:
                c = r.choice(others)
                return self.new(f"tf.where({a.name} > {c.name}, {a.name}, {c.name} * 0.5)", s,
                                max(b, c.bound), None, a.rowwise and c.rowwise)
            return self.new(f"tf.where({a.name} > 0.2, {a.name}, tf.zeros_like({a.name}))", s,
                            b, None, a.rowwise)
        if kind == "minmax":
            others = [v for v in self.vals if v.shape == s and v is not a]
            c = r.choice(others) if others else None
            fn = r.choice(["tf.maximum", "tf.minimum"])
            if c is None:
                return self.new(f"{fn}({a.name}, 0.3)", s, b + 0.3, None, a.rowwise)
            return self.new(f"{fn}({a.name}, {c.name})", s, max(b, c.bound), None,
                            a.rowwise and c.rowwise)
        if kind == "concat" and len(s) >= 1:
            others = [v for v in self.vals if v.shape == s]
            c = r.choice(others)
            if batch:
                if len(s) == 2:
                    return self.new(f"tf.concat([{a.name}, {c.name}], axis=1)",
                                    (s[0], 2 * s[1]), max(b, c.bound), None,
                                    a.rowwise and c.rowwise)
                return self.new(f"tf.identity({a.name})", s, b, a.low, a.rowwise)
            if r.random() < 0.5:
                return self.new(f"tf.concat([{a.name}, {c.name}], axis=0)",
                                (2 * s[0],) + s[1:], max(b, c.bound), None, False)
            return self.new(f"tf.stack([{a.name}, {c.name}])", (2,) + s, max(b, c.bound), None,
                            False)
        # misc: clip, stop_gradient, ops with no or zero gradients, casts
        form = r.choice(["clip", "stop", "sign", "floor", "round", "cast", "norm", "l2"])
        if form == "clip":
            return self.new(f"tf.clip_by_value({a.name}, -0.5, 0.8)", s, 0.8, None, a.rowwise)
        if form == "stop":
            return self.new(f"tf.stop_gradient({a.name}) * {a.name}", s, b * b, None,
                            a.rowwise)
        if form in ("sign", "floor", "round"):
            return self.new(f"tf.{form}({a.name}) + {a.name}", s, 2 * b + 1, None, a.rowwise)
        if form == "cast":
            return self.new(f"tf.cast(tf.cast({a.name}, OTHER), DT)", s, b, a.low, a.rowwise)
        if form == "norm" and not batch:
            return self.new(f"tf.norm({a.name})", (), b * 4, None, False)
        return self.new(f"tf.sin({a.name}) * {a.name}", s, b * b, None, a.rowwise)


def _extra(self, a, batch):
    """Second-round operations: more functions, shape ops with accumulation (gather with
    repeated indices, tile), norms, small linear algebra, losses."""
    r = self.rng
    s, b = a.shape, a.bound
    rw = a.rowwise
    forms = ["log_sigmoid", "selu", "gelu", "silu", "asinh", "negative", "sqdiff", "nonan"]
    if b <= 3:
        forms += ["expm1", "sinh", "cosh"]
    if b <= 1.2:
        forms += ["tan"]
    if a.low and a.low >= 0.1:
        forms += ["rsqrt", "log1p", "xlogy"]
    if len(s) >= 1 and not batch:
        forms += ["cumsum", "reverse", "gather", "tile", "pad", "expand", "l2n", "clipnorm",
                  "std", "var", "norm_axis", "xent", "sxent", "einsum_dot"]
        if b < 2:
            forms += ["cumprod"]
    if len(s) == 2 and not batch:
        forms += ["einsum_w"]
        if s[0] == s[1] or s[0] <= 3:
            forms += ["det", "inv", "trace"]
    if batch and len(s) == 2:
        forms += ["l2n", "xent", "std", "cumsum_row"]
    form = r.choice(forms)
    n = a.name
    simple = {"log_sigmoid": ("tf.math.log_sigmoid({})", b + 1), "selu": ("tf.nn.selu({})", 2 * b),
              "gelu": ("tf.nn.gelu({})", b + 1), "silu": ("tf.nn.silu({})", b + 1),
              "asinh": ("tf.math.asinh({})", b), "negative": ("tf.math.negative({})", b),
              "expm1": ("tf.math.expm1({})", np.exp(b)), "sinh": ("tf.math.sinh({})", np.exp(b)),
              "cosh": ("tf.math.cosh({})", np.exp(b)), "tan": ("tf.math.tan({})", 3),
              "rsqrt": ("tf.math.rsqrt({})", 1 / np.sqrt(a.low or 1) + 1),
              "log1p": ("tf.math.log1p({})", np.log1p(b) + 1)}
    if form in simple:
        code, bound = simple[form]
        low = {"cosh": 1.0, "rsqrt": 1 / np.sqrt(b) if a.low else None}.get(form)
        return self.new(code.format(n), s, bound, low, rw)
    others = [v for v in self.vals if v.shape == s and v is not a]
    c = r.choice(others) if others else a
    if form == "sqdiff":
        return self.new(f"tf.math.squared_difference({n}, {c.name})", s, (b + c.bound) ** 2,
                        None, rw and c.rowwise)
    if form == "nonan":
        fn = r.choice(["tf.math.divide_no_nan", "tf.math.multiply_no_nan"])
        if fn == "tf.math.divide_no_nan" and not (c.low and c.low >= 0.1):
            return self.new(f"tf.math.divide_no_nan({n}, tf.zeros_like({n}))", s, 1, None, rw)
        bound = b / (c.low or 1) if "divide" in fn else b * c.bound
        return self.new(f"{fn}({n}, {c.name})", s, bound, None, rw and c.rowwise)
    if form == "xlogy":
        return self.new(f"tf.math.xlogy({c.name}, {n})", s, c.bound * (abs(np.log(a.low)) +
                                                                     np.log(b + 1)), None,
                        rw and c.rowwise)
    if form == "cumsum":
        rev = r.choice(["", ", reverse=True", ", exclusive=True"])
        return self.new(f"tf.math.cumsum({n}, axis=0{rev})", s, b * s[0], None, False)
    if form == "cumsum_row":
        return self.new(f"tf.math.cumsum({n}, axis=1)", s, b * s[1], None, rw)
    if form == "cumprod":
        return self.new(f"tf.math.cumprod({n}, axis=0)", s, 2, None, False)
    if form == "reverse":
        return self.new(f"tf.reverse({n}, [0])", s, b, a.low, False)
    if form == "gather":
        idx = [r.randrange(s[0]) for _ in range(r.choice([2, 3, 4]))]
        return self.new(f"tf.gather({n}, {idx})", (len(idx),) + s[1:], b, a.low, False)
    if form == "tile":
        reps = [2] + [1] * (len(s) - 1)
        return self.new(f"tf.tile({n}, {reps})", (2 * s[0],) + s[1:], b, a.low, False)
    if form == "pad":
        pads = [[1, 0]] + [[0, 1]] * (len(s) - 1)
        shape = tuple(d + 1 for d in s)
        return self.new(f"tf.pad({n}, {pads})", shape, b, None, False)
    if form == "expand":
        return self.new(f"tf.squeeze(tf.expand_dims({n}, 0) * 2.0, axis=0)", s, 2 * b, None,
                        False)
    if form == "l2n":
        return self.new(f"tf.nn.l2_normalize({n}, axis=-1)", s, 1, None, rw)
    if form == "clipnorm":
        return self.new(f"tf.clip_by_norm({n}, 1.0)", s, min(b, 1.0), None, False)
    if form in ("std", "var"):
        fn = "tf.math.reduce_std" if form == "std" else "tf.math.reduce_variance"
        if batch:
            return self.new(f"{fn}({n}, axis=-1, keepdims=True)", (s[0], 1), b * b + 1, None,
                            rw)
        return self.new(f"{fn}({n}, axis=0)", s[1:], b * b + 1, None, False)
    if form == "norm_axis":
        return self.new(f"tf.norm({n}, axis=-1)", s[:-1], b * s[-1], None, False)
    if form == "xent":
        labels = self.nrng.dirichlet(np.ones(s[-1]), size=s[:-1]).round(3)
        self.emit(f"L = tf.constant({labels.tolist()!r}, dtype=DT)")
        return self.new(f"tf.nn.softmax_cross_entropy_with_logits(labels=L, logits={n})",
                        s[:-1], 2 * b + 3, None, False)
    if form == "sxent":
        labels = self.nrng.uniform(0.05, 0.95, size=s).round(3)
        self.emit(f"L = tf.constant({labels.tolist()!r}, dtype=DT)")
        return self.new(f"tf.nn.sigmoid_cross_entropy_with_logits(labels=L, logits={n})", s,
                        b + 1, None, rw)
    if form == "einsum_dot":
        spec = "i,i->" if len(s) == 1 else "ij,ij->i"
        return self.new(f"tf.einsum('{spec}', {n}, {c.name})", s[:1] if len(s) == 2 else (),
                        b * c.bound * int(np.prod(s)), None, False)
    if form == "einsum_w":
        w = _literal(self.nrng, (s[1], 2))
        self.emit(f"W = tf.constant({w}, dtype=DT)")
        return self.new(f"tf.einsum('ij,jk->ik', {n}, W)", (s[0], 2), b * 1.5 * s[1], None,
                        False)
    # square matrices from a (m, k) value: m m^T + I is well conditioned
    m = s[0]
    sq = f"(tf.matmul({n}, {n}, transpose_b=True) + tf.eye({m}, dtype=DT))"
    if form == "det":
        return self.new(f"tf.linalg.det({sq})", (), (b * b * s[1] + 1) ** m, None, False)
    if form == "inv":
        return self.new(f"tf.linalg.inv({sq})", (m, m), 1.0, None, False)
    return self.new(f"tf.linalg.trace({sq})", (), m * (b * b * s[1] + 1), None, False)


_Builder.extra = _extra


def _broadcastable(s1, s2):
    try:
        np.broadcast_shapes(s1, s2)
        return True
    except ValueError:
        return False


_ERRORS = [
    # (code, needs)
    "bad = tf.constant([1.0, 2.0, 3.0, 4.0, 5.0], dtype=DT)\nout.append(h_last + bad)",
    "out.append(tf.matmul(tf.reshape(h_last, [1, -1]), tf.ones([7, 2], dtype=DT)))",
    "out.append(tf.reduce_sum(h_last, axis=5))",
    "out.append(h_last + tf.constant(1.0, dtype=OTHER))",
    "out.append(tf.reshape(h_last, [7, -1, 3]))",
    "out.append(tf.concat([h_last, tf.ones([1, 1, 1, 1], dtype=DT)], axis=0))",
]


def generate(seed: int) -> str:
    """The source text of program number ``seed``."""
    b = _Builder(seed)
    r = b.rng
    dtype = r.choice(["float32", "float64"])
    other = "float64" if dtype == "float32" else "float32"
    mode = r.choice(["grad", "grad", "grad2", "grad2", "grad2", "grad3", "jacobian",
                     "batch_jacobian", "output_gradients", "hessian", "persistent", "error",
                     "forward", "hvp", "targets"])
    batch = mode == "batch_jacobian"
    if batch:
        xs = (r.choice([2, 3]), r.choice([2, 3]))
        ys = r.choice([(xs[1],), (), xs])
    else:
        xs = r.choice([(3,), (4,), (2, 3), (3, 2), ()])
        ys = r.choice([xs, (), xs[-1:] if xs else ()])
        if mode in ("jacobian", "hessian") and np.prod(xs) > 6:
            xs = (3,)
            ys = r.choice([xs, ()])
    variables = r.random() < 0.6
    b.emit(f"DT = tf.{dtype}")
    b.emit(f"OTHER = tf.{other}")
    for name, shape in (("x", xs), ("y", ys)):
        lit = _literal(b.nrng, shape)
        if variables:
            if r.random() < 0.5:
                b.emit(f"{name} = tf.Variable({lit}, dtype=DT)")
            else:
                b.emit(f"{name} = tf.Variable(tf.constant({lit}, dtype=DT))")
        else:
            b.emit(f"{name} = tf.constant({lit}, dtype=DT)")
    b.emit(f"z = {'tf.Variable' if variables else 'tf.constant'}({_literal(b.nrng, ())}, "
           f"dtype=DT)")
    unconnected = r.choice(["", "", ", unconnected_gradients=tf.UnconnectedGradients.ZERO",
                            ", unconnected_gradients='zero'",
                            ", unconnected_gradients=tf.UnconnectedGradients.NONE"])
    depth = r.randint(2, 5)
    body_start = len(b.lines)
    b.vals.append(_Val("x", xs, 1.5))
    b.vals.append(_Val("y", ys, 1.5))  # y is not x: any row of it is fine for batch_jacobian
    with np.errstate(over="ignore"):
        for _ in range(depth):
            b.step(batch)
    last = b.vals[-1]
    # the final value should depend on x most of the time
    if r.random() < 0.8 and last.shape == xs and "x" not in " ".join(b.lines[body_start:]):
        b.new(f"{last.name} * x", xs, last.bound * 1.5)
        last = b.vals[-1]
    body = b.lines[body_start:]
    del b.lines[body_start:]
    if variables:
        watch = []
    else:
        watch = ["x", "y", "z"] if r.random() < 0.8 else ["x"]
    emit = b.emit

    f = last.name
    scalar = f"tf.reduce_sum({f})" if last.shape else f
    if mode in ("grad", "persistent", "error"):
        persistent = mode == "persistent" or r.random() < 0.3
        emit(f"with tf.GradientTape({'persistent=True' if persistent else ''}) as tape:")
        for w in watch:
            emit(f"    tape.watch({w})")
        for line in body:
            emit("    " + line)
        emit(f"    loss = {scalar}")
        emit("out.append(loss)")
        if mode == "error":
            code = r.choice(_ERRORS + ["out.append(tape.gradient(loss, x))\n"
                                       "out.append(tape.gradient(loss, x))"])
            if "tape.gradient" in code and persistent:
                code = "out.append(tape.gradient(loss, x, output_gradients=tf.ones([9], "
                code += "dtype=DT)))"
            emit(code.replace("h_last", f))
        else:
            emit(f"out.append(tape.gradient(loss, [x, y, z]{unconnected}))")
            if persistent:
                mid = b.vals[min(2, len(b.vals) - 1)].name
                emit(f"out.append(tape.gradient({mid}, {{'x': x, 'y': y}}))")
                emit(f"out.append(tape.gradient(loss, x))")
    elif mode in ("grad2", "grad3"):
        order = 2 if mode == "grad2" else 3
        tapes = [f"t{i}" for i in range(order)]
        for i, t in enumerate(reversed(tapes)):
            emit("    " * i + f"with tf.GradientTape() as {t}:")
        pad = "    " * order
        for w in watch:
            for t in tapes:
                emit(pad + f"{t}.watch({w})")
        for line in body:
            emit(pad + line)
        emit(pad + f"loss = {scalar}")
        # innermost tape is t0
        prev = "loss"
        for i, t in enumerate(tapes):
            pad = "    " * (order - 1 - i)
            src = "x" if i == 0 or r.random() < 0.8 else "y"
            uc = unconnected if i == order - 1 else ""
            emit(pad + f"d{i + 1} = {t}.gradient({prev}, {src}{uc})")
            emit(pad + f"out.append(d{i + 1})")
            prev = f"d{i + 1}"
            if i < order - 1:
                emit(pad + f"if d{i + 1} is None:")
                emit(pad + f"    d{i + 1} = tf.zeros_like(x)")
                if r.random() < 0.4:
                    emit(pad + f"d{i + 1} = tf.reduce_sum(d{i + 1} * d{i + 1})")
    elif mode in ("jacobian", "batch_jacobian", "hessian"):
        if mode == "hessian":
            emit("with tf.GradientTape() as outer:")
            emit("    with tf.GradientTape() as inner:")
            for w in watch:
                emit(f"        inner.watch({w})")
                emit(f"        outer.watch({w})")
            for line in body:
                emit("        " + line)
            emit(f"        loss = {scalar}")
            emit("    g = inner.gradient(loss, x)")
            emit("    if g is None:")
            emit("        g = tf.zeros_like(x)")
            emit("out.append(g)")
            emit(f"out.append(outer.jacobian(g, x{unconnected}))")
        else:
            persistent = r.random() < 0.3
            emit(f"with tf.GradientTape({'persistent=True' if persistent else ''}) as tape:")
            for w in watch:
                emit(f"    tape.watch({w})")
            for line in body:
                emit("    " + line)
            emit(f"out.append({f})")
            if mode == "batch_jacobian" and len(last.shape) == 2 and last.shape[0] == xs[0] \
                    and last.rowwise:
                emit(f"out.append(tape.batch_jacobian({f}, x{unconnected}))")
            else:
                emit(f"out.append(tape.jacobian({f}, x{unconnected}))")
            if persistent:
                emit(f"out.append(tape.jacobian({f}, [y, z]{unconnected}))")
    elif mode == "forward":
        # forward mode: the JVP of every value along a tangent of x
        tangent = _literal(b.nrng, xs)
        emit(f"with tf.autodiff.ForwardAccumulator(x, tf.constant({tangent}, dtype=DT)) as acc:")
        for line in body:
            emit("    " + line)
        emit(f"out.append({f})")
        emit(f"out.append(acc.jvp({f}{unconnected}))")
    elif mode == "hvp":
        # forward-over-backward: a Hessian-vector product
        tangent = _literal(b.nrng, xs)
        emit(f"with tf.autodiff.ForwardAccumulator(x, tf.constant({tangent}, dtype=DT)) as acc:")
        emit("    with tf.GradientTape() as tape:")
        if not variables:
            emit("        tape.watch(x)")
        for line in body:
            emit("        " + line)
        emit(f"        loss = {scalar}")
        emit("    g = tape.gradient(loss, x, unconnected_gradients='zero')")
        emit("out.append(g)")
        emit("out.append(acc.jvp(g, unconnected_gradients='zero'))")
    elif mode == "targets":
        # several targets at once, a gradient w.r.t. an intermediate value, watched variables
        mid = b.vals[min(len(b.vals) - 1, 2 + r.randrange(2))].name
        emit("with tf.GradientTape(persistent=True) as tape:")
        for w in watch:
            emit(f"    tape.watch({w})")
        for line in body:
            emit("    " + line)
        emit(f"out.append(tape.gradient([{f}, {mid}], [x, y]{unconnected}))")
        emit(f"out.append(tape.gradient({{'a': {f}, 'b': [{mid}]}}, x))")
        if mid != "x":
            emit(f"out.append(tape.gradient({f}, {mid}))")
        emit("out.append(len(tape.watched_variables()))")
    elif mode == "output_gradients":
        emit("with tf.GradientTape() as tape:")
        for w in watch:
            emit(f"    tape.watch({w})")
        for line in body:
            emit("    " + line)
        emit(f"out.append({f})")
        u = _literal(b.nrng, last.shape)
        emit(f"out.append(tape.gradient({f}, [x, y], output_gradients=tf.constant({u}, "
             f"dtype=DT){unconnected}))")
    return "\n".join(b.lines) + "\n"


if __name__ == "__main__":
    import sys
    for s in sys.argv[1:] or ["0"]:
        print(f"# --- program {s}")
        print(generate(int(s)))
