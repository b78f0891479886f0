"""Lessons and grader agree: every tests cell names a registered exercise with the same points,
and the solution cell defines the function that exercise grades."""

from __future__ import annotations

import re


def test_exercises_match_the_grader_registry(lessons):
    from grader.student.registry import all_exercises

    registry = all_exercises()
    for lesson in lessons:
        solutions = {c.grade_id: c for c in lesson.code if c.role == "solution"}
        for tests in lesson.exercises:
            assert tests.grade_id in registry, f"{lesson.name}: {tests.grade_id} is not defined in grader/course/definitions"
            ex = registry[tests.grade_id]
            assert float(tests.points) == float(ex.points), \
                f"{tests.grade_id}: tests cell has {tests.points} points, grader says {ex.points}"
            solution = solutions.get(f"{tests.grade_id}_solution")
            assert solution is not None, f"{tests.grade_id}: no solution cell {tests.grade_id}_solution"
            assert re.search(rf"^def {re.escape(ex.function)}\(", solution.source, re.M), \
                f"{tests.grade_id}: the solution cell must define {ex.function}()"
        prefix = f"l{lesson.name[:2]}_"
        registered = sorted(i for i in registry if i.startswith(prefix))
        assert registered == sorted(e.grade_id for e in lesson.exercises), \
            f"{lesson.name}: grader defines {registered}"


# "### Exercise 2 · Title (2 points)", "### Ejercicio 6 (opcional) · Title (1 punto)"
_HEADING = re.compile(r"^###\s+\S+\s+(\d+)(?:\s+\([^)]*\))?\s+·\s+(.*?)\s+\([^()]*\)\s*$", re.M)


def _plain(title: str) -> str:
    """A title as words: markdown emphasis dropped (code spans stay, the report sets them as code)."""
    return re.sub(r"(?<![\w*])\*([^*]+)\*(?![\w*])", r"\1", title).strip()


def test_exercise_headings_and_report_titles_are_the_same_words(lessons):
    """Issue 38: the report named an exercise otherwise than the lesson's heading ("Division and
    cosine for your tape" under "Division and cosine"; "con reset" under "con `reset`"). The report's
    title is the heading, in every language."""
    from lessons import LANGS
    from grader.student.registry import all_exercises

    registry = all_exercises()
    seen = set()
    for lesson in lessons:
        for prose in lesson.prose:
            for lang in LANGS:
                for number, heading in _HEADING.findall(prose.texts.get(lang, "")):
                    ex_id = f"l{lesson.name[:2]}_ex{number}"
                    assert ex_id in registry, (lesson.name, lang, heading)
                    assert _plain(heading) == _plain(registry[ex_id].title[lang]), (ex_id, lang)
                    seen.add((ex_id, lang))
    assert {ex for ex, _ in seen} == set(registry), "every exercise has a heading"
    assert len(seen) == len(registry) * len(LANGS)
