"""The errors a JupyterHub admin meets, one line each with the fix (grader/autograde/hub_route.py).

nbgrader's exchange commands with the course's configuration: a missing exchange or one without
the permissions nbgrader documents stops ``release_assignment`` (nbgrader would create it or
chmod it with the instructor's rights), a course id the exchange does not hold stops ``collect``,
and a submission from someone outside the roster is refused while the roster's are collected.
``python -m grader check-hub`` says all of it before anything is released. The route itself, on a
real hub with students in Chromium: tests/hub/test_hub_course.py.
"""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import nbformat
import pytest

from grader.autograde import hub_route
from tests.support.course import LESSON, add_student, nbgrader, released, released_course

REPO = Path(__file__).resolve().parents[2]
ASSIGNMENT = f"{LESSON}-en"


def _lines(proc) -> list[str]:
    return [line for line in (proc.stdout + proc.stderr).splitlines() if line.strip()]


# ---------------------------------------------------------------------------------------------
# the checks themselves (fast)
# ---------------------------------------------------------------------------------------------
def test_exchange_problem_names_the_fix(tmp_path):
    missing = tmp_path / "exchange"
    problem = hub_route.exchange_problem(str(missing))
    assert "does not exist" in problem and f"sudo mkdir -p {missing} && sudo chmod 0777 {missing}" in problem
    missing.mkdir(mode=0o755)
    missing.chmod(0o755)
    problem = hub_route.exchange_problem(str(missing))
    assert "mode 0755" in problem and problem.endswith(f"sudo chmod 0777 {missing}")
    missing.chmod(0o777)
    assert hub_route.exchange_problem(str(missing)) is None
    link = tmp_path / "link"
    link.symlink_to(missing)
    assert "is not a folder" in hub_route.exchange_problem(str(link))
    assert "\n" not in hub_route.exchange_problem(str(tmp_path / "nowhere"))


def test_course_problem_only_when_the_exchange_holds_other_courses(tmp_path):
    assert hub_route.course_problem(str(tmp_path), "minitape-autodiff") is None   # nothing released yet
    (tmp_path / "other-course").mkdir()
    problem = hub_route.course_problem(str(tmp_path), "minitape-autodiff")
    assert problem.startswith("course id mismatch") and "'other-course'" in problem
    assert "/etc/jupyter/nbgrader_config.py" in problem
    (tmp_path / "minitape-autodiff").mkdir()
    assert hub_route.course_problem(str(tmp_path), "minitape-autodiff") is None
    assert "no course id" in hub_route.course_problem(str(tmp_path), "")


def test_owner_problem_names_who_wrote_a_submission(tmp_path):
    import pwd

    me = pwd.getpwuid(os.getuid()).pw_name
    folder = tmp_path / f"ben+{ASSIGNMENT}+2026-03-01 10:00:00.000000 UTC+abcdefgh"
    folder.mkdir()
    assert hub_route.owner_problem(str(folder), me, ASSIGNMENT) is None
    problem = hub_route.owner_problem(str(folder), "ben", ASSIGNMENT)
    assert f"is named for 'ben' but was written by {me!r}: not collected" in problem
    # The Littlest JupyterHub names the system user of student X jupyter-X (Collect.owner_prefix)
    assert hub_route.owner_problem(str(folder), me[2:], ASSIGNMENT, prefix=me[:2]) is None
    assert hub_route.owner_problem(str(folder), me, ASSIGNMENT, prefix="jupyter-") is not None


def test_roster_problem_names_the_student_and_the_command():
    assert hub_route.roster_problem("ana", ASSIGNMENT, {"ana", "ben"}) is None
    problem = hub_route.roster_problem("mallory", ASSIGNMENT, {"ana"})
    assert "'mallory'" in problem and "nbgrader db student add mallory" in problem
    assert "nbgrader db student import" in hub_route.roster_problem("ana", ASSIGNMENT, set())


# ---------------------------------------------------------------------------------------------
# python -m grader check-hub (in-process: it reads configuration and folders, runs nothing)
# ---------------------------------------------------------------------------------------------
def _hub_config(folder: Path, exchange: Path, course_id: str = "minitape-autodiff") -> Path:
    """hub/nbgrader_config.py (the hub's /etc/jupyter/nbgrader_config.py) with ``exchange``."""
    folder.mkdir(parents=True, exist_ok=True)
    text = (REPO / "hub" / "nbgrader_config.py").read_text(encoding="utf-8")
    text = text.replace('"/srv/nbgrader/exchange"', repr(str(exchange)))
    text = text.replace('"minitape-autodiff"', repr(course_id))
    (folder / "nbgrader_config.py").write_text(text, encoding="utf-8")
    return folder


@pytest.fixture
def hub_course(tmp_path, monkeypatch):
    """A course folder (the packaged configuration), a hub configuration naming an exchange."""
    course = tmp_path / "course"
    course.mkdir()
    shutil.copy2(REPO / "grader" / "course" / "nbgrader_config.py", course / "nbgrader_config.py")
    exchange = tmp_path / "exchange"
    etc = _hub_config(tmp_path / "etc", exchange)
    monkeypatch.setenv("JUPYTER_CONFIG_PATH", str(etc))
    return course, exchange, etc


def _check_hub(course: Path, capsys) -> tuple[int, list[str], list[str]]:
    from grader.autograde.cli import main

    code = main(["check-hub", "--course", str(course)])
    out = capsys.readouterr()
    return code, out.out.splitlines(), out.err.splitlines()


def test_check_hub_says_each_problem_in_one_line(hub_course, capsys):
    course, exchange, etc = hub_course
    code, out, err = _check_hub(course, capsys)
    assert code == 1
    assert any(line.startswith(f"error: nbgrader's exchange {exchange} does not exist") and
               f"sudo chmod 0777 {exchange}" in line for line in err), err
    assert any(line.startswith("error: the course has no roster") for line in err), err

    exchange.mkdir(mode=0o755)
    exchange.chmod(0o755)
    code, out, err = _check_hub(course, capsys)
    assert any("has mode 0755" in line and line.endswith(f"sudo chmod 0777 {exchange}") for line in err), err

    exchange.chmod(0o777)
    add_student(course, "ana")
    code, out, err = _check_hub(course, capsys)
    assert code == 0, err
    assert f"ok: exchange {exchange}: mode 0777, as nbgrader documents" in out
    assert out[-1] == "the course is ready for nbgrader's exchange on the hub"


def test_check_hub_finds_a_course_id_mismatch(hub_course, tmp_path, capsys, monkeypatch):
    course, exchange, etc = hub_course
    exchange.mkdir()
    exchange.chmod(0o777)
    add_student(course, "ana")
    _hub_config(etc, exchange, course_id="autodiff-2026")
    code, out, err = _check_hub(course, capsys)
    assert code == 1
    [line] = [line for line in err if "course id mismatch" in line]
    assert "'autodiff-2026'" in line and "'minitape-autodiff'" in line and str(etc / "nbgrader_config.py") in line


def test_check_hub_finds_submissions_from_outside_the_roster(hub_course, capsys):
    course, exchange, etc = hub_course
    inbound = exchange / "minitape-autodiff" / "inbound"
    inbound.mkdir(parents=True)
    exchange.chmod(0o777)
    add_student(course, "ana")
    for who in ("ana", "mallory"):
        (inbound / f"{who}+{ASSIGNMENT}+2026-03-01 10:00:00.000000 UTC+abcdefgh").mkdir()
    code, out, err = _check_hub(course, capsys)
    assert code == 1
    problems = [line for line in err if line.startswith("error:")]
    assert len(problems) == 1 and "'mallory'" in problems[0] and "not in the course's roster" in problems[0], err


# ---------------------------------------------------------------------------------------------
# nbgrader's exchange commands with the course's configuration
# ---------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def course(tmp_path_factory):
    return released_course(tmp_path_factory.mktemp("hub-route") / "course", langs=("en",))


@pytest.mark.slow
def test_release_into_a_missing_exchange_stops_with_one_line(course, tmp_path):
    exchange = tmp_path / "exchange"
    proc = nbgrader(course, "release_assignment", ASSIGNMENT, f"--Exchange.root={exchange}", check=False)
    assert proc.returncode != 0
    lines = _lines(proc)
    [line] = [line for line in lines if "does not exist" in line]
    assert f"sudo mkdir -p {exchange} && sudo chmod 0777 {exchange}" in line
    assert "Traceback" not in proc.stdout + proc.stderr and len(lines) <= 2, lines
    assert not exchange.exists()       # nbgrader would have created it, owned by whoever ran this


@pytest.mark.slow
def test_release_into_an_exchange_without_nbgraders_permissions_stops(course, tmp_path):
    exchange = tmp_path / "exchange"
    exchange.mkdir()
    exchange.chmod(0o755)
    proc = nbgrader(course, "release_assignment", ASSIGNMENT, f"--Exchange.root={exchange}", check=False)
    assert proc.returncode != 0
    [line] = [line for line in _lines(proc) if "has mode 0755" in line]
    assert line.endswith(f"sudo chmod 0777 {exchange}")
    assert stat.S_IMODE(exchange.stat().st_mode) == 0o755   # left as it was, not chmod-ed behind the admin's back
    assert not (exchange / "minitape-autodiff").exists()


@pytest.mark.slow
def test_collect_with_a_course_id_the_exchange_does_not_hold(course, tmp_path):
    exchange = tmp_path / "exchange"
    (exchange / "other-course" / "inbound").mkdir(parents=True)
    exchange.chmod(0o777)
    proc = nbgrader(course, "collect", ASSIGNMENT, f"--Exchange.root={exchange}", check=False)
    assert proc.returncode != 0
    [line] = [line for line in _lines(proc) if "course id mismatch" in line]
    assert "'other-course'" in line and "'minitape-autodiff'" in line
    assert "Traceback" not in proc.stdout + proc.stderr


@pytest.mark.slow
def test_collect_refuses_a_student_outside_the_roster_and_collects_the_others(course, tmp_path):
    exchange = tmp_path / "exchange"
    exchange.mkdir()
    exchange.chmod(0o777)
    nbgrader(course, "release_assignment", ASSIGNMENT, f"--Exchange.root={exchange}", "--force")
    add_student(course, "ana")
    inbound = exchange / "minitape-autodiff" / "inbound"
    for who in ("ana", "mallory"):
        folder = inbound / f"{who}+{ASSIGNMENT}+2026-03-01 10:00:00.000000 UTC+{who}rand"
        folder.mkdir()
        nbformat.write(released(course, ASSIGNMENT), str(folder / f"{LESSON}.ipynb"))
        (folder / "timestamp.txt").write_text("2026-03-01 10:00:00.000000 UTC")
    # the folders are root's here, not ana's: the owner check (tests/hub/ makes it with system users)
    # would refuse both
    proc = nbgrader(course, "collect", ASSIGNMENT, f"--Exchange.root={exchange}",
                    "--ExchangeCollect.check_owner=False", check=False)
    assert proc.returncode == 0, _lines(proc)
    refused = [line for line in _lines(proc) if "refused" in line]
    assert len(refused) == 1 and "'mallory'" in refused[0] and "nbgrader db student add mallory" in refused[0]
    assert (course / "submitted" / "ana" / ASSIGNMENT / f"{LESSON}.ipynb").is_file()
    assert not (course / "submitted" / "mallory").exists()
    assert os.path.isdir(inbound / f"mallory+{ASSIGNMENT}+2026-03-01 10:00:00.000000 UTC+malloryrand")  # left where it is
