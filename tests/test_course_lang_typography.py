"""Issue 38: the typography a native editor gives each language, done where text reaches a student
(course_lang.typography): Russian no-break spaces, nested quotes, decimal marks."""

from __future__ import annotations

import pytest

from course_lang import Catalog
from course_lang.typography import (NBSP, decimal_mark, localize_number, nest_quotes, russian_spaces,
                                    typeset)


@pytest.mark.parametrize("text, expected", [
    # before a dash: the dash never starts a line
    ("Обучить нейронную сеть — значит", "Обучить нейронную сеть\u00a0— значит"),
    ("`x` — это тензор", "`x`\u00a0— это тензор"),
    # after a one- or two-letter preposition, conjunction or particle
    ("в уроке и на ленте не видно", "в\u00a0уроке и\u00a0на\u00a0ленте не\u00a0видно"),
    ("В уроке 3 с помощью ленты", "В\u00a0уроке\u00a03\u00a0с\u00a0помощью ленты"),
    # a number keeps its word, and its groups of thousands; ли, же, бы; т. е.
    ("7,6 МиБ и 1 000 000 чисел", "7,6\u00a0МиБ и\u00a01\u00a0000\u00a0000\u00a0чисел"),
    ("можно ли, т. е. так", "можно\u00a0ли, т.\u00a0е. так"),
    # words that merely end in a short word, and code, are left alone
    ("лента записала `a в b`", "лента записала `a в b`"),
    ("из-за ленты", "из-за ленты"),
])
def test_russian_no_break_spaces(text, expected):
    assert russian_spaces(text) == expected
    assert russian_spaces(expected) == expected  # idempotent


def test_markdown_joins_a_line_break_before_a_dash_or_after_a_preposition():
    text = "Такой список называют лентой,\n— а метод в\nобратном режиме $a - b$.\n\n— Новый абзац"
    out = russian_spaces(text, markdown=True)
    assert out == ("Такой список называют лентой,\u00a0— а\u00a0метод в\u00a0обратном режиме $a - b$."
                   "\n\n— Новый абзац")
    assert not any(line.startswith("—") for line in out.split("\n\n")[0].splitlines())
    # a list item or a heading is never pulled onto the line before it; math is not touched
    assert russian_spaces("текст в\n- пункт", markdown=True) == "текст в\n- пункт"
    assert russian_spaces("$x — y$ и `a — b`", markdown=True) == "$x — y$ и\u00a0`a — b`"


@pytest.mark.parametrize("lang, text, expected", [
    ("ru", "Упражнение «Обратный проход по «голой» ленте»", "Упражнение «Обратный проход по\u00a0„голой“ ленте»"),
    ("es", "Ejercicio «La cinta «desnuda»»", "Ejercicio «La cinta “desnuda”»"),
    ("pt", "Exercício “A fita “crua””", "Exercício “A fita ‘crua’”"),
    ("en", "Exercise “The “bare” tape”", "Exercise “The “bare” tape”"),
    ("ru", "несбалансированная «кавычка", "несбалансированная «кавычка"),
])
def test_quotes_inside_quotes_take_the_inner_pair(lang, text, expected):
    assert typeset(text, lang) == expected


def test_the_catalog_typesets_what_it_returns():
    cat = Catalog("demo", {"a.title": {"en": "Exercise “{x}”", "ru": "Упражнение «{x}» — в {n} шагах"}})
    assert cat.t("a.title", "ru", x="по «голой» ленте", n=3) == (
        "Упражнение «по\u00a0„голой“ ленте»\u00a0— в\u00a03\u00a0шагах")
    assert cat.text("a.title", "ru") == "Упражнение «{x}»\u00a0— в\u00a0{n} шагах"
    assert cat.t("a.title", "en", x="a “b”", n=3) == "Exercise “a “b””"  # English: as written


@pytest.mark.parametrize("lang, mark, text, expected", [
    ("es", ",", "-0.25", "-0,25"), ("pt", ",", "1.5 de 2", "1,5 de 2"), ("ru", ",", "7.6 МиБ", "7,6 МиБ"),
    ("en", ".", "0.5", "0.5"), ("ru", ",", "1e-05 и x0 = 2", "1e-05 и x0 = 2"),
])
def test_decimal_marks(lang, mark, text, expected):
    assert decimal_mark(lang) == mark
    assert localize_number(text, lang) == expected


def test_the_glossary_and_the_typography_agree_on_decimal_marks():
    import json
    from pathlib import Path

    numbers = json.loads((Path(__file__).parents[1] / "lessons" / "glossary.json").read_text("utf-8"))["numbers"]
    for lang, spec in numbers.items():
        assert decimal_mark(lang) == spec["decimal"], lang


def test_nest_quotes_leaves_languages_without_rules_alone():
    assert nest_quotes("«a «b» c»", "en") == "«a «b» c»"
    assert NBSP == "\u00a0"
