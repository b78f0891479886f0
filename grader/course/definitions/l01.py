"""Lesson 1, "Gradients and tapes" (``lessons/src/01-gradients.py``): five exercises.

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

``l01_ex4`` (2 points) -- ``dense_gradients(layer, x, y)``: ``layer`` is a built
``tf.keras.layers.Dense`` with one unit (its output has shape (k, 1)), ``y`` a tensor of shape
(k,); return the gradients of the mean squared error ``L = mean((pred - y)**2)`` of the k
predictions w.r.t. ``layer.trainable_variables`` (a list ``[d kernel, d bias]``). The lesson's
shape trap: ``layer(x) - y`` broadcasts (k, 1) against (k,) into a (k, k) matrix, whose mean is
another loss; the values tell it apart (the declared pattern ``broadcast_kk``).

``l01_ex5`` (2 points) -- ``gradient_check(f, x, grad, v)``: ``f`` a function of one tensor
(a :class:`grader.wire.Formula`, so that it can be sent to a kernel), ``x``, ``grad`` and ``v``
float64 tensors of one shape; with ``h = 1e-5`` return ``[nudge, predicted, rel_error]``:
the central difference ``(f(x + h v) - f(x - h v)) / 2h``, the slope ``sum(grad * v)`` the
claimed gradient predicts, and ``|nudge - predicted| / max(|nudge|, |predicted|)``. Hidden
cases give right gradients (the tape's) and wrong ones (a term, a factor of the chain rule or a
ReLU's step missing, a gradient twice too large) of several functions, at points where no ReLU input is
within 1e-3 of its kink, along directions where neither slope is near 0. Compared within
float32's tolerance, as every exercise: a right gradient's relative error is about 1e-10 with any
reasonable ``h`` and passes by the absolute tolerance.

Tensors and Variables given to students are float64 (``derivative_at`` receives a Python float,
which minitape, like TensorFlow, turns into float32); whatever dtype a student computes in,
every answer is compared within float32's tolerance (the grader's one rule, ``grader.student.checks``). References are always computed in float64. Hidden cases draw shapes and values at
random.
"""

from __future__ import annotations

import numpy as np

from grader.autograde.technique import Technique
from grader.wire import Formula
from . import Case, Exercise, Inputs, register


def _tf():
    import minitape as tf

    return tf


# exercises 1 to 4 ask for a GradientTape: a hand-derived formula keeps every point its values
# earn (values decide points) and is noted for the instructor (grader.autograde.technique), as the
# lesson's "Exercises" cell tells students
_TAPE = Technique("GradientTape", ("GradientTape",), "GradientTape.gradient", description={
    "en": "a GradientTape (not a hand-derived formula)",
    "es": "una GradientTape (no una fórmula derivada a mano)",
    "pt": "uma GradientTape (não uma fórmula derivada à mão)",
    "ru": "GradientTape (а не выведенную вручную формулу)"})


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
    techniques=(_TAPE,),
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
    techniques=(_TAPE,),
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
    techniques=(_TAPE,),
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
# l01_ex4: a Dense layer's trainable variables, and the (k, 1) - (k,) shape trap
# ------------------------------------------------------------------------------------------------
def _dense_gradients_reference(layer, x, y):
    tf = _tf()
    with tf.GradientTape() as tape:
        pred = tf.reshape(layer(x), [-1])
        loss = tf.reduce_mean((pred - y) ** 2)
    return tape.gradient(loss, layer.trainable_variables)


_ACTIVATIONS = {None: lambda z: z, "tanh": np.tanh, "relu": lambda z: np.maximum(z, 0.0)}


def _ex4(kernel, bias, x, y, activation=None) -> Inputs:
    tf = _tf()
    kernel, bias, x, y = _f64(kernel), _f64(bias), _f64(x), _f64(y)
    layer = tf.keras.layers.Dense(kernel.shape[1], activation=activation, dtype="float64")
    layer(tf.constant(x.copy()))  # built by a first call, as the lesson says
    layer.kernel.assign(kernel)
    layer.bias.assign(bias)
    return Inputs(args=(layer, tf.constant(x.copy()), tf.constant(y.copy())),
                  values={"kernel": kernel, "bias": bias},
                  extra={"x": x, "y": y, "activation": activation})


def _ex4_objective(v, inputs):
    act = _ACTIVATIONS[inputs.extra["activation"]]
    pred = act(inputs.extra["x"] @ v["kernel"] + v["bias"])[:, 0]
    return float(np.mean((pred - inputs.extra["y"]) ** 2))


def _ex4_random(rng):
    batch, n_in = int(rng.integers(3, 7)), int(rng.integers(2, 5))
    return _ex4(rng.normal(scale=0.7, size=(n_in, 1)), rng.normal(scale=0.3, size=1),
                rng.normal(size=(batch, n_in)), rng.normal(size=batch), activation="tanh")


register(Exercise(
    id="l01_ex4",
    function="dense_gradients",
    signature="dense_gradients(layer, x, y)",
    techniques=(_TAPE,),
    points=2,
    reference=_dense_gradients_reference,
    visible=[Case(lambda rng: _ex4(kernel=[[0.5], [1.0], [-0.5]], bias=[0.1],
                                   x=[[1.0, 0.0, -1.0], [0.5, 2.0, 1.0], [-1.0, 0.5, 0.0]],
                                   y=[1.0, 2.0, -1.0]),
                  "Dense(1), x: (3, 3), y: (3,)")],
    hidden=[Case(_ex4_random), Case(_ex4_random)],
    objective=_ex4_objective,
    gradient_names=["kernel", "bias"],
    title={"en": "A model's variables", "es": "Las variables de un modelo",
           "pt": "As variáveis de um modelo", "ru": "Переменные модели"},
    components=["dL/dkernel", "dL/dbias"],
))


# ------------------------------------------------------------------------------------------------
# l01_ex5: checking a gradient with a nudge along a direction
# ------------------------------------------------------------------------------------------------
H_CHECK = 1e-5


def _gradient_check(f, x, grad, v, *, direction=True, error="relative"):
    """The reference (``direction``, ``error="relative"``) and the declared mistakes' answers
    (patterns.py): the predicted slope without the direction; the error signed, relative to the
    nudge alone, or absolute."""
    tf = _tf()
    nudge = (f(x + H_CHECK * v) - f(x - H_CHECK * v)) / (2 * H_CHECK)
    predicted = tf.reduce_sum(grad * v) if direction else tf.reduce_sum(grad)
    n, p = float(nudge), float(predicted)
    scale = max(abs(n), abs(p))
    rel = {"relative": abs(n - p) / scale if scale > 0 else 0.0,
           "signed": (n - p) / scale if scale > 0 else 0.0,
           "nudge": abs(n - p) / abs(n) if n else 0.0,
           "absolute": abs(n - p)}[error]
    return [nudge, predicted, tf.constant(rel, dtype=tf.float64)]


def _gradient_check_reference(f, x, grad, v):
    return _gradient_check(f, x, grad, v)


def _tape_gradient(f, x):
    tf = _tf()
    x = tf.constant(np.asarray(x, dtype=np.float64))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x).numpy()


# The functions the hidden checks use, each with one way its gradient is often got wrong: the
# lesson's g, a softplus regression, a ReLU layer (its kink: points kept 1e-3 away from it) and a
# tanh feature sum. ``wrong(x, params)`` is the mistaken gradient.
def _fn_sin_square(rng, n):
    f = Formula(["sum", ["mul", ["sin", "x"], ["pow", "x", 2]]], "f")
    x = rng.uniform(-2.0, 2.0, size=n)
    return f, x, lambda x: np.cos(x) * x**2  # the product rule's other term missing


def _fn_softplus(rng, n):
    a = rng.normal(size=(n + 1, n))
    f = Formula(["add", ["mean", ["softplus", ["matvec", a, "x"]]], ["mul", np.array(0.5), ["sum", ["square", "x"]]]], "f")
    x = rng.normal(size=n)
    # the softplus's derivative (a sigmoid) missing from the chain rule
    return f, x, lambda x: a.T @ np.ones(n + 1) / (n + 1) + x


def _fn_relu(rng, n):
    a = rng.normal(size=(n + 2, n))
    while True:
        x = rng.normal(size=n)
        b = rng.normal(size=n + 2)
        pre = a @ x + b
        # no kink within reach of the nudge, and units on both sides of it (a layer with every
        # unit off is flat there: both slopes 0, and the relative error 0/0)
        if np.min(np.abs(pre)) > 1e-3 and (pre > 0).sum() >= 2 and (pre < 0).any():
            break
    f = Formula(["sum", ["square", ["relu", ["add", ["matvec", a, "x"], b]]]], "f")
    return f, x, lambda x: 2 * a.T @ (a @ x + b)  # the ReLU's step missing: every unit passes


def _fn_tanh(rng, n):
    a = rng.normal(size=(n, n))
    c = rng.normal(size=n)
    f = Formula(["sum", ["mul", c, ["tanh", ["matvec", a, "x"]]]], "f")
    x = rng.normal(scale=0.7, size=n)
    # the gradient with respect to tanh's input (a, the matrix's transpose, forgotten)
    return f, x, lambda x: c * (1 - np.tanh(a @ x) ** 2)


_FUNCTIONS = (_fn_sin_square, _fn_softplus, _fn_relu, _fn_tanh)


def _ex5_inputs(f, x, grad, v) -> Inputs:
    tf = _tf()
    x, grad, v = _f64(x), _f64(grad), _f64(v)
    return Inputs(args=(f, tf.constant(x), tf.constant(grad), tf.constant(v)),
                  extra={"x": x, "grad": grad, "v": v})


def _ex5_random(which: int, right: bool):
    def make(rng):
        n = int(rng.integers(2, 6))
        f, x, wrong = _FUNCTIONS[which](rng, n)
        right_grad = _tape_gradient(f, x)
        grad = right_grad if right else wrong(x)
        while True:  # a direction along which both slopes are clearly away from 0
            v = rng.standard_normal(n)
            if abs(right_grad @ v) > 1e-2 and abs(grad @ v) > 1e-2:
                return _ex5_inputs(f, x, grad, v)
    return make


def _ex5_doubled(rng):
    """A gradient twice too large (a factor 2 of the chain rule), along a direction where the true
    slope is positive: the predicted slope is then the larger one and above the nudge, so that an
    error relative to the nudge alone, or without its absolute value, shows on every draw."""
    n = int(rng.integers(2, 6))
    f, x, _ = _fn_sin_square(rng, n)
    grad = _tape_gradient(f, x)
    while True:
        v = rng.standard_normal(n)
        if abs(grad @ v) > 1e-2:
            v = v if grad @ v > 0 else -v
            return _ex5_inputs(f, x, 2 * grad, v)


def _ex5_visible_right(rng):
    f = Formula(["sum", ["mul", ["sin", "x"], ["pow", "x", 2]]], "f")
    x = np.array([1.5, -0.5])
    return _ex5_inputs(f, x, _tape_gradient(f, x), [1.0, 2.0])


def _ex5_visible_wrong(rng):
    # a direction where the wrong slope is the larger one and the nudge the smaller (negative)
    # one, so that an error relative to the nudge alone, or without its absolute value, shows
    f = Formula(["sum", ["mul", ["sin", "x"], ["pow", "x", 2]]], "f")
    x = np.array([1.5, -0.5])
    return _ex5_inputs(f, x, np.cos(x) * x**2, [-1.0, 4.0])


register(Exercise(
    id="l01_ex5",
    function="gradient_check",
    signature="gradient_check(f, x, grad, v)",
    points=2,
    reference=_gradient_check_reference,
    visible=[Case(_ex5_visible_right, {"en": "right gradient, x = [1.5, -0.5], v = [1, 2]",
                                       "es": "gradiente correcto, x = [1.5, -0.5], v = [1, 2]",
                                       "pt": "gradiente correto, x = [1.5, -0.5], v = [1, 2]",
                                       "ru": "верный градиент, x = [1.5, -0.5], v = [1, 2]"}),
             Case(_ex5_visible_wrong, {"en": "wrong gradient, x = [1.5, -0.5], v = [-1, 4]",
                                       "es": "gradiente erróneo, x = [1.5, -0.5], v = [-1, 4]",
                                       "pt": "gradiente errado, x = [1.5, -0.5], v = [-1, 4]",
                                       "ru": "неверный градиент, x = [1.5, -0.5], v = [-1, 4]"})],
    # every function once with its right gradient and once with a wrong one
    hidden=[Case(_ex5_random(i, right)) for i in range(len(_FUNCTIONS)) for right in (True, False)]
    + [Case(_ex5_doubled)],
    title={"en": "Checking a gradient with a nudge", "es": "Comprobar un gradiente con una pequeña perturbación",
           "pt": "Conferir um gradiente com uma pequena perturbação", "ru": "Проверка градиента небольшим сдвигом"},
    compares="value",
    components=["nudge", "predicted", "rel_error"],
))
