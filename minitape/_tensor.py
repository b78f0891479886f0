"""The values of minitape: Tensor, Variable, TensorShape, and conversion of Python data.

The tensor layer: below the primitives (:mod:`._core`) and the operations (:mod:`._ops`),
which install Tensor's operators and the three conversions that need an operation.
Tensors are read on every operation: keep ``__slots__`` and ``type(x) is`` checks.
"""
from __future__ import annotations


from . import _backend as B
from . import dtypes as _d
from . import _trace
from ._state import next_id as _next_id, tapes as _tapes, accumulators as _accumulators
from ._state import multi_device as _multi, variable_reads as _variable_reads

np = B.numpy  # only for dtype objects and host-side conversion of Python data


class TensorShape(tuple):
    """A tuple of dimensions that prints and compares like ``tf.TensorShape``."""

    __slots__ = ()

    @property
    def rank(self):
        return len(self)

    ndims = rank

    def as_list(self):
        return list(self)

    def num_elements(self):
        n = 1
        for d in self:
            n *= d
        return n

    def is_compatible_with(self, other):
        other = tuple(other)
        return len(other) == len(self) and all(a == b or a is None or b is None
                                                for a, b in zip(self, other))

    def __repr__(self):
        return f"TensorShape({list(self)})"

    def __str__(self):
        return "(" + ", ".join(str(d) for d in self) + ("," if len(self) == 1 else "") + ")"

    def __getitem__(self, key):
        r = tuple.__getitem__(self, key)
        return TensorShape(r) if isinstance(key, slice) else r

    def __new__(cls, dims=()):
        if dims is None:
            return _UNKNOWN_SHAPE
        return tuple.__new__(cls, dims)

    # TF compares a shape with any list or tuple of dimensions: shape == [2, 3]
    def __eq__(self, other):
        if isinstance(other, (list, tuple)):
            return type(other) is not _UnknownShape and tuple.__eq__(self, tuple(other))
        return NotImplemented

    def __ne__(self, other):
        r = self.__eq__(other)
        return r if r is NotImplemented else not r

    __hash__ = tuple.__hash__


class _UnknownShape(TensorShape):
    """``tf.TensorShape(None)``: a shape of unknown rank (a variable whose shape may change)."""

    __slots__ = ()

    @property
    def rank(self):
        return None

    ndims = rank

    def as_list(self):
        raise ValueError("as_list() is not defined on an unknown TensorShape.")

    def num_elements(self):
        return None

    def is_compatible_with(self, other):
        return True

    def __eq__(self, other):
        return other is self

    def __ne__(self, other):
        return other is not self

    __hash__ = object.__hash__

    def __repr__(self):
        return "TensorShape(None)"

    def __str__(self):
        return "<unknown>"


_UNKNOWN_SHAPE = tuple.__new__(_UnknownShape, ())


def _fmt_numpy(v, is_repr=False):
    """Text of a value as TensorFlow prints it (``numpy_text``): ``str`` of the NumPy value,
    in a repr ``repr`` of the array or of the scalar as a Python number (``.item()``, so no
    ``np.float32(...)``); text of several lines starts on a new line."""
    a = np.asarray(B.to_host(v))
    if a.ndim == 0:
        s = a[()]
        text = repr(s.item()) if is_repr else str(s)
    else:
        text = repr(a) if is_repr else str(a)
    return "\n" + text if "\n" in text else text


class Tensor:
    """An immutable multi-dimensional array; the result of every minitape operation."""

    __slots__ = ("_value", "_id", "__weakref__")
    __array_priority__ = 100  # NumPy defers binary operators to ours

    def __init__(self, value):
        self._value = value
        self._id = _next_id()

    # --- inspection ---------------------------------------------------------------------
    @property
    def shape(self) -> TensorShape:
        return TensorShape(self._value.shape)

    @property
    def dtype(self) -> _d.DType:
        return _d.from_numpy(self._value.dtype)

    @property
    def ndim(self) -> int:
        return self._value.ndim

    @property
    def device(self) -> str:
        from . import _device
        return _device.device_name(self._value)

    def get_shape(self):
        return self.shape

    def numpy(self):
        """The value as a NumPy array (or NumPy scalar) on the host, whatever the device."""
        if _tapes:  # leaving minitape while a tape records: debugging.why_none names it
            _trace.note_escape(self, _tapes)
        v = self._value
        if B.xp(v) is np:
            if type(v) is np.ndarray:
                return v[()] if v.ndim == 0 else v.copy()  # a 0-d value is a NumPy scalar
            return v
        a = B.to_host(v)  # the explicit device-to-host copy
        return a[()] if a.ndim == 0 else a

    def __array__(self, dtype=None, copy=None):
        a = np.asarray(self.numpy())
        return a.astype(dtype) if dtype is not None else a

    def __len__(self):
        if self._value.ndim == 0:
            raise TypeError("Scalar tensor has no `len()`")
        return self._value.shape[0]

    def __iter__(self):
        if self._value.ndim == 0:
            raise TypeError("Cannot iterate over a scalar tensor.")
        getitem = type(self).__getitem__  # installed by the operations layer
        for i in range(self._value.shape[0]):
            yield getitem(self, i)

    def __bool__(self):
        return bool(self._scalar())

    def __float__(self):
        if _tapes:
            _trace.note_escape(self, _tapes)
        return float(self._scalar0())

    def __int__(self):
        if _tapes:
            _trace.note_escape(self, _tapes)
        return int(self._scalar0())

    def _scalar0(self):
        """The value of a 0-d tensor (float(), int(), complex() refuse other ranks, as TF)."""
        if self._value.ndim != 0:
            raise TypeError("only 0-dimensional arrays can be converted to Python scalars")
        return self._scalar()

    def __index__(self):
        if not self.dtype.is_integer:
            raise TypeError(f"Only integer scalar tensors can be used as an index, got {self.dtype.name}")
        return int(self._scalar())

    def _scalar(self):
        v = self._value
        if v.ndim != 0 and v.size != 1:
            raise ValueError("The truth value of an array with more than one element is ambiguous. "
                             "Use a.any() or a.all()")
        return B.to_host(v).reshape(()).item() if B.xp(v) is not np else v.item() if hasattr(v, "item") else v

    def __hash__(self):  # tensors compare element-wise: TF's refusal and its text
        raise TypeError("Tensor is unhashable. Instead, use tensor.ref() as the key.")

    def ref(self):
        """A hashable reference to this tensor (TensorFlow's ``Tensor.ref()``)."""
        return _Ref(self)

    experimental_ref = ref

    def __repr__(self):
        return f"<tf.Tensor: shape={self.shape}, dtype={self.dtype.name}, numpy={_fmt_numpy(self._value, True)}>"

    def __str__(self):
        return f"tf.Tensor({_fmt_numpy(self._value)}, shape={self.shape}, dtype={self.dtype.name})"

    def __format__(self, spec):
        # TensorFlow formats the NumPy value: f"{t}" is "[1 2 3]", f"{t:.2f}" needs a scalar
        a = np.asarray(B.to_host(self._value))
        return format(a[()] if a.ndim == 0 else a, spec)

    def __reduce__(self):
        return constant, (self.numpy(),)

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


class _Ref:
    __slots__ = ("_t",)

    def __init__(self, t):
        self._t = t

    def deref(self):
        return self._t

    def __hash__(self):
        return self._t._id

    def __eq__(self, other):
        return type(other) is _Ref and other._t is self._t


# What ``type(t).__name__`` shows, as in TensorFlow (whose eager values are EagerTensor, a
# subclass of tf.Tensor).  minitape has one class for both: ``tf.Tensor`` and
# ``tf.EagerTensor`` are the same object (the README's table of differences says why).
Tensor.__name__ = Tensor.__qualname__ = "EagerTensor"
EagerTensor = Tensor


class Variable(Tensor):
    """A mutable tensor whose state survives across tapes: a model's parameter.

    Trainable variables are watched automatically by every tape that reads them.  Change a
    variable with :meth:`assign`, :meth:`assign_add` or :meth:`assign_sub`; ``x = x + 1``
    replaces it by a plain Tensor, which tapes no longer watch.
    """

    __slots__ = ("_trainable", "_name", "_snap", "_path", "_declared")

    def __init__(self, initial_value=None, trainable=True, name=None, dtype=None, shape=None,
                 **ignored):
        if initial_value is None:
            raise ValueError("initial_value must be specified.")
        if callable(initial_value):
            initial_value = initial_value()
        with _no_recording():
            t = convert_to_tensor(initial_value, dtype=dtype)
        self._value = t._value
        self._id = _next_id()
        self._trainable = bool(trainable)
        base = name if name is not None else "Variable"
        self._name = base if ":" in base else base + ":0"
        self._snap = None
        self._path = None
        self._declared = None
        if shape is not None:  # a declared shape may leave dimensions (or the rank) open
            declared = shape if isinstance(shape, TensorShape) else TensorShape(
                None if shape is None else tuple(shape))
            if not declared.is_compatible_with(self._value.shape):
                raise ValueError(f"The initial value's shape ({TensorShape(self._value.shape)}) is "
                                 f"not compatible with the explicitly supplied `shape` argument "
                                 f"({declared}).")
            self._declared = declared

    @property
    def path(self):
        """A Keras weight's path (``"dense/kernel"``); plain variables have none, as in TF."""
        if self._path is None:
            raise AttributeError("'ResourceVariable' object has no attribute 'path'")
        return self._path

    @property
    def name(self):
        return self._name

    @property
    def trainable(self):
        return self._trainable

    def _read(self):
        """The current value as a Tensor sharing the variable's identity on tapes."""
        s = self._snap
        if s is None:
            s = Tensor.__new__(Tensor)
            s._value = self._value
            s._id = self._id
            self._snap = s
        if _tapes and self._trainable:
            for tape in _tapes:
                if tape._watch_accessed:
                    tape._watch_variable(self)
        if _variable_reads and self._trainable:
            _variable_reads[-1].setdefault(self._id, self)
        return s

    def value(self):
        return self._read()

    def read_value(self):
        return _LAYER_ABOVE.identity(self._read())

    def _assign_value(self, new, op):
        with _no_recording():
            t = convert_to_tensor(new, dtype=self.dtype)
        v = t._value
        d = self._declared
        if (tuple(v.shape) != tuple(self._value.shape) if d is None
                else not d.is_compatible_with(v.shape)):
            raise ValueError(
                # TF 2.21's text, its missing and extra spaces included
                f"Cannot assign value to variable ' {self._name}': Shape mismatch.The variable "
                f"shape {self.shape}, and the assigned value shape {TensorShape(v.shape)} are "
                "incompatible.")
        if B.xp(v) is not B.xp(self._value):
            from . import _device
            v = _device.move_like(v, self._value)
        self._value = v
        self._snap = None
        return self

    def assign(self, value, use_locking=None, name=None, read_value=True):
        """Set the value.  Stateful: gradients do not flow through an assignment."""
        if _tapes:
            _trace.note_assign(self, value, "assign", _tapes)
        return self._assign_value(value, "assign")

    def assign_add(self, delta, use_locking=None, name=None, read_value=True):
        with _no_recording():
            d = convert_to_tensor(delta, dtype=self.dtype)
        if _tapes:
            _trace.note_assign(self, d, "assign_add", _tapes)
        self._check_update_shape(d, "AssignAddVariableOp")
        return self._assign_value(Tensor(self._value + self._on_my_device(d)), "assign_add")

    def assign_sub(self, delta, use_locking=None, name=None, read_value=True):
        with _no_recording():
            d = convert_to_tensor(delta, dtype=self.dtype)
        if _tapes:
            _trace.note_assign(self, d, "assign_sub", _tapes)
        self._check_update_shape(d, "AssignSubVariableOp")
        return self._assign_value(Tensor(self._value - self._on_my_device(d)), "assign_sub")

    # --- sparse updates (an IndexedSlices: rows ``values`` at rows ``indices``) ------------
    def scatter_add(self, sparse_delta, use_locking=False, name=None):
        """``v[indices[i]] += values[i]`` for every i (repeated rows accumulate)."""
        return self._scatter(sparse_delta, "scatter_add")

    def scatter_sub(self, sparse_delta, use_locking=False, name=None):
        """``v[indices[i]] -= values[i]`` for every i (what optimizers do with a sparse
        gradient)."""
        return self._scatter(sparse_delta, "scatter_sub")

    def scatter_update(self, sparse_delta, use_locking=False, name=None):
        """``v[indices[i]] = values[i]`` for every i."""
        return self._scatter(sparse_delta, "scatter_update")

    def _scatter(self, d, how):
        if type(d).__name__ != "IndexedSlices":
            raise TypeError(f"sparse_delta is not IndexedSlices: {d}")
        with _no_recording():
            values = convert_to_tensor(d.values, dtype=self.dtype)
        if _tapes:
            _trace.note_assign(self, values, how, _tapes)
        vals = self._on_my_device(values)
        idx = B.move(d.indices._value, B.xp(self._value)) if _multi[0] else d.indices._value
        whole = self._value.copy()
        if how == "scatter_update":
            whole[idx] = vals
        else:  # x - a is x + (-a) exactly: one accumulation for both
            B.add_at(whole, idx, vals if how == "scatter_add" else -vals)
        return self._assign_value(Tensor(whole), how)

    def _check_update_shape(self, d, op):
        """TF's kernel: an update must have the variable's shape exactly (no broadcasting)."""
        if tuple(d._value.shape) != tuple(self._value.shape):
            from .errors import InvalidArgumentError
            text = lambda s: "[" + ",".join(str(x) for x in s) + "]"  # noqa: E731
            raise InvalidArgumentError(
                f"Cannot update variable with shape {text(self._value.shape)} using a Tensor with "
                f"shape {text(d._value.shape)}, shapes must be equal. [Op:{op}]")

    @property
    def shape(self) -> TensorShape:
        d = self._declared
        if d is not None:
            return d  # a declared shape (TensorShape(None), [None, 2]...) stays, as in TF
        return TensorShape(self._value.shape)

    def __getitem__(self, key):
        """``v[0]``: a tensor that can also be assigned: ``v[0].assign(...)`` (TF's sliced
        assignment)."""
        r = Tensor.__getitem__(self, key)  # installed by the operations layer
        s = _new_slice(_VariableSlice)
        s._value = r._value
        s._id = r._id
        s._var = self
        s._key = key
        return s

    def _on_my_device(self, t):
        """The array of ``t`` on this variable's device (a variable never changes device)."""
        v = t._value
        if not _multi[0]:
            return v
        return B.move(v, B.xp(self._value))

    def numpy(self):
        return Tensor.numpy(self)

    def __repr__(self):
        if self._path is not None:  # a Keras weight shows as Keras 3 shows its Variables
            return (f"<Variable path={self._path}, shape={self.shape}, dtype={self.dtype.name}, "
                    f"value={B.to_host(self._value)}>")
        return (f"<tf.Variable '{self._name}' shape={self.shape} dtype={self.dtype.name}, "
                f"numpy={_fmt_numpy(self._value, True)}>")

    __str__ = __repr__

    def __hash__(self):
        raise TypeError("Variable is unhashable. Instead, use variable.ref() as the key. "
                        f"(Variable: {self})")

    def __format__(self, spec):
        # TF's variables inherit object.__format__: f"{v}" is str(v), a format spec is refused
        # (a tensor formats its NumPy value: f"{v.numpy():.2f}" or f"{tf.constant(v):.2f}")
        if spec:
            raise TypeError(f"unsupported format string passed to {type(self).__name__}.__format__")
        return str(self)

    def __reduce__(self):
        return Variable, (self.numpy(), self._trainable, self._name)

    def __deepcopy__(self, memo):
        return Variable(self.numpy(), self._trainable, self._name)


_new_slice = object.__new__


class _VariableSlice(Tensor):
    """A slice of a Variable (``v[0]``, ``v[:, 1]``): a tensor with ``assign``, ``assign_add``
    and ``assign_sub`` that change that part of the variable (TF's strided-slice assign).
    Operations read it as the plain tensor it is (same value, same identity on tapes)."""

    __slots__ = ("_var", "_key")

    def _update(self, value, how):
        var = self._var
        with _no_recording():
            t = convert_to_tensor(value, dtype=var.dtype)
        part = self._value
        new = t._value
        if how != "assign":
            new = part + new if how == "assign_add" else part - new
        if tuple(new.shape) != tuple(part.shape):
            try:
                new = B.xp(part).broadcast_to(new, part.shape)
            except ValueError:
                from .errors import InvalidArgumentError
                raise InvalidArgumentError(
                    f"{how} of a slice: shape {list(t._value.shape)} does not match the "
                    f"slice's shape {list(part.shape)} [Op:ResourceStridedSliceAssign]") from None
        whole = var._value.copy()
        whole[_slice_key(self._key)] = new
        var._assign_value(Tensor(whole), "assign")
        return var

    def assign(self, value, use_locking=None, name=None, read_value=True):
        return self._update(value, "assign")

    def assign_add(self, delta, use_locking=None, name=None, read_value=True):
        return self._update(delta, "assign_add")

    def assign_sub(self, delta, use_locking=None, name=None, read_value=True):
        return self._update(delta, "assign_sub")


def _slice_key(key):
    """An index key with tensors replaced by their arrays."""
    if type(key) is tuple:
        return tuple(_slice_key(k) for k in key)
    if isinstance(key, Tensor):
        return key._value
    return key


_VariableSlice.__name__ = _VariableSlice.__qualname__ = "EagerTensor"


# TensorFlow's eager variables are ResourceVariable; ``tf.Variable`` is this class (an alias
# under that name keeps pickling by qualified name working).
Variable.__name__ = Variable.__qualname__ = "ResourceVariable"
ResourceVariable = Variable


class _no_recording:
    """Temporarily hide all tapes and accumulators (internal conversions, assignments)."""

    __slots__ = ("_saved",)

    def __enter__(self):
        self._saved = (_tapes[:], _accumulators[:])
        _tapes.clear()
        _accumulators.clear()

    def __exit__(self, *exc):
        _tapes[:], _accumulators[:] = self._saved


# ------------------------------------------------------------------------------------------
# Conversion
# ------------------------------------------------------------------------------------------

class _LayerAbove:
    """The three operations this layer needs from the operations layer above it.

    Stacking a list of tensors (``convert_to_tensor([x, y])``), casting a constant
    (``constant(t, dtype)``) and ``Variable.read_value`` are recorded operations, which live
    above this module.  The operations layer installs them here once, when it is imported (as
    it installs Tensor's operators), so this module never imports it.
    """

    __slots__ = ("stack", "cast", "identity")


_LAYER_ABOVE = _LayerAbove()


def install_operations(stack, cast, identity):
    """Called once by the operations layer: see :class:`_LayerAbove`."""
    _LAYER_ABOVE.stack = stack
    _LAYER_ABOVE.cast = cast
    _LAYER_ABOVE.identity = identity


def _flat_python(value, out):
    if isinstance(value, (list, tuple)):
        for v in value:
            _flat_python(v, out)
    else:
        out.append(value)
    return out


def _contains_tensor(value):
    if isinstance(value, Tensor):
        return True
    if isinstance(value, (list, tuple)):
        return any(_contains_tensor(v) for v in value)
    return False


def convert_to_tensor(value, dtype=None, dtype_hint=None, name=None):
    """Turn Python numbers, (nested) lists, NumPy arrays or tensors into a Tensor.

    Python floats become float32 and ints int32 (as in TensorFlow); NumPy arrays keep their
    dtype.  A requested ``dtype`` converts Python data, and refuses lossy conversions
    (``1.5`` to int32).
    """
    tv = type(value)
    if tv is Tensor:
        if dtype is not None and value.dtype != _d.as_dtype(dtype):
            raise ValueError(f"Tensor conversion requested dtype {_d.as_dtype(dtype).name} for "
                             f"Tensor with dtype {value.dtype.name}: {value!r}")
        return value
    if tv is Variable or isinstance(value, Variable):
        t = value._read()
        if dtype is not None and t.dtype != _d.as_dtype(dtype):
            raise ValueError(f"Tensor conversion requested dtype {_d.as_dtype(dtype).name} for "
                             f"Tensor with dtype {t.dtype.name}: {value!r}")
        return t
    if isinstance(value, Tensor):  # a tensor subclass (a variable's slice): the plain tensor
        t = _new_slice(Tensor)
        t._value = value._value
        t._id = value._id
        return convert_to_tensor(t, dtype=dtype)
    if hasattr(value, "_as_tensor") and not isinstance(value, type):
        return convert_to_tensor(value._as_tensor(), dtype=dtype)
    want = _d.as_dtype(dtype) if dtype is not None else None
    if isinstance(value, (list, tuple)) and _contains_tensor(value):
        return _LAYER_ABOVE.stack([convert_to_tensor(v, dtype=dtype) for v in value])
    mod = B.default_module()
    if isinstance(value, (np.ndarray, np.generic)):
        if want is None:
            _d.from_numpy(value.dtype)  # supported?
            arr = value.copy() if isinstance(value, np.ndarray) else np.asarray(value)
        else:
            arr = np.asarray(value, dtype=want._np)
        return Tensor(mod.asarray(arr) if mod is not np else arr)
    if B.xp(value) is not np if _is_array_like(value) else False:
        arr = value if want is None else value.astype(want._np)
        return Tensor(arr)
    # Python data
    flat = _flat_python(value, [])
    if (want is None and flat and isinstance(flat[0], np.generic)
            and not any(isinstance(v, np.ndarray) and v.ndim for v in flat)):
        # NumPy scalars among Python numbers, a NumPy scalar first (TF's converter): a NumPy
        # float first gives its own dtype (np.float32(1.5), 2 -> float32), a NumPy integer or
        # bool counts as the Python number it holds; the others are read as Python numbers
        py = [v.item() if isinstance(v, (np.generic, np.ndarray)) else v for v in flat]
        _d.check_sequence(py)
        kind = flat[0].dtype.kind
        want = _d.from_numpy(flat[0].dtype) if kind in "fc" else _d.infer_python(py, dtype_hint)
        _d.check_range(py, want)
        with np.errstate(over="ignore"):
            arr = np.array(value, dtype=want._np)
        return Tensor(mod.asarray(arr) if mod is not np else arr)
    if want is None and flat and isinstance(flat[0], (np.ndarray, np.generic)):
        # a list of NumPy arrays (or starting with NumPy values): NumPy's dtype, as TF's
        # converter takes the first value's
        try:
            arr = np.array(value)
        except ValueError as e:
            raise ValueError(f"Can't convert non-rectangular Python sequence to Tensor: {e}") from None
        _d.from_numpy(arr.dtype)
        return Tensor(mod.asarray(arr) if mod is not np else arr)
    if want is None:
        _d.check_sequence(flat)
        want = _d.infer_python(flat, dtype_hint)
        _d.check_range(flat, want)  # inferred float32 refuses 1e40; an explicit dtype rounds to inf
    else:
        for v in flat:
            _d.check_lossless(v, want)
    try:
        with np.errstate(over="ignore"):
            arr = np.array(value, dtype=want._np)
    except ValueError as e:
        raise ValueError(f"Can't convert non-rectangular Python sequence to Tensor: {e}") from None
    if mod is not np:
        arr = mod.asarray(arr)
    return Tensor(arr)


def _is_array_like(v):
    try:
        B.xp(v)
        return True
    except TypeError:
        return False


def constant(value, dtype=None, shape=None, name=None):
    """Create a Tensor from Python data or a NumPy array (TensorFlow's ``tf.constant``)."""
    if isinstance(value, (list, tuple)) and _contains_tensor(value):
        # TF's tf.constant converts Python data only (tf.convert_to_tensor stacks tensors)
        raise ValueError("tf.constant cannot convert a list that holds tensors or Variables "
                         "(TensorFlow refuses it too): use tf.stack([...]) or "
                         "tf.convert_to_tensor([...])")
    if isinstance(value, Tensor):
        t = convert_to_tensor(value)
        if dtype is not None and t.dtype != _d.as_dtype(dtype):
            t = _LAYER_ABOVE.cast(t, dtype)
    else:
        t = convert_to_tensor(value, dtype=dtype)
    if shape is not None:
        shape = tuple(shape)
        v = t._value
        mod = B.xp(v)
        if v.size == 1 and int(np.prod(shape)) != 1:
            v = mod.full(shape, v.reshape(()), dtype=v.dtype)
        else:
            v = v.reshape(shape)
        t = Tensor(v)
    return t
