"""The tape view: what debugging knows of a recording (read through the tape's one read-only
view, ``_tape.recording``), as a graph of tensors and operations, and the helpers shared by
the instruments (language, names of the caller's variables, value formatting).
"""
from __future__ import annotations

import itertools
import sys

from .. import _tape
from .. import nest as _nest
import course_lang

from .._core import Tensor, Variable, keep_inputs


LANGUAGES = course_lang.LANGS


def _lang(lang):
    """Resolve ``lang`` with the course's one resolver (``course_lang.resolve``): the argument
    (checked), else ``set_language()`` > ``MINITAPE_LANG`` (warned about and skipped when
    unknown) > the notebook's path > en: the instruments speak the language the lessons and the
    grader do."""
    if lang is not None and not isinstance(lang, str):
        raise TypeError(f"lang must be a string such as 'en', got {lang!r}")
    return course_lang.resolve(lang)


def _check_tape(tape, who):
    from .._tape import GradientTape
    if not isinstance(tape, GradientTape):
        raise TypeError(f"{who}() needs a minitape GradientTape as its first argument, "
                        f"got {type(tape).__name__}")


def _flat_tensors(x, what):
    flat = _nest.flatten(x)
    for t in flat:
        if not isinstance(t, Tensor):
            raise TypeError(f"{what} must be Tensors or Variables (possibly nested in lists, "
                            f"tuples or dicts), got {type(t).__name__}")
    return flat


class _Recording:
    """What a tape still knows, read through its one read-only view (``_tape.recording``)."""

    def __init__(self, tape):
        view = _tape.recording(tape)
        self.tape = tape
        self.view = view
        self.entries = list(view.entries) if view.entries is not None else None
        self.watched = view.watched
        self.variables = {v._id: v for v in view.variables}
        self.watch_accessed = view.watch_accessed
        self.notes = view.notes
        self.spent = view.entries is None or view.spent is not None
        # (target ids, {source id: got a gradient}) of a spent tape
        self.answered = ((view.spent.target_ids, view.spent.answered)
                         if view.spent is not None else None)
        self.producer = {}
        self.consumers = {}
        if self.entries is not None:
            for i, e in enumerate(self.entries):
                self.producer[e.out] = i
                for tid in e.ins:
                    self.consumers.setdefault(tid, []).append(i)

    def ancestors(self, ids):
        """Ids of ``ids`` and of every tensor they were computed from, on this tape."""
        seen = set(ids)
        stack = list(ids)
        entries = self.entries
        while stack:
            j = self.producer.get(stack.pop())
            if j is None:
                continue
            for tid in entries[j].ins:
                if tid not in seen:
                    seen.add(tid)
                    stack.append(tid)
        return seen

    def descendants(self, ids):
        """Ids of ``ids`` and of every recorded tensor computed from them."""
        seen = set(ids)
        stack = list(ids)
        entries = self.entries
        while stack:
            for j in self.consumers.get(stack.pop(), ()):
                out = entries[j].out
                if out not in seen:
                    seen.add(out)
                    stack.append(out)
        return seen


def _frame_names(frame):
    """id -> variable name for the Tensors bound in ``frame`` (locals win over globals)."""
    names = {}
    if frame is None:
        return names
    for scope in (frame.f_globals, frame.f_locals):
        for k, v in list(scope.items()):
            if isinstance(v, Tensor) and not k.startswith("_"):
                names[v._id] = (k, v)
    return names


_PACKAGE = __name__.rpartition(".")[0]  # minitape.debugging


def _caller_frame():
    """The first frame outside this package (the user's cell or function)."""
    f = sys._getframe(1)
    while f is not None and f.f_globals.get("__name__", "").rpartition(".")[0] == _PACKAGE:
        f = f.f_back
    return f


def _fmt_value(t, limit=28):
    """A short text of a tensor's value: ``6.0``, ``[1. 2. 3.]``, ``[[1. 2.] [3. 4.]]``."""
    from .. import _backend as B
    np = B.numpy
    try:
        a = np.asarray(B.to_host(t._value))
    except Exception:  # pragma: no cover - an exotic backend
        return "?"
    if a.ndim == 0:
        s = str(a[()])
    else:
        s = np.array2string(a, precision=4, threshold=8, edgeitems=2, max_line_width=10_000,
                            separator=" ")
        s = " ".join(s.split())
    return s if len(s) <= limit else s[:limit - 1] + "…"


def _fmt_meta(t):
    shape = "(" + ", ".join(str(d) for d in t._value.shape) + ("," if t._value.ndim == 1 else "") + ")"
    return f"{shape} {t.dtype.name}"


class _TNode:
    __slots__ = ("id", "name", "value", "role", "watched", "meta", "named")

    def __init__(self, tid):
        self.id = tid
        self.name = None
        self.value = None      # a Tensor when the value is known
        self.role = "inter"    # source | variable | const | inter | target
        self.watched = False
        self.named = False


class _ONode:
    __slots__ = ("index", "name", "out", "ins")

    def __init__(self, index, name, out, ins):
        self.index = index
        self.name = name
        self.out = out
        self.ins = ins


class _Graph:
    """Tensors and operations of a recording, optionally cut to what lies between target and
    sources, with names, values and roles for display."""

    def __init__(self, tape, target=None, sources=None, names=None, frame=None, max_ops=60,
                 lang=None):
        _check_tape(tape, "draw")
        rec = _Recording(tape)
        if rec.spent:
            # in the student's language: draw() is a teaching instrument, not TensorFlow's API
            from .messages import CATALOG

            raise ValueError(CATALOG.t("draw.error.spent", _lang(lang)))
        self.rec = rec
        self.spent = rec.spent
        entries = rec.entries
        flat_t = _flat_tensors(target, "target") if target is not None else []
        flat_s = _flat_tensors(sources, "sources") if sources is not None else []
        self.target_ids = [t._id for t in flat_t]
        self.source_ids = [s._id for s in flat_s]
        keep = range(len(entries))
        if flat_t:
            anc = rec.ancestors(self.target_ids)
            keep = [i for i in keep if entries[i].out in anc]
        if flat_s:
            desc = rec.descendants(self.source_ids)
            keep = [i for i in keep if entries[i].out in desc]
        keep = list(keep)
        self.total_ops = len(keep)
        if max_ops is not None and len(keep) > max_ops:
            keep = keep[-max_ops:]
        self.ops = [_ONode(i, entries[i].op.name, entries[i].out, entries[i].ins) for i in keep]

        # tensors, in order of first appearance
        self.tensors = {}
        order = []

        def node(tid):
            n = self.tensors.get(tid)
            if n is None:
                n = self.tensors[tid] = _TNode(tid)
                order.append(tid)
            return n

        for op in self.ops:
            for tid in op.ins:
                node(tid)
            node(op.out)
        for tid in self.source_ids + self.target_ids:
            node(tid)
        self.order = order

        # values: what the entries kept, the variables, the caller's names, target, sources
        values = {}
        for op in self.ops:
            e = entries[op.index]
            saved = e.saved
            if (saved is not None and (e.op.save is None or e.op.save is keep_inputs)
                    and len(saved) == len(e.ins) + 1):
                if saved[0] is not None:  # (keep_inputs: the output itself was not kept)
                    values[e.out] = saved[0]
                for tid, t in zip(e.ins, saved[1:]):
                    values.setdefault(tid, t)
        for v in rec.variables.values():
            values[v._id] = v
        framenames = _frame_names(frame)
        for tid, (k, v) in framenames.items():
            if isinstance(v, Variable):
                values[tid] = v  # a Variable read shares its id: show the Variable itself
            else:
                values.setdefault(tid, v)
        for t in flat_t + flat_s:
            values.setdefault(t._id, t)
        explicit = {}
        if names:
            for k, v in (names.items() if isinstance(names, dict) else names):
                if isinstance(v, Tensor):
                    explicit[v._id] = k
                    values.setdefault(v._id, v)

        produced = {op.out for op in self.ops}
        watched = rec.watched
        k_auto = itertools.count(1)
        for tid in order:
            n = self.tensors[tid]
            n.value = values.get(tid)
            n.watched = tid in watched and tid not in produced
            var = rec.variables.get(tid)
            if tid in explicit:
                n.name, n.named = explicit[tid], True
            elif tid in framenames:
                n.name, n.named = framenames[tid][0], True
            elif var is not None or isinstance(n.value, Variable):
                v = var if var is not None else n.value
                n.name, n.named = v.name.split(":")[0], True
            if tid in self.target_ids or (not self.target_ids and tid in produced
                                          and not rec.consumers.get(tid)):
                n.role = "target"  # asked for, or (no target given) a final result
            elif tid in produced:
                n.role = "inter"
            elif n.watched or tid in self.source_ids:
                n.role = "source"
            elif var is not None or isinstance(n.value, Variable):
                n.role = "variable"
            else:
                n.role = "const"
            if n.name is None and n.role in ("inter", "target", "source"):
                n.name = f"t{next(k_auto)}"
        self.truncated = self.total_ops - len(self.ops)

    # --- text -----------------------------------------------------------------------------
    def label(self, tid):
        n = self.tensors[tid]
        if n.name is not None:
            return n.name
        return _fmt_value(n.value, 12) if n.value is not None else "const"

    def value_text(self, tid, limit=28):
        n = self.tensors[tid]
        return _fmt_value(n.value, limit) if n.value is not None else None
