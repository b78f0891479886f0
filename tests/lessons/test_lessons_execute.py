"""Every lesson runs top to bottom in a real kernel (nbclient), once per lesson and variant.

* instructor notebooks (nbgrader source, with solutions): no error in any cell;
* student notebooks (stubs): errors only in exercise cells -- a solution stub's
  NotImplementedError, or the tests cell that calls it.

A lesson's code cells are the same in every language (test_lessons_generated.py,
``test_code_cells_identical_across_languages``; only prose and the stub's comment differ), so each
lesson runs in one language, the languages taken in turn so that every one is run: what differs
by language is the prose, checked by rendering (the generated notebooks and the site), and the
messages, checked in every language at the unit level (the catalogs' tests, and
test_lessons_widgets.py for lesson 1's widget readout and report titles). The kernel finds the
notebook's language from its working directory, as in class; lesson 1's localized outputs are
checked in the language it runs in.
"""

from __future__ import annotations

import pytest

from lessons import LANGS
from lessons.build import instructor_path, student_path
from lessons.execute import execute
from lessons.source import lesson_paths

from figure_checks import figure_problems

NAMES = [p.stem for p in lesson_paths()]
# the languages in turn: lesson 1's instructor notebook in Russian (the language whose words
# differ most from English), lesson 2's in English, ...; each student notebook in the next language
INSTRUCTOR = [(name, LANGS[(i + 3) % len(LANGS)]) for i, name in enumerate(NAMES)]
STUDENT = [(name, LANGS[(i + 4) % len(LANGS)]) for i, name in enumerate(NAMES)]

pytestmark = [pytest.mark.kernel, pytest.mark.slow]


def outputs_text(nb) -> str:
    chunks = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            if "text" in out:
                chunks.append(out["text"])
            for mime in ("text/plain", "text/html", "text/markdown"):
                if mime in out.get("data", {}):
                    chunks.append(str(out["data"][mime]))
    return "\n".join(chunks)


@pytest.mark.parametrize("name, lang", INSTRUCTOR, ids=[f"{n}-{lang}" for n, lang in INSTRUCTOR])
def test_instructor_notebook_executes_without_errors(name, lang):
    run = execute(instructor_path(name, lang))
    assert not run.errors, "\n".join(f"{e.cell_id}: {e.ename}: {e.evalue}" for e in run.errors)
    # every figure it drew carries its description and a colour-vision-safe palette
    assert not figure_problems(run.nb), "\n".join(figure_problems(run.nb))
    # every exercise's hidden grade() produced a score (nbgrader reads it as partial credit)
    for cell in run.nb.cells:
        if cell.metadata.get("nbgrader", {}).get("grade"):
            assert cell.outputs, f"{cell.id}: the tests cell showed nothing"
    if name.startswith("01-"):
        text = outputs_text(run.nb)
        widget_views = [o for c in run.nb.cells for o in c.get("outputs", [])
                        if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]
        assert widget_views, "the tangent explorer did not display a widget"
        images = [o for c in run.nb.cells for o in c.get("outputs", []) if "image/png" in o.get("data", {})]
        assert len(images) >= 2, "expected the matplotlib figures"
        assert "108.0" in text and "6.0" in text  # the persistent tape's two answers
        # the widget's readout and the grader's reports speak the notebook's language, found by
        # the kernel from its working directory
        state = run.nb.metadata.get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {})
        html = [m["state"].get("value", "") for m in state.get("state", {}).values()
                if m.get("model_name") == "HTMLModel"]
        slope_word = {"en": "slope", "es": "pendiente", "pt": "inclinação", "ru": "наклон"}[lang]
        assert any(slope_word in value for value in html), html
        exercise_word = {"en": "Exercise", "es": "Ejercicio", "pt": "Exercício", "ru": "Упражнение"}[lang]
        assert exercise_word in text


@pytest.mark.parametrize("name, lang", STUDENT, ids=[f"{n}-{lang}" for n, lang in STUDENT])
def test_student_notebook_fails_only_in_exercise_cells(name, lang):
    run = execute(student_path(name, lang))
    unexpected = [e for e in run.errors if e.role is None]
    assert not unexpected, "errors outside exercise cells:\n" + "\n".join(
        f"{e.cell_id}: {e.ename}: {e.evalue}" for e in unexpected)
    for e in run.errors:
        if e.role == "solution":
            assert e.ename == "NotImplementedError", f"{e.cell_id}: {e.ename}: {e.evalue}"
