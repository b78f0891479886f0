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
from grader.autograde.issues import STOPPED_ENAMES, add_issue

__all__ = ["ScoreProbes"]


class ScoreProbes(NbGraderPreprocessor):
    """Score every probe's data in this process and write the result into the test cell."""

    def preprocess(self, nb, resources):
        from grader.student.registry import get
        from grader.student.mistakes import annotate
        from grader.student.runner import format_score
        from grader.autograde.scoring import hidden_digest, score_probe

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
                       if o.get("output_type") == "error" and o.get("ename") in STOPPED_ENAMES]
            result, issues, facts = score_probe(ex, entry["plan"], outputs, lang, entry["code"])
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
        nb.cells = [c for c in nb.cells if not c.get("metadata", {}).get("grader_probe")]
        # a test cell of a registered exercise that could not be probed never keeps the
        # kernel's own verdict: untrusted outputs decide nothing
        return nb, resources
