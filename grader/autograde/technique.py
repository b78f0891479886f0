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
import functools
from dataclasses import dataclass, field

__all__ = ["ANYTHING", "Evidence", "Technique", "channel_notes", "evidence", "provably_raises",
           "rebinding", "technique_notes"]

# calls and attributes through which code reaches what reading cannot follow
_DYNAMIC_CALLS = {"eval", "exec", "compile", "globals", "locals", "vars", "__import__",
                  "setattr", "delattr", "_getframe", "import_module", "currentframe"}
_DYNAMIC_ATTRS = {"__code__", "__globals__", "__dict__", "__builtins__", "f_globals", "f_locals",
                  "__wrapped__", "__closure__", "__class__"}
# what builds an attribute's name at run time when passed around as a value
_NAME_BUILDERS = {"attrgetter", "methodcaller", "getattr"}


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


# magics whose argument (or cell body) is Python run in the notebook's namespace: read as code
_CODE_MAGICS = {"time", "timeit", "prun", "capture"}
# magics that cannot run code in the kernel's namespace, rebind a name or install a hook
_SAFE_MAGICS = {"matplotlib", "pip", "conda", "pwd", "ls", "who", "whos", "who_ls", "lsmagic",
                "magic", "precision", "pprint", "xmode", "env", "cd", "pdef", "pdoc", "psource",
                "pfile", "pinfo", "pinfo2", "psearch", "history", "config", "writefile", "bash",
                "sh", "script", "html", "HTML", "markdown", "latex", "svg", "javascript", "js",
                "dhist", "dirs", "page", "quickref", "doctest_mode", "colors", "automagic"}
_TRANSFORM = []


def _transform(source: str) -> str:
    """IPython's own translation of a cell (magics, ``!``, ``?``) into Python."""
    if not _TRANSFORM:
        try:
            from IPython.core.inputtransformer2 import TransformerManager

            _TRANSFORM.append(TransformerManager().transform_cell)
        except Exception:  # noqa: BLE001 - no IPython: magic lines are left out
            _TRANSFORM.append(lambda text: "\n".join(
                "" if line.lstrip().startswith(("%", "!")) else line for line in text.splitlines()))
    try:
        return _TRANSFORM[0](source)
    except Exception:  # noqa: BLE001
        return source


def _magic(node) -> tuple[str, str, list] | None:
    """``(kind, name, args)`` of ``get_ipython().run_line_magic(name, ...)`` (or
    ``run_cell_magic``, ``system``, ``getoutput``) with a constant name; else None."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Call)
            and isinstance(node.func.value.func, ast.Name)
            and node.func.value.func.id == "get_ipython"):
        return None
    kind = node.func.attr
    if kind in ("system", "getoutput"):
        return kind, kind, list(node.args)
    if kind in ("run_line_magic", "run_cell_magic") and node.args and \
            isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
        return kind, node.args[0].value, list(node.args[1:])
    return None


class _ExpandMagics(ast.NodeTransformer):
    """``%time f = g`` (and ``%%capture`` cells...) read as the code they run."""

    def visit_Expr(self, node):
        magic = _magic(node.value)
        if magic and magic[1] in _CODE_MAGICS:
            kind, _, args = magic
            code = args[-1] if kind == "run_cell_magic" else (args[0] if args else None)
            if isinstance(code, ast.Constant) and isinstance(code.value, str):
                try:
                    body = ast.parse(_transform(code.value)).body
                except SyntaxError:
                    return node
                for child in body:
                    ast.copy_location(child, node)
                    ast.fix_missing_locations(child)
                return [self.visit(child) for child in body] or node
        return self.generic_visit(node)


@functools.lru_cache(maxsize=1024)
def _parse(source: str) -> ast.Module | None:
    """A cell's code as IPython runs it (magics translated, code-carrying ones read as code);
    None where it does not parse. Cached: every reading of a notebook parses its cells once
    (the trees are never changed after)."""
    try:
        tree = ast.parse(_transform(source))
    except (SyntaxError, ValueError):
        return None
    return _ExpandMagics().visit(tree)


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
    probes (run after the last cell) see. Every binding form counts (``def``, ``class``,
    assignments, ``for`` targets, ``with ... as``, ``except ... as``, the walrus, ``import``,
    ``match`` captures, ``del``); an attribute stored on a top-level name (``Tape.gradient =
    g``, a method patched onto a class) is kept with that name."""

    def __init__(self, cell_sources):
        # a walrus can bind only where ":=" is written (most notebooks have none: no search)
        self.walruses = any(":=" in source for source in cell_sources)
        self.bindings: dict[str, ast.AST] = {}  # name -> the node that bound it last
        self.aliases: dict[str, str] = {}       # name -> dotted name it was imported as
        self.constants: dict[str, object] = {}  # name -> constant value of its last binding
        self.patches: dict[str, list[ast.AST]] = {}  # name -> values stored on its attributes
        self.trees: list[ast.Module] = []
        self.unparsable = False
        for source in cell_sources:
            tree = _parse(source)
            if tree is None:
                self.unparsable = True
                continue
            self.trees.append(tree)
            self._statements(tree.body)

    def _bind(self, name: str, node: ast.AST, value=None, alias: str | None = None):
        self.bindings[name] = node
        self.aliases.pop(name, None)
        self.constants.pop(name, None)
        self.patches.pop(name, None)
        if alias is not None:
            self.aliases[name] = alias
        if value is not None:
            known, constant = _constant_value(value)
            if known:
                self.constants[name] = constant

    def _targets(self, target, node, value=None):
        """Bind every name a target binds (``a, (b, c)``, ``*rest``); an attribute target on a
        top-level name is a patch of that name."""
        if isinstance(target, ast.Name):
            self._bind(target.id, node, value)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for element in target.elts:
                self._targets(element, node)
        elif isinstance(target, ast.Starred):
            self._targets(target.value, node)
        elif isinstance(target, (ast.Attribute, ast.Subscript)):
            base = target.value
            while isinstance(base, (ast.Attribute, ast.Subscript)):
                base = base.value
            if isinstance(base, ast.Name) and base.id in self.bindings and value is not None:
                self.patches.setdefault(base.id, []).append(value)

    def _walrus(self, node):
        """Names a walrus binds in module scope (outside functions, lambdas, classes)."""
        if not self.walruses:
            return
        stack = [node]
        while stack:
            child = stack.pop()
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                continue
            if isinstance(child, ast.NamedExpr):
                self._bind(child.target.id, child.value, child.value)
            stack.extend(ast.iter_child_nodes(child))

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
                self._walrus(node.value) if node.value is not None else None
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    value = node.value if isinstance(target, ast.Name) and \
                        not isinstance(node, ast.AugAssign) else None
                    if isinstance(target, ast.Name) or isinstance(node, ast.AugAssign):
                        self._targets(target, node, value)
                    else:
                        self._targets(target, node.value if node.value is not None else node,
                                      node.value)
            elif isinstance(node, ast.Delete):
                for target in node.targets:
                    for name in ast.walk(target):
                        if isinstance(name, ast.Name) and isinstance(name.ctx, ast.Del):
                            self._bind(name.id, node)
            elif isinstance(node, (ast.If, ast.While)):
                self._walrus(node.test)
                known, value = _constant_value(node.test)
                if not known and isinstance(node.test, ast.Name) and node.test.id in self.constants:
                    known, value = True, self.constants[node.test.id]
                if known:
                    self._statements(node.body if value else node.orelse)
                else:
                    self._statements(node.body)
                    self._statements(node.orelse)
            elif isinstance(node, (ast.For, ast.AsyncFor)):
                self._walrus(node.iter)
                self._targets(node.target, node.iter, None)
                self._statements(node.body)
                self._statements(node.orelse)
            elif isinstance(node, (ast.With, ast.AsyncWith)):
                for item in node.items:
                    self._walrus(item.context_expr)
                    if item.optional_vars is not None:
                        self._targets(item.optional_vars, item.context_expr, None)
                self._statements(node.body)
            elif isinstance(node, ast.Try) or type(node).__name__ == "TryStar":
                self._statements(node.body)
                for handler in node.handlers:
                    if handler.name:
                        self._bind(handler.name, handler)  # and unbound again after it
                    self._statements(handler.body)
                self._statements(node.orelse)
                self._statements(node.finalbody)
            elif type(node).__name__ == "Match":
                self._walrus(node.subject)
                for case in node.cases:
                    for child in ast.walk(case.pattern):
                        for field_name in ("name", "rest"):
                            bound = getattr(child, field_name, None)
                            if isinstance(bound, str):
                                self._bind(bound, node.subject, None)
                    self._statements(case.body)
            else:
                self._walrus(node)


@functools.lru_cache(maxsize=8)
def _module(cell_sources: tuple) -> _Module:
    """The notebook's bindings, read once per notebook (every reading of it asks again; the
    result is never changed after)."""
    return _Module(cell_sources)


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

    def _defaults_resolved(self, func, body: list, conditional: bool) -> list:
        """The body with its leading ``if p is None: p = default`` statements (``p`` a parameter
        whose default is None) read as ``p = default``: the default is what every call that
        does not pass ``p`` uses, not a branch some calls take. Returns the rest."""
        if isinstance(func, ast.Lambda):
            return body
        args = func.args
        positional = [*args.posonlyargs, *args.args]
        defaults = dict(zip([a.arg for a in positional[len(positional) - len(args.defaults):]],
                            args.defaults))
        defaults.update({a.arg: d for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None})
        none_default = {name for name, d in defaults.items()
                        if isinstance(d, ast.Constant) and d.value is None}
        rest = list(body)
        if rest and isinstance(rest[0], ast.Expr) and isinstance(rest[0].value, ast.Constant):
            rest = rest[1:]  # the docstring
        while rest:
            statement = rest[0]
            value = _resolved_default(statement, none_default)
            if value is None:
                break
            self.node(value, conditional)
            rest = rest[1:]
        return rest

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
        for value in self.module.patches.get(name, []):  # Tape.gradient = g: g is Tape's too
            self.expr(value, conditional)

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
                body = node.body if isinstance(node.body, list) else [node.body]
                for child in self._defaults_resolved(node, body, conditional):
                    self.node(child, conditional)
            finally:
                self.scopes.pop()
            return
        if isinstance(node, ast.Name):
            self._use(node.id, conditional)
            if not any(node.id in scope for scope in self.scopes):
                self.follow(node.id, conditional)
            if node.id in _DYNAMIC_CALLS or node.id in _NAME_BUILDERS:
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
            if node.attr in _DYNAMIC_CALLS or node.attr in _DYNAMIC_ATTRS or \
                    node.attr in _NAME_BUILDERS:
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
            for child in [node.args[0], *node.args[2:], *node.keywords]:
                self.node(child, conditional)
            return
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr == "gradient" and len(node.args) >= 3:
            self._use("output_gradients", conditional)  # gradient(y, x, u): u is positional
        if isinstance(node, ast.keyword) and node.arg:
            self._use(node.arg, conditional)
        for child in ast.iter_child_nodes(node):
            self.node(child, conditional)


def _is_none_test(test, names: set[str]) -> str | None:
    """``p is None`` (``None is p``, ``not p``) for ``p`` in ``names``: ``p``; else None."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not) and \
            isinstance(test.operand, ast.Name) and test.operand.id in names:
        return test.operand.id
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Is, ast.Eq)):
        left, right = test.left, test.comparators[0]
        for a, b in ((left, right), (right, left)):
            if isinstance(a, ast.Name) and a.id in names and isinstance(b, ast.Constant) and b.value is None:
                return a.id
    return None


def _resolved_default(statement, names: set[str]):
    """The default value a statement resolves for a None-default parameter -- ``if p is None:
    p = v``, ``p = v if p is None else p``, ``p = p or v`` -- else None."""
    if isinstance(statement, ast.If) and not statement.orelse and len(statement.body) == 1:
        name = _is_none_test(statement.test, names)
        inner = statement.body[0]
        if name and isinstance(inner, ast.Assign) and len(inner.targets) == 1 and \
                isinstance(inner.targets[0], ast.Name) and inner.targets[0].id == name:
            return inner.value
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1 and \
            isinstance(statement.targets[0], ast.Name) and statement.targets[0].id in names:
        name, value = statement.targets[0].id, statement.value
        if isinstance(value, ast.IfExp) and _is_none_test(value.test, {name}) and \
                isinstance(value.orelse, ast.Name) and value.orelse.id == name:
            return value.body
        if isinstance(value, ast.BoolOp) and isinstance(value.op, ast.Or) and len(value.values) == 2 \
                and isinstance(value.values[0], ast.Name) and value.values[0].id == name:
            return value.values[1]
    return None


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


# ------------------------------------------------------------------------------------------
# what can rebind a top-level name, or hook the probe's channel, out of a reading's sight
# ------------------------------------------------------------------------------------------
ANYTHING = "*"  # a construct that can rebind any name (run code, reach the namespace)
_RUN_CODE = {"exec", "eval", "execfile", "__import__", "import_module", "reload", "run_path",
             "run_module", "run_cell", "run_code", "runcode", "safe_execfile", "safe_run_module",
             "ex", "ev", "push"}
_NAMESPACES = {"globals", "vars", "locals"}
# attributes through which a namespace (or a function's code, or the next line run) is reached
_NAMESPACE_ATTRS = {"f_globals", "f_locals", "f_builtins", "f_trace", "__globals__", "__dict__",
                    "user_ns", "user_global_ns", "settrace", "setprofile", "modules", "__main__"}
_CODE_ATTRS = {"__code__", "f_lineno"}  # stored: a function's code, or a frame's next line
# what reading a namespace with does not change it
_READ_ONLY_METHODS = {"get", "keys", "items", "values", "copy", "__contains__", "__getitem__",
                      "__len__", "__iter__"}
_READ_ONLY_CALLS = {"len", "sorted", "list", "dict", "set", "tuple", "print", "repr", "str",
                    "any", "all", "iter", "frozenset", "bool"}


def _root(node) -> ast.AST:
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node


def _shell(expr) -> bool:
    """``expr`` reaches IPython's shell: ``get_ipython()...``."""
    root = _root(expr)
    return isinstance(root, ast.Name) and root.id == "get_ipython"


def _const_str(node) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _importable(name: str) -> bool:
    import importlib.util

    try:
        return importlib.util.find_spec(name.split(".")[0]) is not None
    except (ImportError, ValueError):
        return False


def _magic_effect(magic) -> str | None:
    """What a magic call can do beyond reading: None (nothing: a safe or code-reading magic),
    else a label."""
    kind, name, args = magic
    if kind in ("system", "getoutput") or name in _SAFE_MAGICS or name in _CODE_MAGICS:
        return None
    return f"%{name}"


def _parents(tree: ast.AST) -> dict[int, ast.AST]:
    return {id(child): node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def _namespace_use(call: ast.Call, parents: dict) -> set[str]:
    """What a ``globals()`` (``vars()``, ``locals()``) call can rebind, from where its result
    goes: nothing when only read (``globals().get(k)``, ``globals()[k]``, ``k in globals()``),
    the constant keys it stores (``globals()["f"] = g``, ``globals().update(f=g)``), anything
    otherwise (the dict kept in a name, passed on, a computed key)."""
    parent = parents.get(id(call))
    if isinstance(parent, ast.Subscript) and parent.value is call:
        key = _const_str(parent.slice)
        if isinstance(parent.ctx, ast.Load):
            return set()
        return {key} if key else {ANYTHING}
    if isinstance(parent, ast.Compare) and call in parent.comparators:
        return set()
    if isinstance(parent, ast.Call) and call in parent.args and \
            isinstance(parent.func, ast.Name) and parent.func.id in _READ_ONLY_CALLS:
        return set()
    if isinstance(parent, ast.Attribute) and parent.value is call:
        method_call = parents.get(id(parent))
        if not (isinstance(method_call, ast.Call) and method_call.func is parent):
            return {ANYTHING}
        if parent.attr in _READ_ONLY_METHODS:
            return set()
        if parent.attr in ("update", "setdefault", "pop", "__setitem__", "__delitem__"):
            keys = {k.arg for k in method_call.keywords if k.arg}
            if any(k.arg is None for k in method_call.keywords):
                return {ANYTHING}
            for arg in method_call.args[:1]:
                if isinstance(arg, ast.Dict) and all(_const_str(k) for k in arg.keys):
                    keys |= {_const_str(k) for k in arg.keys}
                elif parent.attr != "update" and _const_str(arg):
                    keys.add(_const_str(arg))
                else:
                    return {ANYTHING}
            return keys
    return {ANYTHING}


def rebinding(cell_sources: list[str]) -> dict[str, set[str]]:
    """Constructs anywhere in the notebook that can rebind a top-level name where a reading of
    the bindings does not see it: ``{label: names it can rebind}`` (:data:`ANYTHING` for any):
    a ``global`` declaration in a function or class; stores into ``globals()``, ``vars()``, a
    frame's or a module's namespace (``__main__.f = ...``, ``sys.modules[...]``, ``setattr``);
    code run from strings or files (``exec`` of what is not a constant string, ``%run``,
    ``importlib``, an import of a module of the submission's own, ``from m import *``);
    IPython's shell (``get_ipython()``: its namespace, its hooks that rewrite later cells); a
    function's ``__code__`` replaced; a frame's next line moved. What only reads a namespace
    (``globals().get(k)``), stores a constant name elsewhere (``setattr(obj, "x", v)``) or runs
    a constant string (``exec("x = 1")``: read as code) rebinds nothing else."""
    return {label: set(names) for label, names in _rebinding(tuple(cell_sources or ())).items()}


@functools.lru_cache(maxsize=8)
def _rebinding(cell_sources: tuple) -> dict[str, frozenset]:
    found: dict[str, set[str]] = {}
    module = _module(tuple(cell_sources or ()))

    def add(label, names):
        if names:
            found.setdefault(label, set()).update(names)

    def scan(tree, depth=0):
        parents = _parents(tree)
        shell_calls = set()  # get_ipython() inside a magic's call: judged with the magic
        for node in ast.walk(tree):
            if id(node) in shell_calls:
                continue
            if isinstance(node, ast.Global):
                add("global", set(node.names))
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                level = getattr(node, "level", 0)
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                    ([node.module] if node.module and not level else [])
                if level:
                    add("a relative import", {ANYTHING})
                if isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names):
                    add(f"from {node.module} import *", {ANYTHING})
                for name in names:
                    head = name.split(".")[0]
                    if head == "__main__":
                        add("__main__", {ANYTHING})
                    elif head in ("importlib", "runpy"):
                        add(head, {ANYTHING})
                    elif not _importable(name):
                        add(f"import {name} (a module of the submission's own)", {ANYTHING})
            elif isinstance(node, ast.Call):
                magic = _magic(node)
                if magic is not None:
                    shell_calls.add(id(node.func.value))
                    label = _magic_effect(magic)
                    if label:
                        add(label, {ANYTHING})
                    continue
                func = node.func
                name = func.id if isinstance(func, ast.Name) else \
                    func.attr if isinstance(func, ast.Attribute) else None
                if name in ("exec", "eval") and node.args and _const_str(node.args[0]) is not None \
                        and depth < 3:
                    try:  # a constant string: read as the code it is, its bindings included
                        code = _const_str(node.args[0])
                        inner = ast.parse(code, mode="exec" if name == "exec" else "eval")
                        add(name, set(_module((code,)).bindings) if name == "exec" else
                            {n.target.id for n in ast.walk(inner) if isinstance(n, ast.NamedExpr)})
                        scan(inner, depth + 1)
                        continue
                    except SyntaxError:
                        pass
                if name in _RUN_CODE:
                    add(name, {ANYTHING})
                elif name in ("setattr", "delattr") and len(node.args) >= 2:
                    attr = _const_str(node.args[1])
                    if attr in _CODE_ATTRS or attr in _NAMESPACE_ATTRS:
                        target = node.args[0]
                        add(name, {target.id} if isinstance(target, ast.Name) and
                            attr in _CODE_ATTRS else {ANYTHING})
                    else:
                        add(name, {attr} if attr else {ANYTHING})
                elif name == "getattr" and len(node.args) >= 2:
                    attr = _const_str(node.args[1])
                    if attr is None or attr in _NAMESPACE_ATTRS:
                        add("getattr", {ANYTHING})
                elif name in _NAMESPACES and isinstance(func, ast.Name) and not node.args:
                    add(f"{name}()", _namespace_use(node, parents))
                elif name in _NAMESPACES and isinstance(func, ast.Name):
                    add(f"{name}(...)", {ANYTHING})  # vars(module): its namespace
                elif name == "get_ipython":
                    parent = parents.get(id(node))
                    if not (isinstance(parent, ast.Attribute) and parent.attr in _SHELL_SAFE):
                        add("get_ipython()", {ANYTHING})
            elif isinstance(node, ast.Attribute):
                if node.attr in _NAMESPACE_ATTRS:
                    add(node.attr, {ANYTHING})
                elif node.attr in _CODE_ATTRS and isinstance(node.ctx, ast.Store):
                    target = node.value
                    add(node.attr, {target.id} if isinstance(target, ast.Name) else {ANYTHING})
            elif isinstance(node, ast.Name) and node.id in ("__builtins__", "__main__"):
                add(node.id, {ANYTHING})

    for tree in module.trees:
        scan(tree)
    return {label: frozenset(names) for label, names in found.items()}


def _probe_modules() -> set[str]:
    """The modules the probe (and its wire codec) uses in the kernel, and the shell's."""
    return {"builtins", "json", "numpy", "IPython", "ipykernel", "comm", "sys", "os", "signal",
            "time", "io", "contextlib", "tempfile", "traceback", "warnings", "minitape", "grader",
            "base64", "binascii", "math", "jupyter_client", "zmq", "traitlets", "typing"}


_OUTPUT_HOOKS = {"displayhook", "excepthook", "stdout", "stderr", "__stdout__", "__stderr__",
                 "__displayhook__", "__excepthook__"}
_EVENT_HOOKS = {"settrace", "setprofile", "addaudithook", "set_asyncgen_hooks", "setswitchinterval"}
# what the probe's cell itself looks up in the notebook's namespace (grader.autograde.scoring)
_PROBE_CELL_NAMES = {"exec", "compile", "globals"}
# what of IPython's shell a notebook may touch without reaching the probe's channel
_SHELL_SAFE = {"ast_node_interactivity"}


def channel_notes(cells: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """``(cell, what)`` for each cell (named, in the order the kernel ran them) whose code
    installs output, display or event hooks or patches a module the probe uses -- the channel
    through which the kernel reports the values that are scored -- or runs code a reading
    cannot follow (which could do either). A reading, so a note for the instructor's review."""
    notes: list[tuple[str, str]] = []
    aliases: dict[str, str] = {}
    probe_modules = _probe_modules()
    for name, source in cells:
        tree = _parse(source)
        if tree is None:
            continue
        module = _module((source,))
        for alias, dotted in module.aliases.items():
            aliases[alias] = dotted
        found: list[str] = []
        parents = _parents(tree)

        def root_module(expr) -> str | None:
            root = _root(expr)
            if isinstance(root, ast.Name) and root.id in aliases:
                return aliases[root.id].lstrip(".").split(".")[0] or None
            return None

        for node in ast.walk(tree):
            what = None
            if isinstance(node, (ast.Attribute, ast.Subscript)) and isinstance(node.ctx, (ast.Store, ast.Del)):
                attr = node.attr if isinstance(node, ast.Attribute) else None
                base = root_module(node)
                if attr in _OUTPUT_HOOKS and base == "sys":
                    what = f"sys.{attr} replaced (an output hook)"
                elif _shell(node) and attr not in _SHELL_SAFE:
                    what = "IPython's shell changed (get_ipython())"
                elif base in probe_modules:
                    what = f"the module {base} patched (the probe uses it)"
                elif isinstance(_root(node), ast.Name) and _root(node).id == "__builtins__":
                    what = "builtins patched"
            elif isinstance(node, ast.Call):
                func = node.func
                fname = func.id if isinstance(func, ast.Name) else \
                    func.attr if isinstance(func, ast.Attribute) else None
                magic = _magic(node)
                if magic is not None:
                    label = _magic_effect(magic)
                    what = f"{label}: runs code a reading does not follow" if label else None
                elif _magic(parents.get(id(parents.get(id(node))))) is not None:
                    what = None  # the get_ipython() of a magic's call: judged with the magic
                elif _shell(func) and not (isinstance(parents.get(id(node)), ast.Attribute)
                                           and parents[id(node)].attr in _SHELL_SAFE):
                    what = "IPython's shell used (get_ipython(): its events, display, namespace)"
                elif fname in _EVENT_HOOKS:
                    what = f"{fname} (an event hook)"
                elif fname in ("setattr", "delattr") and node.args and \
                        (root_module(node.args[0]) in probe_modules or
                         (isinstance(node.args[0], ast.Name) and node.args[0].id in aliases)):
                    what = f"{fname} on a module (the probe uses it)"
                elif fname in ("exec", "eval", "compile", "__import__", "import_module", "reload",
                               "run_path", "run_module"):
                    what = f"{fname}: runs code a reading does not follow"
                elif fname == "register" and root_module(func) == "atexit":
                    what = "atexit.register (an exit hook)"
            elif isinstance(node, (ast.Import, ast.ImportFrom)) and not getattr(node, "level", 0):
                for dotted in ([a.name for a in node.names] if isinstance(node, ast.Import)
                               else [node.module or ""]):
                    if dotted and not _importable(dotted):
                        what = f"import {dotted}: a module of the submission's own, not read"
                    elif dotted.split(".")[0] in ("importlib", "runpy", "ctypes", "gc"):
                        what = f"import {dotted}: reaches what a reading does not follow"
            if what and what not in found:
                found.append(what)
        for shadow in sorted(set(module.bindings) & _PROBE_CELL_NAMES):
            found.append(f"{shadow} defined in the notebook (the probe's cell calls it)")
        notes.extend((name, what) for what in found)
    return notes


def evidence(cell_sources: list[str], function: str) -> Evidence:
    """What ``function``, as bound after the last cell, reaches (see the module doc)."""
    module = _module(tuple(cell_sources or ()))
    if function not in module.bindings and function not in module.aliases:
        return Evidence(False, dynamic={"unparsable"} if module.unparsable else set())
    reader = _Reader(module)
    reader.follow(function, False)
    ev = reader.ev
    ev.raises = _raises_always(module, function)
    if module.unparsable:
        ev.dynamic.add("unparsable")
    # what can rebind the function (or what it reaches) where the reading does not look
    reached = {function} | ev.names | ev.conditional
    for label, targets in rebinding(cell_sources).items():
        if ANYTHING in targets or targets & reached:
            ev.dynamic.add(label)
    return ev


def _raising_names(module: "_Module", name: str, seen: set | None = None) -> set[str]:
    """``name`` and every top-level function its always-raising body relies on."""
    seen = set() if seen is None else seen
    node = module.bindings.get(name)
    if name in seen or not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return seen
    seen.add(name)
    local = _Reader._locals(node)
    for child in ast.walk(node):
        if isinstance(child, ast.Call) and isinstance(child.func, ast.Name) and \
                child.func.id not in local:
            _raising_names(module, child.func.id, seen)
    return seen


def provably_raises(cell_sources: list[str], function: str) -> str:
    """Whether the function bound to ``function`` after the last cell always raises as written
    (the released stub, or a function built on stubs): ``"yes"``; ``"unsure"`` when it does as
    written but the notebook has a construct that can rebind that name (or a function the stub
    relies on) out of a reading's sight (:func:`rebinding`: ``exec``, ``globals()``, ``%run``,
    ``__main__.f = ...``, a ``global`` declaration of it, IPython's shell...); ``"no"`` otherwise.
    Constructs that cannot rebind it (a ``global`` of another name, ``setattr(obj, "x", ...)``)
    leave the answer ``"yes"``."""
    module = _module(tuple(cell_sources or ()))
    if module.unparsable or not _raises_always(module, function):
        return "no"
    names = _raising_names(module, function)
    for label, targets in rebinding(cell_sources).items():
        if ANYTHING in targets or targets & names:
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
