"""Grade-import CSVs an LMS takes (issue 29): Canvas and Moodle, beside today's per-cell CSV.

``python -m grader export --format canvas --to canvas.csv`` writes the file Canvas's
*Gradebook → Import* reads: the columns of Canvas's own gradebook export,

    Student,ID,SIS User ID,SIS Login ID,Section,<lesson>[ (<Canvas assignment id>)]...
        Points Possible,,,,,<max score>...
    "Last, First",<Canvas user id>,<student id>,<e-mail>,,<score>...

(``Student`` is "last, first"; ``ID`` is the student's ``lms_user_id`` in the nbgrader
gradebook where it is set, else empty: Canvas then matches the row by ``SIS User ID`` or
``SIS Login ID``; ``Section`` is left empty; an assignment column named with its Canvas id,
``--canvas-id 01-gradients=1234``, updates that assignment, a column without one creates a new
assignment with the ``Points Possible`` row's points.)

``python -m grader export --format moodle --to moodle.csv`` writes what Moodle's *Grades →
Import → CSV file* reads: one row per student, identifier columns and one grade column per
lesson,

    First name,Last name,ID number,Email address,<lesson>...

(map the user by "Email address" or "ID number" on Moodle's import page, and each lesson
column to its grade item).

One column per lesson (language variants merged, as in the per-cell export), its total score.
"""

from __future__ import annotations

import csv

__all__ = ["FORMATS", "canvas_table", "moodle_table", "write_table"]

FORMATS = ("csv", "canvas", "moodle")
CANVAS_FIXED = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
MOODLE_FIXED = ["First name", "Last name", "ID number", "Email address"]


def _lessons(columns: list[str]) -> list[str]:
    return [c[:-len(":score")] for c in columns if c.endswith(":score")]


def _score(value: str) -> str:
    return value if value not in (None, "") else ""


def canvas_table(columns: list[str], rows: list[dict], lms_ids: dict | None = None,
                 canvas_ids: dict | None = None) -> list[list[str]]:
    """Canvas's import table from :func:`grader.autograde.export.export_rows` output."""
    lms_ids, canvas_ids = lms_ids or {}, canvas_ids or {}
    lessons = _lessons(columns)
    header = CANVAS_FIXED + [f"{p} ({canvas_ids[p]})" if canvas_ids.get(p) else p for p in lessons]
    maxima = {}
    for row in rows:
        for p in lessons:
            if row.get(f"{p}:max_score") not in (None, ""):
                maxima.setdefault(p, row[f"{p}:max_score"])
    table = [header, ["    Points Possible", "", "", "", ""] + [maxima.get(p, "") for p in lessons]]
    for row in rows:
        last, first = row.get("last_name", ""), row.get("first_name", "")
        name = f"{last}, {first}" if last and first else (last or first or row["student_id"])
        table.append([name, lms_ids.get(row["student_id"], "") or "", row["student_id"],
                      row.get("email", ""), ""] + [_score(row.get(f"{p}:score")) for p in lessons])
    return table


def moodle_table(columns: list[str], rows: list[dict]) -> list[list[str]]:
    """Moodle's CSV grade import table from :func:`grader.autograde.export.export_rows` output."""
    lessons = _lessons(columns)
    table = [MOODLE_FIXED + lessons]
    for row in rows:
        table.append([row.get("first_name", ""), row.get("last_name", ""), row["student_id"],
                      row.get("email", "")] + [_score(row.get(f"{p}:score")) for p in lessons])
    return table


def write_table(path: str, table: list[list[str]]) -> None:
    """UTF-8, comma-separated, quoted where needed, CRLF line ends (as both LMSs export)."""
    with open(path, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(table)


def parse_canvas_ids(values: list[str]) -> dict[str, str]:
    """``["01-gradients=1234"]`` -> ``{"01-gradients": "1234"}``; ValueError for bad items."""
    out = {}
    for item in values or []:
        lesson, sep, ident = item.partition("=")
        if not sep or not lesson or not ident.strip().isdigit():
            raise ValueError(f"--canvas-id takes LESSON=NUMBER (a Canvas assignment id), got {item!r}")
        out[lesson.strip()] = ident.strip()
    return out
