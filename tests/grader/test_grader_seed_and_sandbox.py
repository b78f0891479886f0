"""The grading seed and the sandbox choice travel as arguments, not through the environment.

``python -m grader autograde-all`` reads ``--seed`` (else ``GRADER_SEED``) once and passes it on
(``autograde_all(seed=...)`` -> every grading process's ``--InjectProbes.seed``); ``--no-sandbox``
becomes ``sandbox=False`` -> ``--GraderExecute.sandbox=False``. The environment variables are only
the traitlets' defaults, for nbgrader's own commands.
"""

from __future__ import annotations

import os

import pytest
from traitlets.config import Config

from grader.autograde import cli
from grader.autograde.execute import GraderExecute
from grader.autograde.inject_probes import InjectProbes
from grader.infra import parallel


def test_the_seed_traitlet_defaults_to_the_environment_and_an_argument_wins(monkeypatch):
    monkeypatch.delenv("GRADER_SEED", raising=False)
    assert InjectProbes().seed is None
    monkeypatch.setenv("GRADER_SEED", "42")
    assert InjectProbes().seed == 42
    config = Config()
    config.InjectProbes.seed = 7
    assert InjectProbes(config=config).seed == 7
    monkeypatch.setenv("GRADER_SEED", "forty-two")
    with pytest.raises(ValueError, match="GRADER_SEED must be an integer"):
        InjectProbes().seed


def test_the_sandbox_traitlet_defaults_to_the_environment_and_an_argument_wins(monkeypatch):
    monkeypatch.delenv("GRADER_SANDBOX", raising=False)
    config = Config()
    config.GraderExecute.sandbox = False
    assert GraderExecute(config=config).sandbox is False
    monkeypatch.setenv("GRADER_SANDBOX", "0")
    assert GraderExecute().sandbox is False


@pytest.fixture
def captured(monkeypatch, tmp_path):
    """``autograde-all`` with the pool replaced by a recorder of its arguments."""
    calls = []

    def fake_autograde_all(course, assignment, **kwargs):
        calls.append(kwargs)
        return parallel.AutogradeSummary(assignment, 0, 0.0)

    monkeypatch.setattr(parallel, "autograde_all", fake_autograde_all)
    (tmp_path / "nbgrader_config.py").write_text("c = get_config()\n", encoding="utf-8")
    return calls, tmp_path


def test_autograde_all_passes_seed_and_sandbox_as_arguments(captured, monkeypatch):
    calls, course = captured
    monkeypatch.setenv("GRADER_SEED", "3")
    cli.main(["autograde-all", "01-gradients-en", "--seed", "9", "--no-sandbox", "--quiet",
              "--course", str(course)])
    cli.main(["autograde-all", "01-gradients-en", "--quiet", "--course", str(course)])
    assert [(c["seed"], c["sandbox"]) for c in calls] == [(9, False), (3, True)]
    assert os.environ["GRADER_SEED"] == "3"  # read, not written


def test_the_pool_gives_seed_and_sandbox_to_nbgrader_as_arguments(monkeypatch, tmp_path):
    monkeypatch.setattr(parallel, "load_coursedir", lambda course: type("C", (), {"root": course})())
    monkeypatch.setattr(parallel, "_check_assignment", lambda coursedir, assignment: None)
    monkeypatch.setattr(parallel, "submitted_students", lambda coursedir, assignment: ["ana"])
    _, found, argv, box = parallel.prepare(str(tmp_path), "a", None, False, None, False, None, 11)
    assert (found, argv, box) == (["ana"], ["--InjectProbes.seed=11"], None)
    _, _, argv, _ = parallel.prepare(str(tmp_path), "a", None, True, None, False, None)
    assert argv == ["--force"]


def test_autograde_all_without_sandbox_says_so_in_nbgraders_arguments(monkeypatch, tmp_path):
    import grader.infra.submissions as submissions

    course = type("C", (), {"root": str(tmp_path), "db_url": f"sqlite:///{tmp_path}/gb.db"})()
    monkeypatch.setattr(parallel, "prepare",
                        lambda *a, **kw: (course, ["ana"], [f"--InjectProbes.seed={a[-1]}"], None))
    monkeypatch.setattr(submissions, "refusal_of", lambda *a: None)
    seen = []
    monkeypatch.setattr(parallel, "_autograde_pool", lambda *a: seen.append(a[5]))
    parallel.autograde_all(str(tmp_path), "a", progress=False, sandbox=False, seed=5)
    parallel.autograde_all(str(tmp_path), "a", progress=False, sandbox=True, seed=6)
    assert seen == [["--InjectProbes.seed=5", "--GraderExecute.sandbox=False"],
                    ["--InjectProbes.seed=6"]]
