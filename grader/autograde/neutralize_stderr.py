"""nbgrader preprocessor :class:`NeutralizeStderr`: nbgrader gives 0 to a test cell that wrote anything to stderr
(``nbgrader.utils.determine_grade``), so a harmless warning from correct code costs all
the points. Python failures are ``error`` outputs, never bare stderr, so stderr text in a
test cell without an error is turned into stdout (kept, visible) before grades are saved.

Configured in ``grader/course/nbgrader_config.py``; one preprocessor per module, as nbgrader
keeps its own.
"""

from __future__ import annotations

from nbgrader import utils
from nbgrader.preprocessors import NbGraderPreprocessor

__all__ = ["NeutralizeStderr"]


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
