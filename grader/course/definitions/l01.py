"""Lesson 1, "Gradients and tapes" (``lessons/src/01-gradients.py``): four exercises.

The contracts are the ones the lesson states to students:

``l01_ex1`` (1 point) -- ``derivative_at(x0)``: ``x0`` is a Python float; return
``tape.gradient`` of ``y = x**3 - 2*x`` at ``x0`` (a scalar tensor). The prompt asks for a
``GradientTape``: a hand-derived formula keeps the points its values earn and is noted for the
instructor (``techniques``; :mod:`grader.technique`).

``l01_ex2`` (2 points) -- ``mse_gradients(w, b, x, y_true)``: ``w`` (n, m) and ``b`` (m,) are
Variables, ``x`` (k, n) and ``y_true`` (k, m) tensors; return ``[dL/dw, dL/db]`` for
``L = mean((x @ w + b - y_true)**2)``.

``l01_ex3`` (2 points) -- ``gradients_by_name(params, x)``: ``params = {"a": Variable,
"c": Variable}`` with the shape of the tensor ``x``; return the dict of gradients of
``f = sum(sin(a*x) + c**2 * x)`` (same keys).

``l01_ex4`` (2 points) -- ``dense_gradients(layer, x)``: ``layer`` is a built
``tf.keras.layers.Dense``; return the gradients of ``L = mean(layer(x)**2)`` w.r.t.
``layer.trainable_variables`` (a list ``[d kernel, d bias]``).

Tensors and Variables given to students are float64 (``derivative_at`` receives a Python float,
which minitape, like TensorFlow, turns into float32); whatever dtype a student computes in,
every answer is compared within float32's tolerance (the grader's one rule, ``grader.student.checks``). References are always computed in float64. Hidden cases draw shapes and values at
random.
"""

from __future__ import annotations

import numpy as np

from grader.autograde.technique import Technique
from . import Case, Exercise, Inputs, register


def _tf():
    import minitape as tf

    return tf


def _f64(x) -> np.ndarray:
    return np.array(x, dtype=np.float64)


# ------------------------------------------------------------------------------------------------
# l01_ex1: a derivative at a point
# ------------------------------------------------------------------------------------------------
def _derivative_at_reference(x0):
    tf = _tf()
    x = tf.Variable(np.float64(x0))
    with tf.GradientTape() as tape:
        y = x ** 3 - 2 * x
    return tape.gradient(y, x)


def _ex1(x0: float) -> Inputs:
    return Inputs(args=(float(x0),), values={"x0": _f64(x0)})


register(Exercise(
    id="l01_ex1",
    function="derivative_at",
    signature="derivative_at(x0)",
    # the prompt asks for the tape's answer: a hand-derived 3*x0**2 - 2 keeps every point (values
    # decide points) and is noted for the instructor (grader.technique)
    techniques=(Technique("GradientTape", ("GradientTape",), "GradientTape.gradient", description={
        "en": "a GradientTape (not a hand-derived formula)",
        "es": "una GradientTape (no una fórmula derivada a mano)",
        "pt": "uma GradientTape (não uma fórmula derivada à mão)",
        "ru": "GradientTape (а не выведенную вручную формулу)"}),),
    points=1,
    reference=_derivative_at_reference,
    visible=[Case(lambda rng: _ex1(2.0), "x0 = 2.0"),
             Case(lambda rng: _ex1(-0.5), "x0 = -0.5")],
    hidden=[Case(lambda rng: _ex1(rng.uniform(-3.0, 3.0))) for _ in range(3)],
    objective=lambda v, inputs: float(v["x0"] ** 3 - 2 * v["x0"]),
    gradient_names="x0",
    title={"en": "A derivative at a point", "es": "Una derivada en un punto",
           "pt": "Uma derivada em um ponto", "ru": "Производная в точке"},
    compares="derivative",
))


# ------------------------------------------------------------------------------------------------
# l01_ex2: a loss and tensor sources
# ------------------------------------------------------------------------------------------------
def _mse_gradients_reference(w, b, x, y_true):
    tf = _tf()
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((tf.matmul(x, w) + b - y_true) ** 2)
    return tape.gradient(loss, [w, b])


def _ex2(w, b, x, y) -> Inputs:
    tf = _tf()
    w, b, x, y = _f64(w), _f64(b), _f64(x), _f64(y)
    return Inputs(args=(tf.Variable(w.copy()), tf.Variable(b.copy()),
                        tf.constant(x.copy()), tf.constant(y.copy())),
                  values={"w": w, "b": b}, extra={"x": x, "y": y})


def _ex2_objective(v, inputs):
    x, y = inputs.extra["x"], inputs.extra["y"]
    return float(np.mean((x @ v["w"] + v["b"] - y) ** 2))


def _ex2_random(rng):
    k, n, m = int(rng.integers(2, 7)), int(rng.integers(1, 5)), int(rng.integers(1, 4))
    return _ex2(rng.normal(size=(n, m)), rng.normal(size=m), rng.normal(size=(k, n)),
                rng.normal(size=(k, m)))


register(Exercise(
    id="l01_ex2",
    function="mse_gradients",
    signature="mse_gradients(w, b, x, y_true)",
    points=2,
    reference=_mse_gradients_reference,
    visible=[Case(lambda rng: _ex2(w=[[1.0, -1.0], [0.5, 2.0]], b=[0.0, 1.0],
                                   x=[[1.0, 2.0], [0.0, -1.0], [3.0, 1.0]],
                                   y=[[1.0, 0.0], [0.0, 1.0], [2.0, 2.0]]),
                  "w (2, 2), b (2,), x (3, 2)")],
    hidden=[Case(_ex2_random), Case(_ex2_random)],
    objective=_ex2_objective,
    gradient_names=["w", "b"],
    title={"en": "A loss and tensor sources", "es": "Una pérdida y fuentes tensoriales",
           "pt": "Uma perda e fontes tensoriais", "ru": "Функция потерь и тензорные источники"},
    components=["dL/dw", "dL/db"],
))


# ------------------------------------------------------------------------------------------------
# l01_ex3: parameters by name (a dict of sources)
# ------------------------------------------------------------------------------------------------
def _gradients_by_name_reference(params, x):
    tf = _tf()
    with tf.GradientTape() as tape:
        f = tf.reduce_sum(tf.sin(params["a"] * x) + params["c"] ** 2 * x)
    return tape.gradient(f, params)


def _ex3(a, c, x) -> Inputs:
    tf = _tf()
    a, c, x = _f64(a), _f64(c), _f64(x)
    params = {"a": tf.Variable(a.copy()), "c": tf.Variable(c.copy())}
    return Inputs(args=(params, tf.constant(x.copy())), values={"a": a, "c": c}, extra={"x": x})


def _ex3_objective(v, inputs):
    x = inputs.extra["x"]
    return float(np.sum(np.sin(v["a"] * x) + v["c"] ** 2 * x))


def _ex3_random(rng):
    shape = (int(rng.integers(2, 6)),) if rng.random() < 0.5 else \
        (int(rng.integers(2, 4)), int(rng.integers(2, 4)))
    return _ex3(rng.normal(size=shape), rng.normal(size=shape), rng.uniform(-2, 2, size=shape))


register(Exercise(
    id="l01_ex3",
    function="gradients_by_name",
    signature="gradients_by_name(params, x)",
    points=2,
    reference=_gradients_by_name_reference,
    visible=[Case(lambda rng: _ex3(a=[1.0, 0.5, -2.0], c=[0.0, 1.0, 2.0], x=[0.5, -1.0, 2.0]),
                  "a, c, x: (3,)")],
    hidden=[Case(_ex3_random), Case(_ex3_random)],
    objective=_ex3_objective,
    gradient_names={"a": "a", "c": "c"},
    title={"en": "Parameters by name", "es": "Parámetros con nombre",
           "pt": "Parâmetros com nome", "ru": "Именованные параметры"},
    components={"a": "df/da", "c": "df/dc"},
))


# ------------------------------------------------------------------------------------------------
# l01_ex4: a Dense layer's trainable variables
# ------------------------------------------------------------------------------------------------
def _dense_gradients_reference(layer, x):
    tf = _tf()
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(layer(x) ** 2)
    return tape.gradient(loss, layer.trainable_variables)


_ACTIVATIONS = {None: lambda z: z, "tanh": np.tanh, "relu": lambda z: np.maximum(z, 0.0)}


def _ex4(kernel, bias, x, activation=None) -> Inputs:
    tf = _tf()
    kernel, bias, x = _f64(kernel), _f64(bias), _f64(x)
    layer = tf.keras.layers.Dense(kernel.shape[1], activation=activation, dtype="float64")
    layer(tf.constant(x.copy()))  # built by a first call, as the lesson says
    layer.kernel.assign(kernel)
    layer.bias.assign(bias)
    return Inputs(args=(layer, tf.constant(x.copy())), values={"kernel": kernel, "bias": bias},
                  extra={"x": x, "activation": activation})


def _ex4_objective(v, inputs):
    act = _ACTIVATIONS[inputs.extra["activation"]]
    return float(np.mean(act(inputs.extra["x"] @ v["kernel"] + v["bias"]) ** 2))


def _ex4_random(rng):
    batch, n_in, units = int(rng.integers(2, 6)), int(rng.integers(2, 5)), int(rng.integers(1, 4))
    return _ex4(rng.normal(scale=0.7, size=(n_in, units)), rng.normal(scale=0.3, size=units),
                rng.normal(size=(batch, n_in)), activation="tanh")


register(Exercise(
    id="l01_ex4",
    function="dense_gradients",
    signature="dense_gradients(layer, x)",
    points=2,
    reference=_dense_gradients_reference,
    visible=[Case(lambda rng: _ex4(kernel=[[0.5, -0.25], [1.0, 0.75], [-0.5, 0.1]],
                                   bias=[0.1, -0.2], x=[[1.0, 0.0, -1.0], [0.5, 2.0, 1.0]]),
                  "Dense(2), x: (2, 3)")],
    hidden=[Case(_ex4_random), Case(_ex4_random)],
    objective=_ex4_objective,
    gradient_names=["kernel", "bias"],
    title={"en": "A model's variables", "es": "Las variables de un modelo",
           "pt": "As variáveis de um modelo", "ru": "Переменные модели"},
    components=["dL/dkernel", "dL/dbias"],
))
