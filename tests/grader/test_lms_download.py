"""Issue 36, class 6: a student's id comes from what the LMS wrote, never from names inside an upload.

The unit tests build the trees ``nbgrader zip_collect`` hands to the collector (``extracted/``: the
archive folder with every archive unpacked into a folder named after it) in the shapes Canvas and
Moodle download, with the attacks of the class (a notebook named for a classmate inside a zip, two
notebooks of one name in one zip, ids that are patterns) and the honest variety (resubmission
numbers, late prefixes, a notebook renamed by the student, macOS zip debris). The end-to-end tests
run the real ``nbgrader zip_collect`` with the course's configuration.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path
from types import SimpleNamespace

import pytest

from grader.infra.lms_download import Roster, notebook_for, parse_owner, plan, student_of, student_of_path
from grader.infra.submissions import refusal_of, student_id_problem

RELEASED = ["01-gradients.ipynb"]
NB = '{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}'


def roster(*rows, worksheets=()):
    r = Roster.from_students([SimpleNamespace(id=i, email=e, lms_user_id=l) for i, e, l in rows])
    for w in worksheets:
        assert r.read_worksheet(str(w))
    return r


CLASS = roster(("ana", "ana@example.org", "4711"), ("bob", "bob@example.org", "4712"),
               ("cid", "cid@example.org", "4713"), ("ana_maria", "am@example.org", None))


def tree(root: Path, files: dict) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def collected(result) -> dict:
    """{student: path of the collected notebook, relative}"""
    out = {}
    for path, info in result.collect.items():
        assert info["file_id"] == "01-gradients"
        assert info["student_id"] not in out, f"two notebooks for {info['student_id']}"
        out[info["student_id"]] = path
    return out


# -- names ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("name, is_file, shape, lms_id, order, upload", [
    ("perezana_4711_90001_01-gradients.ipynb", True, "canvas", "4711", 90001, "01-gradients.ipynb"),
    ("perezana_late_4711_90001_01-gradients-1.ipynb", True, "canvas", "4711", 90001, "01-gradients-1.ipynb"),
    ("perezana_LATE_4711_90001_x_12_34_y.ipynb", True, "canvas", "4711", 90001, "x_12_34_y.ipynb"),
    ("de_la_cruz_ana_4711_90001_work.zip", True, "canvas", "4711", 90001, "work.zip"),
    ("libob_4712_90002_work", False, "canvas", "4712", 90002, ""),
    ("Ana Pérez_1234567_assignsubmission_file_", False, "moodle", "1234567", 0, ""),
    ("Ana Pérez_1234567_assignsubmission_file_01-gradients (1).ipynb", True, "moodle", "1234567", 0,
     "01-gradients (1).ipynb"),
    ("ana_01-gradients.ipynb", True, "roster", "ana", 0, "01-gradients.ipynb"),
    ("ana_maria_01-gradients.ipynb", True, "roster", "ana_maria", 0, "01-gradients.ipynb"),  # the longest id
    ("ana", False, "roster", "ana", 0, ""),
    ("ana.ipynb", True, "roster", "ana", 0, "ana.ipynb"),
])
def test_owner_of_a_name_the_lms_wrote(name, is_file, shape, lms_id, order, upload):
    owner = parse_owner(name, is_file, name, CLASS)
    assert (owner.shape, owner.lms_id, owner.order, owner.upload) == (shape, lms_id, order, upload)


@pytest.mark.parametrize("name", ["01-gradients.ipynb", "submissions", "anabel_01-gradients.ipynb",
                                  "*_01-gradients.ipynb", "ana-01-gradients.ipynb"])
def test_names_without_an_lms_shape_have_no_owner(name):
    assert parse_owner(name, True, name, CLASS) is None


@pytest.mark.parametrize("filename, expected", [
    ("01-gradients.ipynb", ("01-gradients", 0)),
    ("01-gradients-1.ipynb", ("01-gradients", 1)),
    ("01-gradients-12.ipynb", ("01-gradients", 12)),
    ("01-gradients (2).ipynb", ("01-gradients", 2)),
    ("01-gradients.IPYNB", ("01-gradients", 0)),
    ("02-watching.ipynb", None), ("01-gradients-checkpoint.ipynb", None), ("01-gradients.py", None),
])
def test_notebook_for_resubmission_numbers(filename, expected):
    assert notebook_for(filename, RELEASED) == expected


@pytest.mark.parametrize("student_id", ["*", "a*", "[ab]", "?", "a/b", "../x", "..", ".hidden", "a b",
                                        "ána", "", "-rf", "x" * 101, "a\nb"])
def test_ids_that_are_patterns_paths_or_odd_are_refused(student_id):
    assert student_id_problem(student_id) is not None


@pytest.mark.parametrize("student_id", ["ana", "ana.perez", "a_b", "a-b", "s12345", "ana@uni.es", "1x"])
def test_ordinary_ids_are_accepted(student_id):
    assert student_id_problem(student_id) is None


def test_refusal_of_a_pattern_id_reads_nothing(tmp_path):
    class Dir:
        root = str(tmp_path)
        submitted_directory = "submitted"

        def format_path(self, *parts):
            raise AssertionError("a pattern id must never become a path")
    refusal = refusal_of(Dir(), "01-gradients-en", "*")
    assert refusal.status == "refused_id" and "'*'" in refusal.note


# -- whose notebook: Canvas ----------------------------------------------------------------------
def test_canvas_download_attacks_and_honest_variety(tmp_path):
    ext = tree(tmp_path / "extracted", {
        # ana submitted twice: the newest submission id wins, whatever the file is called
        "submissions/perezana_4711_90001_01-gradients.ipynb": "old",
        "submissions/perezana_4711_90007_01-gradients-1.ipynb": "new",
        # (a) bob's zip holds a notebook named for cid, who never submitted: it is bob's
        "submissions/libob_4712_90002_work/cid_01-gradients.ipynb": "bob's",
        "submissions/libob_4712_90002_work/__MACOSX/._cid_01-gradients.ipynb": "debris",
        "submissions/libob_4712_90002_work/.ipynb_checkpoints/01-gradients-checkpoint.ipynb": "x",
        # a Canvas user nobody in the roster has: refused, no phantom student
        "submissions/ghost_9999_90003_01-gradients.ipynb": NB,
    })
    result = plan(str(ext), RELEASED, CLASS)
    got = collected(result)
    assert set(got) == {"ana", "bob"}
    assert got["ana"].endswith("perezana_4711_90007_01-gradients-1.ipynb")
    assert got["bob"].endswith("libob_4712_90002_work/cid_01-gradients.ipynb")
    assert "cid" not in result.students
    [line] = [r for r in result.refused if "ghost" in r]
    assert "submissions/ghost_9999_90003_01-gradients.ipynb" in line and "Canvas user 9999" in line
    assert any("newest of 2" in n for n in result.notes)
    assert any("took submissions/libob_4712_90002_work/cid_01-gradients.ipynb" in n for n in result.notes)


def test_a_duplicate_inside_one_zip_refuses_only_that_student(tmp_path):
    """(b) two notebooks of one name in one student's zip stopped the class (nbgrader's "Duplicate
    submission file"); now that student is refused with a line, everyone else is collected."""
    ext = tree(tmp_path / "extracted", {
        "submissions/libob_4712_90002_work/a/01-gradients.ipynb": "1",
        "submissions/libob_4712_90002_work/b/01-gradients.ipynb": "2",
        "submissions/perezana_4711_90001_01-gradients.ipynb": NB,
        "submissions/rocid_late_4713_90004_01-gradients.ipynb": NB,
    })
    result = plan(str(ext), RELEASED, CLASS)
    assert set(collected(result)) == {"ana", "cid"}
    assert result.students["bob"].status == "refused_ambiguous"
    [line] = [r for r in result.refused if r.startswith("refused: bob")]
    assert "a/01-gradients.ipynb" in line and "b/01-gradients.ipynb" in line


def test_a_roster_id_that_is_a_pattern_is_never_collected(tmp_path):
    """(c) the id ``*``: from a file name it is no roster id; in the roster itself it is refused."""
    bad = roster(("*", "x@example.org", "5000"), ("ana", "ana@example.org", "4711"))
    ext = tree(tmp_path / "extracted", {"*_01-gradients.ipynb": NB,
                                        "star_5000_1_01-gradients.ipynb": NB,
                                        "ana_01-gradients.ipynb": NB})
    result = plan(str(ext), RELEASED, bad)
    assert set(collected(result)) == {"ana"}
    assert any("star_5000_1_01-gradients.ipynb" in r and "fix the roster" in r for r in result.refused)
    assert student_of(parse_owner("star_5000_1_x.ipynb", True, "x", bad), bad)[0] is None


def test_a_notebook_with_no_owner_is_refused_by_name(tmp_path):
    ext = tree(tmp_path / "extracted", {"01-gradients.ipynb": NB, "notes.txt": "x"})
    result = plan(str(ext), RELEASED, CLASS)
    assert not result.collect
    [line] = result.refused
    assert line.startswith("refused: 01-gradients.ipynb: its name has no shape of an LMS download")


def test_an_upload_without_the_notebook_and_an_unreadable_one(tmp_path):
    ext = tree(tmp_path / "extracted", {
        "submissions/perezana_4711_90001_a.ipynb": NB, "submissions/perezana_4711_90001_b.ipynb": NB,
        "submissions/libob_4712_90002_work.zip": "not a zip",
    })
    result = plan(str(ext), RELEASED, CLASS,
                  {str(ext / "submissions/libob_4712_90002_work.zip"): "not a zip or tar archive"})
    assert not result.collect
    assert result.students["ana"].status == "refused_no_notebook"
    assert result.students["bob"].status == "refused_unreadable"
    assert "not a zip or tar archive" in result.students["bob"].note


# -- whose notebook: Moodle ----------------------------------------------------------------------
def test_moodle_folders_by_grading_worksheet(tmp_path):
    sheet = tmp_path / "Grades-AD101-Gradients-42.csv"
    sheet.write_text("Identificador,Nombre completo,Dirección de correo,Estado\n"
                     "Participante 1234567,Ana Pérez,ANA@example.org,Enviado\n"
                     "Participante 7654321,Bob Li,bob@example.org,Enviado\n", encoding="utf-8")
    ext = tree(tmp_path / "extracted", {
        "AD101-Gradients-42/Ana Pérez_1234567_assignsubmission_file_/01-gradients.ipynb": "old",
        "AD101-Gradients-42/Ana Pérez_1234567_assignsubmission_file_/01-gradients (1).ipynb": "new",
        # bob renamed his own profile to Ana's name: the participant id still says bob
        "AD101-Gradients-42/Ana Pérez_7654321_assignsubmission_file_/01-gradients.ipynb": NB,
        "AD101-Gradients-42/Cid Ro_1111111_assignsubmission_file_/01-gradients.ipynb": NB,
        "AD101-Gradients-42/Ana Pérez_1234567_assignsubmission_onlinetext_onlinetext.html": "<p>",
    })
    result = plan(str(ext), RELEASED, roster(*[(s, e, l) for s, e, l in (
        ("ana", "ana@example.org", None), ("bob", "bob@example.org", None),
        ("cid", "cid@example.org", None))], worksheets=[sheet]))
    got = collected(result)
    assert set(got) == {"ana", "bob"}
    assert got["ana"].endswith("01-gradients (1).ipynb")
    assert got["bob"].endswith("Ana Pérez_7654321_assignsubmission_file_/01-gradients.ipynb")
    [line] = result.refused
    assert "Cid Ro_1111111_assignsubmission_file_" in line and "participant 1111111" in line


def test_moodle_without_a_worksheet_says_what_to_download(tmp_path):
    ext = tree(tmp_path / "extracted", {"Ana_1_assignsubmission_file_01-gradients.ipynb": NB})
    [line] = plan(str(ext), RELEASED, CLASS).refused
    assert "grading worksheet" in line and "Grades-*.csv" in line


def test_student_of_a_path_is_its_outermost_owner():
    assert student_of_path("submissions/libob_4712_90002_work/ana_01-gradients.ipynb", CLASS) == "bob"
    assert student_of_path("ana_x/bob_01-gradients.ipynb", CLASS) == "ana"
    assert student_of_path("submissions/readme.txt", CLASS) is None


# -- through nbgrader zip_collect -------------------------------------------------------------------
def _zip(path: Path, members: dict) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return path


def _zip_bytes(members: dict) -> bytes:
    import io

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return buf.getvalue()


@pytest.mark.slow
def test_zip_collect_of_a_canvas_download(tmp_path):
    """The whole class from Canvas's submissions.zip, as README step 7 says: the attacks of the
    class refused or harmless, one student's broken zip never stopping the others."""
    from tests.support.course import LESSON, add_student, nbgrader, released_course

    course = released_course(tmp_path / "course", langs=("en",))
    assignment = f"{LESSON}-en"
    nb = (course / "release" / assignment / f"{LESSON}.ipynb").read_text(encoding="utf-8")
    for sid, lms in (("ana", "4711"), ("bob", "4712"), ("cid", "4713"), ("dan", "4714"), ("eve", "4715")):
        add_student(course, sid, lms_user_id=lms)
    _zip(course / "downloaded" / assignment / "archive" / "submissions.zip", {
        f"perezana_4711_90001_{LESSON}.ipynb": nb,
        f"perezana_4711_90009_{LESSON}-1.ipynb": nb.replace('"cells"', '"cells" ', 1),
        # (a) a notebook named for eve, who never submitted, inside bob's zip: bob's
        "libob_4712_90002_work.zip": _zip_bytes({f"eve_{LESSON}.ipynb": nb}),
        "rocid_late_4713_90004_mine.zip": b"PK\x03\x04 truncated",
        # (b) two notebooks of one name in dan's zip: dan is refused, the class goes on
        "ordan_4714_90005_folder.zip": _zip_bytes({f"a/{LESSON}.ipynb": nb, f"b/{LESSON}.ipynb": nb}),
        f"ghost_9999_90003_{LESSON}.ipynb": nb,
        f"*_{LESSON}.ipynb": nb,
    })
    proc = nbgrader(course, "zip_collect", assignment)
    log = proc.stdout + proc.stderr
    submitted = sorted(p.relative_to(course / "submitted").as_posix()
                       for p in (course / "submitted").rglob("*.ipynb"))
    assert submitted == [f"ana/{assignment}/{LESSON}.ipynb", f"bob/{assignment}/{LESSON}.ipynb"]
    assert '"cells" ' in (course / "submitted" / "ana" / assignment / f"{LESSON}.ipynb").read_text()
    refused = {p.stem: json.loads(p.read_text()) for p in (course / "refused" / assignment).glob("*.json")}
    assert refused["dan"]["status"] == "refused_ambiguous"
    assert refused["cid"]["status"] == "refused_unreadable"
    assert set(refused) == {"cid", "dan"}
    assert "ghost_9999_90003" in log and "Canvas user 9999 is not in the roster" in log
    assert f"refused: submissions/*_{LESSON}.ipynb" in log
    assert "Traceback" not in log


@pytest.mark.slow
def test_autograde_all_never_passes_a_pattern_id_on(tmp_path):
    """(c) a folder ``submitted/*`` (or ``[ab]``) was passed to nbgrader as ``--student=*``, a
    pattern: grading it rewrote the others' autograded notebooks. It is refused by its id, before
    anything reads it, and the export says so."""
    import csv

    from tests.support.course import LESSON, grader_cli, released_course

    course = released_course(tmp_path / "course", langs=("en",))
    assignment = f"{LESSON}-en"
    nb = (course / "release" / assignment / f"{LESSON}.ipynb").read_text(encoding="utf-8")
    for sid in ("*", "[ab]"):
        folder = course / "submitted" / sid / assignment
        folder.mkdir(parents=True)
        (folder / f"{LESSON}.ipynb").write_text(nb, encoding="utf-8")
    other = course / "autograded" / "ana" / assignment / f"{LESSON}.ipynb"
    other.parent.mkdir(parents=True)
    other.write_text("ana's graded notebook", encoding="utf-8")
    proc = grader_cli(course, "autograde-all", assignment, "--no-sandbox", "--quiet")
    assert "2 refused" in proc.stdout
    assert "refused (not graded, nothing copied; see the export): *: refused_id" in proc.stdout
    assert "[ab]: refused_id" in proc.stdout
    assert other.read_text(encoding="utf-8") == "ana's graded notebook"
    assert sorted(p.name for p in (course / "autograded").iterdir()) == ["ana"]
    grader_cli(course, "export", "--to", str(tmp_path / "grades.csv"))
    with open(tmp_path / "grades.csv", newline="", encoding="utf-8") as fh:
        rows = {r["student_id"]: r for r in csv.DictReader(fh)}
    assert rows["*"][f"{LESSON}:status"] == rows["[ab]"][f"{LESSON}:status"] == "refused_id"
