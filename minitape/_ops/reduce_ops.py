"""Forward primitives: reductions (sum, mean, max, prod, logsumexp, cumulative sums, argmax).

Gradient rules live in :mod:`.reduce_grads`.
"""
from __future__ import annotations

import warnings as _warnings

import builtins

from .. import _backend as B
from .. import dtypes as _d
from .._core import apply, primitive, _to_tensor
from ._adapt import _axis_tuple
from ..dtypes import not_allowed, ALLOWED_REDUCTION
from .math_ops import sqrt, square, subtract

xp = B.xp
np = B.numpy  # host-side helpers only (dtype objects, index arithmetic)
_int = int
_brange = builtins.range  # the operations define `range` (tf.range): Python's is this


def _sum_fwd(a, axes, keepdims):
    return xp(a).sum(a, axis=axes, keepdims=keepdims, dtype=_d.accumulator_dtype(a.dtype))


_Sum = primitive("Sum", _sum_fwd)


def _mean_fwd(a, axes, keepdims):
    m = xp(a)
    if a.size == 0:  # NaN, silently as in TensorFlow (NumPy warns "Mean of empty slice")
        with m.errstate(all="ignore"), _warnings.catch_warnings():
            _warnings.simplefilter("ignore", RuntimeWarning)
            return m.mean(a, axis=axes, keepdims=keepdims).astype(a.dtype, copy=False)
    return m.mean(a, axis=axes, keepdims=keepdims).astype(a.dtype, copy=False)


_Mean = primitive("Mean", _mean_fwd)


def _empty_extreme(a, axes, keepdims, is_max):
    """max/min over no elements: -inf/+inf (the lowest/highest integer), as in TensorFlow."""
    m = xp(a)
    shape = m.sum(a, axis=axes, keepdims=keepdims).shape
    if a.dtype.kind in "iu":
        info = np.iinfo(a.dtype)
        v = info.min if is_max else info.max
    elif a.dtype.kind == "b":
        v = not is_max
    else:
        v = -np.inf if is_max else np.inf
    return m.full(shape, v, dtype=a.dtype)


def _max_fwd(a, axes, keepdims):
    if a.size == 0:
        return _empty_extreme(a, axes, keepdims, True)
    return xp(a).max(a, axis=axes, keepdims=keepdims)


def _min_fwd(a, axes, keepdims):
    if a.size == 0:
        return _empty_extreme(a, axes, keepdims, False)
    return xp(a).min(a, axis=axes, keepdims=keepdims)


_Max = primitive("Max", _max_fwd)


_Min = primitive("Min", _min_fwd)


def _prod_fwd(a, axes, keepdims):
    return xp(a).prod(a, axis=axes, keepdims=keepdims, dtype=_d.accumulator_dtype(a.dtype))


_Prod = primitive("Prod", _prod_fwd)


def _lse_fwd(a, axes, keepdims):
    m = xp(a)
    if a.size == 0:  # log(sum of no terms) = log(0)
        return m.full(m.sum(a, axis=axes, keepdims=keepdims).shape, -np.inf, dtype=a.dtype)
    mx = m.max(a, axis=axes, keepdims=True)
    mx = m.where(m.isfinite(mx), mx, 0)
    r = m.log(m.sum(m.exp(a - mx), axis=axes, keepdims=True)) + mx
    if not keepdims:
        r = r.reshape(tuple(s for i, s in enumerate(a.shape) if axes is not None and i not in axes))
    return r.astype(a.dtype, copy=False)


_LogSumExp = primitive("LogSumExp", _lse_fwd)


def _mk_reduce(prim, float_result=False):
    def op(input_tensor, axis=None, keepdims=False, name=None):
        x = _to_tensor(input_tensor)
        if x._value.dtype.kind == "b":  # TF's numeric reductions refuse bool (reduce_any/all)
            raise not_allowed(prim.name, x._value.dtype, ALLOWED_REDUCTION)
        return apply(prim, (x,), {"axes": _axis_tuple(axis, x._value.ndim, prim.name),
                                  "keepdims": builtins.bool(keepdims)})

    op.prim = prim
    return op


reduce_sum = _mk_reduce(_Sum)


reduce_mean = _mk_reduce(_Mean)


reduce_max = _mk_reduce(_Max)


reduce_min = _mk_reduce(_Min)


reduce_prod = _mk_reduce(_Prod)


_reduce_lse = _mk_reduce(_LogSumExp)


def reduce_logsumexp(input_tensor, axis=None, keepdims=False, name=None):
    x = _to_tensor(input_tensor)
    axes = _axis_tuple(axis, x._value.ndim, "Max")
    if axes is None:
        axes = tuple(_brange(x._value.ndim))
    return apply(_LogSumExp, (x,), {"axes": axes, "keepdims": builtins.bool(keepdims)})


def reduce_variance(input_tensor, axis=None, keepdims=False, name=None):
    x = _to_tensor(input_tensor)
    m = reduce_mean(x, axis=axis, keepdims=True)
    return reduce_mean(square(subtract(x, m)), axis=axis, keepdims=keepdims)


def reduce_std(input_tensor, axis=None, keepdims=False, name=None):
    return sqrt(reduce_variance(input_tensor, axis=axis, keepdims=keepdims))


def _bool_reduce(name, fn):
    prim = primitive(name, fn)

    def op(input_tensor, axis=None, keepdims=False, name=None):
        x = _to_tensor(input_tensor)
        return apply(prim, (x,), {"axes": _axis_tuple(axis, x._value.ndim, prim.name),
                                  "keepdims": builtins.bool(keepdims)})

    return op


reduce_any = _bool_reduce("Any", lambda a, axes, keepdims: xp(a).any(a, axis=axes, keepdims=keepdims))


reduce_all = _bool_reduce("All", lambda a, axes, keepdims: xp(a).all(a, axis=axes, keepdims=keepdims))


def _cumsum_fwd(a, axis, exclusive, reverse):
    m = xp(a)
    if reverse:
        a = m.flip(a, axis)
    r = m.cumsum(a, axis=axis, dtype=a.dtype)
    if exclusive:
        r = r - a
    if reverse:
        r = m.flip(r, axis)
    return r


_Cumsum = primitive("Cumsum", _cumsum_fwd)


def cumsum(x, axis=0, exclusive=False, reverse=False, name=None):
    x = _to_tensor(x)
    return apply(_Cumsum, (x,), {"axis": _int(axis) % max(x._value.ndim, 1),
                                 "exclusive": builtins.bool(exclusive), "reverse": builtins.bool(reverse)})


def _cumprod_fwd(a, axis, exclusive, reverse):
    m = xp(a)
    if reverse:
        a = m.flip(a, axis)
    if exclusive:
        pad = [(0, 0)] * a.ndim
        pad[axis] = (1, 0)
        sl = [slice(None)] * a.ndim
        sl[axis] = slice(0, a.shape[axis])
        a = m.pad(a, pad, constant_values=1)[tuple(sl)]
    r = m.cumprod(a, axis=axis, dtype=a.dtype)
    if reverse:
        r = m.flip(r, axis)
    return r


_Cumprod = primitive("Cumprod", _cumprod_fwd)


def cumprod(x, axis=0, exclusive=False, reverse=False, name=None):
    x = _to_tensor(x)
    return apply(_Cumprod, (x,), {"axis": _int(axis) % max(x._value.ndim, 1),
                                  "exclusive": builtins.bool(exclusive), "reverse": builtins.bool(reverse)})


def _arg(name, fn):
    prim = primitive(name, fn)

    def op(input, axis=None, output_type=_d.int64, name=None):  # noqa: A002
        x = _to_tensor(input)
        ax = 0 if axis is None else _int(axis) % max(x._value.ndim, 1)
        return apply(prim, (x,), {"axis": ax, "out": _d.as_dtype(output_type)._np})

    return op


argmax = _arg("ArgMax", lambda a, axis, out: xp(a).argmax(a, axis=axis).astype(out))


argmin = _arg("ArgMin", lambda a, axis, out: xp(a).argmin(a, axis=axis).astype(out))
