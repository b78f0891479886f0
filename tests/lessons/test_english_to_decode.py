"""Issue 38: no English a student must decode. Target 0 per language: code identifiers stay code
(set as code in prose; in a plain-text message, written the way code is: `tape.gradient`,
`persistent=True`, `float32`), an English term the field uses appears only with its gloss, and
a name (micrograd, HIPS autograd) is introduced where it first appears.

What is read: every translated prose cell, every message catalog (the lessons', the grader's
reports and glosses, minitape.debugging's why_none and drawing texts) and what the grader's
reports show about an exercise (titles, technique texts, the visible checks' labels).

* Russian is written in Cyrillic: a Latin word outside code, math and an English original in
  parentheses is either on the list of names and symbols below or a word to translate.
* Spanish and Portuguese share the Latin script with English, so the English words the native
  reviews found (Python's type names in sentences, `dtype`, check labels, framework, ...) are
  listed, and each must not appear outside code or a parenthesised gloss.
* In every language, English included, the first time a lesson names micrograd, autograd or a
  closure, a kit, broadcasting or eager execution, it says what that is, in parentheses.
"""

from __future__ import annotations

import functools
import re

import pytest

from lessons.source import load_lessons

# names, abbreviations and symbols a Russian text keeps in Latin letters
RU_LATIN_OK = {
    "minitape", "micrograd", "autograd", "HIPS", "JAX", "Python", "TensorFlow", "NumPy", "Keras", "CuPy",
    "PyTorch", "JupyterLab", "Jupyter", "Binder", "matplotlib", "ipywidgets", "LiteRT", "Serving", "SavedModel",
    "NVIDIA", "GPU", "CPU", "TPU", "API", "MLP", "MSE", "SGD", "Adam", "XOR", "ReLU", "VJP", "JVP", "NaN",
    "inf", "None", "True", "False", "softmax", "softplus", "tanh", "sin", "cos", "exp", "log", "matmul",
    "GradientTape", "Value", "Tape", "hinge", "Hinge", "float", "int", "MiB", "KB",
}
# English words the reviews found in Spanish and Portuguese texts (the borrowed terms a lesson
# glosses -- kit, broadcasting, eager -- are held by the first-use test below and the glossary)
ES_PT_ENGLISH = re.compile(
    r"(?<![\w`*])(?:list|tuple|dict|dtype|steps|points|ours|column|output|input|outputs|inputs|framework|"
    r"frameworks|closure)(?![\w`*])")
# the names glossed the first time a lesson uses them, in every language; and the borrowed terms
# glossed in Spanish, Portuguese and Russian (English keeps its own words: closure, kit, ...)
INTRODUCED_NAMES = ("micrograd", "autograd")
INTRODUCED_TERMS = ("closure", "kit", "broadcasting", "eager")

_CODE = re.compile(r"```.*?```|`[^`]*`|https?://\S+|<[^>\n]+>|\]\([^)\n]*\)", re.S)
_MATH = re.compile(r"\$\$.*?\$\$|(?<!\\)\$[^$]+?(?<!\\)\$", re.S)
_PLACEHOLDER = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*(?:![rsa])?(?::[^{}]*)?\}")
# what plain-text messages write as code: dotted names, calls, keywords, snake_case, dtypes
_CODE_LIKE = re.compile(r"[A-Za-z_][\w.]*\([^()]*\)|[A-Za-z_][\w.]*(?:\(\)|\(|=\S*|\.\w+|_\w+)|\b(?:float|int)\d+\b|\b[A-Za-z]\w*\d\w*\b"
                        r"|\bdel \w+")
_PAREN = re.compile(r"\([^()]*\)")
_QUOTED = re.compile(r"«[^«»]*»|“[^“”]*”")
_WORD = re.compile(r"(?<![\w\-])[A-Za-z][A-Za-z'\-]*(?![\w])")


def _blank(pattern: re.Pattern, text: str) -> str:
    return pattern.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def _visible(text: str, glosses: bool = True) -> str:
    """``text`` without code, math, placeholders, quoted messages and (``glosses``) parentheses."""
    for pattern in (_CODE, _MATH, _PLACEHOLDER, _CODE_LIKE, _QUOTED) + ((_PAREN,) if glosses else ()):
        text = _blank(pattern, text)
    return text


@functools.lru_cache(maxsize=None)
def _lessons():
    return load_lessons()


@functools.lru_cache(maxsize=None)
def _texts(lang: str) -> tuple[tuple[str, str], ...]:
    """(where, text) for everything a student reads in ``lang``."""
    return tuple(_each_text(lang))


def _each_text(lang: str):
    from grader.glosses import CATALOG as glosses
    from grader.i18n import CATALOG as grader
    from grader.student.registry import all_exercises
    from lessons.i18n import CATALOG as lessons
    from minitape.debugging.messages import CATALOG as debugging

    for lesson in _lessons():
        for prose in lesson.prose:
            if lang in prose.texts:
                yield f"{lesson.name}:{prose.key}", prose.texts[lang]
    for name, catalog in (("lessons", lessons), ("grader", grader), ("glosses", glosses),
                          ("minitape.debugging", debugging)):
        for key, texts in catalog.entries().items():
            # the instructor's class report and the code stub are not read by a student
            if lang in texts and not key.startswith("classreport.") and key != "stub.code":
                yield f"{name}:{key}", texts[lang]
    for ex_id, ex in all_exercises().items():
        yield f"{ex_id}.title", ex.title[lang]
        for i, technique in enumerate(ex.techniques):
            yield f"{ex_id}.technique{i}", technique.description.get(lang, "")
        for pattern in ex.mistakes:
            yield f"{ex_id}.{pattern.name}.title", pattern.title.get(lang, "")
            yield f"{ex_id}.{pattern.name}.hint", pattern.hint.get(lang, "")
        # a check's label names the function's arguments: code, whatever language
        arguments = re.findall(r"\w+", ex.signature.partition("(")[2]) if ex.signature else []
        for i, case in enumerate(ex.visible):
            label = case.label.get(lang, "") if isinstance(case.label, dict) else (case.label or "")
            for name in arguments + ["learning_rate"]:
                label = re.sub(rf"\b{name}\b", lambda m: " " * len(m.group(0)), label)
            yield f"{ex_id}.visible{i}", label


def test_russian_texts_have_no_latin_words_to_decode():
    found = {}
    for where, text in _texts("ru"):
        words = [w for w in _WORD.findall(_visible(text)) if len(w) > 2 and w not in RU_LATIN_OK]
        if words:
            found[where] = words
    assert not found, found


@pytest.mark.parametrize("lang", ["es", "pt"])
def test_spanish_and_portuguese_texts_have_no_english_words_to_decode(lang):
    found = {}
    for where, text in _texts(lang):
        words = ES_PT_ENGLISH.findall(_visible(text))
        if words:
            found[where] = words
    assert not found, found


@pytest.mark.parametrize("lang", ["en", "es", "pt", "ru"])
def test_names_and_borrowed_terms_are_glossed_where_a_lesson_first_uses_them(lang):
    introduced = INTRODUCED_NAMES + (INTRODUCED_TERMS if lang != "en" else ())
    """micrograd is "Andrej Karpathy's teaching autodiff engine" the first time a lesson names it;
    "broadcasting" comes with what it is; and so on, in every lesson and language."""
    problems = []
    for lesson in _lessons():
        seen = set()
        for prose in lesson.prose:
            text = prose.texts.get(lang)
            if not text:
                continue
            visible = _blank(_CODE, _blank(_MATH, text))
            for term in introduced:
                if term in seen:
                    continue
                m = re.search(rf"(?<![\w`]){term}\w*", visible, re.IGNORECASE)
                if not m:
                    continue
                seen.add(term)
                # glossed: "micrograd (Andrej Karpathy's ...)", "autograd, the Harvard HIPS group's
                # library", "*closure* do Python (uma função ...)", or the term itself in the
                # parentheses after the language's word: "транслирование (*broadcasting*: ...)"
                after = visible[m.end():m.end() + 20]
                before = visible[max(0, m.start() - 2):m.start()]
                if not (re.match(r"[^.;:()]{0,15}?(?:\(|,\s|\s—\s)", after) or before.endswith("(")
                        or before == "(*"):
                    problems.append(f"{lesson.name}:{prose.key} {visible[m.start():m.end() + 30]!r}")
    assert not problems, problems


@pytest.mark.parametrize("lang, text, found", [
    ("es", "Se esperaba un list de 2 gradientes, pero el dtype es int64", ["list", "dtype"]),
    ("pt", "w = 0.8, 6 steps, k = 2; qualquer framework; uma closure do Python", ["steps", "framework", "closure"]),
    ("es", "la expansión (broadcasting) y `list`, `tf.Variable`", []),
])
def test_the_spanish_and_portuguese_rule_finds_the_reviewed_words(lang, text, found):
    assert ES_PT_ENGLISH.findall(_visible(text)) == found


def test_the_russian_rule_finds_latin_words_and_spares_code_and_glosses():
    def latin(text):
        return [w for w in _WORD.findall(_visible(text)) if len(w) > 2 and w not in RU_LATIN_OK]

    assert latin("Источник — уже не Variable, а обычный Tensor; list из 2 градиентов") == [
        "Variable", "Tensor", "list"]
    assert latin("лента (*gradient tape*); `tf.Variable`; persistent=True; float32; tape.gradient()") == []
