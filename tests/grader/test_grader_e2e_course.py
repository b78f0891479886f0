"""End to end with real nbgrader and a sqlite gradebook: lesson 1 in English and Russian.

generate_assignment -> release checks -> validate (solution passes, stubs fail) -> 14 simulated
students -> parallel autograde -> generate_feedback -> export; exact score of every cell of
every student, status flags, and no hidden test source in any feedback file.
"""

from __future__ import annotations

import csv
import glob
import re

import pytest

from tests.support.course import (HARD_CODED, INFINITE_LOOP, KILLS_KERNEL, LESSON, NOISY, NO_RETURN,
                            PARTLY_RIGHT, WRONG, WRONG_SHAPE, add_student, delete_test_cell,
                            edit_test_cell, grader_cli, nbgrader, read, released, released_course,
                            reference_solutions, set_duedate, solution_index, strip_html, submit,
                            with_answers, with_reflections)

pytestmark = [pytest.mark.slow, pytest.mark.kernel]

EN, RU = f"{LESSON}-en", f"{LESSON}-ru"
ON_TIME, LATE, DUE = "2030-01-01 10:00:00 UTC", "2030-01-03 09:00:00 UTC", "2030-01-01 12:00:00 UTC"
CELLS = ("l01_ex1", "l01_ex2", "l01_ex3", "l01_ex4", "l01_ex5")
FULL = {"l01_ex1": "1", "l01_ex2": "2", "l01_ex3": "2", "l01_ex4": "2", "l01_ex5": "2"}
# what s01_correct writes under the lesson's open questions (ungraded markdown cells)
REFLECTIONS = ["The tape follows Python control flow as it ran.", "So that w - lr * dw lines up."]

# student -> (language, {cell: score}, total, status)
EXPECTED = {
    "s01_correct": ("en", FULL, "9", "ok"),
    "s02_untouched": ("en", dict.fromkeys(CELLS, "0"), "0", "unanswered"),
    "s03_wrong": ("en", dict.fromkeys(CELLS, "0"), "0", "ok"),
    # visible checks only: 2 of 6 check weights of l01_ex1 (1 point); no GradientTape in the code
    # that ran, which l01_ex1 asks for: a note for the instructor (status), never points
    "s04_hardcoded": ("en", {**FULL, "l01_ex1": "0.3333"}, "8.3333", "technique"),
    "s05_noisy": ("en", FULL, "9", "ok"),
    # l01_ex2 asks for a GradientTape (exercises 1 to 4 do): a loop with none is noted too
    "s06_infinite_loop": ("en", {**FULL, "l01_ex2": "0"}, "7", "technique;timed_out"),
    # its function kills the kernel while ex3 is checked: ex3's other checks are not run, the
    # other exercises' checks go on in a fresh kernel
    "s07_kernel_killed": ("en", {**FULL, "l01_ex3": "0"}, "7", "crashed;not_run"),
    "s08_test_cell_pass": ("en", {**FULL, "l01_ex1": "0"}, "8", "test_cell_modified"),
    "s09_test_cell_deleted": ("en", FULL, "9", "test_cell_restored"),
    "s10_wrong_shape": ("en", {**FULL, "l01_ex1": "0"}, "8", "ok"),
    # d/da right, d/dc wrong: half of each case (3 x 0.5) + failed finite differences, of 4
    "s11_partly_right": ("en", {**FULL, "l01_ex3": "0.75"}, "7.75", "ok"),
    "s12_russian": ("ru", {**FULL, "l01_ex1": "0"}, "8", "ok"),
    "s13_late": ("en", FULL, "9", "late"),
    "s14_absent": ("", dict.fromkeys(CELLS, ""), "0", "missing"),
}


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    # 10 s per cell and per call: s06's `while True: pass` burns a core for the whole limit (it
    # was 30 s of CPU); an honest lesson-1 cell or call takes well under 1 s even under load
    course = released_course(tmp_path_factory.mktemp("e2e") / "course", langs=("en", "ru"), timeout=10)
    set_duedate(course, EN, DUE)
    set_duedate(course, RU, DUE)
    add_student(course, "s14_absent", first_name="Ada", last_name="Absent")

    sol = reference_solutions(course, EN)
    rel, rel_ru = released(course, EN), released(course, RU)
    subs = {
        "s01_correct": with_reflections(with_answers(rel, sol), REFLECTIONS),
        "s02_untouched": rel,
        "s03_wrong": with_answers(rel, WRONG),
        "s04_hardcoded": with_answers(rel, {**sol, **HARD_CODED}),
        "s05_noisy": with_answers(rel, {**sol, **NOISY}),
        "s06_infinite_loop": with_answers(rel, {**sol, **INFINITE_LOOP}),
        "s07_kernel_killed": with_answers(rel, {**sol, **KILLS_KERNEL}),
        "s08_test_cell_pass": edit_test_cell(with_answers(rel, {**sol, "l01_ex1": WRONG["l01_ex1"]}),
                                             "l01_ex1", "pass"),
        "s09_test_cell_deleted": delete_test_cell(with_answers(rel, sol), "l01_ex2"),
        "s10_wrong_shape": with_answers(rel, {**sol, **WRONG_SHAPE}),
        "s11_partly_right": with_answers(rel, {**sol, **PARTLY_RIGHT}),
        "s13_late": with_answers(rel, sol),
    }
    for student, nb in subs.items():
        submit(course, student, EN, nb, LATE if student == "s13_late" else ON_TIME)
    submit(course, "s12_russian", RU, with_answers(rel_ru, {**sol, **NO_RETURN}), ON_TIME)

    grader_cli(course, "autograde-all", EN, "--jobs", "2", "--quiet")
    grader_cli(course, "autograde-all", RU, "--jobs", "2", "--quiet")
    nbgrader(course, "generate_feedback", EN)
    nbgrader(course, "generate_feedback", RU)
    nbgrader(course, "export", "--to", str(course / "grades.csv"))
    return course


def test_release_has_stubs_and_no_solutions_or_hidden_tests(course):
    for assignment in (EN, RU):
        source = read(course / "source" / assignment / f"{LESSON}.ipynb")
        release = read(course / "release" / assignment / f"{LESSON}.ipynb")
        text = "\n".join(c.source for c in release.cells)
        assert "BEGIN SOLUTION" not in text and "END SOLUTION" not in text
        assert "HIDDEN TESTS" not in text
        assert not re.search(r"\bgrade\(", text), "grade() is hidden-test code"
        ids = []
        for cell in source.cells:
            meta = cell.get("metadata", {}).get("nbgrader", {})
            if not meta.get("grade"):
                continue
            ids.append(meta["grade_id"])
            stub = release.cells[solution_index(release, meta["grade_id"])].source
            assert "raise NotImplementedError()" in stub
            solution = source.cells[solution_index(source, meta["grade_id"])].source
            body = solution.split("### BEGIN SOLUTION")[1].split("### END SOLUTION")[0]
            for line in body.strip().splitlines():
                assert line.strip() not in stub, f"solution line {line!r} leaked into the release"
        # the open questions' answer cells are plain, editable markdown: no nbgrader cells
        answers = [c for c in release.cells if c.metadata.get("minitape", {}).get("answer_to")]
        assert len(answers) >= 2 and all(c.cell_type == "markdown" and "nbgrader" not in c.metadata
                                         and c.metadata.get("editable", True) for c in answers)
        release_ids = [c.metadata.nbgrader["grade_id"] for c in release.cells if "nbgrader" in c.metadata]
        assert ids == list(CELLS)
        assert all(re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", i) and i.isascii() for i in release_ids)
    en_ids = [c.metadata.nbgrader["grade_id"] for c in released(course, EN).cells if "nbgrader" in c.metadata]
    ru_ids = [c.metadata.nbgrader["grade_id"] for c in released(course, RU).cells if "nbgrader" in c.metadata]
    assert en_ids == ru_ids


def test_validate_passes_the_solution_and_fails_the_stubs(course):
    ok = nbgrader(course, "validate", f"source/{EN}/{LESSON}.ipynb")
    assert "Success! Your notebook passes all the tests." in ok.stdout
    stubs = nbgrader(course, "validate", f"release/{RU}/{LESSON}.ipynb")
    assert "VALIDATION FAILED ON 5 CELL(S)" in stubs.stdout.replace("\n", " ")
    # the failure explains itself, in the notebook's language
    assert "ещё не\u00a0написана" in stubs.stdout


def _rows(course):
    with open(course / "grades.csv", newline="", encoding="utf-8") as fh:
        return {row["student_id"]: row for row in csv.DictReader(fh)}


def test_export_has_exact_scores_and_status(course):
    rows = _rows(course)
    assert sorted(rows) == sorted(EXPECTED)
    for student, (lang, cells, total, status) in EXPECTED.items():
        row = rows[student]
        got = {c: row[f"{LESSON}:{c}"] for c in CELLS}
        assert (row[f"{LESSON}:language"], got, row[f"{LESSON}:score"], row[f"{LESSON}:status"]) == \
            (lang, cells, total, status), student
        assert row[f"{LESSON}:max_score"] == "9"
    assert "l01_ex3" in rows["s07_kernel_killed"][f"{LESSON}:notes"]
    assert "l01_ex2" in rows["s06_infinite_loop"][f"{LESSON}:notes"]
    assert rows["s14_absent"]["first_name"] == "Ada"


def test_gradebook_flags_crashed_timed_out_and_tampered_submissions(course):
    from nbgrader.api import Gradebook

    flagged = {}
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        for assignment in (EN, RU):
            for sub in gb.assignment_submissions(assignment):
                flagged[sub.student.id] = any(nb.flagged for nb in sub.notebooks)
    # s04_hardcoded: l01_ex1 asks for a GradientTape and its code has none, a technique note,
    # which flags the notebook for the instructor's review (grader.nbgrader_ext.FLAGGED_KINDS)
    assert {s for s, f in flagged.items() if f} == {
        "s04_hardcoded", "s06_infinite_loop", "s07_kernel_killed", "s08_test_cell_pass",
        "s09_test_cell_deleted"}


def test_feedback_keeps_messages_but_no_hidden_test_source(course):
    files = sorted(glob.glob(str(course / "feedback" / "*" / "*" / "*.html")))
    assert len(files) == 13  # every submission, none for the absent student
    for path in files:
        text = strip_html(open(path, encoding="utf-8").read())
        assert "HIDDEN TESTS" not in text, path
        assert not re.search(r"\bgrade\(", text), path
        assert "import grade" not in text, path
    partly = strip_html(open(course / "feedback" / "s11_partly_right" / EN / f"{LESSON}.html",
                             encoding="utf-8").read())
    assert "Score: 0.75 of 2 points" in partly
    assert "Wrong values" in partly and "largest relative error" in partly
    russian = strip_html(open(course / "feedback" / "s12_russian" / RU / f"{LESSON}.html",
                              encoding="utf-8").read())
    assert "баллы: 0\u00a0из\u00a01" in russian and "Почему None?" in russian
    assert "tape.gradient вычислил градиент, но\u00a0ваша функция вернула None" in russian
    # nbgrader's frame in the student's language too (grader/templates/minitape_feedback)
    assert "Ваш ответ" in russian and "Проверочная ячейка" in russian and "Баллы:" in russian
    for english in ("Student's answer", "Test cell", "Score:"):
        assert english not in russian, english
    assert "Your answer" in partly and "Student's answer" not in partly
    # the answers to the open questions are handed back in the feedback, unscored (s01 is "ok",
    # 9 of 9 in test_export_has_exact_scores_and_status: no manual grading asked for)
    correct = strip_html(open(course / "feedback" / "s01_correct" / EN / f"{LESSON}.html",
                              encoding="utf-8").read())
    assert all(answer in correct for answer in REFLECTIONS)
    shape = strip_html(open(course / "feedback" / "s10_wrong_shape" / EN / f"{LESSON}.html",
                            encoding="utf-8").read())
    assert "Wrong shape: expected (), got (1,)" in shape


def test_the_autograded_notebook_records_the_share_of_checks_passed(course):
    """What the class report summarizes an optional exercise by (0 points): recorded for every
    exercise by the trusted side beside the score."""
    scores = read(course / "autograded" / "s11_partly_right" / EN / f"{LESSON}.ipynb").metadata.grader.scores
    assert scores["l01_ex3"]["passed"] == 0.375  # 0.75 of 2 points: 1.5 of 4 check weights
    assert all(scores[c]["passed"] == 1.0 for c in CELLS if c != "l01_ex3")
