"""Lesson 4, "Controlling the tape and custom gradients" (``lessons/src/04-custom-gradients.py``):
three exercises.

The contracts are the ones the lesson states to students:

``l04_ex1`` (2 points) -- ``straight_through_gradient(x, t)``: ``x`` (n,) Variable, ``t`` (n,)
tensor; with the straight-through rounding ``q = x + tf.stop_gradient(tf.round(x) - x)`` (its
value is ``round(x)``, its gradient that of the identity) and ``L = sum((q - t)**2)``, return
``dL/dx`` (``2 (round(x) - t)``). ``tf.round`` alone has no gradient (None); the exercise asks
for ``tf.stop_gradient``.

``l04_ex2`` (2 points) -- ``log1pexp_and_gradient(x)``: ``x`` is a 1-D float32 tensor whose
entries may be far beyond the range where ``exp`` overflows in float32 (|x| up to 300). With a
``tf.custom_gradient`` function ``log1pexp`` that computes ``log(1 + e**x)`` stably
(``max(x, 0) + log1p(exp(-|x|))``) and whose gradient is ``upstream * sigmoid(x)``, return
``[log1pexp(x), tape.gradient(log1pexp(x), x)]``; both must be finite.

``l04_ex3`` (2 points) -- ``scaled_tanh_gradients(a, x)``: ``a`` () trainable Variable, ``x``
(n,) tensor; a ``tf.custom_gradient`` function ``scaled_tanh(z)`` of one argument reads ``a``
and returns ``tanh(a z)``; its ``backward(upstream, variables=None)`` returns the gradient for
``z`` and ``[gradient for a]``. For ``L = sum(scaled_tanh(x)**2)`` return ``[dL/dx, dL/da]``
from one ``gradient`` call.

Finite-difference checks (independent of the references, see ``grader.exercises``): ``l04_ex2``
checks the gradient of ``sum(logaddexp(0, x))``, ``l04_ex3`` that of ``sum(tanh(a x)**2)`` with
respect to ``x`` and ``a``. ``l04_ex1``'s answer is, on purpose, not the
gradient of its loss (rounding has derivative zero almost everywhere): it is compared with the
reference only.

Tensors and Variables given to students are float64, except in ``l04_ex2`` (float32 on purpose:
that is where ``exp`` overflows), whose answers are compared with the float32 tolerance.
References are computed in float64. Hidden cases draw shapes and values at random.
"""

from __future__ import annotations

import numpy as np

from ..technique import Technique
from . import Case, Exercise, Inputs, register


def _tf():
    import minitape as tf

    return tf


def _f64(x) -> np.ndarray:
    return np.array(x, dtype=np.float64)


# ----- l04_ex1: straight-through rounding with tf.stop_gradient --------------------------------
def _straight_through_reference(x, t):
    tf = _tf()
    with tf.GradientTape() as tape:
        q = x + tf.stop_gradient(tf.round(x) - x)
        loss = tf.reduce_sum((q - t) ** 2)
    return tape.gradient(loss, x)


def _ex1(x, t) -> Inputs:
    tf = _tf()
    x, t = _f64(x), _f64(t)
    return Inputs(args=(tf.Variable(x.copy()), tf.constant(t.copy())))


def _ex1_random(rng):
    n = int(rng.integers(2, 12))
    # away from the .5 boundaries, where rounding (and so the answer) is a matter of ulps
    x = rng.integers(-4, 5, size=n) + rng.uniform(-0.4, 0.4, size=n)
    return _ex1(x, rng.normal(scale=2.0, size=n))


register(Exercise(
    id="l04_ex1",
    function="straight_through_gradient",
    signature="straight_through_gradient(x, t)",
    techniques=(Technique("stop_gradient", ("stop_gradient",), None, description={
        "en": "tf.stop_gradient", "es": "tf.stop_gradient", "pt": "tf.stop_gradient",
        "ru": "tf.stop_gradient"}),),
    points=2,
    reference=_straight_through_reference,
    visible=[Case(lambda rng: _ex1([0.3, 1.7, -2.2], [1.0, 1.0, -1.0]),
                  "x = [0.3, 1.7, -2.2], t = [1, 1, -1]")],
    hidden=[Case(_ex1_random) for _ in range(3)],
    title={"en": "Rounding that lets the gradient through",
           "es": "Un redondeo que deja pasar el gradiente",
           "pt": "Um arredondamento que deixa o gradiente passar",
           "ru": "Округление, которое пропускает градиент"},
))


# ------------------------------------------------------------------------------------------------
# l04_ex2: a custom gradient that stays finite
# ------------------------------------------------------------------------------------------------
def _log1pexp_reference(x):
    tf = _tf()
    x = tf.cast(x, tf.float64)

    @tf.custom_gradient
    def log1pexp(z):
        def grad(upstream):
            return upstream * tf.nn.sigmoid(z)
        return tf.maximum(z, 0.0) + tf.math.log1p(tf.exp(-tf.abs(z))), grad

    with tf.GradientTape() as tape:
        tape.watch(x)
        y = log1pexp(x)
    return [y, tape.gradient(y, x)]


def _ex2(x) -> Inputs:
    tf = _tf()
    x32 = np.asarray(x, dtype=np.float32)
    return Inputs(args=(tf.constant(x32.copy()),), values={"x": x32.astype(np.float64)})


def _ex2_random(rng):
    n = int(rng.integers(4, 12))
    x = np.concatenate([rng.uniform(-300.0, 300.0, size=n // 2),
                        rng.uniform(-5.0, 5.0, size=n - n // 2),
                        # at least one entry on each side beyond float32 exp's range (about 88.7)
                        [rng.uniform(90.0, 300.0), -rng.uniform(90.0, 300.0)]])
    return _ex2(rng.permutation(x))


register(Exercise(
    id="l04_ex2",
    function="log1pexp_and_gradient",
    signature="log1pexp_and_gradient(x)",
    precision="float32",
    techniques=(Technique("custom_gradient", ("custom_gradient",), "custom_gradient", description={
        "en": "tf.custom_gradient", "es": "tf.custom_gradient", "pt": "tf.custom_gradient",
        "ru": "tf.custom_gradient"}),),
    points=2,
    reference=_log1pexp_reference,
    visible=[Case(lambda rng: _ex2([-100.0, -2.0, 0.0, 3.0, 100.0]), "x = [-100, -2, 0, 3, 100]")],
    hidden=[Case(_ex2_random) for _ in range(3)],
    objective=lambda v, inputs: float(np.sum(np.logaddexp(0.0, v["x"]))),
    gradient_names=["y", "x"],
    title={"en": "A custom gradient that stays finite",
           "es": "Un gradiente personalizado que se mantiene finito",
           "pt": "Um gradiente personalizado que continua finito",
           "ru": "Собственный градиент, который остаётся конечным"},
    compares=["value", "gradient"],
    components=["log1pexp(x)", "dy/dx"],
))


# ------------------------------------------------------------------------------------------------
# l04_ex3: a custom gradient for a function that reads a Variable (backward's variables=)
# ------------------------------------------------------------------------------------------------
def _scaled_tanh_reference(a, x):
    tf = _tf()

    @tf.custom_gradient
    def scaled_tanh(z):
        y = tf.tanh(a * z)

        def backward(upstream, variables=None):
            local = 1.0 - y ** 2
            return upstream * a * local, [tf.reduce_sum(upstream * z * local)]

        return y, backward

    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(scaled_tanh(x) ** 2)
    return tape.gradient(loss, [x, a])


def _ex3(a, x) -> Inputs:
    tf = _tf()
    a, x = _f64(a), _f64(x)
    return Inputs(args=(tf.Variable(a.copy()), tf.constant(x.copy())), values={"x": x, "a": a})


def _ex3_random(rng):
    n = int(rng.integers(1, 9))
    return _ex3(rng.uniform(-2.0, 2.0), rng.normal(scale=1.2, size=n))


register(Exercise(
    id="l04_ex3",
    function="scaled_tanh_gradients",
    signature="scaled_tanh_gradients(a, x)",
    # the probe reports custom_gradient.variables when a custom_gradient function read Variables,
    # so a function that takes `a` as an argument (no variables=) does not pass
    techniques=(Technique("custom_gradient", ("custom_gradient",),
                          ("custom_gradient", "custom_gradient.variables"), description={
        "en": "tf.custom_gradient (with backward(upstream, variables=...))",
        "es": "tf.custom_gradient (con backward(upstream, variables=...))",
        "pt": "tf.custom_gradient (com backward(upstream, variables=...))",
        "ru": "tf.custom_gradient (с backward(upstream, variables=...))"}),),
    points=2,
    reference=_scaled_tanh_reference,
    visible=[Case(lambda rng: _ex3(0.5, [1.0, -2.0]), "a = 0.5, x = [1, -2]"),
             Case(lambda rng: _ex3(-1.5, [0.2, 0.7, -1.0]), "a = -1.5, x = [0.2, 0.7, -1]")],
    hidden=[Case(_ex3_random) for _ in range(3)],
    objective=lambda v, inputs: float(np.sum(np.tanh(v["a"] * v["x"]) ** 2)),
    gradient_names=["x", "a"],
    title={"en": "A custom gradient that reads a Variable",
           "es": "Un gradiente personalizado que lee una Variable",
           "pt": "Um gradiente personalizado que lê uma Variable",
           "ru": "Собственный градиент функции, которая читает переменную"},
    components=["dL/dx", "dL/da"],
))
