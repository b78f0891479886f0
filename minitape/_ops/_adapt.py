"""Operand adaptation: the one path that turns an operation's arguments into Tensors of one dtype.

A Python number or NumPy value meeting a tensor takes the tensor's dtype (TensorFlow's rule,
decided by :mod:`minitape.dtypes`, where every dtype rule lives; this module applies it); float
constants are cached per dtype and device; axis and shape arguments become Python tuples.
"""
from __future__ import annotations

import builtins
import math

from .. import _backend as B
from .. import dtypes as _d
from .._core import Tensor, Variable, convert_to_tensor, _to_tensor, _SCALAR_KIND
from .._state import multi_device as _multi  # [True] once a second array module (GPU) exists
from ..errors import InvalidArgumentError

xp = B.xp
np = B.numpy  # host-side helpers only (dtype objects, index arithmetic)
_ARRAY_MODULES = B._MODULES  # type(array) -> module: xp() without the call, on hot paths
_float = float
_int = int
_FLOATING = _d.FLOATING_KINDS


def _adapt(x, like, name, first=False):
    """Convert a non-tensor operand to the dtype of the tensor it meets (TensorFlow's rule).

    A Python number meeting a tensor on a device becomes a constant on that device (cached,
    so ``y * 2.0`` in a loop copies ``2.0`` to the GPU once, not at every step).
    ``first``: the operand comes first (``0.5 + t``), for the order of TF's messages.
    """
    v = like._value
    dt = v.dtype
    tx = type(x)
    if tx is _float or tx is _int or tx is builtins.bool:
        _d.check_python_operand(x, dt, name, first)
        if _MODULES.get(type(v)) is np:
            return _host_constant(x, dt.type) if tx is _float else Tensor(dt.type(x))
        return Tensor(_device_scalar(v, dt, x))
    if isinstance(x, (np.ndarray, np.generic)):
        if _d.numpy_operand_casts(x.dtype, dt, name):
            return convert_to_tensor(np.asarray(x, dtype=dt))
        return convert_to_tensor(x)
    return convert_to_tensor(x, dtype=_d.from_numpy(dt))


_MODULES = B._MODULES


_DEVICE_SCALARS: dict = {}


def _device_scalar(like, dt, x):
    """A 0-d array holding Python number ``x`` with dtype ``dt`` on the device of ``like``."""
    mod = xp(like)
    key = (mod, B.device_index(like), dt, type(x), x,
           math.copysign(1.0, x) if type(x) is _float else 0)  # keeps -0.0 apart from 0.0
    a = _DEVICE_SCALARS.get(key)
    if a is None:
        if len(_DEVICE_SCALARS) > 4096:
            _DEVICE_SCALARS.clear()
        a = B.move(np.asarray(x, dtype=dt), mod)
        _DEVICE_SCALARS[key] = a
    return a


_HOST_CONSTANTS: dict = {}  # Python float -> {NumPy scalar type -> constant Tensor}


def _host_constant(x, scalar_type):
    """Tensor(scalar_type(x)) for a Python float, made once per (value, type) and shared.

    Tensors are immutable, so ``y * 0.9`` in a loop can use one constant instead of building a
    NumPy scalar and a Tensor at every step. 0.0 (whose sign matters) and NaN are not cached.
    """
    by_type = _HOST_CONSTANTS.get(x)
    if by_type is not None:
        t = by_type.get(scalar_type)
        if t is not None:
            return t
    t = Tensor(scalar_type(x))
    if x != 0.0 and x == x:
        if len(_HOST_CONSTANTS) >= 4096:
            _HOST_CONSTANTS.clear()
        _HOST_CONSTANTS.setdefault(x, {})[scalar_type] = t
    return t


def float_constant(x, v):
    """The constant Tensor a Python float ``x`` becomes beside a floating host array ``v``.

    The one shortcut for the commonest operand (``y * 0.9``): one cached constant per value and
    dtype, no conversion.  None when ``v`` is not a floating array on the host; then
    :func:`_adapt` applies the general rule.
    """
    st = type(v)  # a NumPy scalar's type is its dtype's scalar type
    kind = _SCALAR_KIND.get(st)
    if kind is None:
        dt = v.dtype
        kind = dt.kind
        st = dt.type
    if kind in _FLOATING and (not _multi[0] or _ARRAY_MODULES.get(type(v)) is np):
        by_type = _HOST_CONSTANTS.get(x)
        c = by_type.get(st) if by_type is not None else None
        return c if c is not None else _host_constant(x, st)
    return None


def _pair(a, b, name):
    ta = type(a)
    if ta is Variable:
        a = a._read()
        ta = Tensor
    elif ta is not Tensor and isinstance(a, Tensor):  # a variable's slice: a plain tensor
        a = convert_to_tensor(a)
        ta = Tensor
    tb = type(b)
    if tb is Variable:
        b = b._read()
        tb = Tensor
    elif tb is not Tensor and tb is not _float and isinstance(b, Tensor):
        b = convert_to_tensor(b)
        tb = Tensor
    if ta is Tensor:
        if tb is Tensor:
            da = a._value.dtype
            db = b._value.dtype
            if da is not db and da != db:
                raise _d.mismatch_error(name, da, db)
            return a, b
        if tb is _float:
            c = float_constant(b, a._value)
            if c is not None:
                return a, c
        return a, _adapt(b, a, name)
    if tb is Tensor:
        if ta is _float:
            c = float_constant(a, b._value)
            if c is not None:
                return c, b
        return _adapt(a, b, name, first=True), b
    if isinstance(a, Tensor) or isinstance(b, Tensor):
        return _pair(_to_tensor(a) if isinstance(a, Tensor) else a,
                     _to_tensor(b) if isinstance(b, Tensor) else b, name)
    a = convert_to_tensor(a)
    return a, _adapt(b, a, name)


def _same_dtype(values, name):
    """The inputs of a variadic operation (concat, stack) as Tensors of the first tensor's dtype."""
    ts = [_to_tensor(v) if isinstance(v, Tensor) else v for v in values]
    first = next((t for t in ts if isinstance(t, Tensor)), None)
    if first is None:
        ts = [convert_to_tensor(v) for v in ts]
        first = ts[0]
    out = []
    for t in ts:
        if not isinstance(t, Tensor):
            t = _adapt(t, first, name)
        elif t._value.dtype != first._value.dtype:
            raise _d.mismatch_error(name, first._value.dtype, t._value.dtype)
        out.append(t)
    return out


def _axis_tuple(axis, ndim, op=None):
    """Axes as a tuple of non-negative ints; an axis outside [-ndim, ndim) raises
    InvalidArgumentError as TF does (``op``: the reduction's name for TF's message)."""
    if axis is None:
        return None
    if isinstance(axis, Tensor):
        axis = B.to_host(axis._value).tolist()
    raw = axis if isinstance(axis, (list, tuple)) else (axis,)
    ax = []
    for a in raw:
        a = _int(a)
        if not -ndim <= a < ndim:
            if op is None:
                raise InvalidArgumentError(f"axis {a} is out of range for a tensor of rank {ndim}")
            raise InvalidArgumentError(f"Invalid reduction dimension ({a} for input with {ndim} "
                                       f"dimension(s) [Op:{op}]")  # TF's text, its parenthesis too
        ax.append(a % ndim)
    return tuple(ax)


def _shape_tuple(shape):
    if isinstance(shape, Tensor):
        return tuple(_int(s) for s in B.to_host(shape._value).reshape(-1))
    if isinstance(shape, (int, np.integer)):
        return (_int(shape),)
    return tuple(_int(s) if not isinstance(s, Tensor) else _int(s) for s in shape)
