"""Every differentiable minitape operation against central finite differences (float64).

Property-based: for each operation, hypothesis draws shapes (scalars, broadcasting pairs,
size-0 arrays), axes, keepdims and a seed for the values; the tape's first-order gradient is
compared with central differences of the function, and the second-order gradient (a tape
around a tape) with central differences of the first-order tape gradient.

Values are drawn on each operation's domain (log and sqrt on positive numbers, solve and inv
on well-conditioned matrices) and away from kinks (abs, relu, max, clip...), where finite
differences are meaningless.
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import minitape as tf
from _mt_numeric import check_first_order, check_second_order

SETTINGS = dict(deadline=None, database=None, suppress_health_check=list(HealthCheck),
                phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink])
N_FIRST = 25
N_SECOND = 12

# ------------------------------------------------------------------------------------------
# Value generators (NumPy float64 arrays of a given shape)
# ------------------------------------------------------------------------------------------


def real(rng, shape):
    return rng.uniform(-2.0, 2.0, size=shape)


def pos(rng, shape):
    return rng.uniform(0.5, 2.0, size=shape)


def away0(rng, shape):
    return rng.uniform(0.3, 2.0, size=shape) * rng.choice([-1.0, 1.0], size=shape)


def unit(rng, shape):
    return rng.uniform(-0.8, 0.8, size=shape)


def distinct(rng, shape):
    """All values at least 0.2 apart (max/min/sort have a unique winner), |x| >= 0.1."""
    n = int(np.prod(shape, dtype=int))
    vals = (rng.permutation(n) - n / 2.0) * 0.4 + 0.2 + rng.uniform(-0.05, 0.05, size=n)
    return vals.reshape(shape)


def well_conditioned(rng, shape):
    """Square matrices (batched) close to a multiple of the identity."""
    n = shape[-1]
    return rng.uniform(-0.5, 0.5, size=shape) + 2.0 * np.eye(n)


# ------------------------------------------------------------------------------------------
# Shape strategies
# ------------------------------------------------------------------------------------------

shapes = hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=3)
shapes_nonempty = hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=3)
shapes_rank1 = hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=3)
broadcast2 = hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=3, min_side=0,
                                               max_side=3)
broadcast3 = hnp.mutually_broadcastable_shapes(num_shapes=3, min_dims=0, max_dims=3, min_side=0,
                                               max_side=3)


def axis_args(data, ndim):
    """(axis, keepdims): None, an int (maybe negative), or a list of distinct axes."""
    kind = data.draw(st.sampled_from(["none", "int", "list"]) if ndim else st.just("none"))
    if kind == "none":
        axis = None
    elif kind == "int":
        axis = data.draw(st.integers(-ndim, ndim - 1))
    else:
        axes = data.draw(st.lists(st.integers(0, ndim - 1), unique=True, max_size=ndim))
        axis = [a - ndim if data.draw(st.booleans()) else a for a in axes]
    return axis, data.draw(st.booleans())


# ------------------------------------------------------------------------------------------
# The operations: each case draws (function of tensors, list of float64 arrays)
# ------------------------------------------------------------------------------------------

CASES = {}


def case(name):
    def deco(fn):
        CASES[name] = fn
        return fn
    return deco


def unary(name, op, gen=real, shape_st=shapes):
    @case(name)
    def _c(data, rng):
        return op, [gen(rng, data.draw(shape_st))]


def binary(name, op, gen_x=real, gen_y=real, shape_st=broadcast2):
    @case(name)
    def _c(data, rng):
        sx, sy = data.draw(shape_st).input_shapes
        return op, [gen_x(rng, sx), gen_y(rng, sy)]


# element-wise unary
unary("negative", tf.negative)
unary("abs", tf.abs, away0)
unary("sign", lambda x: tf.sign(x) * x, away0)  # sign's own gradient is zero
unary("sin", tf.sin)
unary("cos", tf.cos)
unary("tan", tf.tan, unit)
unary("asin", tf.math.asin, unit)
unary("acos", tf.math.acos, unit)
unary("atan", tf.math.atan)
unary("sinh", tf.math.sinh)
unary("cosh", tf.math.cosh)
unary("tanh", tf.tanh)
unary("exp", tf.exp)
unary("expm1", tf.math.expm1)
unary("log", tf.math.log, pos)
unary("log1p", tf.math.log1p, unit)
unary("sqrt", tf.sqrt, pos)
unary("rsqrt", tf.math.rsqrt, pos)
unary("square", tf.square)
unary("reciprocal", tf.math.reciprocal, away0)
unary("sigmoid", tf.sigmoid)
unary("softplus", tf.math.softplus)
unary("erf", tf.math.erf)
unary("erfc", tf.math.erfc)
unary("relu", tf.nn.relu, away0)
unary("relu6", tf.nn.relu6, lambda r, s: away0(r, s) * 4)
unary("elu", tf.nn.elu, away0)
unary("leaky_relu", lambda x: tf.nn.leaky_relu(x, alpha=0.3), away0)
unary("silu", tf.nn.silu)
unary("identity", tf.identity)
unary("l2_loss", tf.nn.l2_loss)
unary("pow_scalar_exponent", lambda x: x ** 3.0 + 2.0 ** x, real)
unary("rpow_scalar_base", lambda x: tf.pow(2.5, x))
unary("operators", lambda x: (1.0 - x) * 2.0 / (x * x + 1.0) + (-x) + abs(x) % 7.0, away0)
unary("polyval", lambda x: tf.math.polyval([tf.constant(1.5, tf.float64), 2.0, -1.0], x))
unary("sigmoid_xent", lambda x: tf.nn.sigmoid_cross_entropy_with_logits(
    labels=tf.constant(np.full(x.shape, 0.3)), logits=x))

# element-wise binary, with broadcasting (e.g. (3, 1) with (4,)) and size-0 shapes
binary("add", tf.add)
binary("subtract", tf.subtract)
binary("multiply", tf.multiply)
binary("divide", tf.divide, real, away0)
binary("pow", tf.pow, pos, real)
binary("squared_difference", tf.math.squared_difference)
binary("atan2", tf.math.atan2, real, pos)
binary("add_n", lambda x, y: tf.add_n([x, y, x]), shape_st=broadcast2.filter(
    lambda b: b.input_shapes[0] == b.input_shapes[1]))


@case("maximum")
def _maximum(data, rng):
    sx, sy = data.draw(broadcast2).input_shapes
    x = real(rng, sx)
    y = real(rng, sy)
    # keep |x - y| >= 0.1 wherever they meet
    d = np.broadcast_to(x, np.broadcast_shapes(sx, sy)) - np.broadcast_to(y, np.broadcast_shapes(sx, sy))
    if d.size and np.min(np.abs(d)) < 0.1:
        x = x + 10.0
    return tf.maximum, [x, y]


@case("minimum")
def _minimum(data, rng):
    f, arrs = _maximum(data, rng)
    return tf.minimum, arrs


@case("floormod")
def _floormod(data, rng):
    sx, sy = data.draw(broadcast2).input_shapes
    y = pos(rng, sy)
    # x = k*y + r with r well inside (0, y): away from floormod's jumps
    shape = np.broadcast_shapes(sx, sy)
    x = rng.integers(-3, 3, size=sx) * 2.0 + rng.uniform(0.3, 0.45, size=sx)
    yb = np.broadcast_to(y, shape)
    xb = np.broadcast_to(x, shape)
    frac = xb / yb - np.floor(xb / yb)
    if frac.size and (np.min(frac) < 0.02 or np.max(frac) > 0.98):
        return tf.math.floormod, [x, np.full(sy, 2.0)]
    return tf.math.floormod, [x, y]


@case("where")
def _where(data, rng):
    sc, sx, sy = data.draw(broadcast3).input_shapes
    cond = rng.uniform(size=sc) > 0.5
    return (lambda x, y: tf.where(tf.constant(cond), tf.sin(x), y * 2.0)), [real(rng, sx), real(rng, sy)]


# reductions: axis None / int / negative / lists, keepdims, size-0 arrays
def reduction(name, op, gen=real, shape_st=shapes):
    @case(name)
    def _c(data, rng):
        shape = data.draw(shape_st)
        axis, keep = axis_args(data, len(shape))
        return (lambda x: op(x, axis=axis, keepdims=keep)), [gen(rng, shape)]


reduction("reduce_sum", tf.reduce_sum)
reduction("reduce_mean", tf.reduce_mean, shape_st=shapes_nonempty)
reduction("reduce_max", tf.reduce_max, distinct, shapes_nonempty)
reduction("reduce_min", tf.reduce_min, distinct, shapes_nonempty)
reduction("reduce_prod", tf.reduce_prod, away0)
reduction("reduce_logsumexp", tf.reduce_logsumexp, shape_st=shapes_nonempty)
reduction("reduce_variance", tf.math.reduce_variance, shape_st=shapes_nonempty)


@case("reduce_std")
def _std(data, rng):
    # at least two elements reduced together (the std of one number is 0, where sqrt has no slope)
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=2, max_side=3))
    axis, keep = axis_args(data, len(shape))
    if isinstance(axis, list) and not axis:
        axis = None
    return (lambda x: tf.math.reduce_std(x, axis=axis, keepdims=keep)), [distinct(rng, shape)]
reduction("reduce_euclidean_norm", tf.math.reduce_euclidean_norm, away0, shapes_nonempty)


@case("reduce_prod_with_zero")
def _prod_zero(data, rng):
    shape = data.draw(shapes_rank1)
    x = away0(rng, shape)
    x.reshape(-1)[data.draw(st.integers(0, x.size - 1))] = 0.0
    axis, keep = axis_args(data, len(shape))
    return (lambda t: tf.reduce_prod(t, axis=axis, keepdims=keep)), [x]


@case("norm")
def _norm(data, rng):
    shape = data.draw(shapes_rank1)
    ord_ = data.draw(st.sampled_from(["euclidean", 1, np.inf, 3.0]))
    axis = data.draw(st.sampled_from([None, -1, 0]))
    keep = data.draw(st.booleans())
    x = distinct(rng, shape)
    return (lambda t: tf.norm(t, ord=ord_, axis=axis, keepdims=keep)), [x]


@case("cumsum")
def _cumsum(data, rng):
    shape = data.draw(shapes_rank1)
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    ex, rev = data.draw(st.booleans()), data.draw(st.booleans())
    return (lambda t: tf.math.cumsum(t, axis=axis, exclusive=ex, reverse=rev)), [real(rng, shape)]


@case("cumprod")
def _cumprod(data, rng):
    shape = data.draw(shapes_rank1)
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    ex, rev = data.draw(st.booleans()), data.draw(st.booleans())
    return (lambda t: tf.math.cumprod(t, axis=axis, exclusive=ex, reverse=rev)), [away0(rng, shape)]


@case("softmax")
def _softmax(data, rng):
    shape = data.draw(shapes_rank1)
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    return (lambda t: tf.nn.softmax(t, axis=axis)), [real(rng, shape)]


@case("log_softmax")
def _log_softmax(data, rng):
    shape = data.draw(shapes_rank1)
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    return (lambda t: tf.nn.log_softmax(t, axis=axis)), [real(rng, shape)]


@case("softmax_cross_entropy")
def _xent(data, rng):
    b, k = data.draw(st.integers(1, 3)), data.draw(st.integers(1, 4))
    labels = rng.dirichlet(np.ones(k), size=b)
    return (lambda t: tf.nn.softmax_cross_entropy_with_logits(labels=tf.constant(labels), logits=t)), \
        [real(rng, (b, k))]


@case("sparse_softmax_cross_entropy")
def _sxent(data, rng):
    b, k = data.draw(st.integers(1, 3)), data.draw(st.integers(1, 4))
    labels = rng.integers(0, k, size=b)
    return (lambda t: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=t)), \
        [real(rng, (b, k))]


@case("moments")
def _moments(data, rng):
    shape = data.draw(shapes_rank1)
    axes = data.draw(st.lists(st.integers(0, len(shape) - 1), unique=True, min_size=1))
    keep = data.draw(st.booleans())

    def f(t):
        m, v = tf.nn.moments(t, axes=axes, keepdims=keep)
        return m * 3.0 + v
    return f, [real(rng, shape)]


@case("l2_normalize")
def _l2n(data, rng):
    shape = data.draw(shapes_rank1)
    axis = data.draw(st.sampled_from([None, 0, -1]))
    return (lambda t: tf.math.l2_normalize(t, axis=axis)), [away0(rng, shape)]


@case("clip_by_value")
def _clip_value(data, rng):
    shape = data.draw(shapes)
    x = rng.uniform(0.05, 0.4, size=shape) * rng.choice([-1.0, 1.0], size=shape)
    x = x + rng.choice([-1.0, 0.0, 1.0], size=shape)  # below, inside, above [-0.5, 0.5]
    return (lambda t: tf.clip_by_value(t, -0.5, 0.5) * t), [x]


@case("clip_by_norm")
def _clip_norm(data, rng):
    shape = data.draw(shapes_rank1)
    x = away0(rng, shape)
    factor = data.draw(st.sampled_from([0.5, 2.0]))  # clipped or not, away from the kink
    c = float(np.linalg.norm(x)) * factor
    return (lambda t: tf.clip_by_norm(t, c)), [x]


@case("clip_by_norm_axes")
def _clip_norm_axes(data, rng):
    shape = (data.draw(st.integers(1, 3)), data.draw(st.integers(1, 3)))
    x = away0(rng, shape)
    scale = rng.choice([0.5, 2.0], size=(shape[0], 1))  # rows' norms: 0.5 or 2 (clip at 1)
    x = x / np.linalg.norm(x, axis=1, keepdims=True) * scale
    return (lambda t: tf.clip_by_norm(t, 1.0, axes=[1])), [x]


# shapes and indexing
@case("reshape")
def _reshape(data, rng):
    shape = data.draw(shapes)
    n = int(np.prod(shape, dtype=int))
    new = data.draw(st.sampled_from([(n,), (-1,), (1, n), (n, 1, 1)]))
    return (lambda t: tf.reshape(t, new)), [real(rng, shape)]


@case("transpose")
def _transpose(data, rng):
    shape = data.draw(shapes)
    perm = data.draw(st.permutations(list(range(len(shape))))) if shape else []
    return (lambda t: tf.transpose(t, perm=perm if perm else None)), [real(rng, shape)]


@case("expand_squeeze")
def _expand(data, rng):
    shape = data.draw(shapes)
    ax = data.draw(st.integers(-len(shape) - 1, len(shape)))
    return (lambda t: tf.squeeze(tf.expand_dims(t, ax) * 2.0, axis=ax)), [real(rng, shape)]


@case("broadcast_to")
def _broadcast(data, rng):
    shape = data.draw(shapes)
    target = data.draw(st.sampled_from([(2,), (3, 1)])) + tuple(shape)
    return (lambda t: tf.broadcast_to(t, target)), [real(rng, shape)]


GETITEM_KEYS = [
    ((3, 4), lambda t: t[1]),
    ((3, 4), lambda t: t[:, 1:3]),
    ((3, 4), lambda t: t[::-1, ::2]),
    ((3, 4), lambda t: t[..., None, -1]),
    ((3, 4), lambda t: t[tf.newaxis]),
    # index arrays (a Python list is TF's tuple of indices): repeated indices accumulate
    ((3, 4), lambda t: t[np.array([0, 2, 2])]),
    ((3, 4), lambda t: t[1:3, np.array([0, 3, 0])]),
    ((3, 4), lambda t: t[t.numpy() > 0]),               # boolean mask
    ((5,), lambda t: t[-2]),
    ((5,), lambda t: t[1:-1]),
    ((0, 3), lambda t: t[:, 1]),
    ((2, 0), lambda t: t[1]),
]


@case("getitem")
def _getitem(data, rng):
    shape, fn = data.draw(st.sampled_from(GETITEM_KEYS))
    return fn, [real(rng, shape)]


@case("iterate_unstack")
def _iterate(data, rng):
    shape = data.draw(shapes_rank1)
    return (lambda t: tf.stack([row * float(i + 1) for i, row in enumerate(t)])), [real(rng, shape)]


@case("concat")
def _concat(data, rng):
    shape = list(data.draw(shapes_rank1))
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    k = data.draw(st.integers(1, 3))
    arrs = []
    for _ in range(k):
        s = list(shape)
        s[axis] = data.draw(st.integers(0, 3))
        arrs.append(real(rng, tuple(s)))
    return (lambda *ts: tf.concat(list(ts), axis=axis)), arrs


@case("stack")
def _stack(data, rng):
    shape = data.draw(shapes)
    axis = data.draw(st.integers(-len(shape) - 1, len(shape)))
    k = data.draw(st.integers(1, 3))
    return (lambda *ts: tf.stack(list(ts), axis=axis)), [real(rng, shape) for _ in range(k)]


@case("unstack_split")
def _unstack(data, rng):
    shape = data.draw(shapes_rank1)
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))

    def f(t):
        parts = tf.unstack(t, axis=axis)
        halves = tf.split(t, [1, t.shape[axis] - 1], axis=axis)
        return tf.add_n([p * float(i + 1) for i, p in enumerate(parts)]) + tf.reduce_sum(
            halves[1] ** 2) + tf.reduce_sum(halves[0] * 3.0)
    return f, [real(rng, shape)]


@case("gather")
def _gather(data, rng):
    shape = data.draw(shapes_rank1)
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    ishape = data.draw(hnp.array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=3))
    idx = rng.integers(0, shape[axis], size=ishape)  # repeats are likely: they must add up
    return (lambda t: tf.gather(t, idx, axis=axis)), [real(rng, shape)]


@case("tile")
def _tile(data, rng):
    shape = data.draw(shapes_rank1)
    mult = [data.draw(st.integers(1, 3)) for _ in shape]
    return (lambda t: tf.tile(t, mult)), [real(rng, shape)]


@case("pad")
def _pad(data, rng):
    shape = data.draw(shapes_rank1)
    mode = data.draw(st.sampled_from(["CONSTANT", "REFLECT", "SYMMETRIC"]))
    most = {"CONSTANT": lambda n: 2, "REFLECT": lambda n: n - 1, "SYMMETRIC": lambda n: n}[mode]
    pads = [[data.draw(st.integers(0, most(n))), data.draw(st.integers(0, most(n)))] for n in shape]
    return (lambda t: tf.pad(t, pads, mode=mode, constant_values=1.5) ** 2), [real(rng, shape)]


@case("reverse")
def _reverse(data, rng):
    shape = data.draw(shapes_rank1)
    axes = data.draw(st.lists(st.integers(0, len(shape) - 1), unique=True, min_size=1))
    return (lambda t: tf.reverse(t, axes)), [real(rng, shape)]


# linear algebra
@case("matmul")
def _matmul(data, rng):
    m, k, n = (data.draw(st.integers(0, 3)) for _ in range(3))  # 0: empty products
    batch = data.draw(st.sampled_from([((), ()), ((2,), (2,)), ((2,), ()), ((1,), (3,))]))
    ta, tb = data.draw(st.booleans()), data.draw(st.booleans())
    sa = batch[0] + ((k, m) if ta else (m, k))
    sb = batch[1] + ((n, k) if tb else (k, n))
    return (lambda a, b: tf.matmul(a, b, transpose_a=ta, transpose_b=tb)), [real(rng, sa), real(rng, sb)]


@case("matmul_operator")
def _matmul_op(data, rng):
    n = data.draw(st.integers(1, 3))
    return (lambda a, b: (a @ b) @ a), [real(rng, (n, n)), real(rng, (n, n))]


EINSUM_SPECS = [
    ("ij,jk->ik", [(2, 3), (3, 4)]),
    ("ij->ji", [(2, 3)]),
    ("ij->", [(2, 3)]),
    ("ij->j", [(2, 3)]),
    ("bij,bjk->bik", [(2, 2, 3), (2, 3, 2)]),
    ("i,i->", [(4,), (4,)]),
    ("i,j->ij", [(2,), (3,)]),
    ("ijk,k->ij", [(2, 3, 2), (2,)]),
    ("ij,ij->i", [(3, 2), (3, 2)]),
    ("ij,jk", [(2, 3), (3, 2)]),        # implicit output
    ("ij,kj->ik", [(2, 0), (3, 0)]),    # contraction over an empty axis
    ("ii->", [(3, 3)]),                 # trace: repeated index
    ("ii->i", [(3, 3)]),                # diagonal
    ("iji->j", [(2, 3, 2)]),
    ("ij,jj->i", [(2, 3), (3, 3)]),
    ("...ij,...jk->...ik", [(1, 2, 3), (2, 3, 2)]),   # ellipsis, with broadcasting
    ("...i,...i", [(2, 3), (3,)]),      # implicit output keeps the ellipsis
    ("i...->...", [(2, 3, 2)]),
    ("b...,b->...", [(2, 3), (2,)]),
]


@case("einsum")
def _einsum(data, rng):
    spec, shp = data.draw(st.sampled_from(EINSUM_SPECS))
    return (lambda *ts: tf.einsum(spec, *ts)), [real(rng, s) for s in shp]


@case("tensordot")
def _tensordot(data, rng):
    axes, sa, sb = data.draw(st.sampled_from([
        (1, (2, 3), (3, 2)), (2, (2, 3, 2), (3, 2, 4)), ([[0], [1]], (3, 2), (2, 3)), (0, (2,), (3,))]))
    return (lambda a, b: tf.tensordot(a, b, axes)), [real(rng, sa), real(rng, sb)]


def batch_sq(data):
    n = data.draw(st.integers(0, 3))  # 0x0 matrices: det 1, empty inverse
    batch = data.draw(st.sampled_from([(), (2,)]))
    return batch + (n, n)


@case("inv")
def _inv(data, rng):
    return tf.linalg.inv, [well_conditioned(rng, batch_sq(data))]


@case("det")
def _det(data, rng):
    return tf.linalg.det, [well_conditioned(rng, batch_sq(data))]


@case("solve")
def _solve(data, rng):
    s = batch_sq(data)
    k = data.draw(st.integers(1, 3))
    adj = data.draw(st.booleans())
    return (lambda a, b: tf.linalg.solve(a, b, adjoint=adj)), \
        [well_conditioned(rng, s), real(rng, s[:-1] + (k,))]


@case("matvec_trace_diag")
def _matvec(data, rng):
    n = data.draw(st.integers(1, 3))

    def f(a, v):
        return tf.linalg.matvec(a, v) * tf.linalg.trace(a) + tf.linalg.diag_part(
            tf.linalg.matrix_transpose(a)) * tf.linalg.global_norm([a, v])
    return f, [real(rng, (n, n)), real(rng, (n,))]


# more of TensorFlow's operations (compositions and primitives added to the engine)
unary("asinh", tf.math.asinh)
unary("acosh", tf.math.acosh, lambda r, s: r.uniform(1.2, 3.0, size=s))
unary("atanh", tf.math.atanh, unit)
unary("log_sigmoid", tf.math.log_sigmoid)
unary("softsign", tf.nn.softsign, away0)
unary("gelu", tf.nn.gelu)
unary("gelu_tanh", lambda x: tf.nn.gelu(x, approximate=True))
unary("selu", tf.nn.selu, away0)
unary("reciprocal_no_nan", tf.math.reciprocal_no_nan, away0)
unary("diag", tf.linalg.diag, shape_st=shapes_rank1)
binary("divide_no_nan", tf.math.divide_no_nan, real, away0)
binary("multiply_no_nan", tf.math.multiply_no_nan, real, away0)
binary("xlogy", tf.math.xlogy, away0, pos)
binary("xdivy", tf.math.xdivy, away0, away0)


@case("sort")
def _sort(data, rng):
    shape = data.draw(shapes_rank1)
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    direction = data.draw(st.sampled_from(["ASCENDING", "DESCENDING"]))
    return (lambda t: tf.sort(t, axis=axis, direction=direction) * tf.constant(
        np.arange(1.0, 1.0 + shape[axis]).reshape((-1,) + (1,) * (len(shape) - 1 - axis % len(shape))))), \
        [distinct(rng, shape)]


@case("top_k")
def _top_k(data, rng):
    shape = data.draw(shapes_rank1)
    k = data.draw(st.integers(0, shape[-1]))
    return (lambda t: tf.math.top_k(t, k=k).values ** 2), [distinct(rng, shape)]


@case("boolean_mask")
def _boolean_mask(data, rng):
    shape = data.draw(shapes_rank1)
    axis = data.draw(st.integers(0, len(shape) - 1))
    k = data.draw(st.integers(1, len(shape) - axis))
    mask = rng.uniform(size=shape[axis:axis + k]) > 0.4
    return (lambda t: tf.boolean_mask(t, mask, axis=axis) * 2.0), [real(rng, shape)]


@case("gather_nd")
def _gather_nd(data, rng):
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=3))
    bd = data.draw(st.integers(0, len(shape) - 1))
    depth = data.draw(st.integers(1, len(shape) - bd))
    inner = data.draw(hnp.array_shapes(min_dims=0, max_dims=2, min_side=1, max_side=3))
    idx = np.stack([rng.integers(0, shape[bd + j], size=shape[:bd] + inner) for j in range(depth)], axis=-1)
    return (lambda t: tf.gather_nd(t, idx, batch_dims=bd)), [real(rng, shape)]


@case("gather_nd_rows")
def _gather_nd_rows(data, rng):
    """Whole rows (indices of shape (k, 1)): TF's GatherNd whose gradient is an IndexedSlices."""
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=3))
    k = data.draw(st.integers(1, 4))
    idx = rng.integers(0, shape[0], size=(k, 1))
    return (lambda t: tf.gather_nd(t, idx) * 1.5), [real(rng, shape)]


@case("slogdet")
def _slogdet(data, rng):
    a = well_conditioned(rng, batch_sq(data))
    if a.shape[-1]:
        a[..., 0, :] *= -1.0  # negative determinants: log|det| is still smooth
    return (lambda t: tf.linalg.slogdet(t)[1]), [a]


@case("logdet")
def _logdet(data, rng):
    return tf.linalg.logdet, [well_conditioned(rng, batch_sq(data))]


# ------------------------------------------------------------------------------------------
# The tests
# ------------------------------------------------------------------------------------------

NAMES = sorted(CASES)
# Second order at an exact zero of reduce_prod goes through cumprod's gradient, which divides by
# the input (TensorFlow's rule has the same limitation): first order only there.
# Operations whose gradient has no gradient in TF (differentiating twice, or forward mode,
# raises LookupError there and here): checked to first order only.
NO_SECOND_ORDER = {"softsign"}  # SoftsignGrad
FIRST_ORDER_ONLY = {"reduce_prod_with_zero"} | NO_SECOND_ORDER


def test_softsign_has_no_second_derivative_as_in_tf():
    x = tf.constant([0.5, -1.])
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = tf.nn.softsign(x)
        g = t1.gradient(y, x)
    np.testing.assert_allclose(g.numpy(), [1 / 1.5 ** 2, 0.25])
    with pytest.raises(LookupError, match="no entry for: SoftsignGrad"):
        t2.gradient(g, x)
    with pytest.raises(LookupError, match="no entry for: SoftsignGrad"):
        with tf.autodiff.ForwardAccumulator(x, tf.ones([2])):
            tf.nn.softsign(x)


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=N_FIRST, **SETTINGS)
@given(data=st.data(), seed=st.integers(0, 2**31 - 1))
def test_first_order_matches_finite_differences(name, data, seed):
    f, arrs = CASES[name](data, np.random.default_rng(seed))
    check_first_order(f, arrs, seed=seed)


@pytest.mark.parametrize("name", [n for n in NAMES if n not in FIRST_ORDER_ONLY])
@settings(max_examples=N_SECOND, **SETTINGS)
@given(data=st.data(), seed=st.integers(0, 2**31 - 1))
def test_second_order_matches_finite_differences(name, data, seed):
    f, arrs = CASES[name](data, np.random.default_rng(seed))
    check_second_order(f, arrs, seed=seed)


# ------------------------------------------------------------------------------------------
# Coverage: every differentiable primitive of the registry runs in the checks above
# ------------------------------------------------------------------------------------------

# Primitives whose gradients are checked elsewhere, with the reason.
CHECKED_ELSEWHERE = {
    "Copy": "moves arrays between devices: tests/minitape/test_device.py differentiates through it",
}


def test_every_differentiable_primitive_is_gradient_checked():
    """Run each case once (forward, first and second order) and list the primitives that ran:
    a primitive added to the registry without a case here makes this test fail."""
    from minitape._core import REGISTRY
    from _mt_numeric import tape_grad, tape_second, weights_for

    ran = set()
    saved = {}
    for name, prim in REGISTRY.items():
        if prim.fwd is None:
            continue
        saved[name] = (prim.fwd, prim.host)

        def spy(*args, _fwd=prim.fwd, _name=name, **kwargs):
            ran.add(_name)
            return _fwd(*args, **kwargs)
        prim.fwd = prim.host = spy  # (host: the NumPy-only fast paths call it instead)
    @settings(max_examples=1, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck), phases=[Phase.generate])
    @given(data=st.data())
    def run_every_case_once(data):
        for case_name in NAMES:
            f, arrs = CASES[case_name](data, np.random.default_rng(0))
            w = weights_for(f, arrs)
            with np.errstate(all="ignore"):
                if case_name in NO_SECOND_ORDER:
                    tape_grad(f, arrs, w)
                    continue
                tape_second(f, arrs, w, [np.ones(np.shape(a)) for a in arrs], list(range(len(arrs))))

    try:
        run_every_case_once()
    finally:
        for name, (fwd, host) in saved.items():
            REGISTRY[name].fwd = fwd
            REGISTRY[name].host = host
    differentiable = {n for n, p in REGISTRY.items() if p.vjps is not None and not p.no_gradient}
    missing = sorted(differentiable - ran - set(CHECKED_ELSEWHERE))
    assert not missing, f"differentiable primitives without a finite-difference case: {missing}"
