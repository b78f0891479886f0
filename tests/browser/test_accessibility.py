"""WCAG 2.1 A/AA checks with axe-core in Debian's headless Chromium, over every kind of page the
course builds, in every language (docs/accessibility.md says what this covers and what it cannot).

axe-core is installed from npm by these tests (``tests/browser/axe``: ``npm ci`` against the
committed lock file, version pinned), injected into each page with Playwright and run with the
rules tagged wcag2a, wcag2aa, wcag21a and wcag21aa. A test fails on any violation of impact
*serious* or *critical*, listing rule, impact, element and page. Pages:

* the static site (``python -m lessons site``): the root index, each language's index and a lesson
  page (lesson 1: figures, a widget, exercises) in each language;
* the ``check()`` report as a notebook shows it, in each language, for a wrong answer (the
  richest report: failed checks, expected/got, a hint);
* the students' README (the student distribution's front page), rendered as Markdown;
* the JupyterLite landing page (``make lite``; marked ``lite``).

Page structure is checked beside axe: ``<html lang>`` is the page's language, a non-empty
``<title>``, and headings that never skip a level.
"""

from __future__ import annotations

import html
import subprocess
import sys
from pathlib import Path

import pytest

from lessons import LANGS
from tests.support.accessibility import audit, install_axe

pytestmark = [pytest.mark.browser]

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def axe_source() -> str:
    return install_axe()


def _open(page, path: Path) -> None:
    page.goto(path.resolve().as_uri())
    page.wait_for_load_state("load")


# ---------------------------------------------------------------------------------------------
# The static site
# ---------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("a11y") / "site"
    cmd = [sys.executable, "-m", "lessons", "site", "01", "--out", str(out)]
    for lang in LANGS:
        cmd += ["--lang", lang]
    run = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_site_pages_have_no_serious_violation(site, page, axe_source, lang):
    problems = []
    for path in [site / lang / "index.html", *sorted((site / lang).glob("0*.html"))]:
        _open(page, path)
        problems += audit(page, axe_source, f"site {lang}/{path.name}", lang)
    assert not problems, "\n".join(problems)


def test_site_root_has_no_serious_violation(site, page, axe_source):
    _open(page, site / "index.html")
    problems = audit(page, axe_source, "site index.html", "en")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", LANGS)
def test_site_figures_carry_their_descriptions(site, page, lang):
    """Every figure of the lesson page has the lesson's description, in the page's language."""
    from lessons.i18n import t

    _open(page, site / lang / "01-gradients.html")
    alts = page.eval_on_selector_all(".jp-RenderedImage img", "imgs => imgs.map(i => i.alt)")
    assert alts, "no figure on the page"
    assert t("l01.sigmoid.alt", lang) in alts
    assert "No description has been provided for this image" not in alts


# ---------------------------------------------------------------------------------------------
# check()'s report
# ---------------------------------------------------------------------------------------------
def _report_page(lang: str, tmp_path: Path) -> Path:
    """A wrong answer's check() report in ``lang``, in a page as JupyterLab's output area holds it."""
    from grader import check
    from lessons.i18n import set_language

    import minitape as tf

    def derivative_at(x0):        # forgot the -2 of y = x**3 - 2*x
        x = tf.Variable(float(x0))
        with tf.GradientTape() as tape:
            y = x ** 3
        return tape.gradient(y, x)

    set_language(lang)
    try:
        result = check("l01_ex1", {"derivative_at": derivative_at, "tf": tf})
        assert not result.passed
        body = result._repr_html_()
        title = f"check(): {result.exercise.display_title(lang)}"
    finally:
        set_language(None)
    path = tmp_path / f"report-{lang}.html"
    path.write_text(f'<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8">'
                    f"<title>{html.escape(title)}</title></head><body><main>"
                    f'<h1>{html.escape(title)}</h1><div class="jp-OutputArea-output">{body}</div>'
                    "</main></body></html>", encoding="utf-8")
    return path


@pytest.mark.parametrize("lang", LANGS)
def test_check_report_has_no_serious_violation(page, axe_source, lang, tmp_path):
    _open(page, _report_page(lang, tmp_path))
    problems = audit(page, axe_source, f"check() report [{lang}]", lang)
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------------------------------------
# The students' README
# ---------------------------------------------------------------------------------------------
def test_students_readme_has_no_serious_violation(page, axe_source, tmp_path):
    from markdown_it import MarkdownIt

    from lessons.student import student_readme

    text = student_readme(REPO, "0.0.0")
    body = MarkdownIt("commonmark").enable("table").render(text)
    path = tmp_path / "README.html"
    path.write_text('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>README</title>'
                    f"</head><body><main>{body}</main></body></html>", encoding="utf-8")
    _open(page, path)
    problems = audit(page, axe_source, "students' README", "en")
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------------------------------------
# The JupyterLite landing page
# ---------------------------------------------------------------------------------------------
@pytest.mark.lite
def test_lite_landing_page_has_no_serious_violation(page, axe_source):
    landing = REPO / "build" / "lite" / "index.html"
    if not landing.exists():
        pytest.fail(f"{landing} is missing: build it with `make lite`")
    _open(page, landing)
    problems = audit(page, axe_source, "JupyterLite landing", "en")
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------------------------------------
# Widgets: reachable with Tab, operated with the arrow keys, named in the student's language
# ---------------------------------------------------------------------------------------------
_WIDGET_CELL = '''\
import ipywidgets as widgets
import minitape as tf
from lessons.i18n import t
from lessons.widgets import label_sliders, tangent_explorer

label_sliders()   # as the lessons' first cells do
explorer = tangent_explorer(tf.sin)
case_menu = widgets.Dropdown(options=[("a", "a"), ("b", "b"), ("c", "c")], description=t("l03.detective.case"),
                             style={"description_width": "initial"})
fix_box = widgets.Checkbox(value=False, description=t("l03.detective.fix"))
widgets.VBox([explorer.widget, case_menu, fix_box])
'''

_FOCUS_JS = """() => {
    const el = document.activeElement;
    const out = el.closest('.jp-OutputArea-output');
    return out ? {role: el.getAttribute('role') || el.tagName.toLowerCase(), tag: el.tagName.toLowerCase(),
                  type: el.type || null} : null;
}"""


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["ru", "es"])
def test_widgets_work_from_the_keyboard_and_are_named_in_the_students_language(
        lang, jupyterlab, page, run_all_cells, axe_source):
    import nbformat

    from lessons.i18n import t

    folder = jupyterlab.root / "lessons" / lang   # the language comes from the folder, as in class
    folder.mkdir(parents=True)
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(_WIDGET_CELL)])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, folder / "widgets.ipynb")
    page.goto(jupyterlab.url(f"lab/tree/lessons/{lang}/widgets.ipynb"))
    run_all_cells(page)
    page.wait_for_selector(".jp-OutputArea-output .widget-slider")

    # every control has the accessible name the lesson gave it, in the notebook's language
    slider = page.get_by_role("slider", name=t("widgets.tangent.slider", lang))
    menu = page.get_by_role("combobox", name=t("l03.detective.case", lang))
    box = page.get_by_role("checkbox", name=t("l03.detective.fix", lang))
    for control in (slider, menu, box):
        assert control.count() == 1, f"no control named as the lesson names it ({lang})"

    # Tab reaches each control, in order
    page.locator(".widget-slider .widget-label").first.click()   # just before the first control
    reached = []
    for _ in range(8):
        page.keyboard.press("Tab")
        focus = page.evaluate(_FOCUS_JS)
        if focus:
            reached.append(focus["type"] if focus["tag"] == "input" else focus["role"])
    assert [r for r in reached if r in ("slider", "select", "checkbox")][:3] == ["slider", "select", "checkbox"], reached

    # and the keys operate each one
    slider.focus()
    before = slider.get_attribute("aria-valuenow")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("v => document.activeElement.getAttribute('aria-valuenow') !== v", arg=before)
    menu.focus()
    before = menu.input_value()
    page.keyboard.press("ArrowDown")
    if menu.input_value() == before:   # Chromium on Linux opens the list: Enter picks the option
        page.keyboard.press("Enter")
    page.wait_for_function("v => document.activeElement.value !== v", arg=before, timeout=5000)
    box.focus()
    page.keyboard.press("Space")
    assert box.is_checked()
