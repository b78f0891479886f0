"""nbgrader preprocessor :class:`InjectProbes` (autograde, after ``OverwriteCells``): replaces each exercise's test
cell by a probe chosen in this trusted process, run at the end of the notebook.

Configured in ``grader/course/nbgrader_config.py``; one preprocessor per module, as nbgrader
keeps its own.
"""

from __future__ import annotations

import re

from nbformat.notebooknode import NotebookNode
from traitlets import Bool, Float, Integer, default

from nbgrader import utils
from nbgrader.preprocessors import NbGraderPreprocessor

from grader.i18n import lang_of_assignment as _lang_of
from grader.autograde.issues import strip_grader_metadata

__all__ = ["InjectProbes"]


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

    The probe (see :mod:`grader.autograde.scoring`) only runs the student's function on inputs drawn
    here and publishes the results as data; :class:`ScoreProbes` scores them after execution
    and puts the test cell's own source back. Every probe runs at the end of the notebook,
    after all of the student's cells (in the order of the test cells): no later cell can read
    what a probe passed, and the function graded is the one bound after the last cell (what
    :mod:`grader.autograde.technique` reads). Each probe is two cells, its visible cases and its
    hidden cases, and every visible cell comes before every hidden one: what feedback shows of a
    visible case was computed before any hidden input reached the kernel. An exercise that
    forbids a tool (``Exercise.absent``) is probed in a grading world without it
    (:mod:`grader.infra.worlds`), after the others: :class:`GraderExecute` runs those probes in
    a fresh kernel of that world into which the student's cells are replayed. Probe cells are
    marked with a token drawn here (``resources["grader_probe_token"]``); grader metadata a
    submitted cell carries is removed first. A test cell that comes before the cell defining its
    function is noted in the export (``test_cell_moved``).
    """

    seed = Integer(None, allow_none=True,
                   help="One seed of hidden points for every student (python -m grader "
                        "autograde-all --seed passes it here; default: GRADER_SEED, else derived "
                        "from course, assignment and student)").tag(config=True)
    grading_worlds = Bool(True, help="Probe an exercise that forbids a tool (Exercise.absent: "
                                     "lesson 7, minitape's autodiff) in a fresh kernel of a "
                                     "grading world without it (grader.infra.worlds). False "
                                     "probes it in the student's own kernel, where the tool is "
                                     "only a note: for measuring what the world costs "
                                     "(benchmarks/grading_world.py), never for a class"
                          ).tag(config=True)
    call_timeout = Float(None, allow_none=True,
                         help="Seconds one call of the student's function may take (default: "
                              "Execute.timeout): every call gets its own limit").tag(config=True)

    @default("seed")
    def _seed_from_environment(self):
        from grader.student.runner import environment_seed

        return environment_seed()  # for nbgrader's own commands; autograde-all passes --seed

    def preprocess(self, nb, resources):
        import secrets

        from grader.infra.worlds import world_of
        from grader.student.registry import all_exercises
        from grader.autograde.scoring import PARTS, build_probe_parts, exercise_seed

        info = resources.get("nbgrader", {})
        lang = _lang_of(info.get("assignment", ""))
        registry = all_exercises()
        course = str(self.config.get("CourseDirectory", {}).get("course_id", ""))
        per_call = self.call_timeout or float(self.config.get("Execute", {}).get("timeout", 60) or 60)
        # the probes' mark: drawn here, never read from the notebook (a submitted cell that
        # carries grader metadata is the student's: it is stripped, RecordSubmissionIssues
        # notes it)
        token = secrets.token_hex(8)
        for cell in nb.cells:
            strip_grader_metadata(cell)
        probes = {}
        moved, order = [], []
        # the submitted code (not the test cells), for the exercises' technique checks; after
        # execution ScoreProbes reads the cells the kernel actually kept instead
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
                                 student=info.get("student", ""), seed=self.seed)
            parts, plan = build_probe_parts(ex, lang, seed, per_call)
            defined_at = next((i for i, c in enumerate(nb.cells)
                               if c.cell_type == "code" and _defines(c.source, ex.function)), None)
            entry = {"source": cell.source, "plan": plan, "code": student_code,
                     "world": world_of(ex.absent) if self.grading_worlds else "",
                     "parts": parts,
                     # a probe calls the function once per case, each call with its own limit
                     "timeouts": {part: per_call * n + 30 for part, (_, n) in parts.items()}}
            entry["timeout"] = max(entry["timeouts"].values())
            if defined_at is not None and defined_at > index:
                moved.append(grade_id)  # noted in the export, as before
            # every probe runs after the last of the student's cells: no later cell can see
            # what a probe passed, and the function graded is the one bound at the end
            cell.source = f"# {ex.id}: graded at the end of the notebook"
            order.append(grade_id)
            probes[grade_id] = entry
        # the probes of the student's own kernel first, then those of each grading world (a
        # fresh kernel, GraderExecute); in each, every visible case before any hidden one
        worlds = sorted({entry["world"] for entry in probes.values()})
        for world in worlds:
            for part in PARTS:
                for grade_id in order:
                    entry = probes[grade_id]
                    if entry["world"] != world:
                        continue
                    mark = NotebookNode(id=grade_id, part=part, token=token)
                    nb.cells.append(NotebookNode(cell_type="code", source=entry["parts"][part][0],
                                                 outputs=[], execution_count=None,
                                                 metadata=NotebookNode(grader_probe=mark)))
        for entry in probes.values():
            del entry["parts"]
        for grade_id in moved:
            probes[grade_id]["above_function"] = True
        resources["grader_probes"] = probes
        resources["grader_probe_token"] = token
        return nb, resources
