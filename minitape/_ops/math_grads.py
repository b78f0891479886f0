"""Gradient rules (VJPs) of the primitives of :mod:`.math_ops`, attached by name.

This layer sits above every forward module: a rule may use any operation (they are
written with minitape operations, so they can be differentiated again).
"""
from __future__ import annotations

from .._core import apply, REGISTRY
from .math_ops import (_LeakyReluGrad, _ReluGrad, add, cast, cos, cosh, divide, exp, floor, greater, greater_equal,
                       less, less_equal, log, multiply, negative, pow, sigmoid, sign, sin, sinh,
                       sqrt, square, subtract)
from .array_ops import where
from .creation_ops import fill_like, ones_like, zeros, zeros_like
from ..dtypes import FLOATING_KINDS as _FLOATING  # what gradients flow through


def _pow_dx(g, ans, x, y):
    return multiply(g, multiply(y, pow(x, subtract(y, 1))))


def _pow_dy(g, ans, x, y):
    safe_x = where(greater(x, 0), x, ones_like(x))
    return multiply(g, multiply(ans, log(safe_x)))


def _atan2_dy(g, ans, y, x):
    return divide(multiply(g, x), add(square(x), square(y)))


def _atan2_dx(g, ans, y, x):
    return divide(multiply(negative(g), y), add(square(x), square(y)))


def _relu_vjp(g, mask):
    return apply(_ReluGrad, (g, mask), {})


def _cast_vjp(g, ans, x, dtype):
    if x._value.dtype.kind in _FLOATING:
        return cast(g, x.dtype)
    return None


REGISTRY['AddV2'].defvjps(lambda g, ans, x, y: g, lambda g, ans, x, y: g, batch=True)


REGISTRY['Sub'].defvjps(lambda g, ans, x, y: g, lambda g, ans, x, y: negative(g), batch=True)


REGISTRY['Mul'].defvjps(
    lambda g, ans, x, y: multiply(g, y),
    lambda g, ans, x, y: multiply(g, x), batch=True)


REGISTRY['RealDiv'].defvjps(
    lambda g, ans, x, y: divide(g, y),
    lambda g, ans, x, y: negative(multiply(g, divide(ans, y))), batch=True)


REGISTRY['FloorMod'].defvjps(
    lambda g, ans, x, y: g,
    lambda g, ans, x, y: multiply(negative(g), floor(divide(x, y))), batch=True)


REGISTRY['Pow'].defvjps(_pow_dx, _pow_dy, batch=True)


REGISTRY['Maximum'].defvjps(
    lambda g, ans, x, y: multiply(g, cast(greater_equal(x, y), g.dtype)),
    lambda g, ans, x, y: multiply(g, cast(less(x, y), g.dtype)), batch=True)


REGISTRY['Minimum'].defvjps(
    lambda g, ans, x, y: multiply(g, cast(less_equal(x, y), g.dtype)),
    lambda g, ans, x, y: multiply(g, cast(greater(x, y), g.dtype)), batch=True)


REGISTRY['SquaredDifference'].defvjps(
    lambda g, ans, x, y: multiply(g, multiply(subtract(x, y), 2)),
    lambda g, ans, x, y: multiply(g, multiply(subtract(y, x), 2)), batch=True)


REGISTRY['Atan2'].defvjps(_atan2_dy, _atan2_dx, batch=True)


REGISTRY['Neg'].defvjps(lambda g, ans, x: negative(g), batch=True)


REGISTRY['Abs'].defvjps(lambda g, ans, x: multiply(g, sign(x)), batch=True)


REGISTRY['Sign'].defvjps(lambda g, ans, x: zeros_like(g), batch=True)


REGISTRY['Sin'].defvjps(lambda g, ans, x: multiply(g, cos(x)), batch=True)


REGISTRY['Cos'].defvjps(lambda g, ans, x: negative(multiply(g, sin(x))), batch=True)


REGISTRY['Tan'].defvjps(lambda g, ans, x: multiply(g, add(square(ans), 1)), batch=True)


REGISTRY['Asin'].defvjps(lambda g, ans, x: divide(g, sqrt(subtract(1, square(x)))), batch=True)


REGISTRY['Acos'].defvjps(lambda g, ans, x: negative(divide(g, sqrt(subtract(1, square(x))))), batch=True)


REGISTRY['Atan'].defvjps(lambda g, ans, x: divide(g, add(square(x), 1)), batch=True)


REGISTRY['Sinh'].defvjps(lambda g, ans, x: multiply(g, cosh(x)), batch=True)


REGISTRY['Cosh'].defvjps(lambda g, ans, x: multiply(g, sinh(x)), batch=True)


REGISTRY['Tanh'].defvjps(lambda g, ans: multiply(g, subtract(1, square(ans))), batch=True)


REGISTRY['Exp'].defvjps(lambda g, ans: multiply(g, ans), batch=True)


REGISTRY['Expm1'].defvjps(lambda g, ans, x: multiply(g, add(ans, 1)), batch=True)


REGISTRY['Log'].defvjps(lambda g, ans, x: divide(g, x), batch=True)


REGISTRY['Log1p'].defvjps(lambda g, ans, x: divide(g, add(x, 1)), batch=True)


REGISTRY['Sqrt'].defvjps(lambda g, ans, x: divide(g, multiply(ans, 2)), batch=True)


REGISTRY['Rsqrt'].defvjps(lambda g, ans, x: multiply(g, multiply(pow(ans, 3), -0.5)), batch=True)


REGISTRY['Square'].defvjps(lambda g, ans, x: multiply(g, multiply(x, 2)), batch=True)


REGISTRY['Reciprocal'].defvjps(lambda g, ans, x: negative(multiply(g, square(ans))), batch=True)


REGISTRY['Sigmoid'].defvjps(lambda g, ans: multiply(g, multiply(ans, subtract(1, ans))), batch=True)


REGISTRY['Softplus'].defvjps(lambda g, ans, x: multiply(g, sigmoid(x)), batch=True)


REGISTRY['Erf'].defvjps(lambda g, ans, x: multiply(g, multiply(exp(negative(square(x))), 1.1283791670955126)), batch=True)


# The mask's gradient is zeros of the mask's shape (gg may be wider: a batch of seeds
# recorded by a vectorized Jacobian), in gg's dtype (the mask carries booleans).
def _zeros_for_mask(gg, mask, lead=()):
    return zeros(lead + tuple(mask._value.shape), dtype=gg.dtype)


def _zeros_for_mask_batch(gg, mask, **params):
    return _zeros_for_mask(gg, mask, (gg._value.shape[0],))


REGISTRY['ReluGrad'].defvjps(lambda gg, mask: apply(_ReluGrad, (gg, mask), {}),
                             lambda gg, mask: _zeros_for_mask(gg, mask))
REGISTRY['ReluGrad'].defbatch(lambda gg, mask: apply(_ReluGrad, (gg, mask), {}),
                              _zeros_for_mask_batch)


REGISTRY['Relu'].defvjps(_relu_vjp, batch=True)


REGISTRY['Relu6'].defvjps(_relu_vjp, batch=True)  # ReluGrad with Relu6's mask (0 < y < 6)


REGISTRY['Elu'].defvjps(
    lambda g, ans: multiply(g, where(less(ans, 0), add(ans, 1), ones_like(ans))), batch=True)


REGISTRY['LeakyReluGrad'].defvjps(
    lambda gg, mask, alpha: apply(_LeakyReluGrad, (gg, mask), {"alpha": alpha}),
    lambda gg, mask, alpha: _zeros_for_mask(gg, mask))
REGISTRY['LeakyReluGrad'].defbatch(
    lambda gg, mask, alpha: apply(_LeakyReluGrad, (gg, mask), {"alpha": alpha}),
    _zeros_for_mask_batch)


REGISTRY['LeakyRelu'].defvjps(
    lambda g, mask, alpha: apply(_LeakyReluGrad, (g, mask), {"alpha": alpha}), batch=True)


REGISTRY['Identity'].defvjps(lambda g, ans, x: g, batch=True)


REGISTRY['Cast'].defvjps(_cast_vjp, batch=True)
