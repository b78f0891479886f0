"""``Sequential``: layers applied in order."""
from __future__ import annotations

from .layers import Layer


class Model(Layer):
    """Subclass and implement ``call``; variables of layer attributes are collected."""

    def __call__(self, inputs, *args, **kwargs):
        return self.call(inputs, *args, **kwargs)


class Sequential(Model):
    def __init__(self, layers=None, name=None):
        super().__init__(name=name)
        self.layers = list(layers or [])

    def add(self, layer):
        self.layers.append(layer)

    def call(self, inputs):
        x = inputs
        for layer in self.layers:
            x = layer(x)
        return x

    @property
    def trainable_variables(self):
        return tuple(v for layer in self.layers for v in layer.trainable_variables)

    @property
    def variables(self):
        return tuple(v for layer in self.layers for v in layer.variables)
