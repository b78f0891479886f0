"""nbgrader preprocessors that close nbgrader's gaps for real classes.

Configured in ``grader/course/nbgrader_config.py``:

* :class:`RecordSubmissionIssues` (sanitize step, before ``OverwriteCells``): notes which test
  cells a student deleted (nbgrader puts them back with ``add_missing_cells``) or edited
  (``OverwriteCells`` restores their source from the gradebook), so the export can say so.
* :class:`GraderExecute` (replaces nbgrader's ``Execute``): when the kernel dies (``os._exit``,
  segfault, out of memory) nbgrader abandons the whole submission and it exports as a silent 0;
  here the cell that killed the kernel gets an error, every later cell is marked "not run"
  (a test cell with no output would otherwise get *full* credit), and grading goes on. Two
  timeouts in a row (a kernel that ignores the interrupt) stop execution the same way. The
  kernel runs with ``MINITAPE_LANG`` set from the assignment id (``01-gradients-ru`` -> ru),
  so feedback is in the language the student worked in.
* :class:`NeutralizeStderr`: nbgrader gives 0 to a test cell that wrote anything to stderr
  (``nbgrader.utils.determine_grade``), so a harmless warning from correct code costs all
  the points. Python failures are ``error`` outputs, never bare stderr, so stderr text in a
  test cell without an error is turned into stdout (kept, visible) before grades are saved.
* :class:`FlagIssues` (after ``SaveAutoGrades``): flags the submitted notebook in the gradebook
  (formgrader shows the flag) when it crashed, timed out or had test cells restored.
* :class:`HideHiddenTestsInFeedback` (``generate_feedback``): removes ``### BEGIN/END HIDDEN
  TESTS`` regions from test cells and reduces error tracebacks of test cells to their last
  line, which otherwise quote the hidden test source (nbgrader #917, #1156). Outputs (the
  checks' messages) stay.
"""

from __future__ import annotations

import contextlib
import os
import re

from nbclient.exceptions import CellTimeoutError, DeadKernelError
from nbformat.notebooknode import NotebookNode
from traitlets import Bool, Unicode

from nbgrader import utils
from nbgrader.api import Gradebook, MissingEntry
from nbgrader.preprocessors import ClearHiddenTests, Execute, NbGraderPreprocessor

from . import nbgrader_compat

# The course's nbgrader_config.py imports this module: nbgrader's own commands
# (`.venv/bin/nbgrader ...`) then open the gradebook without an `alembic` on PATH.
nbgrader_compat.install()

__all__ = [
    "FlagIssues",
    "GraderExecute",
    "HideHiddenTestsInFeedback",
    "NeutralizeStderr",
    "RecordSubmissionIssues",
    "issues_of",
]

ISSUE_KINDS = ("crashed", "timed_out", "not_run", "test_cell_restored", "test_cell_modified")
FLAGGED_KINDS = ("crashed", "timed_out", "test_cell_restored", "test_cell_modified")
_LANG_SUFFIX = re.compile(r"-(en|es|pt|ru)$")


def issues_of(nb: NotebookNode) -> list[dict]:
    """The issues recorded in a notebook's metadata (``metadata.grader.issues``)."""
    return list(nb.get("metadata", {}).get("grader", {}).get("issues", []))


def _add_issue(nb: NotebookNode, kind: str, cell: str | None = None, detail: str = "") -> None:
    meta = nb.metadata.setdefault("grader", {})
    issues = meta.setdefault("issues", [])
    entry = {"kind": kind, "cell": cell, "detail": detail}
    if entry not in issues:
        issues.append(entry)


def _cell_name(cell: NotebookNode, index: int) -> str:
    grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
    return grade_id or f"cell {index + 1}"


def _error(ename: str, evalue: str) -> NotebookNode:
    return NotebookNode(output_type="error", ename=ename, evalue=evalue,
                        traceback=[f"{ename}: {evalue}"])


def _without_hidden_tests(source: str, cell_type: str, parent=None) -> str:
    """What the release has of a cell: its source without hidden-test regions."""
    cell = NotebookNode(cell_type=cell_type, source=source, metadata=NotebookNode())
    try:
        ClearHiddenTests(parent=parent, enforce_metadata=False)._remove_hidden_test_region(cell)
    except RuntimeError:  # unbalanced markers: compare with the full source only
        return source
    return cell.source


class RecordSubmissionIssues(NbGraderPreprocessor):
    """Record deleted and edited test cells before ``OverwriteCells`` repairs them."""

    def preprocess(self, nb, resources):
        notebook_id = resources["nbgrader"]["notebook"]
        assignment_id = resources["nbgrader"]["assignment"]
        nb.metadata.setdefault("grader", {})["issues"] = []  # a fresh record per autograde run
        with Gradebook(resources["nbgrader"]["db_url"]) as gb:
            try:
                source_nb = gb.find_notebook(notebook_id, assignment_id)
            except MissingEntry:
                return nb, resources
            grade_ids = [c.name for c in source_nb.grade_cells]
            source = {c.name: (c.locked, c.source, c.cell_type) for c in source_nb.source_cells}
        present = {}
        for cell in nb.cells:
            grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
            if grade_id:
                present.setdefault(grade_id, cell)
        for grade_id in grade_ids:
            if grade_id not in present:
                _add_issue(nb, "test_cell_restored", grade_id,
                           "the test cell was deleted; nbgrader added it back")
        for grade_id, cell in present.items():
            if grade_id not in source:
                continue
            locked, original, cell_type = source[grade_id]
            if not locked:
                continue
            released = _without_hidden_tests(original, cell_type, parent=self)
            if cell.cell_type != cell_type or cell.source.strip() not in (released.strip(), original.strip()):
                _add_issue(nb, "test_cell_modified", grade_id,
                           "a locked test cell was edited; its source was restored from the gradebook")
        return nb, resources


class GraderExecute(Execute):
    """nbgrader's ``Execute`` that survives a dead or unresponsive kernel (see module doc)."""

    set_language = Bool(
        True, help="Run the kernel with MINITAPE_LANG taken from the assignment id suffix "
                   "(-en, -es, -pt, -ru) so that feedback is in the student's language."
    ).tag(config=True)

    not_run_message = Unicode(
        "Not run: the kernel stopped earlier in this notebook ({reason} in {cell}).",
        help="Error text put in cells that could not run after the kernel died or hung."
    ).tag(config=True)

    def __init__(self, *args, **kwargs):
        from .kernels import kernel_manager_class

        manager = kernel_manager_class()  # autograde-all: forked from a warm process, sandboxed
        if manager is not None:
            kwargs.setdefault("kernel_manager_class", manager)
        super().__init__(*args, **kwargs)

    def preprocess(self, nb, resources=None, km=None):
        self._stopped: tuple[str, str] | None = None
        self._last_timed_out = False
        self._assignment = (resources or {}).get("nbgrader", {}).get("assignment", "")
        return super().preprocess(nb, resources, km)

    @contextlib.contextmanager
    def setup_kernel(self, **kwargs):
        match = _LANG_SUFFIX.search(self._assignment or "")
        if self.set_language and match and "env" not in kwargs:
            env = dict(os.environ)
            env["MINITAPE_LANG"] = match.group(1)
            env.pop("JPY_SESSION_NAME", None)
            kwargs["env"] = env
        with super().setup_kernel(**kwargs):
            yield

    def _stop(self, reason: str, name: str) -> None:
        self._stopped = (reason, name)

    async def _async_handle_timeout(self, timeout, cell=None):
        self._timeout_hit = True  # the cell ran past Execute.timeout (not just slow output)
        return await super()._async_handle_timeout(timeout, cell)

    def preprocess_cell(self, cell, resources, index):
        if self._stopped is not None:
            if cell.cell_type == "code" and cell.source.strip():
                reason, where = self._stopped
                cell.outputs = [_error("NotRun", self.not_run_message.format(reason=reason, cell=where))]
                cell.execution_count = None
                if utils.is_grade(cell):
                    _add_issue(self.nb, "not_run", _cell_name(cell, index))
            return cell, resources
        name = _cell_name(cell, index)
        self._timeout_hit = False
        try:
            cell, resources = super().preprocess_cell(cell, resources, index)
        except DeadKernelError:
            cell.outputs.append(_error(
                "DeadKernelError",
                "The kernel died while running this cell (os._exit, a crash, or out of memory)."))
            _add_issue(self.nb, "crashed", name, "the kernel died")
            self._stop("kernel died", name)
            return cell, resources
        except CellTimeoutError:
            if not self._timeout_hit:
                # the cell finished (its reply came) but its last output did not arrive within
                # iopub_timeout, e.g. on an overloaded machine: not the student's fault
                self.log.warning("Output of %s still incomplete after %s s", name, self.iopub_timeout)
                return cell, resources
            # nbclient gave up waiting for the kernel even after interrupting it (no output
            # and no idle status): nbgrader would abandon the whole submission here
            if not any(o.get("ename") == "CellTimeoutError" for o in cell.get("outputs", [])):
                cell.outputs.append(_error("CellTimeoutError", f"No reply within {self.timeout} s; "
                                           "the kernel did not respond to the interrupt."))
            _add_issue(self.nb, "timed_out", name, f"no reply within {self.timeout} s")
            self._stop("kernel unresponsive after a timeout", name)
            return cell, resources
        timed_out = any(o.get("output_type") == "error" and o.get("ename") == "CellTimeoutError"
                        for o in cell.get("outputs", []))
        if timed_out:
            _add_issue(self.nb, "timed_out", name, f"no reply within {self.timeout} s")
            if self._last_timed_out:  # the interrupt did not stop it: the kernel is stuck
                self._stop("kernel unresponsive after a timeout", name)
        self._last_timed_out = timed_out
        return cell, resources


class NeutralizeStderr(NbGraderPreprocessor):
    """Turn stderr text in test cells without an error into stdout (see module doc)."""

    def preprocess_cell(self, cell, resources, index):
        if cell.cell_type != "code" or not utils.is_grade(cell):
            return cell, resources
        outputs = cell.get("outputs", [])
        if any(o.get("output_type") == "error" for o in outputs):
            return cell, resources
        for output in outputs:
            if output.get("output_type") == "stream" and output.get("name") == "stderr":
                output["name"] = "stdout"
        return cell, resources


class FlagIssues(NbGraderPreprocessor):
    """Flag the submitted notebook in the gradebook when the autograder recorded an issue."""

    def preprocess(self, nb, resources):
        kinds = {issue.get("kind") for issue in issues_of(nb)}
        if not kinds & set(FLAGGED_KINDS):
            return nb, resources
        with Gradebook(resources["nbgrader"]["db_url"]) as gb:
            try:
                submitted = gb.find_submission_notebook(resources["nbgrader"]["notebook"],
                                                        resources["nbgrader"]["assignment"],
                                                        resources["nbgrader"]["student"])
            except MissingEntry:
                return nb, resources
            submitted.flagged = True
            gb.db.commit()
        return nb, resources


class HideHiddenTestsInFeedback(ClearHiddenTests):
    """Feedback without hidden test source: no hidden regions, no tracebacks quoting them."""

    enforce_metadata = Bool(False).tag(config=True)

    def preprocess_cell(self, cell, resources, cell_index):
        if cell.cell_type != "code":
            return cell, resources
        removed = self._remove_hidden_test_region(cell)
        if removed or utils.is_grade(cell):
            for output in cell.get("outputs", []):
                if output.get("output_type") == "error":
                    ename, evalue = output.get("ename", "Error"), output.get("evalue", "")
                    output["traceback"] = [f"{ename}: {evalue}"]
        return cell, resources
