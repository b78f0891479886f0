"""Lesson 4, "Controlling the tape and custom gradients" (``lessons/src/04-custom-gradients.py``):
seven exercises.

The contracts are the ones the lesson states to students:

``l04_ex1`` (2 points) -- ``quantized_gradient(w, x, t)``: ``w`` (n, m) Variable with values in
(-2, 2), ``x`` (k, n) and ``t`` (k, m) tensors; the weights are rounded with the straight-through
estimator *with a window*: ``c = tf.clip_by_value(w, -1.0, 1.0)`` and
``q = c + tf.stop_gradient(tf.round(w) - c)`` (its value is ``round(w)``, its gradient that of
``c``: 1 where ``|w| <= 1``, 0 elsewhere); return ``dL/dw`` for ``L = mean((x @ q - t)**2)``.
The values tell the technique apart: the plain straight-through estimator (no window) and the
unrounded weights are declared patterns (``no_window``, ``not_rounded``), and every case has
weights inside and outside the window, kept 0.05 away from the window's edges and from the
rounding's half-integers. A hand-derived formula with the window earns the points (noted).

``l04_ex2`` (2 points) -- ``log1pexp_and_gradient(x)``: ``x`` is a 1-D float32 tensor whose
entries may be far beyond the range where ``exp`` overflows in float32 (|x| up to 300). With a
``tf.custom_gradient`` function ``log1pexp`` that computes ``log(1 + e**x)`` stably
(``max(x, 0) + log1p(exp(-|x|))``) and whose gradient is ``upstream * sigmoid(x)``, return
``[log1pexp(x), tape.gradient(log1pexp(x), x)]``; both must be finite.

``l04_ex3`` (2 points) -- ``scaled_tanh_gradients(a, x)``: ``a`` () trainable Variable, ``x``
(n,) tensor; a ``tf.custom_gradient`` function ``scaled_tanh(z)`` of one argument reads ``a``
and returns ``tanh(a z)``; its ``backward(upstream, variables=None)`` returns the gradient for
``z`` and ``[gradient for a]``, the latter clipped to [-1, 1] inside the backward pass. For
``L = sum(scaled_tanh(x)**2) + a**2`` return ``[dL/dx, dL/da]`` from one ``gradient`` call:
``dL/da = clip(sum(upstream z (1 - y**2)), -1, 1) + 2a``. The values decide: autodiff (no clip)
and a clip of the whole ``dL/da`` after the fact are declared patterns (``not_clipped``,
``clipped_total``); the hidden cases put the function's gradient for ``a`` outside [-1, 1] twice
and inside once.

``l04_ex4`` (2 points) -- ``truncated_gradient(w, xs, k)``: ``w`` () Variable, ``xs`` (T,)
tensor, ``k`` a Python int; the recurrence ``h <- tanh(w h + xs[t])`` from ``h = 0`` runs
inside one tape, in windows of ``k`` steps, the tape ``reset()`` at the start of each window
(truncated backpropagation through time; written as a loop over windows, the reset is on every
path of the code, which is how the technique reading finds it); return ``dL/dw`` for ``L = h_T**2``, which flows
through the steps after the last reset only. Without the resets the tape gives the full
gradient (a declared mistake pattern). The exercise asks for ``reset``.

``l04_ex5`` (2 points) -- ``lookahead_gradient(w, x, y, lr)``: ``w`` (n,) Variable, ``x``
(k, n) and ``y`` (k,) tensors, ``lr`` a float; with ``L(v) = mean((sum(x * v, axis=1) - y)**2)``,
one persistent tape computes ``L(w)``, then, inside ``tape.stop_recording()``, ``g = dL/dw``,
then ``L(w - lr g)``; return the gradient of that look-ahead loss with respect to ``w``, ``g``
held constant (the first-order look-ahead gradient, ``grad L`` at ``w - lr g``). Computed while
recording, ``g`` would be differentiated too (second order: a declared mistake pattern, like
``grad L(w)``, the gradient at the start point). The exercise asks for ``stop_recording``.
They replace two exercises that copied the lesson's RegisterGradient / no_gradient cells.

``l04_ex6`` (optional, 0 points) -- ``relative_loss_gradient(w, x, y)``: ``w`` (n,) Variable, ``x`` (k, n)
and ``y`` (k,) tensors; with ``r = sum(x * w, axis=1) - y``, ``L = mean(r**2)`` and the scale
``s = mean(r**2)`` computed inside ``tape.stop_recording()``, return ``d(L / s)/dw``
(``dL/dw / s``; recorded, ``s`` would make it 0). The exercise asks for ``stop_recording``.

``l04_ex7`` (optional, 0 points) -- ``input_gradient_only(layer, x)``: a built float64 ``Dense`` (tanh)
and a tensor ``x``; with ``GradientTape(watch_accessed_variables=False)`` and ``tape.watch(x)``,
return ``[dL/dx, float(len(tape.watched_variables()))]`` for ``L = sum(layer(x)**2)``; the count
is 0 (a default tape watches the kernel and the bias: 2).

Exercises 6 and 7 are optional (the lesson's statements say so): checked and reported like the
others, worth 0 points, so that a lesson dense with material grades five exercises.

Finite-difference checks (independent of the references, see ``grader.exercises``): ``l04_ex2``
checks the gradient of ``sum(logaddexp(0, x))``, ``l04_ex3`` that of ``sum(tanh(a x)**2) + a**2``
with respect to ``x`` only (the gradient for ``a`` is clipped on purpose). The answers of ``l04_ex1``, ``l04_ex4`` and ``l04_ex5`` are, on
purpose, not gradients of their losses (rounding has derivative zero almost everywhere; a
truncated or look-ahead gradient leaves out some paths on purpose): they are compared with the
references only.

Tensors and Variables given to students are float64, except in ``l04_ex2`` (float32 on purpose:
that is where ``exp`` overflows); every answer is compared within float32's tolerance (the grader's one rule, ``grader.student.checks``).
References are computed in float64. Hidden cases draw shapes and values at random.
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


# ----- l04_ex1: rounded weights, the straight-through estimator with a window -----------------
def _quantized_gradient(w, x, t, *, window=True, rounded=True):
    """The reference (``window``, ``rounded``) and the declared mistakes' answers (patterns.py):
    the plain straight-through estimator, or the weights never rounded."""
    tf = _tf()
    with tf.GradientTape() as tape:
        c = tf.clip_by_value(w, -1.0, 1.0) if window else w
        q = c + tf.stop_gradient(tf.round(w) - c) if rounded else w
        loss = tf.reduce_mean((tf.matmul(x, q) - t) ** 2)
    return tape.gradient(loss, w)


def _quantized_reference(w, x, t):
    return _quantized_gradient(w, x, t)


def _ex1(w, x, t) -> Inputs:
    tf = _tf()
    w, x, t = _f64(w), _f64(x), _f64(t)
    return Inputs(args=(tf.Variable(w.copy()), tf.constant(x.copy()), tf.constant(t.copy())))


def _ex1_weights(rng, shape):
    """Weights in (-2, 2), at least one inside the window and one outside, none within 0.05 of
    the window's edges (|w| = 1) or of a half-integer, where rounding flips."""
    while True:
        w = rng.uniform(-1.95, 1.95, size=shape)
        edge = np.abs(np.abs(w) - 1.0)
        half = np.abs(np.abs(w) - np.floor(np.abs(w)) - 0.5)
        inside = np.abs(w) < 1.0
        if edge.min() > 0.05 and half.min() > 0.05 and inside.any() and (~inside).any():
            return w


def _ex1_random(rng):
    n, m, k = int(rng.integers(2, 5)), int(rng.integers(1, 4)), int(rng.integers(2, 6))
    return _ex1(_ex1_weights(rng, (n, m)), rng.normal(size=(k, n)), rng.normal(size=(k, m)))


register(Exercise(
    id="l04_ex1",
    function="quantized_gradient",
    signature="quantized_gradient(w, x, t)",
    techniques=(Technique("stop_gradient", ("stop_gradient",), None, description={
        "en": "tf.stop_gradient", "es": "tf.stop_gradient", "pt": "tf.stop_gradient",
        "ru": "tf.stop_gradient"}),),
    points=2,
    reference=_quantized_reference,
    visible=[Case(lambda rng: _ex1([[0.3, 1.7], [-1.2, 0.8]], [[1.0, 2.0], [0.5, -1.0], [-1.0, 0.0]],
                                   [[1.0, 0.0], [0.0, 1.0], [2.0, -1.0]]),
                  "w = [[0.3, 1.7], [-1.2, 0.8]], x (3, 2)")],
    hidden=[Case(_ex1_random) for _ in range(3)],
    title={"en": "Rounded weights that let the gradient through",
           "es": "Pesos redondeados que dejan pasar el gradiente",
           "pt": "Pesos arredondados que deixam o gradiente passar",
           "ru": "Округлённые веса, которые пропускают градиент"},
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
def _scaled_tanh_gradients(a, x, *, clip="inside"):
    """The reference (``clip="inside"``: the function's gradient for ``a`` clipped in its backward
    pass) and the declared mistakes' answers (patterns.py): no clip, or the whole dL/da clipped."""
    tf = _tf()

    @tf.custom_gradient
    def scaled_tanh(z):
        y = tf.tanh(a * z)

        def backward(upstream, variables=None):
            local = 1.0 - y ** 2
            d_a = tf.reduce_sum(upstream * z * local)
            return upstream * a * local, [tf.clip_by_value(d_a, -1.0, 1.0) if clip == "inside" else d_a]

        return y, backward

    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(scaled_tanh(x) ** 2) + a ** 2
    dx, da = tape.gradient(loss, [x, a])
    return [dx, tf.clip_by_value(da, -1.0, 1.0) if clip == "total" else da]


def _scaled_tanh_reference(a, x):
    return _scaled_tanh_gradients(a, x)


def _scaled_tanh_own_gradient(a, x) -> float:
    """The function's own gradient for ``a`` before clipping: sum(2 y * x * (1 - y**2))."""
    y = np.tanh(a * x)
    return float(np.sum(2 * y * x * (1 - y ** 2)))


def _ex3(a, x) -> Inputs:
    tf = _tf()
    a, x = _f64(a), _f64(x)
    return Inputs(args=(tf.Variable(a.copy()), tf.constant(x.copy())), values={"x": x},
                  extra={"a": a})


def _ex3_random(outside: bool):
    """A case whose function gradient for ``a`` is beyond the clip (``outside``), where the clip
    inside, no clip and a clip of the total all differ; or well inside it."""
    def make(rng):
        while True:
            n = int(rng.integers(2, 9))
            a, x = rng.uniform(0.3, 1.5) * rng.choice([-1.0, 1.0]), rng.normal(scale=1.2, size=n)
            d_a = _scaled_tanh_own_gradient(a, x)
            inside = np.clip(d_a, -1, 1) + 2 * a
            answers = [inside, d_a + 2 * a, np.clip(d_a + 2 * a, -1, 1)]
            if outside and abs(d_a) > 1.2 and min(abs(p - q) for i, p in enumerate(answers)
                                                   for q in answers[i + 1:]) > 0.05:
                return _ex3(a, x)
            if not outside and abs(d_a) < 0.8:
                return _ex3(a, x)
    return make


register(Exercise(
    id="l04_ex3",
    function="scaled_tanh_gradients",
    signature="scaled_tanh_gradients(a, x)",
    # the probe reports custom_gradient.variables when a custom_gradient function read Variables,
    # so a function that takes `a` as an argument (no variables=) is noted for the instructor (a
    # technique never costs points: values do)
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
    hidden=[Case(_ex3_random(True)), Case(_ex3_random(True)), Case(_ex3_random(False))],
    # finite differences check dL/dx only: the gradient for a is clipped on purpose
    objective=lambda v, inputs: float(np.sum(np.tanh(inputs.extra["a"] * v["x"]) ** 2)
                                      + inputs.extra["a"] ** 2),
    gradient_names=["x", "a_clipped"],
    title={"en": "A custom gradient that reads a Variable",
           "es": "Un gradiente personalizado que lee una variable",
           "pt": "Um gradiente personalizado que lê uma variável",
           "ru": "Собственный градиент функции, которая читает переменную"},
    components=["dL/dx", "dL/da"],
))


# ------------------------------------------------------------------------------------------------
# l04_ex4: truncated backpropagation through time with tape.reset()
# ------------------------------------------------------------------------------------------------
def _truncated_gradient_reference(w, xs, k):
    tf = _tf()
    h = tf.constant(np.float64(0.0))
    steps = int(xs.shape[0])
    with tf.GradientTape() as tape:
        for start in range(0, steps, k):
            tape.reset()
            for t in range(start, min(start + k, steps)):
                h = tf.tanh(w * h + xs[t])
        loss = h ** 2
    return tape.gradient(loss, w)


def _ex4(w, xs, k) -> Inputs:
    tf = _tf()
    w, xs = _f64(w), _f64(xs)
    return Inputs(args=(tf.Variable(w.copy()), tf.constant(xs.copy()), int(k)))


def _ex4_random(rng):
    steps = int(rng.integers(5, 10))
    k = int(rng.integers(2, min(5, steps)))
    return _ex4(rng.uniform(-1.2, 1.2), rng.normal(scale=0.8, size=steps), k)


_EX4_XS = [0.5, -0.3, 0.9, 0.1, -0.7, 0.4]


def _ex4_label(k: int) -> dict:
    """The visible cases' labels: code stays code (w, k), the count is a word of the language."""
    return {"en": f"w = 0.8, 6 steps, k = {k}", "es": f"w = 0.8, 6 pasos, k = {k}",
            "pt": f"w = 0.8, 6 passos, k = {k}", "ru": f"w = 0.8, 6 шагов, k = {k}"}

register(Exercise(
    id="l04_ex4",
    function="truncated_gradient",
    signature="truncated_gradient(w, xs, k)",
    techniques=(Technique("reset", ("reset",), None, description={
        "en": "tape.reset() every k steps, inside the one tape",
        "es": "tape.reset() cada k pasos, dentro de la misma cinta",
        "pt": "tape.reset() a cada k passos, dentro da mesma fita",
        "ru": "tape.reset() каждые k шагов внутри одной и той же ленты"}),),
    points=2,
    reference=_truncated_gradient_reference,
    visible=[Case(lambda rng: _ex4(0.8, _EX4_XS, 2), _ex4_label(2)),
             Case(lambda rng: _ex4(0.8, _EX4_XS, 3), _ex4_label(3))],
    hidden=[Case(_ex4_random) for _ in range(3)],
    title={"en": "Truncated backpropagation with `reset`",
           "es": "Retropropagación truncada con `tape.reset()`",
           "pt": "Retropropagação truncada com `tape.reset()`",
           "ru": "Усечённое обратное распространение с `tape.reset()`"},
))


# ------------------------------------------------------------------------------------------------
# l04_ex5: a look-ahead gradient: a gradient computed mid-recording, inside stop_recording
# ------------------------------------------------------------------------------------------------
def _lookahead_reference(w, x, y, lr):
    tf = _tf()
    with tf.GradientTape(persistent=True) as tape:
        loss = tf.reduce_mean((tf.reduce_sum(x * w, axis=1) - y) ** 2)
        with tape.stop_recording():
            g = tape.gradient(loss, w)
        ahead = w - lr * g
        loss_ahead = tf.reduce_mean((tf.reduce_sum(x * ahead, axis=1) - y) ** 2)
    grad = tape.gradient(loss_ahead, w)
    del tape
    return grad


def _ex5(w, x, y, lr) -> Inputs:
    tf = _tf()
    w, x, y = _f64(w), _f64(x), _f64(y)
    return Inputs(args=(tf.Variable(w.copy()), tf.constant(x.copy()), tf.constant(y.copy()),
                        float(lr)))


def _ex5_random(rng):
    k, n = int(rng.integers(3, 9)), int(rng.integers(1, 5))
    return _ex5(rng.normal(size=n), rng.normal(size=(k, n)), rng.normal(size=k),
                rng.uniform(0.05, 0.4))


register(Exercise(
    id="l04_ex5",
    function="lookahead_gradient",
    signature="lookahead_gradient(w, x, y, lr)",
    techniques=(Technique("stop_recording", ("stop_recording",), None, description={
        "en": "a persistent tape whose look-ahead gradient is computed inside tape.stop_recording()",
        "es": "una cinta persistente que calcula el gradiente de anticipación dentro de "
              "tape.stop_recording()",
        "pt": "uma fita persistente que calcula o gradiente de antecipação dentro de "
              "tape.stop_recording()",
        "ru": "персистентная лента, в которой градиент для шага вперёд вычисляется внутри "
              "tape.stop_recording()"}),),
    points=2,
    reference=_lookahead_reference,
    visible=[Case(lambda rng: _ex5([1.0, -0.5], [[1.0, 2.0], [0.5, -1.0], [2.0, 0.3]],
                                   [1.0, 0.0, 2.0], 0.3), "w (2,), x (3, 2), y (3,), lr = 0.3")],
    hidden=[Case(_ex5_random) for _ in range(3)],
    title={"en": "A look-ahead gradient", "es": "Un gradiente de anticipación",
           "pt": "Um gradiente de antecipação", "ru": "Градиент с заглядыванием вперёд"},
))

# ------------------------------------------------------------------------------------------------
# l04_ex6: a scale factor computed while the recording is paused (stop_recording)
# ------------------------------------------------------------------------------------------------
def _relative_loss_gradient_reference(w, x, y):
    tf = _tf()
    with tf.GradientTape() as tape:
        residual = tf.reduce_sum(x * w, axis=1) - y
        loss = tf.reduce_mean(residual ** 2)
        with tape.stop_recording():
            scale = tf.reduce_mean(residual ** 2)
        relative = loss / scale
    return tape.gradient(relative, w)


def _ex6(w, x, y) -> Inputs:
    tf = _tf()
    w, x, y = _f64(w), _f64(x), _f64(y)
    return Inputs(args=(tf.Variable(w.copy()), tf.constant(x.copy()), tf.constant(y.copy())))


def _ex6_random(rng):
    k, n = int(rng.integers(3, 9)), int(rng.integers(1, 5))
    return _ex6(rng.normal(size=n), rng.normal(size=(k, n)), rng.normal(size=k) + 1.0)


register(Exercise(
    id="l04_ex6",
    function="relative_loss_gradient",
    signature="relative_loss_gradient(w, x, y)",
    techniques=(Technique("stop_recording", ("stop_recording",), None, description={
        "en": "tape.stop_recording() (the scale is computed while the recording is paused)",
        "es": "tape.stop_recording() (la escala se calcula con la grabación en pausa)",
        "pt": "tape.stop_recording() (a escala é calculada com a gravação em pausa)",
        "ru": "tape.stop_recording() (масштаб вычисляется, пока запись приостановлена)"}),),
    points=0,
    optional=True,
    reference=_relative_loss_gradient_reference,
    visible=[Case(lambda rng: _ex6([1.0, -1.0], [[1.0, 2.0], [0.0, 1.0], [2.0, 0.5]],
                                   [1.0, 0.0, 2.0]), "w (2,), x (3, 2), y (3,)")],
    hidden=[Case(_ex6_random) for _ in range(3)],
    title={"en": "Pausing the tape for a scale factor",
           "es": "Pausar la cinta para un factor de escala",
           "pt": "Pausar a fita para um fator de escala",
           "ru": "Пауза в записи ради масштабного множителя"},
))


# ------------------------------------------------------------------------------------------------
# l04_ex7: a gradient with respect to the input only (watch_accessed_variables=False)
# ------------------------------------------------------------------------------------------------
def _input_gradient_only_reference(layer, x):
    tf = _tf()
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(x)
        loss = tf.reduce_sum(layer(x) ** 2)
    grad = tape.gradient(loss, x)
    return [grad, tf.constant(float(len(tape.watched_variables())), dtype=tf.float64)]


def _ex7(kernel, bias, x) -> Inputs:
    tf = _tf()
    kernel, bias, x = _f64(kernel), _f64(bias), _f64(x)
    layer = tf.keras.layers.Dense(kernel.shape[1], activation="tanh", dtype="float64")
    layer(tf.constant(x.copy()))  # built by a first call
    layer.kernel.assign(kernel)
    layer.bias.assign(bias)
    return Inputs(args=(layer, tf.constant(x.copy())), values={"x": x},
                  extra={"kernel": kernel, "bias": bias})


def _ex7_objective(v, inputs):
    return float(np.sum(np.tanh(v["x"] @ inputs.extra["kernel"] + inputs.extra["bias"]) ** 2))


def _ex7_random(rng):
    k, n, units = int(rng.integers(1, 5)), int(rng.integers(2, 5)), int(rng.integers(1, 4))
    return _ex7(rng.normal(scale=0.7, size=(n, units)), rng.normal(scale=0.3, size=units),
                rng.normal(size=(k, n)))


register(Exercise(
    id="l04_ex7",
    function="input_gradient_only",
    signature="input_gradient_only(layer, x)",
    techniques=(Technique("watch_accessed_variables", ("watch_accessed_variables",), None,
                          description={
        "en": "GradientTape(watch_accessed_variables=False) with tape.watch(x)",
        "es": "GradientTape(watch_accessed_variables=False) con tape.watch(x)",
        "pt": "GradientTape(watch_accessed_variables=False) com tape.watch(x)",
        "ru": "GradientTape(watch_accessed_variables=False) вместе с tape.watch(x)"}),),
    points=0,
    optional=True,
    reference=_input_gradient_only_reference,
    visible=[Case(lambda rng: _ex7([[0.5, -1.0], [1.0, 0.25]], [0.1, -0.2], [[1.0, 2.0]]),
                  "Dense(2, tanh), x (1, 2)")],
    hidden=[Case(_ex7_random) for _ in range(3)],
    objective=_ex7_objective,
    gradient_names=["x", None],
    title={"en": "A gradient with respect to the input only",
           "es": "Un gradiente solo respecto de la entrada",
           "pt": "Um gradiente só em relação à entrada",
           "ru": "Градиент только по входу"},
    compares=["gradient", "value"],
    components=["dL/dx", "len(tape.watched_variables())"],
))
