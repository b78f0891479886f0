"""Checks of the lessons' figures, shared by the unit tests (tests/lessons/test_figures.py) and the
tests that execute the lessons (tests/lessons/test_lessons_execute.py).

Colour vision: a figure's labelled series must stay apart for readers with a colour-vision
deficiency. Each series' colour is simulated for full deuteranopia, protanopia and tritanopia
(colorspacious, Machado et al. 2009, severity 100) and compared in CAM02-UCS, a space where
distances match perceived differences; every pair of series must be at least MIN_DELTA_E apart
there (10: clearly different at a glance for lines and markers; the Okabe–Ito palette the course
uses keeps >= 11.0 for every pair, Matplotlib's default tab10 falls to 1.6 for protanopia).
Series with the same colour on purpose (e.g. a line and its markers) are compared once.
"""

from __future__ import annotations

import itertools

import numpy as np

MIN_DELTA_E = 10.0
DEFICIENCIES = ("deuteranomaly", "protanomaly", "tritanomaly")
# what nbconvert writes when a figure has no description, and other non-descriptions
PLACEHOLDERS = {"no description has been provided for this image", "image", "figure", "plot", ""}


def closest_pair(colours: list[str], deficiency: str | None) -> tuple[float, str, str]:
    """The smallest CAM02-UCS distance between two of ``colours`` as seen with ``deficiency``
    (None: normal vision), and the pair."""
    from colorspacious import cspace_convert
    from matplotlib import colors as mcolors

    distinct = list(dict.fromkeys(mcolors.to_hex(c) for c in colours))
    if len(distinct) < 2:
        return float("inf"), "", ""
    rgb = np.array([mcolors.to_rgb(c) for c in distinct])
    if deficiency:
        rgb = np.clip(cspace_convert(rgb, {"name": "sRGB1+CVD", "cvd_type": deficiency, "severity": 100},
                                     "sRGB1"), 0, 1)
    jab = cspace_convert(rgb, "sRGB1", "CAM02-UCS")
    return min((float(np.linalg.norm(jab[i] - jab[j])), distinct[i], distinct[j])
               for i, j in itertools.combinations(range(len(distinct)), 2))


def colour_problems(colours: list[str]) -> list[str]:
    problems = []
    for deficiency in DEFICIENCIES:
        d, a, b = closest_pair(colours, deficiency)
        if d < MIN_DELTA_E:
            problems.append(f"{a} and {b} are {d:.1f} apart with {deficiency} (< {MIN_DELTA_E})")
    return problems


# the words a description uses for a line's style, in every language, and the style they name
STYLE_WORDS = {
    "-": r"\bsolid\b|\bcontinua\b|\bcontínua\b|сплошн",
    "--": r"\bdashed\b|\bdiscontinua\b|tracejad|штрихов",
    ":": r"\bdotted\b|\bpunteada\b|pontilhad|пунктир",
}


def style_problems(alt: str, drawn: list[str]) -> list[str]:
    """The line styles ``alt`` names that the figure does not draw (issue 38: a description that
    says "dashed" where every line is solid tells a screen-reader user the opposite)."""
    import re

    return [f"the description says {m.group(0)!r}, but no line is drawn {style!r} (drawn: {drawn})"
            for style, words in STYLE_WORDS.items()
            for m in [re.search(words, alt, re.IGNORECASE)] if m and style not in drawn]


def figure_problems(nb) -> list[str]:
    """Every figure an executed notebook shows: a text alternative that is not a placeholder, the
    line styles it names drawn, and series colours that stay apart for the common colour-vision
    deficiencies."""
    problems = []
    for i, cell in enumerate(nb.cells):
        for out in cell.get("outputs", []):
            if "image/png" not in out.get("data", {}):
                continue
            meta = out.get("metadata", {}).get("image/png", {})
            alt = str(meta.get("alt", "")).strip()
            if alt.lower().rstrip(".") in PLACEHOLDERS:
                problems.append(f"cell {i} ({cell.get('id')}): a figure without a description "
                                f"(describe(t('...alt')) before plt.show())")
            for p in colour_problems(meta.get("minitape_series", [])):
                problems.append(f"cell {i} ({cell.get('id')}): {p}")
            if "minitape_line_styles" in meta:
                for p in style_problems(alt, meta["minitape_line_styles"]):
                    problems.append(f"cell {i} ({cell.get('id')}): {p}")
    return problems
