"""check()/grade() on lesson 1's exercises with minitape: scores, hidden points, None reasons."""

from __future__ import annotations

import dataclasses
import os
import sys
import types

import numpy as np
import pytest

import minitape as tf
from grader import check, grade, get_exercise
from grader.student import diagnose
from grader.student.runner import run_exercise


# ----- answers ------------------------------------------------------------------------------
def derivative_at(x0):
    x = tf.Variable(x0)
    with tf.GradientTape() as tape:
        y = x ** 3 - 2 * x
    return tape.gradient(y, x)


def hard_coded(x0):
    return tf.constant({2.0: 10.0, -0.5: -1.25}.get(x0, 0.0))


def gradients_by_name_partly(params, x):
    with tf.GradientTape() as tape:
        f = tf.reduce_sum(tf.sin(params["a"] * x) + params["c"] * x)  # c instead of c**2
    return tape.gradient(f, params)


@pytest.fixture(autouse=True)
def _english(monkeypatch):
    for var in ("MINITAPE_LANG", "JPY_SESSION_NAME", "NBGRADER_EXECUTION", "GRADER_SEED"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("MINITAPE_LANG", "en")


def test_every_reference_passes_every_check_including_finite_differences():
    from grader import all_exercises

    for ex in all_exercises().values():
        # a reference is the course's code (minitape's autodiff, where lesson 7 forbids it to
        # students): graded with the forbidden tools left on
        ex = dataclasses.replace(ex, absent=())
        result = run_exercise(ex, {ex.function: ex.reference}, include_hidden=True, seed=7)
        assert result.passed and result.score == ex.points, result.text()
        if ex.has_fd:
            assert any(c.reason == "ok" and "finite" in c.label for c in result.checks)


def test_correct_answer_scores_full_points():
    result = grade("l01_ex1", {"derivative_at": derivative_at})
    assert result.score == 1.0 and result.passed


def test_hard_coded_answer_passes_visible_checks_and_fails_hidden_ones():
    visible = check("l01_ex1", {"derivative_at": hard_coded})
    assert visible.passed  # the student sees green...
    graded = grade("l01_ex1", {"derivative_at": hard_coded})
    hidden = [c for c in graded.checks if c.hidden]
    assert hidden and not any(c.passed for c in hidden)  # ...the random points see through it
    assert graded.score == pytest.approx(round(1 * 2 / 6, 4))


def test_hidden_points_are_random_per_run_and_reproducible_with_a_seed(monkeypatch):
    seen = []

    def spy(x0):
        seen.append(x0)
        return derivative_at(x0)

    ns = {"derivative_at": spy}
    grade("l01_ex1", ns)
    first = seen[2:]
    seen.clear()
    grade("l01_ex1", ns)
    assert seen[:2] == [2.0, -0.5]  # visible points are fixed
    assert seen[2:] != first  # hidden ones are drawn anew
    monkeypatch.setenv("GRADER_SEED", "123")
    seen.clear()
    grade("l01_ex1", ns)
    again = list(seen)
    seen.clear()
    grade("l01_ex1", ns)
    assert seen == again


def test_partial_credit_per_check():
    result = grade("l01_ex3", {"gradients_by_name": gradients_by_name_partly})
    by_reason = [(c.label.split(" · ")[-1], c.passed) for c in result.checks if "finite" not in c.label]
    assert set(by_reason) == {("df/da", True), ("df/dc", False)}  # named by the exercise's components
    assert result.score == 0.75  # 3 cases x 1/2 of 4 weights x 2 points


def test_grade_raises_with_the_localized_message_when_nothing_passes(monkeypatch, capsys):
    monkeypatch.setenv("MINITAPE_LANG", "es")
    ns = {"derivative_at": lambda x0: tf.constant(0.0)}
    with pytest.raises(AssertionError, match="Ejercicio «Una derivada en un punto»: no se superó ninguna comprobación"):
        grade("l01_ex1", ns)
    assert "Puntuación: 0 de 1 punto" in capsys.readouterr().out  # the report is shown first


def test_result_text_plain_is_the_score_under_nbgrader(monkeypatch):
    result = grade("l01_ex3", {"gradients_by_name": gradients_by_name_partly})
    assert "Score: 0.75 of 2 points" in repr(result)
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    assert repr(result) == "0.75"  # what nbgrader.utils.get_partial_grade parses
    full = grade("l01_ex1", {"derivative_at": derivative_at})
    assert repr(full) == "1"


def test_check_never_runs_or_reveals_hidden_checks():
    calls = []

    def spy(x0):
        calls.append(x0)
        return derivative_at(x0)

    result = check("l01_ex1", {"derivative_at": spy})
    assert calls == [2.0, -0.5]
    assert not any(c.hidden for c in result.checks)
    assert result.hidden_pending == 4  # three random points and a finite-difference check
    html = result._repr_html_()
    assert "4 hidden checks will run when your notebook is graded" in html
    assert "random point 1" not in html and "(hidden)" not in html


def test_check_raises_under_nbgrader_validate_only(monkeypatch):
    stub = {"derivative_at": lambda x0: (_ for _ in ()).throw(NotImplementedError())}
    result = check("l01_ex1", stub)
    assert not result.passed and "is not written yet" in result.checks[0].message
    monkeypatch.setenv("NBGRADER_EXECUTION", "validate")
    with pytest.raises(AssertionError, match="failed visible checks: 2 of 2"):
        check("l01_ex1", stub)


def test_check_finds_the_function_in_the_callers_globals():
    globals()["derivative_at_backup"] = derivative_at
    result = check("l01_ex1")  # this module defines derivative_at
    assert result.passed


def test_errors_in_student_code_are_reported_not_raised():
    def broken(x0):
        return {}["nope"]

    result = check("l01_ex1", {"derivative_at": broken})
    assert result.checks[0].reason == "error"
    assert result.checks[0].message == "Calling `derivative_at` raised KeyError: 'nope'"
    assert "broken" in result.checks[0].details["traceback"]  # the student's own frame
    assert "grader/student/runner.py" not in result.checks[0].details["traceback"]
    missing = check("l01_ex1", {})
    assert missing.checks[0].message.startswith("Define a function named `derivative_at`")
    not_callable = check("l01_ex1", {"derivative_at": 3.0})
    assert "must be a function, but it is a value of type `float`" in not_callable.checks[0].message


def test_stderr_and_warnings_of_correct_code_are_captured_not_printed(capfd):
    import warnings

    def noisy(x0):
        warnings.warn("careful", RuntimeWarning)
        print("python stderr", file=sys.stderr)
        os.write(2, b"fd stderr\n")
        return derivative_at(x0)

    result = grade("l01_ex1", {"derivative_at": noisy})
    out, err = capfd.readouterr()
    assert err == "" and out == ""
    assert result.score == 1.0
    assert "RuntimeWarning: careful" in result.captured
    assert "python stderr" in result.captured and "fd stderr" in result.captured


def test_html_escapes_student_text():
    def evil(x0):
        raise ValueError("<script>alert(1)</script>")

    html = check("l01_ex1", {"derivative_at": evil})._repr_html_()
    assert "<script>" not in html and "&lt;script&gt;" in html


# ----- why a gradient is None ------------------------------------------------------------------
def _answers_none(fn, lang="en"):
    result = check("l01_ex1", {"derivative_at": fn})
    none = [c for c in result.checks if c.reason == "none"]
    assert none, result.text()
    return none[0].details["why_none"]


@pytest.fixture
def local_diagnosis(monkeypatch):
    """Use the grader's own diagnosis even when minitape.debugging.why_none exists."""
    monkeypatch.setattr(diagnose, "_why_none_from_minitape", lambda *a: None)


def test_none_from_an_unwatched_tensor(local_diagnosis):
    def fn(x0):
        x = tf.constant(x0)
        with tf.GradientTape() as tape:
            y = x ** 3 - 2 * x
        return tape.gradient(y, x)

    assert "tape.watch(x)" in _answers_none(fn)


def test_none_from_a_variable_replaced_by_a_tensor(local_diagnosis):
    def fn(x0):
        x = tf.Variable(x0)
        x = x + 0.0  # now a Tensor
        with tf.GradientTape() as tape:
            y = x ** 3 - 2 * x
        return tape.gradient(y, x)

    assert "x.assign_add(1)" in _answers_none(fn)


def test_none_from_an_integer_dtype(local_diagnosis):
    def fn(x0):
        x = tf.Variable(int(x0))
        with tf.GradientTape() as tape:
            y = x ** 3 - 2 * x
        return tape.gradient(y, x)

    assert "integer dtype (int32)" in _answers_none(fn)


def test_none_from_a_numpy_detour(local_diagnosis):
    def fn(x0):
        x = tf.Variable(x0)
        with tf.GradientTape() as tape:
            y = tf.constant(np.asarray(x.numpy()) ** 3 - 2 * x.numpy())
        return tape.gradient(y, x)

    why = _answers_none(fn)
    assert "NumPy" in why and "assign" in why  # not connected: NumPy or a stateful assign


def test_none_from_a_stateful_assign(local_diagnosis):
    def fn(x0):
        x = tf.Variable(x0)
        total = tf.Variable(0.0)
        with tf.GradientTape() as tape:
            total.assign_add(x ** 3 - 2 * x)  # the assign is not differentiable: path cut
            y = total * 1.0
        return tape.gradient(y, x)

    why = _answers_none(fn)
    assert "does not depend on this source" in why and "v.assign(...)" in why


def test_none_from_a_missing_return(local_diagnosis):
    def no_gradient(x0):
        pass

    def lost(x0):
        x = tf.Variable(x0)
        with tf.GradientTape() as tape:
            y = x ** 3
        tape.gradient(y, x)

    assert "never called `tape.gradient`" in _answers_none(no_gradient)
    assert "your function returned None" in _answers_none(lost)


def test_minitape_why_none_is_used_when_available(monkeypatch):
    calls = []

    def why_none(tape, target, source, lang="en"):
        calls.append((tape, target, source, lang))
        return types.SimpleNamespace(reason="unwatched", message=f"minitape says [{lang}]")

    fake = types.ModuleType("minitape.debugging")
    fake.why_none = why_none
    monkeypatch.setitem(sys.modules, "minitape.debugging", fake)
    monkeypatch.setenv("MINITAPE_LANG", "pt")

    def fn(x0):
        x = tf.constant(x0)
        with tf.GradientTape() as tape:
            y = x ** 3
        return tape.gradient(y, x)

    assert _answers_none(fn) == "minitape says [pt]"
    tape, target, source, lang = calls[0]
    assert isinstance(tape, tf.GradientTape) and lang == "pt"
    assert float(source.numpy()) == 2.0


def test_recorder_restores_gradient_tape():
    original = tf.GradientTape.gradient
    with diagnose.GradientRecorder() as rec:
        x = tf.Variable(1.0)
        with tf.GradientTape() as tape:
            y = x * 2
        tape.gradient(y, x)
    assert len(rec.calls) == 1 and tf.GradientTape.gradient is original


def test_unknown_exercise_is_a_clear_error():
    with pytest.raises(KeyError, match="unknown exercise 'l01_ex9'; did you mean"):
        check("l01_ex9", {})
    assert get_exercise("l01_ex2").function == "mse_gradients"
