"""The TensorFlow tier (``make test-tf``; ``make test`` runs it, ``make check`` does not).

Each lesson's code cells, from the one source, run in one process per engine (a fresh kernel:
``tests.support.lesson_engines``), once with ``import minitape as tf`` and once with ``import
tensorflow as tf`` (TensorFlow 2.21, Keras 3, in ``.venv-tf``), and are compared cell by cell:
raised or not (and the exception's class), printed text (numbers to 1e-4), warnings, the values,
shapes and dtypes of what each cell displays and binds (float32 to rtol 1e-4). A cell may differ
only as its source says (``tf="course"``: the course's own tools, not run under TensorFlow;
``tf="random"``: random draws, compared on everything but their numbers; ``tf="differs"``: a
difference the lesson explains and ``docs/tensorflow-differences.md`` lists). The exercises'
solutions are graded on their visible checks under both engines, and the lessons' claims
(``tests/support/claims.py``) are checked under the engines they speak of.
"""
from __future__ import annotations

import concurrent.futures
import os
import re
import sys
from pathlib import Path

import pytest

from lessons.source import load_lessons
from tests.support import claims, lesson_engines

pytestmark = pytest.mark.tensorflow

REPO = Path(__file__).resolve().parents[2]
TF_PYTHON = Path(os.environ.get("MINITAPE_TF_PYTHON", REPO / ".venv-tf" / "bin" / "python"))
LESSONS = [lesson.name for lesson in load_lessons()]
DIFFERENCES = REPO / "docs" / "tensorflow-differences.md"


def _tf_python() -> Path:
    if not TF_PYTHON.exists():
        pytest.fail(f"the TensorFlow tier needs {TF_PYTHON}: run `make test-tf` (or `make install-tf`), "
                    "which installs it from requirements/tf.txt", pytrace=False)
    return TF_PYTHON


def run_both(name: str) -> tuple[dict, dict]:
    """The lesson's run under TensorFlow and under minitape, side by side."""
    python = _tf_python()
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        tf_run = pool.submit(lesson_engines.run_in_subprocess, name, "tensorflow", python)
        mt_run = pool.submit(lesson_engines.run_in_subprocess, name, "minitape", sys.executable)
        return tf_run.result(), mt_run.result()


def figure_alt_problems(name: str, run: dict) -> list[str]:
    """Every figure a lesson shows (the minitape run, the course's own cells included): its text
    alternative, in every language, names no line style and no unit the figure does not draw."""
    import json

    import lessons.widgets  # noqa: F401 -- adds the widgets' messages to the catalog
    from lessons.i18n import MESSAGES
    from lessons.source import load_lessons as load

    def template_of(alt: str):  # a helper's own figure: its text alternative is a shared message
        for texts in MESSAGES.values():
            en = texts.get("en", "")
            pattern = re.escape(en)
            pattern = re.sub(r"\\\{\w+\\\}", ".+?", pattern)
            if "{" in en and re.fullmatch(pattern, alt):
                return texts
        return None

    (lesson,) = load(only=[name])
    sources = {cell.key: cell.source for cell in lesson.code}
    catalog = json.loads((REPO / "lessons" / "messages" / f"{name}.json").read_text(encoding="utf-8"))
    problems = []
    shown = 0
    for cell in run["cells"]:
        keys = re.findall(r'describe\(t\("([^"]+)"', sources[cell["key"]])
        for i, figure in enumerate(cell.get("figures") or []):
            if figure["alt"] is None:
                continue
            shown += 1
            texts = catalog.get(keys[i]) if i < len(keys) else template_of(figure["alt"])
            if texts is None:
                problems.append(f"{name}:{cell['key']}: figure {i} has a text alternative found in no "
                                f"catalog: {figure['alt'][:80]!r}")
                continue
            for p in claims.alt_text_problems(figure, texts, cell.get("stdout", "")):
                problems.append(f"{name}:{cell['key']}: figure {i}'s text alternative {p}")
    return problems


def listed_differences() -> set[str]:
    """The lesson cells docs/tensorflow-differences.md lists (``NN-name:key`` in its table)."""
    return set(re.findall(r"`(\d\d-[a-z0-9-]+:[a-z0-9_-]+)`", DIFFERENCES.read_text(encoding="utf-8")))


@pytest.mark.parametrize("name", LESSONS)
def test_lesson_runs_the_same_under_tensorflow(name):
    tf_run, mt_run = run_both(name)
    assert tf_run["version"] == "2.21.0", tf_run["version"]
    problems = []
    summary = lesson_engines.summarize(tf_run, mt_run)
    diffs = lesson_engines.compare_runs(tf_run, mt_run)
    listed = listed_differences()
    for cell in mt_run["cells"]:  # a lesson cell never fails in the course's own engine
        if cell["ran"] and cell["error"]:
            problems.append(f"{name}:{cell['key']} (lessons/src/{name}.py:{cell['line']}) raises under "
                            f"minitape: {cell['error']}")
    for cell in tf_run["cells"]:
        key, mode = cell["key"], cell["tf"]
        if mode == lesson_engines.TF_COURSE:
            assert not cell["ran"]
            continue
        found = diffs.get(key, [])
        if mode == lesson_engines.TF_DIFFERS:
            if not found:
                problems.append(f"{name}:{key} is marked tf=\"differs\" but runs the same under "
                                "TensorFlow: remove the mark (and its row in docs/tensorflow-differences.md)")
            if f"{name}:{key}" not in listed:
                problems.append(f"{name}:{key} is marked tf=\"differs\" but docs/tensorflow-differences.md "
                                "does not list it with its reason")
        elif found:
            problems.append(f"{name}:{key} (lessons/src/{name}.py:{cell['line']}) differs under "
                            "TensorFlow:\n    " + "\n    ".join(found))
    problems += figure_alt_problems(name, mt_run)
    for ex_id, cases in tf_run["solutions"].items():
        for engine, run in (("tensorflow", tf_run), ("minitape", mt_run)):
            for case in run["solutions"][ex_id]:
                if not case["passed"]:
                    problems.append(f"{ex_id}'s solution fails its visible check {case['case']!r} under "
                                    f"{engine}: {case['messages']}")
    for engine, run in (("tensorflow", tf_run), ("minitape", mt_run)):
        for claim_id, outcome in run["claims"].items():
            if not outcome["ok"]:
                problems.append(f"claim {claim_id} does not hold under {engine}: {outcome['error']}")
    for claim_id, error in claims.run_compare_claims(name, tf_run, mt_run).items():
        problems.append(f"claim {claim_id} does not hold: {error}")
    assert not problems, f"{summary}\n" + "\n".join(problems)


def test_every_listed_difference_is_a_marked_cell():
    """The table in docs/tensorflow-differences.md names only cells marked tf="differs"."""
    marked = {f"{lesson.name}:{cell.key}" for lesson in load_lessons() for cell in lesson.code
              if cell.tf == lesson_engines.TF_DIFFERS}
    assert listed_differences() == marked
