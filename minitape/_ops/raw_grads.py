"""First-order gradient rules on raw arrays, for backward passes that nothing records.

When no tape or forward accumulator is active (and there is one array module), nothing would
record the operations of a backward pass, so the tape runs these instead of the Tensor rules
of ``*_grads.py``: the same arithmetic on the arrays themselves, without a Tensor, an id and
an operation wrapper per step (``Primitive.raw_vjps``, see :func:`minitape._tape._run_raw`).

Each rule here computes exactly what its Tensor rule computes, operation for operation, so
that a gradient is the same bits whichever way it was computed; constants are NumPy scalars
of the array's dtype, as the Tensor rules' adapted Python numbers are (NumPy 1.x would
promote a NumPy scalar meeting a Python float).  ``tests/minitape/test_raw_rules.py``
compares every rule with its Tensor rule.  A primitive without raw rules runs its Tensor rules
on wrapped arrays, so a rule missing here costs time, never a result.  Raw passes run only on
NumPy (``_state.multi_device`` off), so ``np`` is the array module.
"""
from __future__ import annotations

from .. import _backend as B
from .._core import REGISTRY, Tensor, _new
from .._indexed_slices import IndexedSlices
from .._state import next_id as _next_id
from .math_ops import add, add_gradients

np = B.numpy
R = REGISTRY


def _typed(v, x):
    """Python number ``x`` as a NumPy scalar of array ``v``'s dtype (the Tensor rules' rule)."""
    return v.dtype.type(x)


# --- arithmetic (broadcasting is undone by the tape, as for the Tensor rules) -----------------
R["AddV2"].defraw(lambda g, ans, x, y: g, lambda g, ans, x, y: g)
R["Sub"].defraw(lambda g, ans, x, y: g, lambda g, ans, x, y: -g)
R["Mul"].defraw(lambda g, ans, x, y: g * y._value, lambda g, ans, x, y: g * x._value)
R["RealDiv"].defraw(lambda g, ans, x, y: g / y._value,
                    lambda g, ans, x, y: -(g * (ans._value / y._value)))
R["Neg"].defraw(lambda g, ans, x: -g)
R["Identity"].defraw(lambda g, ans, x: g)

# --- element-wise functions --------------------------------------------------------------------
R["Sin"].defraw(lambda g, ans, x: g * np.cos(x._value))
R["Cos"].defraw(lambda g, ans, x: -(g * np.sin(x._value)))
R["Exp"].defraw(lambda g, ans: g * ans._value)
R["Log"].defraw(lambda g, ans, x: g / x._value)


def _tanh(g, ans):
    a = ans._value
    return g * (_typed(a, 1) - a * a)


def _sigmoid(g, ans):
    a = ans._value
    return g * (a * (_typed(a, 1) - a))


def _square(g, ans, x):
    v = x._value
    return g * (v * _typed(v, 2))


def _sqrt(g, ans, x):
    a = ans._value
    return g / (a * _typed(a, 2))


R["Tanh"].defraw(_tanh)
R["Sigmoid"].defraw(_sigmoid)
R["Square"].defraw(_square)
R["Sqrt"].defraw(_sqrt)

# Relu, Relu6, LeakyRelu keep a mask: ReluGrad's forward is g * mask
R["Relu"].defraw(lambda g, mask: g * mask._value)
R["Relu6"].defraw(lambda g, mask: g * mask._value)


# --- matrix product: matmul(g, b, transpose_b=True) and matmul(a, g, transpose_a=True), the
# transposes being the same views (last two axes swapped) the Tensor rules' _mT makes
def _mT(v):
    return v.T if v.ndim == 2 else np.swapaxes(v, -1, -2)


R["MatMul"].defraw(lambda g, ans, a, b: g @ _mT(b._value),
                   lambda g, ans, a, b: _mT(a._value) @ g)


# --- the raw pass's own arithmetic (minitape._vjp._backward_raw) ---------------------------
def _tensor_rule(prim, k, g, saved, params):
    """Input ``k``'s Tensor rule on a raw gradient, for what a raw rule refused: it raises
    the error the Tensor rule raises (TensorFlow's), or gives the same result."""
    r = prim.vjps[k](_wrap(g), *saved, **params)
    return None if r is None else r._value


def _raw_accumulate(a, b):
    """Two gradients of one tensor summed: arrays as arrays; where one is a gather's
    IndexedSlices, as a recorded pass sums them (two sparse ones stay sparse)."""
    if type(a) is not IndexedSlices and type(b) is not IndexedSlices:
        return _raw_add(a, b)
    r = add_gradients(a if type(a) is IndexedSlices else _wrap(a),
                      b if type(b) is IndexedSlices else _wrap(b))
    return r if type(r) is IndexedSlices else r._value


def _raw_add(a, b):
    """``a + b`` of two gradients of one tensor (TF's error if their shapes do not match)."""
    try:
        return a + b
    except ValueError:
        return add(_wrap(a), _wrap(b))._value


def _wrap(v):
    """A Tensor holding array ``v`` (Tensor(v) without the __init__ call)."""
    t = _new(Tensor)
    t._value = v
    t._id = _next_id()
    return t
