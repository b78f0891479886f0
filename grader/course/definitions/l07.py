"""Lesson 7, "Build your own tape" (``lessons/src/07-build-your-own-tape.py``): four exercises.

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

Finite-difference checks (independent of the references): ``l07_ex1``, ``l07_ex3`` and
``l07_ex4`` have their objective in NumPy. ``l07_ex2`` has none: its answer's names change from case to case
(random programs), and the grader's finite-difference check needs fixed names; its hidden cases
are compared with minitape only.

Students compute in Python floats (float64), so answers are compared with the float64
tolerance; a Python int (``0`` for a gradient that is exactly zero) counts as the number it is
(``plain_numbers``).

Techniques: the prompts ask for the student's own tape and forbid minitape's. Neither can be
established from what the kernel reports, so both are read from the submitted source on the
trusted side and become notes for the instructor (:mod:`grader.technique`), never points. Hidden cases draw points (and, for ``l07_ex2``, whole programs) at random.
"""

from __future__ import annotations

import math

import numpy as np

from grader.autograde.technique import Technique
from . import Case, Exercise, Inputs, register


# Exercises 1, 3 and 4 must use the students' own tape and must not use minitape's.
_OWN_TAPE_ONLY = (
    Technique("own tape", ("Tape", "record"), "own_tape", description={
        "en": "your own Tape from this lesson, which records the operations",
        "es": "tu propia Tape de esta lección, que graba las operaciones",
        "pt": "a sua própria Tape desta lição, que grava as operações",
        "ru": "вашу собственную Tape из этого урока, которая записывает операции"}),
    Technique("tf.GradientTape", ("GradientTape",), "GradientTape.gradient", must=False,
              description={"en": "minitape's GradientTape (the lesson builds its own tape)",
                           "es": "la GradientTape de minitape (la lección construye su propia cinta)",
                           "pt": "a GradientTape do minitape (a lição constrói a sua própria fita)",
                           "ru": "GradientTape из minitape (в уроке строится своя лента)"}),
)


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
    points=2,
    plain_numbers=True,
    reference=_quotient_reference,
    visible=[Case(lambda rng: _ex1(0.5, 2.0), "a0 = 0.5, b0 = 2.0"),
             Case(lambda rng: _ex1(-1.0, 0.75), "a0 = -1.0, b0 = 0.75")],
    hidden=[Case(_ex1_random) for _ in range(3)],
    objective=lambda v, inputs: float(np.cos(v["a"] * v["b"]) / v["b"]),
    gradient_names=["a", "b"],
    title={"en": "Division and cosine for your tape", "es": "División y coseno para tu cinta",
           "pt": "Divisão e cosseno para a sua fita", "ru": "Деление и косинус для вашей ленты"},
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
    techniques=(
        Technique("tf.GradientTape", ("GradientTape",), "GradientTape.gradient", must=False,
                  description={"en": "minitape's GradientTape (the lesson builds its own tape)",
                               "es": "la GradientTape de minitape (la lección construye su propia cinta)",
                               "pt": "a GradientTape do minitape (a lição constrói a sua própria fita)",
                               "ru": "GradientTape из minitape (в уроке строится своя лента)"}),
    ),
    points=3,
    plain_numbers=True,
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
    points=2,
    plain_numbers=True,
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
    points=2,
    plain_numbers=True,
    reference=_linear_hinge_reference,
    visible=[Case(lambda rng: _ex4(0.5, -0.25, 0.1, [[1.0, 2.0], [-1.0, 0.5], [0.3, -1.2]],
                                   [1.0, -1.0, 1.0], 0.01),
                  "w = (0.5, -0.25), b = 0.1, 3 points, alpha = 0.01"),
             Case(lambda rng: _ex4(2.0, 1.0, 0.0, [[1.0, 1.0], [-0.5, 0.2], [0.1, -0.3]],
                                   [1.0, -1.0, -1.0], 0.0),
                  {"en": "w = (2.0, 1.0), b = 0.0, alpha = 0: the first point is beyond the margin",
                   "es": "w = (2.0, 1.0), b = 0.0, alpha = 0: el primer punto está más allá del margen",
                   "pt": "w = (2.0, 1.0), b = 0.0, alpha = 0: o primeiro ponto está além da margem",
                   "ru": "w = (2.0, 1.0), b = 0.0, alpha = 0: первая точка лежит за пределами зазора"})],
    hidden=[Case(_ex4_random) for _ in range(3)],
    objective=_ex4_objective,
    gradient_names=["w1", "w2", "b"],
    title={"en": "The hinge loss of a linear classifier on your tape",
           "es": "La pérdida hinge de un clasificador lineal con tu cinta",
           "pt": "A perda hinge de um classificador linear com a sua fita",
           "ru": "Hinge-потеря линейного классификатора на вашей ленте"},
    components=["dL/dw1", "dL/dw2", "dL/db"],
))
