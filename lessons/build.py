"""Generate the notebooks of every lesson from its source.

For each lesson ``lessons/src/NN-name.py`` and each language ``<lang>``:

* ``grader/course/source/NN-name-<lang>/NN-name.ipynb`` -- the instructor's nbgrader source
  notebook: solutions and hidden tests in place, ``metadata.nbgrader`` on exercise cells;
* ``lessons/<lang>/NN-name.ipynb`` -- the student notebook: the instructor notebook passed
  through nbgrader's own release preprocessors (LockCells, ClearSolutions -- localized stub --, ClearOutput,
  ClearHiddenTests, ClearMarkScheme, ComputeChecksums, CheckCellMetadata), so it is what
  ``nbgrader generate_assignment`` would release, and can be submitted and autograded.

Output is byte-for-byte reproducible: cell ids derive from the lesson and the cell key, no
outputs, no execution counts, no timestamps, JSON written by nbformat with sorted keys.
"""

from __future__ import annotations

import copy
import sys
from dataclasses import dataclass
from pathlib import Path

from course_lang import split_variant, variant_name
from course_lang.typography import decimal_mark, typeset

from . import LANGS, SOURCE_LANG
from .i18n import t
from .source import SRC_DIR, Code, Lesson, Prose, display_path, strip_claims

ROOT = SRC_DIR.parent.parent  # the repository root
LESSONS_DIR = SRC_DIR.parent
COURSE_SOURCE = ROOT / "grader" / "course" / "source"

NBGRADER_SCHEMA = 3
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
LANGUAGE_INFO = {  # no version: it would differ between machines
    "codemirror_mode": {"name": "ipython", "version": 3},
    "file_extension": ".py",
    "mimetype": "text/x-python",
    "name": "python",
    "nbconvert_exporter": "python",
    "pygments_lexer": "ipython3",
}
VARIANTS = ("instructor", "student")
TITLE_KEY = "title"  # the prose cell that opens every lesson


@dataclass(frozen=True)
class Target:
    lesson: Lesson
    lang: str
    variant: str  # "instructor" or "student"
    path: Path


def assignment_id(lesson: Lesson | str, lang: str) -> str:
    return variant_name(lesson if isinstance(lesson, str) else lesson.name, lang)


def student_path(lesson: Lesson | str, lang: str, root: Path = ROOT) -> Path:
    name = lesson if isinstance(lesson, str) else lesson.name
    return root / "lessons" / lang / f"{name}.ipynb"


def instructor_path(lesson: Lesson | str, lang: str, root: Path = ROOT) -> Path:
    name = lesson if isinstance(lesson, str) else lesson.name
    return root / "grader" / "course" / "source" / assignment_id(name, lang) / f"{name}.ipynb"


def targets(lessons: list[Lesson], root: Path = ROOT) -> list[Target]:
    out = []
    for lesson in lessons:
        for lang in LANGS:
            out.append(Target(lesson, lang, "instructor", instructor_path(lesson, lang, root)))
            out.append(Target(lesson, lang, "student", student_path(lesson, lang, root)))
    return out


# --------------------------------------------------------------------------------------------
# Rendering
# --------------------------------------------------------------------------------------------
def prose_text(prose: Prose, lang: str) -> str:
    """The markdown of a prose cell in ``lang``, with a localized note if stale or missing,
    typeset for the language (``course_lang.typography``: Russian no-break spaces, nested
    quotes). A lesson's title cell ends, where the language writes a decimal comma, with the
    note that says why Python's output shows a point (``lessons.decimal_note``)."""
    status = prose.status(lang)
    if status == "missing":
        text = f"> ⚠️ {t('lessons.missing_translation', lang)}\n\n{strip_claims(prose.texts[SOURCE_LANG])}"
    elif status == "stale":
        text = f"> ⚠️ {t('lessons.stale_translation', lang)}\n\n{strip_claims(prose.texts[lang])}"
    else:
        text = strip_claims(prose.texts[lang])
    if prose.key == TITLE_KEY and decimal_mark(lang) != ".":
        text = f"{text.rstrip()}\n\n{t('lessons.decimal_note', lang)}"
    return typeset(text, lang, markdown=True)


def course_only(cell: Code) -> bool:
    """Whether a code cell runs the course's own tools (``minitape.debugging``, ``lessons.widgets``,
    ``grader.check``), so that it does not exist in TensorFlow: ``tf="course"`` in the source, and
    every exercise's tests cell."""
    return cell.tf == "course" or cell.role == "tests"


def code_text(cell: Code, lang: str) -> str:
    """A code cell's source in the notebook of ``lang``: a cell of the course's own tools starts
    with a comment that says so, in the notebook's language."""
    if course_only(cell):
        return f"# {t('lessons.course_only', lang)}\n{cell.source}"
    return cell.source


def nbgrader_metadata(cell: Code) -> dict:
    if cell.role == "solution":
        return {"grade": False, "grade_id": cell.grade_id, "locked": False,
                "schema_version": NBGRADER_SCHEMA, "solution": True, "task": False}
    points = int(cell.points) if float(cell.points).is_integer() else cell.points
    return {"grade": True, "grade_id": cell.grade_id, "locked": True, "points": points,
            "schema_version": NBGRADER_SCHEMA, "solution": False, "task": False}


def question_cells(lesson: Lesson, prose: Prose, lang: str) -> list:
    """The open questions that end a lesson, as notebook cells: a heading with the
    instructions, then each question followed by an empty markdown cell for the student's
    answer (``metadata.minitape.answer_to`` names the question's cell).

    The answer cells are ordinary markdown cells, not nbgrader cells: nbgrader accepts a
    markdown answer cell only as a manually graded one, which flags every answered submission
    "needs manual grade" (even at 0 points) and makes an empty one "unanswered". As ordinary
    cells they are handed in with the notebook, kept by autograding and shown in the feedback,
    and never scored.
    """
    import nbformat.v4 as v4

    status = prose.status(lang)
    note = {"missing": f"> ⚠️ {t('lessons.missing_translation', lang)}\n\n",
            "stale": f"> ⚠️ {t('lessons.stale_translation', lang)}\n\n"}.get(status, "")
    heading = (f"{note}## {t('lessons.questions.title', lang)}\n\n"
               f"{t('lessons.questions.intro', lang)}")
    cells = [v4.new_markdown_cell(heading, id=lesson.cell_id(prose.key))]
    if prose.tags:
        cells[0].metadata["tags"] = list(prose.tags)
    for i, question in enumerate(prose.question_list(lang), start=1):
        question_id = lesson.cell_id(f"{prose.key}-q{i}")
        cells.append(v4.new_markdown_cell(typeset(question, lang, markdown=True), id=question_id))
        answer = v4.new_markdown_cell(t("lessons.questions.answer", lang),
                                      id=lesson.cell_id(f"{prose.key}-a{i}"))
        answer.metadata["minitape"] = {"answer_to": question_id}
        cells.append(answer)
    return cells


def instructor_notebook(lesson: Lesson, lang: str):
    """The nbgrader source notebook of ``lesson`` in ``lang`` (an nbformat NotebookNode)."""
    import nbformat.v4 as v4

    cells = []
    for item in lesson.cells:
        cell_id = lesson.cell_id(item.key)
        if isinstance(item, Prose) and item.questions:
            cells.extend(question_cells(lesson, item, lang))
            continue
        if isinstance(item, Prose):
            cell = v4.new_markdown_cell(prose_text(item, lang), id=cell_id)
        else:
            cell = v4.new_code_cell(code_text(item, lang), id=cell_id)
            if item.role:
                cell.metadata["nbgrader"] = nbgrader_metadata(item)
        if item.tags:
            cell.metadata["tags"] = list(item.tags)
        cells.append(cell)
    nb = v4.new_notebook(cells=cells)
    nb.nbformat, nb.nbformat_minor = 4, 5
    nb.metadata = {
        "kernelspec": dict(KERNELSPEC),
        "language_info": copy.deepcopy(LANGUAGE_INFO),
        "minitape": {
            "generated_from": f"lessons/src/{lesson.name}.py",
            "lang": lang,
            "lesson": lesson.name,
            "variant": "instructor",
            "warning": "Generated by `python -m lessons build`; edit the source, not this file.",
        },
    }
    return nb


def student_notebook(instructor_nb):
    """Release version of an instructor notebook, made by nbgrader's own preprocessors (with
    the course's ``LocalizedClearSolutions``: the stub comment in the notebook's language, as
    the course's ``nbgrader generate_assignment`` releases it)."""
    from nbgrader.preprocessors import (CheckCellMetadata, ClearHiddenTests, ClearMarkScheme,
                                        ClearOutput, ComputeChecksums, LockCells)

    from grader.autograde.clear_solutions import LocalizedClearSolutions

    nb = copy.deepcopy(instructor_nb)
    resources: dict = {}
    for preprocessor in (LockCells(), LocalizedClearSolutions(), ClearOutput(), CheckCellMetadata(),
                         ClearHiddenTests(), ClearMarkScheme(), ComputeChecksums(), CheckCellMetadata()):
        nb, resources = preprocessor.preprocess(nb, resources)
    nb.metadata["minitape"]["variant"] = "student"
    return nb


def to_bytes(nb) -> bytes:
    import nbformat

    nbformat.validate(nb)
    return (nbformat.writes(nb, version=4) + "\n").encode("utf-8")


def render(lessons: list[Lesson], root: Path = ROOT, all_lessons: bool = True) -> dict[Path, bytes]:
    """Every generated file of ``lessons`` (path -> exact bytes).

    When building every lesson, this includes README.md with its lesson table regenerated
    (see ``lessons.readme``); a partial build leaves the README alone.
    """
    from .readme import readme_bytes

    out: dict[Path, bytes] = {}
    for lesson in lessons:
        for lang in LANGS:
            inb = instructor_notebook(lesson, lang)
            out[instructor_path(lesson, lang, root)] = to_bytes(inb)
            out[student_path(lesson, lang, root)] = to_bytes(student_notebook(inb))
    if all_lessons:
        readme = readme_bytes(lessons, root)
        if readme is not None:
            out[root / "README.md"] = readme
    return out


def orphans(lessons: list[Lesson], root: Path = ROOT, all_lessons: bool = True) -> list[Path]:
    """Generated notebooks whose lesson source no longer exists (only when building all)."""
    if not all_lessons:
        return []
    names = {lesson.name for lesson in lessons}
    found = []
    for lang in LANGS:
        for path in sorted((root / "lessons" / lang).glob("*.ipynb")):
            if path.stem not in names:
                found.append(path)
    course = root / "grader" / "course" / "source"
    for path in sorted(course.glob("*-*/*.ipynb")):
        variant = split_variant(path.parent.name)
        if variant is not None and variant[0] == path.stem and path.stem not in names:
            found.append(path)
    return found


# --------------------------------------------------------------------------------------------
# Commands
# --------------------------------------------------------------------------------------------
def build(lessons: list[Lesson], root: Path = ROOT, all_lessons: bool = True, quiet: bool = False) -> int:
    """Write every generated notebook that changed; remove orphans. Returns 0."""
    files = render(lessons, root, all_lessons)
    total, written = len(files), 0
    for i, (path, data) in enumerate(files.items(), start=1):
        old = path.read_bytes() if path.exists() else None
        state = "unchanged" if old == data else ("updated" if old is not None else "created")
        if old != data:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            written += 1
        if not quiet:
            print(f"[{i:>{len(str(total))}}/{total}] {state:9} {display_path(path)}", flush=True)
    for path in orphans(lessons, root, all_lessons):
        path.unlink()
        if not quiet:
            print(f"removed   {display_path(path)} (its lesson source is gone)")
        try:
            path.parent.rmdir()
        except OSError:
            pass
    if not quiet:
        print(f"{len(lessons)} lesson(s), {total} files, {written} written.")
    return 0


def check(lessons: list[Lesson], root: Path = ROOT, all_lessons: bool = True, quiet: bool = False) -> int:
    """Exit status 1 (and a list) when a committed notebook differs from a fresh build."""
    files = render(lessons, root, all_lessons)
    stale = [p for p, data in files.items() if not p.exists() or p.read_bytes() != data]
    extra = orphans(lessons, root, all_lessons)
    if not quiet:
        for path in stale:
            print(f"stale     {display_path(path)}", file=sys.stderr)
        for path in extra:
            print(f"orphan    {display_path(path)} (no lesson source)", file=sys.stderr)
    if stale or extra:
        if not quiet:
            print(f"{len(stale) + len(extra)} generated notebook(s) out of date: run "
                  "`python -m lessons build` and commit the result.", file=sys.stderr)
        return 1
    if not quiet:
        print(f"{len(files)} generated files are up to date.")
    return 0
