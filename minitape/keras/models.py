"""``Sequential``: layers applied in order."""
from __future__ import annotations

from .layers import Layer


class Model(Layer):
    """Subclass and implement ``call``; variables of layer attributes are collected."""

    def __call__(self, inputs, *args, **kwargs):
        from .layers import _takes_training
        if "training" in kwargs and not _takes_training(type(self)):
            del kwargs["training"]  # Keras passes `training` only to a call() that takes it
        return self.call(inputs, *args, **kwargs)


class Sequential(Model):
    def __init__(self, layers=None, name=None):
        super().__init__(name=name)
        self.layers = list(layers or [])

    def add(self, layer):
        self.layers.append(layer)

    def call(self, inputs, training=None):
        x = inputs
        for layer in self.layers:
            x = layer(x, training=training) if training is not None else layer(x)
        return x

    @property
    def trainable_variables(self):
        return tuple(v for layer in self.layers for v in layer.trainable_variables)

    @property
    def variables(self):
        return tuple(v for layer in self.layers for v in layer.variables)
