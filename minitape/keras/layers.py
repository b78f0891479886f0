"""Keras-style layers: ``Layer`` and ``Dense``."""
from __future__ import annotations

from ..module import Module, unique_name, _camel_to_snake
from .._core import Variable, _to_tensor
from .. import _ops, dtypes as _d
from . import activations, initializers


class Layer(Module):
    """A Module that builds its variables on first call, from the input's shape."""

    def __init__(self, name=None, dtype=None, trainable=True):
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

    def call(self, inputs):
        raise NotImplementedError("Layer subclasses implement call()")

    def __call__(self, inputs, *args, **kwargs):
        if not self.built:
            x = _to_tensor(inputs) if not isinstance(inputs, (list, tuple)) else inputs
            self.build(x.shape if hasattr(x, "shape") else None)
            self.built = True
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


class Dense(Layer):
    """``activation(inputs @ kernel + bias)``; ``kernel`` has shape (input_dim, units)."""

    def __init__(self, units, activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", name=None, dtype=None, **kwargs):
        super().__init__(name=name, dtype=dtype)
        if int(units) <= 0:
            raise ValueError(f"Received an invalid value for `units`, expected a positive integer. "
                             f"Received: units={units}")
        self.units = int(units)
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self._kernel_init = kernel_initializer
        self._bias_init = bias_initializer

    def _check_input_shape(self, shape):
        if len(shape) < 2:
            raise ValueError(f'Input 0 of layer "{self.name}" is incompatible with the layer: '
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
        if x.dtype != self.kernel.dtype:
            x = _ops.cast(x, self.kernel.dtype)
        y = _ops.matmul(x, self.kernel)
        if self.bias is not None:
            y = _ops.add(y, self.bias)
        return self.activation(y)
