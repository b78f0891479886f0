"""More of TensorFlow's operations: new primitives where the gradient is a formula, otherwise
compositions of existing ones (whose gradients follow).

Gradient rules of the new primitives live in :mod:`.extra_grads`.
"""
from __future__ import annotations

import builtins

from .. import _backend as B
from .. import dtypes as _d
from .._core import Tensor, Variable, apply, primitive, _to_tensor
from ..errors import InvalidArgumentError
from ._adapt import _pair
from .math_ops import (_f, _mk_unary, abs, add, cast, divide, equal, erf, erfc, expm1, greater,
                       greater_equal, identity, log, minimum, multiply, negative, not_equal, pow, softplus, tanh)
from .reduce_ops import reduce_sum
from .array_ops import _gather_fwd, expand_dims, gather, getitem, reshape, transpose, where
from .creation_ops import eye, ones_like, zeros_like

xp = B.xp
np = B.numpy  # host-side helpers only (dtype objects, index arithmetic)
_int = int


asinh = _mk_unary("Asinh", _f("arcsinh"))


acosh = _mk_unary("Acosh", _f("arccosh"))


atanh = _mk_unary("Atanh", _f("arctanh"))


def _where_zero(cond, value):
    """``value`` where ``cond`` is false, 0 where it is true (broadcast together)."""
    return where(cond, zeros_like(value), value)


def divide_no_nan(x, y, name=None):
    """``x / y``, but 0 where ``y`` is 0 (and a gradient of 0 there too)."""
    a, b = _pair(x, y, "DivNoNan")
    zero = equal(b, 0)
    return _where_zero(zero, divide(a, where(zero, ones_like(b), b)))


def multiply_no_nan(x, y, name=None):
    """``x * y``, but 0 where ``y`` is 0 even if ``x`` is infinite or NaN."""
    a, b = _pair(x, y, "MulNoNan")
    zero = equal(b, 0)
    return _where_zero(zero, multiply(where(zero, zeros_like(a), a), b))


def reciprocal_no_nan(x, name=None):
    x = _to_tensor(x)
    return divide_no_nan(ones_like(x), x)


def xlogy(x, y, name=None):
    """``x * log(y)``, 0 where ``x`` is 0 (TensorFlow's gradients: 0 there as well)."""
    a, b = _pair(x, y, "Xlogy")
    zero = equal(a, 0)
    return _where_zero(zero, multiply(a, log(where(zero, ones_like(b), b))))


def xdivy(x, y, name=None):
    """``x / y``, 0 where ``x`` is 0."""
    a, b = _pair(x, y, "Xdivy")
    zero = equal(a, 0)
    return _where_zero(zero, divide(a, where(zero, ones_like(b), b)))


def log_sigmoid(x, name=None):
    """``log(sigmoid(x)) = -softplus(-x)``, stable for large ``|x|``."""
    return negative(softplus(negative(_to_tensor(x))))


def _softsign_fwd(x):
    return x / (xp(x).abs(x) + 1)


def _softsign_grad_fwd(g, x):
    return g / (xp(x).abs(x) + 1) ** 2


# TF's kernels: Softsign, and its gradient SoftsignGrad, which has no gradient registered (a
# second derivative of softsign raises LookupError in TF, and here)
_Softsign = primitive("Softsign", _softsign_fwd)
_SoftsignGrad = primitive("SoftsignGrad", _softsign_grad_fwd, no_gradient=True)


def softsign(features, name=None):
    x = _to_tensor(features)
    if x._value.dtype.kind not in "fc":
        return divide(x, add(abs(x), 1))
    return apply(_Softsign, (x,), {})


def gelu(features, approximate=False, name=None):
    """Gaussian error linear unit: ``x * Phi(x)`` (``approximate=True``: the tanh form)."""
    x = _to_tensor(features)
    # Written as TF 2.21 writes it, so that the digits agree: erfc (no cancellation for x << 0)
    # and the constants TF casts from float32 (0.044715 and 1/sqrt(2) rounded to float32, also
    # in float64)
    if approximate:
        inner = multiply(add(x, multiply(pow(x, 3), _GELU_COEFF)), 0.7978845608028654)
        return multiply(multiply(x, 0.5), add(tanh(inner), 1))
    return multiply(multiply(x, 0.5), erfc(multiply(negative(x), _GELU_SQRT_HALF)))


_GELU_COEFF = float(B.numpy.float32(0.044715))
_GELU_SQRT_HALF = float(B.numpy.float32(0.7071067811865476))


def selu(features, name=None):
    """``scale * elu(x)`` with ``alpha`` on the negative side (Klambauer et al. constants)."""
    x = _to_tensor(features)
    alpha, scale = 1.6732632423543772, 1.0507009873554805
    neg = multiply(expm1(minimum(x, 0)), alpha)
    # x >= 0 takes the linear side: selu'(0) = scale and selu''(0) = 0, as TF's SeluGrad
    return multiply(where(greater_equal(x, 0), x, neg), scale)


def count_nonzero(input, axis=None, keepdims=False, dtype=_d.int64, name=None):  # noqa: A002
    x = _to_tensor(input)
    return reduce_sum(cast(not_equal(x, 0) if x.dtype != _d.bool else x, dtype), axis=axis,
                      keepdims=keepdims)


def _argsort_values(v, axis, descending):
    m = xp(v)
    if descending:
        # stable, ties keep their order (as top_k): sort the reversed array, then map back
        n = v.shape[axis]
        r = m.flip(v, axis)
        idx = m.flip(_stable_argsort(m, r, axis), axis)
        return (n - 1) - idx
    return _stable_argsort(m, v, axis)


def _stable_argsort(m, v, axis):
    # NumPy needs kind="stable"; CuPy's argsort is always stable and takes no `kind`
    return m.argsort(v, axis=axis, kind="stable") if m is np else m.argsort(v, axis=axis)


def argsort(values, axis=-1, direction="ASCENDING", stable=False, name=None):
    """Indices (int32) that sort ``values`` along ``axis``; ties keep their order."""
    x = _to_tensor(values)
    if direction not in ("ASCENDING", "DESCENDING"):
        raise ValueError(f"{direction!r} is not a valid direction; use 'ASCENDING' or 'DESCENDING'")
    nd = x._value.ndim
    if nd == 0:
        raise InvalidArgumentError("input must be at least rank 1 [Op:TopKV2]")
    ax = _int(axis) % nd
    return Tensor(_argsort_values(x._value, ax, direction == "DESCENDING").astype(np.int32))


def _take_along_last(x, idx):
    """``x[..., idx[..., j]]`` for every leading position (gradient by a batched gather)."""
    shape = tuple(x._value.shape)
    lead = shape[:-1]
    m = 1
    for s in lead:
        m *= s
    flat = reshape(x, (m, shape[-1]))
    fi = idx.reshape((m, idx.shape[-1]))
    r = gather(flat, Tensor(fi), axis=1, batch_dims=1)
    return reshape(r, lead + (idx.shape[-1],))


def sort(values, axis=-1, direction="ASCENDING", name=None):
    """``values`` sorted along ``axis``; the gradient goes back to where each value came from."""
    x = _to_tensor(values)
    nd = x._value.ndim
    idx = argsort(x, axis=axis, direction=direction)._value
    ax = _int(axis) % nd
    if ax == nd - 1:
        return _take_along_last(x, idx)
    perm = list(builtins.range(nd))
    perm[ax], perm[-1] = perm[-1], perm[ax]
    moved = transpose(x, perm)
    r = _take_along_last(moved, xp(idx).swapaxes(idx, ax, -1))
    return transpose(r, perm)


def _topk_type():
    import collections
    return collections.namedtuple("TopKV2", ["values", "indices"])


TopKV2 = _topk_type()  # (values, indices), as TensorFlow's top_k returns them


def top_k(input, k=1, sorted=True, index_type=_d.int32, name=None):  # noqa: A002
    """The ``k`` largest entries along the last axis (ties: the lower index first)."""
    x = _to_tensor(input)
    if x._value.ndim == 0:
        raise InvalidArgumentError("input must be at least rank 1 [Op:TopKV2]")
    k = _int(k)
    n = x._value.shape[-1]
    if not 0 <= k <= n:
        raise InvalidArgumentError(f"input must have at least k={k} columns, got {n} [Op:TopKV2]")
    idx = _argsort_values(x._value, x._value.ndim - 1, True)[..., :k]
    return TopKV2(_take_along_last(x, idx), Tensor(idx.astype(_d.as_dtype(index_type)._np)))


def boolean_mask(tensor, mask, axis=None, name="boolean_mask"):
    """The entries of ``tensor`` where ``mask`` (matching dimensions ``axis``... ) is True."""
    x = _to_tensor(tensor)
    mk = _to_tensor(mask)._value if isinstance(mask, Tensor) else np.asarray(mask)
    if mk.dtype.kind != "b":
        raise TypeError(f"mask must be a boolean tensor, got {mk.dtype}")
    ax = 0 if axis is None else _int(axis) % max(x._value.ndim, 1)
    k = mk.ndim
    if k == 0:
        raise ValueError("mask cannot be scalar.")
    if tuple(x._value.shape[ax:ax + k]) != tuple(mk.shape):
        from .._core import TensorShape
        raise ValueError(f"Shapes {TensorShape(x._value.shape[ax:ax + k])} and "
                         f"{TensorShape(mk.shape)} are incompatible")
    if B.xp(mk) is not B.xp(x._value):
        mk = B.xp(x._value).asarray(B.to_host(mk))
    return getitem(x, (slice(None),) * ax + (mk,))


# gather_nd of whole rows: a gather along axis 0 under TF's kernel name (array_grads gives it
# the gather's rules)
_GatherNdRows = primitive("GatherNd", _gather_fwd)


def gather_nd(params, indices, batch_dims=0, name=None):
    """``params[indices[..., 0], indices[..., 1], ...]`` for every leading index position."""
    x = _to_tensor(params)
    # indices as TF converts them (a Python list is int32); NumPy arrays keep their dtype
    idx = (_to_tensor(indices)._value if isinstance(indices, (Tensor, list, tuple))
           else np.asarray(indices))
    if idx.dtype.kind not in "iu":
        raise TypeError(f"gather_nd indices must be integers, got {idx.dtype}")
    bd = _int(batch_dims)
    if idx.ndim < 1 or idx.shape[-1] + bd > x._value.ndim:
        raise InvalidArgumentError(f"index innermost dimension length must be <= params rank; saw: "
                                   f"{idx.shape[-1] if idx.ndim else 0} vs. {x._value.ndim} [Op:GatherNd]")
    shape = x._value.shape
    host = B.to_host(idx)
    op = "ResourceGatherNd" if isinstance(params, Variable) else "GatherNd"  # TF's kernels
    for j in builtins.range(idx.shape[-1]):
        col = host[..., j]
        dim = shape[bd + j]
        if col.size and (col.min() < 0 or col.max() >= dim):
            bad = np.argwhere((col < 0) | (col >= dim))[0]
            where = ",".join(str(_int(i)) for i in bad)
            raise InvalidArgumentError(f"indices[{where}] = {host[tuple(bad)].tolist()} does not "
                                       f"index into param shape [{','.join(map(str, shape))}], "
                                       f"node name: {op} [Op:{op}]")
    m = xp(x._value)
    if B.xp(idx) is not m:
        idx = m.asarray(host)
    if bd == 0 and idx.ndim == 2 and idx.shape[-1] == 1:
        # whole rows: TF's gradient is an IndexedSlices, as a gather's (one row per index)
        if op == "ResourceGatherNd":  # TF reads the variable first: one step more backwards
            x = identity(x)
        return apply(_GatherNdRows, (x,), {"indices": idx[:, 0], "axis": 0})
    inner = idx.ndim - 1 - bd  # index dimensions after the batch ones
    key = tuple(m.arange(shape[i]).reshape((shape[i],) + (1,) * (bd - 1 - i + inner))
                for i in builtins.range(bd))
    key = key + tuple(idx[..., j] for j in builtins.range(idx.shape[-1]))
    return getitem(x, key)


def _slogdet_fwd(a):
    return xp(a).linalg.slogdet(a)[1]


_LogAbsDet = primitive("LogMatrixDeterminant", _slogdet_fwd)


def slogdet(input, name=None):  # noqa: A002
    """``(sign, log|det|)`` of square matrices; ``log|det|`` is differentiable, sign is not."""
    x = _to_tensor(input)
    sign = Tensor(xp(x._value).linalg.slogdet(x._value)[0].astype(x._value.dtype))
    return sign, apply(_LogAbsDet, (x,), {})


def logdet(matrix, name=None):
    """``log(det(matrix))`` of Hermitian positive definite matrices."""
    return slogdet(matrix)[1]


def diag(diagonal, name="diag", k=0, num_rows=-1, num_cols=-1, padding_value=0, align="RIGHT_LEFT"):
    """Square matrices with ``diagonal`` (last axis) on the main diagonal."""
    if k != 0 or num_rows != -1 or num_cols != -1 or padding_value != 0:
        raise NotImplementedError("minitape.linalg.diag supports the main diagonal only (k=0)")
    v = _to_tensor(diagonal)
    n = v._value.shape[-1]
    return multiply(expand_dims(v, -1), eye(n, dtype=v.dtype))
