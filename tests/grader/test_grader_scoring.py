"""Out-of-kernel scoring (grader.autograde.scoring, grader.wire, grader.autograde.technique), in one process.

The probe's code (grader/autograde/probe.py) runs here as it would in a kernel; its one
output is captured and scored like ScoreProbes does. The end-to-end version, with real
kernels and cheats, is tests/grader/test_grader_adversarial.py.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from unittest import mock

import nbformat
import numpy as np
import pytest

from grader.student.checks import compare_leaf
from grader.student.registry import all_exercises, get
from grader.autograde.scoring import PROBE_MIME, build_probe, exercise_seed, score_probe
from grader.autograde.technique import evidence, provably_raises, technique_notes
from grader.wire import WireError, decode_answer

REPO = Path(__file__).resolve().parents[2]


def _solutions() -> dict[str, str]:
    """Every exercise's solution code, from the English source notebooks."""
    out = {}
    for path in sorted((REPO / "grader" / "course" / "source").glob("*-en/*.ipynb")):
        cells = nbformat.read(str(path), as_version=4).cells
        for i, cell in enumerate(cells):
            meta = cell.get("metadata", {}).get("nbgrader", {})
            if meta.get("grade") and not meta.get("solution"):
                j = i - 1
                while not cells[j].get("metadata", {}).get("nbgrader", {}).get("solution"):
                    j -= 1
                out[meta["grade_id"]] = "\n".join(
                    line for line in cells[j].source.splitlines() if "### " not in line)
    return out


SOLUTIONS = _solutions()


def run_probe(exercise_id, code, *, seed=1, call_timeout=None, lang="en", extra_outputs=(),
              namespace=None, cells=None):
    """Run the probe of ``exercise_id`` against ``code`` (in ``namespace``) here; score it."""
    ex = get(exercise_id)
    source, plan = build_probe(ex, lang, seed, call_timeout)
    ns = {"__name__": "__main__"} if namespace is None else namespace
    exec("import minitape as tf\nimport numpy as np\n" + code, ns)
    shown = []
    with mock.patch("IPython.display.display", lambda obj, raw=False: shown.append(obj)):
        exec(source, ns)
    outputs = [{"output_type": "display_data", "data": d} for d in shown] + list(extra_outputs)
    return score_probe(ex, plan, outputs, lang, [code] if cells is None else cells)


@pytest.mark.parametrize("exercise_id", [e for e in sorted(all_exercises()) if not e.startswith("l07")])
def test_every_reference_solution_earns_every_point_through_the_probe(exercise_id):
    result, issues, facts = run_probe(exercise_id, SOLUTIONS[exercise_id], seed=11)
    assert (result.score, issues) == (result.points, []), result.text()
    assert len(facts["seconds"]) == len(get(exercise_id).visible) + len(get(exercise_id).hidden)


def test_no_output_scores_zero_and_says_why():
    ex = get("l01_ex1")
    _, plan = build_probe(ex, "en", 1)
    result, issues, _ = score_probe(ex, plan, [], "en")
    assert result.score == 0 and [k for k, _ in issues] == ["no_result"]
    assert "no result for `derivative_at`" in result.text()


def test_forged_and_extra_outputs_score_only_what_their_data_deserves():
    right = SOLUTIONS["l01_ex1"]
    # a forged payload (unknown nonce, claims the right values) next to the real one
    forged = {"output_type": "display_data", "data": {PROBE_MIME: {
        "exercise": "l01_ex1", "nonce": "0" * 16,
        "cases": [{"answer": {"t": "number", "v": 1.0}}] * 5}}}
    stub = "def derivative_at(x0):\n    raise NotImplementedError()\n"
    result, issues, _ = run_probe("l01_ex1", stub, extra_outputs=[forged])
    assert result.score == 0
    assert [k for k, _ in issues] == ["malformed_result", "multiple_results"]
    # right answer + a second, worse real-looking payload: the lowest counts
    ex = get("l01_ex1")
    source, plan = build_probe(ex, "en", 3)
    ns = {}
    exec("import minitape as tf\n" + right, ns)
    shown = []
    with mock.patch("IPython.display.display", lambda obj, raw=False: shown.append(obj)):
        exec(source, ns)
    worse = json.loads(json.dumps(shown[0][PROBE_MIME]))
    worse["cases"][0] = {"answer": {"t": "none"}}
    outputs = [{"output_type": "display_data", "data": {PROBE_MIME: p}}
               for p in (shown[0][PROBE_MIME], worse)]
    result, issues, _ = score_probe(ex, plan, outputs, "en")
    assert 0 < result.score < 1 and [k for k, _ in issues] == ["multiple_results"]


@pytest.mark.parametrize("node", [
    {"t": "tensor", "dtype": "|O", "shape": [1], "b64": "AA=="},            # object dtype
    {"t": "tensor", "dtype": "<f8", "shape": [3], "b64": "AAAAAAAAAAA="},   # length mismatch
    {"t": "tensor", "dtype": "<f8", "shape": [10**7], "b64": ""},           # too large
    {"t": "tensor", "dtype": "<f8", "shape": [1], "b64": "not base64!"},
    {"t": "tensor", "dtype": "<c16", "shape": [1], "b64": base64.b64encode(bytes(16)).decode()},
    {"t": "pickle", "data": "gASVAAAAAAAAAACMBHRlc3SULg=="},
    {"t": "list", "items": [{"t": "list", "items": []}] * 2000},
    {"t": "dict", "items": [[None, {"t": "none"}]]},
    {"t": "number", "v": 10**400},                                           # beyond any float
    {"t": "number", "v": "1e400"},
    {"t": "unusable", "why": "a tensor too large"},                          # the kernel said so
])
def test_decoding_refuses_anything_but_bounded_plain_numbers(node):
    with pytest.raises(WireError):
        decode_answer(node)


# ------------------------------------------------------------------------------------------
# Issue 36, class 4: every comparison is robust to overflow, NaN and infinity. Answers of
# 1.79e308 used to pass the finite-difference checks (their tolerance overflowed to infinity)
# ------------------------------------------------------------------------------------------
EXTREMES = (1.79e308, -1.79e308, float(np.finfo(np.float32).max), -1e300, 1e300, np.inf, -np.inf,
            np.nan)


def _filled(expected, value, plain=False):
    """An answer shaped like ``expected`` whose every number is ``value``."""
    if isinstance(expected, dict):
        return {k: _filled(v, value, plain) for k, v in expected.items()}
    if isinstance(expected, (list, tuple)):
        return type(expected)(_filled(v, value, plain) for v in expected)
    shape = np.shape(expected)
    return value if plain and not shape else np.full(shape, value, dtype=np.float64)


def _cases(ex, seed=5):
    from grader.student.runner import graded_cases, reference_answer

    for case, label, hidden, case_seed, with_fd in graded_cases(ex, "en", True, seed):
        inputs = case.make(np.random.default_rng(case_seed))
        yield case, label, hidden, case_seed, with_fd, inputs, reference_answer(ex, case, case_seed)


@pytest.mark.parametrize("exercise_id", sorted(all_exercises()))
def test_extreme_values_never_earn_a_point_on_any_exercise(exercise_id):
    """Every check of every case (visible, hidden, finite differences) of every exercise fails
    an answer whose numbers are all 1.79e308, -1.79e308, float32's largest, +-1e300, infinite or
    NaN, judged live (``check`` at home) and as a kernel reports it (the wire's two halves)."""
    from grader.student.runner import judge_case
    from grader.wire import encode_answer

    ex = get(exercise_id)
    fd_checks = 0
    for case, label, hidden, seed, with_fd, inputs, expected in _cases(ex):
        fd_checks += with_fd
        for value, plain in ((v, p) for v in EXTREMES for p in (False, True)):
            live = _filled(expected, value, plain)  # arrays, or Python numbers where scalar
            for answer in (live, decode_answer(json.loads(json.dumps(encode_answer(live))))):
                checks = judge_case(ex, case, label, hidden, seed, "en", answer=answer,
                                    inputs=inputs, with_fd=with_fd, expected=expected)
                passed = [c.label for c in checks if c.passed]
                assert passed == [], (exercise_id, label, value, passed)
    assert fd_checks == (min(ex.fd_checks, len(ex.hidden)) if ex.has_fd else 0)


@pytest.mark.parametrize("exercise_id", ["l01_ex2", "l07_ex2"])
def test_numbers_no_float_holds_are_that_exercises_malformed_result(exercise_id):
    """An answer holding an integer of 400 digits (an honest overflow in exact arithmetic) or
    a tensor too large to send: the exercise scores 0 with ``malformed_result``; the probe and
    the scoring survive it (before: the probe raised OverflowError, or the trusted side did)."""
    from grader.wire import encode_answer

    ex = get(exercise_id)
    _, plan = build_probe(ex, "en", 3)
    big = 10 ** 400
    for garbage in (big, -big, np.zeros(2_000_000)):
        cases = []
        for *_, expected in _cases(ex, plan.seed):
            answer = _filled(expected, 0.0, plain=True)
            leaf = answer
            while isinstance(leaf, (dict, list, tuple)):  # the first leaf holds the garbage
                key = next(iter(leaf)) if isinstance(leaf, dict) else 0
                if not isinstance(leaf[key], (dict, list, tuple)):
                    leaf[key] = garbage
                    break
                leaf = leaf[key]
            cases.append({"answer": encode_answer(answer), "seconds": 0.0})
        payload = {"exercise": ex.id, "nonce": plan.nonce, "cases": cases}
        out = [{"output_type": "display_data", "data": {PROBE_MIME: payload}}]
        result, issues, _ = score_probe(ex, plan, out, "en")
        assert result.score == 0 and "malformed_result" in [k for k, _ in issues], issues
    # a kernel that sends the int itself (a forged payload) is refused the same way
    forged = {"exercise": ex.id, "nonce": plan.nonce,
              "cases": [{"answer": {"t": "number", "v": big}}] * len(plan.cases)}
    result, issues, _ = score_probe(ex, plan, [{"output_type": "display_data",
                                                "data": {PROBE_MIME: forged}}], "en")
    assert result.score == 0 and "malformed_result" in [k for k, _ in issues]


def test_the_probe_reports_an_answer_it_cannot_encode_instead_of_failing():
    code = "def derivative_at(x0):\n    return 10 ** 400\n"
    result, issues, facts = run_probe("l01_ex1", code)
    kinds = [k for k, _ in issues]
    assert result.score == 0 and "malformed_result" in kinds and "no_result" not in kinds, issues
    assert "too large for a floating-point number" in result.text()  # said on a visible case


def test_deeply_nested_data_is_refused():
    node = {"t": "none"}
    for _ in range(50):
        node = {"t": "list", "items": [node]}
    with pytest.raises(WireError):
        decode_answer(node)


def test_tolerance_comes_from_the_exercise_not_from_the_answers_dtype():
    # d/dx (x**3 - 2x) near its zero, where float32's cancellation shows
    x = np.float32(0.8165)
    exact = 3 * np.float64(x) ** 2 - 2
    as_float32 = np.float64(np.float32(3) * x * x - np.float32(2))  # returned as float64
    assert not compare_leaf(exact, as_float32).passed  # judged by its own dtype: float64
    assert compare_leaf(exact, as_float32, precision="float32").passed
    cast = ("def derivative_at(x0):\n    x = tf.Variable(x0)\n    with tf.GradientTape() as tape:\n"
            "        y = x**3 - 2 * x\n    return tf.cast(tape.gradient(y, x), tf.float64)\n")
    for seed in range(25):
        result, _, _ = run_probe("l01_ex1", cast, seed=seed)
        assert result.score == 1, result.text()


def test_each_call_has_its_own_time_limit_and_a_timeout_skips_the_rest():
    slow = ("import time\n\ndef derivative_at(x0):\n    time.sleep(0.3)\n"
            "    x = tf.Variable(x0)\n    with tf.GradientTape() as tape:\n"
            "        y = x**3 - 2 * x\n    return tape.gradient(y, x)\n")
    result, _, facts = run_probe("l01_ex1", slow, call_timeout=1.0)  # 5 calls: 1.5 s > 1 s
    assert result.score == 1 and not facts["timed_out"]
    stuck = "def derivative_at(x0):\n    while True:\n        pass\n"
    result, _, facts = run_probe("l01_ex1", stuck, call_timeout=0.3)
    assert result.score == 0 and facts["timed_out"] and len(facts["seconds"]) == 1
    assert "no result within 0.3 s" in result.text()
    assert "not run: an earlier call timed out" in result.text()


def test_hidden_points_are_seeded_per_student_and_by_an_explicit_seed():
    kw = {"course": "c", "assignment": "01-gradients-en"}
    ana = exercise_seed("l01_ex1", student="ana", **kw)
    assert ana == exercise_seed("l01_ex1", student="ana", **kw)  # a regrade: the same points
    assert ana != exercise_seed("l01_ex1", student="bob", **kw)
    assert ana != exercise_seed("l01_ex2", student="ana", **kw)
    assert exercise_seed("l01_ex1", student="ana", seed=5, **kw) == \
        exercise_seed("l01_ex1", student="bob", seed=5, **kw)
    one, plan_a = build_probe(get("l01_ex2"), "en", ana)
    two, plan_b = build_probe(get("l01_ex2"), "en", ana)
    strip = lambda s, p: s.replace(p.nonce, "")  # noqa: E731
    assert strip(one, plan_a) == strip(two, plan_b)


HVP_BY_HESSIAN = (
    "def logistic_hvp(w, x, y, v):\n"
    "    with tf.GradientTape() as outer:\n"
    "        with tf.GradientTape() as inner:\n"
    "            loss = tf.reduce_mean(tf.math.softplus(-y * tf.linalg.matvec(x, w)))\n"
    "        g = inner.gradient(loss, w)\n"
    "    return tf.linalg.matvec(outer.jacobian(g, w), v)\n")
STABLE_WITHOUT_CUSTOM_GRADIENT = (
    "def log1pexp_and_gradient(x):\n"
    "    with tf.GradientTape() as tape:\n"
    "        tape.watch(x)\n"
    "        y = tf.maximum(x, 0.0) + tf.math.log1p(tf.exp(-tf.abs(x)))\n"
    "    return [y, tf.nn.sigmoid(x)]\n")
BACKWARD_WITH_MINITAPE = (
    "def backward(tape, values, target):\n"
    "    ops = {'add': lambda a, b: a + b, 'mul': lambda a, b: a * b, 'sin': tf.sin, 'exp': tf.exp}\n"
    "    outs = {o for o, _, _ in tape}\n"
    "    env = {}\n"
    "    with tf.GradientTape() as gt:\n"
    "        for n, v in values.items():\n"
    "            if n not in outs:\n"
    "                env[n] = tf.constant(np.float64(v))\n"
    "                gt.watch(env[n])\n"
    "        for o, op, ins in tape:\n"
    "            env[o] = ops[op](*(env[i] for i in ins))\n"
    "    names = list(values)\n"
    "    g = gt.gradient(env[target], [env[n] for n in names],\n"
    "                    unconnected_gradients=tf.UnconnectedGradients.ZERO)\n"
    "    return {n: float(x.numpy()) for n, x in zip(names, g)}\n")
ROUNDING_BY_FORMULA = (  # the windowed straight-through gradient derived by hand, no tape
    "def quantized_gradient(w, x, t):\n"
    "    k, m = t.shape\n"
    "    residual = tf.matmul(x, tf.round(w)) - t\n"
    "    window = tf.cast(tf.abs(w) <= 1.0, w.dtype)\n"
    "    return 2.0 / (k * m) * tf.matmul(x, residual, transpose_a=True) * window\n")
JACOBIAN_THEN_DIAGONAL = (
    "def per_example_jacobians(w, x):\n"
    "    with tf.GradientTape() as tape:\n"
    "        tape.watch(x)\n"
    "        y = tf.math.tanh(tf.matmul(x, w))\n"
    "    full = tape.jacobian(y, x).numpy()\n"
    "    b = full.shape[0]\n"
    "    return tf.constant(np.stack([full[i, :, i, :] for i in range(b)]))\n")

VJP_BY_JACOBIANS = (
    "def layer_vjp(w, x, u):\n"
    "    with tf.GradientTape(persistent=True) as tape:\n"
    "        tape.watch(x)\n"
    "        y = tf.math.tanh(tf.matmul(x, w))\n"
    "    jx, jw = tape.jacobian(y, x).numpy(), tape.jacobian(y, w).numpy()\n"
    "    un = u.numpy()\n"
    "    return [tf.constant(np.einsum('bm,bmcn->cn', un, jx)),\n"
    "            tf.constant(np.einsum('bm,bmnk->nk', un, jw))]\n")


VARIABLE_AS_AN_ARGUMENT = (  # a custom gradient, but `a` is an input, not a Variable it reads
    "def scaled_tanh_gradients(a, x):\n"
    "    @tf.custom_gradient\n"
    "    def scaled_tanh(z, s):\n"
    "        y = tf.tanh(s * z)\n"
    "        def backward(upstream):\n"
    "            local = 1.0 - y**2\n"
    "            d_s = tf.clip_by_value(tf.reduce_sum(upstream * z * local), -1.0, 1.0)\n"
    "            return upstream * s * local, d_s\n"
    "        return y, backward\n"
    "    with tf.GradientTape() as tape:\n"
    "        tape.watch(x)\n"
    "        loss = tf.reduce_sum(scaled_tanh(x, a) ** 2) + a**2\n"
    "    return tape.gradient(loss, [x, a])\n")
SCALED_TANH_WITHOUT_CUSTOM_GRADIENT = (  # the function's part clipped by hand, then the penalty's
    "def scaled_tanh_gradients(a, x):\n"
    "    with tf.GradientTape() as tape:\n"
    "        tape.watch(x)\n"
    "        loss = tf.reduce_sum(tf.tanh(a * x) ** 2)\n"
    "    dx, da = tape.gradient(loss, [x, a])\n"
    "    return [dx, tf.clip_by_value(da, -1.0, 1.0) + 2 * a]\n")


@pytest.mark.parametrize("exercise_id, code, words", [
    ("l05_ex4", HVP_BY_HESSIAN, ["asked for tf.autodiff.ForwardAccumulator",
                                 "asked not to use a Jacobian or Hessian"]),
    ("l04_ex2", STABLE_WITHOUT_CUSTOM_GRADIENT, ["asked for tf.custom_gradient"]),
    ("l07_ex2", BACKWARD_WITH_MINITAPE, ["asked not to use minitape's automatic differentiation"]),
    ("l04_ex1", ROUNDING_BY_FORMULA, ["asked for tf.stop_gradient"]),
    ("l04_ex3", SCALED_TANH_WITHOUT_CUSTOM_GRADIENT, ["asked for tf.custom_gradient (with"]),
    ("l05_ex5", JACOBIAN_THEN_DIAGONAL, ["asked for tape.batch_jacobian"]),
    ("l05_ex6", VJP_BY_JACOBIANS, ["asked for gradient(..., output_gradients=u)",
                                   "asked not to use a Jacobian"]),
])
def test_right_values_computed_another_way_keep_the_points_and_get_an_instructor_note(
        exercise_id, code, words):
    # a technique read from source cannot tell which path each graded call took: it is a
    # note for the instructor's review (export, flag), never points lost
    result, issues, _ = run_probe(exercise_id, code)
    assert result.passed and result.score == result.points, result.text()  # optional ones: 0 of 0
    notes = [detail for kind, detail in issues if kind == "technique"]
    for word in words:
        assert any(word in note for note in notes), notes
    assert "technique" not in result.text()  # the student's report: values only


def test_the_technique_is_read_from_the_function_and_the_functions_it_calls():
    cells = ["import minitape as tf\n\ndef helper(x):\n    return tf.autodiff.ForwardAccumulator\n",
             "%matplotlib inline\ndef logistic_hvp(w, x, y, v):\n    return helper(w)\n",
             "def unrelated():\n    return tape.jacobian\n"]
    ev = evidence(cells, "logistic_hvp")
    assert "ForwardAccumulator" in ev.names and "jacobian" not in ev.names | ev.conditional
    assert not evidence(cells, "missing").defined


@pytest.mark.parametrize("cells", [
    # import aliases, call form, closure, lambda, helper cell, dead debug branch
    ["from minitape import custom_gradient as cg\n",
     "@cg\ndef f(x):\n    return x, lambda u: u\n\ndef log1pexp_and_gradient(x):\n    return f(x)\n"],
    ["import minitape as tf\ndef g(x):\n    return x, lambda u: u\n",
     "f = tf.custom_gradient(g)\nlog1pexp_and_gradient = lambda x: f(x)\n"],
    ["import minitape as mt\ncg = mt.custom_gradient\n",
     "def make():\n    @cg\n    def inner(x):\n        return x, lambda u: u\n    return inner\n",
     "log1pexp_and_gradient = make()\n"],
    ["import minitape as tf\nDEBUG = False\n",
     "def log1pexp_and_gradient(x):\n    if DEBUG:\n        tape = tf.GradientTape()\n"
     "    return tf.custom_gradient(lambda z: (z, lambda u: u))(x)\n"],
])
def test_honest_variety_reads_as_the_technique(cells):
    ex = get("l04_ex2")
    assert technique_notes(ex.techniques, cells, ex.function) == []


@pytest.mark.parametrize("cells, note", [
    # a decoy def, then a rebinding: the function graded is the last binding
    (["import minitape as tf\n@tf.custom_gradient\ndef log1pexp_and_gradient(x):\n"
      "    return x, lambda u: u\n", "def formula(x):\n    return x\n",
      "log1pexp_and_gradient = formula\n"], "not found"),
    # the technique on some inputs only (the visible ones), a formula on the others
    (["import minitape as tf\ndef log1pexp_and_gradient(x):\n    if x.shape == (3,):\n"
      "        return tf.custom_gradient(lambda z: (z, lambda u: u))(x)\n    return x\n"],
     "only on some paths"),
    # a name computed at run time: nothing to read
    (["import minitape as tf\ndef log1pexp_and_gradient(x):\n"
      "    return getattr(tf, 'custom' + '_gradient')(lambda z: (z, lambda u: u))(x)\n"],
     "cannot follow"),
])
def test_decoys_partial_use_and_dynamic_code_are_noted(cells, note):
    ex = get("l04_ex2")
    notes = technique_notes(ex.techniques, cells, ex.function)
    assert any(note in n for n in notes), notes


def test_a_forbidden_tool_behind_an_alias_or_a_captured_method_is_noted():
    ex = get("l07_ex1")
    for cells in (
        ["from minitape import GradientTape as GT\n",
         "def quotient_gradients(a0, b0):\n    with GT() as t:\n        pass\n    return [0.0, 0.0]\n"],
        ["import minitape as tf\njac = tf.GradientTape.jacobian\n",
         "def quotient_gradients(a0, b0):\n    return jac\n"],
        ["import minitape as tf\ng = tf.GradientTape._gradient.__wrapped__\n",
         "def quotient_gradients(a0, b0):\n    return g\n"],
    ):
        notes = technique_notes(ex.techniques, cells, ex.function)
        assert any("asked not to use minitape's automatic differentiation" in n for n in notes), notes


def test_a_stub_that_always_raises_is_known_from_its_source():
    stub = "def f(x):\n    \"\"\"doc\"\"\"\n    # YOUR CODE HERE\n    raise NotImplementedError()\n"
    assert provably_raises([stub], "f") == "yes"
    assert provably_raises([stub, "def f(x):\n    return x\n"], "f") == "no"
    assert provably_raises([stub, "f = lambda x: x\n"], "f") == "no"
    assert provably_raises([stub, "globals()['f'] = print\n"], "f") == "unsure"
    # a function built on stubs (lesson 7's release: quotient_gradients calls cos and div)
    tape = ("class Tape:\n    def __enter__(self):\n        return self\n"
            "    def __exit__(self, *exc):\n        return False\n")
    built = ("def cos(x):\n    x = float(x)\n    raise NotImplementedError()\n\n"
             "def g(a):\n    a = float(a)\n    with Tape() as t:\n        f = cos(a) / 2\n"
             "    return f\n")
    assert provably_raises([tape, built], "g") == "yes"
    suppressing = tape.replace("return False", "return True")
    assert provably_raises([suppressing, built], "g") == "no"
    answered = built.replace("    raise NotImplementedError()\n", "    return x\n")
    assert provably_raises([tape, answered], "g") == "no"
    branching = built.replace("    a = float(a)\n", "    if a > 0:\n        return a\n")
    assert provably_raises([tape, branching], "g") == "no"


def test_values_reported_for_a_stub_are_forged_and_score_zero():
    # the stub stays; a display hook (here: a patched display) answers for it
    ex = get("l01_ex1")
    source, plan = build_probe(ex, "en", 1)
    stub = "def derivative_at(x0):\n    raise NotImplementedError()\n"
    ns = {"__name__": "__main__"}
    exec("import minitape as tf\n" + SOLUTIONS["l01_ex1"].replace("derivative_at", "real"), ns)
    exec(stub, ns)
    ns["derivative_at"] = ns["real"]  # what a hook rebinding it out of sight does
    shown = []
    with mock.patch("IPython.display.display", lambda obj, raw=False: shown.append(obj)):
        exec(source, ns)
    outputs = [{"output_type": "display_data", "data": d} for d in shown]
    result, issues, _ = score_probe(ex, plan, outputs, "en", [stub])
    assert result.score == 0 and "forged_result" in [k for k, _ in issues], result.text()


def test_hidden_failures_say_why_and_never_with_what():
    printing = ("def derivative_at(x0):\n    print('x0 is', x0)\n"
                "    raise ValueError(f'secret {x0!r}')\n")
    ex = get("l01_ex1")
    result, _, _ = run_probe("l01_ex1", printing, seed=5)
    text = result.text() + result._repr_html_()
    _, plan = build_probe(ex, "en", 5)
    from grader.student.runner import graded_cases

    for case, _, hidden, case_seed, _ in graded_cases(ex, "en", True, 5):
        x0 = case.make(np.random.default_rng(case_seed)).args[0]
        assert (repr(x0) in text) != hidden, (x0, hidden)  # visible errors quote; hidden never
    assert "x0 is" not in text  # printed output is not kept at all
    hidden = [c for c in result.checks if c.hidden]
    assert hidden and all(c.message == "Your function raised an exception at a hidden point."
                          for c in hidden if c.reason == "error")
    # a random program's names (l07_ex2's answer is keyed by them) stay hidden too
    result, _, _ = run_probe("l07_ex2", "def backward(tape, values, target):\n    return {}\n")
    assert all(c.label.startswith(("random point", "finite")) and "[" not in c.label
               for c in result.checks if c.hidden), result.text()
    wrong = "def derivative_at(x0):\n    return tf.constant(x0 * 0.0 + 1.0)\n"
    result, _, _ = run_probe("l01_ex1", wrong, seed=5)
    for check in result.checks:
        if check.hidden:
            assert not check.details and "expected" not in check.message.lower(), check


def test_a_plain_python_zero_is_a_number_where_the_answers_are_plain_numbers():
    ex = get("l07_ex4")
    from grader.student.runner import judge_case

    case = ex.visible[1]  # alpha = 0, first point beyond the margin
    inputs = case.make(np.random.default_rng(1001))
    expected = [float(np.asarray(g)) for g in ex.reference(*inputs.args)]
    answer = [0 if e == 0 else e for e in expected]
    assert any(a == 0 and type(a) is int for a in answer) or True
    checks = judge_case(ex, case, "v", False, 1001, "en", answer=[0, 0, 0] if not any(expected)
                        else answer, inputs=inputs)
    assert all(c.passed for c in checks), checks
    checks = judge_case(ex, case, "v", False, 1001, "en", answer=[int(round(e)) for e in expected],
                        inputs=inputs)
    assert all(c.reason in ("ok", "values") for c in checks)  # ints are numbers, never "dtype"


def _lesson7_cells() -> list[str]:
    """Lesson 7's code cells before its exercises' answers (what a submission has around them)."""
    path = next((REPO / "grader" / "course" / "source").glob("07-*-en/*.ipynb"))
    return [cell.source for cell in nbformat.read(str(path), as_version=4).cells
            if cell.cell_type == "code" and not cell.get("metadata", {}).get("nbgrader", {})]


def _lesson7_namespace() -> dict:
    """Lesson 7's notebook run up to its exercises: the lesson's own Value, Tape, record."""
    path = next((REPO / "grader" / "course" / "source").glob("07-*-en/*.ipynb"))
    ns = {"__name__": "__main__"}
    with mock.patch("IPython.display.display", lambda *a, **k: None):
        for cell in nbformat.read(str(path), as_version=4).cells:
            meta = cell.get("metadata", {}).get("nbgrader", {})
            if cell.cell_type != "code" or (meta.get("grade") and not meta.get("solution")):
                continue
            if meta.get("solution"):
                continue  # the exercises' answers come from each test below
            exec("\n".join(line for line in cell.source.splitlines()
                           if not line.lstrip().startswith(("%", "!"))), ns)
    return ns


QUOTIENT_WITH_MINITAPE = (
    "def quotient_gradients(a0, b0):\n"
    "    a, b = tf.Variable(a0), tf.Variable(b0)\n"
    "    with tf.GradientTape() as tape:\n"
    "        f = tf.cos(a * b) / b\n"
    "    return [float(g) for g in tape.gradient(f, [a, b])]\n")


def test_lesson7_answers_must_come_from_the_students_own_tape():
    ns = _lesson7_namespace()
    lesson = _lesson7_cells()
    for exercise_id in ("l07_ex1", "l07_ex3", "l07_ex4", "l07_ex5"):
        result, issues, facts = run_probe(exercise_id, SOLUTIONS[exercise_id], namespace=dict(ns),
                                          cells=lesson + [SOLUTIONS[exercise_id]])
        assert (result.score, issues) == (result.points, []), (result.text(), issues)
    result, issues, facts = run_probe("l07_ex1", QUOTIENT_WITH_MINITAPE, namespace=dict(ns),
                                      cells=lesson + [QUOTIENT_WITH_MINITAPE])
    assert result.score == 2.0, result.text()  # right values: a note, not points lost
    notes = " ".join(detail for kind, detail in issues if kind == "technique")
    assert "asked for your own Tape from this lesson" in notes
    assert "asked not to use minitape's automatic differentiation" in notes


# L07 ex5 (issue 27): the training loop on the student's own tape
LOOP_WITHOUT_KIT = (
    "def train_losses(values, xs, ys, learning_rate, steps):\n"
    "    params = [Value(v) for v in values]\n"
    "    losses = []\n"
    "    for _ in range(steps):\n"
    "        with Tape() as tape:\n"
    "            for p in params:\n"
    "                tape.watch(p)\n"
    "            loss = hinge_loss(params, xs, ys, relu)\n"
    "        for p, g in zip(params, tape.gradient(loss, params)):\n"
    "            p.value -= learning_rate * g\n"
    "        losses.append(loss.value)\n"
    "    return losses, [p.value for p in params]\n")
LOOP_ON_TENSORFLOW = (
    "def train_losses(values, xs, ys, learning_rate, steps, kit=TENSORFLOW):\n"
    "    leaf, tape_class, relu_fn = kit\n"
    "    params = [leaf(v) for v in values]\n"
    "    losses = []\n"
    "    for _ in range(steps):\n"
    "        with tape_class() as tape:\n"
    "            loss = hinge_loss(params, xs, ys, relu_fn)\n"
    "        for p, g in zip(params, tape.gradient(loss, params)):\n"
    "            p.assign_sub(learning_rate * g)\n"
    "        losses.append(float(loss))\n"
    "    return [losses, [float(p) for p in params]]\n")
LOSS_AFTER_UPDATE = LOOP_WITHOUT_KIT.replace("        losses.append(loss.value)\n",
                                             "        losses.append(hinge_loss(params, xs, ys, relu).value)\n")


def test_l07_ex5_honest_variety_keeps_every_point_and_tensorflows_tape_is_a_note():
    ns = _lesson7_namespace()
    lesson = _lesson7_cells()
    # no kit, updates through .value, a tuple: the same numbers, every point, no note
    result, issues, _ = run_probe("l07_ex5", LOOP_WITHOUT_KIT, namespace=dict(ns),
                                  cells=lesson + [LOOP_WITHOUT_KIT])
    assert (result.score, issues) == (result.points, []), (result.text(), issues)
    # the same loop run on tf.GradientTape: the same values (the point of the exercise), so
    # every point; that it is not the student's tape is the instructor's to read
    result, issues, _ = run_probe("l07_ex5", LOOP_ON_TENSORFLOW, namespace=dict(ns),
                                  cells=lesson + [LOOP_ON_TENSORFLOW])
    assert result.score == result.points, result.text()
    notes = " ".join(detail for kind, detail in issues if kind == "technique")
    assert "asked not to use minitape's automatic differentiation" in notes
    # each loss taken after its step's update: wrong losses, right parameters
    result, _, _ = run_probe("l07_ex5", LOSS_AFTER_UPDATE, namespace=dict(ns),
                             cells=lesson + [LOSS_AFTER_UPDATE])
    assert 0 < result.score < result.points, result.text()


def test_lesson7_given_cells_leave_a_stub_provably_raising():
    """The lesson's own cells use nothing a reading cannot follow (a setattr in the kits cell
    once made every lesson-7 stub 'unsure', so answers forged for a stub kept their points)."""
    stub = "def train_losses(values, xs, ys, learning_rate, steps, kit=OURS):\n    raise NotImplementedError()\n"
    assert provably_raises(_lesson7_cells() + [stub], "train_losses") == "yes"


def test_l07_ex6_unbroadcast_is_judged_on_values_and_shapes():
    """The optional tensor-tape exercise: the lesson's solution and another honest way (NumPy's
    sum over a tuple of axes) earn every point; forgetting keepdims loses the (3, 1) case."""
    result, issues, _ = run_probe("l07_ex6", SOLUTIONS["l07_ex6"], seed=11)
    assert result.passed and (result.score, issues) == (result.points, []), result.text()
    by_axes = ("def unbroadcast(grad, shape):\n"
               "    grad = np.asarray(grad)\n"
               "    lead = grad.ndim - len(shape)\n"
               "    axes = tuple(range(lead)) + tuple(lead + i for i, n in enumerate(shape)\n"
               "                                      if n == 1 and grad.shape[lead + i] != 1)\n"
               "    return grad.sum(axis=axes).reshape(tuple(shape))\n")
    result, issues, _ = run_probe("l07_ex6", by_axes, seed=11)
    assert result.passed and (result.score, issues) == (result.points, []), result.text()
    no_keepdims = SOLUTIONS["l07_ex6"].replace("keepdims=True", "keepdims=False")
    assert no_keepdims != SOLUTIONS["l07_ex6"]
    result, _, _ = run_probe("l07_ex6", no_keepdims, seed=11)
    failed = [c for c in result.checks if not c.passed]
    assert failed and any("(3, 1)" in c.label for c in failed), result.text()


# L04 ex4/ex5 (issue 27: they replace two exercises that copied the lesson's registry cells)
NEW_TAPE_PER_WINDOW = (
    "def truncated_gradient(w, xs, k):\n"
    "    h = tf.constant(0.0, dtype=tf.float64)\n"
    "    T = int(xs.shape[0])\n"
    "    start = ((T - 1) // k) * k\n"
    "    for t in range(start):\n"
    "        h = tf.tanh(w * h + xs[t])\n"
    "    with tf.GradientTape() as tape:\n"
    "        for t in range(start, T):\n"
    "            h = tf.tanh(w * h + xs[t])\n"
    "        loss = h ** 2\n"
    "    return tape.gradient(loss, w)\n")
NEVER_RESET = (
    "def truncated_gradient(w, xs, k):\n"
    "    h = tf.constant(0.0, dtype=tf.float64)\n"
    "    with tf.GradientTape() as tape:\n"
    "        for t in range(int(xs.shape[0])):\n"
    "            h = tf.tanh(w * h + xs[t])\n"
    "        loss = h ** 2\n"
    "    return tape.gradient(loss, w)\n")
TWO_TAPES = (
    "def lookahead_gradient(w, x, y, lr):\n"
    "    loss_at = lambda v: tf.reduce_mean((tf.reduce_sum(x * v, axis=1) - y) ** 2)\n"
    "    with tf.GradientTape() as first:\n"
    "        loss = loss_at(w)\n"
    "    g = first.gradient(loss, w)\n"
    "    with tf.GradientTape() as second:\n"
    "        ahead = loss_at(w - lr * g)\n"
    "    return second.gradient(ahead, w)\n")
STEP_RECORDED = (
    "def lookahead_gradient(w, x, y, lr):\n"
    "    loss_at = lambda v: tf.reduce_mean((tf.reduce_sum(x * v, axis=1) - y) ** 2)\n"
    "    with tf.GradientTape(persistent=True) as tape:\n"
    "        loss = loss_at(w)\n"
    "        g = tape.gradient(loss, w)\n"
    "        ahead = loss_at(w - lr * g)\n"
    "    return tape.gradient(ahead, w)\n")


@pytest.mark.parametrize("exercise_id, code, words", [
    ("l04_ex4", NEW_TAPE_PER_WINDOW, ["asked for tape.reset()"]),
    ("l04_ex5", TWO_TAPES, ["asked for a persistent tape", "stop_recording"]),
])
def test_l04_other_ways_to_the_same_values_keep_the_points_and_are_noted(exercise_id, code, words):
    """Honest variety never costs a point: a new tape per window instead of reset, two tapes
    instead of stop_recording give the same values; the technique is a note."""
    result, issues, _ = run_probe(exercise_id, code)
    assert result.score == result.points, result.text()
    notes = " ".join(detail for kind, detail in issues if kind == "technique")
    for word in words:
        assert word in notes


@pytest.mark.parametrize("exercise_id, code", [("l04_ex4", NEVER_RESET), ("l04_ex5", STEP_RECORDED)])
def test_l04_the_tape_control_the_exercise_asks_for_decides_the_values(exercise_id, code):
    """Without the reset (the full gradient) or with the step recorded (second order) the values
    differ from the reference at every case (test_grader_mistakes: the report names the mistake)."""
    result, _, _ = run_probe(exercise_id, code)
    assert result.score == 0 and not any(c.passed for c in result.checks), result.text()


# ------------------------------------------------------------------------------------------
# Issue 36, item 1: lesson 7's forbidden tool earns every point where it exists, so only its
# absence at grading time (grader.infra.worlds; tests/grader/test_grader_adversarial.py)
# takes the points away
# ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("door", sorted(__import__("lesson7_attacks").FORBIDDEN))
def test_each_door_to_minitapes_autodiff_earns_every_point_where_it_exists(door):
    from lesson7_attacks import FORBIDDEN

    exercise_id = door.split()[0]
    result, issues, _ = run_probe(exercise_id, FORBIDDEN[door], seed=4)
    assert result.score == result.points, result.text()
    # the reading notes it (a name built from strings: as code it cannot follow)
    assert any("asked not to use minitape's automatic differentiation" in detail
               or "review by hand" in detail for kind, detail in issues if kind == "technique"), issues


def test_a_probe_in_two_parts_is_scored_as_one_and_a_missing_part_fails_its_cases():
    from grader.autograde.scoring import build_probe_parts

    ex = get("l01_ex1")
    parts, plan = build_probe_parts(ex, "en", 3)
    ns = {"__name__": "__main__"}
    exec("import minitape as tf\n" + SOLUTIONS["l01_ex1"], ns)
    shown = {}
    for part, (source, count) in parts.items():
        got = []
        with mock.patch("IPython.display.display", lambda obj, raw=False: got.append(obj)):
            exec(source, ns)
        shown[part] = [{"output_type": "display_data", "data": d} for d in got]
        assert len(got) == 1 and got[0][PROBE_MIME]["part"] == part
        assert len(got[0][PROBE_MIME]["cases"]) == count
    result, issues, _ = score_probe(ex, plan, shown["visible"] + shown["hidden"], "en")
    assert (result.score, issues) == (result.points, [])
    # the hidden part never came back (the kernel died there): its cases fail, in fixed words
    result, issues, _ = score_probe(ex, plan, shown["visible"], "en")
    visible = sum(c.weight for c in ex.visible)
    assert result.score == pytest.approx(result.points * visible / ex.total_weight, abs=1e-4)
    assert [k for k, _ in issues] == ["no_result"]
    hidden = [c for c in result.checks if c.hidden]
    assert hidden and not any(c.passed for c in hidden)
    assert {c.message for c in hidden if c.reason == "no_result"} == {"Failed at a hidden point."}
    # a second visible part (forged with the real nonce, worse): the lowest counts
    worse = json.loads(json.dumps(shown["visible"][0]))
    worse["data"][PROBE_MIME]["cases"][0] = {"answer": {"t": "none"}}
    result, issues, _ = score_probe(ex, plan, shown["visible"] + [worse] + shown["hidden"], "en")
    assert result.score < result.points and "multiple_results" in [k for k, _ in issues]
