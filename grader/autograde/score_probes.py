"""nbgrader preprocessor :class:`ScoreProbes` (autograde, after execution): scores every probe's data in this
process and writes the result into the test cell.

Configured in ``grader/course/nbgrader_config.py``; one preprocessor per module, as nbgrader
keeps its own.
"""

from __future__ import annotations

from nbformat.notebooknode import NotebookNode

from nbgrader import utils
from nbgrader.preprocessors import NbGraderPreprocessor

from grader.i18n import lang_of_assignment as _lang_of
from grader.autograde.issues import add_issue, cell_name, probe_mark

__all__ = ["ScoreProbes"]


def _kept_cells(nb, kept: dict, world: str, resources) -> list[tuple[str, str]]:
    """``(name, code)`` of the cells the kernel of ``world`` kept, in order (what the probes
    there saw defined); the submitted code cells where execution left no record of it."""
    indices = kept.get(world)
    if indices is None:
        indices = kept.get("")
    if indices is None:
        indices = [i for i, c in enumerate(nb.cells) if c.cell_type == "code"
                   and probe_mark(c, resources) is None
                   and not (utils.is_grade(c) and not utils.is_solution(c))]
    return [(cell_name(nb.cells[i], i), nb.cells[i].source) for i in indices
            if 0 <= i < len(nb.cells)]


def _undefined_in_world(ex, result, issues, code, lang):
    """The function was not defined in the kernel of a grading world (a cell that defines it
    used the tool the world lacks, and stopped there): say so, in words the student can act
    on, and keep the reading's notes for the instructor (the source does define it)."""
    from grader.i18n import t
    from grader.student.runner import CheckResult, ExerciseResult
    from grader.autograde.technique import technique_notes

    message = t("err.undefined_absent", lang, name=ex.function)
    checks = [CheckResult(c.label, c.hidden, c.weight, False, c.reason, message)
              if c.reason == "undefined" else c for c in result.checks]
    notes = [("technique", f"{ex.function} was not defined in the kernel without the tool the "
                           "exercise forbids (a cell defining it raised there)")]
    notes += [("technique", note) for note in technique_notes(ex.techniques, code, ex.function)]
    return ExerciseResult(ex, lang, checks, result.mode), list(issues) + notes


class ScoreProbes(NbGraderPreprocessor):
    """Score every probe's data in this process and write the result into the test cell.

    What the test cell shows besides the report and the score, when nothing was scored: the
    output the trusted side made for a stop of its probe (crashed, timed out, not run;
    ``resources["grader_stops"]``), never an error the kernel sent, whatever its name."""

    def preprocess(self, nb, resources):
        from grader.student.registry import get
        from grader.student.mistakes import annotate
        from grader.student.runner import format_score
        from grader.autograde.scoring import hidden_digest, score_probe
        from grader.autograde.technique import channel_notes

        probes = resources.pop("grader_probes", {})
        stops = resources.pop("grader_stops", {}) or {}
        kept = resources.pop("grader_kept", {}) or {}
        lang = _lang_of(resources.get("nbgrader", {}).get("assignment", ""))
        appended: dict[str, list[int]] = {}  # exercise -> indices of its probe cells
        for index, cell in enumerate(nb.cells):
            mark = probe_mark(cell, resources)
            if mark is not None:
                appended.setdefault(mark[0], []).append(index)
        scores = nb.metadata.setdefault("grader", {}).setdefault("scores", {})
        worlds: dict[str, list[str]] = {}  # world -> the exercises probed there
        for index, cell in enumerate(nb.cells):
            if probe_mark(cell, resources) is not None:
                continue
            grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
            if grade_id not in probes or not utils.is_grade(cell) or utils.is_solution(cell):
                continue
            entry = probes.pop(grade_id)
            ex = get(grade_id)
            world = entry.get("world", "")
            worlds.setdefault(world, []).append(grade_id)
            ran = appended.get(grade_id, [])  # its probe cells at the end
            outputs = [o for i in ran for o in nb.cells[i].get("outputs", [])]
            stopped = [stops[i] for i in [index, *ran] if i in stops]
            code = [source for _, source in _kept_cells(nb, kept, world, resources)]
            result, issues, facts = score_probe(ex, entry["plan"], outputs, lang, code)
            if world and any(c.reason == "undefined" for c in result.checks):
                result, issues = _undefined_in_world(ex, result, issues, code, lang)
            pattern = annotate(result)  # the mistake pattern over all cases (grader.student.mistakes)
            if entry.get("above_function"):
                add_issue(nb, "test_cell_moved", grade_id,
                           "the test cell was above its function; graded at the end")
            for kind, detail in issues:
                if kind == "no_result" and stopped:
                    continue  # the kernel died or hung: that issue is already recorded
                add_issue(nb, kind, grade_id, detail)
            if facts.get("timed_out"):
                add_issue(nb, "timed_out", grade_id, "a call ran past its time limit")
            if facts.get("raised"):
                add_issue(nb, "raised", grade_id, "the student's code raised an exception")
            cell.source = entry["source"]
            new_outputs = [NotebookNode(output_type="display_data", metadata=NotebookNode(),
                                        data=NotebookNode({"text/html": result._repr_html_(),
                                                           "text/plain": result.text()}))]
            new_outputs += [NotebookNode(o) for o in stopped[:1]] if result.score <= 0 else []
            new_outputs.append(NotebookNode(output_type="execute_result", metadata=NotebookNode(),
                                            execution_count=cell.get("execution_count"),
                                            data=NotebookNode({"text/plain": format_score(result.score)})))
            cell.outputs = new_outputs
            total = result.total_weight
            passed = sum(c.weight for c in result.checks if c.passed) / total if total > 0 else 0.0
            scores[grade_id] = {"score": result.score, "points": result.points,
                                # the share of checks passed: what summarizes an optional
                                # exercise (0 points) in the class report
                                "passed": round(passed, 4),
                                "seconds": facts.get("seconds", []),
                                "pattern": pattern,
                                # which hidden points were used (a digest: regrades compare it)
                                "hidden_points": hidden_digest(entry["plan"])}
        # code that hooks the probe's channel (display, output, events) or patches what the
        # probe uses: the values reported in that kernel are the kernel's word (grader/README.md)
        hooked: dict[tuple[str, str], set[str]] = {}
        for world, exercises in sorted(worlds.items()):
            for where, what in channel_notes(_kept_cells(nb, kept, world, resources)):
                hooked.setdefault((where, what), set()).update(exercises)
        for (where, what), exercises in hooked.items():
            add_issue(nb, "hooked", where,
                      f"{what}: it could change what the kernel reported for "
                      f"{', '.join(sorted(exercises))}; review by hand")
        nb.cells = [c for c in nb.cells if probe_mark(c, resources) is None]
        # a test cell of a registered exercise that could not be probed never keeps the
        # kernel's own verdict: untrusted outputs decide nothing
        return nb, resources
