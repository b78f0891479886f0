"""Drawing a recording: the SVG and text forms of :func:`draw` (:class:`TapeDrawing`).
"""
from __future__ import annotations

import html as _html
import itertools

from .messages import CATALOG
from .view import _Graph, _caller_frame, _fmt_meta, _fmt_value, _lang
from .layout import _Box, _CW, _CW_S, _LINE, _layout


# The texts (header, legend, notes, buttons, the text alternative): draw.* and draw.desc.* in
# the debugging catalog (messages.py), read through one language's view: ui["next"].
def _ui(lang):
    return CATALOG.view("draw.", lang)


def _desc(lang):
    return CATALOG.view("draw.desc.", lang)


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
        g, ui = self._g, _ui(self._lang)
        lines = []
        head = f"GradientTape: {g.total_ops} {ui.tn('ops.plural', g.total_ops)} " \
               f"{ui.tn('recorded.plural', g.total_ops)}"
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
        g, ui = self._g, _ui(self._lang)
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

    def _description(self) -> str:
        """What the drawing shows, as one sentence per part: the operations in recording order
        (``Mul(x, x) -> t1``), then the tensors the drawing marks, role by role, read off the
        same roles that colour the boxes and fill the legend (watched sources, targets, variables
        not watched), so that a screen reader hears what a sighted reader sees."""
        g, words = self._g, _desc(self._lang)

        def label(tid):
            n = g.tensors.get(tid)
            return (n.name if n is not None and n.name else None) or g.label(tid)

        def marked(role):
            return ", ".join(dict.fromkeys(label(t) for t in g.order if g.tensors[t].role == role))

        ops = "; ".join(f"{op.name}({', '.join(label(i) for i in op.ins)}) → {label(op.out)}" for op in g.ops)
        parts = [f"{words['order']}: {ops or words['no_ops']}.",
                 f"{words['watched']}: {marked('source') or words['no_sources']}.",
                 f"{words['targets']}: {marked('target') or words['no_targets']}."]
        unwatched = marked("variable")
        if unwatched:
            parts.append(f"{words['unwatched']}: {unwatched}.")
        return " ".join(parts)

    def _render(self):
        g, ui = self._g, _ui(self._lang)
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
               f'font-family="{_esc(_FONT)}" font-size="12" role="img" '
               f'aria-labelledby="{uid}-title" aria-describedby="{uid}-desc">',
               f'<title id="{uid}-title">{_esc(self.text.splitlines()[0])}</title>',
               f'<desc id="{uid}-desc">{_esc(self._description())}</desc>',
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
            note = (f"{ui['showing']} {len(g.ops)} {ui['of']} {g.total_ops} "
                    f"{ui.tn('ops_of.plural', g.total_ops)}")
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
        # a wide drawing scrolls sideways: the keyboard reaches the scrolling area (tabindex),
        # named as the drawing is (WCAG 2.1.1, axe's scrollable-region-focusable)
        return (f'<div class="minitape-drawing" style="max-width:100%;overflow-x:auto" tabindex="0" '
                f'role="group" aria-label="{_esc(self.text.splitlines()[0])}">' + self.svg + "</div>")

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
    lang = _lang(lang)
    graph = _Graph(tape, target, sources, names, _caller_frame(), max_ops, lang=lang)
    return TapeDrawing(graph, direction, lang)
