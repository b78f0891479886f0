"""Issue 40, item 7: a mistake pattern must not depend on which random points a student drew.

Hidden cases draw shapes and values from a seed per student (course, assignment, student), so two
students with the same mistake see different cases. A mean where a sum is asked was "mean instead
of sum" in ``check()`` but ``other`` in the autograder for most students: the batch sizes the
classifier considers named ``x.size`` only for arrays of two or more dimensions, so where the
random cases mixed 1-D and 2-D inputs no name fitted every case. Here every pattern an exercise
declares (``grader/course/definitions/patterns.py``) and the generic ones a mistake produces from
the reference (a sign, a factor 2, a mean over one input where a sum is asked) are graded over many
seeds, as the autograder grades them (visible and hidden cases), and must be named the same on
every draw.
"""

from __future__ import annotations

import dataclasses
import warnings
from collections import Counter

import numpy as np
import pytest

from grader import check
from grader.student.mistakes import CaseData, LeafCase, _parameter_names, _sizes, annotate, classify
from grader.student.registry import all_exercises, get
from grader.student.runner import run_exercise

SEEDS = range(12)
EXPENSIVE = {"l06_ex2", "l06_ex3", "l07_ex5"}  # training loops: ~0.5 s per seed


def _outcome(ex, function, seed: int):
    # the stand-ins (a reference and the mistakes made of it) are the course's code, written
    # with minitape's autodiff; lesson 7's students make these mistakes on their own tape,
    # which no grading world takes away: graded here with the forbidden tools left on (their
    # absence is tested in test_grader_worlds.py and through the workflow)
    ex = dataclasses.replace(ex, absent=())
    with warnings.catch_warnings():  # a pattern's own code may warn (a persistent tape read early)
        warnings.simplefilter("ignore")
        result = run_exercise(ex, {ex.function: function}, include_hidden=True, seed=seed, lang="en")
        if result.passed:
            return "passed"
        record = annotate(result)
    return record.get("pattern"), record.get("k") or record.get("kind")


def _mark(eid: str):
    return [pytest.mark.slow] if eid in EXPENSIVE else []


DECLARED = [pytest.param(eid, p.name, id=f"{eid}-{p.name}", marks=_mark(eid))
            for eid, ex in all_exercises().items() for p in ex.mistakes]


def test_every_exercise_with_declared_patterns_is_covered():
    assert {p.values[0] for p in DECLARED} >= {"l01_ex4", "l02_ex2", "l02_ex3", "l04_ex5", "l06_ex2"}


@pytest.mark.parametrize("eid, name", DECLARED)
def test_a_declared_pattern_is_named_on_every_draw(eid, name):
    ex = get(eid)
    pattern = next(p for p in ex.mistakes if p.name == name)
    outcomes = Counter(_outcome(ex, pattern.answer, seed) for seed in SEEDS)
    assert set(outcomes) == {(pattern.family if pattern.family != "extra" else name, name)}, outcomes


def _scaled(out, k):
    import minitape as tf

    if out is None:
        return None
    if isinstance(out, dict):
        return {key: _scaled(v, k) for key, v in out.items()}
    if isinstance(out, (list, tuple)):
        return type(out)(_scaled(v, k) for v in out)
    if isinstance(out, (int, float)):
        return out * k
    return tf.convert_to_tensor(out) * k


def _array_arguments(ex) -> list[tuple[int, str]]:
    first = ex.visible[0].make(np.random.default_rng(0))
    out = []
    for i, name in enumerate(_parameter_names(ex.signature)):
        value = first.args[i] if i < len(first.args) else None
        shape = getattr(value, "shape", None)
        try:
            if shape is not None and len(tuple(shape)) >= 1:
                out.append((i, name))
        except TypeError:
            pass
    return out


MEANS = [pytest.param(eid, i, name, id=f"{eid}-mean-over-{name}",
                      marks=[] if (eid, name) == ("l01_ex3", "x") else [pytest.mark.slow])
         for eid, ex in all_exercises().items() for i, name in _array_arguments(ex)]


@pytest.mark.parametrize("eid, index, name", MEANS)
def test_a_mean_where_a_sum_is_asked_is_named_on_every_draw(eid, index, name):
    """The reference divided by the size of one input argument (a ``reduce_mean`` where the lesson
    asks for ``reduce_sum``, over that input): "1/n" on every seed, whatever shapes were drawn
    (or right on every seed, where that input always has one entry)."""
    ex = get(eid)

    def student(*args, **kwargs):
        return _scaled(ex.reference(*args, **kwargs), 1.0 / np.size(args[index]))

    outcomes = Counter(_outcome(ex, student, seed) for seed in SEEDS[:12])
    # an input of one entry in every case (a bias of shape (1,)): a mean is the sum, no mistake
    assert set(outcomes) in ({("scale", "1/n")}, {"passed"}), outcomes


@pytest.mark.slow
@pytest.mark.parametrize("eid", list(all_exercises()))
def test_a_sign_and_a_factor_two_are_named_on_every_draw(eid):
    ex = get(eid)
    for k, want in ((-1.0, ("sign", None)), (2.0, ("scale", "2"))):
        outcomes = Counter(_outcome(ex, lambda *a, k=k, **kw: _scaled(ex.reference(*a, **kw), k), seed)
                           for seed in SEEDS[:4])
        assert set(outcomes) == {want}, (k, outcomes)


def test_the_mean_of_the_issue_is_named_alike_by_check_and_by_the_autograder():
    """l01_ex3 with ``reduce_mean`` for ``reduce_sum``: the visible cases (check) and every draw of
    the hidden ones (autograder) say the same thing."""
    src = {}
    exec("import minitape as tf\n"
         "def gradients_by_name(params, x):\n"
         "    with tf.GradientTape(persistent=True) as tape:\n"
         "        f = tf.reduce_mean(tf.sin(params['a'] * x) + params['c'] ** 2 * x)\n"
         "    return tape.gradient(f, params)\n", src)
    seen = check("l01_ex3", src)
    named = {c.details["pattern"]["pattern"] + ":" + str(c.details["pattern"].get("k"))
             for c in seen.checks if not c.passed and "pattern" in c.details}
    assert named == {"scale:1/n"}
    for seed in SEEDS:
        assert _outcome(get("l01_ex3"), src["gradients_by_name"], seed) == ("scale", "1/n"), seed


def test_sizes_name_every_array_alike_whatever_its_rank():
    class Inputs:
        def __init__(self, x):
            self.args, self.kwargs = (x,), {}
    one_d, two_d = _sizes(Inputs(np.zeros(5)), "f(x)"), _sizes(Inputs(np.zeros((2, 3))), "f(x)")
    assert set(one_d) == set(two_d) == {"x.size", "x.shape[0]"}
    assert (one_d["x.size"], two_d["x.size"]) == (5, 6)


def test_a_mean_over_mixed_1d_and_2d_cases_is_one_over_n():
    """The classifier alone, on the issue's draw: cases of x with 5 and 2x3 entries."""
    cases = []
    for n in (5, 6, 4):
        expected = np.arange(1.0, n + 1.0)
        cases.append(CaseData({"": LeafCase("values", expected, expected / n)},
                              {"x.size": n, "x.shape[0]": n if n != 6 else 2}, {}))
    assert classify(cases, (1e-6, 1e-9))[""].as_dict()["k"] == "1/n"
    batch_of_one = CaseData({"": LeafCase("ok", np.array([3.0]), np.array([3.0]))}, {"x.size": 1, "x.shape[0]": 1}, {})
    d = classify(cases + [batch_of_one], (1e-6, 1e-9))[""]
    assert (d.pattern, d.k, d.n) == ("scale", "1/n", "x.size")  # a batch of one agrees with any n
