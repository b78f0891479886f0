"""A lesson's code cells under two engines: ``import minitape as tf`` and ``import tensorflow as tf``.

The cells come from the one source (``lessons/src/NN-name.py``, :mod:`lessons.source`), in order,
in one namespace, as one Jupyter kernel runs them (one process per lesson and engine, whatever
the language: code is shared by the four languages). The only change for TensorFlow is the
import line. What each cell does is recorded as data (:func:`run_lesson`):

* whether it raised, and the exception's class and message;
* its printed text (stdout) and the warnings it gave (Python warnings and the ``tensorflow``
  logger's records: what a notebook shows);
* the value of its last expression (what Jupyter displays) and of every global name it assigned,
  encoded as type, dtype, shape and values (:func:`tests.support.tfdiff.encode`);
* the figures it showed (``plt.show()``): their text alternative and, per line drawn, its label
  and line style.

Cells marked ``tf="course"`` in the source use the course's own tools (``minitape.debugging``,
``lessons.widgets``, ``grader.check``); they do not exist in TensorFlow and are skipped there (they
run under minitape, as in the lesson: a later cell that needs one of their names then differs).
Exercise tests cells are the course's by their role. :func:`compare_cells`
compares two runs cell by cell; ``tests/lessons/test_lessons_tensorflow.py`` runs both and
fails on every difference that the lesson does not declare.

Run as a script (``python -m tests.support.lesson_engines ENGINE LESSON``), it prints the JSON of
one run as its last line: the TensorFlow tier starts it with ``.venv-tf``'s interpreter.
"""
from __future__ import annotations

import ast
import contextlib
import io
import json
import math
import os
import re
import sys
import time
import warnings
from pathlib import Path

# TensorFlow's Python log records from WARNING up, collected as the engine differential does
from tests.support.tfdiff import _LogCapture

REPO = Path(__file__).resolve().parents[2]
ENGINES = ("minitape", "tensorflow")
IMPORT_LINE = re.compile(r"^import minitape as tf$", re.M)

# what a cell's ``tf=`` attribute may say (lessons/README.md, "Code that runs under TensorFlow")
TF_COURSE, TF_RANDOM, TF_DIFFERS = "course", "random", "differs"
# TensorFlow's own tf.function machinery (its jacobian runs through pfor) logs retracing warnings;
# minitape has no tracing (docs/tensorflow-differences.md), so these lines are not compared
TF_ONLY_WARNINGS = re.compile(r"triggered tf\.function retracing")


def lesson_cells(name: str) -> list[dict]:
    """The code cells of lesson ``name`` (``"01-gradients"`` or ``"01"``), in order."""
    from lessons.source import load_lessons

    (lesson,) = load_lessons(only=[name])
    cells = []
    for cell in lesson.code:
        mode = cell.tf or (TF_COURSE if cell.role == "tests" else None)
        cells.append({"key": cell.key, "line": cell.line, "source": cell.source, "role": cell.role,
                      "grade_id": cell.grade_id, "tf": mode})
    return cells


def engine_source(source: str, engine: str) -> str:
    """The cell as it runs under ``engine``: the one import line changes."""
    if engine == "tensorflow":
        return IMPORT_LINE.sub("import tensorflow as tf", source)
    return source


def _assigned_names(tree: ast.Module) -> list[str]:
    """Global names a cell binds with ``=``, ``+=``, ``for``, ``with ... as`` (not defs, imports)."""
    names: list[str] = []

    def targets(node):
        if isinstance(node, ast.Name):
            names.append(node.id)
        elif isinstance(node, (ast.Tuple, ast.List)):
            for elt in node.elts:
                targets(elt)
        elif isinstance(node, ast.Starred):
            targets(node.value)

    for node in tree.body:
        stmts = [node]
        if isinstance(node, (ast.With, ast.For, ast.If, ast.Try)):
            stmts += list(ast.walk(node))
        for stmt in stmts:
            if isinstance(stmt, ast.Assign):
                for target in stmt.targets:
                    targets(target)
            elif isinstance(stmt, (ast.AugAssign, ast.AnnAssign)):
                targets(stmt.target)
            elif isinstance(stmt, ast.For):
                targets(stmt.target)
            elif isinstance(stmt, ast.With):
                for item in stmt.items:
                    if item.optional_vars is not None:
                        targets(item.optional_vars)
    return list(dict.fromkeys(names))


def _encodable(value, depth=0) -> bool:
    """Values worth comparing: tensors, arrays, numbers, strings, None, and lists/dicts of them."""
    if depth > 4:
        return False
    if value is None or isinstance(value, (bool, int, float, str)):
        return True
    if isinstance(value, (list, tuple)):
        return len(value) <= 400 and all(_encodable(v, depth + 1) for v in value)
    if isinstance(value, dict):  # keyed by names (not by id(), which differs between processes)
        return len(value) <= 100 and all(isinstance(k, str) for k in value) and \
            all(_encodable(v, depth + 1) for v in value.values())
    module = type(value).__module__.split(".")[0]
    if module == "numpy":
        return True
    return hasattr(value, "numpy") and hasattr(value, "dtype") and hasattr(value, "shape")


MAX_ELEMENTS = 4096  # larger arrays are compared by a summary (sum, mean of squares, extremes)


def _encode(value):
    """:func:`tests.support.tfdiff.encode`, with Keras 3's string dtypes and large arrays summed up."""
    import numpy as np

    from tests.support import tfdiff

    if not _encodable(value):
        return {"kind": "other", "type": type(value).__name__}
    if isinstance(value, (list, tuple)):
        return {"kind": "list", "items": [_encode(v) for v in value]}
    if isinstance(value, dict):
        return {"kind": "dict", "items": {str(k): _encode(v) for k, v in value.items()}}
    is_tensor = hasattr(value, "numpy") and hasattr(value, "dtype") and not isinstance(value, np.ndarray)
    if is_tensor or isinstance(value, (np.ndarray, np.generic)):
        a = np.asarray(value.numpy() if is_tensor else value)
        dtype = getattr(value.dtype, "name", None) or str(value.dtype) if is_tensor else a.dtype.name
        out = {"kind": "tensor" if is_tensor else "ndarray", "dtype": str(dtype), "shape": list(a.shape)}
        if a.size > MAX_ELEMENTS and a.dtype.kind in "fiub":
            f = a.astype(np.float64)
            out["value"] = [float(f.sum()), float((f * f).mean()), float(f.min()), float(f.max())]
        else:
            out["value"] = tfdiff.encode(a)["value"]
        return out
    return tfdiff.encode(value)


class _Figures:
    """``plt.show()`` records what each figure draws (its text alternative, its lines) and closes it."""

    def __init__(self):
        self.shown: list[dict] = []

    def show(self, *args, **kwargs):
        import matplotlib.pyplot as plt

        for number in plt.get_fignums():
            fig = plt.figure(number)
            self.shown.append(figure_record(fig))
        plt.close("all")


def figure_record(fig) -> dict:
    """What a figure draws, as data: its text alternative, and per line its label and style."""
    from lessons.figures import _ALT

    lines = []
    texts = []
    for ax in fig.axes:
        for line in ax.get_lines():
            lines.append({"label": str(line.get_label()), "linestyle": str(line.get_linestyle()),
                          "marker": str(line.get_marker()), "points": len(line.get_xdata())})
        texts += [ax.get_xlabel(), ax.get_ylabel(), ax.get_title()]
        for patch in ax.patches:
            lines.append({"label": str(patch.get_label()), "linestyle": "bar", "marker": "None",
                          "points": 1, "hatch": patch.get_hatch() or ""})
    return {"alt": getattr(fig, _ALT, None), "lines": lines, "texts": [t for t in texts if t],
            "yscales": [ax.get_yscale() for ax in fig.axes]}


_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


_CELLS_RUN = [0]


def run_cell(env: dict, source: str, figures: _Figures) -> dict:
    """Run one cell in ``env`` as Jupyter does; what it printed, warned, raised and bound."""
    import linecache

    from tests.support import tfdiff

    _CELLS_RUN[0] += 1
    filename = f"<cell {_CELLS_RUN[0]}>"  # as IPython keeps a cell's source for inspect and tracebacks
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    tree = ast.parse(source)
    names = _assigned_names(tree)
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = ast.Expression(tree.body.pop().value)
    stdout = io.StringIO()
    result = {"stdout": "", "warnings": [], "error": None, "display": None, "values": {},
              "figures": [], "seconds": 0.0}
    shown_before = len(figures.shown)
    start = time.perf_counter()
    with warnings.catch_warnings(record=True) as caught, _LogCapture() as logs, \
            contextlib.redirect_stdout(stdout):
        try:
            exec(compile(tree, filename, "exec"), env)
            if last is not None:
                value = eval(compile(last, filename, "eval"), env)
                if value is not None:
                    result["display"] = _encode(value)
        except Exception as error:  # noqa: BLE001 - what the student sees is compared
            result["error"] = {"type": type(error).__name__,
                               "msg": _ADDRESS.sub(" at 0x…", tfdiff.normalize_message(error))}
    figures.show()  # the inline backend shows every figure left open at the end of a cell
    result["seconds"] = round(time.perf_counter() - start, 3)
    result["stdout"] = _ADDRESS.sub(" at 0x…", stdout.getvalue())
    result["warnings"] = [f"{w.category.__name__}: {w.message}" for w in caught
                          if not issubclass(w.category, (DeprecationWarning, PendingDeprecationWarning))]
    result["warnings"] += [f"tensorflow log: {m}" for m in logs.records]
    for name in names:
        if name in env:
            result["values"][name] = _encode(env[name])
    result["figures"] = figures.shown[shown_before:]
    return result


def run_lesson(name: str, engine: str) -> dict:
    """Every code cell of lesson ``name`` under ``engine``, in one namespace (one kernel)."""
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {ENGINES}, got {engine!r}")
    os.environ.setdefault("MPLBACKEND", "Agg")
    os.environ["MINITAPE_LANG"] = "en"
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figures = _Figures()

    def show(*args, **kwargs):  # a plain function, as pyplot's own (matplotlib inspects it)
        figures.show()

    plt.show = show
    start = time.perf_counter()
    cells = lesson_cells(name)
    env: dict = {"__name__": "__main__"}
    out = []
    for cell in cells:
        record = {"key": cell["key"], "line": cell["line"], "role": cell["role"],
                  "grade_id": cell["grade_id"], "tf": cell["tf"], "ran": False}
        if engine == "minitape" or cell["tf"] != TF_COURSE:
            record.update(run_cell(env, engine_source(cell["source"], engine), figures))
            record["ran"] = True
        out.append(record)
    version = None
    if engine == "tensorflow":
        import tensorflow as tf

        version = tf.__version__
    solutions = {cell["grade_id"]: grade_solution(cell["grade_id"], env, engine)
                 for cell in cells if cell["role"] == "tests"}
    from tests.support import claims

    checked = claims.run_engine_claims(name, engine, tf_module(engine), out, env)
    return {"lesson": name, "engine": engine, "version": version, "cells": out,
            "solutions": solutions, "claims": checked, "seconds": round(time.perf_counter() - start, 2)}


def tf_module(engine: str):
    import importlib

    return importlib.import_module(engine)


def grade_solution(exercise_id: str, env: dict, engine: str) -> list[dict]:
    """The reference solution the lesson's solution cell defined in ``env``, graded on the
    exercise's visible cases with the grader's own rules (``judge_case``), its inputs built with
    ``engine``'s tensors, layers and optimizers (``grader.wire.build_input``)."""
    import importlib

    from grader.student.registry import Inputs
    from grader.student.runner import judge_case
    from grader.student.visible import _load, visible_exercise
    from grader.wire import build_input

    module = importlib.import_module(engine)
    ex = visible_exercise(exercise_id)
    entry = _load()[exercise_id]
    func = env.get(ex.function)
    results = []
    for i, (case, data) in enumerate(zip(ex.visible, entry["visible"])):
        label = case.label if isinstance(case.label, str) else f"#{i + 1}"
        inputs = Inputs(args=build_input(data["args"], module), kwargs=build_input(data["kwargs"], module))
        try:
            answer = func(*inputs.args, **inputs.kwargs)
        except Exception as error:  # noqa: BLE001 - reported as the case's failure
            results.append({"case": label, "passed": False,
                            "messages": [f"raised {type(error).__name__}: {error}"[:500]]})
            continue
        checks = judge_case(ex, case, label, False, 1000 + i, "en", answer=answer, inputs=inputs,
                            expected=case.expected)
        results.append({"case": label, "passed": all(c.passed for c in checks),
                        "messages": [c.message for c in checks if not c.passed]})
    return results


# ---------------------------------------------------------------------------------------------
# Comparing two runs
# ---------------------------------------------------------------------------------------------
RTOL = {"float16": 1e-2, "bfloat16": 1e-2, "float32": 1e-4, "complex64": 1e-4}
RTOL_DEFAULT = 1e-9  # float64, and Python floats
_NUMBER = re.compile(r"-?\d+\.\d*(?:e[-+]?\d+)?|-?\d+e[-+]?\d+|-?\bnan\b|-?\binf\b")


def _close_values(exp: list, got: list, dtype: str, *, loose: bool = False) -> bool:
    def arr(values):
        import numpy as np

        return np.array([math.nan if v == "nan" else math.inf if v == "inf" else -math.inf
                         if v == "-inf" else v for v in values], dtype=np.float64)

    import numpy as np

    e, g = arr(exp), arr(got)
    if e.shape != g.shape:
        return False
    rtol = 1e-4 if loose else RTOL.get(dtype, RTOL_DEFAULT)
    finite = np.isfinite(e)
    scale = max(1.0, float(np.max(np.abs(e[finite])))) if finite.any() else 1.0
    return bool(np.allclose(g, e, rtol=rtol, atol=rtol * scale, equal_nan=True))


def compare_encoded(expected, got, path: str, *, values: bool = True) -> list[str]:
    """Differences between two encodings (minitape's ``got`` against TensorFlow's ``expected``):
    kind, Python type, dtype, shape, and (``values``) the values at float32's or float64's
    tolerance."""
    if expected is None or got is None:
        return [] if expected == got else [f"{path}: TensorFlow {expected!r}, minitape {got!r}"]
    if expected["kind"] != got["kind"]:
        return [f"{path}: TensorFlow gives {expected['kind']} "
                f"{expected.get('type') or expected.get('dtype') or ''}, minitape {got['kind']} "
                f"{got.get('type') or got.get('dtype') or ''}"]
    kind = expected["kind"]
    if kind == "none":
        return []
    if kind in ("list", "dict"):
        e, g = expected["items"], got["items"]
        if len(e) != len(g) or (kind == "dict" and set(e) != set(g)):
            return [f"{path}: TensorFlow gives {len(e)} items, minitape {len(g)}"]
        keys = e if kind == "dict" else range(len(e))
        return [d for k in keys for d in compare_encoded(e[k], g[k], f"{path}[{k!r}]", values=values)]
    if kind == "py":
        if expected["type"] != got["type"]:
            return [f"{path}: TensorFlow gives a Python {expected['type']}, minitape a {got['type']}"]
        if not values:
            return []
        if expected["type"] == "float":
            ok = _close_values([expected["value"]], [got["value"]], "float64", loose=True)
        else:
            ok = expected["value"] == got["value"]
        return [] if ok else [f"{path}: TensorFlow {expected['value']!r}, minitape {got['value']!r}"]
    if kind in ("other", "error"):
        if expected.get("type") != got.get("type"):
            return [f"{path}: TensorFlow gives a {expected.get('type')}, minitape a {got.get('type')}"]
        return []
    diffs = []
    if expected["dtype"] != got["dtype"]:
        diffs.append(f"{path}: dtype {expected['dtype']} in TensorFlow, {got['dtype']} in minitape")
    if expected["shape"] != got["shape"]:
        diffs.append(f"{path}: shape {expected['shape']} in TensorFlow, {got['shape']} in minitape")
    elif values and expected["dtype"] == got["dtype"]:
        if expected["dtype"] in ("bool",) or expected["dtype"].startswith(("int", "uint")):
            ok = expected["value"] == got["value"]
        else:
            ok = _close_values(expected["value"], got["value"], expected["dtype"])
        if not ok:
            diffs.append(f"{path}: values differ: TensorFlow {expected['value'][:6]}, "
                         f"minitape {got['value'][:6]}")
    return diffs


def _skeleton(text: str) -> str:
    return re.sub(r"[ ]+", " ", _NUMBER.sub("#", text)).replace("[ ", "[").replace(" ]", "]")


def text_agrees(expected: str, got: str, *, values: bool = True) -> bool:
    """Equal texts, or texts that differ only in their decimal numbers, which agree to 1e-4
    relative (float32's printed digits); with ``values=False`` any numbers do."""
    if expected == got:
        return True
    if _skeleton(expected) != _skeleton(got):
        return False
    if not values:
        return True
    e, g = _NUMBER.findall(expected), _NUMBER.findall(got)
    return len(e) == len(g) and all(
        a == b or (not math.isnan(float(a)) and math.isclose(float(a), float(b), rel_tol=1e-4, abs_tol=1e-6))
        for a, b in zip(e, g))


def compare_cell(tf_cell: dict, mt_cell: dict) -> list[str]:
    """Every difference between one cell's TensorFlow run and its minitape run; a ``tf="random"``
    cell (values from random initial weights) is compared on everything but its numbers."""
    values = tf_cell.get("tf") != TF_RANDOM
    diffs = []
    e, g = tf_cell["error"], mt_cell["error"]
    if (e is None) != (g is None):
        diffs.append(f"raised: TensorFlow {e and e['type']!r} ({e and e['msg'][:200]!r}), "
                     f"minitape {g and g['type']!r} ({g and g['msg'][:200]!r})")
    elif e is not None and e["type"] != g["type"]:
        diffs.append(f"raised: TensorFlow {e['type']}, minitape {g['type']}")
    if not text_agrees(tf_cell["stdout"], mt_cell["stdout"], values=values):
        diffs.append(f"printed: TensorFlow {tf_cell['stdout'][-600:]!r}\n"
                     f"         minitape   {mt_cell['stdout'][-600:]!r}")
    tf_warnings = [w for w in tf_cell["warnings"] if not TF_ONLY_WARNINGS.search(w)]
    if tf_warnings != mt_cell["warnings"]:
        diffs.append(f"warnings: TensorFlow {tf_cell['warnings']!r}, minitape {mt_cell['warnings']!r}")
    diffs += compare_encoded(tf_cell["display"], mt_cell["display"], "displayed", values=values)
    for name in sorted(set(tf_cell["values"]) | set(mt_cell["values"])):
        diffs += compare_encoded(tf_cell["values"].get(name), mt_cell["values"].get(name), name,
                                 values=values)
    if len(tf_cell["figures"]) != len(mt_cell["figures"]):
        diffs.append(f"figures: TensorFlow shows {len(tf_cell['figures'])}, minitape "
                     f"{len(mt_cell['figures'])}")
    else:
        for i, (ef, gf) in enumerate(zip(tf_cell["figures"], mt_cell["figures"])):
            strip = [{k: v for k, v in line.items()} for line in ef["lines"]]
            if strip != gf["lines"] or ef["alt"] != gf["alt"]:
                diffs.append(f"figure {i}: TensorFlow {ef['lines']!r}, minitape {gf['lines']!r}")
    return diffs


def summarize(tf_run: dict, mt_run: dict) -> str:
    """One line per lesson: cells compared, the same, the course's own, random, differing."""
    diffs = compare_runs(tf_run, mt_run)
    modes = [c["tf"] for c in tf_run["cells"]]
    same = sum(1 for c in tf_run["cells"] if c["ran"] and not diffs.get(c["key"]))
    return (f"{tf_run['lesson']}: {len(modes)} code cells; {len(diffs)} run under both engines, "
            f"{same} the same ({modes.count(TF_RANDOM)} of them compared without their random "
            f"numbers), {sum(1 for k, d in diffs.items() if d)} differ "
            f"({modes.count(TF_DIFFERS)} marked tf=\"differs\"); {modes.count(TF_COURSE)} the "
            f"course's own (tf=\"course\" or an exercise's tests cell); TensorFlow "
            f"{tf_run['seconds']} s, minitape {mt_run['seconds']} s")


def compare_runs(tf_run: dict, mt_run: dict) -> dict[str, list[str]]:
    """``{cell key: differences}`` for every cell that ran under both engines."""
    out = {}
    for tc, mc in zip(tf_run["cells"], mt_run["cells"]):
        assert tc["key"] == mc["key"], (tc["key"], mc["key"])
        if tc["ran"] and mc["ran"]:
            out[tc["key"]] = compare_cell(tc, mc)
    return out


def run_in_subprocess(name: str, engine: str, python: str | os.PathLike | None = None,
                      timeout: float = 600) -> dict:
    """:func:`run_lesson` in a fresh interpreter (a fresh kernel: Keras' layer names start again)."""
    import subprocess

    env = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3", "PYTHONPATH": str(REPO),
           "MPLBACKEND": "Agg", "PYTHONHASHSEED": "0"}
    env.pop("JPY_SESSION_NAME", None)
    proc = subprocess.run([str(python or sys.executable), "-m", "tests.support.lesson_engines",
                           engine, name], cwd=REPO, capture_output=True, text=True,
                          timeout=timeout, env=env, check=False)
    if proc.returncode != 0 or not proc.stdout.strip():
        raise RuntimeError(f"running lesson {name} under {engine} failed "
                           f"(exit {proc.returncode}):\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])




# ---------------------------------------------------------------------------------------------
# Honest answers (tests/grader/test_honest_answers.py): graded in the lesson's own namespace
# ---------------------------------------------------------------------------------------------
def _map_leaves(value, fn):
    if isinstance(value, dict):
        return {k: _map_leaves(v, fn) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_map_leaves(v, fn) for v in value)
    return fn(value)


def _is_tensor(value) -> bool:
    return hasattr(value, "numpy") and hasattr(value, "dtype") and hasattr(value, "shape")


def honest_transform(name: str, tf):
    """``(inputs, output)`` functions of one honest transform (tests/grader/honest_answers.py)."""
    import numpy as np

    def same(value):
        return value

    def to_numpy(value):
        return np.asarray(value.numpy()) if _is_tensor(value) else value

    def to_python(value):
        if _is_tensor(value) or isinstance(value, (np.ndarray, np.generic)):
            arr = np.asarray(value.numpy() if _is_tensor(value) else value)
            return arr.item() if arr.ndim == 0 else arr.tolist()
        return value

    def to_tuples(value):
        if isinstance(value, dict):
            return {k: to_tuples(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return tuple(to_tuples(v) for v in value)
        return value

    def to_float32(value):
        if _is_tensor(value) and value.dtype.is_floating:
            return tf.cast(value, tf.float32)
        if isinstance(value, (np.ndarray, np.generic)) and np.asarray(value).dtype.kind == "f":
            return np.asarray(value, dtype=np.float32)
        if type(value) is float:
            return np.float32(value)
        return value

    def to_int(value):
        arr = np.asarray(value.numpy() if _is_tensor(value) else value) \
            if (_is_tensor(value) or isinstance(value, (float, np.ndarray, np.generic))) else None
        if arr is not None and arr.dtype.kind == "f" and np.all(np.isfinite(arr)) and \
                np.all(arr == np.round(arr)) and np.all(np.abs(arr) < 2**31):
            return int(arr) if arr.ndim == 0 else arr.astype(np.int64)
        return value

    def inputs_float32(value):
        if isinstance(value, tf.Variable) and value.dtype == tf.float64:
            return tf.Variable(value.numpy().astype(np.float32), trainable=value.trainable)
        if _is_tensor(value) and not isinstance(value, tf.Variable) and value.dtype == tf.float64:
            return tf.constant(value.numpy().astype(np.float32))
        if isinstance(value, np.ndarray) and value.dtype == np.float64:
            return value.astype(np.float32)
        return value

    outputs = {"numpy": to_numpy, "python": to_python, "float32": to_float32, "int": to_int}
    if name == "tuple":
        return same, to_tuples
    if name == "float32_inputs":
        return inputs_float32, same
    return same, outputs[name]


def grade_honest(name: str, variants: dict, transforms: dict, examples: list, seeds: list) -> dict:
    """In the namespace of lesson ``name`` (its cells run under minitape, as a notebook runs
    them), grade each variant (a list of cells, run in a copy of the namespace) and each
    transform of the lesson's own solution with every hidden check, at ``seeds``; evaluate the
    worked examples with the ``LITERAL`` variant. ``{"scores": {exercise: {variant: [score,
    ...]}}, "points": {exercise: points}, "examples": [[expression, value or error], ...]}``."""
    import contextlib
    import io

    import numpy as np

    import minitape as tf
    from grader.student.registry import get
    from grader.student.runner import run_exercise

    os.environ["MINITAPE_LANG"] = "en"
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.show = lambda *args, **kwargs: plt.close("all")
    env: dict = {"__name__": "__main__"}
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for cell in lesson_cells(name):
            if cell["tf"] == TF_COURSE:
                continue
            exec(compile(cell["source"], f"<{cell['key']}>", "exec"), env)
    scores: dict = {}
    points: dict = {}

    def grade(ex_id, namespace):
        ex = get(ex_id)
        # an optional exercise is worth 0 points: the share of its checks passed stands for them
        points[ex_id] = ex.points or 1.0
        out = []
        for seed in seeds:
            with contextlib.redirect_stdout(io.StringIO()):
                result = run_exercise(ex, namespace, include_hidden=True, seed=seed, lang="en")
            score = result.score if ex.points else round(
                sum(c.weight for c in result.checks if c.passed) / result.total_weight, 4)
            out.append([score, [f"{c.label}: {c.message}" for c in result.checks if not c.passed][:3]])
        return out

    for ex_id, named in variants.items():
        for variant, cells in named.items():
            namespace = dict(env)
            try:
                for cell in cells:
                    exec(compile(cell, f"<{ex_id}: {variant}>", "exec"), namespace)
            except Exception as error:  # noqa: BLE001 - reported as the variant's failure
                scores.setdefault(ex_id, {})[variant] = [[0.0, [f"its cells raised {error!r}"]]]
                continue
            scores.setdefault(ex_id, {})[variant] = grade(ex_id, namespace)
    for ex_id, names in transforms.items():
        function = get(ex_id).function
        for transform in names:
            into, out = honest_transform(transform, tf)
            solution = env[function]

            def wrapped(*args, _solution=solution, _into=into, _out=out, **kwargs):
                return _map_leaves(_solution(*_map_leaves(args, _into), **_map_leaves(kwargs, _into)), _out)

            namespace = dict(env)
            namespace[function] = wrapped
            scores.setdefault(ex_id, {})[f"transform: {transform}"] = grade(ex_id, namespace)
    results = []
    for ex_id, expression in examples:
        namespace = dict(env)
        for cell in variants[ex_id]["literal"] if "literal" in variants.get(ex_id, {}) else []:
            exec(compile(cell, f"<{ex_id}: literal>", "exec"), namespace)
        try:
            value = eval(compile(expression, f"<{ex_id}: example>", "eval"), namespace)
            results.append([expression, _map_leaves(value, lambda v: np.asarray(
                v.numpy() if _is_tensor(v) else v, dtype=np.float64).tolist())])
        except Exception as error:  # noqa: BLE001
            results.append([expression, f"raised {error!r}"])
    return {"scores": scores, "points": points, "examples": results}


def _honest_main(args: list[str]) -> int:
    request = json.loads(sys.stdin.read())
    real_stdout = sys.stdout
    result = grade_honest(args[0], request["variants"], request["transforms"], request["examples"],
                          request["seeds"])
    real_stdout.write("\n" + json.dumps(result) + "\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["--summary"]:  # every lesson under both engines, one line each
        from lessons.source import load_lessons

        tf_python = args[1] if len(args) > 1 else str(REPO / ".venv-tf" / "bin" / "python")
        for lesson in load_lessons():
            tf_run = run_in_subprocess(lesson.name, "tensorflow", tf_python)
            mt_run = run_in_subprocess(lesson.name, "minitape")
            print(summarize(tf_run, mt_run), flush=True)
        return 0
    if args[:1] == ["honest"] and len(args) == 2:  # tests/grader/test_honest_answers.py
        return _honest_main(args[1:])
    if len(args) != 2 or args[0] not in ENGINES:
        print(f"usage: python -m tests.support.lesson_engines {{{','.join(ENGINES)}}} LESSON",
              file=sys.stderr)
        return 2
    real_stdout = sys.stdout
    result = run_lesson(args[1], args[0])
    real_stdout.write("\n" + json.dumps(result) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
