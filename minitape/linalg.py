"""``tf.linalg``: matrix operations with gradients."""
from ._ops import det, einsum, eye, inv, matmul, norm, solve, tensordot  # noqa: F401
from ._ops import diag, logdet, slogdet  # noqa: F401
from ._ops import transpose as _transpose, _to_tensor, reduce_sum as _reduce_sum, \
    getitem as _getitem


def matrix_transpose(a, name=None):
    a = _to_tensor(a)
    nd = a.ndim
    return _transpose(a, list(range(nd - 2)) + [nd - 1, nd - 2])


def _square_part(x):
    k = min(x.shape[-2], x.shape[-1])
    return x if x.shape[-2] == x.shape[-1] else _getitem(x, (Ellipsis, slice(0, k), slice(0, k)))


def trace(x, name=None):
    """Sum of the main diagonal of the last two axes (any shape of matrix)."""
    return einsum("...ii->...", _square_part(_to_tensor(x)))


def diag_part(input, name=None):  # noqa: A002
    """The main diagonal of the last two axes: ``min(rows, cols)`` entries."""
    return einsum("...ii->...i", _square_part(_to_tensor(input)))


def matvec(a, b, transpose_a=False, name=None):
    from ._ops import expand_dims, squeeze
    return squeeze(matmul(a, expand_dims(b, -1), transpose_a=transpose_a), axis=-1)


def global_norm(t_list, name=None):
    from ._ops import add_n, square, sqrt
    return sqrt(add_n([_reduce_sum(square(t)) for t in t_list if t is not None]))
