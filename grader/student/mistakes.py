"""Which mistake produced a wrong answer: a classifier of wrong gradients (issue 29).

A wrong gradient has a small, known anatomy. Given, for every case of one exercise, the
student's value of one answer leaf beside the reference (and the case's inputs), this module
says which *pattern* explains it:

``none``          the leaf is None on every case (with ``why_none``'s reason where known);
``shape``         the shape differs on every case; sub-kinds ``transposed``, ``missing_axis`` /
                  ``extra_axis`` (a size-1 axis dropped or kept: ``keepdims``), ``broadcast``
                  (a gradient left un-reduced over a broadcast axis, or reduced too far);
``sign``          exactly -1 times the reference;
``scale``         a constant factor k != 1, named when it is 2, 1/2, the batch size n or 1/n
                  (sum instead of mean and back);
``partial``       the answer of one declared term / chain-rule factor (:class:`Pattern`, kind
                  ``partial``);
``swapped``       two leaves (two sources' gradients) exchanged;
``stale``         the reference at another point (another case's point: a cached first
                  value, a hard-coded answer), or a declared ``stale`` pattern;
``not_finite``    NaN or infinity on every case;
``precision``     right to float32's tolerance, not to the declared float64 one;
``other``         none of these.

Exercises may declare their own patterns (:class:`Pattern`: a function with the reference's
signature returning the answer that mistake produces), tried before the generic ones.

**A pattern is claimed only if it explains the value within the exercise's tolerance on every
case** of that exercise (visible and hidden alike; a case where the function raised leaves
every leaf unclassified). A fitted constant (an unnamed k) is only claimed where the cases
hold more than one non-zero number to fit it against.

The classifier itself (:func:`classify`) is pure NumPy on plain arrays: no reference code, no
trusted-side import, so ``check()`` runs it on the visible cases in the student's kernel (and
in JupyterLite), and the trusted autograder runs the same code on every case
(:func:`annotate`, used after :func:`grader.student.runner.run_exercise` and
:func:`grader.autograde.scoring.score_probe`). Messages come from :mod:`grader.messages`
(``mistake.*``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import numpy as np

__all__ = ["FAMILIES", "CaseData", "Diagnosis", "LeafCase", "Pattern", "annotate", "classify",
           "exercise_pattern", "hint", "summary"]

FAMILIES = ("none", "shape", "sign", "scale", "partial", "swapped", "stale", "not_finite",
            "precision", "other")
SHAPE_KINDS = ("transposed", "missing_axis", "extra_axis", "broadcast")
DECLARED_KINDS = ("partial", "stale", "extra")


@dataclass
class Pattern:
    """A mistake an exercise declares: ``answer`` has the reference's signature and returns
    the answer that mistake produces (``None`` leaves allowed: a leaf it leaves as is).

    ``kind``: ``"partial"`` (one term / one factor of the chain rule), ``"stale"`` (the value
    at another point, e.g. before a loop's update) or ``"extra"`` (a mistake of its own: it is
    then counted under ``name``). ``title`` / ``hint``: per language (``{"en": ...}``); the
    generic family's words are used where they are missing.
    """

    name: str
    answer: Callable[..., Any]
    kind: str = "partial"
    title: dict = field(default_factory=dict)
    hint: dict = field(default_factory=dict)

    def __post_init__(self):
        if not self.name.isascii() or not self.name.replace("_", "").isalnum():
            raise ValueError(f"pattern name {self.name!r} must be ASCII letters, digits or '_'")
        if self.kind not in DECLARED_KINDS:
            raise ValueError(f"pattern {self.name}: kind must be one of {', '.join(DECLARED_KINDS)}")

    @property
    def family(self) -> str:
        return self.name if self.kind == "extra" else self.kind


@dataclass
class LeafCase:
    """One leaf of one case: what came back (``got``: float64 array, or None for a None leaf,
    or the raw array for a wrong dtype) and the comparison's ``status`` (``ok``, ``none``,
    ``type``, ``dtype``, ``shape``, ``not_finite``, ``values``, ``structure``)."""

    status: str
    expected: np.ndarray
    got: np.ndarray | None = None
    why: str = ""


@dataclass
class CaseData:
    """Every leaf of one case, with what the classifier may compare it to."""

    leaves: dict[str, LeafCase]
    # candidate batch sizes: name -> n (e.g. "x.shape[0]": 3); same names in every case
    sizes: dict[str, int] = field(default_factory=dict)
    # declared patterns' answers at this case: pattern name -> {path: array or None}
    alternatives: dict[str, dict[str, Any]] = field(default_factory=dict)
    # the references at other points: extra {path: array} known for this case (declared
    # stale points); the other cases' references are always tried
    others: list[dict[str, np.ndarray]] = field(default_factory=list)
    error: bool = False  # the function raised (or timed out) on this case


@dataclass
class Diagnosis:
    """``pattern``: a family of :data:`FAMILIES` or a declared ``extra`` pattern's name."""

    pattern: str
    kind: str = ""  # shape sub-kind, declared pattern name, swapped partner
    k: str = ""  # the scale factor in words: "2", "1/2", "n", "1/n", "3.5"
    n: str = ""  # which size n is (scale n, 1/n)
    why: str = ""  # none: why_none's reason

    def as_dict(self) -> dict:
        return {k: v for k, v in (("pattern", self.pattern), ("kind", self.kind), ("k", self.k),
                                  ("n", self.n), ("why", self.why[:300])) if v}


# ------------------------------------------------------------------------------------------
# elementary tests
# ------------------------------------------------------------------------------------------
def _close(got: Any, exp: Any, rtol: float, atol: float) -> bool:
    if got is None or exp is None:
        return False
    got, exp = np.asarray(got), np.asarray(exp)
    if got.shape != exp.shape or got.dtype.kind not in "fiu" or exp.dtype.kind not in "fiu":
        return False
    got, exp = got.astype(np.float64), exp.astype(np.float64)
    if not (np.isfinite(got).all() and np.isfinite(exp).all()):
        return False
    return bool(np.all(np.abs(got - exp) <= atol + rtol * np.abs(exp)))


def _reduce_to(a: np.ndarray, shape: tuple, how: str) -> np.ndarray | None:
    """``a`` summed (or averaged) over the axes broadcasting ``shape`` to ``a.shape`` adds."""
    try:
        if np.broadcast_shapes(a.shape, shape) != a.shape:
            return None
    except ValueError:
        return None
    lead = a.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(lead + i for i, s in enumerate(shape)
                                      if s == 1 and a.shape[lead + i] != 1)
    if not axes:
        return None
    op = np.sum if how == "sum" else np.mean
    return op(a, axis=axes, keepdims=True).reshape(shape)


def _shape_kind(got: np.ndarray, exp: np.ndarray, rtol: float, atol: float) -> str:
    """The sub-kind of a wrong shape that still carries the right numbers, or ``""``."""
    if got.dtype.kind not in "fiu" or got.shape == exp.shape:
        return ""
    if got.ndim >= 2 and got.shape == exp.shape[::-1] and _close(got.T, exp, rtol, atol):
        return "transposed"
    if got.size == exp.size and got.ndim != exp.ndim and \
            _close(got.reshape(exp.shape), exp, rtol, atol):
        return "extra_axis" if got.ndim > exp.ndim else "missing_axis"
    for how in ("sum", "mean"):
        reduced = _reduce_to(got, exp.shape, how)  # left un-reduced (expanded)
        if reduced is not None and _close(reduced, exp, rtol, atol):
            return "broadcast"
        reduced = _reduce_to(exp, got.shape, how)  # reduced too far
        if reduced is not None and _close(got, reduced, rtol, atol):
            return "broadcast"
    return ""


def _k_words(k: float) -> str:
    for value, words in ((2.0, "2"), (0.5, "1/2")):
        if math.isclose(k, value, rel_tol=1e-6):
            return words
    return f"{k:.4g}"


# ------------------------------------------------------------------------------------------
# the classifier
# ------------------------------------------------------------------------------------------
def _series(cases: list[CaseData], path: str) -> list[LeafCase] | None:
    out = []
    for case in cases:
        leaf = case.leaves.get(path)
        if leaf is None:
            return None
        out.append(leaf)
    return out


def _scale(series: list[LeafCase], cases: list[CaseData], rtol: float, atol: float
           ) -> Diagnosis | None:
    ks: list[float | None] = []
    fitted = 0  # non-zero expected entries the factor is fitted against
    for leaf in series:
        exp, got = leaf.expected, leaf.got
        denom = float(np.sum(exp * exp))
        if denom <= atol * atol * max(1, exp.size):
            if not _close(got, np.zeros_like(exp), rtol, atol):
                return None
            ks.append(None)  # any k explains a zero reference
            continue
        k = float(np.sum(got * exp)) / denom
        if not _close(got, k * exp, rtol, atol):
            return None
        fitted += int(np.count_nonzero(exp))
        ks.append(k)
    known = [k for k in ks if k is not None]
    if not known:
        return None
    k0 = known[0]
    constant = all(math.isclose(k, k0, rel_tol=max(10 * rtol, 1e-9), abs_tol=1e-12) for k in known)
    if constant and _k_words(k0) in ("2", "1/2"):
        return Diagnosis("scale", k=_k_words(k0))  # before a size that happens to be 2
    # the batch size n (or 1/n), possibly different in every case; a case whose n is 1 (a
    # batch of one drawn at random: mean and sum agree there) is explained by any n, so long as
    # some case has an n above 1
    for name in cases[0].sizes:
        for power, words in ((1, "n"), (-1, "1/n")):
            if all(k is None or math.isclose(k, float(c.sizes.get(name, 0)) ** power, rel_tol=1e-6)
                   for k, c in zip(ks, cases)) and all(c.sizes.get(name, 0) >= 1 for c in cases) \
                    and any(c.sizes.get(name, 0) > 1 for k, c in zip(ks, cases) if k is not None):
                return Diagnosis("scale", k=words, n=name)
    if not constant:
        return None
    if math.isclose(k0, 1.0, rel_tol=1e-6) or math.isclose(k0, -1.0, rel_tol=1e-6) or abs(k0) < 1e-12:
        return None
    words = _k_words(k0)
    if words not in ("2", "1/2") and fitted < 2:
        return None  # one number: any k would fit it
    return Diagnosis("scale", k=words)


def _stale(series: list[LeafCase], cases: list[CaseData], path: str, rtol: float, atol: float
           ) -> bool:
    pool = [leaf.expected for leaf in series]
    wrong = False
    for leaf, case in zip(series, cases):
        if leaf.status == "ok":
            continue
        if leaf.got is None or leaf.status not in ("values", "shape"):
            return False
        candidates = pool + [o[path] for o in case.others if o.get(path) is not None]
        if not any(_close(leaf.got, c, rtol, atol) for c in candidates):
            return False
        wrong = True
    return wrong


# ------------------------------------------------------------------------------------------
# why a leaf is None, as a stable code (the class report counts "forgot tape.watch" apart from
# "went through NumPy"): recognized from the explanation's text in any language, since on the
# trusted side only the text comes back from the kernel
# ------------------------------------------------------------------------------------------
_GRADER_NONE_KEYS = {"none.no_return": "no_return", "none.lost_result": "lost_result",
                     "none.integer_dtype": "integer", "none.numpy_detour": "numpy",
                     "none.non_trainable": "not_trainable", "none.unconnected": "unconnected",
                     "none.unwatched_tensor": "not_watched", "none.variable_replaced": "variable_replaced"}
_NONE_PATTERNS: list | None = None


def _template_regex(template: str):
    import re

    first = template.split(". ")[0]
    parts = re.split(r"(\{[^{}]*\})", first)
    # a space matches any space: the catalogs typeset what they return (Russian no-break spaces,
    # course_lang.typography), whichever side of the wire did the typesetting
    body = "".join(".*?" if p.startswith("{") and p.endswith("}")
                   else r"\s".join(re.escape(w) for w in re.split(r"\s", p)) for p in parts)
    return re.compile(body, re.S)


def _none_patterns() -> list:
    global _NONE_PATTERNS
    if _NONE_PATTERNS is not None:
        return _NONE_PATTERNS
    found = []
    try:  # minitape's why_none: its stable reasons and their texts in every language
        from minitape.debugging.messages import REASONS, WHY_NONE_BY_LANGUAGE as _MESSAGES

        for texts in _MESSAGES.values():
            for key, template in texts.items():
                code = key if key in REASONS else next(
                    (r for r in sorted(REASONS, key=len, reverse=True) if key.startswith(r)), "")
                if code and code != "has_gradient" and isinstance(template, str):
                    found.append((code, _template_regex(template)))
    except Exception:
        pass
    try:  # the grader's own explanations (grader/student/diagnose.py)
        from grader.messages import MESSAGES

        for key, code in _GRADER_NONE_KEYS.items():
            for template in MESSAGES.get(key, {}).values():
                found.append((code, _template_regex(template)))
    except Exception:
        pass
    _NONE_PATTERNS = found
    return found


def none_reason(why: str) -> str:
    """The stable code of a None explanation (``not_watched``, ``numpy``, ``integer``,
    ``no_return``, ...), or ``""`` where the text is not one the grader or minitape writes."""
    if not why:
        return ""
    for code, regex in _none_patterns():
        if regex.match(why):
            return code
    return ""


def _classify_leaf(path: str, series: list[LeafCase], cases: list[CaseData],
                   declared: list[Pattern], tol: tuple[float, float],
                   low: tuple[float, float] | None) -> Diagnosis:
    rtol, atol = tol
    statuses = {leaf.status for leaf in series}
    if statuses == {"none"}:
        reasons = {none_reason(leaf.why) for leaf in series}
        why = next((leaf.why for leaf in series if leaf.why), "")
        return Diagnosis("none", kind=reasons.pop() if len(reasons) == 1 else "", why=why)
    if all(leaf.status == "not_finite" for leaf in series):
        return Diagnosis("not_finite")
    # swapped: this leaf holds another leaf's reference, and that leaf holds this one's
    for other in cases[0].leaves:
        if other == path:
            continue
        partner = _series(cases, other)
        if partner is None or all(_close(a.expected, b.expected, rtol, atol)
                                  for a, b in zip(series, partner)):
            continue
        if all(_close(a.got, b.expected, rtol, atol) and _close(b.got, a.expected, rtol, atol)
               for a, b in zip(series, partner)):
            return Diagnosis("swapped", kind=other)
    # declared patterns: the exercise's own knowledge comes first, before the generic shape
    # kinds too (a gradient where a Jacobian is asked is "reduced too far" only in general)
    if statuses <= {"ok", "values", "shape"}:
        for pattern in declared:
            alts = [case.alternatives.get(pattern.name, {}).get(path) for case in cases]
            if any(a is None for a in alts):
                continue
            if all(_close(leaf.got, a, rtol, atol) for leaf, a in zip(series, alts)):
                return Diagnosis(pattern.family, kind=pattern.name)
    if statuses <= {"shape", "values", "ok"} and all(
            leaf.got is not None and leaf.got.ndim >= 2 and _close(leaf.got.T, leaf.expected, rtol, atol)
            for leaf in series):
        return Diagnosis("shape", kind="transposed")  # a square one keeps its shape
    if "shape" in statuses and statuses <= {"shape", "ok"}:
        # a right case (a size-1 axis the mistake does not change) is explained too
        kinds = {_shape_kind(leaf.got, leaf.expected, rtol, atol)
                 for leaf in series if leaf.status == "shape"}
        if len(kinds) == 1 and "" not in kinds:
            return Diagnosis("shape", kind=kinds.pop())
        if statuses == {"shape"} and not _stale(series, cases, path, rtol, atol):
            return Diagnosis("shape")
    if not statuses <= {"ok", "values", "shape"}:
        return Diagnosis("other")
    if statuses <= {"ok", "values"}:
        if low is not None and all(_close(leaf.got, leaf.expected, *low) for leaf in series):
            return Diagnosis("precision")
        if all(_close(leaf.got, -leaf.expected, rtol, atol) for leaf in series):
            return Diagnosis("sign")
        found = _scale(series, cases, rtol, atol)
        if found is not None:
            return found
    if _stale(series, cases, path, rtol, atol):
        return Diagnosis("stale")
    return Diagnosis("other")


def classify(cases: list[CaseData], tol: tuple[float, float],
             low: tuple[float, float] | None = None, declared: list[Pattern] = ()
             ) -> dict[str, Diagnosis]:
    """``{path: Diagnosis}`` for every leaf that is wrong on at least one case.

    ``tol``: the exercise's ``(rtol, atol)`` (the declared precision's); ``low``: float32's
    ``(rtol, atol)`` where the exercise is declared float64 (the ``precision`` pattern), else
    None; ``declared``: the exercise's :class:`Pattern` s, whose answers each case carries in
    ``alternatives``. Leaves are not classified when some case raised.
    """
    if not cases or any(case.error for case in cases):
        return {}
    out: dict[str, Diagnosis] = {}
    for path in cases[0].leaves:
        series = _series(cases, path)
        if series is None or all(leaf.status == "ok" for leaf in series):
            continue
        out[path] = _classify_leaf(path, series, cases, list(declared), tol, low)
    return out


def exercise_pattern(diagnoses: Mapping[str, Diagnosis]) -> Diagnosis | None:
    """One pattern for the whole exercise (the class report's count): the first wrong leaf's
    pattern that is not ``other``, else ``other``; None where nothing is wrong."""
    if not diagnoses:
        return None
    for diagnosis in diagnoses.values():
        if diagnosis.pattern != "other":
            return diagnosis
    return next(iter(diagnoses.values()))


# ------------------------------------------------------------------------------------------
# words
# ------------------------------------------------------------------------------------------
def _declared(ex: Any) -> dict[str, Pattern]:
    return {p.name: p for p in getattr(ex, "mistakes", ()) or ()}


def hint(diagnosis: Diagnosis, lang: str | None = None, ex: Any = None, label: Any = None) -> str:
    """The one-line explanation of ``diagnosis`` in ``lang``: what the value is, and a hint."""
    from grader.i18n import t

    d = diagnosis
    if d.kind and d.kind in _declared(ex):
        pattern = _declared(ex)[d.kind]
        code = lang or "en"
        title = pattern.title.get(code) or pattern.title.get("en")
        tip = pattern.hint.get(code) or pattern.hint.get("en")
        if title or tip:
            family = d.pattern if d.pattern in FAMILIES else "extra"
            return t(f"mistake.{family}.declared", lang, title=title or pattern.name,
                     hint=tip or "")
    if d.pattern == "shape":
        key = f"mistake.shape.{d.kind}" if d.kind else "mistake.shape"
        return t(key, lang)
    if d.pattern == "scale":
        if d.k in ("n", "1/n"):
            return t("mistake.scale.n" if d.k == "n" else "mistake.scale.1/n", lang)
        if d.k in ("2", "1/2"):
            return t(f"mistake.scale.{d.k}", lang)
        return t("mistake.scale", lang, k=d.k)
    if d.pattern == "swapped":
        other = label(d.kind) if label else d.kind
        return t("mistake.swapped", lang, other=other or d.kind)
    if d.pattern == "none" and d.kind in ("no_return", "lost_result"):
        return t("mistake.none.returned", lang)  # the tape did connect them: the result got lost
    if d.pattern in ("none", "sign", "stale", "not_finite", "precision", "partial"):
        return t(f"mistake.{d.pattern}", lang)
    return t("mistake.other", lang)


def summary(diagnoses: Mapping[str, Diagnosis], label: Callable[[str], str] = str) -> dict:
    """The record the trusted side keeps (autograded notebook metadata, class report):
    ``{"pattern": ..., ..., "leaves": {label: {...}}}``, or ``{}`` when nothing is wrong."""
    top = exercise_pattern(diagnoses)
    if top is None:
        return {}
    def record(d: Diagnosis) -> dict:
        r = d.as_dict()
        if d.pattern == "swapped":  # the partner leaf by its name (dL/db), not its path
            r["kind"] = label(d.kind) or d.kind
        return r

    out = record(top)
    out["leaves"] = {label(path) or "": record(d) for path, d in diagnoses.items()}
    return out


# ------------------------------------------------------------------------------------------
# wiring: an ExerciseResult's checks -> classified, with the hint in each wrong leaf's message
# ------------------------------------------------------------------------------------------
@dataclass
class CaseEvidence:
    """What :func:`grader.student.runner.judge_case` saw for one case (kept on its checks)."""

    case: Any
    seed: int
    inputs: Any
    expected: Any
    answer: Any = None
    error: bool = False
    why: dict = field(default_factory=dict)  # path -> why_none text
    statuses: dict = field(default_factory=dict)  # path -> comparison reason


def _parameter_names(signature: str) -> list[str]:
    """``"f(w, b, x, y_true)"`` -> ``["w", "b", "x", "y_true"]`` (positional names)."""
    inside = signature.partition("(")[2].rpartition(")")[0]
    return [p.strip().split("=")[0].strip(" *") for p in inside.split(",") if p.strip()]


def _sizes(inputs: Any, signature: str = "") -> dict[str, int]:
    """Candidate batch sizes of a case: the leading dimension and the size of every array
    argument (``x.shape[0]``, ``x.size``, ``y_true.size``; ``args[2]`` where the signature has no
    name). Every array gets both names, whatever its rank, so that the same names exist in every
    case of an exercise whatever shapes its random cases drew."""
    out: dict[str, int] = {}
    names = _parameter_names(signature)
    named = list(enumerate(getattr(inputs, "args", ()) or ())) + \
        sorted((getattr(inputs, "kwargs", {}) or {}).items())
    for key, value in named:
        if isinstance(key, int):
            name = names[key] if key < len(names) else f"args[{key}]"
        else:
            name = key
        shape = getattr(value, "shape", None)
        try:
            shape = tuple(int(s) for s in shape) if shape is not None else None
        except (TypeError, ValueError):
            shape = None
        if not shape:
            continue
        # every array has a size, 1-D ones too: where the random cases mix 1-D and 2-D inputs a
        # mean over all entries is x.size in each of them, and no other name fits them all. The
        # size is tried first, so a 1-D draw (where both fit) names what a 2-D draw names
        out[f"{name}.size"] = int(np.prod(shape))
        out[f"{name}.shape[0]"] = shape[0]
    return out


def _leaves(struct: Any) -> dict[str, Any]:
    from grader.student.checks import flatten_with_paths

    return dict(flatten_with_paths(struct))


def _got_at(answer: Any, path: str, expected: Any) -> Any:
    """The student's part at the reference's leaf ``path`` (None where the answer has none),
    read as the comparison reads it (grader.student.checks.parts_like)."""
    from grader.student.checks import parts_like

    try:
        return parts_like(expected, answer).get(path)
    except Exception:
        return None


def _declared_answers(ex: Any, ev: CaseEvidence) -> dict[str, dict[str, Any]]:
    patterns = list(getattr(ex, "mistakes", ()) or ())
    if not patterns:
        return {}
    known = getattr(ev.case, "mistake_answers", None)
    out: dict[str, dict[str, Any]] = {}
    for pattern in patterns:
        if known is not None:  # shipped as data (visible cases at home)
            value = known.get(pattern.name)
        else:
            try:
                fresh = ev.case.make(np.random.default_rng(ev.seed))
                value = pattern.answer(*fresh.args, **fresh.kwargs)
            except Exception:
                continue
        if value is None:
            continue
        from grader.student.checks import parts_like, to_array

        leaves = {}
        for path, leaf in parts_like(ev.expected, value).items():
            arr, problem = to_array(leaf) if leaf is not None else (None, "none")
            leaves[path] = None if arr is None or problem else arr.astype(np.float64)
        out[pattern.name] = leaves
    return out


def _case_data(ex: Any, ev: CaseEvidence) -> CaseData:
    from grader.student.checks import to_array

    exp_leaves = _leaves(ev.expected)
    leaves = {}
    for path, exp in exp_leaves.items():
        status = ev.statuses.get(path, "structure")
        got = None
        if status != "none":
            arr, _ = to_array(_got_at(ev.answer, path, ev.expected))
            if arr is not None and arr.dtype.kind in "fiu":
                got = arr.astype(np.float64)
        leaves[path] = LeafCase(status, np.asarray(exp, dtype=np.float64), got, ev.why.get(path, ""))
    return CaseData(leaves, _sizes(ev.inputs, getattr(ex, "signature", "")),
                    _declared_answers(ex, ev), error=ev.error)


def annotate(result: Any) -> dict:
    """Classify the wrong leaves of an :class:`~grader.student.runner.ExerciseResult` over all its
    cases, add the pattern's one-line hint after the numbers in each wrong leaf's message
    (``details["pattern"]`` too), and return the :func:`summary` record (``{}`` if nothing
    is wrong or nothing can be said). Idempotent. Never raises: a pattern is a hint, and no
    failure to find one may cost a grade or a report."""
    try:
        return _annotate(result)
    except Exception:  # pragma: no cover - defensive: the scores stand without a pattern
        return {}


def _annotate(result: Any) -> dict:
    ex, lang = result.exercise, result.lang
    evidence: list[CaseEvidence] = []
    by_case: dict[int, list] = {}
    for check in result.checks:
        ev = getattr(check, "evidence", None)
        if ev is None:
            continue
        ev_obj, path = ev
        if id(ev_obj) not in by_case:
            by_case[id(ev_obj)] = []
            evidence.append(ev_obj)
        by_case[id(ev_obj)].append((path, check))
    if not evidence or all(check.passed for group in by_case.values() for _, check in group):
        return {}  # nothing wrong: no declared pattern's answer is even computed
    tol = ex.tolerance.for_dtype(np.dtype(ex.precision))
    low = (ex.tolerance.rtol_low, ex.tolerance.atol_low) if ex.precision == "float64" else None
    cases = [_case_data(ex, ev) for ev in evidence]
    diagnoses = classify(cases, tol, low, list(getattr(ex, "mistakes", ()) or ()))
    if not diagnoses:
        return {"pattern": "error"} if any(c.error for c in cases) else {}

    def label(path: str) -> str:
        return ex.component_label(path) if path else ""

    for ev in evidence:
        for path, check in by_case[id(ev)]:
            diagnosis = diagnoses.get(path)
            if diagnosis is None or check.passed or "pattern" in check.details:
                continue
            check.details["pattern"] = diagnosis.as_dict()
            if diagnosis.pattern != "other":  # no pattern is claimed: the numbers say it all
                check.message = f"{check.message} {hint(diagnosis, lang, ex, label)}"
    return summary(diagnoses, label)
