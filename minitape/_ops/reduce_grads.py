"""Gradient rules (VJPs) of the primitives of :mod:`.reduce_ops`, attached by name.

This layer sits above every forward module: a rule may use any operation (they are
written with minitape operations, so they can be differentiated again).
"""
from __future__ import annotations

import builtins

from .._core import REGISTRY
from .math_ops import cast, divide, equal, exp, multiply, subtract
from .reduce_ops import cumprod, cumsum, reduce_sum
from .array_ops import broadcast_to, reshape, transpose
from ..dtypes import FLOATING_KINDS as _FLOATING  # what gradients flow through

_float = float
_brange = builtins.range  # the operations define `range` (tf.range): Python's is this


def _kept_shape(shape, axes):
    if axes is None:
        return (1,) * len(shape)
    return tuple(1 if i in axes else s for i, s in enumerate(shape))


def _expand_back(g, x, axes, keepdims):
    """Broadcast a reduced gradient back to ``x``'s shape."""
    shape = x._value.shape
    if not keepdims:
        g = reshape(g, _kept_shape(shape, axes))
    return broadcast_to(g, shape)


def _mean_vjp(g, ans, x, axes, keepdims):
    n = x._value.size // max(ans._value.size, 1) if x._value.size else 1
    return _expand_back(divide(g, _float(n) if g._value.dtype.kind in _FLOATING else n), x, axes, keepdims)


def _extreme_vjp(g, ans, x, axes, keepdims):
    a = ans if keepdims else reshape(ans, _kept_shape(x._value.shape, axes))
    ind = cast(equal(x, a), g.dtype)
    count = reduce_sum(ind, axis=axes, keepdims=True)
    return multiply(divide(ind, count), _expand_back(g, x, axes, keepdims))


def _prod_vjp(g, ans, x, axes, keepdims):
    # d prod / d x_i = prod_{j != i} x_j, computed without dividing by x (zeros are fine)
    shape = x._value.shape
    ax = tuple(_brange(len(shape))) if axes is None else axes
    if len(ax) == 0:
        return g
    rest = [i for i in _brange(len(shape)) if i not in ax]
    perm = list(ax) + rest
    xt = transpose(x, perm)
    n = 1
    for i in ax:
        n *= shape[i]
    flat = reshape(xt, (n, -1))
    left = cumprod(flat, axis=0, exclusive=True)
    right = cumprod(flat, axis=0, exclusive=True, reverse=True)
    others = multiply(left, right)
    others = reshape(others, [shape[i] for i in perm])
    inv = [0] * len(perm)
    for i, p in enumerate(perm):
        inv[p] = i
    others = transpose(others, inv)
    return multiply(others, _expand_back(g, x, axes, keepdims))


def _lse_vjp(g, ans, x, axes, keepdims):
    a = ans if keepdims else reshape(ans, _kept_shape(x._value.shape, axes))
    return multiply(exp(subtract(x, a)), _expand_back(g, x, axes, keepdims))


def _cumprod_vjp(g, ans, x, axis, exclusive, reverse):
    # valid where x has no zeros (the common case); TensorFlow's rule has the same caveat
    return divide(cumsum(multiply(g, ans), axis=axis, exclusive=exclusive, reverse=not reverse), x)


REGISTRY['Sum'].defvjps(lambda g, ans, x, axes, keepdims: _expand_back(g, x, axes, keepdims))


REGISTRY['Mean'].defvjps(_mean_vjp)


REGISTRY['Max'].defvjps(_extreme_vjp)


REGISTRY['Min'].defvjps(_extreme_vjp)


REGISTRY['Prod'].defvjps(_prod_vjp)


REGISTRY['LogSumExp'].defvjps(_lse_vjp)


REGISTRY['Cumsum'].defvjps(
    lambda g, ans, x, axis, exclusive, reverse:
                     cumsum(g, axis=axis, exclusive=exclusive, reverse=not reverse))


REGISTRY['Cumprod'].defvjps(_cumprod_vjp)
