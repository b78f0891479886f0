"""Keras-style layers: ``Layer`` and ``Dense``."""
from __future__ import annotations

import warnings

from ..module import Module, unique_name, _camel_to_snake
from .._core import Variable, _to_tensor
from .. import _ops, dtypes as _d
from . import activations, initializers


class Layer(Module):
    """A Module that builds its variables on first call, from the input's shape."""

    def __init__(self, name=None, dtype=None, trainable=True, **kwargs):
        if "input_shape" in kwargs or "input_dim" in kwargs:  # Keras 3's warning, as it words it
            warnings.warn("Do not pass an `input_shape`/`input_dim` argument to a layer. When "
                          "using Sequential models, prefer using an `Input(shape)` object as the "
                          "first layer in the model instead.", UserWarning, stacklevel=3)
        super().__init__(name=name if name is not None else unique_name(_camel_to_snake(type(self).__name__)))
        self.built = False
        self._dtype = _d.as_dtype(dtype) if dtype is not None else _d.float32
        self.trainable = trainable
        # Keras' weight lists: their names sort before other attributes, so a tf.Module that
        # holds this layer lists its weights in creation order (kernel, then bias), as in TF.
        self._trainable_weights = []
        self._non_trainable_weights = []

    def build(self, input_shape):
        self.built = True

    def __repr__(self):  # Keras 3's
        return f"<{type(self).__name__} name={self.name}, built={self.built}>"

    def call(self, inputs):
        raise NotImplementedError("Layer subclasses implement call()")

    def __call__(self, inputs, *args, **kwargs):
        if not self.built:
            x = _to_tensor(inputs) if not isinstance(inputs, (list, tuple)) else inputs
            self.build(x.shape if hasattr(x, "shape") else None)
            self.built = True
        if "training" in kwargs and not _takes_training(type(self)):
            del kwargs["training"]  # Keras passes `training` only to a call() that takes it
        return self.call(inputs, *args, **kwargs)

    def add_weight(self, name, shape, initializer="glorot_uniform", trainable=True, dtype=None):
        dt = _d.as_dtype(dtype) if dtype is not None else self._dtype
        init = initializers.get(initializer)
        v = Variable(init(tuple(shape), dtype=dt), trainable=trainable)
        v._name = name  # Keras 3 names a weight by itself ("kernel"), without TF's ":0",
        v._path = f"{self.name}/{name}"  # and gives the layer in its path
        (self._trainable_weights if trainable else self._non_trainable_weights).append(v)
        return v

    @property
    def weights(self):
        return list(self.variables)

    @property
    def trainable_weights(self):  # Keras' other name for trainable_variables
        return list(self.trainable_variables)

    @property
    def non_trainable_weights(self):
        return list(self.non_trainable_variables)


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
        self.kernel = self.add_weight("kernel", (in_dim, self.units), self._kernel_init)
        self.bias = self.add_weight("bias", (self.units,), self._bias_init) if self.use_bias else None
        self.built = True

    @property
    def trainable_variables(self):
        if not self.built:
            return ()
        return tuple(v for v in (self.kernel, self.bias) if v is not None and v.trainable)

    @property
    def variables(self):
        if not self.built:
            return ()
        return tuple(v for v in (self.kernel, self.bias) if v is not None)

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
        super().__init__(name=name, dtype=dtype)
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
        self.gamma = self.add_weight("gamma", dim, gamma_i) if self.scale else None
        self.beta = self.add_weight("beta", dim, beta_i) if self.center else None
        self.moving_mean = self.add_weight("moving_mean", dim, mean_i, trainable=False)
        self.moving_variance = self.add_weight("moving_variance", dim, var_i, trainable=False)
        self._reduce = tuple(i for i in range(len(shape)) if i != ax)
        self._bshape = tuple(shape[ax] if i == ax else 1 for i in range(len(shape)))
        self.built = True

    @property
    def trainable_variables(self):
        return tuple(v for v in (getattr(self, "gamma", None), getattr(self, "beta", None))
                     if v is not None and self.trainable)

    @property
    def variables(self):
        if not self.built:
            return ()
        return tuple(v for v in (self.gamma, self.beta, self.moving_mean, self.moving_variance)
                     if v is not None)

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
