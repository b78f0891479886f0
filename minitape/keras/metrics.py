"""Keras metrics a training loop meets: ``Mean``, ``Sum``, ``Accuracy`` and the categorical
accuracies.  A metric accumulates with ``update_state``, reports with ``result()`` (a float32
scalar tensor) and starts over with ``reset_state()``; calling it updates and returns the
result, as in Keras 3.  Values are read without recording (a metric is never differentiated)."""
from __future__ import annotations

import numpy as np

from .. import _backend as B
from .._core import Tensor, _to_tensor, constant
from ..module import _camel_to_snake


def _host(x):
    if isinstance(x, Tensor):
        return np.asarray(B.to_host(_to_tensor(x)._value))
    return np.asarray(x)


class Metric:
    def __init__(self, name=None, dtype=None):
        self.name = name or _camel_to_snake(type(self).__name__)
        self.reset_state()

    def reset_state(self):
        self._total = 0.0
        self._count = 0.0

    reset_states = reset_state

    def result(self):
        return constant(np.float32(self._total / self._count if self._count else 0.0))

    def __call__(self, *args, **kwargs):
        self.update_state(*args, **kwargs)
        return self.result()

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}>"


class Sum(Metric):
    def update_state(self, values, sample_weight=None):
        v = _host(values).astype(np.float64)
        if sample_weight is not None:
            v = v * np.broadcast_to(_host(sample_weight), v.shape)
        self._total += float(v.sum())

    def result(self):
        return constant(np.float32(self._total))


class Mean(Metric):
    """The (weighted) mean of every value passed to ``update_state`` so far."""

    def update_state(self, values, sample_weight=None):
        v = _host(values).astype(np.float64)
        w = np.ones_like(v) if sample_weight is None else np.broadcast_to(
            _host(sample_weight).astype(np.float64), v.shape)
        self._total += float((v * w).sum())
        self._count += float(w.sum())


class _MeanOfMatches(Mean):
    def _matches(self, y_true, y_pred):
        raise NotImplementedError

    def update_state(self, y_true, y_pred, sample_weight=None):
        Mean.update_state(self, self._matches(_host(y_true), _host(y_pred)), sample_weight)


class Accuracy(_MeanOfMatches):
    """How often ``y_pred`` equals ``y_true``."""

    def _matches(self, y_true, y_pred):
        return (y_true == y_pred).astype(np.float64)


class SparseCategoricalAccuracy(_MeanOfMatches):
    """How often the integer label equals the index of the largest score."""

    def _matches(self, y_true, y_pred):
        t = y_true.reshape(y_pred.shape[:-1]) if y_true.size == np.prod(y_pred.shape[:-1]) else y_true
        return (t.astype(np.int64) == np.argmax(y_pred, axis=-1)).astype(np.float64)


class CategoricalAccuracy(_MeanOfMatches):
    """How often the one-hot label's class is the index of the largest score."""

    def _matches(self, y_true, y_pred):
        return (np.argmax(y_true, axis=-1) == np.argmax(y_pred, axis=-1)).astype(np.float64)


def accuracy(y_true, y_pred):
    """Per-example equality of ``y_true`` and ``y_pred`` as float32 (Keras' ``accuracy``)."""
    return constant((_host(y_true) == _host(y_pred)).astype(np.float32))


def sparse_categorical_accuracy(y_true, y_pred):
    return constant(SparseCategoricalAccuracy()._matches(_host(y_true), _host(y_pred))
                    .astype(np.float32))
