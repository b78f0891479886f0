"""grader: gradient exercises checked against reference gradients, for students and nbgrader.

In a lesson notebook (the tests cell of exercise ``l01_ex1``)::

    from grader import check, grade

    check("l01_ex1")          # visible checks, instant localized HTML report
    ### BEGIN HIDDEN TESTS
    grade("l01_ex1")          # all checks incl. randomized hidden ones; must be the last line
    ### END HIDDEN TESTS

``check`` never runs or reveals hidden checks; it says how many run at grading time.
``grade`` returns the result, whose ``text/plain`` under nbgrader is the score in points
(nbgrader's partial credit: a test cell's execute_result is its score), and raises
AssertionError with the localized report when no check passes.

Instructors: ``python -m grader --help`` (parallel autograde, export, course checks) and
``grader/README.md``.
"""

from __future__ import annotations

import os

from .checks import Tolerance, compare, compare_leaf, finite_difference_check
from .exercises import all_exercises, get as get_exercise
from .i18n import current_language, set_language, t, tn
from .runner import CheckResult, ExerciseResult, caller_namespace, run_exercise

__all__ = [
    "CheckResult",
    "ExerciseResult",
    "Tolerance",
    "all_exercises",
    "check",
    "compare",
    "compare_leaf",
    "current_language",
    "finite_difference_check",
    "get_exercise",
    "grade",
    "set_language",
]


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
    (``grader/visible_cases.json``), no reference code. An exercise not in the data yet (a
    lesson author's new one) comes from the instructor's definitions when they are here."""
    from .visible import visible_exercise

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
    The autograder does not use it: it scores outside the kernel (:mod:`grader.scoring`).

    Returns the result for partial credit: make ``grade(...)`` the last line of the tests cell,
    so that its score becomes the cell's output. When no check passes, shows the report and
    raises AssertionError (nbgrader then gives the cell 0 and the message stays visible).
    """
    from .exercises import add_path, definitions_available

    if not definitions_available():
        # `nbgrader validate source/<assignment>/<notebook>.ipynb` in a course folder: the
        # kernel runs in source/<assignment>/, the course's definitions are two levels up
        course = os.path.abspath(os.path.join(os.getcwd(), os.pardir, os.pardir))
        if (os.path.isfile(os.path.join(course, "nbgrader_config.py"))
                and os.path.isdir(os.path.join(course, "exercises"))):
            add_path(os.path.join(course, "exercises"))
    if not definitions_available():
        raise RuntimeError(f"grade({exercise_id!r}) needs the instructor's exercise definitions "
                           "(grader/course/exercises in a source checkout, or a course folder's "
                           "exercises/); a student's install has only the visible checks: "
                           f"use check({exercise_id!r})")
    ex = get_exercise(exercise_id)
    ns = caller_namespace() if namespace is None else namespace
    result = run_exercise(ex, ns, include_hidden=True, seed=seed)
    if result.score <= 0:
        _show(result)
        raise AssertionError(tn("report.zero.plural", result.points, result.lang,
                                exercise=ex.display_title(result.lang), points=f"{result.points:g}"))
    return result
