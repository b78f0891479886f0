"""A lesson name stands for its language variants everywhere an instructor types one
(`python -m grader export --assignment 01-gradients`, `python -m grader report 01-gradients`), by the course's
one rule (course_lang.split_variant): ``<lesson>-<lang>`` with a course language. Names that merely
contain a hyphen (``homework-1``, ``01-gradients`` itself) are not split into a "lesson" ``homework``
or ``01``."""

from __future__ import annotations

import pytest

from grader.autograde.class_report import _assignments
from tests.support import synthetic_class
from tests.support.synthetic_class import Submission

NAMES = ["01-gradients-en", "01-gradients-ru", "homework-1", "02-watching-es"]


def test_a_lesson_name_selects_its_language_variants_only():
    assert _assignments(NAMES, "01-gradients") == ["01-gradients-en", "01-gradients-ru"]
    assert _assignments(NAMES, "01-gradients-ru") == ["01-gradients-ru"]
    assert _assignments(NAMES, "homework") == []       # "-1" is no language
    assert _assignments(NAMES, "01") == []             # "gradients" is no language
    assert _assignments(NAMES, "homework-1") == ["homework-1"]


@pytest.mark.parametrize("asked, ok", [("01-gradients", True), ("01-gradients-en", True),
                                       ("01", False), ("gradients-en", False)])
def test_export_accepts_lessons_and_assignments_and_refuses_fragments(tmp_path, capsys, asked, ok):
    from grader.autograde.cli import main

    course = synthetic_class.build(tmp_path / "course", [Submission("s1", {"l01_ex1": 1.0})])
    code = main(["export", "--assignment", asked, "--course", str(course), "--to", str(tmp_path / "grades.csv")])
    err = capsys.readouterr().err
    if ok:
        assert code == 0 and (tmp_path / "grades.csv").exists(), err
    else:
        assert code == 2 and f"unknown assignment(s) {asked}" in err
        assert not (tmp_path / "grades.csv").exists()
