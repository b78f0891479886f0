"""Nested structures of lists, tuples, dicts and namedtuples (TensorFlow's ``tf.nest``)."""
from __future__ import annotations

__all__ = ["flatten", "map_structure", "pack_sequence_as", "is_nested"]


def is_nested(x) -> bool:
    return isinstance(x, (list, tuple, dict))


def _children(x):
    if isinstance(x, dict):
        return [x[k] for k in sorted(x, key=_sort_key)]
    return list(x)


def _sort_key(k):
    return (0, k) if isinstance(k, (int, float)) else (1, str(k))


def flatten(structure, expand_composites=False, keep_none=True):
    """All leaves of ``structure`` in order (dicts by sorted key), as a flat list."""
    out = []
    stack = [structure]
    while stack:
        x = stack.pop()
        if is_nested(x):
            stack.extend(reversed(_children(x)))
        elif x is not None or keep_none:
            out.append(x)
    return out


def pack_sequence_as(structure, flat_sequence, expand_composites=False):
    """Rebuild ``structure`` with its leaves replaced, in order, by ``flat_sequence``."""
    flat_sequence = list(flat_sequence)
    if not is_nested(structure):
        if len(flat_sequence) != 1:
            raise ValueError(f"Structure is a scalar but len(flat_sequence) == {len(flat_sequence)} > 1")
        return flat_sequence[0]
    it = iter(flat_sequence)
    result = _pack(structure, it)
    rest = list(it)
    if rest:
        raise ValueError(f"Could not pack sequence: {len(rest)} more values than leaves in the structure.")
    return result


def _pack(s, it):
    if isinstance(s, dict):
        packed = {k: _pack(s[k], it) for k in sorted(s, key=_sort_key)}
        return type(s)((k, packed[k]) for k in s) if type(s) is not dict else {k: packed[k] for k in s}
    if isinstance(s, tuple) and hasattr(s, "_fields"):
        return type(s)(*[_pack(c, it) for c in s])
    if isinstance(s, (list, tuple)):
        return type(s)(_pack(c, it) for c in s)
    try:
        return next(it)
    except StopIteration:
        raise ValueError("Could not pack sequence: fewer values than leaves in the structure.") from None


def map_structure(func, *structures, **kwargs):
    """Apply ``func`` to corresponding leaves of one or more structures of the same shape."""
    if not structures:
        raise ValueError("Must provide at least one structure")
    flats = [flatten(s) for s in structures]
    n = len(flats[0])
    for f in flats[1:]:
        if len(f) != n:
            raise ValueError("The two structures don't have the same number of elements.")
    return pack_sequence_as(structures[0], [func(*xs) for xs in zip(*flats)])
