"""Message catalog for text that code shows in a notebook (plot titles, widget labels).

Code cells are identical in every language, so they cannot contain translated strings. They
call ``t("widgets.tangent.title")`` instead, and the catalog answers in the language of the
running notebook::

    >>> from lessons.i18n import t, set_language
    >>> set_language("es")
    >>> t("plot.title.function_and_derivative")
    'Una función y su derivada'
    >>> t("widgets.tangent.readout", x="1.00", y="0.84", slope="0.54")
    'f(1,00) = 0,84; pendiente f′(1,00) = 0,54'

Language of a running notebook: ``course_lang.current_language`` (the course's one resolver,
shared with the grader and ``minitape.debugging``; order in ``docs/languages.md``): an explicit
``lang`` argument, else ``set_language("es")``, else ``MINITAPE_LANG``, else the notebook's path
(``JPY_SESSION_NAME``, then the working directory: ``lessons/<lang>/`` or an nbgrader assignment
folder ending in ``-<lang>``), else ``"en"``.

The catalog has the course's one shape (``course_lang.Catalog``), *key-major*: each key holds
its text in every language side by side, so a translator sees the English beside their own. Shared messages live in ``MESSAGES`` below;
a lesson's own messages live in ``lessons/messages/NN-name.json`` (same layout, keys prefixed
with the lesson, e.g. ``"l01.sigmoid.title"``) so that lesson authors do not edit one file.
A key missing in a language falls back to English; ``tests/lessons/test_lessons_i18n.py`` asserts
that every key exists in every language.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Mapping

from course_lang import (LANGS, Catalog, current_language, language_from_path, normalize_language, resolve,
                         set_language)
from course_lang.typography import decimal_mark, localize_number

__all__ = [
    "LANGS",
    "MESSAGES",
    "add_messages",
    "CATALOG",
    "catalog",
    "current_language",
    "language_from_path",
    "normalize_language",
    "set_language",
    "t",
]

MESSAGES: dict[str, dict[str, str]] = {
    # ----- notes the build writes into generated notebooks -----------------------------------
    "lessons.stale_translation": {
        "en": "**Translation may be outdated.** The English text of this cell changed after it "
              "was translated; when in doubt, the English version is the reference.",
        "es": "**Esta traducción puede estar desactualizada.** El texto en inglés de esta celda "
              "cambió después de traducirse; ante la duda, la versión en inglés es la de referencia.",
        "pt": "**Esta tradução pode estar desatualizada.** O texto em inglês desta célula mudou "
              "depois de traduzido; na dúvida, a versão em inglês é a referência.",
        "ru": "**Перевод может быть устаревшим.** Английский текст этой ячейки изменился после "
              "перевода; если что-то вызывает сомнения, ориентируйтесь на английскую версию.",
    },
    "lessons.missing_translation": {
        "en": "**Not translated yet.** This cell is shown in English.",
        "es": "**Todavía sin traducir.** Esta celda se muestra en inglés.",
        "pt": "**Ainda não traduzido.** Esta célula aparece em inglês.",
        "ru": "**Ещё не переведено.** Эта ячейка показана на английском.",
    },
    # the first line of a code cell that runs the course's own tools (tf="course" in the source,
    # and every exercise's tests cell; lessons/build.py): such a cell does not exist in TensorFlow
    "lessons.course_only": {
        "en": "The course's tools: this cell does not exist in TensorFlow.",
        "es": "Herramientas del curso: esta celda no existe en TensorFlow.",
        "pt": "Ferramentas do curso: esta célula não existe no TensorFlow.",
        "ru": "Инструменты курса: в TensorFlow этой ячейки нет.",
    },
    # the open questions that end every lesson (a questions=true cell; lessons/build.py)
    "lessons.questions.title": {
        "en": "Questions to think about",
        "es": "Preguntas para pensar",
        "pt": "Perguntas para pensar",
        "ru": "Вопросы для размышления",
    },
    "lessons.questions.intro": {
        "en": "These questions have no single right answer and give no points. Write a few "
              "sentences in the cell under each question (double-click it to edit it), or talk "
              "them over with a classmate. Your answers stay in your notebook: they are handed in "
              "with it, and your teacher can read them.",
        "es": "Estas preguntas no tienen una única respuesta correcta y no dan puntos. Escribe "
              "unas frases en la celda que hay debajo de cada pregunta (haz doble clic en ella para "
              "editarla), o coméntalas con un compañero o una compañera. Tus respuestas se quedan "
              "en tu cuaderno: se entregan con él, y tu profesor o profesora puede leerlas.",
        "pt": "Estas perguntas não têm uma única resposta certa e não valem pontos. Escreva "
              "algumas frases na célula abaixo de cada pergunta (clique duas vezes nela para "
              "editá-la), ou converse sobre elas com um colega. Suas respostas ficam no seu "
              "notebook: são entregues com ele, e seu professor pode lê-las.",
        "ru": "У этих вопросов нет единственного правильного ответа, и баллов за них не дают. "
              "Напишите несколько предложений в ячейке под каждым вопросом (дважды щёлкните по "
              "ней, чтобы её отредактировать) или обсудите их с однокурсником. Ответы остаются в "
              "вашем блокноте: они сдаются вместе с ним, и преподаватель может их прочитать.",
    },
    "lessons.questions.answer": {
        "en": "*Your answer here.*",
        "es": "*Escribe aquí tu respuesta.*",
        "pt": "*Escreva aqui a sua resposta.*",
        "ru": "*Напишите здесь свой ответ.*",
    },
    # ----- plots ------------------------------------------------------------------------------
    "plot.x": {"en": "x", "es": "x", "pt": "x", "ru": "x"},
    "plot.function": {"en": "f(x)", "es": "f(x)", "pt": "f(x)", "ru": "f(x)"},
    "plot.derivative": {
        "en": "f′(x) computed by the tape",
        "es": "f′(x) calculada con la cinta",
        "pt": "f′(x) calculada pela fita",
        "ru": "f′(x), вычисленная лентой",
    },
    "plot.alt.function_and_derivative": {
        "en": "Line chart over x from {lo} to {hi}: the function (solid line) and its derivative "
              "computed by the tape (dashed line); the derivative is zero where the function has "
              "a peak or a valley, positive where it rises and negative where it falls.",
        "es": "Gráfico de líneas sobre x de {lo} a {hi}: la función (línea continua) y su derivada "
              "calculada con la cinta (línea discontinua); la derivada vale cero donde la función "
              "tiene un pico o un valle, es positiva donde sube y negativa donde baja.",
        "pt": "Gráfico de linhas sobre x de {lo} a {hi}: a função (linha contínua) e sua derivada "
              "calculada pela fita (linha tracejada); a derivada vale zero onde a função tem um "
              "pico ou um vale, é positiva onde ela sobe e negativa onde desce.",
        "ru": "Линейный график по x от {lo} до {hi}: функция (сплошная линия) и её производная, "
              "вычисленная лентой (штриховая линия); производная равна нулю там, где у функции "
              "вершина или впадина, положительна там, где функция растёт, и отрицательна там, "
              "где убывает.",
    },
    "plot.title.function_and_derivative": {
        "en": "A function and its derivative",
        "es": "Una función y su derivada",
        "pt": "Uma função e sua derivada",
        "ru": "Функция и её производная",
    },
    # ----- tangent explorer widget ----------------------------------------------------------
    "widgets.tangent.title": {
        "en": "The tangent's slope is the gradient the tape computes",
        "es": "La pendiente de la tangente es el gradiente que calcula la cinta",
        "pt": "A inclinação da tangente é o gradiente que a fita calcula",
        "ru": "Наклон касательной — это градиент, который вычисляет лента",
    },
    # the closing note of every lesson's title cell where the language writes a decimal comma
    # (lessons/build.py): prose, figures and readouts write the comma, Python's output the point
    "lessons.decimal_note": {
        "en": "> **About numbers.** The text, the figures and the widgets' readouts write decimals "
              "with a point (0.5), as Python and NumPy do. (Shown only where the language writes a "
              "decimal comma.)",
        "es": "> **Sobre los números.** En el texto, en las figuras y en las lecturas de los "
              "controles interactivos, los decimales llevan coma (0,5), como se escribe en español. "
              "Python, NumPy y los deslizadores escriben siempre un punto (`0.5`): así aparecen los "
              "números en el código, en lo que imprimen las celdas y en la casilla de un deslizador.",
        "pt": "> **Sobre os números.** No texto, nas figuras e nas leituras dos controles "
              "interativos, os decimais levam vírgula (0,5), como se escreve em português. Python, "
              "NumPy e os controles deslizantes escrevem sempre um ponto (`0.5`): é assim que os "
              "números aparecem no código, no que as células imprimem e no campo de um controle "
              "deslizante.",
        "ru": "> **О записи чисел.** В тексте, на графиках и в подписях к интерактивным элементам "
              "десятичные дроби записываются с запятой (0,5), как принято в русском языке. Python, "
              "NumPy и ползунки всегда пишут точку (`0.5`): так числа выглядят в коде, в том, что "
              "печатают ячейки, и в поле ползунка.",
    },
    "widgets.tangent.slider": {"en": "point x", "es": "punto x", "pt": "ponto x", "ru": "точка x"},
    "widgets.tangent.point": {"en": "point", "es": "punto", "pt": "ponto", "ru": "точка"},
    "widgets.tangent.tangent": {"en": "tangent", "es": "tangente", "pt": "tangente", "ru": "касательная"},
    "widgets.tangent.readout": {
        "en": "f({x}) = {y}; slope f′({x}) = {slope}",
        "es": "f({x}) = {y}; pendiente f′({x}) = {slope}",
        "pt": "f({x}) = {y}; inclinação f′({x}) = {slope}",
        "ru": "f({x}) = {y}; наклон f′({x}) = {slope}",
    },
}



def _load_message_files(into: Catalog) -> None:
    """The lessons' own messages, ``lessons/messages/NN-name.json`` (loaded at the first lookup)."""
    folder = Path(__file__).with_name("messages")
    for path in sorted(folder.glob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}:{exc.lineno}: invalid JSON in message file: {exc.msg}") from None
        if not isinstance(data, dict):
            raise ValueError(f"{path}: a message file holds one JSON object {{key: {{lang: text}}}}")
        into.add(data, origin=str(path))


CATALOG = Catalog("lessons", MESSAGES, where="lessons/i18n.py, lessons/messages/", load=_load_message_files)


def add_messages(messages: Mapping[str, Mapping[str, str]], origin: str = "add_messages") -> None:
    """Add messages (``{key: {lang: text}}``) to the catalog; a key may not be defined twice."""
    CATALOG.add(messages, origin)


def catalog() -> dict[str, dict[str, str]]:
    """Every message, shared and per-lesson (a copy)."""
    return CATALOG.entries()


class _Number:
    """A float handed to a message: formatted by the message's own spec (``{nudge:.8f}``), then
    written with the language's decimal mark (``3,15164366`` in es, pt and ru), as the prose
    around it is. Only the course's own sentences do this; Python's output keeps its point."""

    __slots__ = ("value", "lang")

    def __init__(self, value: float, lang: str) -> None:
        self.value, self.lang = value, lang

    def __format__(self, spec: str) -> str:
        return localize_number(format(self.value, spec), self.lang)

    def __str__(self) -> str:
        return localize_number(str(self.value), self.lang)


_NUMBER_TEXT = re.compile(r"[−-]?\d+(?:\.\d+)?(?:e[+-]?\d+)?%?")


def _numbers(lang: str | None, kwargs: dict) -> dict:
    """``kwargs`` with every number -- a float, or a number the caller already formatted
    (``f"{x:.3f}"``) -- written with the language's decimal mark."""
    code = resolve(lang)
    if decimal_mark(code) == ".":
        return kwargs
    out = {}
    for k, v in kwargs.items():
        if _is_float(v):
            v = _Number(float(v), code)
        elif isinstance(v, str) and _NUMBER_TEXT.fullmatch(v):
            v = localize_number(v, code)
        out[k] = v
    return out


def _is_float(value: object) -> bool:
    """A Python float (NumPy's float64 is one) or a NumPy floating scalar (float32, ...)."""
    if isinstance(value, float):
        return True
    dtype = getattr(value, "dtype", None)
    return getattr(dtype, "kind", "") == "f" and getattr(value, "ndim", None) == 0


def t(key: str, lang: str | None = None, /, **kwargs: object) -> str:
    """The message ``key`` in ``lang`` (default: ``current_language()``), formatted with kwargs.

    Falls back to English when the language lacks the key; an unknown key is a KeyError
    (a typo in a lesson should fail loudly, not show the key to students). A number argument (a
    float, formatted by the message's spec, or a number already formatted as text) is written
    with the language's decimal mark: ``t("l06.losses", first="0.0123", ...)`` says ``0,0123``
    in Spanish, as the prose does.
    """
    return CATALOG.t(key, lang, **_numbers(lang, kwargs))
