"""Forward primitives: linear algebra (matmul, einsum, inverse, determinant, solve, norm).

Gradient rules live in :mod:`.linalg_grads`.
"""
from __future__ import annotations

import builtins
import numbers

from .. import _backend as B
from .._core import apply, primitive, _to_tensor, keep_inputs
from ..errors import InvalidArgumentError
from ._adapt import _pair, _same_dtype
from .math_ops import abs, pow, sqrt, square
from .reduce_ops import reduce_max, reduce_sum
from .array_ops import squeeze, transpose

xp = B.xp
np = B.numpy  # host-side helpers only (dtype objects, index arithmetic)
_float = float
_int = int
_brange = builtins.range  # the operations define `range` (tf.range): Python's is this


def _mT(x):
    nd = x._value.ndim
    perm = list(_brange(nd - 2)) + [nd - 1, nd - 2]
    return transpose(x, perm)


# batch dims broadcast; its rules read the operands only (the product is not kept)
_MatMul = primitive("MatMul", lambda a, b: a @ b, unbroadcast=True, save=keep_inputs)


def _rank_error(nx, ny, sx, sy):
    """TF 2.21's texts: tf.matmul runs BatchMatMulV2 when an operand has more than two axes,
    else MatMul, whose kernel compares the ranks first."""
    if max(nx, ny) > 2:
        i = 0 if nx < 2 else 1
        raise InvalidArgumentError(f"In[{i}] ndims must be >= 2: {min(nx, ny)} "
                                   "[Op:BatchMatMulV2]")
    if nx != ny:
        def show(s):
            return "[" + ",".join(str(d) for d in s) + "]"
        raise InvalidArgumentError(f"In[0] and In[1] has different ndims: {show(sx)} vs. "
                                   f"{show(sy)} [Op:MatMul]")
    if nx == 1:
        raise InvalidArgumentError("In[0] and In[1] ndims must be == 2: 1 [Op:MatMul]")
    raise InvalidArgumentError("In[0] is not a matrix. Instead it has shape [] [Op:MatMul]")


def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False,
           a_is_sparse=False, b_is_sparse=False, output_type=None, name=None):
    """Matrix product of the last two axes (batched over leading axes)."""
    x, y = _pair(a, b, "MatMul")
    if x._value.ndim < 2 or y._value.ndim < 2:
        _rank_error(x._value.ndim, y._value.ndim, x._value.shape, y._value.shape)
    if transpose_a or adjoint_a:
        x = _mT(x)
    if transpose_b or adjoint_b:
        y = _mT(y)
    if x._value.shape[-1] != y._value.shape[-2]:
        op = "MatMul" if x._value.ndim == 2 and y._value.ndim == 2 else "BatchMatMulV2"
        raise InvalidArgumentError(
            f"Matrix size-incompatible: In[0]: [{','.join(map(str, x._value.shape))}], In[1]: "
            f"[{','.join(map(str, y._value.shape))}] [Op:{op}]")
    return apply(_MatMul, (x, y), {})


def tensordot(a, b, axes, name=None):
    return einsum(_tensordot_spec(_to_tensor(a)._value.ndim, _to_tensor(b)._value.ndim, axes), a, b)


def _tensordot_spec(na, nb, axes):
    letters = "abcdefghijklmnopqrstuvwxyz"
    if isinstance(axes, int):
        ax_a = list(_brange(na - axes, na))
        ax_b = list(_brange(axes))
    else:
        ax_a, ax_b = [list(x) if isinstance(x, (list, tuple)) else [x] for x in axes]
    sa = list(letters[:na])
    sb = list(letters[na:na + nb])
    for i, j in zip(ax_a, ax_b):
        sb[j % nb] = sa[i % na]
    out = [c for i, c in enumerate(sa) if i not in [k % na for k in ax_a]] + \
          [c for j, c in enumerate(sb) if j not in [k % nb for k in ax_b]]
    return "".join(sa) + "," + "".join(sb) + "->" + "".join(out)


def _expand_ellipsis(spec, ndims):
    """Rewrite ``...`` as explicit letters (right-aligned, as NumPy broadcasts them)."""
    import string
    ins, arrow, out = spec.partition("->")
    subs = ins.split(",")
    if len(subs) != len(ndims):
        raise ValueError(f"einsum equation {spec!r} names {len(subs)} operands, got {len(ndims)}")
    free = [c for c in string.ascii_letters if c not in spec]
    counts = [nd - (len(s) - 3) for s, nd in zip(subs, ndims) if "..." in s]
    n = max(counts) if counts else 0
    if any(c < 0 for c in counts):
        raise ValueError(f"einsum equation {spec!r} has more indices than an operand has dimensions")
    ell = "".join(free[:n])
    subs = [s.replace("...", ell[n - (nd - (len(s) - 3)):] if n else "") if "..." in s else s
            for s, nd in zip(subs, ndims)]
    if arrow:
        out = out.replace("...", ell)
    else:
        letters = "".join(subs)
        out = ell + "".join(sorted(c for c in set(letters) if letters.count(c) == 1 and c not in ell))
    return ",".join(subs) + "->" + out


_Einsum = primitive("Einsum", lambda *arrays, spec: xp(arrays[0]).einsum(spec, *arrays),
                    unbroadcast=True)  # "..." dims broadcast


def einsum(equation, *inputs, **kwargs):
    """Einstein summation (NumPy's notation, ``...`` included); gradients of any order."""
    ts = _same_dtype(list(inputs), "Einsum")
    spec = equation.replace(" ", "")
    if "..." in spec:
        spec = _expand_ellipsis(spec, [t._value.ndim for t in ts])
    return apply(_Einsum, tuple(ts), {"spec": spec})


_MatrixInverse = primitive("MatrixInverse", lambda a: xp(a).linalg.inv(a))


def inv(input, adjoint=False, name=None):  # noqa: A002
    return apply(_MatrixInverse, (_to_tensor(input),), {})


_MatrixDeterminant = primitive(
    "MatrixDeterminant", lambda a: xp(a).linalg.det(a))


def det(input, name=None):  # noqa: A002
    return apply(_MatrixDeterminant, (_to_tensor(input),), {})


def _solve_fwd(a, b):
    m = xp(a)
    if m is not np and b.ndim >= 2 and a.shape[:-2] != b.shape[:-2]:
        # NumPy broadcasts the batch dimensions of a and b; CuPy's solve requires them equal
        batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
        a = m.ascontiguousarray(m.broadcast_to(a, batch + a.shape[-2:]))
        b = m.ascontiguousarray(m.broadcast_to(b, batch + b.shape[-2:]))
    return m.linalg.solve(a, b)


_MatrixSolve = primitive("MatrixSolve", _solve_fwd, unbroadcast=True)  # batch dims broadcast


def solve(matrix, rhs, adjoint=False, name=None):
    a, b = _pair(matrix, rhs, "MatrixSolve")
    if adjoint:
        a = _mT(a)
    return apply(_MatrixSolve, (a, b), {})


def norm(tensor, ord="euclidean", axis=None, keepdims=None, name=None):  # noqa: A002
    """Vector p-norms (over all elements, or ``axis``) and matrix norms (``axis`` a pair).

    ``ord``: ``'euclidean'`` (default), a positive number, ``np.inf``; for matrices
    ``'fro'``/``'euclidean'`` (Frobenius), ``1`` (largest column sum of ``|x|``) and ``np.inf``
    (largest row sum).  As in TensorFlow, ``'fro'`` is not a vector norm.
    """
    x = _to_tensor(tensor)
    keep = builtins.bool(keepdims)
    if isinstance(axis, (list, tuple)) and len(axis) == 2:
        return _matrix_norm(x, ord, axis, keep)
    if isinstance(axis, (list, tuple)) and len(axis) > 2:
        raise ValueError(f"'axis' must be None, an integer, or a tuple of 2 unique integers, got {axis}")
    if isinstance(ord, str) and ord == "euclidean" or (not isinstance(ord, str) and ord == 2):
        return sqrt(reduce_sum(square(x), axis=axis, keepdims=keep))
    if isinstance(ord, str) or not isinstance(ord, numbers.Real) or not ord > 0:
        raise ValueError(f"'ord' must be a supported vector norm, got {ord}")
    if ord == 1:
        return reduce_sum(abs(x), axis=axis, keepdims=keep)
    if ord == np.inf:
        return reduce_max(abs(x), axis=axis, keepdims=keep)
    p = _float(ord)
    return pow(reduce_sum(pow(abs(x), p), axis=axis, keepdims=keep), 1.0 / p)


def _matrix_norm(x, ord, axis, keep):  # noqa: A002
    nd = x._value.ndim
    rows, cols = (_int(a) % nd for a in axis)
    if rows == cols:
        raise ValueError(f"'axis' must be None, an integer, or a tuple of 2 unique integers, got {axis}")
    if isinstance(ord, str) and ord in ("euclidean", "fro"):
        return sqrt(reduce_sum(square(x), axis=[rows, cols], keepdims=keep))
    if not isinstance(ord, str) and ord == 2:
        raise NotImplementedError("minitape.norm: the spectral norm (ord=2 over two axes) needs an "
                                  "SVD, which minitape does not differentiate; use ord='fro'")
    if isinstance(ord, str) or ord not in (1, np.inf):
        raise ValueError("'ord' must be a supported matrix norm in ['euclidean', 'fro', 1, 2, "
                         f"inf], got {ord}")
    summed, taken = (rows, cols) if ord == 1 else (cols, rows)  # column sums, or row sums
    r = reduce_max(reduce_sum(abs(x), axis=summed, keepdims=True), axis=taken, keepdims=True)
    return r if keep else squeeze(r, axis=[rows, cols])
