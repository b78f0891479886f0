"""The committed notebooks: fresh, consistent across languages, and safe to hand to students."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from grader.i18n import t as grader_t
from lessons import LANGS
from lessons import build as lesson_build
from lessons.i18n import t as lesson_t
from lessons.source import lesson_paths

ROOT = Path(__file__).resolve().parents[2]


def read_nb(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def test_there_are_lessons():
    assert [p.stem for p in lesson_paths()][:1] == ["01-gradients"]


def test_generated_notebooks_are_not_stale(lessons):
    """Fails when someone edited a source without `python -m lessons build` (or edited a notebook)."""
    assert lesson_build.check(lessons, ROOT, quiet=True) == 0, \
        "generated notebooks are stale: run `python -m lessons build` and commit the result"


def test_every_prose_key_is_present_in_every_language(lessons):
    for lesson in lessons:
        for prose in lesson.prose:
            missing = [lang for lang in LANGS if prose.status(lang) == "missing"]
            assert not missing, f"{lesson.name}: key {prose.key!r} has no {missing} text"


def test_translations_are_up_to_date(lessons):
    for lesson in lessons:
        stale = [(p.key, lang) for p in lesson.prose for lang in LANGS if p.status(lang) == "stale"]
        assert not stale, f"{lesson.name}: stale translations {stale} (review, then `python -m lessons stamp`)"


def both(lesson, lang):
    return (read_nb(lesson_build.instructor_path(lesson, lang)),
            read_nb(lesson_build.student_path(lesson, lang)))


def code_cells(nb):
    return [(c["id"], "".join(c["source"])) for c in nb["cells"] if c["cell_type"] == "code"]


def test_code_cells_identical_across_languages(lessons):
    for lesson in lessons:
        inst_en, stud_en = both(lesson, "en")
        for lang in LANGS[1:]:
            inst, stud = both(lesson, lang)
            # the code is the same but for two comments that speak the language: the first line of a
            # cell of the course's own tools, and (student) the stub's
            note, note_en = f"# {lesson_t('lessons.course_only', lang)}\n", f"# {lesson_t('lessons.course_only', 'en')}\n"
            same = [(i, src.replace(note, note_en, 1)) for i, src in code_cells(inst)]
            assert same == code_cells(inst_en), f"{lesson.name} [{lang}] instructor code differs"
            stub, stub_en = grader_t("stub.code", lang), grader_t("stub.code", "en")
            unstubbed = [(i, src.replace(stub.splitlines()[0], stub_en.splitlines()[0]).replace(note, note_en, 1))
                         for i, src in code_cells(stud)]
            assert unstubbed == code_cells(stud_en), f"{lesson.name} [{lang}] student code differs"
            # and the cell sequence (ids, types) is the same, only prose differs
            assert [(c["id"], c["cell_type"]) for c in inst["cells"]] == \
                   [(c["id"], c["cell_type"]) for c in inst_en["cells"]]


def prose_words(markdown: str) -> list[str]:
    """Words of a prose cell outside code spans, code blocks and math (those need no translation)."""
    text = re.sub(r"```.*?```|`[^`]*`|\$\$.*?\$\$|\$[^$]*\$", " ", markdown, flags=re.S)
    return re.findall(r"[^\W\d_]{2,}", text)


def test_prose_is_actually_translated(lessons):
    """Each language's prose differs from the English one (no copy-paste placeholders); a cell that
    is only code or math may be identical."""
    assert prose_words("Use `tf.Variable` and $x^2$ here") == ["Use", "and", "here"]
    assert prose_words("$$L = \\frac{1}{2}$$ `x`") == []
    for lesson in lessons:
        en = {c["id"]: "".join(c["source"]) for c in both(lesson, "en")[0]["cells"] if c["cell_type"] == "markdown"}
        for lang in LANGS[1:]:
            other = {c["id"]: "".join(c["source"]) for c in both(lesson, lang)[0]["cells"]
                     if c["cell_type"] == "markdown"}
            same = [key for key in en if en[key] == other[key] and len(prose_words(en[key])) >= 3]
            assert not same, f"{lesson.name} [{lang}]: prose identical to English in {same}"


def test_wording_rules(lessons):
    """Gradient is 'gradiente' (never the machine translation 'degradado'); Russian uses 'градиент'/'лента'."""
    for lesson in lessons:
        for prose in lesson.prose:
            for lang in ("es", "pt"):
                assert "degradad" not in prose.texts.get(lang, "").lower(), (lesson.name, prose.key, lang)
        ru = " ".join(p.texts.get("ru", "") for p in lesson.prose).lower()
        assert "градиент" in ru and "лент" in ru


def test_notebook_metadata(lessons):
    for lesson in lessons:
        for lang in LANGS:
            for nb, variant in zip(both(lesson, lang), ("instructor", "student")):
                assert nb["nbformat"] == 4 and nb["nbformat_minor"] == 5
                assert nb["metadata"]["kernelspec"]["name"] == "python3"
                assert nb["metadata"]["kernelspec"]["language"] == "python"
                assert nb["metadata"]["minitape"]["lang"] == lang
                assert nb["metadata"]["minitape"]["lesson"] == lesson.name
                assert nb["metadata"]["minitape"]["variant"] == variant
                ids = [c["id"] for c in nb["cells"]]
                assert len(ids) == len(set(ids))
                assert all(re.fullmatch(rf"l{lesson.name[:2]}-[a-z0-9_-]+", i) for i in ids), ids
                for cell in nb["cells"]:
                    if cell["cell_type"] == "code":
                        assert cell["outputs"] == [] and cell["execution_count"] is None


def test_cell_ids_derive_from_keys(lessons):
    for lesson in lessons:
        inst = read_nb(lesson_build.instructor_path(lesson, "es"))
        assert [c["id"] for c in inst["cells"]] == lesson.notebook_cell_ids()
        assert lesson.notebook_cell_ids()[:len(lesson.cells) - 1] == [lesson.cell_id(c.key) for c in lesson.cells[:-1]]


def test_instructor_notebooks_have_valid_nbgrader_metadata(lessons):
    import nbformat
    from nbgrader.nbgraderformat import MetadataValidator

    from grader.student.registry import all_exercises

    registry = all_exercises()

    per_lang = {}
    for lesson in lessons:
        graded_exercises = [e for e in lesson.exercises if e.points > 0]  # optional ones: 0 points
        assert len(graded_exercises) >= 3, f"{lesson.name}: fewer than three graded exercises"
        for lang in LANGS:
            path = lesson_build.instructor_path(lesson, lang)
            nb = nbformat.read(str(path), as_version=4)
            MetadataValidator().validate_nb(nb)  # raises on bad nbgrader metadata
            graded = [c.metadata.nbgrader for c in nb.cells if "nbgrader" in c.metadata]
            ids = [m["grade_id"] for m in graded]
            assert len(ids) == len(set(ids))
            for meta in graded:
                assert meta["schema_version"] == 3
                assert re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", meta["grade_id"]) and meta["grade_id"].isascii()
                if meta["solution"]:
                    assert (meta["grade"], meta["locked"]) == (False, False)
                else:
                    # 0 points: an optional exercise, so in the registry too (a graded one is > 0)
                    assert (meta["grade"], meta["locked"]) == (True, True) and meta["points"] >= 0
                    assert (meta["points"] == 0) == registry[meta["grade_id"]].optional
            per_lang[(lesson.name, lang)] = [(m["grade_id"], m.get("points")) for m in graded]
            # every tests cell checks its own exercise id
            for cell in nb.cells:
                meta = cell.metadata.get("nbgrader", {})
                if meta.get("grade"):
                    assert f'check("{meta["grade_id"]}")' in cell.source
                    assert "### BEGIN HIDDEN TESTS" in cell.source
                if meta.get("solution"):
                    assert "### BEGIN SOLUTION" in cell.source
        first = per_lang[(lesson.name, "en")]
        assert all(per_lang[(lesson.name, lang)] == first for lang in LANGS), "grade ids differ across languages"
        assert [g for g, _ in first if not g.endswith("_solution")] == [e.grade_id for e in lesson.exercises]


def solution_lines(source):
    lines, inside = [], False
    for line in source.split("\n"):
        if "BEGIN SOLUTION" in line or "BEGIN HIDDEN TESTS" in line:
            inside = True
        elif "END SOLUTION" in line or "END HIDDEN TESTS" in line:
            inside = False
        elif inside and line.strip():
            lines.append(line.strip())
    return lines


def test_student_notebooks_hide_solutions_and_hidden_tests(lessons):
    for lesson in lessons:
        for lang in LANGS:
            inst, stud = both(lesson, lang)
            text = lesson_build.student_path(lesson, lang).read_text(encoding="utf-8")
            for marker in ("BEGIN SOLUTION", "END SOLUTION", "BEGIN HIDDEN TESTS", "END HIDDEN TESTS"):
                assert marker not in text
            student_cells = {c["id"]: "".join(c["source"]) for c in stud["cells"]}
            for cell in inst["cells"]:
                meta = cell["metadata"].get("nbgrader", {})
                if not meta:
                    continue
                got = student_cells[cell["id"]]
                for line in solution_lines("".join(cell["source"])):
                    # solution and hidden-test lines are gone from that cell (a generic line such as
                    # `from grader import check` may legitimately stay in the visible part)
                    if meta.get("solution") or line.startswith("grade("):
                        assert line not in got, f"{lesson.name} [{lang}] {cell['id']}: {line!r} leaked"
                if meta.get("solution"):
                    assert "raise NotImplementedError()" in got
                    # the stub's comment speaks the notebook's language
                    comment = grader_t("stub.code", lang).splitlines()[0]
                    assert comment in got, f"{lesson.name} [{lang}] {cell['id']}: no {comment!r}"
                    if lang != "en":
                        assert "YOUR CODE HERE" not in got
                    assert stud["cells"][[c["id"] for c in stud["cells"]].index(cell["id"])]["metadata"]["nbgrader"]["solution"]
            assert "grade(" not in text


@pytest.mark.kernel  # runs nbgrader generate_assignment
def test_student_notebook_is_what_nbgrader_releases(lessons, tmp_path):
    """nbgrader's own generate_assignment, run on our instructor notebook, releases the same code cells."""
    import shutil
    import subprocess
    import sys

    lesson = lessons[0]
    course = tmp_path / "course"
    name = lesson_build.assignment_id(lesson, "es")
    (course / "source" / name).mkdir(parents=True)
    shutil.copy(lesson_build.instructor_path(lesson, "es"), course / "source" / name / f"{lesson.name}.ipynb")
    # the course's real configuration, so a custom stub or release preprocessor there would show
    shutil.copy(ROOT / "grader" / "course" / "nbgrader_config.py", course / "nbgrader_config.py")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    run = subprocess.run([sys.executable, "-m", "nbgrader", "generate_assignment", name, "--force",
                          f"--CourseDirectory.root={course}"],
                         cwd=course, capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stdout + run.stderr
    released = read_nb(course / "release" / name / f"{lesson.name}.ipynb")
    ours = read_nb(lesson_build.student_path(lesson, "es"))
    assert code_cells(released) == code_cells(ours)
    grading = lambda nb: [c["metadata"].get("nbgrader") for c in nb["cells"]]  # noqa: E731
    assert grading(released) == grading(ours)


def test_every_lesson_ends_with_two_or_three_open_questions_in_every_language(lessons):
    """The questions=true cell (lessons/README.md, "The open questions that end a lesson"):
    last, translated and up to date in every language, 2-3 real questions, and built into
    an answer cell per question in both notebooks of every language."""
    for lesson in lessons:
        questions = lesson.questions
        assert questions is not None, f"{lesson.name}: no questions=true cell at the end"
        assert lesson.cells[-1] is questions, f"{lesson.name}: the questions cell is not last"
        counts = set()
        for lang in LANGS:
            assert questions.status(lang) == "ok", f"{lesson.name} [{lang}]: questions {questions.status(lang)}"
            items = questions.question_list(lang)
            counts.add(len(items))
            assert 2 <= len(items) <= 3, f"{lesson.name} [{lang}]: {len(items)} questions"
            for item in items:
                assert "?" in item and len(prose_words(item)) >= 8, f"{lesson.name} [{lang}]: {item!r}"
            for nb in both(lesson, lang):
                answers = [c for c in nb["cells"] if c["metadata"].get("minitape", {}).get("answer_to")]
                assert len(answers) == len(items) and all(
                    c["cell_type"] == "markdown" and "nbgrader" not in c["metadata"] for c in answers)
                assert all("".join(c["source"]) == lesson_t("lessons.questions.answer", lang) for c in answers)
        assert len(counts) == 1, f"{lesson.name}: different numbers of questions per language"
