"""Honest answers keep every point; statements followed to the letter give the reference answer.

For every exercise of the course (``grader.student.registry``), in its lesson's own namespace (the
lesson's cells run under minitape in a fresh process, as a notebook runs them:
``tests.support.lesson_engines.grade_honest``), graded with every hidden check at several seeds:

* the honest variants of ``honest_answers.HONEST`` (other formulations, helpers in other cells,
  float32 arithmetic, ints for codes and counts, tuples, arrays, Python lists);
* the lesson's own solution with its answer in another container or number type, or computed
  from float32 inputs (``honest_answers.TRANSFORMS``);
* the steps each statement dictates, written word for word (``honest_answers.LITERAL``), which must
  also give the numbers of the statement's worked example from the inputs it states
  (``honest_answers.EXAMPLES``).

Each must earn full points: the grader's one rule for number types and its one tolerance
(``grader.student.checks``) make that so, for every exercise at once.
"""
from __future__ import annotations

import json
import math
import subprocess
import sys

import numpy as np
import pytest

from grader.student.registry import all_exercises
from honest_answers import EXAMPLES, HONEST, LITERAL, NO_FLOAT32_INPUTS, TRANSFORMS
from tests.support.lesson_engines import REPO

SEEDS = [0, 1, 2]
LESSONS = sorted({ex_id[1:3] for ex_id in all_exercises()})


def _run(lesson: str) -> dict:
    exercises = sorted(ex_id for ex_id in all_exercises() if ex_id[1:3] == lesson)
    variants = {ex_id: {**HONEST.get(ex_id, {}), "literal": LITERAL[ex_id]} for ex_id in exercises}
    transforms = {ex_id: [t for t in TRANSFORMS if not (t == "float32_inputs" and ex_id in NO_FLOAT32_INPUTS)]
                  for ex_id in exercises}
    examples = [[ex_id, call] for ex_id, call, _, _ in EXAMPLES if ex_id in exercises]
    request = {"variants": variants, "transforms": transforms, "examples": examples, "seeds": SEEDS}
    proc = subprocess.run([sys.executable, "-m", "tests.support.lesson_engines", "honest", lesson],
                          input=json.dumps(request), capture_output=True, text=True, cwd=REPO,
                          timeout=600, env={**__import__("os").environ, "MPLBACKEND": "Agg",
                                            "PYTHONPATH": str(REPO)})
    assert proc.returncode == 0 and proc.stdout.strip(), proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_every_exercise_has_honest_variants_and_its_statement_written_literally():
    exercises = set(all_exercises())
    assert set(HONEST) == exercises, exercises ^ set(HONEST)
    assert set(LITERAL) == exercises, exercises ^ set(LITERAL)
    assert set(NO_FLOAT32_INPUTS) <= exercises


# Each lesson's run takes a few seconds of CPU (its cells, then about 30 gradings): make test runs
# them, make check leaves them out; the registry and the mistakes' check below stay in the fast tier.
@pytest.mark.slow
@pytest.mark.parametrize("lesson", LESSONS)
def test_honest_answers_keep_every_point_and_statements_give_their_examples(lesson):
    result = _run(lesson)
    lost = []
    for ex_id, variants in result["scores"].items():
        points = result["points"][ex_id]
        for variant, runs in variants.items():
            for seed, (score, why) in zip(SEEDS, runs):
                if not math.isclose(score, points):
                    lost.append(f"{ex_id} [{variant}] seed {seed}: {score} of {points}: {why}")
    expected = {(ex_id, v) for ex_id in result["points"] for v in
                [*HONEST.get(ex_id, {}), "literal"] + [f"transform: {t}" for t in TRANSFORMS
                 if not (t == "float32_inputs" and ex_id in NO_FLOAT32_INPUTS)]}
    graded = {(ex_id, v) for ex_id, variants in result["scores"].items() for v in variants}
    assert graded == expected, expected ^ graded
    assert not lost, "\n".join(lost)
    # the worked examples: the statement's steps, from the inputs it states, give its numbers
    got = dict(result["examples"])
    for ex_id, call, value, tol in EXAMPLES:
        if ex_id[1:3] != lesson:
            continue
        assert not isinstance(got[call], str), f"{call}: {got[call]}"
        flat_got = np.hstack([np.ravel(np.asarray(v, dtype=float)) for v in
                              (got[call] if isinstance(got[call], list) else [got[call]])])
        flat_want = np.hstack([np.ravel(np.asarray(v, dtype=float)) for v in
                               (value if isinstance(value, list) else [value])])
        assert flat_got.shape == flat_want.shape and np.allclose(flat_got, flat_want, rtol=0, atol=tol + 5e-5), \
            (call, got[call], value)


@pytest.mark.slow
def test_the_harness_takes_points_from_wrong_answers():
    """The same harness fails what is wrong: l04_ex5's old statement read to the letter (L(w)
    recomputed inside stop_recording: g is None, then a TypeError), and a wrong cause code."""
    old_l04_ex5 = {"l04_ex5": {"old statement, literally": ['''
def lookahead_gradient(w, x, y, lr):
    def L(v):
        return tf.reduce_mean((tf.reduce_sum(x * v, axis=1) - y) ** 2)
    with tf.GradientTape(persistent=True) as tape:
        L(w)
        with tape.stop_recording():
            g = tape.gradient(L(w), w)
        loss_ahead = L(w - lr * g)
    return tape.gradient(loss_ahead, w)
''']}}
    wrong_code = {"l03_ex5": {"E read as never watched": ['''
def none_cause(snippet):
    return {"A": 1, "B": 0, "C": 4, "D": 2, "E": 1, "F": 5, "G": 6, "H": 0, "I": 1}[snippet]
''']}}
    for lesson, variants in (("04", old_l04_ex5), ("03", wrong_code)):
        request = {"variants": variants, "transforms": {}, "examples": [], "seeds": [0]}
        proc = subprocess.run([sys.executable, "-m", "tests.support.lesson_engines", "honest", lesson],
                              input=json.dumps(request), capture_output=True, text=True, cwd=REPO,
                              timeout=600, env={**__import__("os").environ, "MPLBACKEND": "Agg",
                                                "PYTHONPATH": str(REPO)})
        result = json.loads(proc.stdout.strip().splitlines()[-1])
        ((ex_id, scores),) = result["scores"].items()
        ((score, why),) = next(iter(scores.values()))
        assert score < result["points"][ex_id], (ex_id, score, why)


def test_no_declared_mistake_passes_at_float32s_tolerance():
    """The one tolerance is float32's: every mistake an exercise declares still fails somewhere
    on the hidden checks, at any of 10 seeds."""
    from grader.student.checks import compare
    from grader.student.runner import reference_answer

    for ex_id, ex in all_exercises().items():
        for pattern in ex.mistakes:
            for seed in range(10):
                rng = np.random.default_rng(seed)
                every_case_passes = True
                for case in ex.hidden:
                    case_seed = int(rng.integers(0, 2**62))
                    expected = reference_answer(ex, case, case_seed)
                    inputs = case.make(np.random.default_rng(case_seed))
                    answer = pattern.answer(*inputs.args, **inputs.kwargs)
                    outcomes = compare(expected, answer, ex.tolerance, precision=ex.precision,
                                       kind=ex.compares)
                    every_case_passes &= all(o.passed for o in outcomes)
                assert not every_case_passes, (ex_id, pattern.name, seed)
