"""What an answer must (or must not) use: notes for the instructor, read from the source alone.

Some prompts ask for a technique, not only for values: a ``custom_gradient``, a
``ForwardAccumulator``, a tape rather than a hand-derived formula, no ``jacobian`` where the
task says "without building H", the student's own tape in lesson 7. An exercise declares these
as :class:`Technique` s.

Nothing the student's kernel says about itself is evidence (it is the student's process: any
record kept there can be rewritten), so techniques are judged only where the trusted side can
establish them on its own:

* **by value**: where only the technique yields the right answer (a straight-through
  gradient, a custom gradient that differs from autodiff's), the value checks already decide;
* **from the submitted source**, read here with :mod:`ast`. The graded function is the one
  bound to its name *after the last cell* (the probes run after all of the student's code),
  so :func:`evidence` resolves that final binding — a ``def``, an assignment from a call form
  (``f = tf.custom_gradient(g)``), a lambda, a closure returned by a factory — and follows every
  top-level name it refers to, transitively (helper cells included), through import aliases
  (``from minitape import custom_gradient as cg``, ``sg = tf.stop_gradient``). Branches that
  are statically dead (``if False:``, ``if DEBUG:`` with ``DEBUG = False``) are skipped; code
  under a condition is "conditional". Where the code escapes reading (``eval``, ``exec``,
  ``getattr`` with a computed name, ``globals()``, ``sys._getframe``, ``__code__`` ...) the
  result is "unresolvable".

A source reading cannot tell which branch each graded call took, so a technique concern never
costs points: :func:`technique_notes` turns it into a note for the instructor's review (the
export's ``technique`` note). The one point-deciding fact read from source is
:func:`provably_raises`: the function bound at the end is a ``def`` whose body raises
unconditionally (the released stub), so any value reported for it did not come from it.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

__all__ = ["Evidence", "Technique", "evidence", "provably_raises", "technique_notes"]

# calls and attributes through which code reaches what reading cannot follow
_DYNAMIC_CALLS = {"eval", "exec", "compile", "globals", "locals", "vars", "__import__",
                  "setattr", "delattr", "_getframe", "import_module", "currentframe"}
_DYNAMIC_ATTRS = {"__code__", "__globals__", "__dict__", "__builtins__", "f_globals", "f_locals",
                  "__wrapped__", "__closure__", "__class__"}


@dataclass(frozen=True)
class Technique:
    """``must`` (or must not) use ``what``: any of ``source_names`` (names, attributes or
    keyword arguments, after alias resolution) in the code the graded function reaches.
    ``reported`` is kept for the exercise files' sake and ignored: a kernel's record of the
    tools it ran is not evidence."""

    what: str
    source_names: tuple[str, ...]
    reported: str | tuple[str, ...] | None = None
    must: bool = True
    description: dict = field(default_factory=dict)  # the prompt's words, per language

    def describe(self, lang: str) -> str:
        return self.description.get(lang) or self.description.get("en") or self.what


@dataclass
class Evidence:
    """What the graded function's code reaches: ``names`` used on every path (as far as a
    reading can tell), ``conditional`` names used only under a condition, ``dynamic`` the
    constructs that escape reading (empty when everything was followed)."""

    defined: bool
    names: set[str] = field(default_factory=set)
    conditional: set[str] = field(default_factory=set)
    dynamic: set[str] = field(default_factory=set)
    raises: bool = False  # the final binding is a def whose body always raises


def _parse(source: str) -> ast.Module | None:
    lines = [("" if line.lstrip().startswith(("%", "!")) else line) for line in source.splitlines()]
    try:
        return ast.parse("\n".join(lines))
    except (SyntaxError, ValueError):
        return None


def _constant_value(node):
    """(known, value) of a constant expression (``False``, ``0``, ``not True``)."""
    if isinstance(node, ast.Constant):
        return True, node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        known, value = _constant_value(node.operand)
        return known, (not value) if known else None
    return False, None


class _Module:
    """Every top-level binding of the notebook, in order: the last one of a name is what the
    probes (run after the last cell) see."""

    def __init__(self, cell_sources: list[str]):
        self.bindings: dict[str, ast.AST] = {}  # name -> the node that bound it last
        self.aliases: dict[str, str] = {}       # name -> dotted name it was imported as
        self.constants: dict[str, object] = {}  # name -> constant value of its last binding
        self.unparsable = False
        for source in cell_sources:
            tree = _parse(source)
            if tree is None:
                self.unparsable = True
                continue
            self._statements(tree.body)

    def _bind(self, name: str, node: ast.AST, value=None, alias: str | None = None):
        self.bindings[name] = node
        self.aliases.pop(name, None)
        self.constants.pop(name, None)
        if alias is not None:
            self.aliases[name] = alias
        if value is not None:
            known, constant = _constant_value(value)
            if known:
                self.constants[name] = constant

    def _statements(self, body):
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                self._bind(node.name, node)
            elif isinstance(node, ast.Import):
                for a in node.names:
                    if a.asname:
                        self._bind(a.asname, node, alias=a.name)
                    else:
                        self._bind(a.name.split(".")[0], node, alias=a.name.split(".")[0])
            elif isinstance(node, ast.ImportFrom):
                for a in node.names:
                    if a.name != "*":
                        self._bind(a.asname or a.name, node, alias=f"{node.module or ''}.{a.name}")
            elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    for name in ast.walk(target):  # names bound, not `Value.__add__ = ...`
                        if isinstance(name, ast.Name) and isinstance(name.ctx, ast.Store):
                            value = node.value if isinstance(target, ast.Name) and \
                                not isinstance(node, ast.AugAssign) else None
                            self._bind(name.id, node, value)
            elif isinstance(node, (ast.If, ast.While)):
                known, value = _constant_value(node.test)
                if not known and isinstance(node.test, ast.Name) and node.test.id in self.constants:
                    known, value = True, self.constants[node.test.id]
                if known:
                    self._statements(node.body if value else node.orelse)
                else:
                    self._statements(node.body)
                    self._statements(node.orelse)
            elif isinstance(node, (ast.For, ast.AsyncFor, ast.With, ast.AsyncWith)):
                self._statements(node.body)
                self._statements(getattr(node, "orelse", []))
            elif isinstance(node, ast.Try):
                for part in (node.body, *(h.body for h in node.handlers), node.orelse,
                             node.finalbody):
                    self._statements(part)


class _Reader:
    """Walks the code the graded function reaches, following top-level names."""

    def __init__(self, module: _Module):
        self.module = module
        self.ev = Evidence(True)
        self.seen: set[tuple[str, bool]] = set()
        self.scopes: list[set[str]] = []  # names local to the functions being read

    @staticmethod
    def _locals(node) -> set[str]:
        """Names a function binds itself (parameters, assignments, ``with ... as``, loops,
        nested defs): they shadow the notebook's top-level names of the same spelling."""
        args = node.args
        names = {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}
        names.update(a.arg for a in (args.vararg, args.kwarg) if a is not None)
        if isinstance(node, ast.Lambda):
            return names
        declared = set()
        for child in ast.walk(node):
            if child is node:
                continue
            if isinstance(child, (ast.Global, ast.Nonlocal)):
                declared.update(child.names)
            elif isinstance(child, ast.Name) and isinstance(child.ctx, (ast.Store, ast.Del)):
                names.add(child.id)
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(child.name)
            elif isinstance(child, (ast.Import, ast.ImportFrom)):
                names.update((a.asname or a.name).split(".")[0] for a in child.names)
        return names - declared

    def _use(self, name: str, conditional: bool):
        (self.ev.conditional if conditional else self.ev.names).add(name)

    def _dotted(self, node) -> str | None:
        """``tf.custom_gradient`` -> ``minitape.custom_gradient`` (aliases resolved)."""
        parts = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            return None
        head = self.module.aliases.get(node.id, node.id)
        return ".".join([head, *reversed(parts)])

    def follow(self, name: str, conditional: bool):
        if (name, conditional) in self.seen or (name, False) in self.seen:
            return
        self.seen.add((name, conditional))
        if name in self.module.aliases:  # an import: what it names counts as used
            for part in self.module.aliases[name].split("."):
                if part:
                    self._use(part, conditional)
            return
        node = self.module.bindings.get(name)
        if node is None:
            return
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            if node.value is not None:
                self.expr(node.value, conditional)
        else:
            self.node(node, conditional)

    def expr(self, node, conditional: bool):
        self.node(node, conditional)

    def node(self, node, conditional: bool):
        if isinstance(node, (ast.If, ast.While)):
            known, value = _constant_value(node.test)
            if not known and isinstance(node.test, ast.Name) and node.test.id in self.module.constants:
                known, value = True, self.module.constants[node.test.id]
            if known:  # a dead branch is not code that runs
                for child in (node.body if value else node.orelse):
                    self.node(child, conditional)
                return
            self.node(node.test, conditional)
            for child in node.body + node.orelse:
                self.node(child, True)
            return
        if isinstance(node, ast.IfExp):
            self.node(node.test, conditional)
            self.node(node.body, True)
            self.node(node.orelse, True)
            return
        if isinstance(node, ast.BoolOp):
            self.node(node.values[0], conditional)
            for value in node.values[1:]:
                self.node(value, True)
            return
        if isinstance(node, ast.Try):
            for child in node.body + node.finalbody:
                self.node(child, conditional)
            for child in [*node.handlers, *node.orelse]:
                self.node(child, True)
            return
        if isinstance(node, ast.Match if hasattr(ast, "Match") else ()):
            self.node(node.subject, conditional)
            for case in node.cases:
                for child in case.body:
                    self.node(child, True)
            return
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            for child in getattr(node, "decorator_list", []):
                self.node(child, conditional)
            for child in [*node.args.defaults, *(d for d in node.args.kw_defaults if d)]:
                self.node(child, conditional)
            self.scopes.append(self._locals(node))
            try:
                for child in (node.body if isinstance(node.body, list) else [node.body]):
                    self.node(child, conditional)
            finally:
                self.scopes.pop()
            return
        if isinstance(node, ast.Name):
            self._use(node.id, conditional)
            if not any(node.id in scope for scope in self.scopes):
                self.follow(node.id, conditional)
            if node.id in _DYNAMIC_CALLS:
                self.ev.dynamic.add(node.id)
            return
        if isinstance(node, ast.Attribute):
            dotted = self._dotted(node)
            if dotted:
                for part in dotted.split("."):
                    if part:
                        self._use(part, conditional)
            else:
                self._use(node.attr, conditional)
            if node.attr in _DYNAMIC_CALLS or node.attr in _DYNAMIC_ATTRS:
                self.ev.dynamic.add(node.attr)
            self.node(node.value, conditional)
            return
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id in ("getattr", "hasattr") and len(node.args) >= 2:
            name = node.args[1]
            if isinstance(name, ast.Constant) and isinstance(name.value, str):
                self._use(name.value, conditional)
            else:
                self.ev.dynamic.add("getattr")
        if isinstance(node, ast.keyword) and node.arg:
            self._use(node.arg, conditional)
        for child in ast.iter_child_nodes(node):
            self.node(child, conditional)


def _unconditional_calls(node) -> list[str]:
    """Names called in ``node`` wherever evaluating it must reach the call (not under a
    condition, a lambda, a comprehension or a nested definition)."""
    out = []
    if isinstance(node, (ast.IfExp, ast.BoolOp, ast.Lambda, ast.ListComp, ast.SetComp,
                         ast.DictComp, ast.GeneratorExp, ast.FunctionDef,
                         ast.AsyncFunctionDef, ast.ClassDef)):
        if isinstance(node, ast.IfExp):
            return _unconditional_calls(node.test)
        if isinstance(node, ast.BoolOp):
            return _unconditional_calls(node.values[0])
        return out
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        out.append(node.func.id)
    for child in ast.iter_child_nodes(node):
        out.extend(_unconditional_calls(child))
    return out


def _exit_never_suppresses(module: "_Module", item: ast.withitem) -> bool:
    """A ``with C(...)`` whose class ``C`` (bound at the end) has an ``__exit__`` that returns
    nothing but None/False: an exception inside the block goes on."""
    expr = item.context_expr
    if not (isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name)):
        return False
    cls = module.bindings.get(expr.func.id)
    if not isinstance(cls, ast.ClassDef) or cls.decorator_list:
        return False
    exits = [n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__exit__"]
    if len(exits) != 1 or exits[0].decorator_list:
        return False
    for node in ast.walk(exits[0]):
        if isinstance(node, ast.Return) and node.value is not None and not (
                isinstance(node.value, ast.Constant) and node.value.value in (None, False)):
            return False
        if isinstance(node, (ast.Yield, ast.YieldFrom)):
            return False
    return True


def _raises_always(module: "_Module", name: str, seen: set | None = None) -> bool:
    """``name`` is bound at the end to a plain ``def`` whose body, statement by statement,
    reaches a ``raise`` (or a call of such a function) before anything that could return or
    branch: the released stub, or a function built on stubs."""
    seen = set() if seen is None else seen
    node = module.bindings.get(name)
    if name in seen or not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) \
            or node.decorator_list:
        return False
    if any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in ast.walk(node)):
        return False  # a generator returns without running its body
    seen = seen | {name}
    local = _Reader._locals(node)

    def block(body) -> bool:
        for statement in body:
            if isinstance(statement, ast.Raise):
                return True
            if isinstance(statement, (ast.Pass, ast.FunctionDef, ast.AsyncFunctionDef,
                                      ast.ClassDef, ast.Import, ast.ImportFrom)):
                continue
            if isinstance(statement, (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign)):
                value = statement.value
                if value is not None and any(
                        called not in local and _raises_always(module, called, seen)
                        for called in _unconditional_calls(value)):
                    return True
                continue
            if isinstance(statement, ast.With) and all(
                    _exit_never_suppresses(module, item) for item in statement.items):
                if block(statement.body):
                    return True
                continue
            return False  # return, if, loops, try ...: a reading stops here
        return False

    return block(node.body)


def evidence(cell_sources: list[str], function: str) -> Evidence:
    """What ``function``, as bound after the last cell, reaches (see the module doc)."""
    module = _Module(cell_sources or [])
    if function not in module.bindings and function not in module.aliases:
        return Evidence(False, dynamic={"unparsable"} if module.unparsable else set())
    reader = _Reader(module)
    reader.follow(function, False)
    ev = reader.ev
    ev.raises = _raises_always(module, function)
    if module.unparsable:
        ev.dynamic.add("unparsable")
    return ev


def provably_raises(cell_sources: list[str], function: str) -> str:
    """Whether the function bound to ``function`` after the last cell always raises as written
    (the released stub, or a function built on stubs): ``"yes"``; ``"unsure"`` when it does as
    written but the notebook has code a reading cannot follow (which could rebind or rewrite
    it); ``"no"`` otherwise."""
    module = _Module(cell_sources or [])
    if module.unparsable or not _raises_always(module, function):
        return "no"
    for source in cell_sources:
        tree = _parse(source)
        for node in ast.walk(tree) if tree is not None else ():
            if isinstance(node, ast.Name) and node.id in _DYNAMIC_CALLS | {"builtins"}:
                return "unsure"
            if isinstance(node, ast.Attribute) and (node.attr in _DYNAMIC_ATTRS
                                                   or node.attr in _DYNAMIC_CALLS):
                return "unsure"
            if isinstance(node, ast.Global):
                return "unsure"
    return "yes"


def technique_notes(techniques, cell_sources: list[str], function: str) -> list[str]:
    """Notes for the instructor (English, like every export note): one per declared technique
    the reading could not confirm. Empty when every technique reads as the prompt asks."""
    if not techniques:
        return []
    ev = evidence(cell_sources, function)
    if not ev.defined:
        return []
    notes = []
    for technique in techniques:
        what = technique.describe("en")
        everywhere = any(n in ev.names for n in technique.source_names)
        somewhere = everywhere or any(n in ev.conditional for n in technique.source_names)
        if technique.must and not somewhere:
            notes.append(f"asked for {what}: not found in the code {function} reaches")
        elif technique.must and not everywhere:
            notes.append(f"asked for {what}: used only on some paths of {function} "
                         "(check that every call uses it)")
        elif not technique.must and somewhere:
            notes.append(f"asked not to use {what}: {function} reaches it")
    # code a reading cannot follow could hide a forbidden tool (or fake a required one)
    if ev.dynamic and (notes or any(not t.must for t in techniques)):
        notes.append(f"{function} reaches code a reading cannot follow "
                     f"({', '.join(sorted(ev.dynamic))}): review by hand")
    return notes
