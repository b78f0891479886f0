"""``tf.random``: reproducible random tensors (``set_seed``, ``normal``, ``uniform``)."""
from __future__ import annotations

from . import _backend as B
from . import dtypes as _d
from ._core import Tensor

_np = B.numpy
_rng = [None]         # the global stream, made on first use (numpy.random costs ~25 ms to import)
_global_seed = [None]
_op_rngs: dict = {}   # operation seed -> its own stream (restarted by set_seed)


def set_seed(seed):
    """Make every later random op reproducible (the global seed, as in TensorFlow).

    After ``set_seed(s)`` the same sequence of random calls gives the same values again.  An
    operation seed (``seed=`` of each function) gives that call site its own stream: as in
    TensorFlow's eager mode, two calls with the same operation seed give different values,
    and the pair (global seed, operation seed) fixes the whole sequence.
    """
    _global_seed[0] = int(seed)
    _rng[0] = _np.random.default_rng(int(seed))
    _op_rngs.clear()


def _gen(seed):
    if seed is None:
        if _rng[0] is None:
            _rng[0] = _np.random.default_rng()
        return _rng[0]
    g = _op_rngs.get(int(seed))
    if g is None:
        g = _np.random.default_rng([int(seed), _global_seed[0] if _global_seed[0] is not None else 87654321])
        _op_rngs[int(seed)] = g
    return g


def _float_dtype(dtype, fn):
    dt = _d.as_dtype(dtype)
    if not dt.is_floating:
        raise ValueError(f"Invalid dtype {dt.name} for tf.random.{fn}: a floating dtype "
                         "(float16, float32, float64) is required")
    return dt


def _place(arr):
    mod = B.default_module()
    return Tensor(arr if mod is _np else mod.asarray(arr))


def _shape(shape):
    if isinstance(shape, Tensor):
        return tuple(int(s) for s in shape.numpy().reshape(-1))
    if isinstance(shape, int):
        return (shape,)
    return tuple(int(s) for s in shape)


def normal(shape, mean=0.0, stddev=1.0, dtype=_d.float32, seed=None, name=None):
    """Samples of N(mean, stddev**2) with the given shape (float32 unless ``dtype``)."""
    dt = _float_dtype(dtype, "normal")
    a = _gen(seed).normal(float(mean), float(stddev), size=_shape(shape)).astype(dt._np)
    return _place(a)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=_d.float32, seed=None, name=None):
    dt = _float_dtype(dtype, "truncated_normal")
    g = _gen(seed)
    shape = _shape(shape)
    a = g.standard_normal(size=shape)
    bad = _np.abs(a) > 2
    while bad.any():
        a[bad] = g.standard_normal(size=int(bad.sum()))
        bad = _np.abs(a) > 2
    return _place((a * float(stddev) + float(mean)).astype(dt._np))


def uniform(shape, minval=0, maxval=None, dtype=_d.float32, seed=None, name=None):
    dt = _d.as_dtype(dtype)
    g = _gen(seed)
    if dt.is_integer:
        if maxval is None:
            raise ValueError("Must specify maxval for integer dtype")
        if int(minval) >= int(maxval):
            raise ValueError(f"Need minval < maxval: {int(minval)} >= {int(maxval)}")
        a = g.integers(int(minval), int(maxval), size=_shape(shape)).astype(dt._np)
    else:
        a = g.uniform(float(minval), 1.0 if maxval is None else float(maxval),
                      size=_shape(shape)).astype(dt._np)
    return _place(a)


def shuffle(value, seed=None, name=None):
    from ._ops import gather, _to_tensor
    t = _to_tensor(value)
    perm = _gen(seed).permutation(t.shape[0])
    return gather(t, perm)
