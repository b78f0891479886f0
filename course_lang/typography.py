"""Typography the course's languages need and plain text cannot hold by itself.

What a Russian, Spanish or Portuguese editor does to a page before it is printed, done where text
reaches a student: the lessons' build applies :func:`typeset` to every prose cell (markdown), and
:class:`course_lang.Catalog` to every message it returns (lessons, grader, ``minitape.debugging``),
so translators write ordinary spaces and quotes and the student reads the typeset text.

* **Russian no-break spaces** (:func:`russian_spaces`), the rules of Russian editorial practice
  (Мильчин, «Справочник издателя и автора»): a no-break space (U+00A0) before a dash (``сеть — значит``:
  a line never starts with a dash), after a one- or two-letter preposition, conjunction or particle
  (``в уроке``, ``и тензор``, ``не отслеживается``), between a number and the word it counts
  (``7,6 МиБ``, ``3 балла``), before ``ли``, ``же``, ``бы``, and inside ``т. е.``, ``т. д.``,
  ``т. п.``. In markdown a line break is a space: a dash that starts a line, or a preposition that
  ends one, is joined to its neighbour by the no-break space.
* **Nested quotes** (:func:`nest_quotes`): quotes inside quotes take the language's inner pair --
  ru «…„…“…», es «…“…”…», pt “…‘…’…” -- however the text was assembled (a title in «…» put inside
  a message that quotes it).
* **Decimal marks** (:data:`DECIMAL_MARK`, :func:`localize_number`): the mark a language writes
  in prose (a comma in es, pt and ru), for numbers the course formats itself (figure ticks, widget
  readouts, the numbers inside a sentence); Python's own output keeps its point.

Code (``` `...` ```, fenced blocks), math (``$...$``), URLs, HTML tags, link targets and
``{placeholders}`` are never touched. Everything here is idempotent: typesetting typeset text
changes nothing. Standard library only, like the rest of :mod:`course_lang`.
"""
from __future__ import annotations

import functools
import re

__all__ = ["DECIMAL_MARK", "NBSP", "decimal_mark", "localize_number", "nest_quotes",
           "russian_spaces", "typeset"]

NBSP = "\u00a0"

# The decimal mark of numbers written in prose, per language (lessons/glossary.json "numbers"
# says the same for the glossary's checks; tests/lessons/test_glossary.py holds the two together).
DECIMAL_MARK = {"en": ".", "es": ",", "pt": ",", "ru": ","}

# quotes: (outer open, outer close, inner open, inner close)
_QUOTES = {"ru": ("«", "»", "„", "“"), "es": ("«", "»", "“", "”"), "pt": ("“", "”", "‘", "’")}

# spans that are not prose: fenced code, inline code, display and inline math, URLs, HTML tags,
# markdown link targets, str.format placeholders
_PROTECTED_MARKDOWN = re.compile(
    r"```.*?```|`[^`\n]*`|\$\$.*?\$\$|(?<!\\)\$[^$\n]+?(?<!\\)\$|https?://\S+|<[^>\n]+>|\]\([^)\n]*\)"
    r"|\{[A-Za-z_][A-Za-z0-9_]*(?:![rsa])?(?::[^{}]*)?\}", re.S)
_PROTECTED_PLAIN = re.compile(
    r"`[^`\n]*`|https?://\S+|\{[A-Za-z_][A-Za-z0-9_]*(?:![rsa])?(?::[^{}]*)?\}")
_MASK = "\ue000"  # stands in for a protected character: neither a word character nor a space

# a run of spaces, or (in markdown) spaces around one line break that does not end a paragraph
_SPACE_PLAIN = r"[ \t\u00a0]+"
# (never the line break before a heading, a list item, a quote or a table row: those start blocks)
_SPACE_MARKDOWN = (r"(?:[ \t\u00a0]*\n[ \t]*(?![ \t]*\n)(?![#>|]|[*+\-][ \t]|\d+[.)][ \t])"
                   r"|[ \t\u00a0]+)")

_SHORT_WORDS = ("а", "в", "во", "и", "к", "ко", "о", "об", "обо", "с", "со", "у", "я", "да", "до",
                "за", "из", "на", "не", "ни", "но", "от", "по")
_SHORT = "|".join(sorted({w for s in _SHORT_WORDS for w in (s, s.capitalize())}, key=len, reverse=True))


@functools.lru_cache(maxsize=8)
def _rules(markdown: bool) -> tuple[re.Pattern, ...]:
    w = _SPACE_MARKDOWN if markdown else _SPACE_PLAIN
    return (
        # a dash, after a word, a closing bracket, quote or code: never at the start of a line
        re.compile(rf"(?<=[^\s])({w})(?=—(?:[ \u00a0\n]|$))"),
        # a short preposition, conjunction or particle keeps the next word
        re.compile(rf"(?<![\w\-]){'(?:' + _SHORT + ')'}({w})(?=[^\s—])"),
        # a number keeps the word it counts (7,6 МиБ; 3 балла), and its groups of thousands
        re.compile(rf"(?<=\d)({w})(?=[А-Яа-яЁё%°])"),
        re.compile(rf"(?<=\d)({w})(?=\d{{3}}(?![\d.,]))"),
        re.compile(rf"(?<=№)({w})(?=\d)"),
        # and the word that names it stays with a number after it (урок 3, шаг 5, рис. 2)
        re.compile(rf"(?<!\w)(?:[Уу]рок|[Уу]пражнени|[Шш]аг|[Гг]лав|[Рр]ис\.|§)\w*({w})(?=\d)"),
        # ли, же, бы stay with the word before them
        re.compile(rf"(?<=\w)({w})(?=(?:ли|же|бы)(?!\w))"),
        # т. е., т. д., т. п.
        re.compile(rf"(?<=(?<!\w)т\.)({w})(?=[едп]\.)"),
    )


def _masked(text: str, markdown: bool) -> str:
    pattern = _PROTECTED_MARKDOWN if markdown else _PROTECTED_PLAIN
    return pattern.sub(lambda m: re.sub(r"[^\n]", _MASK, m.group(0)), text)


def russian_spaces(text: str, markdown: bool = False) -> str:
    """``text`` with no-break spaces where Russian typography puts them (see the module's
    docstring). ``markdown``: ``text`` is markdown, where a single line break is a space (a dash
    or a preposition across one is joined); otherwise only spaces are replaced."""
    if not text:
        return text
    for rule in _rules(markdown):
        masked = _masked(text, markdown)
        spans = [m.span(1) for m in rule.finditer(masked)]
        if not spans:
            continue
        out, last = [], 0
        for start, end in spans:
            out += [text[last:start], NBSP]
            last = end
        out.append(text[last:])
        text = "".join(out)
    return text


def nest_quotes(text: str, lang: str) -> str:
    """Quotes inside quotes take the language's inner pair: ru «…„…“…», es «…“…”…», pt “…‘…’…".
    Only the outer pair is rewritten where it appears nested; unbalanced text is left alone."""
    marks = _QUOTES.get(lang)
    if marks is None or marks[0] not in text:
        return text
    open_, close, inner_open, inner_close = marks
    if open_ == close:  # pragma: no cover - every language here has distinct marks
        return text
    out, depth = [], 0
    for ch in text:
        if ch == open_:
            out.append(open_ if depth == 0 else inner_open)
            depth += 1
        elif ch == close and depth:
            depth -= 1
            out.append(close if depth == 0 else inner_close)
        else:
            out.append(ch)
    return "".join(out) if depth == 0 else text


@functools.lru_cache(maxsize=4096)
def typeset(text: str, lang: str, markdown: bool = False) -> str:
    """Everything this module does for ``lang``: nested quotes, and for Russian the no-break
    spaces. English and unknown languages come back unchanged."""
    if lang not in _QUOTES or not isinstance(text, str):
        return text
    text = nest_quotes(text, lang)
    if lang == "ru":
        text = russian_spaces(text, markdown)
    return text


def decimal_mark(lang: str) -> str:
    """The decimal mark of numbers in ``lang``'s prose ("," in es, pt, ru; "." in en)."""
    return DECIMAL_MARK.get(lang, ".")


_DECIMAL_POINT = re.compile(r"(?<=\d)\.(?=\d)")


def localize_number(text: str, lang: str) -> str:
    """A number the course formatted (``f"{x:.3f}"``, a tick label) written with ``lang``'s
    decimal mark: ``"-0.25"`` -> ``"-0,25"`` in es, pt and ru. Only a point between two digits
    changes, so ``"1e-05"``, ``"x0 = 2"`` and words are left as they are."""
    mark = decimal_mark(lang)
    return text if mark == "." else _DECIMAL_POINT.sub(mark, text)
