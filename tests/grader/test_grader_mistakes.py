"""The mistake classifier (grader/student/mistakes.py, issue 29), pattern by pattern, on real wrong
solutions (tests/grader/wrong_solutions.py) run through minitape against the real exercises:
on every case as the trusted side grades them, and on the visible cases as check() does."""

import numpy as np
import pytest

from grader import check
from grader.student.registry import get
from grader.student.mistakes import CaseData, LeafCase, classify, summary
from grader.student.runner import run_exercise
from wrong_solutions import WRONG, namespace

ALL = [(family, eid, src, want) for family, items in WRONG.items() for eid, src, want in items]
IDS = [f"{family}-{eid}-{i}" for i, (family, eid, _, _) in enumerate(ALL)]
# right on the visible cases (the mistake only shows at the hidden points): check() says nothing
VISIBLE_PASSES = {("partial", "l01_ex4"), ("stale", "l01_ex2")}


@pytest.fixture(autouse=True)
def _forbidden_tools_left_on(monkeypatch):
    """The wrong solutions are written with minitape's autodiff; lesson 7's students make these
    mistakes on their own tape, which no grading world takes away: graded here with the tools
    an exercise forbids left on (their absence: test_grader_worlds.py, the workflow tests)."""
    from grader.student.registry import all_exercises
    from grader.student.visible import visible_exercises  # what check() grades

    for ex in [*all_exercises().values(), *visible_exercises().values()]:
        if ex.absent:
            monkeypatch.setattr(ex, "absent", ())


def _top(record: dict) -> dict:
    return {k: v for k, v in record.items() if k != "leaves"}


@pytest.mark.parametrize("family,eid,src,want", ALL, ids=IDS)
@pytest.mark.parametrize("seed", [7, 12345])
def test_every_case_graded(family, eid, src, want, seed):
    from grader.student.mistakes import annotate

    result = run_exercise(get(eid), namespace(src), include_hidden=True, seed=seed, lang="en")
    assert not result.passed
    record = annotate(result)  # idempotent: run_exercise already annotated
    assert {k: record.get(k) for k in want} == want, _top(record)
    wrong = [c for c in result.checks if not c.passed and c.reason in ("values", "shape", "none", "not_finite")]
    assert wrong and all(c.details["pattern"]["pattern"] == record["leaves"][next(
        lbl for lbl in record["leaves"] if c.label.endswith(lbl))]["pattern"] for c in wrong)


@pytest.mark.parametrize("family,eid,src,want", ALL, ids=IDS)
def test_check_names_the_pattern_after_the_numbers(family, eid, src, want):
    result = check(eid, namespace(src))
    wrong = [c for c in result.checks if not c.passed]
    if (family, eid) in VISIBLE_PASSES:
        assert not wrong  # nothing is claimed about a right visible answer
        return
    assert wrong
    patterns = {c.details["pattern"]["pattern"] for c in wrong if "pattern" in c.details}
    assert want["pattern"] in patterns
    if want["pattern"] != "other":
        first = wrong[0] if "pattern" in wrong[0].details else next(c for c in wrong if "pattern" in c.details)
        head, _, tail = first.message.partition("Pattern:")
        assert tail, first.message  # the hint comes after the numbers
        assert head.strip()


def test_the_hint_is_in_the_students_language():
    src = WRONG["scale"][2][1]  # counted twice
    for lang, word in (("es", "Patrón: exactamente el doble"), ("pt", "Padrão: exatamente o dobro"),
                       ("ru", "Типичная ошибка: ровно вдвое"), ("en", "exactly twice")):
        from grader.i18n import set_language

        set_language(lang)
        try:
            result = check("l01_ex3", namespace(src))
        finally:
            set_language(None)
        assert all(word in c.message for c in result.checks if not c.passed), lang


def test_a_pattern_must_explain_every_case():
    # negated only for negative points: right on x0 = 2.0, -1x on x0 = -0.5 -> no sign claim
    src = '''
def derivative_at(x0):
    x = tf.Variable(x0)
    with tf.GradientTape() as tape:
        y = x ** 3 - 2 * x
    g = tape.gradient(y, x)
    return -g if x0 < 0 else g
'''
    result = check("l01_ex1", namespace(src))
    wrong = [c for c in result.checks if not c.passed]
    assert len(wrong) == 1 and wrong[0].details["pattern"]["pattern"] == "other"
    assert "Pattern:" not in wrong[0].message


def test_no_pattern_when_a_case_raised():
    src = '''
def derivative_at(x0):
    if x0 < 0:
        raise ValueError("negative")
    x = tf.Variable(x0)
    with tf.GradientTape() as tape:
        y = 2 * x - x ** 3
    return tape.gradient(y, x)
'''
    result = check("l01_ex1", namespace(src))
    assert not any("pattern" in c.details for c in result.checks)


def _leaf(got, exp, status=None):
    got = None if got is None else np.asarray(got, float)
    exp = np.asarray(exp, float)
    if status is None:
        status = "none" if got is None else ("shape" if got.shape != exp.shape else
                                             ("ok" if np.allclose(got, exp) else "values"))
    return LeafCase(status, exp, got)


def test_classify_on_plain_arrays():
    tol = (1e-6, 1e-9)
    one = lambda got, exp, **kw: classify([CaseData({"": _leaf(got, exp)}, **kw)], tol)[""]
    assert one([[1.0], [2.0]], [1.0, 2.0]).kind == "extra_axis"
    assert one([1.0, 2.0], [[1.0, 2.0]]).kind == "missing_axis"
    assert one(6.0, [1.0, 2.0, 3.0]).kind == "broadcast"  # reduced too far
    assert one([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [[1.0, 4.0], [2.0, 5.0], [3.0, 6.0]]).kind == "transposed"
    assert one([3.0, 6.0], [1.0, 2.0]).k == "3"  # an unnamed constant, fitted on two numbers
    assert one(3.0, 1.0).pattern == "other"      # one number: any k would fit it
    assert one([5.0, 10.0], [1.0, 2.0], sizes={"x.shape[0]": 5}).k == "n"
    assert one([np.nan, 1.0], [1.0, 2.0], ).pattern == "other"  # status says values: not claimed
    assert classify([CaseData({"": _leaf([np.nan, 1.0], [1.0, 2.0], "not_finite")})], tol)[""].pattern == "not_finite"
    # the factor must be the same on every case (or the case's own n)
    cases = [CaseData({"": _leaf([2.0, 4.0], [1.0, 2.0])}, sizes={"n": 2}),
             CaseData({"": _leaf([3.0, 6.0], [1.0, 2.0])}, sizes={"n": 3})]
    assert classify(cases, tol)[""].k == "n"
    cases[1].sizes = {"n": 4}
    assert classify(cases, tol)[""].pattern == "other"


def test_summary_record():
    d = classify([CaseData({"[0]": _leaf([-1.0], [1.0]), "[1]": _leaf([2.0], [2.0])})], (1e-6, 1e-9))
    assert summary(d, lambda p: {"[0]": "dL/dw"}[p]) == {
        "pattern": "sign", "leaves": {"dL/dw": {"pattern": "sign"}}}
    assert summary({}) == {}


@pytest.mark.parametrize("family,eid,src,want", ALL, ids=IDS)
def test_trusted_side_classifies_the_data_a_kernel_reported(family, eid, src, want):
    """The probe path: values come back as data (grader.wire) and are classified in the
    trusted process exactly as a live answer is."""
    from unittest import mock

    from grader.student.mistakes import annotate
    from grader.autograde.scoring import build_probe, score_probe

    ex = get(eid)
    source, plan = build_probe(ex, "en", 3)
    ns = namespace(src)
    ns["__name__"] = "__main__"
    shown = []
    with mock.patch("IPython.display.display", lambda obj, raw=False: shown.append(obj)):
        exec(source, ns)
    result, _, _ = score_probe(ex, plan, [{"output_type": "display_data", "data": d} for d in shown],
                               "en", [src])
    record = annotate(result)
    assert {k: record.get(k) for k in want} == want, _top(record)
    assert any("pattern" in c.details for c in result.checks if not c.passed)


@pytest.mark.parametrize("lang", ["en", "es", "pt", "ru"])
def test_none_names_its_reason_as_a_stable_code_in_every_language(lang):
    """"forgot tape.watch" and "went through NumPy" are counted apart, whatever the language
    the explanation came back in (the trusted side only gets the kernel's text)."""
    from grader.i18n import set_language
    from grader.student.mistakes import annotate

    detour = '''
def derivative_at(x0):
    x = tf.Variable(x0)
    with tf.GradientTape() as tape:
        y = tf.constant(np.power(x.numpy(), 3) - 2 * x.numpy())
    return tape.gradient(y, x)
'''
    set_language(lang)
    try:
        kinds = [annotate(check("l01_ex1", namespace(src))).get("kind")
                 for src in (WRONG["none"][0][1], detour)]
    finally:
        set_language(None)
    assert kinds == ["not_watched", "numpy"]


def test_a_failure_to_classify_never_costs_the_report(monkeypatch):
    import grader.student.mistakes as mistakes

    def broken(*args, **kwargs):
        raise RuntimeError("classifier bug")

    monkeypatch.setattr(mistakes, "classify", broken)
    result = check("l01_ex1", namespace(WRONG["sign"][0][1]))
    assert not result.passed and all("pattern" not in c.details for c in result.checks)
    assert mistakes.annotate(result) == {}


# The precision pattern is for an exercise whose subject is precision (declared float64, said in its
# statement; no exercise of the course is one now): forward differences in NumPy are right to
# float32's tolerance, the one every exercise is graded at, and wrong to float64's.
FORWARD_DIFFERENCES = '''
def mse_gradients(w, b, x, y_true):      # forward differences in NumPy, h = 1e-5
    W, B, X, Y = (np.array(t.numpy()) for t in (w, b, x, y_true))
    loss = lambda W, B: np.mean((X @ W + B - Y) ** 2)
    def fd(A, f, h=1e-5):
        g = np.zeros_like(A)
        for i in np.ndindex(A.shape):
            A2 = A.copy()
            A2[i] += h
            g[i] = (f(A2) - f(A)) / h
        return g
    return [tf.constant(fd(W, lambda A: loss(A, B))), tf.constant(fd(B, lambda A: loss(W, A)))]
'''


def test_the_precision_pattern_names_float32_accuracy_where_float64_is_declared():
    import dataclasses

    strict = dataclasses.replace(get("l01_ex2"), precision="float64")
    result = run_exercise(strict, namespace(FORWARD_DIFFERENCES), include_hidden=True, seed=7, lang="en")
    assert not result.passed
    assert {c.details["pattern"]["pattern"] for c in result.checks if not c.passed} == {"precision"}
    # graded at float32's tolerance (the rule), the same answer keeps its points
    assert run_exercise(get("l01_ex2"), namespace(FORWARD_DIFFERENCES), include_hidden=True, seed=7,
                        lang="en").passed


def test_a_gradient_computed_but_not_returned_is_not_called_unconnected():
    # the pattern line must not contradict the None explanation above it (pt review, G1)
    src = '''
def derivative_at(x0):
    x = tf.Variable(x0)
    with tf.GradientTape() as tape:
        y = x ** 3 - 2 * x
    g = tape.gradient(y, x)
'''
    result = check("l01_ex1", namespace(src))
    messages = [c.message for c in result.checks if not c.passed]
    assert messages and all("never returned" in m and "never connected" not in m for m in messages), messages
