"""Cheap notes that let :mod:`minitape.debugging` explain a ``None`` gradient.

Nothing here runs on the hot path of a recorded float operation.  The hooks run only when
something unusual happens while a tape records:

* a watched tensor leaves minitape (``__array__``/``.numpy()``/``float()``): :func:`note_escape`;
* a Variable is assigned to (``assign``, ``assign_add``, ``assign_sub``): :func:`note_assign`;
* an operation consumes a watched tensor but is not recorded, because it is registered as not
  differentiable (``stop_gradient``, comparisons, ``round``...) or because its result is an
  integer (``cast`` to ``int32``): :func:`note_cut`.

Each note is a small named tuple (:class:`EscapeNote`, :class:`AssignNote`, :class:`CutNote`)
appended to the tape's ``_notes`` list (created on first use); its last field is a time stamp comparable with tensor ids (ids only grow), so that ``why_none`` can
prefer the note closest before the target was computed.
Separately, arithmetic operators called directly on a Variable remember, in a bounded dict,
that their result came from that Variable (:data:`FROM_VARIABLE`), which is how
``x = x + 1`` (instead of ``x.assign_add(1)``) is recognised later.
"""
from __future__ import annotations

import linecache
import re
import sys

from typing import NamedTuple

from ._state import next_id as _next_id


class EscapeNote(NamedTuple):
    """A watched tensor left minitape (``np.mean(x)``, ``x.numpy()``, ``float(x)``)."""

    kind: str        # "escape"
    tensor: int      # its id
    how: str         # "numpy", "array", "float" or "int"
    np_func: str | None   # the NumPy function that asked for it, when known
    line: str        # the user's line of code
    lineno: int | None
    stamp: int       # comparable with tensor ids


class AssignNote(NamedTuple):
    """A Variable was assigned to while tapes recorded."""

    kind: str        # "assign"
    var: int         # the Variable's id
    var_name: str
    op: str          # "assign", "assign_add" or "assign_sub"
    value: int | None    # id of the assigned tensor, when it was one
    line: str
    stamp: int


class CutNote(NamedTuple):
    """An operation consumed a watched tensor but was not recorded."""

    kind: str        # "cut"
    out: int         # id of its result
    ins: tuple       # ids of its inputs
    op: str          # the operation's name
    dtype: str       # its result's dtype
    not_differentiable: bool   # True: no gradient rule; False: an integer result
    stamp: int

# Tensor id -> (variable name, operator symbol); ids are never reused, so stale keys are
# harmless; the dict is bounded so a long training loop does not grow it.
FROM_VARIABLE: dict = {}
_FROM_VARIABLE_MAX = 4096

_USER_CONVERSIONS = {"numpy": "numpy", "__array__": "array", "__float__": "float",
                     "__int__": "int"}
_NP_CALL = re.compile(r"\b(?:np|numpy|onp|jnp)\.((?:\w+\.)*\w+)\s*\(")


def _user_frame(depth):
    """(kind, numpy function, filename, lineno, line) for the code that triggered a conversion.

    Walks up from the hook: minitape frames tell which conversion it was (the outermost one
    wins, so ``__array__`` calling ``numpy()`` counts as ``__array__``); NumPy frames tell
    which NumPy function asked for the conversion (the outermost one, e.g. ``mean``).
    """
    f = sys._getframe(depth)
    kind = None
    np_func = None
    while f is not None:
        mod = f.f_globals.get("__name__", "")
        if mod == "minitape" or mod.startswith("minitape."):
            kind = f.f_code.co_name
        elif mod == "numpy" or mod.startswith("numpy."):
            np_func = f.f_code.co_name
        else:
            break
        f = f.f_back
    if f is None:
        return kind, np_func, None, None, ""
    line = linecache.getline(f.f_code.co_filename, f.f_lineno, f.f_globals).strip()
    if np_func is None or np_func.startswith("_"):
        m = _NP_CALL.search(line)
        np_func = m.group(1) if m else (None if np_func is None else np_func.lstrip("_"))
    return kind, np_func, f.f_code.co_filename, f.f_lineno, line


def note_escape(t, _tapes):
    """A tensor is being converted to NumPy/Python while tapes record: remember it if watched."""
    hit = []
    for tape in _tapes:
        notes = getattr(tape, "_notes", False)
        if notes is False:
            continue  # a custom_gradient variable watcher, not a tape
        if t._id in tape._watched or (getattr(t, "_trainable", False) and tape._watch_accessed):
            hit.append(tape)
    if not hit:
        return
    kind, np_func, filename, lineno, line = _user_frame(2)
    how = _USER_CONVERSIONS.get(kind)
    if how is None:
        return  # minitape's own bookkeeping (e.g. reading a shape), not the user's code
    note = EscapeNote("escape", t._id, how, np_func, line, lineno, _next_id())
    for tape in hit:
        if tape._notes is None:
            tape._notes = []
        tape._notes.append(note)


def note_assign(var, value, op, _tapes):
    """``var.assign*(value)`` while tapes record: the new state has no history on the tape."""
    vid = getattr(value, "_id", None)
    line = ""
    f = sys._getframe(2)
    if f is not None:
        line = linecache.getline(f.f_code.co_filename, f.f_lineno, f.f_globals).strip()
    note = AssignNote("assign", var._id, var._name, op, vid, line, _next_id())
    for tape in _tapes:
        if getattr(tape, "_notes", False) is False:
            continue
        if tape._notes is None:
            tape._notes = []
        tape._notes.append(note)


def note_cut(prim, inputs, out, _tapes):
    """An operation consumed a watched tensor but is not recorded: the path stops here."""
    for tape in _tapes:
        notes = getattr(tape, "_notes", False)
        if notes is False:
            continue
        w = tape._watched
        for t in inputs:
            if t._id in w:
                break
        else:
            continue
        if notes is None:
            notes = tape._notes = []
        notes.append(CutNote("cut", out._id, tuple([t._id for t in inputs]), prim.name,
                             out._value.dtype.name, not prim.differentiable, out._id))


# ------------------------------------------------------------------------------------------
# Variable operators: remember that a plain Tensor was computed from a Variable
# ------------------------------------------------------------------------------------------

_VARIABLE_OPERATORS = {
    "__add__": "+", "__radd__": "+", "__sub__": "-", "__rsub__": "-", "__mul__": "*",
    "__rmul__": "*", "__truediv__": "/", "__rtruediv__": "/", "__floordiv__": "//",
    "__rfloordiv__": "//", "__mod__": "%", "__rmod__": "%", "__pow__": "**", "__rpow__": "**",
    "__matmul__": "@", "__rmatmul__": "@", "__neg__": "-", "__abs__": "abs",
}


def _forget_oldest():
    """Keep the newest half of FROM_VARIABLE (amortised O(1) per remembered result)."""
    keep = list(FROM_VARIABLE.items())[-(_FROM_VARIABLE_MAX // 2):]
    FROM_VARIABLE.clear()
    FROM_VARIABLE.update(keep)


def _remember(fn, symbol):
    d = FROM_VARIABLE
    code = getattr(fn, "__code__", None)
    if code is None:  # not a plain Python function: pass any arguments along
        def op(self, *other):
            r = fn(self, *other)
            d[r._id] = (self._name, symbol)
            if len(d) > _FROM_VARIABLE_MAX:
                _forget_oldest()
            return r
    elif code.co_argcount == 1:
        def op(self):
            r = fn(self)
            d[r._id] = (self._name, symbol)
            if len(d) > _FROM_VARIABLE_MAX:
                _forget_oldest()
            return r
    else:
        def op(self, other):
            r = fn(self, other)
            d[r._id] = (self._name, symbol)
            if len(d) > _FROM_VARIABLE_MAX:
                _forget_oldest()
            return r

    op.__name__ = fn.__name__ if hasattr(fn, "__name__") else "op"
    return op


def install_variable_operators(Variable, Tensor):
    """Give Variable arithmetic operators that note where their result came from."""
    for name, symbol in _VARIABLE_OPERATORS.items():
        fn = getattr(Tensor, name, None)
        if fn is not None:
            setattr(Variable, name, _remember(fn, symbol))
