"""Weight initializers used by ``Dense``."""
from __future__ import annotations

import math

from .. import random as _random, _ops, dtypes as _d


def glorot_uniform(shape, dtype=_d.float32):
    fan_in, fan_out = (shape[0], shape[-1]) if len(shape) >= 2 else (shape[0], shape[0])
    limit = math.sqrt(6.0 / (fan_in + fan_out))
    return _random.uniform(shape, -limit, limit, dtype=dtype)


def zeros(shape, dtype=_d.float32):
    return _ops.zeros(shape, dtype=dtype)


def ones(shape, dtype=_d.float32):
    return _ops.ones(shape, dtype=dtype)


def random_normal(shape, dtype=_d.float32, stddev=0.05):
    return _random.normal(shape, stddev=stddev, dtype=dtype)


class Constant:
    """``keras.initializers.Constant(value)``: every entry ``value``."""

    def __init__(self, value=0.0):
        self.value = value

    def __call__(self, shape, dtype=_d.float32):
        return _ops.fill(tuple(shape), _ops.cast(self.value, dtype))


class Zeros(Constant):
    def __init__(self):
        super().__init__(0.0)


class Ones(Constant):
    def __init__(self):
        super().__init__(1.0)


_BY_NAME = {"glorot_uniform": glorot_uniform, "zeros": zeros, "ones": ones,
            "random_normal": random_normal}


def get(identifier):
    if callable(identifier):
        return identifier
    try:
        return _BY_NAME[identifier]
    except KeyError:
        raise ValueError(f"Unknown initializer: {identifier!r}") from None
