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
    """Template folders for ``FeedbackExporter.extra_template_basedirs``: this package's (the
    localized feedback page) and nbgrader's own (its ``feedback`` template stays findable by name;
    formgrader's *Generate Feedback* button names it for ``HTMLExporter``, which the
    ``FeedbackExporter.template_name`` of the course's configuration outranks)."""
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
        self._from_gradebook(nb, resources, lang)
        return nb, resources

    def _from_gradebook(self, nb, resources, lang) -> None:
        """What the gradebook says beyond the scores (after nbgrader's ``GetGrades``): a score
        the teacher changed by hand, said in the cell's heading; nbgrader's "No response." in the
        student's language; and the digest of the page's inputs
        (:mod:`grader.autograde.feedback_update`)."""
        from nbgrader.api import Gradebook, MissingEntry

        from grader.autograde.feedback_update import inputs_digest
        from grader.i18n import t

        info = resources.get("nbgrader") or {}
        if not all(info.get(k) for k in ("db_url", "assignment", "student", "notebook")):
            return
        folder = (resources.get("metadata") or {}).get("path") or ""
        autograded = os.path.join(folder, f"{info['notebook']}.ipynb")
        with Gradebook(info["db_url"]) as gb:
            resources["grader_inputs"] = inputs_digest(gb, info["assignment"], info["student"],
                                                       info["notebook"], autograded)
            try:
                sub = gb.find_submission_notebook(info["notebook"], info["assignment"], info["student"])
            except MissingEntry:
                return
            grades = {g.name: g for g in sub.grades}
            comments = {c.name: c for c in sub.comments}
        for cell in nb.cells:
            meta = cell.get("metadata", {}).get("nbgrader", {})
            grade = grades.get(meta.get("grade_id"))
            if meta.get("grade") and grade is not None and grade.manual_score is not None \
                    and grade.manual_score != grade.auto_score:
                auto = "—" if grade.auto_score is None else _fmt(grade.auto_score)
                meta["score_note"] = t("feedback.score_changed", lang, auto=auto)
            comment = comments.get(meta.get("grade_id"))
            if meta.get("comment") == "No response." and comment is not None and not comment.manual_comment:
                meta["comment"] = t("feedback.no_response", lang)


def _fmt(x: float) -> str:
    return f"{x:.2f}".rstrip("0").rstrip(".") if x else "0"
