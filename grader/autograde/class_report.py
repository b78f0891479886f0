"""What did my class get wrong? The instructor's class report (issue 29).

``python -m grader report ASSIGNMENT [--course DIR] --out DIR [--lang xx]`` writes

* ``DIR/report.json``: ``{"assignment", "students", "exercises": {id: {"points", "mean",
  "median", "full", "zero", "distribution", "optional" (an exercise worth 0 points, whose
  figures are then the share of checks each student passed, out of 1), "patterns": {pattern: count}, "kinds",
  "errors" (the code raised), "unanswered" (left as released, the export's status), "flags",
  "example"}}, "difficulty": [ids, hardest first], "flags": {kind: count}}``;
* ``DIR/report.html``: one self-contained page (inline SVG plots, no script): exercises ranked
  by difficulty, per exercise its score distribution, its mistake patterns with counts and one
  anonymized example of the student code behind the most common one, and the autograder's
  flags (timeouts, crashes, technique, restored cells, ...), in the instructor's language.

It never runs student code. It reads the gradebook once (one SQL query for every grade of the
assignment) and, per submission, the autograded notebook's ``metadata.grader`` (written by the
trusted side: ``scores[grade id]["pattern"]``, :func:`grader.student.mistakes.summary`, and
``issues``), so it reads the same after ``autograde-all`` on this machine or on a Dask cluster.
``ASSIGNMENT`` is an nbgrader assignment (``01-gradients-es``) or a lesson
(``01-gradients``: its language variants together).
"""

from __future__ import annotations

import html
import io
import json
import os
import re
import statistics
import sys
import time
import tokenize
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from course_lang import split_variant

__all__ = ["ClassData", "collect", "render_html", "to_json", "write_report"]

# autograder issues the report counts as flags (grader.autograde.issues / grader.autograde.export)
NOT_PATTERNS = ("error",)


@dataclass
class ExerciseStats:
    points: float
    scores: list = field(default_factory=list)
    patterns: Counter = field(default_factory=Counter)
    kinds: Counter = field(default_factory=Counter)
    flags: Counter = field(default_factory=Counter)
    errors: int = 0      # the student's code raised (an answer was written)
    unanswered: int = 0  # the solution cell left as released (the export's ``unanswered``)
    first: dict = field(default_factory=dict)  # pattern -> (student, notebook path)
    # the share of checks each student passed (recorded by the autograder): what an optional
    # exercise, worth 0 points, is summarized by
    passed: list = field(default_factory=list)


@dataclass
class ClassData:
    assignment: str
    assignments: list
    students: int = 0
    exercises: dict = field(default_factory=dict)  # grade id -> ExerciseStats
    flags: Counter = field(default_factory=Counter)
    unreadable: int = 0
    people: dict = field(default_factory=dict)  # student id -> (first, last, email)


# a row of the gradebook (t: grade or comment) with its submission's student and assignment
_PER_SUBMISSION = """
JOIN submitted_notebook sn ON t.notebook_id = sn.id
JOIN submitted_assignment sa ON sn.assignment_id = sa.id
JOIN assignment a ON sa.assignment_id = a.id
"""

_GRADES_SQL = """
SELECT sa.student_id, a.name, n.name, bc.name, gc.max_score, t.auto_score, t.manual_score,
       t.extra_credit, sa.timestamp
FROM grade t""" + _PER_SUBMISSION + """JOIN grade_cells gc ON t.cell_id = gc.id
JOIN base_cell bc ON bc.id = gc.id
JOIN notebook n ON bc.notebook_id = n.id
WHERE a.name IN ({names})
ORDER BY sa.student_id, a.name, n.name, bc.name
"""

# solution cells nbgrader found as released ("No response.": their checksum is the release's):
# the export's ``unanswered``, read from the same place the export reads it
_UNANSWERED_SQL = """
SELECT sa.student_id, a.name, n.name, bc.name
FROM comment t""" + _PER_SUBMISSION + """JOIN base_cell bc ON bc.id = t.cell_id
JOIN notebook n ON bc.notebook_id = n.id
WHERE a.name IN ({names}) AND t.auto_comment = 'No response.'
"""
SOLUTION_SUFFIX = "_solution"  # the lessons' solution cell of exercise X is X_solution


def _metadata(path: str) -> dict | None:
    """``metadata.grader`` of an autograded notebook (None if unreadable). nbformat writes the
    top-level keys sorted with one space of indent, so the top-level ``metadata`` is parsed on
    its own (a notebook's cells are most of its bytes); anything else is parsed whole."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except OSError:
        return None
    start = text.rfind('\n "metadata": {')
    meta = None
    if start >= 0:
        try:
            meta = json.loads("{" + text[start + 1:]).get("metadata")
        except ValueError:
            meta = None
    if meta is None:
        try:
            meta = json.loads(text).get("metadata")
        except ValueError:
            return None
    if not isinstance(meta, dict):
        return None
    grader = meta.get("grader", {})
    return grader if isinstance(grader, dict) else {}


def _assignments(names: list[str], wanted: str) -> list[str]:
    if wanted in names:
        return [wanted]
    return sorted(n for n in names if (split_variant(n) or ("",))[0] == wanted)


def collect(course_dir: str, assignment: str, progress: bool = False) -> ClassData:
    """Read the gradebook (once) and the autograded notebooks' metadata of ``assignment``."""
    from nbgrader.api import Gradebook
    from sqlalchemy import text

    from grader.infra import nbgrader_compat
    from grader.infra.parallel import load_coursedir

    nbgrader_compat.install()
    coursedir = load_coursedir(course_dir)
    db = coursedir.db_url
    if db.startswith("sqlite:///") and not os.path.exists(db[len("sqlite:///"):]):
        raise FileNotFoundError(f"no gradebook at {db[len('sqlite:///'):]} (nothing graded yet)")
    started = time.monotonic()
    with Gradebook(db, coursedir.course_id) as gb:
        known = [a.name for a in gb.assignments]
        names = _assignments(known, assignment)
        if not names:
            raise KeyError(f"unknown assignment {assignment!r} (in the gradebook: "
                           f"{', '.join(sorted(known)) or 'none'})")
        params = {f"a{i}": n for i, n in enumerate(names)}
        sql = _GRADES_SQL.format(names=", ".join(f":a{i}" for i in range(len(names))))
        rows = gb.db.execute(text(sql), params).fetchall()
        blank = gb.db.execute(text(_UNANSWERED_SQL.format(names=", ".join(
            f":a{i}" for i in range(len(names))))), params).fetchall()
        people = {s.id: (s.first_name or "", s.last_name or "", s.email or "") for s in gb.students}
    data = ClassData(assignment, names, people=people)
    unanswered: dict[tuple, set] = defaultdict(set)  # (student, assignment, nb) -> exercises
    for student, a_name, nb_name, cell in blank:
        unanswered[(student, a_name, nb_name)].add(
            cell[:-len(SOLUTION_SUFFIX)] if cell.endswith(SOLUTION_SUFFIX) else cell)
    per_student: dict[tuple, dict] = defaultdict(dict)  # (student, assignment, nb) -> cell -> score
    latest: dict[str, tuple] = {}  # student -> (timestamp, assignment): the variant graded
    for student, a_name, nb_name, cell, max_score, auto, manual, extra, stamp in rows:
        data.exercises.setdefault(cell, ExerciseStats(float(max_score or 0)))
        score = manual if manual is not None else auto
        per_student[(student, a_name, nb_name)][cell] = \
            None if score is None else float(score) + float(extra or 0)
        key = (str(stamp or ""), a_name)
        if student not in latest or key > latest[student]:
            latest[student] = key
    # the latest variant only, where a student submitted several (as the export grades them)
    per_student = {k: v for k, v in per_student.items() if latest[k[0]][1] == k[1]}
    data.students = len(latest)
    done = 0
    for (student, a_name, nb_name), cells in sorted(per_student.items()):
        for cell, score in cells.items():
            data.exercises[cell].scores.append(0.0 if score is None else score)
        path = os.path.join(coursedir.format_path(coursedir.autograded_directory, student, a_name),
                            f"{nb_name}.ipynb")
        blank_here = unanswered.get((student, a_name, nb_name), set()) & set(cells)
        for cell in blank_here:
            data.exercises[cell].unanswered += 1
        grader = _metadata(path)
        if grader is None:
            data.unreadable += 1
        else:
            _read_submission(data, student, path, grader, skip=blank_here)
        done += 1
        if progress and sys.stderr.isatty() and done % 500 == 0:
            rate = done / max(time.monotonic() - started, 1e-9)
            print(f"\r{done}/{len(per_student)} submissions read ({rate:.0f}/s)", end="",
                  file=sys.stderr, flush=True)
    if progress and sys.stderr.isatty() and done >= 500:
        print(file=sys.stderr)
    return data


def _read_submission(data: ClassData, student: str, path: str, grader: dict,
                     skip: set = frozenset()) -> None:
    """Count a submission's patterns and flags; exercises in ``skip`` were left unanswered (a
    stub raising NotImplementedError is no mistake and no exception: counted as unanswered)."""
    scores = grader.get("scores", {})
    for cell, record in (scores.items() if isinstance(scores, dict) else ()):
        stats = data.exercises.get(cell)
        if stats is None or not isinstance(record, dict) or cell in skip:
            continue
        share = record.get("passed")
        if type(share) in (int, float) and 0.0 <= share <= 1.0:
            stats.passed.append(float(share))
        pattern = record.get("pattern") or {}
        name = pattern.get("pattern") if isinstance(pattern, dict) else None
        if not isinstance(name, str) or not name:
            continue
        if name in NOT_PATTERNS:
            stats.errors += 1
            continue
        stats.patterns[name] += 1
        kind = pattern.get("k") if name == "scale" else pattern.get("kind")  # sub-kind, factor
        if isinstance(kind, str) and kind and name != "swapped":
            stats.kinds[f"{name}:{kind}"] += 1
        stats.first.setdefault(name, (student, path))
    for issue in grader.get("issues", []) or []:
        if not isinstance(issue, dict):
            continue
        kind = str(issue.get("kind", ""))[:40]
        if not kind:
            continue
        data.flags[kind] += 1
        cell = issue.get("cell")
        if cell in data.exercises:
            data.exercises[cell].flags[kind] += 1


# ------------------------------------------------------------------------------------------
# anonymized example code
# ------------------------------------------------------------------------------------------
def _function_of(exercise_id: str) -> str | None:
    try:
        from grader.student.visible import _load

        entry = _load().get(exercise_id)
        if entry:
            return entry["function"]
    except Exception:
        pass
    try:
        from grader.student.registry import get

        return get(exercise_id).function
    except Exception:
        return None


def _strip_comments(source: str) -> str:
    """The code without its comments (they may name the student) and without blank runs."""
    try:
        tokens = [tok for tok in tokenize.generate_tokens(io.StringIO(source).readline)
                  if tok.type != tokenize.COMMENT]
        source = tokenize.untokenize(tokens)
    except (tokenize.TokenError, IndentationError, SyntaxError):
        source = "\n".join(line.split("#", 1)[0] for line in source.splitlines())
    lines = [line.rstrip() for line in source.splitlines()]
    return "\n".join(line for line in lines if line.strip())


def example_code(path: str, exercise_id: str, who: tuple = ()) -> str:
    """The student's cell defining the exercise's function, anonymized: comments removed and
    the student's id, names and e-mail replaced by ``…``."""
    function = _function_of(exercise_id)
    try:
        with open(path, encoding="utf-8") as fh:
            nb = json.load(fh)
    except (OSError, ValueError):
        return ""
    define = re.compile(rf"^\s*def\s+{re.escape(function)}\s*\(", re.M) if function else None
    for cell in nb.get("cells", []):
        if cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else str(source)
        if define is not None and define.search(source):
            code = _strip_comments(source)
            for word in sorted({w for w in who if w and len(w) > 1}, key=len, reverse=True):
                code = re.sub(re.escape(word), "…", code, flags=re.I)
            return code[:4000]
    return ""


# ------------------------------------------------------------------------------------------
# JSON and HTML
# ------------------------------------------------------------------------------------------
def _num(x: float) -> float:
    return round(float(x), 4)


def to_json(data: ClassData) -> dict:
    exercises = {}
    for ex_id, s in sorted(data.exercises.items()):
        scores, points = s.scores, s.points
        optional = points == 0  # an optional exercise: the share of checks passed, out of 1
        if optional:
            scores, points = s.passed, 1.0
        top = s.patterns.most_common(1)
        example = None
        if top:
            student, path = s.first[top[0][0]]
            who = (student, *data.people.get(student, ()))
            example = {"pattern": top[0][0], "code": example_code(path, ex_id, who)}
        exercises[ex_id] = {
            "points": points,
            "optional": optional,
            "mean": _num(statistics.fmean(scores)) if scores else 0.0,
            "median": _num(statistics.median(scores)) if scores else 0.0,
            "full": sum(1 for x in scores if x >= points - 1e-9),
            "zero": sum(1 for x in scores if x <= 1e-9),
            "distribution": {f"{k:g}": v for k, v in sorted(Counter(_num(x) for x in scores).items())},
            "patterns": dict(s.patterns.most_common()),
            "kinds": dict(s.kinds.most_common()),
            "errors": s.errors,
            "unanswered": s.unanswered,
            "flags": dict(s.flags.most_common()),
            "example": example,
        }
    difficulty = sorted(exercises, key=lambda e: (exercises[e]["mean"] / exercises[e]["points"]
                                                  if exercises[e]["points"] else 1.0, e))
    return {"assignment": data.assignment, "assignments": data.assignments,
            "students": data.students, "exercises": exercises, "difficulty": difficulty,
            "flags": dict(data.flags.most_common()), "unreadable": data.unreadable}


def _svg_bars(items: list[tuple[str, float, str]], width: int = 520, bar: int = 18,
              maximum: float = 1.0, fmt=lambda v: f"{v:.0%}") -> str:
    """A horizontal bar chart: (label, value, colour) rows."""
    label_w, h = 150, bar + 6
    out = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{h * len(items) + 4}' "
           "role='img' style='font:12px system-ui,sans-serif'>"]
    for i, (label, value, colour) in enumerate(items):
        y = i * h + 2
        w = 0 if maximum <= 0 else (width - label_w - 60) * max(0.0, value) / maximum
        out.append(f"<text x='{label_w - 6}' y='{y + bar - 5}' text-anchor='end'>{html.escape(label)}</text>"
                   f"<rect x='{label_w}' y='{y}' width='{w:.1f}' height='{bar}' fill='{colour}'/>"
                   f"<text x='{label_w + w + 4:.1f}' y='{y + bar - 5}'>{html.escape(fmt(value))}</text>")
    out.append("</svg>")
    return "".join(out)


def _svg_histogram(distribution: dict, points: float, width: int = 260, height: int = 90) -> str:
    """Counts per score as vertical bars (0 .. points)."""
    if not distribution:
        return ""
    top = max(distribution.values())
    bins = sorted((float(k), v) for k, v in distribution.items())
    n = len(bins)
    bw = max(4.0, (width - 10) / max(n, 1) - 4)
    out = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height + 16}' role='img' "
           "style='font:10px system-ui,sans-serif'>"]
    for i, (score, count) in enumerate(bins):
        h = (height - 12) * count / top
        x = 5 + i * (bw + 4)
        colour = "#1a7f37" if score >= points - 1e-9 else ("#cf222e" if score <= 1e-9 else "#9a6700")
        out.append(f"<rect x='{x:.1f}' y='{height - h:.1f}' width='{bw:.1f}' height='{h:.1f}' fill='{colour}'>"
                   f"<title>{score:g}: {count}</title></rect>"
                   f"<text x='{x + bw / 2:.1f}' y='{height + 12}' text-anchor='middle'>{score:g}</text>"
                   f"<text x='{x + bw / 2:.1f}' y='{height - h - 2:.1f}' text-anchor='middle'>{count}</text>")
    out.append("</svg>")
    return "".join(out)


def _title(exercise_id: str, lang: str) -> str:
    """The exercise's title in ``lang`` (from the installed visible data), or ``""``."""
    try:
        from grader.student.visible import _load

        title = (_load().get(exercise_id) or {}).get("title") or {}
        return title.get(lang) or title.get("en") or ""
    except Exception:
        return ""


def _pattern_name(pattern: str, lang: str) -> str:
    from grader.i18n import t
    from grader.messages import MESSAGES

    key = f"classreport.pattern.{pattern}"
    return t(key, lang) if key in MESSAGES else pattern


def render_html(report: dict, lang: str = "en") -> str:
    from grader.i18n import t

    def T(key, **kw):
        return html.escape(t(f"classreport.{key}", lang, **kw))

    exercises = report["exercises"]
    ranked = report["difficulty"]
    bars = _svg_bars([(e, (exercises[e]["mean"] / exercises[e]["points"]) if exercises[e]["points"] else 0.0,
                       "#0969da") for e in ranked])
    parts = [
        "<!DOCTYPE html>", f"<html lang='{html.escape(lang)}'><head><meta charset='utf-8'>",
        f"<title>{T('title', assignment=report['assignment'])}</title>",
        "<style>body{font:14px system-ui,-apple-system,Segoe UI,sans-serif;margin:24px;max-width:1100px;color:#1f2328}"
        "table{border-collapse:collapse}td,th{padding:3px 10px;border-bottom:1px solid #d0d7de;text-align:left}"
        "th{background:#f6f8fa}section{border:1px solid #d0d7de;border-radius:6px;padding:10px 16px;margin:16px 0}"
        "pre{background:#f6f8fa;padding:8px;overflow:auto;font-size:12px}.num{text-align:right}"
        ".muted{color:#57606a}</style></head><body>",
        f"<h1>{T('title', assignment=report['assignment'])}</h1>",
        f"<p>{T('summary', students=report['students'], exercises=len(exercises))}"
        + (f" {T('variants', variants=', '.join(report['assignments']))}" if len(report["assignments"]) > 1 else "")
        + "</p>",
        f"<h2>{T('difficulty')}</h2>", f"<p class='muted'>{T('difficulty_note')}</p>", bars,
        "<table><tr>" + "".join(f"<th>{T(h)}</th>" for h in
                                ("exercise", "points", "mean", "full", "zero", "top_pattern", "flags")) + "</tr>",
    ]
    for e in ranked:
        s = exercises[e]
        top = next(iter(s["patterns"]), "")
        flags = sum(s["flags"].values()) + s["errors"] + s.get("unanswered", 0)
        parts.append(f"<tr><td><a href='#{html.escape(e)}'>{html.escape(e)}</a> "
                     f"<span class='muted'>{html.escape(_title(e, lang))}</span></td>"
                     f"<td class='num'>{T('optional') if s.get('optional') else format(s['points'], 'g')}</td>"
                     f"<td class='num'>{s['mean']:g}</td><td class='num'>{s['full']}</td><td class='num'>{s['zero']}</td>"
                     f"<td>{html.escape(_pattern_name(top, lang)) if top else '—'}"
                     f"{' (' + str(s['patterns'][top]) + ')' if top else ''}</td><td class='num'>{flags}</td></tr>")
    parts.append("</table>")
    if report["flags"] or report.get("unreadable"):
        parts.append(f"<h2>{T('flags_title')}</h2><table><tr><th>{T('flag')}</th><th>{T('count')}</th></tr>")
        for kind, count in report["flags"].items():
            parts.append(f"<tr><td><code>{html.escape(kind)}</code></td><td class='num'>{count}</td></tr>")
        if report.get("unreadable"):
            parts.append(f"<tr><td>{T('unreadable')}</td><td class='num'>{report['unreadable']}</td></tr>")
        parts.append("</table>")
    for e in ranked:
        s = exercises[e]
        mean_of = T("mean_of", mean=f"{s['mean']:g}", points=f"{s['points']:g}")
        if s.get("optional"):
            mean_of = f"{T('optional')}; {mean_of}"
        parts.append(f"<section id='{html.escape(e)}'><h2>{html.escape(e)} {html.escape(_title(e, lang))} "
                     f"<span class='muted'>({mean_of})</span></h2>")
        parts.append(f"<h3>{T('distribution')}</h3>" + _svg_histogram(s["distribution"], s["points"]))
        if s["patterns"]:
            parts.append(f"<h3>{T('patterns')}</h3>")
            total = max(s["patterns"].values())
            parts.append(_svg_bars([(_pattern_name(p, lang), c, "#cf222e") for p, c in s["patterns"].items()],
                                   maximum=total, fmt=lambda v: f"{v:g}"))
            if s["kinds"]:
                parts.append("<p class='muted'>" + html.escape(", ".join(f"{k} ({v})" for k, v in s["kinds"].items()))
                             + "</p>")
        else:
            parts.append(f"<p class='muted'>{T('no_patterns')}</p>")
        if s["errors"] or s["flags"] or s.get("unanswered"):
            items = ([f"{T('unanswered')}: {s['unanswered']}"] if s.get("unanswered") else []) + \
                ([f"{T('raised')}: {s['errors']}"] if s["errors"] else []) + \
                [f"<code>{html.escape(k)}</code>: {v}" for k, v in s["flags"].items()]
            parts.append(f"<p>{T('flags')}: " + ", ".join(items) + "</p>")
        example = s.get("example")
        if example and example.get("code"):
            parts.append(f"<h3>{T('example', pattern=_pattern_name(example['pattern'], lang))}</h3>"
                         f"<pre>{html.escape(example['code'])}</pre>")
        parts.append("</section>")
    parts.append("</body></html>")
    return "\n".join(parts)


def write_report(course_dir: str, assignment: str, out_dir: str, lang: str = "en",
                 progress: bool = True) -> tuple[str, str, dict]:
    """Collect, then write ``out_dir/report.json`` and ``out_dir/report.html``."""
    data = collect(course_dir, assignment, progress=progress)
    report = to_json(data)
    os.makedirs(out_dir, exist_ok=True)
    json_path = os.path.join(out_dir, "report.json")
    html_path = os.path.join(out_dir, "report.html")
    with open(json_path, "w", encoding="utf-8") as fh:
        json.dump(report, fh, ensure_ascii=False, indent=1)
    with open(html_path, "w", encoding="utf-8") as fh:
        fh.write(render_html(report, lang))
    return json_path, html_path, report
