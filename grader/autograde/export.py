"""Grades export: one row per student, one column per graded cell, and a status column.

``nbgrader export`` (with ``c.ExportApp.plugin_class = "grader.autograde.export.GraderExportPlugin"``,
as in the course config) or ``python -m grader export`` writes a CSV with, for every lesson:

``<lesson>:language``, ``<lesson>:<grade_id>`` for each test cell, ``<lesson>:score``,
``<lesson>:max_score``, ``<lesson>:late_penalty``, ``<lesson>:status``, ``<lesson>:notes``.

The language variants of a lesson (nbgrader assignments ``01-gradients-en``,
``01-gradients-es``, ... with identical grade ids) are merged into one set of columns: a
student is graded on the variant they submitted (the latest one if several).

``status`` is ``ok`` or a ``;``-separated list of: ``missing`` (no submission: neither in the
gradebook nor in ``submitted/``), ``late``,
``crashed`` (the kernel died), ``timed_out``, ``not_run`` (cells after a crash or hang),
``test_cell_restored`` (deleted test cell put back), ``test_cell_modified`` (edited test cell
restored), ``not_autograded`` (submitted but no autograded notebook: autograde failed or has
not run), ``unanswered`` (a solution cell left as released), ``needs_manual_grade``,
``multiple_submissions``, and the refusals of :mod:`grader.infra.submissions` and
:mod:`grader.infra.lms_download` (``refused_link``, ``refused_special``, ``refused_id``,
``refused_ambiguous``, ``refused_no_notebook``, ``refused_unreadable``). The same words are
what ``autograde-all`` reports (:func:`assignment_statuses`). A crashed or timed-out submission
is therefore never a silent 0. ``notes`` says where, in words; it also says ``raised
(<exercise>)`` for each exercise whose checks found the student's code raising an exception (a
fact about the answer, not a grading problem: the status stays as it is), and the instructor's
comments from formgrader.
"""

from __future__ import annotations

import csv
import os
import re
from collections import OrderedDict
from dataclasses import dataclass, field

import nbformat

from nbgrader.api import Gradebook, MissingEntry
from nbgrader.plugins import ExportPlugin

from grader.i18n import LANGS, split_variant
from grader.autograde.issues import issues_of

__all__ = ["GraderExportPlugin", "assignment_statuses", "export_rows", "submitted_on_disk", "write_csv"]

LANG_ORDER = LANGS
# recorded issues the notes name but the status does not (facts, not grading problems)
NOTE_ONLY_KINDS = ("raised", "notebook_repaired")
_MISSING_CELL = re.compile(r"^# This cell \(id:(?P<id>[^)]*)\) was missing from the submission")


def split_assignment(name: str) -> tuple[str, str]:
    """``"01-gradients-es"`` -> ``("01-gradients", "es")``; other names -> ``(name, "")``."""
    return split_variant(name) or (name, "")


@dataclass
class Lesson:
    name: str
    variants: list = field(default_factory=list)  # Assignment objects, in LANG_ORDER
    cells: "OrderedDict[str, float]" = field(default_factory=OrderedDict)  # grade id -> max score

    @property
    def max_score(self) -> float:
        return sum(self.cells.values())


def _lessons(gradebook: Gradebook, only: list[str]) -> list[Lesson]:
    lessons: dict[str, Lesson] = {}
    for assignment in gradebook.assignments:
        lesson_name, _ = split_assignment(assignment.name)
        if only and assignment.name not in only and lesson_name not in only:
            continue
        lessons.setdefault(lesson_name, Lesson(lesson_name)).variants.append(assignment)
    for lesson in lessons.values():
        lesson.variants.sort(key=lambda a: LANG_ORDER.index(split_assignment(a.name)[1])
                             if split_assignment(a.name)[1] else -1)
        for assignment in lesson.variants:
            multi = len(assignment.notebooks) > 1
            for notebook in assignment.notebooks:
                for cell in notebook.grade_cells:
                    key = f"{notebook.name}:{cell.name}" if multi else cell.name
                    lesson.cells.setdefault(key, float(cell.max_score))
    return [lessons[k] for k in sorted(lessons)]


def _autograded_issues(path: str) -> tuple[list[dict], bool]:
    """(issues, exists) of an autograded notebook; issues also found without our metadata."""
    if not os.path.exists(path):
        return [], False
    nb = nbformat.read(path, as_version=4)
    issues = issues_of(nb)
    if not issues:  # graded with a plain nbgrader config: look at the outputs
        for i, cell in enumerate(nb.cells):
            grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id") or f"cell {i + 1}"
            if cell.cell_type == "code" and _MISSING_CELL.match(cell.source):
                issues.append({"kind": "test_cell_restored", "cell": grade_id, "detail": ""})
            for out in cell.get("outputs", []):
                if out.get("output_type") == "error" and out.get("ename") == "CellTimeoutError":
                    issues.append({"kind": "timed_out", "cell": grade_id, "detail": ""})
                if out.get("output_type") == "error" and out.get("ename") == "DeadKernelError":
                    issues.append({"kind": "crashed", "cell": grade_id, "detail": ""})
    return issues, True


def _fmt(x: float | None) -> str:
    if x is None:
        return ""
    return f"{x:.4f}".rstrip("0").rstrip(".") if x else "0"


def export_rows(gradebook: Gradebook, autograded_path, assignments: list[str] = (),
                students: list[str] = (), submitted=None, refused=None) -> tuple[list[str], list[dict]]:
    """(columns, rows) of the export. ``autograded_path(student, assignment, notebook)`` gives
    the path of an autograded notebook; ``submitted()`` (optional) the set of
    ``(student, assignment)`` with a folder in ``submitted/``: such a submission is never
    ``missing``, even where autograding left nothing of it in the gradebook (and a student who
    is only there gets a row). ``refused(student, assignment)`` (optional) the refusal of a
    submission (links, special files: :mod:`grader.infra.submissions`), shown as its status."""
    lessons = _lessons(gradebook, list(assignments))
    on_disk = set(submitted()) if submitted is not None else set()
    columns = ["student_id", "last_name", "first_name", "email"]
    for lesson in lessons:
        p = lesson.name
        columns += [f"{p}:language", *[f"{p}:{c}" for c in lesson.cells], f"{p}:score",
                    f"{p}:max_score", f"{p}:late_penalty", f"{p}:status", f"{p}:notes"]
    known = {a.name for lesson in lessons for a in lesson.variants}
    people = {s.id: s for s in gradebook.students}
    for student_id, assignment in on_disk:
        if assignment in known:
            people.setdefault(student_id, None)  # submitted, but not (yet) in the gradebook
    rows = []
    for student_id in sorted(people):
        student = people[student_id]
        if students and student_id not in students:
            continue
        row = {"student_id": student_id, "last_name": getattr(student, "last_name", None) or "",
               "first_name": getattr(student, "first_name", None) or "",
               "email": getattr(student, "email", None) or ""}
        for lesson in lessons:
            row.update(_lesson_cells(gradebook, lesson, student_id, autograded_path, on_disk, refused))
        rows.append(row)
    return columns, rows


def submitted_on_disk(coursedir) -> set[tuple[str, str]]:
    """(student, assignment) of every folder ``submitted/<student>/<assignment>/``."""
    import glob

    pattern = coursedir.format_path(coursedir.submitted_directory, "*", "*")
    found = set()
    for path in glob.glob(pattern):
        if os.path.isdir(path):
            parts = os.path.normpath(path).split(os.sep)
            found.add((parts[-2], parts[-1]))
    from grader.infra.submissions import recorded_all

    return found | recorded_all(coursedir.root)  # refused when collected: nothing in submitted/


def assignment_statuses(coursedir, assignment: str, students: list[str]) -> dict[str, str]:
    """``{student: status}`` of ``assignment`` as the export writes it (``ok``, ``unanswered``,
    ``crashed;not_run``, ...): what ``autograde-all`` reports, in the export's one vocabulary."""
    from grader.infra import nbgrader_compat

    nbgrader_compat.install()

    def autograded_path(student: str, name: str, notebook: str) -> str:
        return os.path.join(coursedir.format_path(coursedir.autograded_directory, student, name),
                            f"{notebook}.ipynb")

    lesson = split_assignment(assignment)[0]
    with Gradebook(coursedir.db_url, coursedir.course_id) as gb:
        _, rows = export_rows(gb, autograded_path, [assignment], list(students),
                              refused=refusal_lookup(coursedir))
    return {r["student_id"]: r.get(f"{lesson}:status", "") for r in rows if r["student_id"] in students}


def refusal_lookup(coursedir):
    """``refused`` for :func:`export_rows`: a submission's refusal (grader.infra.submissions)."""
    from grader.infra.submissions import refusal_of

    return lambda student, assignment: refusal_of(coursedir, assignment, student)


def _lesson_cells(gradebook, lesson: Lesson, student_id: str, autograded_path,
                  on_disk: set = frozenset(), refused=None) -> dict:
    p = lesson.name
    out = {f"{p}:{c}": "" for c in lesson.cells}
    out[f"{p}:max_score"] = _fmt(lesson.max_score)
    for assignment in lesson.variants if refused is not None else ():
        refusal = refused(student_id, assignment.name)
        if refusal is not None:  # links or special files: nothing of it was graded
            out.update({f"{p}:language": split_assignment(assignment.name)[1], f"{p}:score": "0",
                        f"{p}:late_penalty": "", f"{p}:status": refusal.status,
                        f"{p}:notes": f"{assignment.name}: {refusal.note}"})
            return out
    submissions = []
    for assignment in lesson.variants:
        try:
            submissions.append(gradebook.find_submission(assignment.name, student_id))
        except MissingEntry:
            pass
    if not submissions:
        there = [a.name for a in lesson.variants if (student_id, a.name) in on_disk]
        if there:  # in submitted/, but autograding recorded nothing (it failed or has not run)
            out.update({f"{p}:language": split_assignment(there[-1])[1], f"{p}:score": "0",
                        f"{p}:late_penalty": "", f"{p}:status": "not_autograded",
                        f"{p}:notes": f"submitted ({', '.join(there)}) but not autograded: "
                                      "autograde failed or has not run"})
        else:
            out.update({f"{p}:language": "", f"{p}:score": "0", f"{p}:late_penalty": "",
                        f"{p}:status": "missing", f"{p}:notes": "no submission"})
        return out
    status: list[str] = []
    notes: list[str] = []
    if len(submissions) > 1:
        langs = ", ".join(split_assignment(s.assignment.name)[1] or s.assignment.name for s in submissions)
        status.append("multiple_submissions")
        submissions.sort(key=lambda s: (s.timestamp is not None, s.timestamp or 0))
        notes.append(f"submitted in {langs}; graded the latest "
                     f"({split_assignment(submissions[-1].assignment.name)[1]})")
    sub = submissions[-1]
    assignment_name = sub.assignment.name
    out[f"{p}:language"] = split_assignment(assignment_name)[1]
    multi = len(sub.notebooks) > 1
    total = 0.0
    needs_manual = False
    for nb in sub.notebooks:
        for grade in nb.grades:
            if grade.cell.type != "GradeCell":
                continue
            key = f"{nb.name}:{grade.name}" if multi else grade.name
            if grade.manual_score is None and grade.auto_score is None:
                needs_manual = True
                continue
            score = grade.manual_score if grade.manual_score is not None else grade.auto_score
            score += grade.extra_credit or 0.0
            total += score
            out[f"{p}:{key}"] = _fmt(score)
            needs_manual = needs_manual or bool(grade.needs_manual_grade)
        unanswered = sorted(c.name for c in nb.comments if c.auto_comment == "No response.")
        if unanswered:
            status.append("unanswered")
            notes.append(f"no answer in {', '.join(unanswered)}")
        for comment in nb.comments:  # the instructor's comments (formgrader), in the notes
            if comment.manual_comment:
                notes.append(f"comment ({comment.name}): {comment.manual_comment.strip()}")
        issues, exists = _autograded_issues(autograded_path(student_id, assignment_name, nb.name))
        if not exists:
            status.append("not_autograded")
            notes.append(f"{nb.name}.ipynb has no autograded version (autograde failed or not run)")
        for issue in issues:
            kind = issue.get("kind", "")
            if kind and kind not in status and kind not in NOTE_ONLY_KINDS:
                status.append(kind)
            where = issue.get("cell") or ""
            note = f"{kind.replace('_', ' ')} ({where})" if where else kind.replace("_", " ")
            if kind in ("technique", "forged_result", "hooked", "metadata_edited",
                        "notebook_repaired") and issue.get("detail"):
                note += f": {issue['detail']}"  # a concern for the instructor's review
            notes.append(note)
    penalty = sub.late_submission_penalty or 0.0
    if sub.total_seconds_late > 0:
        status.insert(0, "late")
        notes.insert(0, f"{sub.total_seconds_late / 3600:.1f} h late")
    if needs_manual:
        status.append("needs_manual_grade")
    out[f"{p}:score"] = _fmt(max(0.0, total - penalty))
    out[f"{p}:late_penalty"] = _fmt(penalty)
    out[f"{p}:status"] = ";".join(status) if status else "ok"
    out[f"{p}:notes"] = "; ".join(notes)
    return out


def write_csv(path: str, columns: list[str], rows: list[dict]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=columns)
        writer.writeheader()
        for row in rows:
            writer.writerow({c: row.get(c, "") for c in columns})


class GraderExportPlugin(ExportPlugin):
    """nbgrader ExportPlugin writing the per-cell CSV described in the module docstring."""

    def export(self, gradebook: Gradebook) -> None:
        dest = self.to or "grades.csv"
        coursedir = getattr(self.parent, "coursedir", None)
        if coursedir is None:
            from nbgrader.coursedir import CourseDirectory

            coursedir = CourseDirectory(parent=self)

        def autograded_path(student: str, assignment: str, notebook: str) -> str:
            folder = coursedir.format_path(coursedir.autograded_directory, student, assignment)
            return os.path.join(folder, f"{notebook}.ipynb")

        columns, rows = export_rows(gradebook, autograded_path,
                                    [str(a) for a in self.assignment], [str(s) for s in self.student],
                                    submitted=lambda: submitted_on_disk(coursedir),
                                    refused=refusal_lookup(coursedir))
        self.log.info("Exporting %d students to %s", len(rows), dest)
        write_csv(dest, columns, rows)
