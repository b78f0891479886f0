"""Scores computed outside the student's kernel.

The autograder (the nbgrader process, see :mod:`grader.autograde`) never reads a score
from a kernel. For every test cell of a registered exercise it

1. chooses the inputs in its own process (visible cases at fixed points, hidden cases at
   points drawn from a seed: by default derived from course, assignment, student and
   exercise, so a regrade gives the same points; ``--seed`` / ``GRADER_SEED`` sets one seed
   for everyone), and sends them to the kernel as plain JSON data inside a *probe*
   (:func:`build_probe`; the probe's code is ``grader/autograde/probe.py``, embedded as text);
2. lets the kernel call the student's function on them; the probe publishes what came back
   as data (``application/vnd.minitape.probe+json``);
3. decodes that data defensively (:mod:`grader.wire`), computes the references with its own
   minitape, compares with the exercise's tolerance, runs the finite-difference checks and
   produces the :class:`~grader.student.runner.ExerciseResult` whose score nbgrader saves
   (:func:`score_probe`).

Whatever the kernel displayed, patched or forged, the score is what the reported *values*
deserve: no output scores 0, several probe outputs score the lowest of them, malformed data
fails the cases it concerns. Nothing else the kernel says about itself (which tools ran, what
it printed, why a gradient is None on a hidden case) decides points or reaches feedback for a
hidden case: a hidden check shows only its reason, in fixed words. Techniques are read from
the submitted source on this side (:mod:`grader.autograde.technique`) and become notes for the
instructor, never points; the one exception is a function that, as submitted, always raises
(the released stub): values reported for it are forged and score 0 (``forged_result``).
"""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from grader.student.registry import Exercise
from grader.i18n import t
from grader.student.runner import CheckResult, ExerciseResult, StudentError, graded_cases, judge_case
from grader.wire import MAX_PAYLOAD, MIME, WireError, decode_answer, encode_input

__all__ = ["PARTS", "PROBE_MIME", "ProbePlan", "build_probe", "build_probe_parts", "exercise_seed",
           "hidden_digest", "score_probe"]

# a probe in two cells: every visible case of every exercise runs before any hidden input is
# sent to the kernel (grader.autograde.inject_probes), so nothing feedback shows of a visible
# case -- an exception's text, a value -- can carry a hidden input seen earlier
PARTS = ("visible", "hidden")
MAX_PAYLOADS = 8  # probe outputs per part judged (more: the extra ones are malformed)

PROBE_MIME = MIME  # the wire format's (grader.wire): the probe's output
_RUNTIME = Path(__file__).resolve().parent / "probe.py"
_WIRE = Path(__file__).resolve().parents[1] / "wire.py"


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


def hidden_digest(plan: ProbePlan) -> str:
    """A short digest of the hidden points a plan used: equal across regrades of one student
    (the points are fixed per student), and reveals nothing of the points themselves."""
    seeds = [str(seed) for _, hidden, seed, _ in plan.cases if hidden]
    return hashlib.sha256(("\0".join(seeds)).encode()).hexdigest()[:16]


def _plan_and_cases(ex: Exercise, lang: str, seed: int, call_timeout: float | None):
    plan = ProbePlan(ex.id, lang, int(seed), secrets.token_hex(8), call_timeout)
    cases = []
    for case, label, hidden, case_seed, with_fd in graded_cases(ex, lang, True, int(seed)):
        inputs = case.make(np.random.default_rng(case_seed))
        cases.append({"args": encode_input(tuple(inputs.args)),
                      "kwargs": encode_input(dict(inputs.kwargs))})
        plan.cases.append((label, hidden, case_seed, with_fd))
    return plan, cases


def build_probe(ex: Exercise, lang: str, seed: int, call_timeout: float | None = None
                ) -> tuple[str, ProbePlan]:
    """The code of one probe cell running every case of ``ex``, and the plan to score its
    output with (the autograder runs the two parts of :func:`build_probe_parts` instead)."""
    plan, cases = _plan_and_cases(ex, lang, seed, call_timeout)
    return _probe_source(ex, lang, plan, cases, None), plan


def build_probe_parts(ex: Exercise, lang: str, seed: int, call_timeout: float | None = None
                      ) -> tuple[dict[str, tuple[str, int]], ProbePlan]:
    """The probe of ``ex`` in two cells, ``{"visible": (code, cases), "hidden": (code,
    cases)}``, and the plan to score their outputs with (together)."""
    plan, cases = _plan_and_cases(ex, lang, seed, call_timeout)
    hidden = [h for _, h, _, _ in plan.cases]
    parts = {}
    for part in PARTS:
        mine = [c for c, h in zip(cases, hidden) if h == (part == "hidden")]
        parts[part] = (_probe_source(ex, lang, plan, mine, part), len(mine))
    return parts, plan


def _probe_source(ex: Exercise, lang: str, plan: ProbePlan, cases: list, part: str | None) -> str:
    spec = {"exercise": ex.id, "function": ex.function, "lang": lang, "nonce": plan.nonce,
            "call_timeout": plan.call_timeout, "cases": cases}
    if part is not None:
        spec["part"] = part
    runtime = _RUNTIME.read_text(encoding="utf-8")
    wire = _WIRE.read_text(encoding="utf-8")  # the codec's kernel half, run before the probe
    source = (f"# {ex.id}: run by the autograder (the test cell's own code is shown in feedback)\n"
              "__grader_probe = {'__name__': 'grader_probe'}\n"
              f"exec(compile({wire!r}, '<grader-wire>', 'exec'), __grader_probe)\n"
              f"exec(compile({runtime!r}, '<grader-probe>', 'exec'), __grader_probe)\n"
              f"__grader_probe['run'](globals(), {json.dumps(spec)!r})\n"
              "del __grader_probe\n")
    return source


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


def _setup_failure(ex: Exercise, lang: str, message: str, reason: str) -> list[CheckResult]:
    visible = sum(c.weight for c in ex.visible)
    rest = ex.total_weight - visible
    return [CheckResult(t("check.setup", lang), False, visible, False, reason, message),
            CheckResult(t("check.setup", lang), True, rest, False, reason, message)]


# what a failed hidden check says: its reason in fixed words, nothing the kernel reported
# (a message, a shape, a type name, printed text) and nothing of the case (inputs, expected)
_HIDDEN_REASONS = {"none": "none", "type": "type", "dtype": "dtype", "shape": "shape",
                   "structure": "structure", "not_finite": "not_finite", "values": "values",
                   "error": "error", "timeout": "timeout", "fd": "values",
                   "unusable": "unusable", "no_result": "other"}


def _hidden_view(check: CheckResult, lang: str, error: StudentError | None,
                 case_label: str) -> CheckResult:
    """A hidden check as feedback may show it: that it failed and why, never what with (not
    even the names of the answer's parts, which for some exercises are drawn with the case)."""
    label = check.label if check.label == t("check.finite_difference", lang) else case_label
    # (the case's evidence stays with it, on this side only: the mistake patterns are read
    # over every case, hidden ones included, and a pattern says how, never at which point)
    if check.passed:
        return CheckResult(label, True, check.weight, True, check.reason,
                           t("hidden.passed", lang), evidence=check.evidence)
    if error is not None and error.not_implemented:
        key = "not_implemented"
    else:
        key = _HIDDEN_REASONS.get(check.reason, "other")
    return CheckResult(label, True, check.weight, False, check.reason,
                       t(f"hidden.{key}", lang), evidence=check.evidence)


def _judge_payload(ex: Exercise, plan: ProbePlan, payload: dict, lang: str
                   ) -> tuple[list[CheckResult], str, dict]:
    """(checks, facts) for one well-formed-looking payload. What the function printed is not
    kept: it ran on hidden inputs too, and feedback must not show them."""
    if payload.get("exercise") != ex.id or payload.get("nonce") != plan.nonce:
        raise WireError("probe output for another exercise or run")
    setup = payload.get("setup")
    if setup == "undefined":
        return _setup_failure(ex, lang, t("err.undefined", lang, name=ex.function),
                              "undefined"), {}
    if setup == "not_callable":
        kind = str(payload.get("kind", "object"))[:100]
        return _setup_failure(ex, lang, t("err.not_callable", lang, name=ex.function, kind=kind),
                              "undefined"), {}
    cases = payload.get("cases")
    if not isinstance(cases, list) or len(cases) != len(plan.cases):
        raise WireError("probe output with the wrong number of cases")
    facts = {"seconds": [], "timed_out": False, "answered": False, "raised": False}
    checks: list[CheckResult] = []
    by_index = {i: case for i, case in enumerate(ex.visible)}
    by_index.update({len(ex.visible) + i: case for i, case in enumerate(ex.hidden)})
    for index, ((label, hidden, case_seed, with_fd), reported) in enumerate(zip(plan.cases, cases)):
        case = by_index[index]
        inputs = case.make(np.random.default_rng(case_seed))
        answer, error, why = None, None, {}
        if reported is _MISSING:  # its part of the probe published nothing
            error = StudentError("NoResult", t("err.no_result", lang, name=ex.function))
            judged = judge_case(ex, case, label, hidden, case_seed, lang, error=error,
                                inputs=inputs, with_fd=with_fd)
            judged = [CheckResult(c.label, c.hidden, c.weight, False,
                                  "no_result" if c.reason == "error" else c.reason,
                                  t("err.no_result", lang, name=ex.function)
                                  if c.reason == "error" else c.message) for c in judged]
            if hidden:
                judged = [_hidden_view(c, lang, None, label) for c in judged]
            checks.extend(judged)
            continue
        try:
            if not isinstance(reported, dict):
                raise WireError("malformed case")
            if "error" in reported:
                error = _error(reported["error"])
                if error.timed_out:
                    facts["timed_out"] = True
                elif not error.not_implemented:  # the stub is "unanswered", not "raised"
                    facts["raised"] = True  # exported in the notes (grader/autograde/export.py)
            elif "answer" in reported:
                answer = decode_answer(reported["answer"])
                facts["answered"] = True
                raw_why = reported.get("why_none", {})
                if isinstance(raw_why, dict):
                    why = {k: v[:1000] for k, v in raw_why.items()
                           if isinstance(k, str) and isinstance(v, str)}
            else:
                raise WireError("case without answer or error")
            seconds = reported.get("seconds")
            if isinstance(seconds, (int, float)) and not isinstance(seconds, bool):
                facts["seconds"].append(float(seconds))
        except WireError as exc:
            error = StudentError("MalformedResult", f"the kernel reported unusable data ({exc})")
            facts.setdefault("malformed", str(exc)[:200])  # that exercise's malformed_result
        judged = judge_case(
            ex, case, label, hidden, case_seed, lang, answer=answer, error=error, inputs=inputs,
            with_fd=with_fd, why_none=lambda path, why=why: why.get(path) or why.get(""))
        if hidden:
            judged = [_hidden_view(c, lang, error, label) for c in judged]
        checks.extend(judged)
    return checks, facts


_MISSING = object()  # a case whose part of the probe published nothing


def _candidates(ex: Exercise, plan: ProbePlan, payloads: list, issues: list) -> list[dict]:
    """Whole payloads to judge, one case per case of ``plan``: each one-cell payload (part
    ``None``), and each pairing of a visible part with a hidden part; a part that published
    nothing has its cases missing (they fail: ``no_result``). Malformed ones are noted."""
    whole, parts = [], {part: [] for part in PARTS}
    for raw in payloads:
        try:
            payload = _as_payload(raw)
            if payload.get("exercise") != ex.id or payload.get("nonce") != plan.nonce:
                raise WireError("probe output for another exercise or run")
            part = payload.get("part")
            if part is not None and part not in parts:
                raise WireError("probe output of an unknown part")
            if part is None:
                whole.append(payload)
            elif len(parts[part]) >= MAX_PAYLOADS:
                raise WireError("too many probe outputs")
            else:
                parts[part].append(payload)
        except (WireError, ValueError, TypeError, KeyError) as exc:
            issues.append(("malformed_result", str(exc)[:200]))
    if not any(parts.values()):
        return whole
    wanted = {part: sum(1 for _, hidden, _, _ in plan.cases if hidden == (part == "hidden"))
              for part in PARTS}
    missing = [part for part in PARTS if wanted[part] and not parts[part]]
    if missing:
        issues.append(("no_result", f"the kernel published no result for the {' and '.join(missing)} "
                                    "cases of this exercise"))
    out = list(whole)
    for visible in parts["visible"] or [None]:
        for hidden in parts["hidden"] or [None]:
            merged = {"exercise": ex.id, "nonce": plan.nonce, "cases": []}
            for part, payload in (("visible", visible), ("hidden", hidden)):
                if payload is not None and payload.get("setup"):
                    merged = dict(payload)
                    break
                cases = payload.get("cases") if payload is not None else [_MISSING] * wanted[part]
                if not isinstance(cases, list) or len(cases) != wanted[part]:
                    raise WireError("probe output with the wrong number of cases")
                merged["cases"] = merged["cases"] + cases
            out.append(merged)
    return out


def _forged(ex: Exercise, lang: str, checks: list[CheckResult]) -> list[CheckResult]:
    """Every check failed: the function as submitted cannot return, yet values came back."""
    message = t("err.forged", lang, name=ex.function)
    return [CheckResult(c.label, c.hidden, c.weight, False, "forged", message) for c in checks]


def score_probe(ex: Exercise, plan: ProbePlan, outputs: list, lang: str,
                cell_sources: list[str] | None = None
                ) -> tuple[ExerciseResult, list[tuple[str, str]], dict]:
    """Judge the outputs of a probe cell: ``(result, issues, facts)``.

    Points come from the values the kernel reported for the inputs chosen here, nothing else.
    ``issues``: ``(kind, detail)`` pairs for the export (``no_result`` when the kernel published
    nothing usable, ``multiple_results`` when it published several — the lowest score counts,
    ``forged_result`` when values came back for a function that, as submitted, always raises,
    ``technique`` for a technique concern read from the source: a note, never points).
    ``facts``: seconds per call, and whether a call timed out.
    ``cell_sources``: the submitted notebook's code, in order (the function graded is the one
    bound after the last cell: the probes run after all of it).
    """
    from grader.autograde.technique import provably_raises, technique_notes

    payloads = probe_payloads(outputs)
    issues: list[tuple[str, str]] = []
    judged = []
    try:
        candidates = _candidates(ex, plan, payloads, issues)
    except (WireError, ValueError, TypeError, KeyError) as exc:
        issues.append(("malformed_result", str(exc)[:200]))
        candidates = []
    for payload in candidates:
        try:
            judged.append(_judge_payload(ex, plan, payload, lang))
        except (WireError, ValueError, TypeError, KeyError) as exc:
            issues.append(("malformed_result", str(exc)[:200]))
    if not judged:
        message = t("err.no_result", lang, name=ex.function)
        checks = _setup_failure(ex, lang, message, "no_result")
        if not any(kind == "no_result" for kind, _ in issues):
            issues.append(("no_result", "the kernel published no usable result for this exercise"))
        return ExerciseResult(ex, lang, checks, "grade"), issues, {}
    # one output per cell of the probe is expected (a one-cell probe, or each of two parts)
    slots = {p.get("part") if isinstance(p, dict) and p.get("part") in PARTS else None
             for p in payloads}
    if len(payloads) > len(slots):
        issues.append(("multiple_results",
                       f"the kernel published {len(payloads)} results; the lowest score counts"))
    stub = "no" if cell_sources is None else provably_raises(cell_sources, ex.function)
    results = []
    for checks, facts in judged:
        if facts.get("malformed"):
            issues.append(("malformed_result", f"a case's answer was unusable: {facts['malformed']}"))
        if stub == "yes" and facts.get("answered"):
            checks = _forged(ex, lang, checks)
            issues.append(("forged_result", f"{ex.function} as submitted always raises, yet "
                           "the kernel reported values for it: scored 0"))
        elif stub == "unsure" and facts.get("answered"):
            issues.append(("technique", f"{ex.function} as written always raises, yet the "
                           "kernel reported values for it, and the notebook has code a reading "
                           "cannot follow: review by hand"))
        results.append((ExerciseResult(ex, lang, checks, "grade"), facts))
    result, facts = min(results, key=lambda rf: rf[0].score)
    defined = not any(c.reason == "undefined" for c in result.checks)
    if defined and cell_sources is not None and stub == "no":
        for note in technique_notes(ex.techniques, cell_sources, ex.function):
            issues.append(("technique", note))
    return result, issues, facts
