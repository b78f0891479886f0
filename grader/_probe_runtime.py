"""The probe: the only grading code that runs in a submission's kernel.

Self-contained on purpose (standard library, NumPy and minitape only, no ``grader`` import):
the trusted autograder (:mod:`grader.scoring`) embeds this file's *source text* in the test
cell it executes, so a ``grader.py`` next to the notebook, a patched ``sys.modules["grader"]``
or an edited registry cannot change what runs here. What runs here decides nothing either: it
builds the inputs the trusted process chose (sent as plain JSON data), calls the student's
function once per case, and publishes what came back — values with dtype and shape, None,
exceptions, elapsed time, why a gradient is None — as one
``application/vnd.minitape.probe+json`` output. What the function prints is swallowed (never
published: it ran on hidden inputs too), and no record of which tools ran is kept: such a
record, kept in the student's process, would be the student's to rewrite. The trusted process decodes that
data defensively and computes references, comparisons and the score itself, so patching
anything here (or in NumPy, minitape, builtins, IPython) can at most change the data, which is
then judged on its values like any other answer.

Entry point: ``run(namespace, spec_json)``.
"""

import base64
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

MIME = "application/vnd.minitape.probe+json"
MAX_ELEMENTS = 1_000_000      # per answer: larger answers are reported as "too large"
MAX_TRACEBACK = 2000

class _CallTimeout(BaseException):
    """Raised in the student's function when one call runs past its time limit."""


# ------------------------------------------------------------------------------------------
# inputs: JSON data -> objects (what the trusted process encoded with grader.wire)
# ------------------------------------------------------------------------------------------
def _array(d):
    import numpy as np

    raw = base64.b64decode(d["b64"])
    return np.frombuffer(raw, dtype=np.dtype(d["dtype"])).reshape(d["shape"]).copy()


def _build(d):
    t = d["t"]
    if t in ("float", "int", "bool", "str", "none"):
        return d.get("v")
    if t == "list":
        return [_build(x) for x in d["items"]]
    if t == "tuple":
        return tuple(_build(x) for x in d["items"])
    if t == "dict":
        return {k: _build(v) for k, v in d["items"]}
    if t == "ndarray":
        return _array(d)
    if t == "scalar":
        return _array(d)[()]
    import minitape as tf

    if t == "constant":
        return tf.constant(_array(d))
    if t == "variable":
        return tf.Variable(_array(d), trainable=d.get("trainable", True))
    if t == "dense":
        layer = _dense(tf, d)
        return layer
    if t == "sequential":
        layers = [_dense(tf, x, build=False) for x in d["layers"]]
        model = tf.keras.Sequential(layers)
        model(tf.constant(_array(d["build_input"])))
        for layer, x in zip(layers, d["layers"]):
            _assign_dense(layer, x)
        return model
    if t == "optimizer":
        if d["kind"] == "Adam":
            return tf.keras.optimizers.Adam(learning_rate=d["learning_rate"], beta_1=d["beta_1"],
                                            beta_2=d["beta_2"], epsilon=d["epsilon"])
        return tf.keras.optimizers.SGD(learning_rate=d["learning_rate"], momentum=d["momentum"],
                                       nesterov=d["nesterov"])
    raise ValueError(f"unknown input kind {t!r}")


def _dense(tf, d, build=True):
    layer = tf.keras.layers.Dense(d["units"], activation=d["activation"], use_bias=d["use_bias"],
                                  dtype=d["dtype"])
    if build:
        layer(tf.constant(_array(d["build_input"])))
        _assign_dense(layer, d)
    return layer


def _assign_dense(layer, d):
    layer.kernel.assign(_array(d["kernel"]))
    if d["use_bias"]:
        layer.bias.assign(_array(d["bias"]))


# ------------------------------------------------------------------------------------------
# answers: objects -> JSON data
# ------------------------------------------------------------------------------------------
def _kind(x):
    cls = type(x)
    module = cls.__module__
    if module in ("builtins", "__main__"):
        return cls.__name__
    return f"{module.split('.')[0]}.{cls.__name__}"


def _encode_array(arr, t, kind, budget):
    import numpy as np

    arr = np.asarray(arr)
    if arr.dtype.kind not in "fiub" or arr.dtype.itemsize > 8:
        return {"t": "other", "kind": f"{kind} of dtype {arr.dtype}"}
    if arr.size > budget[0]:
        return {"t": "other", "kind": f"{kind} too large ({arr.size} elements)"}
    budget[0] -= arr.size
    arr = arr.copy(order="C")
    return {"t": t, "kind": kind, "dtype": arr.dtype.str, "shape": list(arr.shape),
            "b64": base64.b64encode(arr.tobytes()).decode("ascii")}


def _encode(x, budget, depth=0):
    import numpy as np

    if depth > 8:
        return {"t": "other", "kind": "nested too deep"}
    if x is None:
        return {"t": "none"}
    if isinstance(x, bool):
        return {"t": "bool", "v": bool(x)}
    if isinstance(x, (int, float)) and type(x) in (int, float):
        return {"t": "number", "v": x if isinstance(x, float) else int(x)} \
            if not isinstance(x, int) or abs(x) < 2**53 else {"t": "number", "v": float(x)}
    if isinstance(x, dict):
        items = [[k, _encode(v, budget, depth + 1)] for k, v in list(x.items())[:1000]
                 if isinstance(k, (str, int))]
        return {"t": "dict", "items": items}
    if isinstance(x, (list, tuple)):
        return {"t": "list" if isinstance(x, list) else "tuple",
                "items": [_encode(v, budget, depth + 1) for v in list(x)[:1000]]}
    try:
        if (hasattr(x, "numpy") and callable(getattr(x, "numpy")) and hasattr(x, "shape")
                and hasattr(x, "dtype")):
            return _encode_array(np.asarray(x.numpy()), "tensor", _kind(x), budget)
        if all(hasattr(x, a) for a in ("values", "indices", "dense_shape")):  # IndexedSlices
            values = np.asarray(x.values.numpy() if hasattr(x.values, "numpy") else x.values)
            indices = np.asarray(x.indices.numpy() if hasattr(x.indices, "numpy") else x.indices)
            shape = tuple(int(s) for s in np.asarray(
                x.dense_shape.numpy() if hasattr(x.dense_shape, "numpy") else x.dense_shape))
            dense = np.zeros(shape, dtype=values.dtype)
            np.add.at(dense, indices.astype(np.int64), values)
            return _encode_array(dense, "tensor", _kind(x), budget)
        if isinstance(x, (np.ndarray, np.generic)):
            return _encode_array(np.asarray(x), "ndarray", _kind(x), budget)
    except Exception as exc:  # a broken __array__ / numpy(): not a usable tensor
        return {"t": "other", "kind": f"{_kind(x)} ({type(exc).__name__})"}
    return {"t": "other", "kind": _kind(x)}


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
              if f.filename != "<grader-probe>"]
    lines = traceback.format_list(frames[-4:]) + traceback.format_exception_only(type(exc), exc)
    return "".join(lines).rstrip()[-MAX_TRACEBACK:]


def _call(func, case, lang, limit, buffer):
    try:
        args = _build(case["args"])
        kwargs = _build(case["kwargs"])
    except Exception as exc:
        return {"error": {"ename": "ProbeInputError", "evalue": f"{type(exc).__name__}: {exc}"[:500],
                          "probe": True}}
    explain = None
    recorder_ctx = contextlib.nullcontext()
    try:  # the diagnosis of None answers, when the real grader is importable (text only)
        from grader.diagnose import GradientRecorder, explain_none
        recorder_ctx = GradientRecorder()
        explain = explain_none
    except Exception:
        pass
    answer = None
    out = {}
    start = time.perf_counter()
    with recorder_ctx as recorder, _captured(buffer):
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
        out["answer"] = _encode(answer, [MAX_ELEMENTS])
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
    if func is None:
        payload["setup"] = "undefined"
    elif not callable(func):
        payload["setup"] = "not_callable"
        payload["kind"] = _kind(func)
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

    display({MIME: payload}, raw=True)
