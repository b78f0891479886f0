"""The students' guide (docs/students.md and docs/students.{es,pt,ru}.md): the same guide in the
four languages, held to the course's glossary and to Russian typography, naming the menus as
JupyterLab shows them in each language (lite/build.py's MENU_LABELS, which
tests/browser/test_lite.py reads off the page), and shipped in the students' README's words too.
Fast: files only (the distribution and the site that ship the guide are tested where they are
built: tests/lessons/test_student_access.py, tests/lite/test_startup_site.py)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from course_lang.typography import typeset
from lessons import LANGS, SOURCE_LANG
from lessons.glossary import check_text
from lessons.student import GUIDES, README_SECTIONS, SITE_PHRASES

REPO = Path(__file__).resolve().parents[2]
NBSP = "\u00a0"
CODE = re.compile(r"`[^`]*`")


def _lite_build():
    spec = importlib.util.spec_from_file_location("minitape_lite_build_guide", REPO / "lite" / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _guide(lang: str) -> str:
    return (REPO / GUIDES[lang]).read_text(encoding="utf-8")


def _outline(text: str, lang: str) -> dict:
    """What every language's guide must have alike: its sections, its list items, and its code
    (with the folder of the guide's own language written as <lang>)."""
    code = sorted(set(re.sub(f"lessons/{lang}/(?=[^`])", "lessons/<lang>/", c) for c in CODE.findall(text)))
    return {"sections": [line.split(".", 1)[0] for line in text.splitlines() if line.startswith("## ")],
            "numbered": len(re.findall(r"^\s*\d+\. ", text, re.M)),
            "bullets": len(re.findall(r"^\s*- ", text, re.M)),
            "code": code}


def test_the_guide_exists_in_every_language_with_links_between_them():
    assert set(GUIDES) == set(LANGS)
    for lang in LANGS:
        text = _guide(lang)
        assert text.startswith("# "), lang
        links = re.findall(r"\]\((students[.a-z]*\.md)\)", text.split("\n\n", 2)[1])
        assert sorted(links) == sorted(GUIDES[other].name for other in LANGS if other != lang), (lang, links)


def test_every_language_says_the_same_things():
    english = _outline(_guide(SOURCE_LANG), SOURCE_LANG)
    assert english["sections"] == ["## 1", "## 2", "## 3", "## 4", "## 5", "## 6"]
    # the English guide's code, but for what names English itself or lists the other languages
    shared = set(english["code"]) - {"`es`", "`pt`", "`ru`", "`make lab LAB_LANG=en`",
                                     "`lessons/<language>/<lesson>.ipynb`"}
    assert {'`check("l01_ex1")`', "`make lab`", "`01-gradients.ipynb`", "`raise NotImplementedError()`",
            "`lessons/<lang>/01-gradients.ipynb`", "`None`"} <= shared
    for lang in LANGS:
        outline = _outline(_guide(lang), lang)
        assert outline["sections"] == english["sections"], lang
        assert outline["numbered"] == english["numbered"] and outline["bullets"] == english["bullets"], lang
        assert shared <= set(outline["code"]), (lang, shared - set(outline["code"]))
        assert f"`make lab LAB_LANG={lang}`" in outline["code"], lang


@pytest.mark.parametrize("lang", LANGS)
def test_the_guide_names_the_menus_as_jupyterlab_shows_them(lang):
    """Hand-in, Run All and the language menu, with the labels the language pack gives them (and
    the English ones beside them, for a JupyterLab still in English)."""
    text = _guide(lang).replace("\n", " ")
    labels = _lite_build().MENU_LABELS
    for what in ("download", "run_all"):
        menu, item = labels[lang][what]
        assert f"*{menu} → {item}*" in text, (lang, what)
        if lang != "en":
            menu_en, item_en = labels["en"][what]
            assert f"*{menu_en} → {item_en}*" in text, (lang, what)
    menu, item = labels[lang]["language"]
    if lang != "en":
        assert f"*{menu} → {item}*" in text, lang
    assert "*Settings → Language*" in text              # Binder starts in English
    assert f"LAB_LANG={lang}" in text
    # how to hand in: where the file comes from and what not to do with it
    handin = text.split("## 6.", 1)[1]
    assert "`01-gradients.ipynb`" in handin and f"`lessons/{lang if lang != 'en' else 'en'}/01-gradients.ipynb`" in handin
    assert "PDF" in handin


@pytest.mark.parametrize("lang", [lang for lang in LANGS if lang != SOURCE_LANG])
def test_the_guide_uses_the_glossary(lang):
    prose = CODE.sub(" ", _guide(lang))
    assert check_text(prose, lang) == [], lang


@pytest.mark.parametrize("lang", LANGS)
def test_the_guide_is_typeset_as_the_lessons_are(lang):
    """course_lang.typography (the lessons' typographer) changes nothing in it: Russian no-break
    spaces after short words, before a dash and between a number and its unit, nested quotes."""
    text = _guide(lang)
    assert typeset(text, lang, markdown=True) == text, lang
    assert not re.search(r"^\s*[—–]", text, re.M), "a line starts with a dash"
    if lang == "ru":
        assert text.count(NBSP) >= 60


def test_the_students_readme_is_typeset():
    from lessons.student import student_readme

    readme = student_readme(REPO, "1.0")
    russian = readme.split('<div lang="ru">', 1)[1].split("</div>", 1)[0]
    assert typeset(russian, "ru", markdown=True) == russian and "в\u00a0браузере" in russian


@pytest.mark.parametrize("lang", LANGS)
def test_the_students_readme_says_how_to_hand_in_and_where_the_guide_is(lang):
    for site in (None, "https://example.org/course/"):
        where = SITE_PHRASES[lang][0].format(site=site) if site else SITE_PHRASES[lang][1]
        section = README_SECTIONS[lang].format(version="1.0", site=where)
        assert f"]({GUIDES[lang].as_posix()})" in section
        assert where in section
        assert f"`lessons/{lang}/01-gradients.ipynb`" in section and "`01-gradients.ipynb`" in section
        menu, item = _lite_build().MENU_LABELS[lang]["download"]
        assert f"*{menu} → {item}*" in section.replace("\n", " ").replace("   ", " ")


def test_with_the_sites_address_the_students_readme_links_every_lesson_there(monkeypatch):
    """[tool.minitape-course] site = "<address>": each lesson of each language gets a JupyterLite
    badge opening it in the course's site, and the sections name the address."""
    from lessons import readme, student

    site = "https://teacher.example.org/autodiff/"
    monkeypatch.setattr(readme, "course_site", lambda root: site)
    text = student.student_readme(REPO, "1.0")
    for lang in LANGS:
        for nb in sorted((REPO / "lessons" / lang).glob("*.ipynb")):
            assert f"]({site}lab/index.html?path=lessons/{lang}/{nb.name})" in text, (lang, nb.name)
        assert SITE_PHRASES[lang][0].format(site=site) in text
    monkeypatch.setattr(readme, "course_site", lambda root: None)
    assert "JupyterLite](" not in student.student_readme(REPO, "1.0")


def test_the_sites_address_is_read_from_pyproject(tmp_path):
    from lessons.readme import course_site

    (tmp_path / "pyproject.toml").write_text('[tool.minitape-course]\nrepository = "a/b"\n')
    assert course_site(tmp_path) is None
    (tmp_path / "pyproject.toml").write_text('[tool.minitape-course]\nsite = "https://x.org/c"\n')
    assert course_site(tmp_path) == "https://x.org/c/"
