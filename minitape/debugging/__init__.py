"""Teaching instruments: see what a tape recorded, step through backprop, learn why a gradient is None.

Three functions, all pure Python (SVG is written by hand: no graphviz, works on Binder and
JupyterLite; ipywidgets is imported only by the stepper's widget)::

    from minitape.debugging import draw, stepper, why_none

    draw(tape)                         # the recorded operations as a graph (SVG + text form)
    draw(tape, target=y, sources=[x])  # only the part between x and y
    stepper(tape, y, [x])              # Next/Back/Reset through the backward pass
    why_none(tape, y, x, lang="es")    # .reason (stable code) and .message (en/es/pt/ru)

``backward_steps(tape, target, sources)`` is the generator behind the stepper.  See
``minitape/DEBUGGING.md`` for a tour.

One concern per module, bottom up: ``messages`` (every text, one catalog in the course's shape;
the language comes from ``course_lang``), ``view`` (the recording
as a graph, read through the tape's read-only view), ``layout``, ``svg`` (draw), ``stepper``,
``why_none``.
"""
from __future__ import annotations

from .messages import CATALOG, REASONS  # noqa: F401  (CATALOG: the texts, for tests)
from .view import LANGUAGES
from .svg import TapeDrawing, draw
from .stepper import Step, Stepper, backward_steps, stepper
from .why_none import WhyNone, why_none

__all__ = ["draw", "stepper", "backward_steps", "why_none", "TapeDrawing", "Stepper", "Step",
           "WhyNone", "REASONS", "LANGUAGES"]
