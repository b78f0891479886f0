"""Primitives and the recording hook: the hot path of minitape.

Every operation goes through :func:`apply`, which runs a primitive's forward and records it on
the tapes that watch an input.  Keep it small, use ``__slots__`` and ``type(x) is`` checks,
and do nothing per call that can be done once.  The tensor layer (:mod:`._tensor`) is below;
its names are re-exported here for the layers above.
"""
from __future__ import annotations

from . import _backend as B
from . import _trace
from ._state import next_id as _next_id, tapes as _tapes, accumulators as _accumulators
from ._state import multi_device as _multi
from ._backend import quiet_run as _quiet_run, quiet_call as _quiet_call
from ._tensor import (Tensor, EagerTensor, Variable, TensorShape, constant,  # noqa: F401
                      convert_to_tensor, install_operations, _no_recording)
from .dtypes import FLOATING_KINDS as _FLOATING  # what gradients flow through

np = B.numpy


# ------------------------------------------------------------------------------------------
# Primitives and recording
# ------------------------------------------------------------------------------------------

class Primitive:
    """One operation: its forward on raw arrays, and (attached by the gradient layer) its rule.

    ``fwd(*arrays, **params)`` computes the output array.  The gradient rule is one of:

    * ``vjps[i](g, *saved, **params)``: one function per input, mapping the output gradient
      ``g`` to the gradient of input ``i`` (called only for the inputs a pass needs);
    * ``vjp(g, *saved, **params)``: one function for the whole operation, returning one
      gradient (or None) per input; for an operation with several outputs ``g`` is a tuple
      (custom gradients, ``RegisterGradient``).

    Rules are written with minitape operations, so they can be recorded themselves
    (higher-order derivatives).  ``saved`` is ``(ans, *inputs)`` unless ``save(ans, *inputs,
    **params)`` keeps something smaller (relu keeps a mask, not its input).
    ``unbroadcast=True`` declares that the forward broadcasts its inputs against each other, so
    a rule may return a gradient in the broadcast shape of the output, which the tape then sums
    back to the input's shape (it needs the inputs, so it requires ``save=None``).  It is a
    property each broadcasting primitive states where it is defined; nothing infers it.

    Vectorized Jacobians run one backward pass whose gradients carry a leading *batch* axis
    (one output-gradient seed per row).  ``batch_vjps`` are the rules that handle that axis:
    the ordinary rules themselves when they are batch-safe as written (element-wise rules, whose
    other operands broadcast against the extra leading axis: ``defvjps(..., batch=True)``), or
    batch-aware rules attached with :meth:`defbatch` (reductions with shifted axes, reshapes,
    transposes...).  ``batch_when(**params)``, when set, says for which parameters those rules
    hold.  A primitive without them (None: custom gradients, whole-op rules) makes a Jacobian
    that meets it fall back to one pass per row.

    ``raw_vjps`` (attached with :meth:`defraw`) are the same per-input rules written on raw
    arrays: ``g`` is an array and so is each result (``saved`` are still Tensors).  A backward
    pass that nothing records (no tape or forward accumulator active, one array module) runs
    them instead of the Tensor rules, so a first-order gradient builds no Tensor per step.
    They must compute exactly what the Tensor rules compute (``tests/minitape/test_raw_rules.py``
    compares them); a primitive without them runs its Tensor rules on wrapped arrays.

    ``onehot_vjps`` (attached with :meth:`defonehot`, in ``_ops/onehot_grads.py``) carry a
    vectorized Jacobian's one-hot seeds through the operation without making them dense
    (:mod:`minitape._onehot`); a primitive without them makes the gradient dense there.

    An operation without a rule is *not differentiable* (its result
    is never recorded and gradients are None); ``no_gradient = True`` means *no gradient
    registered* (differentiating through it raises LookupError).
    """

    __slots__ = ("name", "fwd", "host", "vjps", "vjp", "save", "unbroadcast", "no_gradient",
                 "differentiable", "batch_vjps", "batch_when", "raw_vjps", "onehot_vjps",
                 "sparse_grad")

    def __init__(self, name, fwd, save=None, unbroadcast=False, no_gradient=False):
        self.name = name
        self.fwd = fwd
        # the forward on NumPy arrays, for the paths that run only while NumPy is the one
        # array module (apply1): a function that dispatches on the array module says which
        # NumPy function it calls (``fwd.host``), saving a Python frame per operation
        self.host = getattr(fwd, "host", fwd)
        self.vjps = None
        self.vjp = None
        self.save = save
        self.unbroadcast = bool(unbroadcast)
        if self.unbroadcast and save is not None and save is not keep_inputs:
            raise ValueError(f"primitive {name}: unbroadcasting needs the inputs (save=None)")
        self.no_gradient = no_gradient
        self.sparse_grad = False  # its rule may give an IndexedSlices (a gather along axis 0)
        self.differentiable = False
        self.batch_vjps = None
        self.batch_when = None
        self.raw_vjps = None
        self.onehot_vjps = None

    def defvjps(self, *vjps, batch=False):
        """Attach one gradient rule per input (or a variadic :class:`EachInput`).

        ``batch=True`` declares the rules batch-safe as written: given a gradient with an
        extra leading axis they return gradients with that axis (see the class docstring).
        """
        self.vjps = vjps[0] if len(vjps) == 1 and type(vjps[0]) is EachInput else tuple(vjps)
        self.vjp = None
        self.differentiable = True
        self.batch_vjps = self.vjps if batch else None
        self.batch_when = None
        self.raw_vjps = None
        self.onehot_vjps = None
        return self

    def defraw(self, *vjps):
        """Attach the per-input rules on raw arrays (one per input, or an :class:`EachInput`):
        the Tensor rules' own arithmetic, for passes that nothing records."""
        if self.vjps is None or self.no_gradient:
            raise ValueError(f"primitive {self.name}: raw rules need per-input rules first")
        self.raw_vjps = vjps[0] if len(vjps) == 1 and type(vjps[0]) is EachInput else tuple(vjps)
        return self

    def defbatch(self, *vjps, when=None):
        """Attach batch-aware rules, one per input (or an :class:`EachInput`): ``g`` has a
        leading batch axis and so must each result.  ``when(**params)`` limits them to the
        parameters for which they hold (a Jacobian elsewhere falls back to one pass per row)."""
        if self.vjps is None:
            raise ValueError(f"primitive {self.name}: batch rules need per-input rules first")
        self.batch_vjps = vjps[0] if len(vjps) == 1 and type(vjps[0]) is EachInput else tuple(vjps)
        self.batch_when = when
        self.onehot_vjps = None
        return self

    def defonehot(self, *vjps):
        """Attach the rules that take a vectorized Jacobian's one-hot gradient
        (:class:`minitape._onehot.OneHot`), one per input: each returns a OneHot, a dense
        batched Tensor, None, or ``DENSE`` (that input's gradient from the batch rule instead)."""
        if self.batch_vjps is None:
            raise ValueError(f"primitive {self.name}: one-hot rules need batch rules first")
        self.onehot_vjps = tuple(vjps)
        return self

    def batchable(self, params):
        """Whether a recorded call with ``params`` can take a gradient with a batch axis."""
        if self.batch_vjps is None:
            return False
        w = self.batch_when
        return w is None or bool(w(**params))

    def defvjp(self, vjp):
        """Attach one gradient rule for the whole operation (one call per recorded op)."""
        self.vjp = vjp
        self.vjps = None
        self.batch_vjps = None
        self.raw_vjps = None
        self.onehot_vjps = None
        self.differentiable = True
        return self

    def __repr__(self):
        return f"<Primitive {self.name}>"


class EachInput:
    """Per-input rules of a variadic primitive, from one rule ``f(k, g, ans, *inputs, **params)``."""

    __slots__ = ("f",)

    def __init__(self, f):
        self.f = f

    def __getitem__(self, k):
        f = self.f
        return lambda g, *saved, **p: f(k, g, *saved, **p)

    def __iter__(self):
        raise TypeError("variadic")


REGISTRY: dict[str, Primitive] = {}


def keep_inputs(ans, *inputs, **params):
    """``save`` for a rule that reads the inputs and not the output: ``(None, *inputs)``, so
    the output is not kept alive by the tape (a matrix product's result may be the largest
    array of a step: freeing it with its last user, as TensorFlow does, saves memory and the
    page faults of allocating it again).  Inputs keep their places, so unbroadcasting works."""
    return (None,) + inputs


def primitive(name, fwd, save=None, unbroadcast=False, no_gradient=False) -> Primitive:
    """A new primitive, registered by name (the gradient layer attaches its rule later)."""
    p = Primitive(name, fwd, save, unbroadcast, no_gradient)
    REGISTRY[name] = p
    return p


def _to_tensor(x):
    """Fast conversion of an operation's argument into a Tensor."""
    t = type(x)
    if t is Tensor:
        return x
    if t is Variable:
        return x._read()
    return convert_to_tensor(x)


_new = object.__new__

# NumPy scalar type -> dtype kind ("f", "c", "i", "u", "b"). A NumPy scalar's type fixes its
# dtype, and reading ``.dtype`` off a scalar costs twice a dict lookup: the hot paths ask
# ``(_SCALAR_KIND.get(type(v)) or v.dtype.kind)``.
_SCALAR_KIND = {t: np.dtype(t).kind for t in (
    np.float16, np.float32, np.float64, np.longdouble, np.complex64, np.complex128,
    np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64, np.bool_)}


def apply(prim, inputs, params):
    """Run ``prim`` on Tensors ``inputs`` and record it on every tape that watches an input."""
    if _multi[0]:  # a second array module (GPU) exists: decide where this operation runs
        inputs, params = _place(prim, inputs, params)
    fwd = prim.fwd
    n = len(inputs)
    try:  # (free unless it raises); inf and nan without NumPy's RuntimeWarnings, as in TF
        if n == 2:  # binary and unary operations: no argument list built per call
            a, b = inputs
            v = (_quiet_run(fwd, a._value, b._value, **params) if params
                 else _quiet_run(fwd, a._value, b._value))
        elif n == 1:
            v = (_quiet_run(fwd, inputs[0]._value, **params) if params
                 else _quiet_run(fwd, inputs[0]._value))
        else:
            v = _quiet_run(fwd, *[t._value for t in inputs], **params)
    except ValueError as e:
        err = broadcast_error(prim.name, [t._value for t in inputs], e)
        if err is None:
            raise
        raise err from None
    except RuntimeError:  # the quiet context is busy (another thread, a nested forward)
        v = _quiet_call(fwd, *[t._value for t in inputs], **params)
    out = _new(Tensor)  # Tensor(v) without a Python-level __init__ call
    out._value = v
    out._id = oid = _next_id()
    if _tapes:
        if (len(_tapes) == 1 and 0 < n <= 2 and prim.differentiable
                and (_SCALAR_KIND.get(type(v)) or v.dtype.kind) in "fc"):
            # _record's common case inlined (one tape, one or two inputs, a float result)
            tape = _tapes[0]
            w = tape._watched
            if n == 2:
                ia = a._id
                ib = b._id
                if ia in w or ib in w:
                    w.add(oid)
                    tape._entries.append((oid, (ia, ib), prim, (out, a, b) if prim.save is None
                                          else prim.save(out, a, b, **params), params))
            else:
                a = inputs[0]
                ia = a._id
                if ia in w:
                    w.add(oid)
                    tape._entries.append((oid, (ia,), prim, (out, a) if prim.save is None
                                          else prim.save(out, a, **params), params))
        else:
            _record(prim, inputs, params, out)
    if _accumulators:
        _forward_tangents(prim, inputs, params, out)
    return out


_NO_PARAMS: dict = {}  # the params of every call without any (shared: never written to)


def apply2(prim, a, b):
    """``apply(prim, (a, b), {})`` for a binary operation without parameters, the commonest
    call: no argument tuple or parameter dict is built unless something reads it (several
    tapes, a forward accumulator, another device, a result that is not recorded)."""
    if _multi[0] or _accumulators or len(_tapes) > 1:
        return apply(prim, (a, b), _NO_PARAMS)
    try:
        v = _quiet_run(prim.fwd, a._value, b._value)  # (NumPy's warnings off, see apply)
    except ValueError as e:
        err = broadcast_error(prim.name, [a._value, b._value], e)
        if err is None:
            raise
        raise err from None
    except RuntimeError:
        v = _quiet_call(prim.fwd, a._value, b._value)
    out = _new(Tensor)
    out._value = v
    out._id = oid = _next_id()
    if _tapes:
        tape = _tapes[0]
        w = tape._watched
        ia = a._id
        ib = b._id
        if ia in w or ib in w:
            if prim.differentiable and (_SCALAR_KIND.get(type(v)) or v.dtype.kind) in "fc":
                w.add(oid)
                tape._entries.append((oid, (ia, ib), prim, (out, a, b) if prim.save is None
                                      else prim.save(out, a, b), _NO_PARAMS))
            else:
                _record(prim, (a, b), _NO_PARAMS, out)
    return out


def apply1(prim, a):
    """``apply(prim, (a,), {})`` for a unary operation without parameters (see apply2)."""
    if _multi[0] or _accumulators or len(_tapes) > 1:
        return apply(prim, (a,), _NO_PARAMS)
    try:
        v = _quiet_run(prim.host, a._value)  # (NumPy's warnings off, see apply)
    except ValueError as e:
        err = broadcast_error(prim.name, [a._value], e)
        if err is None:
            raise
        raise err from None
    except RuntimeError:
        v = _quiet_call(prim.fwd, a._value)
    out = _new(Tensor)
    out._value = v
    out._id = oid = _next_id()
    if _tapes:
        tape = _tapes[0]
        w = tape._watched
        ia = a._id
        if ia in w:
            if prim.differentiable and (_SCALAR_KIND.get(type(v)) or v.dtype.kind) in "fc":
                w.add(oid)
                tape._entries.append((oid, (ia,), prim, (out, a) if prim.save is None
                                      else prim.save(out, a), _NO_PARAMS))
            else:
                _record(prim, (a,), _NO_PARAMS, out)
    return out


def _shape_text(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


def broadcast_error(op_name, arrays, e):
    """TensorFlow's error for operands whose shapes do not broadcast (None for other errors).

    ``InvalidArgumentError: Incompatible shapes: [2] vs. [3] [Op:AddV2]``, naming the first two
    shapes that do not broadcast together.
    """
    if "broadcast" not in str(e):
        return None
    from .errors import InvalidArgumentError
    shapes = [tuple(getattr(a, "shape", ())) for a in arrays]
    for i in range(len(shapes)):
        for j in range(i + 1, len(shapes)):
            try:
                np.broadcast_shapes(shapes[i], shapes[j])
            except ValueError:
                return InvalidArgumentError(f"Incompatible shapes: {_shape_text(shapes[i])} vs. "
                                            f"{_shape_text(shapes[j])} [Op:{op_name}]")
    return None


def _record(prim, inputs, params, out):
    if not prim.differentiable and not prim.no_gradient:
        return _trace.note_cut(prim, inputs, out, _tapes)  # not differentiable: path ends
    if not out._value.dtype.kind in _FLOATING:
        return _trace.note_cut(prim, inputs, out, _tapes)  # integer result: path ends
    saved = None
    for tape in _tapes:
        w = tape._watched
        for t in inputs:
            if t._id in w:
                break
        else:
            continue
        if saved is None:  # what the gradient needs, and the input ids: once for all tapes
            saved = (out, *inputs) if prim.save is None else prim.save(out, *inputs, **params)
            n = len(inputs)
            ids = ((inputs[0]._id, inputs[1]._id) if n == 2 else (inputs[0]._id,) if n == 1
                   else tuple([t._id for t in inputs]))
            oid = out._id
        w.add(oid)
        tape._entries.append((oid, ids, prim, saved, params))


def record_outputs(prim, inputs, outs):
    """Record an operation whose forward ran elsewhere (a custom gradient's function).

    ``prim`` has a whole-op rule ``prim.vjp(g)`` (``g`` a tuple when there are several
    outputs) and keeps nothing: its rule closes over what it needs.  One entry is recorded for
    all of ``outs``, so the rule runs once per operation, as in TensorFlow.
    """
    oid = outs[0]._id if len(outs) == 1 else tuple([o._id for o in outs])
    ids = None
    for tape in _tapes:
        w = tape._watched
        if any(t._id in w for t in inputs):
            if ids is None:
                ids = tuple([t._id for t in inputs])
            for o in outs:
                w.add(o._id)
            tape._entries.append((oid, ids, prim, (), {}))
    for acc in list(_accumulators):
        acc._on_op(prim, inputs, {}, outs[0] if len(outs) == 1 else tuple(outs))


def _forward_tangents(prim, inputs, params, out):
    for acc in list(_accumulators):
        acc._on_op(prim, inputs, params, out)

# ------------------------------------------------------------------------------------------
# Device placement (only active once a second array module, e.g. CuPy, has been registered)
# ------------------------------------------------------------------------------------------

_MODULES = B._MODULES


def _place(prim, inputs, params):
    """Where an operation runs, and what is copied there: the one place of the device rule.

    The operation runs on the device of the innermost ``minitape.device`` scope when one is
    active; outside any scope, where its tensor inputs live, and on the GPU when they are
    mixed.  Inputs on another device are copied there by the recorded ``Copy`` operation, so
    gradients flow back to the device they came from; array-valued parameters (``where``'s
    condition, ``gather``'s indices, index arrays) are moved too.  NumPy scalars are left as
    they are: every array module accepts them as plain numbers.
    """
    if prim is _Copy:
        return inputs, params
    default = B._default
    if len(default) > 1:
        target = default[-1]
        if type(target) is B.Unplaceable:  # a GPU block without a GPU, soft placement off
            target.fail()
    else:
        target = np
        for t in inputs:
            m = _MODULES.get(type(t._value)) or B.xp(t._value)
            if m is not np:
                target = m
                break
    moved = None
    for i, t in enumerate(inputs):
        m = _MODULES.get(type(t._value)) or B.xp(t._value)
        if m is not target:
            if moved is None:
                moved = list(inputs)
            moved[i] = apply(_Copy, (t,), {"src": m, "dst": target})
    if moved is not None:
        inputs = tuple(moved)
    if params:
        new = None
        for k, v in params.items():
            w = _moved_param(v, target)
            if w is not None:
                if new is None:
                    new = dict(params)
                new[k] = w
        if new is not None:
            params = new
    return inputs, params


def _moved_param(v, target):
    """``v`` copied to ``target`` if it is an array on another device, else None."""
    tv = type(v)
    if tv is tuple:
        out = None
        for i, x in enumerate(v):
            y = _moved_param(x, target)
            if y is not None:
                if out is None:
                    out = list(v)
                out[i] = y
        return None if out is None else tuple(out)
    m = _MODULES.get(tv)
    if m is None or m is target or (m is np and tv is not np.ndarray):
        return None
    return B.move(v, target)


def _copy_fwd(a, src, dst):
    return B.move(a, dst)


def _copy_vjp(g, src, dst):
    return apply(_Copy, (g,), {"src": dst, "dst": src})


# Copy keeps nothing for its gradient: the gradient is copied back to the source device.
_Copy = primitive("Copy", _copy_fwd, save=lambda ans, x, src, dst: ()).defvjps(_copy_vjp,
                                                                              batch=True)
