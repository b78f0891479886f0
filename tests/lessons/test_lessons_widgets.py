"""The shared notebook helpers: derivatives come from minitape's tape, labels from the catalog."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from lessons.i18n import set_language, t  # noqa: E402


@pytest.fixture(autouse=True)
def spanish():
    set_language("es")
    yield
    set_language(None)


def test_tangent_at_uses_the_tape():
    import minitape as tf
    from lessons.widgets import tangent_at

    value, slope = tangent_at(lambda x: x**3 - 3 * x, 1.5)
    assert value == pytest.approx(1.5**3 - 4.5)
    assert slope == pytest.approx(3 * 1.5**2 - 3)
    value, slope = tangent_at(tf.math.sin, 0.3)
    assert (value, slope) == (pytest.approx(np.sin(0.3)), pytest.approx(np.cos(0.3)))


def test_derivative_curve_one_backward_pass():
    import minitape as tf
    from lessons.widgets import derivative_curve

    xs = np.linspace(-2, 2, 41)
    ys, dys = derivative_curve(lambda x: x * tf.math.sin(x), xs)
    assert ys.shape == dys.shape == xs.shape
    np.testing.assert_allclose(ys, xs * np.sin(xs), rtol=1e-10)
    np.testing.assert_allclose(dys, np.sin(xs) + xs * np.cos(xs), rtol=1e-10, atol=1e-12)


def test_disconnected_function_is_a_clear_error():
    import minitape as tf
    from lessons.widgets import derivative_curve

    with pytest.raises(ValueError, match="no depende de x"):  # in the notebook's language (es)
        derivative_curve(lambda x: tf.constant(np.ones(3)), np.zeros(3))


@pytest.mark.parametrize("lang, none_text, range_text", [
    ("en", "does not depend on x", "low < high"),
    ("es", "no depende de x", "mínimo < máximo"),
    ("pt", "não depende de x", "mínimo < máximo"),
    ("ru", r"не\sзависит от\sx", "нижняя < верхней"),
])
def test_widget_errors_speak_the_notebook_language(lang, none_text, range_text):
    import minitape as tf
    from lessons.widgets import tangent_at, tangent_explorer

    set_language(lang)
    with pytest.raises(ValueError, match=none_text):
        tangent_at(lambda x: tf.constant(1.0), 0.5)
    with pytest.raises(ValueError, match=range_text):
        tangent_explorer(lambda x: x, x_range=(2, 1))


def test_plot_labels_come_from_the_catalog():
    from lessons.widgets import plot_function_and_derivative

    fig = plot_function_and_derivative(lambda x: x**2, x_range=(-1, 1), num=11)
    ax = fig.axes[0]
    assert ax.get_title() == "Una función y su derivada"
    assert [line.get_label() for line in ax.get_lines()][:2] == ["f(x)", t("plot.derivative")]
    np.testing.assert_allclose(ax.get_lines()[1].get_ydata(), 2 * np.linspace(-1, 1, 11), atol=1e-12)
    import matplotlib.pyplot as plt

    plt.close(fig)


def test_tangent_explorer_follows_the_slider():
    from lessons.widgets import tangent_explorer

    explorer = tangent_explorer(lambda x: x**3 - 3 * x, x_range=(-2.5, 2.5), x0=1.5)
    assert explorer.slider.description == "punto x"
    assert explorer.slope == pytest.approx(3.75)
    assert "pendiente" in explorer.readout.value and "3,75" in explorer.readout.value  # a decimal comma
    first_png = bytes(explorer.image.value)
    assert first_png.startswith(b"\x89PNG")
    explorer.slider.value = 1.0  # what a student's drag does
    assert explorer.x0 == 1.0 and explorer.slope == pytest.approx(0.0, abs=1e-12)
    assert "f(1,00) = -2" in explorer.readout.value
    assert bytes(explorer.image.value) != first_png
    with pytest.raises(ValueError, match="mínimo < máximo"):
        tangent_explorer(lambda x: x, x_range=(1, 1))


@pytest.mark.parametrize("lang, slope_word, exercise_word", [
    ("en", "slope", "Exercise"), ("es", "pendiente", "Ejercicio"),
    ("pt", "inclinação", "Exercício"), ("ru", "наклон", "Упражнение"),
])
def test_lesson_1s_readout_and_report_title_speak_every_language(lang, slope_word, exercise_word):
    """What lesson 1's kernel run checks in the one language it runs in (test_lessons_execute.py),
    here in all four: the tangent explorer's readout and the grader's report title."""
    from grader.i18n import t as grader_t
    from lessons.widgets import tangent_explorer

    set_language(lang)
    explorer = tangent_explorer(lambda x: x**3 - 3 * x, x_range=(-2.5, 2.5), x0=1.5)
    assert slope_word in explorer.readout.value
    # the readout's numbers in the language's decimal mark (issue 38: one separator per page)
    point = "1.50" if lang == "en" else "1,50"
    assert f"f({point}) = " in explorer.readout.value and "1.5" not in explorer.readout.value.replace(point, "")
    assert grader_t("report.title", lang, exercise="l01_ex1").startswith(exercise_word)


# Lesson 5's Newton explorer (lessons.widgets.newton_explorer): the lesson passes its own f and
# its own two methods; the helper draws them and names where each ends, with f' and f'' from tapes.
def _f(x):
    return x**4 / 4 - x**2 + x / 2


def _newton(x0, steps=8):
    import minitape as tf

    x = tf.Variable(float(x0), dtype=tf.float64)
    path = [float(x0)]
    for _ in range(steps):
        with tf.GradientTape() as outer:
            with tf.GradientTape() as inner:
                y = _f(x)
            dy = inner.gradient(y, x)
        x.assign_sub(dy / outer.gradient(dy, x))
        path.append(float(x.numpy()))
    return np.array(path)


def _descent(x0, steps=8, lr=0.1):
    import minitape as tf

    x = tf.Variable(float(x0), dtype=tf.float64)
    path = [float(x0)]
    for _ in range(steps):
        with tf.GradientTape() as tape:
            y = _f(x)
        x.assign_sub(lr * tape.gradient(y, x))
        path.append(float(x.numpy()))
    return np.array(path)


def test_curvature_at_uses_nested_tapes():
    from lessons.widgets import curvature_at

    d1, d2 = curvature_at(_f, 1.5)
    assert d1 == pytest.approx(1.5**3 - 2 * 1.5 + 0.5) and d2 == pytest.approx(3 * 1.5**2 - 2)
    import minitape as tf

    with pytest.raises(ValueError, match="no depende de x"):
        curvature_at(lambda x: tf.constant(3.0), 1.0)


def test_newton_explorer_follows_the_slider_and_names_the_end_points():
    from lessons.widgets import newton_explorer

    explorer = newton_explorer(_f, newton=_newton, descent=_descent, x_range=(-2.5, 2.5), x0=2.0,
                               ylim=(-2.5, 3.0))
    assert explorer.slider.description == t("l05.newton.slider") == "punto de partida x₀"
    assert len(explorer.paths["newton"]) == 7 and explorer.paths["newton"][0] == 2.0
    assert explorer.ends["newton"]["kind"] == "min" and explorer.ends["newton"]["d2"] > 0
    assert abs(explorer.ends["newton"]["d1"]) < 1e-4
    assert "Tras 6 pasos" in explorer.readout.value and "un mínimo" in explorer.readout.value
    first_png = bytes(explorer.image.value)
    assert first_png.startswith(b"\x89PNG")
    explorer.slider.value = 0.0  # between the inflection points: Newton's method climbs to a maximum
    x_end = explorer.ends["newton"]["x"]
    assert explorer.x0 == 0.0 and explorer.ends["newton"]["kind"] == "max"
    assert x_end == pytest.approx(0.2587, abs=1e-3) and explorer.ends["newton"]["d2"] < 0
    # the readout writes its numbers as the Spanish prose does: a decimal comma, values apart by ";"
    assert "¡un máximo!" in explorer.readout.value
    assert f"x = {x_end:.4f}".replace(".", ",") + "; f′(x) = " in explorer.readout.value
    assert explorer.ends["descent"]["kind"] in {"min", "moving"}  # descent never climbs
    assert bytes(explorer.image.value) != first_png
    with pytest.raises(ValueError, match="mínimo < máximo"):
        newton_explorer(_f, _newton, _descent, x_range=(2, -2))


def test_newton_explorer_reports_a_diverged_start():
    from lessons.widgets import NewtonExplorer

    explorer = NewtonExplorer(_f, newton=lambda x0, steps: np.array([x0, np.inf]), descent=_descent, x0=1.0)
    assert explorer.ends["newton"] == {"x": np.inf, "kind": "diverged"}
    assert "x = ∞" in explorer.readout.value
