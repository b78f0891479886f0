"""The lesson source format: parsing, validation errors (file:line), translation status, stamping,
and the build's reproducibility, on small lessons written into a temporary folder."""

from __future__ import annotations

import json
import textwrap

import pytest

from lessons import build
from lessons.__main__ import main as cli
from lessons.i18n import t
from lessons.source import LessonSourceError, parse_lesson, text_hash

EN_INTRO = "## Watching\n\nA tape records an operation only if an input is *watched*."

GOOD = textwrap.dedent('''\
    # ---
    # jupyter:
    #   minitape:
    #     lesson: 07-demo
    # ---

    # %% [markdown] key="intro" lang="en"
    # ## Watching
    #
    # A tape records an operation only if an input is *watched*.

    # %% [markdown] key="intro" lang="es" src="{h}"
    # ## Observar
    #
    # Una cinta graba una operación solo si una entrada está *observada*.

    # %% [markdown] key="intro" lang="pt" src="{h}"
    # ## Observar
    #
    # Uma fita grava uma operação só se uma entrada estiver *observada*.

    # %% [markdown] key="intro" lang="ru" src="{h}"
    # ## Отслеживание
    #
    # Лента записывает операцию, только если какой-то вход *отслеживается*.

    # %%
    import math
    value = math.sqrt(4.0)

    # %% nbgrader="solution" grade_id="l07_ex1_solution"
    def double(x):
        ### BEGIN SOLUTION
        return 2 * x
        ### END SOLUTION

    # %% nbgrader="tests" grade_id="l07_ex1" points=2
    check("l07_ex1")
    ### BEGIN HIDDEN TESTS
    assert double(21) == 42
    ### END HIDDEN TESTS
    ''').replace("{h}", text_hash(EN_INTRO))


def write(tmp_path, text, name="07-demo.py"):
    src = tmp_path / "src"
    src.mkdir(exist_ok=True)
    path = src / name
    path.write_text(text, encoding="utf-8")
    return path


def problems_of(tmp_path, text, name="07-demo.py"):
    with pytest.raises(LessonSourceError) as info:
        parse_lesson(write(tmp_path, text, name))
    return [(line, msg) for _, line, msg in info.value.problems]


# ------------------------------------------------------------------------------------------
# parsing
# ------------------------------------------------------------------------------------------
def test_good_source_parses_into_prose_code_and_exercises(tmp_path):
    lesson = parse_lesson(write(tmp_path, GOOD))
    assert lesson.name == "07-demo" and lesson.number == 7
    assert [type(c).__name__ for c in lesson.cells] == ["Prose", "Code", "Code", "Code"]
    intro = lesson.prose[0]
    assert set(intro.texts) == {"en", "es", "pt", "ru"}
    assert intro.texts["en"] == EN_INTRO
    assert {lang: intro.status(lang) for lang in intro.texts} == dict.fromkeys(intro.texts, "ok")
    plain, solution, tests = lesson.code
    assert plain.key == "intro-code" and plain.role is None
    assert (solution.role, solution.grade_id, solution.key) == ("solution", "l07_ex1_solution", "ex1-solution")
    assert (tests.role, tests.grade_id, tests.points, tests.key) == ("tests", "l07_ex1", 2, "ex1-tests")
    assert [e.grade_id for e in lesson.exercises] == ["l07_ex1"]
    assert lesson.cell_id("intro") == "l07-intro"


def test_hash_ignores_edge_whitespace_but_not_edits():
    assert text_hash("a\nb") == text_hash("\n\na  \nb\n\n")
    assert text_hash("a\nb") != text_hash("a\nb.")
    assert len(text_hash("x")) == 8


def test_unstamped_translation_is_stale_not_an_error(tmp_path):
    # a translation without src= is reported stale ("never stamped"), not an error
    text = GOOD.replace(f'# %% [markdown] key="intro" lang="es" src="{text_hash(EN_INTRO)}"',
                        '# %% [markdown] key="intro" lang="es"')
    lesson = parse_lesson(write(tmp_path, text))
    assert lesson.prose[0].status("es") == "stale"
    assert lesson.prose[0].status("pt") == "ok"


def test_editing_english_makes_translations_stale_and_removing_one_makes_it_missing(tmp_path):
    text = GOOD.replace("an input is *watched*.", "one of its inputs is *watched*.", 1)
    # drop the Russian cell entirely
    start = text.index('# %% [markdown] key="intro" lang="ru"')
    end = text.index("# %%\nimport math")
    text = text[:start] + text[end:]
    lesson = parse_lesson(write(tmp_path, text))
    prose = lesson.prose[0]
    assert [prose.status(lang) for lang in ("en", "es", "pt", "ru")] == ["ok", "stale", "stale", "missing"]
    assert lesson.status()["ru"] == {"ok": 0, "stale": 0, "missing": 1}
    # the notebooks still build, with visible localized notes
    es = build.instructor_notebook(lesson, "es")
    ru = build.instructor_notebook(lesson, "ru")
    assert es.cells[0].source.startswith("> ⚠️ " + t("lessons.stale_translation", "es"))
    assert "Una cinta graba" in es.cells[0].source
    assert ru.cells[0].source.startswith("> ⚠️ " + t("lessons.missing_translation", "ru"))
    assert "one of its inputs is *watched*" in ru.cells[0].source
    assert "⚠️" not in build.instructor_notebook(lesson, "en").cells[0].source


BAD_CASES = [
    # (replace this, with this), expected line, expected message fragment
    (('# %% [markdown] key="intro" lang="es"', '# %% [markdown] key=intro lang="es"'), 12, "cannot read cell metadata"),
    (('# %% [markdown] key="intro" lang="pt"', '# %% [markdown] key="intro" lang="fr"'), 17, "lang='fr'"),
    (('# %% [markdown] key="intro" lang="pt"', '# %% [markdown] key="other" lang="pt"'), 17, "does not follow its English cell"),
    (('# %% [markdown] key="intro" lang="ru"', '# %% [markdown] key="intro" lang="es"'), 22, "second 'es' text"),
    (('# %%\nimport math', '# %% lang="es"\nimport math'), 27, "only apply to markdown cells"),
    (('# %%\nimport math', '# %% colour="red"\nimport math'), 27, "unknown cell metadata colour"),
    (('# %%\nimport math', '# %% Some title\nimport math'), 27, "unexpected text"),
    (('# %%\nimport math', '# %% key="Bad Key"\nimport math'), 27, "key 'Bad Key'"),
    (('# %%\nimport math', '# %% key="intro"\nimport math'), 27, "key 'intro' already used at line 7"),
    (('grade_id="l07_ex1_solution"', 'grade_id="l07_ëx1"'), 31, "ASCII grade_id"),
    (('grade_id="l07_ex1_solution"', 'grade_id="l07_ex1"'), 37, "grade_id 'l07_ex1' already used at line 31"),
    (('nbgrader="solution"', 'nbgrader="answer"'), 31, "must be \"solution\" or \"tests\""),
    (('    ### END SOLUTION\n', ''), 31, "never closed"),
    (('    ### BEGIN SOLUTION\n', ''), 34, "without '### BEGIN SOLUTION'"),
    (("points=2", "points=-1"), 37, "points=-1"),
    (('points=2', ''), 37, "points=None"),
    (('check("l07_ex1")', 'check("l07_ex9")'), 37, 'must call check("l07_ex1")'),
    (('### END HIDDEN TESTS\n', ''), 37, "never closed"),
    (('# %%\nimport math', '# %%\n### BEGIN SOLUTION\n### END SOLUTION\nimport math'), 27, "without nbgrader=\"solution\""),
    (('# %%\nimport math', '# %% grade_id="x1"\nimport math'), 27, "grade_id/points need"),
    (('# %%\nimport math\nvalue = math.sqrt(4.0)\n', '# %%\n\n'), 27, "empty code cell"),
    (('# %% [markdown] key="intro" lang="en"', '# %% [markdown] key="intro" lang="en" src="abcdef12"'), 7, "takes no src="),
    (('src="' + text_hash(EN_INTRO) + '"', 'src="nothex"'), 12, "8-hex-digit hash"),
    (('lesson: 07-demo', 'lesson: 08-other'), 1, "header says lesson"),
    (('# %%\nimport math', '# %% tf="maybe"\nimport math'), 27, "tf='maybe' must be one of"),
    (('# %% [markdown] key="intro" lang="pt"', '# %% [markdown] key="intro" lang="pt" tf="course"'), 17, "only apply to code cells"),
    (('nbgrader="solution"', 'nbgrader="solution" tf="course"'), 31, "tf= is for lesson cells"),
    (('# ---\n# jupyter:', 'stray = 1\n# ---\n# jupyter:'), 1, "text before the first '# %%'"),
]


@pytest.mark.parametrize("replace, line, fragment", BAD_CASES, ids=[c[2][:30] for c in BAD_CASES])
def test_malformed_sources_report_file_and_line(tmp_path, replace, line, fragment):
    old, new = replace
    assert old in GOOD, old
    problems = problems_of(tmp_path, GOOD.replace(old, new, 1))
    assert any(fragment in msg for _, msg in problems), problems
    assert any(got == line for got, msg in problems if fragment in msg), problems


def test_error_text_names_the_file(tmp_path):
    path = write(tmp_path, GOOD.replace('points=2', 'points=-1'))
    with pytest.raises(LessonSourceError) as info:
        parse_lesson(path)
    assert str(info.value).startswith(f"{path}:37: points=-1")


def test_an_optional_exercise_has_a_tests_cell_of_0_points(tmp_path):
    """Issue 38: lessons 4, 5 and 7 have optional exercises, checked and reported but worth 0
    points in nbgrader's totals; 0 is the one value besides a positive count."""
    lesson = parse_lesson(write(tmp_path, GOOD.replace("points=2", "points=0")))
    assert [e.points for e in lesson.exercises] == [0]


def test_bad_file_name(tmp_path):
    problems = problems_of(tmp_path, GOOD.replace("lesson: 07-demo\n", ""), name="Demo Lesson.py")
    assert any("must look like 'NN-name.py'" in msg for _, msg in problems)


def test_every_problem_of_a_file_is_reported_at_once(tmp_path):
    text = GOOD.replace("points=2", "points=-1").replace('lang="pt"', 'lang="xx"')
    problems = problems_of(tmp_path, text)
    assert {line for line, _ in problems} >= {17, 37}


# ------------------------------------------------------------------------------------------
# build output
# ------------------------------------------------------------------------------------------
def test_build_is_reproducible_and_check_detects_staleness(tmp_path, capsys):
    write(tmp_path, GOOD)
    root = tmp_path / "out"
    args = ["--src", str(tmp_path / "src"), "--root", str(root)]
    assert cli(["build", *args]) == 0
    files = sorted(root.rglob("*.ipynb"))
    assert [str(p.relative_to(root)) for p in files] == sorted(
        [f"lessons/{lang}/07-demo.ipynb" for lang in ("en", "es", "pt", "ru")]
        + [f"grader/course/source/07-demo-{lang}/07-demo.ipynb" for lang in ("en", "es", "pt", "ru")])
    first = {p: p.read_bytes() for p in files}
    assert cli(["build", *args]) == 0
    assert {p: p.read_bytes() for p in files} == first  # byte for byte
    out = capsys.readouterr().out
    assert "[1/8] created" in out and "[8/8] unchanged" in out
    assert cli(["check", *args]) == 0

    # a hand edit of a generated notebook is detected, and so is a source edit
    victim = root / "lessons" / "es" / "07-demo.ipynb"
    victim.write_bytes(first[victim].replace(b"Observar", b"Mirar"))
    assert cli(["check", *args]) == 1
    assert "stale     " in capsys.readouterr().err
    assert cli(["build", *args]) == 0 and victim.read_bytes() == first[victim]
    write(tmp_path, GOOD.replace("math.sqrt(4.0)", "math.sqrt(9.0)"))
    assert cli(["build", "--check", *args]) == 1

    # an orphan notebook (its source was deleted) is reported and removed by build
    (tmp_path / "src" / "07-demo.py").rename(tmp_path / "src" / "08-renamed.py")
    text = (tmp_path / "src" / "08-renamed.py").read_text().replace("lesson: 07-demo", "lesson: 08-renamed")
    (tmp_path / "src" / "08-renamed.py").write_text(text.replace("l07_", "l08_"))
    assert cli(["check", *args]) == 1
    assert "orphan" in capsys.readouterr().err
    assert cli(["build", *args]) == 0
    assert not (root / "lessons" / "es" / "07-demo.ipynb").exists()
    assert not (root / "grader" / "course" / "source" / "07-demo-es").exists()
    assert cli(["check", *args]) == 0


def test_generated_notebook_structure(tmp_path):
    lesson = parse_lesson(write(tmp_path, GOOD))
    inb = build.instructor_notebook(lesson, "pt")
    snb = build.student_notebook(inb)
    for nb, variant in ((inb, "instructor"), (snb, "student")):
        assert nb.nbformat == 4 and nb.nbformat_minor == 5
        assert nb.metadata.kernelspec == {"display_name": "Python 3 (ipykernel)", "language": "python",
                                          "name": "python3"}
        assert nb.metadata.minitape["lang"] == "pt" and nb.metadata.minitape["variant"] == variant
        assert [c.id for c in nb.cells] == ["l07-intro", "l07-intro-code", "l07-ex1-solution", "l07-ex1-tests"]
        assert all(c.outputs == [] and c.execution_count is None for c in nb.cells if c.cell_type == "code")
    solution, tests = inb.cells[2], inb.cells[3]
    assert solution.metadata.nbgrader == {"grade": False, "grade_id": "l07_ex1_solution", "locked": False,
                                          "schema_version": 3, "solution": True, "task": False}
    assert tests.metadata.nbgrader == {"grade": True, "grade_id": "l07_ex1", "locked": True, "points": 2,
                                       "schema_version": 3, "solution": False, "task": False}
    assert "return 2 * x" in solution.source and "assert double(21)" in tests.source
    s_solution, s_tests = snb.cells[2], snb.cells[3]
    # nbgrader's stub, its comment in the notebook's language (grader.autograde.clear_solutions.LocalizedClearSolutions)
    assert s_solution.source == "def double(x):\n    # ESCREVA AQUI O SEU CÓDIGO\n    raise NotImplementedError()"
    # a tests cell is the course's own: its first line says so, in the notebook's language
    assert s_tests.source == '# Ferramentas do curso: esta célula não existe no TensorFlow.\ncheck("l07_ex1")'
    assert s_tests.metadata.editable is False and s_tests.metadata.deletable is False
    assert "checksum" in s_tests.metadata.nbgrader
    # the instructor notebook is untouched by making the student one
    assert "return 2 * x" in inb.cells[2].source


def test_course_cells_say_so_and_claim_markers_are_removed(tmp_path):
    text = GOOD.replace("# %%\nimport math", '# %% tf="course"\nimport math').replace(
        "*watched*.", "*watched*. <!-- claim: l07.watched -->")
    lesson = parse_lesson(write(tmp_path, text))
    assert [c.tf for c in lesson.code] == ["course", None, None]
    # the marker does not make the translations stale: hashes ignore it
    assert all(lesson.prose[0].status(lang) == "ok" for lang in ("es", "pt", "ru"))
    from lessons.i18n import t

    assert t("lessons.course_only", "en") == "The course's tools: this cell does not exist in TensorFlow."
    for lang in ("en", "ru"):
        note = f"# {t('lessons.course_only', lang)}\n"
        inb = build.instructor_notebook(lesson, lang)
        assert inb.cells[1].source == note + "import math\nvalue = math.sqrt(4.0)"
        assert inb.cells[2].source.startswith("def double(x):")  # a solution runs under both engines
        assert "claim" not in inb.cells[0].source and inb.cells[0].source.rstrip().endswith("*watched*.") \
            or lang != "en"


def test_stamp_records_the_english_hash(tmp_path, capsys):
    text = GOOD.replace(f' src="{text_hash(EN_INTRO)}"', "")
    path = write(tmp_path, text)
    args = ["--src", str(tmp_path / "src")]
    assert cli(["status", *args]) == 0  # stale is not missing
    out = capsys.readouterr().out
    assert "1 stale" in out and "never stamped" in out
    assert cli(["stamp", "07", *args]) == 2  # refuses to stamp without saying what
    assert cli(["stamp", "07", "--lang", "es", *args]) == 0
    lesson = parse_lesson(path)
    assert [lesson.prose[0].status(lang) for lang in ("es", "pt", "ru")] == ["ok", "stale", "stale"]
    assert f'key="intro" lang="es" src="{text_hash(EN_INTRO)}"' in path.read_text()
    assert cli(["stamp", "07", "--all", *args]) == 0
    assert all(parse_lesson(path).prose[0].status(lang) == "ok" for lang in ("es", "pt", "ru"))
    # after an English edit, stamping rewrites the existing src=
    path.write_text(path.read_text().replace("*watched*.", "*watched* by it."))
    assert parse_lesson(path).prose[0].status("es") == "stale"
    assert cli(["stamp", "07", "--key", "intro", *args]) == 0
    assert parse_lesson(path).prose[0].status("es") == "ok"
    assert path.read_text().count('src="') == 3


def test_status_exits_nonzero_on_missing_and_strict_on_stale(tmp_path, capsys):
    start = GOOD.index('# %% [markdown] key="intro" lang="ru"')
    end = GOOD.index("# %%\nimport math")
    write(tmp_path, GOOD[:start] + GOOD[end:])
    args = ["--src", str(tmp_path / "src")]
    assert cli(["status", *args]) == 1
    out = capsys.readouterr().out
    assert "07-demo" in out and "1 missing" in out and "missing ru key=intro" in out
    write(tmp_path, GOOD.replace("*watched*.", "*watched*!"))
    assert cli(["status", *args]) == 0
    assert cli(["status", "--strict", *args]) == 1


def test_malformed_source_makes_commands_exit_2_with_location(tmp_path, capsys):
    write(tmp_path, GOOD.replace("points=2", "points=-1"))
    assert_exit = pytest.raises(SystemExit)
    with assert_exit as info:
        cli(["build", "--src", str(tmp_path / "src"), "--root", str(tmp_path / "out")])
    assert info.value.code == 2
    assert "07-demo.py:37: points=-1" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_generated_json_is_plain_nbformat(tmp_path):
    lesson = parse_lesson(write(tmp_path, GOOD))
    data = build.to_bytes(build.instructor_notebook(lesson, "ru"))
    nb = json.loads(data)
    assert data.endswith(b"}\n") and "Отслеживание" in data.decode("utf-8")
    assert list(nb) == sorted(nb)


def test_readme_lesson_table_is_generated_between_markers(tmp_path, capsys):
    from lessons.readme import BEGIN, END, PLACEHOLDER

    write(tmp_path, GOOD)
    root = tmp_path / "out"
    root.mkdir()
    (root / "pyproject.toml").write_text('[tool.minitape-course]\nrepository = "someone/course"\nbranch = "dev"\n')
    (root / "README.md").write_text(f"# Course\n\n## Lessons\n\n{PLACEHOLDER}\n\n## After\n\nkept\n")
    args = ["--src", str(tmp_path / "src"), "--root", str(root)]
    assert cli(["build", *args]) == 0
    readme = (root / "README.md").read_text()
    assert readme.startswith("# Course\n\n## Lessons\n\n" + BEGIN) and readme.endswith(END + "\n\n## After\n\nkept\n")
    assert "| 7 | [Watching](lessons/en/07-demo.ipynb)" in readme  # title = first heading
    assert "[Observar](lessons/es/07-demo.ipynb)" in readme
    # the project's README is a short portal: one Binder badge per language (its folder)
    assert "https://mybinder.org/v2/gh/someone/course/dev?urlpath=lab%2Ftree%2Flessons%2Fru)" in readme
    assert readme.count("badge_logo.svg") == 4
    assert cli(["check", *args]) == 0
    # hand edits inside the region are stale; edits outside it are the README's own business
    (root / "README.md").write_text(readme.replace("[Observar]", "[Mirar]").replace("kept", "changed"))
    assert cli(["check", *args]) == 1
    assert "README.md" in capsys.readouterr().err
    assert cli(["build", *args]) == 0
    assert (root / "README.md").read_text() == readme.replace("kept", "changed")
    # a partial build (one lesson) leaves the README alone
    (root / "README.md").write_text("# no table here\n")
    assert cli(["build", "07", *args]) == 0 and cli(["build", *args]) == 0
    assert (root / "README.md").read_text() == "# no table here\n"


# ------------------------------------------------------------------------------------------
# the open questions that end a lesson (a questions=true cell)
# ------------------------------------------------------------------------------------------
EN_QUESTIONS = ("1. Why does a tape free its record after one `gradient` call?\n"
                "2. What would a persistent tape cost in a long training loop?\n"
                "   Think of memory.")
QUESTIONS = textwrap.dedent('''\

    # %% [markdown] key="reflect" lang="en" questions=true
    # 1. Why does a tape free its record after one `gradient` call?
    # 2. What would a persistent tape cost in a long training loop?
    #    Think of memory.

    # %% [markdown] key="reflect" lang="es" src="{q}"
    # 1. ¿Por qué una cinta libera su grabación tras una llamada a `gradient`?
    # 2. ¿Qué costaría una cinta persistente en un bucle de entrenamiento largo?
    #    Piensa en la memoria.

    # %% [markdown] key="reflect" lang="pt" src="{q}"
    # 1. Por que uma fita libera a gravação depois de uma chamada a `gradient`?
    # 2. Quanto custaria uma fita persistente num laço de treinamento longo?
    #    Pense na memória.
    ''').replace("{q}", text_hash(EN_QUESTIONS))


def test_questions_cell_builds_a_heading_then_each_question_with_an_answer_cell(tmp_path):
    lesson = parse_lesson(write(tmp_path, GOOD + QUESTIONS))
    assert lesson.questions is not None and lesson.questions.key == "reflect"
    assert lesson.questions.question_list("en") == [
        "1. Why does a tape free its record after one `gradient` call?",
        "2. What would a persistent tape cost in a long training loop?\n   Think of memory."]
    for lang in ("es", "ru"):  # ru is missing: the English questions, under the localized note
        inb = build.instructor_notebook(lesson, lang)
        snb = build.student_notebook(inb)
        for nb in (inb, snb):
            tail = nb.cells[4:]
            assert [c.id for c in tail] == ["l07-reflect", "l07-reflect-q1", "l07-reflect-a1",
                                            "l07-reflect-q2", "l07-reflect-a2"]
            assert all(c.cell_type == "markdown" and "nbgrader" not in c.metadata for c in tail)
            heading = tail[0].source
            assert heading.endswith(f"## {t('lessons.questions.title', lang)}\n\n"
                                    f"{t('lessons.questions.intro', lang)}")
            assert [c.source for c in tail[2::2]] == [t("lessons.questions.answer", lang)] * 2
            assert [c.metadata.minitape["answer_to"] for c in tail[2::2]] == ["l07-reflect-q1", "l07-reflect-q2"]
    es = build.instructor_notebook(lesson, "es").cells
    assert es[5].source.startswith("1. ¿Por qué una cinta") and "Piensa en la memoria." in es[7].source
    ru = build.instructor_notebook(lesson, "ru").cells
    assert t("lessons.missing_translation", "ru") in ru[4].source
    assert ru[5].source.startswith("1. Why does a tape")
    assert t("lessons.questions.answer", "ru") != t("lessons.questions.answer", "en")


@pytest.mark.parametrize("replace, line, fragment", [
    # a heading in the questions cell: the build writes it
    ("# 1. Why does a tape free", None, "holds only a numbered list"),
    # one question in a translation
    ("# 2. ¿Qué costaría", None, "has 1 question(s); write 2 to 3"),
    # numbering out of order
    ("# 2. Quanto custaria", None, "out of order"),
    # questions=true on a translation
    ('key="reflect" lang="es" src=', None, "goes on the English cell only"),
])
def test_malformed_questions_cells_are_reported(tmp_path, replace, line, fragment):
    text = GOOD + QUESTIONS
    if replace == "# 1. Why does a tape free":
        text = text.replace(replace, "# ## Questions\n#\n" + replace)
    elif replace == "# 2. ¿Qué costaría":
        text = text.replace("# 2. ¿Qué costaría una cinta persistente en un bucle de entrenamiento largo?\n"
                            "#    Piensa en la memoria.\n", "")
    elif replace == "# 2. Quanto custaria":
        text = text.replace(replace, "# 3. Quanto custaria")
    else:
        text = text.replace(replace, 'key="reflect" lang="es" questions=true src=')
    found = problems_of(tmp_path, text)
    assert any(fragment in msg for _, msg in found), found


def test_questions_cell_must_end_the_lesson_and_have_two_or_three_questions(tmp_path):
    after = GOOD + QUESTIONS + '\n# %%\nx = 1\n'
    assert any("a cell after the questions=true cell" in msg for _, msg in problems_of(tmp_path, after))
    second = GOOD + QUESTIONS + QUESTIONS.replace('key="reflect"', 'key="reflect2"')
    assert any("a second questions=true cell" in msg for _, msg in problems_of(tmp_path, second))
    four = GOOD + QUESTIONS.replace("#    Think of memory.\n",
                                    "#    Think of memory.\n# 3. A?\n# 4. B?\n")
    found = problems_of(tmp_path, four)
    assert any("(en) has 4 question(s); write 2 to 3" in msg for _, msg in found), found
    clash = GOOD.replace('key="intro"', 'key="reflect-q1"') + QUESTIONS
    assert any("key 'reflect-q1' already used" in msg for _, msg in problems_of(tmp_path, clash))
    mismatch = GOOD + QUESTIONS.replace("#    Think of memory.\n", "#    Think of memory.\n# 3. And the GPU?\n", 1)
    assert any("the English has 3" in msg for _, msg in problems_of(tmp_path, mismatch))
