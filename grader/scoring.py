"""Scores computed outside the student's kernel.

The autograder (the nbgrader process, see :mod:`grader.nbgrader_ext`) never reads a score
from a kernel. For every test cell of a registered exercise it

1. chooses the inputs in its own process (visible cases at fixed points, hidden cases at
   points drawn from a seed: by default derived from course, assignment, student and
   exercise, so a regrade gives the same points; ``--seed`` / ``GRADER_SEED`` sets one seed
   for everyone), and sends them to the kernel as plain JSON data inside a *probe*
   (:func:`build_probe`; the probe's code is ``grader/_probe_runtime.py``, embedded as text);
2. lets the kernel call the student's function on them; the probe publishes what came back
   as data (``application/vnd.minitape.probe+json``);
3. decodes that data defensively (:mod:`grader.wire`), computes the references with its own
   minitape, compares with the exercise's tolerance, runs the finite-difference checks,
   checks the technique the exercise requires (:mod:`grader.technique`) and produces the
   :class:`~grader.runner.ExerciseResult` whose score nbgrader saves (:func:`score_probe`).

Whatever the kernel displayed, patched or forged, the score is what the reported *values*
deserve: no output scores 0, several probe outputs score the lowest of them, malformed data
fails the cases it concerns.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .exercises import Exercise
from .i18n import t
from .runner import CheckResult, ExerciseResult, StudentError, graded_cases, judge_case
from .wire import MAX_PAYLOAD, WireError, decode_answer, encode_input

__all__ = ["PROBE_MIME", "ProbePlan", "build_probe", "exercise_seed", "score_probe"]

PROBE_MIME = "application/vnd.minitape.probe+json"
_RUNTIME = Path(__file__).resolve().parent / "_probe_runtime.py"
MAX_CAPTURED = 4000


def exercise_seed(exercise_id: str, *, course: str = "", assignment: str = "", student: str = "",
                  seed: int | None = None) -> int:
    """The seed of one exercise's hidden points: from ``seed`` when given (the same points for
    every student), else from (course, assignment, student) — stable across regrades."""
    if seed is not None:
        material = f"seed\0{int(seed)}\0{exercise_id}"
    else:
        material = f"student\0{course}\0{assignment}\0{student}\0{exercise_id}"
    return int.from_bytes(hashlib.sha256(material.encode("utf-8")).digest()[:8], "big") >> 2


@dataclass
class ProbePlan:
    """What the trusted process asked a kernel to run (kept in the trusted process)."""

    exercise_id: str
    lang: str
    seed: int
    nonce: str
    call_timeout: float | None
    cases: list[tuple[str, bool, int, bool]] = field(default_factory=list)  # label, hidden, seed, fd


def build_probe(ex: Exercise, lang: str, seed: int, call_timeout: float | None = None
                ) -> tuple[str, ProbePlan]:
    """The code of the probe cell for ``ex`` and the plan to score its output with."""
    plan = ProbePlan(ex.id, lang, int(seed), secrets.token_hex(8), call_timeout)
    cases = []
    for case, label, hidden, case_seed, with_fd in graded_cases(ex, lang, True, int(seed)):
        inputs = case.make(np.random.default_rng(case_seed))
        cases.append({"args": encode_input(tuple(inputs.args)),
                      "kwargs": encode_input(dict(inputs.kwargs))})
        plan.cases.append((label, hidden, case_seed, with_fd))
    spec = {"exercise": ex.id, "function": ex.function, "lang": lang, "nonce": plan.nonce,
            "call_timeout": call_timeout, "cases": cases}
    runtime = _RUNTIME.read_text(encoding="utf-8")
    source = (f"# {ex.id}: run by the autograder (the test cell's own code is shown in feedback)\n"
              "__grader_probe = {'__name__': 'grader_probe'}\n"
              f"exec(compile({runtime!r}, '<grader-probe>', 'exec'), __grader_probe)\n"
              f"__grader_probe['run'](globals(), {json.dumps(spec)!r})\n"
              "del __grader_probe\n")
    return source, plan


# ------------------------------------------------------------------------------------------
# scoring what came back
# ------------------------------------------------------------------------------------------
def probe_payloads(outputs: list) -> list[Any]:
    """Every probe output's data in a cell's outputs (raw, not yet validated)."""
    found = []
    for output in outputs or []:
        try:
            if output.get("output_type") not in ("display_data", "execute_result"):
                continue
            data = output.get("data", {})
            if PROBE_MIME in data:
                found.append(data[PROBE_MIME])
        except AttributeError:
            continue
    return found


def _as_payload(raw: Any) -> dict:
    if isinstance(raw, str):
        if len(raw) > MAX_PAYLOAD:
            raise WireError("probe output too large")
        raw = json.loads(raw)
    if not isinstance(raw, dict):
        raise WireError("probe output is not an object")
    if len(json.dumps(raw)) > MAX_PAYLOAD:
        raise WireError("probe output too large")
    return raw


def _error(d: Any) -> StudentError:
    if not isinstance(d, dict):
        raise WireError("malformed error")
    ename, evalue = d.get("ename", "Error"), d.get("evalue", "")
    tb = d.get("traceback", "")
    if not all(isinstance(x, str) for x in (ename, evalue, tb)):
        raise WireError("malformed error")
    return StudentError(ename[:100], evalue[:1000], bool(d.get("not_implemented")), tb[:2000],
                        bool(d.get("timed_out")))


def _setup_failure(ex: Exercise, lang: str, message: str, reason: str, plan: ProbePlan
                   ) -> list[CheckResult]:
    visible = sum(c.weight for c in ex.visible)
    rest = ex.total_weight - visible + ex.technique_weight * len(ex.techniques)
    return [CheckResult(t("check.setup", lang), False, visible, False, reason, message),
            CheckResult(t("check.setup", lang), True, rest, False, reason, message)]


def _judge_payload(ex: Exercise, plan: ProbePlan, payload: dict, lang: str
                   ) -> tuple[list[CheckResult], str, dict]:
    """(checks, captured output, facts) for one well-formed-looking payload."""
    if payload.get("exercise") != ex.id or payload.get("nonce") != plan.nonce:
        raise WireError("probe output for another exercise or run")
    setup = payload.get("setup")
    if setup == "undefined":
        return _setup_failure(ex, lang, t("err.undefined", lang, name=ex.function), "undefined",
                              plan), "", {}
    if setup == "not_callable":
        kind = str(payload.get("kind", "object"))[:100]
        return _setup_failure(ex, lang, t("err.not_callable", lang, name=ex.function, kind=kind),
                              "undefined", plan), "", {}
    cases = payload.get("cases")
    if not isinstance(cases, list) or len(cases) != len(plan.cases):
        raise WireError("probe output with the wrong number of cases")
    captured = payload.get("captured", "")
    captured = captured[:MAX_CAPTURED] if isinstance(captured, str) else ""
    facts = {"tools": set(), "seconds": [], "timed_out": False, "raised": False}
    checks: list[CheckResult] = []
    by_index = {i: case for i, case in enumerate(ex.visible)}
    by_index.update({len(ex.visible) + i: case for i, case in enumerate(ex.hidden)})
    for index, ((label, hidden, case_seed, with_fd), reported) in enumerate(zip(plan.cases, cases)):
        case = by_index[index]
        inputs = case.make(np.random.default_rng(case_seed))
        answer, error, why = None, None, {}
        try:
            if not isinstance(reported, dict):
                raise WireError("malformed case")
            if "error" in reported:
                error = _error(reported["error"])
                if error.timed_out:
                    facts["timed_out"] = True
                elif not error.not_implemented:  # the stub is "unanswered", not "raised"
                    facts["raised"] = True  # exported in the notes (grader/export.py)
            elif "answer" in reported:
                answer = decode_answer(reported["answer"])
                raw_why = reported.get("why_none", {})
                if isinstance(raw_why, dict):
                    why = {k: v[:1000] for k, v in raw_why.items()
                           if isinstance(k, str) and isinstance(v, str)}
            else:
                raise WireError("case without answer or error")
            tools = reported.get("tools", [])
            if isinstance(tools, list):
                facts["tools"].update(x for x in tools if isinstance(x, str))
            seconds = reported.get("seconds")
            if isinstance(seconds, (int, float)) and not isinstance(seconds, bool):
                facts["seconds"].append(float(seconds))
        except WireError as exc:
            error = StudentError("MalformedResult", f"the kernel reported unusable data ({exc})")
        checks.extend(judge_case(
            ex, case, label, hidden, case_seed, lang, answer=answer, error=error, inputs=inputs,
            with_fd=with_fd, why_none=lambda path, why=why: why.get(path) or why.get("")))
    return checks, captured, facts


def _technique_checks(ex: Exercise, cell_sources: list[str] | None, tools: set[str], lang: str
                      ) -> list[CheckResult]:
    from .technique import check_technique, names_used

    names = names_used(cell_sources or [], ex.function)
    out = []
    for technique in ex.techniques:
        passed, message = check_technique(technique, names, tools, lang)
        label = f"{t('check.technique', lang)}: {technique.describe(lang)}"
        out.append(CheckResult(label, False, ex.technique_weight, passed, "technique", message))
    return out


def score_probe(ex: Exercise, plan: ProbePlan, outputs: list, lang: str,
                cell_sources: list[str] | None = None
                ) -> tuple[ExerciseResult, list[tuple[str, str]], dict]:
    """Judge the outputs of a probe cell: ``(result, issues, facts)``.

    ``issues``: ``(kind, detail)`` pairs for the export (``no_result`` when the kernel published
    nothing usable, ``multiple_results`` when it published several — the lowest score counts).
    ``facts``: what the kernel reported beyond values (tools used, seconds per call).
    ``cell_sources``: the submitted notebook's code, for the exercise's technique checks.
    """
    payloads = probe_payloads(outputs)
    issues: list[tuple[str, str]] = []
    judged = []
    for raw in payloads:
        try:
            payload = _as_payload(raw)
            judged.append(_judge_payload(ex, plan, payload, lang))
        except (WireError, ValueError, TypeError, KeyError) as exc:
            issues.append(("malformed_result", str(exc)[:200]))
    if not judged:
        message = t("err.no_result", lang, name=ex.function)
        checks = _setup_failure(ex, lang, message, "no_result", plan)
        issues.append(("no_result", "the kernel published no usable result for this exercise"))
        return ExerciseResult(ex, lang, checks, "grade"), issues, {}
    if len(payloads) > 1:
        issues.append(("multiple_results",
                       f"the kernel published {len(payloads)} results; the lowest score counts"))
    results = []
    for checks, captured, facts in judged:
        if ex.techniques and not any(c.reason == "undefined" for c in checks):
            checks = checks + _technique_checks(ex, cell_sources, facts.get("tools", set()), lang)
        results.append((ExerciseResult(ex, lang, checks, "grade", 0, captured), facts))
    result, facts = min(results, key=lambda rf: rf[0].score)
    for check in result.checks:
        if check.reason == "technique" and not check.passed:
            issues.append(("technique", check.message))
    return result, issues, facts
