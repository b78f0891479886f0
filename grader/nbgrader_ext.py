"""nbgrader preprocessors that close nbgrader's gaps for real classes.

Configured in ``grader/course/nbgrader_config.py``:

* :class:`RecordSubmissionIssues` (sanitize step, before ``OverwriteCells``): notes which test
  cells a student deleted (nbgrader puts them back with ``add_missing_cells``) or edited
  (``OverwriteCells`` restores their source from the gradebook), so the export can say so.
* :class:`GraderExecute` (replaces nbgrader's ``Execute``): when the kernel dies (``os._exit``,
  segfault, out of memory) nbgrader abandons the whole submission and it exports as a silent 0;
  here the cell that killed the kernel gets an error, every later cell is marked "not run"
  (a test cell with no output would otherwise get *full* credit), and grading goes on. When
  one of the student's own cells killed it (``os._exit(1)`` at top level), the kernel is
  restarted instead, the cells that ran are replayed without that cell (and without any that
  kills it again on replay; ``max_kernel_restarts``), the killing cell gets an error in the
  student's language, and grading goes on: only what depends on that cell is lost. Two
  timeouts in a row (a kernel that ignores the interrupt) stop execution the same way. The
  kernel runs with ``MINITAPE_LANG`` set from the assignment id (``01-gradients-ru`` -> ru),
  so feedback is in the language the student worked in.
* :class:`NeutralizeStderr`: nbgrader gives 0 to a test cell that wrote anything to stderr
  (``nbgrader.utils.determine_grade``), so a harmless warning from correct code costs all
  the points. Python failures are ``error`` outputs, never bare stderr, so stderr text in a
  test cell without an error is turned into stdout (kept, visible) before grades are saved.
* :class:`FlagIssues` (after ``SaveAutoGrades``): flags the submitted notebook in the gradebook
  (formgrader shows the flag) when it crashed, timed out or had test cells restored.
* :class:`LocalizedClearSolutions` (``generate_assignment``, and ``python -m lessons build`` for
  the student notebooks): nbgrader's ``ClearSolutions`` with the stub comment
  (``# YOUR CODE HERE``) in the notebook's language (``metadata.minitape.lang``, else the
  assignment id's ``-<lang>``); both release the same stub, so nbgrader's "unanswered" check
  (the checksum of the released cell) holds for notebooks from either.
* :class:`LocalizeFeedback` (``generate_feedback``): the words of nbgrader's feedback frame
  ("Score", "Your answer", "Comments", ...) in the assignment's language, for the course's
  feedback template ``grader/templates/minitape_feedback`` (nbgrader's page, its frame
  localized).
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
from traitlets import Bool, Float, Integer, List, Unicode

from nbgrader import utils
from nbgrader.api import Gradebook, MissingEntry
from nbgrader.preprocessors import ClearHiddenTests, ClearSolutions, Execute, NbGraderPreprocessor

from . import nbgrader_compat

# The course's nbgrader_config.py imports this module: nbgrader's own commands
# (`.venv/bin/nbgrader ...`) then open the gradebook without an `alembic` on PATH.
nbgrader_compat.install()
from .i18n import lang_of_assignment as _lang_of, notebook_language, split_variant

__all__ = [
    "FlagIssues",
    "GraderExecute",
    "HideHiddenTestsInFeedback",
    "LocalizeFeedback",
    "LocalizedClearSolutions",
    "NeutralizeStderr",
    "RecordSubmissionIssues",
    "issues_of",
]

ISSUE_KINDS = ("crashed", "timed_out", "not_run", "test_cell_restored", "test_cell_modified",
               "no_result", "multiple_results", "malformed_result", "test_cell_moved",
               "duplicate_cell", "cell_retyped", "metadata_edited", "solution_cell_deleted",
               "technique", "forged_result")
FLAGGED_KINDS = ("crashed", "timed_out", "test_cell_restored", "test_cell_modified", "technique",
                 "forged_result",
                 "no_result", "multiple_results", "malformed_result", "test_cell_moved",
                 "duplicate_cell", "cell_retyped", "metadata_edited", "solution_cell_deleted")
_STOPPED_ENAMES = ("DeadKernelError", "NotRun", "CellTimeoutError")
KILLED_DETAIL = "the kernel died; it was restarted and the notebook graded without this cell"


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
    grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id") or \
        cell.get("metadata", {}).get("grader_probe")  # a probe cell: its exercise
    return grade_id or f"cell {index + 1}"


def _students_own(cell: NotebookNode) -> bool:
    """A cell of the student's code: neither a probe nor a test cell (the grader's code, which
    calls the student's functions: when it kills the kernel, the notebook stops there)."""
    return not cell.get("metadata", {}).get("grader_probe") and \
        not (utils.is_grade(cell) and not utils.is_solution(cell))


def _probe_nonces(resources) -> dict[str, str]:
    return {gid: entry["plan"].nonce
            for gid, entry in ((resources or {}).get("grader_probes") or {}).items()}


def _cells_digest(nb: NotebookNode, nonces: dict[str, str]) -> str:
    """What identifies the notebook a grading worker ran: its cells' types and sources (the
    probes' nonces, drawn afresh at every run, left out)."""
    import hashlib

    h = hashlib.sha256()
    for cell in nb.cells:
        source = cell.get("source", "")
        for nonce in nonces.values():
            source = source.replace(nonce, "")
        h.update(cell.cell_type.encode() + b"\0" + source.encode() + b"\0")
    return h.hexdigest()


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
    """Repair what students do to a notebook's structure, and record it, before nbgrader's
    ``DeduplicateIds`` and ``OverwriteCells`` (which crash or lose points on some of it).

    * a duplicated cell (same ``grade_id`` twice): the last copy keeps the id, as nbgrader's
      ``DeduplicateIds`` would, the others become ordinary cells (their code still runs, so a
      function defined in a copy counts); ``duplicate_cell`` — nbgrader itself would leave an
      empty ``nbgrader`` metadata that makes ``add_missing_cells`` raise ``KeyError``;
    * a cell whose nbgrader metadata names an id the assignment does not have, or is not a
      dict: the metadata is dropped (``metadata_edited``);
    * a known cell with edited metadata (points, grade/solution/locked flags) or another cell
      type (code turned into markdown): ``OverwriteCells`` restores it; ``metadata_edited`` /
      ``cell_retyped``;
    * a deleted test cell (``test_cell_restored``, put back by ``add_missing_cells``), an edited
      locked test cell (``test_cell_modified``), a deleted solution cell
      (``solution_cell_deleted``: its exercise gets what the rest of the notebook earns).
    """

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
            solution_ids = [c.name for c in source_nb.solution_cells]
            points = {c.name: float(c.max_score) for c in source_nb.grade_cells}
            source = {c.name: (c.locked, c.source, c.cell_type) for c in source_nb.source_cells}
        known = set(source) | set(grade_ids) | set(solution_ids)
        # 1. metadata that is not nbgrader's, or names a cell the assignment does not have
        for index, cell in enumerate(nb.cells):
            meta = cell.get("metadata", {})
            if "nbgrader" not in meta:
                continue
            nbg = meta["nbgrader"]
            grade_id = nbg.get("grade_id") if isinstance(nbg, dict) else None
            if not isinstance(nbg, dict) or not isinstance(grade_id, str) or grade_id not in known:
                del meta["nbgrader"]
                _add_issue(nb, "metadata_edited", grade_id if isinstance(grade_id, str) else
                           f"cell {index + 1}", "nbgrader metadata of a cell the assignment "
                           "does not have was removed; the cell ran as ordinary code")
        # 2. duplicates: the last copy keeps the id (what nbgrader's DeduplicateIds keeps)
        last = {}
        for index, cell in enumerate(nb.cells):
            grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
            if grade_id:
                last[grade_id] = index
        for index, cell in enumerate(nb.cells):
            grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
            if grade_id and last[grade_id] != index:
                del cell.metadata["nbgrader"]
                _add_issue(nb, "duplicate_cell", grade_id,
                           "the cell appeared more than once; the last copy was graded and the "
                           "others ran as ordinary code")
        present = {}
        for cell in nb.cells:
            grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
            if grade_id:
                present[grade_id] = cell
        # 3. deleted cells
        for grade_id in grade_ids:
            if grade_id not in present:
                _add_issue(nb, "test_cell_restored", grade_id,
                           "the test cell was deleted; nbgrader added it back")
        for grade_id in solution_ids:
            if grade_id not in present and grade_id not in grade_ids:
                _add_issue(nb, "solution_cell_deleted", grade_id,
                           "the answer cell was deleted")
        # 4. re-typed cells, edited metadata, edited test cells
        for grade_id, cell in present.items():
            locked, original, cell_type = source[grade_id] if grade_id in source else (None, None, None)
            nbg = cell.metadata.nbgrader
            if cell_type is not None and cell.cell_type != cell_type:
                _add_issue(nb, "cell_retyped", grade_id,
                           f"a {cell_type} cell was turned into {cell.cell_type}; restored")
                if cell_type == "code" and "outputs" not in cell:
                    cell["outputs"], cell["execution_count"] = [], None
            expected_flags = {"grade": grade_id in grade_ids, "solution": grade_id in solution_ids}
            if locked is not None:
                expected_flags["locked"] = bool(locked)
            edited = any(bool(nbg.get(k, False)) != v for k, v in expected_flags.items())
            if grade_id in points:
                try:
                    edited = edited or float(nbg.get("points", -1)) != points[grade_id]
                except (TypeError, ValueError):
                    edited = True
            if edited:
                _add_issue(nb, "metadata_edited", grade_id,
                           "nbgrader metadata was edited; restored from the gradebook")
                # what OverwriteCells restores needs the flags it reads to be sane
                for k, v in expected_flags.items():
                    nbg[k] = v
                if grade_id in points:
                    nbg["points"] = points[grade_id]
            if not locked:
                continue
            released = _without_hidden_tests(original, cell_type, parent=self)
            if cell.cell_type != cell_type or cell.source.strip() not in (released.strip(), original.strip()):
                _add_issue(nb, "test_cell_modified", grade_id,
                           "a locked test cell was edited; its source was restored from the gradebook")
        return nb, resources


def _defines(source: str, name: str) -> bool:
    """Whether ``source`` defines ``name`` at top level (``def name``, ``name = ...``)."""
    import ast

    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return re.search(rf"^\s*def\s+{re.escape(name)}\b", source, re.M) is not None
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
            return True
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(tg, ast.Name) and tg.id == name for tg in targets):
                return True
    return False


class InjectProbes(NbGraderPreprocessor):
    """Replace each exercise's test cell by a probe chosen in this (trusted) process.

    The probe (see :mod:`grader.scoring`) only runs the student's function on inputs drawn
    here and publishes the results as data; :class:`ScoreProbes` scores them after execution
    and puts the test cell's own source back. Every probe runs at the end of the notebook,
    after all of the student's cells (in the order of the test cells): no later cell can read
    what a probe passed, and the function graded is the one bound after the last cell (what
    :mod:`grader.technique` reads). A test cell that comes before the cell defining its
    function is noted in the export (``test_cell_moved``).
    """

    seed = Integer(None, allow_none=True,
                   help="One seed of hidden points for every student (default: GRADER_SEED, "
                        "else derived from course, assignment and student)").tag(config=True)
    call_timeout = Float(None, allow_none=True,
                         help="Seconds one call of the student's function may take (default: "
                              "Execute.timeout): every call gets its own limit").tag(config=True)

    def _seed(self):
        if self.seed is not None:
            return self.seed
        env = os.environ.get("GRADER_SEED", "").strip()
        if env:
            try:
                return int(env)
            except ValueError:
                raise ValueError(f"GRADER_SEED must be an integer, got {env!r}") from None
        return None

    def preprocess(self, nb, resources):
        from .exercises import all_exercises
        from .scoring import build_probe, exercise_seed

        info = resources.get("nbgrader", {})
        lang = _lang_of(info.get("assignment", ""))
        registry = all_exercises()
        course = str(self.config.get("CourseDirectory", {}).get("course_id", ""))
        per_call = self.call_timeout or float(self.config.get("Execute", {}).get("timeout", 60) or 60)
        probes = {}
        moved, appended = [], []
        # the submitted code (not the test cells), for the exercises' technique checks
        student_code = [c.source for c in nb.cells
                        if c.cell_type == "code" and not (utils.is_grade(c) and not utils.is_solution(c))]
        for index, cell in enumerate(nb.cells):
            if cell.cell_type != "code" or not utils.is_grade(cell) or utils.is_solution(cell):
                continue
            grade_id = cell.metadata.nbgrader.get("grade_id")
            ex = registry.get(grade_id)
            if ex is None:
                # never let a kernel grade itself: a test cell must be a known exercise
                raise RuntimeError(
                    f"test cell {grade_id!r} is not a registered exercise "
                    f"(known: {', '.join(sorted(registry)) or 'none'}); are the course's "
                    "exercise definitions (exercises/ next to nbgrader_config.py) in place?")
            seed = exercise_seed(ex.id, course=course, assignment=info.get("assignment", ""),
                                 student=info.get("student", ""), seed=self._seed())
            source, plan = build_probe(ex, lang, seed, per_call)
            timeout = per_call * len(plan.cases) + 30
            defined_at = next((i for i, c in enumerate(nb.cells)
                               if c.cell_type == "code" and _defines(c.source, ex.function)), None)
            entry = {"source": cell.source, "plan": plan, "timeout": timeout, "code": student_code}
            if defined_at is not None and defined_at > index:
                moved.append(grade_id)  # noted in the export, as before
            # every probe runs after the last of the student's cells: no later cell can see
            # what a probe passed, and the function graded is the one bound at the end
            cell.source = f"# {ex.id}: graded at the end of the notebook"
            appended.append((grade_id, source, timeout))
            probes[grade_id] = entry
        for grade_id, source, timeout in appended:
            nb.cells.append(NotebookNode(cell_type="code", source=source, outputs=[],
                                         execution_count=None,
                                         metadata=NotebookNode(grader_probe=grade_id)))
        for grade_id in moved:
            probes[grade_id]["above_function"] = True
        resources["grader_probes"] = probes
        return nb, resources


class ScoreProbes(NbGraderPreprocessor):
    """Score every probe's data in this process and write the result into the test cell."""

    def preprocess(self, nb, resources):
        from .exercises import get
        from .mistakes import annotate
        from .runner import format_score
        from .scoring import hidden_digest, score_probe

        probes = resources.pop("grader_probes", {})
        lang = _lang_of(resources.get("nbgrader", {}).get("assignment", ""))
        appended = {c.metadata.get("grader_probe"): c for c in nb.cells
                    if c.get("metadata", {}).get("grader_probe")}
        scores = nb.metadata.setdefault("grader", {}).setdefault("scores", {})
        for index, cell in enumerate(nb.cells):
            if cell.get("metadata", {}).get("grader_probe"):
                continue
            grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
            if grade_id not in probes or not utils.is_grade(cell) or utils.is_solution(cell):
                continue
            entry = probes.pop(grade_id)
            ex = get(grade_id)
            ran = appended.get(grade_id, cell)  # the probe cell at the end
            outputs = list(ran.get("outputs", []))
            stopped = [o for o in outputs + list(cell.get("outputs", []))
                       if o.get("output_type") == "error" and o.get("ename") in _STOPPED_ENAMES]
            result, issues, facts = score_probe(ex, entry["plan"], outputs, lang, entry["code"])
            pattern = annotate(result)  # the mistake pattern over all cases (grader.mistakes)
            if entry.get("above_function"):
                _add_issue(nb, "test_cell_moved", grade_id,
                           "the test cell was above its function; graded at the end")
            for kind, detail in issues:
                if kind == "no_result" and stopped:
                    continue  # the kernel died or hung: that issue is already recorded
                _add_issue(nb, kind, grade_id, detail)
            if facts.get("timed_out"):
                _add_issue(nb, "timed_out", grade_id, "a call ran past its time limit")
            if facts.get("raised"):
                _add_issue(nb, "raised", grade_id, "the student's code raised an exception")
            cell.source = entry["source"]
            new_outputs = [NotebookNode(output_type="display_data", metadata=NotebookNode(),
                                        data=NotebookNode({"text/html": result._repr_html_(),
                                                           "text/plain": result.text()}))]
            new_outputs += [NotebookNode(o) for o in stopped[:1]] if result.score <= 0 else []
            new_outputs.append(NotebookNode(output_type="execute_result", metadata=NotebookNode(),
                                            execution_count=cell.get("execution_count"),
                                            data=NotebookNode({"text/plain": format_score(result.score)})))
            cell.outputs = new_outputs
            scores[grade_id] = {"score": result.score, "points": result.points,
                                "seconds": facts.get("seconds", []),
                                "pattern": pattern,
                                # which hidden points were used (a digest: regrades compare it)
                                "hidden_points": hidden_digest(entry["plan"])}
        nb.cells = [c for c in nb.cells if not c.get("metadata", {}).get("grader_probe")]
        # a test cell of a registered exercise that could not be probed never keeps the
        # kernel's own verdict: untrusted outputs decide nothing
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

    checkpoint = Unicode(
        "", help="Record each cell's outputs, as it finishes, in <checkpoint>.<notebook>.jsonl "
                 "(autograde-all sets it: if the student's code kills the grading worker, the "
                 "notebook is graded up to the cell that killed it)").tag(config=True)

    replay = Bool(
        False, help="Run no kernel: take the outputs from the checkpoint a grading worker wrote "
                    "before it died, record the cell it died in as crashed and the later cells "
                    "as not run (autograde-all, for a submission that killed its worker twice)"
    ).tag(config=True)

    worker_died_message = Unicode(
        "The grading worker died while this cell ran (the submission's code killed it, or it "
        "ran out of memory); the notebook was graded up to this cell.",
        help="Error text put in the cell a grading worker died in (see `replay`)."
    ).tag(config=True)

    max_kernel_restarts = Integer(
        3, help="How many times a kernel killed by one of the student's own cells (os._exit, a "
                "signal to itself) is restarted: the cells that ran are replayed in a fresh "
                "kernel without the cell(s) that killed it, and grading goes on with the next "
                "cell and the probes. 0: the notebook stops at the first kill, later cells are "
                "not run").tag(config=True)

    def __init__(self, *args, **kwargs):
        from .kernels import kernel_manager_class

        manager = kernel_manager_class()  # autograde-all: forked from a warm process, sandboxed
        if manager is not None:
            kwargs.setdefault("kernel_manager_class", manager)
        super().__init__(*args, **kwargs)

    def preprocess(self, nb, resources=None, km=None):
        self._stopped: tuple[str, str] | None = None
        self._ran: list[int] = []  # the student's code cells that ran (replayed after a restart)
        self._restarts = 0
        self._kernel_kwargs: dict = {}
        self._last_timed_out = False
        self._assignment = (resources or {}).get("nbgrader", {}).get("assignment", "")
        self._record, self._language_recorded = None, False
        path = self._checkpoint_path(resources)
        if self.replay:
            return self._replay(nb, resources, path)
        if path:
            self._record = open(path, "w", encoding="utf-8")
            nonces = _probe_nonces(resources)
            self._write_record({"cells": len(nb.cells), "digest": _cells_digest(nb, nonces),
                                "nonces": nonces})
        try:
            return super().preprocess(nb, resources, km)
        finally:
            if self._record is not None:
                self._record.close()
                self._record = None

    def _checkpoint_path(self, resources) -> str | None:
        if not self.checkpoint:
            return None
        notebook = (resources or {}).get("nbgrader", {}).get("notebook", "notebook")
        return f"{self.checkpoint}.{notebook}.jsonl"

    def _write_record(self, entry: dict) -> None:
        import json

        # one line per event, flushed: a worker killed the next instant leaves it on disk
        self._record.write(json.dumps(entry) + "\n")
        self._record.flush()

    def _replay(self, nb, resources, path):
        """The notebook as far as the dead worker ran it: outputs of the cells it finished, the
        cell it was running crashed, every later cell not run. Scores are then computed from
        these outputs exactly as for a kernel that died (``ScoreProbes``)."""
        import json

        self.nb, self.resources = nb, resources
        if not path or not os.path.exists(path):
            raise RuntimeError("no record of the dead grading worker's progress to grade from")
        done, started, header = {}, None, None
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                try:
                    entry = json.loads(line)
                except ValueError:  # a line cut short by the kill
                    break
                if header is None:
                    header = entry
                elif "done" in entry:
                    done[entry["done"]] = entry
                    started = None
                elif "start" in entry:
                    started = entry["start"]
                elif "language_info" in entry:
                    nb.metadata["language_info"] = entry["language_info"]
        nonces = _probe_nonces(resources)
        if (header is None or header.get("cells") != len(nb.cells)
                or header.get("digest") != _cells_digest(nb, nonces)
                or set(header.get("nonces", {})) != set(nonces)):
            raise RuntimeError("the dead grading worker's record is of another notebook")
        for gid, entry in resources["grader_probes"].items():
            # the outputs recorded answer the probes that worker ran
            entry["plan"].nonce = header["nonces"][gid]
        for index, cell in enumerate(nb.cells):
            if cell.cell_type != "code":
                continue
            if self._stopped is not None:
                self.preprocess_cell(cell, resources, index)  # "not run"
            elif index in done:
                cell.outputs = [NotebookNode(o) for o in done[index]["outputs"]]
                cell.execution_count = done[index]["execution_count"]
                for kind, name, detail in done[index].get("issues", []):
                    _add_issue(nb, kind, name, detail)
                if done[index].get("stopped"):
                    self._stop(*done[index]["stopped"])
            elif cell.source.strip():
                name = _cell_name(cell, index)
                cell.outputs = [_error("DeadKernelError", self.worker_died_message)]
                cell.execution_count = None
                _add_issue(nb, "crashed", name, "the grading worker died")
                self._stop("grading worker died", name)
        return nb, resources

    def _run_cell_recorded(self, cell, resources, index):
        if self._record is None or cell.cell_type != "code":
            return self._run_cell(cell, resources, index)
        if "language_info" in self.nb.metadata and not getattr(self, "_language_recorded", False):
            self._write_record({"language_info": self.nb.metadata["language_info"]})
            self._language_recorded = True
        issues_before = len(issues_of(self.nb))
        self._write_record({"start": index})
        cell, resources = self._run_cell(cell, resources, index)
        issues = [[i["kind"], i["cell"], i["detail"]] for i in issues_of(self.nb)[issues_before:]]
        self._write_record({"done": index, "outputs": cell.get("outputs", []),
                            "execution_count": cell.get("execution_count"), "issues": issues,
                            "stopped": list(self._stopped) if self._stopped else None})
        return cell, resources

    @contextlib.contextmanager
    def setup_kernel(self, **kwargs):
        variant = split_variant(self._assignment or "")
        if "env" not in kwargs:
            env = dict(os.environ)
            if self.set_language and variant:
                env["MINITAPE_LANG"] = variant[1]
                env.pop("JPY_SESSION_NAME", None)
            kwargs["env"] = env
        # the kernel never needs the seed of the hidden points: the inputs come in the probes
        kwargs["env"] = {k: v for k, v in kwargs["env"].items() if k != "GRADER_SEED"}
        self._kernel_kwargs = {k: v for k, v in kwargs.items() if k != "cleanup_kc"}
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
                if utils.is_grade(cell) or cell.get("metadata", {}).get("grader_probe"):
                    _add_issue(self.nb, "not_run", _cell_name(cell, index))
            return cell, resources
        probes = (resources or {}).get("grader_probes", {})
        probe_id = cell.get("metadata", {}).get("grader_probe") or \
            cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
        saved_timeout = self.timeout
        if probe_id in probes and self.timeout is not None and self.timeout > 0:
            # a probe calls the function once per case, each call with its own time limit
            self.timeout = max(self.timeout, probes[probe_id]["timeout"])
        try:
            return self._run_cell_recorded(cell, resources, index)
        finally:
            self.timeout = saved_timeout

    def _run_cell(self, cell, resources, index):
        name = _cell_name(cell, index)
        self._timeout_hit = False
        try:
            cell, resources = super().preprocess_cell(cell, resources, index)
        except DeadKernelError:
            if _students_own(cell) and self._restart_without(index):
                # one of the student's own cells killed it: graded without that cell
                cell.outputs.append(_error("DeadKernelError", self._killed_message(name)))
                _add_issue(self.nb, "crashed", name, KILLED_DETAIL)
                return cell, resources
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
        if _students_own(cell) and cell.source.strip():
            self._ran.append(index)
        return cell, resources

    def _killed_message(self, name: str) -> str:
        from .i18n import t

        variant = split_variant(self._assignment or "")
        return t("grading.kernel_killed", variant[1] if variant else "en", cell=name)

    def _restart_without(self, index: int) -> bool:
        """After the student's cell ``index`` killed the kernel: start a fresh kernel and replay
        the cells that ran before it, in order, without ``index``. A replayed cell that kills the
        kernel again is left out too (noted as crashed) and the replay starts over, at most
        ``max_kernel_restarts`` kernels in all. False when no kernel could be brought back to
        that state: the notebook then stops here as before (later cells not run)."""
        if not self.owns_km:
            return False  # the caller's kernel: not ours to replace
        while self._restarts < self.max_kernel_restarts:
            self._restarts += 1
            self.log.warning("The kernel died in %s; restarting it (%d of %d) and replaying "
                             "%d cell(s) without it", _cell_name(self.nb.cells[index], index),
                             self._restarts, self.max_kernel_restarts, len(self._ran))
            try:
                self._fresh_kernel()
            except Exception as exc:  # noqa: BLE001 - no kernel: stop as for any dead kernel
                self.log.warning("Could not restart the kernel: %s", exc)
                return False
            if self._replay_ran_cells():
                return True
        return False

    def _fresh_kernel(self) -> None:
        try:
            self._cleanup_kernel()
        except Exception as exc:  # noqa: BLE001 - the dead kernel's leftovers
            self.log.debug("cleaning up the dead kernel: %s", exc)
        self.kc = None
        self.km = self.create_kernel_manager()
        self.start_new_kernel(**self._kernel_kwargs)
        self.start_new_kernel_client()

    def _replay_ran_cells(self) -> bool:
        """Run again, in the fresh kernel, every cell that ran; their outputs stay those of the
        first run. False (and that cell dropped from the replay) when one kills the kernel."""
        import copy

        for i in list(self._ran):
            twin = copy.deepcopy(self.nb.cells[i])
            twin.outputs = []
            try:
                self.execute_cell(twin, i, store_history=True)
            except DeadKernelError:
                self._ran.remove(i)
                name = _cell_name(self.nb.cells[i], i)
                self.nb.cells[i].setdefault("outputs", []).append(
                    _error("DeadKernelError", self._killed_message(name)))
                _add_issue(self.nb, "crashed", name, KILLED_DETAIL + " (when it was run again)")
                return False
            except CellTimeoutError:
                continue  # as in its first run; its outputs there say so
        return True


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


class LocalizedClearSolutions(ClearSolutions):
    """nbgrader's ``ClearSolutions`` whose Python stub speaks the notebook's language.

    nbgrader keys ``code_stub`` by the kernel's language only; the course releases one
    notebook per human language, so the stub is chosen per notebook (message ``stub.code``).
    The stub's code line (``raise NotImplementedError()``) is the same in every language."""

    def preprocess(self, nb, resources):
        from .i18n import t

        kernel_language = nb.metadata.get("kernelspec", {}).get("language", "python")
        if kernel_language == "python":
            self.code_stub = {**self.code_stub, "python": t("stub.code", notebook_language(nb, resources))}
        return super().preprocess(nb, resources)


FEEDBACK_TEMPLATES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates")
FEEDBACK_TEMPLATE = "minitape_feedback"
FEEDBACK_WORDS = ("score", "answer", "test_cell", "code_answer", "written_answer", "task",
                  "comment", "comments", "late_penalty", "top")


def feedback_template_dirs() -> list[str]:
    """Template folders for ``HTMLExporter.extra_template_basedirs``: this package's (the
    localized feedback page) and nbgrader's own (its ``feedback`` template stays available:
    formgrader's "generate feedback" button asks for it by name)."""
    import nbgrader

    nbgrader_templates = os.path.join(os.path.dirname(os.path.abspath(nbgrader.__file__)),
                                      "server_extensions", "formgrader", "templates")
    return [FEEDBACK_TEMPLATES, nbgrader_templates]


class LocalizeFeedback(NbGraderPreprocessor):
    """Give the feedback template the words of its frame in the assignment's language.

    The autograded notebook has lost its ``metadata.minitape`` (nbconvert's
    ``ClearMetadataPreprocessor``), so the language comes from the assignment id
    (``01-gradients-es``)."""

    # nbconvert's HTMLExporter configures every NbConvertBase with this; declared configurable
    # here so that traitlets does not warn "not recognized by LocalizeFeedback"
    display_data_priority = List().tag(config=True)

    def preprocess(self, nb, resources):
        from .i18n import t

        lang = notebook_language(nb, resources)
        resources["grader_words"] = {key: t(f"feedback.{key}", lang) for key in FEEDBACK_WORDS}
        resources["grader_lang"] = lang
        return nb, resources


class HideHiddenTestsInFeedback(ClearHiddenTests):
    """Feedback without hidden test source: no hidden regions, no tracebacks quoting them."""

    enforce_metadata = Bool(False).tag(config=True)
    display_data_priority = List().tag(config=True)  # set by HTMLExporter: no warning

    def preprocess_cell(self, cell, resources, cell_index):
        if cell.cell_type != "code":
            return cell, resources
        if not utils.is_grade(cell) or utils.is_solution(cell):
            # a student's own cell: nbgrader's marker text in it (a comment such as
            # "### BEGIN HIDDEN TESTS") is the student's text, not a hidden region
            return cell, resources
        try:
            removed = self._remove_hidden_test_region(cell)
        except RuntimeError:  # unbalanced markers in a test cell: show none of its source
            cell.source = ""
            removed = True
        if removed or utils.is_grade(cell):
            for output in cell.get("outputs", []):
                if output.get("output_type") == "error":
                    ename, evalue = output.get("ename", "Error"), output.get("evalue", "")
                    output["traceback"] = [f"{ename}: {evalue}"]
        return cell, resources
