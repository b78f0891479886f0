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
  are the grader's own), its own notes included: a cell that loses outputs gets one note in the
  notebook's language, and where the notebook's bound is reached one note says how many
  outputs of that cell and the cells after it were not kept (3,000 printing cells used to leave
  ~3,100 outputs against a bound of 1,000: a note per cell, uncounted); and
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


_NOTE_BYTES = 600  # what one note takes, at most (its text, in any language, and its JSON)


def _note(text: str) -> NotebookNode:
    return NotebookNode(output_type="stream", name="stdout", text=text + "\n" if text else "")


def _prefix(sizes: list[int], count: int, size: int) -> int:
    """How many of the first outputs fit in ``count`` outputs and ``size`` bytes."""
    total = 0
    for i, n in enumerate(sizes[:max(0, count)]):
        total += n
        if total > size:
            return i
    return max(0, min(count, len(sizes)))


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
        note_bytes = _NOTE_BYTES
        # the notebook's bound counts its notes: one output and its bytes are kept back for the
        # one note that says the notebook's outputs ran out (in the cell where they did)
        room_count = self.notebook_outputs - 1
        room_bytes = self.notebook_kb * 1024 - note_bytes
        full = None  # (note, outputs dropped from the cell where the notebook's bound was reached on)
        for cell in nb.cells:
            if cell.get("cell_type") != "code" or utils.is_grade(cell):
                continue
            outs, changed = [], False
            for out in cell.get("outputs", []):
                why = (out.get("metadata") or {}).get("grader_dropped")
                if isinstance(why, str):  # what SafeSession could not decode: said in words
                    changed = True
                    out = NotebookNode(output_type="stream", name="stdout",
                                       text=t("output.malformed_message", lang, why=why) + "\n")
                outs.append(out)
            if full is not None:  # the notebook's outputs ran out in an earlier cell
                full[1] += len(outs)
                if outs:
                    cell.outputs = []
                continue
            sizes = [_size(out) for out in outs]
            cell_bytes = self.cell_kb * 1024
            if (len(outs) <= min(self.cell_outputs, room_count)
                    and sum(sizes) <= min(cell_bytes, room_bytes)):
                if changed:
                    cell.outputs = outs
                room_count, room_bytes = room_count - len(outs), room_bytes - sum(sizes)
                continue
            # this cell's own bound (its note counts in it and in the notebook's) ...
            kept = _prefix(sizes, self.cell_outputs - 1, cell_bytes - note_bytes)
            if kept + 1 <= room_count and sum(sizes[:kept]) + note_bytes <= room_bytes:
                dropped = outs[kept:]
                note = t("output.truncated_cell", lang, dropped=len(dropped),
                         bytes=sum(sizes[kept:]), max_count=self.cell_outputs, max_kb=self.cell_kb)
                cell.outputs = outs[:kept] + [_note(note)]
                room_count -= kept + 1
                room_bytes -= sum(sizes[:kept]) + note_bytes
                continue
            # ... or the notebook's: what fits, and the notebook's one note (in the room kept back)
            kept = _prefix(sizes, min(self.cell_outputs - 1, room_count),
                           min(cell_bytes - note_bytes, room_bytes))
            full = [_note(""), len(outs) - kept]
            cell.outputs = outs[:kept] + [full[0]]
        if full is not None:
            full[0].text = t("output.truncated_notebook", lang, dropped=full[1],
                             max_count=self.notebook_outputs, max_kb=self.notebook_kb) + "\n"
        strict_json(nb)
        without_lone_surrogates(nb)
        return nb, resources
