"""The grader's message catalog and language resolution."""

from __future__ import annotations

import string

import pytest

import grader.i18n as gi18n
from grader.messages import MESSAGES


def _fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def test_every_message_in_every_language_with_the_same_placeholders():
    for key, texts in MESSAGES.items():
        assert set(texts) == set(gi18n.LANGS), key
        fields = _fields(texts["en"])
        for lang, text in texts.items():
            assert text.strip(), (key, lang)
            assert _fields(text) == fields, (key, lang)
            if lang != "en" and key not in ("report.visible",):
                assert text != texts["en"] or not any(c.isalpha() for c in text), (key, lang)


def test_gradient_is_not_degradado():
    for texts in MESSAGES.values():
        assert "degradado" not in texts["es"].lower() and "degradê" not in texts["pt"].lower()


@pytest.fixture
def clean(monkeypatch, tmp_path):
    for var in ("MINITAPE_LANG", "JPY_SESSION_NAME"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.chdir(tmp_path)
    gi18n.set_language(None)
    yield tmp_path
    gi18n.set_language(None)


def test_the_grader_speaks_the_notebooks_language(clean, monkeypatch):
    assert gi18n.current_language() == "en"
    folder = clean / "autograded" / "s1" / "01-gradients-ru"
    folder.mkdir(parents=True)
    monkeypatch.chdir(folder)
    assert gi18n.current_language() == "ru"  # an nbgrader assignment folder names the language
    monkeypatch.setenv("JPY_SESSION_NAME", "/home/me/lessons/pt/01-gradients.ipynb")
    assert gi18n.current_language() == "pt"
    monkeypatch.setenv("MINITAPE_LANG", "es")
    assert gi18n.current_language() == "es"
    gi18n.set_language("ru")
    assert gi18n.current_language() == "ru"
    assert gi18n.t("report.passed") == "пройдена"
    from lessons.i18n import current_language

    assert current_language() == "ru"  # one language for the lesson's texts and the grader's


def test_unknown_language_and_key_are_errors():
    with pytest.raises(ValueError, match="unsupported language"):
        gi18n.t("report.passed", "fr")
    with pytest.raises(KeyError, match="no grader message"):
        gi18n.t("report.nope", "en")
    assert gi18n.t("report.score", "pt_BR", score="1", points="2") == "Pontuação: 1 de 2 pontos"
