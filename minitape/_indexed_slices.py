"""``tf.IndexedSlices``: a sparse gradient (rows ``values`` at rows ``indices`` of a tensor of
shape ``dense_shape``), what the gradient of ``tf.gather`` (axis 0) and of embedding lookups is.

TensorFlow's semantics, checked against TF 2.21 (``benchmarks/tfdiff``, notebook
``sparse_gradients``):

* it is not a ``tf.Tensor`` (``tf.is_tensor`` is True), has no ``numpy()``, no ``len``, no
  indexing, and Python's ``+``/``*``/``/`` do not apply to it (``-g`` does);
* ``print`` shows ``IndexedSlices(indices=..., values=..., dense_shape=...)``; its repr is
  Python's default;
* an operation densifies it (``tf.convert_to_tensor(g)``, ``tf.add(g, g)``, ``g`` as an
  operand): the values are summed into their rows (TF's ``UnsortedSegmentSum``), a recorded
  operation, so higher-order gradients flow through it;
* ``tf.identity``, ``tf.cast``, ``tf.clip_by_value`` and ``tf.clip_by_norm`` keep it sparse;
* two sparse gradients of one tensor accumulate into one IndexedSlices (indices and values
  concatenated); with a dense one, into a dense tensor;
* optimizers apply it row by row (``Variable.scatter_sub``), as Keras 3 does.

Inside minitape an IndexedSlices that meets an operation is read as its dense tensor
(``_value`` and ``_id`` below), so every gradient rule accepts one as its output gradient.
"""
from __future__ import annotations

from . import _backend as B
from ._tensor import Tensor, TensorShape, convert_to_tensor
from ._state import tapes as _tapes, accumulators as _accumulators
from .dtypes import int64

np = B.numpy

# The operations an IndexedSlices needs (negative, concat, cast, reshape, and its densifying
# scatter), installed once by minitape._ops when the operations exist: this module sits below
# them in the engine's layers (docs/architecture.md), as Tensor's operators do.
_OPS = {}


def install(**ops) -> None:
    """Give IndexedSlices the operations it uses (called by ``minitape._ops`` at import)."""
    _OPS.update(ops)


class IndexedSlices:
    """A sparse representation of a tensor: ``dense[indices[i]] += values[i]``."""

    __slots__ = ("_values", "_indices", "_dense_shape", "_dense", "__weakref__")

    def __init__(self, values, indices, dense_shape=None):
        self._values = convert_to_tensor(values)
        self._indices = convert_to_tensor(indices)
        self._dense_shape = None if dense_shape is None else convert_to_tensor(dense_shape)
        self._dense = None  # (dense tensor, the recorders active when it was made)

    @property
    def values(self):
        return self._values

    @property
    def indices(self):
        return self._indices

    @property
    def dense_shape(self):
        return self._dense_shape

    @property
    def shape(self):
        if self._dense_shape is None:
            return TensorShape((None,) + tuple(self._values._value.shape[1:]))
        return TensorShape(int(d) for d in B.to_host(self._dense_shape._value))

    @property
    def dtype(self):
        return self._values.dtype

    @property
    def device(self):
        return self._values.device

    def __neg__(self):
        return IndexedSlices(_OPS["negative"](self._values), self._indices, self._dense_shape)

    def __str__(self):
        shape = "" if self._dense_shape is None else f", dense_shape={self._dense_shape!s}"
        return f"IndexedSlices(indices={self._indices!s}, values={self._values!s}{shape})"

    # --- as a dense tensor ---------------------------------------------------------------
    def _as_tensor(self):
        """The dense tensor (convert_to_tensor's hook): the values summed into their rows.

        Recorded (its gradient gathers the rows), and made again when tapes or accumulators
        have started recording since it was last made, so that they see it."""
        recorders = tuple(_tapes) + tuple(_accumulators)
        d = self._dense
        if d is not None and d[1] == recorders:
            return d[0]
        if self._dense_shape is None:
            raise ValueError(f"Tensor conversion requested for IndexedSlices for argument "
                             f"`value` without dense_shape: {self}")
        shape = tuple(int(s) for s in B.to_host(self._dense_shape._value))
        idx = self._indices._value.reshape(-1)
        t = _OPS["scatter"](self._values, idx, shape)
        self._dense = (t, recorders)
        return t

    # an operation given an IndexedSlices reads its dense tensor (gradient rules included)
    @property
    def _value(self):
        return self._as_tensor()._value

    @property
    def _id(self):
        return self._as_tensor()._id

    def _with_values(self, values):
        return IndexedSlices(values, self._indices, self._dense_shape)


IndexedSlices.__module__ = "minitape"


def concat_slices(a, b):
    """Two sparse gradients of one tensor as one (TF's AggregateIndexedSlicesGradients)."""
    concat, cast = _OPS["concat"], _OPS["cast"]
    ia, ib = a._indices, b._indices
    if ia.dtype != ib.dtype:  # TF casts int32 indices to int64 when they are mixed
        ia, ib = cast(ia, int64), cast(ib, int64)
    return IndexedSlices(concat([a._values, b._values], 0), concat([ia, ib], 0), a._dense_shape)


def sparse_gradient(g, indices, shape):
    """The gradient of a gather along axis 0 from a tensor of ``shape``: ``g`` reshaped to one
    row per index (TF's ``_GatherV2Grad`` / ``ResourceGather``'s gradient)."""
    idx = indices.reshape(-1)
    values = _OPS["reshape"](g, (idx.shape[0],) + tuple(shape[1:]))
    return IndexedSlices(values, Tensor(idx), Tensor(np.asarray(shape, dtype=np.int32)))
