"""nbgrader preprocessor :class:`LocalizedClearSolutions` (``generate_assignment``, and ``python -m lessons build`` for
the student notebooks): nbgrader's ``ClearSolutions`` with the stub comment
(``# YOUR CODE HERE``) in the notebook's language (``metadata.minitape.lang``, else the
assignment id's ``-<lang>``); both release the same stub, so nbgrader's "unanswered" check
(the checksum of the released cell) holds for notebooks from either.

Configured in ``grader/course/nbgrader_config.py``; one preprocessor per module, as nbgrader
keeps its own.
"""

from __future__ import annotations

from nbgrader.preprocessors import ClearSolutions

from grader.i18n import notebook_language

__all__ = ["LocalizedClearSolutions"]


class LocalizedClearSolutions(ClearSolutions):
    """nbgrader's ``ClearSolutions`` whose Python stub speaks the notebook's language.

    nbgrader keys ``code_stub`` by the kernel's language only; the course releases one
    notebook per human language, so the stub is chosen per notebook (message ``stub.code``).
    The stub's code line (``raise NotImplementedError()``) is the same in every language."""

    def preprocess(self, nb, resources):
        from grader.i18n import t

        kernel_language = nb.metadata.get("kernelspec", {}).get("language", "python")
        if kernel_language == "python":
            self.code_stub = {**self.code_stub, "python": t("stub.code", notebook_language(nb, resources))}
        return super().preprocess(nb, resources)
