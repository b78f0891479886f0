"""The exporter of the course's feedback pages, used by ``generate_feedback`` only.

nbgrader renders feedback with ``HTMLExporter``; so does formgrader when it shows a submission
(with its own ``formgrade`` template).  Setting ``HTMLExporter.template_name`` globally in the
course's ``nbgrader_config.py`` made formgrader render submissions with the feedback template,
which it cannot (``TemplateNotFound: bootstrap.min.css``).  So the course configures
``GenerateFeedback.exporter_class = FeedbackExporter`` instead: the localized feedback template
(``grader/templates/minitape_feedback``) is this exporter's default, and formgrader's
``HTMLExporter`` keeps nbgrader's template.

The test cells' score values (``Out[n]: 2``) are left out: the page shows each cell's score.
The page needs nothing from the internet: math is MathML (``grader.autograde.mathml``), written at export
time, instead of MathJax from a CDN.
"""

from __future__ import annotations

from pathlib import Path

from nbconvert.exporters import HTMLExporter
from traitlets import default

from grader.autograde.mathml import export_with_mathml

COURSE_CSS = Path(__file__).resolve().parents[1] / "templates" / "course.css"


def without_score_values(nb):
    """A copy of ``nb`` without the test cells' ``Out[n]: 2``: the value nbgrader reads as the
    cell's partial credit, which the page already shows as the cell's score."""
    import copy

    nb = copy.deepcopy(nb)
    for cell in nb.cells:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if cell.cell_type == "code" and meta.get("grade") and not meta.get("solution"):
            cell.outputs = [o for o in cell.get("outputs", []) if o.get("output_type") != "execute_result"]
    return nb


class FeedbackExporter(HTMLExporter):
    """``HTMLExporter`` with the localized feedback template and math as MathML."""

    export_from_notebook = None  # not offered in nbconvert's "--to" list

    @default("template_name")
    def _template_name_default(self):
        from grader.autograde.localize_feedback import FEEDBACK_TEMPLATE

        return FEEDBACK_TEMPLATE

    @default("extra_template_basedirs")
    def _extra_template_basedirs_default(self):
        from grader.autograde.localize_feedback import feedback_template_dirs

        return feedback_template_dirs()

    def from_notebook_node(self, nb, resources=None, **kw):
        if getattr(self, "_in_mathml", False):
            return super().from_notebook_node(nb, resources=resources, **kw)
        self._in_mathml = True
        resources = dict(resources or {})
        # the course's stylesheet: code and prompt colours at WCAG AA contrast (docs/accessibility.md)
        resources["course_css"] = COURSE_CSS.read_text(encoding="utf-8")
        try:
            return export_with_mathml(self, without_score_values(nb), resources=resources, **kw)
        finally:
            self._in_mathml = False


def formgrade_template_dirs() -> tuple[list[str], list[str]]:
    """(``HTMLExporter.extra_template_basedirs``, ``HTMLExporter.extra_template_paths``) for
    formgrader: this package's ``formgrade`` page (nbgrader's, working offline:
    ``grader/templates/formgrade``) ahead of nbgrader's templates, and the folder from which it
    extends nbgrader's page (``templates/formgrade/index.html.j2``)."""
    import os

    import nbgrader
    from grader.autograde.localize_feedback import FEEDBACK_TEMPLATES

    formgrader = os.path.join(os.path.dirname(os.path.abspath(nbgrader.__file__)),
                              "server_extensions", "formgrader")
    return [FEEDBACK_TEMPLATES, os.path.join(formgrader, "templates")], [formgrader]
