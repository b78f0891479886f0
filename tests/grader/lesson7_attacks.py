"""Lesson 7's forbidden tool, by every door issue 36 found (and the honest variety next to it):
code for the answer cells of ``07-build-your-own-tape``.

Each ``FORBIDDEN[exercise]`` computes the right values with minitape's own autodiff: where the
tool exists it earns every point (tests/grader/test_grader_scoring.py runs them in-process),
so only its absence at grading time (grader.infra.worlds) takes the points away
(tests/grader/test_grader_adversarial.py grades them through the instructor's workflow)."""

from __future__ import annotations

# backward() by minitape: the body, with `GT` standing for tf.GradientTape and GRADIENT for how
# the gradient is taken
MT_BACKWARD = '''def {name}(tape, values, target):
    ops = {{"add": lambda a, b: a + b, "mul": lambda a, b: a * b, "sin": tf.sin, "exp": tf.exp}}
    outs = {{o for o, _, _ in tape}}
    env = {{}}
    with GT(persistent=True) as gt:
        for n, v in values.items():
            if n not in outs:
                env[n] = tf.constant(float(v))
                gt.watch(env[n])
        for o, op, ins in tape:
            env[o] = ops[op](*(env[i] for i in ins))
    names = list(values)
    g = {gradient}
    {extra}return {{n: float(x.numpy()) for n, x in zip(names, g)}}
'''
ZERO = "tf.UnconnectedGradients.ZERO"
GRADIENT = f"gt.gradient(env[target], [env[n] for n in names], unconnected_gradients={ZERO})"


def mt_backward(gradient: str = GRADIENT, name: str = "backward", extra: str = "") -> str:
    return MT_BACKWARD.format(name=name, gradient=gradient, extra=extra)


ALIAS = "import minitape as tf\nGT = tf.GradientTape\n\n"
BY_MINITAPE = ALIAS + mt_backward(name="_by_minitape")  # defines _by_minitape, not backward

# quotient_gradients with a tape whose name is built from strings
QUOTIENT_BY_REDUCE = '''import functools
import minitape as tf

_GT = functools.reduce(getattr, ["Gradient" + "Tape"], tf)


def quotient_gradients(a0, b0):
    a = tf.Variable(float(a0), dtype=tf.float64)
    b = tf.Variable(float(b0), dtype=tf.float64)
    with _GT() as t:
        f = tf.cos(a * b) / b
    return [float(g.numpy()) for g in t.gradient(f, [a, b])]
'''
BACKWARD_BY_ATTRGETTER = ("import operator\nimport minitape as tf\n"
                          "GT = operator.attrgetter('Gradient' + 'Tape')(tf)\n\n" + mt_backward())

# train_losses by an optimizer's minimize (which opens minitape's tape without naming it); the
# lesson's network and hinge loss written out here so that it is complete in itself
TRAIN_BY_MINIMIZE = '''import minitape as tf


def _score(params, x1, x2):
    s = params[-1]
    for j in range(6):
        h = tf.nn.relu(params[2 * j] * x1 + params[2 * j + 1] * x2 + params[12 + j])
        s = s + params[18 + j] * h
    return s


def _hinge(params, xs, ys):
    total = 0.0
    for (x1, x2), y in zip(xs, ys):
        total = total + tf.nn.relu(1.0 - float(y) * _score(params, float(x1), float(x2)))
    penalty = sum((p * p for p in params), 0.0)
    return total * (1.0 / len(ys)) + 1e-3 * penalty


def train_losses(values, xs, ys, learning_rate, steps):
    params = [tf.Variable(float(v), dtype=tf.float64) for v in values]
    opt = tf.keras.optimizers.SGD(learning_rate)
    losses = []
    for _ in range(steps):
        losses.append(float(_hinge(params, xs, ys).numpy()))
        opt.minimize(lambda: _hinge(params, xs, ys), params)
    return [losses, [float(p.numpy()) for p in params]]
'''

# exercise -> code computing the right values with minitape's autodiff, complete in itself
FORBIDDEN = {
    "l07_ex1": QUOTIENT_BY_REDUCE,
    "l07_ex2": BACKWARD_BY_ATTRGETTER,
    "l07_ex5": TRAIN_BY_MINIMIZE,
    "l07_ex2 (alias)": ALIAS + mt_backward(),
    "l07_ex2 (jacobian)": ALIAS + mt_backward(
        f"gt.jacobian(env[target], [env[n] for n in names], unconnected_gradients={ZERO})"),
}

# the graded name rebound where a reading of the last `def` does not look (the honest `def`
# comes first: the solution)
REBIND = {
    "for_target": "for backward in [_by_minitape]:\n    pass\n",
    "walrus": "(backward := _by_minitape)\n",
    "main_attribute": "import __main__\n__main__.backward = _by_minitape\n",
}

PERCENT_RUN = '''with open("mt_backward.py", "w", encoding="utf-8") as fh:
    fh.write({code!r})
%run mt_backward.py
'''.format(code=ALIAS + mt_backward())

CLASS_PATCH = BY_MINITAPE + '''

class Sweeper:
    def run(self, tape, values, target):
        return {n: 0.0 for n in values}


Sweeper.run = lambda self, tape, values, target: _by_minitape(tape, values, target)


def backward(tape, values, target):
    return Sweeper().run(tape, values, target)
'''

# an IPython event hook that swaps the forbidden function in only while the probe runs
EVENT_HOOK = BY_MINITAPE + '''
_honest = backward


def _swap(info):
    g = globals()
    g["backward"] = g["_by_minitape"] if "grader" in (getattr(info, "raw_cell", "") or "") else g["_honest"]


get_ipython().events.register("pre_run_cell", _swap)
'''

FORGING_HOOK_TEMPLATE = '''import json as _json
import IPython.display as _d
_specs = []
_loads = _json.loads


def _spy(s, *a, **k):
    out = _loads(s, *a, **k)
    if isinstance(out, dict) and out.get("function") == {function!r}:
        _specs.append(out)
    return out


_json.loads = _spy
_display = _d.display

{compute}

def _forge(obj, *a, **k):
    key = "application/vnd.minitape.probe+json"
    try:
        if isinstance(obj, dict) and key in obj and _specs and obj[key].get("exercise") == {exercise!r}:
            cases = [dict({{n: v for n, v in mine.items() if n != "error"}},
                          answer=_answer(*(item["v"] for item in case["args"]["items"])))
                     for case, mine in zip(_specs[-1]["cases"], obj[key]["cases"])]
            obj = {{key: dict(obj[key], cases=cases)}}
    except Exception:
        pass
    return _display(obj, *a, **k)


_d.display = _forge
'''


def forging_hook(function: str, exercise: str, compute: str) -> str:
    """A display hook (and a json spy on the inputs the probe parses) that replaces the answers
    the probe publishes for ``exercise`` with ``_answer(*inputs)`` (a wire node), defined by
    ``compute``; where computing fails, it leaves the answers alone."""
    return FORGING_HOOK_TEMPLATE.format(function=function, exercise=exercise, compute=compute)


def _numbers(*names: str) -> str:
    return ('{"t": "list", "items": [' + ", ".join(f'{{"t": "number", "v": {n}}}' for n in names)
            + "]}")


# l07_ex1's answers by a hand-derived formula (for a stub: the values are forged)
HAND_FORMULA_HOOK = forging_hook("quotient_gradients", "l07_ex1", f'''import math as _m


def _answer(a0, b0):
    ga = -_m.sin(a0 * b0)
    gb = -a0 * _m.sin(a0 * b0) / b0 - _m.cos(a0 * b0) / b0 ** 2
    return {_numbers("ga", "gb")}
''')
# l07_ex1's answers by minitape's autodiff (where it exists)
FORGING_HOOK = forging_hook("quotient_gradients", "l07_ex1", f'''def _answer(a0, b0):
    import minitape as tf
    a = tf.Variable(float(a0), dtype=tf.float64)
    b = tf.Variable(float(b0), dtype=tf.float64)
    with tf.GradientTape() as t:
        f = tf.cos(a * b) / b
    ga, gb = (float(g.numpy()) for g in t.gradient(f, [a, b]))
    return {_numbers("ga", "gb")}
''')
# lesson 1's l01_ex1 answered by minitape (the student's own kernel, where it exists)
LESSON1_FORGING_HOOK = forging_hook("derivative_at", "l01_ex1", '''def _answer(x0):
    import minitape as tf
    x = tf.Variable(float(x0), dtype=tf.float64)
    with tf.GradientTape() as t:
        y = x ** 3 - 2 * x
    return {"t": "number", "v": float(t.gradient(y, x).numpy())}
''')

# exceptions named like the grader's own stop reasons, raised by the student's code
STOP_NAMED = '''class CellTimeoutError(BaseException):
    pass


def backward(tape, values, target):
    raise CellTimeoutError("SECRET-" + repr(sorted(values.items())))
'''
RAISES_A_TIMEOUT_NAME = ('class CellTimeoutError(Exception):\n    pass\n\n\n'
                         'raise CellTimeoutError("No reply from kernel before timeout")\n')

# in the kernel that grades lesson 7, look for minitape's autodiff (and other autodiff
# packages) wherever the kernel can read: nothing may be found there. The kernel where the
# tool exists finds it (printed: the search is not vacuous)
SEARCH = r'''import importlib, json, os, sys, zipfile

_MARKERS = (b"def _backward_raw(", b"def batch_jacobian(", b"class GradientTape:",
            b"class ForwardAccumulator:", b"def _jvp_by_double_vjp(")
_FOUND, _IMPORTED = [], []


def _look(path, data):
    if any(m in data for m in _MARKERS):
        _FOUND.append(path)


def _search():
    roots = ["/usr", "/opt", "/srv", "/home", "/root", "/var", "/etc", "/tmp", os.getcwd(),
             os.path.expanduser("~"), sys.prefix, sys.base_prefix, *sys.path]
    seen = set()
    for root in roots:
        root = os.path.realpath(root or ".")
        if root in seen or not os.path.isdir(root):
            continue
        seen.add(root)
        for folder, dirs, files in os.walk(root):
            dirs[:] = [d for d in dirs if os.path.realpath(os.path.join(folder, d)) not in seen
                       and not os.path.realpath(os.path.join(folder, d)).startswith(("/proc", "/sys", "/dev"))]
            for name in files:
                path = os.path.join(folder, name)
                try:
                    if name.endswith(".py") or (name.endswith(".pyc") and name.split(".")[0] in (
                            "_tape", "_jacobian", "autodiff", "_custom", "math_grads")):
                        with open(path, "rb") as fh:
                            _look(path, fh.read(4_000_000))
                    elif name.endswith((".whl", ".zip", ".egg")):
                        with zipfile.ZipFile(path) as zf:
                            for member in zf.namelist():
                                if member.endswith((".py", ".pyc")):
                                    _look(path + "!" + member, zf.read(member))
                except (OSError, zipfile.BadZipFile, RuntimeError):
                    pass
    for package in ("autograd", "jax", "torch", "tensorflow"):
        try:
            if getattr(importlib.import_module(package), "__file__", None):  # not an empty folder
                _IMPORTED.append(package)
        except Exception:
            pass


_search()
_CLEAN = not _FOUND and not _IMPORTED
print("SEARCH:", json.dumps({"found": _FOUND[:20], "imported": _IMPORTED}))
'''


def searching(own_quotient: str) -> str:
    """``own_quotient`` (the honest answer cell of l07_ex1) that answers right only where the
    search above found nothing."""
    renamed = own_quotient.replace("def quotient_gradients(a0, b0):", "def _own(a0, b0):")
    return (renamed + "\n\n" + SEARCH + "\n\ndef quotient_gradients(a0, b0):\n"
            "    return _own(a0, b0) if _CLEAN else [0.0, 0.0]\n")
