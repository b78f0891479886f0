"""Lesson 6's exercises (training loops) tell right answers from the mistakes students make."""

from __future__ import annotations

import pytest

import minitape as tf
from grader import get_exercise
from grader.student.runner import run_exercise


@pytest.fixture(autouse=True)
def _english(monkeypatch):
    for var in ("MINITAPE_LANG", "JPY_SESSION_NAME", "NBGRADER_EXECUTION", "GRADER_SEED"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("MINITAPE_LANG", "en")


def graded(exercise_id, func, seed=11):
    ex = get_exercise(exercise_id)
    return run_exercise(ex, {ex.function: func}, include_hidden=True, seed=seed)


def mse(x, w, b, y):
    return tf.reduce_mean((x @ w + b - y) ** 2)


# ----- l06_ex1 / l06_ex2: gradient descent on a linear model ---------------------------------
def step_in_place(w, b, x, y, lr):
    with tf.GradientTape() as tape:
        loss = mse(x, w, b, y)
    dw, db = tape.gradient(loss, [w, b])
    w.assign_sub(lr * dw)
    b.assign_sub(lr * db)
    return [w, b]


def step_uphill(w, b, x, y, lr):
    with tf.GradientTape() as tape:
        loss = mse(x, w, b, y)
    dw, db = tape.gradient(loss, [w, b])
    w.assign_add(lr * dw)
    b.assign_add(lr * db)
    return [w, b]


def train_rebinding(w, b, x, y, lr, steps):
    losses = []
    for _ in range(steps):
        with tf.GradientTape() as tape:
            loss = mse(x, w, b, y)
        dw, db = tape.gradient(loss, [w, b])
        w = w - lr * dw  # the mistake the lesson shows: w becomes a Tensor
        b = b - lr * db
        losses.append(loss)
    return tf.stack(losses)


def train_losses_after_update(w, b, x, y, lr, steps):
    losses = []
    for _ in range(steps):
        with tf.GradientTape() as tape:
            loss = mse(x, w, b, y)
        dw, db = tape.gradient(loss, [w, b])
        w.assign_sub(lr * dw)
        b.assign_sub(lr * db)
        losses.append(mse(x, w, b, y))  # off by one step
    return tf.stack(losses)


def test_one_step_in_place_scores_full_points_and_uphill_scores_nothing():
    assert graded("l06_ex1", step_in_place).score == 2
    wrong = graded("l06_ex1", step_uphill)
    assert wrong.score == 0 and all(c.reason == "values" for c in wrong.checks)


def test_rebinding_the_variable_fails_every_check_with_the_none_gradient_error():
    result = graded("l06_ex2", train_rebinding)
    assert result.score == 0
    assert all(c.reason == "error" and "NoneType" in c.message for c in result.checks)


def test_losses_recorded_after_the_update_are_off_by_one_step():
    result = graded("l06_ex2", train_losses_after_update)
    assert result.score == 0 and all(c.reason == "values" for c in result.checks)


# ----- l06_ex3: clipping inside a training loop ------------------------------------------------
def unclipped_descent(w, b, x, y, lr, steps, clip_norm):
    losses = []
    for _ in range(steps):
        with tf.GradientTape() as tape:
            loss = mse(x, w, b, y)
        dw, db = tape.gradient(loss, [w, b])
        w.assign_sub(lr * dw)
        b.assign_sub(lr * db)
        losses.append(loss)
    return tf.stack(losses)


def clipped_jointly(w, b, x, y, lr, steps, clip_norm):
    """One norm for both gradients together (clip_by_global_norm), not each on its own."""
    losses = []
    for _ in range(steps):
        with tf.GradientTape() as tape:
            loss = mse(x, w, b, y)
        dw, db = tape.gradient(loss, [w, b])
        total = tf.sqrt(tf.reduce_sum(dw**2) + tf.reduce_sum(db**2))
        scale = tf.minimum(1.0, clip_norm / total)
        w.assign_sub(lr * dw * scale)
        b.assign_sub(lr * db * scale)
        losses.append(loss)
    return tf.stack(losses)


def clipped_by_hand(w, b, x, y, lr, steps, clip_norm):
    """Honest variety: the same clipping written out earns every point."""
    losses = []
    for _ in range(steps):
        with tf.GradientTape() as tape:
            loss = mse(x, w, b, y)
        for v, g in zip([w, b], tape.gradient(loss, [w, b])):
            norm = tf.sqrt(tf.reduce_sum(g * g))
            v.assign_sub(lr * g * tf.minimum(1.0, clip_norm / norm))
        losses.append(loss)
    return tf.stack(losses)


def test_clipping_mistakes_are_caught_and_variety_is_not():
    assert graded("l06_ex3", unclipped_descent).score == 0
    assert graded("l06_ex3", clipped_jointly).score == 0
    result = graded("l06_ex3", clipped_by_hand)
    assert result.score == result.points, result.text()


# ----- l06_ex4: mini-batches and an optimizer --------------------------------------------------
def full_batch(model, optimizer, x, y, batch_size, epochs):
    losses = []
    for _ in range(epochs):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((model(x) - y) ** 2)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        losses.append(loss)
    return tf.stack(losses)


def new_optimizer_every_step(model, optimizer, x, y, batch_size, epochs):
    losses = []
    for _ in range(epochs):
        for start in range(0, x.shape[0], batch_size):
            xb, yb = x[start:start + batch_size], y[start:start + batch_size]
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean((model(xb) - yb) ** 2)
            grads = tape.gradient(loss, model.trainable_variables)
            fresh = tf.keras.optimizers.Adam(learning_rate=0.05)  # forgets Adam's moments
            fresh.apply_gradients(zip(grads, model.trainable_variables))
            losses.append(loss)
    return tf.stack(losses)


def test_minibatch_mistakes_are_caught():
    result = graded("l06_ex4", full_batch)
    assert result.score == 0 and all(c.reason == "shape" for c in result.checks)
    # the first visible case uses Adam(learning_rate=0.05): a fresh optimizer per step
    # gives the same first loss, then different ones
    visible = run_exercise(get_exercise("l06_ex4"), {"train_minibatches": new_optimizer_every_step},
                           include_hidden=False)
    assert not visible.checks[0].passed and visible.checks[0].reason == "values"
