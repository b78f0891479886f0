"""Forward primitives: shapes and indexing (reshape, transpose, slicing, concat, stack, gather,
where, tile, pad), and broadcasting, undone in one place (:func:`unbroadcast`).

Gradient rules live in :mod:`.array_grads`.
"""
from __future__ import annotations

import builtins
import re
from math import prod as _prod

from .. import _backend as B
from .. import dtypes as _d
from .._core import Tensor, Variable, apply, primitive, convert_to_tensor, _to_tensor, EachInput
from ..errors import InvalidArgumentError
from ._adapt import _adapt, _axis_tuple, _pair, _same_dtype, _shape_tuple

xp = B.xp
np = B.numpy  # host-side helpers only (dtype objects, index arithmetic)
_int = int
_float = float
_brange = builtins.range  # the operations define `range` (tf.range): Python's is this


def _unbroadcast_fwd(g, shape):
    nd = g.ndim - len(shape)
    axes = tuple(_brange(nd)) + tuple(i + nd for i, s in enumerate(shape) if s == 1 and g.shape[i + nd] != 1)
    r = g.sum(axis=axes) if axes else g
    return r.reshape(shape)


_Unbroadcast = primitive(
    "Unbroadcast", _unbroadcast_fwd)


def unbroadcast(g, shape):
    """Sum ``g`` over the axes that broadcasting added or stretched, giving ``shape``."""
    return apply(_Unbroadcast, (g,), {"shape": tuple(shape)})


def _broadcast_fwd(x, shape):
    return xp(x).broadcast_to(x, shape)


_BroadcastTo = primitive("BroadcastTo", _broadcast_fwd)


def broadcast_to(x, shape, name=None):
    x = _to_tensor(x)
    shape = _shape_tuple(shape)
    if tuple(x._value.shape) == shape:
        return x
    return apply(_BroadcastTo, (x,), {"shape": shape})


def _reshape_fwd(a, shape):
    return a.reshape(shape)


_Reshape = primitive("Reshape", _reshape_fwd)


def reshape(tensor, shape, name=None):
    x = _to_tensor(tensor)
    shape = _shape_tuple(shape)
    if -1 in shape:
        known = 1
        for s in shape:
            if s != -1:
                known *= s
        if shape.count(-1) > 1:
            first = shape.index(-1)
            raise InvalidArgumentError(f"Only one input size may be -1, not both {first} and "
                                       f"{shape.index(-1, first + 1)} [Op:Reshape]")
        if (known and x._value.size % known) or (not known and x._value.size):
            wanted = f"requires a multiple of {known}" if known else "has 0"
            raise InvalidArgumentError(f"Input to reshape is a tensor with {x._value.size} values, "
                                       f"but the requested shape {wanted} [Op:Reshape]")
        shape = tuple((x._value.size // known if known else 0) if s == -1 else s for s in shape)
    if _prod(shape) != x._value.size:
        raise InvalidArgumentError(f"Input to reshape is a tensor with {x._value.size} values, but "
                                   f"the requested shape has {_prod(shape)} [Op:Reshape]")
    if tuple(x._value.shape) == shape:
        return x
    return apply(_Reshape, (x,), {"shape": shape})


_Transpose = primitive("Transpose", lambda a, perm: xp(a).transpose(a, perm))


def transpose(a, perm=None, conjugate=False, name=None):
    x = _to_tensor(a)
    nd = x._value.ndim
    if perm is None:
        perm = tuple(_brange(nd - 1, -1, -1))
    else:
        given = [_int(p) for p in perm]
        perm = tuple([p + nd if p < 0 else p for p in given])
        if sorted(perm) != list(_brange(nd)):  # (one check on the common path)
            _bad_perm(given, nd)
    return apply(_Transpose, (x,), {"perm": perm})


def _bad_perm(perm, nd):
    """TF's error for a permutation of the wrong size, out of range or with a repeat."""
    if len(perm) != nd:
        raise InvalidArgumentError(f"transpose expects a vector of size {nd}. But input(1) "
                                   f"is a vector of size {len(perm)} [Op:Transpose]")
    for p in perm:
        if not -nd <= p < nd:
            raise InvalidArgumentError(f"{p} is out of range [0 .. {nd}) [Op:Transpose]")
    missing = min(set(range(nd)) - {p % nd for p in perm})
    raise InvalidArgumentError(f"{missing} is missing from {{{','.join(map(str, perm))}}}. "
                               "[Op:Transpose]")


def expand_dims(input, axis, name=None):  # noqa: A002
    x = _to_tensor(input)
    shape = list(x._value.shape)
    axis = _int(axis)
    if axis < 0:
        axis += len(shape) + 1
    shape.insert(axis, 1)
    return reshape(x, shape)


def squeeze(input, axis=None, name=None):  # noqa: A002
    x = _to_tensor(input)
    shape = x._value.shape
    if axis is None:
        new = [s for s in shape if s != 1]
    else:
        axes = _axis_tuple(axis, len(shape))
        for a in axes:
            if shape[a] != 1:
                raise InvalidArgumentError(f"Can not squeeze dim[{a}], expected a dimension of 1, "
                                           f"got {shape[a]} [Op:Squeeze]")
        new = [s for i, s in enumerate(shape) if i not in axes]
    return reshape(x, new)


def shape(input, out_type=_d.int32, name=None):  # noqa: A002
    return convert_to_tensor(list(_to_tensor(input)._value.shape), dtype=out_type)


def size(input, out_type=_d.int32, name=None):  # noqa: A002
    return convert_to_tensor(_to_tensor(input)._value.size, dtype=out_type)


def rank(input, name=None):  # noqa: A002
    return convert_to_tensor(_to_tensor(input)._value.ndim, dtype=_d.int32)


def _key_to_arrays(key):
    if isinstance(key, tuple):
        return tuple(_key_to_arrays(k) for k in key)
    if isinstance(key, Tensor):
        return key._value
    if isinstance(key, list):
        return np.asarray(key)
    return key


def _getitem_fwd(a, key):
    r = a[key]
    return r


def _scatter_fwd(g, key, shape):
    m = xp(g)
    z = m.zeros(shape, dtype=g.dtype)
    if _basic_key(key):
        z[key] = g
    else:
        B.add_at(z, key, g)
    return z


def _basic_key(key):
    ks = key if isinstance(key, tuple) else (key,)
    for k in ks:
        if not (k is None or k is Ellipsis or isinstance(k, (slice, _int, np.integer))):
            return False
    return True


_GetItem = primitive("StridedSlice", _getitem_fwd)


_ScatterTo = primitive("ScatterTo", _scatter_fwd)


_SLICE_TYPE_ERROR = ("Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and "
                     "scalar tf.int32/tf.int64 tensors are valid indices")
# NumPy says "index 5 is out of bounds ...", CuPy "Index 5 is out of bounds ..."
_OUT_OF_BOUNDS = re.compile(r"index (-?\d+) is out of bounds for axis (\d+)", re.IGNORECASE)


def _check_index(k):
    """TF's TypeError for a float index (t[1.0], t[tf.constant(1.0)])."""
    if isinstance(k, (_float, np.floating)) or (
            isinstance(k, Tensor) and k._value.dtype.kind in "fc"):
        raise TypeError(f"{_SLICE_TYPE_ERROR}, got {k!r}")


def getitem(x, key):
    x = _to_tensor(x)
    if type(key) is list:  # TF reads a Python list index as the tuple of its indices
        key = tuple(key)
    used = 0  # dimensions that integers and slices index (None and ... index none)
    for k in (key if type(key) is tuple else (key,)):
        _check_index(k)
        if k is None or k is Ellipsis:
            continue
        if isinstance(k, (slice, _int, np.integer)) or (isinstance(k, Tensor)
                                                         and k._value.ndim == 0):
            used += 1
        elif type(k) is list:  # a list inside the key: TF's TypeError
            raise TypeError(f"{_SLICE_TYPE_ERROR}, got {k!r}")
        else:
            used = -1 << 30  # index arrays (minitape's own operations): NumPy checks them
    nd = x._value.ndim
    if used > nd:
        raise InvalidArgumentError(f"Index out of range using input dim {nd}; input has only "
                                   f"{nd} dims [Op:StridedSlice] name: strided_slice/")
    key = _key_to_arrays(key)
    try:
        return apply(_GetItem, (x,), {"key": key})
    except IndexError as e:
        m = _OUT_OF_BOUNDS.search(str(e))
        if m is None:
            raise
        raise InvalidArgumentError(f"slice index {m.group(1)} of dimension {m.group(2)} out of "
                                   "bounds. [Op:StridedSlice] name: strided_slice/") from None


_EachInput = EachInput


def _concat_fwd(*arrays, axis):
    return xp(arrays[0]).concatenate(arrays, axis=axis)


_Concat = primitive("ConcatV2", _concat_fwd)


def concat(values, axis, name="concat"):
    ts = _same_dtype(list(values), "ConcatV2")
    nd = ts[0]._value.ndim
    if not -max(nd, 1) <= _int(axis) < max(nd, 1):
        raise InvalidArgumentError(f"ConcatOp : Expected concatenating dimensions in the range "
                                   f"[{-nd}, {nd}), but got {_int(axis)} [Op:ConcatV2] name: {name}")
    ax = _int(axis) % nd if nd else 0
    s0 = ts[0]._value.shape
    if any(t._value.ndim == 0 for t in ts):
        raise InvalidArgumentError("ConcatOp : Can't concatenate scalars (use tf.stack instead) "
                                   f"[Op:ConcatV2] name: {name}")
    for i, t in enumerate(ts[1:], 1):
        s = t._value.shape
        if len(s) != len(s0):
            raise InvalidArgumentError(f"ConcatOp : Ranks of all input tensors should match: shape[0] = "
                                       f"{_shape_str(s0)} vs. shape[{i}] = {_shape_str(s)} [Op:ConcatV2] name: {name}")
        for d, (a, b) in enumerate(zip(s0, s)):
            if d != ax and a != b:
                raise InvalidArgumentError(
                    f"ConcatOp : Dimension {d} in both shapes must be equal: shape[0] = {_shape_str(s0)} "
                    f"vs. shape[{i}] = {_shape_str(s)} [Op:ConcatV2] name: {name}")
    return apply(_Concat, tuple(ts), {"axis": ax})


def _shape_str(s):
    return "[" + ",".join(str(d) for d in s) + "]"


_Pack = primitive("Pack", lambda *arrays, axis: xp(arrays[0]).stack(arrays, axis=axis))


def stack(values, axis=0, name="stack"):
    ts = _same_dtype(list(values), "Pack")
    nd = ts[0]._value.ndim + 1
    if not -nd <= _int(axis) < nd:
        raise ValueError(f"Argument `axis` = {_int(axis)} not in range [{-nd}, {nd})")
    s0 = ts[0]._value.shape
    for i, t in enumerate(ts[1:], 1):
        if t._value.shape != s0:
            raise InvalidArgumentError(f"Shapes of all inputs must match: values[0].shape = "
                                       f"{_shape_str(s0)} != values[{i}].shape = "
                                       f"{_shape_str(t._value.shape)} [Op:Pack] name: {name}")
    return apply(_Pack, tuple(ts), {"axis": _int(axis) % nd})


def unstack(value, num=None, axis=0, name="unstack"):
    x = _to_tensor(value)
    axis = _int(axis) % x._value.ndim
    return [getitem(x, (slice(None),) * axis + (i,)) for i in _brange(x._value.shape[axis])]


def split(value, num_or_size_splits, axis=0, num=None, name="split"):
    x = _to_tensor(value)
    axis = _int(axis) % x._value.ndim
    n = x._value.shape[axis]
    if isinstance(num_or_size_splits, (int, np.integer)):
        k = _int(num_or_size_splits)
        if n % k:
            raise InvalidArgumentError(f"Dimension {axis} ({n}) must be evenly divisible by {k}")
        sizes = [n // k] * k
    else:
        sizes = [_int(s) for s in num_or_size_splits]
        if sizes.count(-1) == 1:
            sizes[sizes.index(-1)] = n - (sum(sizes) + 1)
        if sum(sizes) != n or any(s < 0 for s in sizes):
            raise InvalidArgumentError(
                "Determined shape must either match input shape along split_dim exactly if fully "
                "specified, or be less than the size of the input along split_dim if not fully "
                f"specified.  Got: {sum(s for s in sizes)} [Op:SplitV]")
    out, start = [], 0
    for s in sizes:
        out.append(getitem(x, (slice(None),) * axis + (slice(start, start + s),)))
        start += s
    return out


def _gather_fwd(a, indices, axis):
    return xp(a).take(a, indices, axis=axis)


def _scatter_axis_fwd(g, indices, axis, shape):
    m = xp(g)
    z = m.zeros(shape, dtype=g.dtype)
    zt = m.moveaxis(z, axis, 0)
    gt = m.moveaxis(g, list(_brange(axis, axis + indices.ndim)), list(_brange(indices.ndim)))
    B.add_at(zt, indices, gt)
    return z


_GatherV2 = primitive("GatherV2", _gather_fwd)


_ScatterAxis = primitive(
    "ScatterAxis", _scatter_axis_fwd)


def gather(params, indices, axis=None, batch_dims=0, name=None):
    # TF gathers from a Variable with ResourceGather (its errors name that op)
    op = "ResourceGather" if isinstance(params, Variable) else "GatherV2"
    x = _to_tensor(params)
    # indices as TF converts them (a Python list is int32); NumPy arrays keep their dtype
    idx = (_to_tensor(indices)._value if isinstance(indices, (Tensor, list, tuple, _int))
           else np.asarray(indices))
    if idx.dtype.kind not in "iu":
        raise TypeError(f"gather indices must be integers, got {idx.dtype}")
    nd = x._value.ndim
    bd = _int(batch_dims)
    if bd < 0:
        bd += idx.ndim
    if axis is None:
        axis = bd
    if not -nd <= _int(axis) < nd:
        raise InvalidArgumentError(f"Expected axis in the range [{-nd}, {nd}), but got {axis} "
                                   "[Op:GatherV2]")
    ax = _int(axis) % nd
    if not 0 <= bd <= min(ax, idx.ndim):
        raise ValueError(f"batch_dims ({batch_dims}) must be in [0, axis] and at most the rank "
                         f"of indices, with axis = {ax} and indices of rank {idx.ndim}")
    n = x._value.shape[ax]
    if idx.size:
        m = xp(idx)
        if m is np:
            lo, hi = _int(idx.min()), _int(idx.max())
        else:  # one explicit copy of two numbers from the device (a GPU synchronisation)
            lo, hi = (_int(v) for v in B.to_host(m.stack([idx.min(), idx.max()])))
        if lo < 0 or hi >= n:
            bad = np.argwhere((B.to_host(idx) < 0) | (B.to_host(idx) >= n))[0]
            val = B.to_host(idx)[tuple(bad)]
            raise InvalidArgumentError(f"indices[{','.join(str(_int(i)) for i in bad)}] = {val} "
                                       f"is not in [0, {n}) [Op:{op}]")
    if B.xp(x._value) is not B.xp(idx):
        idx = B.xp(x._value).asarray(B.to_host(idx))
    if bd == 0:
        return apply(_GatherV2, (x,), {"indices": idx, "axis": ax})
    return _batched_gather(x, idx, ax, bd)


def _batched_gather(x, idx, ax, bd):
    """gather with batch_dims: one gather over the flattened batch, by offsetting indices."""
    shape = tuple(x._value.shape)
    if tuple(idx.shape[:bd]) != shape[:bd]:
        raise InvalidArgumentError(f"params.shape[:{bd}] {list(shape[:bd])} and indices.shape[:{bd}] "
                                   f"{list(idx.shape[:bd])} must match for batch_dims={bd} [Op:GatherV2]")
    nb = 1
    for s in shape[:bd]:
        nb *= s
    n = shape[ax]
    middle = [i for i in _brange(bd, len(shape)) if i != ax]
    xt = transpose(x, list(_brange(bd)) + [ax] + middle) if ax != bd else x
    flat = reshape(xt, (nb * n,) + tuple(shape[i] for i in middle))
    m = xp(idx)
    offsets = (m.arange(nb, dtype=idx.dtype) * n).reshape(shape[:bd] + (1,) * (idx.ndim - bd))
    r = apply(_GatherV2, (flat,), {"indices": idx + offsets, "axis": 0})
    nm, ni = ax - bd, idx.ndim - bd  # params axes between the batch and `axis`; index axes
    if nm:
        r = transpose(r, list(_brange(bd)) + list(_brange(bd + ni, bd + ni + nm))
                      + list(_brange(bd, bd + ni)) + list(_brange(bd + ni + nm, r._value.ndim)))
    return r


def _where_fwd(x, y, cond):
    return xp(x).where(cond, x, y)


_SelectV2 = primitive("SelectV2", _where_fwd, unbroadcast=True)


def where(condition, x=None, y=None, name=None):
    c = _to_tensor(condition)._value if isinstance(condition, Tensor) else np.asarray(condition)
    if x is None and y is None:
        return convert_to_tensor(np.argwhere(B.to_host(c)).astype(np.int64))
    a, b = _pair(x, y, "SelectV2")
    shape = np.broadcast_shapes(tuple(c.shape), tuple(a._value.shape), tuple(b._value.shape))
    if tuple(a._value.shape) != shape:
        a = broadcast_to(a, shape)
    if tuple(b._value.shape) != shape:
        b = broadcast_to(b, shape)
    if B.xp(c) is not B.xp(a._value):
        c = B.xp(a._value).asarray(B.to_host(c))
    return apply(_SelectV2, (a, b), {"cond": c})


_Tile = primitive("Tile", lambda a, multiples: xp(a).tile(a, multiples))


def tile(input, multiples, name=None):  # noqa: A002
    x = _to_tensor(input)
    return apply(_Tile, (x,), {"multiples": _shape_tuple(multiples)})


_Pad = primitive("Pad", lambda a, paddings, constant_values:
                 xp(a).pad(a, paddings, constant_values=constant_values))


def pad(tensor, paddings, mode="CONSTANT", constant_values=0, name=None):
    """Pad with a constant, or mirror the edges: ``REFLECT`` (without the edge value) and
    ``SYMMETRIC`` (with it), as in TensorFlow."""
    mode = mode.upper()
    if mode not in ("CONSTANT", "REFLECT", "SYMMETRIC"):
        raise ValueError(f"Value of argument `mode` expected to be one of \"CONSTANT\", "
                         f"\"REFLECT\", or \"SYMMETRIC\". Received `mode` = {mode}")
    x = _to_tensor(tensor)
    p = tuple((_int(a), _int(b)) for a, b in (B.to_host(paddings._value).tolist()
                                               if isinstance(paddings, Tensor) else paddings))
    if len(p) != x._value.ndim:
        raise InvalidArgumentError(f"The first dimension of paddings must be the rank of inputs"
                                   f"[{len(p)},2] {list(x._value.shape)} [Op:Pad]")
    if any(a < 0 or b < 0 for a, b in p):
        raise InvalidArgumentError(f"Paddings must be non-negative: {p} [Op:Pad]")
    if mode == "CONSTANT":
        return apply(_Pad, (x,), {"paddings": p, "constant_values": constant_values})
    return _mirror_pad(x, p, mode == "SYMMETRIC")


def _mirror_pad(x, p, symmetric):
    """Mirror padding as slices, reversals and a concat per axis (so gradients come free)."""
    off = 0 if symmetric else 1
    for ax, (lo, hi) in enumerate(p):
        n = x._value.shape[ax]
        if max(lo, hi) > n - off:
            if symmetric:
                raise InvalidArgumentError(f"paddings must be no greater than the dimension size: "
                                           f"{lo}, {hi} greater than {n} [Op:MirrorPad]")
            raise InvalidArgumentError(f"paddings must be less than the dimension size: {lo}, {hi} "
                                       f"not less than {n} [Op:MirrorPad]")
        if not lo and not hi:
            continue
        pre = (slice(None),) * ax
        parts = []
        if lo:  # x[lo-1+off], ..., x[off]
            parts.append(getitem(x, pre + (slice(lo - 1 + off, off - 1 if off else None, -1),)))
        parts.append(x)
        if hi:  # x[n-1-off], ..., x[n-off-hi]
            stop = n - 1 - off - hi
            parts.append(getitem(x, pre + (slice(n - 1 - off, stop if stop >= 0 else None, -1),)))
        x = concat(parts, axis=ax)
    return x


def reverse(tensor, axis, name=None):
    x = _to_tensor(tensor)
    axes = _axis_tuple(axis, x._value.ndim)
    key = tuple(slice(None, None, -1) if i in axes else slice(None) for i in _brange(x._value.ndim))
    return getitem(x, key)
