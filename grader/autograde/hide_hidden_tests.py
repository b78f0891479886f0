"""nbgrader preprocessor :class:`HideHiddenTestsInFeedback` (``generate_feedback``): removes ``### BEGIN/END HIDDEN
TESTS`` regions from test cells and reduces error tracebacks of test cells to their last
line, which otherwise quote the hidden test source (nbgrader #917, #1156). Outputs (the
checks' messages) stay.

Configured in ``grader/course/nbgrader_config.py``; one preprocessor per module, as nbgrader
keeps its own.
"""

from __future__ import annotations

from traitlets import Bool, List

from nbgrader import utils
from nbgrader.preprocessors import ClearHiddenTests

__all__ = ["HideHiddenTestsInFeedback"]


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
