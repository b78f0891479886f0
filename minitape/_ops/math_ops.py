"""Forward primitives, element-wise: arithmetic, unary functions, comparisons, cast.

Gradient rules live in :mod:`.math_grads`.
"""
from __future__ import annotations

import operator

from .. import _backend as B
from .._backend import quiet_run as _quiet_run, quiet_call as _quiet_call
from .. import dtypes as _d
from .._core import Tensor, apply, apply1, apply2, primitive, _to_tensor, _new, _SCALAR_KIND, broadcast_error
from .._state import next_id as _next_id, tapes as _tapes, accumulators as _accumulators
from .._state import multi_device as _multi  # [True] once a second array module (GPU) exists
from ..errors import InvalidArgumentError
from .._indexed_slices import IndexedSlices, concat_slices
from ._adapt import _pair, float_constant, _HOST_CONSTANTS
from ..dtypes import not_allowed, ALLOWED_ARITHMETIC

xp = B.xp
np = B.numpy  # host-side helpers only (dtype objects, index arithmetic)
_ARRAY_MODULES = B._MODULES  # type(array) -> module: xp() without the call, on hot paths
_float = float


def _mk_binary(name, fwd, prim=None, slow=None):
    """The public function of a broadcasting binary primitive (made here unless ``prim`` is
    given).  ``slow(x, y)``, when given, is tried before the general path for operands that
    are not two tensors of one dtype (its result, unless NotImplemented)."""
    if prim is None:
        prim = primitive(name, fwd, unbroadcast=True)
    pname = prim.name

    def op(x, y, name=None):
        tx = type(x)
        ty = type(y)
        if tx is Tensor:
            if ty is Tensor:
                vx = x._value
                vy = y._value
                t = type(vx)
                # one dtype? (a NumPy scalar's type fixes its dtype: no .dtype read for
                # scalars); bool goes the long way, to TF's error
                if t is type(vy) and (t in _NUM_SCALAR or (vx.dtype is vy.dtype
                                                           and vy.dtype is not _BOOL)):
                    if not _tapes and not _accumulators and not _multi[0]:
                        # nothing records and there is one array module: all apply() would do
                        out = _new(Tensor)
                        try:  # (NumPy's warnings off: _core.apply)
                            out._value = _quiet_run(prim.fwd, vx, vy)
                        except ValueError as e:  # shapes that do not broadcast: TF's error
                            err = broadcast_error(pname, (vx, vy), e)
                            if err is None:
                                raise
                            raise err from None
                        except RuntimeError:
                            out._value = _quiet_call(prim.fwd, vx, vy)
                        out._id = _next_id()
                        return out
                    return apply2(prim, x, y)
            elif ty is _float:
                # a tensor and a Python float (y * 0.9): the one float-constant shortcut.
                # Its cache is probed here first: a NumPy scalar's type is its cache key, so
                # a hit needs no call (the cache holds only host floating types)
                by_type = _HOST_CONSTANTS.get(y)
                c = by_type.get(type(x._value)) if by_type is not None else None
                if c is None:
                    c = float_constant(y, x._value)
                if c is not None:
                    return apply2(prim, x, c)
        if slow is not None:
            r = slow(x, y)
            if r is not NotImplemented:
                return r
        a, b = _pair(x, y, pname)
        if (_SCALAR_KIND.get(type(a._value)) or a._value.dtype.kind) == "b":
            raise not_allowed(pname, a._value.dtype, ALLOWED_ARITHMETIC)
        return apply2(prim, a, b)

    op.prim = prim
    return op


_NUM_SCALAR = frozenset(t for t in _SCALAR_KIND if t is not np.bool_)
_BOOL = np.dtype(np.bool_)


# a + b, a - b, a * b, a / b on arrays of any backend; operator's C functions, no Python frame
_add = operator.add


_sub = operator.sub


_mul = operator.mul


_div = operator.truediv


add = _mk_binary("AddV2", _add)


def _add_sparse(x, y):
    if type(x) is IndexedSlices and type(y) is IndexedSlices:
        # in the order the pass reaches them (TF's: nearest to the loss first)
        return concat_slices(x, y)
    return NotImplemented


# The backward pass's accumulation of two gradients of one tensor: ``add`` (the same fast path),
# except that two sparse gradients stay sparse (TF's aggregation; tf.add densifies them).
add_gradients = _mk_binary("AddV2", _add, prim=add.prim, slow=_add_sparse)


subtract = _mk_binary("Sub", _sub)


multiply = _mk_binary("Mul", _mul)


def _truediv_fwd(a, b):
    ft = _d.true_divide_dtype(a.dtype)
    if ft is not None:
        return a.astype(ft) / b.astype(ft)
    return a / b


_RealDiv = primitive("RealDiv", _truediv_fwd, unbroadcast=True)


def divide(x, y, name=None):
    a, b = _pair(x, y, "RealDiv")
    if a._value.dtype.kind == "b":
        raise not_allowed("RealDiv", a._value.dtype, ALLOWED_ARITHMETIC)
    return apply(_RealDiv, (a, b), {})


truediv = divide


def _integer_division(op, compute):
    """``compute``, refusing an integer divisor 0 as TF's kernel does (NumPy gives 0)."""
    def fwd(a, b):
        kind = _SCALAR_KIND.get(type(b)) or b.dtype.kind
        if kind in "iu" and not bool(B.to_host(xp(b).all(b))):
            raise InvalidArgumentError(f"Integer division by zero [Op:{op}]")
        return compute(a, b)
    return fwd


floordiv = _mk_binary("FloorDiv", _integer_division("FloorDiv", lambda a, b: a // b))


floormod = _mk_binary("FloorMod", _integer_division("FloorMod", lambda a, b: xp(a).mod(a, b)))


mod = floormod


def _pow_fwd(a, b):
    m = xp(a)
    if m is not np and a.dtype.kind in "iu" and b.dtype.kind in "iu" and bool(B.move((b < 0).any(), np)):
        # CuPy computes integers to negative powers (NumPy and TF refuse them): TF's error here
        # too (one reduction, only for integer operands off the host)
        raise InvalidArgumentError("Integers to negative integer powers are not allowed [Op:Pow]")
    try:
        return m.power(a, b)
    except ValueError as e:  # NumPy refuses integers to negative integer powers, as TF's kernel
        if "negative integer powers" in str(e):
            raise InvalidArgumentError("Integers to negative integer powers are not allowed "
                                       "[Op:Pow]") from None
        raise


pow = _mk_binary("Pow", _pow_fwd)  # noqa: A001


_maximum = primitive("Maximum", lambda a, b: xp(a).maximum(a, b), unbroadcast=True)


_minimum = primitive("Minimum", lambda a, b: xp(a).minimum(a, b), unbroadcast=True)


def maximum(x, y, name=None):
    a, b = _pair(x, y, "Maximum")
    return apply(_maximum, (a, b), {})


def minimum(x, y, name=None):
    a, b = _pair(x, y, "Minimum")
    return apply(_minimum, (a, b), {})


squared_difference = _mk_binary(
    "SquaredDifference", lambda a, b: (a - b) * (a - b))


atan2 = _mk_binary("Atan2", lambda y, x: xp(y).arctan2(y, x))


def _mk_unary(name, fwd, save=None, float_only=True):
    prim = primitive(name, fwd, save=save)

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
            try:  # (NumPy's warnings off: _core.apply)
                out._value = _quiet_run(prim.host, x._value)  # (one array module: NumPy)
            except RuntimeError:
                out._value = _quiet_call(prim.fwd, x._value)
            out._id = _next_id()
            return out
        return apply1(prim, x)

    op.prim = prim
    op.__name__ = name.lower()
    return op


def _f(name):
    host = getattr(np, name)

    def fwd(a):  # xp(a).<name>(a), with NumPy's function looked up once
        if _ARRAY_MODULES.get(type(a)) is np:
            return host(a)
        return getattr(xp(a), name)(a)
    fwd.host = host  # (Primitive.host: called directly while NumPy is the one array module)
    return fwd


negative = _mk_unary("Neg", lambda a: -a, float_only=False)


neg = negative


abs = _mk_unary("Abs", _f("abs"), float_only=False)  # noqa: A001


sign = _mk_unary("Sign", _f("sign"), float_only=False)


sin = _mk_unary("Sin", _f("sin"))


cos = _mk_unary("Cos", _f("cos"))


tan = _mk_unary("Tan", _f("tan"))


asin = _mk_unary("Asin", _f("arcsin"))


acos = _mk_unary("Acos", _f("arccos"))


atan = _mk_unary("Atan", _f("arctan"))


sinh = _mk_unary("Sinh", _f("sinh"))


cosh = _mk_unary("Cosh", _f("cosh"))


def _keep_ans(ans, x):
    """Save only the output: what the gradients of tanh, exp and sigmoid need (not the input)."""
    return (ans,)


tanh = _mk_unary("Tanh", _f("tanh"), save=_keep_ans)


exp = _mk_unary("Exp", _f("exp"), save=_keep_ans)


expm1 = _mk_unary("Expm1", _f("expm1"))


log = _mk_unary("Log", _f("log"))


log1p = _mk_unary("Log1p", _f("log1p"))


sqrt = _mk_unary("Sqrt", _f("sqrt"))


rsqrt = _mk_unary("Rsqrt", lambda a: 1 / xp(a).sqrt(a))


square = _mk_unary("Square", lambda a: a * a, float_only=False)


reciprocal = _mk_unary("Reciprocal", lambda a: 1 / a)


inv_op = reciprocal


def _sigmoid_fwd(a):
    m = xp(a)
    # numerically stable in both tails
    e = m.exp(-m.abs(a))
    return m.where(a >= 0, 1 / (1 + e), e / (1 + e)).astype(a.dtype, copy=False)


sigmoid = _mk_unary("Sigmoid", _sigmoid_fwd, save=_keep_ans)


def _softplus_fwd(a):
    m = xp(a)
    return (m.maximum(a, 0) + m.log1p(m.exp(-m.abs(a)))).astype(a.dtype, copy=False)


softplus = _mk_unary("Softplus", _softplus_fwd)


erf = _mk_unary("Erf", B.erf)
erfc = _mk_unary("Erfc", B.erfc)


# The rectifiers' gradients are TensorFlow's *Grad operations, g * mask (ReluGrad, Relu6Grad,
# LeakyReluGrad): their second input is the activation they read, so a tape that records the
# gradient stays connected to it and higher derivatives are zeros, not None, as in TF.  What
# is kept is only a boolean mask, carried by a Tensor that shares the identity (id) of the
# tensor it was computed from: the tape connects through the id, the rule reads the mask, and
# neither the input nor the output is kept alive.
def _mask_of(t, mask):
    m = _new(Tensor)
    m._value = mask
    m._id = t._id
    return m


def _relu_save(ans, x):
    return (_mask_of(ans, ans._value > 0),)


def _relu_grad_fwd(g, mask):
    return g * mask


# g * mask with the boolean mask cast inside the multiplication (no float copy of the mask, as
# TensorFlow's ReluGrad). Its rule: itself for g, zeros for the activation (TF's ReluGradGrad).
_ReluGrad = primitive("ReluGrad", _relu_grad_fwd, save=lambda ans, g, mask: (mask,))


def _leaky_relu_grad_fwd(g, mask, alpha):
    return (g * mask + (g * alpha) * ~mask).astype(g.dtype, copy=False)


_LeakyReluGrad = primitive("LeakyReluGrad", _leaky_relu_grad_fwd,
                           save=lambda ans, g, mask, alpha: (mask,))


relu = _mk_unary("Relu", lambda a: xp(a).maximum(a, 0), save=_relu_save)


def _relu6_fwd(a):
    m = xp(a)
    return m.minimum(m.maximum(a, 0), 6).astype(a.dtype, copy=False)


def _relu6_save(ans, x):
    v = ans._value
    return (_mask_of(ans, (v > 0) & (v < 6)),)  # TF's Relu6Grad: 0 at both kinks


relu6 = _mk_unary("Relu6", _relu6_fwd, save=_relu6_save)


def elu(features, name=None):
    x = _to_tensor(features)
    return apply(_Elu, (x,), {})


def _elu_save(ans, x):
    return (ans,)


# Elu's rule reads its output only (TF's EluGrad(g, y) = g * (y < 0 ? y + 1 : 1))
_Elu = primitive("Elu", lambda a: xp(a).where(a > 0, a, xp(a).expm1(xp(a).minimum(a, 0))).astype(a.dtype),
                 save=_elu_save)


def leaky_relu(features, alpha=0.2, name=None):
    x = _to_tensor(features)
    # TF's alpha is a float32 attribute: a float64 tensor is scaled by float32(alpha) (0.2 is
    # 0.20000000298...), so the float64 values agree with TF's to the last digit
    a = _F32_ALPHAS.get(alpha) if type(alpha) is _float else None
    if a is None:
        a = _float(B.numpy.float32(alpha))
        if type(alpha) is _float and len(_F32_ALPHAS) < 64:
            _F32_ALPHAS[alpha] = a
    return apply(_LeakyRelu, (x,), {"alpha": a})


_F32_ALPHAS: dict = {}  # alpha -> float32(alpha), so the usual call costs a dict lookup


def _leaky_relu_save(ans, x, alpha):
    return (_mask_of(x, x._value > 0),)  # TF's LeakyReluGrad reads the input: alpha at 0


_LeakyRelu = primitive(
    "LeakyRelu", lambda a, alpha: xp(a).where(a > 0, a, a * alpha).astype(a.dtype),
    save=_leaky_relu_save)


# Non-differentiable element-wise operations (gradient None, as in TensorFlow)
floor = _mk_unary("Floor", _f("floor"))


ceil = _mk_unary("Ceil", _f("ceil"))


round = _mk_unary("Round", lambda a: xp(a).round(a), float_only=False)  # noqa: A001 (half-to-even, like TF)


is_nan = _mk_unary("IsNan", _f("isnan"))


is_finite = _mk_unary("IsFinite", _f("isfinite"))


is_inf = _mk_unary("IsInf", _f("isinf"))


logical_not = _mk_unary("LogicalNot", _f("logical_not"), float_only=False)


def _cmp(name, fn):
    prim = primitive(name, fn)

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


_Identity = primitive("Identity", lambda a: a)


_StopGradient = primitive("StopGradient", lambda a: a)


def identity(input, name=None):  # noqa: A002
    if type(input) is IndexedSlices:  # stays sparse, as in TF
        return input._with_values(identity(input.values))
    return apply(_Identity, (_to_tensor(input),), {})


def stop_gradient(input, name=None):  # noqa: A002
    """The same value, but gradients do not flow through it (they become None)."""
    return apply(_StopGradient, (_to_tensor(input),), {})


def _cast_fwd(a, dtype):
    return a.astype(dtype._np, copy=False) if a.dtype != dtype._np else a


_Cast = primitive("Cast", _cast_fwd)


def cast(x, dtype, name=None):
    """Convert to another dtype; gradients flow only between floating dtypes."""
    if type(x) is IndexedSlices:  # stays sparse, as in TF
        return x._with_values(cast(x.values, dtype))
    x = _to_tensor(x)
    dtype = _d.as_dtype(dtype)
    if x._value.dtype == dtype._np:
        return x
    return apply(_Cast, (x,), {"dtype": dtype})
