"""The tape drawing's text alternative: ``<title>`` and ``<desc>`` in the drawing's language, tied to
the ``role="img"`` element with aria-labelledby/aria-describedby, listing the recorded operations."""

from __future__ import annotations

import html
import re

import pytest

import minitape as tf
from minitape.debugging import draw
from minitape.debugging.messages import CATALOG


@pytest.mark.parametrize("lang", ["en", "es", "pt", "ru"])
def test_svg_title_and_desc_are_in_the_drawings_language(lang):
    x = tf.Variable(3.0, name="x")
    with tf.GradientTape() as tape:
        y = x * x
        z = tf.sin(y)
    drawing = draw(tape, target=z, sources=[x], lang=lang)
    svg = drawing.svg
    root = re.search(r"<svg[^>]*>", svg).group(0)
    title_id = re.search(r'aria-labelledby="([^"]+)"', root).group(1)
    desc_id = re.search(r'aria-describedby="([^"]+)"', root).group(1)
    title = re.search(rf'<title id="{title_id}">([^<]*)</title>', svg).group(1)
    desc = re.search(rf'<desc id="{desc_id}">([^<]*)</desc>', svg).group(1)
    assert title == drawing.text.splitlines()[0] and "2" in title     # the header line, in its language
    assert any(form in title for form in CATALOG.text("draw.ops.plural", lang).split("|"))
    assert desc.startswith(CATALOG.text("draw.desc.order", lang))
    assert "Mul(x, x) → y" in desc and "Sin(y) → z" in desc
    assert f"{CATALOG.text('draw.desc.watched', lang)}: x." in desc
    assert f"{CATALOG.text('draw.desc.targets', lang)}: z." in desc


def _drawn(svg: str) -> dict[str, list[str]]:
    """role -> the names written in the boxes the drawing colours with that role."""
    found: dict[str, list[str]] = {}
    for role, body in re.findall(r'<g class="mt-tensor mt-(\w+)">(.*?)</g>', svg, flags=re.S):
        name = html.unescape(re.search(r"<text[^>]*>([^<]*)</text>", body).group(1))
        found.setdefault(role, []).append(name)
    return found


def _described(svg: str, lang: str) -> dict[str, list[str]]:
    """role -> the names the text alternative lists for it ([] where it says "none")."""
    desc = html.unescape(re.search(r"<desc[^>]*>([^<]*)</desc>", svg).group(1))
    out = {}
    for role, key, none in (("source", "watched", "no_sources"), ("target", "targets", "no_targets"),
                            ("variable", "unwatched", None)):
        head = CATALOG.text(f"draw.desc.{key}", lang) + ": "
        if head not in desc:
            out[role] = []
            continue
        listed = desc.split(head, 1)[1].split(". ", 1)[0].rstrip(".")
        out[role] = [] if none and listed == CATALOG.text(f"draw.desc.{none}", lang) else listed.split(", ")
    return out


def _cases():
    # lesson 1's drawing: no target or source given; the tape's own roles (x is a trainable
    # Variable, so watched; y is the final result, so the target)
    x = tf.Variable(3.0, name="x")
    with tf.GradientTape(persistent=True) as t1:
        y = x**2 + 2 * x
    yield "inferred", t1, {}
    # a watched tensor, a frozen variable and two results, target and sources given
    a = tf.constant([1.0, 2.0])
    frozen = tf.Variable(0.5, trainable=False, name="frozen")
    with tf.GradientTape(persistent=True) as t2:
        t2.watch(a)
        b = a * frozen
        c = tf.reduce_sum(b)
    yield "explicit", t2, {"target": c, "sources": [a]}
    # nothing watched: the drawing is empty and says so
    with tf.GradientTape() as t3:
        tf.constant(1.0) * 2.0
    yield "empty", t3, {}


@pytest.mark.parametrize("lang", ["en", "es", "pt", "ru"])
def test_the_description_names_what_the_drawing_marks(lang):
    """Issue 38: the description said "Watched sources: none. Targets: none." under a drawing that
    marks x as the watched source and y as the target. It now lists, role by role, the very tensors
    the boxes are coloured for."""
    for case, tape, kw in _cases():
        svg = draw(tape, lang=lang, **kw).svg
        drawn, described = _drawn(svg), _described(svg, lang)
        for role in ("source", "target", "variable"):
            assert sorted(described[role]) == sorted(dict.fromkeys(drawn.get(role, []))), (case, role, svg)
    # the inferred case marks something in each of the first two roles: the description is not empty
    svg = draw(next(_cases())[1], lang=lang).svg
    assert _described(svg, lang)["source"] == ["x"] and _described(svg, lang)["target"]


@pytest.mark.parametrize("lang, none_ops, none_targets", [
    ("en", "none", "none"), ("es", "ninguna", "ninguno"), ("pt", "nenhuma", "nenhum"), ("ru", "нет", "нет")])
def test_none_agrees_with_its_noun(lang, none_ops, none_targets):
    """"Objetivos: ninguna" and "Alvos: nenhuma" were wrong: objetivos and alvos are masculine."""
    with tf.GradientTape() as tape:
        tf.constant(1.0) * 2.0
    desc = re.search(r"<desc[^>]*>([^<]*)</desc>", draw(tape, lang=lang).svg).group(1)
    assert f"{CATALOG.text('draw.desc.order', lang)}: {none_ops}." in desc
    assert f"{CATALOG.text('draw.desc.targets', lang)}: {none_targets}." in desc


@pytest.mark.parametrize("lang, word", [("en", "no longer holds"), ("es", "ya no conserva"),
                                        ("pt", "não guarda mais"), ("ru", r"больше не\sхранит")])
def test_drawing_a_spent_tape_says_why_in_the_drawings_language(lang, word):
    """A student who re-runs a drawing cell after tape.gradient reads why nothing can be drawn,
    in the notebook's language (issue 38: it was English in every language)."""
    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = x * x
    tape.gradient(y, x)
    with pytest.raises(ValueError, match=word):
        draw(tape, lang=lang)
