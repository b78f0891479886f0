"""The lessons' figures are readable by every student (issue: WCAG 2.1 AA, lessons/figures.py).

* every figure a lesson shows has a description written with the lesson, in all four languages
  (the source check here; tests/lessons/test_lessons_execute.py checks the executed outputs);
* the course palette stays apart for deuteranopia, protanopia and tritanopia, and figure code
  uses no colour outside it (figure_checks.py states the threshold);
* ``describe()`` puts the description into the PNG output's ``alt`` metadata, where nbconvert
  and the static site read it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from figure_checks import MIN_DELTA_E, PLACEHOLDERS, closest_pair, colour_problems
from lessons import LANGS
from lessons.figures import PALETTE, describe, series_colours

REPO = Path(__file__).resolve().parents[2]
SOURCES = sorted((REPO / "lessons" / "src").glob("[0-9][0-9]-*.py"))
FIGURE_CODE = SOURCES + [REPO / "lessons" / "widgets.py"]


def catalog(src: Path) -> dict:
    return json.loads((REPO / "lessons" / "messages" / f"{src.stem}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("deficiency", ["deuteranomaly", "protanomaly", "tritanomaly"])
def test_palette_stays_apart_for_each_deficiency(deficiency):
    d, a, b = closest_pair(list(PALETTE), deficiency)
    assert d >= MIN_DELTA_E, f"{a} and {b}: {d:.1f}"


def test_the_check_rejects_matplotlibs_default_colours():
    # the check can fail: tab10's orange and green merge for a protanope
    assert colour_problems(["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728"])


@pytest.mark.parametrize("src", SOURCES, ids=[s.stem for s in SOURCES])
def test_every_figure_is_described_in_every_language(src):
    text = src.read_text(encoding="utf-8")
    cells = re.split(r"^# %%", text, flags=re.M)
    messages = catalog(src)
    shown = 0
    for cell in cells:
        for _ in re.finditer(r"^plt\.show\(\)", cell, flags=re.M):
            shown += 1
            keys = re.findall(r'^describe\(t\("([^"]+)"\)', cell, flags=re.M)
            assert keys, f"{src.name}: a cell shows a figure without describe(t('...')):\n{cell[:300]}"
            for key in keys:
                assert key in messages, f"{src.name}: {key} is not in lessons/messages/{src.stem}.json"
                entry = messages[key]
                for lang in LANGS:
                    alt = entry.get(lang, "").strip()
                    assert len(alt) >= 40 and alt.lower().rstrip(".") not in PLACEHOLDERS, (key, lang, alt)
                    if lang != "en":
                        assert alt != entry["en"], f"{key}: {lang} is the English text"
    if "plt.show()" in text:
        assert shown and "from lessons.figures import describe" in text


ALLOWED_COLOURS = re.compile(r"^(C[0-5]|0\.\d+|k|black|white|none)$")
ALLOWED_MAPS = {"cividis", "viridis", "RdBu_r", "Greys"}


@pytest.mark.parametrize("path", FIGURE_CODE, ids=[p.stem for p in FIGURE_CODE])
def test_figure_code_uses_only_the_course_palette(path):
    text = path.read_text(encoding="utf-8")
    found = re.findall(r'\b(?:color|edgecolor|facecolor)="([^"]+)"', text)
    found += [c for group in re.findall(r'colors=\[([^\]]+)\]', text) for c in re.findall(r'"([^"]+)"', group)]
    found += re.findall(r'"[ox*s^.]?-?-?", "(tab:[a-z]+|#[0-9a-fA-F]{6})"', text)
    bad = [c for c in found if not ALLOWED_COLOURS.match(c)]
    assert not bad, f"{path.name}: colours outside the course palette (use C0-C5 or lessons.figures.PALETTE): {bad}"
    maps = set(re.findall(r'cmap="([^"]+)"', text))
    assert maps <= ALLOWED_MAPS, maps - ALLOWED_MAPS


def test_describe_puts_the_text_into_the_png_outputs_alt_metadata():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from IPython.core.interactiveshell import InteractiveShell
    from IPython.core.pylabtools import select_figure_formats

    shell = InteractiveShell.instance()
    try:
        select_figure_formats(shell, {"png"})
        fig, ax = plt.subplots()
        ax.plot([0, 1], [0, 1], label="a")
        ax.plot([0, 1], [1, 0], label="b")
        ax.legend()
        data, md = shell.display_formatter.format(fig)
        assert "alt" not in md.get("image/png", {})          # undescribed: nothing invented
        describe("Two crossing lines.", fig)
        data, md = shell.display_formatter.format(fig)
        assert data["image/png"]
        assert md["image/png"]["alt"] == "Two crossing lines."
        assert md["image/png"]["minitape_series"] == series_colours(fig) == [PALETTE[0].lower(), PALETTE[1].lower()]
        describe("again", fig)                                 # installed once, still one wrapper
        assert shell.display_formatter.format(fig)[1]["image/png"]["alt"] == "again"
        plt.close(fig)
    finally:
        InteractiveShell.clear_instance()


@pytest.mark.parametrize("lang, mark", [("en", "."), ("es", ","), ("pt", ","), ("ru", ",")])
def test_numbers_in_figures_follow_the_language(lang, mark):
    """Issue 38, one decimal separator per page: a figure's tick labels, bar labels, legend and
    title write numbers as the notebook's prose does (0,5 in es, pt, ru), whether the figure is
    shown inline (the PNG formatter) or drawn into a widget (png())."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from lessons.figures import png

    fig = Figure(figsize=(4, 3))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    bars = ax.bar([0.0, 0.5, 1.0], [7.6, 0.25, 1.5], width=0.3, label="lr = 0.1")
    ax.bar_label(bars, fmt="%.1f")
    ax.set_title("$\\eta = 0.5$ and 2.5")
    ax.legend()
    assert bytes(png(fig, lang)).startswith(b"\x89PNG")
    png(fig, lang)  # twice: one wrapper, the same texts
    ticks = [t.get_text() for t in ax.get_xticklabels() + ax.get_yticklabels() if t.get_text()]
    texts = [t.get_text() for t in ax.texts] + [ax.get_title(), ax.get_legend().get_texts()[0].get_text()]
    other = "." if mark == "," else ","
    assert any(mark in t for t in ticks), ticks
    assert not any(re.search(rf"\\d\\{other}\\d", t) for t in ticks + texts), ticks + texts
    assert ("7,6" if mark == "," else "7.6") in texts
    assert ax.get_title() == ("$\\eta = 0{,}5$ and 2,5" if mark == "," else "$\\eta = 0.5$ and 2.5")


@pytest.mark.parametrize("alt, drawn, bad", [
    ("SGD (solid) and Adam (dashed)", ["-", "--"], 0),
    ("SGD (solid) and Adam (dashed)", ["-"], 1),              # the review's case: both drawn solid
    ("SGD (línea continua) y Adam (discontinua)", ["-"], 1),
    ("редондео (línea punteada)", [":"], 0),
    ("ошибка (пунктирная линия) и кривая (сплошная)", ["-", "--"], 1),
])
def test_a_description_names_only_line_styles_the_figure_draws(alt, drawn, bad):
    from figure_checks import style_problems

    assert len(style_problems(alt, drawn)) == bad


def test_the_png_carries_the_line_styles_it_draws():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from IPython.core.interactiveshell import InteractiveShell
    from IPython.core.pylabtools import select_figure_formats

    from lessons.figures import line_styles

    shell = InteractiveShell.instance()
    try:
        select_figure_formats(shell, {"png"})
        fig, ax = plt.subplots()
        ax.plot([0, 1], label="a")          # the course's cycle: solid, then dashed
        ax.plot([1, 0], label="b")
        ax.plot([0.5, 0.5], ":", label="c")
        ax.plot([0, 1], [0.2, 0.2], "o", label="markers only")
        describe("Three lines.", fig)
        meta = shell.display_formatter.format(fig)[1]["image/png"]
        assert meta["minitape_line_styles"] == line_styles(fig) == ["-", "--", ":"]
        plt.close(fig)
    finally:
        InteractiveShell.clear_instance()


def test_an_inline_figure_is_localized_when_it_is_shown():
    """The PNG formatter the lessons' figures go through writes their numbers in the notebook's
    language (the widgets' figures go through png(), tested above)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from IPython.core.interactiveshell import InteractiveShell
    from IPython.core.pylabtools import select_figure_formats

    from lessons.i18n import set_language

    shell = InteractiveShell.instance()
    try:
        set_language("pt")
        select_figure_formats(shell, {"png"})
        fig, ax = plt.subplots()
        ax.plot([0.0, 0.5, 1.0], [0.25, 0.5, 0.75], label="x")
        describe("Uma reta.", fig)
        shell.display_formatter.format(fig)
        ticks = [t.get_text() for t in ax.get_xticklabels() if t.get_text()]
        assert any("," in t for t in ticks) and not any("." in t for t in ticks), ticks
        plt.close(fig)
    finally:
        set_language(None)
        InteractiveShell.clear_instance()
