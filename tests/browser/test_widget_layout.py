"""Widgets fit their labels in every language (issue 16): the lessons with a dropdown or the tape
stepper, run in a real JupyterLab in Debian's Chromium in en, es, pt and ru, and measured
(widget_measure.py says what is measured: slider tracks, dropdown boxes, check() report columns).

Which lessons: those whose code builds a dropdown or calls ``stepper(``, found in the lesson
registry (``lessons.source.load_lessons``), so a renumbered or split lesson is still covered.
Lesson 1 in the languages that test_lessons_in_browser.py runs in JupyterLab (LAB_LANGS) is
measured there, right after its Run All: here it would be the same lesson, in the same
language, run a second time only to be measured.

One JupyterLab serves the module (each language gets its own lessons/<lang>/ folder, each
lesson a fresh kernel, shut down when it has been measured), and one page per language opens
the lessons one after another: the previous notebook is closed first, so what is measured is
the open lesson's own widgets, rendered by its own Run All.
Screenshots: test-artifacts/browser/widget-layout-<lesson>-<lang>.png.
"""

from __future__ import annotations

import functools
import re
import shutil

import pytest
from conftest import jupyterlab_server
from test_lessons_in_browser import LAB_LANGS, LESSON
from widget_measure import widget_layout_problems

from lessons import LANGS
from lessons.build import student_path
from lessons.source import load_lessons

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WIDGET_CODE = re.compile(r"(^|[^\w.])stepper\(|widgets\.Dropdown\(", re.MULTILINE)


@functools.cache
def _widget_lessons() -> tuple[str, ...]:
    """The lessons that build a dropdown or a stepper (read once per process: parsing every
    lesson source costs about half a second)."""
    return tuple(lesson.name for lesson in load_lessons()
                 if any(WIDGET_CODE.search(cell.source) for cell in lesson.code))


@pytest.fixture(scope="module")
def module_jupyterlab(tmp_path_factory):
    """One JupyterLab for this module's tests (they write only below lessons/<lang>/)."""
    tmp = tmp_path_factory.mktemp("widget-layout")
    root = tmp / "lab-root"
    root.mkdir()
    with jupyterlab_server(root, tmp) as lab:
        yield lab


# Close the open notebook without asking to save it (Run All left it modified) and shut its
# kernel down, then open the next lesson in its place.
_OPEN_NEXT_JS = """async path => {
    const app = window.jupyterapp, w = app.shell.currentWidget;
    await w.sessionContext.shutdown();
    w.dispose();
    await app.commands.execute('docmanager:open', {path, factory: 'Notebook'});
    return document.querySelectorAll('.jp-NotebookPanel').length;
}"""


def test_widget_lessons_include_lesson_1() -> None:
    """Lesson 1 builds the stepper, so skipping it here for LAB_LANGS is covered by
    test_lessons_in_browser.py's measurement of it, not lost."""
    assert LESSON in _widget_lessons()


@pytest.mark.parametrize("lang", LANGS)
def test_widgets_fit_their_labels(lang, module_jupyterlab, browser, run_all_cells, screenshot) -> None:
    names = [name for name in _widget_lessons() if not (lang in LAB_LANGS and name == LESSON)]
    assert names, "no lesson builds a dropdown or a stepper: has the lesson registry moved?"
    lab = module_jupyterlab
    folder = lab.root / "lessons" / lang
    folder.mkdir(parents=True)
    problems, seen = [], {"sliders": 0, "dropdowns": 0, "reports": 0}
    context = browser.new_context(viewport={"width": 1366, "height": 900}, locale="en-US")
    page = context.new_page()
    try:
        for n, name in enumerate(names):
            source = student_path(name, lang)
            shutil.copy(source, folder / source.name)   # a copy: autosave never touches the repo
            path = f"lessons/{lang}/{source.name}"
            if n == 0:
                # a workspace of its own: JupyterLab would otherwise reopen another language's lesson
                page.goto(lab.url(f"lab/workspaces/widget-layout-{lang}/tree/{path}"))
            else:
                panels = page.evaluate(_OPEN_NEXT_JS, path)
                assert panels == 1, f"{panels} notebooks open after opening {path}"
            state = run_all_cells(page)
            # what ran is this lesson (the notebook in view, its kernel started in its folder)
            assert page.evaluate("() => window.jupyterapp.shell.currentWidget.context.path") == path
            assert not [p for p in state["problems"] if "Error" in p], state["problems"]
            found, counts = widget_layout_problems(page, f"{name} [{lang}]")
            problems += found
            for key in seen:
                seen[key] += counts[key]
            screenshot(page, f"widget-layout-{name}-{lang}")
        page.evaluate("() => window.jupyterapp.shell.currentWidget.sessionContext.shutdown()")
    finally:
        context.close()
    assert not problems, "\n".join(problems)
    # the lessons measured hold the stepper's slider, the detective's dropdown and check reports
    assert all(seen.values()), seen
