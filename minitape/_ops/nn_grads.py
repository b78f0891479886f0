"""Gradient rules (VJPs) of the primitives of :mod:`.nn_ops`, attached by name.

This layer sits above every forward module: a rule may use any operation (they are
written with minitape operations, so they can be differentiated again).
"""
from __future__ import annotations

from .._core import REGISTRY
from .math_ops import exp, greater_equal, less_equal, logical_and, multiply, subtract
from .reduce_ops import reduce_sum
from .array_ops import expand_dims, where
from .nn_ops import log_softmax, softmax
from .math_ops import negative
from .creation_ops import zeros_like


def _softmax_vjp(g, ans, x, axis):
    return multiply(ans, subtract(g, reduce_sum(multiply(g, ans), axis=axis, keepdims=True)))


def _clip_vjp(g, ans, x, lo, hi):
    inside = logical_and(greater_equal(x, lo), less_equal(x, hi))
    return where(inside, g, zeros_like(g))


REGISTRY['Softmax'].defvjps(_softmax_vjp)


REGISTRY['LogSoftmax'].defvjps(
    lambda g, ans, x, axis: subtract(g, multiply(exp(ans), reduce_sum(g, axis=axis, keepdims=True))))


REGISTRY['ClipByValue'].defvjps(_clip_vjp)


def _xent_dlogits(g, ans, logits, labels, axis):
    # TF's rule: softmax - labels, whatever labels sum to; its derivative is softmax's
    return multiply(expand_dims(g, axis), subtract(softmax(logits, axis=axis), labels))


def _xent_dlabels(g, ans, logits, labels, axis):
    return multiply(expand_dims(g, axis), negative(log_softmax(logits, axis=axis)))


REGISTRY['SoftmaxCrossEntropyWithLogits'].defvjps(_xent_dlogits, _xent_dlabels)
