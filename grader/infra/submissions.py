"""Submissions are untrusted files: checked before anything reads them.

A submission folder may hold what a student can make: a symbolic link (``tar``, Info-ZIP
``unzip`` and ``rsync`` recreate them; a student writes one into the exchange) that points at
the instructor's source notebook, the gradebook or ``nbgrader_config.py``; a hard link to such a
file; a FIFO that blocks whoever opens it; a device file. nbgrader follows them: ``collect``
copies the exchange with ``shutil.copytree`` (which copies the *target* of a link), ``zip_collect``
with ``shutil.copy``, ``autograde`` grades the notebook a link points at and copies the other
files into ``autograded/`` (and ``generate_feedback`` into ``feedback/``, which is handed back).

:func:`inspect` lists what in a folder is not a plain file or folder (without following or
opening anything). A submission that holds any is *refused*, with its own status:
``refused_link`` (a symbolic link, or a file with more than one hard link) or
``refused_special`` (FIFO, socket, device, anything else), and a note that names the entries:

- ``nbgrader collect`` (through :class:`SafeExchangeCollect`) and ``nbgrader zip_collect``
  (through :class:`SafeExtractor`) copy nothing of it and record the refusal;
- ``nbgrader autograde`` and ``grader autograde-all`` (the patch :func:`install` puts on
  nbgrader's ``Autograde``) grade nothing of it and copy nothing into ``autograded/``;
- the export (``grader export``) shows the status and the note, with score 0.

Refusals found at collection time are kept in ``<course>/refused/<assignment>/<student>.json``
(written by the grader only; a student never writes there).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
from dataclasses import dataclass

__all__ = ["Refusal", "SafeExchangeCollect", "SafeExtractor", "inspect", "install", "recorded",
           "refusal_of", "record", "student_id_problem"]

REFUSED_DIR = "refused"
MAX_ENTRIES = 10000  # a submission with more entries than this is refused too (it is not a notebook)

# A student id becomes a folder name (submitted/<id>/), a glob (nbgrader's --student, its
# format_path) and a command-line argument: letters, digits and ._@+- only, first a letter or a
# digit, at most 100 characters. No pattern character (* ? [ ]), no separator, no space.
_SAFE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@+-]{0,99}\Z")


def student_id_problem(student_id) -> str | None:
    """Why ``student_id`` cannot be used as a student id, or None where it can."""
    if not isinstance(student_id, str) or not student_id:
        return "an empty student id"
    if _SAFE_ID.match(student_id) is None:
        bad = sorted({ch for ch in student_id if not (ch.isascii() and (ch.isalnum() or ch in "._@+-"))})
        what = (f"characters {' '.join(repr(ch) for ch in bad)}" if bad else
                "a first character that is not a letter or a digit" if len(student_id) <= 100 else
                "more than 100 characters")
        return (f"the student id {student_id[:40]!r} has {what} (ids are letters, digits and ._@+-, "
                "starting with a letter or a digit)")
    return None


@dataclass
class Refusal:
    status: str   # refused_link | refused_special
    note: str

    def as_dict(self) -> dict:
        return {"status": self.status, "note": self.note}


def _kind(st: os.stat_result) -> str | None:
    mode = st.st_mode
    if stat.S_ISLNK(mode):
        return "symbolic link"
    if stat.S_ISREG(mode):
        return "hard link" if st.st_nlink > 1 else None
    if stat.S_ISDIR(mode):
        return None
    if stat.S_ISFIFO(mode):
        return "FIFO"
    if stat.S_ISSOCK(mode):
        return "socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "device file"
    return "special file"


def inspect(path: str) -> Refusal | None:
    """Why the submission at ``path`` (a folder or one file) must be refused, or None. Nothing
    is followed or opened: entries are ``lstat``-ed."""
    bad: list[tuple[str, str]] = []
    try:
        top = os.lstat(path)
    except FileNotFoundError:
        return None
    kind = _kind(top)
    if kind is not None:
        bad.append((os.path.basename(path), kind))
    elif stat.S_ISDIR(top.st_mode):
        count = 0
        stack = [path]
        while stack and len(bad) < 20:
            folder = stack.pop()
            with os.scandir(folder) as entries:
                for entry in entries:
                    count += 1
                    st = entry.stat(follow_symlinks=False)
                    kind = _kind(st)
                    rel = os.path.relpath(entry.path, path)
                    if kind is not None:
                        bad.append((rel, kind))
                    elif stat.S_ISDIR(st.st_mode):
                        stack.append(entry.path)
            if count > MAX_ENTRIES:
                bad.append((".", f"more than {MAX_ENTRIES} entries"))
                break
    if not bad:
        return None
    links = [b for b in bad if b[1] in ("symbolic link", "hard link")]
    status = "refused_link" if links and len(links) == len(bad) else (
        "refused_link" if links else "refused_special")
    names = ", ".join(f"{rel} ({kind})" for rel, kind in sorted(bad)[:10])
    return Refusal(status, f"submission refused, nothing of it was graded or copied: it holds "
                           f"what is not a plain file or folder: {names}")


# -- records of refusals made while collecting ---------------------------------------------------

def _record_path(course_root: str, assignment: str, student: str) -> str:
    return os.path.join(course_root, REFUSED_DIR, os.path.basename(assignment), os.path.basename(student) + ".json")


def record(course_root: str, assignment: str, student: str, refusal: Refusal) -> None:
    path = _record_path(course_root, assignment, student)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(refusal.as_dict(), fh)


def clear(course_root: str, assignment: str, student: str) -> None:
    try:
        os.unlink(_record_path(course_root, assignment, student))
    except FileNotFoundError:
        pass


def recorded(course_root: str, assignment: str, student: str) -> Refusal | None:
    path = _record_path(course_root, assignment, student)
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
        return Refusal(str(data["status"]), str(data["note"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def recorded_all(course_root: str) -> set[tuple[str, str]]:
    """(student, assignment) of every refusal recorded while collecting."""
    found = set()
    base = os.path.join(course_root, REFUSED_DIR)
    if os.path.isdir(base):
        for assignment in os.listdir(base):
            folder = os.path.join(base, assignment)
            if os.path.isdir(folder):
                found |= {(name[:-5], assignment) for name in os.listdir(folder) if name.endswith(".json")}
    return found


def refusal_of(coursedir, assignment: str, student: str) -> Refusal | None:
    """The refusal of a student's submission: found in ``submitted/`` now, or recorded when it
    was collected."""
    problem = student_id_problem(student)
    if problem is not None:  # never a path, a glob or an argument: nothing of it is read
        return Refusal("refused_id", f"submission refused, nothing of it was graded or copied: {problem}")
    path = coursedir.format_path(coursedir.submitted_directory, student, assignment)
    student_dir = os.path.dirname(os.path.normpath(path))
    if os.path.islink(student_dir):  # submitted/<student> itself a link: everything under it is
        return Refusal("refused_link", f"submission refused, nothing of it was graded or copied: "
                                       f"its folder {os.path.basename(student_dir)} is a symbolic link")
    found = inspect(path)
    return found or recorded(coursedir.root, assignment, student)


# -- nbgrader's autograde ----------------------------------------------------------------------

def install() -> None:
    """Make nbgrader's ``Autograde`` refuse a submission before it reads or copies anything of
    it (called by the course's ``nbgrader_config.py``; idempotent)."""
    from nbgrader.converters.autograde import Autograde
    from nbgrader.converters.base import NbGraderException

    if getattr(Autograde.init_assignment, "_grader_checked", False):
        return
    original = Autograde.init_assignment

    def init_assignment(self, assignment_id: str, student_id: str) -> None:
        refusal = refusal_of(self.coursedir, assignment_id, student_id)
        if refusal is not None:
            msg = f"{student_id}/{assignment_id}: {refusal.status}: {refusal.note}"
            self.log.error(msg)
            raise NbGraderException(msg)
        return original(self, assignment_id, student_id)

    init_assignment._grader_checked = True
    Autograde.init_assignment = init_assignment


# -- nbgrader's collect (exchange) ------------------------------------------------------------

def _collect_base():
    from nbgrader.exchange.default.collect import ExchangeCollect

    return ExchangeCollect


class SafeExchangeCollect(_collect_base()):
    """nbgrader's ``collect``, refusing a submission in the exchange that holds links or special
    files (``c.ExchangeFactory.collect`` in the course's ``nbgrader_config.py``)."""

    def do_copy(self, src, dest, log=None):
        refusal = inspect(src)
        parts = os.path.normpath(dest).split(os.sep)
        student, assignment = parts[-2], parts[-1]
        if refusal is not None:
            self.log.error("%s/%s: %s: %s", student, assignment, refusal.status, refusal.note)
            record(self.coursedir.root, assignment, student, refusal)
            return
        clear(self.coursedir.root, assignment, student)
        return super().do_copy(src, dest, log=log)


# -- nbgrader's zip_collect --------------------------------------------------------------------

def _extractor_base():
    from nbgrader.plugins.zipcollect import ExtractorPlugin

    return ExtractorPlugin


class SafeExtractor(_extractor_base()):
    """nbgrader's zip_collect extractor (``c.ZipCollectApp.extractor_plugin``), refusing links and
    special files in the archive folder and in what the archives unpack to, and unpacking each
    archive on its own: one that cannot be unpacked (corrupt, too large, too many entries, an
    archive nested too deep) is named in one line and left for the collector to refuse
    (``failed_archives``), and the class goes on. nbgrader's own extractor unpacks a download and
    the archives inside it in one call, so one student's broken zip stopped the whole class."""

    failed_archives: dict  # path under extracted/ -> why it could not be unpacked

    def _refuse(self, path: str, refusal: Refusal, top: str) -> None:
        """Log a refused entry, and record it for its student where the collector can tell who
        (the course's collector by the name the LMS wrote, ``student_of_path``; another by
        ``collect``)."""
        app = self.parent
        student = None
        try:
            if getattr(self, "_collector", None) is None:
                self._collector = app.collector_plugin(parent=app)
            owner = getattr(self._collector, "student_of_path", None)
            if owner is not None:
                student = owner(os.path.relpath(path, top))
            else:
                info = self._collector.collect(path)
                student = info and info.get("student_id")
        except Exception:  # noqa: BLE001 - a name nobody owns: only logged
            student = None
        self.log.error("%s: %s: %s", path, refusal.status, refusal.note)
        if student and app is not None and student_id_problem(student) is None:
            record(app.coursedir.root, app.coursedir.assignment_id, student, refusal)

    def extract(self, archive_path: str, extracted_path: str) -> None:
        self.failed_archives = {}
        refused = []
        for root, dirs, files in os.walk(archive_path):
            for name in dirs + files:
                full = os.path.join(root, name)
                refusal = inspect(full) if os.path.islink(full) or name in files else None
                if refusal is not None:
                    refused.append((full, refusal))
        for full, refusal in refused:  # moved aside: nbgrader's extractor never reads them
            self._refuse(full, refusal, archive_path)
        import tempfile

        hold = []
        aside_dir = tempfile.mkdtemp(prefix=".refused-", dir=os.path.dirname(os.path.normpath(archive_path)))
        try:
            for i, (full, _) in enumerate(refused):
                aside = os.path.join(aside_dir, str(i))
                os.rename(full, aside)
                hold.append((aside, full))
            self._unpack_tree(archive_path, extracted_path)
        finally:
            for aside, full in hold:
                os.rename(aside, full)
            os.rmdir(aside_dir)
        # what an archive unpacked to (a tar keeps links): removed before collection
        for root, dirs, files in os.walk(extracted_path):
            for name in dirs + files:
                full = os.path.join(root, name)
                refusal = inspect(full) if (os.path.islink(full) or name in files) else None
                if refusal is not None:
                    self._refuse(full, refusal, extracted_path)
                    os.unlink(full)

    # -- unpacking, one archive at a time ----------------------------------------------------
    def _archive_stem(self, name: str) -> str | None:
        stem, ext = os.path.splitext(name)
        if ext not in self.zip_ext:
            return None
        inner, ext2 = os.path.splitext(stem)
        return inner if ext2 == ".tar" else stem

    def _unpack(self, src: str, dest_parent: str) -> str | None:
        """Unpack ``src`` into ``dest_parent/<its stem>/``; why it could not be, or None."""
        from nbgrader.utils import unzip

        problem = archive_problem(src)
        if problem is None:
            try:
                unzip(src, dest_parent, zip_ext=self.zip_ext, create_own_folder=True, tree=False)
                return None
            except Exception as exc:  # noqa: BLE001 - a student's file: any failure is theirs
                problem = f"{type(exc).__name__}: {str(exc)[:120]}"
        shutil.rmtree(os.path.join(dest_parent, self._archive_stem(os.path.basename(src)) or ""),
                      ignore_errors=True)
        return problem

    def _unpack_tree(self, archive_path: str, extracted_path: str) -> None:
        if not os.listdir(archive_path):
            self.log.warning("No files found in directory: %s", archive_path)
            return
        for root, _, files in os.walk(archive_path):
            extract_to = os.path.normpath(os.path.join(extracted_path, os.path.relpath(root, archive_path)))
            os.makedirs(extract_to, exist_ok=True)
            for name in sorted(files):
                src = os.path.join(root, name)
                if self._archive_stem(name) is None:
                    shutil.copy(src, os.path.join(extract_to, name))
                    continue
                self.log.info("Extracting from: %s", src)
                why = self._unpack(src, extract_to)
                if why is not None:  # kept as a file: the collector names it and its owner
                    kept = os.path.join(extract_to, name)
                    shutil.copy(src, kept)
                    self.failed_archives[kept] = why
                    self.log.info("%s: cannot be unpacked: %s", src, why)  # the collector says whose
        # archives inside what was unpacked (a student's zip inside the LMS's zip), each alone
        done: set[str] = set()
        for _ in range(MAX_NESTING):
            found = []
            for root, _, files in os.walk(extracted_path):
                for name in files:
                    full = os.path.join(root, name)
                    if (self._archive_stem(name) is not None and full not in done
                            and full not in self.failed_archives and not os.path.islink(full)):
                        found.append(full)
            if not found:
                return
            for full in sorted(found):
                done.add(full)
                if len(done) > MAX_ARCHIVES:
                    why = f"more than {MAX_ARCHIVES} archives in the download"
                else:
                    why = self._unpack(full, os.path.dirname(full))
                if why is not None:
                    self.failed_archives[full] = why
                    self.log.info("%s: cannot be unpacked: %s", full, why)
        for root, _, files in os.walk(extracted_path):  # still more: nested too deep
            for name in files:
                full = os.path.join(root, name)
                if (self._archive_stem(name) is not None and full not in done
                        and full not in self.failed_archives):
                    self.failed_archives[full] = f"archives nested more than {MAX_NESTING} deep"


MAX_NESTING = 4                 # an LMS's zip, a student's zip in it, and two more levels
MAX_ARCHIVES = 5000             # archives in one download
MAX_UNPACKED = 512 * 1024 ** 2  # bytes one archive may unpack to
MAX_MEMBERS = 10000             # entries of one archive


def archive_problem(path: str) -> str | None:
    """Why the zip or tar at ``path`` must not be unpacked (too large, too many entries,
    unreadable), or None; read from its directory, nothing is unpacked."""
    import tarfile
    import zipfile

    try:
        if zipfile.is_zipfile(path):
            with zipfile.ZipFile(path) as zf:
                members = zf.infolist()
                size = sum(m.file_size for m in members)
        elif tarfile.is_tarfile(path):
            with tarfile.open(path) as tf:
                members = []
                size = 0
                for m in tf:
                    members.append(m)
                    size += m.size
                    if len(members) > MAX_MEMBERS or size > MAX_UNPACKED:
                        break
        else:
            return "not a zip or tar archive"
    except Exception as exc:  # noqa: BLE001 - a corrupt archive
        return f"unreadable archive ({type(exc).__name__})"
    if len(members) > MAX_MEMBERS:
        return f"more than {MAX_MEMBERS} entries"
    if size > MAX_UNPACKED:
        return f"it would unpack to more than {MAX_UNPACKED // 1024 ** 2} MB"
    return None
