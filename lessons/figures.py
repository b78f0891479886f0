"""The lessons' figures: one colour-vision-safe style, and a text alternative for every figure.

Every lesson's first code cell imports this module (``from lessons.figures import describe``),
which sets the course's Matplotlib style for the rest of the notebook:

* colours from the Okabe–Ito palette (Okabe & Ito, *Color Universal Design*, 2008), chosen to
  stay apart for the common colour-vision deficiencies (deuteranopia, protanopia, tritanopia;
  ``tests/lessons/test_figures.py`` simulates each with colorspacious and states the threshold);
* the n-th series also gets the n-th line style, so lines differ by more than colour.

Numbers in a figure follow the notebook's language as the prose does (``localize(fig)``): tick
labels, bar labels, legends and titles write ``0,5`` in Spanish, Portuguese and Russian. Every
figure a lesson shows is localized when it is rendered -- inline figures by the PNG formatter
below, figures drawn into a widget by ``png(fig)``.

``describe(text)`` gives the current figure (or ``fig``) a short description of what it shows,
written with the lesson in each language (``lessons/messages/*.json``, keys ``*.alt``). When the
figure is displayed, the description travels with the PNG as the output's ``alt`` metadata
(``{"image/png": {"alt": ...}}``), which nbconvert writes as the image's ``alt`` attribute in
the feedback pages (nbconvert's classic template) and the static site (``lessons/site_template``),
and screen readers read there. The series' colours travel too (``minitape_series``), so the
tests can check the figures the lessons really drew.
"""

from __future__ import annotations

import io
import re

from matplotlib import colors as mcolors
from matplotlib import rcParams
from matplotlib import text as mtext
from matplotlib import ticker
from matplotlib.figure import Figure

from course_lang.typography import decimal_mark, localize_number

__all__ = ["PALETTE", "LINESTYLES", "apply_style", "describe", "line_styles", "localize", "png", "series_colours"]

# Okabe–Ito, in the order the course uses them: blue, vermillion, bluish green, reddish purple,
# orange, sky blue (yellow, too light for lines on white, and black are left out of the cycle).
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9")
LINESTYLES = ("-", "--", ":", "-.", (0, (5, 1, 1, 1, 1, 1)), (0, (1, 3)))

_ALT = "_minitape_alt"


def apply_style() -> None:
    """The course's colour cycle (Okabe–Ito) with a line style per series."""
    from cycler import cycler

    rcParams["axes.prop_cycle"] = cycler(color=list(PALETTE)) + cycler(linestyle=list(LINESTYLES))
    rcParams["image.cmap"] = "cividis"


def series_colours(fig: Figure) -> list[str]:
    """The colours of the figure's labelled series (lines, markers, bars, scatter points), as hex:
    what a reader must tell apart to read the legend."""
    found: list[str] = []
    for ax in fig.axes:
        handles, _ = ax.get_legend_handles_labels()
        for h in handles:
            colour = None
            if hasattr(h, "get_color"):
                colour = h.get_color()
            elif hasattr(h, "get_facecolor"):
                colour = h.get_facecolor()
            if colour is None:
                continue
            rgba = mcolors.to_rgba_array(colour)
            if len(rgba):
                found.append(mcolors.to_hex(rgba[0]))
    return found


_MATH = re.compile(r"(?<!\\)\$[^$]*(?<!\\)\$")


def _localized_text(text: str, lang: str) -> str:
    """``text`` with its numbers in ``lang``'s decimal mark; inside mathtext the comma is
    written ``{,}``, as LaTeX writes it (a bare comma there is punctuation, followed by a space)."""
    if "$" not in text:
        return localize_number(text, lang)
    out, last = [], 0
    for m in _MATH.finditer(text):
        out.append(localize_number(text[last:m.start()], lang))
        out.append(re.sub(r"(?<=\d)\.(?=\d)", "{,}", m.group(0)))
        last = m.end()
    out.append(localize_number(text[last:], lang))
    return "".join(out)


class _LocalizedFormatter(ticker.Formatter):
    """A tick formatter that writes what another one writes, with the language's decimal mark."""

    def __init__(self, inner: ticker.Formatter, lang: str) -> None:
        self.inner, self.lang = inner, lang

    def set_axis(self, axis) -> None:
        super().set_axis(axis)
        self.inner.set_axis(axis)

    def set_locs(self, locs) -> None:
        self.inner.set_locs(locs)

    def __call__(self, x, pos=None) -> str:
        return _localized_text(self.inner(x, pos), self.lang)

    def format_ticks(self, values) -> list[str]:
        return [_localized_text(v, self.lang) for v in self.inner.format_ticks(values)]

    def get_offset(self) -> str:
        return _localized_text(self.inner.get_offset(), self.lang)

    def format_data(self, value) -> str:
        return _localized_text(self.inner.format_data(value), self.lang)

    def format_data_short(self, value) -> str:
        return _localized_text(self.inner.format_data_short(value), self.lang)


def localize(fig: Figure, lang: str | None = None) -> Figure:
    """Write the figure's numbers as the notebook's language writes them (a decimal comma in es,
    pt and ru): the axes' tick labels (their formatters wrapped) and every text already placed
    (titles, legends, bar labels, annotations). English figures are left as they are; a figure
    localized twice is localized once."""
    if lang is None:
        from .i18n import current_language

        lang = current_language()
    if decimal_mark(lang) == ".":
        return fig
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            for get, set_ in ((axis.get_major_formatter, axis.set_major_formatter),
                              (axis.get_minor_formatter, axis.set_minor_formatter)):
                current = get()
                if not isinstance(current, _LocalizedFormatter):
                    set_(_LocalizedFormatter(current, lang))
    for text in fig.findobj(mtext.Text):
        before = text.get_text()
        after = _localized_text(before, lang)
        if after != before:
            text.set_text(after)
    return fig


def png(fig: Figure, lang: str | None = None, **savefig_kwargs) -> bytes:
    """The figure as PNG bytes (for an ``ipywidgets.Image``), its numbers in the notebook's
    language."""
    localize(fig, lang)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", **savefig_kwargs)
    return buffer.getvalue()


def line_styles(fig: Figure) -> list[str]:
    """The styles of the lines the figure draws ("-", "--", ":", "-."), so that a test can hold
    the description to them: "(dashed)" in the text needs a dashed line in the drawing."""
    styles = set()
    for ax in fig.axes:
        for line in ax.get_lines():
            style = line.get_linestyle()
            if line.get_visible() and style not in ("None", "", " ", "none"):
                styles.add(style)
    return sorted(styles)


def _png_with_alt(base):
    def render(fig):
        localize(fig)
        data = base(fig)
        alt = getattr(fig, _ALT, None)
        if data is None or not alt:
            return data
        return data, {"alt": alt, "minitape_series": series_colours(fig), "minitape_line_styles": line_styles(fig)}
    render._minitape_alt = True
    return render


def _install() -> None:
    """Wrap IPython's PNG formatter for figures (the inline backend's) once per kernel, so a
    described figure's PNG carries its ``alt`` metadata. Nothing to do outside IPython."""
    try:
        from IPython import get_ipython
    except ImportError:
        return
    shell = get_ipython()
    if shell is None:
        return
    formatter = shell.display_formatter.formatters["image/png"]
    try:
        base = formatter.lookup_by_type(Figure)
    except KeyError:
        return
    if not getattr(base, "_minitape_alt", False):
        formatter.for_type(Figure, _png_with_alt(base))


def describe(text: str, fig: Figure | None = None) -> Figure:
    """Attach ``text`` (what the figure shows, in the student's language) to ``fig`` (default:
    the current figure) as its text alternative; returns the figure."""
    if fig is None:
        import matplotlib.pyplot as plt

        fig = plt.gcf()
    setattr(fig, _ALT, str(text))
    _install()
    return fig


apply_style()
