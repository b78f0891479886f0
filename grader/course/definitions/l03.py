"""Lesson 3, "Non-scalar targets, control flow, and None" (``lessons/src/03-none-gradients.py``):
six exercises.

The contracts are the ones the lesson states to students:

``l03_ex1`` (2 points) -- ``elementwise_derivative(x)``: ``x`` is a 1-D NumPy array of floats;
return the derivative of ``f(x) = x * sigmoid(x)`` at every point (shape of ``x``), from one
``gradient`` call whose target is the non-scalar ``f(x)``.

``l03_ex2`` (2 points) -- ``descent_gradients(x0, lr, steps)``: gradient descent on
``f(x) = (x - 2)**2`` from ``x = tf.Variable(x0)`` (``x0`` a Python float), ``steps`` steps of
``x <- x - lr * df/dx`` with ``assign_sub``; return ``tf.stack`` of the ``steps`` gradients
(shape (steps,)). The lesson's broken version rebinds ``x = x - lr * g`` and gets None from the
second step on.

``l03_ex3`` (2 points) -- ``row_norms_gradient(w)``: ``w`` (n, m) Variable; with the row norms
``r_i = sqrt(sum_j w_ij**2)`` and ``L = sum_i log(1 + r_i)``, return ``dL/dw``. The lesson's
broken version computes the norms with NumPy and gets None.

``l03_ex4`` (3 points) -- ``branch_gradients(params, x, deep)``: ``params = {"a": Variable
(n, m), "b": Variable (n, m)}``, ``x`` (k, n) tensor, ``deep`` a Python bool; with
``y = tanh(x @ a)`` when ``deep`` else ``y = x @ b`` and ``L = mean(y**2)``, return the dict
of gradients for both keys, zeros (not None) for the branch not taken.

``l03_ex5`` (2 points) -- ``none_cause(snippet)``: the lesson prints nine snippets as text,
``"A"`` to ``"I"``, each setting up ``tape``, a target ``y`` and a source ``x``; return the code
of the reason ``tape.gradient(y, x)`` is None (1 never watched, 2 integer dtype, 3 Variable
replaced by a Tensor, 4 NumPy detour, 5 stateful assign, 6 no recorded path) or 0 when it is a
tensor (a conceptual item: the cause is asked, not only None or not). The visible checks ask
about ``A`` and ``B``, the hidden ones about the other seven; the reference runs the snippets
and maps minitape's ``why_none`` reason to the code.

``l03_ex6`` (2 points) -- ``masked_mean_gradient(w, x, y, mask)``: ``w`` (n,) Variable, ``x``
(k, n), ``y`` (k,) and ``mask`` (k,) tensors, the mask 1.0 for the examples that count and 0.0
for padding; with ``l_i = (x_i . w - y_i)**2`` return ``dL/dw`` for the mean over the examples
that count, ``L = sum(mask * l) / sum(mask)``. The lesson's sum-versus-mean habit: the gradient
of the vector ``mask * l`` is ``sum(mask)`` times too large, its ``reduce_mean`` divides by k
(declared patterns ``sum_not_mean``, ``mean_over_all``, ``mask_ignored``). Every case masks at
least one example and keeps at least two.

Tensors and Variables given to students are float64, except ``l03_ex2``, whose Python float
``x0`` makes a float32 Variable; every answer is compared within float32's tolerance (the grader's one rule, ``grader.student.checks``); references are computed in float64. Hidden cases draw shapes, values, step counts and the branch at random.
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
    return 1.0 / (1.0 + np.exp(-z))


# Exercises 1-3 ask for the tape's answer, not a hand-derived formula (the same words everywhere).
_TAPE = Technique("GradientTape", ("GradientTape",), "GradientTape.gradient", description={
    "en": "a GradientTape (not a hand-derived formula)",
    "es": "una GradientTape (no una fórmula derivada a mano)",
    "pt": "uma GradientTape (não uma fórmula derivada à mão)",
    "ru": "GradientTape (а не выведенную вручную формулу)"})


# ------------------------------------------------------------------------------------------------
# l03_ex1: one backward pass of a non-scalar target gives every element's derivative
# ------------------------------------------------------------------------------------------------
def _elementwise_derivative_reference(x):
    tf = _tf()
    x = tf.constant(_f64(x))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * tf.nn.sigmoid(x)
    return tape.gradient(y, x)


def _ex1(x) -> Inputs:
    x = _f64(x)
    return Inputs(args=(x.copy(),), values={"x": x})


register(Exercise(
    id="l03_ex1",
    function="elementwise_derivative",
    signature="elementwise_derivative(x)",
    techniques=(_TAPE,),
    points=2,
    reference=_elementwise_derivative_reference,
    visible=[Case(lambda rng: _ex1([-2.0, 0.0, 1.0, 3.0]), "x = [-2, 0, 1, 3]")],
    hidden=[Case(lambda rng: _ex1(np.sort(rng.uniform(-6, 6, size=int(rng.integers(3, 40))))))
            for _ in range(2)],
    objective=lambda v, inputs: float(np.sum(v["x"] * _sigmoid(v["x"]))),
    gradient_names="x",
    title={"en": "Every derivative from one backward pass",
           "es": "Todas las derivadas con una sola pasada hacia atrás",
           "pt": "Todas as derivadas com uma única passagem para trás",
           "ru": "Все производные за один обратный проход"},
    compares="derivative",
))


# ------------------------------------------------------------------------------------------------
# l03_ex2: a training loop that keeps its Variable
# ------------------------------------------------------------------------------------------------
def _descent_gradients_reference(x0, lr, steps):
    tf = _tf()
    x = tf.Variable(np.float64(x0))
    grads = []
    for _ in range(steps):
        with tf.GradientTape() as tape:
            f = (x - 2.0) ** 2
        g = tape.gradient(f, x)
        grads.append(g)
        x.assign_sub(lr * g)
    return tf.stack(grads)


def _ex2(x0, lr, steps) -> Inputs:
    return Inputs(args=(float(x0), float(lr), int(steps)))


register(Exercise(
    id="l03_ex2",
    function="descent_gradients",
    signature="descent_gradients(x0, lr, steps)",
    techniques=(_TAPE,),
    points=2,
    reference=_descent_gradients_reference,
    visible=[Case(lambda rng: _ex2(5.0, 0.25, 3), "x0 = 5.0, lr = 0.25, steps = 3")],
    hidden=[Case(lambda rng: _ex2(rng.uniform(-4, 6), rng.uniform(0.05, 0.4), rng.integers(2, 7)))
            for _ in range(3)],
    title={"en": "A training loop that keeps its Variable",
           "es": "Un bucle de entrenamiento que no pierde su variable",
           "pt": "Um laço de treinamento que não perde sua variável",
           "ru": "Цикл обучения, в котором переменная остаётся переменной"},
))


# ------------------------------------------------------------------------------------------------
# l03_ex3: no NumPy detour
# ------------------------------------------------------------------------------------------------
def _row_norms_gradient_reference(w):
    tf = _tf()
    with tf.GradientTape() as tape:
        norms = tf.sqrt(tf.reduce_sum(w ** 2, axis=1))
        loss = tf.reduce_sum(tf.math.log(1.0 + norms))
    return tape.gradient(loss, w)


def _ex3(w) -> Inputs:
    tf = _tf()
    w = _f64(w)
    return Inputs(args=(tf.Variable(w.copy()),), values={"w": w})


def _ex3_objective(v, inputs):
    return float(np.sum(np.log1p(np.sqrt(np.sum(v["w"] ** 2, axis=1)))))


def _ex3_random(rng):
    n, m = int(rng.integers(1, 5)), int(rng.integers(1, 5))
    # rows well away from zero: the norm is not differentiable at 0
    w = rng.normal(size=(n, m))
    w[:, 0] += np.where(w[:, 0] >= 0, 0.5, -0.5)
    return _ex3(w)


register(Exercise(
    id="l03_ex3",
    function="row_norms_gradient",
    signature="row_norms_gradient(w)",
    techniques=(_TAPE,),
    points=2,
    reference=_row_norms_gradient_reference,
    visible=[Case(lambda rng: _ex3([[3.0, 4.0], [1.0, -1.0], [0.0, 2.0]]), "w (3, 2)")],
    hidden=[Case(_ex3_random), Case(_ex3_random)],
    objective=_ex3_objective,
    gradient_names="w",
    title={"en": "No NumPy detour", "es": "Sin desvíos por NumPy",
           "pt": "Sem desvios pelo NumPy", "ru": "Без обхода через NumPy"},
))


# ------------------------------------------------------------------------------------------------
# l03_ex4: control flow, and zeros instead of None
# ------------------------------------------------------------------------------------------------
def _branch_gradients_reference(params, x, deep):
    tf = _tf()
    with tf.GradientTape() as tape:
        if deep:
            y = tf.math.tanh(tf.matmul(x, params["a"]))
        else:
            y = tf.matmul(x, params["b"])
        loss = tf.reduce_mean(y ** 2)
    return tape.gradient(loss, params, unconnected_gradients=tf.UnconnectedGradients.ZERO)


def _ex4(a, b, x, deep) -> Inputs:
    tf = _tf()
    a, b, x = _f64(a), _f64(b), _f64(x)
    params = {"a": tf.Variable(a.copy()), "b": tf.Variable(b.copy())}
    return Inputs(args=(params, tf.constant(x.copy()), bool(deep)), values={"a": a, "b": b},
                  extra={"x": x, "deep": bool(deep)})


def _ex4_objective(v, inputs):
    x = inputs.extra["x"]
    y = np.tanh(x @ v["a"]) if inputs.extra["deep"] else x @ v["b"]
    return float(np.mean(y ** 2))


def _ex4_random(rng):
    k, n, m = int(rng.integers(1, 6)), int(rng.integers(1, 5)), int(rng.integers(1, 4))
    return _ex4(rng.normal(scale=0.7, size=(n, m)), rng.normal(scale=0.7, size=(n, m)),
                rng.normal(size=(k, n)), bool(rng.random() < 0.5))


_A = [[0.5, -1.0], [1.0, 0.25]]
_B = [[-0.5, 0.5], [2.0, 1.0]]
_X = [[1.0, 2.0], [0.5, -1.0]]

register(Exercise(
    id="l03_ex4",
    function="branch_gradients",
    signature="branch_gradients(params, x, deep)",
    points=3,
    reference=_branch_gradients_reference,
    visible=[Case(lambda rng: _ex4(_A, _B, _X, True), "deep = True"),
             Case(lambda rng: _ex4(_A, _B, _X, False), "deep = False")],
    hidden=[Case(_ex4_random) for _ in range(3)],
    objective=_ex4_objective,
    gradient_names={"a": "a", "b": "b"},
    title={"en": "Control flow, and zeros instead of None",
           "es": "Flujo de control, y ceros en lugar de None",
           "pt": "Fluxo de controle, e zeros em vez de None",
           "ru": "Поток управления и нули вместо None"},
    components={"a": "dL/da", "b": "dL/db"},
))


# ----- l03_ex5: why is it None? (a conceptual item: classify snippets by cause) -------------------
# The snippets are *data*: the lesson prints the same strings (its cell `ex5-snippets`; a test
# checks they are identical) and the student answers with a cause code per letter. The reference
# runs each snippet with minitape and asks minitape.debugging.why_none for the reason, so the key
# is what the engine does, not a hand-written answer. Running a snippet shows None or not; the
# cause is what the item asks.
SNIPPETS = {
    "A": """
x = tf.Variable([1.0, 2.0], trainable=False)
with tf.GradientTape() as tape:
    y = tf.reduce_sum(x * x)
""",
    "B": """
x = tf.Variable(2.0)
with tf.GradientTape() as tape:
    y = x * 0.0 + 1.0
""",
    "C": """
x = tf.Variable(2.0)
with tf.GradientTape() as tape:
    y = tf.constant(np.exp(x.numpy()))
""",
    "D": """
x = tf.Variable([1, 2, 3])
with tf.GradientTape() as tape:
    y = tf.reduce_sum(x * x)
""",
    "E": """
x = tf.Variable(2.0)
x = x * 1.0
with tf.GradientTape() as tape:
    y = x**3
""",
    "F": """
x = tf.Variable(2.0)
h = tf.Variable(0.0)
with tf.GradientTape() as tape:
    h.assign(x * 3.0)
    y = h * h
""",
    "G": """
x = tf.Variable(2.0)
z = tf.sin(x)
with tf.GradientTape() as tape:
    y = z * z
""",
    "H": """
x = tf.constant([1.0, 2.0])
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.reduce_sum(tf.where(x > 1.5, x, 0.0))
""",
    "I": """
x = tf.constant(3.0)
with tf.GradientTape() as tape:
    y = tf.exp(x) * x
""",
}

# why_none's reason -> the cause codes the lesson's table lists
CAUSES = {"has_gradient": 0, "not_watched": 1, "not_trainable": 1, "integer": 2,
          "integer_target": 2, "integer_cast": 2, "variable_replaced": 3, "numpy": 4, "assign": 5,
          "unconnected": 6, "not_differentiable": 6}


def _none_cause_reference(snippet):
    import warnings

    tf = _tf()
    from minitape.debugging import why_none

    ns = {"tf": tf, "np": np}
    with warnings.catch_warnings():  # nothing warns today (D's integer Variable included): kept quiet anyway
        warnings.simplefilter("ignore")
        exec(SNIPPETS[snippet], ns)  # noqa: S102 -- the course's own snippets, not student code
        tape, y, x = ns["tape"], ns["y"], ns["x"]
        tape.gradient(y, x)
        reason = why_none(tape, y, x, lang="en").reason
    return tf.constant(float(CAUSES[reason]), dtype=tf.float64)


def _snippet(name: str) -> Case:
    return Case(lambda rng: Inputs(args=(name,)), name)


register(Exercise(
    id="l03_ex5",
    function="none_cause",
    signature="none_cause(snippet)",
    points=2,
    reference=_none_cause_reference,
    visible=[_snippet("A"), _snippet("B")],
    hidden=[_snippet(name) for name in "CDEFGHI"],
    title={"en": "Why is it None?",
           "es": "¿Por qué es None?",
           "pt": "Por que é None?",
           "ru": "Почему None?"},
    compares="value",
))


# ------------------------------------------------------------------------------------------------
# l03_ex6: a mean over the examples that count (sum versus mean)
# ------------------------------------------------------------------------------------------------
def _per_example_losses(tf, w, x, y):
    return (tf.reduce_sum(x * w, axis=1) - y) ** 2


def _masked_mean_gradient_reference(w, x, y, mask):
    tf = _tf()
    with tf.GradientTape() as tape:
        losses = _per_example_losses(tf, w, x, y)
        loss = tf.reduce_sum(mask * losses) / tf.reduce_sum(mask)
    return tape.gradient(loss, w)


def _ex6(w, x, y, mask) -> Inputs:
    tf = _tf()
    w, x, y, mask = _f64(w), _f64(x), _f64(y), _f64(mask)
    return Inputs(args=(tf.Variable(w.copy()), tf.constant(x.copy()), tf.constant(y.copy()),
                        tf.constant(mask.copy())),
                  values={"w": w}, extra={"x": x, "y": y, "mask": mask})


def _ex6_objective(v, inputs):
    x, y, mask = inputs.extra["x"], inputs.extra["y"], inputs.extra["mask"]
    losses = (x @ v["w"] - y) ** 2
    return float(np.sum(mask * losses) / np.sum(mask))


def _ex6_random(rng):
    k, n = int(rng.integers(4, 9)), int(rng.integers(2, 5))
    masked = int(rng.integers(1, k - 1))  # at least one example masked, at least two kept
    mask = np.ones(k)
    mask[rng.choice(k, size=masked, replace=False)] = 0.0
    return _ex6(rng.normal(size=n), rng.normal(size=(k, n)), rng.normal(size=k), mask)


register(Exercise(
    id="l03_ex6",
    function="masked_mean_gradient",
    signature="masked_mean_gradient(w, x, y, mask)",
    points=2,
    techniques=(_TAPE,),
    reference=_masked_mean_gradient_reference,
    visible=[Case(lambda rng: _ex6(w=[0.5, -1.0], x=[[1.0, 2.0], [3.0, -1.0], [0.0, 1.0], [2.0, 2.0]],
                                   y=[1.0, 0.0, 2.0, -1.0], mask=[1.0, 1.0, 0.0, 1.0]),
                  "w (2,), x (4, 2), mask = [1, 1, 0, 1]")],
    hidden=[Case(_ex6_random), Case(_ex6_random), Case(_ex6_random)],
    objective=_ex6_objective,
    gradient_names="w",
    title={"en": "A mean over the examples that count",
           "es": "Una media sobre los ejemplos que cuentan",
           "pt": "Uma média sobre os exemplos que contam",
           "ru": "Среднее по учитываемым примерам"},
))
