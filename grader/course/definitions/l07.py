"""Lesson 7, "Build your own tape" (``lessons/src/07-build-your-own-tape.py``): six exercises
(the sixth in an optional section).

In this lesson students write a small reverse-mode tape for Python floats (``Value``, ``Tape``,
``record``, ``Tape.gradient``). Every graded function takes and returns plain Python numbers
(or plain data), so the grader never needs the student's classes; the references compute the
same gradients with minitape's ``tf.GradientTape`` in float64.

The contracts are the ones the lesson states to students:

``l07_ex1`` (2 points) -- ``quotient_gradients(a0, b0)``: after adding ``cos`` and division
(``div``, ``Value.__truediv__``) with their VJP rules to the lesson's tape, return
``[df/da, df/db]`` for ``f = cos(a * b) / b`` at ``a0``, ``b0`` (floats; ``b0`` is never near
0), computed by that tape.

``l07_ex2`` (3 points) -- ``backward(tape, values, target)``: the reverse sweep on a tape
written as plain data. ``tape`` is a list of records ``(output_name, op, input_names)`` in the
order they ran, ``op`` one of ``"add"``, ``"mul"``, ``"sin"``, ``"exp"``; ``values`` maps every
name (leaves and outputs) to its float value after the forward pass; ``target`` is a name.
Return a dict ``{name: d target / d name}`` with an entry for **every** name in ``values``:
``1.0`` for the target, ``0.0`` for a name the target does not depend on (records after the
target, unused leaves). Names may be used several times (``("t1", "mul", ("x", "x"))``), so
contributions must be summed. The reference asks minitape for the gradient with respect to
every tensor of the replayed program with ``unconnected_gradients="zero"``.

``l07_ex3`` (2 points) -- ``neuron_gradients(w1, w2, b, x1, x2, y)``: after adding ``tanh`` to
the tape, return ``[dL/dw1, dL/dw2, dL/db]`` for
``L = (tanh(w1 * x1 + w2 * x2 + b) - y) ** 2``; ``x1``, ``x2`` and ``y`` are data (not
watched).

``l07_ex4`` (2 points) -- ``linear_hinge_gradients(w1, w2, b, xs, ys, alpha)``: the loss the
lesson's closing network trains with, for a linear model ``s(x) = w1 * x1 + w2 * x2 + b``:
``L = mean_i relu(1 - y_i * s(x_i)) + alpha * (w1**2 + w2**2 + b**2)``, computed with the
lesson's tape and its ``relu``; return ``[dL/dw1, dL/dw2, dL/db]``. ``xs`` is a list of
``[x1, x2]`` pairs, ``ys`` a list of ``1.0`` / ``-1.0``, ``alpha >= 0``; all plain floats.

``l07_ex5`` (2 points) -- ``train_losses(values, xs, ys, learning_rate, steps)``: the training
loop of the lesson's closing network (6 hidden ReLU units, 25 parameters, its ``hinge_loss``
with ``alpha = 1e-3``), written by the student on their own tape: from the 25 floats
``values``, ``steps`` steps of plain gradient descent, a new tape per step; return
``[losses, parameters]``, the ``steps`` losses (each before its step's update) and the 25
values after the last step, as floats. The lesson writes the loop against a "kit" (``Value``,
``Tape``, ``relu``) that the student's tape shares with TensorFlow's API, so that passing
``kit=TENSORFLOW`` (``tf.Variable``, ``tf.GradientTape``, ``tf.nn.relu``) draws the same curve;
the grader calls it with the five arguments only. The reference replays the loop with
minitape in float64.

``l07_ex6`` (optional, 0 points: the optional section "A tape for tensors") -- ``unbroadcast(grad,
shape)``: ``grad`` a float64 NumPy array, ``shape`` the tuple shape of an input that
broadcasting stretched to ``grad``'s shape (leading axes added, axes of length 1 stretched);
return ``grad`` summed back to ``shape`` (unbroadcast = sum). The reference is minitape's own
answer: the gradient of ``v + zeros(grad.shape)`` for ``v`` of ``shape`` with ``grad`` as the
output gradient. Hidden cases draw the broadcast shape (rank 1-3) and the input shape.

Finite-difference checks (independent of the references): ``l07_ex1``, ``l07_ex3`` and
``l07_ex4`` have their objective in NumPy; ``l07_ex5`` returns losses and parameters, not a
gradient, and ``l07_ex6`` a summed array with no objective; both are compared with the
references only. ``l07_ex2`` has none: its answer's names change from case to case
(random programs), and the grader's finite-difference check needs fixed names; its hidden cases
are compared with minitape only.

Students compute in Python floats (float64); every answer is compared within float32's tolerance (the grader's one rule, ``grader.student.checks``), and a Python
int (``0`` for a gradient that is exactly zero) counts as the number it is.

Techniques: the prompts ask for the student's own tape and forbid minitape's. Exercises 1-5
are graded where minitape's automatic differentiation does not exist (``absent``: their probes
run in a fresh kernel of the grading world ``no-autodiff``, :mod:`grader.infra.worlds`, into which
the student's cells are replayed), so values computed with it never come back; the source
reading of :mod:`grader.autograde.technique` stays, as notes for the instructor. Hidden cases draw points (and, for ``l07_ex2``, whole programs) at random.
"""

from __future__ import annotations

import math

import numpy as np

from grader.autograde.technique import Technique
from . import Case, Exercise, Inputs, register


# Not minitape's autodiff, by any of its doors (an optimizer's minimize opens a tape unnamed).
_NOT_MINITAPES = Technique(
    "minitape's autodiff", ("GradientTape", "jacobian", "batch_jacobian", "ForwardAccumulator",
                            "custom_gradient", "RegisterGradient", "recompute_grad", "minimize"),
    "GradientTape.gradient", must=False, description={
        "en": "minitape's automatic differentiation (GradientTape, jacobian, ForwardAccumulator, "
              "custom_gradient, an optimizer's minimize; the lesson builds its own tape)",
        "es": "la diferenciación automática de minitape (GradientTape, jacobian, "
              "ForwardAccumulator, custom_gradient, el minimize de un optimizador; la lección "
              "construye su propia cinta)",
        "pt": "a diferenciação automática do minitape (GradientTape, jacobian, "
              "ForwardAccumulator, custom_gradient, o minimize de um otimizador; a lição "
              "constrói a sua própria fita)",
        "ru": "автоматическое дифференцирование minitape (GradientTape, jacobian, "
              "ForwardAccumulator, custom_gradient, minimize оптимизатора; в уроке строится "
              "своя лента)"})

# Exercises 1, 3, 4 and 5 must use the students' own tape and must not use minitape's.
_OWN_TAPE_ONLY = (
    Technique("own tape", ("Tape", "record"), "own_tape", description={
        "en": "your own Tape from this lesson, which records the operations",
        "es": "tu propia Tape de esta lección, que graba las operaciones",
        "pt": "a sua própria Tape desta lição, que grava as operações",
        "ru": "вашу собственную Tape из этого урока, которая записывает операции"}),
    _NOT_MINITAPES,
)


# ... and are graded where minitape has no autodiff (grader/infra/worlds.py): values computed
# with it cannot come back
_NO_AUTODIFF = ("autodiff",)


def _tf():
    import minitape as tf

    return tf


def _f64(x) -> np.ndarray:
    return np.array(x, dtype=np.float64)


# ------------------------------------------------------------------------------------------------
# l07_ex1: division and cosine for the mini tape
# ------------------------------------------------------------------------------------------------
def _quotient_reference(a0, b0):
    tf = _tf()
    a = tf.Variable(np.float64(a0))
    b = tf.Variable(np.float64(b0))
    with tf.GradientTape() as tape:
        f = tf.cos(a * b) / b
    return tape.gradient(f, [a, b])


def _ex1(a0: float, b0: float) -> Inputs:
    return Inputs(args=(float(a0), float(b0)), values={"a": _f64(a0), "b": _f64(b0)})


def _ex1_random(rng):
    b0 = rng.uniform(0.5, 2.5) * (1.0 if rng.random() < 0.5 else -1.0)
    return _ex1(rng.uniform(-2.5, 2.5), b0)


register(Exercise(
    id="l07_ex1",
    function="quotient_gradients",
    signature="quotient_gradients(a0, b0)",
    techniques=_OWN_TAPE_ONLY,
    absent=_NO_AUTODIFF,
    points=2,
    reference=_quotient_reference,
    visible=[Case(lambda rng: _ex1(0.5, 2.0), "a0 = 0.5, b0 = 2.0"),
             Case(lambda rng: _ex1(-1.0, 0.75), "a0 = -1.0, b0 = 0.75")],
    hidden=[Case(_ex1_random) for _ in range(3)],
    objective=lambda v, inputs: float(np.cos(v["a"] * v["b"]) / v["b"]),
    gradient_names=["a", "b"],
    title={"en": "Division and cosine", "es": "División y coseno",
           "pt": "Divisão e cosseno", "ru": "Деление и косинус"},
    components=["df/da", "df/db"],
))


# ------------------------------------------------------------------------------------------------
# l07_ex2: the reverse sweep on a tape written as plain data
# ------------------------------------------------------------------------------------------------
_FORWARD = {"add": lambda a, b: a + b, "mul": lambda a, b: a * b, "sin": math.sin, "exp": math.exp}
_ARITY = {"add": 2, "mul": 2, "sin": 1, "exp": 1}


def _run_forward(tape, leaves: dict) -> dict:
    values = dict(leaves)
    for out, op, ins in tape:
        values[out] = float(_FORWARD[op](*(values[name] for name in ins)))
    return values


def _backward_reference(tape, values, target):
    tf = _tf()
    ops = {"add": lambda a, b: a + b, "mul": lambda a, b: a * b, "sin": tf.sin, "exp": tf.exp}
    outputs = {out for out, _, _ in tape}
    env = {}
    with tf.GradientTape() as gt:
        for name, value in values.items():
            if name not in outputs:
                env[name] = tf.constant(np.float64(value))
                gt.watch(env[name])
        for out, op, ins in tape:
            env[out] = ops[op](*(env[name] for name in ins))
    names = list(values)
    grads = gt.gradient(env[target], [env[name] for name in names],
                        unconnected_gradients=tf.UnconnectedGradients.ZERO)
    return dict(zip(names, grads))


def _ex2(tape, leaves: dict, target: str) -> Inputs:
    tape = [(out, op, tuple(ins)) for out, op, ins in tape]
    values = _run_forward(tape, {k: float(v) for k, v in leaves.items()})
    return Inputs(args=(tape, values, target), values={k: _f64(v) for k, v in leaves.items()},
                  extra={"tape": tape, "target": target})


def _ex2_random(rng):
    """A random straight-line program: 2-3 leaves, 4-8 operations, names reused, and a target
    that is not always the last result (so some records do not lead to it)."""
    leaves = {name: float(rng.uniform(-1.5, 1.5))
              for name in ["x", "y", "z"][:int(rng.integers(2, 4))]}
    values = dict(leaves)
    names = list(leaves)
    tape = []
    for k in range(int(rng.integers(4, 9))):
        op = str(rng.choice(["add", "mul", "sin", "exp"], p=[0.3, 0.35, 0.2, 0.15]))
        # inputs drawn with replacement, favouring recent names: reuse and long paths both occur
        weights = np.arange(1, len(names) + 1, dtype=float)
        ins = tuple(str(n) for n in rng.choice(names, size=_ARITY[op], p=weights / weights.sum()))
        value = _FORWARD[op](*(values[n] for n in ins))
        if abs(value) > 20.0:  # keep values (and gradients) moderate
            op, ins = "sin", ins[:1]
            value = math.sin(values[ins[0]])
        out = f"t{k + 1}"
        tape.append((out, op, ins))
        values[out] = float(value)
        names.append(out)
    outputs = [out for out, _, _ in tape]
    target = str(rng.choice(outputs[-3:]))
    return _ex2(tape, leaves, target)


_EX2_TAPE = [("u", "mul", ("x", "y")),
             ("v", "sin", ("u",)),
             ("w", "mul", ("v", "x")),
             ("f", "add", ("w", "u")),
             ("z", "exp", ("y",))]

register(Exercise(
    id="l07_ex2",
    function="backward",
    signature="backward(tape, values, target)",
    absent=_NO_AUTODIFF,
    techniques=(_NOT_MINITAPES,),
    points=3,
    reference=_backward_reference,
    visible=[Case(lambda rng: _ex2(_EX2_TAPE, {"x": 0.5, "y": 2.0}, "f"),
                  {"en": "the lesson's example tape, target f",
                   "es": "la cinta de ejemplo de la lección, objetivo f",
                   "pt": "a fita de exemplo da lição, alvo f",
                   "ru": "лента из примера урока, цель f"}),
             Case(lambda rng: _ex2([("a", "mul", ("x", "x")), ("b", "exp", ("a",)),
                                    ("c", "mul", ("b", "a")), ("d", "sin", ("c",))],
                                   {"x": -0.75}, "c"),
                  {"en": "x used twice, target c (d comes after it)",
                   "es": "x usada dos veces, objetivo c (d va después)",
                   "pt": "x usado duas vezes, alvo c (d vem depois)",
                   "ru": "x используется дважды, цель c (d идёт после неё)"})],
    hidden=[Case(_ex2_random) for _ in range(4)],
    title={"en": "The reverse sweep on a bare tape", "es": "La pasada hacia atrás sobre una cinta desnuda",
           "pt": "A passagem para trás sobre uma fita crua", "ru": "Обратный проход по «голой» ленте"},
))


# ------------------------------------------------------------------------------------------------
# l07_ex3: tanh and one neuron
# ------------------------------------------------------------------------------------------------
def _neuron_reference(w1, w2, b, x1, x2, y):
    tf = _tf()
    w1, w2, b = (tf.Variable(np.float64(v)) for v in (w1, w2, b))
    with tf.GradientTape() as tape:
        loss = (tf.tanh(w1 * np.float64(x1) + w2 * np.float64(x2) + b) - np.float64(y)) ** 2
    return tape.gradient(loss, [w1, w2, b])


def _ex3(w1, w2, b, x1, x2, y) -> Inputs:
    return Inputs(args=tuple(float(v) for v in (w1, w2, b, x1, x2, y)),
                  values={"w1": _f64(w1), "w2": _f64(w2), "b": _f64(b)},
                  extra={"x1": float(x1), "x2": float(x2), "y": float(y)})


def _ex3_objective(v, inputs):
    e = inputs.extra
    return float((np.tanh(v["w1"] * e["x1"] + v["w2"] * e["x2"] + v["b"]) - e["y"]) ** 2)


def _ex3_random(rng):
    w1, w2, b = rng.normal(scale=0.8, size=3)
    x1, x2 = rng.uniform(-2.0, 2.0, size=2)
    return _ex3(w1, w2, b, x1, x2, rng.uniform(-1.0, 1.0))


register(Exercise(
    id="l07_ex3",
    function="neuron_gradients",
    signature="neuron_gradients(w1, w2, b, x1, x2, y)",
    techniques=_OWN_TAPE_ONLY,
    absent=_NO_AUTODIFF,
    points=2,
    reference=_neuron_reference,
    visible=[Case(lambda rng: _ex3(0.5, -1.0, 0.1, 1.0, 2.0, 0.5),
                  "w = (0.5, -1.0), b = 0.1, x = (1.0, 2.0), y = 0.5"),
             Case(lambda rng: _ex3(-0.3, 0.8, -0.2, -1.5, 0.5, -1.0),
                  "w = (-0.3, 0.8), b = -0.2, x = (-1.5, 0.5), y = -1.0")],
    hidden=[Case(_ex3_random) for _ in range(3)],
    objective=_ex3_objective,
    gradient_names=["w1", "w2", "b"],
    title={"en": "tanh and one neuron", "es": "tanh y una neurona", "pt": "tanh e um neurônio",
           "ru": "tanh и один нейрон"},
    components=["dL/dw1", "dL/dw2", "dL/db"],
))


# ------------------------------------------------------------------------------------------------
# l07_ex4: the hinge loss of a linear classifier, on the student's tape
# ------------------------------------------------------------------------------------------------
def _linear_hinge_reference(w1, w2, b, xs, ys, alpha):
    tf = _tf()
    x = np.array(xs, dtype=np.float64)
    y = np.array(ys, dtype=np.float64)
    w1, w2, b = (tf.Variable(np.float64(v)) for v in (w1, w2, b))
    with tf.GradientTape() as tape:
        margins = 1.0 - y * (w1 * x[:, 0] + w2 * x[:, 1] + b)
        loss = tf.reduce_mean(tf.nn.relu(margins)) + np.float64(alpha) * (w1 * w1 + w2 * w2 + b * b)
    return tape.gradient(loss, [w1, w2, b])


def _ex4(w1, w2, b, xs, ys, alpha) -> Inputs:
    xs = [[float(x1), float(x2)] for x1, x2 in xs]
    ys = [float(y) for y in ys]
    return Inputs(args=(float(w1), float(w2), float(b), xs, ys, float(alpha)),
                  values={"w1": _f64(w1), "w2": _f64(w2), "b": _f64(b)},
                  extra={"xs": xs, "ys": ys, "alpha": float(alpha)})


def _ex4_objective(v, inputs):
    e = inputs.extra
    x, y = np.array(e["xs"]), np.array(e["ys"])
    s = v["w1"] * x[:, 0] + v["w2"] * x[:, 1] + v["b"]
    return float(np.mean(np.maximum(0.0, 1.0 - y * s))
                 + e["alpha"] * (v["w1"] ** 2 + v["w2"] ** 2 + v["b"] ** 2))


def _ex4_random(rng):
    """A small batch, some points inside the margin and some beyond it; no margin within 0.05
    of the kink of relu (where the derivative, and finite differences, are ill-defined)."""
    while True:
        w1, w2 = rng.normal(scale=0.8, size=2)
        b = rng.normal(scale=0.5)
        n = int(rng.integers(4, 9))
        xs = rng.uniform(-2.0, 2.0, size=(n, 2))
        ys = rng.choice([-1.0, 1.0], size=n)
        margins = 1.0 - ys * (w1 * xs[:, 0] + w2 * xs[:, 1] + b)
        if np.min(np.abs(margins)) > 0.05:
            alpha = float(rng.choice([0.0, 0.001, 0.01, 0.1]))
            return _ex4(w1, w2, b, xs.tolist(), ys.tolist(), alpha)


register(Exercise(
    id="l07_ex4",
    function="linear_hinge_gradients",
    signature="linear_hinge_gradients(w1, w2, b, xs, ys, alpha)",
    techniques=_OWN_TAPE_ONLY,
    absent=_NO_AUTODIFF,
    points=2,
    reference=_linear_hinge_reference,
    visible=[Case(lambda rng: _ex4(0.5, -0.25, 0.1, [[1.0, 2.0], [-1.0, 0.5], [0.3, -1.2]],
                                   [1.0, -1.0, 1.0], 0.01),
                  {"en": "w = (0.5, -0.25), b = 0.1, 3 points, alpha = 0.01",
                   "es": "w = (0.5, -0.25), b = 0.1, 3 puntos, alpha = 0.01",
                   "pt": "w = (0.5, -0.25), b = 0.1, 3 pontos, alpha = 0.01",
                   "ru": "w = (0.5, -0.25), b = 0.1, 3 точки, alpha = 0.01"}),
             Case(lambda rng: _ex4(2.0, 1.0, 0.0, [[1.0, 1.0], [-0.5, 0.2], [0.1, -0.3]],
                                   [1.0, -1.0, -1.0], 0.0),
                  {"en": "w = (2.0, 1.0), b = 0.0, alpha = 0: the first point is beyond the margin",
                   "es": "w = (2.0, 1.0), b = 0.0, alpha = 0: el primer punto está más allá del margen",
                   "pt": "w = (2.0, 1.0), b = 0.0, alpha = 0: o primeiro ponto está além da margem",
                   "ru": "w = (2.0, 1.0), b = 0.0, alpha = 0: первая точка лежит за пределами зазора"})],
    hidden=[Case(_ex4_random) for _ in range(3)],
    objective=_ex4_objective,
    gradient_names=["w1", "w2", "b"],
    title={"en": "The hinge loss of a linear classifier",
           "es": "La pérdida hinge de un clasificador lineal",
           "pt": "A perda hinge de um classificador linear",
           "ru": "Hinge-функция потерь линейного классификатора"},
    components=["dL/dw1", "dL/dw2", "dL/db"],
))


# ------------------------------------------------------------------------------------------------
# l07_ex5: the training loop of the lesson's network, on the student's own tape
# ------------------------------------------------------------------------------------------------
_HIDDEN = 6  # the lesson's network: 6 hidden ReLU units, 25 parameters
_ALPHA = 1e-3  # hinge_loss's default penalty


def _network_loss(tf, params, xs, ys):
    """The lesson's ``hinge_loss`` with ``tf.nn.relu``, operation for operation (the same
    floating-point sums as the student's scalar tape)."""
    total = 0.0
    for (x1, x2), y in zip(xs, ys):
        s = params[-1]
        for j in range(_HIDDEN):
            h = tf.nn.relu(params[2 * j] * float(x1) + params[2 * j + 1] * float(x2)
                           + params[2 * _HIDDEN + j])
            s = s + params[3 * _HIDDEN + j] * h
        total = total + tf.nn.relu(1.0 - float(y) * s)
    penalty = sum((p * p for p in params), 0.0)
    return total * (1.0 / len(ys)) + _ALPHA * penalty


def _train_losses_reference(values, xs, ys, learning_rate, steps):
    tf = _tf()
    params = [tf.Variable(np.float64(v)) for v in values]
    losses = []
    for _ in range(int(steps)):
        with tf.GradientTape() as tape:
            loss = _network_loss(tf, params, xs, ys)
        grads = tape.gradient(loss, params)
        for p, g in zip(params, grads):
            p.assign_sub(learning_rate * g)
        losses.append(loss)
    return [tf.stack(losses), tf.stack([tf.identity(p) for p in params])]


def _ex5(values, xs, ys, learning_rate, steps) -> Inputs:
    values = [float(v) for v in values]
    xs = [[float(x1), float(x2)] for x1, x2 in xs]
    ys = [float(y) for y in ys]
    return Inputs(args=(values, xs, ys, float(learning_rate), int(steps)))


def _ex5_data(rng, n):
    """Points around the four corners of the lesson's XOR data, labelled like it, and a
    start drawn like the lesson's ``init_params``."""
    corners = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]])
    which = rng.integers(0, 4, size=n)
    xs = corners[which] + rng.normal(scale=0.3, size=(n, 2))
    ys = np.where(which < 2, 1.0, -1.0)
    values = np.concatenate([rng.normal(size=2 * _HIDDEN), rng.normal(scale=0.5, size=_HIDDEN),
                             rng.normal(scale=1 / np.sqrt(_HIDDEN), size=_HIDDEN), [0.0]])
    return values, xs, ys


def _ex5_visible(rng):
    values, xs, ys = _ex5_data(np.random.default_rng(7), 6)
    return _ex5(values, xs, ys, 0.5, 3)


def _ex5_random(rng):
    values, xs, ys = _ex5_data(rng, int(rng.integers(4, 9)))
    return _ex5(values, xs, ys, rng.uniform(0.1, 0.5), int(rng.integers(2, 5)))


register(Exercise(
    id="l07_ex5",
    function="train_losses",
    signature="train_losses(values, xs, ys, learning_rate, steps)",
    techniques=_OWN_TAPE_ONLY,
    absent=_NO_AUTODIFF,
    points=2,
    reference=_train_losses_reference,
    visible=[Case(_ex5_visible, {"en": "25 parameters, 6 points, 3 steps, learning_rate = 0.5",
                                 "es": "25 parámetros, 6 puntos, 3 pasos, learning_rate = 0.5",
                                 "pt": "25 parâmetros, 6 pontos, 3 passos, learning_rate = 0.5",
                                 "ru": "25 параметров, 6 точек, 3 шага, learning_rate = 0.5"})],
    hidden=[Case(_ex5_random) for _ in range(3)],
    title={"en": "The training loop, on your tape",
           "es": "El bucle de entrenamiento, con tu cinta",
           "pt": "O laço de treinamento, com a sua fita",
           "ru": "Цикл обучения на вашей ленте"},
    compares=["losses", "parameters"],
    components=["losses", "parameters"],
))


# ------------------------------------------------------------------------------------------------
# l07_ex6 (optional section): unbroadcast = sum, the one rule a tensor-valued tape adds
# ------------------------------------------------------------------------------------------------
def _unbroadcast_reference(grad, shape):
    """minitape's own answer: the gradient of ``v + zeros(grad.shape)`` for ``v`` of ``shape``,
    with ``grad`` as the upstream gradient."""
    tf = _tf()
    v = tf.Variable(np.zeros(tuple(shape), dtype=np.float64))
    with tf.GradientTape() as tape:
        y = v + tf.zeros(np.shape(grad), dtype=tf.float64)
    return tape.gradient(y, v, output_gradients=tf.constant(np.asarray(grad, dtype=np.float64)))


def _ex6(grad, shape) -> Inputs:
    grad = _f64(grad)
    return Inputs(args=(grad.copy(), tuple(int(n) for n in shape)))


def _ex6_random(rng):
    """A broadcast result of rank 1-3 and an input shape it came from: leading axes dropped,
    some of the others set to 1."""
    out = tuple(int(n) for n in rng.integers(2, 5, size=int(rng.integers(1, 4))))
    keep = int(rng.integers(0, len(out) + 1))
    shape = [n if rng.random() < 0.5 else 1 for n in out[len(out) - keep:]]
    return _ex6(rng.normal(size=out), shape)


register(Exercise(
    id="l07_ex6",
    function="unbroadcast",
    signature="unbroadcast(grad, shape)",
    points=0,
    optional=True,
    reference=_unbroadcast_reference,
    visible=[Case(lambda rng: _ex6(np.arange(8.0).reshape(4, 2), (2,)),
                  "grad (4, 2), shape (2,)"),
             Case(lambda rng: _ex6(np.arange(24.0).reshape(2, 3, 4) / 4.0, (3, 1)),
                  "grad (2, 3, 4), shape (3, 1)")],
    hidden=[Case(_ex6_random) for _ in range(3)],
    title={"en": "Unbroadcast = sum", "es": "Deshacer el broadcasting = sumar",
           "pt": "Desfazer o broadcasting = somar", "ru": "Обратное транслирование = суммирование"},
))
