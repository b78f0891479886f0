"""Forward-mode automatic differentiation (``tf.autodiff.ForwardAccumulator``)."""
from __future__ import annotations

from ._core import Tensor, _to_tensor, convert_to_tensor
from ._state import accumulators as _accumulators
import warnings

from ._backend import numpy as _np
from ._indexed_slices import IndexedSlices
from ._tape import UnconnectedGradients, GradientTape, TapeWarning
from . import nest as _nest
from .dtypes import FLOATING_KINDS as _FLOATING  # what gradients flow through

__all__ = ["ForwardAccumulator"]


class ForwardAccumulator:
    """Compute Jacobian-vector products alongside the forward computation.

    ``with ForwardAccumulator(primals, tangents) as acc:`` tracks, for every tensor computed
    from ``primals``, its directional derivative along ``tangents``; ``acc.jvp(y)`` returns it.
    Tangents are computed with minitape operations, so a GradientTape around (or inside) the
    accumulator can differentiate them again (Hessian-vector products).
    """

    def __init__(self, primals, tangents):
        flat_p = _nest.flatten(primals)
        flat_t = _nest.flatten(tangents)
        if len(flat_p) != len(flat_t):
            raise ValueError(f"primals and tangents must have the same structure: {len(flat_p)} "
                             f"primals, {len(flat_t)} tangents")
        self._tangents = {}
        for p, t in zip(flat_p, flat_t):
            if not isinstance(p, Tensor):
                raise TypeError(f"primals must be Tensors or Variables, got {type(p).__name__}")
            if not (p.dtype.is_floating or p.dtype.is_complex):  # TF logs it as a warning
                warnings.warn("The dtype of the watched primal must be floating (e.g. "
                              f"tf.float32), got {p.dtype!r}", TapeWarning, stacklevel=2)
            tt = _to_tensor(t) if isinstance(t, Tensor) else convert_to_tensor(t, dtype=p.dtype)
            if tuple(tt.shape) != tuple(p.shape):
                raise ValueError(f"Tangent {tt.shape} does not match the primal's shape {p.shape}")
            self._tangents[p._id] = tt
        self._active = False

    def __enter__(self):
        if self._active:
            raise ValueError("Accumulator is already recording.")
        _accumulators.append(self)
        self._active = True
        return self

    def __exit__(self, *exc):
        if self._active:
            _accumulators.remove(self)
            self._active = False
        return False

    def _on_op(self, prim, inputs, params, out):
        """``out``: the output Tensor, or a tuple of them (an operation with several outputs)."""
        tans = self._tangents
        tin = [tans.get(t._id) for t in inputs]
        if all(t is None for t in tin):
            return
        outs = out if type(out) is tuple else (out,)
        if outs[0]._value.dtype.kind not in _FLOATING:
            return
        if not prim.differentiable and not prim.no_gradient:
            return
        if prim.no_gradient:
            raise LookupError(f"gradient registry has no entry for: {prim.name}")
        # Pause this accumulator while computing its own tangent (outer ones keep going).
        idx = _accumulators.index(self)
        del _accumulators[idx]
        try:
            # (rules at kinks compute inf/nan silently, as TF's)
            with _np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                t_outs = _jvp_by_double_vjp(prim, inputs, params, outs, tin)
        finally:
            _accumulators.insert(idx, self)
        for o, t_out in zip(outs, t_outs):
            if t_out is not None:
                tans[o._id] = t_out

    def jvp(self, primals, unconnected_gradients=UnconnectedGradients.NONE):
        """The tangent(s) of ``primals`` (a tensor or nested structure of tensors)."""
        unconnected = UnconnectedGradients(unconnected_gradients)
        from ._ops import zeros_like

        def one(p):
            t = self._tangents.get(_to_tensor(p)._id) if isinstance(p, Tensor) else None
            if t is None and unconnected is UnconnectedGradients.ZERO:
                return zeros_like(p)
            return t

        return _nest.map_structure(one, primals)


def _jvp_by_double_vjp(prim, inputs, params, outs, tin):
    """J·t from the reverse-mode rule, one tangent per output: the VJP is linear in its
    cotangent ``u``, so d/du <VJP(u), t> = J t (TensorFlow's fallback for operations without
    a JVP rule).  The rule runs once, whatever the number of outputs."""
    from ._ops import zeros_like, add
    from ._vjp import entry_grads
    us = [zeros_like(o) for o in outs]
    with GradientTape(persistent=True) as tape:
        for u in us:
            tape.watch(u)
        if prim.save is not None:
            saved = prim.save(outs[0], *inputs, **params)
        elif prim.fwd is None:  # recorded from outside (custom gradients): the rule keeps all
            saved = ()
        else:
            saved = (outs[0], *inputs)
        needed = {t._id for t, tt in zip(inputs, tin) if tt is not None}
        g = us[0] if len(us) == 1 else tuple(us)
        in_grads = entry_grads(prim, g, saved, params, [t._id for t in inputs], needed)
        # (a gather's rule gives an IndexedSlices: its dense tensor, recorded here)
        in_grads = [_to_tensor(x) if type(x) is IndexedSlices else x for x in in_grads]
    pairs = [(g, tt) for g, tt in zip(in_grads, tin) if g is not None and tt is not None]
    result = []
    others = None
    for u, o in zip(us, outs):
        r_u = None
        for g, tt in pairs:
            r = tape.gradient(g, u, output_gradients=tt)
            if r is not None:
                r_u = r if r_u is None else add(r_u, r)
        if r_u is None:
            # TensorFlow transposes the rule of every input, a zero tangent for those without
            # one: the tangent is zeros, not None, when any input's rule depends on u
            # (ReluGrad's tangent along its activation: TF's rule there is zeros_like).
            if others is None:
                rest = {t._id for t, tt in zip(inputs, tin)
                        if tt is None and t._value.dtype.kind in "fc"}
                others = []
                if rest:
                    with tape:
                        others = [g for g in entry_grads(prim, us[0] if len(us) == 1 else tuple(us),
                                                         saved, params, [t._id for t in inputs], rest)
                                  if g is not None]
            if any(tape.gradient(g, u) is not None for g in others):
                r_u = zeros_like(o)
        result.append(r_u)
    return result
