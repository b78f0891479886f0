"""Comparing a student's gradient with a reference gradient.

Everything here works on plain values: a reference (NumPy arrays, possibly nested in lists,
tuples and dicts, as ``tape.gradient`` returns them) and whatever the student's code returned.
The order of checks for one value is fixed and each failure has its own message:

1. ``None``                       -> ``reason="none"``
2. not a number or numbers        -> ``reason="type"``
3. not real numbers (bool, complex) -> ``reason="dtype"``
4. shape differs (strictly: ``()`` is not ``(1,)``, ``(3,)`` is not ``(3, 1)``; no
   broadcasting ever passes)      -> ``reason="shape"``
5. NaN or infinity                -> ``reason="not_finite"``
6. values differ, in float64, ``|got - expected| <= atol + rtol * |expected|`` elementwise
                                  -> ``reason="values"`` (with the largest absolute and relative
                                     error and the first differing index)

**One rule for number types** (the same for every exercise, in the student's kernel and in the
trusted autograder): an answer counts by its value, whatever holds it. A minitape or TensorFlow
tensor or Variable, a NumPy array or scalar, a Python ``int`` or ``float``, or a (nested) list or
tuple of those where the reference has one array, all of any integer or floating dtype (float16
to float64): ``3`` is as right as ``3.0`` for a cause code or a count, ``[0.5, 0.25]`` as
``np.array([0.5, 0.25])`` for a loss curve, a float32 tensor as a float64 one. Where the
reference is a list of several values (``[dL/dw, dL/db]``), a list or a tuple answers it (or an
array whose rows are those values). Booleans and complex numbers are not answers.

**One tolerance** (:class:`Tolerance`): every answer is compared within float32's tolerance
(``rtol_low``/``atol_low``: relative 2e-4, absolute 1e-5), whatever dtype it comes in, because
float32 is what TensorFlow computes in by default and no exercise's subject is the last digits;
an exercise whose subject is precision would declare ``precision="float64"`` and say so in its
statement (none does). The exercise's declared precision chooses the tolerance, never the
answer's dtype, so a float32 result cast to float64 is not held to a stricter rule.

:func:`finite_difference_check` is an independent check that does not use the reference
gradient at all: the slope of the function along a random direction, by central differences
in float64, must match the student's gradient projected on that direction.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from course_lang import resolve
from course_lang.typography import localize_number

from grader.i18n import t, tn

__all__ = [
    "LeafOutcome",
    "Tolerance",
    "compare",
    "compare_leaf",
    "describe_structure",
    "finite_difference_check",
    "flatten_with_paths",
    "format_array",
    "to_array",
]


@dataclass(frozen=True)
class Tolerance:
    """Elementwise ``|got - expected| <= atol + rtol * |expected|`` in float64.

    ``rtol``/``atol`` apply to float64 results; ``rtol_low``/``atol_low`` to results in a lower
    precision (float32, float16), whose rounding alone exceeds the float64 tolerance.
    """

    rtol: float = 1e-6
    atol: float = 1e-9
    rtol_low: float = 2e-4
    atol_low: float = 1e-5

    def for_dtype(self, dtype: np.dtype) -> tuple[float, float]:
        if np.dtype(dtype).itemsize < 8:
            return max(self.rtol, self.rtol_low), max(self.atol, self.atol_low)
        return self.rtol, self.atol


@dataclass
class LeafOutcome:
    """The comparison of one gradient (one leaf of the answer's structure)."""

    path: str
    passed: bool
    reason: str  # ok, none, type, dtype, shape, not_finite, values, structure
    message: str
    details: dict[str, Any] = field(default_factory=dict)
    value: np.ndarray | None = None  # the student's value as float64, when usable


# ----------------------------------------------------------------------------------------------
# Converting answers
# ----------------------------------------------------------------------------------------------
def _is_tensor_like(x: Any) -> bool:
    return (hasattr(x, "numpy") and callable(getattr(x, "numpy"))
            and hasattr(x, "shape") and hasattr(x, "dtype"))


def _is_indexed_slices(x: Any) -> bool:
    return all(hasattr(x, a) for a in ("values", "indices", "dense_shape"))


def to_array(value: Any) -> tuple[np.ndarray | None, str]:
    """``(array, "")`` for an answer made of numbers, ``(None, reason)`` otherwise (the one rule
    for number types, module docstring).

    Accepted: minitape/TensorFlow tensors and variables (anything with ``.numpy()``, ``.shape``
    and ``.dtype``), IndexedSlices (densified), NumPy arrays and scalars, Python numbers, and
    (nested) lists and tuples of those that make a rectangular array; integer dtypes count as
    the floats they equal. ``(array, "dtype")`` for booleans and complex numbers.
    """
    if value is None:
        return None, "none"
    try:
        if _is_tensor_like(value):
            arr = np.asarray(value.numpy())
        elif _is_indexed_slices(value):
            values = to_array(value.values)[0]
            indices = to_array(value.indices)[0]
            shape = tuple(int(s) for s in to_array(value.dense_shape)[0])
            if values is None or indices is None:
                return None, "type"
            arr = np.zeros(shape, dtype=values.dtype)
            np.add.at(arr, indices.astype(np.int64), values)
        elif isinstance(value, (np.ndarray, np.generic)):
            arr = np.asarray(value)
        elif isinstance(value, (bool,)):
            return np.asarray(value), "dtype"
        elif isinstance(value, (int, float)):
            arr = np.asarray(value, dtype=np.float64)
        elif isinstance(value, (list, tuple)):
            arr = _sequence_array(value)
            if arr is None:
                return None, "type"
        else:
            return None, "type"
    except Exception:  # a broken __array__/numpy(): not a usable tensor
        return None, "type"
    if arr.dtype.kind in "iu":  # an integer-valued answer (a code, a count) is the float it equals
        return arr.astype(np.float64), ""
    if arr.dtype.kind != "f":
        return arr, "dtype"
    return arr, ""


def _sequence_array(value: Any, depth: int = 0) -> np.ndarray | None:
    """A (nested) list or tuple of numbers, 0-d tensors or arrays as the array it spells; None
    when it is not rectangular, or holds anything else."""
    if depth > 8 or not value:
        return None
    parts = []
    for item in value:
        if isinstance(item, (list, tuple)):
            part = _sequence_array(item, depth + 1)
        else:
            part, problem = to_array(item) if item is not None else (None, "none")
            if problem:
                part = None
        if part is None:
            return None
        parts.append(np.asarray(part, dtype=np.float64))
    if len({p.shape for p in parts}) != 1:
        return None
    return np.stack(parts)


def _kind(value: Any) -> str:
    from grader.wire import Opaque

    if isinstance(value, Opaque):  # reported by a kernel: only its type's name came back
        return value.kind
    cls = type(value)
    module = cls.__module__
    if module in ("builtins", "__main__"):
        return cls.__name__
    return f"{module.split('.')[0]}.{cls.__name__}"


def _text(value: Any, limit: int = 200) -> str:
    """A bounded text form of any value (an int of 5,000 digits has no ``str``)."""
    try:
        text = str(value)
    except Exception:  # noqa: BLE001 - ValueError (too many digits), a broken __str__
        return f"<{_kind(value)}>"
    return text if len(text) <= limit else text[:limit] + "..."


def fmt_shape(shape: Sequence[int]) -> str:
    return "(" + ", ".join(str(int(s)) for s in shape) + ("," if len(shape) == 1 else "") + ")"


def fmt_index(index: Sequence[int]) -> str:
    return "[" + ", ".join(str(int(i)) for i in index) + "]"


def say_number(x: float, lang: str | None = None) -> str:
    """``fmt_number`` as a sentence in ``lang`` writes it: with the language's decimal mark
    (``1,83333`` in es, pt and ru; ``course_lang.typography``). Values shown as data (the
    expected/got blocks, ``rtol=``) keep Python's point."""
    return localize_number(fmt_number(x), resolve(lang))


def fmt_number(x: float) -> str:
    x = float(x)
    if math.isnan(x):
        return "—"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return f"{x:.6g}"


def format_array(a: np.ndarray, max_items: int = 24) -> str:
    """A compact, bounded text form of an array (what feedback shows as expected/got)."""
    a = np.asarray(a)
    if a.ndim == 0:
        return fmt_number(a)
    with np.printoptions(precision=6, threshold=max_items, edgeitems=3, suppress=False,
                         linewidth=78):
        return np.array2string(a, separator=", ")


# ----------------------------------------------------------------------------------------------
# One value
# ----------------------------------------------------------------------------------------------
# What an answer (or one component of it) is: the words of the "matches" and "got None"
# messages (leaf.ok.<kind>, leaf.none.<kind>), so that a loss curve is not called a gradient.
KINDS = ("gradient", "derivative", "hessian", "jacobian", "hvp", "value", "losses", "parameters")


def _check_kind(kind: str) -> str:
    if kind not in KINDS:
        raise ValueError(f"unknown answer kind {kind!r}; one of {', '.join(KINDS)}")
    return kind


def compare_leaf(expected: Any, got: Any, tol: Tolerance = Tolerance(), lang: str | None = None,
                 path: str = "", precision: str | None = None, kind: str = "gradient") -> LeafOutcome:
    """Compare one answer with one reference array (see the module docstring for the order).

    ``precision`` (``"float32"``, ``"float64"``) is the precision the exercise computes in and
    chooses the tolerance; without it, the answer's own dtype does (a float32 result cast to
    float64 would then be held to the float64 tolerance). ``kind`` (one of :data:`KINDS`) names
    what is compared in the messages."""
    _check_kind(kind)
    exp = np.asarray(expected, dtype=np.float64)
    shape_txt = fmt_shape(exp.shape)
    arr, problem = to_array(got)
    if problem == "none":
        return LeafOutcome(path, False, "none", t(f"leaf.none.{kind}", lang, shape=shape_txt))
    if problem == "type":
        return LeafOutcome(path, False, "type",
                           t("leaf.type", lang, shape=shape_txt, kind=_kind(got)))
    if problem == "dtype":
        return LeafOutcome(path, False, "dtype", t("leaf.dtype", lang, dtype=str(arr.dtype)),
                           {"got": format_array(arr) if arr.dtype.kind in "biu" else _text(got)})
    if arr.shape != exp.shape:
        return LeafOutcome(path, False, "shape",
                           t("leaf.shape", lang, expected=shape_txt, got=fmt_shape(arr.shape)),
                           {"expected": format_array(exp), "got": format_array(arr)})
    rtol, atol = tol.for_dtype(precision or arr.dtype)
    with np.errstate(over="ignore", invalid="ignore"):  # float128 beyond float64: inf, below
        got64 = arr.astype(np.float64)
    finite = np.isfinite(got64)
    if not finite.all():
        bad = np.argwhere(~finite)
        return LeafOutcome(path, False, "not_finite",
                           tn("leaf.not_finite.plural", int(bad.shape[0]), lang, count=int(bad.shape[0]),
                             index=fmt_index(bad[0])),
                           {"expected": format_array(exp), "got": format_array(got64)})
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        # finite answers far from the reference can overflow here (1.79e308 - -1e308): an
        # error or a bound that is not finite never passes
        diff = np.abs(got64 - exp)
        nonzero = exp != 0
        # relative error where it is defined (the expected entry is not 0); nan when nowhere
        rel_err = float((diff[nonzero] / np.abs(exp[nonzero])).max()) if nonzero.any() else float("nan")
        bound = atol + rtol * np.abs(exp)
        close = np.isfinite(diff) & np.isfinite(bound) & (diff <= bound)
    abs_err = float(diff.max()) if diff.size else 0.0
    details = {"expected": format_array(exp), "got": format_array(got64),
               "abs_err": abs_err, "rel_err": rel_err, "rtol": rtol, "atol": atol}
    if close.all():
        return LeafOutcome(path, True, "ok", t(f"leaf.ok.{kind}", lang, abs_err=say_number(abs_err, lang)),
                           details, value=got64)
    first = tuple(int(i) for i in np.argwhere(~close)[0])
    details["index"] = first
    if exp.ndim == 0:  # a scalar has no index to name
        msg = t("leaf.values.scalar", lang, abs_err=say_number(abs_err, lang), rel_err=say_number(rel_err, lang),
                expected=say_number(exp[first], lang), got=say_number(got64[first], lang),
                rtol=fmt_number(rtol), atol=fmt_number(atol))
        return LeafOutcome(path, False, "values", msg, details, value=got64)
    msg = tn("leaf.values.plural", int(close.size), lang, count=int((~close).sum()), size=int(close.size),
            abs_err=say_number(abs_err, lang), rel_err=say_number(rel_err, lang), index=fmt_index(first),
            expected=say_number(exp[first], lang), got=say_number(got64[first], lang),
            rtol=fmt_number(rtol), atol=fmt_number(atol))
    return LeafOutcome(path, False, "values", msg, details, value=got64)


# ----------------------------------------------------------------------------------------------
# Nested answers: lists, tuples and dicts of gradients (what tape.gradient returns)
# ----------------------------------------------------------------------------------------------
def _is_leaf(x: Any) -> bool:
    return not isinstance(x, (list, tuple, Mapping))


def flatten_with_paths(struct: Any, path: str = "") -> list[tuple[str, Any]]:
    """``[(path, leaf), ...]`` in a fixed order (dict keys sorted, like ``tf.nest``)."""
    if isinstance(struct, Mapping):
        out = []
        for key in sorted(struct, key=repr):
            out.extend(flatten_with_paths(struct[key], f"{path}[{key!r}]"))
        return out
    if isinstance(struct, (list, tuple)):
        out = []
        for i, item in enumerate(struct):
            out.extend(flatten_with_paths(item, f"{path}[{i}]"))
        return out
    return [(path, struct)]


def parts_like(expected: Any, got: Any, path: str = "") -> dict[str, Any]:
    """``{path: the part of got there}`` at each leaf path of ``expected``, walking ``got`` as
    :func:`compare` does (a list or tuple for a sequence, an array's rows for a list of values;
    None where ``got`` has no such part). The mistake classifier reads answers with it."""
    if _is_leaf(expected):
        return {path: got}
    out: dict[str, Any] = {}
    if isinstance(expected, Mapping):
        for key in sorted(expected, key=repr):
            part = got.get(key) if isinstance(got, Mapping) else None
            out.update(parts_like(expected[key], part, f"{path}[{key!r}]"))
        return out
    if _is_leaf(got) and got is not None:
        rows, problem = to_array(got)
        if rows is not None and not problem and rows.ndim >= 1 and len(rows) == len(expected):
            got = list(rows)
    items = list(got) if isinstance(got, (list, tuple)) and len(got) == len(expected) else \
        [None] * len(expected)
    for i, (sub, part) in enumerate(zip(expected, items)):
        out.update(parts_like(sub, part, f"{path}[{i}]"))
    return out


def _leaf_at(struct: Any, expected: Any, leaf_path: str, path: str = "") -> Any:
    """The entry of ``struct`` (shaped like ``expected``, or one value for all) at ``leaf_path``."""
    if isinstance(struct, str) or struct is None:
        return struct or "gradient"
    return dict(flatten_with_paths(struct, path)).get(leaf_path, "gradient")


def describe_structure(struct: Any, lang: str | None = None, expected: bool = False) -> str:
    """A localized phrase for a value's structure: "a dict with keys 'b', 'w'", "a list of 2
    gradients" (the sequence by its name in the language, never Python's type name inside a
    sentence). ``expected``: ``struct`` is the reference, where a list and a tuple both pass."""
    if isinstance(struct, Mapping):
        return t("struct.dict", lang, keys=", ".join(repr(k) for k in sorted(struct, key=repr)))
    if isinstance(struct, (list, tuple)):
        which = "sequence" if expected else ("tuple" if isinstance(struct, tuple) else "list")
        return tn(f"struct.{which}.plural", len(struct), lang, count=len(struct))
    arr, problem = to_array(struct)
    if arr is not None and problem in ("", "dtype"):
        return t("struct.tensor", lang, shape=fmt_shape(arr.shape))
    if struct is None:
        return "None"
    return t("struct.other", lang, kind=_kind(struct))


def _sub_kind(kind: Any, key: Any) -> Any:
    """The kind of an answer's part: ``kind`` itself when one kind names the whole answer."""
    if isinstance(kind, str) or kind is None:
        return kind
    try:
        return kind[key]
    except (KeyError, IndexError, TypeError):
        raise ValueError(f"answer kinds {kind!r} do not have the answer's structure "
                         f"(no entry {key!r})") from None


def compare(expected: Any, got: Any, tol: Tolerance = Tolerance(), lang: str | None = None,
            path: str = "", precision: str | None = None, kind: Any = "gradient") -> list[LeafOutcome]:
    """Compare a nested answer with a nested reference: one :class:`LeafOutcome` per reference
    leaf, so that a partly right answer (right ``dw``, wrong ``db``) earns part of the credit.

    Sequences match sequences (list or tuple) of the same length, dicts match dicts with the
    reference's keys (extra keys are ignored); anything else fails every leaf below it with a
    message naming both structures. ``kind`` is one of :data:`KINDS` for the whole answer, or a
    structure like the answer's with a kind per leaf (``["value", "gradient"]``).
    """
    if kind is None:
        kind = "gradient"
    if _is_leaf(expected):
        return [compare_leaf(expected, got, tol, lang, path, precision, kind)]
    leaves = flatten_with_paths(expected, path)
    if isinstance(expected, (list, tuple)) and _is_leaf(got) and got is not None:
        rows, problem = to_array(got)  # an array whose rows are the listed values
        if rows is not None and not problem and rows.ndim >= 1 and len(rows) == len(expected):
            got = list(rows)
    mismatch = None
    if isinstance(expected, Mapping):
        if not isinstance(got, Mapping):
            mismatch = "structure"
    elif not isinstance(got, (list, tuple)) or len(got) != len(expected):
        mismatch = "structure"
    if mismatch:
        if got is None:  # each part in its own words
            return [LeafOutcome(p, False, "none",
                                t(f"leaf.none.{_check_kind(_leaf_at(kind, expected, p, path))}", lang,
                                  shape=fmt_shape(np.shape(leaf))))
                    for p, leaf in leaves]
        else:
            msg = t("struct.mismatch", lang, expected=describe_structure(expected, lang, expected=True),
                    got=describe_structure(got, lang))
            reason = "structure"
        return [LeafOutcome(p, False, reason, msg) for p, _ in leaves]
    out: list[LeafOutcome] = []
    if isinstance(expected, Mapping):
        for key in sorted(expected, key=repr):
            sub = f"{path}[{key!r}]"
            if key not in got:
                msg = t("struct.missing_key", lang, key=repr(key))
                out.extend(LeafOutcome(p, False, "structure", msg)
                           for p, _ in flatten_with_paths(expected[key], sub))
            else:
                out.extend(compare(expected[key], got[key], tol, lang, sub, precision,
                                   _sub_kind(kind, key)))
    else:
        for i, (e, g) in enumerate(zip(expected, got)):
            out.extend(compare(e, g, tol, lang, f"{path}[{i}]", precision, _sub_kind(kind, i)))
    return out


# ----------------------------------------------------------------------------------------------
# Finite differences
# ----------------------------------------------------------------------------------------------
@dataclass
class FDOutcome:
    passed: bool
    reason: str  # ok, fd, unusable
    message: str
    details: dict[str, Any] = field(default_factory=dict)


def finite_difference_check(objective: Callable[[dict[str, np.ndarray]], float],
                            values: Mapping[str, np.ndarray],
                            gradients: Mapping[str, np.ndarray | None],
                            rng: np.random.Generator, lang: str | None = None,
                            rtol: float = 1e-5, atol: float = 1e-7) -> FDOutcome:
    """Check ``gradients`` (name -> array, None when unusable) against central differences.

    ``objective(values) -> float`` re-implements the exercise's scalar function in NumPy,
    independently of minitape. Along a random unit direction ``v`` (over all named inputs),
    the directional derivative ``sum_k <g_k, v_k>`` must match
    ``(f(x + h v) - f(x - h v)) / 2h`` within ``rtol * (|slope| + sum_k |g_k|.|v_k|) + atol``.
    Every quantity in that comparison must be finite: a gradient so large that its projection,
    its magnitude, the tolerance or the error overflows (answers of 1.79e308 made the tolerance
    infinite, so any error passed) fails, as does NaN anywhere.
    """
    if any(gradients.get(k) is None for k in values):
        return FDOutcome(False, "unusable", t("fd.unusable", lang))
    with np.errstate(all="ignore"):
        return _fd_check(objective, values, gradients, rng, lang, rtol, atol)


def _fd_check(objective, values, gradients, rng, lang, rtol, atol) -> FDOutcome:
    x = {k: np.asarray(v, dtype=np.float64) for k, v in values.items()}
    direction = {k: rng.standard_normal(v.shape) for k, v in x.items()}
    norm = math.sqrt(sum(float(np.sum(d * d)) for d in direction.values())) or 1.0
    direction = {k: d / norm for k, d in direction.items()}
    scale = max([1.0] + [float(np.max(np.abs(v))) for v in x.values() if v.size])
    h = 1e-6 * scale
    plus = objective({k: x[k] + h * direction[k] for k in x})
    minus = objective({k: x[k] - h * direction[k] for k in x})
    numeric = (float(plus) - float(minus)) / (2 * h)
    predicted = sum(float(np.sum(gradients[k] * direction[k])) for k in x)
    magnitude = sum(float(np.sum(np.abs(gradients[k]) * np.abs(direction[k]))) for k in x)
    if not math.isfinite(numeric):  # the exercise's own function at trusted inputs: its bug
        raise FloatingPointError(f"the finite difference is {numeric} at the case's inputs")
    tolerance = rtol * (abs(numeric) + magnitude) + atol
    error = abs(predicted - numeric)
    details = {"expected": fmt_number(numeric), "got": fmt_number(predicted), "abs_err": error}
    if all(math.isfinite(v) for v in (predicted, magnitude, tolerance, error)) and error <= tolerance:
        return FDOutcome(True, "ok", t("fd.ok", lang, expected=say_number(numeric, lang)), details)
    return FDOutcome(False, "fd", t("fd.mismatch", lang, got=say_number(predicted, lang),
                                    expected=say_number(numeric, lang)), details)
