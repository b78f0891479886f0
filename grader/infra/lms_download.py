"""Whose submission is it? An LMS download read by what the LMS wrote, never by what a student named.

``nbgrader zip_collect`` hands every file it unpacked from ``downloaded/<assignment>/archive/`` to
a *collector* that says which student and which notebook the file is. nbgrader's own
``FileNameCollectorPlugin`` reads both from one regular expression over the file's path; with the
pattern this course used to ship (``<student_id>_<notebook>.ipynb`` at any depth) the id came from
the innermost file name, which is the student's to choose: a zip holding ``bob_01-gradients.ipynb``
graded Bob, two such names in one zip stopped the whole class ("Duplicate submission file"), and
the id ``*`` reached nbgrader's ``--student`` as a pattern. :class:`LmsCollector`
(``c.ZipCollectApp.collector_plugin`` in the course's ``nbgrader_config.py``) replaces it.

**Who.** The owner of a file is the *outermost* name on its path (relative to ``extracted/``, which
mirrors ``archive/`` with each archive unpacked into a folder named after it) that has the shape
of an LMS's own naming; everything below that name is the student's upload, read only to find
the notebook, never the id:

- Canvas (*Download Submissions*, one ``submissions.zip``): ``<lastnamefirstname>_[late_]<user
  id>_<submission id>_<the student's file name>``; the user id is looked up in the roster's
  ``lms_user_id`` column (nbgrader's own student field, imported by ``nbgrader db student
  import``), else among the roster's ids. Canvas never lets ``_<digits>_`` into the name part,
  so the first ``_<digits>_<digits>_`` is the ids.
- Moodle (*Download all submissions*, folders per participant or flat files):
  ``<Full Name>_<participant id>_assignsubmission_file_[<the student's file name>]``; the
  participant id is per assignment, so it is looked up in the assignment's *grading worksheet*
  (Moodle's ``Grades-*.csv``, downloaded from the same page and put beside the zip): its row's
  first cell ends in the participant id, and a cell of that row equal to a roster student's
  e-mail, id or ``lms_user_id`` names the student.
- Files an instructor named or placed: a top-level folder named exactly a roster id, or a name
  ``<roster id>_<anything>`` (the longest roster id that fits).

A name with no such shape, an LMS id that no roster student has, or a roster id that cannot be a
folder name (:func:`grader.infra.submissions.student_id_problem`) is refused with one line that
names the file and says why; nothing of it is collected, no student is created, the class goes on.

**Which notebook, which version.** Inside an owner, a ``.ipynb`` file is the assignment's notebook
``N.ipynb`` when its name is ``N.ipynb`` or a resubmission of it (``N-1.ipynb``, ``N (2).ipynb``:
Canvas and browsers number a file uploaded again); where an assignment has one notebook and a
student's upload holds one ``.ipynb`` of another name, that is it (said in a line). Hidden files,
``__MACOSX/`` and ``.ipynb_checkpoints/`` are not candidates. Of several versions the newest wins:
the highest Canvas submission id, then the highest resubmission number. A student's submission
only is refused, with a line naming the files, and recorded like the other refusals of
:mod:`grader.infra.submissions` (so the export and ``autograde-all`` show it) where versions tie
(two ``01-gradients.ipynb`` in one zip: ``refused_ambiguous``), where the upload holds no notebook
of the assignment (``refused_no_notebook``), or where it could not be unpacked
(``refused_unreadable``: the extractor, :class:`grader.infra.submissions.SafeExtractor`, unpacks
each archive on its own and keeps the ones it cannot as files for this collector to name).
"""

from __future__ import annotations

import csv
import logging
import os
import re
from dataclasses import dataclass, field

from nbgrader.plugins.zipcollect import FileNameCollectorPlugin

from grader.infra.submissions import Refusal, clear, record, student_id_problem

__all__ = ["LmsCollector", "Owner", "Plan", "Roster", "notebook_for", "parse_owner", "plan",
           "student_of", "student_of_path"]

CANVAS = re.compile(r"(?P<name>.*?)_(?:late_)?(?P<user>\d+)_(?P<submission>\d+)_(?P<upload>.+)\Z",
                    re.IGNORECASE | re.DOTALL)
MOODLE = re.compile(r"(?P<name>[^_]*)_(?P<participant>\d+)_assignsubmission_(?P<plugin>[a-z]+)_"
                    r"(?P<upload>.*)\Z", re.DOTALL)
RESUBMISSION = re.compile(r"(?P<base>.*?)(?:-(?P<dash>\d{1,3})| \((?P<paren>\d{1,3})\))\Z", re.DOTALL)
NOT_UPLOADS = ("__MACOSX", ".ipynb_checkpoints")
WORKSHEET_ID = re.compile(r"(\d+)\s*\Z")


# ----------------------------------------------------------------------------------------------
# The roster
# ----------------------------------------------------------------------------------------------
@dataclass
class Roster:
    """The students of the gradebook (``nbgrader db student import``), and how LMS ids map to them."""

    ids: set = field(default_factory=set)
    by_lms: dict = field(default_factory=dict)       # lms_user_id -> student id
    by_email: dict = field(default_factory=dict)     # e-mail (lower case) -> student id
    participants: dict = field(default_factory=dict)  # Moodle participant id -> student id
    worksheets: list = field(default_factory=list)    # the Moodle grading worksheets read

    @classmethod
    def from_students(cls, students) -> "Roster":
        """``students``: objects with nbgrader's Student fields (id, email, lms_user_id)."""
        roster = cls()
        for s in students:
            roster.ids.add(s.id)
            if getattr(s, "lms_user_id", None):
                roster.by_lms[str(s.lms_user_id).strip()] = s.id
            if getattr(s, "email", None):
                roster.by_email[str(s.email).strip().lower()] = s.id
        return roster

    @classmethod
    def from_gradebook(cls, db_url: str, course_id: str = "") -> "Roster":
        """The gradebook's students; an empty roster where there is no gradebook yet."""
        if db_url.startswith("sqlite:///") and not os.path.exists(db_url[len("sqlite:///"):]):
            return cls()
        from nbgrader.api import Gradebook

        from grader.infra import nbgrader_compat

        nbgrader_compat.install()
        with Gradebook(db_url, course_id) as gb:
            return cls.from_students(gb.students)

    def read_worksheet(self, path: str) -> bool:
        """Add the participants of a Moodle grading worksheet; False if ``path`` is not one."""
        try:
            with open(path, newline="", encoding="utf-8-sig") as fh:
                rows = list(csv.reader(fh))
        except (OSError, UnicodeDecodeError, csv.Error):
            return False
        if len(rows) < 2 or not rows[0]:
            return False
        found = {}
        for row in rows[1:]:
            if not row:
                continue
            m = WORKSHEET_ID.search(row[0])
            if m is None:
                return False  # not a worksheet: its first column is Moodle's "Participant N"
            who = {self._student_of_cell(cell) for cell in row[1:]} - {None}
            found[m.group(1)] = who.pop() if len(who) == 1 else None  # None: no one, or ambiguous
        for participant, student in found.items():
            if participant in self.participants and self.participants[participant] != student:
                student = None
            self.participants[participant] = student
        self.worksheets.append(path)
        return True

    def _student_of_cell(self, cell: str) -> str | None:
        cell = cell.strip()
        if not cell:
            return None
        return self.by_email.get(cell.lower()) or self.by_lms.get(cell) or (cell if cell in self.ids else None)


# ----------------------------------------------------------------------------------------------
# Names the LMS wrote
# ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Owner:
    """What an LMS wrote about one entry of its download."""

    shape: str    # canvas | moodle | roster
    lms_id: str   # Canvas user id, Moodle participant id, or the roster id
    order: int    # Canvas submission id (newer is higher); 0 elsewhere
    entry: str    # the entry, relative to extracted/ ("submissions/smithbob_12_345_x.ipynb")
    upload: str   # the student's own file name, for a file entry; "" for a folder


def parse_owner(name: str, is_file: bool, entry: str, roster: Roster) -> Owner | None:
    """The owner ``name`` (one path component) declares, or None where it has no LMS shape."""
    m = MOODLE.match(name)
    if m:
        return Owner("moodle", m.group("participant"), 0, entry, m.group("upload") if is_file else "")
    m = CANVAS.match(name)
    if m:
        return Owner("canvas", m.group("user"), int(m.group("submission")), entry,
                     m.group("upload") if is_file else "")
    stem = name
    if not is_file:
        if name in roster.ids:
            return Owner("roster", name, 0, entry, "")
    elif name.lower().endswith(".ipynb"):
        stem = name[:-len(".ipynb")]
        if stem in roster.ids:  # <id>.ipynb
            return Owner("roster", stem, 0, entry, name)
    best = max((i for i in roster.ids if name.startswith(i + "_")), key=len, default=None)
    if best is not None:
        return Owner("roster", best, 0, entry, name[len(best) + 1:] if is_file else "")
    return None


def student_of(owner: Owner, roster: Roster) -> tuple[str | None, str]:
    """(student id, "") for an owner, or (None, why not) in one clause."""
    if owner.shape == "canvas":
        student = roster.by_lms.get(owner.lms_id) or (owner.lms_id if owner.lms_id in roster.ids else None)
        if student is None:
            return None, (f"Canvas user {owner.lms_id} is not in the roster (no student has "
                          f"lms_user_id {owner.lms_id}; add it to students.csv and run "
                          "`nbgrader db student import students.csv`)")
    elif owner.shape == "moodle":
        if owner.lms_id not in roster.participants:
            where = (" (read: " + ", ".join(os.path.basename(w) for w in roster.worksheets) + ")"
                     if roster.worksheets else "")
            return None, (f"Moodle participant {owner.lms_id} is in no grading worksheet{where}: "
                          "download the assignment's grading worksheet (Grades-*.csv) and put it "
                          "beside the zip in archive/")
        student = roster.participants[owner.lms_id]
        if student is None:
            return None, (f"Moodle participant {owner.lms_id}: the grading worksheet's row matches "
                          "no roster student, or several (by e-mail, id or lms_user_id)")
    else:
        student = owner.lms_id
    problem = student_id_problem(student)
    if problem is not None:
        return None, f"{problem}; fix the roster"
    return student, ""


def student_of_path(relpath: str, roster: Roster) -> str | None:
    """The student owning the entry at ``relpath`` (under archive/ or extracted/): the owner of
    its outermost name with an LMS shape, if that maps to a roster student."""
    parts = [p for p in relpath.replace(os.sep, "/").split("/") if p not in ("", ".")]
    for i, name in enumerate(parts):
        owner = parse_owner(name, i == len(parts) - 1, "/".join(parts[:i + 1]), roster)
        if owner is not None:
            return student_of(owner, roster)[0]
    return None


def notebook_for(filename: str, released: list[str]) -> tuple[str, int] | None:
    """(released notebook's name without ``.ipynb``, resubmission number) for an uploaded file
    name, or None: ``01-gradients.ipynb`` -> ("01-gradients", 0), ``01-gradients-2.ipynb`` ->
    ("01-gradients", 2), ``01-gradients (1).ipynb`` -> ("01-gradients", 1)."""
    if not filename.lower().endswith(".ipynb"):
        return None
    stem = filename[:-len(".ipynb")]
    names = {os.path.splitext(r)[0] for r in released}
    if stem in names:
        return stem, 0
    m = RESUBMISSION.match(stem)
    if m and m.group("base") in names:
        return m.group("base"), int(m.group("dash") or m.group("paren"))
    return None


# ----------------------------------------------------------------------------------------------
# The plan: every file of extracted/ -> a student's notebook, a refusal, or nothing
# ----------------------------------------------------------------------------------------------
@dataclass
class Plan:
    collect: dict = field(default_factory=dict)    # file path -> {"student_id", "file_id"}
    refused: list = field(default_factory=list)    # one line per refused entry
    notes: list = field(default_factory=list)      # one line per choice made (newest, renamed)
    students: dict = field(default_factory=dict)   # student -> Refusal | None (collected)
    explained: set = field(default_factory=set)    # files a line above accounts for


def _hidden(name: str) -> bool:
    return name.startswith(".") or name in NOT_UPLOADS


def plan(extracted: str, released: list[str], roster: Roster,
         failed_archives: dict | None = None) -> Plan:
    """Decide, for every file under ``extracted``, whose notebook it is (see the module doc).
    ``failed_archives``: {path under ``extracted`` where an archive could not be unpacked: why}."""
    out = Plan()
    failed_archives = failed_archives or {}
    candidates: dict[str, list] = {}  # student -> [(owner, path, filename)]
    owners_of: dict[str, list] = {}   # student -> [owner]
    unreadable: dict[str, list] = {}  # student -> archives of the upload that could not be unpacked

    def rel(path: str) -> str:
        return os.path.relpath(path, extracted)

    def refuse(path: str, why: str) -> None:
        out.refused.append(f"refused: {rel(path)}: {why}; nothing of it was collected")
        for root, _, files in os.walk(path) if os.path.isdir(path) else [("", [], [path])]:
            out.explained.update(os.path.join(root, f) for f in files)

    def visit(path: str, owner: Owner | None, student: str | None) -> None:
        name = os.path.basename(path)
        is_file = not os.path.isdir(path) or os.path.islink(path)
        if owner is None:
            found = parse_owner(name, is_file, rel(path), roster)
            if found is not None:
                student, why = student_of(found, roster)
                if student is None:
                    if is_file and not name.lower().endswith(".ipynb") and _archive_twin(path):
                        return  # an archive beside its unpacked folder: the folder speaks for it
                    refuse(path, why)
                    return
                owner = found
                owners_of.setdefault(student, []).append(found)
        if is_file:
            if owner is None:
                if path in failed_archives:
                    refuse(path, f"it could not be unpacked ({failed_archives[path]})")
                elif name.lower().endswith(".ipynb"):
                    refuse(path, "its name has no shape of an LMS download (Canvas: "
                                 "name_<user id>_<submission id>_file; Moodle: Full "
                                 "Name_<participant id>_assignsubmission_file_...) and starts "
                                 "with no roster id")
                return
            if path in failed_archives:
                unreadable.setdefault(student, []).append(f"{rel(path)} ({failed_archives[path]})")
                out.explained.add(path)
                return
            out.explained.add(path)  # inside an upload: collected, or accounted for below
            upload = owner.upload if rel(path) == owner.entry else name
            if name.lower().endswith(".ipynb"):
                candidates.setdefault(student, []).append((owner, path, upload))
            return
        try:
            names = sorted(os.listdir(path))
        except OSError:
            return
        for child in names:
            if _hidden(child):
                continue
            visit(os.path.join(path, child), owner, student)

    if os.path.isdir(extracted):
        for child in sorted(os.listdir(extracted)):
            if not _hidden(child):
                visit(os.path.join(extracted, child), None, None)

    single = len(released) == 1
    for student in sorted(set(candidates) | set(owners_of)):
        files = candidates.get(student, [])
        chosen: dict[str, list] = {}  # notebook -> [(key, path)]
        for owner, path, upload in files:
            hit = notebook_for(upload, released)
            if hit is not None:
                chosen.setdefault(hit[0], []).append(((owner.order, hit[1]), path))
        if not chosen and single and len(files) == 1:
            owner, path, upload = files[0]
            nb = os.path.splitext(released[0])[0]
            chosen[nb] = [((owner.order, 0), path)]
            out.notes.append(f"{student}: took {rel(path)} as {released[0]} (the only notebook "
                             "of the upload)")
        broken = unreadable.get(student, [])
        if not chosen:
            names = ", ".join(rel(p) for _, p, _ in files[:5]) or "no .ipynb file"
            why = (f"{student}: the upload holds no notebook of this assignment "
                   f"({', '.join(released) or 'none released'}): {names}"
                   + (f"; could not be unpacked: {', '.join(broken)}" if broken else ""))
            out.refused.append(f"refused: {why}")
            out.explained.update(p for _, p, _ in files)
            out.students[student] = Refusal(
                "refused_unreadable" if broken else "refused_no_notebook",
                f"submission refused, nothing of it was collected: {why}")
            continue
        for item in broken:
            out.notes.append(f"{student}: could not be unpacked, not read: {item}")
        ambiguous = []
        for nb, versions in sorted(chosen.items()):
            versions.sort(key=lambda v: v[0])
            newest_key, newest = versions[-1]
            ties = [p for k, p in versions if k == newest_key]
            out.explained.update(p for _, p in versions)
            if len(ties) > 1:
                ambiguous.append(f"{len(ties)} versions of {nb}.ipynb that nothing orders: "
                                 + ", ".join(rel(p) for p in ties))
                continue
            out.collect[newest] = {"student_id": student, "file_id": nb}
            if len(versions) > 1:
                out.notes.append(f"{student}: {nb}.ipynb from {rel(newest)}, the newest of "
                                 f"{len(versions)} versions")
        if ambiguous:
            for path in [p for p, info in out.collect.items() if info["student_id"] == student]:
                del out.collect[path]
            why = (f"{student}: " + "; ".join(ambiguous) +
                   f" (put the right one in submitted/{student}/<assignment>/ yourself)")
            out.refused.append(f"refused: {why}")
            out.students[student] = Refusal(
                "refused_ambiguous", f"submission refused, nothing of it was collected: {why}")
        else:
            out.students[student] = None
    return out


def _archive_twin(path: str) -> bool:
    """Whether ``path`` is an archive that was unpacked into the folder beside it."""
    stem = os.path.basename(path)
    for ext in (".tar.gz", ".tgz", ".zip", ".gz"):
        if stem.lower().endswith(ext):
            return os.path.isdir(os.path.join(os.path.dirname(path), stem[:-len(ext)]))
    return False


# ----------------------------------------------------------------------------------------------
# nbgrader's extension point
# ----------------------------------------------------------------------------------------------
class _Explained(logging.Filter):
    """Drops nbgrader's "Skipped submission with no match information provided: <file>" for files
    a refusal line or a choice already accounts for."""

    def __init__(self, explained: set):
        super().__init__()
        self.explained = explained

    def filter(self, record: logging.LogRecord) -> bool:
        msg = record.getMessage()
        head = "Skipped submission with no match information provided: "
        return not (msg.startswith(head) and msg[len(head):] in self.explained)


class LmsCollector(FileNameCollectorPlugin):
    """``c.ZipCollectApp.collector_plugin``: the student of each file is the owner the LMS wrote
    (module doc); files a refusal accounts for return None (nbgrader skips them)."""

    _plan: Plan | None = None

    def _app(self):
        return self.parent

    def roster(self) -> Roster:
        app = self._app()
        roster = Roster.from_gradebook(app.coursedir.db_url, app.coursedir.course_id)
        for folder in (app._format_collect_path(app.archive_directory),
                       os.path.dirname(app._format_collect_path(app.archive_directory))):
            try:
                names = sorted(os.listdir(folder))
            except OSError:
                continue
            for name in names:
                full = os.path.join(folder, name)
                if name.lower().endswith(".csv") and os.path.isfile(full) and not os.path.islink(full):
                    roster.read_worksheet(full)
        return roster

    def make_plan(self) -> Plan:
        from nbgrader.utils import find_all_notebooks

        app = self._app()
        coursedir = app.coursedir
        released = find_all_notebooks(coursedir.format_path(coursedir.release_directory, ".",
                                                            coursedir.assignment_id))
        roster = self.roster()
        extracted = app._format_collect_path(app.extracted_directory)
        failed = getattr(app.extractor_plugin_inst, "failed_archives", {}) or {}
        if not released:  # nothing to match a notebook to: no student's fault, nothing recorded
            self.log.error("nothing of %s is released: run `nbgrader generate_assignment %s` first; "
                           "nothing was collected", coursedir.assignment_id, coursedir.assignment_id)
            empty = Plan()
            empty.explained = {os.path.join(root, f) for root, _, files in os.walk(extracted) for f in files}
            self.log.addFilter(_Explained(empty.explained))
            return empty
        result = plan(extracted, released, roster, failed)
        if not roster.ids:
            result.refused.insert(0, "the roster is empty: import it first (`nbgrader db student "
                                     "import students.csv`, docs/instructors.md)")
        self.log.addFilter(_Explained(result.explained))
        for line in result.refused:
            self.log.error(line)
        for line in result.notes:
            self.log.warning(line)
        for student, refusal in result.students.items():
            if refusal is None:
                clear(coursedir.root, coursedir.assignment_id, student)
            else:
                record(coursedir.root, coursedir.assignment_id, student, refusal)
        students = sorted({i["student_id"] for i in result.collect.values()})
        self.log.info("%d notebook(s) of %d student(s) to collect; %d refusal(s)",
                      len(result.collect), len(students), len(result.refused))
        return result

    def student_of_path(self, relpath: str) -> str | None:
        """The student owning an entry of archive/ or extracted/ (for the extractor's refusals)."""
        if getattr(self, "_roster", None) is None:
            self._roster = self.roster()
        return student_of_path(relpath, self._roster)

    def collect(self, submitted_file: str):
        if self._plan is None:
            self._plan = self.make_plan()
        info = self._plan.collect.get(submitted_file)
        return dict(info) if info else None
