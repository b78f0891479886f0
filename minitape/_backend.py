"""The one place where minitape touches an array library.

Every operation receives raw arrays and asks :func:`xp` for the module that owns them, so the
same forward and gradient code runs on NumPy arrays (CPU) and, when installed, CuPy arrays
(GPU).  Nothing else in minitape imports ``numpy`` for array work.
"""
from __future__ import annotations

import numpy as _np

numpy = _np

# type(array) -> array module.  NumPy's own types are registered eagerly; other backends
# (CuPy, the strict test backend) register themselves when they are first used.
_MODULES: dict[type, object] = {_np.ndarray: _np}
for _t in (_np.float16, _np.float32, _np.float64, _np.int8, _np.int16, _np.int32, _np.int64,
           _np.uint8, _np.uint16, _np.uint32, _np.uint64, _np.bool_, _np.complex64,
           _np.complex128):
    _MODULES[_t] = _np


def xp(a):
    """The array module (``numpy`` or ``cupy``) that owns array ``a``."""
    try:
        return _MODULES[type(a)]
    except KeyError:
        return _lookup(a)


def _lookup(a):
    for base in type(a).__mro__:
        mod = _MODULES.get(base)
        if mod is not None:
            _MODULES[type(a)] = mod
            return mod
    if isinstance(a, _np.generic):
        _MODULES[type(a)] = _np
        return _np
    raise TypeError(f"minitape cannot operate on arrays of type {type(a).__name__}")


def register_array_type(array_type: type, module) -> None:
    """Declare that arrays of ``array_type`` are handled by array module ``module``."""
    _MODULES[array_type] = module


def to_host(a):
    """A NumPy array (on the host) with the contents of ``a``; explicit device-to-host copy."""
    mod = xp(a)
    if mod is _np:
        return _np.asarray(a)
    return mod.asnumpy(a)


# The module new tensors are created with (changed by minitape.device()).
_default = [_np]


def default_module():
    return _default[-1]
