"""Feedback that follows the gradebook: ``nbgrader generate_feedback`` regenerates what changed.

nbgrader writes a feedback page once: run again, it keeps every existing page ("Skipping existing
assignment") unless ``--force`` (every page again) or the submission's ``timestamp.txt`` is newer.
A score or comment changed by hand in formgrader changes neither, so the page the student gets
kept the autograder's score. Here each page carries the digest of what it was made from (a
``<meta name="minitape-feedback-inputs">`` in its head): the autograded notebook, every grade
(auto, manual, extra credit) and comment (auto, manual) of the submission in the gradebook, its
late penalty, and the feedback template. :func:`install` (called by the course's
``nbgrader_config.py``) makes ``generate_feedback`` regenerate a student's pages whose digest
differs ("Updating feedback ...: its grades, comments or autograded notebook changed"), and skip
the others, so one command, step 8's, brings every page up to date after grading by hand.
"""

from __future__ import annotations

import hashlib
import json
import os
import re

__all__ = ["INPUTS_META", "inputs_digest", "install", "page_digest"]

INPUTS_META = "minitape-feedback-inputs"
# either attribute order: the page is re-serialized after export (its math made MathML)
_META = re.compile(rf'<meta (?:name="{INPUTS_META}" content="([0-9a-f]{{16,64}})"|'
                   rf'content="([0-9a-f]{{16,64}})" name="{INPUTS_META}")')
_TEMPLATE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "templates",
                         "minitape_feedback", "index.html.j2")


def _file_digest(path: str) -> str:
    h = hashlib.sha256()
    try:
        with open(path, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                h.update(block)
    except OSError:
        return "missing"
    return h.hexdigest()


def inputs_digest(gradebook, assignment: str, student: str, notebook: str, autograded: str) -> str:
    """The digest of what the feedback page of ``notebook`` is made from (module doc)."""
    from nbgrader.api import MissingEntry

    h = hashlib.sha256()
    h.update(_file_digest(autograded).encode())
    h.update(_file_digest(_TEMPLATE).encode())
    try:
        nb = gradebook.find_submission_notebook(notebook, assignment, student)
    except MissingEntry:
        h.update(b"not in the gradebook")
        return h.hexdigest()[:32]
    rows = [["grade", g.name, g.auto_score, g.manual_score, g.extra_credit]
            for g in sorted(nb.grades, key=lambda g: g.name)]
    rows += [["comment", c.name, c.auto_comment, c.manual_comment]
             for c in sorted(nb.comments, key=lambda c: c.name)]
    rows.append(["late_penalty", nb.late_submission_penalty])
    h.update(json.dumps(rows, default=str).encode())
    return h.hexdigest()[:32]


def page_digest(path: str) -> str | None:
    """The inputs digest an existing feedback page was made from (None: none, or no page)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            head = fh.read(4096)
    except OSError:
        return None
    m = _META.search(head)
    return (m.group(1) or m.group(2)) if m else None


def _stale(converter, assignment_id: str, student_id: str) -> list[str]:
    """The feedback pages of this submission whose inputs changed since they were written."""
    from nbgrader.api import Gradebook

    source = converter._format_source(assignment_id, student_id)
    dest = converter._format_dest(assignment_id, student_id)
    ext = converter.exporter.file_extension
    stale = []
    with Gradebook(converter.coursedir.db_url, converter.coursedir.course_id) as gb:
        for notebook_path in converter.notebooks:
            notebook = os.path.splitext(os.path.basename(notebook_path))[0]
            page = os.path.join(dest, notebook + ext)
            if not os.path.exists(page):
                continue  # nbgrader writes a missing page itself
            autograded = os.path.join(source, notebook + ".ipynb")
            if page_digest(page) != inputs_digest(gb, assignment_id, student_id, notebook, autograded):
                stale.append(page)
    return stale


def install() -> None:
    """Make nbgrader's ``GenerateFeedback`` regenerate pages whose inputs changed (idempotent)."""
    from nbgrader.converters.generate_feedback import GenerateFeedback
    from nbgrader.utils import rmtree

    if getattr(GenerateFeedback.init_destination, "_grader_follows_gradebook", False):
        return
    original = GenerateFeedback.init_destination

    def init_destination(self, assignment_id: str, student_id: str) -> bool:
        if not self.force:
            try:
                stale = _stale(self, assignment_id, student_id)
            except Exception as exc:  # noqa: BLE001 - never worse than nbgrader's own rule
                self.log.warning("could not tell whether the feedback of %s/%s is up to date (%s)",
                                 student_id, assignment_id, exc)
                stale = []
            if stale:
                dest = os.path.normpath(self._format_dest(assignment_id, student_id))
                self.log.warning("Updating feedback %s: its grades, comments or autograded "
                                 "notebook changed since it was generated", dest)
                rmtree(dest)
        return original(self, assignment_id, student_id)

    init_destination._grader_follows_gradebook = True
    GenerateFeedback.init_destination = init_destination
