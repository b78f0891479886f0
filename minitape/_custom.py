"""custom_gradient, RegisterGradient and friends: user-defined gradient rules."""
from __future__ import annotations

import functools
import inspect

from . import _core
from ._core import Tensor, Primitive, REGISTRY, _to_tensor
from ._state import tapes as _tapes, accumulators as _accumulators
from ._state import variable_reads as _variable_reads
from ._ops import zeros_like
from . import nest as _nest


def custom_gradient(f=None):
    """Decorator: define a function together with its own gradient.

    ``f(*x)`` returns ``(y, grad_fn)``; ``grad_fn(dy)`` returns the gradient for each ``x``.
    If ``f`` reads trainable Variables, ``grad_fn(dy, variables=None)`` must return
    ``(grads_for_x, grads_for_variables)``.  The gradient function is written with minitape
    operations, so it can be differentiated again.  Each call of the decorated function is one
    operation on the tape: ``grad_fn`` runs once per backward pass through it, with one
    gradient per output (zeros for outputs the target does not depend on), as in TensorFlow.
    """
    if f is None:
        return custom_gradient

    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        inputs = [_to_tensor(a) if isinstance(a, Tensor) or not callable(a) else a for a in args]
        tensor_args = [a for a in inputs if isinstance(a, Tensor)]
        read = {}  # the trainable variables f reads
        saved_tapes = _tapes[:]
        saved_accs = _accumulators[:]
        _tapes.clear()  # f's own operations are not recorded: grad_fn stands for them
        _accumulators.clear()
        _variable_reads.append(read)
        try:
            result, grad_fn = f(*inputs, **kwargs)
        finally:
            _variable_reads.pop()
            _tapes[:] = saved_tapes
            _accumulators[:] = saved_accs
        variables = list(read.values())
        if variables:
            params = inspect.signature(grad_fn).parameters
            if "variables" not in params and not any(
                    p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
                raise TypeError("If using @custom_gradient with a function that uses variables, "
                                "then grad_fn must accept a keyword argument 'variables'.")
        flat_out = [_to_tensor(r) for r in _nest.flatten(result)]
        # Outputs get fresh identities so that the tape can tell them from the inputs.
        outs = [Tensor(r._value) for r in flat_out]
        if _tapes or _accumulators:
            record_inputs = tensor_args + [v._read() for v in variables] if variables else tensor_args
            prim = Primitive(f.__name__, None, unbroadcast=False)
            prim.defvjp(_CustomRule(grad_fn, outs, variables, len(tensor_args)))
            _core.record_outputs(prim, record_inputs, outs)
        return _nest.pack_sequence_as(result, outs)

    return wrapper


class _CustomRule:
    """The whole-op gradient of one custom_gradient call: ``grad_fn`` called once per pass."""

    __slots__ = ("grad_fn", "outs", "variables", "n_in")

    def __init__(self, grad_fn, outs, variables, n_in):
        self.grad_fn = grad_fn
        self.outs = outs
        self.variables = variables
        self.n_in = n_in

    def __call__(self, g):
        outs = self.outs
        if len(outs) == 1:
            gs = (g,)
        else:  # one gradient per output: zeros for the outputs nothing depends on
            gs = tuple(zeros_like(o) if x is None else x for x, o in zip(g, outs))
        variables = self.variables
        if variables:
            in_grads, var_grads = self.grad_fn(*gs, variables=variables)
            in_grads = list(in_grads) if isinstance(in_grads, (list, tuple)) else [in_grads]
            grads = in_grads + list(var_grads)
        else:
            r = self.grad_fn(*gs)
            grads = list(r) if isinstance(r, (list, tuple)) else [r]
        if len(grads) != self.n_in + len(variables):
            raise ValueError(f"custom_gradient function expected to return {self.n_in} "
                             f"gradients, but returned {len(grads) - len(variables)} instead.")
        return [None if x is None else _to_tensor(x) for x in grads]


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


def _registrable(op_type):
    """The primitive named ``op_type``, if the gradient registry may take an entry for it.

    As in TensorFlow, the registry holds one entry per operation type: registering a second
    one (over a built-in rule, an earlier ``RegisterGradient`` or ``no_gradient``) raises
    ``KeyError``.  Only operation types without a gradient (``AdjustContrastv2``) can be given
    one; :func:`restore_gradient` removes an entry of yours.
    """
    prim = REGISTRY.get(op_type)
    if prim is None:  # TensorFlow would accept any name; minitape cannot define new op types
        raise KeyError(f"minitape has no operation named {op_type!r}; known operations: "
                       + ", ".join(sorted(REGISTRY)))
    if op_type in _OVERRIDDEN or (prim.differentiable and not prim.no_gradient):
        where = ("an earlier RegisterGradient or no_gradient of yours (undo it with "
                 f"minitape._custom.restore_gradient({op_type!r}))" if op_type in _OVERRIDDEN
                 else "minitape's built-in gradient rules (minitape/_ops/*_grads.py)")
        raise KeyError(f"Registering two gradient with name {op_type!r}! (Previous registration "
                       f"was in {where}.) To change the gradient of one function of yours, "
                       "use tf.custom_gradient.")
    return prim


class RegisterGradient:
    """Decorator that registers the gradient of an operation type by name (TensorFlow's).

    ``@RegisterGradient("AdjustContrastv2")`` applied to ``fn(op, grad)`` makes every later
    gradient through that operation call ``fn`` once per operation; it returns one gradient
    per input.  A type that already has a gradient raises ``KeyError``, as in TensorFlow.
    """

    def __init__(self, op_type):
        if not isinstance(op_type, str):
            raise TypeError("op_type must be a string")
        self._op_type = op_type

    def __call__(self, fn):
        prim = _registrable(self._op_type)
        _OVERRIDDEN[self._op_type] = _rule_of(prim)

        def rule(g, ans, *inputs, **params):  # the whole op: fn is called once per op
            r = fn(_OpView(prim, inputs, [ans], params), g)
            r = list(r) if isinstance(r, (list, tuple)) else [r]
            return [None if x is None else _to_tensor(x) for x in r]

        prim.save = None
        prim.unbroadcast = True
        prim.no_gradient = False
        prim.defvjp(rule)
        return fn


def _rule_of(prim):
    return (prim.vjps, prim.vjp, prim.save, prim.unbroadcast, prim.no_gradient,
            prim.differentiable)


_OVERRIDDEN: dict = {}


def restore_gradient(op_type):
    """Undo ``RegisterGradient(op_type)`` or ``no_gradient(op_type)`` (minitape only: in
    TensorFlow a registration lasts as long as the process)."""
    if op_type in _OVERRIDDEN:
        prim = REGISTRY[op_type]
        (prim.vjps, prim.vjp, prim.save, prim.unbroadcast, prim.no_gradient,
         prim.differentiable) = _OVERRIDDEN.pop(op_type)


def no_gradient(op_type):
    """Declare ``op_type`` not differentiable: tapes give None through it, as for ``tf.round``.

    A registry entry like ``RegisterGradient``'s, so a type that already has a gradient raises
    ``KeyError`` (TensorFlow's rule); without the declaration, differentiating through an
    operation without a gradient raises ``LookupError``.
    """
    prim = _registrable(op_type)
    _OVERRIDDEN[op_type] = _rule_of(prim)
    prim.vjps = prim.vjp = None
    prim.no_gradient = False
    prim.differentiable = False  # never recorded: the path ends there, gradients are None


NoGradient = NotDifferentiable = no_gradient


def recompute_grad(f):
    """Compatibility: minitape keeps what gradients need; recomputation is not implemented,
    so this returns ``f`` unchanged (gradients are identical)."""
    return f
