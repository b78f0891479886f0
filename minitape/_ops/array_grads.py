"""Gradient rules (VJPs) of the primitives of :mod:`.array_ops`, attached by name.

This layer sits above every forward module: a rule may use any operation (they are
written with minitape operations, so they can be differentiated again).
"""
from __future__ import annotations

import builtins

from .._core import Tensor, apply, REGISTRY
from .._indexed_slices import sparse_gradient
from .reduce_ops import reduce_sum
from .array_ops import (_Concat, _EachInput, _GatherV2, _GetItem, _Pack, _ScatterAxis, _ScatterTo,
                        _basic_key, broadcast_to, reshape, transpose, unbroadcast, where)
from .creation_ops import zeros_like

_brange = builtins.range  # the operations define `range` (tf.range): Python's is this


def unbroadcast_batch(g, shape):
    """:func:`unbroadcast` for a gradient with a leading batch axis: ``g`` of shape
    ``(b, *broadcast shape)`` summed to ``(b, *shape)``, the batch axis kept."""
    gs = g._value.shape
    if gs[1:] == shape:  # only the batch axis differs: nothing to undo
        return g
    nd = len(gs) - 1 - len(shape)
    axes = tuple(_brange(1, 1 + nd)) + tuple(i + 1 + nd for i, s in enumerate(shape)
                                              if s == 1 and gs[i + 1 + nd] != 1)
    if axes:
        g = reduce_sum(g, axis=axes)
    return reshape(g, (gs[0],) + tuple(shape))


def _batch_key(key):
    """An indexing key for a gradient with a leading batch axis: one full slice in front."""
    return (slice(None),) + (key if isinstance(key, tuple) else (key,))


def _batch_key_ok(key):
    """Whether the batch axis stays in front under ``_batch_key(key)``: always for basic keys;
    with index arrays, only when the advanced indices (arrays and integers) are adjacent
    (NumPy moves separated advanced indices' axes to the front)."""
    if _basic_key(key):
        return True
    ks = key if isinstance(key, tuple) else (key,)
    adv = [i for i, k in enumerate(ks)
           if not (k is None or k is Ellipsis or isinstance(k, slice))]
    return adv[-1] - adv[0] + 1 == len(adv)


def _transpose_vjp(g, ans, x, perm):
    inv = [0] * len(perm)
    for i, p in enumerate(perm):
        inv[p] = i
    return transpose(g, inv)


def _scatter_to(g, key, shape):
    return apply(_ScatterTo, (g,), {"key": key, "shape": tuple(shape)})


def _concat_vjp_k(k, g, ans, *inputs, axis, lead=0):
    # lead: axes in front of the operation's own (1 for a gradient with a batch axis)
    start = 0
    for x in inputs[:k]:
        start += x._value.shape[axis]
    stop = start + inputs[k]._value.shape[axis]
    key = (slice(None),) * (axis + lead) + (slice(start, stop),)
    return apply(_GetItem, (g,), {"key": key})


def _concat_batch_k(k, g, ans, *inputs, axis):
    return _concat_vjp_k(k, g, ans, *inputs, axis=axis, lead=1)


_Concat.defvjps(_EachInput(_concat_vjp_k)).defbatch(_EachInput(_concat_batch_k))


def _stack_vjp_k(k, g, ans, *inputs, axis):
    key = (slice(None),) * axis + (k,)
    return apply(_GetItem, (g,), {"key": key})


def _stack_batch_k(k, g, ans, *inputs, axis):
    return _stack_vjp_k(k, g, ans, *inputs, axis=axis + 1)


_Pack.defvjps(_EachInput(_stack_vjp_k)).defbatch(_EachInput(_stack_batch_k))


def _gather_vjp(g, ans, x, indices, axis):
    if axis == 0:  # TF: an IndexedSlices, one row of the gradient per index
        return sparse_gradient(g, indices, x._value.shape)
    return apply(_ScatterAxis, (g,), {"indices": indices, "axis": axis, "shape": x._value.shape})


def _tile_vjp(g, ans, x, multiples, batch=False):
    shape = x._value.shape
    inter = [g._value.shape[0]] if batch else []
    for m, s in zip(multiples, shape):
        inter += [m, s]
    r = reshape(g, inter)
    return reduce_sum(r, axis=list(_brange(int(batch), 2 * len(shape) + int(batch), 2)))


def _pad_vjp(g, ans, x, paddings, constant_values, batch=False):
    key = tuple(slice(lo, lo + s) for (lo, hi), s in zip(paddings, x._value.shape))
    return apply(_GetItem, (g,), {"key": _batch_key(key) if batch else key})


def _transpose_batch(g, ans, x, perm):
    inv = [0] * len(perm)
    for i, p in enumerate(perm):
        inv[p] = i + 1
    return transpose(g, [0] + inv)


def _unbroadcast_batch_vjp(g, ans, x, shape):
    # g: (b, *shape) -> (b, *x.shape): the axes unbroadcast summed away come back as 1s
    xs = x._value.shape
    b = g._value.shape[0]
    g = reshape(g, (b,) + (1,) * (len(xs) - len(shape)) + tuple(shape))
    return broadcast_to(g, (b,) + tuple(xs))


def _batch_size(g):
    return g._value.shape[0]


# Each primitive's batch rule (for a gradient with a leading batch axis, see Primitive) sits
# under its rule: shapes gain the batch size in front, axes and keys shift by one.

REGISTRY['Unbroadcast'].defvjps(lambda g, ans, x, shape: broadcast_to(g, x._value.shape))
REGISTRY['Unbroadcast'].defbatch(_unbroadcast_batch_vjp)


REGISTRY['BroadcastTo'].defvjps(lambda g, ans, x, shape: unbroadcast(g, x._value.shape))
REGISTRY['BroadcastTo'].defbatch(lambda g, ans, x, shape: unbroadcast_batch(g, x._value.shape))


REGISTRY['Reshape'].defvjps(lambda g, ans, x, shape: reshape(g, x._value.shape))
REGISTRY['Reshape'].defbatch(
    lambda g, ans, x, shape: reshape(g, (_batch_size(g),) + tuple(x._value.shape)))


REGISTRY['Transpose'].defvjps(_transpose_vjp).defbatch(_transpose_batch)


REGISTRY['StridedSlice'].defvjps(lambda g, ans, x, key: _scatter_to(g, key, x._value.shape))
REGISTRY['StridedSlice'].defbatch(
    lambda g, ans, x, key: _scatter_to(g, _batch_key(key), (_batch_size(g),) + tuple(x._value.shape)),
    when=lambda key: _batch_key_ok(key))


REGISTRY['ScatterTo'].defvjps(lambda gg, ans, g, key, shape: apply(_GetItem, (gg,), {"key": key}))
REGISTRY['ScatterTo'].defbatch(
    lambda gg, ans, g, key, shape: apply(_GetItem, (gg,), {"key": _batch_key(key)}),
    when=lambda key, shape: _batch_key_ok(key))


for _gather in ("GatherV2", "GatherNd"):  # (GatherNd: whole rows, extra_ops.gather_nd)
    REGISTRY[_gather].defvjps(_gather_vjp)
    REGISTRY[_gather].defbatch(
        lambda g, ans, x, indices, axis: apply(_ScatterAxis, (g,), {
            "indices": indices, "axis": axis + 1, "shape": (_batch_size(g),) + tuple(x._value.shape)}))
    REGISTRY[_gather].sparse_grad = True


REGISTRY['ScatterAxis'].defvjps(
    lambda gg, ans, g, indices, axis, shape: apply(_GatherV2, (gg,), {"indices": indices, "axis": axis}))
REGISTRY['ScatterAxis'].defbatch(
    lambda gg, ans, g, indices, axis, shape: apply(_GatherV2, (gg,), {"indices": indices,
                                                                        "axis": axis + 1}))


REGISTRY['SelectV2'].defvjps(
    lambda g, ans, x, y, cond: where(Tensor(cond), g, zeros_like(g)),
    lambda g, ans, x, y, cond: where(Tensor(cond), zeros_like(g), g), batch=True)


REGISTRY['Tile'].defvjps(_tile_vjp).defbatch(
    lambda g, ans, x, multiples: _tile_vjp(g, ans, x, multiples, batch=True))


REGISTRY['Pad'].defvjps(_pad_vjp).defbatch(
    lambda g, ans, x, paddings, constant_values: _pad_vjp(g, ans, x, paddings, constant_values,
                                                          batch=True))
