"""Gradient rules (VJPs) of the primitives of :mod:`.extra_ops`, attached by name.

This layer sits above every forward module: a rule may use any operation (they are
written with minitape operations, so they can be differentiated again).
"""
from __future__ import annotations

from .._core import REGISTRY, apply
from .extra_ops import _SoftsignGrad
from .math_ops import add, divide, multiply, sqrt, square, subtract
from .array_ops import reshape
from .linalg_ops import _mT, inv


REGISTRY['Asinh'].defvjps(lambda g, ans, x: divide(g, sqrt(add(square(x), 1))), batch=True)


REGISTRY['Acosh'].defvjps(lambda g, ans, x: divide(g, sqrt(subtract(square(x), 1))), batch=True)


REGISTRY['Atanh'].defvjps(lambda g, ans, x: divide(g, subtract(1, square(x))), batch=True)


REGISTRY['LogMatrixDeterminant'].defvjps(
    lambda g, ans, x: multiply(reshape(g, list(g._value.shape) + [1, 1]), _mT(inv(x))), batch=True)


REGISTRY['Softsign'].defvjps(lambda g, ans, x: apply(_SoftsignGrad, (g, x), {}), batch=True)
