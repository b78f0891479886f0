"""Issue 38, typography per language, checked where the student reads it: the built notebooks and
every message catalog as it answers (lessons, grader, glosses, minitape.debugging).

* Russian: a no-break space before a dash (no line, rendered or in the notebook's source, starts
  with a dash) and after a one- or two-letter preposition, conjunction or particle, as a Russian
  editor sets them; nested quotes take „…“ (the glossary's quote rule checks the sources).
* Spanish, Portuguese, Russian: one decimal separator per page -- the prose writes a decimal
  comma, and every lesson's opening cell says that Python's output keeps its point (the
  figures' and widgets' numbers follow the prose: tests/lessons/test_figures.py and
  tests/lessons/test_lessons_widgets.py); lists of decimal-comma numbers are separated by
  semicolons (the glossary's check, tests/lessons/test_glossary.py).

The rules here are written independently of ``course_lang.typography`` (the code that applies
them), so a typographer that stops working is caught.
"""

from __future__ import annotations

import json
import re

import pytest

from lessons import LANGS
from lessons.build import student_path
from lessons.glossary import prose_only
from lessons.source import lesson_paths

NAMES = [p.stem for p in lesson_paths()]
NBSP = "\u00a0"
_SHORT = ("а", "в", "во", "и", "к", "ко", "о", "об", "с", "со", "у", "я", "да", "до", "за", "из", "на",
          "не", "ни", "но", "от", "по")
# a short word followed by a breakable space, or by a line break that does not start a block
_BREAK_AFTER_SHORT = re.compile(
    rf"(?<![\w\-])(?:{'|'.join(_SHORT)})(?:[ \t]+|[ \t]*\n[ \t]*(?![#>|]|[*+\-]\s|\d+[.)]\s))(?=[^\s—])",
    re.IGNORECASE)


def _markdown(name: str, lang: str) -> list[tuple[str, str]]:
    nb = json.loads(student_path(name, lang).read_text(encoding="utf-8"))
    return [(c.get("id", ""), "".join(c["source"])) for c in nb["cells"] if c["cell_type"] == "markdown"]


def _breaks(text: str, markdown: bool) -> list[str]:
    """Where a Russian line may break and an editor would not let it."""
    visible = prose_only(text) if markdown else re.sub(
        r"`[^`\n]*`|\{[A-Za-z_][A-Za-z0-9_]*(?:![rsa])?(?::[^{}]*)?\}", lambda m: " " * len(m.group(0)), text)
    found = []
    for m in re.finditer(r"[^\s\u00a0]([ \t]+|[ \t]*\n[ \t]*)—", visible):
        found.append(repr(text[max(0, m.start() - 15):m.end() + 5]))
    if markdown:
        found += [repr(m.group(0)) for m in re.finditer(r"^[ \t]*—", visible, re.M)]
    for m in _BREAK_AFTER_SHORT.finditer(visible):
        found.append(repr(text[max(0, m.start() - 15):m.end() + 10]))
    return found


@pytest.mark.parametrize("name", NAMES)
def test_russian_notebooks_keep_dashes_and_short_words_with_their_neighbours(name):
    cells = _markdown(name, "ru")
    problems = {cid: b for cid, text in cells if (b := _breaks(text, markdown=True))}
    assert not problems, problems
    assert sum(text.count(NBSP) for _, text in cells) > 50, "the Russian notebook has no no-break spaces"


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("lang", ["es", "pt", "ru"])
def test_every_page_says_which_decimal_mark_code_prints(name, lang):
    """The prose writes 0,5; Python prints 0.5. The lesson's first cell says so, once per page."""
    from lessons.i18n import t

    cells = _markdown(name, lang)
    note = t("lessons.decimal_note", lang)
    assert "0,5" in note and "`0.5`" in note
    first = cells[0][1]
    assert first.replace(NBSP, " ").rstrip().endswith(note.replace(NBSP, " ").rstrip()), first[-300:]
    assert sum(text.count("`0.5`") for _, text in cells) >= 1


@pytest.mark.parametrize("name", NAMES)
def test_english_notebooks_have_no_decimal_note(name):
    from lessons.i18n import t

    assert not any(t("lessons.decimal_note", "en")[:20] in text for _, text in _markdown(name, "en"))


def _catalogs():
    from grader.glosses import CATALOG as glosses
    from grader.i18n import CATALOG as grader
    from lessons.i18n import CATALOG as lessons
    from minitape.debugging.messages import CATALOG as debugging

    return {"lessons": lessons, "grader": grader, "grader glosses": glosses, "minitape.debugging": debugging}


def test_russian_messages_keep_dashes_and_short_words_with_their_neighbours():
    """What the catalogs answer in Russian (Catalog.text/t/tn typeset it), for every message the
    course shows: lesson texts and figure labels, the grader's reports and glosses, why_none,
    the tape drawing."""
    problems = {}
    for name, catalog in _catalogs().items():
        for key in catalog.keys():
            if key == "stub.code":  # a code cell's stub: code, not prose
                continue
            text = catalog.text(key, "ru")
            for form in text.split("|") if key.endswith(".plural") else [text]:
                found = _breaks(form, markdown=False)
                if found:
                    problems[f"{name}: {key}"] = found
    assert not problems, problems


def test_a_formatted_russian_message_binds_the_numbers_it_receives():
    from grader.i18n import tn

    text = tn("report.hidden_pending.plural", 5, "ru", count=5)
    assert f"5{NBSP}скрытых" in text and not _breaks(text, markdown=False)


@pytest.mark.parametrize("lang", ["es", "ru"])
def test_a_title_quoted_inside_a_message_takes_the_inner_quotes(lang):
    from grader.i18n import t

    title = {"es": "La cinta «desnuda»", "ru": "Обратный проход по «голой» ленте"}[lang]
    inner = {"es": "“desnuda”", "ru": "„голой“"}[lang]
    text = t("report.title", lang, exercise=title)
    assert inner in text and text.count("«") == 1 and text.count("»") == 1


def test_the_typographer_leaves_english_and_code_alone():
    from lessons.i18n import t

    for name in NAMES[:2]:
        for _, text in _markdown(name, "en"):
            assert NBSP not in text
    assert NBSP not in t("plot.title.function_and_derivative", "en")
    assert LANGS[0] == "en"


def test_no_russian_source_line_starts_with_a_dash():
    """The build joins a dash to the word before it, but a translator reading the source should
    see the text as it will read: no source line of Russian prose starts with a dash."""
    from lessons.source import load_lessons

    starts = [f"{lesson.name}:{prose.key}" for lesson in load_lessons() for prose in lesson.prose
              if re.search(r"^[ \t]*—", prose.texts.get("ru", ""), re.M)]
    assert not starts, starts
