"""nbgrader preprocessor :class:`FlagIssues` (after ``SaveAutoGrades``): flags the submitted notebook in the gradebook
(formgrader shows the flag) when it crashed, timed out or had test cells restored.

Configured in ``grader/course/nbgrader_config.py``; one preprocessor per module, as nbgrader
keeps its own.
"""

from __future__ import annotations

from nbgrader.api import Gradebook, MissingEntry
from nbgrader.preprocessors import NbGraderPreprocessor

from grader.autograde.issues import FLAGGED_KINDS, issues_of

__all__ = ["FlagIssues"]


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
