"""The glossary (lessons/glossary.json): every translated lesson cell and message keeps to it.

The checks live in ``lessons.glossary`` so that other catalogs (the grader's messages, minitape's
``why_none`` and stepper texts) can be held to the same glossary: list their JSON files under
``catalogs`` in the glossary, or call ``check_catalog`` on their ``{key: {lang: text}}`` dict.
"""

from __future__ import annotations

import json

import pytest

from lessons import LANGS, SOURCE_LANG, glossary
from lessons.glossary import check_catalog, check_text, prose_only


def _report(problems) -> str:
    return "\n".join(str(p) for p in problems) + (
        "\nUse the chosen term (lessons/glossary.json) or fix the number's separators.")


def test_lesson_prose_uses_the_glossary_terms_and_separators():
    problems = glossary.check_lessons()
    assert not problems, _report(problems)


def test_message_catalogs_use_the_glossary_terms_and_separators():
    problems = glossary.check_configured_catalogs()
    assert not problems, _report(problems)


def test_the_glossary_is_complete_and_compiles():
    g = glossary.load()
    translated = set(LANGS) - {SOURCE_LANG}
    assert set(g.variants) == translated == set(g.numbers)
    assert g.catalogs, "the glossary names the message catalogs it checks"
    for concept, terms in g.terms.items():
        assert set(terms) == set(LANGS), concept
        for lang in translated:
            term = terms[lang]
            # the chosen term is never itself one of the variants
            for v in g.variants[lang]:
                if v.concept == concept:
                    assert not v.pattern.search(term), f"{concept} [{lang}]: {term!r} matches {v.pattern.pattern}"


@pytest.mark.parametrize("lang, text, found", [
    ("es", "Usamos el descenso de gradiente.", ["descenso de gradiente"]),
    ("es", "La cinta vigila la variable.", ["vigila"]),
    ("es", "Las operaciones registradas en la cinta.", ["operaciones registradas", "registradas en la cinta"]),
    ("es", "Un número de punto flotante.", ["punto flotante"]),
    ("es", "La cinta no registró ninguna operación.", ["cinta no registró", "registró ninguna operación"]),
    ("es", "Que la cinta haya registrado; la cinta no tiene registro de x.", ["cinta haya registrado", "cinta no tiene registro"]),
    ("pt", "Operações que a fita registrou.", ["fita registrou"]),
    ("pt", "O jacobiano de f e o treino do modelo.", ["jacobiano", "treino"]),
    ("pt", "Uma fita observa Variables, não Tensors.", ["Variables", "Tensors"]),
    ("pt", "O tensor tem forma (3, 2).", ["tem forma"]),
    ("ru", "Для пакета из 7 примеров.", ["пакета"]),
    ("ru", "Откройте тетрадку.", ["тетрадку"]),
    ("ru", "шаг 0 — затравка", ["затравка"]),
])
def test_variants_are_found(lang, text, found):
    assert [v.found for v in check_text(text, lang)] == found


@pytest.mark.parametrize("lang, text", [
    ("es", "Usamos el descenso del gradiente con una tasa de 0,1 y 1 000 000 de números."),
    ("es", "`tf.Tensor` y `x.shape` son código; $0{,}5 \\cdot x$ es una fórmula."),
    ("es", "Sin `tf.RegisterGradient`, no tiene gradiente registrado."),  # register, not record
    ("es", "La cinta recorre sus registros en orden inverso."),  # a record (entry) of the tape
    ("pt", "A jacobiana da descida do gradiente; 1.000.000 de números e 7,6 MiB."),
    ("pt", "Uma fita observa objetos `Variable`, não `Tensor`."),
    ("ru", "Батч из 7 примеров; 7,6 МиБ; 1 000 000 чисел; открыть блокнот."),
    ("en", "Gradient descent with 0.1 on 1,000,000 numbers in a notebook."),  # English has no rules
])
def test_correct_texts_pass(lang, text):
    assert check_text(text, lang) == []


@pytest.mark.parametrize("lang, text, found", [
    ("es", "unos 7.6 MiB", ["7.6"]),
    ("es", "1.000 pasos", ["1.000"]),  # Spanish groups thousands with a space
    ("pt", "cerca de 7.6 MiB", ["7.6"]),
    ("pt", "taxa 0.05 e 1.000.000 de números", ["0.05"]),  # the grouping is right, the decimal is not
    ("ru", "около 7.6 МиБ", ["7.6"]),
    ("ru", "шаг 0.1, затем 0,01", ["0.1"]),
])
def test_decimal_separators(lang, text, found):
    assert [v.found for v in check_text(text, lang)] == found


def test_code_math_urls_and_placeholders_are_not_prose():
    text = "Mira `descenso de gradiente` y $x = 0{,}5$, https://x.org/0.5 <br> {value:.2f} en $$1{,}5$$"
    assert "descenso" not in prose_only(text) and "0.5" not in prose_only(text) and "0{,}5" not in prose_only(text)
    assert len(prose_only(text)) == len(text)
    assert check_text(text, "es") == []


def test_catalog_check_names_key_and_language():
    problems = check_catalog({"x.title": {"en": "gradient descent", "es": "descenso de gradiente",
                                          "pt": "descida do gradiente", "ru": "градиентный спуск 0.5"}},
                             "demo.json")
    assert [(p.where, p.lang, p.found) for p in problems] == [
        ("demo.json: x.title", "es", "descenso de gradiente"), ("demo.json: x.title", "ru", "0.5")]


def test_lesson_violations_name_the_source_line(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    lesson = src / "01-demo.py"
    lesson.write_text(
        '# %% [markdown] key="intro" lang="en"\n# Gradient descent.\n\n'
        '# %% [markdown] key="intro" lang="es"\n# Uso:\n#\n# el descenso de gradiente.\n\n'
        '# %% [markdown] key="intro" lang="pt"\n# A descida do gradiente.\n\n'
        '# %% [markdown] key="intro" lang="ru"\n# Градиентный спуск.\n\n'
        '# %%\nx = 1\n', encoding="utf-8")
    problems = glossary.check_lessons(src)
    assert [(p.where.rsplit(":", 1)[-1], p.lang, p.found) for p in problems] == [("7", "es", "descenso de gradiente")]


def test_bad_glossary_fails_loudly(tmp_path):
    data = json.loads(glossary.GLOSSARY_PATH.read_text(encoding="utf-8"))
    data["concepts"]["gradient"]["es"]["variants"] = ["(unclosed"]
    path = tmp_path / "glossary.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ValueError, match="variant '\\(unclosed'"):
        glossary.load(path)
    with pytest.raises(ValueError, match="no glossary rules for language 'fr'"):
        check_text("bonjour", "fr")


def test_shared_and_widget_messages_use_the_glossary():
    from lessons import i18n, widgets

    problems = check_catalog(widgets._MESSAGES, "lessons/widgets.py") + check_catalog(
        {k: v for k, v in i18n.MESSAGES.items() if not k.startswith("l0")}, "lessons/i18n.py")
    assert not problems, _report(problems)


def test_grader_messages_and_exercise_titles_use_the_glossary():
    """The grader's feedback speaks the lessons' words (check reports, None explanations, titles)."""
    from grader.messages import MESSAGES

    problems = list(check_catalog(MESSAGES, "grader/messages.py"))
    visible = json.loads((glossary.GLOSSARY_PATH.parents[1] / "grader" / "student" / "visible_cases.json").read_text(encoding="utf-8"))
    titles = {ex_id: ex["title"] for ex_id, ex in visible["exercises"].items()
              if isinstance(ex, dict) and isinstance(ex.get("title"), dict)}
    assert titles, "no exercise titles found in grader/student/visible_cases.json"
    problems += list(check_catalog(titles, "grader/student/visible_cases.json"))
    assert not problems, _report(problems)


def test_why_none_messages_use_the_glossary():
    """why_none speaks the lessons' words in every language."""
    from minitape.debugging import messages

    # key-major, the course's one catalog shape: why_none.<template> -> {lang: text}
    by_code = {key.removeprefix("why_none."): texts for key, texts in messages.CATALOG.entries().items()
               if key.startswith("why_none.")}
    assert set(by_code) >= {"not_watched", "integer", "unconnected"}
    problems = list(check_catalog(by_code, "minitape/debugging/messages.py"))
    assert not problems, _report(problems)


def test_a_term_wrapped_over_two_lines_is_found():
    """Prose is wrapped at ~100 columns: a variant split by the line break (and a list item's
    indentation) counts as much as one on a single line."""
    assert [v.found for v in check_text("con el descenso de\ngradiente", "es")] == ["descenso de\ngradiente"]
    assert [v.found for v in check_text("- a descida de\n  gradiente", "pt")] == ["descida de\n  gradiente"]


def test_exercise_titles_and_technique_texts_use_the_glossary():
    """What the report says an exercise is and how it must be solved (the instructor's
    definitions: every title, every technique's description, in every language)."""
    from grader.student.registry import all_exercises

    exercises = all_exercises()
    assert exercises, "no exercise definitions found (grader/course/definitions)"
    catalog: dict = {}
    for ex_id, ex in exercises.items():
        catalog[f"{ex_id}.title"] = ex.title
        for i, technique in enumerate(ex.techniques):
            catalog[f"{ex_id}.technique{i}"] = technique.description
        for pattern in ex.mistakes:  # the mistakes an exercise names, title and hint
            catalog[f"{ex_id}.{pattern.name}.title"] = pattern.title
            catalog[f"{ex_id}.{pattern.name}.hint"] = pattern.hint
    # (the visible checks' labels are code -- `w = 0.8, k = 2` -- and keep Python's point; their
    # words are held by tests/lessons/test_english_to_decode.py)
    assert any(".technique" in key for key in catalog)
    problems = list(check_catalog(catalog, "grader/course/definitions"))
    assert not problems, _report(problems)


def test_tape_drawing_texts_use_the_glossary():
    """The header, legend and notes of minitape.debugging.draw and the stepper."""
    from minitape.debugging.messages import CATALOG

    by_key = {key: texts for key, texts in CATALOG.entries().items() if key.startswith("draw.")}
    assert "draw.ops.plural" in by_key and "draw.desc.order" in by_key
    problems = list(check_catalog(by_key, "minitape/debugging/svg.py"))
    assert not problems, _report(problems)


@pytest.mark.parametrize("lang, text, found", [
    ("es", "Prueba $\\eta = 0.1$ y $\\eta = 0{,}5$.", ["0.1"]),
    ("ru", "$$x_0 = 2.5$$", ["2.5"]),
    ("pt", "com $-0{,}82 < x_0 < 0{,}82$", []),
])
def test_numbers_in_math_use_the_language_decimal_mark(lang, text, found):
    assert [v.found for v in check_text(text, lang)] == found


@pytest.mark.parametrize("lang, text, found", [
    ("ru", "Гессиан по ядру (5, 8).", ["по ядру", "ядру"]),
    ("ru", "Проверки вызывают функцию в одном ядре Jupyter.", []),  # a Jupyter kernel is an ядро
    ("ru", "Ветка, в которую `if` не зашёл.", ["Ветка"]),
    ("es", "sobre una rejilla de puntos", ["rejilla"]),
])
def test_kernel_branch_and_grid_terms(lang, text, found):
    assert [v.found for v in check_text(text, lang)] == found


# Issue 27: Russian keeps «функция потерь» for the function L and «потери» for its values; Spanish
# is written in one register (tú) and one neutral variety. The old wordings must be found again.
@pytest.mark.parametrize("lang, text, found", [
    ("ru", "после {count} шагов: функция потерь {first} → {last}", ["функция потерь →"]),
    ("ru", "Слева — функция потерь на каждом шаге, справа — то, чему научилась сеть.",
     ["функция потерь на каждом шаге"]),
    ("ru", "Слева: функция потерь при обучении сети, убывающая с шагами.", ["функция потерь при обучении"]),
    ("ru", "совпадает с градиентом суммарной потери", ["суммарной потери"]),
    ("ru", "Нарисуем кривую функции потерь.", ["кривую функции потерь"]),
    ("es", "Usted puede ejecutar la celda; vosotros también podéis.", ["Usted", "vosotros", "podéis"]),
    ("es", "matplotlib para las gráficas", ["gráficas"]),
    ("es", "mientras corre una pasada hacia atrás; corre el código", ["corre", "corre"]),
    ("es", "LiteRT en el móvil o en tu celular", ["el móvil", "tu celular", "celular"]),
    ("es", "una rejilla de puntos", ["rejilla"]),
])
def test_register_and_loss_choices_are_held(lang, text, found):
    assert [" ".join(v.found.split()) for v in check_text(text, lang)] == found


@pytest.mark.parametrize("lang, text", [
    ("ru", "Градиент указывает направление, в котором функция потерь растёт быстрее всего."),
    ("ru", "Гессиан функции потерь; потери на каждом шаге падают; кривая потерь."),
    ("ru", "Справа: значение функции потерь на каждом шаге обучения."),
    ("ru", "Совпадает с эталонными значениями функции потерь на каждом шаге."),
    ("es", "Escribe tu función, ejecuta la celda y mira los gráficos: dieciséis puntos en una malla."),
    ("es", "LiteRT en dispositivos móviles; una media móvil de los gradientes."),
])
def test_register_and_loss_choices_let_the_right_wording_pass(lang, text):
    assert check_text(text, lang) == []


def test_students_readme_uses_the_glossary():
    from lessons.student import README_SECTIONS, SITE_PHRASES

    sections = {"readme": {lang: text.format(version="1.0", site=SITE_PHRASES[lang][1])
                           for lang, text in README_SECTIONS.items()}}
    problems = check_catalog(sections, "lessons/student.py: README_SECTIONS")
    assert not problems, _report(problems)


# Issue 38: every term that drifted has one chosen wording; the old wordings the native reviews
# quoted are found again (lessons, catalogs, grader and why_none texts all pass through check_text).
@pytest.mark.parametrize("lang, text, found", [
    # "per example" rendered as "for example"
    ("es", "el gradiente de un vector de pérdidas por ejemplo es", ["pérdidas por ejemplo"]),
    ("es", "un jacobiano de (6, 5) por ejemplo: forma (7, 6, 5)", ["jacobiano de (6, 5) por ejemplo"]),
    ("es", "Ejercicio 5 · Jacobianos por ejemplo", ["Jacobianos por ejemplo"]),
    ("pt", "uma jacobiana (6, 5) por exemplo: formato", ["jacobiana (6, 5) por exemplo"]),
    ("pt", "o gradiente de um vetor de perdas por exemplo é", ["perdas por exemplo"]),
    # literal "flat point" where the field says critical point
    ("es", "lo lejos que está de un punto plano", ["punto plano"]),
    ("pt", "ainda não chegou a um ponto plano", ["ponto plano"]),
    # derivable vs diferenciable; Russian writes недифференцируемый in one word
    ("es", "Los enteros no son derivables.", ["derivables"]),
    ("pt", "operações *não deriváveis*", ["deriváveis"]),
    ("ru", "Само условие не дифференцируемо, а целые числа не дифференцируемы.",
     ["не дифференцируемо", "не дифференцируемы"]),
    # warnings
    ("pt", "recolhe os alertas e pergunta", ["os alertas"]),
    ("es", "recoge las advertencias", ["advertencias"]),
    # the two finite differences: four names became two
    ("es", "el error de la diferencia finita hacia adelante y de la centrada",
     ["diferencia finita hacia adelante", "la centrada"]),
    ("pt", "o erro da diferença finita para a frente e da centrada; diferenças finitas centradas",
     ["diferença finita para a frente", "da centrada", "diferenças finitas centradas"]),
    # checks pass or fail; students are approved or failed
    ("pt", "Verificações reprovadas: 2 de 2.", ["Verificações reprovadas", "reprovadas"]),
    ("pt", "Verificações visíveis: 0 de 2 aprovadas", ["Verificações visíveis: 0 de 2 aprovadas"]),
    # the class names as nouns of the sentence
    ("es", "Una cinta observa Variables, no Tensores, y `x + 1` es un Tensor.", ["Variables", "Tensores", "Tensor"]),
    ("pt", "uma Variable treinável `x0`", ["Variable"]),
    ("ru", "Источник — уже не Variable, а обычный Tensor", ["Variable", "Tensor"]),
    # Russian: clipping, persistent, VJP's gender, broadcasting untranslated, eager, framework
    ("ru", "*Ограничение* (*clipping*) градиента; в уроке 4 вы ограничивали градиент",
     ["*Ограничение*", "ограничивали градиент"]),
    ("ru", "от одной постоянной ленты", ["постоянной ленты"]),
    ("ru", "реестр `RULES` с одним VJP на операцию", ["одним VJP"]),
    ("ru", "**обратный *broadcasting* = суммирование**", ["broadcasting"]),
    ("ru", "сердце режима eager в TensorFlow", ["eager"]),
    ("es", "el corazón del modo *eager* de TensorFlow; cualquier framework", ["eager", "framework"]),
    ("ru", "Этот приём, *straight-through* («насквозь»)", ["насквозь"]),
    # learning rate called a step size
    ("es", "el descenso del gradiente (tamaño de paso 0,1)", ["tamaño de paso"]),
    ("ru", "с градиентным спуском (длина шага 0,1)", ["длина шага 0"]),
    # sine, standard deviation, history, mobile device
    ("es", "g(x) = sen(2x)·exp(−x²/4)", ["sen"]),
    ("es", "media 0 y desviación típica 1", ["desviación típica"]),
    ("pt", "volta como uma constante nova, sem história; LiteRT no celular", ["sem história", "celular"]),
    ("es", "qué graba una cinta de gradientes (*gradient tape*)", ["cinta de gradientes"]),
    ("ru", "Три вопроса к одной записи и картинка с ответами", ["картинка"]),
])
def test_terms_that_drifted_are_found_again(lang, text, found):
    assert [" ".join(v.found.split()) for v in check_text(text, lang)] == found


@pytest.mark.parametrize("lang, text", [
    ("es", "un vector con una pérdida por cada ejemplo; por ejemplo, en $x_0 = 2$"),  # "for instance" stays
    ("ru", "Обрезка (clipping) ограничивает шаг; недифференцируемые операции; одна VJP"),
    ("ru", "*транслирование* (*broadcasting*) и режим немедленного выполнения (eager)"),
    ("es", "*broadcasting* (la expansión automática de una forma a otra mayor); ejecución inmediata (*eager*)"),
    ("pt", "a diferença progressiva e a central; as verificações passaram; uma `tf.Variable` treinável"),
    ("es", "Variables y tensores: una `tf.Variable` entrenable"),  # a capital opening a sentence is fine
])
def test_chosen_terms_pass(lang, text):
    assert check_text(text, lang) == []


# Issue 38, typography: a list of decimal-comma numbers separates its items with a semicolon,
# and each language keeps its own quotation marks.
@pytest.mark.parametrize("lang, text, found", [
    ("es", "para $x = [0{,}3, 1{,}7, -2{,}2]$", ["0{,}3, 1", "3, 1{,}7"]),
    ("pt", "em $w = (1, 0{,}5)$", ["1, 0{,}5"]),
    ("ru", "Попробуйте $\\eta = 0{,}01$, $0{,}1$ и $0{,}5$", ["0{,}01$, $0{,}1"]),
    ("ru", "скорости 0,01, 0,1 и 0,5", ["0,01, 0"]),
    ("es", "Escribió \"asignar restando\" y «SGD»", ['"', '"']),
    ("pt", "Uma fita «observa»", ["«", "»"]),
    ("ru", "Упражнение «Обратный проход по «голой» ленте»", ["«"]),
])
def test_decimal_lists_and_quotes(lang, text, found):
    assert [v.found for v in check_text(text, lang)] == found


@pytest.mark.parametrize("lang, text", [
    ("es", "para $x = [0{,}3; 1{,}7; -2{,}2]$ y $t = [1, 1, -1]$, forma (7, 6, 5)"),
    ("ru", "Попробуйте $\\eta = 0{,}01$; $0{,}1$ и $0{,}5$; «Обратный проход по „голой“ ленте»"),
    ("pt", "“atribuir subtraindo”, com ‘aspas’ dentro; `print(\"code\")` é código"),
])
def test_decimal_lists_and_quotes_pass(lang, text):
    assert check_text(text, lang) == []
