"""The one place where minitape touches an array library.

Every operation receives raw arrays and asks :func:`xp` for the module that owns them, so the
same forward and gradient code runs on NumPy arrays (CPU) and, when installed, CuPy arrays
(GPU).  Nothing else in minitape imports ``numpy`` for array work.
"""
from __future__ import annotations

import warnings as _warnings

import numpy as _np

from ._state import multi_device as _multi

numpy = _np

# TensorFlow computes 1/0, log(0) or exp(1000) silently (inf, nan); NumPy warns
# ("RuntimeWarning: divide by zero encountered in divide").  A warning raised inside an array
# library call is attributed to the Python frame that made the call, so one filter on
# minitape's modules silences exactly the warnings minitape's own operations cause, at no cost
# per operation (np.errstate around each forward would double an operation's overhead), and
# leaves the student's own NumPy code warning as usual.  A student who asks for every warning
# (warnings.simplefilter("always")) sees them again.
def _ignore_own_runtime_warnings():
    _warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"minitape(\.|$)")
    # Imported inside `with warnings.catch_warnings():` the filter went into the block's copy of
    # the filter list, which the block's exit throws away: put it in the list the exit restores
    # too (the interpreter's own list, which C's _warnings module keeps).
    try:
        import _warnings as _c
    except ImportError:  # pragma: no cover - every CPython and Pyodide has it
        return
    original, current = getattr(_c, "filters", None), _warnings.filters
    if type(original) is list and original is not current and current[0] not in original:
        original.insert(0, current[0])
        mutated = getattr(_warnings, "_filters_mutated", None)
        if mutated is not None:
            mutated()


_ignore_own_runtime_warnings()

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
    """Declare that arrays of ``array_type`` are handled by array module ``module``.

    Registering a module other than NumPy (CuPy, or the strict test backend) switches on device
    placement in ``_core.apply``: until then every array is a NumPy array and the hot path does
    not look at devices at all.
    """
    _MODULES[array_type] = module
    if module is not _np:
        _multi[0] = True


def device_type(mod) -> str:
    """``"CPU"`` for NumPy, ``"GPU"`` for CuPy (a test backend may name itself)."""
    if mod is _np:
        return "CPU"
    return getattr(mod, "minitape_device_type", "GPU")


def device_index(a) -> int:
    """Index of the device holding array ``a`` (0 for host arrays)."""
    dev = getattr(a, "device", None)
    return getattr(dev, "id", 0) if dev is not None and not isinstance(dev, str) else 0


def move(a, mod):
    """Array ``a`` on array module ``mod``: the one explicit copy between devices."""
    src = xp(a)
    if src is mod:
        return a
    if mod is _np:
        return src.asnumpy(a)
    if src is not _np:
        a = src.asnumpy(a)
    if getattr(a, "ndim", None) == 0:
        # CuPy makes a 0-d array from its Python value and loses the sign of -0.0; a one-element
        # array is copied byte for byte
        return mod.asarray(_np.reshape(a, (1,))).reshape(())
    return mod.asarray(a)


def add_at(z, key, values):
    """``z[key] += values`` with repeated indices accumulated (``numpy.add.at``), in place."""
    mod = xp(z)
    at = getattr(getattr(mod, "add", None), "at", None)
    if at is not None:  # NumPy, CuPy >= 13, the strict test backend
        at(z, key, values)
        return
    import importlib  # older CuPy
    importlib.import_module("cupyx").scatter_add(z, key, values)


def _special(a, name):
    mod = xp(a)
    if mod is _np:
        import math
        fn = getattr(math, name)
        f = _np.vectorize(fn, otypes=[a.dtype])
        return f(a) if _np.ndim(a) else a.dtype.type(fn(a))
    special = getattr(mod, "special", None)
    if special is None:  # CuPy keeps SciPy's special functions in cupyx
        import importlib
        special = importlib.import_module("cupyx.scipy.special")
    return getattr(special, name)(a)


def erf(a):
    """The error function, element-wise, on the array's own device."""
    return _special(a, "erf")


def erfc(a):
    """1 - erf(a), without the cancellation for large a (TF's gelu is written with it)."""
    return _special(a, "erfc")


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


# NumPy's floating-point error state for a backward pass: gradient rules at kinks compute inf
# and nan (0 * inf, 1/0), silently in TF, so they run with divide/invalid/overflow ignored.
# ``np.errstate`` costs about 1.5 us per use; setting NumPy's error context variable directly
# costs a tenth of that (its object is made once per prevailing state and reused).
try:
    from numpy._core.umath import _extobj_contextvar as _ERR_VAR, _make_extobj
except ImportError:  # another NumPy: the public context manager
    _ERR_VAR = None
_QUIET: dict = {}


def quiet_floating_errors():
    """Ignore NumPy's divide/invalid/overflow warnings until :func:`restore_floating_errors`
    is given the returned token (in the same thread)."""
    if _ERR_VAR is None:
        state = _np.errstate(divide="ignore", invalid="ignore", over="ignore")
        state.__enter__()
        return state
    current = _ERR_VAR.get()
    quiet = _QUIET.get(current)
    if quiet is None:
        if len(_QUIET) > 64:
            _QUIET.clear()
        quiet = _QUIET[current] = _make_extobj(divide="ignore", invalid="ignore", over="ignore")
    return _ERR_VAR.set(quiet)


def restore_floating_errors(token):
    if _ERR_VAR is None:
        token.__exit__(None, None, None)
    else:
        _ERR_VAR.reset(token)
