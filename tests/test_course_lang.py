"""course_lang, the course's one language home: its resolver order, its plural rules, nbgrader's
``<lesson>-<lang>`` naming and the one catalog shape -- and that every consumer (minitape's
debugging instruments, the lessons, the grader) answers with it, in the same order."""
from __future__ import annotations

import pytest

import course_lang
from course_lang import Catalog


@pytest.fixture
def clean(monkeypatch, tmp_path):
    for key in ("MINITAPE_LANG", "JPY_SESSION_NAME"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.chdir(tmp_path)
    course_lang.set_language(None)
    yield tmp_path
    course_lang.set_language(None)


def _everyone():
    """The language each consumer speaks when no argument is given."""
    import minitape as tf
    from grader import i18n as grader_i18n
    from lessons import i18n as lessons_i18n
    from minitape import _lang
    from minitape.debugging import draw, why_none

    x = tf.constant(1.0)
    with tf.GradientTape(persistent=True) as tape:
        y = x * 2.0
    return {
        "course_lang": course_lang.current_language(),
        "minitape._lang": _lang.current_language(),
        "why_none": why_none(tape, y, x).lang,
        "draw": draw(tape)._lang,
        "lessons": lessons_i18n.current_language(),
        "grader": grader_i18n.current_language(),
    }


def test_the_resolver_order_is_one_for_every_consumer(clean, monkeypatch):
    assert set(_everyone().values()) == {"en"}                  # 5. the default
    (clean / "lessons" / "pt").mkdir(parents=True)
    monkeypatch.chdir(clean / "lessons" / "pt")
    assert set(_everyone().values()) == {"pt"}                  # 4b. the working directory
    monkeypatch.setenv("JPY_SESSION_NAME", "/srv/course/01-gradients-ru/01-gradients-ru.ipynb")
    assert set(_everyone().values()) == {"ru"}                  # 4a. the notebook path beats it
    monkeypatch.setenv("MINITAPE_LANG", "es")
    assert set(_everyone().values()) == {"es"}                  # 3. the variable beats the path
    course_lang.set_language("pt")
    assert set(_everyone().values()) == {"pt"}                  # 2. set_language beats the variable
    assert course_lang.resolve("ru") == "ru"                    # 1. an explicit argument beats all
    with pytest.warns(UserWarning, match="MINITAPE_LANG='xx'"):
        course_lang.set_language(None)
        monkeypatch.setenv("MINITAPE_LANG", "xx")
        assert course_lang.current_language() == "ru"           # unknown variable: warned, skipped


def test_one_setting_whoever_sets_it(clean):
    from grader import i18n as grader_i18n
    from lessons import i18n as lessons_i18n
    from minitape import _lang

    for setter, lang in ((_lang.set_language, "ru"), (lessons_i18n.set_language, "es"),
                         (grader_i18n.set_language, "pt"), (course_lang.set_language, "en")):
        setter(lang)
        assert set(_everyone().values()) == {lang}, setter.__module__


def test_resolve_checks_an_explicit_language():
    assert course_lang.resolve("pt_BR") == "pt"
    with pytest.raises(ValueError, match="unsupported language 'de'"):
        course_lang.resolve("de")
    with pytest.raises(TypeError, match="must be a string"):
        course_lang.resolve(3)


@pytest.mark.parametrize("lang, counts", [
    ("en", {0: 1, 1: 0, 2: 1, 21: 1}),
    ("ru", {1: 0, 21: 0, 2: 1, 4: 1, 22: 1, 5: 2, 11: 2, 12: 2, 14: 2, 111: 2, 0: 2}),
])
def test_plural_rules(lang, counts):
    assert {n: course_lang.plural_index(n, lang) for n in counts} == counts


def test_fractional_counts_only_where_a_catalog_allows_them():
    with pytest.raises(TypeError, match="must be an int"):
        course_lang.plural_index(1.5, "en")
    with pytest.raises(TypeError, match="must be an int"):
        course_lang.plural_index(True, "en", fractions=True)
    assert course_lang.plural_index(1.5, "en", fractions=True) == 1   # "1.5 points"
    assert course_lang.plural_index(1.0, "en", fractions=True) == 0   # a whole number stays itself
    assert course_lang.plural_index(21.0, "ru", fractions=True) == 0


def test_nbgrader_naming():
    assert course_lang.variant_name("01-gradients", "es") == "01-gradients-es"
    assert course_lang.split_variant("01-gradients-es") == ("01-gradients", "es")
    assert course_lang.split_variant("01-gradients") is None
    assert course_lang.lang_of_assignment("07-build-your-own-tape-ru") == "ru"
    assert course_lang.lang_of_assignment("") == "en"
    nb = {"metadata": {"minitape": {"lang": "pt"}}}
    assert course_lang.notebook_language(nb, {"nbgrader": {"assignment": "01-gradients-ru"}}) == "pt"
    assert course_lang.notebook_language({}, {"nbgrader": {"assignment": "01-gradients-ru"}}) == "ru"
    assert course_lang.notebook_language({"metadata": {"minitape": None}}) == "en"


def test_the_engine_does_not_encode_nbgrader_naming():
    from minitape import _lang

    assert not hasattr(_lang, "split_variant") and not hasattr(_lang, "variant_name")
    assert _lang.set_language is course_lang.set_language
    assert _lang.current_language is course_lang.current_language


def test_one_catalog_shape_and_one_t_tn():
    cat = Catalog("demo", {"a.hello": {"en": "Hello {name}", "ru": "Привет, {name}"},
                           "a.ops.plural": {"en": "{count} op|{count} ops",
                                            "ru": "{count} операция|{count} операции|{count} операций"}})
    assert cat.t("a.hello", "ru", name="x") == "Привет, x"
    assert cat.t("a.hello", "es", name="x") == "Hello x"       # a missing language: English
    # a number keeps the word it counts (course_lang.typography: a no-break space in Russian)
    assert [cat.tn("a.ops.plural", n, "ru") for n in (1, 3, 5)] == [
        "1\u00a0операция", "3\u00a0операции", "5\u00a0операций"]
    assert cat.tn("a.ops.plural", 2, "en", count="two") == "two ops"  # the caller's {count} wins
    assert cat.view("a.", "ru").tn("ops.plural", 21) == "21\u00a0операция"
    with pytest.raises(KeyError, match="no message 'a.nope' in the demo catalog"):
        cat.t("a.nope", "en")
    with pytest.raises(KeyError, match="not a plural message"):
        cat.tn("a.hello", 2, "en")
    with pytest.raises(ValueError, match="has no English text"):
        Catalog("bad", {"k": {"es": "hola"}})
    with pytest.raises(ValueError, match="unknown language"):
        cat.add({"k": {"en": "x", "fr": "y"}})
    with pytest.raises(ValueError, match="already defined: a.hello"):
        cat.add({"a.hello": {"en": "again"}})


def test_every_course_catalog_is_a_course_lang_catalog():
    from grader import i18n as grader_i18n
    from lessons import i18n as lessons_i18n
    from minitape.debugging import messages

    for catalog in (grader_i18n.CATALOG, lessons_i18n.CATALOG, messages.CATALOG):
        assert isinstance(catalog, Catalog)
        entries = catalog.entries()
        assert entries, catalog.name
        for key, texts in entries.items():  # (completeness: each catalog's own i18n test)
            assert course_lang.SOURCE_LANG in texts and set(texts) <= set(course_lang.LANGS), (catalog.name, key)
