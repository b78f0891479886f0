"""What one recorded operation sends back, the seeds of a pass, and the pass on raw arrays.

The counted backward pass (:func:`minitape._tape.backward`) and forward mode
(:mod:`minitape.autodiff`) call :func:`entry_grads` for one entry's input gradients and
:func:`_seeds` for the targets' starting gradients; :func:`_backward_raw` is the whole pass for a
gradient that nothing records, on raw arrays (``Primitive.raw_vjps``).
"""
from __future__ import annotations

from . import _ops  # gradient arithmetic
from . import _onehot
from ._core import _to_tensor, _SCALAR_KIND
from ._indexed_slices import IndexedSlices
from ._ops.array_ops import _unbroadcast_fwd as _unbroadcast_raw  # (unbroadcast's forward)
from ._ops.raw_grads import _raw_accumulate, _tensor_rule, _wrap
from .dtypes import FLOATING_KINDS as _FLOATING  # what gradients flow through


def _seeds(targets, output_gradients):
    """The targets' gradients that start a pass: ones, or ``output_gradients`` in their dtype."""
    grads = {}
    for k, t in enumerate(targets):
        if t._value.dtype.kind not in _FLOATING:
            continue
        g = output_gradients[k] if output_gradients is not None else None
        if g is None:
            g = _ops.ones_like(t)
        elif g.__class__ is not _onehot.OneHot:  # (a Jacobian's one-hot seeds: as they are)
            g = _to_tensor(g)
            if g.dtype != t.dtype:
                g = _ops.cast(g, t.dtype)
        prev = grads.get(t._id)
        grads[t._id] = g if prev is None else _ops.add(prev, g)
    return grads


def _backward_raw(entries, live, targets, sources, output_gradients, source_ids, consume):
    """:func:`backward` on raw arrays, for a pass that nothing records.

    A primitive's raw rules (``Primitive.raw_vjps``) run where it has them, else its Tensor
    rules on wrapped arrays; gradients are arrays until the end, where each source's becomes a
    Tensor.  Scheduled without usage counts: entries are in execution order, so walking them
    backwards reaches each one after every entry that consumed its outputs.  (Where three or
    more gradients meet in one tensor they are summed in that order, which may differ in the
    last bit from the usage-count order of a recorded pass.)
    """
    # the entries that lead to a source: one forward sweep
    needed_ids = set(source_ids)
    need = needed_ids.add
    unneeded = needed_ids.isdisjoint  # (one C call per entry, no loop over its inputs)
    last = -1
    i = -1
    sparse = 0
    for e in entries:
        i += 1
        if not unneeded(e[1]):
            if e[2].sparse_grad:
                sparse += 1
                if sparse > 1:  # two sparse gradients may meet: the counted pass does it
                    return None
            o = e[0]
            if o.__class__ is tuple:
                needed_ids.update(o)
            else:
                need(o)
            last = i
    e = None
    grads = _seeds(targets, output_gradients)
    for tid, g in grads.items():
        grads[tid] = g._value
    get = grads.get
    pop = grads.pop
    for i in range(last, -1, -1):
        out_id, in_ids, prim, saved, params = entries[i]
        if out_id.__class__ is tuple:  # several outputs: a tuple of their gradients
            if not any(o in needed_ids for o in out_id):
                continue
            g = tuple([get(o) if o in source_ids else pop(o, None) for o in out_id])
            if all(x is None for x in g):
                g = None
        else:
            if out_id not in needed_ids:
                continue
            g = get(out_id) if out_id in source_ids else pop(out_id, None)
        if g is not None:
            # (a gather's sparse gradient takes the Tensor rules: identity and cast keep it
            # sparse; a primitive with raw rules is never no_gradient: Primitive.defraw)
            vjps = prim.raw_vjps
            if vjps is not None and type(g) is not IndexedSlices:
                k = 0
                for tid in in_ids:
                    if tid in needed_ids:
                        try:
                            if params:
                                r = vjps[k](g, *saved, **params)
                            elif len(saved) == 3:  # (ans, x, y): no argument tuple built
                                r = vjps[k](g, saved[0], saved[1], saved[2])
                            elif len(saved) == 2:  # (ans, x)
                                r = vjps[k](g, saved[0], saved[1])
                            else:
                                r = vjps[k](g, *saved)
                        except ValueError:  # (shapes that do not broadcast: TF's error)
                            r = _tensor_rule(prim, k, g, saved, params)
                        if r is not None:
                            # a NumPy scalar gradient comes from a 0-d output, whose inputs
                            # are 0-d too: nothing to undo (no shape read per scalar step)
                            if prim.unbroadcast and r.__class__ not in _SCALAR_KIND:
                                shape = saved[k + 1]._value.shape
                                if r.shape != shape:
                                    r = _unbroadcast_raw(r, shape)
                            prev = get(tid)
                            grads[tid] = r if prev is None else _raw_accumulate(prev, r)
                    k += 1
            else:  # no raw rules: the Tensor rules, on the arrays wrapped
                if prim.no_gradient:
                    raise LookupError(f"gradient registry has no entry for: {prim.name}")
                if type(g) is tuple:
                    g = tuple([None if x is None or type(x) is IndexedSlices else _wrap(x) for x in g])
                elif type(g) is not IndexedSlices:
                    g = _wrap(g)
                for tid, r in zip(in_ids, entry_grads(prim, g, saved, params, in_ids,
                                                      needed_ids)):
                    if r is not None and tid in needed_ids:
                        if type(r) is not IndexedSlices:  # (a gather's rule: kept sparse, as TF)
                            r = r._value
                        prev = get(tid)
                        grads[tid] = r if prev is None else _raw_accumulate(prev, r)
        if consume:
            live[i] = None  # free what this entry kept alive
    out = []
    for s in sources:
        sid = s._id
        v = get(sid) if sid in source_ids else None
        out.append(None if v is None else v if type(v) is IndexedSlices else _wrap(v))
    return out


def entry_grads(prim, g, saved, params, in_ids, needed_ids):
    """The gradients one recorded operation sends to its inputs (None where not needed)."""
    vjp = prim.vjp
    if vjp is not None:  # one rule for the whole operation: called once
        r = vjp(g, *saved, **params) if params else vjp(g, *saved)
        out = [None if x is None or tid not in needed_ids else x for tid, x in zip(in_ids, r)]
        if prim.unbroadcast:
            for k, x in enumerate(out):
                if x is not None:
                    shape = saved[k + 1]._value.shape
                    if x._value.shape != shape:
                        out[k] = _ops.unbroadcast(x, shape)
        return out
    vjps = prim.vjps
    out = []
    for k, tid in enumerate(in_ids):
        if tid not in needed_ids:
            out.append(None)
            continue
        r = vjps[k](g, *saved, **params) if params else vjps[k](g, *saved)
        if r is not None and prim.unbroadcast:
            shape = saved[k + 1]._value.shape
            if r._value.shape != shape:
                r = _ops.unbroadcast(r, shape)
        out.append(r)
    return out
