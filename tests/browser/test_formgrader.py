"""Formgrader in the instructor lab (`python -m grader lab`), as an instructor uses it.

An autograded submission is opened from formgrader's list of submissions (it used to fail with
"Sorry, the formgrader encountered an error": the course configured the feedback template for
every HTMLExporter, formgrader's included, and it has no bootstrap.min.css), a test cell's score
is overridden by hand and a comment is written on the student's answer; both are then read back
from the gradebook, from the export (`python -m grader export`) and from the regenerated
feedback.
"""

from __future__ import annotations

import csv
import json
import os
import secrets
import sys
import time

import pytest

from tests.support.course import (LESSON, env, grader_cli, nbgrader, reference_solutions, released,
                                  released_course, submit, with_answers)
from tests.support.server import free_port, running_server

pytestmark = [pytest.mark.browser, pytest.mark.slow]

EN = f"{LESSON}-en"
COMMENT = "Good use of the tape; name your variables after the maths."


@pytest.fixture
def graded_course(tmp_path):
    course = released_course(tmp_path / "course", langs=("en",), timeout=30)
    submit(course, "ana", EN, with_answers(released(course, EN), reference_solutions(course, EN)),
           "2030-01-01 10:00:00 UTC")
    grader_cli(course, "autograde-all", EN, "--jobs", "2", "--quiet")
    return course


@pytest.fixture
def instructor_lab(graded_course, tmp_path):
    home = tmp_path / "jupyter-home"
    config = home / "config"
    config.mkdir(parents=True)
    (config / "jupyter_server_config.json").write_text(json.dumps({
        "LabApp": {"news_url": None, "check_for_updates_class": "jupyterlab.NeverCheckForUpdate"}}))
    e = env()
    e.update(JUPYTER_CONFIG_DIR=str(config), JUPYTER_DATA_DIR=str(home / "data"),
             JUPYTER_RUNTIME_DIR=str(home / "runtime"), IPYTHONDIR=str(home / "ipython"),
             JUPYTERLAB_SETTINGS_DIR=str(home / "lab-settings"),
             JUPYTERLAB_WORKSPACES_DIR=str(home / "lab-workspaces"))
    port, token = free_port(), secrets.token_hex(16)
    log = tmp_path / "instructor-lab.log"
    base = f"http://127.0.0.1:{port}"
    with running_server(
            [sys.executable, "-m", "grader", "lab", "--course", str(graded_course), "--no-browser",
             "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
             f"--IdentityProvider.token={token}"],
            cwd=graded_course, env=e, log=log, status_url=f"{base}/api/status?token={token}",
            name="python -m grader lab"):
        yield base, token, log


def test_open_a_submission_grade_it_by_hand_and_find_it_in_the_export(graded_course, instructor_lab,
                                                                      page, screenshot):
    base, token, log = instructor_lab
    # formgrader's pages fetch their data with XHRs that a token in the page's URL does not
    # authenticate: every request carries it, as a logged-in browser's cookie would
    page.set_extra_http_headers({"Authorization": f"token {token}"})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    # the assignment list, then the submissions of the notebook, then the submission
    page.goto(f"{base}/formgrader/manage_assignments?token={token}")
    page.wait_for_selector(f"text={EN}", timeout=60_000)
    if not os.path.isdir("/usr/local/share/nbgrader/exchange"):  # the LMS route: no exchange
        assert page.locator("#warning-exchange").count() == 0, "formgrader's exchange banner"
        text = log.read_text()
        assert "please contact your instructor" not in text and "exchange directory" not in text, text[-3000:]
    page.goto(f"{base}/formgrader/gradebook/{EN}/{LESSON}?token={token}")
    link = page.locator("a", has_text="Submission #1")
    link.first.wait_for(timeout=60_000)
    link.first.click()
    page.wait_for_selector("input.score#l01_ex1", timeout=60_000)
    body = page.inner_text("body")
    assert "formgrader encountered an error" not in body, log.read_text()[-3000:]
    assert "TemplateNotFound" not in log.read_text()
    # the autograded report is there, and the test cell's score
    assert "derivative_at" in body
    # formgrader shows the autograder's score (as the box's placeholder) once its models have
    # loaded; with no internet this needs grader/templates/formgrade (nbgrader's own page stops
    # at its missing MathJax)
    page.wait_for_function("() => document.querySelector('input.score#l01_ex1')"
                           ".getAttribute('placeholder') === '1'", timeout=90_000)
    # grades and comments load in two separate requests; a comment typed before its own model
    # has loaded has no view listening to it and is never saved (seen once under load in CI)
    page.wait_for_function("() => window.formgrader && formgrader.grades && formgrader.grades.loaded"
                           " && formgrader.comments && formgrader.comments.loaded", timeout=90_000)

    # a manual score on the autograded test cell and a comment on the student's answer
    page.fill("input.score#l01_ex1", "0.5")
    page.locator("input.score#l01_ex1").press("Tab")
    comment = page.locator("textarea.comment#l01_ex1_solution-comment")
    comment.fill(COMMENT)
    comment.press("Tab")
    page.wait_for_timeout(500)
    screenshot(page, "formgrader-submission")

    from nbgrader.api import Gradebook

    deadline = time.monotonic() + 30
    while True:
        with Gradebook(f"sqlite:///{graded_course / 'gradebook.db'}") as gb:
            grade = gb.find_grade("l01_ex1", LESSON, EN, "ana")
            note = gb.find_comment("l01_ex1_solution", LESSON, EN, "ana")
            saved = (grade.manual_score, note.manual_comment)
        if saved == (0.5, COMMENT) or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert saved == (0.5, COMMENT), f"formgrader did not save: {saved}\n{log.read_text()[-3000:]}"

    grader_cli(graded_course, "export", "--to", str(graded_course / "grades.csv"))
    with open(graded_course / "grades.csv", newline="", encoding="utf-8") as f:
        row = next(r for r in csv.DictReader(f) if r["student_id"] == "ana")
    assert row[f"{LESSON}:l01_ex1"] == "0.5", row
    assert float(row[f"{LESSON}:score"]) == float(row[f"{LESSON}:max_score"]) - 0.5, row
    assert COMMENT in row[f"{LESSON}:notes"], row

    # step 8's command again (no --force) regenerates the feedback, which carries both and says
    # the teacher changed the score
    nbgrader(graded_course, "generate_feedback", EN)
    feedback = (graded_course / "feedback" / "ana" / EN / f"{LESSON}.html").read_text(encoding="utf-8")
    assert COMMENT in feedback and "0.5 / 1.0" in feedback
    assert "Your teacher changed this score (the automatic grading gave 1)." in feedback
    assert not errors, errors
