"""A second array backend for the engine's tests: NumPy underneath, CuPy's manners on top.

CuPy arrays live on the GPU and refuse to become NumPy arrays behind the caller's back
(``np.asarray(gpu_array)`` raises ``TypeError: Implicit conversion to a NumPy array is not
allowed...``).  CI machines have no GPU, so this module provides ``StrictArray``, a CPU array
that refuses *every* implicit way out to the host, and ``strict``, an array module with NumPy's
function names (like ``cupy``) that works on StrictArrays.

Registered with ``minitape._backend.register_array_type``, it lets the whole engine test suite
run with every tensor on this backend (``python -m pytest tests/minitape --backend=strict``):
a test that passes there proves that the code path it exercises never converts a device array
to NumPy implicitly, and never hands a host NumPy array to a device function.

It is deliberately stricter than CuPy:

* implicit conversions raise ``TypeError``: ``__array__`` (``np.asarray``), ``float()``,
  ``int()``, ``bool()``, ``complex()``, ``operator.index()``, ``.item()``, ``.tolist()``;
  CuPy allows the scalar ones (they synchronise the GPU and copy), minitape must not rely on
  them on a hot path, so they are refused here.  The explicit ways out are ``strict.asnumpy(a)``
  and ``a.get()``, as in CuPy;
* NumPy functions and ufuncs refuse StrictArrays (``np.sum(a)``, ``np.exp(a)``): the engine must
  use the module ``xp(a)`` returns, never ``numpy``;
* a NumPy ``ndarray`` (of any shape) meeting a StrictArray in an operation raises ``TypeError``,
  as CuPy does for kernel arguments; NumPy *scalars* and Python numbers are accepted, as in CuPy.
"""
from __future__ import annotations

import math
import types

import numpy as np

IMPLICIT_MSG = ("Implicit conversion to a NumPy array is not allowed. Please use `.get()` to "
                "construct a NumPy array explicitly.")

__all__ = ["StrictArray", "strict", "IMPLICIT_MSG", "install", "asnumpy"]


def _refuse(*args, **kwargs):
    raise TypeError(IMPLICIT_MSG)


def _unwrap(x, where):
    """The NumPy value behind an argument; host NumPy arrays are refused (CuPy's rule)."""
    t = type(x)
    if t is StrictArray:
        return x._a
    if t is np.ndarray or isinstance(x, np.ndarray):
        raise TypeError(f"Unsupported type {t!r}: a host NumPy array was passed to {where} "
                        "together with device arrays; copy it explicitly first "
                        "(strict.asarray), as CuPy requires")
    if t is list or t is tuple:
        return t([_unwrap(v, where) for v in x])
    return x


_new = object.__new__


def _wrap(r):
    t = type(r)
    if t is np.ndarray:
        w = _new(StrictArray)
        w._a = r
        return w
    if isinstance(r, np.generic):  # CuPy returns 0-d arrays where NumPy returns scalars
        w = _new(StrictArray)
        w._a = np.array(r)
        return w
    if t is tuple or t is list:
        return t([_wrap(v) for v in r])
    return r


class StrictArray:
    """A CPU array that behaves like a ``cupy.ndarray`` towards the host (see the module doc)."""

    __slots__ = ("_a", "__weakref__")
    __array_priority__ = 200
    __array_ufunc__ = None      # NumPy ufuncs refuse us; NumPy operands defer to our operators
    __hash__ = None

    def __init__(self, a):
        if type(a) is not np.ndarray:
            raise TypeError(f"StrictArray wraps a NumPy ndarray, got {type(a).__name__}")
        self._a = a

    # --- metadata (no data leaves the "device") --------------------------------------
    shape = property(lambda self: self._a.shape)
    dtype = property(lambda self: self._a.dtype)
    ndim = property(lambda self: self._a.ndim)
    size = property(lambda self: self._a.size)
    nbytes = property(lambda self: self._a.nbytes)
    itemsize = property(lambda self: self._a.itemsize)
    strides = property(lambda self: self._a.strides)
    T = property(lambda self: StrictArray(self._a.T))
    device = property(lambda self: _DEVICE)

    def __len__(self):
        return len(self._a)

    def __iter__(self):
        for row in self._a:
            yield _wrap(row)

    def __repr__(self):
        return "strict_" + repr(self._a)

    __str__ = __repr__

    # --- the explicit way back to the host --------------------------------------------
    def get(self, stream=None, order="C", out=None):
        """A NumPy copy of the data (CuPy's ``ndarray.get``)."""
        return self._a.copy()

    # --- refused implicit conversions -------------------------------------------------
    __array__ = _refuse
    __float__ = _refuse
    __int__ = _refuse
    __complex__ = _refuse
    __index__ = _refuse
    __bool__ = _refuse
    item = _refuse
    tolist = _refuse
    __reduce__ = _refuse
    __buffer__ = _refuse

    def __array_function__(self, func, types_, args, kwargs):
        raise TypeError(f"numpy.{func.__name__} was called on a device array: use the array "
                        "module of the array (minitape._backend.xp) instead of numpy")

    # --- indexing -----------------------------------------------------------------------
    def __getitem__(self, key):
        return _wrap(self._a[_index_key(key)])

    def __setitem__(self, key, value):
        self._a[_index_key(key)] = _unwrap(value, "__setitem__")

    # --- methods with NumPy's names -------------------------------------------------------
    def astype(self, dtype, copy=True, **kw):
        return _wrap(self._a.astype(dtype, copy=copy, **kw))

    def copy(self, order="C"):
        return _wrap(self._a.copy(order=order))

    def reshape(self, *shape, **kw):
        return _wrap(self._a.reshape(*shape, **kw))

    def fill(self, value):
        self._a.fill(_unwrap(value, "fill"))


def _index_key(key):
    # CuPy accepts host index arrays and lists (it copies them to the device); so do we.
    if type(key) is tuple:
        return tuple(_index_key(k) for k in key)
    if type(key) is StrictArray:
        return key._a
    return key


def _method(name):
    def m(self, *args, **kwargs):
        args = _unwrap(args, name)
        kwargs = {k: _unwrap(v, name) for k, v in kwargs.items()}
        return _wrap(getattr(self._a, name)(*args, **kwargs))
    m.__name__ = name
    return m


for _name in ("sum", "mean", "max", "min", "prod", "any", "all", "argmax", "argmin", "transpose",
              "ravel", "flatten", "squeeze", "cumsum", "cumprod", "round", "clip", "conj",
              "swapaxes", "take", "var", "std", "dot", "nonzero", "view"):
    setattr(StrictArray, _name, _method(_name))


def _binary(name):
    where = f"the operator {name}"

    def f(self, other):
        t = type(other)
        if t is StrictArray:
            o = other._a
        elif t is float or t is int:
            o = other
        else:
            o = _unwrap(other, where)
        return _wrap(getattr(self._a, name)(o))
    f.__name__ = name
    return f


for _name in ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__",
              "__truediv__", "__rtruediv__", "__floordiv__", "__rfloordiv__", "__mod__",
              "__rmod__", "__pow__", "__rpow__", "__matmul__", "__rmatmul__", "__and__",
              "__rand__", "__or__", "__ror__", "__xor__", "__rxor__", "__lt__", "__le__",
              "__gt__", "__ge__", "__eq__", "__ne__"):
    setattr(StrictArray, _name, _binary(_name))

StrictArray.__neg__ = lambda self: _wrap(-self._a)
StrictArray.__pos__ = lambda self: _wrap(+self._a)
StrictArray.__abs__ = lambda self: _wrap(abs(self._a))
StrictArray.__invert__ = lambda self: _wrap(~self._a)


class _Device:
    """What ``StrictArray.device`` returns (CuPy: a ``cupy.cuda.Device`` with an ``id``)."""

    id = 0

    def __repr__(self):
        return "<strict device 0>"


_DEVICE = _Device()


# ------------------------------------------------------------------------------------------
# The array module
# ------------------------------------------------------------------------------------------

class _Function:
    """A NumPy function (or ufunc) lifted to StrictArrays; ufuncs keep their ``at`` method."""

    __slots__ = ("_f", "__name__", "_where")

    def __init__(self, f):
        self._f = f
        self.__name__ = getattr(f, "__name__", "function")
        self._where = f"strict.{self.__name__}"

    def __call__(self, *args, **kwargs):
        where = self._where
        if len(args) == 1 and type(args[0]) is StrictArray:
            args = (args[0]._a,)
        else:
            args = _unwrap(args, where)
        if kwargs:
            kwargs = {k: _unwrap(v, where) for k, v in kwargs.items()}
        return _wrap(self._f(*args, **kwargs))

    def at(self, a, indices, b=None):
        """In-place unbuffered operation (``cupy.add.at``)."""
        if type(a) is not StrictArray:
            raise TypeError(f"strict.{self.__name__}.at needs a StrictArray, got {type(a).__name__}")
        b = _unwrap(b, f"strict.{self.__name__}.at")
        self._f.at(a._a, _index_key(indices), b)


# Keyword arguments NumPy accepts and CuPy does not (CuPy raises TypeError for them).
_NOT_IN_CUPY = {"argsort": {"kind", "order"}, "sort": {"kind", "order"}}


class _StrictFunction(_Function):
    __slots__ = ("_refused",)

    def __call__(self, *args, **kwargs):
        bad = self._refused.intersection(kwargs)
        if bad:
            raise TypeError(f"{self.__name__}() got an unexpected keyword argument "
                            f"{sorted(bad)[0]!r} (CuPy does not take it)")
        if self.__name__ in ("sort", "argsort"):
            kwargs["kind"] = "stable"  # CuPy's sorts are always stable
        return _Function.__call__(self, *args, **kwargs)


class _StrictModule(types.ModuleType):
    """NumPy's namespace, lifted: ``strict.exp(a)`` is ``np.exp`` on the data inside ``a``."""

    def __init__(self, name, np_namespace):
        super().__init__(name)
        self._np = np_namespace
        self._cache = {}

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        cache = self.__dict__["_cache"]
        try:
            return cache[name]
        except KeyError:
            pass
        target = getattr(self.__dict__["_np"], name)  # AttributeError like any module
        if isinstance(target, type) or not callable(target):
            r = target  # dtypes (strict.float32), constants (strict.inf, strict.newaxis)
        elif name in _NOT_IN_CUPY:
            r = _StrictFunction(target)
            r._refused = _NOT_IN_CUPY[name]
        else:
            r = _Function(target)
        cache[name] = r
        return r


strict = _StrictModule("strict", np)
strict.linalg = _StrictModule("strict.linalg", np.linalg)
strict.ndarray = StrictArray


def asarray(a, dtype=None, order=None, copy=None):
    """Host data (Python numbers, lists, NumPy arrays) -> StrictArray; the explicit copy in."""
    if type(a) is StrictArray:
        return a if dtype is None or a.dtype == np.dtype(dtype) else a.astype(dtype)
    if isinstance(a, (list, tuple)) and any(type(v) is StrictArray for v in a):
        raise TypeError("strict.asarray of a list of device arrays: use strict.stack")
    return StrictArray(np.array(a, dtype=dtype, copy=True))


def asnumpy(a, stream=None, order="C", out=None):
    """A NumPy array on the host with the data of ``a`` (``cupy.asnumpy``)."""
    if type(a) is StrictArray:
        return a._a.copy()
    return np.asarray(a)


_erf = np.vectorize(math.erf, otypes=[np.float64])


def _erf_impl(a):
    return np.asarray(_erf(a)).astype(a.dtype)


strict.asarray = asarray
strict.array = asarray
strict.asnumpy = asnumpy
_erfc = np.vectorize(math.erfc, otypes=[np.float64])


def _erfc_impl(a):
    return np.asarray(_erfc(a)).astype(a.dtype)


strict.special = _StrictModule("strict.special", types.SimpleNamespace(erf=_erf_impl,
                                                                       erfc=_erfc_impl))

# The name minitape uses in device strings and error messages for this backend.
strict.minitape_device_type = "STRICT"


def install():
    """Register StrictArray with minitape: ``xp(StrictArray)`` is ``strict``."""
    from minitape import _backend
    _backend.register_array_type(StrictArray, strict)
    return strict
