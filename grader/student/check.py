"""``check`` and ``grade``: what a lesson's test cell calls (the student side's entry point).

``check(id)`` runs the visible checks from data shipped with the package
(:mod:`grader.student.visible`), never reference code; ``grade(id)`` runs every check in this
process and needs the instructor's exercise definitions (``nbgrader validate``). The
autograder uses neither: it scores outside the kernel (:mod:`grader.autograde.scoring`).
"""

from __future__ import annotations

import os

from grader.i18n import t, tn
from grader.student.registry import get as get_exercise
from grader.student.runner import ExerciseResult, caller_namespace, run_exercise

__all__ = ["check", "grade"]


def _show(result: ExerciseResult) -> None:
    try:
        from IPython import get_ipython
        from IPython.display import display
    except ImportError:  # pragma: no cover - IPython is a course dependency
        get_ipython = None
    if get_ipython is not None and get_ipython() is not None:
        display(result)
    else:
        print(result.text())


def _visible_exercise(exercise_id: str):
    """The exercise as students have it: visible cases with their expected answers as data
    (``grader/student/visible_cases.json``), no reference code. An exercise not in the data yet (a
    lesson author's new one) comes from the instructor's definitions when they are here."""
    from grader.student.visible import visible_exercise

    if not isinstance(exercise_id, str):
        raise TypeError(f"an exercise id is a string such as 'l01_ex1', got {exercise_id!r}")
    try:
        return visible_exercise(exercise_id)
    except KeyError:
        return get_exercise(exercise_id)


def check(exercise_id: str, namespace: dict | None = None) -> ExerciseResult:
    """Run the visible checks of ``exercise_id`` on the student's function and return the
    result (shown as a localized HTML report when it is a cell's last expression). The
    expected answers come from data shipped with the package, never from reference code.

    ``namespace`` defaults to the caller's globals (the notebook). Under ``nbgrader validate``
    a failing check raises AssertionError, so that validation reports the exercise.
    """
    ex = _visible_exercise(exercise_id)
    ns = caller_namespace() if namespace is None else namespace
    result = run_exercise(ex, ns, include_hidden=False)
    if os.environ.get("NBGRADER_EXECUTION") == "validate" and not result.passed:
        failed = len(result.failed)
        raise AssertionError(t("report.validate_failed", result.lang, exercise=ex.display_title(result.lang),
                               failed=failed, total=len(result.checks)) + "\n" + result.text())
    return result


def grade(exercise_id: str, namespace: dict | None = None, seed: int | None = None) -> ExerciseResult:
    """Run every check of ``exercise_id`` (visible and randomized hidden ones), in this process.

    Needs the instructor's exercise definitions (``nbgrader validate`` of a source notebook).
    The autograder does not use it: it scores outside the kernel (:mod:`grader.autograde.scoring`).

    Returns the result for partial credit: make ``grade(...)`` the last line of the tests cell,
    so that its score becomes the cell's output. When no check passes, shows the report and
    raises AssertionError (nbgrader then gives the cell 0 and the message stays visible); an
    optional exercise (0 points) never raises: its report is the cell's output either way.
    """
    from grader.student.registry import add_path, course_definitions, definitions_available

    if not definitions_available():
        # `nbgrader validate source/<assignment>/<notebook>.ipynb` in a course folder: the
        # kernel runs in source/<assignment>/, the course's definitions are two levels up
        course = os.path.abspath(os.path.join(os.getcwd(), os.pardir, os.pardir))
        folder = course_definitions(course)
        if os.path.isfile(os.path.join(course, "nbgrader_config.py")) and folder is not None:
            add_path(folder)
    if not definitions_available():
        raise RuntimeError(f"grade({exercise_id!r}) needs the instructor's exercise definitions "
                           "(grader/course/definitions in a source checkout, or a course folder's "
                           "definitions/); a student's install has only the visible checks: "
                           f"use check({exercise_id!r})")
    ex = get_exercise(exercise_id)
    ns = caller_namespace() if namespace is None else namespace
    result = run_exercise(ex, ns, include_hidden=True, seed=seed)
    if result.score <= 0 and not ex.optional:
        _show(result)
        raise AssertionError(tn("report.zero.plural", result.points, result.lang,
                                exercise=ex.display_title(result.lang), points=f"{result.points:g}"))
    return result
