"""Issue 24, class H: submissions are untrusted files, checked before anything reads them.

Through the documented instructor workflow (``autograde-all``, serial ``nbgrader autograde``,
``nbgrader collect`` from the exchange, ``nbgrader zip_collect``, ``generate_feedback``,
``grader export``): a submission holding a symbolic link (to the instructor's source notebook,
the gradebook, ``nbgrader_config.py``, the exercise definitions), a hard link to a file outside
it, or a FIFO is refused with its own status and a note; nothing of it is graded or copied, and
no instructor file ever reaches ``autograded/`` or ``feedback/``. Honest submissions next to them
are graded as usual.
"""

from __future__ import annotations

import csv
import os
import shutil

import pytest

from grader.infra.parallel import read_rows
from tests.support.course import (LESSON, add_student, grader_cli, nbgrader, released, released_course,
                                  reference_solutions, set_duedate, submit, with_answers)

pytestmark = [pytest.mark.slow, pytest.mark.kernel,
              pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")]

EN = f"{LESSON}-en"
FULL = {"l01_ex1": 1.0, "l01_ex2": 2.0, "l01_ex3": 2.0, "l01_ex4": 2.0, "l01_ex5": 2.0}
SECRETS = ("gradebook.db", "nbgrader_config.py", "l01.py", "secret-copy.db")


def _export(course, tmp_path) -> dict:
    grader_cli(course, "export", "--to", str(tmp_path / "grades.csv"))
    with open(tmp_path / "grades.csv", newline="", encoding="utf-8") as fh:
        return {r["student_id"]: r for r in csv.DictReader(fh)}


def _no_secrets_under(folder) -> list[str]:
    return [str(p) for p in folder.rglob("*") if p.name in SECRETS or p.name.endswith(".py")]


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("submissions")
    course = released_course(tmp / "course", langs=("en",), timeout=60)
    set_duedate(course, EN, "2030-01-01 12:00:00 UTC")
    sol, rel = reference_solutions(course, EN), released(course, EN)
    nb = with_answers(rel, sol)
    for student in ("a_correct", "b_link_to_source", "c_links_beside", "d_fifo", "e_hard_link", "f_correct"):
        submit(course, student, EN, nb, "2030-01-01 10:00:00 UTC")
    sub = lambda s: course / "submitted" / s / EN  # noqa: E731
    # b: the notebook is a link to the instructor's source notebook (7/7 on main)
    (sub("b_link_to_source") / f"{LESSON}.ipynb").unlink()
    (sub("b_link_to_source") / f"{LESSON}.ipynb").symlink_to(course / "source" / EN / f"{LESSON}.ipynb")
    # c: an honest notebook, and links to the gradebook, the config and the exercise definitions
    (sub("c_links_beside") / "gradebook.db").symlink_to(course / "gradebook.db")
    (sub("c_links_beside") / "nbgrader_config.py").symlink_to(course / "nbgrader_config.py")
    os.mkdir(sub("c_links_beside") / "data")
    (sub("c_links_beside") / "data" / "l01.py").symlink_to(course / "exercises" / "l01.py")
    # d: a FIFO (whoever opens it blocks)
    os.mkfifo(sub("d_fifo") / "pipe")
    # e: a hard link to a file outside the submission
    os.link(course / "gradebook.db", sub("e_hard_link") / "secret-copy.db")
    # g: the student's folder itself is a link (to another student's folder)
    (course / "submitted" / "g_linked_folder").symlink_to(course / "submitted" / "f_correct")

    out = grader_cli(course, "autograde-all", EN, "--jobs", "2", "--quiet")
    nbgrader(course, "generate_feedback", EN)
    return course, out, tmp


def test_links_and_special_files_are_refused_and_honest_work_is_graded(graded):
    course, out, _ = graded
    assert f"{EN}: 7 submission(s): 2 graded (2 ok), 0 failed, 5 refused;" in out.stdout
    for student in ("b_link_to_source", "c_links_beside", "d_fifo", "e_hard_link", "g_linked_folder"):
        assert f"refused (not graded, nothing copied; see the export): {student}:" in out.stdout
        # nothing of it was graded or copied
        assert not (course / "autograded" / student).exists()
        assert not (course / "feedback" / student).exists()
        assert read_rows(f"sqlite:///{course / 'gradebook.db'}", EN, student) is None
    db = f"sqlite:///{course / 'gradebook.db'}"
    for student in ("a_correct", "f_correct"):
        rows = read_rows(db, EN, student)
        assert {g: v["auto_score"] for g, v in rows["notebooks"][LESSON]["grades"].items()} == FULL


def test_no_instructor_file_reaches_autograded_or_feedback(graded):
    course, _, _ = graded
    for folder in ("autograded", "feedback"):
        assert _no_secrets_under(course / folder) == []
        assert [p for p in (course / folder).rglob("*") if p.is_symlink()] == []


def test_the_export_shows_each_refusal_with_its_status_and_note(graded):
    course, _, tmp = graded
    rows = _export(course, tmp)
    status = {s: rows[s][f"{LESSON}:status"] for s in rows}
    assert status == {"a_correct": "ok", "f_correct": "ok", "b_link_to_source": "refused_link",
                      "c_links_beside": "refused_link", "d_fifo": "refused_special",
                      "e_hard_link": "refused_link", "g_linked_folder": "refused_link"}
    for student in ("b_link_to_source", "c_links_beside", "d_fifo", "e_hard_link", "g_linked_folder"):
        assert rows[student][f"{LESSON}:score"] == "0"
    assert f"{LESSON}.ipynb (symbolic link)" in rows["b_link_to_source"][f"{LESSON}:notes"]
    notes = rows["c_links_beside"][f"{LESSON}:notes"]
    assert "gradebook.db (symbolic link)" in notes and "data/l01.py (symbolic link)" in notes
    assert "pipe (FIFO)" in rows["d_fifo"][f"{LESSON}:notes"]
    assert "secret-copy.db (hard link)" in rows["e_hard_link"][f"{LESSON}:notes"]


def test_serial_nbgrader_autograde_refuses_too(graded):
    course, _, _ = graded
    proc = nbgrader(course, "autograde", EN, "--student=b_link_to_source", check=False)
    assert "refused_link" in proc.stdout + proc.stderr
    assert not (course / "autograded" / "b_link_to_source").exists()


def test_collect_from_the_exchange_copies_no_link(tmp_path):
    """``nbgrader collect`` copies the exchange with copytree, which copies a link's target: a
    link to the gradebook became a copy of every student's grades in submitted/."""
    course = released_course(tmp_path / "course", langs=("en",), timeout=60)
    set_duedate(course, EN, "2030-01-01 12:00:00 UTC")
    sol, rel = reference_solutions(course, EN), released(course, EN)
    exchange = tmp_path / "exchange"
    inbound = exchange / "minitape-autodiff" / "inbound"
    inbound.mkdir(parents=True)
    exchange.chmod(0o777)   # nbgrader's documented permissions (grader/autograde/hub_route.py)
    import nbformat

    for student in ("a_honest", "b_linker"):
        folder = inbound / f"{student}+{EN}+2030-01-01 10:00:00.000000 UTC+abc123"
        folder.mkdir()
        nbformat.write(with_answers(rel, sol), str(folder / f"{LESSON}.ipynb"))
        (folder / "timestamp.txt").write_text("2030-01-01 10:00:00.000000 UTC")
    linker = next(inbound.glob("b_linker+*"))
    (linker / "grades.db").symlink_to(course / "gradebook.db")
    for student in ("a_honest", "b_linker"):   # collect refuses students outside the roster
        add_student(course, student)
    # the folders are root's, not the students' (no such system users here): no owner check
    nbgrader(course, "collect", EN, f"--Exchange.root={exchange}", "--ExchangeCollect.check_owner=False")
    assert (course / "submitted" / "a_honest" / EN / f"{LESSON}.ipynb").is_file()
    assert not (course / "submitted" / "b_linker").exists() or not any(
        (course / "submitted" / "b_linker").rglob("*.*"))
    assert _no_secrets_under(course / "submitted") == []
    assert not list((course / "submitted").rglob("grades.db"))
    grader_cli(course, "autograde-all", EN, "--jobs", "1", "--quiet")
    rows = _export(course, tmp_path)
    assert rows["a_honest"][f"{LESSON}:status"] == "ok"
    assert rows["b_linker"][f"{LESSON}:status"] == "refused_link"
    assert "grades.db (symbolic link)" in rows["b_linker"][f"{LESSON}:notes"]


def test_zip_collect_copies_no_link(tmp_path):
    """Files an instructor unpacked by hand into ``downloaded/<assignment>/archive`` (Info-ZIP
    ``unzip`` and ``tar`` keep links) are copied by zip_collect with shutil.copy, which follows
    a link: a link named like a submission became a copy of the instructor's notebook."""
    course = released_course(tmp_path / "course", langs=("en",), timeout=60)
    sol, rel = reference_solutions(course, EN), released(course, EN)
    archive = course / "downloaded" / EN / "archive"
    archive.mkdir(parents=True)
    import nbformat

    for student in ("a_honest", "b_linker"):  # the roster names whose file is whose
        add_student(course, student)

    nbformat.write(with_answers(rel, sol), str(archive / f"a_honest_{LESSON}.ipynb"))
    (archive / f"b_linker_{LESSON}.ipynb").symlink_to(course / "source" / EN / f"{LESSON}.ipynb")
    nbgrader(course, "zip_collect", EN)
    assert (course / "submitted" / "a_honest" / EN / f"{LESSON}.ipynb").is_file()
    assert not (course / "submitted" / "b_linker").exists()
    rows = _export(course, tmp_path)
    assert rows["b_linker"][f"{LESSON}:status"] == "refused_link"
    assert (archive / f"b_linker_{LESSON}.ipynb").is_symlink()  # the download is left as it was
