"""HTML (Jupyter, nbgrader feedback) and plain-text renderings of an :class:`ExerciseResult`.

Only inline styles: the HTML must look the same in JupyterLab, in nbgrader's feedback page
and in a notebook whose outputs were sanitized.  Hidden checks show their outcome and the
gap (errors, first differing index) but never their inputs or code; ``check()`` runs no
hidden check at all and only says how many will run at grading time.
"""

from __future__ import annotations

import html
import re

from course_lang.typography import localize_number

from grader.i18n import t, tn

__all__ = ["render_html", "render_text"]

_GREEN, _RED, _AMBER = "#1a7f37", "#cf222e", "#9a6700"
_CODE = re.compile(r"`([^`]+)`")


def _inline(text: str) -> str:
    """Escape, then render `code` spans."""
    return _CODE.sub(r"<code>\1</code>", html.escape(text, quote=False))


def _points(x: float, lang: str) -> str:
    """A score as the sentence writes it: 1.5 points in English, 1,5 puntos in Spanish."""
    return localize_number(f"{x:g}", lang)


def _summary(result) -> tuple[str, str]:
    """(headline, colour)."""
    lang = result.lang
    n, failed = len(result.checks), len(result.failed)
    if getattr(result.exercise, "optional", False):
        head = t("report.optional", lang, passed=n - failed, total=n)
    elif result.mode == "grade":
        head = tn("report.score.plural", result.points, lang, score=_points(result.score, lang),
                  points=_points(result.points, lang))
    else:
        head = t("report.visible_score", lang, passed=n - failed, total=n)
    if failed == 0:
        colour = _GREEN
    elif failed == n:
        colour = _RED
    else:
        colour = _AMBER
    return head, colour


def _status_line(result) -> str:
    lang = result.lang
    if not result.failed:
        return t("report.all_passed" if result.mode == "grade" else "report.all_visible_passed", lang)
    return t("report.some_failed", lang, failed=len(result.failed), total=len(result.checks))


def _details_text(check, lang: str) -> list[str]:
    d = check.details
    out = []
    if "expected" in d and "got" in d and not check.passed:
        out.append(f"{t('report.expected', lang)}: {d['expected']}")
        out.append(f"{t('report.got', lang)}: {d['got']}")
    elif "got" in d and not check.passed:
        out.append(f"{t('report.got', lang)}: {d['got']}")
    if "traceback" in d:
        out.append(d["traceback"])
    return out


def _pending(result) -> str:
    """How many hidden checks grading adds, and what they ask (random points or other cases)."""
    key = "report.hidden_pending.plural" if getattr(result.exercise, "hidden_at_random", True) else \
        "report.hidden_pending_named.plural"
    return tn(key, result.hidden_pending, result.lang, count=result.hidden_pending)


def _rule(result) -> str:
    """The one rule for number types and the tolerance the answers were compared at."""
    from grader.student.checks import Tolerance

    ex = result.exercise
    rtol, atol = getattr(ex, "tolerance", Tolerance()).for_dtype(getattr(ex, "precision", "float32"))
    return t("report.compare_rule", result.lang, rtol=f"{rtol:g}", atol=f"{atol:g}")


def render_html(result) -> str:
    lang = result.lang
    head, colour = _summary(result)
    title = t("report.title", lang, exercise=result.exercise.display_title(lang))
    rows = []
    for check in result.checks:
        mark = "✔" if check.passed else "✘"
        word = t("report.passed" if check.passed else "report.failed", lang)
        tag = t("report.hidden" if check.hidden else "report.visible", lang)
        extra = _details_text(check, lang)
        more = ""
        if extra:
            # "expected / got" only when there is something to compare; else the traceback
            compare = "expected" in check.details or "got" in check.details
            summary = (f"{t('report.expected', lang)} / {t('report.got', lang)}" if compare
                       else t('report.traceback', lang))
            more = ("<details style='margin-top:2px'><summary style='cursor:pointer'>"
                    f"{html.escape(summary)}"
                    "</summary><pre style='margin:4px 0;white-space:pre-wrap'>"
                    f"{html.escape(chr(10).join(extra))}</pre></details>")
        rows.append(
            "<tr style='border-top:1px solid #ddd;vertical-align:top'>"
            # a long check name (they are longer in es, pt and ru) wraps past 18em rather than
            # squeezing the explanation: the column is as wide as the name up to that
            f"<td style='padding:3px 8px 3px 0;text-align:left'><div style='width:max-content;max-width:18em'>"
            f"{html.escape(check.label)} <span style='color:#666;font-size:85%;white-space:nowrap'>"
            f"({html.escape(tag)})</span></div></td>"
            f"<td style='padding:3px 8px;white-space:nowrap;text-align:left;color:{_GREEN if check.passed else _RED}'>"
            f"{mark} {html.escape(word)}</td>"
            f"<td style='padding:3px 0;text-align:left;width:100%;white-space:normal'>{_inline(check.message)}{more}</td></tr>")
    parts = [
        f"<div class='grader-report' data-exercise='{html.escape(result.exercise.id)}' "
        f"data-score='{result.score}' "
        f"style='font-family:system-ui,-apple-system,Segoe UI,sans-serif;font-size:14px;"
        f"border:1px solid #d0d7de;border-left:6px solid {colour};border-radius:4px;"
        f"padding:8px 12px;margin:4px 0;max-width:1000px'>",
        f"<div style='font-weight:600'>{_inline(title)}"
        f" <span style='color:#666;font-weight:400;font-size:85%'>({html.escape(result.exercise.id)})</span>"
        f" — {html.escape(head)}</div>",
        f"<div style='color:{colour}'>{html.escape(_status_line(result))}</div>",
        # JupyterLab's stylesheet right-aligns table cells and fixes the layout (equal columns):
        # inline styles keep the explanation column left-aligned and as wide as the rest allows
        "<table style='border-collapse:collapse;margin:6px 0 0 0;width:100%;table-layout:auto'>"
        f"<tr style='text-align:left'><th style='padding:3px 8px 3px 0;text-align:left'>{html.escape(t('report.col_check', lang))}</th>"
        f"<th style='padding:3px 8px;text-align:left'>{html.escape(t('report.col_result', lang))}</th><th></th></tr>",
        *rows,
        "</table>",
    ]
    if getattr(result.exercise, "optional", False):
        parts.append(f"<p style='margin:6px 0 0 0;color:#444'>{_inline(t('report.optional_note', lang))}</p>")
    if result.hidden_pending:
        parts.append(f"<p style='margin:6px 0 0 0;color:#444'>{_inline(_pending(result))}</p>")
    elif result.mode == "grade" and any(c.hidden for c in result.checks):
        parts.append(f"<p style='margin:6px 0 0 0;color:#444'>{_inline(t('report.hidden_note', lang))}</p>")
    parts.append(f"<p style='margin:6px 0 0 0;color:#666;font-size:85%'>{_inline(_rule(result))}</p>")
    if result.captured:
        parts.append("<details style='margin-top:6px'><summary style='cursor:pointer'>"
                     f"{html.escape(t('report.captured', lang))}</summary>"
                     f"<pre style='margin:4px 0;white-space:pre-wrap'>{html.escape(result.captured)}</pre>"
                     "</details>")
    parts.append("</div>")
    return "".join(parts)


def render_text(result) -> str:
    lang = result.lang
    head, _ = _summary(result)
    title = t("report.title", lang, exercise=result.exercise.display_title(lang))
    lines = [f"{title} ({result.exercise.id}) — {head}", _status_line(result)]
    for check in result.checks:
        mark = "✔" if check.passed else "✘"
        tag = t("report.hidden" if check.hidden else "report.visible", lang)
        lines.append(f"  {mark} {check.label} ({tag}): {check.message}")
        for extra in _details_text(check, lang):
            lines.extend("      " + line for line in extra.splitlines())
    if getattr(result.exercise, "optional", False):
        lines.append(t("report.optional_note", lang))
    if result.hidden_pending:
        lines.append(_pending(result))
    lines.append(_rule(result))
    if result.captured:
        lines.append(t("report.captured", lang))
        lines.extend("  | " + line for line in result.captured.rstrip().splitlines())
    return "\n".join(lines)
