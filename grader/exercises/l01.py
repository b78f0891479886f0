"""Lesson 1, "Gradients and tapes" (``lessons/src/01-gradients.py``): three exercises.

The contracts are the ones the lesson states to students:

``l01_ex1`` (2 points) -- ``tape_gradient(x)``: ``x`` is a float64 NumPy array of any shape
(a single number, a vector, a matrix); return ``tape.gradient`` of
``f(x) = sum(x**2 * sin(x))`` at ``x`` (a tensor with the shape of ``x``).

``l01_ex2`` (3 points) -- ``loss_gradients(params, x, y)``: ``params = {"w": Variable (n,),
"b": Variable ()}``, ``x`` (m, n) and ``y`` (m,) tensors; return the dict of gradients of
``L = mean((sum_j x_ij w_j + b - y_i)**2)`` (same keys: gradients w.r.t. a nested structure).

``l01_ex3`` (3 points) -- ``dense_gradients(layer, x, y)``: ``layer`` is a built
``tf.keras.layers.Dense`` (tanh activation here), ``x`` a batch of inputs, ``y`` the targets;
return the gradients of ``L = mean((layer(x) - y)**2)`` w.r.t. ``layer.trainable_variables``
(a list ``[d kernel, d bias]``).

Everything given to students is float64, so answers are compared with the float64 tolerance
(a student who casts to float32 gets the float32 one, see :class:`grader.checks.Tolerance`).
Hidden cases draw shapes and values at random, so an answer hard-coded to the visible values
fails them; each exercise also has a finite-difference check on its first hidden case.
"""

from __future__ import annotations

import numpy as np

from . import Case, Exercise, Inputs, register


def _tf():
    import minitape as tf

    return tf


def _f64(x) -> np.ndarray:
    return np.array(x, dtype=np.float64)


# ------------------------------------------------------------------------------------------------
# l01_ex1: the gradient of a scalar function
# ------------------------------------------------------------------------------------------------
def _tape_gradient_reference(x):
    tf = _tf()
    x = tf.Variable(x)
    with tf.GradientTape() as tape:
        f = tf.reduce_sum(x ** 2 * tf.sin(x))
    return tape.gradient(f, x)


def _ex1(x) -> Inputs:
    x = _f64(x)
    return Inputs(args=(x.copy(),), values={"x": x})


def _ex1_scalar(rng):
    return _ex1(rng.uniform(-3.0, 3.0))


def _ex1_vector(rng):
    return _ex1(rng.uniform(-3.0, 3.0, size=int(rng.integers(2, 7))))


def _ex1_matrix(rng):
    return _ex1(rng.uniform(-3.0, 3.0, size=(int(rng.integers(2, 5)), int(rng.integers(2, 5)))))


register(Exercise(
    id="l01_ex1",
    function="tape_gradient",
    signature="tape_gradient(x)",
    points=2,
    reference=_tape_gradient_reference,
    visible=[Case(lambda rng: _ex1(1.5), "x = 1.5"),
             Case(lambda rng: _ex1([0.0, 1.0, 2.0]), "x = [0, 1, 2]")],
    hidden=[Case(_ex1_vector), Case(_ex1_scalar), Case(_ex1_matrix)],
    objective=lambda v, inputs: float(np.sum(v["x"] ** 2 * np.sin(v["x"]))),
    gradient_names="x",
    title={"en": "The gradient of a scalar function",
           "es": "El gradiente de una función escalar",
           "pt": "O gradiente de uma função escalar",
           "ru": "Градиент скалярной функции"},
))


# ------------------------------------------------------------------------------------------------
# l01_ex2: gradients with respect to a dictionary of variables
# ------------------------------------------------------------------------------------------------
def _loss_gradients_reference(params, x, y):
    tf = _tf()
    with tf.GradientTape() as tape:
        y_hat = tf.reduce_sum(x * params["w"], axis=1) + params["b"]
        loss = tf.reduce_mean((y_hat - y) ** 2)
    return tape.gradient(loss, params)


def _ex2(w, b, x, y) -> Inputs:
    tf = _tf()
    w, b, x, y = _f64(w), _f64(b), _f64(x), _f64(y)
    params = {"w": tf.Variable(w.copy(), name="w"), "b": tf.Variable(b.copy(), name="b")}
    return Inputs(args=(params, tf.constant(x.copy()), tf.constant(y.copy())),
                  values={"w": w, "b": b}, extra={"x": x, "y": y})


def _ex2_objective(v, inputs):
    x, y = inputs.extra["x"], inputs.extra["y"]
    return float(np.mean((x @ v["w"] + v["b"] - y) ** 2))


def _ex2_random(rng):
    m, n = int(rng.integers(3, 9)), int(rng.integers(2, 6))
    return _ex2(w=rng.normal(size=n), b=rng.normal(), x=rng.normal(size=(m, n)),
                y=rng.normal(size=m))


register(Exercise(
    id="l01_ex2",
    function="loss_gradients",
    signature="loss_gradients(params, x, y)",
    points=3,
    reference=_loss_gradients_reference,
    visible=[Case(lambda rng: _ex2(w=[0.5, -1.0], b=0.25, x=[[1.0, 2.0], [3.0, -1.0], [0.0, 1.0]],
                                   y=[1.0, 0.0, -1.0]),
                  "w = [0.5, -1], b = 0.25")],
    hidden=[Case(_ex2_random), Case(_ex2_random)],
    objective=_ex2_objective,
    gradient_names={"w": "w", "b": "b"},
    title={"en": "Gradients with respect to a dictionary",
           "es": "Gradientes respecto de un diccionario",
           "pt": "Gradientes em relação a um dicionário",
           "ru": "Градиенты по словарю"},
))


# ------------------------------------------------------------------------------------------------
# l01_ex3: a Dense layer's trainable variables
# ------------------------------------------------------------------------------------------------
def _dense_gradients_reference(layer, x, y):
    tf = _tf()
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((layer(x) - y) ** 2)
    return tape.gradient(loss, layer.trainable_variables)


def _ex3(kernel, bias, x, y) -> Inputs:
    tf = _tf()
    kernel, bias, x, y = _f64(kernel), _f64(bias), _f64(x), _f64(y)
    layer = tf.keras.layers.Dense(kernel.shape[1], activation="tanh", dtype="float64")
    layer.build((None, kernel.shape[0]))
    layer.kernel.assign(kernel)
    layer.bias.assign(bias)
    return Inputs(args=(layer, tf.constant(x.copy()), tf.constant(y.copy())),
                  values={"kernel": kernel, "bias": bias}, extra={"x": x, "y": y})


def _ex3_objective(v, inputs):
    x, y = inputs.extra["x"], inputs.extra["y"]
    return float(np.mean((np.tanh(x @ v["kernel"] + v["bias"]) - y) ** 2))


def _ex3_random(rng):
    batch, n_in, units = int(rng.integers(2, 6)), int(rng.integers(2, 5)), int(rng.integers(1, 4))
    return _ex3(kernel=rng.normal(scale=0.7, size=(n_in, units)),
                bias=rng.normal(scale=0.3, size=units),
                x=rng.normal(size=(batch, n_in)), y=rng.normal(size=(batch, units)))


register(Exercise(
    id="l01_ex3",
    function="dense_gradients",
    signature="dense_gradients(layer, x, y)",
    points=3,
    reference=_dense_gradients_reference,
    visible=[Case(lambda rng: _ex3(kernel=[[0.5, -0.25], [1.0, 0.75], [-0.5, 0.1]],
                                   bias=[0.1, -0.2], x=[[1.0, 0.0, -1.0], [0.5, 2.0, 1.0]],
                                   y=[[0.0, 1.0], [1.0, -1.0]]),
                  "Dense(2), batch of 2")],
    hidden=[Case(_ex3_random), Case(_ex3_random)],
    objective=_ex3_objective,
    gradient_names=["kernel", "bias"],
    title={"en": "A model's variables", "es": "Las variables de un modelo",
           "pt": "As variáveis de um modelo", "ru": "Переменные модели"},
))
