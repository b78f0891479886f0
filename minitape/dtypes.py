"""TensorFlow-style dtypes: ``minitape.float32`` and friends."""
from __future__ import annotations

import builtins as _builtins
import numbers as _numbers

import numpy as _np

from .errors import InvalidArgumentError as _InvalidArgumentError

__all__ = ["DType", "as_dtype", "float16", "float32", "float64", "int8", "int16", "int32",
           "int64", "uint8", "bool", "complex64", "complex128", "half", "double"]


class DType:
    """A tensor element type, compared and printed the way TensorFlow does (``tf.float32``)."""

    __slots__ = ("name", "as_numpy_dtype", "_np")

    def __init__(self, name: str, np_dtype):
        self.name = name
        self._np = _np.dtype(np_dtype)
        self.as_numpy_dtype = self._np.type

    @property
    def is_floating(self) -> bool:
        return self._np.kind == "f"

    @property
    def is_integer(self) -> bool:
        return self._np.kind in "iu"

    @property
    def is_bool(self) -> bool:
        return self._np.kind == "b"

    @property
    def is_complex(self) -> bool:
        return self._np.kind == "c"

    @property
    def base_dtype(self) -> "DType":
        return self

    @property
    def size(self) -> int:
        return self._np.itemsize

    @property
    def min(self):
        return _np.finfo(self._np).min if self.is_floating else _np.iinfo(self._np).min

    @property
    def max(self):
        return _np.finfo(self._np).max if self.is_floating else _np.iinfo(self._np).max

    def __repr__(self) -> str:
        return f"tf.{self.name}"

    def __str__(self) -> str:  # print(t.dtype), as TensorFlow
        return f"<dtype: {self.name!r}>"

    def __eq__(self, other) -> bool:
        if other is self:
            return True
        try:
            return as_dtype(other) is self
        except TypeError:
            return False

    def __ne__(self, other) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash(self.name)

    def __reduce__(self):
        return as_dtype, (self.name,)


float16 = half = DType("float16", _np.float16)
float32 = DType("float32", _np.float32)
float64 = double = DType("float64", _np.float64)
int8 = DType("int8", _np.int8)
int16 = DType("int16", _np.int16)
int32 = DType("int32", _np.int32)
int64 = DType("int64", _np.int64)
uint8 = DType("uint8", _np.uint8)
bool = DType("bool", _np.bool_)  # noqa: A001  (TensorFlow's name)
complex64 = DType("complex64", _np.complex64)
complex128 = DType("complex128", _np.complex128)

_ALL = (float16, float32, float64, int8, int16, int32, int64, uint8, bool, complex64, complex128)
_BY_NP = {d._np: d for d in _ALL}
_BY_NAME = {d.name: d for d in _ALL}
_BY_NAME.update(half=float16, double=float64)


def as_dtype(value) -> DType:
    """Convert a DType, NumPy dtype, NumPy type or name into a :class:`DType`."""
    if type(value) is DType:
        return value
    if isinstance(value, str):
        try:
            return _BY_NAME[value]
        except KeyError:
            raise TypeError(f"Cannot convert {value!r} to a minitape DType.") from None
    if value is float:
        return float32
    if value is int:
        return int32
    try:
        return _BY_NP[_np.dtype(value)]
    except (TypeError, KeyError):
        raise TypeError(f"Cannot convert {value!r} to a minitape DType.") from None


def from_numpy(np_dtype) -> DType:
    """The DType of a NumPy dtype object (fast path for arrays already in a tensor)."""
    d = _BY_NP.get(np_dtype)
    if d is None:
        raise TypeError(f"minitape does not support the NumPy dtype {np_dtype}")
    return d


# ------------------------------------------------------------------------------------------
# Every dtype rule of minitape lives below: what Python data becomes, what an operand may
# join, and the dtype of the results that are not their input's.  The operations call these
# rules; they never decide a dtype themselves.
# ------------------------------------------------------------------------------------------

# NumPy dtype kinds: floating or complex (differentiable; what a Python float may join), and
# the integers.
FLOATING_KINDS = "fc"
INTEGER_KINDS = "iu"


# --- rules for Python data ----------------------------------------------------------------

def _python_kind(value) -> DType:
    """dtype TensorFlow infers for one Python value: float32, int32/int64, bool, complex128."""
    if isinstance(value, _builtins.bool):
        return bool
    if isinstance(value, _numbers.Integral):
        return int32 if -2**31 <= value < 2**31 else int64
    if isinstance(value, _numbers.Real):
        return float32
    if isinstance(value, _numbers.Complex):
        return complex128
    raise TypeError(f"Cannot convert {value!r} (type {type(value).__name__}) to a Tensor.")


_MIXED = "Can't convert Python sequence with mixed types to Tensor."
_OUT_OF_RANGE_DOUBLE = ("Can't convert Python sequence with a value out of range for a "
                        "double-precision float.")


def _unsupported(v):
    return ValueError(f"Attempt to convert a value ({v!r}) with an unsupported type "
                      f"({type(v)!r}) to a Tensor.")


def check_sequence(flat) -> None:
    """TensorFlow's converter: the first value picks the kind, every other must convert to it.

    An int or float first accepts ints, floats and bools (a bool is a Python int); a bool
    first accepts only bools; a complex first only complex numbers; anything else (None, a
    string, a complex after a number) raises TF's ValueError.
    """
    if not flat:
        return
    first = flat[0]
    if isinstance(first, (_builtins.bool, _np.bool_)):
        ok = (_builtins.bool, _np.bool_)
    elif isinstance(first, _numbers.Real):
        ok = _numbers.Real
    elif isinstance(first, _numbers.Complex):
        ok = _numbers.Complex
    else:
        raise _unsupported(first)
    for v in flat:
        if not isinstance(v, ok) or (ok is _numbers.Complex and isinstance(v, _numbers.Real)):
            raise ValueError(_MIXED)


def check_range(flat, want) -> None:
    """A finite Python float too large for an inferred float32 (``tf.constant(1e40)``) raises, as
    TF's converter does; with ``dtype=tf.float32`` asked for, TF rounds it to inf instead."""
    if want is float32 or want is float16:
        lim = float(_np.finfo(want._np).max)
        for v in flat:
            if type(v) is float and (v > lim or v < -lim) and v not in (float("inf"), float("-inf")):
                raise ValueError(_OUT_OF_RANGE_DOUBLE)


def infer_python(flat, dtype_hint=None) -> DType:
    """dtype of (flattened) Python data: all bool -> bool; all integers -> int32, or int64 when
    one needs it; any complex -> complex128; else float32.  ``dtype_hint`` wins when every
    value converts to it without loss."""
    kinds = [_python_kind(v) for v in flat] if flat else [float32]
    want = float32
    if all(k is bool for k in kinds):
        want = bool
    elif all(k in (int32, int64, bool) for k in kinds):
        want = int64 if int64 in kinds else int32
    elif any(k is complex128 for k in kinds):
        want = complex128
    return dtype_hint and _hint_ok(flat, as_dtype(dtype_hint)) or want


def _hint_ok(flat, hint):
    try:
        for v in flat:
            check_lossless(v, hint)
        return hint
    except TypeError:
        return None


def check_lossless(v, want) -> None:
    """TypeError when Python value ``v`` cannot become dtype ``want`` exactly (1.5 -> int32)."""
    if isinstance(v, (_np.ndarray, _np.generic)):
        return
    if isinstance(v, _builtins.bool) or not isinstance(v, _numbers.Number):
        if not isinstance(v, (_builtins.bool, _np.bool_)):
            raise TypeError(f"Cannot convert {v!r} to EagerTensor of dtype "
                                f"{_TF_TYPE_TEXT.get(want.name, want.name)}")
        return
    if want.is_integer and not isinstance(v, _numbers.Integral):
        raise TypeError(f"Cannot convert {v!r} to EagerTensor of dtype "
                            f"{_TF_TYPE_TEXT.get(want.name, want.name)}")
    if want.is_bool and not isinstance(v, (_builtins.bool, _np.bool_)):
        raise TypeError(f"Cannot convert {v!r} to EagerTensor of dtype "
                            f"{_TF_TYPE_TEXT.get(want.name, want.name)}")


# --- rules for operands: a Python number or NumPy value meeting a tensor --------------------
# TensorFlow's rule: the tensor's dtype wins; nothing is promoted.  _ops/_adapt.py applies
# these (and caches the constants they produce).

# TensorFlow's names of dtypes in kernel messages (DataTypeString): "float", not "float32"
_TF_TYPE_TEXT = {"float32": "float", "float64": "double", "float16": "half"}


def type_text(np_dtype) -> str:
    """A dtype as TensorFlow's kernel messages name it (``float``, ``double``, ``int32``)."""
    n = from_numpy(np_dtype).name
    return _TF_TYPE_TEXT.get(n, n)


def mismatch_error(op, expected, got):
    """The error TensorFlow raises when an operation's inputs have different dtypes."""
    return _InvalidArgumentError(
        f"cannot compute {op} as input #1(zero-based) was expected to be a "
        f"{type_text(expected)} tensor but is a {type_text(got)} tensor [Op:{op}]")


# The dtypes a kernel accepts, as TensorFlow's message lists them
ALLOWED_FLOAT = "half, bfloat16, float, double"
ALLOWED_ARITHMETIC = ("bfloat16, half, float, double, uint8, uint16, uint32, uint64, int8, "
                      "int16, int32, int64, complex64, complex128")
ALLOWED_REDUCTION = ("float, double, int32, uint8, int16, int8, complex64, int64, qint8, "
                     "quint8, qint32, bfloat16, qint16, quint16, uint16, complex128, half, "
                     "uint32, uint64")


def not_allowed(op, np_dtype, allowed):
    """TF's error for an operation given a dtype its kernel does not accept."""
    return _InvalidArgumentError(
        f"Value for attr 'T' of {type_text(np_dtype)} is not in the list of allowed values: "
        f"{allowed}\n\t; NodeDef: {{{{node {op}}}}} [Op:{op}]")


def check_python_operand(x, np_dtype, op=None, first=False) -> None:
    """TypeError when Python number ``x`` cannot join a tensor of ``np_dtype``: a float joins
    only floating (or complex) tensors, an int anything but bool, a bool anything.

    ``tf.add`` and ``+`` convert the number with the tensor's dtype only as a hint: a float
    becomes float32 and AddV2 refuses the mix (TF's mismatch error; ``first``: the number
    came first, ``0.5 + t``)."""
    kind = np_dtype.kind
    if type(x) is float:
        if kind not in FLOATING_KINDS:
            if op == "AddV2":
                f32 = _np.dtype(_np.float32)
                raise mismatch_error(op, f32, np_dtype) if first else mismatch_error(op, np_dtype, f32)
            raise TypeError(f"Cannot convert {x!r} to EagerTensor of dtype {from_numpy(np_dtype).name}")
    elif kind == "b" and type(x) is not _builtins.bool:
        raise TypeError(f"Cannot convert {x!r} to EagerTensor of dtype bool")


def numpy_operand_casts(x_dtype, np_dtype, op) -> _builtins.bool:
    """Whether a NumPy operand of ``x_dtype`` is converted to a tensor's ``np_dtype``: float
    to float, integer (or bool) to integer; any other pair raises TensorFlow's mismatch error."""
    if x_dtype == np_dtype:
        return False
    if (x_dtype.kind in FLOATING_KINDS and np_dtype.kind in FLOATING_KINDS) or (
            x_dtype.kind in "iub" and np_dtype.kind in INTEGER_KINDS):
        return True
    raise mismatch_error(op, np_dtype, x_dtype)


# --- rules for results whose dtype is not their input's -------------------------------------

def true_divide_dtype(np_dtype):
    """dtype in which ``x / y`` is computed: TensorFlow's truediv turns int8/int16 into
    float32 and int32/int64 into float64; other dtypes divide as they are (None)."""
    if np_dtype.kind in INTEGER_KINDS:
        return _np.dtype(_np.float64 if np_dtype.itemsize >= 4 else _np.float32)
    return None


def accumulator_dtype(np_dtype):
    """dtype a sum or product accumulates in: integers keep theirs (NumPy would widen int32
    to int64; TensorFlow does not); None lets NumPy choose (floats keep theirs)."""
    return np_dtype if np_dtype.kind in INTEGER_KINDS else None


def linspace_dtype(start_np_dtype):
    """``linspace`` computes in the start's floating dtype; from an integer start TF's
    ``linspace`` divides ``(stop - start) / (num - 1)`` and keeps that quotient's dtype
    (truediv: int32 and int64 give float64, int8 and int16 float32)."""
    if start_np_dtype.kind == "f":
        return start_np_dtype
    return true_divide_dtype(start_np_dtype) or _np.dtype(_np.float32)


def range_dtype(values) -> DType:
    """``range``'s default dtype: float32 when start, limit or delta is floating, else int32."""
    floating = any(isinstance(v, float) or (getattr(v, "dtype", None) is not None
                                             and as_dtype(v.dtype).is_floating) for v in values)
    return float32 if floating else int32
