"""The exercise registry: what each graded exercise asks for and how it is checked.

An :class:`Exercise` (``grade_id`` such as ``l01_ex1``, identical in every language) declares

* ``function``: the name of the function the student defines in the notebook;
* ``reference``: the reference solution, written with minitape, same signature;
* ``visible``: :class:`Case` s at fixed points, run by ``check(id)`` in the notebook;
* ``hidden``: :class:`Case` s at randomized points, run only by ``grade(id)`` at grading time,
  so an answer hard-coded to the visible values fails them;
* ``objective(values, inputs)`` + ``gradient_names`` (optional): the exercise's scalar
  function re-written in NumPy (``values``: name -> float64 array of the differentiable inputs,
  ``inputs``: the case's :class:`Inputs` for the rest), for an independent central
  finite-difference check along a random direction; ``gradient_names`` has the structure of
  the answer with names of ``values`` as leaves;
* ``points`` (the nbgrader points of the tests cell) and ``tolerance``; an ``optional`` exercise
  (its statement says so) has 0 points: every check runs and is reported, at home and in the
  feedback, but nothing counts towards the grade, and nbgrader's totals leave it out;
* ``title``: the exercise's name in every language, the header of the student's report;
* ``compares`` (one of :data:`grader.student.checks.KINDS`, or a structure like the answer's with one
  per part): what the answer is -- gradients, a Hessian, a loss curve, parameters after a
  step -- so that the report says what matched ("Matches the reference losses"), never
  "gradient" for something else;
* ``components`` (a structure like the answer's, with a label as each leaf): the names the
  report gives the parts of a nested answer (``dL/dw`` rather than ``[0]``); written in math
  or code (``dL/dw``, ``log1pexp(x)``), the same in every language.

A case's ``make(rng)`` builds *fresh* inputs (new Variables each call), so the reference and
the student's function never share mutable state; both get inputs built from the same seed.

Exercises live in one module per lesson (``l01.py``, ...), imported on first use. Those
modules hold the reference solutions and the hidden cases, so they are *instructor material*:
they live in ``grader/course/definitions/`` of a source checkout (never in the wheel or sdist)
and in the ``definitions/`` folder of a course made by ``python -m grader init-course``, whose
``nbgrader_config.py`` adds it with :func:`add_path`. What students install has only the
visible cases' inputs and expected values, as data (:mod:`grader.student.visible`), which is all that
``check`` uses.
"""

from __future__ import annotations

import difflib
import importlib
import os
import pkgutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np

from grader.student.checks import KINDS, Tolerance, flatten_with_paths

__all__ = ["Case", "Exercise", "Inputs", "all_exercises", "get", "register"]


@dataclass
class Inputs:
    """Arguments for one call, plus float64 copies of the differentiable inputs (for FD)."""

    args: tuple = ()
    kwargs: dict = field(default_factory=dict)
    values: dict[str, np.ndarray] = field(default_factory=dict)
    extra: dict = field(default_factory=dict)  # anything else the NumPy objective needs


@dataclass
class Case:
    """One point at which the student's function is compared with the reference."""

    make: Callable[[np.random.Generator], Inputs]
    # shown for visible cases: "x = 1.5", or {"en": ..., "es": ...}; hidden ones are numbered
    label: str | dict[str, str] | None = None
    weight: float = 1.0
    # the reference answer at this case, when it is known as data (visible cases as shipped to
    # students, grader.student.visible); otherwise the exercise's reference computes it
    expected: Any = None
    # the answers of the exercise's declared mistake patterns at this case, when known as data
    # (visible cases as shipped to students): pattern name -> answer (grader.student.mistakes)
    mistake_answers: dict | None = None


ABSENT_TOOLS = ("autodiff",)  # what Exercise.absent may name (grader.infra.worlds.WORLDS' tools)


@dataclass
class Exercise:
    id: str
    function: str
    points: float
    reference: Callable[..., Any]
    visible: list[Case]
    hidden: list[Case]
    objective: Callable[[dict[str, np.ndarray], Inputs], float] | None = None
    gradient_names: Any = None
    fd_checks: int = 1
    fd_weight: float = 1.0
    tolerance: Tolerance = field(default_factory=Tolerance)
    # the precision the answers are compared at: float32's tolerance for every exercise (the one
    # rule, grader.student.checks); "float64" only for an exercise whose subject is precision,
    # which its statement then says. It chooses the tolerance, whatever dtype the answer has.
    precision: str = "float32"
    # what the answer must (or must not) use, checked by the autograder (grader.autograde.technique)
    techniques: tuple = ()
    # tools the graded values must be computed without ("autodiff": minitape's automatic
    # differentiation, lesson 7): at grading time the probes run in a kernel whose minitape
    # does not have them (grader.infra.worlds), and check() calls the function with them off
    absent: tuple = ()
    # how many hidden checks grading adds, for exercises known only from data (no hidden cases)
    hidden_checks: int | None = None
    # whether those draw their inputs at random, for exercises known only from data
    hidden_random: bool | None = None
    signature: str = ""
    title: dict[str, str] = field(default_factory=dict)
    compares: Any = "gradient"
    components: Any = None
    # mistakes this exercise knows (grader.student.mistakes.Pattern), classified before the generic ones
    mistakes: tuple = ()
    # an optional exercise: checked and reported like any other, worth 0 points (its tests cell
    # too), so that the grade and nbgrader's totals leave it out
    optional: bool = False

    def __post_init__(self):
        if not self.id.isascii() or not self.id.replace("_", "").isalnum() or not self.id[0].isalpha():
            raise ValueError(f"exercise id {self.id!r} must be ASCII: a letter, then letters, "
                             "digits or '_'")
        if self.optional and self.points != 0:
            raise ValueError(f"exercise {self.id}: an optional exercise is worth 0 points")
        if not self.optional and self.points <= 0:
            raise ValueError(f"exercise {self.id}: points must be > 0 (0 only for an optional exercise)")
        if not self.visible:
            raise ValueError(f"exercise {self.id}: needs at least one visible case")
        if self.precision not in ("float16", "float32", "float64"):
            raise ValueError(f"exercise {self.id}: precision must be float16, float32 or float64")
        kinds = [self.compares] if isinstance(self.compares, str) else \
            [k for _, k in flatten_with_paths(self.compares)]
        if not kinds or any(k not in KINDS for k in kinds):
            raise ValueError(f"exercise {self.id}: compares must be one of {', '.join(KINDS)} "
                             f"(or a structure of them like the answer's), got {self.compares!r}")
        if self.components is not None and isinstance(self.components, str):
            raise ValueError(f"exercise {self.id}: components names the parts of a nested answer "
                             "(a list or dict like the answer); a single answer needs none")
        if not isinstance(self.absent, tuple) or any(a not in ABSENT_TOOLS for a in self.absent):
            raise ValueError(f"exercise {self.id}: absent must be a tuple of "
                             f"{', '.join(ABSENT_TOOLS)}, got {self.absent!r}")
        if self.objective is not None and self.gradient_names is None:
            raise ValueError(f"exercise {self.id}: a finite-difference objective needs "
                             "gradient_names")

    @property
    def total_weight(self) -> float:
        """Sum of all check weights: visible + hidden cases + finite-difference checks."""
        fd = self.fd_weight * min(self.fd_checks, len(self.hidden)) if self.has_fd else 0.0
        return sum(c.weight for c in self.visible) + sum(c.weight for c in self.hidden) + fd

    @property
    def hidden_check_count(self) -> int:
        """Hidden checks at grading time: hidden cases plus finite-difference checks."""
        if self.hidden_checks is not None:
            return self.hidden_checks
        n_fd = min(self.fd_checks, len(self.hidden)) if self.has_fd else 0
        return len(self.hidden) + n_fd

    @property
    def technique_weight(self) -> float:
        """Weight of one technique check: the value checks together weigh twice all of them."""
        if not self.techniques:
            return 0.0
        return self.total_weight / 2 / len(self.techniques)

    @property
    def has_fd(self) -> bool:
        return self.objective is not None

    def display_title(self, lang: str) -> str:
        """The exercise's name in ``lang`` (English, else its id, where it has none)."""
        return self.title.get(lang) or self.title.get("en") or self.id

    @property
    def hidden_at_random(self) -> bool:
        """Whether the hidden checks draw their inputs at random (else they are named cases,
        such as the snippets of l03_ex5, and the report says so)."""
        if self.hidden_random is not None:
            return self.hidden_random
        return not self.hidden or not all(case.label for case in self.hidden)

    def component_label(self, path: str) -> str:
        """The name of the answer's part at ``path`` (``"[0]"`` -> ``"dL/dw"``), or ``path``."""
        if not path or self.components is None:
            return path
        label = dict(flatten_with_paths(self.components)).get(path)
        return label if isinstance(label, str) and label else path


_REGISTRY: dict[str, Exercise] = {}
_loaded = False
# a source checkout's instructor material (absent from the wheel and the sdist)
_CHECKOUT_DEFINITIONS = Path(__file__).resolve().parents[2] / "course" / "definitions"


# the folder of a course (next to its nbgrader_config.py) that holds the exercise definitions;
# course folders made before the grader was arranged in layers call it exercises/
COURSE_DEFINITIONS = ("definitions", "exercises")


def course_definitions(course_dir: str | os.PathLike) -> str | None:
    """The exercise definitions' folder of the course in ``course_dir``, or None."""
    for name in COURSE_DEFINITIONS:
        folder = os.path.join(os.fspath(course_dir), name)
        if os.path.isdir(folder):
            return folder
    return None


def add_path(folder: str | os.PathLike) -> None:
    """Also load exercise definitions (``lNN.py``) from ``folder`` (a course's ``definitions/``)."""
    global _loaded
    folder = os.path.abspath(os.fspath(folder))
    if not os.path.isdir(folder):
        raise FileNotFoundError(f"no exercise definitions folder {folder}")
    if folder not in __path__:
        __path__.append(folder)
        _loaded = False


def definitions_available() -> bool:
    """Whether the instructor's definitions (references, hidden cases) can be loaded here."""
    return any(info.name[:1] == "l" for info in pkgutil.iter_modules(__path__))


if _CHECKOUT_DEFINITIONS.is_dir():
    add_path(_CHECKOUT_DEFINITIONS)
if os.environ.get("GRADER_EXERCISES"):
    add_path(os.environ["GRADER_EXERCISES"])


def register(exercise: Exercise) -> Exercise:
    """Add an exercise; its id may be registered only once."""
    if exercise.id in _REGISTRY and _REGISTRY[exercise.id] is not exercise:
        raise ValueError(f"exercise {exercise.id!r} is already registered")
    _REGISTRY[exercise.id] = exercise
    return exercise


def _load_all() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if not info.name.startswith("_"):
            importlib.import_module(f"{__name__}.{info.name}")


def all_exercises() -> dict[str, Exercise]:
    """Every registered exercise, by id (the instructor's definitions; empty without them)."""
    _load_all()
    return dict(sorted(_REGISTRY.items()))


def get(exercise_id: str) -> Exercise:
    """The exercise ``exercise_id``; KeyError naming the closest ids when it does not exist."""
    if not isinstance(exercise_id, str):
        raise TypeError(f"an exercise id is a string such as 'l01_ex1', got {exercise_id!r}")
    _load_all()
    try:
        return _REGISTRY[exercise_id]
    except KeyError:
        close = difflib.get_close_matches(exercise_id, list(_REGISTRY), n=3)
        hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
        raise KeyError(f"unknown exercise {exercise_id!r}{hint} "
                       f"(known: {', '.join(sorted(_REGISTRY)) or 'none'})") from None
