"""Lesson 2, "Controlling what the tape watches" (``lessons/src/02-watching.py``): three exercises.

The contracts are the ones the lesson states to students:

``l02_ex1`` (2 points) -- ``input_gradient(w, x)``: ``w`` (n, m) is a trainable Variable and
``x`` (k, n) a *Tensor* (``tf.constant``), which a tape does not watch on its own; return the
gradient of ``f = sum(tanh(x @ w))`` with respect to ``x`` (shape (k, n)).

``l02_ex2`` (2 points) -- ``hidden_gradients(w, x, targets)``: ``w`` (n, m) Variable, ``x`` (k, n)
and ``targets`` (k, m) tensors; with the intermediate result ``h = x @ w`` and
``L = mean((sigmoid(h) - targets)**2)``, return ``[dL/dh, dL/dw]``.

``l02_ex3`` (3 points) -- ``loss_parts_gradients(w, x, y, lam)``: ``w`` (n,) Variable, ``x``
(k, n) and ``y`` (k,) tensors, ``lam`` a Python float; with ``data = mean((x @ w - y)**2)``
(``x @ w`` written as ``reduce_sum(x * w, axis=1)``), ``penalty = lam * sum(w**2)`` and
``total = data + penalty``, return ``{"data": d data/dw, "penalty": d penalty/dw,
"total": d total/dw}`` (the lesson asks for one persistent tape).

Tensors and Variables given to students are float64; every answer is compared within float32's tolerance (the grader's one rule, ``grader.student.checks``).
The finite-difference check of ``l02_ex2`` treats ``h`` and ``w`` as independent inputs of
``F(h, w) = L(h) + L(x @ w)``, whose partial derivatives at ``h = x @ w`` are exactly the two
asked gradients. ``l02_ex3`` has no finite-difference check (its three answers are gradients of
three different functions). Hidden cases draw shapes and values at random.
"""

from __future__ import annotations

import numpy as np

from . import Case, Exercise, Inputs, register


def _tf():
    import minitape as tf

    return tf


def _f64(x) -> np.ndarray:
    return np.array(x, dtype=np.float64)


def _sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


# ------------------------------------------------------------------------------------------------
# l02_ex1: the gradient with respect to an input Tensor (tape.watch)
# ------------------------------------------------------------------------------------------------
def _input_gradient_reference(w, x):
    tf = _tf()
    with tf.GradientTape() as tape:
        tape.watch(x)
        f = tf.reduce_sum(tf.math.tanh(tf.matmul(x, w)))
    return tape.gradient(f, x)


def _ex1(w, x) -> Inputs:
    tf = _tf()
    w, x = _f64(w), _f64(x)
    return Inputs(args=(tf.Variable(w.copy()), tf.constant(x.copy())),
                  values={"x": x}, extra={"w": w})


def _ex1_objective(v, inputs):
    return float(np.sum(np.tanh(v["x"] @ inputs.extra["w"])))


def _ex1_random(rng):
    k, n, m = int(rng.integers(1, 6)), int(rng.integers(1, 5)), int(rng.integers(1, 4))
    return _ex1(rng.normal(scale=0.8, size=(n, m)), rng.normal(size=(k, n)))


register(Exercise(
    id="l02_ex1",
    function="input_gradient",
    signature="input_gradient(w, x)",
    points=2,
    reference=_input_gradient_reference,
    visible=[Case(lambda rng: _ex1(w=[[0.5, -1.0], [0.25, 0.75]],
                                   x=[[1.0, 2.0], [-1.0, 0.5], [0.0, 3.0]]),
                  "w (2, 2), x (3, 2)")],
    hidden=[Case(_ex1_random), Case(_ex1_random)],
    objective=_ex1_objective,
    gradient_names="x",
    title={"en": "The gradient with respect to an input", "es": "El gradiente respecto de una entrada",
           "pt": "O gradiente em relação a uma entrada", "ru": "Градиент по входным данным"},
))


# ------------------------------------------------------------------------------------------------
# l02_ex2: an intermediate result and a variable
# ------------------------------------------------------------------------------------------------
def _hidden_gradients_reference(w, x, targets):
    tf = _tf()
    with tf.GradientTape() as tape:
        h = tf.matmul(x, w)
        loss = tf.reduce_mean((tf.nn.sigmoid(h) - targets) ** 2)
    return tape.gradient(loss, [h, w])


def _ex2(w, x, t) -> Inputs:
    tf = _tf()
    w, x, t = _f64(w), _f64(x), _f64(t)
    return Inputs(args=(tf.Variable(w.copy()), tf.constant(x.copy()), tf.constant(t.copy())),
                  values={"h": x @ w, "w": w}, extra={"x": x, "t": t})


def _ex2_objective(v, inputs):
    x, t = inputs.extra["x"], inputs.extra["t"]

    def loss(h):
        return float(np.mean((_sigmoid(h) - t) ** 2))

    return loss(v["h"]) + loss(x @ v["w"])


def _ex2_random(rng):
    k, n, m = int(rng.integers(2, 6)), int(rng.integers(1, 5)), int(rng.integers(1, 4))
    return _ex2(rng.normal(size=(n, m)), rng.normal(size=(k, n)), rng.uniform(0, 1, size=(k, m)))


register(Exercise(
    id="l02_ex2",
    function="hidden_gradients",
    signature="hidden_gradients(w, x, targets)",
    points=2,
    reference=_hidden_gradients_reference,
    visible=[Case(lambda rng: _ex2(w=[[1.0, -0.5], [0.5, 2.0]],
                                   x=[[1.0, 0.0], [0.5, -1.0], [2.0, 1.0]],
                                   t=[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]),
                  "w (2, 2), x (3, 2), targets (3, 2)")],
    hidden=[Case(_ex2_random), Case(_ex2_random)],
    objective=_ex2_objective,
    gradient_names=["h", "w"],
    title={"en": "An intermediate result", "es": "Un resultado intermedio",
           "pt": "Um resultado intermediário", "ru": "Промежуточный результат"},
    components=["dL/dh", "dL/dw"],
))


# ------------------------------------------------------------------------------------------------
# l02_ex3: three questions to one persistent tape
# ------------------------------------------------------------------------------------------------
def _loss_parts_gradients_reference(w, x, y, lam):
    tf = _tf()
    with tf.GradientTape(persistent=True) as tape:
        data = tf.reduce_mean((tf.reduce_sum(x * w, axis=1) - y) ** 2)
        penalty = lam * tf.reduce_sum(w ** 2)
        total = data + penalty
    grads = {"data": tape.gradient(data, w), "penalty": tape.gradient(penalty, w),
             "total": tape.gradient(total, w)}
    del tape
    return grads


def _ex3(w, x, y, lam) -> Inputs:
    tf = _tf()
    w, x, y = _f64(w), _f64(x), _f64(y)
    return Inputs(args=(tf.Variable(w.copy()), tf.constant(x.copy()), tf.constant(y.copy()),
                        float(lam)),
                  values={"w": w}, extra={"x": x, "y": y, "lam": float(lam)})


def _ex3_random(rng):
    k, n = int(rng.integers(2, 7)), int(rng.integers(1, 5))
    return _ex3(rng.normal(size=n), rng.normal(size=(k, n)), rng.normal(size=k),
                float(rng.uniform(0.01, 1.0)))


register(Exercise(
    id="l02_ex3",
    function="loss_parts_gradients",
    signature="loss_parts_gradients(w, x, y, lam)",
    points=3,
    reference=_loss_parts_gradients_reference,
    visible=[Case(lambda rng: _ex3(w=[1.0, -2.0], x=[[1.0, 0.5], [2.0, -1.0], [0.0, 1.0]],
                                   y=[1.0, 0.0, -1.0], lam=0.1),
                  "w (2,), x (3, 2), lam = 0.1")],
    hidden=[Case(_ex3_random), Case(_ex3_random)],
    title={"en": "Three questions to one persistent tape",
           "es": "Tres preguntas a una sola cinta persistente",
           "pt": "Três perguntas para uma única fita persistente",
           "ru": "Три вопроса к одной персистентной ленте"},
    components={"data": "d data/dw", "penalty": "d penalty/dw", "total": "d total/dw"},
))
