"""Measuring the widgets of an open notebook (issue 16), shared by test_widget_layout.py (the widget
lessons in every language) and test_lessons_in_browser.py (which measures lesson 1 in the
languages it runs in JupyterLab, right after its Run All, so that lesson is not run a second
time in JupyterLab only to be measured).

``widget_layout_problems(page, where)`` waits until the lesson's widgets are rendered, measures:

* every slider's track is at least MIN_TRACK_PX wide (translated button labels beside the stepper's
  slider once squeezed its track to 0-2 px in es and ru);
* every dropdown's box is at least as wide as its longest option's text, measured with the
  select's own font (a translated option was cut off);
* the explanation column of every ``check()`` report is left-aligned and takes most of the table
  (JupyterLab's stylesheet right-aligns table cells and lays columns out at equal widths);

and returns the problems found and how many sliders, dropdowns and reports it measured.
"""

from __future__ import annotations

MIN_TRACK_PX = 150

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


def widget_layout_problems(page, where: str) -> tuple[list[str], dict[str, int]]:
    """On a page whose open notebook has just run all its cells: wait for its widgets, measure them
    and return (problems, {"sliders": n, "dropdowns": n, "reports": n})."""
    panel = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)")
    # widgets render after their cell has run: wait until the lesson's dropdowns or sliders are there
    page.wait_for_function(
        "p => p.querySelectorAll('.jp-OutputArea-output .widget-slider, "
        ".jp-OutputArea-output .widget-dropdown').length > 0",
        arg=panel.element_handle(), timeout=60_000)
    page.wait_for_timeout(300)   # one more layout pass after the last widget arrived
    found = panel.evaluate(_MEASURE_JS)
    problems = [f"{where}: slider {s['label']!r} has a {s['track']:.0f} px track (< {MIN_TRACK_PX})"
                for s in found["sliders"] if s["track"] < MIN_TRACK_PX]
    problems += [f"{where}: dropdown {d['label']!r} shows {d['room']:.0f} px of text, its option "
                 f"{d['longest']!r} needs {d['text']:.0f} px" for d in found["dropdowns"] if d["room"] < d["text"]]
    problems += [f"{where}: check({r['exercise']!r}) explanation column is {r['align']}-aligned, "
                 f"{r['width']:.0f} px ({r['share']:.0%} of the table); its first row: {r['row']}"
                 for r in found["reports"] if r["align"] not in ("left", "start") or r["share"] < 0.4]
    return problems, {key: len(found[key]) for key in ("sliders", "dropdowns", "reports")}
