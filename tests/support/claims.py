"""The lessons' claim registry: every sentence that states what TensorFlow, minitape, NumPy or a
figure does names a check that runs it.

**In the source** a claim is marked right after its sentence, ``<!-- claim: l03.int-silent -->``
(``lessons.source.CLAIM_MARKER``); the four translations of the sentence carry the same id, and
the build removes the markers (students never see them; translation hashes ignore them).

**Which sentences must carry one** (:func:`claim_sentences`): in every language, each sentence of a
prose cell (or of a figure's text alternative) that names an engine -- ``TensorFlow``, ``minitape``,
``NumPy``, ``Keras``, in code or not, the names are the same in every language -- or a figure, a
line style or a plot (per language: *figure*, *figura*, *рисунок*, *dashed*, *punteada*,
*пунктир*, ...). Headings and the closing open questions' headings are not sentences; a sentence
that only shows the switch (```import minitape as tf```) names no behaviour. What a sentence
says about ``tf.X`` without naming an engine is shown by the code cell after it, which the
TensorFlow tier runs under both engines and compares (``tests/lessons/test_lessons_tensorflow.py``).

**A check** is a function registered here under the claim's id, for the engines it speaks of:

* ``@claim(id, lesson, engines, text)`` -- run inside the lesson's process under each engine
  named, after the lesson's cells ran there (``tests.support.lesson_engines``): it gets a
  :class:`Context` (the engine module ``tf``, the cells' records, the lesson's namespace) and
  raises ``AssertionError`` when the claim does not hold;
* ``@compare_claim(id, lesson, text)`` -- run by the TensorFlow tier's test with both runs of the
  lesson, for claims about the two engines side by side ("runs unchanged").

``tests/lessons/test_claims.py`` (fast tier) fails for a sentence of that kind without a marker,
for an unknown id, for translations that carry other ids than the English, and for a registered
claim no lesson uses; the TensorFlow tier fails for a check that no longer holds.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

BOTH = ("minitape", "tensorflow")
MINITAPE = ("minitape",)
TENSORFLOW = ("tensorflow",)

# ------------------------------------------------------------------------------------------------
# Which sentences are claims
# ------------------------------------------------------------------------------------------------
ENGINE_NAMES = re.compile(r"\b(TensorFlow|minitape|NumPy|Keras)\b")
FIGURE_WORDS = {
    "en": r"\b(figures?|plots?|charts?|drawings?|a picture|the picture|pictures|dashed|dotted|solid line|bars)\b",
    "es": r"\b(figuras?|gráfic[oa]s?|dibujos?|discontinuas?|punteadas?|línea continua|barras)\b",
    "pt": r"\b(figuras?|gráficos?|desenhos?|tracejad[oa]s?|pontilhad[oa]s?|linha contínua|barras)\b",
    "ru": r"(рисун\w*|картинк\w*|диаграмм\w*|пунктир\w*|штрих\w*|сплошн\w*)",
}
# a code span that only shows the switch between the engines names no behaviour
_SWITCH = re.compile(r"`import (minitape|tensorflow) as tf`")
_CODE_BLOCK = re.compile(r"```.*?```", re.S)
_MATH_BLOCK = re.compile(r"\$\$.*?\$\$", re.S)
_MATH = re.compile(r"\$[^$\n]+\$")
_CODE = re.compile(r"`[^`\n]+`")


@dataclass
class Sentence:
    text: str  # the sentence, markers removed
    ids: list[str]  # the claim ids marked on it


def _protect(text: str) -> tuple[str, list[str]]:
    """Code spans and math as placeholders (their dots do not end a sentence)."""
    kept: list[str] = []

    def keep(m):
        kept.append(m.group(0))
        return f"\x00{len(kept) - 1}\x00"

    text = _CODE_BLOCK.sub(" ", text)
    text = _MATH_BLOCK.sub(" M ", text)
    text = _MATH.sub("M", text)
    text = _CODE.sub(keep, text)
    return text, kept


def _restore(text: str, kept: list[str]) -> str:
    return re.sub(r"\x00(\d+)\x00", lambda m: kept[int(m.group(1))], text)


_MARK = re.compile(r"<!--\s*claim:\s*([a-z0-9][a-z0-9._-]*)\s*-->")
# a sentence ends at . ! ? (or a colon before a list) followed by a space and a capital, a code
# span, a bracket, a quote or a digit; list items and paragraphs are sentences of their own
_END = re.compile(r"(?<=[.!?])\s+(?=[\"«“(\x00A-ZÁÉÍÓÚÑÇÂÊÔÃÕА-ЯЁ0-9*])|(?<=-->)\s+(?!<!--)")


def sentences(text: str) -> list[Sentence]:
    """The sentences of a prose text, each with the claim ids marked right after it."""
    protected, kept = _protect(text)
    out: list[Sentence] = []
    for block in re.split(r"\n\s*\n|\n(?=\s*(?:[-*] |\d+\. |#))", protected):
        if block.lstrip().startswith("#"):  # a heading
            continue
        block = re.sub(r"\s+", " ", block).strip()
        block = re.sub(r"^(?:[-*]|\d+\.)\s+", "", block)
        if not block:
            continue
        parts = _END.split(block)
        for part in parts:
            ids = _MARK.findall(part)
            if not ids and out and not part.strip().replace("<!--", "").strip():
                continue
            plain = _MARK.sub("", part).strip()
            if not plain:  # a marker alone after the sentence it backs
                if out:
                    out[-1].ids += ids
                continue
            out.append(Sentence(_restore(plain, kept), ids))
    # a marker at the very start of the next part belongs to the sentence before it
    return out


def _names_behaviour(sentence: str, lang: str) -> bool:
    text = _SWITCH.sub(" ", sentence)
    return bool(ENGINE_NAMES.search(text) or re.search(FIGURE_WORDS[lang], text, re.I))


def claim_sentences(text: str, lang: str = "en") -> list[Sentence]:
    """The sentences of ``text`` (in ``lang``) that must carry a claim marker."""
    return [s for s in sentences(text) if _names_behaviour(s.text, lang)]


# ------------------------------------------------------------------------------------------------
# The registry
# ------------------------------------------------------------------------------------------------
@dataclass
class Claim:
    id: str
    lesson: str  # "03": the lesson whose run the check uses ("*": every lesson's)
    engines: tuple[str, ...]  # where it runs; () for a claim comparing both runs
    text: str  # what it states, in English (documentation)
    check: Callable[..., Any] = field(repr=False)


REGISTRY: dict[str, Claim] = {}


def claim(claim_id: str, lesson: str, engines: tuple[str, ...], text: str):
    """Register ``fn(c: Context)`` as the check of ``claim_id``, run under each of ``engines``."""
    def register(fn):
        if claim_id in REGISTRY:
            raise ValueError(f"claim {claim_id!r} is registered twice")
        REGISTRY[claim_id] = Claim(claim_id, lesson, tuple(engines), text, fn)
        return fn
    return register


def compare_claim(claim_id: str, lesson: str, text: str):
    """Register ``fn(tf_run, mt_run)`` as the check of ``claim_id`` (both runs of ``lesson``)."""
    def register(fn):
        if claim_id in REGISTRY:
            raise ValueError(f"claim {claim_id!r} is registered twice")
        REGISTRY[claim_id] = Claim(claim_id, lesson, (), text, fn)
        return fn
    return register


@dataclass
class Context:
    """What an engine claim's check sees: the engine, the lesson's cells as they ran, its names."""

    tf: Any
    engine: str
    cells: list[dict]
    env: dict

    def cell(self, key: str) -> dict:
        for cell in self.cells:
            if cell["key"] == key:
                assert cell.get("ran"), f"cell {key} did not run under {self.engine}"
                return cell
        raise KeyError(f"no cell {key!r} in this lesson")

    def stdout(self, key: str) -> str:
        return self.cell(key)["stdout"]

    def figure(self, key: str, index: int = 0) -> dict:
        figures = self.cell(key)["figures"]
        assert len(figures) > index, f"cell {key} showed {len(figures)} figure(s)"
        return figures[index]

    @property
    def is_tf(self) -> bool:
        return self.engine == "tensorflow"


def _load() -> None:
    from tests.support import claim_checks  # noqa: F401 -- registers the checks


def run_engine_claims(lesson: str, engine: str, tf, cells: list[dict], env: dict) -> dict:
    """Every claim of ``lesson`` that speaks of ``engine``, checked after the lesson ran."""
    import traceback

    _load()
    ctx = Context(tf, engine, cells, env)
    out = {}
    for item in REGISTRY.values():
        if item.lesson != lesson[:2] or engine not in item.engines:
            continue
        try:
            item.check(ctx)
            out[item.id] = {"ok": True, "error": None}
        except Exception as error:  # noqa: BLE001 - reported as the claim's failure
            where = traceback.extract_tb(error.__traceback__)[-1]
            out[item.id] = {"ok": False, "error": f"{type(error).__name__}: {error} "
                                                  f"(tests/support/claim_checks.py:{where.lineno})"}
    return out


def run_compare_claims(lesson: str, tf_run: dict, mt_run: dict) -> dict[str, str]:
    """The claims comparing both runs of ``lesson``: ``{id: why it does not hold}`` (empty: all hold)."""
    _load()
    failed = {}
    for item in REGISTRY.values():
        if item.lesson not in (lesson[:2], "*") or item.engines:
            continue
        try:
            item.check(tf_run, mt_run)
        except Exception as error:  # noqa: BLE001
            failed[item.id] = f"{type(error).__name__}: {error}"
    return failed


def registry() -> dict[str, Claim]:
    _load()
    return dict(REGISTRY)


# ------------------------------------------------------------------------------------------------
# Figures: a text alternative names only line styles and units the figure draws
# ------------------------------------------------------------------------------------------------
# line-style words per language (this course's words: in its Russian, штриховая is dashed and
# пунктир dotted) -> the Matplotlib style that must be drawn; "hatched"/"plain" are bars
STYLE_WORDS = {
    "en": {r"\bsolid\b": "-", r"\bdashed\b": "--", r"\bdotted\b": ":", r"\bhatched\b": "hatch",
           r"\bplain bars\b": "plain"},
    "es": {r"\b(?<!dis)continua\b": "-", r"\bdiscontinuas?\b": "--", r"\bpunteadas?\b": ":",
           r"\brayadas\b": "hatch", r"\blisas\b": "plain"},
    "pt": {r"\bcontínuas?\b": "-", r"\btracejad[oa]s?\b": "--", r"\bpontilhad[oa]s?\b": ":",
           r"\bhachurad[oa]s\b": "hatch", r"\blisas\b": "plain"},
    "ru": {r"сплошн\w* (?:лини|кривая)": "-", r"штрихов(?!ан)\w*": "--", r"пунктир\w*": ":",
           r"заштрихованн\w*": "hatch", r"сплошн\w* столб": "plain"},
}
UNITS = re.compile(r"(?<![\w/])(MiB|MB|KiB|kB|KB|GiB|GB|МиБ|МБ|ГиБ|ГБ)(?!\w)")


def _drawn(figure: dict) -> set[str]:
    styles = set()
    for line in figure["lines"]:
        if line["linestyle"] == "bar":
            styles.add("hatch" if line.get("hatch") else "plain")
        elif line["linestyle"] not in ("None", "", "none"):
            styles.add(line["linestyle"])
    return styles


def alt_text_problems(figure: dict, texts: dict[str, str], printed: str = "") -> list[str]:
    """What the text alternative ``texts`` ({lang: text}) of ``figure`` (a figure record of
    ``tests.support.lesson_engines``) says the figure draws and it does not: a line style no line
    has, or a unit that neither the figure's labels nor the cell's printed text use."""
    problems = []
    drawn = _drawn(figure)
    labels = " ".join(figure.get("texts", [])) + " " + printed
    for lang, text in texts.items():
        for pattern, style in STYLE_WORDS[lang].items():
            for match in re.finditer(pattern, text, re.I):
                if style not in drawn:
                    problems.append(f"[{lang}] {match.group(0)!r}: the figure draws no "
                                    f"{'line' if style not in ('hatch', 'plain') else 'bars'} "
                                    f"of style {style!r} (it draws {sorted(drawn)})")
        for unit in set(UNITS.findall(text)):
            canonical = {"МиБ": "MiB", "МБ": "MB", "ГиБ": "GiB", "ГБ": "GB"}.get(unit, unit)
            if not re.search(rf"(?<!\w){re.escape(canonical)}(?!\w)", labels):
                problems.append(f"[{lang}] unit {unit!r}: the figure's axes say "
                                f"{figure.get('texts')!r}")
    return problems
