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
