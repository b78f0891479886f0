"""custom_gradient, RegisterGradient and friends: user-defined gradient rules."""
from __future__ import annotations

import functools
import inspect

from . import _core
from ._core import Tensor, Variable, REGISTRY, _to_tensor
from ._state import tapes as _tapes, accumulators as _accumulators
from . import nest as _nest


class _VariableWatcher:
    """Collect the trainable variables read while a custom-gradient function runs."""

    def __init__(self):
        self.variables = {}
        self._watch_accessed = True

    def _watch_variable(self, v, explicit=False):
        self.variables.setdefault(v._id, v)


def custom_gradient(f=None):
    """Decorator: define a function together with its own gradient.

    ``f(*x)`` returns ``(y, grad_fn)``; ``grad_fn(dy)`` returns the gradient for each ``x``.
    If ``f`` reads trainable Variables, ``grad_fn(dy, variables=None)`` must return
    ``(grads_for_x, grads_for_variables)``.  The gradient function is written with minitape
    operations, so it can be differentiated again.
    """
    if f is None:
        return custom_gradient

    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        inputs = [_to_tensor(a) if isinstance(a, Tensor) or not callable(a) else a for a in args]
        tensor_args = [a for a in inputs if isinstance(a, Tensor)]
        watcher = _VariableWatcher()
        saved_tapes = _tapes[:]
        saved_accs = _accumulators[:]
        _tapes[:] = [watcher]
        _accumulators.clear()
        watcher._watched = set()
        try:
            result, grad_fn = f(*inputs, **kwargs)
        finally:
            _tapes[:] = saved_tapes
            _accumulators[:] = saved_accs
        variables = [v for v in watcher.variables.values()]
        if variables:
            params = inspect.signature(grad_fn).parameters
            if "variables" not in params and not any(
                    p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
                raise TypeError("If using @custom_gradient with a function that uses variables, "
                                "then grad_fn must accept a keyword argument 'variables'.")
        flat_out = [_to_tensor(r) for r in _nest.flatten(result)]
        # Outputs get fresh identities so that the tape can tell them from the inputs.
        outs = [Tensor(r._value) for r in flat_out]
        n_in = len(tensor_args)
        n_out = len(outs)
        record_inputs = tensor_args + [v._read() for v in variables] if variables else tensor_args

        def vjp_all(*gs):
            if variables:
                r = grad_fn(*gs, variables=variables)
                in_grads, var_grads = r
                in_grads = list(in_grads) if isinstance(in_grads, (list, tuple)) else [in_grads]
                grads = in_grads + list(var_grads)
            else:
                r = grad_fn(*gs)
                grads = list(r) if isinstance(r, (list, tuple)) else [r]
            if len(grads) != len(record_inputs):
                raise ValueError(f"custom_gradient function expected to return {n_in} gradients, "
                                 f"but returned {len(grads) - (len(variables) if variables else 0)} "
                                 "instead.")
            return [None if g is None else _to_tensor(g) for g in grads]

        if _tapes or _accumulators:
            _record_multi(f.__name__, record_inputs, outs, vjp_all)
        packed = _nest.pack_sequence_as(result, outs)
        return packed

    return wrapper


def _record_multi(name, inputs, outs, vjp_all):
    """Record a custom entry; several outputs are tied through a single joint rule."""
    if len(outs) == 1:
        _core.record_custom(name, inputs, outs[0], lambda g: vjp_all(g))
        return
    # Several outputs: record one entry per output whose rule passes zeros for the others.
    from ._ops import zeros_like
    for k, o in enumerate(outs):
        def one(g, k=k):
            gs = [g if j == k else zeros_like(outs[j]) for j in range(len(outs))]
            return vjp_all(*gs)
        _core.record_custom(name, inputs, o, one)


class _OpView:
    """What a RegisterGradient function sees of the operation (TensorFlow's ``op``)."""

    def __init__(self, prim, inputs, outputs, params):
        self.type = prim.name
        self.name = prim.name
        self.inputs = list(inputs)
        self.outputs = list(outputs)
        self._params = params

    def get_attr(self, name):
        try:
            return self._params[name]
        except KeyError:
            raise ValueError(f"Operation {self.type!r} has no attr named {name!r}.") from None


class RegisterGradient:
    """Decorator that (re)defines the gradient of an operation type by name.

    ``@RegisterGradient("Sin")`` applied to ``fn(op, grad)`` makes every later gradient
    through ``Sin`` call ``fn``; it returns one gradient per input of the operation.
    """

    def __init__(self, op_type):
        if not isinstance(op_type, str):
            raise TypeError("op_type must be a string")
        self._op_type = op_type

    def __call__(self, fn):
        prim = REGISTRY.get(self._op_type)
        if prim is None:
            raise KeyError(f"minitape has no operation named {self._op_type!r}; known operations: "
                           + ", ".join(sorted(REGISTRY)))
        _OVERRIDDEN.setdefault(self._op_type, (prim.vjps, prim.save, prim.no_gradient))
        from ._ops import _EachInput

        def rule(k, g, *saved, **params):
            ans, *inputs = saved
            r = fn(_OpView(prim, inputs, [ans], params), g)
            r = list(r) if isinstance(r, (list, tuple)) else [r]
            return None if r[k] is None else _to_tensor(r[k])

        prim.vjps = _EachInput(rule)
        prim.save = None
        prim.no_gradient = False
        return fn


_OVERRIDDEN: dict = {}


def restore_gradient(op_type):
    """Undo ``RegisterGradient(op_type)``: the built-in rule is used again."""
    if op_type in _OVERRIDDEN:
        prim = REGISTRY[op_type]
        prim.vjps, prim.save, prim.no_gradient = _OVERRIDDEN.pop(op_type)


def no_gradient(op_type):
    """Declare that ``op_type`` has no gradient: differentiating through it raises LookupError."""
    prim = REGISTRY.get(op_type)
    if prim is None:
        raise KeyError(f"minitape has no operation named {op_type!r}")
    _OVERRIDDEN.setdefault(op_type, (prim.vjps, prim.save, prim.no_gradient))
    prim.no_gradient = True


NoGradient = NotDifferentiable = no_gradient


def recompute_grad(f):
    """Compatibility: minitape keeps what gradients need; recomputation is not implemented,
    so this returns ``f`` unchanged (gradients are identical)."""
    return f
