"""The checks of the lessons' claims (``tests/support/claims.py`` says how they are tied to the
sentences). One function per claim id, run under the engines it names, after the lesson's cells
ran in that engine (``c.cell(key)``: a cell's printed text, warnings, values and figures;
``c.env``: the lesson's names; ``c.tf``: the engine). A check raises when its claim no longer
holds. Ids: ``course.*`` for sentences several lessons make, ``lNN.*`` for one lesson's.
"""
from __future__ import annotations

import numpy as np

from tests.support.claims import BOTH, MINITAPE, TENSORFLOW, claim, compare_claim  # noqa: F401


def _gradient_of(tf, f, x0, dtype=None):
    x = tf.Variable(x0, dtype=dtype) if dtype else tf.Variable(x0)
    with tf.GradientTape() as tape:
        y = f(x)
    return tape.gradient(y, x)


# ------------------------------------------------------------------------------------------------
# The whole course
# ------------------------------------------------------------------------------------------------
@compare_claim("course.runs-on-tensorflow", "*",
               "every lesson's code runs unchanged with `import tensorflow as tf`, except the cells "
               "marked as the course's own (tf=\"course\"), and gives the same results (cells marked "
               "tf=\"random\" up to their random numbers, tf=\"differs\" as the lesson explains)")
def _(tf_run, mt_run):
    from tests.support import lesson_engines

    diffs = lesson_engines.compare_runs(tf_run, mt_run)
    modes = {c["key"]: c["tf"] for c in tf_run["cells"]}
    unexplained = {k: d for k, d in diffs.items() if d and modes[k] != lesson_engines.TF_DIFFERS}
    assert not unexplained, unexplained
    assert all(not c["error"] or modes[c["key"]] == lesson_engines.TF_DIFFERS or
               next(m for m in mt_run["cells"] if m["key"] == c["key"])["error"]
               for c in tf_run["cells"] if c["ran"])
    for cell in tf_run["cells"]:  # the course's own cells are not run under TensorFlow
        assert cell["ran"] == (cell["tf"] != lesson_engines.TF_COURSE), cell["key"]


@claim("course.number-rule", "01", BOTH,
       "an answer counts by its value (tensor, NumPy array, Python number or list; ints or floats) "
       "and is compared within float32's tolerance (relative 2e-4)")
def _(c):
    from grader.student.checks import Tolerance, compare

    tf = c.tf
    expected = np.array([1.5, 2.0, -3.0])
    forms = [tf.constant([1.5, 2.0, -3.0], dtype=tf.float32), np.array([1.5, 2.0, -3.0]),
             [1.5, 2.0, -3.0], (1.5, 2, -3), [np.float32(1.5), np.int64(2), -3],
             tf.Variable([1.5, 2.0, -3.0], dtype=tf.float64)]
    for form in forms:
        assert all(o.passed for o in compare(expected, form, Tolerance(), precision="float32")), form
    assert all(o.passed for o in compare(np.array(3.0), 3, Tolerance(), precision="float32"))  # an int code
    near = expected * (1 + 1.5e-4)
    far = expected * (1 + 3e-4)
    assert all(o.passed for o in compare(expected, near, Tolerance(), precision="float32"))
    assert not any(o.passed for o in compare(expected, far, Tolerance(), precision="float32"))
    from grader.student.registry import all_exercises

    assert {ex.precision for ex in all_exercises().values()} == {"float32"}


# ------------------------------------------------------------------------------------------------
# Lesson 1
# ------------------------------------------------------------------------------------------------
@claim("l01.drawing", "01", MINITAPE,
       "the drawing of the tape of y = x**2 + 2x: each tensor with its value and shape, each "
       "operation between its inputs and its output, the watched variable marked")
def _(c):
    from minitape.debugging import draw

    tf = c.tf
    x = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = x**2 + 2 * x
    drawing = draw(tape)
    text = drawing.text
    assert "3 operations recorded" in text
    for line in ("Pow(x, 2.0)", "Mul(2.0, x)", "AddV2(t1, t2)", "-> 15.0  () float32", "[watched source]"):
        assert line in text, (line, text)
    svg = drawing._repr_svg_() if hasattr(drawing, "_repr_svg_") else str(drawing.svg)
    assert svg.count("<rect") >= 4 and ("<path" in svg or "<line" in svg)


@claim("l01.two-paths", "01", BOTH,
       "x feeds two operations of y = x**2 + 2x, and its gradient is the sum over both paths: 8 at x = 3")
def _(c):
    assert c.stdout("recorded-backward-code").strip() == "8.0"
    tf = c.tf
    assert float(_gradient_of(tf, lambda x: x**2, 3.0)) + float(_gradient_of(tf, lambda x: 2 * x, 3.0)) == 8.0


@claim("l01.stepper", "01", MINITAPE,
       "minitape.debugging.stepper steps through the backward pass of z = (x*x)**2, one operation "
       "at a time, ending with dz/dx = 108")
def _(c):
    from minitape.debugging import backward_steps, stepper

    tf = c.tf
    x = tf.Variable(3.0)
    with tf.GradientTape(persistent=True) as tape:
        y = x * x
        z = y * y
    steps = list(backward_steps(tape, z, [x]))
    assert [s.op for s in steps if s.op] == ["Mul", "Mul"], [s.op for s in steps]
    last = steps[-1].grads
    assert 108.0 in [float(np.asarray(g.numpy() if hasattr(g, "numpy") else g)) for g in last.values()]
    assert stepper(tape, z, x) is not None


@claim("l01.dense-builds", "01", BOTH,
       "a Keras Dense layer creates its kernel and bias at its first call and lists them in "
       "trainable_variables; they are the sources of one gradient each")
def _(c):
    tf = c.tf
    layer = tf.keras.layers.Dense(2, activation="tanh")
    assert len(layer.trainable_variables) == 0
    x = tf.constant([[1.0, 2.0, 3.0]])
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(layer(x) ** 2)
    assert [v.name for v in layer.trainable_variables] == ["kernel", "bias"]
    grads = tape.gradient(loss, layer.trainable_variables)
    assert [tuple(g.shape) for g in grads] == [(3, 2), (2,)]


@claim("l01.plot-helper", "01", MINITAPE,
       "plot_function_and_derivative draws f and its derivative from one tape, for any "
       "element-wise function of minitape operations")
def _(c):
    from lessons.widgets import derivative_curve

    tf = c.tf
    xs = np.linspace(-6, 6, 25)
    ys, dys = derivative_curve(lambda x: x * tf.math.sin(x), xs)
    assert np.allclose(ys, xs * np.sin(xs)) and np.allclose(dys, np.sin(xs) + xs * np.cos(xs))
    figure = c.figure("plot-helper-code")
    curves = [line for line in figure["lines"] if not line["label"].startswith("_")]
    assert len(curves) == 2 and all(line["points"] == 201 for line in curves), curves


@claim("l01.broadcasting", "01", BOTH,
       "arithmetic between tensors of different shapes broadcasts them as NumPy does: a (m,) bias "
       "is added to every row of a (k, m) batch, and (k, 1) minus (k,) is a (k, k) matrix")
def _(c):
    tf = c.tf
    batch, bias = np.arange(6.0).reshape(3, 2), np.array([10.0, 20.0])
    assert np.array_equal((tf.constant(batch) + tf.constant(bias)).numpy(), batch + bias)
    column, row = np.array([[1.0], [2.0], [3.0]]), np.array([1.0, 0.0, 2.0])
    difference = (tf.constant(column) - tf.constant(row)).numpy()
    assert difference.shape == (3, 3) and np.array_equal(difference, column - row)
    # the lesson's cell: the trap's loss and gradient differ from the fixed ones, with no error
    out = c.stdout("broadcast-code").splitlines()
    assert out[0] == "pred: (3, 1)   y: (3,)   pred - y: (3, 3)", out
    assert out[2] != out[3].replace("fixed", "trap")


# ------------------------------------------------------------------------------------------------
# Lesson 2
# ------------------------------------------------------------------------------------------------
@claim("l02.chain-figure", "02", BOTH,
       "the figure draws dz/dy, dy/dx and dz/dx over a grid, all from one persistent tape, and "
       "the chain rule holds at every point")
def _(c):
    cell = c.cell("chain-figure-code")
    curves = [line for line in cell["figures"][0]["lines"] if not line["label"].startswith("_")]
    assert [line["label"] for line in curves] == ["dz/dy = 2y", "dy/dx = 2x", "dz/dx = 4x³"]
    assert {line["points"] for line in curves} == {61}
    assert cell["display"] == {"kind": "py", "type": "bool", "value": True} or \
        cell["display"]["value"] == [True], cell["display"]


@claim("l02.memory-minitape", "02", MINITAPE,
       "the memory figure measures minitape: both tapes hold about 7.6 MiB after the forward pass, "
       "the default tape lets go during gradient, the persistent one at del tape")
def _(c):
    default, persistent = c.env["default"], c.env["persistent"]
    assert abs(default[0] - 7.63) < 0.3 and abs(persistent[0] - 7.63) < 0.3, (default, persistent)
    assert default[1] < 0.3 and abs(persistent[1] - 7.63) < 0.3, (default, persistent)
    assert default[2] < 0.3 and persistent[2] < 0.3, (default, persistent)


@claim("l02.tf-keeps-what-gradients-read", "02", TENSORFLOW,
       "TensorFlow's tape keeps only what an operation's gradient reads: relu's output, not sin's")
def _(c):
    import gc
    import weakref

    tf = c.tf
    x = tf.Variable(tf.ones([1000]))
    with tf.GradientTape() as tape:
        s, r = tf.math.sin(x), tf.nn.relu(x)
        sin_out, relu_out = weakref.ref(s), weakref.ref(r)
        del s, r
    gc.collect()
    assert sin_out() is None and relu_out() is not None
    del tape


@claim("l02.memory-tf-invisible", "02", TENSORFLOW,
       "under TensorFlow, tracemalloc sees about 0 MiB at every stage: TensorFlow allocates its "
       "tensors outside Python")
def _(c):
    assert max(c.env["default"] + c.env["persistent"]) < 0.1, (c.env["default"], c.env["persistent"])


# ------------------------------------------------------------------------------------------------
# Lesson 3
# ------------------------------------------------------------------------------------------------
def _lesson_source(name: str, key: str) -> str:
    from lessons.source import load_lessons

    (lesson,) = load_lessons(only=[name])
    return next(cell.source for cell in lesson.code if cell.key == key)


def _run_snippet(tf, source: str) -> dict:
    import warnings

    ns = {"tf": tf, "np": np}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(source, ns)  # noqa: S102 -- the lesson's own snippets
        ns["grad"] = ns["tape"].gradient(ns["y"], ns["x"])
    return ns


def snippet_causes(tf, name: str, source: str) -> set[int]:
    """The codes of lesson 3's table (exercise 5) that fit a snippet, each read off the snippet
    as the table's row words it: what the source is, where it is used, what the path holds."""
    import re

    ns = _run_snippet(tf, source)
    x, grad = ns["x"], ns["grad"]
    lines = source.strip().splitlines()
    with_at = next(i for i, line in enumerate(lines) if line.startswith("with tf.GradientTape"))
    before, inside = lines[:with_at], lines[with_at + 1:]
    uses_x = lambda text: re.search(r"\bx\b", text) is not None  # noqa: E731
    fits = set()
    if grad is not None:
        fits.add(0)
    else:
        made_by_constant = any(re.match(r"x = tf\.constant\(", line) for line in before)
        watched = any("tape.watch(x)" in line for line in inside)
        frozen = isinstance(x, tf.Variable) and not x.trainable
        if (made_by_constant and not watched) or frozen:
            fits.add(1)
        if x.dtype.is_integer:
            fits.add(2)
        if any(re.match(r"x = tf\.Variable\(", line) for line in before) and \
                any(re.match(r"x = .*\bx\b", line) for line in before):
            fits.add(3)
        if any(".numpy()" in line or "np." in line for line in inside):
            fits.add(4)
        if any(".assign" in line for line in inside):
            fits.add(5)
        if any(uses_x(line) for line in before[1:]) and not any(uses_x(line) for line in inside):
            fits.add(6)
    return fits


@claim("l03.why-none", "03", MINITAPE,
       "minitape.debugging.why_none inspects a tape and says, in the notebook's language, why no "
       "gradient reached a source (a reason code and a message), persistent or not, before or "
       "after gradient")
def _(c):
    from minitape.debugging import why_none

    tf = c.tf
    for persistent in (False, True):
        for ask_first in (False, True):
            x, y = tf.Variable(2.0), tf.Variable(3.0)
            with tf.GradientTape(persistent=persistent) as tape:
                z = y * y
            if ask_first:
                assert tape.gradient(z, x) is None
            answer = why_none(tape, z, x, lang="en")
            assert answer.reason == "unconnected" and answer.message
            assert why_none(tape, z, x, lang="es").message != answer.message
    assert c.stdout("why-none-code").startswith("unconnected\n")


@claim("l03.numpy-detour", "03", BOTH,
       "a value that leaves for NumPy comes back as a constant: the gradient through it is None")
def _(c):
    assert c.stdout("case-numpy-code").strip() == "None"


@claim("l03.int-silent", "03", BOTH,
       "an integer source gets a None gradient and nothing is printed or logged by default; "
       "TensorFlow notes the dtype only in its verbose log")
def _(c):
    cell = c.cell("case-int-code")
    assert cell["stdout"] == "<dtype: 'int32'>\nNone\n" and cell["warnings"] == [], cell
    if c.is_tf:  # the note exists, below the level a default logger shows
        import logging

        tf, records = c.tf, []
        handler = logging.Handler(level=1)
        handler.emit = lambda record: records.append(record)
        logger = logging.getLogger("tensorflow")
        old_level = logger.level
        logger.addHandler(handler)
        logger.setLevel(1)
        try:
            x = tf.Variable([[2, 2], [2, 2]])
            with tf.GradientTape() as tape:
                y = tf.reduce_sum(x)
            assert tape.gradient(y, x) is None
        finally:
            logger.removeHandler(handler)
            logger.setLevel(old_level)
        notes = [r for r in records if "must be floating" in r.getMessage()]
        assert notes and all(r.levelno < logging.INFO for r in notes), [(r.levelno, r.getMessage()) for r in records]


@claim("l03.no-auto-cast", "03", BOTH,
       "integers and floats are not converted for each other: the mix is a TypeError")
def _(c):
    out = c.stdout("case-int-fix-code")
    assert "\nTypeError: " in "\n" + out and out.rstrip().endswith("[[0.5 0.5]\n [0.5 0.5]]"), out


@claim("l03.ex1-input", "03", MINITAPE, "exercise 1's x is a 1-D NumPy array of floats")
def _(c):
    from grader.student.registry import get

    ex = get("l03_ex1")
    for case in ex.visible + ex.hidden:
        (x,) = case.make(np.random.default_rng(0)).args
        assert isinstance(x, np.ndarray) and x.ndim == 1 and x.dtype == np.float64


@claim("l03.snippets-one-code", "03", BOTH,
       "each snippet of exercise 5 fits exactly one row of the table, the row of its key")
def _(c):
    from grader.student.registry import get

    reference = get("l03_ex5").reference
    for letter, source in c.env["SNIPPETS"].items():
        fits = snippet_causes(c.tf, letter, source)
        assert fits == {int(float(reference(letter)))}, (letter, fits)


@claim("l03.none-causes", "03", BOTH,
       "a gradient is None for each cause the lesson lists (unconnected target, replaced Variable, "
       "NumPy detour, integer dtype, stateful assign, unwatched source), and a tensor otherwise")
def _(c):
    from grader.student.registry import get

    reference = get("l03_ex5").reference
    for letter, source in c.env["SNIPPETS"].items():
        grad = _run_snippet(c.tf, source)["grad"]
        assert (grad is None) == (float(reference(letter)) != 0), letter


@claim("l03.cases-silent", "03", BOTH,
       "none of the detective's cases, broken or fixed, gives a warning or a log line")
def _(c):
    import logging
    import warnings

    source = _lesson_source("03", "detective-code")
    ns = {"tf": c.tf, "np": np}
    exec(source[:source.index("def investigate")], ns)  # noqa: S102 -- the lesson's cases
    records = []
    handler = logging.Handler(level=logging.WARNING)
    handler.emit = lambda record: records.append(record.getMessage())
    logging.getLogger("tensorflow").addHandler(handler)
    try:
        for case in ns["CASES"].values():
            for fixed in (False, True):
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always")
                    tape, target, source_ = case(fixed)
                    tape.gradient(target, source_)
                assert not caught and not records, (case.__name__, fixed, [str(w.message) for w in caught], records)
    finally:
        logging.getLogger("tensorflow").removeHandler(handler)


@claim("l03.losses-are-means", "03", BOTH,
       "a training loss is usually a mean over the batch (tf.reduce_mean, and so are Keras's "
       "losses); the gradient of the sum over N examples is N times the mean's")
def _(c):
    tf = c.tf
    y_true, y_pred = tf.constant([[1.0], [2.0], [0.0]]), tf.constant([[0.5], [1.0], [1.0]])
    mean = float(tf.reduce_mean((y_true - y_pred) ** 2))
    assert abs(float(tf.keras.losses.MeanSquaredError()(y_true, y_pred)) - mean) < 1e-6
    total, per_mean, times = (c.stdout("per-example-code").splitlines()[i] for i in (1, 2, 3))
    assert total.split(":", 1)[1].split() == times.split(":", 1)[1].split() != per_mean.split(":", 1)[1].split()


# ------------------------------------------------------------------------------------------------
# Lesson 4
# ------------------------------------------------------------------------------------------------
@claim("l04.registry-api", "04", BOTH,
       "tf.RegisterGradient registers a function grad(op, upstream), one gradient per input, for an "
       "operation type; tf.no_gradient declares a type not differentiable")
def _(c):
    assert c.stdout("register-gradient-code") == "True True\nKeyError\n"
    assert callable(c.tf.no_gradient) and callable(c.tf.RegisterGradient)
    if not c.is_tf:  # the course's own cell shows no_gradient's None (it undoes the registration)
        assert c.stdout("no-gradient-code") == "True None\n"


@claim("l04.register-twice", "04", BOTH,
       "a second gradient for an operation type that has one is refused with KeyError (Sin)")
def _(c):
    import pytest

    with pytest.raises(KeyError):
        c.tf.RegisterGradient("Sin")(lambda op, upstream: upstream)


@claim("l04.only-adjust-contrast", "04", MINITAPE,
       "of the operations a student calls, minitape's only one without a gradient is AdjustContrastv2")
def _(c):
    from minitape._custom import REGISTRY

    without = {name for name, prim in REGISTRY.items() if prim.no_gradient}
    assert {name for name in without if not name.endswith("Grad")} == {"AdjustContrastv2"}, without


@claim("l04.registration-lasts", "04", BOTH,
       "a registration lasts as long as the process: registering the type again raises KeyError")
def _(c):
    import pytest

    tf = c.tf
    if not c.is_tf:  # the lesson's course cell took its registration back: make one again
        tf.RegisterGradient("AdjustContrastv2")(lambda op, upstream: (upstream, None))
    try:
        with pytest.raises(KeyError):
            tf.RegisterGradient("AdjustContrastv2")(lambda op, upstream: (upstream, None))
    finally:
        if not c.is_tf:
            import minitape._custom

            minitape._custom.restore_gradient("AdjustContrastv2")


@claim("l04.restore-course-only", "04", BOTH,
       "neither TensorFlow nor minitape's public API takes a registration back; the course's "
       "minitape._custom.restore_gradient does, so its cell is the course's own")
def _(c):
    tf = c.tf
    assert not any(hasattr(tf, name) for name in ("restore_gradient", "unregister_gradient"))
    cell = next(x for x in c.cells if x["key"] == "no-gradient-code")
    assert cell["tf"] == "course" and cell["ran"] == (not c.is_tf)
    if c.is_tf:  # no_gradient on the registered type is refused: the demonstration needs the undo
        import pytest

        with pytest.raises(KeyError):
            tf.no_gradient("AdjustContrastv2")


@claim("l04.clip-widget", "04", BOTH,
       "clip_by_norm keeps the direction: a gradient longer than the clip norm stops on the "
       "(dotted) circle of that radius, along the same line")
def _(c):
    import re

    tf = c.tf
    g = tf.constant([1.0, 2.0])  # the ordinary gradient of the widget's loss at w = (1, 0.5)
    for clip in (0.5, 1.0, 2.0, 3.0):
        clipped = tf.clip_by_norm(g, clip).numpy()
        norm = float(np.linalg.norm(clipped))
        assert abs(norm - min(clip, float(np.sqrt(5.0)))) < 1e-6
        assert abs(clipped[0] * 2.0 - clipped[1] * 1.0) < 1e-6  # parallel to g
    assert re.search(r"Circle\([^)]*linestyle=\":\"", _lesson_source("04", "clip-widget-code"))


# ------------------------------------------------------------------------------------------------
# Lesson 5
# ------------------------------------------------------------------------------------------------
@claim("l05.jacobian-vectorized", "05", BOTH,
       "both engines compute a Jacobian's rows together in one vectorized pass by default")
def _(c):
    import inspect

    tf = c.tf
    assert inspect.signature(tf.GradientTape.jacobian).parameters["experimental_use_pfor"].default is True
    if not c.is_tf:
        import minitape._jacobian as mj

        calls = []
        rows, vectorized = mj.jacobian_rows, mj.vectorized

        def no_rows(*args, **kwargs):
            raise AssertionError("minitape computed a Jacobian row by row")

        def counted(*args, **kwargs):
            calls.append(1)
            return vectorized(*args, **kwargs)

        mj.jacobian_rows, mj.vectorized = no_rows, counted
        try:
            x = tf.Variable(np.ones((7, 5), dtype=np.float32))
            with tf.GradientTape() as tape:
                y = tf.tanh(tf.matmul(x, tf.ones((5, 10))))
            assert tuple(tape.jacobian(y, x).shape) == (7, 10, 7, 5)
        finally:
            mj.jacobian_rows, mj.vectorized = rows, vectorized
        assert len(calls) == 1, calls


@claim("l05.newton-1d", "05", BOTH,
       "the figure shows |f'(x_k)| after each step from x = 2.5 for gradient descent (a roughly "
       "constant factor per step) and Newton's method (the correct digits roughly double near the "
       "end), both derivatives from nested tapes, on the f of the figure before")
def _(c):
    figure = c.figure("newton-1d-code")
    assert "|f′(x)|" in figure["texts"] and len([l for l in figure["lines"] if not l["label"].startswith("_")]) == 2
    assert c.figure("higher-order-curve-code")["lines"][0]["label"] == "f(x)"
    slope = lambda p: np.abs(p**3 - 2 * p + 0.5)  # noqa: E731
    descent, newton = slope(np.asarray(c.env["descent_points"])), slope(np.asarray(c.env["newton_points"]))
    ratios = descent[2:] / descent[1:-1]
    assert np.all((0.2 < ratios) & (ratios < 0.95)) and ratios.max() / ratios.min() < 2.5, ratios
    digits = -np.log10(newton[newton > 1e-13])
    assert newton.min() < 1e-12 and any(b > 1.6 * a for a, b in zip(digits[1:], digits[2:]) if a > 1), digits


@claim("l05.scope", "05", BOTH,
       "string tensors, tf.data and SavedModel are TensorFlow's and outside minitape")
def _(c):
    present = [hasattr(c.tf, name) for name in ("strings", "data", "saved_model")]
    assert present == [c.is_tf] * 3, present


@claim("l05.batch-jacobian-blocks", "05", BOTH,
       "the full Jacobian of a batch, flattened to 42 x 35 in the picture, is zero outside the "
       "diagonal blocks")
def _(c):
    j = c.env["j"].numpy()
    assert j.shape == (7, 6, 7, 5)
    for a in range(7):
        for b in range(7):
            if a != b:
                assert np.abs(j[a, :, b, :]).max() == 0, (a, b)
    assert any(np.abs(j[b, :, b, :]).max() > 0 for b in range(7))
    assert any("42 × 35" in text for text in c.figure("batch-jacobian-full-code")["texts"])


# ------------------------------------------------------------------------------------------------
# Lesson 6
# ------------------------------------------------------------------------------------------------
def _no_gpu(tf) -> bool:
    return tf.config.list_physical_devices("GPU") == []


@claim("l06.keras-optimizers", "06", BOTH,
       "a Keras optimizer does the update: SGD without momentum gives the hand-written loop's losses")
def _(c):
    assert c.stdout("sgd-code").rstrip().endswith("True"), c.stdout("sgd-code")


@claim("l06.setup-tools", "06", BOTH, "NumPy makes the data, matplotlib draws, ipywidgets gives the slider")
def _(c):
    assert "np.random.default_rng" in _lesson_source("06", "data-code")
    setup = _lesson_source("06", "setup-code")
    assert "import ipywidgets" in setup and "import matplotlib.pyplot" in setup
    assert c.cell("lr-code")["display"]["type"] == "VBox"


@claim("l06.learning-rate-name", "06", BOTH, "Keras calls the step size learning_rate")
def _(c):
    assert abs(float(c.tf.keras.optimizers.SGD(learning_rate=0.25).learning_rate) - 0.25) < 1e-7


@claim("l06.model-tracks-layers", "06", BOTH,
       "a tf.keras.Model subclass with call() finds the layers assigned to its attributes, and "
       "lists their kernels and biases in trainable_variables once built")
def _(c):
    model = c.env["MLP"](hidden_units=3)
    assert len(model.trainable_variables) == 0
    model(c.tf.ones((2, 1)))
    assert [(v.name, tuple(v.shape)) for v in model.trainable_variables] == \
        [("kernel", (1, 3)), ("bias", (3,)), ("kernel", (3, 1)), ("bias", (1,))]
    assert c.stdout("mlp-code").split("\n")[:4] == ["kernel (1, 16)", "bias (16,)", "kernel (16, 1)", "bias (1,)"]


@claim("l06.module-misses-keras", "06", TENSORFLOW,
       "TensorFlow's tf.Module does not find Keras 3 layers' variables")
def _(c):
    tf = c.tf

    class Holder(tf.Module):
        def __init__(self):
            super().__init__()
            self.dense = tf.keras.layers.Dense(2)

    holder = Holder()
    holder.dense(tf.ones((1, 3)))
    assert len(holder.dense.trainable_variables) == 2 and len(holder.trainable_variables) == 0


@claim("l06.device-context", "06", BOTH,
       "list_physical_devices('GPU') lists the usable GPUs; inside tf.device new tensors live on "
       "that device; /CPU:0 is the processor")
def _(c):
    tf = c.tf
    with tf.device("/CPU:0"):
        t = tf.constant([1.0, 2.0])
    assert t.device.endswith("device:CPU:0")
    if _no_gpu(tf):
        assert "device:CPU:0" in c.stdout("device-code")


@claim("l06.cupy", "06", MINITAPE,
       "minitape reaches NVIDIA GPUs through CuPy, optional; without it it sees only the CPU")
def _(c):
    import importlib.util

    if importlib.util.find_spec("cupy") is None:
        assert c.tf.config.list_physical_devices("GPU") == []
    assert [d.device_type for d in c.tf.config.list_physical_devices("CPU")] == ["CPU"]


@claim("l06.numpy-on-cpu", "06", BOTH,
       "a tensor's .device says where it lives; .numpy() gives a NumPy array on the CPU")
def _(c):
    t = c.tf.constant([1.0, 2.0])
    assert isinstance(t.numpy(), np.ndarray) and isinstance(t.device, str)


@claim("l06.soft-placement", "06", BOTH,
       "soft device placement is on by default: /GPU:0 without a usable GPU quietly runs on the CPU")
def _(c):
    tf = c.tf
    assert tf.config.get_soft_device_placement() is True
    if _no_gpu(tf):
        with tf.device("/GPU:0"):
            t = tf.constant([1.0])
        assert t.device.endswith("device:CPU:0")
        assert c.stdout("device-same-code").startswith("/job:localhost/replica:0/task:0/device:CPU:0\n")


@claim("l06.hard-placement", "06", BOTH,
       "with soft placement off, /GPU:0 without a GPU raises InvalidArgumentError at the first "
       "operation placed in the block in both engines (entering is fine), and minitape's error "
       "carries a note saying what is missing (CuPy, or a visible NVIDIA GPU)")
def _(c):
    tf = c.tf
    if not _no_gpu(tf):
        return
    tf.config.set_soft_device_placement(False)
    try:
        entered = False
        try:
            with tf.device("/GPU:0"):
                entered = True
                tf.constant([1.0]) + 1.0
        except tf.errors.InvalidArgumentError as caught:
            error = caught
        else:
            raise AssertionError("no InvalidArgumentError")
    finally:
        tf.config.set_soft_device_placement(True)
    assert entered, "the block raised on entering, before its first operation"
    notes = "\n".join(getattr(error, "__notes__", []))
    assert ("CuPy" in notes or "NVIDIA" in notes) == (not c.is_tf), notes


@claim("l06.loss-curve", "06", BOTH, "the loss curve: the loss at every step, on a logarithmic axis")
def _(c):
    figure = c.figure("curve-code")
    assert "log" in figure["yscales"] and any(line["points"] == 100 for line in figure["lines"])


@claim("l06.ex4-model", "06", MINITAPE,
       "exercise 4's model is a tf.keras.Sequential of a hidden Dense layer with tanh and an "
       "output Dense layer; its optimizer is a Keras Adam or SGD")
def _(c):
    from grader.student.registry import get

    ex = get("l06_ex4")
    for case in ex.visible + ex.hidden:
        model, optimizer = case.make(np.random.default_rng(0)).args[:2]
        assert isinstance(model, c.tf.keras.Sequential)
        hidden, out = model.layers
        assert hidden.activation.__name__ == "tanh" and out.units == 1
        assert type(optimizer).__name__ in ("Adam", "SGD")


# ------------------------------------------------------------------------------------------------
# Lesson 7
# ------------------------------------------------------------------------------------------------
def _largest(text: str) -> float:
    """The largest number written in e-notation in ``text`` (the lesson's printed differences),
    which must exist: float64 rounding (about 1e-16) is agreement."""
    import re

    found = [float(x) for x in re.findall(r"\d\.\de[-+]\d\d", text)]
    assert found, text
    return max(found)

@claim("l07.compare-minitape", "07", BOTH,
       "our tape gives the same gradients as tf.GradientTape on every function of Step 5")
def _(c):
    assert _largest(c.stdout("compare-code").split("\n")[-2]) < 1e-12


@claim("l07.setup", "07", MINITAPE,
       "our tape needs only math; minitape.debugging gives draw and stepper")
def _(c):
    import ast

    from minitape.debugging import draw, stepper

    assert callable(draw) and callable(stepper)
    for key in ("value-code", "tape-code"):
        tree = ast.parse(_lesson_source("07", key))
        imported = {alias.name for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))
                    for alias in node.names}
        assert imported <= {"math"}, (key, imported)


@claim("l07.tape-keeps-records", "07", BOTH,
       "the engines keep what the backward pass needs on the tape, not on the values: a tensor "
       "carries no gradient")
def _(c):
    tf = c.tf
    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = x * x
    assert not hasattr(y, "grad") and not hasattr(x, "grad")
    assert float(tape.gradient(y, x)) == 4.0


@claim("l07.record-if-watched", "07", BOTH,
       "record only if watched: an operation whose inputs are all unwatched is not recorded")
def _(c):
    tf = c.tf
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        y = x * x  # nothing watched yet: not recorded
        tape.watch(x)
    assert tape.gradient(y, x) is None


@claim("l07.gradient-function", "07", TENSORFLOW,
       "TensorFlow calls an operation's VJP its gradient function, registered by the operation's name")
def _(c):
    from tensorflow.python.framework import ops

    fn = ops._gradient_registry.lookup("Mul")
    assert callable(fn) and fn.__name__ == "_MulGrad"


@claim("l07.gradients-returned", "07", BOTH,
       "gradients are returned, not stored on variables: asking twice gives the same answer")
def _(c):
    tf = c.tf
    x = tf.Variable(1.5)
    with tf.GradientTape(persistent=True) as tape:
        y = x * tf.sin(x)
    first, second = tape.gradient(y, x), tape.gradient(y, x)
    assert float(first) == float(second) and not hasattr(x, "grad")
    assert "call 2: [0.5707372016677029, 1.5]" in c.stdout("local-dict-code")


@claim("l07.no-recursion", "07", BOTH,
       "both engines schedule the backward pass without recursion: 5000 chained operations, past "
       "Python's recursion limit, differentiate")
def _(c):
    import sys

    tf = c.tf
    w = tf.Variable(0.5, dtype=tf.float64)
    with tf.GradientTape() as tape:
        z = w
        for _ in range(5000):
            z = tf.sin(z)
    assert 5000 > sys.getrecursionlimit() and tape.gradient(z, w) is not None
    assert "RecursionError" in c.stdout("no-recursion-code")


@claim("l07.float32-default", "07", BOTH, "a Python float becomes float32 in a tf.Variable")
def _(c):
    assert c.tf.Variable(1.5).dtype == c.tf.float32


@claim("l07.draw", "07", MINITAPE,
       "minitape draws what its tape recorded: Mul, Sin and AddV2 on the values of Step 2")
def _(c):
    from minitape.debugging import draw

    tf = c.tf
    x, y = tf.Variable(0.5), tf.Variable(1.5)
    with tf.GradientTape() as tape:
        f = x * y + tf.sin(x)
    text = draw(tape).text
    assert "3 operations recorded" in text and all(op in text for op in ("Mul(", "Sin(", "AddV2("))


@claim("l07.op-names", "07", TENSORFLOW, "TensorFlow names those operations Mul, Sin and AddV2")
def _(c):
    assert all(hasattr(c.tf.raw_ops, name) for name in ("Mul", "Sin", "AddV2"))


@claim("l07.stepper", "07", MINITAPE,
       "minitape's stepper runs its backward pass one operation at a time")
def _(c):
    cell = c.cell("stepper-code")
    assert cell["tf"] == "course" and cell["display"]["type"] == "Stepper"


@claim("l07.stepper-order", "07", MINITAPE,
       "minitape schedules an operation when all users of its output have contributed; our tape "
       "walks its records backwards; both orders end with the same gradients")
def _(c):
    from minitape.debugging import backward_steps

    tf = c.tf
    x, y = tf.Variable(0.5), tf.Variable(1.5)
    with tf.GradientTape(persistent=True) as tape:
        f = x * y + tf.sin(x)
    ops = [s.op for s in backward_steps(tape, f, [x, y]) if s.op]
    assert ops[0] == "AddV2" and sorted(ops[1:]) == ["Mul", "Sin"], ops
    ours = c.env["our_gradients"](lambda a, b, m: a * b + m.sin(a), 0.5, 1.5)
    theirs = tape.gradient(f, [x, y])
    assert np.allclose([float(v) for v in ours], [float(v) for v in theirs])


@claim("l07.grader-minitape", "07", MINITAPE,
       "the grader compares lesson 7's answers with the gradients of minitape's tf.GradientTape")
def _(c):
    import inspect

    from grader.student.registry import get

    for ex_id in ("l07_ex1", "l07_ex3", "l07_ex4"):
        source = inspect.getsource(get(ex_id).reference)
        assert "GradientTape" in source, ex_id


@claim("l07.registry-by-name", "07", BOTH,
       "the gradient function is looked up by the operation's name: Mul has one registered "
       "(a second registration is refused)")
def _(c):
    import pytest

    with pytest.raises(KeyError):
        c.tf.RegisterGradient("Mul")(lambda op, upstream: (upstream, upstream))


@claim("l07.own-tape-only", "07", MINITAPE,
       "the network trains on our Tape alone: nothing of minitape's records its gradients")
def _(c):
    tf = c.tf
    original = tf.GradientTape.__enter__

    def refuse(self):
        raise AssertionError("minitape's tape was used")

    tf.GradientTape.__enter__ = refuse
    try:
        values = c.env["init_params"](np.random.default_rng(1))
        result = c.env["train_losses"](values, c.env["X"], c.env["Y"], 0.5, 2)
    finally:
        tf.GradientTape.__enter__ = original
    assert len(result[0]) == 2


@claim("l07.relu-at-zero", "07", BOTH, "the ReLU's derivative at 0 is taken as 0")
def _(c):
    tf = c.tf
    x = tf.Variable(0.0)
    with tf.GradientTape() as tape:
        y = tf.nn.relu(x)
    assert float(tape.gradient(y, x)) == 0.0


@claim("l07.xor-data", "07", BOTH,
       "XOR: four clouds of 8 points around (±1, ±1), made with NumPy, labels +1 where x1 and x2 "
       "have the same sign")
def _(c):
    X, Y = np.asarray(c.env["X"]), np.asarray(c.env["Y"])
    assert X.shape == (32, 2) and sorted(set(Y.tolist())) == [-1.0, 1.0]
    assert "np.random.default_rng" in _lesson_source("07", "xor-code")


@claim("l07.kit-code", "07", BOTH,
       "score and hinge_loss run on our Values and on tf.Variables alike, with the same gradients")
def _(c):
    assert _largest(c.stdout("payoff-check-code")) < 1e-12


@claim("l07.kit-swap", "07", BOTH,
       "the same training loop gives the same loss curve on our tape and on tf.GradientTape")
def _(c):
    assert _largest(c.stdout("swap-code")) < 1e-12


@claim("l07.tensor-tape", "07", BOTH,
       "the reverse loop for whole arrays is the same; matmul's and broadcasting's VJPs in NumPy "
       "give the engine's gradients")
def _(c):
    out = c.stdout("tensor-tape-code")
    assert out.count("\n") == 3 and _largest(out) < 1e-12, out


@claim("l07.ex6-input", "07", MINITAPE, "exercise 6's grad is a NumPy array and shape a tuple")
def _(c):
    from grader.student.registry import get

    ex = get("l07_ex6")
    for case in ex.visible + ex.hidden:
        grad, shape = case.make(np.random.default_rng(0)).args
        assert isinstance(grad, np.ndarray) and isinstance(shape, tuple)


@claim("l07.unbroadcast-minitape", "07", MINITAPE,
       "minitape sums every broadcast gradient back to its input's shape in one place")
def _(c):
    import minitape._ops as ops

    tf = c.tf
    assert callable(ops.unbroadcast)  # the one helper every broadcasting rule's gradient goes through
    a = tf.Variable(np.ones((3, 1)))
    b = tf.Variable(np.ones((4,)))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum((a + b) * np.arange(12.0).reshape(3, 4))
    ga, gb = tape.gradient(y, [a, b])
    weights = np.arange(12.0).reshape(3, 4)
    assert np.allclose(ga.numpy(), weights.sum(axis=1, keepdims=True)) and np.allclose(gb.numpy(), weights.sum(axis=0))


@claim("l07.clipnorm", "07", TENSORFLOW,
       "an optimizer's global_clipnorm clips all gradients by their joint norm; clipnorm each on its own")
def _(c):
    tf = c.tf

    def step(**clip):
        a, b = tf.Variable([0.0, 0.0]), tf.Variable([0.0])
        tf.keras.optimizers.SGD(learning_rate=1.0, **clip).apply_gradients(
            [(tf.constant([3.0, 4.0]), a), (tf.constant([0.5]), b)])
        return a.numpy(), b.numpy()

    a, b = step(clipnorm=1.0)
    assert np.allclose(a, [-0.6, -0.8]) and np.allclose(b, [-0.5])  # each by its own norm
    a, b = step(global_clipnorm=1.0)
    joint = np.sqrt(25.0 + 0.25)
    assert np.allclose(a, [-3 / joint, -4 / joint]) and np.allclose(b, [-0.5 / joint])


@claim("l07.figure-errors", "07", BOTH,
       "the best finite differences at x = 1 reach about 1e-9 (forward) and 1e-12 (central)")
def _(c):
    forward, central = min(c.env["forward_err"]), min(c.env["central_err"])
    assert 2e-10 < forward < 6e-9 and 3e-13 < central < 6e-12, (forward, central)


@claim("l07.figure-dotted", "07", BOTH, "float64's rounding is the dotted line of the figure")
def _(c):
    figure = c.figure("figure-code")
    (rounding,) = [line for line in figure["lines"] if line["label"].startswith("float64 rounding")]
    assert rounding["linestyle"] == ":"


@claim("l07.eager-tape", "07", TENSORFLOW, "the tape is the heart of TensorFlow's eager mode")
def _(c):
    assert c.tf.executing_eagerly() and hasattr(c.tf, "GradientTape")


@claim("l07.tf-adds", "07", TENSORFLOW,
       "around it TensorFlow adds tf.function (traced once per kind of input, Python side effects "
       "only while tracing), Model.fit, and tf.saved_model.save")
def _(c):
    tf = c.tf
    printed = []

    @tf.function
    def f(x):
        printed.append(1)
        return x * 2.0

    f(tf.constant(1.0))
    f(tf.constant(2.0))
    assert len(printed) == 1
    f(tf.constant([1.0, 2.0]))  # a new kind of input: traced again
    assert len(printed) == 2
    assert callable(tf.keras.Model.fit) and callable(tf.saved_model.save)
