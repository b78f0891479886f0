"""The grader's message catalog and language resolution."""

from __future__ import annotations

import re
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
    assert gi18n.tn("report.score.plural", 2, "pt_BR", score="1", points="2") == "Pontuação: 1 de 2 pontos"


def test_counts_take_the_plural_form_of_their_language():
    """The grader's counted messages use the CLDR plural rule (no "value(s)", no "1 из 1 элементов")."""
    assert gi18n.tn("report.score.plural", 1, "en", score="0", points="1") == "Score: 0 of 1 point"
    assert gi18n.tn("report.score.plural", 1.5, "es", score="1", points="1.5") == "Puntuación: 1 de 1.5 puntos"
    values = lambda n, lang: gi18n.tn("leaf.values.plural", n, lang, count=1, size=n, abs_err=1,  # noqa: E731
                                      rel_err=1, index=0, expected=1, got=2, rtol=0, atol=0)
    # Russian keeps a number with its word (no-break spaces, course_lang.typography)
    assert values(1, "ru").startswith("Неверные значения в\u00a01\u00a0из\u00a01\u00a0элемента.")
    assert values(3, "ru").startswith("Неверные значения в\u00a01\u00a0из\u00a03\u00a0элементов.")
    assert values(21, "ru").startswith("Неверные значения в\u00a01\u00a0из\u00a021\u00a0элемента.")
    assert values(1, "es").startswith("Valores incorrectos en 1 de 1 elemento.")
    assert "скрытые проверки" in gi18n.tn("report.hidden_pending.plural", 3, "ru", count=3)
    assert "5\u00a0скрытых проверок" in gi18n.tn("report.hidden_pending.plural", 5, "ru", count=5)
    assert "1 hidden check will run" in gi18n.tn("report.hidden_pending.plural", 1, "en", count=1)
    from lessons.plural import PLURAL_FORMS, plural_rule

    assert gi18n.PLURAL_FORMS is PLURAL_FORMS  # one home for the rules: minitape._lang
    for key, texts in MESSAGES.items():
        for lang, text in texts.items():
            assert not re.search(r"\w\((?:s|es|as|os)\)", text), (key, lang, "write plural forms, not (s)")
            if key.endswith(".plural"):
                assert len(text.split("|")) == plural_rule(lang)[0], (key, lang)
            else:
                assert "|" not in text, (key, lang)
    with pytest.raises(KeyError, match="not a plural"):
        gi18n.tn("report.passed", 2, "en")
