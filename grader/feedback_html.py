"""The exporter of the course's feedback pages, used by ``generate_feedback`` only.

nbgrader renders feedback with ``HTMLExporter``; so does formgrader when it shows a submission
(with its own ``formgrade`` template).  Setting ``HTMLExporter.template_name`` globally in the
course's ``nbgrader_config.py`` made formgrader render submissions with the feedback template,
which it cannot (``TemplateNotFound: bootstrap.min.css``).  So the course configures
``GenerateFeedback.exporter_class = FeedbackExporter`` instead: the localized feedback template
(``grader/templates/minitape_feedback``) is this exporter's default, and formgrader's
``HTMLExporter`` keeps nbgrader's template.

The page needs nothing from the internet: math is MathML (``grader.mathml``), written at export
time, instead of MathJax from a CDN.
"""

from __future__ import annotations

from nbconvert.exporters import HTMLExporter
from traitlets import default

from .mathml import export_with_mathml


class FeedbackExporter(HTMLExporter):
    """``HTMLExporter`` with the localized feedback template and math as MathML."""

    export_from_notebook = None  # not offered in nbconvert's "--to" list

    @default("template_name")
    def _template_name_default(self):
        from .nbgrader_ext import FEEDBACK_TEMPLATE

        return FEEDBACK_TEMPLATE

    @default("extra_template_basedirs")
    def _extra_template_basedirs_default(self):
        from .nbgrader_ext import feedback_template_dirs

        return feedback_template_dirs()

    def from_notebook_node(self, nb, resources=None, **kw):
        if getattr(self, "_in_mathml", False):
            return super().from_notebook_node(nb, resources=resources, **kw)
        self._in_mathml = True
        try:
            return export_with_mathml(self, nb, resources=resources, **kw)
        finally:
            self._in_mathml = False
