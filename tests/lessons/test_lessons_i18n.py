"""The message catalog: every key in every language, fallback, and language detection order."""

from __future__ import annotations

import json

import pytest

from lessons import LANGS, i18n
from lessons.i18n import current_language, language_from_path, set_language, t


@pytest.fixture(autouse=True)
def clean_language(monkeypatch, tmp_path):
    """No explicit language, no language variables, a neutral working directory."""
    set_language(None)
    for name in ("MINITAPE_LANG", "JPY_SESSION_NAME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    yield
    set_language(None)


def test_every_key_exists_in_every_language_and_is_non_empty():
    catalog = i18n.catalog()
    assert "plot.title.function_and_derivative" in catalog
    assert "l01.sigmoid.title" in catalog  # per-lesson file lessons/messages/01-gradients.json
    for key, texts in catalog.items():
        assert set(texts) == set(LANGS), f"{key}: languages {sorted(texts)}"
        for lang, text in texts.items():
            assert text.strip(), f"{key} [{lang}] is empty"


def test_placeholders_are_the_same_in_every_language():
    import string

    for key, texts in i18n.catalog().items():
        fields = {lang: sorted({f for _, f, _, _ in string.Formatter().parse(text) if f})
                  for lang, text in texts.items()}
        assert len({tuple(v) for v in fields.values()}) == 1, f"{key}: {fields}"


def test_translations_do_not_use_degradado():
    for key, texts in i18n.catalog().items():
        for lang in ("es", "pt"):
            assert "degradado" not in texts[lang].lower(), key


def test_lookup_and_formatting():
    assert t("plot.title.function_and_derivative", "es") == "Una función y su derivada"
    assert t("plot.title.function_and_derivative", "ru") == "Функция и\u00a0её производная"  # typeset
    assert t("widgets.tangent.readout", "pt", x="1.00", y="2", slope="3") == "f(1,00) = 2; inclinação f′(1,00) = 3"  # numbers in the language's decimal mark
    set_language("es")
    assert t("widgets.tangent.slider") == "punto x"


def test_missing_language_falls_back_to_english(monkeypatch):
    monkeypatch.setitem(i18n.MESSAGES, "test.only_english", {"en": "Only in English"})
    assert t("test.only_english", "ru") == "Only in English"


def test_unknown_key_and_unknown_language_fail_loudly():
    with pytest.raises(KeyError, match="no message 'plot.nope'"):
        t("plot.nope")
    with pytest.raises(ValueError, match="unsupported language 'fr'"):
        t("plot.x", "fr")
    with pytest.raises(ValueError, match="unsupported language"):
        set_language("klingon")


def test_add_messages_validates(monkeypatch):
    monkeypatch.setattr(i18n, "MESSAGES", dict(i18n.MESSAGES))
    with pytest.raises(ValueError, match="no English text"):
        i18n.add_messages({"x.y": {"es": "hola"}})
    with pytest.raises(ValueError, match="unknown language"):
        i18n.add_messages({"x.y": {"en": "hi", "de": "hallo"}})
    with pytest.raises(ValueError, match="already defined"):
        i18n.add_messages({"plot.x": {"en": "x"}})
    i18n.add_messages({"x.y": {"en": "hi", "es": "hola"}})
    assert t("x.y", "es") == "hola" and t("x.y", "pt") == "hi"


def test_message_files_are_valid_json_objects():
    from pathlib import Path

    folder = Path(i18n.__file__).with_name("messages")
    for path in folder.glob("*.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        assert isinstance(data, dict)
        prefix = f"l{path.stem[:2]}."
        assert all(key.startswith(prefix) for key in data), f"{path.name}: keys must start with {prefix}"


@pytest.mark.parametrize("lang", ["es", "ES", "es-MX", "es_ES"])
def test_normalize(lang):
    assert i18n.normalize_language(lang) == "es"


@pytest.mark.parametrize("path, lang", [
    ("/home/me/minitape/lessons/es/01-gradients.ipynb", "es"),
    ("lessons/ru", "ru"),
    ("/srv/course/source/01-gradients-pt/01-gradients.ipynb", "pt"),
    ("/srv/course/submitted/alice/01-gradients-ru/01-gradients.ipynb", "ru"),
    ("/srv/course/submitted/maria-es/01-gradients-pt", "pt"),  # the deepest folder wins
    ("/srv/course/autograded/bob/01-gradients-en", "en"),
    ("/home/me/es/notes.ipynb", None),  # a bare 'es' folder is not enough
    ("/home/me/work", None),
    ("/home/me/lessons/fr/01.ipynb", None),
    ("/home/me/notebook-es.ipynb", None),  # the file name itself does not count
])
def test_language_from_path(path, lang):
    assert language_from_path(path) == lang


def test_resolution_order(monkeypatch, tmp_path):
    assert current_language() == "en"  # nothing says otherwise
    folder = tmp_path / "lessons" / "pt"
    folder.mkdir(parents=True)
    monkeypatch.chdir(folder)
    assert current_language() == "pt"  # working directory
    monkeypatch.setenv("JPY_SESSION_NAME", "/x/course/source/01-gradients-ru/01-gradients.ipynb")
    assert current_language() == "ru"  # the notebook path beats the working directory
    monkeypatch.setenv("MINITAPE_LANG", "es")
    assert current_language() == "es"  # the variable beats the path
    set_language("en")
    assert current_language() == "en"  # explicit beats everything
    set_language(None)
    assert current_language() == "es"


def test_bad_environment_value_warns_and_is_skipped(monkeypatch):
    monkeypatch.setenv("MINITAPE_LANG", "xx")
    monkeypatch.setenv("JPY_SESSION_NAME", "/a/lessons/ru/01-gradients.ipynb")
    with pytest.warns(UserWarning, match="MINITAPE_LANG='xx'"):
        assert current_language() == "ru"


def test_unrelated_session_path_falls_through_to_cwd(monkeypatch, tmp_path):
    folder = tmp_path / "01-gradients-es"
    folder.mkdir()
    monkeypatch.chdir(folder)
    monkeypatch.setenv("JPY_SESSION_NAME", "/home/me/scratch.ipynb")
    assert current_language() == "es"
