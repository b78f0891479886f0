"""Why is the student's gradient None?

While the student's function runs, :class:`GradientRecorder` wraps
``minitape.GradientTape.gradient`` and records every call (tape, target, sources, result).
When the answer holds a None, :func:`explain_none` finds the ``gradient`` call that produced
it and asks ``minitape.debugging.why_none(tape, target, source, lang=...)`` for the reason.
When that function is missing (or fails), a local diagnosis covers the cases the lessons teach:
an unwatched Tensor, a Variable replaced by a Tensor (``x = x + 1``), a non-trainable
Variable, an integer dtype, a NumPy detour, and a target not connected to the source (NumPy
call or stateful ``assign`` in between).  Two more causes are about the student's function
rather than the tape: it never called ``gradient`` (forgot ``return``), or it called it and
then returned None.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from grader.student.checks import flatten_with_paths
from grader.i18n import t

__all__ = ["GradientCall", "GradientRecorder", "explain_none"]


@dataclass
class GradientCall:
    tape: Any
    target: Any
    sources: Any
    result: Any
    watched_before: set = field(default_factory=set)  # ids of watched variables/tensors


def _watched_ids(tape: Any) -> set:
    ids: set = set()
    try:
        ids.update(id(v) for v in tape.watched_variables())
    except Exception:
        pass
    return ids


class GradientRecorder:
    """Context manager recording ``GradientTape.gradient`` calls made inside it."""

    def __init__(self) -> None:
        self.calls: list[GradientCall] = []
        self._cls = None
        self._original = None
        self._had_own = False

    def __enter__(self) -> "GradientRecorder":
        import minitape

        cls = minitape.GradientTape
        original = cls.gradient
        recorder = self

        def gradient(tape, target, sources, *args, **kwargs):
            watched = _watched_ids(tape)
            result = original(tape, target, sources, *args, **kwargs)
            recorder.calls.append(GradientCall(tape, target, sources, result, watched))
            return result

        gradient.__doc__ = original.__doc__
        gradient.__name__ = getattr(original, "__name__", "gradient")
        gradient.__wrapped__ = original
        self._cls, self._original = cls, original
        self._had_own = "gradient" in cls.__dict__
        cls.gradient = gradient
        return self

    def __exit__(self, *exc: Any) -> bool:
        if self._cls is not None:
            if self._had_own:
                self._cls.gradient = self._original
            else:
                delattr(self._cls, "gradient")
            self._cls = None
        return False


def _np_dtype(x: Any) -> np.dtype | None:
    dt = getattr(x, "dtype", None)
    if dt is None:
        return None
    for candidate in (getattr(dt, "as_numpy_dtype", None), dt, str(getattr(dt, "name", dt))):
        if candidate is None:  # np.dtype(None) would be float64
            continue
        try:
            return np.dtype(candidate)
        except Exception:
            continue
    return None


def _is_variable(x: Any) -> bool:
    import minitape

    if isinstance(x, minitape.Variable):
        return True
    return any(c.__name__.endswith("Variable") for c in type(x).__mro__)


def _why_none_from_minitape(call: GradientCall, source: Any, lang: str | None) -> str | None:
    try:
        from minitape.debugging import why_none
    except Exception:  # minitape or its debugging module is not available: local diagnosis
        return None
    try:
        answer = why_none(call.tape, call.target, source, lang=lang or None)
    except Exception:
        return None
    message = getattr(answer, "message", None)
    return str(message if message is not None else answer) or None


def _local_diagnosis(call: GradientCall, source: Any, lang: str | None) -> str:
    dtype = _np_dtype(source)
    if dtype is not None and dtype.kind in "iub":
        return t("none.integer_dtype", lang, dtype=str(dtype))
    if isinstance(call.target, (np.ndarray, np.generic, float, int)):
        return t("none.numpy_detour", lang, kind=type(call.target).__name__)
    if _is_variable(source):
        if getattr(source, "trainable", True) is False and id(source) not in call.watched_before:
            return t("none.non_trainable", lang)
        return t("none.unconnected", lang)
    return t("none.unwatched_tensor", lang) + " " + t("none.variable_replaced", lang)


def explain_call(call: GradientCall, source: Any, lang: str | None = None) -> str:
    """Why ``call`` returned None for ``source``: minitape's answer, else the local one."""
    return _why_none_from_minitape(call, source, lang) or _local_diagnosis(call, source, lang)


def _none_paths(result: Any) -> list[str]:
    return [p for p, leaf in flatten_with_paths(result) if leaf is None]


def _source_at(call: GradientCall, path: str) -> Any:
    for p, leaf in flatten_with_paths(call.sources):
        if p == path:
            return leaf
    return None


def explain_none(answer: Any, path: str, calls: list[GradientCall], lang: str | None = None) -> str:
    """Explain the None found at ``path`` of the student's ``answer``.

    ``calls`` are the ``gradient`` calls the student's function made (oldest first).
    """
    if answer is None:
        if not calls:
            return t("none.no_return", lang)
        if any(c.result is not None and not _none_paths(c.result) for c in calls):
            return t("none.lost_result", lang)
    # the call whose result *is* the answer: same path in result and sources
    for call in reversed(calls):
        if call.result is answer and path in _none_paths(call.result):
            source = _source_at(call, path)
            if source is not None:
                return explain_call(call, source, lang)
    # otherwise: a call with a None at the same path, else the latest call with any None
    for call in reversed(calls):
        if path in _none_paths(call.result):
            source = _source_at(call, path)
            if source is not None:
                return explain_call(call, source, lang)
    for call in reversed(calls):
        nones = _none_paths(call.result)
        if nones:
            source = _source_at(call, nones[0])
            if source is not None:
                return explain_call(call, source, lang)
    if not calls:
        return t("none.no_return", lang)
    return t("none.generic", lang)
