"""The tape drawing's text alternative: ``<title>`` and ``<desc>`` in the drawing's language, tied to
the ``role="img"`` element with aria-labelledby/aria-describedby, listing the recorded operations."""

from __future__ import annotations

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
    assert f"{CATALOG.text('draw.desc.watched', lang).capitalize()}: x" in desc
