"""The JupyterLite site is built for the course's languages: lite/build.py takes its language list
from the course's one home, course_lang (loaded by path: the build runs in .venv-lite, where the
course is not installed), and this holds it there (codes, order and each language's own name)."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import course_lang
from minitape import _lang

REPO = Path(__file__).resolve().parents[2]


def _lite_build(root: Path = REPO):
    spec = importlib.util.spec_from_file_location("minitape_lite_build_langs", root / "lite" / "build.py")
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    return build


def test_the_lite_build_has_the_courses_languages():
    build = _lite_build()
    assert build.LANGS == course_lang.LANGS == _lang.LANGS
    assert build.LANG_NAMES == course_lang.LANGUAGES
    assert build.course_languages() == course_lang.LANGS
    # the start-up notice and the landing page speak every course language, and no other
    assert set(build.STARTUP_MESSAGES) == set(build.LANDING_TEXT) == set(course_lang.LANGS)


def test_the_lite_build_reads_its_list_from_course_lang(tmp_path):
    """Not a copy that happens to agree: a language added to course_lang reaches the lite build."""
    (tmp_path / "lite").mkdir()
    (tmp_path / "course_lang").mkdir()
    (tmp_path / "lite" / "build.py").write_bytes((REPO / "lite" / "build.py").read_bytes())
    source = (REPO / "course_lang" / "__init__.py").read_text(encoding="utf-8")
    assert '    "ru": "Русский",\n' in source
    source = source.replace('    "ru": "Русский",\n', '    "ru": "Русский",\n    "fr": "Français",\n')
    (tmp_path / "course_lang" / "__init__.py").write_text(source, encoding="utf-8")
    build = _lite_build(tmp_path)
    assert build.LANGS == (*course_lang.LANGS, "fr")
    assert build.LANG_NAMES["fr"] == "Français"


def test_the_sites_texts_are_typeset_as_the_lessons_are():
    """The start-up notice and the landing page, as the build fills them in, are what
    course_lang.typography makes of them (Russian no-break spaces, nested quotes)."""
    from course_lang.typography import typeset

    build = _lite_build()
    for lang in build.LANGS:
        seconds = build.seconds_phrase(lang, 21)
        for text in build.STARTUP_MESSAGES[lang].values():
            filled = build.typeset(text.replace("{seconds}", seconds), lang)
            assert typeset(filled, lang) == filled
        assert build.typeset("урок и в браузере — 5 МБ", "ru") == "урок и\u00a0в\u00a0браузере\u00a0— 5\u00a0МБ"


def test_the_sites_texts_use_the_glossary():
    from lessons.glossary import check_text

    build = _lite_build()
    for lang in build.LANGS:
        if lang == "en":
            continue
        texts = [*build.LANDING_TEXT[lang], *build.STARTUP_MESSAGES[lang].values()]
        problems = [v for text in texts for v in check_text(text, lang)]
        assert problems == [], (lang, problems)
