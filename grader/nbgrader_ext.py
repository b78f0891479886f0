"""Old import path of the grader's nbgrader preprocessors, kept for existing course folders.

A course made before the grader was arranged by where its code runs has an
``nbgrader_config.py`` that imports ``from grader.nbgrader_ext import (...)``. The
preprocessors now live one per module in :mod:`grader.autograde` (as nbgrader keeps its own):
this module only hands those names on, so such a config keeps working. New code and the
packaged ``grader/course/nbgrader_config.py`` import from :mod:`grader.autograde`; to bring an
old course up to date, copy the packaged ``nbgrader_config.py`` over its own (see
grader/README.md, "Upgrading a course folder").
"""

from grader.autograde.clear_solutions import LocalizedClearSolutions
from grader.autograde.execute import GraderExecute
from grader.autograde.flag_issues import FlagIssues
from grader.autograde.hide_hidden_tests import HideHiddenTestsInFeedback
from grader.autograde.inject_probes import InjectProbes
from grader.autograde.issues import issues_of
from grader.autograde.localize_feedback import (FEEDBACK_TEMPLATE, FEEDBACK_TEMPLATES,
                                                LocalizeFeedback, feedback_template_dirs)
from grader.autograde.neutralize_stderr import NeutralizeStderr
from grader.autograde.record_issues import RecordSubmissionIssues
from grader.autograde.score_probes import ScoreProbes

__all__ = ["FEEDBACK_TEMPLATE", "FEEDBACK_TEMPLATES", "FlagIssues", "GraderExecute",
           "HideHiddenTestsInFeedback", "InjectProbes", "LocalizeFeedback",
           "LocalizedClearSolutions", "NeutralizeStderr", "RecordSubmissionIssues", "ScoreProbes",
           "feedback_template_dirs", "issues_of"]
