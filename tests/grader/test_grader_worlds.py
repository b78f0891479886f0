"""Grading worlds (grader.infra.worlds): a minitape without its autodiff, for the exercises that
forbid it (lesson 7), built from the student site, audited, and hard to undo from inside.

The kernels themselves (the world's sandbox, a search of every file a world kernel can read)
are tested through the instructor's workflow in tests/grader/test_grader_adversarial.py."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from grader.infra.worlds import (NO_AUTODIFF, WORLDS, WorldError, absence_problems, build_world,
                                 ensure_world, world_of)
from grader.student.registry import all_exercises

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def world() -> str:
    from grader.infra.student_site import ensure

    return ensure_world(ensure(), NO_AUTODIFF)


def _in_world(world: str, code: str, lang: str = "en") -> dict:
    """Run ``code`` in a Python whose importable minitape is the world's; its last line of
    output, as JSON."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env.update(PYTHONPATH=world, MINITAPE_LANG=lang, PYTHONDONTWRITEBYTECODE="1")
    out = subprocess.run([sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {world!r})\n"
                          + code], capture_output=True, text=True, env=env, cwd=world, timeout=120)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


ROUTES = r'''
import importlib, json, os, sys
import minitape as tf
results = {}
def attempt(name, fn):
    try:
        fn()
        results[name] = "OPEN"
    except Exception as exc:
        results[name] = type(exc).__name__ + ": " + str(exc)[:200]
x = tf.Variable(2.0)
GT = tf.GradientTape
attempt("GradientTape", lambda: tf.GradientTape())
attempt("an alias", lambda: GT(persistent=True))
attempt("a method of the class", lambda: tf.GradientTape.gradient)
results["hasattr says no"] = "ToolAbsent: " + str(not hasattr(tf.GradientTape, "jacobian"))
attempt("ForwardAccumulator", lambda: tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)))
attempt("custom_gradient", lambda: tf.custom_gradient(lambda v: (v, lambda g: g))(x))
attempt("RegisterGradient", lambda: tf.RegisterGradient("Sin"))
attempt("recompute_grad", lambda: tf.recompute_grad(lambda v: v)(x))
attempt("minimize", lambda: tf.keras.optimizers.SGD(0.1).minimize(lambda: x * x, [x]))
attempt("_jacobian.jacobian", lambda: importlib.import_module("minitape._jacobian").jacobian(
    None, x, [x], None, None, False))
attempt("_onehot.seeds", lambda: importlib.import_module("minitape._onehot").seeds(
    (2,), tf.float64, 0, 2, None))
attempt("_tape.backward", lambda: importlib.import_module("minitape._tape").backward([], set(), [x], [x]))
def own_code(module):
    m = importlib.import_module(module)
    return sorted(n for n, v in vars(m).items() if callable(v) and not n.startswith("__")
                  and getattr(v, "__module__", "") != "minitape._absent"
                  and not (isinstance(v, type) and issubclass(v, BaseException)))
results["code left in the removed modules"] = {
    m: own_code(m) for m in ("minitape._tape", "minitape._vjp", "minitape._jacobian",
                             "minitape._onehot", "minitape._custom",
                             "minitape.autodiff", "minitape._ops.math_grads",
                             "minitape._ops.raw_grads", "minitape._ops.array_grads")}
def reload_tape():
    import minitape._tape as t
    importlib.reload(t).GradientTape()
attempt("importlib.reload", reload_tape)
def fresh_import():
    for name in [n for n in sys.modules if n == "minitape" or n.startswith("minitape.")]:
        del sys.modules[name]
    import minitape
    minitape.GradientTape()
attempt("sys.modules emptied, imported again", fresh_import)
def source_from_disk():
    import minitape._tape as t
    ns = {"__name__": "minitape._tape", "__package__": "minitape"}
    exec(compile(open(t.__file__).read(), t.__file__, "exec"), ns)
    ns["GradientTape"]()
attempt("its source read from disk", source_from_disk)
import minitape._core as core
rules = sorted(k for k, p in core.REGISTRY.items() if p.differentiable or p.vjps or p.vjp)
# what stays: every forward operation, the debugging module, plain enums and warnings
y = tf.sin(x) * x + tf.reduce_sum(tf.nn.relu(tf.constant([1.0, -2.0])))
from minitape.debugging import draw, stepper
results["forward"] = float(y.numpy())
results["rules"] = rules
print(json.dumps(results))
'''


@pytest.mark.slow  # builds the student site (a wheel) when it is not cached
def test_no_route_to_minitapes_autodiff_is_open_in_the_world(world):
    results = _in_world(world, ROUTES)
    rules = results.pop("rules")
    forward = results.pop("forward")
    left = results.pop("code left in the removed modules")
    assert all(names == [] for names in left.values()), left
    opened = {route: why for route, why in results.items()
              if not why.startswith("ToolAbsent")}
    assert opened == {}, opened
    assert "not available here" in results["GradientTape"]
    assert results["hasattr says no"] == "ToolAbsent: True"
    # the device Copy's identity rule is the only one (no backward pass exists to use it)
    assert rules == ["Copy"], rules
    assert abs(forward - (2.0 * __import__("math").sin(2.0) + 1.0)) < 1e-5


@pytest.mark.slow
def test_the_placeholder_speaks_the_kernels_language(world):
    out = _in_world(world, "import json, minitape as tf\ntry:\n    tf.GradientTape()\n"
                           "except Exception as e:\n    print(json.dumps(str(e)))\n", lang="es")
    assert out.startswith("minitape.GradientTape no está disponible aquí")


def test_the_world_replaces_exactly_minitapes_autodiff_layers():
    """The removed modules are the autodiff layers of docs/architecture.md (as
    tests/test_layout.py lists them): a new module of those layers is removed too."""
    sys.path.insert(0, str(REPO / "tests"))
    try:
        from test_layout import LAYERS
    finally:
        sys.path.pop(0)
    # (_onehot, the one-hot steps of a Jacobian's backward pass, sits below the operations,
    # whose one-hot rules import it, but is autodiff all the same)
    autodiff = [layer for layer in LAYERS if layer & {"minitape._ops.*_grads", "minitape._tape",
                                                       "minitape._custom", "minitape.autodiff",
                                                       "minitape._onehot"}]
    names = sorted(n for layer in autodiff for n in layer if n != "minitape._recording")
    expected = sorted(n.replace(".", "/") + ".py" for n in names)
    assert sorted(WORLDS[NO_AUTODIFF].removed) == expected


def _fake_site(root: Path) -> Path:
    """A student site with the real minitape in it (copied from this checkout)."""
    site = root / "site"
    shutil.copytree(REPO / "minitape", site / "minitape",
                    ignore=shutil.ignore_patterns("__pycache__"))
    return site


def test_a_world_that_would_still_hold_the_tool_is_refused(tmp_path):
    site = _fake_site(tmp_path)
    # a gradient rule attached outside the autodiff layers (a docstring saying so is no rule)
    (site / "minitape" / "_sneaky.py").write_text(
        '"""Mentions REGISTRY["Sin"].defvjps(rule) and class GradientTape: only words."""\n'
        "from ._core import REGISTRY\n\n"
        "def install():\n    REGISTRY['Sin'].defvjps(lambda g, ans, x: g)\n")
    dest = tmp_path / "world"
    build_world(site, dest, WORLDS[NO_AUTODIFF])
    problems = absence_problems(dest, WORLDS[NO_AUTODIFF])
    assert problems == ["minitape/_sneaky.py:5: .defvjps(...)"], problems
    (site / "minitape" / "_sneaky.py").unlink()
    (site / "minitape" / "_copy.py").write_text(
        "class GradientTape:\n    pass\n\nclass OneHot:\n    pass\n\n"
        "def batch_jacobian(*a):\n    pass\n")
    shutil.rmtree(dest)
    build_world(site, dest, WORLDS[NO_AUTODIFF])
    assert [p.split(": ")[1] for p in absence_problems(dest, WORLDS[NO_AUTODIFF])] == \
        ["class GradientTape", "class OneHot", "def batch_jacobian"]
    with pytest.raises(WorldError, match="_copy.py"):
        ensure_world(str(site), NO_AUTODIFF)


def test_sites_and_worlds_ship_bytecode_of_their_own_sources(tmp_path, world):
    """The read-only student site and each world hold checked-hash bytecode compiled from
    their own audited sources (else every zygote compiled them again); a world never takes
    the site's bytecode of the modules it replaces."""
    import importlib.util

    from grader.infra.student_site import ensure

    site = Path(ensure())
    tag = sys.implementation.cache_tag
    for folder in (site, Path(world)):
        sources = [p for p in folder.rglob("*.py")]
        assert sources
        for source in sources:
            pyc = Path(importlib.util.cache_from_source(str(source)))
            assert pyc.is_file() and f".{tag}." in pyc.name, source
            flags = int.from_bytes(pyc.read_bytes()[4:8], "little")
            assert flags == 0b11, (pyc, flags)  # hash-based, checked against the source
    removed = WORLDS[NO_AUTODIFF].removed[0]
    ours = Path(importlib.util.cache_from_source(str(Path(world) / removed))).read_bytes()
    sites = Path(importlib.util.cache_from_source(str(site / removed))).read_bytes()
    assert ours[8:16] != sites[8:16]  # the source hash: the placeholder's, not the module's
    # a fake site with bytecode of its own: the world is built from the sources alone
    fake = _fake_site(tmp_path)
    import compileall

    assert compileall.compile_dir(fake, quiet=2)
    dest = tmp_path / "world"
    build_world(fake, dest, WORLDS[NO_AUTODIFF])
    assert not list(dest.rglob("*.pyc"))
    assert absence_problems(dest, WORLDS[NO_AUTODIFF]) == []


def test_only_exercises_that_forbid_a_tool_are_graded_in_a_world():
    worlds = {ex_id: world_of(ex.absent) for ex_id, ex in all_exercises().items()}
    assert {ex_id for ex_id, w in worlds.items() if w} == {f"l07_ex{i}" for i in range(1, 6)}
    assert {w for w in worlds.values() if w} == {NO_AUTODIFF}
    with pytest.raises(WorldError):
        world_of(("teleportation",))
