"""The probe's wire format, in one place: its constants and both halves of both codecs.

Inputs (trusted side -> kernel): :func:`encode_input` (trusted process) turns what an exercise's
case built (Python numbers and strings, NumPy arrays, minitape tensors and Variables, built
``Dense`` layers, ``Sequential`` models of them, Keras optimizers, :class:`Formula` functions,
nested in lists, tuples and dicts) into JSON; :func:`build_input` (kernel) rebuilds equal objects
from it.

Answers (kernel -> trusted side): :func:`encode_answer` (kernel) turns what the student's
function returned into JSON; :func:`decode_answer` (trusted process) reads it *defensively*:
it never unpickles or evaluates anything, accepts only the documented node kinds, numeric
dtypes of at most 8 bytes, bounded sizes and depth, and raises :class:`WireError` on anything
else. Tensors come back as NumPy arrays with their dtype and shape; anything that was not a
tensor comes back as an :class:`Opaque` naming its type, so comparisons say "not a tensor".
The probe publishes its answers as one output of type :data:`MIME`.

A leaf of the grader (standard library and NumPy; minitape only inside functions), used by all
three sides: the trusted process (:mod:`grader.autograde.scoring`), the student side (the
visible cases' data, :mod:`grader.student.visible`), the kernel infrastructure
(:mod:`grader.infra.session`). In a graded kernel it is never imported: the probe cell runs this
file's source text, then the probe's (:mod:`grader.autograde.probe`), in a namespace of their
own, so nothing the student patched in ``sys.modules`` takes part.
"""

from __future__ import annotations

import base64
import binascii
import math
from typing import Any

import numpy as np

__all__ = ["MAX_ELEMENTS", "MAX_PAYLOAD", "MIME", "Formula", "Opaque", "WireError", "build_input",
           "decode_answer", "encode_answer", "encode_input", "kind_of"]

MIME = "application/vnd.minitape.probe+json"  # the probe's output, and nothing else, has it
MAX_PAYLOAD = 8_000_000       # characters of one probe output
MAX_ELEMENTS = 1_000_000      # numbers in one answer
MAX_DEPTH = 10
MAX_ITEMS = 1000


_FLOAT_MAX_INT = int(np.finfo(np.float64).max)  # the largest int a float64 can stand for


class WireError(ValueError):
    """Data from a kernel that is not a well-formed probe answer."""


class Opaque:
    """A value that was not a tensor in the kernel: only its type's name came back."""

    def __init__(self, kind: str):
        self.kind = kind

    def __repr__(self) -> str:
        return f"<{self.kind}>"


# ------------------------------------------------------------------------------------------
# a function as data: what an exercise passes where the student's code takes a function
# ------------------------------------------------------------------------------------------
_FORMULA_UNARY = ("sin", "cos", "exp", "tanh", "relu", "sigmoid", "softplus", "square", "sum", "mean")
_FORMULA_BINARY = ("add", "sub", "mul")


class Formula:
    """A function of one tensor ``x`` written as data, so that it can be sent to a kernel (a
    Python function cannot): a tree of nodes, ``"x"``, a NumPy array (a constant), or a list
    ``[op, *operands]`` with ``op`` one of ``sin cos exp tanh relu sigmoid softplus square sum
    mean`` (one operand), ``add sub mul`` (two), ``matvec`` (a constant matrix, then a vector)
    or ``pow`` (an operand, then a Python number). Calling it evaluates the tree with
    minitape's operations in float64, on whatever tensor, array or list it is given, so a tape
    can record it and a nudge can evaluate it. ``engine``: the module whose operations evaluate
    it (minitape when None; TensorFlow in the TensorFlow tier, as :func:`build_input` gives it)."""

    __slots__ = ("tree", "name", "engine")

    def __init__(self, tree, name="", engine=None):
        _formula_check(tree, 0)
        self.tree = tree
        self.name = name
        self.engine = engine  # the module whose operations evaluate it (minitape when None)

    def __call__(self, x):
        tf = self.engine
        if tf is None:
            import minitape as tf

        if not isinstance(x, (tf.Tensor, tf.Variable)):
            x = tf.constant(x, dtype=tf.float64)
        return _formula_eval(tf, self.tree, x)

    def __repr__(self):
        return f"<function {self.name or 'f'}(x)>"


def _formula_check(node, depth):
    import numpy as np

    if depth > 32:
        raise ValueError("formula nested too deep")
    if isinstance(node, str):
        if node != "x":
            raise ValueError(f"unknown formula leaf {node!r}")
        return
    if isinstance(node, np.ndarray):
        return
    if not isinstance(node, (list, tuple)) or not node or not isinstance(node[0], str):
        raise ValueError(f"malformed formula node {node!r}")
    op, args = node[0], node[1:]
    if op in _FORMULA_UNARY and len(args) == 1 or op in _FORMULA_BINARY and len(args) == 2:
        for a in args:
            _formula_check(a, depth + 1)
    elif op == "matvec" and len(args) == 2 and isinstance(args[0], np.ndarray):
        _formula_check(args[1], depth + 1)
    elif op == "pow" and len(args) == 2 and type(args[1]) in (int, float):
        _formula_check(args[0], depth + 1)
    else:
        raise ValueError(f"malformed formula node {op!r} with {len(args)} operands")


def _formula_eval(tf, node, x):
    import numpy as np

    if isinstance(node, str):
        return x
    if isinstance(node, np.ndarray):
        return tf.constant(node, dtype=tf.float64)
    op, args = node[0], node[1:]
    if op == "matvec":
        return tf.linalg.matvec(tf.constant(args[0], dtype=tf.float64), _formula_eval(tf, args[1], x))
    if op == "pow":
        return _formula_eval(tf, args[0], x) ** args[1]
    a = [_formula_eval(tf, arg, x) for arg in args]
    return {
        "sin": lambda: tf.sin(a[0]), "cos": lambda: tf.cos(a[0]), "exp": lambda: tf.exp(a[0]),
        "tanh": lambda: tf.tanh(a[0]), "relu": lambda: tf.nn.relu(a[0]),
        "sigmoid": lambda: tf.nn.sigmoid(a[0]), "softplus": lambda: tf.math.softplus(a[0]),
        "square": lambda: tf.square(a[0]), "sum": lambda: tf.reduce_sum(a[0]),
        "mean": lambda: tf.reduce_mean(a[0]), "add": lambda: a[0] + a[1],
        "sub": lambda: a[0] - a[1], "mul": lambda: a[0] * a[1],
    }[op]()


def _formula_data(node):
    if isinstance(node, str):
        return node
    if isinstance(node, (list, tuple)):
        return [node[0]] + [a if type(a) in (int, float) else _formula_data(a) for a in node[1:]]
    return {"array": _arr(node)}


def _formula_tree(data):
    if isinstance(data, str):
        return data
    if isinstance(data, dict):
        return _array_of(data["array"])
    return [data[0]] + [a if type(a) in (int, float) else _formula_tree(a) for a in data[1:]]


# ------------------------------------------------------------------------------------------
# inputs, the trusted half: objects -> JSON data
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
    if isinstance(x, Formula):
        return {"t": "formula", "name": x.name, "tree": _formula_data(x.tree)}
    if isinstance(x, tf.keras.optimizers.Adam):
        return {"t": "optimizer", "kind": "Adam", "learning_rate": float(x.learning_rate),
                "beta_1": float(x.beta_1), "beta_2": float(x.beta_2), "epsilon": float(x.epsilon)}
    if isinstance(x, tf.keras.optimizers.SGD):
        return {"t": "optimizer", "kind": "SGD", "learning_rate": float(x.learning_rate),
                "momentum": float(x.momentum), "nesterov": bool(x.nesterov)}
    raise TypeError(f"cannot send a {type(x).__name__} to a kernel")


# ------------------------------------------------------------------------------------------
# inputs, the kernel's half: JSON data -> objects (what encode_input sent)
# ------------------------------------------------------------------------------------------
def _array_of(d):
    import numpy as np

    raw = base64.b64decode(d["b64"])
    return np.frombuffer(raw, dtype=np.dtype(d["dtype"])).reshape(d["shape"]).copy()


def build_input(d, tf=None):
    """The object ``d`` (from :func:`encode_input`) describes: run in the kernel, by the probe.
    ``tf``: the engine whose tensors, layers and optimizers to build (minitape when None; the
    TensorFlow tier passes ``tensorflow`` to run the exercises' solutions there)."""
    t = d["t"]
    if t in ("float", "int", "bool", "str", "none"):
        return d.get("v")
    if t == "list":
        return [build_input(x, tf) for x in d["items"]]
    if t == "tuple":
        return tuple(build_input(x, tf) for x in d["items"])
    if t == "dict":
        return {k: build_input(v, tf) for k, v in d["items"]}
    if t == "ndarray":
        return _array_of(d)
    if t == "scalar":
        return _array_of(d)[()]
    if t == "formula":
        return Formula(_formula_tree(d["tree"]), d.get("name", ""), engine=tf)
    if tf is None:
        import minitape as tf

    if t == "constant":
        return tf.constant(_array_of(d))
    if t == "variable":
        return tf.Variable(_array_of(d), trainable=d.get("trainable", True))
    if t == "dense":
        layer = _built_dense(tf, d)
        return layer
    if t == "sequential":
        layers = [_built_dense(tf, x, build=False) for x in d["layers"]]
        model = tf.keras.Sequential(layers)
        model(tf.constant(_array_of(d["build_input"])))
        for layer, x in zip(layers, d["layers"]):
            _assign_dense(layer, x)
        return model
    if t == "optimizer":
        if d["kind"] == "Adam":
            return tf.keras.optimizers.Adam(learning_rate=d["learning_rate"], beta_1=d["beta_1"],
                                            beta_2=d["beta_2"], epsilon=d["epsilon"])
        return tf.keras.optimizers.SGD(learning_rate=d["learning_rate"], momentum=d["momentum"],
                                       nesterov=d["nesterov"])
    raise ValueError(f"unknown input kind {t!r}")


def _built_dense(tf, d, build=True):
    layer = tf.keras.layers.Dense(d["units"], activation=d["activation"], use_bias=d["use_bias"],
                                  dtype=d["dtype"])
    if build:
        layer(tf.constant(_array_of(d["build_input"])))
        _assign_dense(layer, d)
    return layer


def _assign_dense(layer, d):
    layer.kernel.assign(_array_of(d["kernel"]))
    if d["use_bias"]:
        layer.bias.assign(_array_of(d["bias"]))


# ------------------------------------------------------------------------------------------
# answers, the kernel's half: objects -> JSON data (what decode_answer reads)
# ------------------------------------------------------------------------------------------
def kind_of(x):
    """The name of ``x``'s type as an answer reports it (``minitape.Tensor``, ``list``)."""
    cls = type(x)
    module = cls.__module__
    if module in ("builtins", "__main__"):
        return cls.__name__
    return f"{module.split('.')[0]}.{cls.__name__}"


def _encode_array(arr, t, kind, budget):
    import numpy as np

    arr = np.asarray(arr)
    if arr.dtype.kind not in "fiub" or arr.dtype.itemsize > 8:
        return {"t": "other", "kind": f"{kind} of dtype {arr.dtype}"}
    if arr.size > budget[0]:  # cannot be sent: the exercise's malformed_result, not "wrong type"
        return {"t": "unusable", "why": f"{kind} too large ({arr.size} elements; at most "
                                        f"{MAX_ELEMENTS} in all)"}
    budget[0] -= arr.size
    arr = arr.copy(order="C")
    return {"t": t, "kind": kind, "dtype": arr.dtype.str, "shape": list(arr.shape),
            "b64": base64.b64encode(arr.tobytes()).decode("ascii")}


def encode_answer(x, budget=None, depth=0):
    """``x`` (what a student's function returned) as plain data: run in the kernel, by the
    probe. Tensors become their dtype, shape and bytes; anything else its type's name.
    ``budget`` ([numbers left]) bounds the numbers encoded in all (:data:`MAX_ELEMENTS`)."""
    if budget is None:
        budget = [MAX_ELEMENTS]
    import numpy as np

    if depth > 8:
        return {"t": "other", "kind": "nested too deep"}
    if x is None:
        return {"t": "none"}
    if isinstance(x, bool):
        return {"t": "bool", "v": bool(x)}
    if type(x) is float:
        # JSON has no NaN or infinity: named, so that they are judged as the numbers they are
        return {"t": "number", "v": x if math.isfinite(x) else repr(x)}
    if type(x) is int:
        if abs(x) < 2**53:
            return {"t": "number", "v": x}
        try:
            return {"t": "number", "v": float(x)}
        except OverflowError:  # an int of 400 digits: no float holds it
            return {"t": "unusable", "why": f"an integer of {x.bit_length()} bits, too large "
                                            "for a floating-point number"}
    if isinstance(x, dict):
        items = [[k, encode_answer(v, budget, depth + 1)] for k, v in list(x.items())[:1000]
                 if isinstance(k, (str, int))]
        return {"t": "dict", "items": items}
    if isinstance(x, (list, tuple)):
        return {"t": "list" if isinstance(x, list) else "tuple",
                "items": [encode_answer(v, budget, depth + 1) for v in list(x)[:1000]]}
    try:
        if (hasattr(x, "numpy") and callable(getattr(x, "numpy")) and hasattr(x, "shape")
                and hasattr(x, "dtype")):
            return _encode_array(np.asarray(x.numpy()), "tensor", kind_of(x), budget)
        if all(hasattr(x, a) for a in ("values", "indices", "dense_shape")):  # IndexedSlices
            values = np.asarray(x.values.numpy() if hasattr(x.values, "numpy") else x.values)
            indices = np.asarray(x.indices.numpy() if hasattr(x.indices, "numpy") else x.indices)
            shape = tuple(int(s) for s in np.asarray(
                x.dense_shape.numpy() if hasattr(x.dense_shape, "numpy") else x.dense_shape))
            dense = np.zeros(shape, dtype=values.dtype)
            np.add.at(dense, indices.astype(np.int64), values)
            return _encode_array(dense, "tensor", kind_of(x), budget)
        if isinstance(x, (np.ndarray, np.generic)):
            return _encode_array(np.asarray(x), "ndarray", kind_of(x), budget)
    except Exception as exc:  # a broken __array__ / numpy(): not a usable tensor
        return {"t": "other", "kind": f"{kind_of(x)} ({type(exc).__name__})"}
    return {"t": "other", "kind": kind_of(x)}


# ------------------------------------------------------------------------------------------
# answers, the trusted half
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
        if v in ("nan", "inf", "-inf"):  # what the kernel's half sends for them
            return float(v)
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise WireError("malformed number")
        if isinstance(v, int) and not -_FLOAT_MAX_INT <= v <= _FLOAT_MAX_INT:
            raise WireError("an integer too large for a floating-point number")
        return v
    if t == "unusable":  # what the kernel could not send (too large, no float holds it)
        why = d.get("why")
        raise WireError(why[:200] if isinstance(why, str) else "an answer that could not be sent")
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
