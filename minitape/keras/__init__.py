"""The small part of ``tf.keras`` that a first course on gradients needs."""
from . import activations, initializers, layers, losses, metrics, optimizers, utils  # noqa: F401
from .layers import Layer  # noqa: F401
from .models import Model, Sequential  # noqa: F401
