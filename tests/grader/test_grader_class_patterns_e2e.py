"""The issue-29 done criterion: a class with 12 realistic wrong submissions per mistake family,
graded through the documented instructor workflow (nbgrader generate_assignment, submissions in
submitted/, `python -m grader autograde-all`, `python -m grader report`), gives a report whose
pattern counts are exactly what the class was built with. Kernel-heavy: one class, one run."""

from __future__ import annotations

import json

import nbformat
import pytest

from tests.support.course import (LESSON, grader_cli, reference_solutions, released, released_course,
                                  set_duedate, submit, with_answers)
from wrong_solutions import HEADER, WRONG

pytestmark = [pytest.mark.slow, pytest.mark.kernel]  # grades 36 submissions in kernels

EN = f"{LESSON}-en"


def _src(family, eid, index=0):
    items = [src for e, src, _ in WRONG[family] if e == eid]
    return HEADER + items[index % len(items)].lstrip("\n")


NUMPY_DETOUR = HEADER + '''def derivative_at(x0):
    x = tf.Variable(x0)
    with tf.GradientTape() as tape:
        y = tf.constant(np.power(x.numpy(), 3) - 2 * x.numpy())   # through NumPy
    return tape.gradient(y, x)
'''
SHAPES = [_src("shape", "l01_ex2", i) for i in range(3)]  # transposed, extra_axis, broadcast

# each exercise: 36 slots, 12 per family (one family per exercise and submission)
PLAN = {
    "l01_ex1": [("none", lambda i: _src("none", "l01_ex1") if i % 2 else NUMPY_DETOUR),
                ("other", lambda i: _src("other", "l01_ex1")),
                ("not_finite", lambda i: _src("not_finite", "l01_ex1"))],
    "l01_ex2": [("sign", lambda i: _src("sign", "l01_ex2")),
                ("shape", lambda i: SHAPES[i % 3]),
                ("stale", lambda i: _src("stale", "l01_ex2"))],
    "l01_ex3": [("scale", lambda i: _src("scale", "l01_ex3")),
                ("swapped", lambda i: _src("swapped", "l01_ex3")),
                (None, None)],  # one number rule: a float64 answer is no longer a mistake
    "l01_ex4": [("partial", lambda i: _src("partial", "l01_ex4")), (None, None), (None, None)],
}


def test_class_report_counts_equal_the_class_as_built(tmp_path):
    course = released_course(tmp_path / "course", langs=("en",), timeout=60)
    set_duedate(course, EN, "2030-01-01 12:00:00 UTC")
    solutions, rel = reference_solutions(course, EN), released(course, EN)
    expected = {eid: {} for eid in PLAN}
    for n in range(36):
        answers = dict(solutions)
        for eid, families in PLAN.items():
            family, make = families[n % 3]
            if family is None:
                continue
            answers[eid] = make(n // 3)
            expected[eid][family] = expected[eid].get(family, 0) + 1
        submit(course, f"s{n:02d}", EN, with_answers(rel, answers), "2029-12-31 10:00:00 UTC")
    assert all(count == 12 for per in expected.values() for count in per.values())
    grader_cli(course, "autograde-all", EN, "--jobs", "2", "--quiet", timeout=1800)
    grader_cli(course, "report", EN, "--out", str(tmp_path / "report"))
    report = json.loads((tmp_path / "report" / "report.json").read_text(encoding="utf-8"))
    assert report["students"] == 36
    got = {eid: report["exercises"][eid]["patterns"] for eid in PLAN}
    assert got == expected
    assert report["exercises"]["l01_ex2"]["kinds"] == {
        "shape:transposed": 4, "shape:extra_axis": 4, "shape:broadcast": 4}
    assert report["exercises"]["l01_ex1"]["kinds"] == {"none:not_watched": 6, "none:numpy": 6}
    assert report["exercises"]["l01_ex3"]["kinds"] == {"scale:2": 12}
    assert report["exercises"]["l01_ex4"]["kinds"] == {"partial:no_activation": 12}
    # the feedback's report (written by the trusted side) names the pattern after the numbers
    nb = nbformat.read(str(course / "autograded" / "s00" / EN / f"{LESSON}.ipynb"), as_version=4)
    html = [o["data"]["text/html"] for c in nb.cells for o in c.get("outputs", [])
            if "text/html" in o.get("data", {}) and "data-exercise='l01_ex3'" in o["data"]["text/html"]]
    assert html and "Pattern: exactly twice the reference" in html[0]
    assert nb.metadata.grader.scores["l01_ex3"]["pattern"]["pattern"] == "scale"
