"""A synthetic graded class: an nbgrader gradebook and autograded notebooks written directly
(no kernel, no nbgrader run), shaped exactly as ``autograde-all`` leaves them -- grades in the
gradebook, ``metadata.grader.scores[grade id]["pattern"]`` and ``metadata.grader.issues`` in
each autograded notebook. Used by the class-report tests and by
``benchmarks/class_report.py`` (20,000 submissions).
"""

from __future__ import annotations

import json
import sqlite3
import uuid
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
LESSON_SOURCE = REPO / "grader" / "course" / "source" / "01-gradients-en" / "01-gradients.ipynb"
POINTS = {"l01_ex1": 1.0, "l01_ex2": 2.0, "l01_ex3": 2.0, "l01_ex4": 2.0}


@dataclass
class Submission:
    student: str
    scores: dict  # grade id -> score
    patterns: dict = field(default_factory=dict)  # grade id -> summary record (grader.student.mistakes)
    issues: list = field(default_factory=list)  # {"kind", "cell", "detail"}
    code: dict = field(default_factory=dict)  # function name -> source of its cell
    first_name: str = ""
    last_name: str = ""
    email: str = ""
    unanswered: list = field(default_factory=list)  # grade ids whose solution cell is as released
    passed: dict = field(default_factory=dict)  # grade id -> share of checks passed (as recorded)


def _uid() -> str:
    return uuid.uuid4().hex


def build(course: Path, submissions: list[Submission], assignment: str = "01-gradients-en",
          notebook: str = "01-gradients", points: dict = POINTS, template: Path = LESSON_SOURCE,
          timestamp: str = "2026-11-20 10:00:00.000000") -> Path:
    """Write ``course/`` (config, gradebook.db, autograded/...) for ``submissions``; called
    again on the same course, it adds another assignment (a language variant)."""
    from grader.infra import nbgrader_compat

    nbgrader_compat.install()  # before any Gradebook: no `alembic` needed on PATH
    from nbgrader.api import Gradebook

    course.mkdir(parents=True, exist_ok=True)
    (course / "nbgrader_config.py").write_text("c = get_config()\n", encoding="utf-8")
    db = course / "gradebook.db"
    with Gradebook(f"sqlite:///{db}") as gb:  # nbgrader creates its schema
        gb.add_assignment(assignment)
        gb.add_notebook(notebook, assignment)
        for cell, max_score in points.items():
            gb.add_grade_cell(cell, notebook, assignment, max_score=max_score, cell_type="code")
        if any(sub.unanswered for sub in submissions):  # the lessons' X_solution cells
            for cell in points:
                gb.add_solution_cell(f"{cell}_solution", notebook, assignment)
    con = sqlite3.connect(db)
    try:
        (assignment_id,) = con.execute("SELECT id FROM assignment WHERE name = ?", (assignment,)).fetchone()
        (notebook_id,) = con.execute("SELECT id FROM notebook WHERE name = ? AND assignment_id = ?",
                                     (notebook, assignment_id)).fetchone()
        cells = dict(con.execute("SELECT bc.name, gc.id FROM grade_cells gc JOIN base_cell bc "
                                 "ON bc.id = gc.id WHERE bc.notebook_id = ?", (notebook_id,)).fetchall())
        solutions = dict(con.execute("SELECT bc.name, sc.id FROM solution_cells sc JOIN base_cell bc "
                                     "ON bc.id = sc.id WHERE bc.notebook_id = ?", (notebook_id,)).fetchall())
        students, sa_rows, sn_rows, grade_rows, comment_rows = [], [], [], [], []
        for sub in submissions:
            students.append((sub.student, sub.first_name or None, sub.last_name or None,
                             sub.email or None, None))
            sa, sn = _uid(), _uid()
            sa_rows.append((sa, assignment_id, sub.student, timestamp, None))
            sn_rows.append((sn, sa, notebook_id, 0, 0.0))
            for cell, cell_id in cells.items():
                grade_rows.append((_uid(), sn, cell_id, float(sub.scores.get(cell, 0.0)), None, None, 0))
            for cell in sub.unanswered:  # nbgrader's SaveAutoGrades: a solution cell as released
                comment_rows.append((_uid(), sn, solutions[f"{cell}_solution"], "No response.", None))
        con.executemany("INSERT OR IGNORE INTO student (id, first_name, last_name, email, lms_user_id) "
                        "VALUES (?, ?, ?, ?, ?)", students)
        con.executemany("INSERT INTO submitted_assignment (id, assignment_id, student_id, timestamp, "
                        "extension) VALUES (?, ?, ?, ?, ?)", sa_rows)
        con.executemany("INSERT INTO submitted_notebook (id, assignment_id, notebook_id, flagged, "
                        "late_submission_penalty) VALUES (?, ?, ?, ?, ?)", sn_rows)
        con.executemany("INSERT INTO grade (id, notebook_id, cell_id, auto_score, manual_score, "
                        "extra_credit, needs_manual_grade) VALUES (?, ?, ?, ?, ?, ?, ?)", grade_rows)
        con.executemany("INSERT INTO comment (id, notebook_id, cell_id, auto_comment, manual_comment) "
                        "VALUES (?, ?, ?, ?, ?)", comment_rows)
        con.commit()
    finally:
        con.close()
    base = json.loads(template.read_text(encoding="utf-8"))
    for sub in submissions:
        nb = dict(base)
        cells = []
        for cell in base["cells"]:
            source = cell.get("source", "")
            source = "".join(source) if isinstance(source, list) else source
            for function, code in sub.code.items():
                if cell.get("cell_type") == "code" and f"def {function}(" in source:
                    cell = dict(cell, source=code)
            cells.append(cell)
        nb["cells"] = cells
        nb["metadata"] = dict(base.get("metadata", {}), grader={
            "issues": list(sub.issues),
            "scores": {cell: {"score": sub.scores.get(cell, 0.0), "points": pts, "seconds": [0.01],
                              "tools": [], "pattern": sub.patterns.get(cell, {}),
                              **({"passed": sub.passed[cell]} if cell in sub.passed else {})}
                       for cell, pts in points.items()}})
        folder = course / "autograded" / sub.student / assignment
        folder.mkdir(parents=True, exist_ok=True)
        # as nbformat.write lays a notebook out
        (folder / f"{notebook}.ipynb").write_text(
            json.dumps(nb, sort_keys=True, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return course
