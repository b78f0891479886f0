"""Gradient rules (VJPs) of the primitives of :mod:`.linalg_ops`, attached by name.

This layer sits above every forward module: a rule may use any operation (they are
written with minitape operations, so they can be differentiated again).
"""
from __future__ import annotations

import builtins

from .._core import REGISTRY
from .math_ops import multiply, negative
from .array_ops import _EachInput, reshape
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


def _einsum_vjp_k(k, g, ans, *inputs, spec):
    """Operand k's gradient is itself an einsum: of g with the other operands, onto k's
    distinct indices; indices summed only inside operand k come back as a broadcast (a ones
    vector), repeated indices (a diagonal, ``ii``) as a product with the identity."""
    import string
    ins, out = _parse_einsum(spec, None)
    target = ins[k]
    shape = inputs[k]._value.shape
    others = [ins[j] for j in builtins.range(len(ins)) if j != k]
    available = set(out).union(*[set(o) for o in others]) if others else set(out)
    uniq = "".join(dict.fromkeys(c for c in target if c in available))
    r = einsum(",".join([out] + others) + "->" + uniq, g,
               *[inputs[j] for j in builtins.range(len(ins)) if j != k])
    if uniq == target:
        return r
    free = iter(c for c in string.ascii_letters if c not in spec)
    specs, ops, result, seen = [uniq], [r], [], set()
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


_Einsum.defvjps(_EachInput(_einsum_vjp_k))


def _inv_vjp(g, ans, x):
    ai = _mT(ans)
    return negative(matmul(matmul(ai, g), ai))


def _solve_da(g, ans, a, b):
    gb = solve(_mT(a), g)
    return negative(matmul(gb, ans, transpose_b=True))


REGISTRY['MatMul'].defvjps(
    lambda g, ans, a, b: matmul(g, b, transpose_b=True),
                     lambda g, ans, a, b: matmul(a, g, transpose_a=True))


REGISTRY['MatrixInverse'].defvjps(_inv_vjp)


REGISTRY['MatrixDeterminant'].defvjps(
    lambda g, ans, x: multiply(reshape(multiply(g, ans), list(ans._value.shape) + [1, 1]), _mT(inv(x))))


REGISTRY['MatrixSolve'].defvjps(_solve_da, lambda g, ans, a, b: solve(_mT(a), g))
