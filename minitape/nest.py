"""Nested structures of lists, tuples, dicts and namedtuples (TensorFlow's ``tf.nest``)."""
from __future__ import annotations

__all__ = ["flatten", "map_structure", "pack_sequence_as", "is_nested", "assert_same_structure"]


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


def _kind(x):
    return "dict" if isinstance(x, dict) else type(x)


def _same(a, b, check_types, sa, sb):
    if is_nested(a) != is_nested(b):
        raise ValueError("The two structures don't have the same nested structure.\n\n"
                         f"First structure: {sa!r}\n\nSecond structure: {sb!r}\n\nMore specifically: "
                         f"{'Substructure' if is_nested(a) else 'Leaf'} {a!r} is "
                         f"{'a nested structure' if is_nested(a) else 'not nested'}, while "
                         f"{'substructure' if is_nested(b) else 'leaf'} {b!r} is "
                         f"{'a nested structure' if is_nested(b) else 'not nested'}.")
    if not is_nested(a):
        return
    if check_types and _kind(a) != _kind(b):
        raise TypeError("The two structures don't have the same sequence type. First structure "
                        f"has type {type(a).__name__}, while second structure has type "
                        f"{type(b).__name__}.")
    if isinstance(a, dict) and isinstance(b, dict):
        if set(a) != set(b):
            raise ValueError("The two dictionaries don't have the same set of keys. First "
                             f"structure has keys {sorted(a, key=_sort_key)}, while second "
                             f"structure has keys {sorted(b, key=_sort_key)}.")
    elif len(a) != len(b):
        raise ValueError("The two structures don't have the same nested structure.\n\n"
                         f"First structure: {sa!r}\n\nSecond structure: {sb!r}\n\nMore specifically: "
                         f"{a!r} has length {len(a)}, while {b!r} has length {len(b)}.")
    for x, y in zip(_children(a), _children(b)):
        _same(x, y, check_types, sa, sb)


def assert_same_structure(nest1, nest2, check_types=True, expand_composites=False):
    """Raise ValueError (TypeError for different sequence types) unless the structures match."""
    _same(nest1, nest2, check_types, nest1, nest2)


def map_structure(func, *structures, check_types=True, expand_composites=False):
    """Apply ``func`` to corresponding leaves of one or more structures of the same shape."""
    if not structures:
        raise ValueError("Must provide at least one structure")
    for s in structures[1:]:
        assert_same_structure(structures[0], s, check_types=check_types)
    flats = [flatten(s) for s in structures]
    return pack_sequence_as(structures[0], [func(*xs) for xs in zip(*flats)])
