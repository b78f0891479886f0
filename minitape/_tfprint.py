"""The text ``tf.print`` writes: TensorFlow's own summary of a tensor's values.

Not NumPy's text (``str(t)``): TensorFlow's C++ ``SummarizeValue`` writes each element in the
shortest of two precisions that reads back as the same number (``%.6g`` or ``%.9g`` for float32
and float16, ``%.15g`` or ``%.17g`` for float64), integers as they are, booleans as ``1``/``0``,
elements separated by one space with no padding, and keeps ``summarize`` elements at each end of
a longer dimension (``...`` between them).
"""
from __future__ import annotations

import math

import numpy as np


def _float_text(v, single: bool) -> str:
    x = float(v)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if single:  # float32, and float16 (which TensorFlow prints as a float32)
        s = "%.6g" % x
        return s if np.float32(float(s)) == np.float32(x) else "%.9g" % x
    s = "%.15g" % x
    return s if float(s) == x else "%.17g" % x


def _scalar_text(v, kind: str, single: bool) -> str:
    if kind == "b":
        return "1" if v else "0"
    if kind in "iu":
        return str(int(v))
    if kind == "f":
        return _float_text(v, single)
    return str(v)  # complex: TensorFlow prints '?'; NumPy's text says more


def _array_text(a: np.ndarray, summarize: int, depth: int, kind: str, single: bool) -> str:
    if a.ndim == 0:
        return _scalar_text(a[()], kind, single)
    n = a.shape[0]
    if 0 <= summarize and n > 2 * summarize:
        index = [*range(summarize), None, *range(n - summarize, n)]
    else:
        index = range(n)
    parts = ["..." if i is None else _array_text(a[i], summarize, depth + 1, kind, single)
             for i in index]
    if a.ndim == 1:
        return "[" + " ".join(parts) + "]"
    return "[" + ("\n" * (a.ndim - 1) + " " * (depth + 1)).join(parts) + "]"


def tensor_text(value: np.ndarray, summarize: int = 3) -> str:
    """``tf.print``'s text of one array (a tensor's value on the host)."""
    a = np.asarray(value)
    single = a.dtype.kind == "f" and a.dtype.itemsize <= 4
    if summarize is None:
        summarize = 3
    return _array_text(a, int(summarize), 0, a.dtype.kind, single)


def structure_text(x, summarize, is_tensor, host_value) -> str:
    """Text of one argument of ``tf.print``: tensors summarized, lists/tuples/dicts of them
    written as Python writes containers (``[1, 2.5]``, ``{'a': 1}``), anything else as ``str``."""
    if is_tensor(x):
        return tensor_text(host_value(x), summarize)
    if isinstance(x, list):
        return "[" + ", ".join(_item(v, summarize, is_tensor, host_value) for v in x) + "]"
    if isinstance(x, tuple):
        inner = ", ".join(_item(v, summarize, is_tensor, host_value) for v in x)
        return "(" + inner + ("," if len(x) == 1 else "") + ")"
    if isinstance(x, dict):
        return "{" + ", ".join(f"{k!r}: {_item(v, summarize, is_tensor, host_value)}"
                               for k, v in x.items()) + "}"
    return str(x)


def _item(v, summarize, is_tensor, host_value) -> str:
    if is_tensor(v) or isinstance(v, (list, tuple, dict)):
        return structure_text(v, summarize, is_tensor, host_value)
    return repr(v)
