"""Plots and widgets the lessons share. Labels come from the message catalog (``lessons.i18n``).

* ``derivative_curve(f, xs)`` -- f and f' on a grid, with one tape and one ``gradient`` call;
* ``tangent_at(f, x0)`` -- f(x0) and f'(x0) from a GradientTape;
* ``plot_function_and_derivative(f, x_range)`` -- a matplotlib figure of f and f';
* ``tangent_explorer(f, x_range)`` -- an ipywidgets slider that moves a point along f and draws
  its tangent, whose slope is the gradient the tape returns;
* ``curvature_at(f, x0)`` -- f'(x0) and f''(x0) from two nested tapes;
* ``newton_explorer(f, newton, descent)`` -- lesson 5's slider: where the lesson's Newton's
  method and gradient descent go from a starting point (labels: lesson 5's catalog).

``f`` takes and returns minitape tensors and works element by element (``tf.math.sin``,
``lambda x: x**3 - 3*x``). The derivative always comes from ``minitape.GradientTape``; nothing
here differentiates by hand or by finite differences.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from course_lang.typography import localize_number

from .i18n import MESSAGES, add_messages, current_language, t

# Errors these helpers raise, in the student's language (the catalog's shared keys for plots and
# the tangent explorer live in lessons/i18n.py; these belong to this module).
_MESSAGES = {
    "widgets.error.none_gradient": {
        "en": "the tape returned None: f(x) does not depend on x through minitape operations "
              "(a NumPy or plain Python step breaks the chain; lesson 3 shows how to find it)",
        "es": "la cinta devolvió None: f(x) no depende de x a través de operaciones de minitape "
              "(un paso con NumPy o con Python puro corta la cadena; la lección 3 enseña a encontrarlo)",
        "pt": "a fita devolveu None: f(x) não depende de x por meio de operações do minitape "
              "(um passo com NumPy ou com Python puro quebra a cadeia; a lição 3 mostra como encontrá-lo)",
        "ru": "лента вернула None: f(x) не зависит от x через операции minitape "
              "(шаг на NumPy или на чистом Python разрывает цепочку; как его найти, показано в уроке 3)",
    },
    "widgets.error.x_range": {
        "en": "x_range must be (low, high) with low < high, got {x_range}",
        "es": "x_range debe ser (mínimo, máximo) con mínimo < máximo; se recibió {x_range}",
        "pt": "x_range deve ser (mínimo, máximo) com mínimo < máximo; recebido: {x_range}",
        "ru": "x_range должен быть парой (нижняя граница, верхняя граница), где нижняя < верхней; получено {x_range}",
    },
}
add_messages({key: texts for key, texts in _MESSAGES.items() if key not in MESSAGES}, origin=__name__)

__all__ = ["derivative_curve", "tangent_at", "plot_function_and_derivative", "tangent_explorer",
           "TangentExplorer", "curvature_at", "newton_explorer", "NewtonExplorer"]


def _numpy(value) -> np.ndarray:
    return np.asarray(value.numpy() if hasattr(value, "numpy") else value, dtype=float)


def _number(x: float) -> str:
    """x as prose writes it in the notebook's language (a decimal comma in es, pt and ru)."""
    text = f"{float(x):g}".replace("-", "−")
    return text if current_language() == "en" else text.replace(".", ",")


def derivative_curve(f: Callable, xs) -> tuple[np.ndarray, np.ndarray]:
    """``(f(xs), f'(xs))`` as NumPy arrays, from one tape.

    Because f works element by element, the gradient of ``sum(f(x))`` with respect to ``x``
    holds each element's own derivative: one backward pass gives the whole curve.
    """
    import minitape as tf

    x = tf.constant(np.asarray(xs, dtype=np.float64))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    dy = tape.gradient(y, x)
    if dy is None:
        raise ValueError(t("widgets.error.none_gradient"))
    return _numpy(y), _numpy(dy)


def tangent_at(f: Callable, x0: float) -> tuple[float, float]:
    """``(f(x0), f'(x0))`` computed with a GradientTape watching a Variable at x0."""
    import minitape as tf

    x = tf.Variable(float(x0), dtype=tf.float64)
    with tf.GradientTape() as tape:
        y = f(x)
    dy = tape.gradient(y, x)
    if dy is None:
        raise ValueError(t("widgets.error.none_gradient"))
    return float(_numpy(y)), float(_numpy(dy))


def plot_function_and_derivative(f: Callable, x_range: tuple[float, float] = (-3.0, 3.0),
                                 num: int = 201, title: str | None = None, ax=None):
    """Plot f and its derivative (from the tape) on ``x_range``; returns the matplotlib Figure."""
    import matplotlib.pyplot as plt

    xs = np.linspace(float(x_range[0]), float(x_range[1]), int(num))
    ys, dys = derivative_curve(f, xs)
    if ax is None:
        fig, ax = plt.subplots(figsize=(6.4, 3.6))
    else:
        fig = ax.figure
    ax.plot(xs, ys, label=t("plot.function"))
    ax.plot(xs, dys, "--", label=t("plot.derivative"))
    ax.axhline(0.0, color="0.8", linewidth=0.8, zorder=0)
    ax.set_xlabel(t("plot.x"))
    ax.set_title(title if title is not None else t("plot.title.function_and_derivative"))
    ax.legend()
    from .figures import describe

    return describe(t("plot.alt.function_and_derivative", lo=_number(x_range[0]), hi=_number(x_range[1])), fig)


def _render_tangent(f: Callable, x_range, xs, ys, x0: float, y0: float, slope: float) -> bytes:
    """PNG of f with the point (x0, y0) and its tangent line (Agg canvas, no pyplot state)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6.0, 3.6), dpi=80)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    ax.plot(xs, ys, label=t("plot.function"))
    half = (x_range[1] - x_range[0]) / 6
    tx = np.array([x0 - half, x0 + half])
    ax.plot(tx, y0 + slope * (tx - x0), color="C1", label=t("widgets.tangent.tangent"))
    ax.plot([x0], [y0], "o", color="C1", label=t("widgets.tangent.point"))
    pad = 0.1 * (ys.max() - ys.min() or 1.0)
    ax.set_ylim(ys.min() - pad, ys.max() + pad)
    ax.set_xlim(*x_range)
    ax.set_xlabel(t("plot.x"))
    ax.set_title(t("widgets.tangent.title"), fontsize=10)
    ax.legend(loc="best", fontsize=8)
    from .figures import png

    return png(fig)


# ipywidgets draws a slider's handle (noUiSlider, role="slider") without an accessible name: its
# description is a <label> not tied to the handle, so a screen reader says "slider, 0.5" and axe
# reports aria-input-field-name. This script names every slider handle (and its editable readout)
# after the slider's own description, now and for sliders drawn later on the page. It runs where
# the notebook's outputs are trusted (the cells ran in this session) and on the static site.
_NAME_SLIDERS = """<script>
(() => {
  if (window.__minitapeSliderNames) { window.__minitapeSliderNames(document); return; }
  const name = root => root.querySelectorAll('.widget-slider').forEach(slider => {
    const label = slider.querySelector('.widget-label');
    const text = label ? label.textContent.trim() : '';
    if (!text) return;
    slider.querySelectorAll('[role=slider], .widget-readout').forEach(el => {
      if (el.getAttribute('aria-label') !== text) el.setAttribute('aria-label', text);
    });
  });
  window.__minitapeSliderNames = name;
  name(document);
  new MutationObserver(() => name(document)).observe(document.body, {childList: true, subtree: true});
})();
</script>"""


def label_sliders() -> None:
    """Give every ipywidgets slider on the page its description as accessible name (see above).
    Call it once in a notebook that shows sliders (the lessons do it in their first cell);
    showing a tangent explorer calls it too."""
    from IPython.display import HTML, display

    display(HTML(_NAME_SLIDERS))


def tangent_explorer(f: Callable, x_range: tuple[float, float] = (-3.0, 3.0), x0: float | None = None,
                     num: int = 201, step: float | None = None) -> "TangentExplorer":
    """A slider that moves a point along f; the red line is the tangent, slope from the tape."""
    return TangentExplorer(f, x_range=x_range, x0=x0, num=num, step=step)


class TangentExplorer:
    """The tangent explorer: ``.widget`` (an ipywidgets VBox), ``.slider``, ``.readout``, ``.image``.

    ``explorer.slope`` and ``explorer.value`` hold f'(x) and f(x) at the slider's point; both
    come from ``tangent_at`` (one GradientTape per move). Displays itself in a notebook.
    """

    def __init__(self, f: Callable, x_range=(-3.0, 3.0), x0=None, num=201, step=None):
        import ipywidgets as w

        lo, hi = float(x_range[0]), float(x_range[1])
        if not hi > lo:
            raise ValueError(t("widgets.error.x_range", x_range=repr(x_range)))
        self.f, self.x_range = f, (lo, hi)
        self.xs = np.linspace(lo, hi, int(num))
        self.ys, _ = derivative_curve(f, self.xs)
        start = (lo + hi) / 2 if x0 is None else float(x0)
        self.slider = w.FloatSlider(value=start, min=lo, max=hi, step=step or (hi - lo) / 100,
                                    description=t("widgets.tangent.slider"), continuous_update=False,
                                    readout_format=".2f", layout=w.Layout(width="420px"),
                                    style={"description_width": "initial"})
        self.readout = w.HTML()
        self.image = w.Image(format="png")
        self.widget = w.VBox([self.slider, self.readout, self.image])
        self.slider.observe(self._on_change, names="value")
        self.update(start)

    def _on_change(self, change) -> None:
        self.update(change["new"])

    def update(self, x0: float) -> None:
        """Move the point to x0 (what the slider does), recompute with the tape, redraw."""
        self.x0 = float(x0)
        self.value, self.slope = tangent_at(self.f, self.x0)
        self.readout.value = t("widgets.tangent.readout", x=f"{self.x0:.2f}", y=f"{self.value:.4g}",
                               slope=f"{self.slope:.4g}")
        self.image.value = _render_tangent(self.f, self.x_range, self.xs, self.ys, self.x0,
                                           self.value, self.slope)

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)
        label_sliders()


def curvature_at(f: Callable, x0: float) -> tuple[float, float]:
    """``(f'(x0), f''(x0))`` from two nested GradientTapes (lesson 5's technique)."""
    import minitape as tf

    x = tf.Variable(float(x0), dtype=tf.float64)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            y = f(x)
        dy = inner.gradient(y, x)
    if dy is None:
        raise ValueError(t("widgets.error.none_gradient"))
    d2y = outer.gradient(dy, x)
    return float(_numpy(dy)), 0.0 if d2y is None else float(_numpy(d2y))


def newton_explorer(f: Callable, newton: Callable, descent: Callable,
                    x_range: tuple[float, float] = (-2.5, 2.5), x0: float = 2.0, steps: int = 6,
                    ylim: tuple[float, float] | None = None) -> "NewtonExplorer":
    """Lesson 5's slider: where Newton's method and gradient descent go from a starting point.
    ``newton(x0, steps)`` and ``descent(x0, steps)`` are the lesson's own methods (arrays of the
    points they visit); f', f'' at the end points come from nested tapes."""
    return NewtonExplorer(f, newton, descent, x_range=x_range, x0=x0, steps=steps, ylim=ylim)


class NewtonExplorer:
    """The Newton explorer: ``.widget`` (an ipywidgets VBox), ``.slider``, ``.readout``, ``.image``.

    ``explorer.paths`` holds ``{"newton": points, "descent": points}`` for the slider's start;
    ``explorer.ends`` the end point of each with f' and f'' there and what it is ("min", "max",
    "moving", "diverged"). Displays itself in a notebook.
    """

    def __init__(self, f: Callable, newton: Callable, descent: Callable, x_range=(-2.5, 2.5), x0=2.0,
                 steps=6, ylim=None):
        import ipywidgets as w

        lo, hi = float(x_range[0]), float(x_range[1])
        if not hi > lo:
            raise ValueError(t("widgets.error.x_range", x_range=repr(x_range)))
        self.f, self.newton, self.descent = f, newton, descent
        self.x_range, self.steps, self.ylim = (lo, hi), int(steps), ylim
        self.grid = np.linspace(lo, hi, 201)
        self.curve = _numpy(f(self.grid))
        self.slider = w.FloatSlider(value=float(x0), min=lo, max=hi, step=(hi - lo) / 100,
                                    description=t("l05.newton.slider"), continuous_update=False,
                                    style={"description_width": "initial"})
        self.readout = w.HTML()
        self.image = w.Image(format="png")
        self.widget = w.VBox([self.slider, self.readout, self.image])
        self.slider.observe(lambda change: self.update(change["new"]), names="value")
        self.update(float(x0))

    def end_point(self, path) -> dict:
        """Where a path ends: x, f'(x), f''(x) from the tapes, and what kind of point it is."""
        x = float(path[-1])
        if not np.isfinite(x):
            return {"x": x, "kind": "diverged"}
        d1, d2 = curvature_at(self.f, x)
        kind = "moving" if abs(d1) > 1e-4 else ("min" if d2 > 0 else "max")
        return {"x": x, "d1": d1, "d2": d2, "kind": kind}

    @staticmethod
    def _describe(end: dict) -> str:
        if end["kind"] == "diverged":
            return "x = ∞"
        # the readout's numbers in the notebook's language, as the prose writes them; with a
        # decimal comma the three values are separated by semicolons
        sep = ", " if current_language() == "en" else "; "
        text = (f"x = {end['x']:.4f}{sep}f′(x) = {end['d1']:.4f}{sep}f″(x) = {end['d2']:.2f} "
                f"({t('l05.newton.' + end['kind'])})")
        return localize_number(text, current_language())

    def update(self, x0: float) -> None:
        """Start both methods at x0 (what the slider does), recompute, redraw."""
        self.x0 = float(x0)
        self.paths = {"newton": np.asarray(self.newton(self.x0, self.steps), dtype=float),
                      "descent": np.asarray(self.descent(self.x0, self.steps), dtype=float)}
        self.ends = {name: self.end_point(path) for name, path in self.paths.items()}
        self.readout.value = t("l05.newton.readout", newton=self._describe(self.ends["newton"]),
                               descent=self._describe(self.ends["descent"]))
        self.image.value = self._render()

    def _render(self) -> bytes:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure

        lo, hi = self.x_range
        fig = Figure(figsize=(6.4, 3.8), dpi=90)
        FigureCanvasAgg(fig)
        ax = fig.add_subplot()
        ax.plot(self.grid, self.curve, color="0.6", label="f(x)")
        for name, style, color in [("descent", "o-", "C0"), ("newton", "s-", "C1")]:
            path = self.paths[name]
            shown = path[np.isfinite(path) & (path >= lo) & (path <= hi)]
            ax.plot(shown, _numpy(self.f(shown)), style, color=color, markersize=5, alpha=0.75,
                    label=t(f"l05.newton.{name}"))
        ax.plot([self.x0], [float(_numpy(self.f(self.x0)))], "*", color="black", markersize=12, label="x₀")
        ax.set(xlim=(lo, hi), xlabel=t("plot.x"))
        if self.ylim is not None:
            ax.set_ylim(*self.ylim)
        ax.set_title(t("l05.newton.title"), fontsize=10)
        ax.legend(loc="upper center", fontsize=8)
        from .figures import png

        return png(fig)

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)
        label_sliders()
