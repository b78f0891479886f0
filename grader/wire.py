"""Plain-data forms of the inputs sent to a kernel and of the answers it reports.

Inputs (trusted side -> kernel): :func:`encode_input` turns what an exercise's case built
(Python numbers and strings, NumPy arrays, minitape tensors and Variables, built ``Dense``
layers, ``Sequential`` models of them, Keras optimizers, nested in lists, tuples and dicts) into
JSON; ``grader/_probe_runtime.py`` rebuilds equal objects in the kernel.

Answers (kernel -> trusted side): :func:`decode_answer` reads the probe's JSON *defensively*:
it never unpickles or evaluates anything, accepts only the documented node kinds, numeric
dtypes of at most 8 bytes, bounded sizes and depth, and raises :class:`WireError` on anything
else. Tensors come back as NumPy arrays with their dtype and shape; anything that was not a
tensor comes back as an :class:`Opaque` naming its type, so comparisons say "not a tensor".
"""

from __future__ import annotations

import base64
import binascii
import math
from typing import Any

import numpy as np

__all__ = ["Opaque", "WireError", "decode_answer", "encode_input", "MAX_PAYLOAD"]

MAX_PAYLOAD = 8_000_000       # characters of one probe output
MAX_ELEMENTS = 1_000_000      # numbers in one answer
MAX_DEPTH = 10
MAX_ITEMS = 1000


class WireError(ValueError):
    """Data from a kernel that is not a well-formed probe answer."""


class Opaque:
    """A value that was not a tensor in the kernel: only its type's name came back."""

    def __init__(self, kind: str):
        self.kind = kind

    def __repr__(self) -> str:
        return f"<{self.kind}>"


# ------------------------------------------------------------------------------------------
# inputs
# ------------------------------------------------------------------------------------------
def _arr(a: Any) -> dict:
    a = np.asarray(a).copy(order="C")
    if a.dtype.kind not in "fiub":
        raise TypeError(f"cannot send an array of dtype {a.dtype} to a kernel")
    return {"dtype": a.dtype.str, "shape": list(a.shape),
            "b64": base64.b64encode(a.tobytes()).decode("ascii")}


def _activation_name(fn: Any) -> str:
    from minitape.keras import activations

    for name, candidate in activations._BY_NAME.items():
        if candidate is fn and name is not None:
            return name
    raise TypeError(f"cannot send a Dense layer with activation {fn!r} to a kernel")


def _dense(layer: Any) -> dict:
    kernel = np.asarray(layer.kernel.numpy())
    d = {"units": int(layer.units), "activation": _activation_name(layer.activation),
         "use_bias": bool(layer.use_bias), "dtype": str(np.dtype(kernel.dtype)),
         "kernel": _arr(kernel),
         "build_input": _arr(np.zeros((1, kernel.shape[0]), dtype=kernel.dtype))}
    if layer.use_bias:
        d["bias"] = _arr(layer.bias.numpy())
    return d


def encode_input(x: Any) -> dict:
    """JSON data from which the probe rebuilds an object equal to ``x`` (see module doc)."""
    import minitape as tf

    if x is None:
        return {"t": "none"}
    if isinstance(x, bool):
        return {"t": "bool", "v": x}
    if isinstance(x, int):
        return {"t": "int", "v": x}
    if isinstance(x, float):
        return {"t": "float", "v": x}
    if isinstance(x, str):
        return {"t": "str", "v": x}
    if isinstance(x, list):
        return {"t": "list", "items": [encode_input(v) for v in x]}
    if isinstance(x, tuple):
        return {"t": "tuple", "items": [encode_input(v) for v in x]}
    if isinstance(x, dict):
        if not all(isinstance(k, str) for k in x):
            raise TypeError("only dicts with string keys can be sent to a kernel")
        return {"t": "dict", "items": [[k, encode_input(v)] for k, v in x.items()]}
    if isinstance(x, np.ndarray):
        return {"t": "ndarray", **_arr(x)}
    if isinstance(x, np.generic):
        return {"t": "scalar", **_arr(x)}
    if isinstance(x, tf.Variable):
        return {"t": "variable", "trainable": bool(x.trainable), **_arr(x.numpy())}
    if isinstance(x, tf.Tensor):
        return {"t": "constant", **_arr(x.numpy())}
    if isinstance(x, tf.keras.layers.Dense):
        return {"t": "dense", **_dense(x)}
    if isinstance(x, tf.keras.Sequential):
        layers = list(x.layers)
        if not layers or not all(isinstance(layer, tf.keras.layers.Dense) for layer in layers):
            raise TypeError("only Sequential models of Dense layers can be sent to a kernel")
        first = _dense(layers[0])
        return {"t": "sequential", "layers": [_dense(layer) for layer in layers],
                "build_input": first["build_input"]}
    if isinstance(x, tf.keras.optimizers.Adam):
        return {"t": "optimizer", "kind": "Adam", "learning_rate": float(x.learning_rate),
                "beta_1": float(x.beta_1), "beta_2": float(x.beta_2), "epsilon": float(x.epsilon)}
    if isinstance(x, tf.keras.optimizers.SGD):
        return {"t": "optimizer", "kind": "SGD", "learning_rate": float(x.learning_rate),
                "momentum": float(x.momentum), "nesterov": bool(x.nesterov)}
    raise TypeError(f"cannot send a {type(x).__name__} to a kernel")


# ------------------------------------------------------------------------------------------
# answers
# ------------------------------------------------------------------------------------------
def _decode_array(d: dict, budget: list[int]) -> np.ndarray:
    dtype_text, shape, b64 = d.get("dtype"), d.get("shape"), d.get("b64")
    if not isinstance(dtype_text, str) or not isinstance(shape, list) or not isinstance(b64, str):
        raise WireError("array without dtype, shape or data")
    if len(dtype_text) > 8:
        raise WireError("bad dtype")
    try:
        dtype = np.dtype(dtype_text)
    except TypeError:
        raise WireError(f"bad dtype {dtype_text!r}") from None
    if dtype.kind not in "fiub" or dtype.itemsize > 8 or dtype.hasobject:
        raise WireError(f"dtype {dtype} is not numeric")
    if len(shape) > 32 or not all(isinstance(s, int) and not isinstance(s, bool) and 0 <= s
                                  for s in shape):
        raise WireError("bad shape")
    size = math.prod(shape)
    if size > budget[0]:
        raise WireError("answer too large")
    budget[0] -= size
    try:
        raw = base64.b64decode(b64, validate=True)
    except (binascii.Error, ValueError):
        raise WireError("bad base64 data") from None
    if len(raw) != size * dtype.itemsize:
        raise WireError("data length does not match dtype and shape")
    return np.frombuffer(raw, dtype=dtype).reshape(shape).copy()


def _decode(d: Any, budget: list[int], depth: int) -> Any:
    if depth > MAX_DEPTH:
        raise WireError("answer nested too deep")
    if not isinstance(d, dict) or not isinstance(d.get("t"), str):
        raise WireError("malformed answer node")
    t = d["t"]
    if t == "none":
        return None
    if t == "bool":
        if not isinstance(d.get("v"), bool):
            raise WireError("malformed bool")
        return d["v"]
    if t == "number":
        v = d.get("v")
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise WireError("malformed number")
        return v
    if t in ("list", "tuple"):
        items = d.get("items")
        if not isinstance(items, list) or len(items) > MAX_ITEMS:
            raise WireError("malformed sequence")
        values = [_decode(v, budget, depth + 1) for v in items]
        return values if t == "list" else tuple(values)
    if t == "dict":
        items = d.get("items")
        if not isinstance(items, list) or len(items) > MAX_ITEMS:
            raise WireError("malformed dict")
        out = {}
        for item in items:
            if (not isinstance(item, list) or len(item) != 2
                    or not isinstance(item[0], (str, int)) or isinstance(item[0], bool)):
                raise WireError("malformed dict item")
            out[item[0]] = _decode(item[1], budget, depth + 1)
        return out
    if t in ("tensor", "ndarray"):
        return _decode_array(d, budget)
    if t == "other":
        kind = d.get("kind")
        return Opaque(str(kind)[:100] if isinstance(kind, str) else "object")
    raise WireError(f"unknown answer node {t!r}")


def decode_answer(data: Any) -> Any:
    """The answer a probe reported, as None / bool / number / NumPy array / Opaque, nested in
    lists, tuples and dicts. :class:`WireError` when the data is not well-formed."""
    return _decode(data, [MAX_ELEMENTS], 0)
