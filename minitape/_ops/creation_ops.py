"""Creation of tensors: zeros, ones, fill, eye, range, one_hot (constants: no gradient).
"""
from __future__ import annotations

from .. import _backend as B
from .. import dtypes as _d
from .._core import Tensor, convert_to_tensor, _to_tensor
from ..errors import InvalidArgumentError
from ._adapt import _shape_tuple

xp = B.xp
np = B.numpy  # host-side helpers only (dtype objects, index arithmetic)
_float = float
_int = int


def _creation_module():
    return B.default_module()


def _dims(shape):
    shape = _shape_tuple(shape)
    for d in shape:
        if d < 0:  # TF's Fill kernel makes zeros, ones and fill
            raise InvalidArgumentError(f"Dimension {d} must be >= 0 [Op:Fill]")
    return shape


def zeros(shape, dtype=_d.float32, name=None):
    return Tensor(_creation_module().zeros(_dims(shape), dtype=_d.as_dtype(dtype)._np))


def ones(shape, dtype=_d.float32, name=None):
    return Tensor(_creation_module().ones(_dims(shape), dtype=_d.as_dtype(dtype)._np))


def fill(dims, value, name=None):
    v = convert_to_tensor(value)
    mod = _creation_module()
    return Tensor(mod.full(_dims(dims), B.move(v._value, mod), dtype=v._value.dtype))


def zeros_like(input, dtype=None, name=None):  # noqa: A002
    x = _to_tensor(input)
    v = x._value
    return Tensor(xp(v).zeros(v.shape, dtype=_d.as_dtype(dtype)._np if dtype else v.dtype))


def ones_like(input, dtype=None, name=None):  # noqa: A002
    x = _to_tensor(input)
    v = x._value
    if v.ndim == 0 and dtype is None and B.xp(v) is np:
        return Tensor(v.dtype.type(1))
    return Tensor(xp(v).ones(v.shape, dtype=_d.as_dtype(dtype)._np if dtype else v.dtype))


def fill_like(x, value):
    v = x._value
    return Tensor(xp(v).full(v.shape, value, dtype=v.dtype))


def one_hot_like(t, i):
    """A tensor shaped like ``t``, zero except 1 at flat index ``i`` (for jacobians)."""
    v = t._value
    m = xp(v)
    z = m.zeros(v.size, dtype=v.dtype)
    z[i] = 1
    return Tensor(z.reshape(v.shape))


def one_hot_batch_like(t, j):
    """Zero except 1 at flat position ``j`` of every example (for batch jacobians)."""
    v = t._value
    m = xp(v)
    z = m.zeros((v.shape[0], v.size // max(v.shape[0], 1)), dtype=v.dtype)
    z[:, j] = 1
    return Tensor(z.reshape(v.shape))


def eye(num_rows, num_columns=None, batch_shape=None, dtype=_d.float32, name=None):
    m = _creation_module().eye(_int(num_rows), _int(num_columns) if num_columns is not None else None,
                               dtype=_d.as_dtype(dtype)._np)
    if batch_shape:
        m = _creation_module().broadcast_to(m, tuple(batch_shape) + m.shape).copy()
    return Tensor(m)


def linspace(start, stop, num, name=None, axis=0):
    s = convert_to_tensor(start)
    dt = _d.linspace_dtype(s._value.dtype)
    # TF's arithmetic in the result's dtype (linspace_nd): delta = (stop - start) / (num - 1),
    # then start + delta * i for the inner points, and start and stop themselves at the ends;
    # in float32 its digits differ from NumPy's linspace (0.90000004, not 0.9)
    m = _creation_module()
    n = _int(num)
    first, last = dt.type(_float(start)), dt.type(_float(stop))
    delta = (last - first) / dt.type(max(n - 1, 1))
    inner = first + delta * m.arange(1, max(n - 1, 1), dtype=dt)
    both = m.concatenate([m.asarray([first], dtype=dt), inner, m.asarray([last], dtype=dt)])
    return Tensor(both[:max(n, 0)])


def range(start, limit=None, delta=1, dtype=None, name="range"):  # noqa: A001
    if limit is None:
        start, limit = 0, start
    vals = [start, limit, delta]
    if dtype is None:
        dtype = _d.range_dtype(vals)
    dtype = _d.as_dtype(dtype)
    vals = [v.numpy().item() if isinstance(v, Tensor) else v for v in vals]
    return Tensor(_creation_module().arange(vals[0], vals[1], vals[2], dtype=dtype._np))


def one_hot(indices, depth, on_value=1.0, off_value=0.0, axis=-1, dtype=_d.float32, name=None):
    idx = _to_tensor(indices)._value  # Python lists land on the current device
    m = xp(idx)
    dt = _d.as_dtype(dtype)._np
    r = m.where(m.arange(depth) == idx[..., None], on_value, off_value).astype(dt)
    if axis not in (-1, idx.ndim):
        r = m.moveaxis(r, -1, axis)
    return Tensor(r)
