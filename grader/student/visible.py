"""The visible checks as data: what students install instead of the exercise definitions.

``grader/student/visible_cases.json`` (generated: ``python -m grader.student.visible``; a test fails when
it is stale) holds, for every exercise, what ``check`` needs and nothing more: the function's
name, points, tolerance and precision, titles, how many hidden checks grading adds, and per
visible case its label, weight, inputs (the plain-data form of :mod:`grader.wire`) and the
reference answer at those inputs. No reference solution, no hidden case.

:func:`visible_exercise` turns an entry back into an :class:`~grader.student.registry.Exercise` whose
cases carry their expected answers, so ``check`` compares without any reference code.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import numpy as np

from grader.student.checks import Tolerance
from grader.student.registry import Case, Exercise, Inputs
from grader.student.mistakes import Pattern

__all__ = ["DATA", "build_data", "visible_exercise", "visible_exercises"]

DATA = Path(__file__).resolve().parent / "visible_cases.json"


def _reference_not_installed(*args, **kwargs):
    raise RuntimeError("the reference solution is not installed here (instructor material)")


def build_data(exercises: dict[str, Exercise]) -> dict:
    """The data file's content, from the instructor's definitions."""
    from grader.student.runner import reference_answer
    from grader.wire import encode_answer, encode_input

    out = {}
    for ex_id, ex in sorted(exercises.items()):
        cases = []
        for i, case in enumerate(ex.visible):
            seed = 1000 + i  # the seed run_exercise gives visible case i
            inputs = case.make(np.random.default_rng(seed))
            cases.append({"label": case.label, "weight": case.weight,
                          "args": encode_input(tuple(inputs.args)),
                          "kwargs": encode_input(dict(inputs.kwargs)),
                          "expected": encode_answer(reference_answer(ex, case, seed))})
            if ex.mistakes:  # the declared mistakes' answers here (grader.student.mistakes)
                cases[-1]["mistakes"] = {
                    p.name: encode_answer(p.answer(*fresh.args, **fresh.kwargs))
                    for p in ex.mistakes
                    for fresh in [case.make(np.random.default_rng(seed))]}
        tol = ex.tolerance
        out[ex_id] = {"function": ex.function, "signature": ex.signature, "points": ex.points,
                      "precision": ex.precision, "title": ex.title,
                      "compares": ex.compares, "components": ex.components,
                      "tolerance": [tol.rtol, tol.atol, tol.rtol_low, tol.atol_low],
                      "hidden_checks": ex.hidden_check_count, "visible": cases}
        if ex.mistakes:
            out[ex_id]["mistakes"] = [{"name": p.name, "kind": p.kind, "title": p.title,
                                       "hint": p.hint} for p in ex.mistakes]
        if not ex.hidden_at_random:
            out[ex_id]["hidden_random"] = False
        if ex.absent:
            out[ex_id]["absent"] = list(ex.absent)
        if ex.optional:
            out[ex_id]["optional"] = True
    return {"format": 1, "exercises": out}


def dumps(data: dict) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


@lru_cache(maxsize=1)
def _load() -> dict:
    if not DATA.exists():
        return {}
    return json.loads(DATA.read_text(encoding="utf-8")).get("exercises", {})


def _case(entry: dict) -> Case:
    from grader.wire import build_input
    from grader.wire import decode_answer

    args, kwargs = entry["args"], entry["kwargs"]
    expected = decode_answer(entry["expected"])
    mistakes = {name: decode_answer(v) for name, v in entry.get("mistakes", {}).items()}
    return Case(lambda rng: Inputs(args=build_input(args), kwargs=build_input(kwargs)),
                entry.get("label"), float(entry.get("weight", 1.0)), expected=expected,
                mistake_answers=mistakes)


@lru_cache(maxsize=None)
def visible_exercise(exercise_id: str) -> Exercise:
    """The exercise as students have it (visible cases with expected answers); KeyError if
    the data has no such exercise."""
    entry = _load()[exercise_id]
    rtol, atol, rtol_low, atol_low = entry["tolerance"]
    return Exercise(id=exercise_id, function=entry["function"], signature=entry["signature"],
                    points=entry["points"], reference=_reference_not_installed,
                    visible=[_case(c) for c in entry["visible"]], hidden=[],
                    tolerance=Tolerance(rtol, atol, rtol_low, atol_low),
                    precision=entry["precision"], title=entry["title"],
                    compares=entry.get("compares", "gradient"), components=entry.get("components"),
                    hidden_checks=int(entry["hidden_checks"]),
                    mistakes=tuple(Pattern(p["name"], _reference_not_installed, p["kind"],
                                           p.get("title", {}), p.get("hint", {}))
                                   for p in entry.get("mistakes", [])),
                    hidden_random=bool(entry.get("hidden_random", True)),
                    absent=tuple(entry.get("absent", ())),
                    optional=bool(entry.get("optional", False)))


def visible_exercises() -> dict[str, Exercise]:
    return {ex_id: visible_exercise(ex_id) for ex_id in sorted(_load())}


def main(argv: list[str] | None = None) -> int:
    """``python -m grader.student.visible [--check]``: write (or check) the data file."""
    import argparse
    import sys

    from grader.student.registry import all_exercises, definitions_available

    parser = argparse.ArgumentParser(prog="python -m grader.student.visible", description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="fail if the file is not up to date")
    args = parser.parse_args(argv)
    if not definitions_available():
        print("error: the exercise definitions (grader/course/definitions) are not here: run this "
              "in a source checkout", file=sys.stderr)
        return 2
    text = dumps(build_data(all_exercises()))
    current = DATA.read_text(encoding="utf-8") if DATA.exists() else ""
    if args.check:
        if text != current:
            print(f"{DATA} is stale: run `python -m grader.student.visible`", file=sys.stderr)
            return 1
        print(f"{DATA} is up to date")
        return 0
    DATA.write_text(text, encoding="utf-8")
    print(f"wrote {DATA} ({len(text)} characters, {text.count(chr(10))} lines)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
