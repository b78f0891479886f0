"""Plural messages (lessons/plural.py): CLDR forms per language, checked for every catalog entry."""

from __future__ import annotations

import string

import pytest

from lessons import LANGS, i18n
from lessons.plural import PLURAL_SUFFIX, SEPARATOR, forms, plural_index, plural_rule, tn


def _plural_keys():
    return sorted(k for k in i18n.catalog() if k.endswith(PLURAL_SUFFIX))


def test_there_are_plural_messages_and_no_hand_written_endings():
    assert "l07.recorded.plural" in _plural_keys()
    for key, texts in i18n.catalog().items():
        for lang, text in texts.items():
            # "(s)", "(es)", "(ões)": a count needs a real plural message, not a guessed ending
            for ending in ("(s)", "(es)", "(ões)", "(a)"):
                assert ending not in text, f"{key} [{lang}] writes {ending!r}; use a .plural message"


@pytest.mark.parametrize("key", _plural_keys())
def test_every_plural_message_has_the_language_s_number_of_forms(key):
    for lang in LANGS:
        texts = forms(key, lang)  # raises when the count of forms is wrong
        assert len(texts) == plural_rule(lang)[0]
        for text in texts:
            fields = {f for _, f, _, _ in string.Formatter().parse(text) if f}
            assert "count" in fields, f"{key} [{lang}] form {text!r} does not show {{count}}"


@pytest.mark.parametrize("lang, counts", [
    ("en", {1: 0, 2: 1, 0: 1, 21: 1}),
    ("es", {1: 0, 2: 1, 0: 1, 1000: 1}),
    ("pt", {1: 0, 2: 1, 21: 1}),
    ("ru", {1: 0, 21: 0, 101: 0, 2: 1, 3: 1, 4: 1, 22: 1, 5: 2, 11: 2, 12: 2, 14: 2, 25: 2, 111: 2, 0: 2}),
])
def test_plural_rules_are_cldr(lang, counts):
    assert {n: plural_index(n, lang) for n in counts} == counts


def test_russian_counts_agree():
    assert tn("l07.recorded.plural", 1, "ru", ops="[mul]") == "записана 1 операция: [mul]"
    assert tn("l07.recorded.plural", 3, "ru", ops="[]") == "записаны 3 операции: []"
    assert tn("l07.recorded.plural", 5, "ru", ops="[]") == "записано 5 операций: []"
    assert tn("l07.recorded.plural", 11, "ru", ops="[]") == "записано 11 операций: []"
    assert tn("l07.recorded.plural", 1, "es", ops="[mul]") == "1 operación grabada: [mul]"
    assert tn("l07.recorded.plural", 2, "pt", ops="[]") == "2 operações gravadas: []"


def test_language_follows_the_notebook(monkeypatch, tmp_path):
    monkeypatch.delenv("JPY_SESSION_NAME", raising=False)
    monkeypatch.setenv("MINITAPE_LANG", "ru")
    i18n.set_language(None)
    assert tn("l06.lr.readout.plural", 50, loss="1", w="2", b="3").startswith("После 50 шагов")


def test_bad_use_fails_clearly(monkeypatch):
    with pytest.raises(KeyError, match="not a plural message"):
        tn("plot.x", 2, "es")
    with pytest.raises(TypeError, match="must be an int"):
        tn("l07.recorded.plural", 2.5, "es", ops="")
    monkeypatch.setitem(i18n.MESSAGES, "test.broken.plural", {"en": "one|many", "ru": f"одна{SEPARATOR}много"})
    with pytest.raises(ValueError, match="has 2 plural form"):
        tn("test.broken.plural", 5, "ru")


def test_plural_forms_are_babels_and_cover_every_language():
    """The expressions lessons/plural.py keeps are CLDR's as Babel ships them, for every language."""
    from babel.messages.plurals import get_plural

    from minitape._lang import LANGUAGES
    from lessons.plural import PLURAL_FORMS

    assert set(PLURAL_FORMS) == set(LANGUAGES)
    for lang, (count, expr) in PLURAL_FORMS.items():
        rule = get_plural(lang)
        assert (count, expr) == (rule.num_plurals, rule.plural_expr), lang
