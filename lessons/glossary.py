"""The course's glossary (``lessons/glossary.json``) and the checks that keep texts to it.

For Spanish, Portuguese and Russian the glossary names one term per concept and the variant
terms that must not appear, and the decimal and thousands separators for numbers in prose.
The checks work on plain text, so anything a student reads can be held to them::

    >>> from lessons.glossary import check_text
    >>> [v.found for v in check_text("Usamos el descenso de gradiente con 0.5", "es")]
    ['descenso de gradiente', '0.5']

* ``check_text(text, lang)`` -- the violations in one text;
* ``check_catalog({key: {lang: text}}, origin)`` -- in a message catalog (``lessons/messages/*.json``
  today; the grader's and minitape's catalogs have the same shape);
* ``check_lessons()`` -- in every translated prose cell of ``lessons/src/*.py``;
* ``check_configured_catalogs()`` -- in the JSON catalogs the glossary's ``catalogs`` lists.

What is searched is prose: inline code, fenced code, math, URLs and HTML tags are removed
first (blanked, so that columns stay put), because identifiers and formulas are the same in
every language.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Mapping

from . import LANGS, SOURCE_LANG

GLOSSARY_PATH = Path(__file__).with_name("glossary.json")
REPO_ROOT = Path(__file__).resolve().parent.parent

__all__ = ["Violation", "Glossary", "load", "prose_only", "check_text", "check_catalog",
           "check_lessons", "check_configured_catalogs", "GLOSSARY_PATH"]


@dataclass(frozen=True)
class Violation:
    where: str  # "lessons/src/03-none-gradients.py:596" or "lessons/messages/06-...json: key"
    lang: str
    found: str  # the text that matched
    rule: str  # "gradient descent: use 'descenso del gradiente'" or "decimal separator: ..."

    def __str__(self) -> str:
        return f"{self.where} [{self.lang}] {self.found!r}: {self.rule}"


@dataclass(frozen=True)
class _Variant:
    concept: str
    term: str
    pattern: re.Pattern


@dataclass(frozen=True)
class Glossary:
    variants: dict[str, tuple[_Variant, ...]]  # lang -> variants
    numbers: dict[str, dict[str, str]]  # lang -> {"decimal": ",", "thousands": " ", "list_separator": ";"}
    catalogs: tuple[str, ...]
    terms: dict[str, dict[str, str]]  # concept -> lang -> chosen term
    quotes: dict[str, dict[str, str]] = field(default_factory=dict)  # lang -> {"outer": "«»", "inner": "„“"}


def _compile(raw: Mapping, origin: str) -> Glossary:
    variants: dict[str, list[_Variant]] = {lang: [] for lang in LANGS if lang != SOURCE_LANG}
    terms: dict[str, dict[str, str]] = {}
    for concept, entry in raw["concepts"].items():
        terms[concept] = {SOURCE_LANG: entry[SOURCE_LANG]}
        for lang in variants:
            if lang not in entry:
                raise ValueError(f"{origin}: concept {concept!r} has no {lang!r} entry")
            term, patterns = entry[lang]["term"], entry[lang]["variants"]
            terms[concept][lang] = term
            for pattern in patterns:
                try:
                    # a space in a variant matches any run of white space, so a term wrapped
                    # over two lines ("descenso de\n#   gradiente") is found too
                    spaced = pattern.replace(" ", r"\s+")
                    compiled = re.compile(rf"(?<!\w)(?:{spaced})(?!\w)", re.IGNORECASE)
                except re.error as exc:
                    raise ValueError(f"{origin}: {concept!r} [{lang}] variant {pattern!r}: {exc}") from None
                variants[lang].append(_Variant(concept, term, compiled))
    numbers = {lang: dict(spec) for lang, spec in raw["numbers"].items()}
    missing = sorted(set(variants) - set(numbers))
    if missing:
        raise ValueError(f"{origin}: no number rule for {missing}")
    quotes = {lang: dict(spec) for lang, spec in raw.get("quotes", {}).items()}
    for lang, spec in quotes.items():
        if len(spec.get("outer", "")) != 2 or len(spec.get("inner", "")) != 2:
            raise ValueError(f"{origin}: quotes [{lang}] needs an 'outer' and an 'inner' pair, e.g. «» and „“")
    return Glossary({k: tuple(v) for k, v in variants.items()}, numbers, tuple(raw.get("catalogs", ())),
                    terms, quotes)


@functools.lru_cache(maxsize=None)
def load(path: str | Path = GLOSSARY_PATH) -> Glossary:
    """The glossary in ``path`` (default ``lessons/glossary.json``), compiled."""
    path = Path(path)
    return _compile(json.loads(path.read_text(encoding="utf-8")), str(path))


# Inline code, fenced code, display and inline math, URLs, HTML tags and Markdown link targets.
_NOT_PROSE = re.compile(
    r"```.*?```"  # fenced code
    r"|`[^`\n]*`"  # inline code
    r"|\$\$.*?\$\$"  # display math
    r"|(?<!\\)\$[^$\n]+?(?<!\\)\$"  # inline math
    r"|https?://\S+"  # URLs
    r"|<[^>\n]+>"  # HTML tags (<br>, <b>)
    r"|\]\([^)\n]*\)"  # Markdown link targets
    r"|\{[A-Za-z_][A-Za-z0-9_]*(?:![rsa])?(?::[^{}]*)?\}",  # str.format placeholders in messages
    re.DOTALL,
)


# Math in prose (inline and display), where numbers follow the language too: 0{,}5 in LaTeX.
_MATH = re.compile(r"\$\$.*?\$\$|(?<!\\)\$[^$\n]+?(?<!\\)\$", re.DOTALL)
_MATH_POINT_DECIMAL = re.compile(r"(?<![\w.{])\d+\.\d+")


def prose_only(text: str) -> str:
    """``text`` with code, math, URLs, tags and format placeholders blanked out (same length)."""
    return _NOT_PROSE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def _number_pattern(spec: Mapping[str, str]) -> re.Pattern:
    """Numbers whose decimal or grouping mark is the other language's: '0.5' in Spanish."""
    decimal, thousands = spec["decimal"], spec["thousands"]
    wrong_decimal = "." if decimal == "," else ","
    # A digit, the wrong mark, a digit. Where the language groups thousands with that same mark
    # (Portuguese 1.000.000), groups of exactly three digits are allowed.
    if thousands == wrong_decimal:
        return re.compile(rf"(?<![\w.,])\d+(?:{re.escape(wrong_decimal)}\d+)+(?![\w])")
    return re.compile(rf"(?<![\w.,])\d+{re.escape(wrong_decimal)}\d+")


def _is_grouping(number: str, thousands: str) -> bool:
    head, *groups = number.split(thousands)
    return 1 <= len(head) <= 3 and groups != [] and all(len(g) == 3 for g in groups)


def check_text(text: str, lang: str, where: str = "<text>", glossary: Glossary | None = None,
               first_line: int | None = None) -> list[Violation]:
    """Variant terms and wrong decimal separators in ``text`` written in ``lang``.

    English (the source language) has no rules. ``where`` names the text in the violations;
    when ``first_line`` is given, ``where`` gets ``:line`` of each hit (for source files).
    """
    g = glossary or load()
    if lang == SOURCE_LANG:
        return []
    if lang not in g.variants:
        raise ValueError(f"no glossary rules for language {lang!r}; known: {', '.join(sorted(g.variants))}")
    prose = prose_only(text)
    found: list[tuple[int, Violation]] = []

    def at(pos: int) -> str:
        return where if first_line is None else f"{where}:{first_line + prose.count(chr(10), 0, pos)}"

    for variant in g.variants[lang]:
        for m in variant.pattern.finditer(prose):
            found.append((m.start(), Violation(at(m.start()), lang, m.group(0),
                                               f"{variant.concept}: use {variant.term!r}")))
    spec = g.numbers[lang]
    for m in _number_pattern(spec).finditer(prose):
        number = m.group(0)
        if spec["thousands"] in number and _is_grouping(number, spec["thousands"]):
            continue
        found.append((m.start(), Violation(
            at(m.start()), lang, number,
            f"numbers in {lang} prose use {spec['decimal']!r} as the decimal separator"
            f" and {spec['thousands']!r} between thousands (e.g. {spec.get('example', '')})")))
    found += _list_problems(text, lang, spec, at)
    found += _quote_problems(prose, lang, g, at)
    if spec["decimal"] == ",":
        # the same number inside math ($\eta = 0.1$) must not contradict the prose (0,1)
        for math in _MATH.finditer(text):
            for m in _MATH_POINT_DECIMAL.finditer(math.group(0)):
                found.append((math.start() + m.start(), Violation(
                    at(math.start() + m.start()), lang, m.group(0),
                    f"numbers in {lang} math use a decimal comma too: write "
                    f"{m.group(0).replace('.', '{,}')} (LaTeX's {{,}} sets a comma without a space)")))
    return [v for _, v in sorted(found, key=lambda item: item[0])]


# Lists of numbers written with a decimal comma: the items are separated by a semicolon, or
# "0,5, -0,3" reads as four numbers. In math ($[0{,}5, -0{,}3]$), between formulas
# ($0{,}01$, $0{,}1$) and in prose (0,01, 0,1).
_COMMA_LIST = (
    re.compile(r"\d\{,\}\d+\s*,\s*\\?[-−+]?\s*\d"),                  # 0{,}3, 1 ...
    re.compile(r"\d\s*,\s*\\?[-−+]?\s*\d+\{,\}\d"),                  # ... 1, -0{,}5
    re.compile(r"\d\{,\}\d+\$,\s*\$[^$]*?\d\{,\}\d"),                 # $0{,}01$, $0{,}1$
)
_PROSE_COMMA_LIST = (re.compile(r"(?<![\w.,])\d+,\d+,\s+[-−]?\d"), re.compile(r"(?<![\w.,])\d+,\s+[-−]?\d+,\d"))
_CODE_ONLY = re.compile(r"```.*?```|`[^`\n]*`|https?://\S+|<[^>\n]+>|\]\([^)\n]*\)", re.S)


def _list_problems(text: str, lang: str, spec: Mapping[str, str], at) -> list:
    sep = spec.get("list_separator")
    if not sep or spec["decimal"] != ",":
        return []
    visible = _CODE_ONLY.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    rule = (f"a list of decimal-comma numbers in {lang} separates its items with {sep!r}: "
            f"[0{{,}}5{sep} -0{{,}}3], 0,01{sep} 0,1 y 0,5")
    out = []
    for pattern in _COMMA_LIST:
        for m in pattern.finditer(visible):
            out.append((m.start(), Violation(at(m.start()), lang, m.group(0), rule)))
    prose = prose_only(text)
    for pattern in _PROSE_COMMA_LIST:
        for m in pattern.finditer(prose):
            out.append((m.start(), Violation(at(m.start()), lang, m.group(0), rule)))
    return out


def _quote_problems(prose: str, lang: str, g: "Glossary", at) -> list:
    """Straight double quotes in prose, another language's quotation marks, and quotes nested
    without the inner pair («…«…»…» where Russian writes «…„…“…»)."""
    spec = g.quotes.get(lang)
    if not spec:
        return []
    outer, inner = spec["outer"], spec["inner"]
    out = []
    rule = f"quotes in {lang}: {outer[0]}…{outer[1]}, inside them {inner[0]}…{inner[1]}; no straight quotes"
    for m in re.finditer(r'"', prose):
        out.append((m.start(), Violation(at(m.start()), lang, m.group(0), rule)))
    foreign = set("«»“”„") - set(outer) - set(inner)
    for m in re.finditer(f"[{''.join(sorted(foreign))}]", prose):
        out.append((m.start(), Violation(at(m.start()), lang, m.group(0), rule)))
    if outer[0] != outer[1]:
        depth = 0
        for i, ch in enumerate(prose):
            if ch == outer[0]:
                if depth:
                    out.append((i, Violation(at(i), lang, ch, rule)))
                depth += 1
            elif ch == outer[1] and depth:
                depth -= 1
    return out


def check_catalog(messages: Mapping[str, Mapping[str, str]], origin: str,
                  glossary: Glossary | None = None) -> list[Violation]:
    """Violations in a catalog ``{key: {lang: text}}`` (only the languages the glossary covers)."""
    g = glossary or load()
    out: list[Violation] = []
    for key, texts in messages.items():
        for lang, text in texts.items():
            if lang in g.variants and isinstance(text, str):
                out += check_text(text, lang, where=f"{origin}: {key}", glossary=g)
    return out


def check_lessons(src_dir: Path | None = None, glossary: Glossary | None = None) -> list[Violation]:
    """Violations in the translated prose cells of every lesson source."""
    from .source import SRC_DIR, display_path, load_lessons, Prose

    g = glossary or load()
    out: list[Violation] = []
    for lesson in load_lessons(src_dir or SRC_DIR):
        for cell in lesson.cells:
            if not isinstance(cell, Prose):
                continue
            for lang, text in cell.texts.items():
                if lang in g.variants:
                    # the text starts on the line after the cell's header line
                    out += check_text(text, lang, where=display_path(lesson.path), glossary=g,
                                      first_line=cell.lines[lang] + 1)
    return out


def check_configured_catalogs(root: Path = REPO_ROOT, glossary: Glossary | None = None,
                              patterns: Iterable[str] | None = None) -> list[Violation]:
    """Violations in the JSON catalogs named by the glossary's ``catalogs`` (globs from ``root``)."""
    g = glossary or load()
    out: list[Violation] = []
    for pattern in (g.catalogs if patterns is None else tuple(patterns)):
        paths = sorted(root.glob(pattern))
        if not paths:
            raise FileNotFoundError(f"glossary catalog pattern {pattern!r} matches no file under {root}")
        for path in paths:
            data = json.loads(path.read_text(encoding="utf-8"))
            out += check_catalog(data, str(path.relative_to(root)), glossary=g)
    return out


if __name__ == "__main__":  # python -m lessons.glossary: list every violation, exit 1 if any
    import sys

    problems = check_lessons() + check_configured_catalogs()
    for problem in problems:
        print(problem)
    print(f"{len(problems)} glossary problem(s)", file=sys.stderr)
    sys.exit(1 if problems else 0)
