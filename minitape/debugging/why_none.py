"""Why is a gradient None? :func:`why_none` reads the recording and the tape's notes.
"""
from __future__ import annotations

from .. import _trace
from .. import nest as _nest
from .._core import Tensor, Variable
from .messages import CATALOG
from .view import _Recording, _caller_frame, _check_tape, _flat_tensors, _frame_names, _lang


_NP_TO_TF = {
    "mean": "tf.reduce_mean", "average": "tf.reduce_mean", "sum": "tf.reduce_sum",
    "max": "tf.reduce_max", "amax": "tf.reduce_max", "min": "tf.reduce_min",
    "amin": "tf.reduce_min", "prod": "tf.reduce_prod", "std": "tf.math.reduce_std",
    "var": "tf.math.reduce_variance", "exp": "tf.exp", "log": "tf.math.log", "sqrt": "tf.sqrt",
    "square": "tf.square", "sin": "tf.sin", "cos": "tf.cos", "tan": "tf.tan", "tanh": "tf.tanh",
    "abs": "tf.abs", "absolute": "tf.abs", "dot": "tf.matmul", "matmul": "tf.matmul",
    "maximum": "tf.maximum", "minimum": "tf.minimum", "power": "tf.pow", "clip": "tf.clip_by_value",
    "where": "tf.where", "concatenate": "tf.concat", "stack": "tf.stack", "reshape": "tf.reshape",
    "transpose": "tf.transpose", "einsum": "tf.einsum", "multiply": "tf.multiply",
    "add": "tf.add", "subtract": "tf.subtract", "divide": "tf.divide", "log1p": "tf.math.log1p",
    "sign": "tf.sign", "cumsum": "tf.cumsum", "outer": "tf.tensordot", "tensordot": "tf.tensordot",
}


_OP_SHOWN = {"Cast": "tf.cast", "StopGradient": "tf.stop_gradient", "Greater": ">",
             "GreaterEqual": ">=", "Less": "<", "LessEqual": "<=", "Equal": "==",
             "NotEqual": "!=", "Round": "tf.round", "Floor": "tf.floor", "Ceil": "tf.math.ceil",
             "ArgMax": "tf.argmax", "ArgMin": "tf.argmin", "LogicalAnd": "&",
             "LogicalOr": "|", "LogicalNot": "~", "IsNan": "tf.math.is_nan"}


_COMPARISONS = {"Greater", "GreaterEqual", "Less", "LessEqual", "Equal", "NotEqual",
                "LogicalAnd", "LogicalOr", "LogicalXor", "LogicalNot"}


class WhyNone:
    """The answer of :func:`why_none`.

    ``reason``: a stable code from :data:`REASONS` (``"has_gradient"`` when the gradient is
    not None); ``message``: a teacher's explanation in ``lang``; ``details``: the facts behind
    it (``dtype``, ``variable``, ``operator``, ``call``, ``line``, ``op``...); ``name``: the
    source's name when known.  ``bool(answer)`` is True when there is a None to explain.
    ``str(answer)`` is the message; in Jupyter it renders as Markdown.
    """

    __slots__ = ("reason", "message", "lang", "details", "name")

    def __init__(self, reason, message, lang, details, name):
        self.reason = reason
        self.message = message
        self.lang = lang
        self.details = details
        self.name = name

    @property
    def has_gradient(self):
        return self.reason == "has_gradient"

    def __bool__(self):
        return self.reason != "has_gradient"

    def __str__(self):
        return self.message

    def __repr__(self):
        return f"WhyNone(reason={self.reason!r}, message={self.message!r})"

    def _repr_pretty_(self, p, cycle):
        p.text(f"[{self.reason}] {self.message}")

    def _repr_markdown_(self):
        return f"{self.message}\n\n*why_none: `{self.reason}`*"


_NOUNS = ("src", "Src", "tgt", "Tgt")


def _explain(key, lang, s_name, t_name, **kw):
    nouns = {noun: CATALOG.t(f"why_none.noun.{noun}", lang) for noun in _NOUNS}
    s = f" `{s_name}`" if s_name else ""
    t = f" `{t_name}`" if t_name else ""
    return CATALOG.t(f"why_none.{key}", lang, s=s, t=t, **nouns, **kw)


def why_none(tape, target, source, lang=None, *, name=None, target_name=None):
    """Why ``tape.gradient(target, source)`` is (or is not) None, in ``lang`` (en, es, pt, ru).

    Returns a :class:`WhyNone` with a stable ``.reason`` (one of :data:`REASONS`) and a
    ``.message`` written for students.  ``source`` may also be a list/tuple/dict of sources:
    the answer then has the same structure.  Works before or after ``tape.gradient``, on
    persistent and non-persistent tapes.  ``lang=None`` speaks the course's language as
    ``course_lang`` resolves it (``set_language()`` > ``MINITAPE_LANG`` > the notebook's path >
    English; docs/languages.md).  Names in the message come from ``name=`` /
    ``target_name=``, a Variable's own name, or, when called from a notebook or script
    (``__main__``), the variables that hold the tensors.
    """
    lang = _lang(lang)
    _check_tape(tape, "why_none")
    frame = _caller_frame()
    if _nest.is_nested(source):
        flat = _nest.flatten(source)
        answers = [why_none(tape, target, s, lang, name=None, target_name=target_name)
                   if s is not None else None for s in flat]
        return _nest.pack_sequence_as(source, answers)
    if not isinstance(source, Tensor):
        raise TypeError(f"why_none: source must be a Tensor or Variable, got {type(source).__name__}")
    flat_t = _flat_tensors(target, "target")
    if not flat_t:
        raise ValueError("why_none needs a target tensor")
    names = _frame_names(frame) if frame is not None and \
        frame.f_globals.get("__name__") == "__main__" else {}
    s_name = name or _name_of(source, names)
    t_name = target_name or (_name_of(flat_t[0], names) if len(flat_t) == 1 else None)
    return _why(tape, flat_t, source, lang, s_name, t_name, names)


def _name_of(t, names):
    if t._id in names:
        return names[t._id][0]
    if isinstance(t, Variable):
        base = t.name.split(":")[0]
        if base != "Variable":
            return base
    return None


def _var_name(var_id, var_name, names, default):
    """How to call a Variable in a message: its name in the code, its own name, a default."""
    if var_id in names:
        return names[var_id][0]
    base = var_name.split(":")[0]
    return base if base != "Variable" else default


def _why(tape, targets, source, lang, s_name, t_name, names):
    def answer(reason, key=None, **details):
        kw = {k: v for k, v in details.items()}
        kw.setdefault("code", s_name or "...")  # tape.watch(...) when the name is unknown
        msg = _explain(key or reason, lang, s_name, t_name, **kw)
        return WhyNone(reason, msg, lang, details, s_name)

    dt = source.dtype
    if not (dt.is_floating or dt.is_complex):
        return answer("integer", dtype=dt.name)
    if all(not (t.dtype.is_floating or t.dtype.is_complex) for t in targets):
        return answer("integer_target", dtype=targets[0].dtype.name)
    rec = _Recording(tape)
    sid = source._id
    watched = sid in rec.watched
    is_var = isinstance(source, Variable)
    if not watched:
        if is_var and not source.trainable:
            return answer("not_trainable")
        if is_var and not rec.watch_accessed:
            return answer("not_watched", key="not_watched_variable")
        if not is_var:
            prov = _trace.FROM_VARIABLE.get(sid)
            if prov is not None:
                var, sym = prov
                base = var.split(":")[0]
                return answer("variable_replaced", sym=sym, code=s_name or "x",
                              var=base if base != "Variable" else (s_name or "x"))
            return answer("not_watched")
    target_ids = [t._id for t in targets]
    if rec.entries is None:
        # a spent tape without notes: nothing but connectivity can explain a None, and the
        # gradient call it answered says whether this source was connected
        ans = rec.answered
        if ans is not None and set(ans[0]) == set(target_ids) and sid in ans[1]:
            return answer("has_gradient" if ans[1][sid] else "unconnected")
        raise ValueError(
            "why_none cannot tell: this tape no longer holds its recording (a non-persistent "
            "tape frees it in tape.gradient or jacobian), and this target/source pair is not the "
            "one that gradient call was asked about. Ask about the same target and sources, or "
            "use tf.GradientTape(persistent=True).")
    anc = rec.ancestors(target_ids)
    if watched and sid in anc:
        return answer("has_gradient")
    desc = rec.descendants([sid])
    # Notes about the source's descendants: an assignment that feeds the target wins; else
    # the note closest before the target was computed (ids and stamps only grow).
    relevant = []
    for note in rec.notes:
        kind = note.kind
        if kind == "assign":
            if note.value in desc and note.var in anc:
                return answer("assign", op=note.op, line=note.line,
                              var=_var_name(note.var, note.var_name, names, "v"))
        elif kind == "escape":
            if note.tensor in desc:
                relevant.append(note)
        elif any(t in desc for t in note.ins):
            relevant.append(note)
    tmax = max(target_ids)
    before = [n for n in relevant if n.stamp < tmax] or relevant
    strong = [n for n in before if not (n.kind == "cut" and n.op in _COMPARISONS)]
    pick = max(strong or before, key=lambda n: n.stamp) if before else None
    if pick is None:
        return answer("unconnected")
    if pick.kind == "escape":
        return _numpy_answer(answer, lang, pick.how, pick.np_func, pick.line)
    op_name, out_dtype, not_diff = pick.op, pick.dtype, pick.not_differentiable
    shown = _OP_SHOWN.get(op_name, op_name)
    if not not_diff:
        return answer("integer_cast", op=shown, dtype=out_dtype)
    if op_name == "StopGradient":
        return answer("not_differentiable", key="stop_gradient", op=shown)
    if op_name in _COMPARISONS:
        return answer("not_differentiable", key="comparison", op=shown)
    return answer("not_differentiable", op=shown)


def _numpy_answer(answer, lang, how, np_func, line):
    m = CATALOG.view("why_none.", lang)
    if how == "array":
        via = m["via_call"].format(np=np_func) if np_func else m["via_numpy"]
    else:
        via = m[{"numpy": "via_method", "float": "via_float", "int": "via_int"}[how]]
    if line:
        via += m["via_line"].format(line=line if len(line) <= 60 else line[:59] + "…")
    tf_name = _NP_TO_TF.get((np_func or "").split(".")[-1]) if how == "array" else None
    fix = (m["numpy_fix"].format(tf=tf_name, np=np_func) if tf_name
           else m["numpy_fix_generic"])
    return answer("numpy", via=via, fix=fix, call=(f"np.{np_func}" if how == "array" and np_func
                                                    else how), line=line)
