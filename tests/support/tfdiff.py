"""Differential runs against TensorFlow: run a program's source text with ``tf`` bound to a
module, encode what it produced as JSON, and compare two encodings.

The recordings in ``tests/minitape/fixtures/tfdiff_*.json`` were made by running the same
source under TensorFlow 2.21 (CPU, Keras 3) with the scripts in ``benchmarks/tfdiff/``; the tests
replay each program under minitape and compare with :func:`compare`. TensorFlow is never
imported here or by the tests.

A program appends what it wants compared to the list ``out`` (tensors, ``None``, lists of them,
Python numbers and strings); an exception that escapes the program is recorded as its last
entry. Guide cells also have their printed text and warnings recorded.
"""
from __future__ import annotations

import contextlib
import io
import json
import math
import pathlib
import re
import warnings

import numpy as np

REPO = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "minitape" / "fixtures"

# TF's eager error text carries a node prefix and a trailing "name: " that a student reads past;
# minitape's messages are compared with both removed.
_NODE_PREFIX = re.compile(r"^\{\{function_node [^}]*\}\}\s*")
_NAME_SUFFIX = re.compile(r"\s*name: $")


def normalize_message(msg: str) -> str:
    msg = _NODE_PREFIX.sub("", str(msg))
    return _NAME_SUFFIX.sub("", msg).strip()


def _number(v):
    v = float(v)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def _values(a):
    a = np.asarray(a)
    if a.dtype == bool:
        return a.tolist()
    if a.dtype.kind in "iu":
        return a.tolist()
    flat = [_number(v) for v in a.astype(np.float64).ravel()]
    return flat


def encode(value):
    """A JSON-able description of ``value`` (tensor, Variable, None, list, number, exception)."""
    if value is None:
        return {"kind": "none"}
    if isinstance(value, BaseException):
        return {"kind": "error", "type": type(value).__name__,
                "msg": normalize_message(value)}
    if isinstance(value, (list, tuple)):
        return {"kind": "list", "items": [encode(v) for v in value]}
    if isinstance(value, dict):
        return {"kind": "dict", "items": {str(k): encode(v) for k, v in value.items()}}
    if isinstance(value, (bool, str)):
        return {"kind": "py", "type": type(value).__name__, "value": value}
    if isinstance(value, (int, float)):
        return {"kind": "py", "type": type(value).__name__, "value": _number(value)}
    if isinstance(value, np.ndarray) or isinstance(value, np.generic):
        a = np.asarray(value)
        return {"kind": "ndarray", "dtype": a.dtype.name, "shape": list(a.shape),
                "value": _values(a)}
    if hasattr(value, "numpy") and hasattr(value, "dtype"):
        a = np.asarray(value.numpy())
        return {"kind": "tensor", "dtype": value.dtype.name, "shape": list(a.shape),
                "value": _values(a)}
    return {"kind": "other", "type": type(value).__name__, "repr": repr(value)}


def run_program(tf, src: str, *, capture: bool = False):
    """Run ``src`` with ``tf`` and ``np`` bound; return the list of encodings (and, with
    ``capture``, the printed text and the warnings' messages)."""
    out: list = []
    env = {"tf": tf, "np": np, "out": out, "__name__": "__tfdiff__"}
    stdout = io.StringIO()
    error = None
    # the filters in force stay as they are (as in a notebook): minitape's own filter for
    # NumPy's RuntimeWarnings is part of what is compared
    with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(stdout):
        try:
            exec(compile(src, "<program>", "exec"), env)
        except Exception as e:  # noqa: BLE001 - the exception is what is compared
            error = e
    encoded = [encode(v) for v in out]
    if error is not None:
        encoded.append(encode(error))
    if not capture:
        return encoded
    return encoded, stdout.getvalue(), [str(w.message) for w in caught]


def _tolerance(dtype: str):
    if dtype in ("float64", "complex128"):
        return 1e-8, 1e-8
    if dtype in ("float16", "bfloat16"):
        return 1e-2, 1e-2
    return 2e-4, 2e-4


def _close(exp, got, dtype):
    if isinstance(exp, (bool, int)) and not isinstance(exp, float) and dtype not in (
            "float32", "float64", "float16"):
        return exp == got
    e = np.array([math.nan if v == "nan" else math.inf if v == "inf" else -math.inf
                  if v == "-inf" else v for v in exp], dtype=np.float64)
    g = np.array([math.nan if v == "nan" else math.inf if v == "inf" else -math.inf
                  if v == "-inf" else v for v in got], dtype=np.float64)
    if e.shape != g.shape:
        return False
    rtol, atol = _tolerance(dtype)
    finite = np.isfinite(e)
    scale = max(1.0, float(np.max(np.abs(e[finite])))) if finite.any() else 1.0
    return bool(np.allclose(g, e, rtol=rtol, atol=atol * scale, equal_nan=True))


def compare(expected, got, path: str = "out") -> list[str]:
    """The differences between two encodings, as readable lines (empty when they agree)."""
    if expected["kind"] != got["kind"]:
        def show(x):
            return x.get("type") or x.get("dtype") or ""
        extra = f": {got.get('msg')}" if got["kind"] == "error" else ""
        return [f"{path}: TF gives {expected['kind']} {show(expected)}, "
                f"minitape {got['kind']} {show(got)}{extra}"]
    kind = expected["kind"]
    if kind == "none":
        return []
    if kind == "error":
        diffs = []
        if expected["type"] != got["type"]:
            diffs.append(f"{path}: TF raises {expected['type']}, minitape {got['type']}")
        if expected["msg"] != got["msg"]:
            diffs.append(f"{path}: TF's message {expected['msg']!r}, minitape's {got['msg']!r}")
        return diffs
    if kind in ("list", "dict"):
        e, g = expected["items"], got["items"]
        if len(e) != len(g) or (kind == "dict" and set(e) != set(g)):
            return [f"{path}: TF gives {len(e)} items, minitape {len(g)}"]
        keys = e if kind == "dict" else range(len(e))
        diffs = []
        for k in keys:
            diffs += compare(e[k], g[k], f"{path}[{k!r}]")
        return diffs
    if kind == "py":
        if expected["type"] != got["type"]:
            return [f"{path}: TF gives a Python {expected['type']}, minitape a {got['type']}"]
        if expected["type"] == "float":
            ok = _close([expected["value"]], [got["value"]], "float64")
        else:
            ok = expected["value"] == got["value"]
        return [] if ok else [f"{path}: TF {expected['value']!r}, minitape {got['value']!r}"]
    if kind == "other":
        if expected["type"] != got["type"]:
            return [f"{path}: TF gives a {expected['type']}, minitape a {got['type']}"]
        return []
    diffs = []
    if expected["dtype"] != got["dtype"]:
        diffs.append(f"{path}: dtype {expected['dtype']} in TF, {got['dtype']} in minitape")
    if expected["shape"] != got["shape"]:
        diffs.append(f"{path}: shape {expected['shape']} in TF, {got['shape']} in minitape")
    elif not _close(expected["value"], got["value"], expected["dtype"]):
        diffs.append(f"{path}: values differ: TF {expected['value'][:6]}, "
                     f"minitape {got['value'][:6]}")
    return diffs


def compare_runs(expected: list, got: list) -> list[str]:
    return compare({"kind": "list", "items": expected}, {"kind": "list", "items": got})


def load(name: str) -> dict:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


# ---- guide cells: a notebook's cells in one namespace, as Jupyter runs them -------------------

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def _display(value):
    """What Jupyter shows for a cell's last expression (None shows nothing)."""
    return None if value is None else _ADDRESS.sub(" at 0x…", repr(value))


class _LogCapture:
    """TensorFlow's ``WARNING:tensorflow:`` lines go through Python's ``logging`` (logger
    ``tensorflow``); minitape warns with Python warnings. Both are collected as messages."""

    def __init__(self):
        import logging
        self.records = []
        capture = self

        class _H(logging.Handler):
            def emit(self, record):
                if record.levelno >= logging.WARNING:
                    capture.records.append(record.getMessage())

        self.handler = _H()
        self.logger = logging.getLogger("tensorflow")

    def __enter__(self):
        self.logger.addHandler(self.handler)
        return self

    def __exit__(self, *exc):
        self.logger.removeHandler(self.handler)


def run_cell(env: dict, src: str) -> dict:
    """Run one cell in ``env``: its printed text, warnings, exception and displayed value."""
    import ast
    tree = ast.parse(src)
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = ast.Expression(tree.body.pop().value)
    stdout = io.StringIO()
    result = {"stdout": "", "warnings": [], "error": None, "display": None}
    with warnings.catch_warnings(record=True) as caught, _LogCapture() as logs, \
            contextlib.redirect_stdout(stdout):
        try:
            exec(compile(tree, "<cell>", "exec"), env)
            if last is not None:
                result["display"] = _display(eval(compile(last, "<cell>", "eval"), env))
        except Exception as e:  # noqa: BLE001 - what the student sees is compared
            result["error"] = {"type": type(e).__name__, "msg": normalize_message(e)}
    result["stdout"] = _ADDRESS.sub(" at 0x…", stdout.getvalue())
    # DeprecationWarnings from third-party code are not what a student sees in a notebook
    result["warnings"] = [str(w.message) for w in caught
                          if not issubclass(w.category, (DeprecationWarning,
                                                         PendingDeprecationWarning))]
    result["warnings"] += logs.records
    return result


def run_notebook(tf, cells: list[str]) -> list[dict]:
    env = {"tf": tf, "np": np, "__name__": "__main__"}
    return [run_cell(env, c) for c in cells]


_NUMBER = re.compile(r"-?\d+\.\d*(?:e[-+]?\d+)?|-?\d+e[-+]?\d+")


# Keras' progress lines give the time taken ("3/3 - 0s - 5ms/step - loss: ..."): not compared
_DURATION = re.compile(r"\b\d+(?:\.\d+)?(?:us|ms|s)(?=/step\b|\b)")


def _skeleton(text):
    # numbers out, and the padding NumPy puts between them (it depends on the digits)
    return re.sub(r"[ ]+", " ", _NUMBER.sub("#", text)).replace("[ ", "[").replace(" ]", "]")


# TensorFlow's own tf.function machinery warns about retracing (its jacobian runs through
# tf.function); minitape has no tracing, so these lines are not compared (README).
_TF_ONLY_WARNINGS = re.compile(r"triggered tf\.function retracing")


def _text_agrees(expected, got) -> bool:
    """Equal texts, or texts that differ only in the last digits of their decimal numbers."""
    if expected == got:
        return True
    if expected is None or got is None:
        return False
    expected, got = _DURATION.sub("<time>", expected), _DURATION.sub("<time>", got)
    if expected == got:
        return True
    if _skeleton(expected) != _skeleton(got):
        return False
    e, g = _NUMBER.findall(expected), _NUMBER.findall(got)
    return len(e) == len(g) and all(math.isclose(float(a), float(b), rel_tol=2e-6, abs_tol=1e-6)
                                    for a, b in zip(e, g))


# Notebooks whose printed text is compared exactly (digits and NumPy's padding and line
# wrapping included), not up to the last digits: what they test is the text itself.
EXACT_TEXT = frozenset({"printing_digits"})


def compare_cell(expected: dict, got: dict, exact: bool = False) -> list[str]:
    diffs = []
    for key in ("stdout", "display"):
        if not (expected[key] == got[key] if exact else _text_agrees(expected[key], got[key])):
            diffs.append(f"{key}: TF {expected[key]!r}\n      minitape {got[key]!r}")
    tf_warnings = [w for w in expected["warnings"] if not _TF_ONLY_WARNINGS.search(w)]
    if tf_warnings != got["warnings"]:
        diffs.append(f"warnings: TF {expected['warnings']!r}, minitape {got['warnings']!r}")
    e, g = expected["error"], got["error"]
    if (e is None) != (g is None):
        diffs.append(f"error: TF {e!r}, minitape {g!r}")
    elif e is not None:
        if e["type"] != g["type"]:
            diffs.append(f"error: TF raises {e['type']}, minitape {g['type']}: {g['msg']!r}")
        elif e["msg"] != g["msg"]:
            diffs.append(f"error message: TF {e['msg']!r}\n      minitape {g['msg']!r}")
    return diffs


def run_notebook_in_subprocess(module: str, cells: list[str], python=None) -> list[dict]:
    """Run a notebook in a fresh interpreter (fresh layer-name counters, as a new kernel)."""
    import subprocess
    import sys
    proc = subprocess.run([python or sys.executable, __file__, module],
                          input=json.dumps(cells), capture_output=True, text=True, check=False,
                          env={**__import__("os").environ, "TF_CPP_MIN_LOG_LEVEL": "3",
                               "PYTHONPATH": str(REPO)})
    if proc.returncode != 0:
        raise RuntimeError(f"the notebook runner failed:\n{proc.stderr}")
    return json.loads(proc.stdout.splitlines()[-1])


if __name__ == "__main__":
    import importlib
    import sys
    _cells = json.loads(sys.stdin.read())
    _tf = importlib.import_module(sys.argv[1])
    _real_stdout = sys.stdout
    _results = run_notebook(_tf, _cells)
    _real_stdout.write("\n" + json.dumps(_results) + "\n")
