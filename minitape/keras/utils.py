"""``tf.keras.utils``: ``set_random_seed``, the one call that makes Keras 3's initial weights
reproducible (TensorFlow's ``tf.random.set_seed`` alone does not: Keras 3 draws its initializers'
seeds from Python's ``random`` module)."""
from __future__ import annotations

import random as _py_random

from .. import random as _random


def set_random_seed(seed):
    """Seed Python's ``random``, NumPy's global generator and ``tf.random`` at once, as Keras 3's
    ``keras.utils.set_random_seed`` does: the same seed, then the same model, gives the same
    initial weights."""
    if not isinstance(seed, int):
        raise ValueError(f"Expected `seed` argument to be an integer. Received: seed={seed} "
                         f"(of type {type(seed)})")
    import numpy as np

    _py_random.seed(seed)
    np.random.seed(seed)
    _random.set_seed(seed)
