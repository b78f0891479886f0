"""nbgrader preprocessor :class:`LocalizeFeedback` (``generate_feedback``): the words of nbgrader's feedback frame
("Score", "Your answer", "Comments", ...) in the assignment's language, for the course's
feedback template ``grader/templates/minitape_feedback`` (nbgrader's page, its frame
localized).

Configured in ``grader/course/nbgrader_config.py``; one preprocessor per module, as nbgrader
keeps its own.
"""

from __future__ import annotations

import os

from traitlets import List

from nbgrader.preprocessors import NbGraderPreprocessor

from grader.i18n import notebook_language

__all__ = ["FEEDBACK_TEMPLATE", "FEEDBACK_TEMPLATES", "FEEDBACK_WORDS", "LocalizeFeedback", "feedback_template_dirs"]


FEEDBACK_TEMPLATES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "templates")


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
        from grader.i18n import t

        lang = notebook_language(nb, resources)
        resources["grader_words"] = {key: t(f"feedback.{key}", lang) for key in FEEDBACK_WORDS}
        resources["grader_lang"] = lang
        return nb, resources
