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

from grader.student.checks import Tolerance, compare, compare_leaf, finite_difference_check
from grader.student.registry import all_exercises, get as get_exercise
from grader.i18n import current_language, set_language, t, tn
from grader.student.runner import CheckResult, ExerciseResult
from grader.student.check import check, grade

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
