"""Running an exercise's checks against the student's function.

:func:`run_exercise` calls the student's function and the reference solution on the same
inputs (visible cases; hidden cases too when grading), compares the answers leaf by leaf with
:mod:`grader.student.checks`, explains None answers with :mod:`grader.student.diagnose`, adds the
finite-difference checks, and returns an :class:`ExerciseResult` with one
:class:`CheckResult` per compared gradient.  Output the student's code prints (stdout, stderr,
warnings) while being checked is captured and shown in the report, never written to the
cell's stderr (nbgrader would zero the cell).
"""

from __future__ import annotations

import contextlib
import io
import math
import os
import secrets
import sys
import tempfile
import traceback
import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from grader.student.checks import FDOutcome, compare, finite_difference_check, flatten_with_paths, to_array
from grader.student.absent import without
from grader.student.diagnose import GradientRecorder, explain_none
from grader.student.registry import Case, Exercise, Inputs
from grader.i18n import current_language, t
from grader.student.mistakes import CaseEvidence, annotate

__all__ = ["CheckResult", "ExerciseResult", "run_exercise"]

MAX_CAPTURED = 4000


@dataclass
class CheckResult:
    label: str
    hidden: bool
    weight: float
    passed: bool
    reason: str
    message: str
    details: dict = field(default_factory=dict)
    # (grader.student.mistakes.CaseEvidence, leaf path): what the case returned, for the mistake
    # classifier; never rendered or stored
    evidence: Any = field(default=None, repr=False, compare=False)


@dataclass
class ExerciseResult:
    """Every check of one exercise; ``score`` is in nbgrader points."""

    exercise: Exercise
    lang: str
    checks: list[CheckResult]
    mode: str  # "check" (visible only) or "grade" (all)
    hidden_pending: int = 0
    captured: str = ""

    @property
    def points(self) -> float:
        return float(self.exercise.points)

    @property
    def total_weight(self) -> float:
        return sum(c.weight for c in self.checks)

    @property
    def score(self) -> float:
        total = self.total_weight
        if total <= 0:
            return 0.0
        earned = sum(c.weight for c in self.checks if c.passed)
        return round(self.points * earned / total, 4)

    @property
    def passed(self) -> bool:
        return all(c.passed for c in self.checks)

    @property
    def failed(self) -> list[CheckResult]:
        return [c for c in self.checks if not c.passed]

    # Display: HTML for Jupyter, text for consoles. Under nbgrader (NBGRADER_EXECUTION set) the
    # text form is the score alone: nbgrader reads a test cell's execute_result text/plain as
    # its partial credit (nbgrader.utils.determine_grade / get_partial_grade).
    def _repr_html_(self) -> str:
        from grader.student.report import render_html

        return render_html(self)

    def text(self) -> str:
        from grader.student.report import render_text

        return render_text(self)

    def __repr__(self) -> str:
        if os.environ.get("NBGRADER_EXECUTION"):
            return format_score(self.score)
        return self.text()

    __str__ = text


def format_score(score: float) -> str:
    """``2.0`` -> ``"2"``, ``1.125`` -> ``"1.125"`` (what nbgrader parses as the cell's score)."""
    return f"{score:.4f}".rstrip("0").rstrip(".") if score else "0"


@contextlib.contextmanager
def _fd2_captured(buffer: io.StringIO):
    """Capture what is written to file descriptor 2 (C code, ``os.write(2, ...)``): the
    Jupyter kernel forwards it to the cell as stderr, which nbgrader counts as a failure."""
    try:
        saved = os.dup(2)
    except OSError:  # no fd 2 (embedded interpreters): nothing to capture
        yield
        return
    with tempfile.TemporaryFile() as tmp:
        try:
            sys.__stderr__ and sys.__stderr__.flush()
        except (OSError, ValueError):
            pass
        os.dup2(tmp.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            tmp.seek(0)
            buffer.write(tmp.read().decode("utf-8", errors="replace"))


@contextlib.contextmanager
def _captured(buffer: io.StringIO):
    """Capture stdout, stderr (Python and fd level) and warnings of the student's code."""
    with warnings.catch_warnings(record=True) as caught, _fd2_captured(buffer), \
            contextlib.redirect_stdout(buffer), contextlib.redirect_stderr(buffer):
        warnings.simplefilter("always")
        try:
            yield
        finally:
            for w in caught:
                buffer.write(f"{w.category.__name__}: {w.message}\n")


def _student_frames(exc: BaseException) -> str:
    """The traceback of an exception raised in the student's code, without grader frames."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the grader package
    frames = [f for f in traceback.extract_tb(exc.__traceback__)
              if not os.path.abspath(f.filename).startswith(here)]
    lines = traceback.format_list(frames[-4:])
    lines += traceback.format_exception_only(type(exc), exc)
    return "".join(lines).rstrip()


def _expected_structure(value: Any) -> Any:
    """The reference answer as float64 arrays (same nesting); RuntimeError if unusable."""
    if isinstance(value, dict):
        return {k: _expected_structure(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_expected_structure(v) for v in value)
    arr, problem = to_array(value)
    if arr is None or problem:
        raise RuntimeError(f"reference returned {type(value).__name__} ({problem or 'unusable'})")
    return arr.astype(np.float64)


def environment_seed() -> int | None:
    """The one seed of hidden points the environment sets (``GRADER_SEED``), or None: the one
    place it is read. ``grade()`` uses it here; the trusted side reads it only where a command
    starts (``python -m grader autograde-all``, ``InjectProbes.seed``'s default for nbgrader's
    own commands) and passes it on as an argument."""
    env = os.environ.get("GRADER_SEED", "").strip()
    if not env:
        return None
    try:
        return int(env)
    except ValueError:
        raise ValueError(f"GRADER_SEED must be an integer, got {env!r}") from None


def _seed() -> int:
    seed = environment_seed()
    return secrets.randbits(63) if seed is None else seed


def _leaf_label(base: str, path: str) -> str:
    return f"{base} · {path}" if path else base


def reference_answer(ex: Exercise, case: Case, seed: int) -> Any:
    """The reference answer of ``case`` at ``seed``, as float64 arrays (same nesting)."""
    if case.expected is not None:  # known as data (visible cases as shipped to students)
        return _expected_structure(case.expected)
    ref_inputs = case.make(np.random.default_rng(seed))
    return _expected_structure(ex.reference(*ref_inputs.args, **ref_inputs.kwargs))


@dataclass
class StudentError:
    """The student's function raised: what it raised, and where (student frames only)."""

    ename: str
    evalue: str
    not_implemented: bool = False
    traceback: str = ""
    timed_out: bool = False


def error_message(err: StudentError, name: str, lang: str) -> str:
    if err.not_implemented:
        return t("err.not_implemented", lang, name=name)
    if err.timed_out:
        return t("err.raised", lang, name=name, error=err.evalue)
    text = f"{err.ename}: {err.evalue}".strip().rstrip(":")
    from grader.glosses import gloss  # the English error's meaning in the student's language

    meaning = gloss(err.ename, err.evalue, lang)
    return t("err.raised", lang, name=name, error=text) + (f" ({meaning})" if meaning else "")


def judge_case(ex: Exercise, case: Case, label: str, hidden: bool, seed: int, lang: str, *,
               answer: Any = None, error: StudentError | None = None, inputs: Inputs,
               why_none=None, with_fd: bool = False, expected: Any = None) -> list[CheckResult]:
    """The checks of one case, given what the student's function returned (``answer``) or
    raised (``error``) on ``inputs``. ``why_none(path)`` explains a None leaf (or None).

    Pure: it runs no student code, so the trusted autograder (:mod:`grader.autograde.scoring`) judges
    the data a kernel reported with it, and ``check`` at home judges a live answer.
    """
    results: list[CheckResult] = []
    if expected is None:
        try:
            expected = reference_answer(ex, case, seed)
        except Exception as exc:  # a broken exercise: say so, do not blame the student
            msg = t("err.reference", lang, error=f"{type(exc).__name__}: {exc}")
            return [CheckResult(label, hidden, case.weight, False, "reference", msg)]
    if error is not None:
        msg = error_message(error, ex.function, lang)
        details = {} if error.not_implemented or not error.traceback else {"traceback": error.traceback}
        reason = "timeout" if error.timed_out else "error"
        fails = [CheckResult(label, hidden, case.weight, False, reason, msg, details,
                             evidence=(CaseEvidence(case, seed, inputs, expected, error=True), None))]
        if with_fd:
            fails.append(CheckResult(t("check.finite_difference", lang), True, ex.fd_weight,
                                     False, "unusable", t("fd.unusable", lang)))
        return fails
    outcomes = compare(expected, answer, ex.tolerance, lang, precision=ex.precision, kind=ex.compares)
    weight = case.weight / max(1, len(outcomes))
    evidence = CaseEvidence(case, seed, inputs, expected, answer)
    for outcome in outcomes:
        message, details = outcome.message, dict(outcome.details)
        evidence.statuses[outcome.path] = outcome.reason
        if outcome.reason == "none" and why_none is not None:
            why = why_none(outcome.path)
            if why:
                details["why_none"] = why
                evidence.why[outcome.path] = why
                message = f"{message} {t('none.why', lang)} {why}"
        results.append(CheckResult(_leaf_label(label, ex.component_label(outcome.path)), hidden, weight,
                                   outcome.passed, outcome.reason, message, details,
                                   evidence=(evidence, outcome.path)))
    # finite differences, independent of the reference
    if with_fd:
        names = [name for _, name in flatten_with_paths(ex.gradient_names)]
        grads = {}
        for name, outcome in zip(names, outcomes):
            usable = outcome.value is not None and outcome.reason in ("ok", "values")
            grads[name] = outcome.value if usable else None
        rng = np.random.default_rng(seed + 1)
        try:
            fd: FDOutcome = finite_difference_check(
                lambda values: ex.objective(values, inputs), inputs.values, grads, rng, lang,
                rtol=1e-5 if ex.precision == "float64" else 1e-4)
        except Exception as exc:  # the NumPy objective itself failed: an exercise bug
            fd = FDOutcome(False, "reference", t("err.reference", lang, error=f"{type(exc).__name__}: {exc}"))
        results.append(CheckResult(t("check.finite_difference", lang), True, ex.fd_weight,
                                   fd.passed, fd.reason, fd.message, fd.details))
    return results


def _run_case(ex: Exercise, func: Any, case: Case, label: str, hidden: bool, seed: int,
              lang: str, buffer: io.StringIO, with_fd: bool) -> list[CheckResult]:
    # 1. the reference, on its own fresh inputs
    try:
        expected = reference_answer(ex, case, seed)
    except Exception as exc:  # a broken exercise: say so, do not blame the student
        msg = t("err.reference", lang, error=f"{type(exc).__name__}: {exc}")
        return [CheckResult(label, hidden, case.weight, False, "reference", msg)]
    # 2. the student's function, on identical fresh inputs
    inputs = case.make(np.random.default_rng(seed))
    error = None
    answer = None
    with GradientRecorder() as recorder, _captured(buffer):
        try:
            with without(ex.absent, lang):  # as grading calls it (grader.student.absent)
                answer = func(*inputs.args, **inputs.kwargs)
        except Exception as exc:
            error = StudentError(type(exc).__name__, str(exc), isinstance(exc, NotImplementedError),
                                 "" if isinstance(exc, NotImplementedError) else _student_frames(exc))
    return judge_case(ex, case, label, hidden, seed, lang, answer=answer, error=error,
                      inputs=inputs, expected=expected, with_fd=with_fd,
                      why_none=lambda path: explain_none(answer, path, recorder.calls, lang))


def _case_label(label, lang: str, i: int) -> str:
    if isinstance(label, dict):  # a label in several languages
        return label.get(lang) or label.get("en") or f"#{i + 1}"
    return label or f"#{i + 1}"


def graded_cases(ex: Exercise, lang: str, include_hidden: bool, seed: int):
    """``(case, label, hidden, case_seed, with_fd)`` for every check of ``ex`` in order: the
    visible cases at fixed seeds, then (``include_hidden``) the hidden ones, whose seeds are
    drawn from ``seed``; the first ``fd_checks`` hidden cases also get a finite-difference
    check. The same seed gives the same points, in the kernel (``grade``) and in the trusted
    autograder (:mod:`grader.autograde.scoring`)."""
    out = []
    for i, case in enumerate(ex.visible):
        label = case.label or f"#{i + 1}"
        if isinstance(label, dict):  # a label in several languages
            label = label.get(lang) or label.get("en") or f"#{i + 1}"
        out.append((case, label, False, 1000 + i, False))
    if include_hidden:
        n_fd = min(ex.fd_checks, len(ex.hidden)) if ex.has_fd else 0
        rng = np.random.default_rng(seed)
        for i, case in enumerate(ex.hidden):
            label = t("check.random_point", lang, index=i + 1) if ex.hidden_at_random else \
                t("check.hidden_case", lang, label=_case_label(case.label, lang, i))
            out.append((case, label, True, int(rng.integers(0, 2**62)), i < n_fd))
    return out


def run_exercise(ex: Exercise, namespace: dict, *, include_hidden: bool, lang: str | None = None,
                 seed: int | None = None) -> ExerciseResult:
    """Run the visible checks (and the hidden ones when ``include_hidden``) of ``ex`` against
    the function ``namespace[ex.function]``."""
    lang = lang or current_language()
    mode = "grade" if include_hidden else "check"
    hidden_count = ex.hidden_check_count
    if include_hidden and ex.hidden_checks is not None and not ex.hidden:
        raise RuntimeError(f"grading {ex.id} needs the instructor's exercise definitions "
                           "(grader/course/definitions in a source checkout, or a course folder's "
                           "exercises/); only the visible checks are installed here")
    func = namespace.get(ex.function)
    if func is None or not callable(func):
        if func is None:
            msg = t("err.undefined", lang, name=ex.function)
        else:
            msg = t("err.not_callable", lang, name=ex.function, kind=type(func).__name__)
        weight = sum(c.weight for c in ex.visible)
        checks = [CheckResult(t("check.setup", lang), False, weight, False, "undefined", msg)]
        if include_hidden:
            checks.append(CheckResult(t("check.setup", lang), True, ex.total_weight - weight,
                                      False, "undefined", msg))
        return ExerciseResult(ex, lang, checks, mode, 0 if include_hidden else hidden_count)

    buffer = io.StringIO()
    checks: list[CheckResult] = []
    for case, label, hidden, case_seed, with_fd in graded_cases(ex, lang, include_hidden,
                                                                 _seed() if seed is None else seed):
        checks.extend(_run_case(ex, func, case, label, hidden, case_seed, lang, buffer, with_fd))
    captured = buffer.getvalue()
    if len(captured) > MAX_CAPTURED:
        captured = captured[:MAX_CAPTURED] + "\n[...]\n"
    result = ExerciseResult(ex, lang, checks, mode, 0 if include_hidden else hidden_count, captured)
    annotate(result)  # the mistake pattern of each wrong leaf, over all cases (grader.student.mistakes)
    return result


def caller_namespace(depth: int = 2) -> dict:
    """The globals of the code that called ``check``/``grade`` (the notebook's namespace)."""
    frame = sys._getframe(depth)
    return frame.f_globals
