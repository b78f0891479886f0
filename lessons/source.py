"""Read and validate a lesson source (``lessons/src/NN-name.py``, jupytext percent format).

See ``lessons/README.md`` for the format. Parsing is jupytext's; this module only checks the
cell metadata and groups prose cells by key. Every problem is reported as
``path:line: message`` (all problems of a file at once, not only the first).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path

from . import LANGS, SOURCE_LANG

SRC_DIR = Path(__file__).resolve().parent / "src"

LESSON_NAME = re.compile(r"^(?P<number>\d\d)-[a-z0-9]+(?:-[a-z0-9]+)*$")
KEY = re.compile(r"^[a-z0-9][a-z0-9_-]{0,47}$")
GRADE_ID = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,63}$")
SRC_HASH = re.compile(r"^[0-9a-f]{8}$")
MARKER = re.compile(r"^# %%(?=\s|$)")

ROLES = ("solution", "tests")
# Metadata a lesson author may write on a cell header.
KNOWN_KEYS = {"key", "lang", "src", "nbgrader", "grade_id", "points", "tags", "questions", "tf"}
# What a code cell's ``tf=`` says about running it under TensorFlow (README, "Code that runs under
# TensorFlow"): "course" (it uses the course's own tools and does not exist in TensorFlow; the build
# tells the student so), "random" (its numbers come from random draws -- tf.random, initial weights
# --, which differ between the engines: compared on everything but its numbers) or "differs" (it
# runs under both and gives another result under TensorFlow, for the reason the lesson's prose
# and docs/tensorflow-differences.md give).
TF_MODES = ("course", "random", "differs")
# Metadata jupytext itself adds while reading (layout hints); ignored.
JUPYTEXT_KEYS = {"lines_to_next_cell", "lines_to_end_of_cell_marker", "cell_marker"}

BEGIN_SOLUTION, END_SOLUTION = "BEGIN SOLUTION", "END SOLUTION"
BEGIN_HIDDEN, END_HIDDEN = "BEGIN HIDDEN TESTS", "END HIDDEN TESTS"

# A claim marker in prose (``<!-- claim: l03.int-silent -->``, right after the sentence it backs):
# the sentence states what TensorFlow, minitape, NumPy or a figure does, and the claim's id names
# the check that runs it (tests/support/claims.py). One id for the four translations of a
# sentence; the build removes the markers, and translation hashes ignore them.
CLAIM_MARKER = re.compile(r"[ \t]*<!--\s*claim:\s*([a-z0-9][a-z0-9._-]*)\s*-->")

# The open questions that end a lesson (a prose cell with ``questions=true``): how many.
MIN_QUESTIONS, MAX_QUESTIONS = 2, 3
QUESTION_ITEM = re.compile(r"^(?P<number>\d+)\.[ \t]+\S")


class LessonSourceError(ValueError):
    """One or more problems in a lesson source; ``str()`` lists them as ``path:line: message``."""

    def __init__(self, problems: list[tuple[str, int | None, str]]):
        self.problems = problems
        super().__init__("\n".join(_where(p, line) + msg for p, line, msg in problems))


def _where(path: str, line: int | None) -> str:
    return f"{path}:{line}: " if line else f"{path}: "


def text_hash(text: str) -> str:
    """Short hash of an English prose text: what a translation's ``src`` records.

    Trailing spaces and leading/trailing blank lines do not count, so re-wrapping whitespace
    at the edges does not make translations stale; any other edit does.
    """
    text = strip_claims(text)
    lines = [line.rstrip() for line in text.strip("\n").split("\n")]
    normalized = "\n".join(lines).strip("\n")
    return hashlib.sha1(normalized.encode("utf-8")).hexdigest()[:8]


def strip_claims(text: str) -> str:
    """The prose without its claim markers (what students read)."""
    return CLAIM_MARKER.sub("", text)


def claim_ids(text: str) -> list[str]:
    """The claim ids a prose text marks, in order."""
    return CLAIM_MARKER.findall(text)


@dataclass
class Prose:
    """One prose cell: the same ``key`` in several languages."""

    key: str
    line: int  # line of the English cell header
    texts: dict[str, str] = field(default_factory=dict)
    src: dict[str, str | None] = field(default_factory=dict)  # lang -> recorded hash
    lines: dict[str, int] = field(default_factory=dict)  # lang -> header line
    tags: list[str] = field(default_factory=list)
    questions: bool = False  # the lesson's closing open questions (``questions=true``)

    @property
    def en_hash(self) -> str:
        return text_hash(self.texts[SOURCE_LANG])

    def status(self, lang: str) -> str:
        """``ok``, ``stale`` (English changed, or translation never stamped) or ``missing``."""
        if lang == SOURCE_LANG:
            return "ok"
        if lang not in self.texts:
            return "missing"
        return "ok" if self.src.get(lang) == self.en_hash else "stale"

    def question_list(self, lang: str) -> list[str]:
        """The questions of a ``questions=true`` cell in ``lang`` (English where the
        translation is missing), each the markdown of one numbered item (``2. Why ...``)."""
        items, problem = split_questions(strip_claims(self.texts.get(lang, self.texts[SOURCE_LANG])))
        if problem:
            raise ValueError(problem)
        return items


def split_questions(text: str) -> tuple[list[str], str | None]:
    """Split the text of a questions cell into its numbered items.

    The text must be a numbered list and nothing else: items ``1.``, ``2.``, ... in order, each
    continued on indented lines. Returns ``(items, None)`` or ``([], why it is malformed)``.
    """
    items: list[list[str]] = []
    for line in text.strip("\n").split("\n"):
        match = QUESTION_ITEM.match(line)
        if match:
            if int(match["number"]) != len(items) + 1:
                return [], (f"question {match['number']!r} out of order: number the questions "
                            "1., 2., 3.")
            items.append([line.rstrip()])
        elif not line.strip():
            if items:
                items[-1].append("")
        elif items and line[:1] in (" ", "\t"):
            items[-1].append(line.rstrip())
        else:
            return [], (f"{line.strip()[:40]!r}: a questions cell holds only a numbered list "
                        "(1. ..., 2. ...; continue an item on indented lines); the build adds "
                        "the heading and the instructions")
    return ["\n".join(item).strip("\n") for item in items], None


@dataclass
class Code:
    """One code cell, shared by every language."""

    key: str
    line: int
    source: str
    role: str | None = None  # None, "solution" or "tests"
    grade_id: str | None = None
    points: float | None = None
    tags: list[str] = field(default_factory=list)
    tf: str | None = None  # None or one of TF_MODES


@dataclass
class Lesson:
    name: str  # "01-gradients"
    path: Path
    cells: list[Prose | Code]
    metadata: dict

    @property
    def number(self) -> int:
        return int(self.name[:2])

    @property
    def prose(self) -> list[Prose]:
        return [c for c in self.cells if isinstance(c, Prose)]

    @property
    def code(self) -> list[Code]:
        return [c for c in self.cells if isinstance(c, Code)]

    @property
    def questions(self) -> Prose | None:
        """The open questions that end the lesson (its ``questions=true`` cell), if any."""
        return next((c for c in self.prose if c.questions), None)

    @property
    def exercises(self) -> list[Code]:
        """The graded test cells (their grade_id is the exercise id)."""
        return [c for c in self.code if c.role == "tests"]

    def cell_id(self, key: str) -> str:
        """Notebook cell id: lesson number and cell key, the same in every build and language."""
        return f"l{self.name[:2]}-{key}"

    def notebook_cell_ids(self) -> list[str]:
        """The ids of the generated notebook's cells, in order (the same in every language): a
        questions cell becomes a heading, then a question and an answer cell per question."""
        ids = []
        for cell in self.cells:
            ids.append(self.cell_id(cell.key))
            if isinstance(cell, Prose) and cell.questions:
                for i in range(1, len(cell.question_list(SOURCE_LANG)) + 1):
                    ids += [self.cell_id(f"{cell.key}-q{i}"), self.cell_id(f"{cell.key}-a{i}")]
        return ids

    def status(self) -> dict[str, dict[str, int]]:
        """``{lang: {"ok": n, "stale": n, "missing": n}}`` over the prose cells."""
        table = {lang: {"ok": 0, "stale": 0, "missing": 0} for lang in LANGS}
        for prose in self.prose:
            for lang in LANGS:
                table[lang][prose.status(lang)] += 1
        return table


def display_path(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def marker_lines(text: str) -> list[int]:
    """1-based line numbers of the ``# %%`` cell markers."""
    return [i for i, line in enumerate(text.split("\n"), start=1) if MARKER.match(line)]


def parse_lesson(path: str | Path, text: str | None = None) -> Lesson:
    """Parse and validate one lesson source; raises LessonSourceError listing every problem."""
    import jupytext  # build-time dependency only

    path = Path(path)
    shown = display_path(path)
    problems: list[tuple[str, int | None, str]] = []

    def problem(line: int | None, msg: str) -> None:
        problems.append((shown, line, msg))

    name = path.stem
    if not LESSON_NAME.match(name):
        problem(None, f"lesson file name {path.name!r} must look like 'NN-name.py' "
                      "(two digits, a dash, lowercase words joined by dashes)")
    if text is None:
        text = path.read_text(encoding="utf-8")
    try:
        nb = jupytext.reads(text, fmt="py:percent")
    except Exception as exc:  # jupytext reports YAML header errors this way
        raise LessonSourceError([(shown, None, f"jupytext cannot read this file: {exc}")]) from None

    markers = marker_lines(text)
    offset = len(nb.cells) - len(markers)
    if offset > 0:
        problem(1, "text before the first '# %%' cell marker; every cell must start with a marker")
    elif offset < 0:  # jupytext merged or dropped a cell: refuse rather than misreport lines
        problem(None, f"jupytext read {len(nb.cells)} cells but the file has {len(markers)} '# %%' markers; "
                      "check for markers inside strings or comments")
    if problems:
        raise LessonSourceError(problems)

    cells: list[Prose | Code] = []
    keys_seen: dict[str, int] = {}
    grade_ids: dict[str, int] = {}
    current: Prose | None = None  # the prose group being filled
    questions_at: int | None = None  # line of the questions=true cell, once seen
    last_prose_key = "start"
    code_counter = 0

    def claim_key(key: str, line: int) -> None:
        if key in keys_seen:
            problem(line, f"key {key!r} already used at line {keys_seen[key]}; keys must be unique "
                          "in a lesson (translations of one prose cell follow each other directly)")
        else:
            keys_seen[key] = line

    for cell, line in zip(nb.cells, markers):
        meta = dict(cell.metadata)
        if "incorrectly_encoded_metadata" in meta:
            problem(line, f"cannot read cell metadata {meta['incorrectly_encoded_metadata']!r}: "
                          'write key="value" pairs with JSON values, e.g. key="intro" lang="es" points=2')
            continue
        if "title" in meta:
            problem(line, f"unexpected text {meta['title']!r} after '# %%': only [markdown] and "
                          'key="value" metadata may follow the marker')
            continue
        unknown = sorted(set(meta) - KNOWN_KEYS - JUPYTEXT_KEYS)
        if unknown:
            problem(line, f"unknown cell metadata {', '.join(unknown)}; allowed: {', '.join(sorted(KNOWN_KEYS))}")
            continue
        tags = meta.get("tags", [])
        if not (isinstance(tags, list) and all(isinstance(x, str) for x in tags)):
            problem(line, 'tags must be a JSON list of strings, e.g. tags=["hide-input"]')
            tags = []
        key = meta.get("key")
        if key is not None and (not isinstance(key, str) or not KEY.match(key)):
            problem(line, f"key {key!r} must be lowercase letters, digits, '-' or '_' (at most 48 characters)")
            continue

        if cell.cell_type == "markdown":
            lang, src = meta.get("lang"), meta.get("src")
            bad = sorted(k for k in ("nbgrader", "grade_id", "points", "tf") if k in meta)
            if bad:
                problem(line, f"{', '.join(bad)} only apply to code cells")
            if key is None:
                problem(line, 'a markdown cell needs key="..." and lang="..." (en, es, pt or ru)')
                continue
            if lang not in LANGS:
                problem(line, f"lang={lang!r} must be one of {', '.join(LANGS)}")
                continue
            if not cell.source.strip():
                problem(line, f"empty prose cell (key {key!r}, lang {lang!r})")
            questions = meta.get("questions", False)
            if questions not in (True, False):
                problem(line, f"questions={questions!r} must be true or false")
                questions = False
            if questions and lang != SOURCE_LANG:
                problem(line, "questions=true goes on the English cell only; its translations follow it")
            if lang == SOURCE_LANG:
                if src is not None:
                    problem(line, "an English cell is the original: it takes no src=")
                if questions_at is not None:
                    problem(line, ("a second questions=true cell" if questions else "a cell after the "
                                   "questions=true cell") + f" (line {questions_at}): a lesson ends with "
                                  "one questions cell")
                claim_key(key, line)
                if questions:
                    questions_at = line
                    for i in range(1, MAX_QUESTIONS + 1):
                        claim_key(f"{key}-q{i}", line)
                        claim_key(f"{key}-a{i}", line)
                current = Prose(key=key, line=line, tags=tags, questions=bool(questions))
                current.texts[lang] = cell.source
                current.lines[lang] = line
                cells.append(current)
                last_prose_key, code_counter = key, 0
                continue
            # a translation: must directly follow its English cell (or another translation of it)
            if current is None or current.key != key:
                problem(line, f"translation key={key!r} lang={lang!r} does not follow its English cell; "
                              f"put it right after '# %% [markdown] key=\"{key}\" lang=\"en\"'")
                continue
            if lang in current.texts:
                problem(line, f"second {lang!r} text for key {key!r} (first at line {current.lines[lang]})")
                continue
            if src is not None and (not isinstance(src, str) or not SRC_HASH.match(src)):
                problem(line, f"src={src!r} must be the 8-hex-digit hash of the English text "
                              "(`python -m lessons stamp` writes it)")
                src = None
            current.texts[lang] = cell.source
            current.src[lang] = src
            current.lines[lang] = line
            continue

        if cell.cell_type != "code":
            problem(line, f"{cell.cell_type} cells are not supported; use code or [markdown]")
            continue
        current = None
        bad = sorted(k for k in ("lang", "src", "questions") if k in meta)
        if bad:
            problem(line, f"{', '.join(bad)} only apply to markdown cells (code is shared by every language)")
        tf_mode = meta.get("tf")
        if tf_mode is not None and tf_mode not in TF_MODES:
            problem(line, f"tf={tf_mode!r} must be one of {', '.join(repr(m) for m in TF_MODES)}")
            tf_mode = None
        if questions_at is not None:
            problem(line, f"a cell after the questions=true cell (line {questions_at}): a lesson ends "
                          "with one questions cell")
        role, grade_id, points = meta.get("nbgrader"), meta.get("grade_id"), meta.get("points")
        source = cell.source
        if not source.strip():
            problem(line, "empty code cell; remove the marker or write the code")
            continue
        if role is not None and role not in ROLES:
            problem(line, f"nbgrader={role!r} must be \"solution\" or \"tests\"")
            continue
        if role is None:
            if grade_id is not None or points is not None:
                problem(line, 'grade_id/points need nbgrader="solution" or nbgrader="tests"')
            if BEGIN_SOLUTION in source:
                problem(line, f"'### {BEGIN_SOLUTION}' in a cell without nbgrader=\"solution\"")
            if BEGIN_HIDDEN in source:
                problem(line, f"'### {BEGIN_HIDDEN}' in a cell without nbgrader=\"tests\"")
        else:
            if not isinstance(grade_id, str) or not GRADE_ID.match(grade_id):
                problem(line, f"grade_id={grade_id!r}: an exercise cell needs an ASCII grade_id "
                              "(letter first, then letters, digits, '_'), e.g. grade_id=\"l01_ex1\"")
                continue
            if grade_id in grade_ids:
                problem(line, f"grade_id {grade_id!r} already used at line {grade_ids[grade_id]}")
            grade_ids[grade_id] = line
            if role == "solution":
                if points is not None:
                    problem(line, "points belong on the tests cell, not on the solution cell")
                _check_region(problem, line, source, BEGIN_SOLUTION, END_SOLUTION, required=True)
                if BEGIN_HIDDEN in source:
                    problem(line, "hidden tests go in the tests cell, not in the solution cell")
            else:
                if isinstance(points, bool) or not isinstance(points, (int, float)) or points < 0:
                    problem(line, f"points={points!r}: a tests cell needs points=N with N > 0 "
                                  "(0 for an optional exercise)")
                _check_region(problem, line, source, BEGIN_HIDDEN, END_HIDDEN, required=False)
                if BEGIN_SOLUTION in source:
                    problem(line, "a tests cell cannot contain a solution region")
                if f'check("{grade_id}")' not in source:
                    problem(line, f'the tests cell of {grade_id!r} must call check("{grade_id}") '
                                  "(the student's visible self-check)")
        if key is None:
            if grade_id:
                key = _exercise_key(grade_id, role, name)
            else:
                code_counter += 1
                key = f"{last_prose_key}-code" + (str(code_counter) if code_counter > 1 else "")
        claim_key(key, line)
        if role is not None and tf_mode is not None:
            problem(line, "tf= is for lesson cells: an exercise's tests cell is the course's by its role, "
                          "its solution runs under both engines")
            tf_mode = None
        cells.append(Code(key=key, line=line, source=source, role=role, grade_id=grade_id,
                          points=points, tags=tags, tf=tf_mode))

    if not any(isinstance(c, Prose) for c in cells) and not problems:
        problem(None, "a lesson needs at least one prose cell")
    for prose in (c for c in cells if isinstance(c, Prose) and c.questions):
        _check_questions(problem, prose)
    meta_problem = _check_header(nb.metadata.get("minitape", {}), name)
    if meta_problem:
        problem(1, meta_problem)
    if problems:
        raise LessonSourceError(problems)
    return Lesson(name=name, path=path, cells=cells, metadata=dict(nb.metadata.get("minitape", {})))


def _check_questions(problem, prose: Prose) -> None:
    """A questions cell: a numbered list of 2-3 items in every language, the same count."""
    counts = {}
    for lang, text in prose.texts.items():
        items, why = split_questions(text)
        if why:
            problem(prose.lines[lang], f"questions cell {prose.key!r} ({lang}): {why}")
            continue
        if not MIN_QUESTIONS <= len(items) <= MAX_QUESTIONS:
            problem(prose.lines[lang], f"questions cell {prose.key!r} ({lang}) has {len(items)} "
                                       f"question(s); write {MIN_QUESTIONS} to {MAX_QUESTIONS}")
        counts[lang] = len(items)
    english = counts.get(SOURCE_LANG)
    for lang, count in counts.items():
        if english is not None and count != english:
            problem(prose.lines[lang], f"questions cell {prose.key!r} ({lang}) has {count} question(s), "
                                       f"the English has {english}")


def _exercise_key(grade_id: str, role: str, lesson: str) -> str:
    """Default key of an exercise cell: ``l01_ex1`` -> ``ex1-tests``, ``l01_ex1_solution`` -> ``ex1-solution``."""
    key = grade_id.lower()
    prefix = f"l{lesson[:2]}_"
    if key.startswith(prefix):
        key = key[len(prefix):]
    key = key.replace("_", "-")
    suffix = "-solution" if role == "solution" else "-tests"
    return key if key.endswith(suffix) else key + suffix


def _check_region(problem, line: int, source: str, begin: str, end: str, required: bool) -> None:
    depth, seen = 0, False
    for offset, text in enumerate(source.split("\n"), start=1):
        if begin in text:
            if depth:
                problem(line + offset, f"nested '### {begin}'")
            depth, seen = depth + 1, True
        elif end in text:
            if not depth:
                problem(line + offset, f"'### {end}' without '### {begin}'")
            depth = max(0, depth - 1)
    if depth:
        problem(line, f"'### {begin}' is never closed by '### {end}'")
    if required and not seen:
        problem(line, f"a solution cell must mark its solution between '### {begin}' and '### {end}'")


def _check_header(meta: object, name: str) -> str | None:
    if not isinstance(meta, dict):
        return "the 'minitape:' header entry must be a mapping"
    lesson = meta.get("lesson")
    if lesson is not None and lesson != name:
        return f"header says lesson {lesson!r} but the file is {name!r}"
    return None


def lesson_paths(src_dir: Path = SRC_DIR) -> list[Path]:
    """Every lesson source, in lesson order."""
    return sorted(p for p in src_dir.glob("*.py") if not p.name.startswith(("_", ".")))


def load_lessons(src_dir: Path = SRC_DIR, only: list[str] | None = None) -> list[Lesson]:
    """Parse every lesson (or those whose name or number is in ``only``); all errors together."""
    paths = lesson_paths(src_dir)
    if only:
        wanted = set(only)
        paths = [p for p in paths if p.stem in wanted or p.stem[:2] in wanted]
        missing = wanted - {p.stem for p in paths} - {p.stem[:2] for p in paths}
        if missing:
            raise LessonSourceError([(display_path(src_dir), None,
                                      f"no lesson named {', '.join(sorted(missing))}")])
    lessons, problems = [], []
    for path in paths:
        try:
            lessons.append(parse_lesson(path))
        except LessonSourceError as exc:
            problems.extend(exc.problems)
    if problems:
        raise LessonSourceError(problems)
    return lessons


def load_lessons_or_exit(names: list[str] | None = None, src: Path | None = None) -> list[Lesson]:
    """``load_lessons`` for the command line: a malformed source prints why and exits 2."""
    import sys

    try:
        return load_lessons(src or SRC_DIR, only=names or None)
    except LessonSourceError as exc:
        print(f"error: malformed lesson source\n{exc}", file=sys.stderr)
        raise SystemExit(2) from None
