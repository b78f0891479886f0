"""Keras 3's variables: what ``add_weight`` makes (``keras.Variable``).

Keras 3 keeps a layer's weights in its own ``Variable`` class, not a ``tf.Variable``: it has a
``path`` (``"dense/kernel"``, the layers it was made in, then its name), its ``name`` is the last
part (``"kernel"``), ``dtype`` is a string (``'float32'``), ``value`` is the ``tf.Variable`` that
holds it (``<tf.Variable 'dense/kernel:0' ...>``), and it has no ``device``.  A ``tf.Module``
does not collect it.  Here it subclasses minitape's Variable, so that tapes, operations and
optimizers take it as they take any variable (``isinstance(w, tf.Variable)`` is True, where
Keras 3 says False: docs/tensorflow-differences.md).
"""
from __future__ import annotations

from .. import dtypes as _d
from .._core import Variable as _TFVariable

_counters: dict = {}


def auto_name(base):
    """Keras' unique names: ``variable``, ``variable_1``, ... (one counter per base name)."""
    n = _counters.get(base, 0)
    _counters[base] = n + 1
    return base if n == 0 else f"{base}_{n}"


class DTypeName(str):
    """A Keras variable's ``dtype``: the string Keras 3 gives (``'float32'``), equal to
    ``tf.float32`` both ways; minitape's own code reads the DType's attributes through it."""

    __slots__ = ()

    def __eq__(self, other):
        if isinstance(other, str):
            return str.__eq__(self, other)
        try:
            return _d.as_dtype(other) == _d.as_dtype(str(self))
        except (TypeError, ValueError):
            return NotImplemented

    def __ne__(self, other):
        r = self.__eq__(other)
        return r if r is NotImplemented else not r

    __hash__ = str.__hash__

    def __getattr__(self, name):
        return getattr(_d.as_dtype(str(self)), name)


class Variable(_TFVariable):
    """A Keras weight (``layer.add_weight(...)``, ``keras.Variable(value)``)."""

    __slots__ = ("_twin",)
    _keras = True  # (tf.Module leaves it out, as TF's modules do)

    def __init__(self, initializer, shape=None, dtype=None, trainable=True, name=None,
                 **ignored):
        if callable(initializer) and not hasattr(initializer, "shape"):
            from . import initializers
            initializer = initializers.get(initializer)(tuple(shape), dtype=_d.as_dtype(
                dtype or "float32"))
        elif isinstance(initializer, str):
            from . import initializers
            initializer = initializers.get(initializer)(tuple(shape), dtype=_d.as_dtype(
                dtype or "float32"))
        name = name or auto_name("variable")
        _TFVariable.__init__(self, initializer, trainable=trainable, name=name,
                             dtype=dtype if dtype is not None else (
                                 None if hasattr(initializer, "dtype") else "float32"))
        self._name = name  # Keras 3: the name alone, without TF's ":0"
        self._path = name
        self._twin = None

    @property
    def dtype(self):
        return DTypeName(_TFVariable.dtype.fget(self).name)

    @property
    def device(self):
        raise AttributeError("'Variable' object has no attribute 'device'")

    @property
    def value(self):
        """The ``tf.Variable`` holding this weight (assigning to either changes both)."""
        t = self._twin
        if t is None:
            t = self._twin = _Holder.__new__(_Holder)
            t._value, t._id, t._trainable = self._value, self._id, self._trainable
            # TF names it in the outermost layer's scope only ("linear/kernel:0")
            scope = self._path.split("/")[0] + "/" if "/" in self._path else ""
            t._name, t._snap, t._path, t._declared = scope + self._name + ":0", None, None, None
            t._owner = self
        return t

    def _assign_value(self, new, op):
        _TFVariable._assign_value(self, new, op)
        t = self._twin
        if t is not None:
            t._value = self._value
            t._snap = None
        return self


class _Holder(_TFVariable):
    """The ``tf.Variable`` behind a Keras weight: the same value and identity on tapes."""

    __slots__ = ("_owner",)

    def _assign_value(self, new, op):
        _TFVariable._assign_value(self, new, op)
        o = self._owner
        o._value = self._value
        o._snap = None
        return self


_TFVariable._keras = False
_Holder.__name__ = _Holder.__qualname__ = "ResourceVariable"
