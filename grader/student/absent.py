"""``check()`` calls an exercise's function the way grading will: without the tools the
exercise forbids (``Exercise.absent``).

At grading time such an exercise is probed in a kernel whose minitape does not have them at
all (:mod:`grader.infra.worlds`); here, in the student's own kernel, they are switched off for
the duration of each call: constructing a ``GradientTape`` or a ``ForwardAccumulator`` (which
``jacobian``, ``custom_gradient`` and an optimizer's ``minimize`` all need) raises with the
same words. This is a courtesy, so that ``check()`` and the grade agree, not a barrier: the
student's kernel is the student's.
"""

from __future__ import annotations

import contextlib

from grader.i18n import t

__all__ = ["without"]


@contextlib.contextmanager
def without(tools, lang: str):
    """Inside: the tools named in ``tools`` (``"autodiff"``) raise when used."""
    if "autodiff" not in (tools or ()):
        yield
        return
    try:
        import minitape
        from minitape import autodiff
        classes = [minitape.GradientTape, autodiff.ForwardAccumulator]
    except Exception:  # noqa: BLE001 - no minitape (or one without autodiff): nothing to switch off
        yield
        return
    saved = [(cls, cls.__dict__.get("__init__")) for cls in classes]

    def refuse(name):
        def __init__(self, *args, **kwargs):
            raise RuntimeError(t("absent.autodiff", lang, name=name))
        return __init__

    for cls in classes:
        cls.__init__ = refuse(f"minitape.{cls.__name__}")
    try:
        yield
    finally:
        for cls, init in saved:
            if init is None:
                del cls.__init__
            else:
                cls.__init__ = init
