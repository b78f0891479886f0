"""What an answer must (or must not) use, checked outside the kernel.

Some prompts ask for a technique, not only for values: a ``custom_gradient``, a
``ForwardAccumulator``, a tape rather than a hand-derived formula, no ``jacobian`` where the
task says "without building H", the student's own tape in lesson 7. An exercise declares
these as :class:`Technique` s. The trusted autograder checks each one from two sources:

* the submitted source, with :mod:`ast`: the names and attributes used in the student's
  function and in the notebook's top-level functions it calls (transitively);
* what the kernel reported while the function ran (the probe records which autodiff tools
  were entered: ``custom_gradient`` functions, and ``custom_gradient.variables`` when such a
  function read Variables (its ``backward`` got ``variables=``), ``RegisterGradient`` and
  ``no_gradient`` registrations, ``ForwardAccumulator``, ``GradientTape.gradient``,
  ``jacobian``; and, in lesson 7, ``own_tape`` when the lesson's own ``Tape`` recorded
  operations, with each as ``tape:<op>``).

A required technique must show in the source *and*, where the probe can see it, in the run; a
forbidden one must show in neither. Each technique is one check in the report (with what the
prompt asked, in the student's language); an exercise's techniques together weigh half as much
as its value checks, so a right answer computed the wrong way keeps two thirds of the points.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from .i18n import t

__all__ = ["Technique", "check_technique", "names_used"]


@dataclass(frozen=True)
class Technique:
    """``must`` (or must not) use ``what``: any of ``source_names`` in the function's code and,
    when ``reported`` is set, that tool reported by the probe during the calls."""

    what: str
    source_names: tuple[str, ...]
    reported: str | tuple[str, ...] | None = None  # a tool name, or several (all required)
    must: bool = True
    description: dict = field(default_factory=dict)  # the prompt's words, per language

    def describe(self, lang: str) -> str:
        return self.description.get(lang) or self.description.get("en") or self.what


def _parse(source: str) -> ast.Module | None:
    lines = [("" if line.lstrip().startswith(("%", "!")) else line) for line in source.splitlines()]
    try:
        return ast.parse("\n".join(lines))
    except (SyntaxError, ValueError):
        return None


def names_used(cell_sources: list[str], function: str) -> set[str] | None:
    """Names, attribute names and keyword-argument names used by ``function`` (its last top-level definition in the
    cells) and by the top-level functions it refers to; None when it is not defined."""
    defs: dict[str, ast.AST] = {}
    for source in cell_sources:
        tree = _parse(source)
        if tree is None:
            continue
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                defs[node.name] = node
    if function not in defs:
        return None
    seen, todo, names = set(), [function], set()
    while todo:
        name = todo.pop()
        if name in seen or name not in defs:
            continue
        seen.add(name)
        for node in ast.walk(defs[name]):
            if isinstance(node, ast.Name):
                names.add(node.id)
                if node.id in defs:
                    todo.append(node.id)
            elif isinstance(node, ast.Attribute):
                names.add(node.attr)
                if node.attr in defs:
                    todo.append(node.attr)
            elif isinstance(node, ast.keyword) and node.arg:  # gradient(..., output_gradients=u)
                names.add(node.arg)
    return names


def check_technique(technique: Technique, names: set[str] | None, tools: set[str], lang: str
                    ) -> tuple[bool, str]:
    """(passed, message) for one declared technique."""
    in_source = bool(names) and any(n in names for n in technique.source_names)
    reported = (technique.reported,) if isinstance(technique.reported, str) else \
        tuple(technique.reported or ())
    what = technique.describe(lang)
    if technique.must:
        ran = all(r in tools for r in reported)
        if in_source and ran:
            return True, t("technique.used", lang, what=what)
        if in_source:
            return False, t("technique.not_run", lang, what=what)
        return False, t("technique.missing", lang, what=what)
    if in_source or any(r in tools for r in reported):
        return False, t("technique.forbidden", lang, what=what)
    return True, t("technique.avoided", lang, what=what)
