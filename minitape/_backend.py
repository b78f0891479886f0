"""The one place where minitape touches an array library.

Every operation receives raw arrays and asks :func:`xp` for the module that owns them, so the
same forward and gradient code runs on NumPy arrays (CPU) and, when installed, CuPy arrays
(GPU).  Nothing else in minitape imports ``numpy`` for array work.
"""
from __future__ import annotations

import contextvars as _contextvars

import numpy as _np

from ._state import multi_device as _multi

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


class Unplaceable:
    """The array module of a ``device("/GPU:0")`` block that cannot run (no usable GPU, soft
    placement off): as in TF, entering the block is fine and the first operation placed in it
    raises, here by touching this module (``make_error()`` builds the exception)."""

    def __init__(self, make_error):
        self._make_error = make_error

    def fail(self):
        raise self._make_error()

    def __getattr__(self, name):
        self.fail()


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


# A forward operation: TensorFlow computes 1/0, log(0), exp(1000) or 3e38 * 10 silently (inf,
# nan); NumPy warns ("RuntimeWarning: divide by zero encountered in log"), even through a
# student's warnings.simplefilter("always").  Each forward runs inside one Python context made
# once, at import, with NumPy's floating-point errors ignored: ``quiet_run(fwd, *arrays)``.
# Entering a prepared context swaps one pointer (setting NumPy's error state per operation
# would build a new context mapping and a token each time: 9 % more instructions per op).
# NumPy's error state is per context, so a student's own NumPy code warns as before, and no
# warning filter is involved.  The context cannot be entered twice at once (another thread, a
# forward that runs an operation): then :func:`quiet_call` sets the error state instead.
def _quiet_context():
    with _np.errstate(all="ignore"):
        return _contextvars.copy_context()


quiet_run = _quiet_context().run


def quiet_call(fwd, *args, **kwargs):
    with _np.errstate(all="ignore"):
        return fwd(*args, **kwargs)
