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
    _state = ("total", "count")  # the Keras variables that hold its state

    def __init__(self, name=None, dtype=None):
        self.name = name or _camel_to_snake(type(self).__name__)
        self._vars = None
        self.reset_state()

    @property
    def variables(self):
        """Keras 3's state variables (``mean/total``, ``mean/count``), float32, as read now."""
        from .variables import Variable
        if self._vars is None:
            self._vars = [Variable(np.float32(0), trainable=False, name=n) for n in self._state]
            for v in self._vars:
                v._path = f"{self.name}/{v.name}"
        for v, x in zip(self._vars, (self._total, self._count)):
            v.assign(np.float32(x))
        return list(self._vars)

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
    _state = ("total",)
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


class MeanAbsoluteError(_MeanOfMatches):
    """The mean of ``|y_true - y_pred|`` over every example seen (Keras' ``mae``)."""

    def _matches(self, y_true, y_pred):
        return np.mean(np.abs(y_true.astype(np.float64) - y_pred), axis=-1)


class MeanSquaredError(_MeanOfMatches):
    """The mean of ``(y_true - y_pred)**2`` over every example seen (Keras' ``mse``)."""

    def _matches(self, y_true, y_pred):
        return np.mean(np.square(y_true.astype(np.float64) - y_pred), axis=-1)


class BinaryAccuracy(_MeanOfMatches):
    """How often ``y_pred > threshold`` equals the 0/1 label."""

    def __init__(self, name="binary_accuracy", dtype=None, threshold=0.5):
        self.threshold = threshold
        super().__init__(name=name, dtype=dtype)

    def _matches(self, y_true, y_pred):
        return (y_true == (y_pred > self.threshold)).astype(np.float64)


_BY_NAME = {"mae": MeanAbsoluteError, "mean_absolute_error": MeanAbsoluteError,
            "mse": MeanSquaredError, "mean_squared_error": MeanSquaredError,
            "sparse_categorical_accuracy": SparseCategoricalAccuracy,
            "categorical_accuracy": CategoricalAccuracy, "binary_accuracy": BinaryAccuracy}


def get(identifier, y_true=None, y_pred=None):
    """A metric from its name (as ``compile(metrics=[...])`` takes them) or itself.
    ``"accuracy"`` is picked from the shapes, as Keras 3 does."""
    if isinstance(identifier, Metric):
        return identifier
    if isinstance(identifier, str):
        if identifier in ("accuracy", "acc"):
            yt, yp = _host(y_true), _host(y_pred)
            if yp.ndim and yp.shape[-1] == 1:
                cls = BinaryAccuracy
            elif yt.ndim == yp.ndim and yt.shape == yp.shape:
                cls = CategoricalAccuracy
            else:
                cls = SparseCategoricalAccuracy
            return cls(name=identifier)
        if identifier in _BY_NAME:
            return _BY_NAME[identifier](name=identifier)
    if isinstance(identifier, type) and issubclass(identifier, Metric):
        return identifier()
    raise ValueError(f"Could not interpret metric identifier: {identifier}")


class CompileMetrics(Metric):
    """The metrics given to ``compile``: built at their first update (``"accuracy"`` needs
    the shapes), reported together as a dict."""

    def __init__(self, metrics):
        self._given = list(metrics)
        self._metrics = None
        super().__init__(name="compile_metrics")

    def reset_state(self):
        for m in self._metrics or ():
            m.reset_state()

    @property
    def variables(self):
        return [v for m in self._metrics or () for v in m.variables]

    def update_state(self, y_true, y_pred, sample_weight=None):
        if self._metrics is None:
            self._metrics = [get(m, y_true, y_pred) for m in self._given]
        for m in self._metrics:
            m.update_state(y_true, y_pred, sample_weight)

    def result(self):
        return {m.name: m.result() for m in self._metrics or ()}
