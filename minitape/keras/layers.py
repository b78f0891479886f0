"""Keras 3's layers: ``Layer``, ``Dense``, ``BatchNormalization`` and ``Input``.

A Keras 3 layer is not a ``tf.Module``: it tracks, in the order they are assigned, the layers,
Keras weights (``add_weight``, ``keras.Variable``) and metrics held in its attributes (also
inside lists, tuples and dicts), and nothing else (a ``tf.Variable`` attribute is not one of its
weights).  ``variables``, ``trainable_variables``, ``weights``... are lists: the layer's own
weights (trainable ones first), then each tracked layer's.  A weight's path names the layers
it was made in (``"sequential/dense/kernel"``).
"""
from __future__ import annotations

import warnings

from ..module import _camel_to_snake
from .._core import Tensor, _to_tensor, _no_recording
from .. import _ops, dtypes as _d
from .. import nest as _nest
from . import activations, initializers
from .variables import Variable as KerasVariable, auto_name

# The layers whose build or call is running, outermost first: a weight made now has their
# names in its path (Keras 3's name scopes).
_SCOPES: list = []

_KNOWN_KWARGS = ("input_shape", "input_dim", "batch_input_shape", "batch_size",
                 "activity_regularizer", "autocast", "input_dtype")


class Layer:
    """Subclass it: make weights in ``build(input_shape)`` (or ``__init__``) with
    ``add_weight``, compute in ``call(inputs)``; calling the layer builds it on first use."""

    def __init__(self, *, name=None, dtype=None, trainable=True, **kwargs):
        if "input_shape" in kwargs or "input_dim" in kwargs:  # Keras 3's warning, as it words it
            warnings.warn("Do not pass an `input_shape`/`input_dim` argument to a layer. When "
                          "using Sequential models, prefer using an `Input(shape)` object as the "
                          "first layer in the model instead.", UserWarning, stacklevel=3)
        unknown = {k: v for k, v in kwargs.items() if k not in _KNOWN_KWARGS}
        if unknown:
            raise ValueError(f"Unrecognized keyword arguments passed to {type(self).__name__}: "
                             f"{unknown}")
        if name is not None and not isinstance(name, str):
            raise TypeError(f"Argument `name` must be a string. Received: name={name!r}")
        self._name = name if name else auto_name(_camel_to_snake(type(self).__name__))
        self._dtype = _d.as_dtype(dtype) if dtype is not None else _d.float32
        self._trainable = bool(trainable)
        self._own_weights = []   # made by add_weight, in creation order
        self.built = False

    # --- what a layer tracks ------------------------------------------------------------
    def __setattr__(self, name, value):
        if not name.startswith("_") and isinstance(value, Tensor) and getattr(
                type(value), "_keras", False) and "_own_weights" in self.__dict__:
            if not any(w is value for w in self._own_weights):
                self._own_weights.append(value)  # Keras tracks a Keras Variable it is given
        object.__setattr__(self, name, value)

    def _tracked(self, kind):
        """The layers (or metrics) held in attributes, in the order they were assigned."""
        out, seen = [], set()
        for k, v in self.__dict__.items():
            if k.startswith("_") and k != "_layers":
                continue
            for leaf in _nest.flatten(v) if isinstance(v, (list, tuple, dict)) else (v,):
                if isinstance(leaf, kind) and id(leaf) not in seen and leaf is not self:
                    seen.add(id(leaf))
                    out.append(leaf)
        return out

    @property
    def name(self):
        return self._name

    @property
    def dtype(self):
        """The dtype of the layer's weights, as a string (``'float32'``), as in Keras 3."""
        return self._dtype.name

    @property
    def trainable(self):
        return self._trainable

    @trainable.setter
    def trainable(self, value):
        self._trainable = bool(value)
        for layer in self._tracked(Layer):
            layer.trainable = value

    def _own(self):
        own = self._own_weights
        return [w for w in own if w.trainable] + [w for w in own if not w.trainable]

    @property
    def weights(self):
        out, seen = [], set()
        for w in self._own() + [w for layer in self._tracked(Layer) for w in layer.weights]:
            if id(w) not in seen:
                seen.add(id(w))
                out.append(w)
        return out

    @property
    def variables(self):
        out, seen = list(self.weights), {id(w) for w in self.weights}
        for m in self._tracked(_metric_class()):
            for v in m.variables:
                if id(v) not in seen:
                    seen.add(id(v))
                    out.append(v)
        return out

    @property
    def trainable_weights(self):
        return [w for w in self.weights if w.trainable] if self._trainable else []

    @property
    def non_trainable_weights(self):
        return [w for w in self.weights if not w.trainable] if self._trainable else self.weights

    @property
    def trainable_variables(self):
        return [w for w in self.variables if w.trainable] if self._trainable else []

    @property
    def non_trainable_variables(self):
        return ([w for w in self.variables if not w.trainable] if self._trainable
                else self.variables)

    def count_params(self):
        import math
        return sum(math.prod(w.shape) for w in self.weights)

    def get_weights(self):
        return [w.numpy() for w in self.weights]

    def set_weights(self, weights):
        mine = self.weights
        if len(weights) != len(mine):
            raise ValueError(f"You called `set_weights(weights)` on layer '{self.name}' with a "
                             f"weight list of length {len(weights)}, but the layer was expecting "
                             f"{len(mine)} weights.")
        for w, value in zip(mine, weights):
            w.assign(value)

    def add_weight(self, shape=None, initializer=None, dtype=None, trainable=True,
                   autocast=True, regularizer=None, constraint=None, aggregation="none",
                   overwrite_with_gradient=False, name=None):
        """A new Keras weight of this layer (path: the layers it is made in, then ``name``)."""
        if isinstance(shape, str) and isinstance(initializer, (tuple, list)):
            shape, name = initializer, shape  # (minitape's earlier order: name, shape, ...)
            initializer = None
        dt = _d.as_dtype(dtype) if dtype is not None else self._dtype
        if initializer is None:
            initializer = "glorot_uniform" if dt.is_floating else "zeros"
        init = initializers.get(initializer)
        shape = () if shape is None else tuple(int(d) for d in shape)
        with _no_recording():
            v = KerasVariable(init(shape, dtype=dt), trainable=trainable, name=name)
        scopes = [s.name for s in _SCOPES]
        if not _SCOPES or _SCOPES[-1] is not self:
            scopes.append(self.name)
        v._path = "/".join(scopes + [v.name])
        self._own_weights.append(v)
        return v

    def build(self, input_shape=None):
        self.built = True

    def call(self, *args, **kwargs):
        raise NotImplementedError(f"Layer {type(self).__name__} does not have a `call()` method "
                                  "implemented.")

    def __call__(self, inputs, *args, **kwargs):
        if "training" in kwargs and not _takes_training(type(self)):
            del kwargs["training"]  # Keras passes `training` only to a call() that takes it
        inputs = self._convert_inputs(inputs)
        pushed = not _SCOPES or _SCOPES[-1] is not self
        if pushed:
            _SCOPES.append(self)
        try:
            if not self.built:
                self._build_for(inputs)
            return self.call(inputs, *args, **kwargs)
        finally:
            if pushed:
                _SCOPES.pop()

    def _build_for(self, inputs):
        first = _nest.flatten(inputs)[0] if isinstance(inputs, (list, tuple, dict)) else inputs
        self.build(tuple(first.shape) if hasattr(first, "shape") else None)
        self.built = True

    def _convert_inputs(self, inputs):
        """NumPy arrays and Python numbers become tensors; floating inputs take the layer's
        dtype (Keras 3's autocasting)."""
        def convert(x):
            if isinstance(x, Tensor) or hasattr(x, "__array__") or isinstance(x, (int, float)):
                t = _to_tensor(x) if not isinstance(x, Tensor) else x
                if t.dtype.is_floating and t.dtype != self._dtype:
                    t = _ops.cast(t, self._dtype)
                return t
            return x
        if isinstance(inputs, (list, tuple, dict)):
            return _nest.map_structure(convert, inputs)
        return convert(inputs)

    def __repr__(self):  # Keras 3's
        return f"<{type(self).__name__} name={self.name}, built={self.built}>"


def _metric_class():
    from .metrics import Metric
    return Metric


class InputSpec:
    """What ``keras.Input(shape=...)`` gives: the shape (without the batch) a ``Sequential``
    model is built for.  minitape has no functional API: only ``Sequential`` takes it."""

    def __init__(self, shape, dtype="float32", name=None):
        self.shape = (None,) + tuple(shape)
        self.dtype = _d.as_dtype(dtype).name
        self.name = name or auto_name("keras_tensor")

    def __repr__(self):
        return (f"<KerasTensor shape={self.shape}, dtype={self.dtype}, sparse=False, "
                f"ragged=False, name={self.name}>")


def Input(shape=None, batch_size=None, dtype=None, name=None, **kwargs):
    """``keras.Input(shape=(4,))``: the first entry of a ``Sequential`` model."""
    if shape is None:
        raise ValueError("Please provide to Input a `shape` or a `tensor` or a `type_spec` "
                         "argument. Note that `shape` does not include the batch dimension.")
    return InputSpec(shape, dtype or "float32", name)


_TAKES_TRAINING: dict = {}


def _takes_training(cls):
    """Whether ``cls.call`` accepts a ``training`` argument (looked up once per class)."""
    r = _TAKES_TRAINING.get(cls)
    if r is None:
        import inspect
        params = inspect.signature(cls.call).parameters
        r = "training" in params or any(p.kind is p.VAR_KEYWORD for p in params.values())
        _TAKES_TRAINING[cls] = r
    return r


class Dense(Layer):
    """``activation(inputs @ kernel + bias)``; ``kernel`` has shape (input_dim, units)."""

    def __init__(self, units, activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", name=None, dtype=None, **kwargs):
        if int(units) <= 0:  # checked before the layer takes a name, as in Keras 3
            raise ValueError(f"Received an invalid value for `units`, expected a positive integer. "
                             f"Received: units={units}")
        super().__init__(name=name, dtype=dtype, **kwargs)
        self.units = int(units)
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self._kernel_init = kernel_initializer
        self._bias_init = bias_initializer

    def _check_input_shape(self, shape):
        if len(shape) < 2:
            raise ValueError(f"Input 0 with name 'None' of layer '{self.name}' is incompatible "
                             "with the layer: "
                             f"expected min_ndim=2, found ndim={len(shape)}. Full shape received: "
                             f"{tuple(shape)}")

    def build(self, input_shape):
        self._check_input_shape(input_shape)
        in_dim = input_shape[-1]
        self.kernel = self.add_weight((in_dim, self.units), self._kernel_init, name="kernel")
        self.bias = (self.add_weight((self.units,), self._bias_init, name="bias")
                     if self.use_bias else None)
        self.built = True

    def call(self, inputs):
        x = _to_tensor(inputs)
        self._check_input_shape(x.shape)
        if x.shape[-1] != self.kernel.shape[0]:  # Keras 3's InputSpec check, in its words
            raise ValueError(f"Input 0 with name 'None' of layer '{self.name}' is incompatible "
                             f"with the layer: expected axis -1 of input shape to have value "
                             f"{self.kernel.shape[0]}, but received input with shape "
                             f"{tuple(x.shape)}")
        if x.dtype != self.kernel.dtype:
            x = _ops.cast(x, self.kernel.dtype)
        y = _ops.matmul(x, self.kernel)
        if self.bias is not None:
            y = _ops.add(y, self.bias)
        return self.activation(y)


class BatchNormalization(Layer):
    """Normalize each feature over the batch (Keras 3's ``BatchNormalization``).

    Training (``training=True``) normalizes with the batch's mean and (biased) variance and
    moves ``moving_mean`` / ``moving_variance`` towards them by ``1 - momentum``; inference
    (the default) uses the moving statistics.  ``gamma`` and ``beta`` are trainable.
    """

    def __init__(self, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True,
                 beta_initializer="zeros", gamma_initializer="ones",
                 moving_mean_initializer="zeros", moving_variance_initializer="ones",
                 name=None, dtype=None, **kwargs):
        super().__init__(name=name, dtype=dtype, **kwargs)
        self.axis = int(axis)
        self.momentum = float(momentum)
        self.epsilon = float(epsilon)
        self.center = center
        self.scale = scale
        self._inits = (beta_initializer, gamma_initializer, moving_mean_initializer,
                       moving_variance_initializer)

    def build(self, input_shape):
        shape = tuple(input_shape)
        ax = self.axis % len(shape)
        dim = (shape[ax],)
        beta_i, gamma_i, mean_i, var_i = self._inits
        self.gamma = self.add_weight(dim, gamma_i, name="gamma") if self.scale else None
        self.beta = self.add_weight(dim, beta_i, name="beta") if self.center else None
        self.moving_mean = self.add_weight(dim, mean_i, trainable=False, name="moving_mean")
        self.moving_variance = self.add_weight(dim, var_i, trainable=False,
                                               name="moving_variance")
        self._reduce = tuple(i for i in range(len(shape)) if i != ax)
        self._bshape = tuple(shape[ax] if i == ax else 1 for i in range(len(shape)))
        self.built = True

    def call(self, inputs, training=None):
        x = _to_tensor(inputs)
        if x.dtype != self.moving_mean.dtype:
            x = _ops.cast(x, self.moving_mean.dtype)
        if training:
            mean = _ops.reduce_mean(x, axis=self._reduce)
            var = _ops.reduce_mean(_ops.square(_ops.subtract(x, _ops.reshape(mean, self._bshape))),
                                   axis=self._reduce)
            m = self.momentum
            self.moving_mean.assign(self.moving_mean * m + _ops.stop_gradient(mean) * (1.0 - m))
            self.moving_variance.assign(self.moving_variance * m
                                        + _ops.stop_gradient(var) * (1.0 - m))
        else:
            mean, var = self.moving_mean, self.moving_variance
        inv = _ops.rsqrt(_ops.add(var, self.epsilon))
        if self.gamma is not None:
            inv = _ops.multiply(inv, self.gamma)
        y = _ops.multiply(_ops.subtract(x, _ops.reshape(mean, self._bshape)),
                          _ops.reshape(inv, self._bshape))
        if self.beta is not None:
            y = _ops.add(y, _ops.reshape(self.beta, self._bshape))
        return y
