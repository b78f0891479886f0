"""The claim registry (tests/support/claims.py): every sentence of a lesson that states what
TensorFlow, minitape, NumPy, Keras or a figure does names a check, in all four languages with the
same ids, and every registered check is used. The checks themselves run in the TensorFlow tier
(tests/lessons/test_lessons_tensorflow.py), under the engines they speak of."""
from __future__ import annotations

import pytest

from lessons import LANGS
from lessons.source import load_lessons
from tests.support import claims

LESSONS = load_lessons()


def _marked(lesson) -> dict[str, set[str]]:
    """{claim id: the languages that mark it} over the lesson's prose."""
    found: dict[str, set[str]] = {}
    for prose in lesson.prose:
        for lang, text in prose.texts.items():
            for claim_id in claims._MARK.findall(text):
                found.setdefault(claim_id, set()).add(lang)
    return found


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.name for lesson in LESSONS])
def test_every_sentence_that_states_what_an_engine_or_a_figure_does_names_a_check(lesson):
    missing = []
    for prose in lesson.prose:
        for lang in LANGS:
            for sentence in claims.claim_sentences(prose.texts.get(lang, ""), lang):
                if not sentence.ids:
                    missing.append(f"lessons/src/{lesson.name}.py:{prose.lines.get(lang, prose.line)} "
                                   f"[{prose.key}, {lang}] {sentence.text[:160]}")
    assert not missing, ("sentences that state what an engine or a figure does, with no "
                         "<!-- claim: ID --> after them:\n" + "\n".join(missing))


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.name for lesson in LESSONS])
def test_the_four_translations_of_a_cell_mark_the_same_claims(lesson):
    registry = claims.registry()
    for prose in lesson.prose:
        english = sorted(claims._MARK.findall(prose.texts["en"]))
        for lang in LANGS:
            ids = sorted(claims._MARK.findall(prose.texts.get(lang, "")))
            assert sorted(set(ids)) == sorted(set(english)), (lesson.name, prose.key, lang, ids, english)
            unknown = [i for i in ids if i not in registry]
            assert not unknown, f"{lesson.name} [{prose.key}, {lang}]: no check registered for {unknown}"


def test_every_registered_claim_is_made_by_a_lesson_and_checked_somewhere():
    used = set()
    for lesson in LESSONS:
        used |= set(_marked(lesson))
    registry = claims.registry()
    assert set(registry) == used, {"registered, never marked": sorted(set(registry) - used),
                                   "marked, not registered": sorted(used - set(registry))}
    for item in registry.values():
        assert item.lesson == "*" or any(lesson.name[:2] == item.lesson for lesson in LESSONS), item.id
        assert set(item.engines) <= set(claims.BOTH) and item.text


def test_the_detector_finds_what_it_must():
    """What makes a sentence a claim: an engine's name or a figure's words, in any language."""
    found = [s.text for s in claims.claim_sentences(
        "TensorFlow logs one line. The tape is a list. The figure shows $x$ (dashed line). "
        "We write `import minitape as tf`.", "en")]
    assert found == ["TensorFlow logs one line.", "The figure shows M (dashed line)."]
    assert [s.ids for s in claims.claim_sentences(
        "minitape warns. <!-- claim: a.b --> NumPy does not. <!-- claim: c.d --> Done.", "en")] == \
        [["a.b"], ["c.d"]]
    assert claims.claim_sentences("На рисунке видно, что градиент равен нулю.", "ru")
    assert claims.claim_sentences("La línea punteada es el error de redondeo.", "es")
    assert not claims.claim_sentences("A tape answers once.", "en")


def test_alt_text_check_catches_a_style_or_unit_the_figure_does_not_draw():
    figure = {"lines": [{"label": "SGD", "linestyle": "-"}, {"label": "Adam", "linestyle": "-"}],
              "texts": ["step", "MiB still in use"]}
    assert claims.alt_text_problems(figure, {"en": "SGD (solid) and Adam (solid), in MiB."}) == []
    problems = claims.alt_text_problems(figure, {"en": "SGD (solid) and Adam (dashed), in MB.",
                                                 "ru": "Штриховая линия — Adam."})
    assert len(problems) == 3 and "'dashed'" in problems[0] and "'MB'" in problems[1]
