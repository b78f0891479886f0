"""Lesson 1 as a student meets it, in a real JupyterLab in Debian's Chromium
(issue 6): every cell runs without an error or stderr output, the tangent explorer's slider moves
under the keyboard and its readout and plot follow, and a `check(...)` cell answers in the lesson's
language, first for the unfilled stub and then, after the solution is typed in, with a pass.

The student notebook lessons/<lang>/01-gradients.ipynb is copied to
<lab_root>/lessons/<lang>/01-gradients.ipynb (the layout `make lab` serves), so the kernel finds
the language from its path the way it does for students (lessons.i18n; the harness removes
MINITAPE_LANG). Right after its Run All, its widgets are measured as test_widget_layout.py measures
every widget lesson (widget_measure.py; that test leaves lesson 1 in these languages to this one).
Screenshots: test-artifacts/browser/lesson01-<lang>-{widget,check}.png and
widget-layout-01-gradients-<lang>.png.

The workflow is the same in every language and the lesson's code is too
(tests/lessons/test_lessons_generated.py); what a language changes, its words, is checked in all
four at the unit level. So each language goes through a real browser once: English and Spanish
here (LAB_LANGS), Portuguese and Russian in JupyterLite (test_lite.py, LITE_LANGS).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import nbformat
import pytest

from grader.i18n import t as grader_t
from lessons.i18n import t as lessons_t
from lessons.widgets import tangent_at
from widget_measure import widget_layout_problems

pytestmark = [pytest.mark.browser, pytest.mark.slow]

REPO = Path(__file__).resolve().parents[2]
LESSON = "01-gradients"
LAB_LANGS = ("en", "es")
EXERCISE = "l01_ex1"

# The DOM side of "no unexpected error output" (the cell models are checked by notebook_state):
# stderr outputs (JupyterLab 4 renders a traceback with the stderr MIME type too; the other two
# selectors cover other renderings of an error), and ipywidgets' placeholder for a widget that
# failed to render.
ERROR_OUTPUT = (".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr'], "
                ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.error'], "
                ".jp-OutputArea-output.jp-mod-error")

KERNEL_IDLE = "() => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.status === 'idle'"


def _cell_index(nb, grade_id: str) -> int:
    return next(i for i, c in enumerate(nb.cells)
                if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id)


def _solution(lang: str, grade_id: str) -> str:
    """The instructor notebook's solution cell, as a student would type it (no nbgrader markers)."""
    nb = nbformat.read(REPO / "grader" / "course" / "source" / f"{LESSON}-{lang}" / f"{LESSON}.ipynb",
                       as_version=4)
    source = nb.cells[_cell_index(nb, grade_id)].source
    return "\n".join(line for line in source.splitlines()
                     if line.strip() not in {"### BEGIN SOLUTION", "### END SOLUTION"}) + "\n"


def _tangent_function(x):
    return x**3 - 3 * x          # the lesson's tangent_explorer(lambda x: x**3 - 3 * x, ...)


def _expected_readout(lang: str, x0: float) -> str:
    value, slope = tangent_at(_tangent_function, x0)
    return lessons_t("widgets.tangent.readout", lang, x=f"{x0:.2f}", y=f"{value:.4g}", slope=f"{slope:.4g}")


def _template(text: str) -> re.Pattern:
    """A catalog message with its {placeholders} matching any number, and any space matching a
    no-break space too (the typographer ties a filled-in number to the word after it: «2\u00a0из\u00a02»)."""
    pattern = re.sub(r"\\\{\w+\\\}", r"\\d+", re.escape(text))
    return re.compile(re.sub(r"\\ |\u00a0", lambda m: "[ \u00a0]", pattern))


def _assert_no_error_output(page, state: dict, when: str) -> None:
    assert state["problems"] == [], f"error or stderr output {when}:\n" + "\n".join(state["problems"])
    panel = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)")
    shown = panel.locator(ERROR_OUTPUT)
    assert shown.count() == 0, f"error output shown {when}: {shown.all_inner_texts()}"
    broken = panel.get_by_text("Error displaying widget")
    assert broken.count() == 0, f"a widget failed to render {when}"


@pytest.mark.parametrize("lang", LAB_LANGS)
def test_lesson_01_runs_with_widget_and_check_in_jupyterlab(lang, jupyterlab, page, run_all_cells,
                                                            notebook_state, screenshot) -> None:
    source = REPO / "lessons" / lang / f"{LESSON}.ipynb"
    folder = jupyterlab.root / "lessons" / lang
    folder.mkdir(parents=True)
    shutil.copy(source, folder / source.name)        # a copy: autosave never touches the repo
    page.goto(jupyterlab.url(f"lab/tree/lessons/{lang}/{source.name}"))
    work_through_lesson_01(page, lang, run_all_cells=run_all_cells, notebook_state=notebook_state,
                           screenshot=screenshot, shot_prefix="lesson01", slider="keyboard",
                           measure_widgets=True)


def _move_slider(page, explorer, how: str) -> None:
    """Move the tangent explorer's slider to the right: by keyboard (JupyterLab gives the focused
    handle the arrow keys) or by dragging the handle (JupyterLite's notebook takes the arrow keys)."""
    handle = explorer.locator(".noUi-handle")
    if how == "keyboard":
        handle.focus()
        for _ in range(5):
            page.keyboard.press("ArrowRight")
    elif how == "mouse":
        box = handle.bounding_box()
        track = explorer.locator(".widget-slider .noUi-target").bounding_box()
        assert box and track, "the slider is not on screen"
        y = box["y"] + box["height"] / 2
        page.mouse.move(box["x"] + box["width"] / 2, y)
        page.mouse.down()
        # an eighth of the track to the right, in steps, as a hand would drag it
        page.mouse.move(box["x"] + box["width"] / 2 + track["width"] / 8, y, steps=8)
        page.mouse.up()
    else:
        raise ValueError(f"slider move {how!r}: expected 'keyboard' or 'mouse'")


def work_through_lesson_01(page, lang: str, *, run_all_cells, notebook_state, screenshot, shot_prefix: str,
                           slider: str, measure_widgets: bool = False) -> None:
    """Lesson 1 as a student meets it, on a page that has just opened lessons/<lang>/01-gradients:
    Run All without error output, the slider moves and the kernel's readout and plot follow, the
    stub's check() fails and, once the solution is typed in, passes, in the lesson's language.
    Shared by the JupyterLab test here and the JupyterLite one (test_lite.py).

    measure_widgets: right after Run All (before anything is moved or typed), measure the
    widgets' layout as test_widget_layout.py does and fail on any problem it finds."""
    source = REPO / "lessons" / lang / f"{LESSON}.ipynb"
    nb = nbformat.read(source, as_version=4)
    solution_cell, check_cell = _cell_index(nb, f"{EXERCISE}_solution"), _cell_index(nb, EXERCISE)
    assert nb.cells[check_cell].source.strip().endswith(f'check("{EXERCISE}")')

    state = run_all_cells(page)
    _assert_no_error_output(page, state, "after Run All Cells")
    panel = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)")
    cells = panel.locator(".jp-Notebook .jp-Cell")
    assert cells.count() == len(nb.cells)
    if measure_widgets:
        problems, counts = widget_layout_problems(page, f"{LESSON} [{lang}]")
        screenshot(page, f"widget-layout-{LESSON}-{lang}")
        assert not problems, "\n".join(problems)
        # what lesson 1 holds: the stepper's and the tangent explorer's sliders, the stub's check report
        assert counts["sliders"] >= 2 and counts["reports"] >= 1, counts

    # --- the tangent explorer: the slider moves, the readout and the plot follow ------------------
    # (the lesson has two sliders since the backward pass by hand: the tape stepper's, and this)
    explorer = panel.locator(".jp-OutputArea-output .widget-vbox").filter(
        has=page.locator(".widget-slider .widget-label",
                         has_text=lessons_t("widgets.tangent.slider", lang)))
    explorer.first.wait_for(timeout=60_000)
    assert explorer.count() == 1
    slider_value = explorer.locator(".widget-slider .widget-readout")
    readout = explorer.locator(".widget-html-content")
    image = explorer.locator("img")
    assert explorer.locator(".widget-label").first.inner_text().strip() == lessons_t(
        "widgets.tangent.slider", lang)
    assert slider_value.inner_text().strip() == "1.50"
    assert readout.inner_text().strip() == _expected_readout(lang, 1.5)
    image_before = image.get_attribute("src")
    assert image_before and image_before.startswith(("blob:", "data:")), image_before

    explorer.scroll_into_view_if_needed()
    _move_slider(page, explorer, slider)
    # continuous_update=False: the value reaches the kernel when the move ends, and the
    # kernel's tape recomputes f and f' and sends back the new readout and plot
    page.wait_for_function("([el, before]) => el.textContent.trim() !== before",
                           arg=[readout.element_handle(), _expected_readout(lang, 1.5)], timeout=30_000)
    moved = float(slider_value.inner_text().strip())
    assert 1.5 < moved <= 2.5
    page.wait_for_function("([el, text]) => el.textContent.trim() === text",
                           arg=[readout.element_handle(), _expected_readout(lang, moved)], timeout=30_000)
    page.wait_for_function("([img, before]) => img.getAttribute('src') !== before",
                           arg=[image.element_handle(), image_before], timeout=30_000)
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=image.element_handle(),
                           timeout=30_000)
    page.wait_for_function(KERNEL_IDLE, timeout=30_000)
    _assert_no_error_output(page, notebook_state(page), "after moving the slider")
    screenshot(page, f"{shot_prefix}-{lang}-widget")

    # --- check(...): the unfilled stub fails, in the lesson's language ----------------------------
    report = cells.nth(check_cell).locator(".grader-report")
    assert report.count() == 1, f"no grader report under cell #{check_cell}"
    from grader.student.visible import visible_exercise

    # the header names the exercise by its title in the notebook's language, then its id
    title = f"{grader_t('report.title', lang, exercise=visible_exercise(EXERCISE).display_title(lang))} ({EXERCISE})"
    text = report.inner_text()
    assert title in text, text
    assert _template(grader_t("report.some_failed", lang)).search(text), text
    # the explanation column is left-aligned and takes the room the table has (JupyterLab's own
    # stylesheet right-aligns table cells and lays columns out at equal widths)
    align, share = report.locator("td").nth(2).evaluate(
        "td => [getComputedStyle(td).textAlign, td.getBoundingClientRect().width / "
        "td.closest('table').getBoundingClientRect().width]")
    assert align in ("left", "start") and share > 0.4, (align, share)

    # --- the student types the solution and runs the two cells: the check passes ------------------
    editor = cells.nth(solution_cell).locator(".cm-content")
    editor.scroll_into_view_if_needed()
    editor.click()
    page.keyboard.press("Control+a")
    solution = _solution(lang, f"{EXERCISE}_solution")
    assert "tape.gradient" in solution and "NotImplementedError" not in solution, solution
    page.keyboard.insert_text(solution)
    typed = page.evaluate(f"() => window.jupyterapp.shell.currentWidget.content.widgets[{solution_cell}]"
                          ".model.sharedModel.getSource()")
    assert typed.strip() == solution.strip(), typed     # replaced the stub, indentation intact
    page.keyboard.press("Shift+Enter")            # runs the solution, selects the check cell
    page.keyboard.press("Shift+Enter")            # runs check("l01_ex1")
    passed = grader_t("report.all_visible_passed", lang)
    try:
        report.filter(has_text=passed).wait_for(timeout=60_000)
    except Exception:
        pytest.fail(f"check({EXERCISE!r}) did not pass after the solution was typed in: "
                    f"{report.all_inner_texts()}\n{notebook_state(page)}")
    text = report.inner_text()
    assert title in text and _template(grader_t("report.visible_score", lang)).search(text), text
    assert "✘" not in text, text
    page.wait_for_function(KERNEL_IDLE, timeout=30_000)
    _assert_no_error_output(page, notebook_state(page), "after the check")
    report.scroll_into_view_if_needed()
    shot = screenshot(page, f"{shot_prefix}-{lang}-check")
    assert shot.stat().st_size > 10_000
