"""Loss functions (callables, as in Keras)."""
from .. import _ops
from .. import nn as _nn
from .._core import _to_tensor
from .. import dtypes as _d

_EPSILON = 1e-7  # Keras' backend epsilon: probabilities are clipped to [eps, 1 - eps]


class MeanSquaredError:
    def __call__(self, y_true, y_pred):
        return _ops.reduce_mean(_ops.square(_ops.subtract(y_pred, y_true)))


def mean_squared_error(y_true, y_pred):
    return _ops.reduce_mean(_ops.square(_ops.subtract(y_pred, y_true)), axis=-1)


MSE = mse = mean_squared_error


def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False, axis=-1):
    """Per-example cross-entropy of integer labels ``y_true`` and class scores ``y_pred``.

    ``from_logits=False`` (Keras' default): ``y_pred`` are probabilities, rescaled to sum to 1
    and clipped to ``[1e-7, 1 - 1e-7]`` as Keras does; ``True``: logits (the stable form).
    """
    y_pred = _to_tensor(y_pred)
    labels = _ops.cast(_to_tensor(y_true), _d.int64)
    if labels.shape.rank == y_pred.shape.rank:  # Keras accepts labels of shape (batch, 1)
        labels = _ops.squeeze(labels, axis=-1)
    if from_logits:
        return _nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=y_pred)
    p = _ops.divide(y_pred, _ops.reduce_sum(y_pred, axis=axis, keepdims=True))
    p = _ops.clip_by_value(p, _EPSILON, 1.0 - _EPSILON)
    onehot = _ops.one_hot(labels, y_pred.shape[axis], dtype=y_pred.dtype)
    return _ops.negative(_ops.reduce_sum(_ops.multiply(onehot, _ops.log(p)), axis=axis))


class SparseCategoricalCrossentropy:
    """Keras' ``SparseCategoricalCrossentropy``: the mean over the batch of
    :func:`sparse_categorical_crossentropy` (``reduction="sum_over_batch_size"``)."""

    def __init__(self, from_logits=False, reduction="sum_over_batch_size", name=None, **kwargs):
        if reduction not in ("sum_over_batch_size", "sum", "none", None):
            raise ValueError(f"Invalid value for argument `reduction`: {reduction!r}. Expected "
                             "one of 'sum_over_batch_size', 'sum', 'none' or None.")
        self.from_logits = from_logits
        self.reduction = reduction

    def __call__(self, y_true, y_pred, sample_weight=None):
        losses = sparse_categorical_crossentropy(y_true, y_pred, from_logits=self.from_logits)
        if sample_weight is not None:
            losses = _ops.multiply(losses, _ops.cast(_to_tensor(sample_weight), losses.dtype))
        if self.reduction in ("none", None):
            return losses
        total = _ops.reduce_sum(losses)
        if self.reduction == "sum":
            return total
        return _ops.divide(total, _ops.cast(_ops.size(losses), losses.dtype))


class MeanAbsoluteError:
    def __call__(self, y_true, y_pred):
        return _ops.reduce_mean(_ops.abs(_ops.subtract(y_pred, y_true)))


def mean_absolute_error(y_true, y_pred):
    return _ops.reduce_mean(_ops.abs(_ops.subtract(y_pred, y_true)), axis=-1)


MAE = mae = mean_absolute_error

_BY_NAME = {"mse": MeanSquaredError, "mean_squared_error": MeanSquaredError,
            "mae": MeanAbsoluteError, "mean_absolute_error": MeanAbsoluteError,
            "sparse_categorical_crossentropy": SparseCategoricalCrossentropy}


def get(identifier):
    """A loss from its name (as ``compile(loss=...)`` takes them), a class or a callable."""
    if isinstance(identifier, str):
        if identifier not in _BY_NAME:
            raise ValueError(f"Could not interpret loss identifier: {identifier}")
        return _BY_NAME[identifier]()
    if isinstance(identifier, type):
        return identifier()
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret loss identifier: {identifier}")
