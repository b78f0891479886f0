"""Grading worlds: what a kernel can import when an exercise forbids a tool.

Lesson 7 ("build your own tape") asks for the student's own tape and forbids minitape's. A
reading of the submitted source cannot establish that (a name can be rebound, an attribute
built from strings, a method patched on, a hook can swap the function in only while it is
graded), so such an exercise is graded where the forbidden tool does not exist: its probes
run in a fresh kernel whose importable world has a minitape *without* its automatic
differentiation, and the student's cells are replayed into it (:mod:`grader.autograde.execute`).

The world ``no-autodiff`` is a copy of the student site (:mod:`grader.infra.student_site`: the
student wheel's contents, audited) in which every module of minitape's autodiff layers
(``docs/architecture.md``: the gradient rules ``_ops/*_grads.py``, the tape and the backward
pass ``_tape.py`` and ``_vjp.py``, ``_jacobian.py`` and its one-hot steps ``_onehot.py``,
``_custom.py``, ``autodiff.py``) is replaced by a
placeholder module: the same public names (``GradientTape``, ``jacobian`` on nothing,
``ForwardAccumulator``, ``custom_gradient``, ``RegisterGradient``, ...) and the names other modules
import from it, each of which raises :class:`ToolAbsent` when used. No gradient rule is ever
attached to a primitive, so nothing is recorded either, and an optimizer's ``minimize`` (which
opens a tape) raises too. The forward operations are all there.

Nothing a kernel does can bring the tool back: its code is not on the disk the kernel sees
(the world's folder replaces the student site in the sandbox, which binds neither the student
site nor the instructor's packages; :meth:`grader.infra.sandbox.Sandbox.for_world`), not in the
kernel's memory (its kernel is forked from a zygote that imported the world's minitape, or
started fresh in it), and not in any other process the kernel can reach. ``importlib.reload``,
``sys.modules`` edits, reading the source files, ``ctypes``: each finds only the placeholders.
:func:`absence_problems` audits every built world (a rule attached anywhere, a tape class, a
backward pass: the build fails and says where), so a future minitape module that adds gradient
code outside these layers cannot slip into a world unnoticed. Other autodiff libraries the
grading Python has installed (``autograd``, JAX, PyTorch, TensorFlow) are hidden from the world
too (:func:`other_autodiff_dirs`).

The world's folder is built once from the student site and cached next to it, keyed on the
student site and on this file.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

__all__ = ["BLOCKER", "NO_AUTODIFF", "WORLDS", "World", "WorldError", "absence_problems",
           "build_world", "ensure_world", "other_autodiff_dirs", "world_of"]

NO_AUTODIFF = "no-autodiff"
# in a world's folder: what a package the world hides holds instead of its code
BLOCKER = ".hidden-package.py"


class WorldError(RuntimeError):
    """A world cannot be built, or would still hold the tool it must not have."""


@dataclass(frozen=True)
class World:
    """A grading world: the student site with ``removed`` modules replaced by placeholders.

    ``tools``: what an exercise names in ``Exercise.absent`` to be graded here.
    ``removed``: glob patterns of files of the student site.
    ``rule_calls``, ``rule_attrs``, ``classes``, ``functions``, ``texts``: what no remaining
    module of ``package`` may hold (the audit, read with :mod:`ast`): calls of these methods,
    stores to these attributes, classes and functions of these names (at any depth), string
    constants containing these texts.
    ``hidden_packages``: other importable packages that do the same job, hidden from the world.
    """

    name: str
    tools: tuple[str, ...]
    package: str
    removed: tuple[str, ...]
    rule_calls: tuple[str, ...] = ()
    rule_attrs: tuple[str, ...] = ()
    classes: tuple[str, ...] = ()
    functions: tuple[str, ...] = ()
    texts: tuple[str, ...] = ()
    hidden_packages: tuple[str, ...] = ()
    allowed: tuple[str, ...] = ()  # modules that may define the rule_* mechanism itself


WORLDS = {
    NO_AUTODIFF: World(
        name=NO_AUTODIFF,
        tools=("autodiff",),
        package="minitape",
        # _onehot.py: the one-hot steps of a Jacobian's backward pass (only the layers above
        # import it)
        removed=("minitape/_tape.py", "minitape/_vjp.py", "minitape/_jacobian.py",
                 "minitape/_onehot.py", "minitape/_custom.py", "minitape/autodiff.py",
                 "minitape/_ops/*_grads.py"),
        # a gradient rule attached to a primitive (by its methods or by hand)
        rule_calls=("defvjps", "defvjp", "defraw", "defbatch", "defonehot"),
        rule_attrs=("vjps", "vjp", "raw_vjps", "batch_vjps", "batch_when", "onehot_vjps",
                    "sparse_grad"),
        classes=("GradientTape", "ForwardAccumulator", "_CustomRule", "RegisterGradient",
                 "OneHot"),
        functions=("backward", "_backward_raw", "entry_grads", "jacobian", "batch_jacobian",
                   "jacobian_rows", "vectorized", "custom_gradient", "recompute_grad",
                   "_jvp_by_double_vjp", "observe_backward"),
        texts=("A non-persistent GradientTape can only be used",),
        # Primitive.defvjps/defraw/defbatch themselves (the mechanism) and the device Copy's
        # identity rule: idle where no backward pass exists
        allowed=("minitape/_core.py",),
        hidden_packages=("autograd", "jax", "jaxlib", "torch", "tensorflow", "tf_keras", "keras",
                         "mxnet", "chainer", "theano", "pytensor", "aesara", "tangent",
                         "funsor", "mygrad", "micrograd"),
    ),
}

def _messages(tool: str) -> dict[str, str]:
    """What a placeholder says, per language (``absent.<tool>`` of :mod:`grader.messages`; the
    kernel's language, ``MINITAPE_LANG``, picks one)."""
    from grader.messages import MESSAGES

    return dict(MESSAGES[f"absent.{tool}"])


def world_of(absent) -> str:
    """The world an exercise whose ``absent`` tools are these is graded in ("" for none)."""
    wanted = set(absent or ())
    if not wanted:
        return ""
    for world in WORLDS.values():
        if wanted <= set(world.tools):
            return world.name
    raise WorldError(f"no grading world lacks {', '.join(sorted(wanted))} "
                     f"(known: {', '.join(t for w in WORLDS.values() for t in w.tools)})")


# ------------------------------------------------------------------------------------------
# placeholders
# ------------------------------------------------------------------------------------------
_ABSENT_MODULE = '''"""Placeholder of a grading world (grader/infra/worlds.py): {world}.

The tool this module held is not part of this world; every name below raises ToolAbsent."""

MESSAGES = {messages!r}


class ToolAbsent(RuntimeError):
    """A tool the exercise being graded forbids was used."""


def refuse(name):
    try:
        from ._lang import current_language
        lang = current_language()
    except Exception:
        lang = "en"
    return ToolAbsent(MESSAGES.get(lang, MESSAGES["en"]).format(name=name))


def placeholder_function(name):
    def absent(*args, **kwargs):
        raise refuse(name)
    absent.__name__ = absent.__qualname__ = name.rpartition(".")[2]
    absent.__doc__ = f"{{name}}: not available in this grading world."
    return absent


class ToolAbsentAttribute(ToolAbsent, AttributeError):
    """An attribute of an absent class (``GradientTape.gradient``): also an AttributeError, so
    that ``hasattr`` and ``getattr(..., default)`` say "no"."""


class _AbsentMeta(type):
    def __call__(cls, *args, **kwargs):
        raise refuse(cls._absent_name)

    def __getattr__(cls, name):
        if name.startswith("__"):
            raise AttributeError(name)
        raise ToolAbsentAttribute(refuse(f"{{cls._absent_name}}.{{name}}").args[0])


def placeholder_class(name):
    return _AbsentMeta(name.rpartition(".")[2], (), {{
        "__doc__": f"{{name}}: not available in this grading world.", "_absent_name": name}})
'''


def _public_names(tree: ast.Module) -> dict[str, str]:
    """Top-level names a module defines: name -> "class", "exception", "function" or "value"."""
    kinds: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            bases = [getattr(b, "id", getattr(b, "attr", "")) for b in node.bases]
            exc = any(b.endswith(("Error", "Warning", "Exception")) for b in bases)
            kinds[node.name] = "exception" if exc else "class"
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            kinds[node.name] = "function"
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    value = node.value
                    kinds[target.id] = kinds.get(value.id, "value") if isinstance(value, ast.Name) \
                        else "value"
    return kinds


def _module_name(rel: str) -> str:
    return rel[:-len(".py")].replace("/", ".").removesuffix(".__init__")


def _imports_from(rel: str, tree: ast.Module, removed: set[str]) -> dict[str, set[str]]:
    """{removed module: names this file imports from it} (``from X import a``, any depth)."""
    package = _module_name(rel) if rel.endswith("__init__.py") else _module_name(rel).rpartition(".")[0]
    out: dict[str, set[str]] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom):
            continue
        base = node.module or ""
        if node.level:
            parts = package.split(".")
            if node.level > 1:
                parts = parts[:-(node.level - 1)]
            base = ".".join(parts + ([base] if base else []))
        for alias in node.names:
            if base in removed:
                out.setdefault(base, set()).add(alias.name)
    return out


def _placeholder(module: str, kinds: dict[str, str], needed: set[str], world: World) -> str:
    depth = module.count(".")
    up = "." * depth if depth else "."
    lines = [f'"""{module}: not part of the grading world {world.name!r} (grader/infra/worlds.py).'
             '\n\nEvery name raises ToolAbsent when used."""',
             f"from {up}_absent import ToolAbsent, placeholder_class, placeholder_function, refuse"
             "  # noqa: F401", ""]
    names = {n: k for n, k in kinds.items() if not n.startswith("_") or n in needed}
    names.update({n: "function" for n in needed if n not in names and n != "*"})
    for name in sorted(names):
        kind = names[name]
        qual = f"{world.package}.{name}" if module.startswith(world.package) else name
        if kind == "exception":
            base = "Warning" if name.endswith("Warning") else "Exception"
            lines.append(f"class {name}({base}):\n    pass\n")
        elif kind == "class":
            lines.append(f"{name} = placeholder_class({qual!r})")
        elif kind == "function":
            lines.append(f"{name} = placeholder_function({qual!r})")
        else:
            lines.append(f"{name} = None")
    return "\n".join(lines) + "\n"


def build_world(site: Path, dest: Path, world: World) -> None:
    """Write ``world`` into ``dest`` (empty), from the student site ``site``."""
    # not the site's bytecode: it was compiled from the modules the world replaces (publish
    # compiles the world's own sources)
    files = [p for p in sorted(site.rglob("*")) if p.is_file() and not p.name.startswith(".")
             and "__pycache__" not in p.relative_to(site).parts]
    rels = [p.relative_to(site).as_posix() for p in files]
    removed = {rel for rel in rels if any(Path(rel).match(pattern) or rel == pattern
                                          for pattern in world.removed)}
    if not removed:
        raise WorldError(f"the student site {site} has none of the modules the world "
                         f"{world.name!r} removes")
    removed_modules = {_module_name(rel): rel for rel in removed}
    needed: dict[str, set[str]] = {}
    trees = {}
    for rel, path in zip(rels, files):
        if rel.endswith(".py"):
            try:
                trees[rel] = ast.parse(path.read_text(encoding="utf-8"))
            except SyntaxError as exc:
                raise WorldError(f"cannot read {rel}: {exc}") from None
            if rel not in removed:
                for module, names in _imports_from(rel, trees[rel], set(removed_modules)).items():
                    needed.setdefault(module, set()).update(names)
    for rel, path in zip(rels, files):
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if rel in removed:
            module = _module_name(rel)
            target.write_text(_placeholder(module, _public_names(trees[rel]),
                                           needed.get(module, set()), world), encoding="utf-8")
        else:
            shutil.copy2(path, target)
    (dest / world.package / "_absent.py").write_text(
        _ABSENT_MODULE.format(world=world.name, messages=_messages(world.tools[0])), encoding="utf-8")
    (dest / BLOCKER).write_text(
        f"raise ImportError({'this package is hidden in the grading world ' + world.name!r})\n",
        encoding="utf-8")


def _docstrings(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
    return ids


def absence_problems(folder: Path, world: World) -> list[str]:
    """Where a built world still holds its tool (read with :mod:`ast`, so what a docstring or
    a comment says does not count): a rule attached, a tape class, a backward pass..."""
    problems = []
    for path in sorted((folder / world.package).rglob("*")):
        if not path.is_file():
            continue
        rel = path.relative_to(folder).as_posix()
        if not rel.endswith(".py"):
            if path.suffix in (".pyc", ".pyo", ".so", ".pyd", ".zip", ".whl", ".egg"):
                problems.append(f"{rel}: compiled or archived code in a world")
            continue
        try:
            tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"))
        except SyntaxError as exc:
            problems.append(f"{rel}: unreadable ({exc})")
            continue
        docs = _docstrings(tree)
        for node in ast.walk(tree):
            found = None
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                    node.func.attr in world.rule_calls and rel not in world.allowed:
                found = f".{node.func.attr}(...)"
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and \
                    node.attr in world.rule_attrs and rel not in world.allowed:
                found = f".{node.attr} = ..."
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                    node.func.id == "setattr" and len(node.args) >= 2 and \
                    isinstance(node.args[1], ast.Constant) and node.args[1].value in world.rule_attrs:
                found = f"setattr(..., {node.args[1].value!r}, ...)"
            elif isinstance(node, ast.ClassDef) and node.name in world.classes:
                found = f"class {node.name}"
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                    node.name in world.functions:
                found = f"def {node.name}"
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                    id(node) not in docs and any(text in node.value for text in world.texts):
                found = "the tool's own message text"
            if found:
                problems.append(f"{rel}:{getattr(node, 'lineno', '?')}: {found}")
    return problems


def _spec_digest() -> str:
    return hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:12]


def ensure_world(student_site: str, name: str) -> str:
    """The folder of world ``name`` built from ``student_site`` (built, audited, cached next
    to it); :class:`WorldError` where it cannot be built or the audit finds the tool."""
    from grader.infra.student_site import publish

    world = WORLDS.get(name)
    if world is None:
        raise WorldError(f"unknown grading world {name!r} (known: {', '.join(WORLDS)})")
    site = Path(student_site).resolve()
    folder = site.parent / f"{site.name}-{name}-{_spec_digest()}"
    if (folder / ".audited").is_file():
        return str(folder)
    stage = Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=site.parent))
    try:
        build_world(site, stage, world)
        problems = absence_problems(stage, world)
        if problems:
            raise WorldError(f"the grading world {name!r} would still hold what it must not:\n  "
                             + "\n  ".join(problems[:20]))
        publish(stage, folder, name)
    finally:
        if stage.exists():
            shutil.rmtree(stage, ignore_errors=True)
    return str(folder)


def other_autodiff_dirs(name: str) -> list[str]:
    """Folders (and single-file modules) of the grading Python's other packages that world
    ``name`` hides (``World.hidden_packages``): where they are installed here."""
    out = []
    for package in WORLDS[name].hidden_packages:
        try:
            spec = importlib.util.find_spec(package)
        except (ImportError, ValueError):
            spec = None
        if spec is None:
            continue
        if spec.submodule_search_locations:
            out.extend(os.path.realpath(p) for p in spec.submodule_search_locations)
        elif spec.origin and os.path.isfile(spec.origin):
            out.append(os.path.realpath(spec.origin))
    return sorted(set(out))
