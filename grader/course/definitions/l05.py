"""Lesson 5, "Higher-order derivatives and Jacobians" (``lessons/src/05-higher-order.py``):
seven exercises.

The contracts are the ones the lesson states to students:

``l05_ex1`` (2 points) -- ``first_and_second_derivative(x0)``: ``x0`` is a Python float; for
``y = x**2 * sin(x)`` return ``[dy/dx, d2y/dx2]`` at ``x0`` (two scalar tensors), from two
nested tapes.

``l05_ex2`` (2 points) -- ``logistic_hessian(w, x, y)``: ``w`` (n,) Variable, ``x`` (k, n) and
``y`` (k,) tensors, ``y`` in {-1, +1}; for the logistic loss
``L = mean(log(1 + exp(-y * (x @ w))))`` return the Hessian ``d2L/dw2`` of shape (n, n), from
a nested tape and ``jacobian``.

``l05_ex3`` (2 points) -- ``newton_step(w, x, y)``: same loss; one Newton step
``w <- w - H^-1 g`` with ``tf.linalg.solve`` and ``w.assign_sub``; return ``w`` (shape (n,))
after the step.

``l05_ex4`` (optional, 0 points) -- ``logistic_hvp(w, x, y, v)``: same loss; return the
Hessian-vector product ``H v`` (shape (n,)) by forward-over-backward: a
``tf.autodiff.ForwardAccumulator`` with tangent ``v`` around the tape that computes the
gradient.

``l05_ex5`` (2 points) -- ``per_example_jacobians(w, x)``: ``w`` (n, m) Variable, ``x`` (b, n)
tensor of ``b`` independent examples; for ``y = tanh(x @ w)`` (b, m) return the per-example
Jacobians ``dy_i/dx_i`` of shape (b, m, n) with ``tape.batch_jacobian``.

``l05_ex6`` (2 points) -- ``layer_vjp(w, x, u)``: ``w`` (n, m) Variable, ``x`` (b, n) and
``u`` (b, m) tensors; for ``y = tanh(x @ w)`` return ``[u^T dy/dx, u^T dy/dw]`` (shapes (b, n)
and (n, m)) from one ``gradient`` call with ``output_gradients=u``, without a Jacobian. Its
finite-difference check differentiates ``<u, tanh(x @ w)>``, whose gradient is that product.

``l05_ex7`` (optional, 0 points) -- ``tempered_softmax_jacobians(z, temperature)``: ``z`` (n,)
tensor, ``temperature`` a () Variable; for ``s = softmax(z / T)`` return the Jacobians
``[ds/dz, ds/dT]`` of shapes (n, n) and (n,) (``tape.jacobian`` with both sources, or two
calls). A copy of the lesson's softmax cell is not enough: the temperature is a scalar source
whose Jacobian has the target's shape, and ``tape.gradient(s, T)`` is 0 (the probabilities add
up to 1 whatever T is): a declared pattern, ``gradient_not_jacobian``.

Exercises 4 and 7 are optional (the lesson's statements say so): checked and reported like the
others, worth 0 points, so that the lesson grades five exercises.

Finite-difference checks (independent of the references, see ``grader.exercises``): the
objective of ``l05_ex1`` is the first derivative ``2x sin x + x**2 cos x`` written in NumPy,
so the check differentiates it numerically and compares with the *second* answer (the first
answer's leaf is named ``"dy"``, which is not a checked input); ``l05_ex4`` checks ``H v`` as
the gradient of ``phi(w) = <dL/dw (w), v>`` with the logistic gradient written in NumPy.
``l05_ex2`` and ``l05_ex3`` return a matrix and a new point, which are not gradients of a
scalar: they are compared with the references only.

Tensors and Variables given to students are float64, except in ``l05_ex1`` (a Python float
makes a float32 Variable); every answer is compared within float32's tolerance (the grader's one rule, ``grader.student.checks``). References
are computed in float64. Hidden cases draw shapes and values at random.
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

def _sigmoid(z):
    return 0.5 * (1.0 + np.tanh(0.5 * z))  # no overflow for large |z|


# ------------------------------------------------------------------------------------------------
# l05_ex1: first and second derivative from nested tapes
# ------------------------------------------------------------------------------------------------
def _first_and_second_reference(x0):
    tf = _tf()
    x = tf.Variable(np.float64(x0))
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            y = x ** 2 * tf.sin(x)
        dy_dx = inner.gradient(y, x)
    d2y_dx2 = outer.gradient(dy_dx, x)
    return [dy_dx, d2y_dx2]


def _ex1(x0: float) -> Inputs:
    return Inputs(args=(float(x0),), values={"x0": _f64(x0)})


def _ex1_first_derivative(v, inputs):
    x = v["x0"]
    return float(2 * x * np.sin(x) + x ** 2 * np.cos(x))


register(Exercise(
    id="l05_ex1",
    function="first_and_second_derivative",
    signature="first_and_second_derivative(x0)",
    techniques=(Technique("GradientTape", ("GradientTape",), "GradientTape.gradient", description={
        "en": "a GradientTape (not a hand-derived formula)",
        "es": "una GradientTape (no una fórmula derivada a mano)",
        "pt": "uma GradientTape (não uma fórmula derivada à mão)",
        "ru": "GradientTape (а не выведенную вручную формулу)"}),),
    points=2,
    reference=_first_and_second_reference,
    visible=[Case(lambda rng: _ex1(1.0), "x0 = 1.0"),
             Case(lambda rng: _ex1(-2.0), "x0 = -2.0")],
    hidden=[Case(lambda rng: _ex1(rng.uniform(-3.0, 3.0))) for _ in range(3)],
    objective=_ex1_first_derivative,
    gradient_names=["dy", "x0"],
    title={"en": "A second derivative from nested tapes",
           "es": "Una segunda derivada con cintas anidadas",
           "pt": "Uma segunda derivada com fitas aninhadas",
           "ru": "Вторая производная с помощью вложенных лент"},
    compares="derivative",
    components=["dy/dx", "d²y/dx²"],
))


# ------------------------------------------------------------------------------------------------
# l05_ex2 .. l05_ex4: the logistic loss, its Hessian, one Newton step, a Hessian-vector product
# ------------------------------------------------------------------------------------------------
def _logistic_loss(tf, w, x, y):
    z = tf.linalg.matvec(x, w)
    return tf.reduce_mean(tf.math.softplus(-y * z))


def _logistic_grad_np(w, x, y):
    """dL/dw of L = mean(log(1 + exp(-y * x @ w))), in NumPy (for finite differences)."""
    z = x @ w
    return x.T @ (-y * _sigmoid(-y * z)) / x.shape[0]


def _logistic_hessian_reference(w, x, y):
    tf = _tf()
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            loss = _logistic_loss(tf, w, x, y)
        g = inner.gradient(loss, w)
    return outer.jacobian(g, w)


def _newton_step_reference(w, x, y):
    tf = _tf()
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            loss = _logistic_loss(tf, w, x, y)
        g = inner.gradient(loss, w)
    h = outer.jacobian(g, w)
    step = tf.linalg.solve(h, tf.reshape(g, [-1, 1]))
    w.assign_sub(tf.reshape(step, w.shape))
    return w


def _logistic_hvp_reference(w, x, y, v):
    tf = _tf()
    with tf.autodiff.ForwardAccumulator(w, v) as acc:
        with tf.GradientTape() as tape:
            loss = _logistic_loss(tf, w, x, y)
        g = tape.gradient(loss, w)
    return acc.jvp(g)


def _logistic(w, x, y, v=None) -> Inputs:
    tf = _tf()
    w, x, y = _f64(w), _f64(x), _f64(y)
    args = (tf.Variable(w.copy()), tf.constant(x.copy()), tf.constant(y.copy()))
    extra = {"x": x, "y": y}
    if v is not None:
        v = _f64(v)
        args += (tf.constant(v.copy()),)
        extra["v"] = v
    return Inputs(args=args, values={"w": w}, extra=extra)


def _logistic_random(rng, with_v=False, min_n=2):
    # min_n=3 in one hidden case: some case has n != 2, so that a factor 1/n (a mean over w)
    # is never mistaken for 1/2 on a draw whose every n happens to be the visible case's 2
    n = int(rng.integers(min_n, 5))
    k = int(rng.integers(n + 2, 13))
    x = rng.normal(size=(k, n))
    y = np.where(rng.random(k) < 0.5, -1.0, 1.0)
    y[0], y[1] = 1.0, -1.0  # both classes: the Hessian is well conditioned
    w = rng.normal(scale=0.5, size=n)
    return _logistic(w, x, y, rng.normal(size=n) if with_v else None)


_W = [0.5, -0.25]
_X = [[1.0, 2.0], [-1.0, 0.5], [0.5, -1.0], [2.0, 1.0]]
_Y = [1.0, -1.0, 1.0, -1.0]

register(Exercise(
    id="l05_ex2",
    function="logistic_hessian",
    signature="logistic_hessian(w, x, y)",
    techniques=(Technique("jacobian", ("jacobian",), "GradientTape.jacobian", description={
        "en": "tape.jacobian", "es": "tape.jacobian", "pt": "tape.jacobian", "ru": "tape.jacobian"}),),
    points=2,
    reference=_logistic_hessian_reference,
    visible=[Case(lambda rng: _logistic(_W, _X, _Y), "w (2,), x (4, 2), y (4,)")],
    hidden=[Case(lambda rng: _logistic_random(rng, min_n=3))] + [Case(_logistic_random) for _ in range(2)],
    title={"en": "The Hessian of a logistic loss",
           "es": "El hessiano de una pérdida logística",
           "pt": "A hessiana de uma perda logística",
           "ru": "Гессиан логистической функции потерь"},
    compares="hessian",
))

register(Exercise(
    id="l05_ex3",
    function="newton_step",
    signature="newton_step(w, x, y)",
    points=2,
    reference=_newton_step_reference,
    visible=[Case(lambda rng: _logistic(_W, _X, _Y), "w (2,), x (4, 2), y (4,)")],
    hidden=[Case(lambda rng: _logistic_random(rng, min_n=3))] + [Case(_logistic_random) for _ in range(2)],
    title={"en": "One Newton step", "es": "Un paso de Newton", "pt": "Um passo de Newton",
           "ru": "Один шаг метода Ньютона"},
    compares="parameters",
))


def _ex4_objective(v, inputs):
    # H v is the gradient of phi(w) = <dL/dw (w), v>
    extra = inputs.extra
    return float(_logistic_grad_np(v["w"], extra["x"], extra["y"]) @ extra["v"])


register(Exercise(
    id="l05_ex4",
    function="logistic_hvp",
    signature="logistic_hvp(w, x, y, v)",
    techniques=(
        Technique("ForwardAccumulator", ("ForwardAccumulator",), "ForwardAccumulator", description={
            "en": "tf.autodiff.ForwardAccumulator (forward over backward)",
            "es": "tf.autodiff.ForwardAccumulator (modo directo sobre una pasada hacia atrás)",
            "pt": "tf.autodiff.ForwardAccumulator (modo direto sobre uma passagem para trás)",
            "ru": "tf.autodiff.ForwardAccumulator (прямой режим поверх обратного)"}),
        Technique("jacobian", ("jacobian", "batch_jacobian", "hessians"), "GradientTape.jacobian",
                  must=False, description={
                      "en": "a Jacobian or Hessian (the product is computed without building H)",
                      "es": "un jacobiano o hessiano (el producto se calcula sin construir H)",
                      "pt": "uma jacobiana ou hessiana (o produto é calculado sem construir H)",
                      "ru": "якобиан или гессиан (произведение вычисляется без построения H)"}),
    ),
    points=0,
    optional=True,
    reference=_logistic_hvp_reference,
    visible=[Case(lambda rng: _logistic(_W, _X, _Y, [1.0, 0.0]), "v = [1, 0]"),
             Case(lambda rng: _logistic(_W, _X, _Y, [0.5, -2.0]), "v = [0.5, -2]")],
    hidden=[Case(lambda rng: _logistic_random(rng, with_v=True, min_n=3))] +
           [Case(lambda rng: _logistic_random(rng, with_v=True)) for _ in range(2)],
    objective=_ex4_objective,
    gradient_names="w",
    title={"en": "A Hessian-vector product: forward mode over a backward pass",
           "es": "Un producto hessiano-vector: modo directo sobre una pasada hacia atrás",
           "pt": "Um produto hessiana-vetor: modo direto sobre uma passagem para trás",
           "ru": "Произведение гессиана на вектор: прямой режим поверх обратного"},
    compares="hvp",
))


# ----- l05_ex5: per-example Jacobians with batch_jacobian ----------------------------------------
def _per_example_jacobians_reference(w, x):
    tf = _tf()
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.tanh(tf.matmul(x, w))
    return tape.batch_jacobian(y, x)


def _ex5(w, x) -> Inputs:
    tf = _tf()
    return Inputs(args=(tf.Variable(_f64(w).copy()), tf.constant(_f64(x).copy())))


def _ex5_random(rng):
    b, n, m = (int(v) for v in rng.integers(1, 6, size=3))
    return _ex5(rng.normal(scale=0.7, size=(n, m)), rng.normal(size=(b, n)))


register(Exercise(
    id="l05_ex5",
    function="per_example_jacobians",
    signature="per_example_jacobians(w, x)",
    techniques=(Technique("batch_jacobian", ("batch_jacobian",), "GradientTape.batch_jacobian",
                          description={"en": "tape.batch_jacobian", "es": "tape.batch_jacobian",
                                       "pt": "tape.batch_jacobian", "ru": "tape.batch_jacobian"}),),
    points=2,
    reference=_per_example_jacobians_reference,
    visible=[Case(lambda rng: _ex5([[0.5, -1.0, 0.25], [1.0, 0.5, -0.5]],
                                   [[1.0, 2.0], [-1.0, 0.5], [0.0, 0.0], [2.0, -1.0]]),
                  "w (2, 3), x (4, 2)")],
    hidden=[Case(_ex5_random) for _ in range(3)],
    title={"en": "Per-example Jacobians", "es": "Jacobianos de cada ejemplo",
           "pt": "Jacobianas de cada exemplo", "ru": "Якобианы отдельных примеров"},
    compares="jacobian",
))


# ----- l05_ex6: a vector-Jacobian product with output_gradients ---------------------------------
def _layer_vjp_reference(w, x, u):
    tf = _tf()
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.tanh(tf.matmul(x, w))
    return tape.gradient(y, [x, w], output_gradients=u)


def _ex6(w, x, u) -> Inputs:
    tf = _tf()
    w, x, u = _f64(w), _f64(x), _f64(u)
    return Inputs(args=(tf.Variable(w.copy()), tf.constant(x.copy()), tf.constant(u.copy())),
                  values={"x": x, "w": w}, extra={"u": u})


def _ex6_random(rng):
    b, n, m = (int(v) for v in rng.integers(1, 6, size=3))
    return _ex6(rng.normal(scale=0.7, size=(n, m)), rng.normal(size=(b, n)), rng.normal(size=(b, m)))


register(Exercise(
    id="l05_ex6",
    function="layer_vjp",
    signature="layer_vjp(w, x, u)",
    techniques=(
        Technique("output_gradients", ("output_gradients",), "GradientTape.gradient", description={
            "en": "gradient(..., output_gradients=u)", "es": "gradient(..., output_gradients=u)",
            "pt": "gradient(..., output_gradients=u)", "ru": "gradient(..., output_gradients=u)"}),
        Technique("jacobian", ("jacobian", "batch_jacobian"), "GradientTape.jacobian", must=False,
                  description={"en": "a Jacobian (the product is computed without building it)",
                               "es": "un jacobiano (el producto se calcula sin construirlo)",
                               "pt": "uma jacobiana (o produto é calculado sem construí-la)",
                               "ru": "якобиан (произведение вычисляется без его построения)"}),
    ),
    points=2,
    reference=_layer_vjp_reference,
    visible=[Case(lambda rng: _ex6([[0.5, -1.0], [1.0, 0.25]], [[1.0, 2.0], [-1.0, 0.5], [0.0, 1.0]],
                                   [[1.0, 0.0], [0.0, 1.0], [1.0, -1.0]]),
                  "w (2, 2), x (3, 2), u (3, 2)")],
    hidden=[Case(_ex6_random) for _ in range(3)],
    objective=lambda v, inputs: float(np.sum(inputs.extra["u"] * np.tanh(v["x"] @ v["w"]))),
    gradient_names=["x", "w"],
    title={"en": "A vector-Jacobian product", "es": "Un producto vector-jacobiano",
           "pt": "Um produto vetor-jacobiana", "ru": "Произведение вектора на якобиан"},
    components=["u^T dy/dx", "u^T dy/dw"],
))


# ------------------------------------------------------------------------------------------------
# l05_ex7: the Jacobians of a softmax with temperature (a vector source and a scalar one)
# ------------------------------------------------------------------------------------------------
def _tempered_softmax_reference(z, temperature):
    tf = _tf()
    with tf.GradientTape() as tape:
        tape.watch(z)
        s = tf.nn.softmax(z / temperature)
    return tape.jacobian(s, [z, temperature])


def _ex7(z, temperature) -> Inputs:
    tf = _tf()
    z, temperature = np.array(z, dtype=np.float64), np.float64(temperature)
    return Inputs(args=(tf.constant(z.copy()), tf.Variable(temperature)))


def _ex7_random(rng):
    n = int(rng.integers(2, 7))
    return _ex7(rng.normal(scale=2.0, size=n), rng.uniform(0.5, 3.0))


register(Exercise(
    id="l05_ex7",
    function="tempered_softmax_jacobians",
    signature="tempered_softmax_jacobians(z, temperature)",
    techniques=(Technique("jacobian", ("jacobian",), "GradientTape.jacobian", description={
        "en": "tape.jacobian (not a formula derived by hand)",
        "es": "tape.jacobian (no una fórmula derivada a mano)",
        "pt": "tape.jacobian (não uma fórmula derivada à mão)",
        "ru": "tape.jacobian (а не формулу, выведенную вручную)"}),),
    points=0,
    optional=True,
    reference=_tempered_softmax_reference,
    visible=[Case(lambda rng: _ex7([1.0, 2.0, 0.5], 2.0), "z = [1, 2, 0.5], temperature = 2")],
    hidden=[Case(_ex7_random) for _ in range(3)],
    title={"en": "The Jacobians of a softmax with temperature",
           "es": "Los jacobianos de una softmax con temperatura",
           "pt": "As jacobianas de uma softmax com temperatura",
           "ru": "Якобианы softmax с температурой"},
    compares="jacobian",
    components=["ds/dz", "ds/dT"],
))
