"""Forward primitives: neural-network helpers (softmax, clipping, add_n).

Gradient rules live in :mod:`.nn_grads`.
"""
from __future__ import annotations

from .. import _backend as B
from .._indexed_slices import IndexedSlices
from .._core import Tensor, apply, primitive, _to_tensor
from ..errors import InvalidArgumentError
from ._adapt import _adapt, _pair
from ..dtypes import not_allowed, ALLOWED_FLOAT
from .math_ops import add, divide, greater, maximum, minimum, multiply, sqrt
from .reduce_ops import reduce_sum
from .array_ops import _shape_str, where
from .creation_ops import ones_like

xp = B.xp
_int = int


def _softmax_fwd(a, axis):
    m = xp(a)
    e = m.exp(a - m.max(a, axis=axis, keepdims=True))
    return (e / m.sum(e, axis=axis, keepdims=True)).astype(a.dtype, copy=False)


_Softmax = primitive("Softmax", _softmax_fwd)


def _log_softmax_fwd(a, axis):
    m = xp(a)
    s = a - m.max(a, axis=axis, keepdims=True)
    return (s - m.log(m.sum(m.exp(s), axis=axis, keepdims=True))).astype(a.dtype, copy=False)


_LogSoftmax = primitive(
    "LogSoftmax", _log_softmax_fwd)


def softmax(logits, axis=None, name=None):
    x = _to_tensor(logits)
    if x._value.dtype.kind != "f":
        raise not_allowed("Softmax", x._value.dtype, ALLOWED_FLOAT)
    return apply(_Softmax, (x,), {"axis": -1 if axis is None else _int(axis)})


def log_softmax(logits, axis=None, name=None):
    x = _to_tensor(logits)
    if x._value.dtype.kind != "f":
        raise not_allowed("LogSoftmax", x._value.dtype, ALLOWED_FLOAT)
    return apply(_LogSoftmax, (x,), {"axis": -1 if axis is None else _int(axis)})


def _xent_fwd(logits, labels, axis):
    m = xp(logits)
    s = logits - m.max(logits, axis=axis, keepdims=True)
    log_sm = s - m.log(m.sum(m.exp(s), axis=axis, keepdims=True))
    return (-m.sum(labels * log_sm, axis=axis)).astype(logits.dtype, copy=False)


# One operation, as TensorFlow's SoftmaxCrossEntropyWithLogits: its gradient for the logits is
# softmax(logits) - labels (nn_grads), which is the derivative of the loss only when each
# row of labels sums to 1; TF gives that value for any labels, and so does minitape.
_SoftmaxXent = primitive("SoftmaxCrossEntropyWithLogits", _xent_fwd, unbroadcast=True)


def softmax_cross_entropy_with_logits(labels, logits, axis=-1, name=None):
    """Cross-entropy between ``labels`` (probabilities) and ``softmax(logits)``, per example."""
    from .math_ops import cast
    x = _to_tensor(logits)
    z = _to_tensor(labels)
    if z.dtype != x.dtype:
        z = cast(z, x.dtype)
    nd = max(x._value.ndim, z._value.ndim)
    ax = _int(axis)
    if not -nd <= ax < nd:
        raise InvalidArgumentError(f"Expected axis in the range [{-nd}, {nd}), but got {ax}")
    return apply(_SoftmaxXent, (x, z), {"axis": ax % nd})


_ClipByValue = primitive("ClipByValue", lambda a, lo, hi: xp(a).clip(a, lo, hi).astype(a.dtype, copy=False))


def clip_by_value(t, clip_value_min, clip_value_max, name=None):
    """Clip to ``[clip_value_min, clip_value_max]``; tensor bounds receive gradients too."""
    if type(t) is IndexedSlices:  # the values are clipped; it stays sparse, as in TF
        return t._with_values(clip_by_value(t.values, clip_value_min, clip_value_max))
    x = _to_tensor(t)
    if isinstance(clip_value_min, Tensor) or isinstance(clip_value_max, Tensor):
        # TensorFlow's composition: gradient to t inside the bounds (inclusive), to a bound
        # where it is the one taken.
        return maximum(minimum(x, clip_value_max), clip_value_min)
    lo = _adapt(clip_value_min, x, "ClipByValue")._value if not isinstance(clip_value_min, Tensor) \
        else _to_tensor(clip_value_min)._value
    hi = _adapt(clip_value_max, x, "ClipByValue")._value if not isinstance(clip_value_max, Tensor) \
        else _to_tensor(clip_value_max)._value
    return apply(_ClipByValue, (x,), {"lo": lo, "hi": hi})


def clip_by_norm(t, clip_norm, axes=None, name=None):
    """Rescale ``t`` so that its L2 norm (over ``axes``) is at most ``clip_norm``.

    TensorFlow's formulation, whose gradient stays finite at ``t = 0`` (the norm's square root
    is never differentiated at zero).
    """
    if type(t) is IndexedSlices:  # the values, by their own norm; it stays sparse, as in TF
        return t._with_values(clip_by_norm(t.values, clip_norm, axes))
    x = _to_tensor(t)
    c = _adapt(clip_norm, x, "ClipByNorm") if not isinstance(clip_norm, Tensor) else _to_tensor(clip_norm)
    l2sum = reduce_sum(multiply(x, x), axis=axes, keepdims=True)
    pred = greater(l2sum, 0)
    l2norm = where(pred, sqrt(where(pred, l2sum, ones_like(l2sum))), l2sum)
    return divide(multiply(x, c), maximum(l2norm, c))


def add_n(inputs, name=None):
    inputs = list(inputs)
    if not inputs:
        raise ValueError("inputs must be a non-empty list of tensors")
    r = _to_tensor(inputs[0])
    for i, t in enumerate(inputs[1:], 1):
        t = _to_tensor(t)
        if t._value.shape != r._value.shape:
            raise InvalidArgumentError(
                f"Inputs to operation AddN of type AddN must have the same size and shape.  Input 0: "
                f"{_shape_str(r._value.shape)} != input {i}: {_shape_str(t._value.shape)} [Op:AddN]")
        r = add(r, t)
    return r


_AdjustContrast = primitive(
    "AdjustContrastv2",
    lambda img, factor: ((img - img.mean(axis=(-3, -2), keepdims=True)) * factor
                         + img.mean(axis=(-3, -2), keepdims=True)).astype(img.dtype, copy=False), no_gradient=True)


def adjust_contrast(images, contrast_factor):
    """Scale each channel's distance from its mean.  Has no registered gradient (as in TF)."""
    a, f = _pair(images, contrast_factor, "AdjustContrastv2")
    if a._value.ndim < 3:
        raise InvalidArgumentError("input must be at least 3-D, got shape "
                                   f"{list(a._value.shape)} [Op:AdjustContrastv2]")
    return apply(_AdjustContrast, (a, f), {})
