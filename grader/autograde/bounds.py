"""Bounds on what a graded kernel sends back, and notebooks that are strict JSON.

A student's kernel decides what it sends: an output nested 100,000 deep (``jupyter_client``'s
JSON decoder then raises ``RecursionError`` and nbgrader abandons the whole notebook), a huge
message, a flood of display outputs (24 MB stored twice: in the autograded notebook and in the
feedback), non-finite numbers that end up in the notebook as ``NaN`` (which ``JSON.parse``
rejects). Here:

- :class:`grader.infra.session.SafeSession` (the session of every grading kernel) decodes each
  message defensively: one it cannot decode (too deep, too large, not JSON) becomes a display
  output saying so, in the probe's format too, so that a probe cell that sent it is scored as
  ``malformed_result`` (:mod:`grader.autograde.scoring`) -- that exercise only; grading goes on.
- :class:`BoundOutputs` (an autograde preprocessor) keeps at most :attr:`BoundOutputs.cell_outputs`
  outputs and :attr:`BoundOutputs.cell_kb` KB per cell and :attr:`BoundOutputs.notebook_outputs` /
  :attr:`BoundOutputs.notebook_kb` per notebook, of the student's cells (the test cells' outputs
  are the grader's own), replacing what it drops by a note in the notebook's language; and
  replaces every non-finite number in the notebook (metadata and outputs) by ``null`` and every
  lone UTF-16 surrogate (text a kernel sent as ``"\\ud83d"``, which UTF-8 cannot write: the
  whole notebook was lost) by U+FFFD, so the notebook written is strict JSON in UTF-8.
"""

from __future__ import annotations

import json
import math

from nbformat import NotebookNode
from traitlets import Integer

from nbgrader.preprocessors import NbGraderPreprocessor

from grader.autograde.read_submission import without_lone_surrogates
from grader.infra.session import MAX_MESSAGE_BYTES

__all__ = ["BoundOutputs", "strict_json"]

def strict_json(value):
    """``value`` with every non-finite float replaced by None (strict JSON)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        for key in list(value):
            value[key] = strict_json(value[key])
        return value
    if isinstance(value, list):
        for i, item in enumerate(value):
            value[i] = strict_json(item)
        return value
    return value


def _size(output) -> int:
    try:
        return len(json.dumps(output, allow_nan=True, default=str))
    except (ValueError, RecursionError):
        return MAX_MESSAGE_BYTES


class BoundOutputs(NbGraderPreprocessor):
    """Bounded outputs per cell and per notebook; non-finite numbers removed (module doc)."""

    cell_outputs = Integer(100, help="most outputs a student's cell keeps").tag(config=True)
    cell_kb = Integer(1024, help="most KB of outputs a student's cell keeps").tag(config=True)
    notebook_outputs = Integer(1000, help="most outputs the student's cells keep in all").tag(config=True)
    notebook_kb = Integer(8192, help="most KB of outputs the student's cells keep in all").tag(config=True)

    def preprocess(self, nb, resources):
        from nbgrader import utils

        from grader.i18n import t
        from grader.i18n import notebook_language

        lang = notebook_language(nb, resources)
        total_count = total_bytes = 0
        for cell in nb.cells:
            if cell.get("cell_type") != "code" or utils.is_grade(cell):
                continue
            kept, dropped, dropped_bytes, by_notebook, changed = [], 0, 0, False, False
            count = size = 0
            for out in cell.get("outputs", []):
                why = (out.get("metadata") or {}).get("grader_dropped")
                if isinstance(why, str):  # what SafeSession could not decode: said in words
                    changed = True
                    out = NotebookNode(output_type="stream", name="stdout",
                                       text=t("output.malformed_message", lang, why=why) + "\n")
                n = _size(out)
                if count + 1 > self.cell_outputs or size + n > self.cell_kb * 1024:
                    dropped, dropped_bytes = dropped + 1, dropped_bytes + n
                    continue
                if total_count + 1 > self.notebook_outputs or total_bytes + n > self.notebook_kb * 1024:
                    dropped, dropped_bytes, by_notebook = dropped + 1, dropped_bytes + n, True
                    continue
                kept.append(out)
                count, size = count + 1, size + n
                total_count, total_bytes = total_count + 1, total_bytes + n
            if changed:
                cell.outputs = kept
            if dropped:
                if by_notebook:
                    note = t("output.truncated_notebook", lang, dropped=dropped,
                             max_count=self.notebook_outputs, max_kb=self.notebook_kb)
                else:
                    note = t("output.truncated_cell", lang, dropped=dropped, bytes=dropped_bytes,
                             max_count=self.cell_outputs, max_kb=self.cell_kb)
                kept.append(NotebookNode(output_type="stream", name="stdout", text=note + "\n"))
                cell.outputs = kept
        strict_json(nb)
        without_lone_surrogates(nb)
        return nb, resources
