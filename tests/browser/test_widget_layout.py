"""Widgets fit their labels in every language (issue 16): the lessons with a dropdown or the tape
stepper, run in a real JupyterLab in Debian's Chromium in en, es, pt and ru, and measured.

* every slider's track is at least MIN_TRACK_PX wide (translated button labels beside the stepper's
  slider once squeezed its track to 0-2 px in es and ru);
* every dropdown's box is at least as wide as its longest option's text, measured with the
  select's own font (a translated option was cut off);
* the explanation column of every ``check()`` report is left-aligned and takes most of the table
  (JupyterLab's stylesheet right-aligns table cells and lays columns out at equal widths).

Which lessons: those whose code builds a dropdown or calls ``stepper(``, found in the lesson
registry (``lessons.source.load_lessons``), so a renumbered or split lesson is still covered.
Screenshots: test-artifacts/browser/widget-layout-<lesson>-<lang>.png.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from lessons import LANGS
from lessons.build import student_path
from lessons.source import load_lessons

pytestmark = [pytest.mark.browser, pytest.mark.slow]

MIN_TRACK_PX = 150
WIDGET_CODE = re.compile(r"(^|[^\w.])stepper\(|widgets\.Dropdown\(", re.MULTILINE)


def _widget_lessons() -> list[str]:
    return [lesson.name for lesson in load_lessons()
            if any(WIDGET_CODE.search(cell.source) for cell in lesson.code)]


# Every slider and dropdown in the open notebook, and the explanation cell of every check() report.
_MEASURE_JS = """panel => {
    const canvas = document.createElement('canvas').getContext('2d');
    const px = v => parseFloat(v) || 0;
    const label = el => (el.querySelector('.widget-label') || {}).textContent || '';
    const sliders = [...panel.querySelectorAll('.jp-OutputArea-output .widget-slider')].map(s => {
        const track = s.querySelector('.noUi-target') || s.querySelector('.slider-container');
        return {label: label(s), track: track ? track.getBoundingClientRect().width : 0};
    });
    const dropdowns = [...panel.querySelectorAll('.jp-OutputArea-output .widget-dropdown select')].map(sel => {
        const style = getComputedStyle(sel);
        canvas.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const texts = [...sel.options].map(o => o.text);
        const longest = texts.reduce((a, b) => canvas.measureText(b).width > canvas.measureText(a).width ? b : a, '');
        return {label: label(sel.parentElement), longest,
                text: canvas.measureText(longest).width,
                room: sel.clientWidth - px(style.paddingLeft) - px(style.paddingRight)};
    });
    const reports = [...panel.querySelectorAll('.grader-report')].map(r => {
        const td = r.querySelector('table tr:nth-child(2) > td:nth-child(3)');
        if (!td) return {exercise: r.dataset.exercise, align: null, share: 0, width: 0};
        const table = td.closest('table').getBoundingClientRect().width;
        const width = td.getBoundingClientRect().width;
        return {exercise: r.dataset.exercise, align: getComputedStyle(td).textAlign, share: width / table, width,
                row: [...td.parentElement.children].map(
                    c => `${Math.round(c.getBoundingClientRect().width)} px: ${c.textContent.trim().slice(0, 60)}`)};
    });
    return {sliders, dropdowns, reports};
}"""


@pytest.mark.parametrize("lang", LANGS)
def test_widgets_fit_their_labels(lang, jupyterlab, browser, run_all_cells, screenshot) -> None:
    names = _widget_lessons()
    assert names, "no lesson builds a dropdown or a stepper: has the lesson registry moved?"
    folder = jupyterlab.root / "lessons" / lang
    folder.mkdir(parents=True)
    problems, seen = [], {"sliders": 0, "dropdowns": 0, "reports": 0}
    for name in names:
        source = student_path(name, lang)
        shutil.copy(source, folder / source.name)   # a copy: autosave never touches the repo
        context = browser.new_context(viewport={"width": 1366, "height": 900}, locale="en-US")
        page = context.new_page()     # one page per lesson: nothing asks to save the one before
        # a workspace of its own: JupyterLab would otherwise reopen the lesson before beside this one
        page.goto(jupyterlab.url(f"lab/workspaces/{name}/tree/lessons/{lang}/{source.name}"))
        state = run_all_cells(page)
        assert not [p for p in state["problems"] if "Error" in p], state["problems"]
        panel = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)")
        # widgets render after their cell has run: wait until the lesson's dropdowns or sliders are there
        page.wait_for_function(
            "p => p.querySelectorAll('.jp-OutputArea-output .widget-slider, "
            ".jp-OutputArea-output .widget-dropdown').length > 0",
            arg=panel.element_handle(), timeout=60_000)
        page.wait_for_timeout(300)   # one more layout pass after the last widget arrived
        found = panel.evaluate(_MEASURE_JS)
        for key in seen:
            seen[key] += len(found[key])
        where = f"{name} [{lang}]"
        problems += [f"{where}: slider {s['label']!r} has a {s['track']:.0f} px track (< {MIN_TRACK_PX})"
                     for s in found["sliders"] if s["track"] < MIN_TRACK_PX]
        problems += [f"{where}: dropdown {d['label']!r} shows {d['room']:.0f} px of text, its option "
                     f"{d['longest']!r} needs {d['text']:.0f} px" for d in found["dropdowns"] if d["room"] < d["text"]]
        problems += [f"{where}: check({r['exercise']!r}) explanation column is {r['align']}-aligned, "
                     f"{r['width']:.0f} px ({r['share']:.0%} of the table); its first row: {r['row']}"
                     for r in found["reports"] if r["align"] not in ("left", "start") or r["share"] < 0.4]
        screenshot(page, f"widget-layout-{name}-{lang}")
        context.close()
    assert not problems, "\n".join(problems)
    # the lessons measured hold the stepper's slider, the detective's dropdown and check reports
    assert all(seen.values()), seen
