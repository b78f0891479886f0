"""LaTeX math in notebooks rendered as MathML when a notebook is exported to HTML.

nbconvert leaves ``$...$`` in the page for MathJax, which it loads from a CDN: offline (a
classroom, a train) the reader sees raw LaTeX.  MathML is rendered natively by every current
browser and read by screen readers, so the course's HTML exports (feedback, the static site)
convert the math once, at export time, with ``latex2mathml``.

How: before nbconvert renders a markdown cell, each formula is replaced by a placeholder word
(markdown cannot mangle it), and after the page is rendered each placeholder is replaced by the
formula's MathML.  Code spans and fenced code blocks are left alone; ``\\$`` is a dollar sign.
A formula latex2mathml cannot convert stays as its LaTeX source in a ``<code>`` element.
"""

from __future__ import annotations

import html
import re

# fenced code blocks and inline code spans: never math
_CODE = re.compile(r"(^```.*?^```[^\n]*$|^~~~.*?^~~~[^\n]*$|(`+)(?:.+?)\2)", re.S | re.M)
# $$...$$, \[...\] (display); $...$, \(...\) (inline; no space after the opening $, no digit
# right after the closing one: "$5 and $6" is money)
_MATH = re.compile(r"(?<!\\)\$\$(.+?)(?<!\\)\$\$|\\\[(.+?)\\\]|\\\((.+?)\\\)"
                   r"|(?<![\\$])\$(?!\s)((?:\\\$|[^$\n])+?)(?<![\s\\])\$(?!\d)", re.S)
PLACEHOLDER = "MINITAPEMATH{}X"
_PLACEHOLDER = re.compile(r"MINITAPEMATH(\d+)X")


def to_mathml(latex: str, display: bool) -> str:
    """One formula as MathML (``<math>`` element), or its source in ``<code>`` when it cannot be
    converted."""
    from latex2mathml.converter import convert

    try:
        return convert(latex.strip(), display="block" if display else "inline")
    except Exception:  # noqa: BLE001 - an unknown command must not stop an export
        return f"<code>{html.escape(latex)}</code>"


def protect(text: str, formulas: list[str]) -> str:
    """``text`` (markdown) with every formula replaced by a placeholder; the formulas' MathML is
    appended to ``formulas`` (the placeholder's number is its index)."""

    def math(match: re.Match) -> str:
        display_src = match.group(1) or match.group(2)
        src = display_src if display_src is not None else (match.group(3) or match.group(4))
        formulas.append(to_mathml(src, display=display_src is not None))
        return PLACEHOLDER.format(len(formulas) - 1)

    parts = []
    last = 0
    for code in _CODE.finditer(text):
        parts.append(_MATH.sub(math, text[last:code.start()]))
        parts.append(code.group(0))
        last = code.end()
    parts.append(_MATH.sub(math, text[last:]))
    return "".join(parts)


def protect_notebook(nb, formulas: list[str]) -> None:
    """Replace the math of every markdown cell (and of ``text/markdown``/``text/latex`` outputs)
    in ``nb`` by placeholders, in place."""
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cell.source = protect(cell.source, formulas)
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            for mime in ("text/markdown", "text/latex"):
                if mime in data and isinstance(data[mime], str):
                    data[mime] = protect(data[mime], formulas)
            if "text/latex" in data and "text/html" not in data:
                data["text/html"] = data["text/latex"]


def restore(page: str, formulas: list[str]) -> str:
    """The rendered page with each placeholder replaced by its formula's MathML."""
    return _PLACEHOLDER.sub(lambda m: formulas[int(m.group(1))], page)


def export_with_mathml(exporter, nb, resources=None, **kw):
    """``exporter.from_notebook_node`` with the notebook's math as MathML (no MathJax needed)."""
    import copy

    nb = copy.deepcopy(nb)
    formulas: list[str] = []
    protect_notebook(nb, formulas)
    output, resources = exporter.from_notebook_node(nb, resources=resources, **kw)
    return restore(output, formulas), resources
