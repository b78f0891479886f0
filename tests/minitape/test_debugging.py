"""minitape.debugging: draw (tape as a graph), stepper (backward pass step by step), why_none."""
from __future__ import annotations

import warnings
import re
import string
import subprocess
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import minitape as tf
from minitape import debugging as dbg
from minitape.debugging import backward_steps, draw, stepper, why_none

SVG = "{http://www.w3.org/2000/svg}"


def _close(a, b):
    return np.allclose(np.asarray(a), np.asarray(b))


# ------------------------------------------------------------------------------------------
# import cost: optional GUI libraries stay out of `import minitape`
# ------------------------------------------------------------------------------------------

def test_import_minitape_does_not_import_widgets_or_matplotlib():
    code = ("import sys, minitape\n"
            "bad = [m for m in ('ipywidgets', 'matplotlib', 'IPython', 'minitape.debugging') "
            "if m in sys.modules]\n"
            "assert not bad, bad\n"
            "import minitape.debugging\n"
            "d = minitape.debugging\n"
            "bad = [m for m in ('ipywidgets', 'matplotlib') if m in sys.modules]\n"
            "assert not bad, bad\n"
            "assert minitape.debugging is sys.modules['minitape.debugging']\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_debugging_is_reachable_as_an_attribute():
    import minitape
    assert minitape.debugging.draw is draw


def test_plain_float_ops_leave_no_debugging_notes():
    """The notes are taken only off the hot path: ordinary recorded ops write none."""
    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = x
        for _ in range(20):
            y = tf.sin(y) * 1.5 + x
    assert tape._notes is None
    assert tape.gradient(y, x) is not None


# ------------------------------------------------------------------------------------------
# draw
# ------------------------------------------------------------------------------------------

def _lesson_tape():
    x = tf.Variable(3.0)
    with tf.GradientTape(persistent=True) as tape:
        y = x ** 2 + 2 * x
    return tape, x, y


def _rects(svg):
    root = ET.fromstring(svg)
    out = []
    for g in root.iter(SVG + "g"):
        r = g.find(SVG + "rect")
        if r is not None:
            out.append((g.get("class"), float(r.get("x")), float(r.get("y")),
                        float(r.get("width")), float(r.get("height")), r))
    return root, out


def test_draw_shows_tensors_values_shapes_and_operations():
    tape, x, y = _lesson_tape()
    d = draw(tape)
    svg = d._repr_svg_()
    root, rects = _rects(svg)          # well-formed XML
    assert root.tag == SVG + "svg"
    texts = [t.text for t in root.iter(SVG + "text")]
    for label in ("x", "y", "3.0", "15.0", "9.0", "6.0", "Pow", "Mul", "AddV2", "() float32"):
        assert label in texts, (label, texts)
    # the watched source is highlighted (orange), the result is the target (green)
    by_class = {c: r for c, *_, r in rects}
    assert by_class["mt-tensor mt-source"].get("fill") == "#ffe3b3"
    assert by_class["mt-tensor mt-target"].get("fill") == "#cdeccf"
    assert len([c for c, *_ in rects if c.startswith("mt-op")]) == 3
    # one edge per (distinct input -> op) and per (op -> output)
    assert len(root.findall(f"{SVG}path")) == 2 + 2 + 2 + 3
    assert "<svg" in d._repr_html_()


def test_draw_text_form_reads_like_the_program():
    tape, x, y = _lesson_tape()
    text = str(draw(tape))
    assert "3 operations" in text
    assert re.search(r"x\s+-> 3\.0\s+\(\) float32\s+\[watched source\]", text)
    assert re.search(r"t1 = Pow\(x, 2\.0\)\s+-> 9\.0", text)
    assert re.search(r"y\s+= AddV2\(t1, t2\)\s+-> 15\.0 .*\[target\]", text)
    assert repr(draw(tape)) == text


def test_draw_nodes_do_not_overlap():
    w = tf.Variable([[1., 2.], [3., 4.]], name="w")
    b = tf.Variable([0.5, -0.5], name="b")
    xx = tf.constant([[1., -1.]])
    with tf.GradientTape(persistent=True) as tape:
        h = tf.nn.relu(xx @ w + b)
        z = tf.reduce_sum(h * 2.0) + tf.reduce_sum(w ** 2) * 0.01 + tf.reduce_mean(h)
    for direction in ("TB", "LR"):
        _, rects = _rects(draw(tape, direction=direction).svg)
        assert len(rects) >= 15
        for i, (_, x1, y1, w1, h1, _r) in enumerate(rects):
            for (_, x2, y2, w2, h2, _r2) in rects[i + 1:]:
                overlap = x1 < x2 + w2 and x2 < x1 + w1 and y1 < y2 + h2 and y2 < y1 + h1
                assert not overlap, (direction, (x1, y1, w1, h1), (x2, y2, w2, h2))


def test_draw_between_target_and_sources_keeps_only_that_part():
    x = tf.Variable(1.0, name="x")
    v = tf.Variable(2.0, name="v")
    with tf.GradientTape(persistent=True) as tape:
        a = tf.sin(x)
        b = tf.exp(v)
        y = a * 3.0
        z = b + y
    full = str(draw(tape))
    assert "Exp" in full and "Sin" in full
    part = str(draw(tape, target=y, sources=[x]))
    assert "Sin" in part and "Mul" in part
    assert "Exp" not in part and "AddV2" not in part
    only_target = str(draw(tape, target=b))
    assert "Exp" in only_target and "Sin" not in only_target


def test_draw_names_values_and_roles():
    c = tf.Variable(2.0, trainable=False, name="c")
    x = tf.constant([1.0, -2.0, 3.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        r = tf.nn.relu(x)         # relu keeps only a mask: the value comes from the name `r`
        out = tf.reduce_sum(r * c)
    d = draw(tape, names={"inputs": x})
    text = str(d)
    assert "inputs" in text and "[watched source]" in text
    assert re.search(r"r\s+= Relu\(inputs\)\s+-> \[1\. 0\. 3\.\]", text)
    assert re.search(r"c\s+-> 2\.0 .*\[not watched\]", text)
    root, rects = _rects(d.svg)
    assert any(cls == "mt-tensor mt-variable" for cls, *_ in rects)


def test_draw_works_before_and_after_gradient_on_a_non_persistent_tape():
    x = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = x * x
    before = str(draw(tape))
    assert "9.0" in before and "Mul" in before
    tape.gradient(y, x)
    with pytest.raises(ValueError, match="before calling gradient"):
        draw(tape)


def test_draw_long_tape_is_cut_to_the_last_operations():
    x = tf.Variable(1.0)
    with tf.GradientTape(persistent=True) as tape:
        y = x
        for _ in range(100):
            y = y * 1.001
    d = draw(tape, max_ops=10)
    assert "100 operations" in str(d) and "showing the last 10" in str(d)
    _, rects = _rects(d.svg)
    assert len([c for c, *_ in rects if c.startswith("mt-op")]) == 10


def test_draw_each_drawing_has_its_own_marker_ids_and_localized_legend():
    tape, x, y = _lesson_tape()
    a, b = draw(tape).svg, draw(tape, lang="ru").svg
    ids = lambda s: set(re.findall(r'id="([^"]+)"', s))  # noqa: E731
    assert ids(a) and not ids(a) & ids(b)
    assert "отслеживаемый источник" in b
    assert "fuente observada" in draw(tape, lang="es").svg


def test_draw_rejects_bad_arguments():
    tape, x, y = _lesson_tape()
    with pytest.raises(TypeError, match="GradientTape"):
        draw(object())
    with pytest.raises(ValueError, match="direction"):
        draw(tape, direction="up").svg
    with pytest.raises(TypeError, match="target"):
        draw(tape, target=3.0)
    with pytest.raises(ValueError, match="unsupported language"):
        draw(tape, lang="fr")


def test_draw_save_writes_an_svg_file(tmp_path):
    tape, x, y = _lesson_tape()
    p = draw(tape).save(tmp_path / "tape.svg")
    assert ET.parse(p).getroot().tag == SVG + "svg"


# ------------------------------------------------------------------------------------------
# stepper and backward_steps
# ------------------------------------------------------------------------------------------

def _graphs():
    """(name, build) pairs: build() returns (tape, target, sources) on a persistent tape."""
    def shared():
        x = tf.Variable(3.0)
        w = tf.Variable(2.0)
        with tf.GradientTape(persistent=True) as tape:
            u = x * w
            y = u * u + x
        return tape, y, [x, w]

    def broadcast():
        x = tf.Variable([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
        b = tf.Variable([0.1, 0.2, 0.3])
        s = tf.Variable(0.5)
        with tf.GradientTape(persistent=True) as tape:
            y = tf.reduce_sum(tf.tanh(x * s + b) ** 2)
        return tape, y, {"x": x, "b": b, "s": s}

    def mlp():
        tf.random.set_seed(3)
        layer = tf.keras.layers.Dense(3, activation="relu")
        out = tf.keras.layers.Dense(1)
        x = tf.constant([[1.0, -2.0], [0.5, 0.25]])
        with tf.GradientTape(persistent=True) as tape:
            loss = tf.reduce_mean((out(layer(x)) - 1.0) ** 2)
        return tape, loss, layer.trainable_variables + out.trainable_variables

    def several_targets():
        x = tf.Variable([1.0, 2.0])
        with tf.GradientTape(persistent=True) as tape:
            a = tf.exp(x)
            b = tf.reduce_sum(a * x)
        return tape, [a, b], x

    return [("shared", shared), ("broadcast", broadcast), ("mlp", mlp),
            ("several_targets", several_targets)]


@pytest.mark.parametrize("name,build", _graphs(), ids=[n for n, _ in _graphs()])
def test_stepper_ends_at_tape_gradient(name, build):
    tape, target, sources = build()
    expected = tape.gradient(target, sources)
    s = stepper(tape, target, sources)
    got = s.result
    flat_e, flat_g = tf.nest.flatten(expected), tf.nest.flatten(got)
    assert len(flat_e) == len(flat_g)
    for e, g in zip(flat_e, flat_g):
        assert g.shape == e.shape and _close(g, e)
    # the last step's accumulated gradients are the same tensors' values
    last = s.steps[-1]
    for src, e in zip(tf.nest.flatten(sources), flat_e):
        assert _close(last.grads[src._id], e)


def test_backward_steps_follow_the_tapes_schedule():
    x = tf.Variable(3.0)
    w = tf.Variable(2.0)
    with tf.GradientTape(persistent=True) as tape:
        u = x * w
        y = u * u + x
    gen = backward_steps(tape, y, [x, w])
    steps = []
    try:
        while True:
            steps.append(next(gen))
    except StopIteration as stop:
        result = stop.value
    assert [s.op for s in steps] == [None, "AddV2", "Mul", "Mul"]
    seed, add, square, mul = steps
    assert _close(seed.grads[y._id], 1.0)
    assert _close(add.contributions[x._id], 1.0)          # y = u*u + x: dy/dx partial = 1
    assert _close(square.grad_out, 1.0) and _close(square.contributions[u._id], 12.0)
    assert _close(mul.contributions[x._id], 24.0) and _close(mul.contributions[w._id], 36.0)
    # x collects from two operations: 1 after AddV2, 25 at the end
    assert _close(add.grads[x._id], 1.0) and _close(mul.grads[x._id], 25.0)
    assert y._id in seed.complete                          # the seed is final at once
    assert u._id in square.complete and x._id not in square.complete
    assert {x._id, w._id} <= mul.complete
    assert _close(result[0], 25.0) and _close(result[1], 36.0)


def test_stepper_navigation_and_text():
    x = tf.Variable(3.0)
    with tf.GradientTape(persistent=True) as tape:
        y = tf.sin(x) * x
    s = stepper(tape, y, x)
    assert len(s) == 3 and s.position == 0
    assert "seed" in str(s)
    s.next()
    assert s.position == 1 and "▶ Mul" in str(s) and "y = Mul(t1, x)" in s.caption()
    s.next().next().next()              # stops at the end
    assert s.done and s.position == 2 and "done" in s.caption()
    s.back()
    assert s.position == 1
    s.reset()
    assert s.position == 0
    s.goto(2)
    assert s.step.op == "Sin"
    with pytest.raises(IndexError):
        s.goto(3)
    assert _close(s.result, np.sin(3.0) + 3.0 * np.cos(3.0))


def test_stepper_on_a_non_persistent_tape_before_gradient_leaves_the_tape_usable():
    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = x ** 3
        s = stepper(tape, y, x)         # inside the context: nothing is added to the tape
        n = len(tape._entries)
    assert len(tape._entries) == n == 1
    assert _close(s.result, 12.0)
    assert _close(tape.gradient(y, x), 12.0)
    with pytest.raises(RuntimeError, match="persistent=True"):
        stepper(tape, y, x)


def test_stepper_widget_buttons_and_slider():
    pytest.importorskip("ipywidgets")
    x = tf.Variable(3.0)
    w = tf.Variable(2.0)
    with tf.GradientTape(persistent=True) as tape:
        y = (x * w) ** 2
    s = stepper(tape, y, [x, w], lang="es")
    box = s.widget()
    (b_reset, b_back, b_next, slider), label, picture, table = (
        box.children[0].children, box.children[1], box.children[2], box.children[3])
    assert b_next.description == "Siguiente" and b_back.disabled
    b_next.click()
    assert s.position == 1 and slider.value == 1 and "Pow" in label.value
    assert "mt-current" in picture.value and "<svg" in picture.value
    slider.value = 2
    assert s.position == 2 and b_next.disabled
    assert "36.0" in table.value and "24.0" in table.value   # d/dw = 2*(xw)*x, d/dx = 2*(xw)*w
    b_reset.click()
    assert s.position == 0 and slider.value == 0
    assert s.widget() is box


def test_stepper_highlights_the_current_operation_in_the_drawing():
    x = tf.Variable(1.5)
    with tf.GradientTape(persistent=True) as tape:
        y = tf.exp(x) + x
    s = stepper(tape, y, x)
    s.goto(1)
    root = ET.fromstring(s.drawing().svg)
    current = [g for g in root.iter(SVG + "g") if g.get("class") == "mt-op mt-current"]
    assert len(current) == 1 and current[0].find(SVG + "text").text == "AddV2"
    assert "grad = 1.0" in s.drawing().svg


# ------------------------------------------------------------------------------------------
# why_none: every None case of TensorFlow's guide, and more
# ------------------------------------------------------------------------------------------

def test_why_none_guide_unconnected():
    x = tf.Variable(2.)
    y = tf.Variable(3.)
    with tf.GradientTape() as tape:
        z = y * y
    assert tape.gradient(z, x) is None
    w = why_none(tape, z, x)
    assert w.reason == "unconnected" and bool(w)
    assert "the target was not computed from this source" in w.message


def test_why_none_guide_variable_replaced_by_tensor():
    x = tf.Variable(2.0)
    reasons = []
    for epoch in range(2):
        with tf.GradientTape() as tape:
            y = x + 1
        g = tape.gradient(y, x)
        reasons.append((type(x).__name__, g is None, why_none(tape, y, x, name="x").reason))
        x = x + 1   # This should be `x.assign_add(1)`
    assert reasons == [("ResourceVariable", False, "has_gradient"),
                       ("EagerTensor", True, "variable_replaced")]  # the guide's printout


def test_why_none_variable_replaced_message_names_the_fix():
    x = tf.Variable(2.0, name="x")
    x = x - 0.5
    with tf.GradientTape() as tape:
        y = x * 2
    w = why_none(tape, y, x, name="x")
    assert w.reason == "variable_replaced"
    assert "`-`" in w.message and "x.assign_add(...)" in w.message


def test_why_none_guide_calculation_outside_tensorflow_numpy():
    x = tf.Variable([[1.0, 2.0],
                     [3.0, 4.0]], dtype=tf.float32)
    with tf.GradientTape() as tape:
        x2 = x**2
        # This step is calculated with NumPy
        y = np.mean(x2, axis=0)
        y = tf.reduce_mean(y, axis=0)
    assert tape.gradient(y, x) is None
    w = why_none(tape, y, x)
    assert w.reason == "numpy"
    assert w.details["call"] == "np.mean"
    assert "y = np.mean(x2, axis=0)" in w.message and "tf.reduce_mean" in w.message


def test_why_none_numpy_method_and_float():
    x = tf.Variable(2.0)
    with tf.GradientTape(persistent=True) as tape:
        a = tf.constant(x.numpy() ** 2)
        b = tf.constant(float(x * 3.0))
        c = tf.constant(np.sin(x))
    assert why_none(tape, a, x).details["call"] == "numpy"
    assert "`.numpy()`" in why_none(tape, a, x).message
    assert why_none(tape, b, x).details["call"] == "float"
    w = why_none(tape, c, x)
    assert w.reason == "numpy" and w.details["call"] == "np.sin" and "tf.sin" in w.message


def test_why_none_guide_integer_gradients():
    # The x0 variable has an `int` dtype.
    x = tf.Variable([[2, 2],
                     [2, 2]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # TF 2.21 is silent here: why_none is how to find out
        with tf.GradientTape() as tape:
            # The path to x1 is blocked by the `int` dtype here.
            y = tf.cast(x, tf.float32)
            y = tf.reduce_sum(x)
        assert tape.gradient(y, x) is None
    w = why_none(tape, y, x)
    assert w.reason == "integer" and w.details["dtype"] == "int32" and "int32" in w.message


def test_why_none_integer_target_and_integer_cast():
    x = tf.Variable(2.5)
    with tf.GradientTape(persistent=True) as tape:
        k = tf.cast(x, tf.int32)
        z = tf.cast(k, tf.float32) * 2.0
    assert why_none(tape, k, x).reason == "integer_target"
    assert tape.gradient(z, x) is None
    w = why_none(tape, z, x)
    assert w.reason == "integer_cast" and w.details["op"] == "tf.cast"


def test_why_none_guide_stateful_assign_add():
    x0 = tf.Variable(3.0)
    x1 = tf.Variable(0.0)
    with tf.GradientTape() as tape:
        # Update x1 = x1 + x0.
        x1.assign_add(x0)
        # The tape starts recording from x1.
        y = x1**2   # y = (x1 + x0)**2
    assert tape.gradient(y, x0) is None
    w = why_none(tape, y, x0)
    assert w.reason == "assign" and "assign_add" in w.message
    # the gradient with respect to x1 itself is fine
    assert why_none(tape, y, x1).reason == "has_gradient"


def test_why_none_assign_of_a_computed_value():
    x = tf.Variable(2.0)
    total = tf.Variable(0.0)
    with tf.GradientTape() as tape:
        total.assign(x ** 3 - 2 * x)
        y = total * 1.0
    assert tape.gradient(y, x) is None
    assert why_none(tape, y, x).reason == "assign"


def test_why_none_guide_watches_trainable_non_trainable_tensor_constant():
    # A trainable variable
    x0 = tf.Variable(3.0, name='x0')
    # Not trainable
    x1 = tf.Variable(3.0, name='x1', trainable=False)
    # Not a Variable: A variable + tensor returns a tensor.
    x2 = tf.Variable(2.0, name='x2') + 1.0
    # Not a variable
    x3 = tf.constant(3.0, name='x3')
    with tf.GradientTape() as tape:
        y = (x0**2) + (x1**2) + (x2**2)
    grad = tape.gradient(y, [x0, x1, x2, x3])
    assert grad[0] is not None and grad[1:] == [None, None, None]
    answers = why_none(tape, y, [x0, x1, x2, x3])
    assert [a.reason for a in answers] == ["has_gradient", "not_trainable", "variable_replaced",
                                           "not_watched"]
    assert not answers[0] and answers[1].name == "x1"
    assert "`x1`" in answers[1].message and "trainable=False" in answers[1].message
    assert "Variable `x2`" in answers[2].message


def test_why_none_guide_control_flow():
    x = tf.constant(1.0)
    v0 = tf.Variable(2.0)
    v1 = tf.Variable(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        if x > 0.0:
            result = v0
        else:
            result = v1**2
    dv0, dv1 = tape.gradient(result, [v0, v1])
    assert dv1 is None and tape.gradient(result, x) is None
    w = why_none(tape, result, x)
    assert w.reason == "not_differentiable" and "comparison" in w.message
    assert why_none(tape, result, v1).reason == "unconnected"


def test_why_none_stop_gradient_and_not_differentiable_ops():
    x = tf.Variable([1.2, -0.7])
    with tf.GradientTape(persistent=True) as tape:
        a = tf.stop_gradient(x) * 3.0
        b = tf.round(x) * 2.0
    assert tape.gradient(a, x) is None and tape.gradient(b, x) is None
    wa, wb = why_none(tape, a, x), why_none(tape, b, x)
    assert wa.reason == wb.reason == "not_differentiable"
    assert "tf.stop_gradient" in wa.message and "tf.round" in wb.message


def test_why_none_unwatched_tensor_and_watch_accessed_variables_false():
    x = tf.constant(3.0)
    v = tf.Variable(1.0)
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        y = x * x + v
    assert tape.gradient(y, [x, v]) == [None, None]
    wx, wv = why_none(tape, y, [x, v])
    assert wx.reason == wv.reason == "not_watched"
    assert "tape.watch" in wx.message and "watch_accessed_variables=False" in wv.message


def test_why_none_has_gradient_before_and_after_gradient():
    x = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = x * x
    assert why_none(tape, y, x).reason == "has_gradient"      # before
    assert tape.gradient(y, x) is not None
    w = why_none(tape, y, x)                                    # after: recording freed
    assert w.reason == "has_gradient" and not w and w.has_gradient


def test_why_none_in_every_language_and_from_the_environment(monkeypatch):
    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        y = x * 2.0
    msgs = {lang: why_none(tape, y, x, lang=lang).message for lang in dbg.LANGUAGES}
    assert "plain Tensor" in msgs["en"]
    # the other languages name the tensor in their own words (issue 38: no "Tensor" inside a
    # Spanish, Portuguese or Russian sentence)
    assert "tensor normal" in msgs["es"]
    assert "tensor comum" in msgs["pt"]
    assert "обычный тензор" in msgs["ru"]
    assert len(set(msgs.values())) == 4
    monkeypatch.setenv("MINITAPE_LANG", "pt_BR")
    assert why_none(tape, y, x).lang == "pt"
    assert why_none(tape, y, x, lang="es-ES").lang == "es"
    with pytest.raises(ValueError, match="unsupported language"):
        why_none(tape, y, x, lang="de")


def test_why_none_message_catalog_is_complete_in_every_language():
    # the debugging catalog is key-major (course_lang.Catalog): why_none.<template> -> {lang: text}
    entries = dbg.CATALOG.entries()
    keys = {k.removeprefix("why_none.") for k in entries if k.startswith("why_none.")
            and not k.startswith("why_none.noun.")}
    fmt = string.Formatter()
    for lang in dbg.LANGUAGES:
        assert {k for k in keys if lang in entries[f"why_none.{k}"]} == keys, lang
        for k in keys:
            a = {f for _, f, _, _ in fmt.parse(entries[f"why_none.{k}"]["en"]) if f}
            b = {f for _, f, _, _ in fmt.parse(entries[f"why_none.{k}"][lang]) if f}
            # every language uses the facts English uses (nouns may be spelt out instead)
            assert a - {"src", "Src", "tgt", "Tgt"} <= b | {"src", "Src", "tgt", "Tgt"}, (lang, k)
    for reason in dbg.REASONS:
        assert reason in keys


def test_why_none_answers_render_for_students():
    x = tf.Variable(3.0, trainable=False, name="speed")
    with tf.GradientTape() as tape:
        y = x * 2.0
    w = why_none(tape, y, x, lang="ru", target_name="y")
    assert str(w) == w.message and "{" not in w.message
    assert "`speed`" in w.message and "trainable=False" in w.message
    assert w._repr_markdown_().startswith(w.message)
    assert "not_trainable" in repr(w)


def test_why_none_rejects_bad_arguments():
    x = tf.Variable(1.0)
    with tf.GradientTape() as tape:
        y = x * 2.0
    with pytest.raises(TypeError, match="GradientTape"):
        why_none("tape", y, x)
    with pytest.raises(TypeError, match="source"):
        why_none(tape, y, 3.0)


# ------------------------------------------------------------------------------------------
# the documentation shows what the code prints
# ------------------------------------------------------------------------------------------

def test_debugging_md_examples_print_what_the_guide_shows():
    from pathlib import Path
    doc = (Path(tf.__file__).parent / "DEBUGGING.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```(\w*)\n(.*?)```", doc, flags=re.S)
    shown_draw = next(b for lang, b in blocks if b.startswith("GradientTape: 3 operations"))
    shown_steps = next(b for lang, b in blocks if b.startswith("step 1/3"))
    x = tf.Variable(3.0)
    with tf.GradientTape(persistent=True) as tape:
        y = x**2 + 2 * x
    assert str(draw(tape)) + "\n" == shown_draw
    x, w = tf.Variable(3.0), tf.Variable(2.0)
    with tf.GradientTape(persistent=True) as tape:
        u = x * w
        y = u * u + x
    s = stepper(tape, y, [x, w])
    captions = [s.goto(k).caption() for k in range(1, len(s))]
    assert "\n".join(captions) + "\n" == shown_steps
    assert [float(g) for g in s.result] == [25.0, 36.0]
    x = tf.Variable(2.0)
    x = x + 1
    with tf.GradientTape() as tape:
        y = x * x
    assert tape.gradient(y, x) is None
    assert why_none(tape, y, x).reason == "variable_replaced"
    for reason in dbg.REASONS:
        assert f"| `{reason}` |" in doc


# ------------------------------------------------------------------------------------------
# edges
# ------------------------------------------------------------------------------------------

def test_edges_empty_tape_unconnected_stepper_custom_gradient_and_released_tape():
    empty = tf.GradientTape()
    with empty:
        pass
    assert "no operations" in str(draw(empty))
    ET.fromstring(draw(empty).svg)

    x = tf.Variable(1.0)
    v = tf.Variable(2.0)
    with tf.GradientTape(persistent=True) as tape:
        y = v * 2.0
    s = stepper(tape, y, x)              # x is not connected: only the seed, result None
    assert len(s) == 1 and s.result is None and s.done
    ET.fromstring(s.drawing().svg)

    @tf.custom_gradient
    def f(a):
        def grad(dy):
            return dy * 3.0
        return a * 2.0, grad

    with tf.GradientTape(persistent=True) as tape:
        z = f(x) + 1.0
    assert "f(x)" in str(draw(tape))
    assert _close(stepper(tape, z, x).result, tape.gradient(z, x)) and _close(tape.gradient(z, x), 3.0)

    with tf.GradientTape() as tj:
        q = tf.stack([x * 2.0, x * 3.0])
    tj.jacobian(q, x)                    # a non-persistent jacobian releases the recording
    with pytest.raises(ValueError, match="persistent=True"):
        why_none(tj, q, v)

    with tf.GradientTape() as t3:        # spent without notes: the answered call decides
        a = x * 2.0
        b = v * 3.0
    assert t3.gradient(a, [x, v])[1] is None
    assert [w.reason for w in why_none(t3, a, [x, v])] == ["has_gradient", "unconnected"]
    with pytest.raises(ValueError, match="same target"):
        why_none(t3, b, v)
    assert why_none(tj, q, tf.constant(1.0)).reason == "not_watched"  # needs no recording
    with pytest.raises(ValueError, match="persistent=True"):
        draw(tj)


def test_why_none_unconnected_names_a_result_made_before_the_tape():
    # lesson 3's snippet G: the source was used, but only before the `with` block (ru review #38)
    x = tf.Variable(2.0)
    z = tf.sin(x)
    with tf.GradientTape() as tape:
        y = z * z
    answer = why_none(tape, y, x, lang="en")
    assert answer.reason == "unconnected"
    assert "before the `with` block does not count" in answer.message
