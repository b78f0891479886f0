"""Stepping through the backward pass: :func:`backward_steps`, :class:`Stepper`, :func:`stepper`.
"""
from __future__ import annotations

from .. import _core
from .. import _tape
from .. import nest as _nest
from .view import _Graph, _caller_frame, _check_tape, _flat_tensors, _fmt_value, _lang
from .svg import TapeDrawing, _FONT, _esc, _ui


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
            from .._ops import reshape
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
        self._lang = _lang(lang)
        self._graph = _Graph(tape, target, sources, names, frame, max_ops=None, lang=self._lang)
        self._dir = direction
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
        ui, g, st = _ui(self._lang), self._graph, self.step
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
        ui, g, st = _ui(self._lang), self._graph, self.step
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
        ui = _ui(self._lang)
        n = len(self.steps) - 1
        b_reset = W.Button(description=ui["reset"], icon="undo", layout=W.Layout(width="auto"))
        b_back = W.Button(description=ui["back"], icon="arrow-left", layout=W.Layout(width="auto"))
        b_next = W.Button(description=ui["next"], icon="arrow-right", button_style="primary",
                          layout=W.Layout(width="auto"))
        # ipywidgets' default 300 px, less the label and the readout, left a 124 px track: the
        # slider keeps 320 px of its own, and the row wraps in a narrow output rather than
        # squeezing it beside the (translated, longer) button labels.
        slider = W.IntSlider(value=self.position, min=0, max=max(n, 0), step=1,
                             description=ui["step"], continuous_update=True,
                             readout=True, style={"description_width": "initial"},
                             layout=W.Layout(width="320px", flex="0 0 auto"))
        label = W.HTML()
        picture = W.HTML()
        table = W.HTML()
        self._view = (b_reset, b_back, b_next, slider, label, picture, table)
        b_reset.on_click(lambda _: self.reset())
        b_back.on_click(lambda _: self.back())
        b_next.on_click(lambda _: self.next())
        slider.observe(lambda ch: self.goto(ch["new"]) if ch["new"] != self.position else None,
                       names="value")
        row = W.HBox([b_reset, b_back, b_next, slider],
                     layout=W.Layout(flex_flow="row wrap", align_items="center"))
        self._widget = W.VBox([row, label, picture, table])
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
