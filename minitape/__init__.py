"""minitape: a small, fast, TensorFlow-compatible gradient tape on NumPy.

Write ``import minitape as tf`` and the code of TensorFlow's autodiff guides runs unchanged::

    import minitape as tf
    x = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = x ** 2
    tape.gradient(y, x)          # <tf.Tensor: shape=(), dtype=float32, numpy=6.0>

NumPy is the only dependency; ``with tf.device("/GPU:0"):`` uses CuPy when it is installed.
"""
from __future__ import annotations

__version__ = "0.1.0"

from . import dtypes
from .dtypes import (DType, as_dtype, float16, float32, float64, half, double, int8, int16,
                     int32, int64, uint8, bool, complex64, complex128)
from ._tensor import Tensor, EagerTensor, Variable, TensorShape, constant, convert_to_tensor
from ._tape import GradientTape, UnconnectedGradients
from ._indexed_slices import IndexedSlices
from ._custom import (custom_gradient, RegisterGradient, no_gradient, NoGradient,
                      NotDifferentiable, recompute_grad)
from ._device import device
from . import errors, nest, autodiff, config
from . import math, nn, linalg, random, image
from .module import Module
from ._ops import (
    abs, add, add_n, argmax, argmin, broadcast_to, cast, clip_by_norm, clip_by_value, concat,
    cos, cumsum, divide, einsum, equal, exp, expand_dims, eye, fill, gather, greater,
    greater_equal, identity, less, less_equal, linspace, log, logical_and, logical_not,
    logical_or, matmul, maximum, minimum, multiply, negative, norm, not_equal, one_hot, ones,
    ones_like, pad, pow, range, rank, reduce_all, reduce_any, reduce_logsumexp, reduce_max,
    reduce_mean, reduce_min, reduce_prod, reduce_std, reduce_sum, reduce_variance, reshape,
    reverse, round, shape, sigmoid, sign, sin, size, split, sqrt, square, squeeze, stack,
    stop_gradient, subtract, tan, tanh, tensordot, tile, transpose, truediv, unstack, where,
    zeros, zeros_like,
)
# TensorFlow 2's other top-level aliases of tf.math / tf.linalg / tf.sort operations
from ._ops import (  # noqa: E402
    acos, acosh, argsort, asin, asinh, atan, atan2, atanh, boolean_mask, cosh, gather_nd,
    sinh, sort,
)
from ._ops import floor  # noqa: E402


def is_tensor(x) -> "bool":
    """True for minitape Tensors, Variables and IndexedSlices (as TF's, which counts its
    composite tensors)."""
    return isinstance(x, (Tensor, IndexedSlices))


def executing_eagerly() -> "bool":
    """minitape always executes eagerly."""
    return True


def function(func=None, **kwargs):
    """``tf.function`` compatibility: minitape has no graphs, so the function runs eagerly."""
    if func is None:
        return lambda f: f
    return func


def print(*inputs, output_stream=None, summarize=3, sep=" ", end="\n", name=None):  # noqa: A001
    """``tf.print``: the values of tensors, in TensorFlow's text (``[1.5 2]``; see
    :mod:`minitape._tfprint`), and other objects.

    ``output_stream``: ``sys.stdout``, ``sys.stderr`` or any object with ``write``;
    ``"file://path"`` appends to a file.  minitape writes to ``sys.stdout`` by default, where
    TensorFlow writes to standard error (README: a notebook shows it without a red box, and a
    graded cell is not marked as failing for it).  ``summarize``: elements kept at each end of
    a long dimension (``-1``: all), as TF elides them with ``...``.
    """
    import builtins
    import sys
    from ._tfprint import structure_text
    from ._backend import to_host
    stream = sys.stdout if output_stream is None else output_stream
    text = sep.join(structure_text(a, summarize, lambda t: isinstance(t, Tensor),
                                   lambda t: to_host(t.value()._value if isinstance(t, Variable)
                                                     else t._value))
                    for a in inputs)
    if isinstance(stream, str):
        if not stream.startswith("file://"):
            raise ValueError(f"output_stream must be a stream or 'file://<path>', got {stream!r}")
        with open(stream[len("file://"):], "a", encoding="utf-8") as f:
            f.write(text + end)
        return None
    builtins.print(text, end=end, file=stream)
    return None


newaxis = None


def __getattr__(name):
    # Heavy or optional submodules load on first use, keeping `import minitape` fast.
    if name in ("debugging", "keras"):  # (keras: its layers, models, optimizers... 1.5 ms)
        import importlib
        return importlib.import_module("." + name, __name__)
    raise AttributeError(f"module 'minitape' has no attribute {name!r}")
