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
    assert tn("l07.recorded.plural", 1, "ru", ops="[mul]") == "записана 1\u00a0операция: [mul]"
    assert tn("l07.recorded.plural", 3, "ru", ops="[]") == "записаны 3\u00a0операции: []"
    assert tn("l07.recorded.plural", 5, "ru", ops="[]") == "записано 5\u00a0операций: []"
    assert tn("l07.recorded.plural", 11, "ru", ops="[]") == "записано 11\u00a0операций: []"
    assert tn("l07.recorded.plural", 1, "es", ops="[mul]") == "1 operación grabada: [mul]"
    assert tn("l07.recorded.plural", 2, "pt", ops="[]") == "2 operações gravadas: []"


def test_language_follows_the_notebook(monkeypatch, tmp_path):
    monkeypatch.delenv("JPY_SESSION_NAME", raising=False)
    monkeypatch.setenv("MINITAPE_LANG", "ru")
    i18n.set_language(None)
    assert tn("l06.lr.readout.plural", 50, loss="1", w="2", b="3").startswith("После 50\u00a0шагов")


def test_bad_use_fails_clearly(monkeypatch):
    with pytest.raises(KeyError, match="not a plural message"):
        tn("plot.x", 2, "es")
    with pytest.raises(TypeError, match="must be an int"):
        tn("l07.recorded.plural", 2.5, "es", ops="")
    monkeypatch.setitem(i18n.MESSAGES, "test.broken.plural", {"en": "one|many", "ru": f"одна{SEPARATOR}много"})
    with pytest.raises(ValueError, match="has 2 plural form"):
        tn("test.broken.plural", 5, "ru")


# Counts that tell every CLDR rule of these languages apart (0, 1, 2-4, 5-20, the teens, 21-24, 100s,
# thousands and the millions that CLDR 48 gives Spanish and Portuguese a form of their own).
_COUNTS = [*range(0, 250), 1000, 1001, 1021, 1_000_000, 2_000_000, 3_000_021, 10**9]


def _locked_version(package: str) -> str:
    """The version requirements/dev.txt pins ``package`` to (the same for every Python it covers)."""
    import re

    from tests.support.project import REPO

    pins = set(re.findall(rf"(?im)^{re.escape(package)}==([^\s;\\]+)", (REPO / "requirements/dev.txt").read_text()))
    assert len(pins) == 1, f"requirements/dev.txt pins {package} to {sorted(pins) or 'nothing'}"
    return pins.pop()


def test_plural_forms_are_babels_and_cover_every_language():
    """The rules course_lang keeps are CLDR's as the locked Babel ships them, for every language.

    The course keeps its own copy of the rules (the in-browser course has no Babel) and they were
    reviewed against the Babel that requirements/dev.txt pins. A Babel with other CLDR data (a lock
    update, or `make test-latest`) fails here with what changed, count by count: taking it is a
    reviewed change (new forms in the catalogs, then course_lang.PLURAL_FORMS), not a red build
    that nobody asked for. The rules are compared by what they decide, not by how Babel spells them.
    """
    import gettext

    import babel
    from babel.messages.plurals import get_plural

    from minitape._lang import LANGUAGES
    from lessons.plural import PLURAL_FORMS

    assert set(PLURAL_FORMS) == set(LANGUAGES)
    installed, locked = babel.__version__, _locked_version("babel")
    changed = []
    for lang, (count, expr) in PLURAL_FORMS.items():
        ours, theirs = gettext.c2py(expr), get_plural(lang)
        babels = gettext.c2py(theirs.plural_expr)
        differ = [n for n in _COUNTS if ours(n) != babels(n)]
        if count != theirs.num_plurals or differ:
            changed.append(f"{lang}: {count} forms here, {theirs.num_plurals} in Babel {installed} "
                           f"({theirs.plural_expr}); counts the two rules put in different forms: {differ[:8]}")
    assert not changed, (
        f"Babel {installed} (the lock pins {locked}) has CLDR plural rules other than the reviewed ones "
        "in course_lang.PLURAL_FORMS:\n  " + "\n  ".join(changed)
        + "\nA CLDR change is a reviewed update: give every plural message the new forms, update "
          "PLURAL_FORMS, then lift the hold in requirements/holds.txt.")


def test_the_lock_holds_the_babel_the_rules_were_reviewed_against():
    """The lock and its hold agree, so a fresh clone installs the Babel the test above was reviewed with."""
    from tests.support.project import REPO

    hold = [l.split("==", 1)[1].strip() for l in (REPO / "requirements/holds.txt").read_text().splitlines()
            if l.lower().startswith("babel==")]
    assert hold == [_locked_version("babel")]


def test_a_cldr_change_fails_with_what_changed(monkeypatch):
    """What the test above says when Babel brings CLDR 48's Spanish 'many' form (Babel 2.19)."""
    from babel.messages import plurals

    cldr48 = plurals._PluralTuple((3, "(n == 1 ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2)"))
    real = plurals.get_plural
    monkeypatch.setattr(plurals, "get_plural", lambda lang: cldr48 if lang == "es" else real(lang))
    with pytest.raises(AssertionError, match=r"(?s)es: 2 forms here, 3 in Babel.*1000000.*reviewed update"):
        test_plural_forms_are_babels_and_cover_every_language()
