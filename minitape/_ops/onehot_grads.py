"""One-hot rules: the batch rules again, for a vectorized Jacobian's one-hot seeds (issue 42).

A pass that nothing records carries a Jacobian's seeds as a :class:`minitape._onehot.OneHot`
(two values per position and a label, instead of one gradient per seed).  Each primitive
below declares how its rule meets one:

* element-wise rules (``_elementwise``): the rule acts on the gradient position by position,
  with operands that are the same for every seed, so it runs on the two rows of the OneHot
  (``pair``) and the labels stay; on raw arrays, through the primitive's raw rules where it has
  them (they compute exactly what its Tensor rules compute), else its batch rules on the
  wrapped pair;
* reshapes and transposes move the two rows and the labels alike;
* a reduction's rule broadcasts the gradient back over the reduced axes (times an operand of
  the input's shape, for max, min, prod, logsumexp): the labels are broadcast the same way;
* a matrix product with a plain matrix is a gather of that matrix's rows (or columns), each
  scaled by the one nonzero of its seed's row: a dense gradient, computed in O(seeds x size)
  instead of a product (``_product``).

Where a rule's assumption fails (a gradient that broadcast, a dtype that is not a real float,
seeds whose other value is not zero), it answers ``DENSE`` and the pass runs the batch rule on
the dense gradient.  ``tests/minitape/test_onehot.py`` holds every rule to the dense pass.
"""
from __future__ import annotations

from .. import _onehot
from .._core import REGISTRY
from .._onehot import DENSE, OneHot, _tensor, finite, np
from .math_ops import add_gradients
from .reduce_grads import _kept_shape

_onehot.install(add_gradients=add_gradients)  # (a one-hot gradient meeting a dense one)


def _elementwise(prim, k):
    """Input ``k``'s one-hot rule of an element-wise primitive: its rule on the two rows."""
    def rule(g, *saved, **params):
        pair = g.pair
        raw = prim.raw_vjps
        r = None
        if raw is not None:
            try:
                r = raw[k](pair, *saved, **params)
            except ValueError:  # (shapes that do not broadcast: the dense rule raises TF's error)
                return DENSE
        else:
            t = prim.batch_vjps[k](_tensor(pair), *saved, **params)
            r = None if t is None else t._value
        if r is None:
            return None
        if r.shape != pair.shape or r.dtype.kind != "f":  # (a broadcast, a complex cast)
            return DENSE
        return OneHot(r, g.labels)
    return rule


ELEMENTWISE = (
    # math_grads
    "AddV2", "Sub", "Mul", "RealDiv", "FloorMod", "Pow", "Maximum", "Minimum",
    "SquaredDifference", "Atan2", "Neg", "Abs", "Sign", "Sin", "Cos", "Tan", "Asin", "Acos",
    "Atan", "Sinh", "Cosh", "Tanh", "Exp", "Expm1", "Log", "Log1p", "Sqrt", "Rsqrt", "Square",
    "Reciprocal", "Sigmoid", "Softplus", "Erf", "Erfc", "ReluGrad", "Relu", "Relu6", "Elu",
    "LeakyReluGrad", "LeakyRelu", "Identity", "Cast",
    # array_grads, nn_grads, extra_grads
    "SelectV2", "ClipByValue", "Asinh", "Acosh", "Atanh", "Softsign",
)

for _name in ELEMENTWISE:
    _p = REGISTRY[_name]
    _p.defonehot(*[_elementwise(_p, _k) for _k in range(len(_p.batch_vjps))])


# --- shapes --------------------------------------------------------------------------------
_RESHAPE = REGISTRY["Reshape"]
_TRANSPOSE = REGISTRY["Transpose"]


def _reshape(g, ans, x, shape):
    xs = x._value.shape
    return OneHot(g.pair.reshape((2,) + xs), g.labels.reshape(xs),
                  (g, _RESHAPE, 0, (ans, x), {"shape": shape}))


def _transpose(g, ans, x, perm):
    inv = [0] * len(perm)
    for i, p in enumerate(perm):
        inv[p] = i
    return OneHot(g.pair.transpose([0] + [i + 1 for i in inv]), g.labels.transpose(inv),
                  (g, _TRANSPOSE, 0, (ans, x), {"perm": perm}))


REGISTRY["Reshape"].defonehot(_reshape)
REGISTRY["Transpose"].defonehot(_transpose)


# --- reductions: the gradient broadcast back over the reduced axes ---------------------------
def _expanding(prim, kept):
    """A reduction-like rule whose batch rule broadcasts the gradient from ``kept(...)`` (the
    input's shape with the reduced axes as 1s) to the input's shape, element-wise otherwise."""
    def rule(g, ans, x, *args, **params):
        t = prim.batch_vjps[0](_tensor(g.pair), ans, x, *args, **params)
        r = t._value
        xs = x._value.shape
        if r.shape[1:] != xs or r.dtype.kind != "f":
            return DENSE
        return OneHot(r, g.labels.broadcast(kept(x, *args, **params), xs),
                      (g, prim, 0, (ans, x) + args, params))
    return rule


def _reduced(x, axes, keepdims):
    return _kept_shape(x._value.shape, axes)


for _name in ("Sum", "Mean", "Max", "Min", "Prod", "LogSumExp"):
    REGISTRY[_name].defonehot(_expanding(REGISTRY[_name], _reduced))

REGISTRY["Unbroadcast"].defonehot(_expanding(  # its gradient is a broadcast of the small shape
    REGISTRY["Unbroadcast"],
    lambda x, shape: (1,) * (x._value.ndim - len(shape)) + tuple(shape)))


# --- matrix products -----------------------------------------------------------------------
def _product(g, matrix, src, rows_of, keys_of):
    """A matrix product with one-hot ``g`` as gathered, scaled rows of the matrix ``src``.

    Each labelled position of ``g`` (seed ``r``, flat position ``p``, value ``v``) contributes
    ``v * src[rows_of(p)]`` to one row ``keys_of(r, p)`` of the result, seen as
    ``(K, src.shape[1])``; every other term of the dense product is a zero times a finite
    number.  None when some result row would receive two contributions (the dense product
    would sum them: the order of a sum is BLAS's), when the other seeds' values are not all
    zero (NaN, a gradient that is not one-hot any more), or when ``matrix`` (``src`` is it
    or its transpose) is not finite.
    """
    pair = g.pair
    if pair[1].any() or not finite(matrix):
        return None
    rows, pos = g.labels.hot()
    keys, K = keys_of(rows, pos)
    idx = rows_of(pos)
    vals = pair[0].reshape(-1)[pos]
    width = src.shape[1]
    if not len(keys):
        return np.zeros((K, width), dtype=pair.dtype)
    counts = np.bincount(keys, minlength=K)
    if counts.max() > 1:
        return None
    if len(keys) == K:  # every result row exactly once: built in order, no zeros to write
        order = np.empty(K, dtype=np.intp)
        order[keys] = np.arange(K)
        idx = idx[order]
        vals = vals[order]
        first = int(idx[0])
        if int(idx[-1]) - first == K - 1 and (K == 1 or bool((np.diff(idx) == 1).all())):
            picked = src[first:first + K]  # consecutive rows (a jacobian's seeds): a slice
        else:
            picked = src[idx]
        return np.multiply(picked, vals[:, None], order="C")  # (the dense product's layout)
    out = np.zeros((K, width), dtype=pair.dtype)
    out[keys] = src[idx] * vals[:, None]
    return out


def _window(g, blocks, matrix, src):
    """The product for the seeds' own (affine) labels, when each of ``blocks`` rows of the
    gradient seen as ``(blocks, width)`` has seed ``r``'s one nonzero at column ``start + r``:
    row ``(r, b)`` of the result ``(n, blocks, src width)`` is ``v[b, start + r] * src[start +
    r]``, contiguous as the dense product is.  None where :func:`_product` would refuse."""
    lab = g.labels
    pair = g.pair
    if pair[1].any() or not finite(matrix):
        return None
    s = lab.start
    e = s + lab.n
    v = pair[0].reshape(blocks, -1)[:, s:e]
    return np.multiply(v.T[:, :, None], src[s:e][:, None, :], order="C")


def _matmul_da(g, ans, a, b):
    # g (*lead, m, k) @ b.T, b a matrix (nb, k): position (lead, i, j) of seed r gives
    # v * b[:, j] to row (r, lead, i) of the result (n, *lead, m, nb)
    bv = b._value
    if bv.ndim != 2:
        return DENSE
    shape = g.pair.shape[1:]
    k = shape[-1]
    lm = 1
    for d in shape[:-1]:
        lm *= d
    n = g.labels.n
    if g.labels.inner == k:  # (the seeds' labels, one per column: x @ W, batch_jacobian)
        out = _window(g, lm, bv, bv.T)
    else:
        out = _product(g, bv, bv.T, lambda pos: pos % k,
                       lambda rows, pos: (rows * lm + pos // k, n * lm))
    if out is None:
        return DENSE
    return _tensor(out.reshape((n,) + shape[:-1] + (bv.shape[0],)))


def _matmul_db(g, ans, a, b):
    # a.T @ g (*lead, m, k), a a matrix (m, na): position (lead, i, j) of seed r gives
    # v * a[i, :] to column j of (r, lead): built as rows (n, *lead, k, na), then swapped
    av = a._value
    if av.ndim != 2:
        return DENSE
    shape = g.pair.shape[1:]
    m, k = shape[-2], shape[-1]
    lk = k
    for d in shape[:-2]:
        lk *= d
    n = g.labels.n
    if k == 1 and g.labels.inner == m:  # (the seeds' labels, one per row: W @ x)
        out = _window(g, lk, av, av)
    else:
        out = _product(g, av, av, lambda pos: (pos // k) % m,
                       lambda rows, pos: (rows * lk + (pos // (m * k)) * k + pos % k, n * lk))
    if out is None:
        return DENSE
    out = out.reshape((n,) + shape[:-2] + (k, av.shape[1]))
    return _tensor(np.swapaxes(out, -1, -2))


REGISTRY["MatMul"].defonehot(_matmul_da, _matmul_db)
