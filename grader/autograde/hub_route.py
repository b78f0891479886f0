"""The JupyterHub route: nbgrader's exchange, with one line for each problem a hub admin can fix.

On a JupyterHub (docs/jupyterhub.md) assignments travel through nbgrader's *exchange*, a folder
every user of the hub reads and writes (``c.Exchange.root``, ``/srv/nbgrader/exchange`` in the
hub's ``/etc/jupyter/nbgrader_config.py``): the instructor's ``release_assignment`` writes
``<exchange>/<course id>/outbound/``, students fetch from there and submit into ``inbound/``,
``collect`` copies the submissions into the course folder, ``release_feedback`` writes
``feedback/``. nbgrader's own errors for a bad setup are a page of log lines, or nothing at all:

* a missing exchange is *created* by ``release_assignment`` with the instructor's rights (owned by
  them, so the next instructor fails) or fails with "Could not create ..., permission denied";
* an exchange without the permissions nbgrader documents (``chmod ugo+rw``: mode 0777) is
  re-``chmod``-ed by the instructor's ``release_assignment`` where it can, and students meet
  "Unwritable directory, please contact your instructor";
* a course id that differs between the course folder and the hub's configuration leaves the
  students' *Assignments* tab empty and ``collect`` with "Course not found: .../inbound";
* a submission from a hub user who is not in the course's roster is collected, and autograding
  silently creates that student;
* a submission written into ``inbound/`` by one student under another's name (anyone may write
  there) is collected as the other's: nbgrader's ``collect`` only warns ("cheating attempt?"), and
  it may even replace the other's real submission, the forged one being newer.

The exchange classes here (``c.ExchangeFactory.release_assignment`` / ``collect`` /
``release_feedback`` in the course's ``nbgrader_config.py``) are nbgrader's, except that each of
these problems stops the command with one line that says what is wrong and the command that fixes
it; a submission from someone outside the roster, or written by another user than the one it
names, is refused with one line and the others are collected. ``python -m grader check-hub`` (:func:`check_hub`) makes every check at once, before
anything is released. The LMS route (``zip_collect``, no exchange) is untouched:
``grader.autograde.lms_route`` keeps its listings quiet while no exchange folder exists.
"""

from __future__ import annotations

import glob
import os
import stat

from nbgrader.exchange.default.collect import groupby
from traitlets import Unicode
from nbgrader.exchange.default.release_assignment import (
    ExchangeReleaseAssignment as _NbgraderRelease)
from nbgrader.exchange.default.release_feedback import (
    ExchangeReleaseFeedback as _NbgraderReleaseFeedback)

from grader.infra.submissions import SafeExchangeCollect, student_id_problem

__all__ = ["EXCHANGE_MODE", "ReleaseAssignment", "ReleaseFeedback", "Collect", "check_hub",
           "exchange_problem", "course_problem", "roster_problem"]

# nbgrader's documented permissions: "the exchange directory must be readable and writable by
# everyone" (mkdir -p /srv/nbgrader/exchange; chmod ugo+rw /srv/nbgrader/exchange)
EXCHANGE_MODE = 0o777
DOCS = "docs/jupyterhub.md"


def fix_exchange(root: str) -> str:
    """The commands that make ``root`` the exchange nbgrader documents (run as root)."""
    return f"sudo mkdir -p {root} && sudo chmod 0777 {root}"


def exchange_problem(root: str) -> str | None:
    """One line saying why ``root`` cannot serve as nbgrader's exchange on a hub, or None."""
    if not os.path.lexists(root):
        return (f"nbgrader's exchange {root} does not exist (c.Exchange.root; the JupyterHub route "
                f"needs it, the LMS route uses zip_collect instead): create it: {fix_exchange(root)}")
    if os.path.islink(root) or not os.path.isdir(root):
        return f"nbgrader's exchange {root} is not a folder: replace it: {fix_exchange(root)}"
    mode = stat.S_IMODE(os.stat(root).st_mode)
    if mode & EXCHANGE_MODE != EXCHANGE_MODE:
        return (f"nbgrader's exchange {root} has mode {mode:04o}, so students cannot fetch and submit "
                f"through it (everyone must read and write it, as nbgrader documents): sudo chmod 0777 {root}")
    if not os.access(root, os.W_OK | os.X_OK):
        return (f"nbgrader's exchange {root} is not writable here (mode {mode:04o}, a read-only file "
                f"system?): make it writable: {fix_exchange(root)}")
    return None


def courses_in(root: str) -> list[str]:
    """The course ids that have a folder in the exchange ``root``."""
    try:
        return sorted(d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d)))
    except OSError:
        return []


def course_problem(root: str, course_id: str, config_file: str = "nbgrader_config.py") -> str | None:
    """One line when the exchange ``root`` has other courses but nothing of ``course_id``."""
    if not course_id:
        return (f"no course id: set c.CourseDirectory.course_id in {config_file} (the course folder's "
                "and the hub's /etc/jupyter/nbgrader_config.py name the same course)")
    others = [c for c in courses_in(root) if c != course_id]
    if others and not os.path.isdir(os.path.join(root, course_id)):
        return (f"course id mismatch: the exchange {root} holds course {', '.join(map(repr, others))}, not "
                f"{course_id!r} (c.CourseDirectory.course_id in {config_file}): set the same id in the "
                "course folder's nbgrader_config.py and in the hub's /etc/jupyter/nbgrader_config.py")
    return None


def roster(db_url: str, course_id: str = "") -> set[str]:
    """The student ids of the course's gradebook (none where there is no gradebook yet)."""
    from grader.infra.lms_download import Roster

    return Roster.from_gradebook(db_url, course_id).ids


def owner_problem(path: str, student: str, assignment: str, prefix: str = "") -> str | None:
    """One line when the submission folder ``path``, named for ``student``, was written by another
    system user than ``prefix + student``: a student can write into ``inbound/`` under any name
    (nbgrader only warns)."""
    import pwd

    uid = os.lstat(path).st_uid
    try:
        owner = pwd.getpwuid(uid).pw_name
    except KeyError:
        owner = f"uid {uid}"
    if owner == prefix + student:
        return None
    return (f"{assignment}: a submission in the exchange is named for {student!r} but was written by "
            f"{owner!r}: not collected ({os.path.basename(path)!r}; CollectApp.check_owner)")


def roster_problem(student: str, assignment: str, ids: set[str] | None) -> str | None:
    """One line when ``student``, who submitted ``assignment``, is not in the roster ``ids``."""
    if ids and student in ids:
        return None
    if not ids:
        return (f"{assignment}: {student!r} submitted, and the course has no roster yet: import it first "
                "(nbgrader db student import students.csv), then collect again")
    return (f"{assignment}: {student!r} submitted but is not in the course's roster: add them (nbgrader db "
            f"student add {student} --first-name ... --last-name ...) and collect again, or leave the "
            "submission uncollected")


class _Checked:
    """The exchange's own check (nbgrader creates or re-chmods the exchange) replaced by ours."""

    def ensure_root(self):
        if self.coursedir.groupshared:  # shared-group setups manage their own permissions
            return super().ensure_root()
        problem = exchange_problem(self.root)
        if problem:
            self.fail(problem)


class ReleaseAssignment(_Checked, _NbgraderRelease):
    """nbgrader's ``release_assignment``; a missing or badly set exchange is one line."""


class ReleaseFeedback(_Checked, _NbgraderReleaseFeedback):
    """nbgrader's ``release_feedback``; a missing or badly set exchange is one line."""

    def init_dest(self):
        problem = course_problem(self.root, self.coursedir.course_id)
        if problem:
            self.fail(problem)
        return super().init_dest()


class Collect(_Checked, SafeExchangeCollect):
    """nbgrader's ``collect`` (links and special files refused, :mod:`grader.infra.submissions`),
    with a course id the exchange does not know said in one line, and each submission refused with
    one line, before nbgrader picks the newest one of each student, where its name is not a valid
    student id, names someone outside the roster, or was written by another user than the one it
    names; the others are collected as nbgrader collects them."""

    owner_prefix = Unicode("", help="The system user of student X is this prefix and X: 'jupyter-' on "
                                    "The Littlest JupyterHub, '' (the default) where system users are "
                                    "named by their student ids").tag(config=True)

    def init_src(self):
        course_id, assignment = self.coursedir.course_id, self.coursedir.assignment_id
        problem = course_problem(self.root, course_id)
        if problem:
            self.fail(problem)
        if course_id and not os.path.isdir(os.path.join(self.root, course_id, "inbound")):
            self.fail(f"nothing of course {course_id!r} is in the exchange {self.root} yet: release an "
                      f"assignment first (nbgrader release_assignment <assignment>)")
        super().init_src()   # nbgrader's checks of inbound/ and the assignment's due date
        ids = roster(self.coursedir.db_url, course_id)
        student = self.coursedir.student_id or "*"
        records = []
        for path in sorted(glob.glob(os.path.join(self.inbound_path, f"{student}+{assignment}+*"))):
            record = self._path_to_record(path)
            problem = (student_id_problem(record["username"])
                       or roster_problem(record["username"], assignment, ids)
                       or (owner_problem(path, record["username"], assignment, self.owner_prefix)
                           if self.check_owner else None))
            if problem:
                self.log.error("refused: %s", problem)
            else:
                records.append(record)
        self.src_records = [self._newest(group) for group in groupby(records, lambda r: r["username"]).values()]

    def _newest(self, records: list[dict]) -> dict:
        """nbgrader's choice among one student's submissions: the newest, or with --before-duedate
        the newest before the due date where there is one."""
        records = self._sort_by_timestamp(records)
        if self.duedate is not None and self.before_duedate:
            before = [r for r in records if r["timestamp"] <= self.duedate]
            return before[0] if before else records[0]
        return records[0]

    def copy_files(self):
        self.check_owner = False   # checked above, where a mismatch refuses instead of warning
        return super().copy_files()


# ---------------------------------------------------------------------------------------------
# python -m grader check-hub
# ---------------------------------------------------------------------------------------------
def _load(paths: list[str]):
    """nbgrader's configuration as its apps read ``nbgrader_config.py`` from ``paths`` (the first
    wins), and the files read."""
    from traitlets.config import Config
    from traitlets.config.loader import PyFileConfigLoader

    config, files = Config(), []
    for folder in reversed(paths):
        path = os.path.join(folder, "nbgrader_config.py")
        if os.path.isfile(path):
            config.merge(PyFileConfigLoader("nbgrader_config.py", path=folder).load_config())
            files.insert(0, path)
    return config, files


def _value(config, section: str, name: str, default):
    return config[section][name] if section in config and name in config[section] else default


def check_hub(course_dir: str) -> tuple[list[str], list[str]]:
    """(what holds, problems) for the course folder ``course_dir`` on a JupyterHub: the exchange
    its commands use, the configuration students' servers load (Jupyter's configuration path,
    without any course folder: ``/etc/jupyter/nbgrader_config.py`` on a hub) against the course
    folder's, and the submissions waiting in the exchange against the roster."""
    from jupyter_core.paths import jupyter_config_path
    from nbgrader.exchange.default.exchange import Exchange

    hub_paths = [p for p in jupyter_config_path() if os.path.abspath(p) != os.path.abspath(course_dir)]
    hub_config, hub_files = _load(hub_paths)
    course_config, _ = _load([course_dir] + hub_paths)  # the course folder wins, as in nbgrader
    default_root = Exchange.root.default_value
    root = _value(course_config, "Exchange", "root", default_root)
    hub_root = _value(hub_config, "Exchange", "root", default_root)
    course_id = _value(course_config, "CourseDirectory", "course_id", "")
    hub_course = _value(hub_config, "CourseDirectory", "course_id", "")
    where = ", ".join(hub_files) or (
        "no nbgrader_config.py on Jupyter's configuration path: " + os.pathsep.join(hub_paths))
    ok, problems = [], []
    config_file = os.path.join(course_dir, "nbgrader_config.py")
    if root != hub_root:
        problems.append(f"exchange mismatch: this course folder uses {root}, students' servers {hub_root} "
                        f"({where}): set one c.Exchange.root in the hub's /etc/jupyter/nbgrader_config.py "
                        "and none in the course folder")
    exchange = exchange_problem(root)
    if exchange:
        problems.append(exchange)
    else:
        ok.append(f"exchange {root}: mode 0777, as nbgrader documents")
    if not course_id:
        problems.append(course_problem(root, course_id, config_file))
    elif hub_course and hub_course != course_id:
        problems.append(f"course id mismatch: students' servers use {hub_course!r} ({where}), this course "
                        f"folder {course_id!r} ({config_file}): set the same c.CourseDirectory.course_id in both")
    elif not exchange and course_problem(root, course_id, config_file):
        problems.append(course_problem(root, course_id, config_file))
    else:
        ok.append(f"course id {course_id!r}" + (", as students' servers have it" if hub_course else
                                                " (students' servers list every course of the exchange)"))
    db_url = _value(course_config, "CourseDirectory", "db_url",
                    "sqlite:///" + os.path.join(course_dir, "gradebook.db"))
    ids = roster(db_url, course_id)
    if not ids:
        problems.append("the course has no roster: import it (nbgrader db student import students.csv)")
    else:
        ok.append(f"roster: {len(ids)} student(s)")
        inbound = os.path.join(root, course_id, "inbound")
        try:
            names = os.listdir(inbound)
        except OSError:
            names = []
        seen = set()
        for name in sorted(names):
            parts = name.split("+")
            if len(parts) >= 3 and (parts[0], parts[1]) not in seen:
                seen.add((parts[0], parts[1]))
                problem = roster_problem(parts[0], parts[1], ids)
                if problem:
                    problems.append(problem)
    return ok, [p for p in problems if p]
