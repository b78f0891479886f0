"""The project's structure, as the README's architecture section draws it.

Every import in course_lang/, minitape/, lessons/ and grader/ (at module level or inside a
function: a lazy import is still an arrow) is read with ``ast``; the tests assert there is no
import circle, that no arrow runs back up (course_lang, the course's language rules, imports
nothing but the standard library; minitape imports neither lessons nor grader; grader does not
import lessons; inside minitape each module imports only from its own layer or below), and that
no file in minitape/ is over 700 lines.
"""
from __future__ import annotations

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGES = ("course_lang", "minitape", "lessons", "grader")

# minitape's layers, bottom first (README, "Architecture"). A module may import from its own
# layer or any layer below it, never above.
LAYERS = [
    {"course_lang"},  # the course's language rules: below minitape.debugging, grader and lessons
    {"minitape.errors", "minitape.nest", "minitape._lang", "minitape._state"},
    {"minitape.dtypes", "minitape._backend"},
    {"minitape._device", "minitape.config"},
    {"minitape._trace"},
    {"minitape._tensor"},
    {"minitape._indexed_slices"},
    {"minitape._core"},
    {"minitape._ops._adapt"},
    {"minitape._ops.*_ops", "minitape._ops.operators"},
    {"minitape._ops.*_grads"},
    {"minitape._ops"},
    {"minitape._tape", "minitape._jacobian", "minitape._recording"},
    {"minitape._custom"},
    {"minitape.autodiff"},
    {"minitape.debugging.*", "minitape.debugging"},
]


def _modules():
    mods = {}
    for pkg in PACKAGES:
        for p in (ROOT / pkg).rglob("*.py"):
            name = ".".join(p.relative_to(ROOT).with_suffix("").parts)
            mods[name.removesuffix(".__init__")] = p
    return mods


MODULES = _modules()


def _targets(mod, node):
    path = MODULES[mod]
    package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
    names = []
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    else:
        base = node.module or ""
        if node.level:
            parts = package.split(".")
            if node.level > 1:
                parts = parts[:-(node.level - 1)]
            base = ".".join(parts + ([base] if base else []))
        names = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names]
    out = set()
    for n in names:
        while n and n not in MODULES:
            n = n.rpartition(".")[0]
        if n and n != mod:
            out.add(n)
    return out


def _graph():
    edges = {}
    for mod, path in MODULES.items():
        edges[mod] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                edges[mod] |= _targets(mod, node)
    return edges


EDGES = _graph()


def _cycles(edges):
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = 0
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
    return found


def _layer(mod):
    for k, layer in enumerate(LAYERS):
        for pattern in layer:
            if pattern == mod:
                return k
            if "*" in pattern:
                prefix, _, suffix = pattern.partition("*")
                if mod.startswith(prefix) and mod.endswith(suffix) and "." not in mod[len(prefix):]:
                    return k
    return None  # the public layer: minitape/__init__.py and the modules it exposes


def test_the_graph_was_read():
    assert len(MODULES) > 60
    assert "minitape._state" in EDGES["minitape._core"] or "minitape._state" in EDGES["minitape._tensor"]
    assert "course_lang" in EDGES["grader.i18n"]


def test_cycle_detection_finds_a_circle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_circle_anywhere():
    assert _cycles(EDGES) == []


@pytest.mark.parametrize("low, high", [("minitape", "lessons"), ("minitape", "grader"),
                                       ("grader", "lessons"), ("course_lang", "minitape"),
                                       ("course_lang", "grader"), ("course_lang", "lessons")])
def test_no_arrow_runs_back_up_between_packages(low, high):
    bad = sorted(f"{m} -> {t}" for m, ts in EDGES.items() if m.split(".")[0] == low
                 for t in ts if t.split(".")[0] == high)
    assert bad == []


def test_every_engine_module_has_a_layer():
    public = {m for m in MODULES if m.startswith("minitape") and _layer(m) is None}
    # the public layer: the package and the modules it exposes; nothing below imports them
    for m in public:
        below = [src for src, ts in EDGES.items() if m in ts and _layer(src) is not None]
        assert below == [], f"{m} is imported from below: {below}"


def test_engine_reads_bottom_up():
    bad = []
    for mod, targets in EDGES.items():
        k = _layer(mod)
        if k is None:
            continue
        for t in targets:
            kt = _layer(t)
            if t.startswith("minitape") and (kt is None or kt > k):
                bad.append(f"{mod} (layer {k}) -> {t} (layer {kt})")
    assert bad == []


def test_no_engine_file_over_700_lines():
    long = {str(p.relative_to(ROOT)): n for m, p in MODULES.items() if m.startswith("minitape")
            for n in [len(p.read_text(encoding="utf-8").splitlines())] if n > 700}
    assert long == {}


def test_the_language_home_is_a_leaf_below_its_users():
    """course_lang imports only the standard library (the lite build loads it without NumPy),
    and minitape.debugging, lessons and grader take their language from it."""
    import sys

    path = MODULES["course_lang"]
    imported = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            imported |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level:
            imported.add((node.module or "").split(".")[0])
    assert imported and imported <= set(sys.stdlib_module_names) | {"__future__"}, imported
    assert _layer("course_lang") < _layer("minitape._lang") < _layer("minitape.debugging.view")
    for user in ("minitape._lang", "minitape.debugging.view", "minitape.debugging.messages",
                 "lessons.i18n", "grader.i18n"):
        assert "course_lang" in EDGES[user], user
