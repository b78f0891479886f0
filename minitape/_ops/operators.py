"""Tensor's operators (``a + b``, ``a[i]``, ``a @ b``...), installed once on the class.

Variables inherit them; ``x + 1`` on a Variable also remembers that the Tensor came from it
(:mod:`minitape._trace`), so that debugging.why_none can say "a Variable was replaced by a
Tensor".  The tensor layer's three conversions that need an operation (stacking a list of
tensors, casting a constant, ``Variable.read_value``) are installed here too.
"""
from __future__ import annotations

from .. import _trace
from .._core import Tensor, Variable, install_operations
from .math_ops import (abs, add, cast, divide, equal, floordiv, floormod, greater, greater_equal,
                       identity, less, less_equal, logical_and, logical_not, logical_or,
                       logical_xor, multiply, negative, not_equal, pow, subtract)
from .array_ops import getitem, stack
from .linalg_ops import matmul


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


_install_operators()


install_operations(stack=stack, cast=cast, identity=identity)


_trace.install_variable_operators(Variable, Tensor)
