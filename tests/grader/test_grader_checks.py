"""The comparison library: order of checks, strict shapes, tolerances, structures, FD."""

from __future__ import annotations

import numpy as np
import pytest

from grader.student.checks import Tolerance, compare, compare_leaf, finite_difference_check, to_array


def test_broadcastable_answers_fail_on_shape_where_allclose_passes():
    assert np.allclose(2.0, [2.0, 2.0, 2.0])  # the trap a naive grader falls into
    out = compare_leaf(np.full(3, 2.0), 2.0, lang="en")
    assert (out.passed, out.reason) == (False, "shape")
    assert out.message.startswith("Wrong shape: expected (3,), got ().")
    for expected, got in [((), (1,)), ((3,), (3, 1)), ((2, 3), (3, 2)), ((1, 3), (3,))]:
        out = compare_leaf(np.zeros(expected), np.zeros(got))
        assert out.reason == "shape", (expected, got)


def test_order_none_type_dtype_shape_finite_values():
    exp = np.array([1.0, 2.0, 3.0])
    assert compare_leaf(exp, None).reason == "none"
    assert compare_leaf(exp, "1, 2, 3").reason == "type"
    assert compare_leaf(exp, [1.0, "2", 3.0]).reason == "type"
    assert compare_leaf(exp, [[1.0, 2.0], [3.0]]).reason == "type"  # not rectangular
    assert compare_leaf(exp, True).reason == "dtype"
    assert compare_leaf(exp, np.array([1, 2], dtype=bool)).reason == "dtype"  # dtype first
    assert compare_leaf(exp, np.array([1j, 2, 3])).reason == "dtype"
    # the one rule for number types: the value counts, whatever holds it
    for same in ([1.0, 2.0, 3.0], (1, 2, 3), np.array([1, 2, 3]), np.array([1, 2, 3], dtype=np.uint8),
                 np.array([1, 2, 3], dtype=np.float32), [np.float32(1), np.int64(2), 3.0],
                 [np.array(1.0), np.array(2.0), np.array(3.0)]):
        assert compare_leaf(exp, same).passed, same
    assert compare_leaf(exp, np.array([1, 2], dtype=np.int64)).reason == "shape"
    nan = compare_leaf(exp, np.array([1.0, np.inf, np.nan]), lang="en")
    assert nan.reason == "not_finite"
    assert "2 non-finite values" in nan.message and "index [1]" in nan.message
    assert compare_leaf(exp, np.array([1.0, 2.0, 3.0])).passed


def test_value_mismatch_reports_the_gap():
    exp = np.array([[1.0, 2.0], [3.0, 4.0]])
    got = np.array([[1.0, 2.0], [3.5, 3.0]])
    out = compare_leaf(exp, got, lang="en")
    assert (out.passed, out.reason) == (False, "values")
    assert out.details["index"] == (1, 0)
    assert out.details["abs_err"] == pytest.approx(1.0)
    assert out.details["rel_err"] == pytest.approx(0.25)
    assert ("Wrong values in 2 of 4 entries. Largest absolute error 1, largest relative error 0.25; "
            "first differing index [1, 0]: expected 3, got 3.5") in out.message
    assert (out.details["expected"], out.details["got"]) == ("[[1., 2.],\n [3., 4.]]", "[[1. , 2. ],\n [3.5, 3. ]]")


def test_tolerances_are_explicit_and_float32_gets_the_float32_one():
    exp = np.array([1.0, 100.0])
    tol = Tolerance(rtol=1e-6, atol=1e-9)
    assert compare_leaf(exp, exp * (1 + 5e-7), tol).passed
    assert not compare_leaf(exp, exp * (1 + 5e-6), tol).passed
    # the same relative error is fine in float32, whose rounding alone is ~6e-8
    assert compare_leaf(exp, (exp * (1 + 5e-6)).astype(np.float32), tol).passed
    assert not compare_leaf(exp, (exp * (1 + 1e-2)).astype(np.float32), tol).passed
    zero = compare_leaf(np.zeros(2), np.array([0.0, 1e-12]), tol)
    assert zero.passed  # atol covers exact zeros
    assert not compare_leaf(np.zeros(2), np.array([0.0, 1e-6]), tol).passed


def test_tensor_likes_are_converted():
    class FakeTensor:
        shape, dtype = (2,), "float64"

        def numpy(self):
            return np.array([1.0, 2.0])

    arr, problem = to_array(FakeTensor())
    assert problem == "" and arr.tolist() == [1.0, 2.0]

    class Slices:  # tf.IndexedSlices: a sparse gradient of a gather
        values = np.array([[1.0, 1.0], [2.0, 2.0]])
        indices = np.array([0, 0])
        dense_shape = np.array([3, 2])

    arr, problem = to_array(Slices())
    assert problem == "" and arr.tolist() == [[3.0, 3.0], [0.0, 0.0], [0.0, 0.0]]


def test_structures_give_one_outcome_per_reference_leaf():
    exp = {"w": np.ones(2), "b": np.array(0.5)}
    partly = compare(exp, {"w": np.ones(2), "b": np.array(0.7)})
    assert [(o.path, o.passed) for o in partly] == [("['b']", False), ("['w']", True)]
    missing = compare(exp, {"w": np.ones(2)}, lang="en")
    assert [o.reason for o in missing] == ["structure", "ok"]
    assert missing[0].message == "The result has no entry 'b'."
    wrong_kind = compare(exp, [np.ones(2), np.array(0.5)], lang="en")
    assert {o.message for o in wrong_kind} == {
        "Expected a dict with keys 'b', 'w', got a list of 2 gradients."}
    # the names of Python's sequences in the language, a list and a tuple both passing
    seq = [np.ones(2), np.zeros(2)]
    assert {o.message for o in compare(seq, (np.ones(2),), lang="es")} == {
        "Se esperaba una lista o tupla de 2 gradientes, pero se obtuvo una tupla de 1 gradiente."}
    assert {o.message for o in compare(seq, [np.ones(2)], lang="ru")} == {
        "Ожидалось: список или кортеж из\u00a02\u00a0градиентов; получено: список из\u00a01\u00a0градиента."}
    seq = [np.ones((2, 2)), np.zeros(2)]
    assert all(o.passed for o in compare(seq, (np.ones((2, 2)), np.zeros(2))))  # tuple ok
    short = compare(seq, [np.ones((2, 2))], lang="en")
    assert len(short) == 2 and not any(o.passed for o in short)
    single = compare(np.ones(3), [np.ones(3)], lang="en")  # passing [x] as the sources
    assert single[0].reason == "shape" and "(1, 3)" in single[0].message
    # several values answered by an array whose rows are those values
    assert all(o.passed for o in compare([np.array(0.5), np.array(2.0)], np.array([0.5, 2.0])))
    assert all(o.passed for o in compare([1.0, 2.0], [1, 2]))  # ints where floats are expected
    none = compare(seq, None, lang="en")
    assert [o.reason for o in none] == ["none", "none"]


def test_finite_differences_check_the_gradient_independently():
    x = np.array([0.3, -1.2, 2.0])

    def objective(v):
        return float(np.sum(v["x"] ** 2 * np.sin(v["x"])))

    true = 2 * x * np.sin(x) + x ** 2 * np.cos(x)
    rng = np.random.default_rng(0)
    assert finite_difference_check(objective, {"x": x}, {"x": true}, rng).passed
    bad = finite_difference_check(objective, {"x": x}, {"x": true * 1.001}, rng, lang="en")
    assert (bad.passed, bad.reason) == (False, "fd")
    assert "predicts a slope of" in bad.message
    unusable = finite_difference_check(objective, {"x": x}, {"x": None}, rng)
    assert (unusable.passed, unusable.reason) == (False, "unusable")


@pytest.mark.parametrize("lang,word", [("en", "Wrong shape"), ("es", "Forma incorrecta"),
                                       ("pt", "Formato errado"), ("ru", "Неверная форма")])
def test_messages_follow_the_language(lang, word):
    out = compare_leaf(np.zeros(3), np.zeros((3, 1)), lang=lang)
    assert out.message.startswith(word) and "(3, 1)" in out.message


def test_finite_differences_fail_where_any_quantity_overflows_or_is_nan():
    """Issue 36, class 4: gradients of 1.79e308 made the tolerance infinite, so any error passed."""
    objective = lambda v: float(np.sum(v["w"] ** 2))  # noqa: E731
    x = {"w": np.array([1.0, -2.0, 0.5])}
    right = finite_difference_check(objective, x, {"w": 2 * x["w"]}, np.random.default_rng(0))
    assert right.passed
    for g in (np.full(3, 1.79e308), np.full(3, -1.79e308), np.array([1.79e308, -1.79e308, 0.0]),
              np.full(3, 1e300), np.array([np.nan, 0.0, 0.0]), np.array([np.inf, 0.0, 0.0])):
        out = finite_difference_check(objective, x, {"w": g}, np.random.default_rng(0), lang="en")
        assert (out.passed, out.reason) == (False, "fd"), g
    # a slope that is not finite at the trusted inputs is the exercise's bug, never a pass
    with pytest.raises(FloatingPointError):
        finite_difference_check(lambda v: float("inf"), x, {"w": 2 * x["w"]}, np.random.default_rng(0))


def test_a_comparison_whose_error_overflows_fails():
    out = compare_leaf(np.array([-1.5e308, 1.0]), np.array([1.79e308, 1.0]), lang="en")
    assert (out.passed, out.reason) == (False, "values") and out.details["index"] == (0,)
    assert compare_leaf(np.array(0.0), np.array(1e-320)).passed  # a denormal is 0 to atol
