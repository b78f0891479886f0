"""Lesson 6, "Training with gradients" (``lessons/src/06-training.py``): four exercises.

The contracts are the ones the lesson states to students. The linear model of ``l06_ex1`` and
``l06_ex2`` is ``pred = x @ w + b`` with ``x`` (k, n), ``w`` (n, 1), ``b`` (1,), ``y`` (k, 1),
and its loss is ``L = mean((pred - y)**2)``.

``l06_ex1`` (2 points) -- ``gradient_descent_step(w, b, x, y, lr)``: ``w`` and ``b`` are
Variables, ``lr`` a Python float; take one step ``v <- v - lr * dL/dv`` for both, in place
(``assign_sub``), and return ``[w, b]`` (their values after the step).

``l06_ex2`` (3 points) -- ``train_linear(w, b, x, y, lr, steps)``: ``steps`` such steps, each
with a new tape; return ``tf.stack`` of the ``steps`` losses, each computed before its
step's update (shape (steps,)). Rebinding ``w = w - lr * g`` turns ``w`` into a Tensor that
the next tape does not watch, so the second step gets None and fails.

``l06_ex3`` (2 points) -- ``clipped_descent(w, b, x, y, lr, steps, clip_norm)``: the loop of
``l06_ex2``, but each gradient is clipped to norm ``clip_norm`` (``tf.clip_by_norm``, each
tensor on its own) before its update; return ``tf.stack`` of the losses, each computed before
its step's update. The data are steep, so the first gradients are well above ``clip_norm``: an
unclipped loop gives other losses. (It replaces an MLP-gradient item that repeated L01 ex4.)

``l06_ex4`` (3 points) -- ``train_minibatches(model, optimizer, x, y, batch_size, epochs)``:
``epochs`` passes over the data in order, without shuffling; each pass cuts ``x`` and ``y``
into consecutive mini-batches of ``batch_size`` rows (the last one may be shorter) and takes
one step ``optimizer.apply_gradients(zip(grads, model.trainable_variables))`` per mini-batch,
for that mini-batch's loss ``mean((model(x_batch) - y_batch)**2)``. Return ``tf.stack`` of
the mini-batch losses, each computed before its update (shape (epochs * ceil(k /
batch_size),)). The optimizer is a fresh ``tf.keras.optimizers.Adam`` or ``SGD`` (with
momentum in some hidden cases).

Tensors and Variables given to students are float64 (every answer is compared within float32's tolerance (the grader's one rule, ``grader.student.checks``));
references are computed in float64 with the same, deterministic updates, so a correct answer
matches them to rounding. Hidden cases draw data, shapes, learning rates, step
counts and the optimizer at random; the learning rates stay in the stable range.
"""

from __future__ import annotations

import numpy as np

from . import Case, Exercise, Inputs, register


def _tf():
    import minitape as tf

    return tf


def _f64(x) -> np.ndarray:
    return np.array(x, dtype=np.float64)


def _linear_loss(tf, w, b, x, y):
    return tf.reduce_mean((tf.matmul(x, w) + b - y) ** 2)


def _linear(w, b, x, y, *extra) -> Inputs:
    """Fresh Variables ``w`` (n, 1), ``b`` (1,) and constants ``x`` (k, n), ``y`` (k, 1)."""
    tf = _tf()
    w, b, x, y = _f64(w), _f64(b), _f64(x), _f64(y)
    return Inputs(args=(tf.Variable(w.copy()), tf.Variable(b.copy()), tf.constant(x.copy()),
                        tf.constant(y.copy()), *extra),
                  values={"w": w, "b": b}, extra={"x": x, "y": y})


def _linear_data(rng, k, n):
    """Points around a random plane, plus a start for ``w`` and ``b`` away from it."""
    x = rng.normal(size=(k, n))
    true_w = rng.uniform(-3.0, 3.0, size=(n, 1))
    true_b = rng.uniform(-2.0, 2.0, size=(1,))
    y = x @ true_w + true_b + rng.normal(scale=0.3, size=(k, 1))
    return rng.normal(scale=0.5, size=(n, 1)), rng.normal(scale=0.5, size=(1,)), x, y


# Visible data: 6 points near y = 2 x - 1, one feature
_X = [[-1.0], [-0.5], [0.0], [0.5], [1.0], [1.5]]
_Y = [[-3.1], [-1.9], [-1.2], [0.1], [0.9], [2.1]]


# ------------------------------------------------------------------------------------------------
# l06_ex1: one step of gradient descent, in place
# ------------------------------------------------------------------------------------------------
def _gradient_descent_step_reference(w, b, x, y, lr):
    tf = _tf()
    with tf.GradientTape() as tape:
        loss = _linear_loss(tf, w, b, x, y)
    dw, db = tape.gradient(loss, [w, b])
    w.assign_sub(lr * dw)
    b.assign_sub(lr * db)
    return [w, b]


def _ex1_random(rng):
    k, n = int(rng.integers(3, 9)), int(rng.integers(1, 4))
    return _linear(*_linear_data(rng, k, n), float(rng.uniform(0.01, 0.3)))


register(Exercise(
    id="l06_ex1",
    function="gradient_descent_step",
    signature="gradient_descent_step(w, b, x, y, lr)",
    points=2,
    reference=_gradient_descent_step_reference,
    visible=[Case(lambda rng: _linear([[0.0]], [0.0], _X, _Y, 0.1),
                  "w = [[0]], b = [0], x: (6, 1), lr = 0.1"),
             Case(lambda rng: _linear([[1.0], [-0.5]], [0.5],
                                      [[1.0, 2.0], [0.0, -1.0], [2.0, 0.5]],
                                      [[1.0], [0.0], [3.0]], 0.05),
                  "w: (2, 1), b: (1,), x: (3, 2), lr = 0.05")],
    hidden=[Case(_ex1_random) for _ in range(3)],
    title={"en": "One step of gradient descent", "es": "Un paso de descenso del gradiente",
           "pt": "Um passo de descida do gradiente", "ru": "Один шаг градиентного спуска"},
    compares="parameters",
    components=["w", "b"],
))


# ------------------------------------------------------------------------------------------------
# l06_ex2: a training loop and its loss curve
# ------------------------------------------------------------------------------------------------
def _train_linear_reference(w, b, x, y, lr, steps):
    tf = _tf()
    losses = []
    for _ in range(steps):
        with tf.GradientTape() as tape:
            loss = _linear_loss(tf, w, b, x, y)
        dw, db = tape.gradient(loss, [w, b])
        w.assign_sub(lr * dw)
        b.assign_sub(lr * db)
        losses.append(loss)
    return tf.stack(losses)


def _ex2_random(rng):
    k, n = int(rng.integers(8, 21)), int(rng.integers(1, 4))
    return _linear(*_linear_data(rng, k, n), float(rng.uniform(0.02, 0.1)),
                   int(rng.integers(5, 31)))


register(Exercise(
    id="l06_ex2",
    function="train_linear",
    signature="train_linear(w, b, x, y, lr, steps)",
    points=3,
    reference=_train_linear_reference,
    visible=[Case(lambda rng: _linear([[0.0]], [0.0], _X, _Y, 0.1, 60),
                  "w = [[0]], b = [0], x: (6, 1), lr = 0.1, steps = 60")],
    hidden=[Case(_ex2_random) for _ in range(3)],
    title={"en": "A training loop and its loss curve",
           "es": "Un bucle de entrenamiento y su curva de pérdida",
           "pt": "Um laço de treinamento e sua curva de perda",
           "ru": "Цикл обучения и его кривая потерь"},
    compares="losses",
))


# ------------------------------------------------------------------------------------------------
# l06_ex3: clipping inside a training loop
# ------------------------------------------------------------------------------------------------
def _clipped_descent_reference(w, b, x, y, lr, steps, clip_norm):
    tf = _tf()
    losses = []
    for _ in range(steps):
        with tf.GradientTape() as tape:
            loss = _linear_loss(tf, w, b, x, y)
        dw, db = (tf.clip_by_norm(g, clip_norm) for g in tape.gradient(loss, [w, b]))
        w.assign_sub(lr * dw)
        b.assign_sub(lr * db)
        losses.append(loss)
    return tf.stack(losses)


def _ex3_random(rng):
    """Data on a steep plane far from the start: the first gradients are well above clip_norm."""
    k, n = int(rng.integers(8, 21)), int(rng.integers(1, 4))
    w, b, x, y = _linear_data(rng, k, n)
    return _linear(w, b, x, 4.0 * y, float(rng.uniform(0.05, 0.2)), int(rng.integers(5, 26)),
                   float(rng.uniform(0.5, 2.0)))


register(Exercise(
    id="l06_ex3",
    function="clipped_descent",
    signature="clipped_descent(w, b, x, y, lr, steps, clip_norm)",
    points=2,
    reference=_clipped_descent_reference,
    visible=[Case(lambda rng: _linear([[0.0]], [0.0], _X, [[4.0 * v[0]] for v in _Y], 0.1, 20, 1.0),
                  "w = [[0]], b = [0], x: (6, 1), y = 4 * y, lr = 0.1, steps = 20, clip_norm = 1.0")],
    hidden=[Case(_ex3_random) for _ in range(3)],
    title={"en": "Clipping inside a training loop",
           "es": "Recortar gradientes dentro de un bucle de entrenamiento",
           "pt": "Recortar gradientes dentro de um laço de treinamento",
           "ru": "Обрезка градиентов внутри цикла обучения"},
    compares="losses",
))


def _mlp_loss(tf, model, x, y):
    return tf.reduce_mean((model(x) - y) ** 2)


def _mlp(k1, b1, k2, b2, x, y):
    """A built float64 ``Sequential([Dense(h, tanh), Dense(1)])`` with the given weights."""
    tf = _tf()
    k1, b1, k2, b2, x, y = (_f64(a) for a in (k1, b1, k2, b2, x, y))
    model = tf.keras.Sequential([tf.keras.layers.Dense(k1.shape[1], activation="tanh",
                                                       dtype="float64"),
                                 tf.keras.layers.Dense(1, dtype="float64")])
    model(tf.constant(x.copy()))  # built by a first call
    for variable, value in zip(model.trainable_variables, (k1, b1, k2, b2)):
        variable.assign(value)
    values = {"k1": k1, "b1": b1, "k2": k2, "b2": b2}
    return model, tf.constant(x.copy()), tf.constant(y.copy()), values


def _random_mlp(rng):
    k, h = int(rng.integers(4, 13)), int(rng.integers(2, 9))
    x = rng.uniform(-3.0, 3.0, size=(k, 1))
    return (rng.normal(scale=1.0, size=(1, h)), rng.normal(scale=0.5, size=(h,)),
            rng.normal(scale=0.7, size=(h, 1)), rng.normal(scale=0.2, size=(1,)),
            x, np.sin(x) + rng.normal(scale=0.05, size=(k, 1)))


# Visible MLP: 3 hidden units, 4 points of sin
_K1 = [[1.0, -0.5, 0.25]]
_B1 = [0.0, 0.5, -0.5]
_K2 = [[0.5], [-1.0], [0.75]]
_B2 = [0.1]
_XS = [[-2.0], [-0.5], [1.0], [2.5]]
_YS = [[float(np.sin(v[0]))] for v in _XS]

# ------------------------------------------------------------------------------------------------
# l06_ex4: mini-batches and a Keras optimizer
# ------------------------------------------------------------------------------------------------
def _train_minibatches_reference(model, optimizer, x, y, batch_size, epochs):
    tf = _tf()
    losses = []
    n = x.shape[0]
    for _ in range(epochs):
        for start in range(0, n, batch_size):
            x_batch, y_batch = x[start:start + batch_size], y[start:start + batch_size]
            with tf.GradientTape() as tape:
                loss = _mlp_loss(tf, model, x_batch, y_batch)
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
            losses.append(loss)
    return tf.stack(losses)


def _ex4(weights, optimizer, batch_size, epochs) -> Inputs:
    """``optimizer``: ("adam", lr) or ("sgd", lr, momentum); a new optimizer per call."""
    tf = _tf()
    model, x, y, values = _mlp(*weights)
    if optimizer[0] == "adam":
        opt = tf.keras.optimizers.Adam(learning_rate=optimizer[1])
    else:
        opt = tf.keras.optimizers.SGD(learning_rate=optimizer[1], momentum=optimizer[2])
    return Inputs(args=(model, opt, x, y, int(batch_size), int(epochs)), values=values)


def _ex4_random(rng):
    if rng.random() < 0.5:
        optimizer = ("adam", float(rng.uniform(0.005, 0.05)))
    else:
        optimizer = ("sgd", float(rng.uniform(0.01, 0.1)), float(rng.choice([0.0, 0.9])))
    # k from 4 to 12 points: the last batch is often smaller than batch_size
    return _ex4(_random_mlp(rng), optimizer, int(rng.integers(2, 6)), int(rng.integers(1, 4)))


register(Exercise(
    id="l06_ex4",
    function="train_minibatches",
    signature="train_minibatches(model, optimizer, x, y, batch_size, epochs)",
    points=3,
    reference=_train_minibatches_reference,
    visible=[Case(lambda rng: _ex4((_K1, _B1, _K2, _B2, _XS, _YS), ("adam", 0.05), 2, 3),
                  "Adam(learning_rate=0.05), x: (4, 1), batch_size = 2, epochs = 3"),
             Case(lambda rng: _ex4((_K1, _B1, _K2, _B2, _XS, _YS), ("sgd", 0.1, 0.0), 3, 2),
                  "SGD(learning_rate=0.1), x: (4, 1), batch_size = 3, epochs = 2")],
    hidden=[Case(_ex4_random) for _ in range(3)],
    title={"en": "Mini-batches and an optimizer", "es": "Minilotes y un optimizador",
           "pt": "Minilotes e um otimizador", "ru": "Мини-батчи и оптимизатор"},
    compares="losses",
))
