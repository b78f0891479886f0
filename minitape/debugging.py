"""Teaching instruments: see what a tape recorded, step through backprop, learn why a gradient is None.

Three functions, all pure Python (SVG is written by hand: no graphviz, works on Binder and
JupyterLite; ipywidgets is imported only by the stepper's widget)::

    from minitape.debugging import draw, stepper, why_none

    draw(tape)                         # the recorded operations as a graph (SVG + text form)
    draw(tape, target=y, sources=[x])  # only the part between x and y
    stepper(tape, y, [x])              # Next/Back/Reset through the backward pass
    why_none(tape, y, x, lang="es")    # .reason (stable code) and .message (en/es/pt/ru)

``backward_steps(tape, target, sources)`` is the generator behind the stepper.  See
``minitape/DEBUGGING.md`` for a tour.
"""
from __future__ import annotations

import html as _html
import itertools
import os
import sys

from . import _core, _trace, _tape
from ._core import Tensor, Variable
from . import nest as _nest
from . import _lang as _course_lang

__all__ = ["draw", "stepper", "backward_steps", "why_none", "TapeDrawing", "Stepper", "Step",
           "WhyNone", "REASONS", "LANGUAGES"]

LANGUAGES = _course_lang.LANGS


# ==========================================================================================
# Common helpers
# ==========================================================================================

def _lang(lang):
    """Resolve ``lang``: explicit > env MINITAPE_LANG > the course's current language > en."""
    if lang is None:
        lang = os.environ.get("MINITAPE_LANG") or _course_lang.current_language()
    if not isinstance(lang, str):
        raise TypeError(f"lang must be a string such as 'en', got {lang!r}")
    return _course_lang.normalize_language(lang)


def _check_tape(tape, who):
    from ._tape import GradientTape
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


def _caller_frame():
    """The first frame outside this module (the user's cell or function)."""
    f = sys._getframe(1)
    while f is not None and f.f_globals.get("__name__") == __name__:
        f = f.f_back
    return f


def _fmt_value(t, limit=28):
    """A short text of a tensor's value: ``6.0``, ``[1. 2. 3.]``, ``[[1. 2.] [3. 4.]]``."""
    from . import _backend as B
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


# ==========================================================================================
# The graph of a recording
# ==========================================================================================

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

    def __init__(self, tape, target=None, sources=None, names=None, frame=None, max_ops=60):
        _check_tape(tape, "draw")
        rec = _Recording(tape)
        if rec.spent:
            raise ValueError(
                "This tape no longer holds its recording: a non-persistent tape frees it when "
                "tape.gradient (or jacobian) is called. Draw it before calling gradient, or create "
                "it with tf.GradientTape(persistent=True).")
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
            if saved is not None and e.op.save is None and len(saved) == len(e.ins) + 1:
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


# ==========================================================================================
# Layout: topological layers, barycentre ordering, dummy nodes for long edges
# ==========================================================================================

_CW = 7.3     # width of one character at 12px in a monospace font
_CW_S = 6.1   # ... at 10px
_LINE = 15


class _Box:
    __slots__ = ("key", "w", "h", "layer", "x", "y", "dummy")

    def __init__(self, key, w, h, dummy=False):
        self.key, self.w, self.h, self.dummy = key, w, h, dummy
        self.layer = 0
        self.x = self.y = 0.0


def _layout(boxes, edges, direction="TB", gap_layer=34, gap_node=22):
    """Place ``boxes`` (dict key -> _Box) for directed acyclic ``edges`` (list of (u, v)).

    Returns the dummy chains: {(u, v): [dummy keys]} and the total (width, height).
    """
    preds = {k: [] for k in boxes}
    succs = {k: [] for k in boxes}
    for u, v in edges:
        preds[v].append(u)
        succs[u].append(v)
    # longest-path layers (keys are given in a topological order)
    for k in boxes:
        b = boxes[k]
        b.layer = max((boxes[p].layer + 1 for p in preds[k]), default=0)
    # pull leaves (no predecessors) down next to their first consumer
    for k in boxes:
        if not preds[k] and succs[k]:
            boxes[k].layer = min(boxes[s].layer for s in succs[k]) - 1
    # dummy nodes on edges that span several layers
    chains = {}
    dpreds = {k: list(v) for k, v in preds.items()}
    dsuccs = {k: list(v) for k, v in succs.items()}
    n_dummy = itertools.count()
    for u, v in edges:
        lu, lv = boxes[u].layer, boxes[v].layer
        if lv - lu <= 1:
            continue
        chain = []
        prev = u
        dsuccs[u].remove(v)
        dpreds[v].remove(u)
        for layer in range(lu + 1, lv):
            d = ("dummy", next(n_dummy))
            b = boxes[d] = _Box(d, 2, 2, dummy=True)
            b.layer = layer
            dpreds[d] = [prev]
            dsuccs[d] = []
            dsuccs[prev].append(d)
            chain.append(d)
            prev = d
        dsuccs[prev].append(v)
        dpreds[v].append(prev)
        chains[(u, v)] = chain
    n_layers = max((b.layer for b in boxes.values()), default=0) + 1
    layers = [[] for _ in range(n_layers)]
    for k, b in boxes.items():
        layers[b.layer].append(k)
    # barycentre ordering, a few sweeps down and up
    pos = {}
    for layer in layers:
        for i, k in enumerate(layer):
            pos[k] = i
    for sweep in range(6):
        rng = range(1, n_layers) if sweep % 2 == 0 else range(n_layers - 2, -1, -1)
        for li in rng:
            nb = dpreds if sweep % 2 == 0 else dsuccs
            layer = layers[li]

            def bary(k, nb=nb):
                ps = nb[k]
                return sum(pos[p] for p in ps) / len(ps) if ps else pos[k]

            layer.sort(key=lambda k: (bary(k), pos[k]))
            for i, k in enumerate(layer):
                pos[k] = i
    tb = direction == "TB"

    def cross(b):
        return b.w if tb else b.h

    def main(b):
        return b.h if tb else b.w

    # cross-axis coordinates (centres): pack, then pull towards neighbours' centres
    c = {}
    for layer in layers:
        x = 0.0
        for k in layer:
            w = cross(boxes[k])
            c[k] = x + w / 2
            x += w + gap_node
        shift = -(x - gap_node) / 2
        for k in layer:
            c[k] += shift
    for sweep in range(8):
        down = sweep % 2 == 0
        rng = range(1, n_layers) if down else range(n_layers - 2, -1, -1)
        for li in rng:
            layer = layers[li]
            want = {}
            for k in layer:
                ns = (dpreds[k] if down else dsuccs[k]) or (dsuccs[k] if down else dpreds[k])
                want[k] = sum(c[n] for n in ns) / len(ns) if ns else c[k]
            # place left to right at the wanted centres without overlaps, then centre the
            # whole layer on the average wish
            placed = []
            right = -1e18
            for k in layer:
                w = cross(boxes[k])
                x = max(want[k], right + gap_node + w / 2)
                placed.append(x)
                right = x + w / 2
            off = sum(want[k] - x for k, x in zip(layer, placed)) / max(len(layer), 1)
            for k, x in zip(layer, placed):
                c[k] = x + off
    # main-axis coordinates (layer by layer)
    sizes = [max((main(boxes[k]) for k in layer), default=0) for layer in layers]
    m = []
    acc = 0.0
    for s in sizes:
        m.append(acc + s / 2)
        acc += s + gap_layer
    lo = min((c[k] - cross(boxes[k]) / 2 for k in boxes), default=0)
    hi = max((c[k] + cross(boxes[k]) / 2 for k in boxes), default=0)
    for k, b in boxes.items():
        if tb:
            b.x, b.y = c[k] - lo, m[b.layer]
        else:
            b.x, b.y = m[b.layer], c[k] - lo
    extent_main = acc - gap_layer if layers else 0
    size = (hi - lo, extent_main) if tb else (extent_main, hi - lo)
    return chains, size


# ==========================================================================================
# Drawing
# ==========================================================================================

_UI = {
    "en": {"source": "watched source", "target": "target", "inter": "computed",
           "const": "constant", "variable": "not watched", "grad": "grad", "op": "operation",
           "ops": "operations", "recorded": "recorded", "of": "of", "showing": "showing the last",
           "spent": "values were freed by tape.gradient (use persistent=True to keep them)",
           "empty": "The tape recorded no operations.", "next": "Next", "back": "Back",
           "reset": "Reset", "step": "step", "seed": "seed: d{t}/d{t} = 1",
           "current": "current operation", "tensor": "tensor", "value": "value",
           "sofar": "gradient so far", "done": "done", "result": "result (= tape.gradient)",
           "partial": "still collecting", "complete": "complete"},
    "es": {"source": "fuente observada", "target": "objetivo", "inter": "calculado",
           "const": "constante", "variable": "no observada", "grad": "grad",
           "op": "operación", "ops": "operaciones", "recorded": "registradas", "of": "de",
           "showing": "se muestran las últimas",
           "spent": "tape.gradient liberó los valores (usa persistent=True para conservarlos)",
           "empty": "La cinta no registró ninguna operación.", "next": "Siguiente",
           "back": "Atrás", "reset": "Reiniciar", "step": "paso",
           "seed": "semilla: d{t}/d{t} = 1", "current": "operación actual",
           "tensor": "tensor", "value": "valor", "sofar": "gradiente acumulado",
           "done": "terminado", "result": "resultado (= tape.gradient)",
           "partial": "aún acumulando", "complete": "completo"},
    "pt": {"source": "fonte observada", "target": "alvo", "inter": "calculado",
           "const": "constante", "variable": "não observada", "grad": "grad",
           "op": "operação", "ops": "operações", "recorded": "registradas", "of": "de",
           "showing": "mostrando as últimas",
           "spent": "tape.gradient liberou os valores (use persistent=True para mantê-los)",
           "empty": "A fita não registrou nenhuma operação.", "next": "Próximo",
           "back": "Voltar", "reset": "Reiniciar", "step": "passo",
           "seed": "semente: d{t}/d{t} = 1", "current": "operação atual",
           "tensor": "tensor", "value": "valor", "sofar": "gradiente acumulado",
           "done": "concluído", "result": "resultado (= tape.gradient)",
           "partial": "ainda acumulando", "complete": "completo"},
    "ru": {"source": "отслеживаемый источник", "target": "цель", "inter": "вычислен",
           "const": "константа", "variable": "не отслеживается", "grad": "град",
           "op": "операция", "ops": "операций", "recorded": "записано", "of": "из",
           "showing": "показаны последние",
           "spent": "tape.gradient освободил значения (persistent=True сохранит их)",
           "empty": "Лента не записала ни одной операции.", "next": "Далее",
           "back": "Назад", "reset": "Сначала", "step": "шаг",
           "seed": "начало: d{t}/d{t} = 1", "current": "текущая операция",
           "tensor": "тензор", "value": "значение", "sofar": "накопленный градиент",
           "done": "готово", "result": "результат (= tape.gradient)",
           "partial": "ещё накапливается", "complete": "готов"},
}

# Colours: every node has its own light fill and dark text, so it reads the same on light
# and dark JupyterLab themes; lines and free text use a mid grey that contrasts with both.
_FILL = {"source": ("#ffe3b3", "#c26a00"), "target": ("#cdeccf", "#2b8a3e"),
         "inter": ("#dfeafb", "#3d6fb6"), "const": ("#f1f3f5", "#8c959f"),
         "variable": ("#eceff3", "#6b7480")}
_TEXT = "#1f2328"
_MUTED_IN = "#57606a"
_LINEC = "#8c959f"
_FREE = "#7d8590"
_HOT = "#f08c00"
_HOT_FILL = "#ffe066"
_GRAD = "#a61e4d"
_GOT = "#d6336c"    # border of the tensors that just received a gradient
_FONT = "ui-monospace, SFMono-Regular, Menlo, Consolas, 'DejaVu Sans Mono', monospace"

_uid = itertools.count(1)


def _esc(s):
    return _html.escape(str(s), quote=True)


class TapeDrawing:
    """What :func:`draw` returns: SVG for notebooks, text for consoles.

    ``.svg`` (str), ``.text`` (str), ``save(path)``; Jupyter shows it through ``_repr_svg_`` /
    ``_repr_html_``, IPython's console and ``print`` through ``_repr_pretty_`` / ``__str__``.
    """

    def __init__(self, graph, direction="TB", lang="en", grads=None, current=None, hot=(),
                 caption=None):
        if direction not in ("TB", "LR"):
            raise ValueError(f"direction must be 'TB' (top to bottom) or 'LR' (left to right), "
                             f"got {direction!r}")
        self._g = graph
        self._dir = direction
        self._lang = lang
        self._grads = grads or {}       # tensor id -> Tensor (gradient so far)
        self._current = current         # entry index of the highlighted operation
        self._hot = set(hot)            # tensor ids that just received a gradient
        self._caption = caption
        self._svg = None

    # --- text form ------------------------------------------------------------------------
    @property
    def text(self):
        g, ui = self._g, _UI[self._lang]
        lines = []
        head = f"GradientTape: {g.total_ops} {ui['ops']} {ui['recorded']}"
        if g.truncated:
            head += f" ({ui['showing']} {len(g.ops)})"
        lines.append(head)
        if g.spent:
            lines.append(f"  ({ui['spent']})")
        if self._caption:
            lines.append(self._caption)
        rows = []
        produced = {o.out for o in g.ops}
        for tid in g.order:
            n = g.tensors[tid]
            if tid not in produced and (n.role != "const" or n.named):
                rows.append((n.name or g.label(tid), "", tid, ui[n.role]))
        for op in g.ops:
            args = ", ".join(g.label(t) for t in op.ins)
            mark = "▶ " if op.index == self._current else ""
            n = g.tensors[op.out]
            rows.append((g.label(op.out), f"{mark}{op.name}({args})", op.out,
                         ui["target"] if n.role == "target" else ""))
        if not rows:
            lines.append("  " + ui["empty"])
        wl = max((len(r[0]) for r in rows), default=0)
        wo = max((len(r[1]) for r in rows), default=0)
        for name, expr, tid, note in rows:
            val = g.value_text(tid, 40)
            n = g.tensors[tid]
            s = f"  {name:<{wl}}"
            if wo:
                s += f" = {expr:<{wo}}" if expr else " " * (wo + 3)
            if val is not None:
                s += f"  -> {val}  {_fmt_meta(n.value)}"
            if tid in self._grads:
                s += f"  {ui['grad']}={_fmt_value(self._grads[tid], 40)}"
            if note:
                s += f"  [{note}]"
            lines.append(s.rstrip())
        return "\n".join(lines)

    def __str__(self):
        return self.text

    def __repr__(self):
        return self.text

    def _repr_pretty_(self, p, cycle):
        p.text(self.text)

    # --- SVG ------------------------------------------------------------------------------
    def _tensor_lines(self, tid):
        g, ui = self._g, _UI[self._lang]
        n = g.tensors[tid]
        val = g.value_text(tid)
        if n.role == "const" and not n.named:
            lines = [(val if val is not None else "const", 12, False)]
            if n.value is not None and n.value._value.ndim:
                lines.append((_fmt_meta(n.value), 10, False))
        else:
            lines = [(n.name or "?", 12, True)]
            if val is not None:
                lines.append((val, 12, False))
                lines.append((_fmt_meta(n.value), 10, False))
        if tid in self._grads:
            lines.append((f"{ui['grad']} = {_fmt_value(self._grads[tid], 24)}", 12, "grad"))
        return lines

    @property
    def svg(self):
        if self._svg is None:
            self._svg = self._render()
        return self._svg

    def _render(self):
        g, ui = self._g, _UI[self._lang]
        uid = f"mt{next(_uid)}"
        boxes = {}
        content = {}
        tensor_keys = []   # (box key, tensor id)

        def key(tid, op_index):
            # an unnamed constant is drawn once per use (the same cached 2.0 may feed many ops)
            n = g.tensors[tid]
            return ("c", tid, op_index) if n.role == "const" and not n.named else ("t", tid)

        def tensor_box(k, tid):
            if k in boxes:
                return
            lines = self._tensor_lines(tid)
            w = max(len(t) * (_CW if size == 12 else _CW_S) for t, size, _ in lines) + 18
            h = len(lines) * _LINE + 10
            boxes[k] = _Box(k, max(w, 34), h)
            content[k] = lines
            tensor_keys.append((k, tid))

        produced = {op.out: op.index for op in g.ops}
        used = {t for op in g.ops for t in op.ins}
        # keys in topological order: tensors that are not produced first, then by entry
        for tid in g.order:
            if tid not in produced and (tid not in used or key(tid, None)[0] == "t"):
                tensor_box(("t", tid), tid)
        edges = []
        for op in g.ops:
            for tid in dict.fromkeys(op.ins):
                k = key(tid, op.index)
                tensor_box(k, tid)
                edges.append((k, ("o", op.index)))
            ko = ("o", op.index)
            boxes[ko] = _Box(ko, len(op.name) * _CW + 22, 24)
            tensor_box(("t", op.out), op.out)
            edges.append((ko, ("t", op.out)))
        ordered = boxes
        chains, (W, H) = _layout(ordered, edges, self._dir)
        tb = self._dir == "TB"
        pad = 14
        legend_h = 26
        cap_h = 20 if self._caption else 0
        Wt, Ht = W + 2 * pad, H + 2 * pad + legend_h + cap_h
        Wt = max(Wt, 420)
        dx = (Wt - W) / 2
        dy = pad + cap_h
        out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="minitape-tape" '
               f'width="{Wt:.0f}" height="{Ht:.0f}" viewBox="0 0 {Wt:.0f} {Ht:.0f}" '
               f'font-family="{_esc(_FONT)}" font-size="12" role="img">',
               f'<title>{_esc(g.total_ops)} {_esc(ui["ops"])}</title>',
               '<defs>'
               f'<marker id="{uid}-a" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" '
               f'markerHeight="8" markerUnits="userSpaceOnUse" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" '
               f'fill="{_LINEC}"/></marker>'
               f'<marker id="{uid}-h" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" '
               f'markerHeight="8" markerUnits="userSpaceOnUse" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" '
               f'fill="{_HOT}"/></marker></defs>']
        if self._caption:
            out.append(f'<text x="{pad}" y="{pad + 6}" fill="{_FREE}" font-size="12">'
                       f'{_esc(self._caption)}</text>')

        def at(k):
            b = ordered[k]
            return b.x + dx, b.y + dy

        def port(k, outgoing, slot=0.0):
            b = ordered[k]
            x, y = at(k)
            if tb:
                return (x + slot, y + (b.h / 2 if outgoing else -b.h / 2))
            return (x + (b.w / 2 if outgoing else -b.w / 2), y + slot)

        # edges
        for op in g.ops:
            ok = ("o", op.index)
            hot = op.index == self._current
            ins = list(dict.fromkeys(op.ins))
            # arrival points side by side, in the order the inputs sit (no crossing at the op)
            ins.sort(key=lambda tid: at(key(tid, op.index))[0 if tb else 1])
            bw = ordered[ok].w if tb else ordered[ok].h
            for j, tid in enumerate(ins):
                slot = (j - (len(ins) - 1) / 2) * min(14.0, bw / (len(ins) + 1))
                self._edge(out, key(tid, op.index), ok, chains, at, port, uid, hot, slot)
            self._edge(out, ok, ("t", op.out), chains, at, port, uid, hot, 0.0)
        # nodes
        for k, tid in tensor_keys:
            b = ordered[k]
            x, y = at(k)
            n = g.tensors[tid]
            fill, stroke = _FILL[n.role]
            sw = 2.5 if n.role in ("source", "target") else 1.2
            if tid in self._hot:
                stroke, sw = _GOT, 3.5
            dash = ' stroke-dasharray="4 3"' if n.role in ("const", "variable") else ""
            tip = [n.name or "", repr(n.value) if n.value is not None else ""]
            out.append(f'<g class="mt-tensor mt-{n.role}"><title>{_esc(" ".join(t for t in tip if t))}</title>'
                       f'<rect x="{x - b.w / 2:.1f}" y="{y - b.h / 2:.1f}" width="{b.w:.1f}" '
                       f'height="{b.h:.1f}" rx="8" fill="{fill}" stroke="{stroke}" '
                       f'stroke-width="{sw}"{dash}/>')
            lines = content[k]
            y0 = y - b.h / 2 + 5 + _LINE - 3
            for i, (txt, size, style) in enumerate(lines):
                color = _GRAD if style == "grad" else (_MUTED_IN if size == 10 else _TEXT)
                weight = ' font-weight="bold"' if style is True or style == "grad" else ""
                out.append(f'<text x="{x:.1f}" y="{y0 + i * _LINE:.1f}" text-anchor="middle" '
                           f'font-size="{size}" fill="{color}"{weight}>{_esc(txt)}</text>')
            out.append("</g>")
        for op in g.ops:
            k = ("o", op.index)
            b = ordered[k]
            x, y = at(k)
            hot = op.index == self._current
            fill, stroke, sw = (_HOT_FILL, _HOT, 3) if hot else ("#ffffff", "#6b7480", 1.2)
            out.append(f'<g class="mt-op{" mt-current" if hot else ""}"><title>{_esc(op.name)}</title>'
                       f'<rect x="{x - b.w / 2:.1f}" y="{y - b.h / 2:.1f}" width="{b.w:.1f}" '
                       f'height="{b.h:.1f}" rx="{b.h / 2:.1f}" fill="{fill}" stroke="{stroke}" '
                       f'stroke-width="{sw}"/>'
                       f'<text x="{x:.1f}" y="{y + 4:.1f}" text-anchor="middle" fill="{_TEXT}" '
                       f'font-weight="bold">{_esc(op.name)}</text></g>')
        # legend
        ly = Ht - pad - 6
        lx = pad
        present = {n.role for n in g.tensors.values()}
        items = [(r, ui[r]) for r in ("source", "target", "inter", "const", "variable")
                 if r in present]
        for role, label in items:
            fill, stroke = _FILL[role]
            dash = ' stroke-dasharray="3 2"' if role in ("const", "variable") else ""
            out.append(f'<rect x="{lx}" y="{ly - 10}" width="14" height="12" rx="3" '
                       f'fill="{fill}" stroke="{stroke}" stroke-width="1.5"{dash}/>'
                       f'<text x="{lx + 19}" y="{ly}" fill="{_FREE}" font-size="11">'
                       f'{_esc(label)}</text>')
            lx += 19 + len(label) * 6.7 + 16
        note = ""
        if g.truncated:
            note = f"{ui['showing']} {len(g.ops)} {ui['of']} {g.total_ops} {ui['ops']}"
        elif g.spent:
            note = ui["spent"]
        if note:
            out.append(f'<text x="{lx}" y="{ly}" fill="{_FREE}" font-size="11">{_esc(note)}</text>')
        out.append("</svg>")
        return "\n".join(out)

    def _edge(self, out, u, v, chains, at, port, uid, hot, slot):
        tb = self._dir == "TB"
        if v[0] == "o":
            p0, p1 = port(u, True), port(v, False, slot)
        else:
            p0, p1 = port(u, True), port(v, False)
        pts = [p0] + [at(d) for d in chains.get((u, v), ())] + [p1]
        d = [f"M{pts[0][0]:.1f},{pts[0][1]:.1f}"]
        for (xa, ya), (xb, yb) in zip(pts, pts[1:]):
            if tb:
                m = (yb - ya) / 2
                d.append(f"C{xa:.1f},{ya + m:.1f} {xb:.1f},{yb - m:.1f} {xb:.1f},{yb:.1f}")
            else:
                m = (xb - xa) / 2
                d.append(f"C{xa + m:.1f},{ya:.1f} {xb - m:.1f},{yb:.1f} {xb:.1f},{yb:.1f}")
        color, width, mark = (_HOT, 2.6, "h") if hot else (_LINEC, 1.3, "a")
        out.append(f'<path d="{" ".join(d)}" fill="none" stroke="{color}" stroke-width="{width}" '
                   f'marker-end="url(#{uid}-{mark})"/>')

    def _repr_svg_(self):
        return self.svg

    def _repr_html_(self):
        return ('<div class="minitape-drawing" style="max-width:100%;overflow-x:auto">'
                + self.svg + "</div>")

    def save(self, path):
        """Write the SVG to ``path`` (a ``.svg`` file any browser opens)."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.svg)
        return path


def draw(tape, target=None, sources=None, *, names=None, direction="TB", lang=None,
         max_ops=60):
    """Draw what ``tape`` recorded: tensors as nodes (name, value, shape), operations between.

    ``target`` and/or ``sources`` (Tensors, Variables, or nested lists of them) keep only the
    operations between them.  Names come from the variables of the calling code (``x``, ``y``),
    the Variables' own names, or ``names={"x": x, ...}``; other results are ``t1, t2, ...``.
    Watched sources are orange, targets green, constants dashed.  ``direction="LR"`` lays the
    graph out left to right.  At most ``max_ops`` operations (the last ones) are drawn.

    Works on a persistent tape, and on a non-persistent one before ``tape.gradient`` (after
    it, the operations are still drawn but most values are gone).  Returns a
    :class:`TapeDrawing`: it renders as SVG in Jupyter and prints as text in a console.
    """
    graph = _Graph(tape, target, sources, names, _caller_frame(), max_ops)
    return TapeDrawing(graph, direction, _lang(lang))


# ==========================================================================================
# Stepping through the backward pass
# ==========================================================================================

class Step:
    """One moment of the backward pass.

    ``index`` 0 is the seed (the target's gradient set to ones); then one step per recorded
    operation, in the order the tape processes them.  ``op`` is the operation's name (None for
    the seed), ``entry`` its position on the tape, ``out`` the id of its output and ``inputs``
    the ids of its inputs, ``grad_out`` the (complete) gradient of its output,
    ``contributions`` {input id: the gradient this operation sends to that input}, ``grads``
    {tensor id: gradient accumulated so far} after the step, and ``complete`` the ids whose
    gradient can no longer change.
    """

    __slots__ = ("index", "op", "entry", "out", "inputs", "grad_out", "contributions", "grads",
                 "complete")

    def __init__(self, index, op, entry, out, inputs, grad_out, contributions, grads, complete):
        self.index = index
        self.op = op
        self.entry = entry
        self.out = out
        self.inputs = inputs
        self.grad_out = grad_out
        self.contributions = contributions
        self.grads = grads
        self.complete = complete

    def __repr__(self):
        if self.op is None:
            return f"<Step 0: seed {len(self.grads)} target gradient(s)>"
        return f"<Step {self.index}: {self.op} sends a gradient to {len(self.contributions)} input(s)>"


def _run_backward(tape, target, sources, output_gradients):
    """Run the tape's own backward pass, recording every step through its ``on_step`` hook."""
    _check_tape(tape, "stepper")
    view = _tape.recording(tape)
    if view.spent is not None or view.entries is None:
        raise RuntimeError(
            "The stepper needs the tape's recording, but this tape has already given it away: "
            "a non-persistent tape frees its operations when tape.gradient is called. Create the "
            "tape with tf.GradientTape(persistent=True), or call stepper() before tape.gradient "
            f"({_tape._NON_PERSISTENT_MSG}).")
    flat_t = _flat_tensors(target, "target")
    flat_s = _flat_tensors(sources, "sources")
    if not flat_t:
        raise ValueError("stepper needs at least one target tensor")
    flat_og = None
    if output_gradients is not None:
        flat_og = _nest.flatten(output_gradients)
        if len(flat_og) != len(flat_t):
            raise ValueError("output_gradients must have the same structure as target")
    steps = []
    shown = {}
    outs_of = {}  # position on the tape -> the view's entries (one per output)
    for e in view.entries:
        outs_of.setdefault(e.index, []).append(e)

    def on_step(index, g, in_grads, grads):
        if index is None:
            shown.update(grads)
            steps.append(Step(0, None, None, None, (), None, {}, dict(shown), frozenset()))
            return
        entries = outs_of[index]
        first = entries[0]
        in_ids = first.ins
        if g is not None:
            if len(entries) == 1:
                shown[first.out] = g
            else:
                for e, gk in zip(entries, g):
                    if gk is not None:
                        shown[e.out] = gk
                g = g[0]
        contrib = {}
        if in_grads is not None:
            for tid, ig in zip(in_ids, in_grads):
                if ig is not None and tid in grads:
                    contrib[tid] = ig if tid not in contrib else contrib[tid] + ig
                    shown[tid] = grads[tid]
        steps.append(Step(len(steps), first.op.name, index, first.out, tuple(in_ids),
                          g, contrib, dict(shown), None))

    with _core._no_recording():  # stepping keeps the recording: the tape must not be consumed
        grads = _tape.observe_backward(tape, flat_t, flat_s, flat_og, on_step)
    # a gradient is complete once the last operation that contributes to it has run (a
    # target's seed, with no contribution, is complete from the start)
    last = {}
    for st in steps:
        for tid in st.contributions:
            last[tid] = st.index
    for st in steps:
        st.complete = frozenset(t for t in st.grads if last.get(t, -1) <= st.index)
    results = []
    for s, gr in zip(flat_s, grads):
        if gr is not None and gr.shape != s.shape:
            from ._ops import reshape
            gr = reshape(gr, s.shape)
        results.append(gr)
    return steps, _nest.pack_sequence_as(sources, results), flat_t, flat_s


def backward_steps(tape, target, sources, output_gradients=None):
    """Generator over the backward pass of ``tape``: one :class:`Step` per operation.

    It is the engine's own ``backward`` (same scheduling by usage counts, same gradient
    rules), observed through a hook, so the last step's gradients are exactly what
    ``tape.gradient(target, sources)`` returns; the generator's return value (``StopIteration
    .value``) is that result, with the structure of ``sources``.  The pass is computed when
    the generator starts; the tape is left untouched (a non-persistent tape can still be used
    for ``tape.gradient`` afterwards).
    """
    steps, result, _, _ = _run_backward(tape, target, sources, output_gradients)
    yield from steps
    return result


class Stepper:
    """A backward pass you can walk through: ``next()``, ``back()``, ``reset()``, ``goto(k)``.

    In Jupyter it shows an ipywidgets control (Reset / Back / Next and a slider) above the
    tape's drawing, the current operation highlighted and each tensor's gradient so far;
    ``print(stepper)`` gives the same as text.  ``.steps`` are the :class:`Step` objects,
    ``.result`` equals ``tape.gradient(target, sources)``.
    """

    def __init__(self, tape, target, sources, output_gradients=None, names=None,
                 direction="TB", lang=None, frame=None):
        self.steps, self.result, flat_t, flat_s = _run_backward(tape, target, sources,
                                                               output_gradients)
        self._graph = _Graph(tape, target, sources, names, frame, max_ops=None)
        self._dir = direction
        self._lang = _lang(lang)
        self.position = 0
        self._widget = None
        self._view = None
        TapeDrawing(self._graph, direction, self._lang)  # validate direction early

    # --- navigation -----------------------------------------------------------------------
    @property
    def step(self):
        """The current :class:`Step`."""
        return self.steps[self.position]

    @property
    def done(self):
        return self.position == len(self.steps) - 1

    def next(self):
        if self.position < len(self.steps) - 1:
            self.position += 1
            self._refresh()
        return self

    def back(self):
        if self.position > 0:
            self.position -= 1
            self._refresh()
        return self

    def reset(self):
        self.position = 0
        self._refresh()
        return self

    def goto(self, k):
        if not 0 <= k < len(self.steps):
            raise IndexError(f"step {k} does not exist: steps go from 0 to {len(self.steps) - 1}")
        self.position = int(k)
        self._refresh()
        return self

    def __len__(self):
        return len(self.steps)

    # --- views ----------------------------------------------------------------------------
    def caption(self):
        ui, g, st = _UI[self._lang], self._graph, self.step
        n = len(self.steps) - 1
        if st.op is None:
            t = g.label(g.target_ids[0]) if g.target_ids and g.target_ids[0] in g.tensors else "y"
            return f"{ui['step']} 0/{n} — {ui['seed'].format(t=t)}"
        lab = (lambda t: g.label(t) if t in g.tensors else "?")
        parts = ", ".join(f"{lab(t)} += {_fmt_value(v, 16)}" for t, v in st.contributions.items())
        args = ", ".join(lab(t) for t in st.inputs)
        gout = _fmt_value(st.grad_out, 16) if st.grad_out is not None else "None"
        s = (f"{ui['step']} {st.index}/{n} — {lab(st.out)} = {st.op}({args}): "
             f"{ui['grad']} {lab(st.out)} = {gout} → {parts or '—'}")
        if self.done:
            s += f"  ({ui['done']})"
        return s

    def drawing(self, caption=True):
        """The tape's drawing at the current step (a :class:`TapeDrawing`)."""
        st = self.step
        hot = set(st.contributions) if st.op is not None else set(st.grads)
        return TapeDrawing(self._graph, self._dir, self._lang, grads=st.grads,
                           current=st.entry, hot=hot,
                           caption=self.caption() if caption else None)

    @property
    def text(self):
        return self.drawing().text

    def __str__(self):
        return self.text

    def __repr__(self):
        return self.text

    def _repr_pretty_(self, p, cycle):
        p.text(self.text)

    def _table_html(self):
        ui, g, st = _UI[self._lang], self._graph, self.step
        rows = []
        for tid in g.order:
            n = g.tensors[tid]
            if n.role == "const":
                continue
            gv = st.grads.get(tid)
            status = ""
            if gv is not None:
                status = ui["complete"] if tid in st.complete else ui["partial"]
            val = g.value_text(tid, 24) or ""
            style = ' style="font-weight:bold"' if tid in st.contributions else ""
            rows.append(f"<tr{style}><td>{_esc(g.label(tid))}</td><td>{_esc(val)}</td>"
                        f"<td>{_esc(_fmt_value(gv, 30) if gv is not None else '—')}</td>"
                        f"<td>{_esc(status)}</td></tr>")
        cell = "border-bottom:1px solid #8c959f55;padding:2px 10px;text-align:left"
        return (f'<table style="border-collapse:collapse;font-family:{_esc(_FONT)};font-size:12px">'
                f'<tr><th style="{cell}">{_esc(ui["tensor"])}</th><th style="{cell}">'
                f'{_esc(ui["value"])}</th><th style="{cell}">{_esc(ui["sofar"])}</th>'
                f'<th style="{cell}"></th></tr>' + "".join(rows).replace("<td>", f'<td style="{cell}">')
                + "</table>")

    def widget(self):
        """The ipywidgets control (built on first use; needs ``ipywidgets``)."""
        if self._widget is not None:
            return self._widget
        import ipywidgets as W
        ui = _UI[self._lang]
        n = len(self.steps) - 1
        b_reset = W.Button(description=ui["reset"], icon="undo", layout=W.Layout(width="auto"))
        b_back = W.Button(description=ui["back"], icon="arrow-left", layout=W.Layout(width="auto"))
        b_next = W.Button(description=ui["next"], icon="arrow-right", button_style="primary",
                          layout=W.Layout(width="auto"))
        slider = W.IntSlider(value=self.position, min=0, max=max(n, 0), step=1,
                             description=ui["step"], continuous_update=True,
                             readout=True)
        label = W.HTML()
        picture = W.HTML()
        table = W.HTML()
        self._view = (b_reset, b_back, b_next, slider, label, picture, table)
        b_reset.on_click(lambda _: self.reset())
        b_back.on_click(lambda _: self.back())
        b_next.on_click(lambda _: self.next())
        slider.observe(lambda ch: self.goto(ch["new"]) if ch["new"] != self.position else None,
                       names="value")
        self._widget = W.VBox([W.HBox([b_reset, b_back, b_next, slider]), label, picture, table])
        self._refresh()
        return self._widget

    def _refresh(self):
        if self._view is None:
            return
        b_reset, b_back, b_next, slider, label, picture, table = self._view
        d = self.drawing(caption=False)  # the caption is the label above the picture
        slider.value = self.position
        b_back.disabled = self.position == 0
        b_reset.disabled = self.position == 0
        b_next.disabled = self.done
        label.value = f"<b>{_esc(self.caption())}</b>"
        picture.value = d._repr_html_()
        table.value = self._table_html()

    def _ipython_display_(self):
        from IPython.display import display
        try:
            w = self.widget()
        except ImportError:
            display(self.drawing())
            return
        display(w)


def stepper(tape, target, sources, output_gradients=None, *, names=None, direction="TB",
            lang=None):
    """An interactive walk through the backward pass of ``tape`` from ``target`` to ``sources``.

    Returns a :class:`Stepper`; in Jupyter it displays Reset / Back / Next buttons and a
    slider over the drawing of the tape, highlighting the operation being differentiated and
    showing the gradient each tensor has accumulated so far.  The final step holds the values
    ``tape.gradient(target, sources)`` returns (``.result``).

    The tape must still hold its recording: use ``GradientTape(persistent=True)``, or call
    ``stepper`` before ``tape.gradient`` on a non-persistent tape (stepping does not use the
    tape up).
    """
    return Stepper(tape, target, sources, output_gradients, names, direction, lang,
                   frame=_caller_frame())


# ==========================================================================================
# Why is the gradient None?
# ==========================================================================================

REASONS = (
    "has_gradient",        # not None: the tape watched the source and connects it to the target
    "not_watched",         # a Tensor never watched (or a Variable under watch_accessed_variables=False)
    "not_trainable",       # a Variable created with trainable=False
    "integer",             # the source has an integer (or bool) dtype
    "integer_target",      # the target has an integer dtype: nothing to differentiate
    "variable_replaced",   # x = x + 1: a plain Tensor computed outside the tape from a Variable
    "numpy",               # a value on the path left minitape (NumPy call, .numpy(), float())
    "assign",              # the path went through a Variable's assign/assign_add/assign_sub
    "integer_cast",        # the path was cast to an integer dtype (tf.cast(x, tf.int32))
    "not_differentiable",  # the path went through stop_gradient, a comparison, round, argmax...
    "unconnected",         # the target was computed without the source
)

_NOUNS = {
    "en": {"src": "the source", "Src": "The source", "tgt": "the target", "Tgt": "The target"},
    "es": {"src": "la fuente", "Src": "La fuente", "tgt": "el objetivo", "Tgt": "El objetivo"},
    "pt": {"src": "a fonte", "Src": "A fonte", "tgt": "o alvo", "Tgt": "O alvo"},
    "ru": {"src": "источник", "Src": "Источник", "tgt": "цель", "Tgt": "Цель"},
}

# Templates.  {s} and {t} are the names of the source and target in code style with a leading
# space (" `x`"), or nothing when no name is known; {Src}/{src}/{Tgt}/{tgt} are the nouns.
_MESSAGES = {
    "en": {
        "has_gradient":
            "There is no None to explain here: the tape watched {src}{s} and recorded the "
            "operations that lead from it to {tgt}{t}, so `tape.gradient` returns a real "
            "gradient for it.",
        "not_watched":
            "{Src}{s} is a plain Tensor, and a tape follows a Tensor only when you ask it to. "
            "Add `tape.watch({code})` inside the `with` block, before the tensor is used (or "
            "make it a `tf.Variable`: tapes watch trainable Variables automatically).",
        "not_watched_variable":
            "{Src}{s} is a Variable, but this tape was created with "
            "`watch_accessed_variables=False`, so it follows only what you pass to "
            "`tape.watch`. Add `tape.watch({code})` inside the `with` block, before the "
            "variable is used.",
        "not_trainable":
            "{Src}{s} is a Variable created with `trainable=False`. Tapes skip non-trainable "
            "Variables on purpose (a step counter or a running average is not something to "
            "train), so nothing computed from it was recorded. Remove `trainable=False` if it "
            "is a parameter of your model, or call `tape.watch({code})` if you need this "
            "gradient anyway.",
        "integer":
            "{Src}{s} has the integer dtype `{dtype}`. Gradients exist only for floating-point "
            "values (you cannot nudge an integer by a tiny amount), so the tape does not follow "
            "it. Create it from a float: `tf.Variable(2.0)` rather than `tf.Variable(2)`, or "
            "pass `dtype=tf.float32`.",
        "integer_target":
            "{Tgt}{t} has the integer dtype `{dtype}`, so there is nothing to differentiate: "
            "gradients are defined only for floating-point targets. Keep the computation that "
            "leads to the target in `float32`.",
        "variable_replaced":
            "{Src}{s} is not a Variable any more: it is a plain Tensor computed from the "
            "Variable `{var}` with `{sym}` outside the tape, the classic `x = x + 1`. Tapes "
            "watch Variables automatically, but not the Tensors made from them. To change a "
            "Variable and keep it a Variable, update it in place: `{code}.assign_add(...)`, "
            "`{code}.assign_sub(...)` or `{code}.assign(...)`.",
        "unconnected":
            "The tape recorded no operation leading from {src}{s} to {tgt}{t}: the target was "
            "computed without using this source. Check that, inside the `with` block, the "
            "target really is computed from this source (a misspelt or reused name is the "
            "usual culprit).",
        "numpy":
            "On the way to {tgt}{t}, a value computed from {src}{s} left minitape through "
            "{via}. From there on the arithmetic was done by NumPy or plain Python, "
            "which a tape cannot see, so the path is broken. {fix}",
        "numpy_fix": "Use `{tf}` instead of `np.{np}`.",
        "numpy_fix_generic": "Use minitape operations (`tf.…`) for every step between the "
                             "source and the target.",
        "via_call": "`np.{np}`",
        "via_numpy": "a NumPy function",
        "via_method": "`.numpy()`",
        "via_float": "`float(...)`",
        "via_int": "`int(...)`",
        "via_line": " (in `{line}`)",
        "assign":
            "{Src}{s} reached {tgt}{t} only through `{var}.{op}(...)`. An assignment is "
            "stateful: the tape sees the Variable's new value as a fresh starting point, not "
            "as a result computed from the source, so the gradient stops at the assignment. "
            "Compute the value with ordinary operations inside the tape, and assign only after "
            "taking the gradient.",
        "integer_cast":
            "On the way to {tgt}{t}, `{op}` turned a value computed from {src}{s} into the "
            "integer dtype `{dtype}`. Integers have no gradient, so the tape stops following "
            "the value there. Keep the computation in floating point.",
        "not_differentiable":
            "On the way to {tgt}{t}, a value computed from {src}{s} went through `{op}`, an "
            "operation registered as not differentiable: the tape does not record it, so the "
            "gradient stops there.",
        "stop_gradient":
            "On the way to {tgt}{t}, a value computed from {src}{s} went through "
            "`tf.stop_gradient`, whose whole job is to block the gradient: the tape treats its "
            "result as a constant.",
        "comparison":
            "The tape recorded no operation leading from {src}{s} to {tgt}{t}; the only use of "
            "the source was the comparison `{op}` (in an `if`, for example). A comparison only "
            "decides which operations run; it has no gradient, so control flow is invisible "
            "to `tape.gradient`.",
    },
    "es": {
        "has_gradient":
            "Aquí no hay ningún None que explicar: la cinta observó {src}{s} y registró las "
            "operaciones que llevan desde ella hasta {tgt}{t}, así que `tape.gradient` "
            "devuelve un gradiente de verdad.",
        "not_watched":
            "{Src}{s} es un Tensor normal, y la cinta solo sigue un Tensor cuando se lo pides. "
            "Añade `tape.watch({code})` dentro del bloque `with`, antes de usar el tensor (o "
            "conviértelo en una `tf.Variable`: las cintas observan automáticamente las "
            "variables entrenables).",
        "not_watched_variable":
            "{Src}{s} es una Variable, pero esta cinta se creó con "
            "`watch_accessed_variables=False`, así que solo sigue lo que le pases a "
            "`tape.watch`. Añade `tape.watch({code})` dentro del bloque `with`, antes de usar "
            "la variable.",
        "not_trainable":
            "{Src}{s} es una Variable creada con `trainable=False`. Las cintas ignoran a "
            "propósito las variables no entrenables (un contador de pasos o una media móvil no "
            "son cosas que se entrenen), así que no se registró nada de lo que se calculó con "
            "ella. Quita `trainable=False` si es un parámetro de tu modelo, o llama a "
            "`tape.watch({code})` si de todos modos necesitas este gradiente.",
        "integer":
            "{Src}{s} tiene el tipo entero `{dtype}`. Los gradientes solo existen para valores "
            "de punto flotante (a un entero no se le puede sumar una cantidad infinitesimal), "
            "así que la cinta no registra sus operaciones. Crea el valor a partir de un float: "
            "`tf.Variable(2.0)` en lugar de `tf.Variable(2)`, o indica `dtype=tf.float32`.",
        "integer_target":
            "{Tgt}{t} tiene el tipo entero `{dtype}`, así que no hay nada que derivar: los "
            "gradientes solo están definidos para objetivos de punto flotante. Mantén en "
            "`float32` todo el cálculo que lleva hasta el objetivo.",
        "variable_replaced":
            "{Src}{s} ya no es una Variable: es un Tensor normal, calculado fuera de la cinta "
            "a partir de la Variable `{var}` con `{sym}`; es el clásico `x = x + 1`. Las cintas "
            "observan automáticamente las variables, pero no los tensores que se obtienen de "
            "ellas. Para cambiar una Variable sin que deje de serlo, actualízala en su sitio: "
            "`{code}.assign_add(...)`, `{code}.assign_sub(...)` o `{code}.assign(...)`.",
        "unconnected":
            "La cinta no registró ninguna operación que lleve desde {src}{s} hasta {tgt}{t}: "
            "el objetivo se calculó sin usar esta fuente. Comprueba que, dentro del bloque "
            "`with`, el objetivo se calcula de verdad con esta fuente (un nombre mal escrito o "
            "reutilizado suele ser el culpable).",
        "numpy":
            "En el camino hacia {tgt}{t}, un valor calculado con {src}{s} salió de minitape "
            "por {via}. A partir de ahí las cuentas las hizo NumPy (o Python puro), que la "
            "cinta no ve, así que el camino quedó cortado. {fix}",
        "numpy_fix": "Usa `{tf}` en lugar de `np.{np}`.",
        "numpy_fix_generic": "Usa operaciones de minitape (`tf.…`) en todos los pasos entre "
                             "la fuente y el objetivo.",
        "via_call": "`np.{np}`",
        "via_numpy": "una función de NumPy",
        "via_method": "`.numpy()`",
        "via_float": "`float(...)`",
        "via_int": "`int(...)`",
        "via_line": " (en `{line}`)",
        "assign":
            "{Src}{s} solo llegó hasta {tgt}{t} a través de `{var}.{op}(...)`. Una asignación "
            "tiene estado: la cinta ve el nuevo valor de la Variable como un punto de partida "
            "nuevo, no como un resultado calculado con la fuente, así que el gradiente se "
            "detiene en la asignación. Calcula el valor con operaciones normales dentro de la "
            "cinta y asigna solo después de obtener el gradiente.",
        "integer_cast":
            "En el camino hacia {tgt}{t}, `{op}` convirtió un valor calculado con {src}{s} al "
            "tipo entero `{dtype}`. Los enteros no tienen gradiente, así que la cinta deja de "
            "seguir el valor ahí. Mantén el cálculo en punto flotante.",
        "not_differentiable":
            "En el camino hacia {tgt}{t}, un valor calculado con {src}{s} pasó por `{op}`, una "
            "operación registrada como no diferenciable: la cinta no la registra, así que el "
            "gradiente se detiene ahí.",
        "stop_gradient":
            "En el camino hacia {tgt}{t}, un valor calculado con {src}{s} pasó por "
            "`tf.stop_gradient`, cuyo único trabajo es bloquear el gradiente: la cinta trata "
            "su resultado como una constante.",
        "comparison":
            "La cinta no registró ninguna operación que lleve desde {src}{s} hasta {tgt}{t}; "
            "la fuente solo se usó en la comparación `{op}` (por ejemplo, en un `if`). Una "
            "comparación solo decide qué operaciones se ejecutan; no tiene gradiente, así que "
            "el flujo de control es invisible para `tape.gradient`.",
    },
    "pt": {
        "has_gradient":
            "Aqui não há nenhum None para explicar: a fita observou {src}{s} e registrou as "
            "operações que levam dela até {tgt}{t}, então `tape.gradient` devolve um "
            "gradiente de verdade.",
        "not_watched":
            "{Src}{s} é um Tensor comum, e a fita só acompanha um Tensor quando você pede. "
            "Acrescente `tape.watch({code})` dentro do bloco `with`, antes de usar o tensor "
            "(ou transforme-o numa `tf.Variable`: as fitas observam automaticamente as "
            "variáveis treináveis).",
        "not_watched_variable":
            "{Src}{s} é uma Variable, mas esta fita foi criada com "
            "`watch_accessed_variables=False`, então ela só acompanha o que você passar para "
            "`tape.watch`. Acrescente `tape.watch({code})` dentro do bloco `with`, antes de "
            "usar a variável.",
        "not_trainable":
            "{Src}{s} é uma Variable criada com `trainable=False`. As fitas ignoram de "
            "propósito as variáveis não treináveis (um contador de passos ou uma média móvel "
            "não são coisas que se treinam), então nada do que foi calculado com ela foi "
            "registrado. Tire o `trainable=False` se for um parâmetro do seu modelo, ou chame "
            "`tape.watch({code})` se você precisar deste gradiente mesmo assim.",
        "integer":
            "{Src}{s} tem o tipo inteiro `{dtype}`. Gradientes só existem para valores de "
            "ponto flutuante (não dá para mexer num inteiro por uma quantidade infinitesimal), "
            "então a fita não registra as operações com esse valor. Crie o valor a partir de "
            "um float: `tf.Variable(2.0)` em vez de `tf.Variable(2)`, ou informe "
            "`dtype=tf.float32`.",
        "integer_target":
            "{Tgt}{t} tem o tipo inteiro `{dtype}`, então não há o que derivar: gradientes só "
            "são definidos para alvos de ponto flutuante. Mantenha em `float32` todo o cálculo "
            "que leva até o alvo.",
        "variable_replaced":
            "{Src}{s} não é mais uma Variable: é um Tensor comum, calculado fora da fita a "
            "partir da Variable `{var}` com `{sym}`; é o clássico `x = x + 1`. As fitas "
            "observam variáveis automaticamente, mas não os tensores obtidos delas. Para mudar "
            "uma Variable sem que ela deixe de ser Variable, atualize-a no lugar: "
            "`{code}.assign_add(...)`, `{code}.assign_sub(...)` ou `{code}.assign(...)`.",
        "unconnected":
            "A fita não registrou nenhuma operação que leve desde {src}{s} até {tgt}{t}: o alvo "
            "foi calculado sem usar esta fonte. Confira se, dentro do bloco `with`, o alvo é "
            "mesmo calculado com esta fonte (um nome digitado errado ou reaproveitado costuma "
            "ser o culpado).",
        "numpy":
            "No caminho até {tgt}{t}, um valor calculado com {src}{s} saiu do minitape por "
            "{via}. Daí em diante as contas foram feitas pelo NumPy (ou por Python puro), "
            "que a fita não enxerga, então o caminho ficou cortado. {fix}",
        "numpy_fix": "Use `{tf}` em vez de `np.{np}`.",
        "numpy_fix_generic": "Use operações do minitape (`tf.…`) em todos os passos entre a "
                             "fonte e o alvo.",
        "via_call": "`np.{np}`",
        "via_numpy": "uma função do NumPy",
        "via_method": "`.numpy()`",
        "via_float": "`float(...)`",
        "via_int": "`int(...)`",
        "via_line": " (em `{line}`)",
        "assign":
            "{Src}{s} só chegou até {tgt}{t} através de `{var}.{op}(...)`. Uma atribuição tem "
            "estado: a fita vê o novo valor da Variable como um novo ponto de partida, não como "
            "um resultado calculado com a fonte, então o gradiente para na atribuição. Calcule "
            "o valor com operações comuns dentro da fita e faça a atribuição só depois de obter "
            "o gradiente.",
        "integer_cast":
            "No caminho até {tgt}{t}, `{op}` converteu um valor calculado com {src}{s} para o "
            "tipo inteiro `{dtype}`. Inteiros não têm gradiente, então a fita deixa de "
            "acompanhar o valor ali. Mantenha o cálculo em ponto flutuante.",
        "not_differentiable":
            "No caminho até {tgt}{t}, um valor calculado com {src}{s} passou por `{op}`, uma "
            "operação registrada como não diferenciável: a fita não a registra, então o "
            "gradiente para ali.",
        "stop_gradient":
            "No caminho até {tgt}{t}, um valor calculado com {src}{s} passou por "
            "`tf.stop_gradient`, cuja única função é bloquear o gradiente: a fita trata o "
            "resultado como uma constante.",
        "comparison":
            "A fita não registrou nenhuma operação que leve desde {src}{s} até {tgt}{t}; o "
            "único uso da fonte foi na comparação `{op}` (num `if`, por exemplo). Uma "
            "comparação só decide quais operações são executadas; ela não tem gradiente, então "
            "o fluxo de controle é invisível para `tape.gradient`.",
    },
    "ru": {
        "has_gradient":
            "Здесь нечего объяснять: лента отслеживала {src}{s} и записала операции, которые "
            "связывают его с целью{t}, поэтому `tape.gradient` возвращает настоящий градиент, "
            "а не None.",
        "not_watched":
            "Источник{s} — обычный Tensor, а за тензором лента следит, только если её об этом "
            "попросить. Добавьте `tape.watch({code})` внутри блока `with`, до того как тензор "
            "используется (или сделайте его `tf.Variable`: обучаемые переменные лента "
            "отслеживает автоматически).",
        "not_watched_variable":
            "Источник{s} — это Variable, но лента создана с `watch_accessed_variables=False` и "
            "поэтому следит только за тем, что передано в `tape.watch`. Добавьте "
            "`tape.watch({code})` внутри блока `with`, до того как переменная используется.",
        "not_trainable":
            "Источник{s} — это Variable с `trainable=False`. Необучаемые переменные лента "
            "пропускает намеренно (счётчик шагов или скользящее среднее обучать не нужно), "
            "поэтому лента не записала ничего, что вычислено на его основе. Уберите "
            "`trainable=False`, если это параметр модели, или вызовите `tape.watch({code})`, "
            "если этот градиент всё-таки нужен.",
        "integer":
            "Источник{s} имеет целочисленный тип `{dtype}`. Градиенты существуют только для "
            "чисел с плавающей точкой (целое число нельзя изменить на бесконечно малую "
            "величину), поэтому лента не записывает операции с этим значением. Создайте его из "
            "float: `tf.Variable(2.0)` вместо `tf.Variable(2)`, или укажите "
            "`dtype=tf.float32`.",
        "integer_target":
            "Цель{t} имеет целочисленный тип `{dtype}`, поэтому дифференцировать нечего: "
            "градиенты определены только для целей с плавающей точкой. Проведите все "
            "вычисления, ведущие к цели, в `float32`.",
        "variable_replaced":
            "Источник{s} — уже не Variable, а обычный Tensor, вычисленный вне ленты из "
            "переменной `{var}` с помощью `{sym}`: классическое `x = x + 1`. Переменные лента "
            "отслеживает автоматически, а полученные из них тензоры — нет. Чтобы переменная "
            "осталась переменной, меняйте её на месте: `{code}.assign_add(...)`, "
            "`{code}.assign_sub(...)` или `{code}.assign(...)`.",
        "unconnected":
            "Лента не записала ни одной операции, которая вела бы от источника{s} к цели{t}: "
            "цель вычислена без этого источника. Проверьте, что внутри блока `with` цель "
            "действительно вычисляется из этого источника (чаще всего виновата опечатка или "
            "повторно использованное имя).",
        "numpy":
            "По пути к цели{t} значение, вычисленное из источника{s}, покинуло minitape через "
            "{via}. Дальше вычисления шли в NumPy (или в чистом Python), а их лента не "
            "видит, поэтому путь оборвался. {fix}",
        "numpy_fix": "Используйте `{tf}` вместо `np.{np}`.",
        "numpy_fix_generic": "Используйте операции minitape (`tf.…`) на каждом шаге между "
                             "источником и целью.",
        "via_call": "`np.{np}`",
        "via_numpy": "функцию NumPy",
        "via_method": "`.numpy()`",
        "via_float": "`float(...)`",
        "via_int": "`int(...)`",
        "via_line": " (в строке `{line}`)",
        "assign":
            "Источник{s} влияет на цель{t} только через `{var}.{op}(...)`. Присваивание "
            "меняет состояние: новое значение переменной лента видит как новую отправную точку, "
            "а не как результат вычислений из источника, поэтому градиент на присваивании "
            "останавливается. Вычислите значение обычными операциями внутри ленты, а "
            "присваивайте только после того, как градиент получен.",
        "integer_cast":
            "По пути к цели{t} операция `{op}` превратила значение, вычисленное из "
            "источника{s}, в целочисленный тип `{dtype}`. У целых чисел нет градиента, поэтому "
            "здесь лента перестаёт следить за значением. Оставьте вычисления в числах с "
            "плавающей точкой.",
        "not_differentiable":
            "По пути к цели{t} значение, вычисленное из источника{s}, прошло через `{op}` — "
            "операцию, которая зарегистрирована как недифференцируемая: лента её не "
            "записывает, поэтому градиент здесь останавливается.",
        "stop_gradient":
            "По пути к цели{t} значение, вычисленное из источника{s}, прошло через "
            "`tf.stop_gradient` — функцию, единственная задача которой — остановить градиент: "
            "её результат лента считает константой.",
        "comparison":
            "Лента не записала ни одной операции, которая вела бы от источника{s} к цели{t}; "
            "источник использовался только в сравнении `{op}` (например, в `if`). Сравнение "
            "лишь решает, какие операции выполнятся; градиента у него нет, поэтому управляющие "
            "конструкции для `tape.gradient` невидимы.",
    },
}

_NP_TO_TF = {
    "mean": "tf.reduce_mean", "average": "tf.reduce_mean", "sum": "tf.reduce_sum",
    "max": "tf.reduce_max", "amax": "tf.reduce_max", "min": "tf.reduce_min",
    "amin": "tf.reduce_min", "prod": "tf.reduce_prod", "std": "tf.math.reduce_std",
    "var": "tf.math.reduce_variance", "exp": "tf.exp", "log": "tf.math.log", "sqrt": "tf.sqrt",
    "square": "tf.square", "sin": "tf.sin", "cos": "tf.cos", "tan": "tf.tan", "tanh": "tf.tanh",
    "abs": "tf.abs", "absolute": "tf.abs", "dot": "tf.matmul", "matmul": "tf.matmul",
    "maximum": "tf.maximum", "minimum": "tf.minimum", "power": "tf.pow", "clip": "tf.clip_by_value",
    "where": "tf.where", "concatenate": "tf.concat", "stack": "tf.stack", "reshape": "tf.reshape",
    "transpose": "tf.transpose", "einsum": "tf.einsum", "multiply": "tf.multiply",
    "add": "tf.add", "subtract": "tf.subtract", "divide": "tf.divide", "log1p": "tf.math.log1p",
    "sign": "tf.sign", "cumsum": "tf.cumsum", "outer": "tf.tensordot", "tensordot": "tf.tensordot",
}

_OP_SHOWN = {"Cast": "tf.cast", "StopGradient": "tf.stop_gradient", "Greater": ">",
             "GreaterEqual": ">=", "Less": "<", "LessEqual": "<=", "Equal": "==",
             "NotEqual": "!=", "Round": "tf.round", "Floor": "tf.floor", "Ceil": "tf.math.ceil",
             "ArgMax": "tf.argmax", "ArgMin": "tf.argmin", "LogicalAnd": "&",
             "LogicalOr": "|", "LogicalNot": "~", "IsNan": "tf.math.is_nan"}
_COMPARISONS = {"Greater", "GreaterEqual", "Less", "LessEqual", "Equal", "NotEqual",
                "LogicalAnd", "LogicalOr", "LogicalXor", "LogicalNot"}


class WhyNone:
    """The answer of :func:`why_none`.

    ``reason``: a stable code from :data:`REASONS` (``"has_gradient"`` when the gradient is
    not None); ``message``: a teacher's explanation in ``lang``; ``details``: the facts behind
    it (``dtype``, ``variable``, ``operator``, ``call``, ``line``, ``op``...); ``name``: the
    source's name when known.  ``bool(answer)`` is True when there is a None to explain.
    ``str(answer)`` is the message; in Jupyter it renders as Markdown.
    """

    __slots__ = ("reason", "message", "lang", "details", "name")

    def __init__(self, reason, message, lang, details, name):
        self.reason = reason
        self.message = message
        self.lang = lang
        self.details = details
        self.name = name

    @property
    def has_gradient(self):
        return self.reason == "has_gradient"

    def __bool__(self):
        return self.reason != "has_gradient"

    def __str__(self):
        return self.message

    def __repr__(self):
        return f"WhyNone(reason={self.reason!r}, message={self.message!r})"

    def _repr_pretty_(self, p, cycle):
        p.text(f"[{self.reason}] {self.message}")

    def _repr_markdown_(self):
        return f"{self.message}\n\n*why_none: `{self.reason}`*"


def _explain(key, lang, s_name, t_name, **kw):
    m = _MESSAGES[lang]
    nouns = _NOUNS[lang]
    s = f" `{s_name}`" if s_name else ""
    t = f" `{t_name}`" if t_name else ""
    return m[key].format(s=s, t=t, **nouns, **kw)


def why_none(tape, target, source, lang=None, *, name=None, target_name=None):
    """Why ``tape.gradient(target, source)`` is (or is not) None, in ``lang`` (en, es, pt, ru).

    Returns a :class:`WhyNone` with a stable ``.reason`` (one of :data:`REASONS`) and a
    ``.message`` written for students.  ``source`` may also be a list/tuple/dict of sources:
    the answer then has the same structure.  Works before or after ``tape.gradient``, on
    persistent and non-persistent tapes.  ``lang=None`` uses the environment variable
    ``MINITAPE_LANG`` (else English).  Names in the message come from ``name=`` /
    ``target_name=``, a Variable's own name, or, when called from a notebook or script
    (``__main__``), the variables that hold the tensors.
    """
    lang = _lang(lang)
    _check_tape(tape, "why_none")
    frame = _caller_frame()
    if _nest.is_nested(source):
        flat = _nest.flatten(source)
        answers = [why_none(tape, target, s, lang, name=None, target_name=target_name)
                   if s is not None else None for s in flat]
        return _nest.pack_sequence_as(source, answers)
    if not isinstance(source, Tensor):
        raise TypeError(f"why_none: source must be a Tensor or Variable, got {type(source).__name__}")
    flat_t = _flat_tensors(target, "target")
    if not flat_t:
        raise ValueError("why_none needs a target tensor")
    names = _frame_names(frame) if frame is not None and \
        frame.f_globals.get("__name__") == "__main__" else {}
    s_name = name or _name_of(source, names)
    t_name = target_name or (_name_of(flat_t[0], names) if len(flat_t) == 1 else None)
    return _why(tape, flat_t, source, lang, s_name, t_name, names)


def _name_of(t, names):
    if t._id in names:
        return names[t._id][0]
    if isinstance(t, Variable):
        base = t.name.split(":")[0]
        if base != "Variable":
            return base
    return None


def _var_name(var_id, var_name, names, default):
    """How to call a Variable in a message: its name in the code, its own name, a default."""
    if var_id in names:
        return names[var_id][0]
    base = var_name.split(":")[0]
    return base if base != "Variable" else default


def _why(tape, targets, source, lang, s_name, t_name, names):
    def answer(reason, key=None, **details):
        kw = {k: v for k, v in details.items()}
        kw.setdefault("code", s_name or "...")  # tape.watch(...) when the name is unknown
        msg = _explain(key or reason, lang, s_name, t_name, **kw)
        return WhyNone(reason, msg, lang, details, s_name)

    dt = source.dtype
    if not (dt.is_floating or dt.is_complex):
        return answer("integer", dtype=dt.name)
    if all(not (t.dtype.is_floating or t.dtype.is_complex) for t in targets):
        return answer("integer_target", dtype=targets[0].dtype.name)
    rec = _Recording(tape)
    sid = source._id
    watched = sid in rec.watched
    is_var = isinstance(source, Variable)
    if not watched:
        if is_var and not source.trainable:
            return answer("not_trainable")
        if is_var and not rec.watch_accessed:
            return answer("not_watched", key="not_watched_variable")
        if not is_var:
            prov = _trace.FROM_VARIABLE.get(sid)
            if prov is not None:
                var, sym = prov
                base = var.split(":")[0]
                return answer("variable_replaced", sym=sym, code=s_name or "x",
                              var=base if base != "Variable" else (s_name or "x"))
            return answer("not_watched")
    target_ids = [t._id for t in targets]
    if rec.entries is None:
        # a spent tape without notes: nothing but connectivity can explain a None, and the
        # gradient call it answered says whether this source was connected
        ans = rec.answered
        if ans is not None and set(ans[0]) == set(target_ids) and sid in ans[1]:
            return answer("has_gradient" if ans[1][sid] else "unconnected")
        raise ValueError(
            "why_none cannot tell: this tape no longer holds its recording (a non-persistent "
            "tape frees it in tape.gradient or jacobian), and this target/source pair is not the "
            "one that gradient call was asked about. Ask about the same target and sources, or "
            "use tf.GradientTape(persistent=True).")
    anc = rec.ancestors(target_ids)
    if watched and sid in anc:
        return answer("has_gradient")
    desc = rec.descendants([sid])
    # Notes about the source's descendants: an assignment that feeds the target wins; else
    # the note closest before the target was computed (ids and stamps only grow).
    relevant = []
    for note in rec.notes:
        kind = note.kind
        if kind == "assign":
            if note.value in desc and note.var in anc:
                return answer("assign", op=note.op, line=note.line,
                              var=_var_name(note.var, note.var_name, names, "v"))
        elif kind == "escape":
            if note.tensor in desc:
                relevant.append(note)
        elif any(t in desc for t in note.ins):
            relevant.append(note)
    tmax = max(target_ids)
    before = [n for n in relevant if n.stamp < tmax] or relevant
    strong = [n for n in before if not (n.kind == "cut" and n.op in _COMPARISONS)]
    pick = max(strong or before, key=lambda n: n.stamp) if before else None
    if pick is None:
        return answer("unconnected")
    if pick.kind == "escape":
        return _numpy_answer(answer, lang, pick.how, pick.np_func, pick.line)
    op_name, out_dtype, not_diff = pick.op, pick.dtype, pick.not_differentiable
    shown = _OP_SHOWN.get(op_name, op_name)
    if not not_diff:
        return answer("integer_cast", op=shown, dtype=out_dtype)
    if op_name == "StopGradient":
        return answer("not_differentiable", key="stop_gradient", op=shown)
    if op_name in _COMPARISONS:
        return answer("not_differentiable", key="comparison", op=shown)
    return answer("not_differentiable", op=shown)


def _numpy_answer(answer, lang, how, np_func, line):
    m = _MESSAGES[lang]
    if how == "array":
        via = m["via_call"].format(np=np_func) if np_func else m["via_numpy"]
    else:
        via = m[{"numpy": "via_method", "float": "via_float", "int": "via_int"}[how]]
    if line:
        via += m["via_line"].format(line=line if len(line) <= 60 else line[:59] + "…")
    tf_name = _NP_TO_TF.get((np_func or "").split(".")[-1]) if how == "array" else None
    fix = (m["numpy_fix"].format(tf=tf_name, np=np_func) if tf_name
           else m["numpy_fix_generic"])
    return answer("numpy", via=via, fix=fix, call=(f"np.{np_func}" if how == "array" and np_func
                                                    else how), line=line)
