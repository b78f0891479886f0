"""Issue 40, item 5: after grading by hand, step 8's ``nbgrader generate_feedback`` regenerates what
changed, and the page says the teacher changed the score, in the student's language.

nbgrader kept every existing page ("Skipping existing assignment"): a score changed in formgrader
showed "0.5 / 1.0" in the cell's heading only after ``--force``, beside the autograder's "0 of 1
point". Each page now carries the digest of what it was made from
(``grader/autograde/feedback_update.py``).
"""

from __future__ import annotations

import os
import shutil
from types import SimpleNamespace

import pytest

from grader.autograde.feedback_update import inputs_digest, page_digest

ES = "01-gradients-es"


@pytest.mark.parametrize("tag", ['<meta name="minitape-feedback-inputs" content="0123456789abcdef0123">',
                                 '<meta content="0123456789abcdef0123" name="minitape-feedback-inputs"/>'])
def test_the_digest_is_read_back_from_a_page_in_either_attribute_order(tmp_path, tag):
    page = tmp_path / "p.html"
    page.write_text(f"<!DOCTYPE html><html><head><meta charset='utf-8'/>{tag}<title>x</title>", encoding="utf-8")
    assert page_digest(str(page)) == "0123456789abcdef0123"
    page.write_text("<!DOCTYPE html><html><head><title>made before</title>", encoding="utf-8")
    assert page_digest(str(page)) is None  # regenerated once
    assert page_digest(str(tmp_path / "missing.html")) is None


def test_the_digest_follows_grades_comments_and_the_notebook(tmp_path):
    notebook = tmp_path / "nb.ipynb"
    notebook.write_text("{}", encoding="utf-8")
    grade = SimpleNamespace(name="l01_ex1", auto_score=0.0, manual_score=None, extra_credit=None)
    comment = SimpleNamespace(name="l01_ex1_solution", auto_comment="No response.", manual_comment=None)
    sub = SimpleNamespace(grades=[grade], comments=[comment], late_submission_penalty=None)
    gb = SimpleNamespace(find_submission_notebook=lambda *a: sub)

    def digest():
        return inputs_digest(gb, ES, "bob", "01-gradients", str(notebook))

    seen = {digest()}
    assert digest() in seen  # stable
    grade.manual_score = 0.5
    seen.add(digest())
    comment.manual_comment = "¡Bien!"
    seen.add(digest())
    sub.late_submission_penalty = 1.0
    seen.add(digest())
    notebook.write_text('{"regraded": 1}', encoding="utf-8")
    seen.add(digest())
    assert len(seen) == 5


@pytest.mark.slow
@pytest.mark.kernel
def test_generate_feedback_again_after_grading_by_hand(tmp_path):
    from nbgrader.api import Gradebook

    from tests.support.course import (LESSON, grader_cli, nbgrader, reference_solutions, released,
                                      released_course, submit, with_answers)

    course = released_course(tmp_path / "course", langs=("es",), timeout=60)
    rel = released(course, ES)
    submit(course, "ana", ES, with_answers(rel, reference_solutions(course, ES)), "2030-01-01 10:00:00 UTC")
    submit(course, "bob", ES, rel, "2030-01-01 10:00:00 UTC")  # untouched
    sandbox = [] if shutil.which("bwrap") else ["--no-sandbox"]
    grader_cli(course, "autograde-all", ES, "--jobs", "2", "--quiet", *sandbox)
    nbgrader(course, "generate_feedback", ES)
    page = {s: course / "feedback" / s / ES / f"{LESSON}.html" for s in ("ana", "bob")}
    bob = page["bob"].read_text(encoding="utf-8")
    assert "Sin respuesta." in bob and "No response." not in bob
    assert "Tu docente" not in bob
    stamps = {s: os.stat(p).st_mtime_ns for s, p in page.items()}

    again = nbgrader(course, "generate_feedback", ES)
    assert again.stderr.count("Skipping existing assignment") == 2, again.stderr
    assert {s: os.stat(p).st_mtime_ns for s, p in page.items()} == stamps

    # grading by hand, as formgrader saves it: a score for bob, a comment for ana
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        gb.find_grade("l01_ex1", LESSON, ES, "bob").manual_score = 0.5
        gb.find_comment("l01_ex2_solution", LESSON, ES, "ana").manual_comment = "¡Muy bien razonado!"
        gb.db.commit()
    updated = nbgrader(course, "generate_feedback", ES)
    assert updated.stderr.count("Updating feedback") == 2, updated.stderr
    bob = page["bob"].read_text(encoding="utf-8")
    assert "Puntuación: 0.5 / 1.0" in bob
    assert "Tu docente cambió esta puntuación (la corrección automática había dado 0)." in bob
    assert "¡Muy bien razonado!" in page["ana"].read_text(encoding="utf-8")
    assert "Tu docente" not in page["ana"].read_text(encoding="utf-8")

    last = nbgrader(course, "generate_feedback", ES)
    assert last.stderr.count("Skipping existing assignment") == 2, last.stderr
