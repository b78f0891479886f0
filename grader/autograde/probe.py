"""The probe: the only grading code that runs in a submission's kernel.

The trusted autograder (:mod:`grader.autograde.scoring`) embeds this file's *source text* in
the test cell it executes, after the source text of the wire codec (:mod:`grader.wire`), both
run in a namespace of their own: a ``grader.py`` next to the notebook, a patched
``sys.modules["grader"]`` or an edited registry cannot change what runs here. It imports
nothing of the trusted side (``tests/test_layout.py``): the standard library, NumPy, minitape,
and, to explain None answers in words, the student side's :mod:`grader.student.diagnose` when
the kernel has it (the one ``check()`` uses there; text only). What runs here decides nothing
either: it builds the inputs the trusted process chose (sent as plain JSON data), calls the
student's function once per case, and publishes what came back — values with dtype and shape,
None, exceptions, elapsed time, why a gradient is None — as one output of the wire format's
type (``application/vnd.minitape.probe+json``). What the function prints is swallowed (never
published: it ran on hidden inputs too), and no record of which tools ran is kept: such a
record, kept in the student's process, would be the student's to rewrite. The trusted process
decodes that data defensively and computes references, comparisons and the score itself, so
patching anything here (or in NumPy, minitape, builtins, IPython) can at most change the data,
which is then judged on its values like any other answer.

Entry point: ``run(namespace, spec_json)``.
"""

import contextlib
import io
import json
import os
import signal
import sys
import tempfile
import time
import traceback
import warnings

if "encode_answer" not in globals():
    # imported as a module (tests, tools); in a kernel the probe cell ran grader/wire.py's
    # source text in this namespace first, and nothing is imported here
    from grader.wire import MIME, build_input, encode_answer, kind_of

MAX_TRACEBACK = 2000
FRAMES = ("<grader-probe>", "<grader-wire>")  # the probe's own code, left out of tracebacks


class _CallTimeout(BaseException):
    """Raised in the student's function when one call runs past its time limit."""


def _none_paths(x, path=""):
    if x is None:
        return [path]
    out = []
    if isinstance(x, dict):
        for key in sorted(x, key=repr):
            out.extend(_none_paths(x[key], f"{path}[{key!r}]"))
    elif isinstance(x, (list, tuple)):
        for i, item in enumerate(x):
            out.extend(_none_paths(item, f"{path}[{i}]"))
    return out


# ------------------------------------------------------------------------------------------
# running one call
# ------------------------------------------------------------------------------------------
@contextlib.contextmanager
def _captured(buffer):
    saved = None
    tmp = None
    try:
        saved = os.dup(2)
        tmp = tempfile.TemporaryFile()
        sys.__stderr__ and sys.__stderr__.flush()
        os.dup2(tmp.fileno(), 2)
    except Exception:
        saved = None
    try:
        with warnings.catch_warnings(record=True) as caught, \
                contextlib.redirect_stdout(buffer), contextlib.redirect_stderr(buffer):
            warnings.simplefilter("always")
            try:
                yield
            finally:
                for w in caught:
                    buffer.write(f"{w.category.__name__}: {w.message}\n")
    finally:
        if saved is not None:
            os.dup2(saved, 2)
            os.close(saved)
            tmp.seek(0)
            buffer.write(tmp.read().decode("utf-8", errors="replace"))
            tmp.close()


@contextlib.contextmanager
def _time_limit(seconds):
    if not seconds or not hasattr(signal, "setitimer"):
        yield
        return

    def expired(signum, frame):
        raise _CallTimeout()

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, float(seconds))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _student_traceback(exc):
    frames = [f for f in traceback.extract_tb(exc.__traceback__)
              if f.filename not in FRAMES]
    lines = traceback.format_list(frames[-4:]) + traceback.format_exception_only(type(exc), exc)
    return "".join(lines).rstrip()[-MAX_TRACEBACK:]


def _call(func, case, lang, limit, buffer):
    try:
        args = build_input(case["args"])
        kwargs = build_input(case["kwargs"])
    except Exception as exc:
        return {"error": {"ename": "ProbeInputError", "evalue": f"{type(exc).__name__}: {exc}"[:500],
                          "probe": True}}
    explain = recorder = None
    stack = contextlib.ExitStack()
    try:  # the diagnosis of None answers, when the student side is importable (text only);
        # where minitape has no tape (a grading world without autodiff) there is none
        from grader.student.diagnose import GradientRecorder, explain_none
        recorder = stack.enter_context(GradientRecorder())
        explain = explain_none
    except Exception:
        recorder = explain = None
    answer = None
    out = {}
    start = time.perf_counter()
    with stack, _captured(buffer):
        try:
            with _time_limit(limit):
                answer = func(*args, **kwargs)
        except _CallTimeout:
            out["error"] = {"ename": "TimeoutError", "evalue": f"no result within {limit:g} s",
                            "timed_out": True}
        except Exception as exc:
            out["error"] = {"ename": type(exc).__name__, "evalue": str(exc)[:1000],
                            "not_implemented": isinstance(exc, NotImplementedError),
                            "traceback": "" if isinstance(exc, NotImplementedError)
                            else _student_traceback(exc)}
    out["seconds"] = round(time.perf_counter() - start, 4)
    if "error" not in out:
        try:
            out["answer"] = encode_answer(answer)
        except Exception as exc:  # whatever the answer's objects do: that case is unusable
            out["answer"] = {"t": "unusable", "why": f"the answer could not be read "
                                                     f"({type(exc).__name__})"}
        if explain is not None and recorder is not None:
            why = {}
            for path in _none_paths(answer)[:50]:
                try:
                    why[path] = str(explain(answer, path, recorder.calls, lang))[:1000]
                except Exception:
                    pass
            if why:
                out["why_none"] = why
    return out


def run(namespace, spec_json):
    """Call ``namespace[spec.function]`` on every case of ``spec`` and publish the results."""
    spec = json.loads(spec_json)
    func = namespace.get(spec["function"])
    payload = {"exercise": spec["exercise"], "nonce": spec["nonce"], "cases": []}
    if spec.get("part"):  # one of the probe's two cells (visible cases, hidden cases)
        payload["part"] = spec["part"]
    if func is None:
        payload["setup"] = "undefined"
    elif not callable(func):
        payload["setup"] = "not_callable"
        payload["kind"] = kind_of(func)
    else:
        buffer = io.StringIO()
        timed_out = False
        for case in spec["cases"]:
            if timed_out:  # one call already ran past its limit: the rest would too
                payload["cases"].append({"error": {"ename": "TimeoutError", "timed_out": True,
                                                   "skipped": True,
                                                   "evalue": "not run: an earlier call timed out"}})
                continue
            result = _call(func, case, spec["lang"], spec.get("call_timeout"), buffer)
            timed_out = bool(result.get("error", {}).get("timed_out"))
            payload["cases"].append(result)
        # what the function printed is swallowed, not reported: it ran on hidden inputs too
    from IPython.display import display

    try:
        display({MIME: payload}, raw=True)
    except Exception:  # text the kernel's session cannot send (half a UTF-16 pair): as ASCII JSON
        display({MIME: json.dumps(payload, ensure_ascii=True, default=repr)}, raw=True)
