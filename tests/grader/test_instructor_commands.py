"""The README's "Instructors: start here" list, through the environment's bin/ with no virtualenv on PATH.

A fresh machine has no ``alembic`` (nor ``nbgrader``, ``jupyter``) on ``PATH`` unless a virtualenv is
activated; nbgrader used to run ``alembic`` by name and every gradebook command failed there. This
test takes every command of the README's numbered list for instructors (the one place the workflow is
written), runs each course command as ``<env>/bin/<command>`` from a ``PATH`` holding only system
folders, with a reference submission of one student collected the LMS way (``zip_collect`` of
Canvas's ``submissions.zip``, the student found by the roster's ``lms_user_id``), and checks that it
gets full marks.

Checked without running them as written: ``apt-get install`` (the packages are named, and their
programs are on this machine), ``make`` targets (``make -n``: they exist and expand), ``source``
(the activate script exists), ``python -m lessons build`` (``python -m lessons check``: the
checkout's generated files are what the build writes; the test must not rewrite them). Not run:
``git`` (it needs the network and your repository) and the JupyterHub commands.
"""

from __future__ import annotations

import csv
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from tests.support.course import LESSON, REPO, read, reference_solutions, with_answers

pytestmark = [pytest.mark.slow, pytest.mark.kernel]

BIN = Path(sysconfig.get_path("scripts"))


def readme_instructor_commands() -> list[str]:
    """Every command of the README's "Instructors: start here" list, in order."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Instructors: start here"):]
    section = section[:section.index("\n## ", 1)]
    commands = []
    for block in re.findall(r"```bash\n(.*?)```", section, re.S):
        for line in block.splitlines():
            line = line.split("#", 1)[0].strip()
            if line:
                commands.append(line)
    return commands


def system_path() -> str:
    """``PATH`` without any virtualenv or the folder of this interpreter's scripts."""
    keep = []
    for entry in os.environ.get("PATH", os.defpath).split(os.pathsep):
        if not entry or "venv" in entry or Path(entry).resolve() == BIN.resolve():
            continue
        if (Path(entry) / "alembic").exists() or (Path(entry) / "nbgrader").exists():
            continue
        keep.append(entry)
    return os.pathsep.join(keep)


def test_readme_is_a_portal_of_at_most_10_kb():
    size = len((REPO / "README.md").read_bytes())
    assert size <= 10 * 1024, f"README.md is {size} bytes: move details to docs/ (docs/README.md)"


def test_readme_block_is_the_workflow():
    commands = readme_instructor_commands()
    # no sudo: a minimal image runs as root and has none (the README says "as root, or with sudo")
    assert any(c.startswith("apt-get install") and "bubblewrap" in c for c in commands)
    assert commands.index("apt-get update") < next(i for i, c in enumerate(commands) if c.startswith("apt-get install"))
    assert not any(c.startswith("sudo") for c in commands)
    assert any(c.startswith("make student-dist") for c in commands)
    names = [shlex.split(c)[:4] for c in commands]
    assert ["python", "-m", "grader", "init-course"] in names
    assert any(c.startswith("nbgrader generate_assignment") for c in commands)
    assert any(c.startswith("python -m grader autograde-all") for c in commands)
    assert any(c.startswith("python -m grader export") for c in commands)


def test_instructor_commands_without_virtualenv_on_path(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    env = {"PATH": system_path(), "HOME": str(home), "LANG": "C.UTF-8",
           "JUPYTER_PLATFORM_DIRS": "1"}
    for exe in ("alembic", "nbgrader", "jupyter"):
        found = subprocess.run(["sh", "-c", f"command -v {exe}"], env=env, capture_output=True, text=True)
        assert found.returncode != 0, f"{exe} is on the test's PATH: {found.stdout}"

    cwd = home
    course = None
    for command in readme_instructor_commands():
        argv = shlex.split(command.replace("~", str(home)))
        if argv[0] == "pip" or argv[0] == "git" or "release_assignment" in argv or "collect" in argv:
            continue
        if argv[:2] == ["apt-get", "update"]:  # a minimal image has no package lists yet
            continue
        if argv[:2] == ["apt-get", "install"]:
            for package, program in (("bubblewrap", "bwrap"), ("python3-venv", None), ("make", "make"),
                                     ("git", "git")):
                assert package in argv, command
                assert program is None or shutil.which(program), f"{program} ({package}) is missing"
            continue
        if argv[0] == "source":
            assert (BIN / "activate").exists() or not (BIN.parent / "pyvenv.cfg").exists(), command
            continue
        if argv[0] == "make":
            args = [a for a in argv[1:] if not a.startswith("STUDENT_DIST=")]
            if "student-dist" in args:
                args.append(f"STUDENT_DIST={tmp_path / 'student'}")
            proc = subprocess.run(["make", "-n", "-C", str(REPO), *args], env={**env, "PATH": os.environ["PATH"]},
                                  capture_output=True, text=True, timeout=120)
            assert proc.returncode == 0, f"{command!r}: make -n failed:\n{proc.stdout}\n{proc.stderr}"
            continue
        if argv[:4] == ["python", "-m", "lessons", "build"]:
            proc = subprocess.run([str(BIN / "python"), "-m", "lessons", "check"], cwd=REPO, env=env,
                                  capture_output=True, text=True, timeout=900)
            assert proc.returncode == 0, f"python -m lessons check failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
            continue
        if argv[0] == "cd":
            cwd = Path(argv[1])
            continue
        if argv[0] == "nbgrader" and argv[1:3] == ["db", "student"]:
            (cwd / "students.csv").write_text("id,first_name,last_name,email,lms_user_id\n"
                                              "ana,Ana,Pérez,ana@example.org,4711\n", encoding="utf-8")
        if argv[0] == "nbgrader" and argv[1] == "zip_collect":
            assignment = argv[2]
            archive = cwd / "downloaded" / assignment / "archive"
            archive.mkdir(parents=True)
            released = read(cwd / "release" / assignment / f"{LESSON}.ipynb")
            solved = with_answers(released, reference_solutions(cwd, assignment))
            import zipfile

            import nbformat

            # Canvas's "Download Submissions": one zip, each file named by Canvas (ana is user 4711)
            with zipfile.ZipFile(archive / "submissions.zip", "w") as zf:
                zf.writestr(f"perezana_4711_90001_{LESSON}.ipynb", nbformat.writes(solved))
        proc = subprocess.run([str(BIN / argv[0]), *argv[1:]], cwd=cwd, env=env,
                              capture_output=True, text=True, timeout=900)
        assert proc.returncode == 0, (f"{command!r} failed ({proc.returncode}) with PATH={env['PATH']}:\n"
                                      f"{proc.stdout[-3000:]}\n{proc.stderr[-5000:]}")
        if argv[:4] == ["python", "-m", "grader", "init-course"]:
            course = Path(argv[4])
        if argv[:4] == ["python", "-m", "grader", "autograde-all"]:
            # the statuses of the export, and the command's own wall time
            assert f"{argv[4]}: 1 submission(s): 1 graded (1 ok), 0 failed" in proc.stdout
            assert "s wall time" in proc.stdout
            # and what it does before the first result: the sandbox, then the workers' start
            assert f"[grader] {argv[4]}: 1 submission(s); preparing the sandbox" in proc.stderr
            assert "[grader] starting 1 grading worker(s); each preloads" in proc.stderr

    assert course is not None and cwd == course
    with open(course / "grades.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert [r["student_id"] for r in rows] == ["ana"]
    row = rows[0]
    score = {k: v for k, v in row.items() if k.endswith("score")}
    assert row[f"{LESSON}:status"] == "ok", row
    assert float(row[f"{LESSON}:score"]) == float(row[f"{LESSON}:max_score"]) > 0, score
    feedback = list((course / "feedback" / "ana").rglob("*.html"))
    assert feedback, "generate_feedback wrote no feedback"
