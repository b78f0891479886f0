"""Activation functions by name, as Keras accepts them (``activation='relu'``)."""
from .. import _ops

relu = _ops.relu
sigmoid = _ops.sigmoid
tanh = _ops.tanh
softmax = _ops.softmax
softplus = _ops.softplus
elu = _ops.elu
exponential = _ops.exp


def linear(x):
    return x


def leaky_relu(x, negative_slope=0.2):
    return _ops.leaky_relu(x, alpha=negative_slope)


_BY_NAME = {"relu": relu, "sigmoid": sigmoid, "tanh": tanh, "softmax": softmax,
            "softplus": softplus, "elu": elu, "linear": linear, "exponential": exponential,
            "leaky_relu": leaky_relu, None: linear}


def get(identifier):
    """An activation function from its name, a callable, or None (linear)."""
    if callable(identifier):
        return identifier
    try:
        return _BY_NAME[identifier]
    except KeyError:
        raise ValueError(f"Unknown activation function: {identifier!r}. Known: "
                         + ", ".join(k for k in _BY_NAME if k)) from None
