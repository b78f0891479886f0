"""The lessons' figures: one colour-vision-safe style, and a text alternative for every figure.

Every lesson's first code cell imports this module (``from lessons.figures import describe``),
which sets the course's Matplotlib style for the rest of the notebook:

* colours from the Okabe–Ito palette (Okabe & Ito, *Color Universal Design*, 2008), chosen to
  stay apart for the common colour-vision deficiencies (deuteranopia, protanopia, tritanopia;
  ``tests/lessons/test_figures.py`` simulates each with colorspacious and states the threshold);
* the n-th series also gets the n-th line style, so lines differ by more than colour.

``describe(text)`` gives the current figure (or ``fig``) a short description of what it shows,
written with the lesson in each language (``lessons/messages/*.json``, keys ``*.alt``). When the
figure is displayed, the description travels with the PNG as the output's ``alt`` metadata
(``{"image/png": {"alt": ...}}``), which nbconvert writes as the image's ``alt`` attribute in
the feedback pages (nbconvert's classic template) and the static site (``lessons/site_template``),
and screen readers read there. The series' colours travel too (``minitape_series``), so the
tests can check the figures the lessons really drew.
"""

from __future__ import annotations

from matplotlib import colors as mcolors
from matplotlib import rcParams
from matplotlib.figure import Figure

__all__ = ["PALETTE", "LINESTYLES", "apply_style", "describe", "series_colours"]

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


def _png_with_alt(base):
    def render(fig):
        data = base(fig)
        alt = getattr(fig, _ALT, None)
        if data is None or not alt:
            return data
        return data, {"alt": alt, "minitape_series": series_colours(fig)}
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
