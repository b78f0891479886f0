"""minitape.debugging finds its language where the lessons and the grader find theirs
(minitape._lang.current_language), in the same order: it once read MINITAPE_LANG before
set_language() and raised on an unknown value where the course warns and goes on."""
from __future__ import annotations

import pytest

import minitape as tf
from minitape import _lang
from minitape.debugging import why_none


@pytest.fixture
def tape_y_x(monkeypatch):
    for key in ("MINITAPE_LANG", "JPY_SESSION_NAME"):
        monkeypatch.delenv(key, raising=False)
    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        y = x * 2.0
    yield tape, y, x
    _lang.set_language(None)


def test_set_language_wins_over_the_environment(tape_y_x, monkeypatch):
    tape, y, x = tape_y_x
    monkeypatch.setenv("MINITAPE_LANG", "ru")
    _lang.set_language("es")
    assert _lang.current_language() == "es"
    assert why_none(tape, y, x).lang == "es"
    _lang.set_language(None)
    assert why_none(tape, y, x).lang == "ru"


def test_an_unknown_environment_language_warns_and_falls_through(tape_y_x, monkeypatch, tmp_path):
    tape, y, x = tape_y_x
    monkeypatch.setenv("MINITAPE_LANG", "de")
    folder = tmp_path / "lessons" / "pt"
    folder.mkdir(parents=True)
    monkeypatch.chdir(folder)
    with pytest.warns(UserWarning, match="MINITAPE_LANG='de'"):
        assert why_none(tape, y, x).lang == "pt"  # the notebook's folder, as for the lessons


def test_an_explicit_argument_still_wins_and_is_checked(tape_y_x):
    tape, y, x = tape_y_x
    _lang.set_language("ru")
    assert why_none(tape, y, x, lang="en").lang == "en"
    with pytest.raises(ValueError, match="unsupported language"):
        why_none(tape, y, x, lang="de")
