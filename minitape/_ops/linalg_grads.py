"""Gradient rules (VJPs) of the primitives of :mod:`.linalg_ops`, attached by name.

This layer sits above every forward module: a rule may use any operation (they are
written with minitape operations, so they can be differentiated again).
"""
from __future__ import annotations

import builtins

from .. import _backend as B
from .._core import REGISTRY, Tensor
from .._state import tapes as _tapes, accumulators as _accumulators
from .math_ops import multiply, negative
from .array_ops import _EachInput, reshape, transpose
from .creation_ops import eye, ones
from .linalg_ops import _Einsum, _mT, einsum, inv, matmul, solve


def _parse_einsum(spec, shapes):
    spec = spec.replace(" ", "")
    if "->" in spec:
        ins, out = spec.split("->")
    else:
        ins = spec
        letters = [c for c in ins.replace(",", "")]
        out = "".join(sorted(c for c in set(letters) if letters.count(c) == 1))
    return ins.split(","), out


def _einsum_vjp_k(k, g, ans, *inputs, spec, batch=False):
    """Operand k's gradient is itself an einsum: of g with the other operands, onto k's
    distinct indices; indices summed only inside operand k come back as a broadcast (a ones
    vector), repeated indices (a diagonal, ``ii``) as a product with the identity.
    ``batch``: ``g`` has a leading batch axis, given a letter of its own kept in front."""
    import string
    ins, out = _parse_einsum(spec, None)
    lead = ""
    if batch:
        lead = next(c for c in string.ascii_letters if c not in spec)
        spec = spec + lead  # (so that no other letter chosen below is the batch's)
    target = ins[k]
    shape = inputs[k]._value.shape
    others = [ins[j] for j in builtins.range(len(ins)) if j != k]
    available = set(out).union(*[set(o) for o in others]) if others else set(out)
    uniq = "".join(dict.fromkeys(c for c in target if c in available))
    r = einsum(",".join([lead + out] + others) + "->" + lead + uniq, g,
               *[inputs[j] for j in builtins.range(len(ins)) if j != k])
    if uniq == target:
        return r
    free = iter(c for c in string.ascii_letters if c not in spec)
    specs, ops, result, seen = [lead + uniq], [r], [lead] if lead else [], set()
    for c, n in zip(target, shape):
        if c in seen:  # a repeated index: the gradient lives on the diagonal
            f = next(free)
            specs.append(c + f)
            ops.append(eye(n, dtype=g.dtype))
            result.append(f)
            continue
        seen.add(c)
        if c not in available:  # summed inside this operand only: broadcast back
            specs.append(c)
            ops.append(ones((n,), dtype=g.dtype))
        result.append(c)
    return einsum(",".join(specs) + "->" + "".join(result), *ops)


def _einsum_batch_k(k, g, ans, *inputs, spec):
    return _einsum_vjp_k(k, g, ans, *inputs, spec=spec, batch=True)


_Einsum.defvjps(_EachInput(_einsum_vjp_k)).defbatch(_EachInput(_einsum_batch_k))


def _inv_vjp(g, ans, x):
    ai = _mT(ans)
    return negative(matmul(matmul(ai, g), ai))


def _solve_da(g, ans, a, b):
    gb = solve(_mT(a), g)
    return negative(matmul(gb, ans, transpose_b=True))


_SHORTCUT_MIN = 64 * 64  # gradient elements from which the shortcut below pays for its checks


def _selected_rows(g, vector_axis):
    """``(cols, vals)`` when the batched gradient ``g`` of a matrix-vector product has at most
    one nonzero per seed, ``vals[i]`` at position ``cols[i]``; else None.

    This is what a Jacobian's identity seeds (a chunk of them) become through element-wise
    operations, ``diag(d)``; a matrix product with it is ``vals`` times the selected rows of
    the matrix: O(n^2) instead of the O(n^3) product, and the same numbers (every other term
    of the product is an exact zero; the caller checks the matrix is finite).  Only when
    nothing records (the shortcut is not an operation that could be differentiated again)
    and on NumPy arrays (the check reads values on the host).
    """
    if _tapes or _accumulators:
        return None
    v = g._value
    if type(v) is not B.numpy.ndarray or v.ndim != 3 or v.shape[vector_axis] != 1:
        return None
    if v.size < _SHORTCUT_MIN:
        return None
    np = B.numpy
    G = v.reshape(v.shape[0], -1)
    cols = np.argmax(G != 0, axis=1)
    vals = G[np.arange(G.shape[0]), cols]
    if np.count_nonzero(G) != np.count_nonzero(vals):
        return None
    return cols, vals


def _matmul_da_batch(g, ans, a, b):
    # g (batch, ..., m, n) @ b^T: with a plain matrix b, one matrix product over all rows
    # (NumPy's matmul would loop over the stack, one small product per seed)
    if b._value.ndim == 2:
        sel = _selected_rows(g, 1)  # x (1, k) @ b: seed i gives vals[i] * b[:, cols[i]]
        if sel is not None and B.numpy.isfinite(b._value).all():
            cols, vals = sel
            return Tensor((vals[:, None] * b._value.T[cols])[:, None, :])
        gs = g._value.shape
        r = matmul(reshape(g, (-1, gs[-1])), b, transpose_b=True)
        return reshape(r, gs[:-1] + (b._value.shape[0],))
    return matmul(g, b, transpose_b=True)


def _matmul_db_batch(g, ans, a, b):
    # a^T @ g (batch, ..., m, n) = (g^T @ a)^T: with a plain matrix a, one matrix product
    if a._value.ndim == 2:
        sel = _selected_rows(g, 2)  # a @ x (k, 1): seed i gives vals[i] * a[cols[i], :]
        if sel is not None and B.numpy.isfinite(a._value).all():
            cols, vals = sel
            return Tensor((vals[:, None] * a._value[cols])[:, :, None])
        gs = g._value.shape
        nd = len(gs)
        swap = list(range(nd - 2)) + [nd - 1, nd - 2]
        gt = reshape(transpose(g, swap), (-1, gs[-2]))  # (batch * ... * n, m)
        r = reshape(matmul(gt, a), gs[:-2] + (gs[-1], a._value.shape[1]))
        return transpose(r, swap)
    return matmul(a, g, transpose_a=True)


REGISTRY['MatMul'].defvjps(
    lambda g, ans, a, b: matmul(g, b, transpose_b=True),
    lambda g, ans, a, b: matmul(a, g, transpose_a=True))
REGISTRY['MatMul'].defbatch(_matmul_da_batch, _matmul_db_batch)


REGISTRY['MatrixInverse'].defvjps(_inv_vjp, batch=True)


def _det_vjp(g, ans, x):
    ga = multiply(g, ans)  # (the shape of g: batch-safe)
    return multiply(reshape(ga, list(ga._value.shape) + [1, 1]), _mT(inv(x)))


def _solve_batch(a, g, b):
    """solve(a^T, g) for g with a leading batch axis: a vector right-hand side ``b`` makes g a
    (batch, n) matrix, solved as its transpose."""
    if b._value.ndim == 1:
        return _mT(solve(_mT(a), _mT(g)))
    return solve(_mT(a), g)


def _solve_da_batch(g, ans, a, b):
    gb = _solve_batch(a, g, b)
    return negative(matmul(gb, ans, transpose_b=True))


REGISTRY['MatrixDeterminant'].defvjps(_det_vjp, batch=True)


REGISTRY['MatrixSolve'].defvjps(_solve_da, lambda g, ans, a, b: solve(_mT(a), g)).defbatch(
    _solve_da_batch, lambda g, ans, a, b: _solve_batch(a, g, b))
