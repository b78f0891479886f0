"""Gradient rules (VJPs) of the primitives of :mod:`.array_ops`, attached by name.

This layer sits above every forward module: a rule may use any operation (they are
written with minitape operations, so they can be differentiated again).
"""
from __future__ import annotations

import builtins

from .._core import Tensor, apply, REGISTRY
from .reduce_ops import reduce_sum
from .array_ops import (_Concat, _EachInput, _GatherV2, _GetItem, _Pack, _ScatterAxis, _ScatterTo,
                        broadcast_to, reshape, transpose, unbroadcast, where)
from .creation_ops import zeros_like

_brange = builtins.range  # the operations define `range` (tf.range): Python's is this


def _transpose_vjp(g, ans, x, perm):
    inv = [0] * len(perm)
    for i, p in enumerate(perm):
        inv[p] = i
    return transpose(g, inv)


def _scatter_to(g, key, shape):
    return apply(_ScatterTo, (g,), {"key": key, "shape": tuple(shape)})


def _concat_vjp_k(k, g, ans, *inputs, axis):
    start = 0
    for x in inputs[:k]:
        start += x._value.shape[axis]
    stop = start + inputs[k]._value.shape[axis]
    key = (slice(None),) * axis + (slice(start, stop),)
    return apply(_GetItem, (g,), {"key": key})


_Concat.defvjps(_EachInput(_concat_vjp_k))


def _stack_vjp_k(k, g, ans, *inputs, axis):
    key = (slice(None),) * axis + (k,)
    return apply(_GetItem, (g,), {"key": key})


_Pack.defvjps(_EachInput(_stack_vjp_k))


def _gather_vjp(g, ans, x, indices, axis):
    return apply(_ScatterAxis, (g,), {"indices": indices, "axis": axis, "shape": x._value.shape})


def _tile_vjp(g, ans, x, multiples):
    shape = x._value.shape
    inter = []
    for m, s in zip(multiples, shape):
        inter += [m, s]
    r = reshape(g, inter)
    return reduce_sum(r, axis=list(_brange(0, 2 * len(shape), 2)))


def _pad_vjp(g, ans, x, paddings, constant_values):
    key = tuple(slice(lo, lo + s) for (lo, hi), s in zip(paddings, x._value.shape))
    return apply(_GetItem, (g,), {"key": key})


REGISTRY['Unbroadcast'].defvjps(lambda g, ans, x, shape: broadcast_to(g, x._value.shape))


REGISTRY['BroadcastTo'].defvjps(lambda g, ans, x, shape: unbroadcast(g, x._value.shape))


REGISTRY['Reshape'].defvjps(lambda g, ans, x, shape: reshape(g, x._value.shape))


REGISTRY['Transpose'].defvjps(_transpose_vjp)


REGISTRY['StridedSlice'].defvjps(lambda g, ans, x, key: _scatter_to(g, key, x._value.shape))


REGISTRY['ScatterTo'].defvjps(lambda gg, ans, g, key, shape: apply(_GetItem, (gg,), {"key": key}))


REGISTRY['GatherV2'].defvjps(_gather_vjp)


REGISTRY['ScatterAxis'].defvjps(
    lambda gg, ans, g, indices, axis, shape: apply(_GatherV2, (gg,), {"indices": indices, "axis": axis}))


REGISTRY['SelectV2'].defvjps(
    lambda g, ans, x, y, cond: where(Tensor(cond), g, zeros_like(g)),
                       lambda g, ans, x, y, cond: where(Tensor(cond), zeros_like(g), g))


REGISTRY['Tile'].defvjps(_tile_vjp)


REGISTRY['Pad'].defvjps(_pad_vjp)
