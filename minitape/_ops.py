"""Every primitive operation: its forward on the array module, its gradient on Tensors.

Each entry is declarative: ``_prim(Name, forward, [vjp per input])``.  Forward functions
receive raw arrays and use ``xp(a)`` (NumPy or CuPy); gradient functions are written with
minitape operations so that they can be differentiated again.  Broadcasting is undone in one
place (:func:`unbroadcast`), called by the tape for every gradient whose shape differs from
its input's.
"""
from __future__ import annotations

import builtins
import operator
import math
import numbers

from . import _backend as B
from . import dtypes as _d
from ._core import (Tensor, Variable, apply, primitive, convert_to_tensor, _to_tensor,
                    REGISTRY, _new, _SCALAR_KIND, install_operations, EachInput)
from ._state import next_id as _next_id, tapes as _tapes, accumulators as _accumulators
from .errors import InvalidArgumentError

xp = B.xp
np = B.numpy  # host-side helpers only (dtype objects, index arithmetic)
_ARRAY_MODULES = B._MODULES  # type(array) -> module: xp() without the call, on hot paths
from ._state import multi_device as _multi  # noqa: E402  ([True] once a GPU module exists)

def _prim(name, fwd, vjps=None, save=None, no_gradient=False):
    p = primitive(name, fwd, save=save, no_gradient=no_gradient)
    if vjps is not None:
        p.defvjps(*vjps)
    return p


_float = float
_int = int
_brange = builtins.range  # this module defines the `range` operation (tf.range): Python's is this


# ------------------------------------------------------------------------------------------
# Argument handling
# ------------------------------------------------------------------------------------------

def _adapt(x, like, name):
    """Convert a non-tensor operand to the dtype of the tensor it meets (TensorFlow's rule).

    A Python number meeting a tensor on a device becomes a constant on that device (cached,
    so ``y * 2.0`` in a loop copies ``2.0`` to the GPU once, not at every step).
    """
    v = like._value
    dt = v.dtype
    tx = type(x)
    if tx is _float:
        if dt.kind in "fc":
            if _MODULES.get(type(v)) is np:
                return Tensor(dt.type(x))
            return Tensor(_device_scalar(v, dt, x))
        raise TypeError(f"Cannot convert {x!r} to EagerTensor of dtype {_d.from_numpy(dt).name}")
    if tx is _int or tx is builtins.bool:
        if dt.kind == "b" and tx is not builtins.bool:
            raise TypeError(f"Cannot convert {x!r} to EagerTensor of dtype bool")
        if _MODULES.get(type(v)) is np:
            return Tensor(dt.type(x))
        return Tensor(_device_scalar(v, dt, x))
    if isinstance(x, (np.ndarray, np.generic)):
        if x.dtype == dt:
            return convert_to_tensor(x)
        if (x.dtype.kind in "fc" and dt.kind in "fc") or (x.dtype.kind in "iub" and dt.kind in "iu"):
            return convert_to_tensor(np.asarray(x, dtype=dt))
        raise InvalidArgumentError(
            f"cannot compute {name} as input #1(zero-based) was expected to be a "
            f"{_d.from_numpy(dt).name} tensor but is a {_d.from_numpy(x.dtype).name} tensor [Op:{name}]")
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


def _pair(a, b, name):
    ta = type(a)
    if ta is Variable:
        a = a._read()
        ta = Tensor
    tb = type(b)
    if tb is Variable:
        b = b._read()
        tb = Tensor
    if ta is Tensor:
        if tb is Tensor:
            da = a._value.dtype
            db = b._value.dtype
            if da is not db and da != db:
                raise InvalidArgumentError(
                    f"cannot compute {name} as input #1(zero-based) was expected to be a "
                    f"{_d.from_numpy(da).name} tensor but is a {_d.from_numpy(db).name} tensor "
                    f"[Op:{name}]")
            return a, b
        if tb is _float:  # fast path: a Python float meets a floating tensor on the host
            v = a._value
            dt = v.dtype
            if dt.kind in "fc" and _ARRAY_MODULES.get(type(v)) is np:
                by_type = _HOST_CONSTANTS.get(b)
                c = by_type.get(dt.type) if by_type is not None else None
                return a, c if c is not None else _host_constant(b, dt.type)
        return a, _adapt(b, a, name)
    if tb is Tensor:
        if ta is _float:
            v = b._value
            dt = v.dtype
            if dt.kind in "fc" and _ARRAY_MODULES.get(type(v)) is np:
                return _host_constant(a, dt.type), b
        return _adapt(a, b, name), b
    if isinstance(a, Tensor) or isinstance(b, Tensor):
        return _pair(_to_tensor(a) if isinstance(a, Tensor) else a,
                     _to_tensor(b) if isinstance(b, Tensor) else b, name)
    a = convert_to_tensor(a)
    return a, _adapt(b, a, name)


def _axis_tuple(axis, ndim):
    if axis is None:
        return None
    if isinstance(axis, Tensor):
        axis = B.to_host(axis._value).tolist()
    if isinstance(axis, (list, tuple)):
        ax = tuple(_int(a) % ndim if ndim else 0 for a in axis)
    else:
        ax = (_int(axis) % ndim if ndim else 0,)
    return ax


def _shape_tuple(shape):
    if isinstance(shape, Tensor):
        return tuple(_int(s) for s in B.to_host(shape._value).reshape(-1))
    if isinstance(shape, (int, np.integer)):
        return (_int(shape),)
    return tuple(_int(s) if not isinstance(s, Tensor) else _int(s) for s in shape)


# ------------------------------------------------------------------------------------------
# Broadcasting, undone in one place
# ------------------------------------------------------------------------------------------

def _unbroadcast_fwd(g, shape):
    nd = g.ndim - len(shape)
    axes = tuple(_brange(nd)) + tuple(i + nd for i, s in enumerate(shape) if s == 1 and g.shape[i + nd] != 1)
    r = g.sum(axis=axes) if axes else g
    return r.reshape(shape)


_Unbroadcast = _prim(
    "Unbroadcast", _unbroadcast_fwd,
    [lambda g, ans, x, shape: broadcast_to(g, x._value.shape)])


def unbroadcast(g, shape):
    """Sum ``g`` over the axes that broadcasting added or stretched, giving ``shape``."""
    return apply(_Unbroadcast, (g,), {"shape": tuple(shape)})


def _broadcast_fwd(x, shape):
    return xp(x).broadcast_to(x, shape)


_BroadcastTo = _prim("BroadcastTo", _broadcast_fwd,
                         [lambda g, ans, x, shape: unbroadcast(g, x._value.shape)])


def broadcast_to(x, shape, name=None):
    x = _to_tensor(x)
    shape = _shape_tuple(shape)
    if tuple(x._value.shape) == shape:
        return x
    return apply(_BroadcastTo, (x,), {"shape": shape})


# ------------------------------------------------------------------------------------------
# Arithmetic
# ------------------------------------------------------------------------------------------

def _mk_binary(name, fwd, vjps):
    prim = _prim(name, fwd, vjps)
    pname = prim.name

    def op(x, y, name=None):
        tx = type(x)
        ty = type(y)
        if tx is Tensor:
            if ty is Tensor:
                vx = x._value
                vy = y._value
                t = type(vx)
                # one dtype? (a NumPy scalar's type fixes its dtype: no .dtype read for scalars)
                if t is type(vy) and (t in _SCALAR_KIND or vx.dtype is vy.dtype):
                    if not _tapes and not _accumulators and not _multi[0]:
                        # nothing records and there is one array module: all apply() would do
                        out = _new(Tensor)
                        out._value = prim.fwd(vx, vy)
                        out._id = _next_id()
                        return out
                    return apply(prim, (x, y), {})
            elif ty is _float:
                # a tensor and a Python float (y * 0.9): _pair's first fast path, without its call
                v = x._value
                st = type(v)  # a NumPy scalar's type is its dtype's scalar type
                kind = _SCALAR_KIND.get(st)
                if kind is None:
                    dt = v.dtype
                    kind = dt.kind
                    st = dt.type
                if kind in "fc" and (not _multi[0] or _ARRAY_MODULES.get(type(v)) is np):
                    by_type = _HOST_CONSTANTS.get(y)
                    c = by_type.get(st) if by_type is not None else None
                    return apply(prim, (x, c if c is not None else _host_constant(y, st)), {})
        a, b = _pair(x, y, pname)
        return apply(prim, (a, b), {})

    op.prim = prim
    return op


# a + b, a - b, a * b, a / b on arrays of any backend; operator's C functions, no Python frame
_add = operator.add
_sub = operator.sub
_mul = operator.mul
_div = operator.truediv


add = _mk_binary("AddV2", _add, [lambda g, ans, x, y: g, lambda g, ans, x, y: g])
subtract = _mk_binary("Sub", _sub, [lambda g, ans, x, y: g, lambda g, ans, x, y: negative(g)])
multiply = _mk_binary("Mul", _mul, [lambda g, ans, x, y: multiply(g, y),
                                    lambda g, ans, x, y: multiply(g, x)])


def _truediv_fwd(a, b):
    if a.dtype.kind in "iu":
        # TensorFlow's truediv: int32 -> float64, int8/16 -> float32
        ft = np.float64 if a.dtype.itemsize >= 4 else np.float32
        return a.astype(ft) / b.astype(ft)
    return a / b


_RealDiv = _prim("RealDiv", _truediv_fwd,
                     [lambda g, ans, x, y: divide(g, y),
                      lambda g, ans, x, y: negative(multiply(g, divide(ans, y)))])


def divide(x, y, name=None):
    a, b = _pair(x, y, "RealDiv")
    return apply(_RealDiv, (a, b), {})


truediv = divide

floordiv = _mk_binary("FloorDiv", lambda a, b: a // b, None)
floormod = _mk_binary("FloorMod", lambda a, b: xp(a).mod(a, b),
                      [lambda g, ans, x, y: g,
                       lambda g, ans, x, y: multiply(negative(g), floor(divide(x, y)))])
mod = floormod


def _pow_fwd(a, b):
    return xp(a).power(a, b)


def _pow_dx(g, ans, x, y):
    return multiply(g, multiply(y, pow(x, subtract(y, 1))))


def _pow_dy(g, ans, x, y):
    safe_x = where(greater(x, 0), x, ones_like(x))
    return multiply(g, multiply(ans, log(safe_x)))


pow = _mk_binary("Pow", _pow_fwd, [_pow_dx, _pow_dy])  # noqa: A001

_maximum = _prim("Maximum", lambda a, b: xp(a).maximum(a, b),
                     [lambda g, ans, x, y: multiply(g, cast(greater_equal(x, y), g.dtype)),
                      lambda g, ans, x, y: multiply(g, cast(less(x, y), g.dtype))])
_minimum = _prim("Minimum", lambda a, b: xp(a).minimum(a, b),
                     [lambda g, ans, x, y: multiply(g, cast(less_equal(x, y), g.dtype)),
                      lambda g, ans, x, y: multiply(g, cast(greater(x, y), g.dtype))])


def maximum(x, y, name=None):
    a, b = _pair(x, y, "Maximum")
    return apply(_maximum, (a, b), {})


def minimum(x, y, name=None):
    a, b = _pair(x, y, "Minimum")
    return apply(_minimum, (a, b), {})


squared_difference = _mk_binary(
    "SquaredDifference", lambda a, b: (a - b) * (a - b),
    [lambda g, ans, x, y: multiply(g, multiply(subtract(x, y), 2)),
     lambda g, ans, x, y: multiply(g, multiply(subtract(y, x), 2))])


def _atan2_dy(g, ans, y, x):
    return divide(multiply(g, x), add(square(x), square(y)))


def _atan2_dx(g, ans, y, x):
    return divide(multiply(negative(g), y), add(square(x), square(y)))


atan2 = _mk_binary("Atan2", lambda y, x: xp(y).arctan2(y, x), [_atan2_dy, _atan2_dx])


# ------------------------------------------------------------------------------------------
# Element-wise unary operations
# ------------------------------------------------------------------------------------------

def _mk_unary(name, fwd, vjp, save=None, float_only=True):
    prim = _prim(name, fwd, [vjp] if vjp is not None else None, save=save)

    def op(x, name=None):
        if type(x) is not Tensor:
            x = _to_tensor(x)
        if float_only and (_SCALAR_KIND.get(type(x._value)) or x._value.dtype.kind) not in "fc":
            raise InvalidArgumentError(
                f"Value for attr 'T' of {x.dtype.name} is not in the list of allowed values: "
                f"bfloat16, half, float, double, complex64, complex128 ; NodeDef: {{op {prim.name}}} "
                f"[Op:{prim.name}]")
        if not _tapes and not _accumulators and not _multi[0]:
            # nothing records and there is one array module: all that apply() would do
            out = _new(Tensor)
            out._value = prim.fwd(x._value)
            out._id = _next_id()
            return out
        return apply(prim, (x,), {})

    op.prim = prim
    op.__name__ = name.lower()
    return op


def _f(name):
    host = getattr(np, name)

    def fwd(a):  # xp(a).<name>(a), with NumPy's function looked up once
        if _ARRAY_MODULES.get(type(a)) is np:
            return host(a)
        return getattr(xp(a), name)(a)
    return fwd


negative = _mk_unary("Neg", lambda a: -a, lambda g, ans, x: negative(g), float_only=False)
neg = negative
abs = _mk_unary("Abs", _f("abs"), lambda g, ans, x: multiply(g, sign(x)), float_only=False)  # noqa: A001
sign = _mk_unary("Sign", _f("sign"), lambda g, ans, x: zeros_like(g), float_only=False)
sin = _mk_unary("Sin", _f("sin"), lambda g, ans, x: multiply(g, cos(x)))
cos = _mk_unary("Cos", _f("cos"), lambda g, ans, x: negative(multiply(g, sin(x))))
tan = _mk_unary("Tan", _f("tan"), lambda g, ans, x: multiply(g, add(square(ans), 1)))
asin = _mk_unary("Asin", _f("arcsin"),
                 lambda g, ans, x: divide(g, sqrt(subtract(1, square(x)))))
acos = _mk_unary("Acos", _f("arccos"),
                 lambda g, ans, x: negative(divide(g, sqrt(subtract(1, square(x))))))
atan = _mk_unary("Atan", _f("arctan"), lambda g, ans, x: divide(g, add(square(x), 1)))
sinh = _mk_unary("Sinh", _f("sinh"), lambda g, ans, x: multiply(g, cosh(x)))
cosh = _mk_unary("Cosh", _f("cosh"), lambda g, ans, x: multiply(g, sinh(x)))


def _keep_ans(ans, x):
    """Save only the output: what the gradients of tanh, exp and sigmoid need (not the input)."""
    return (ans,)


tanh = _mk_unary("Tanh", _f("tanh"),
                 lambda g, ans: multiply(g, subtract(1, square(ans))), save=_keep_ans)
exp = _mk_unary("Exp", _f("exp"), lambda g, ans: multiply(g, ans), save=_keep_ans)
expm1 = _mk_unary("Expm1", _f("expm1"), lambda g, ans, x: multiply(g, add(ans, 1)))
log = _mk_unary("Log", _f("log"), lambda g, ans, x: divide(g, x))
log1p = _mk_unary("Log1p", _f("log1p"), lambda g, ans, x: divide(g, add(x, 1)))
sqrt = _mk_unary("Sqrt", _f("sqrt"), lambda g, ans, x: divide(g, multiply(ans, 2)))
rsqrt = _mk_unary("Rsqrt", lambda a: 1 / xp(a).sqrt(a),
                  lambda g, ans, x: multiply(g, multiply(pow(ans, 3), -0.5)))
square = _mk_unary("Square", lambda a: a * a,
                   lambda g, ans, x: multiply(g, multiply(x, 2)), float_only=False)
reciprocal = _mk_unary("Reciprocal", lambda a: 1 / a,
                       lambda g, ans, x: negative(multiply(g, square(ans))))
inv_op = reciprocal


def _sigmoid_fwd(a):
    m = xp(a)
    # numerically stable in both tails
    e = m.exp(-m.abs(a))
    return m.where(a >= 0, 1 / (1 + e), e / (1 + e)).astype(a.dtype, copy=False)


sigmoid = _mk_unary("Sigmoid", _sigmoid_fwd,
                    lambda g, ans: multiply(g, multiply(ans, subtract(1, ans))), save=_keep_ans)


def _softplus_fwd(a):
    m = xp(a)
    return (m.maximum(a, 0) + m.log1p(m.exp(-m.abs(a)))).astype(a.dtype, copy=False)


softplus = _mk_unary("Softplus", _softplus_fwd, lambda g, ans, x: multiply(g, sigmoid(x)))


erf = _mk_unary("Erf", B.erf,
                lambda g, ans, x: multiply(g, multiply(exp(negative(square(x))), 1.1283791670955126)))

# Relu keeps a boolean mask, not its input or output: the smallest thing its gradient needs.
def _relu_save(ans, x):
    return (Tensor(ans._value > 0),)


def _relu_vjp(g, mask):
    return apply(_ReluGrad, (g,), {"mask": mask._value})


def _relu_grad_fwd(g, mask):
    return g * mask


# g * mask with the boolean mask cast inside the multiplication (no float copy of the mask, as
# TensorFlow's ReluGrad). Linear in g with a constant mask, so its own gradient is itself.
_ReluGrad = _prim("ReluGrad", _relu_grad_fwd,
                      [lambda gg, mask: apply(_ReluGrad, (gg,), {"mask": mask})],
                      save=lambda ans, g, mask: ())


relu = _mk_unary("Relu", lambda a: xp(a).maximum(a, 0), _relu_vjp, save=_relu_save)


def elu(features, name=None):
    x = _to_tensor(features)
    return apply(_Elu, (x,), {})


_Elu = _prim("Elu", lambda a: xp(a).where(a > 0, a, xp(a).expm1(xp(a).minimum(a, 0))).astype(a.dtype),
                 [lambda g, ans, x: multiply(g, where(greater(x, 0), ones_like(x), add(ans, 1)))])


def leaky_relu(features, alpha=0.2, name=None):
    x = _to_tensor(features)
    return apply(_LeakyRelu, (x,), {"alpha": _float(alpha)})


_LeakyRelu = _prim(
    "LeakyRelu", lambda a, alpha: xp(a).where(a > 0, a, a * alpha).astype(a.dtype),
    [lambda g, ans, x, alpha: multiply(g, where(greater(x, 0), ones_like(x), fill_like(x, alpha)))])

# Non-differentiable element-wise operations (gradient None, as in TensorFlow)
floor = _mk_unary("Floor", _f("floor"), None)
ceil = _mk_unary("Ceil", _f("ceil"), None)
round = _mk_unary("Round", lambda a: xp(a).round(a), None, float_only=False)  # noqa: A001 (half-to-even, like TF)
is_nan = _mk_unary("IsNan", _f("isnan"), None)
is_finite = _mk_unary("IsFinite", _f("isfinite"), None)
is_inf = _mk_unary("IsInf", _f("isinf"), None)
logical_not = _mk_unary("LogicalNot", _f("logical_not"), None, float_only=False)


def _cmp(name, fn):
    prim = _prim(name, fn, None)

    def op(x, y, name=None):
        a, b = _pair(x, y, prim.name)
        return apply(prim, (a, b), {})

    op.prim = prim
    return op


equal = _cmp("Equal", lambda a, b: xp(a).equal(a, b))
not_equal = _cmp("NotEqual", lambda a, b: xp(a).not_equal(a, b))
less = _cmp("Less", lambda a, b: xp(a).less(a, b))
less_equal = _cmp("LessEqual", lambda a, b: xp(a).less_equal(a, b))
greater = _cmp("Greater", lambda a, b: xp(a).greater(a, b))
greater_equal = _cmp("GreaterEqual", lambda a, b: xp(a).greater_equal(a, b))
logical_and = _cmp("LogicalAnd", lambda a, b: xp(a).logical_and(a, b))
logical_or = _cmp("LogicalOr", lambda a, b: xp(a).logical_or(a, b))
logical_xor = _cmp("LogicalXor", lambda a, b: xp(a).logical_xor(a, b))


# ------------------------------------------------------------------------------------------
# Identity, stop_gradient, cast
# ------------------------------------------------------------------------------------------

_Identity = _prim("Identity", lambda a: a, [lambda g, ans, x: g])
_StopGradient = _prim("StopGradient", lambda a: a, None)


def identity(input, name=None):  # noqa: A002
    return apply(_Identity, (_to_tensor(input),), {})


def stop_gradient(input, name=None):  # noqa: A002
    """The same value, but gradients do not flow through it (they become None)."""
    return apply(_StopGradient, (_to_tensor(input),), {})


def _cast_fwd(a, dtype):
    return a.astype(dtype._np, copy=False) if a.dtype != dtype._np else a


def _cast_vjp(g, ans, x, dtype):
    if x._value.dtype.kind in "fc":
        return cast(g, x.dtype)
    return None


_Cast = _prim("Cast", _cast_fwd, [_cast_vjp])


def cast(x, dtype, name=None):
    """Convert to another dtype; gradients flow only between floating dtypes."""
    x = _to_tensor(x)
    dtype = _d.as_dtype(dtype)
    if x._value.dtype == dtype._np:
        return x
    return apply(_Cast, (x,), {"dtype": dtype})


# ------------------------------------------------------------------------------------------
# Reductions
# ------------------------------------------------------------------------------------------

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


def _sum_fwd(a, axes, keepdims):
    if a.dtype.kind in "iu":  # NumPy would widen int32 to int64; TensorFlow keeps the dtype
        return xp(a).sum(a, axis=axes, keepdims=keepdims, dtype=a.dtype)
    return xp(a).sum(a, axis=axes, keepdims=keepdims)


_Sum = _prim("Sum", _sum_fwd,
                 [lambda g, ans, x, axes, keepdims: _expand_back(g, x, axes, keepdims)])


def _mean_fwd(a, axes, keepdims):
    return xp(a).mean(a, axis=axes, keepdims=keepdims).astype(a.dtype, copy=False)


def _mean_vjp(g, ans, x, axes, keepdims):
    n = x._value.size // max(ans._value.size, 1) if x._value.size else 1
    return _expand_back(divide(g, _float(n) if g._value.dtype.kind in "fc" else n), x, axes, keepdims)


_Mean = _prim("Mean", _mean_fwd, [_mean_vjp])


def _extreme_vjp(g, ans, x, axes, keepdims):
    a = ans if keepdims else reshape(ans, _kept_shape(x._value.shape, axes))
    ind = cast(equal(x, a), g.dtype)
    count = reduce_sum(ind, axis=axes, keepdims=True)
    return multiply(divide(ind, count), _expand_back(g, x, axes, keepdims))


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


_Max = _prim("Max", _max_fwd, [_extreme_vjp])
_Min = _prim("Min", _min_fwd, [_extreme_vjp])


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


def _prod_fwd(a, axes, keepdims):
    if a.dtype.kind in "iu":
        return xp(a).prod(a, axis=axes, keepdims=keepdims, dtype=a.dtype)
    return xp(a).prod(a, axis=axes, keepdims=keepdims)


_Prod = _prim("Prod", _prod_fwd, [_prod_vjp])


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


def _lse_vjp(g, ans, x, axes, keepdims):
    a = ans if keepdims else reshape(ans, _kept_shape(x._value.shape, axes))
    return multiply(exp(subtract(x, a)), _expand_back(g, x, axes, keepdims))


_LogSumExp = _prim("LogSumExp", _lse_fwd, [_lse_vjp])


def _mk_reduce(prim, float_result=False):
    def op(input_tensor, axis=None, keepdims=False, name=None):
        x = _to_tensor(input_tensor)
        return apply(prim, (x,), {"axes": _axis_tuple(axis, x._value.ndim), "keepdims": builtins.bool(keepdims)})

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
    axes = _axis_tuple(axis, x._value.ndim)
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
    prim = _prim(name, fn, None)

    def op(input_tensor, axis=None, keepdims=False, name=None):
        x = _to_tensor(input_tensor)
        return apply(prim, (x,), {"axes": _axis_tuple(axis, x._value.ndim), "keepdims": builtins.bool(keepdims)})

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


_Cumsum = _prim("Cumsum", _cumsum_fwd,
                    [lambda g, ans, x, axis, exclusive, reverse:
                     cumsum(g, axis=axis, exclusive=exclusive, reverse=not reverse)])


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


def _cumprod_vjp(g, ans, x, axis, exclusive, reverse):
    # valid where x has no zeros (the common case); TensorFlow's rule has the same caveat
    return divide(cumsum(multiply(g, ans), axis=axis, exclusive=exclusive, reverse=not reverse), x)


_Cumprod = _prim("Cumprod", _cumprod_fwd, [_cumprod_vjp])


def cumprod(x, axis=0, exclusive=False, reverse=False, name=None):
    x = _to_tensor(x)
    return apply(_Cumprod, (x,), {"axis": _int(axis) % max(x._value.ndim, 1),
                                  "exclusive": builtins.bool(exclusive), "reverse": builtins.bool(reverse)})


def _arg(name, fn):
    prim = _prim(name, fn, None)

    def op(input, axis=None, output_type=_d.int64, name=None):  # noqa: A002
        x = _to_tensor(input)
        ax = 0 if axis is None else _int(axis) % max(x._value.ndim, 1)
        return apply(prim, (x,), {"axis": ax, "out": _d.as_dtype(output_type)._np})

    return op


argmax = _arg("ArgMax", lambda a, axis, out: xp(a).argmax(a, axis=axis).astype(out))
argmin = _arg("ArgMin", lambda a, axis, out: xp(a).argmin(a, axis=axis).astype(out))


# ------------------------------------------------------------------------------------------
# Shapes and indexing
# ------------------------------------------------------------------------------------------

def _reshape_fwd(a, shape):
    return a.reshape(shape)


_Reshape = _prim("Reshape", _reshape_fwd, [lambda g, ans, x, shape: reshape(g, x._value.shape)])


def reshape(tensor, shape, name=None):
    x = _to_tensor(tensor)
    shape = _shape_tuple(shape)
    if -1 in shape:
        known = 1
        for s in shape:
            if s != -1:
                known *= s
        if shape.count(-1) > 1 or (known and x._value.size % known) or (not known and x._value.size):
            raise InvalidArgumentError(f"Input to reshape is a tensor with {x._value.size} values, "
                                       f"but the requested shape is {list(shape)} [Op:Reshape]")
        shape = tuple((x._value.size // known if known else 0) if s == -1 else s for s in shape)
    if int(np.prod(shape)) != x._value.size:
        raise InvalidArgumentError(f"Input to reshape is a tensor with {x._value.size} values, but "
                                   f"the requested shape has {int(np.prod(shape))} [Op:Reshape]")
    if tuple(x._value.shape) == shape:
        return x
    return apply(_Reshape, (x,), {"shape": shape})


def _transpose_vjp(g, ans, x, perm):
    inv = [0] * len(perm)
    for i, p in enumerate(perm):
        inv[p] = i
    return transpose(g, inv)


_Transpose = _prim("Transpose", lambda a, perm: xp(a).transpose(a, perm), [_transpose_vjp])


def transpose(a, perm=None, conjugate=False, name=None):
    x = _to_tensor(a)
    nd = x._value.ndim
    perm = tuple(_brange(nd - 1, -1, -1)) if perm is None else tuple(_int(p) % nd for p in perm)
    return apply(_Transpose, (x,), {"perm": perm})


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


_GetItem = _prim("StridedSlice", _getitem_fwd,
                     [lambda g, ans, x, key: _scatter_to(g, key, x._value.shape)])
_ScatterTo = _prim("ScatterTo", _scatter_fwd,
                       [lambda gg, ans, g, key, shape: apply(_GetItem, (gg,), {"key": key})])


def _scatter_to(g, key, shape):
    return apply(_ScatterTo, (g,), {"key": key, "shape": tuple(shape)})


def getitem(x, key):
    x = _to_tensor(x)
    key = _key_to_arrays(key)
    return apply(_GetItem, (x,), {"key": key})


def _concat_vjp_k(k, g, ans, *inputs, axis):
    start = 0
    for x in inputs[:k]:
        start += x._value.shape[axis]
    stop = start + inputs[k]._value.shape[axis]
    key = (slice(None),) * axis + (slice(start, stop),)
    return apply(_GetItem, (g,), {"key": key})


_EachInput = EachInput


def _concat_fwd(*arrays, axis):
    return xp(arrays[0]).concatenate(arrays, axis=axis)


_Concat = _prim("ConcatV2", _concat_fwd, None)
_Concat.defvjps(_EachInput(_concat_vjp_k))


def _same_dtype(values, name):
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
            raise InvalidArgumentError(
                f"cannot compute {name} as input #1(zero-based) was expected to be a "
                f"{first.dtype.name} tensor but is a {t.dtype.name} tensor [Op:{name}]")
        out.append(t)
    return out


def concat(values, axis, name="concat"):
    ts = _same_dtype(list(values), "ConcatV2")
    nd = ts[0]._value.ndim
    if not -max(nd, 1) <= _int(axis) < max(nd, 1):
        raise InvalidArgumentError(f"ConcatOp : Expected concatenating dimensions in the range "
                                   f"[{-nd}, {nd}), but got {_int(axis)} [Op:ConcatV2] name: {name}")
    ax = _int(axis) % nd if nd else 0
    s0 = ts[0]._value.shape
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


def _stack_vjp_k(k, g, ans, *inputs, axis):
    key = (slice(None),) * axis + (k,)
    return apply(_GetItem, (g,), {"key": key})


_Pack = _prim("Pack", lambda *arrays, axis: xp(arrays[0]).stack(arrays, axis=axis), None)
_Pack.defvjps(_EachInput(_stack_vjp_k))


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


def _gather_vjp(g, ans, x, indices, axis):
    return apply(_ScatterAxis, (g,), {"indices": indices, "axis": axis, "shape": x._value.shape})


def _scatter_axis_fwd(g, indices, axis, shape):
    m = xp(g)
    z = m.zeros(shape, dtype=g.dtype)
    zt = m.moveaxis(z, axis, 0)
    gt = m.moveaxis(g, list(_brange(axis, axis + indices.ndim)), list(_brange(indices.ndim)))
    B.add_at(zt, indices, gt)
    return z


_GatherV2 = _prim("GatherV2", _gather_fwd, [_gather_vjp])
_ScatterAxis = _prim(
    "ScatterAxis", _scatter_axis_fwd,
    [lambda gg, ans, g, indices, axis, shape: apply(_GatherV2, (gg,), {"indices": indices, "axis": axis})])


def gather(params, indices, axis=None, batch_dims=0, name=None):
    x = _to_tensor(params)
    idx = _to_tensor(indices)._value if isinstance(indices, Tensor) else np.asarray(indices)
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
                                       f"is not in [0, {n}) [Op:GatherV2]")
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


_SelectV2 = _prim("SelectV2", _where_fwd,
                      [lambda g, ans, x, y, cond: where(Tensor(cond), g, zeros_like(g)),
                       lambda g, ans, x, y, cond: where(Tensor(cond), zeros_like(g), g)])


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


def _tile_vjp(g, ans, x, multiples):
    shape = x._value.shape
    inter = []
    for m, s in zip(multiples, shape):
        inter += [m, s]
    r = reshape(g, inter)
    return reduce_sum(r, axis=list(_brange(0, 2 * len(shape), 2)))


_Tile = _prim("Tile", lambda a, multiples: xp(a).tile(a, multiples), [_tile_vjp])


def tile(input, multiples, name=None):  # noqa: A002
    x = _to_tensor(input)
    return apply(_Tile, (x,), {"multiples": _shape_tuple(multiples)})


def _pad_vjp(g, ans, x, paddings, constant_values):
    key = tuple(slice(lo, lo + s) for (lo, hi), s in zip(paddings, x._value.shape))
    return apply(_GetItem, (g,), {"key": key})


_Pad = _prim("Pad", lambda a, paddings, constant_values:
                 xp(a).pad(a, paddings, constant_values=constant_values), [_pad_vjp])


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


# ------------------------------------------------------------------------------------------
# Linear algebra
# ------------------------------------------------------------------------------------------

def _mT(x):
    nd = x._value.ndim
    perm = list(_brange(nd - 2)) + [nd - 1, nd - 2]
    return transpose(x, perm)


_MatMul = _prim("MatMul", lambda a, b: a @ b,
                    [lambda g, ans, a, b: matmul(g, b, transpose_b=True),
                     lambda g, ans, a, b: matmul(a, g, transpose_a=True)])


def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False,
           a_is_sparse=False, b_is_sparse=False, output_type=None, name=None):
    """Matrix product of the last two axes (batched over leading axes)."""
    x, y = _pair(a, b, "MatMul")
    for i, t in enumerate((x, y)):
        if t._value.ndim < 2:
            raise InvalidArgumentError(f"In[{i}] ndims must be >= 2: {t._value.ndim} [Op:MatMul]"
                                       if t._value.ndim else
                                       f"In[{i}] is not a matrix. Instead it has shape [] [Op:MatMul]")
    if transpose_a or adjoint_a:
        x = _mT(x)
    if transpose_b or adjoint_b:
        y = _mT(y)
    if x._value.shape[-1] != y._value.shape[-2]:
        raise InvalidArgumentError(
            f"Matrix size-incompatible: In[0]: {list(x._value.shape)}, In[1]: "
            f"{list(y._value.shape)} [Op:MatMul]")
    return apply(_MatMul, (x, y), {})


def tensordot(a, b, axes, name=None):
    return einsum(_tensordot_spec(_to_tensor(a)._value.ndim, _to_tensor(b)._value.ndim, axes), a, b)


def _tensordot_spec(na, nb, axes):
    letters = "abcdefghijklmnopqrstuvwxyz"
    if isinstance(axes, int):
        ax_a = list(_brange(na - axes, na))
        ax_b = list(_brange(axes))
    else:
        ax_a, ax_b = [list(x) if isinstance(x, (list, tuple)) else [x] for x in axes]
    sa = list(letters[:na])
    sb = list(letters[na:na + nb])
    for i, j in zip(ax_a, ax_b):
        sb[j % nb] = sa[i % na]
    out = [c for i, c in enumerate(sa) if i not in [k % na for k in ax_a]] + \
          [c for j, c in enumerate(sb) if j not in [k % nb for k in ax_b]]
    return "".join(sa) + "," + "".join(sb) + "->" + "".join(out)


def _expand_ellipsis(spec, ndims):
    """Rewrite ``...`` as explicit letters (right-aligned, as NumPy broadcasts them)."""
    import string
    ins, arrow, out = spec.partition("->")
    subs = ins.split(",")
    if len(subs) != len(ndims):
        raise ValueError(f"einsum equation {spec!r} names {len(subs)} operands, got {len(ndims)}")
    free = [c for c in string.ascii_letters if c not in spec]
    counts = [nd - (len(s) - 3) for s, nd in zip(subs, ndims) if "..." in s]
    n = max(counts) if counts else 0
    if any(c < 0 for c in counts):
        raise ValueError(f"einsum equation {spec!r} has more indices than an operand has dimensions")
    ell = "".join(free[:n])
    subs = [s.replace("...", ell[n - (nd - (len(s) - 3)):] if n else "") if "..." in s else s
            for s, nd in zip(subs, ndims)]
    if arrow:
        out = out.replace("...", ell)
    else:
        letters = "".join(subs)
        out = ell + "".join(sorted(c for c in set(letters) if letters.count(c) == 1 and c not in ell))
    return ",".join(subs) + "->" + out


def _parse_einsum(spec, shapes):
    spec = spec.replace(" ", "")
    if "->" in spec:
        ins, out = spec.split("->")
    else:
        ins = spec
        letters = [c for c in ins.replace(",", "")]
        out = "".join(sorted(c for c in set(letters) if letters.count(c) == 1))
    return ins.split(","), out


def _einsum_vjp_k(k, g, ans, *inputs, spec):
    """Operand k's gradient is itself an einsum: of g with the other operands, onto k's
    distinct indices; indices summed only inside operand k come back as a broadcast (a ones
    vector), repeated indices (a diagonal, ``ii``) as a product with the identity."""
    import string
    ins, out = _parse_einsum(spec, None)
    target = ins[k]
    shape = inputs[k]._value.shape
    others = [ins[j] for j in builtins.range(len(ins)) if j != k]
    available = set(out).union(*[set(o) for o in others]) if others else set(out)
    uniq = "".join(dict.fromkeys(c for c in target if c in available))
    r = einsum(",".join([out] + others) + "->" + uniq, g,
               *[inputs[j] for j in builtins.range(len(ins)) if j != k])
    if uniq == target:
        return r
    free = iter(c for c in string.ascii_letters if c not in spec)
    specs, ops, result, seen = [uniq], [r], [], set()
    for c, n in zip(target, shape):
        if c in seen:  # a repeated index: the gradient lives on the diagonal
            f = next(free)
            specs.append(c + f)
            ops.append(eye(n, dtype=g.dtype))
            result.append(f)
            continue
        seen.add(c)
        if c not in available:  # summed inside this operand only: broadcast back
            specs.append(c)
            ops.append(ones((n,), dtype=g.dtype))
        result.append(c)
    return einsum(",".join(specs) + "->" + "".join(result), *ops)


_Einsum = _prim("Einsum", lambda *arrays, spec: xp(arrays[0]).einsum(spec, *arrays), None)
_Einsum.defvjps(_EachInput(_einsum_vjp_k))


def einsum(equation, *inputs, **kwargs):
    """Einstein summation (NumPy's notation, ``...`` included); gradients of any order."""
    ts = _same_dtype(list(inputs), "Einsum")
    spec = equation.replace(" ", "")
    if "..." in spec:
        spec = _expand_ellipsis(spec, [t._value.ndim for t in ts])
    return apply(_Einsum, tuple(ts), {"spec": spec})


def _inv_vjp(g, ans, x):
    ai = _mT(ans)
    return negative(matmul(matmul(ai, g), ai))


_MatrixInverse = _prim("MatrixInverse", lambda a: xp(a).linalg.inv(a), [_inv_vjp])


def inv(input, adjoint=False, name=None):  # noqa: A002
    return apply(_MatrixInverse, (_to_tensor(input),), {})


_MatrixDeterminant = _prim(
    "MatrixDeterminant", lambda a: xp(a).linalg.det(a),
    [lambda g, ans, x: multiply(reshape(multiply(g, ans), list(ans._value.shape) + [1, 1]), _mT(inv(x)))])


def det(input, name=None):  # noqa: A002
    return apply(_MatrixDeterminant, (_to_tensor(input),), {})


def _solve_da(g, ans, a, b):
    gb = solve(_mT(a), g)
    return negative(matmul(gb, ans, transpose_b=True))


_MatrixSolve = _prim("MatrixSolve", lambda a, b: xp(a).linalg.solve(a, b),
                         [_solve_da, lambda g, ans, a, b: solve(_mT(a), g)])


def solve(matrix, rhs, adjoint=False, name=None):
    a, b = _pair(matrix, rhs, "MatrixSolve")
    if adjoint:
        a = _mT(a)
    return apply(_MatrixSolve, (a, b), {})


def norm(tensor, ord="euclidean", axis=None, keepdims=None, name=None):  # noqa: A002
    """Vector p-norms (over all elements, or ``axis``) and matrix norms (``axis`` a pair).

    ``ord``: ``'euclidean'`` (default), a positive number, ``np.inf``; for matrices
    ``'fro'``/``'euclidean'`` (Frobenius), ``1`` (largest column sum of ``|x|``) and ``np.inf``
    (largest row sum).  As in TensorFlow, ``'fro'`` is not a vector norm.
    """
    x = _to_tensor(tensor)
    keep = builtins.bool(keepdims)
    if isinstance(axis, (list, tuple)) and len(axis) == 2:
        return _matrix_norm(x, ord, axis, keep)
    if isinstance(axis, (list, tuple)) and len(axis) > 2:
        raise ValueError(f"'axis' must be None, an integer, or a tuple of 2 unique integers, got {axis}")
    if isinstance(ord, str) and ord == "euclidean" or (not isinstance(ord, str) and ord == 2):
        return sqrt(reduce_sum(square(x), axis=axis, keepdims=keep))
    if isinstance(ord, str) or not isinstance(ord, numbers.Real) or not ord > 0:
        raise ValueError(f"'ord' must be a supported vector norm, got {ord}")
    if ord == 1:
        return reduce_sum(abs(x), axis=axis, keepdims=keep)
    if ord == np.inf:
        return reduce_max(abs(x), axis=axis, keepdims=keep)
    p = _float(ord)
    return pow(reduce_sum(pow(abs(x), p), axis=axis, keepdims=keep), 1.0 / p)


def _matrix_norm(x, ord, axis, keep):  # noqa: A002
    nd = x._value.ndim
    rows, cols = (_int(a) % nd for a in axis)
    if rows == cols:
        raise ValueError(f"'axis' must be None, an integer, or a tuple of 2 unique integers, got {axis}")
    if isinstance(ord, str) and ord in ("euclidean", "fro"):
        return sqrt(reduce_sum(square(x), axis=[rows, cols], keepdims=keep))
    if not isinstance(ord, str) and ord == 2:
        raise NotImplementedError("minitape.norm: the spectral norm (ord=2 over two axes) needs an "
                                  "SVD, which minitape does not differentiate; use ord='fro'")
    if isinstance(ord, str) or ord not in (1, np.inf):
        raise ValueError("'ord' must be a supported matrix norm in ['euclidean', 'fro', 1, 2, "
                         f"inf], got {ord}")
    summed, taken = (rows, cols) if ord == 1 else (cols, rows)  # column sums, or row sums
    r = reduce_max(reduce_sum(abs(x), axis=summed, keepdims=True), axis=taken, keepdims=True)
    return r if keep else squeeze(r, axis=[rows, cols])


# ------------------------------------------------------------------------------------------
# Neural-network helpers
# ------------------------------------------------------------------------------------------

def _softmax_fwd(a, axis):
    m = xp(a)
    e = m.exp(a - m.max(a, axis=axis, keepdims=True))
    return (e / m.sum(e, axis=axis, keepdims=True)).astype(a.dtype, copy=False)


def _softmax_vjp(g, ans, x, axis):
    return multiply(ans, subtract(g, reduce_sum(multiply(g, ans), axis=axis, keepdims=True)))


_Softmax = _prim("Softmax", _softmax_fwd, [_softmax_vjp])


def _log_softmax_fwd(a, axis):
    m = xp(a)
    s = a - m.max(a, axis=axis, keepdims=True)
    return (s - m.log(m.sum(m.exp(s), axis=axis, keepdims=True))).astype(a.dtype, copy=False)


_LogSoftmax = _prim(
    "LogSoftmax", _log_softmax_fwd,
    [lambda g, ans, x, axis: subtract(g, multiply(exp(ans), reduce_sum(g, axis=axis, keepdims=True)))])


def softmax(logits, axis=None, name=None):
    x = _to_tensor(logits)
    return apply(_Softmax, (x,), {"axis": -1 if axis is None else _int(axis)})


def log_softmax(logits, axis=None, name=None):
    x = _to_tensor(logits)
    return apply(_LogSoftmax, (x,), {"axis": -1 if axis is None else _int(axis)})


def _clip_vjp(g, ans, x, lo, hi):
    inside = logical_and(greater_equal(x, lo), less_equal(x, hi))
    return where(inside, g, zeros_like(g))


_ClipByValue = _prim("ClipByValue", lambda a, lo, hi: xp(a).clip(a, lo, hi).astype(a.dtype, copy=False),
                         [_clip_vjp])


def clip_by_value(t, clip_value_min, clip_value_max, name=None):
    """Clip to ``[clip_value_min, clip_value_max]``; tensor bounds receive gradients too."""
    x = _to_tensor(t)
    if isinstance(clip_value_min, Tensor) or isinstance(clip_value_max, Tensor):
        # TensorFlow's composition: gradient to t inside the bounds (inclusive), to a bound
        # where it is the one taken.
        return maximum(minimum(x, clip_value_max), clip_value_min)
    lo = _adapt(clip_value_min, x, "ClipByValue")._value if not isinstance(clip_value_min, Tensor) \
        else _to_tensor(clip_value_min)._value
    hi = _adapt(clip_value_max, x, "ClipByValue")._value if not isinstance(clip_value_max, Tensor) \
        else _to_tensor(clip_value_max)._value
    return apply(_ClipByValue, (x,), {"lo": lo, "hi": hi})


def clip_by_norm(t, clip_norm, axes=None, name=None):
    """Rescale ``t`` so that its L2 norm (over ``axes``) is at most ``clip_norm``.

    TensorFlow's formulation, whose gradient stays finite at ``t = 0`` (the norm's square root
    is never differentiated at zero).
    """
    x = _to_tensor(t)
    c = _adapt(clip_norm, x, "ClipByNorm") if not isinstance(clip_norm, Tensor) else _to_tensor(clip_norm)
    l2sum = reduce_sum(multiply(x, x), axis=axes, keepdims=True)
    pred = greater(l2sum, 0)
    l2norm = where(pred, sqrt(where(pred, l2sum, ones_like(l2sum))), l2sum)
    return divide(multiply(x, c), maximum(l2norm, c))


def add_n(inputs, name=None):
    inputs = list(inputs)
    if not inputs:
        raise ValueError("inputs must be a non-empty list of tensors")
    r = _to_tensor(inputs[0])
    for i, t in enumerate(inputs[1:], 1):
        t = _to_tensor(t)
        if t._value.shape != r._value.shape:
            raise InvalidArgumentError(
                f"Inputs to operation AddN of type AddN must have the same size and shape.  Input 0: "
                f"{_shape_str(r._value.shape)} != input {i}: {_shape_str(t._value.shape)} [Op:AddN]")
        r = add(r, t)
    return r


_AdjustContrast = _prim(
    "AdjustContrastv2",
    lambda img, factor: ((img - img.mean(axis=(-3, -2), keepdims=True)) * factor
                         + img.mean(axis=(-3, -2), keepdims=True)).astype(img.dtype, copy=False),
    None, no_gradient=True)


def adjust_contrast(images, contrast_factor):
    """Scale each channel's distance from its mean.  Has no registered gradient (as in TF)."""
    a, f = _pair(images, contrast_factor, "AdjustContrastv2")
    if a._value.ndim < 3:
        raise InvalidArgumentError("input must be at least 3-D, got shape "
                                   f"{list(a._value.shape)} [Op:AdjustContrastv2]")
    return apply(_AdjustContrast, (a, f), {})


# ------------------------------------------------------------------------------------------
# More of TensorFlow's operations: new primitives where the gradient is a formula, otherwise
# compositions of the operations above (their gradients, of any order, come for free)
# ------------------------------------------------------------------------------------------

asinh = _mk_unary("Asinh", _f("arcsinh"), lambda g, ans, x: divide(g, sqrt(add(square(x), 1))))
acosh = _mk_unary("Acosh", _f("arccosh"), lambda g, ans, x: divide(g, sqrt(subtract(square(x), 1))))
atanh = _mk_unary("Atanh", _f("arctanh"), lambda g, ans, x: divide(g, subtract(1, square(x))))


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


def softsign(features, name=None):
    x = _to_tensor(features)
    return divide(x, add(abs(x), 1))


def gelu(features, approximate=False, name=None):
    """Gaussian error linear unit: ``x * Phi(x)`` (``approximate=True``: the tanh form)."""
    x = _to_tensor(features)
    if approximate:
        inner = multiply(add(x, multiply(pow(x, 3), 0.044715)), 0.7978845608028654)
        return multiply(multiply(x, 0.5), add(tanh(inner), 1))
    return multiply(multiply(x, 0.5), add(erf(multiply(x, 0.7071067811865476)), 1))


def selu(features, name=None):
    """``scale * elu(x)`` with ``alpha`` on the negative side (Klambauer et al. constants)."""
    x = _to_tensor(features)
    alpha, scale = 1.6732632423543772, 1.0507009873554805
    neg = multiply(expm1(minimum(x, 0)), alpha)
    return multiply(where(greater(x, 0), x, neg), scale)


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
        from ._core import TensorShape
        raise ValueError(f"Shapes {TensorShape(x._value.shape[ax:ax + k])} and "
                         f"{TensorShape(mk.shape)} are incompatible")
    if B.xp(mk) is not B.xp(x._value):
        mk = B.xp(x._value).asarray(B.to_host(mk))
    return getitem(x, (slice(None),) * ax + (mk,))


def gather_nd(params, indices, batch_dims=0, name=None):
    """``params[indices[..., 0], indices[..., 1], ...]`` for every leading index position."""
    x = _to_tensor(params)
    idx = _to_tensor(indices)._value if isinstance(indices, Tensor) else np.asarray(indices)
    if idx.dtype.kind not in "iu":
        raise TypeError(f"gather_nd indices must be integers, got {idx.dtype}")
    bd = _int(batch_dims)
    if idx.ndim < 1 or idx.shape[-1] + bd > x._value.ndim:
        raise InvalidArgumentError(f"index innermost dimension length must be <= params rank; saw: "
                                   f"{idx.shape[-1] if idx.ndim else 0} vs. {x._value.ndim} [Op:GatherNd]")
    shape = x._value.shape
    host = B.to_host(idx)
    for j in builtins.range(idx.shape[-1]):
        col = host[..., j]
        dim = shape[bd + j]
        if col.size and (col.min() < 0 or col.max() >= dim):
            bad = np.argwhere((col < 0) | (col >= dim))[0]
            raise InvalidArgumentError(f"indices{list(_int(i) for i in bad)} = "
                                       f"{host[tuple(bad)].tolist()} does not index into param shape "
                                       f"{list(shape)} [Op:GatherNd]")
    m = xp(x._value)
    if B.xp(idx) is not m:
        idx = m.asarray(host)
    inner = idx.ndim - 1 - bd  # index dimensions after the batch ones
    key = tuple(m.arange(shape[i]).reshape((shape[i],) + (1,) * (bd - 1 - i + inner))
                for i in builtins.range(bd))
    key = key + tuple(idx[..., j] for j in builtins.range(idx.shape[-1]))
    return getitem(x, key)


def _slogdet_fwd(a):
    return xp(a).linalg.slogdet(a)[1]


_LogAbsDet = _prim("LogMatrixDeterminant", _slogdet_fwd,
                       [lambda g, ans, x: multiply(reshape(g, list(g._value.shape) + [1, 1]), _mT(inv(x)))])


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


# ------------------------------------------------------------------------------------------
# Creation
# ------------------------------------------------------------------------------------------

def _creation_module():
    return B.default_module()


def zeros(shape, dtype=_d.float32, name=None):
    return Tensor(_creation_module().zeros(_shape_tuple(shape), dtype=_d.as_dtype(dtype)._np))


def ones(shape, dtype=_d.float32, name=None):
    return Tensor(_creation_module().ones(_shape_tuple(shape), dtype=_d.as_dtype(dtype)._np))


def fill(dims, value, name=None):
    v = convert_to_tensor(value)
    mod = _creation_module()
    return Tensor(mod.full(_shape_tuple(dims), B.move(v._value, mod), dtype=v._value.dtype))


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
    dt = s._value.dtype if s._value.dtype.kind == "f" else np.float32
    return Tensor(_creation_module().linspace(_float(start), _float(stop), _int(num), dtype=dt))


def range(start, limit=None, delta=1, dtype=None, name="range"):  # noqa: A001
    if limit is None:
        start, limit = 0, start
    vals = [start, limit, delta]
    if dtype is None:
        dtype = _d.float32 if any(isinstance(v, _float) or (isinstance(v, Tensor) and v.dtype.is_floating)
                                  for v in vals) else _d.int32
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


# ------------------------------------------------------------------------------------------
# Operator overloads on Tensor (Variables inherit them)
# ------------------------------------------------------------------------------------------

def _rev(fn):
    return lambda self, other: fn(other, self)


def _install_operators():
    T = Tensor
    # The operation itself is the method (no extra Python frame per operator).
    T.__add__ = add
    T.__radd__ = _rev(add)
    T.__sub__ = subtract
    T.__rsub__ = _rev(subtract)
    T.__mul__ = multiply
    T.__rmul__ = _rev(multiply)
    T.__truediv__ = divide
    T.__rtruediv__ = _rev(divide)
    T.__floordiv__ = lambda s, o: floordiv(s, o)
    T.__rfloordiv__ = _rev(floordiv)
    T.__mod__ = lambda s, o: floormod(s, o)
    T.__rmod__ = _rev(floormod)
    T.__pow__ = lambda s, o: pow(s, o)
    T.__rpow__ = _rev(pow)
    T.__matmul__ = lambda s, o: matmul(s, o)
    T.__rmatmul__ = _rev(matmul)
    T.__neg__ = lambda s: negative(s)
    T.__pos__ = lambda s: s
    T.__abs__ = lambda s: abs(s)
    T.__lt__ = lambda s, o: less(s, o)
    T.__le__ = lambda s, o: less_equal(s, o)
    T.__gt__ = lambda s, o: greater(s, o)
    T.__ge__ = lambda s, o: greater_equal(s, o)
    T.__eq__ = lambda s, o: equal(s, o) if o is not None else False
    T.__ne__ = lambda s, o: not_equal(s, o) if o is not None else True
    T.__and__ = lambda s, o: logical_and(s, o)
    T.__or__ = lambda s, o: logical_or(s, o)
    T.__xor__ = lambda s, o: logical_xor(s, o)
    T.__invert__ = lambda s: logical_not(s)
    T.__getitem__ = getitem
    T.__hash__ = None


_install_operators()
install_operations(stack=stack, cast=cast, identity=identity)

# ``x + 1`` on a Variable remembers that the Tensor came from it (cheap; only Variable operands),
# so that debugging.why_none can say "a Variable was replaced by a Tensor".
from . import _trace  # noqa: E402  (below this layer)
_trace.install_variable_operators(Variable, Tensor)
