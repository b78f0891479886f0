"""The part of ``tf.keras`` (Keras 3) that a course on gradients and TensorFlow's training
guides need: layers, ``Model`` / ``Sequential`` with ``compile`` / ``fit``, losses, metrics,
optimizers, ``utils.set_random_seed``.  Eager only."""
from . import activations, initializers, layers, losses, metrics, optimizers, utils  # noqa: F401
from .layers import Layer, Input  # noqa: F401
from .models import Model, Sequential  # noqa: F401
from .variables import Variable  # noqa: F401  (keras.Variable)
from . import models  # noqa: F401
