"""GradientTape: recording, and the backward pass (recorded: usage counts; unrecorded: raw)."""
from __future__ import annotations

from collections import deque as _deque
import enum
from math import prod as _prod
import warnings

from . import _core
from ._core import Tensor, Variable, _to_tensor
from ._backend import quiet_floating_errors as _quiet, restore_floating_errors as _restore
from ._indexed_slices import IndexedSlices
from ._state import tapes as _tapes, accumulators as _accumulators
from ._state import multi_device as _multi
from . import nest as _nest
from . import _ops  # gradient arithmetic (_ops does not import this module)
from . import _jacobian, _onehot
from ._vjp import _seeds, _backward_raw, entry_grads  # noqa: F401  (entry_grads: autodiff's)
from ._recording import Entry, Recording, _Spent, _entries_view  # noqa: F401  (debugging's view)
from ._jacobian import NotBatchable
from .dtypes import FLOATING_KINDS as _FLOATING  # what gradients flow through


class UnconnectedGradients(enum.Enum):
    """What ``gradient`` returns for a source the target does not depend on."""

    NONE = "none"
    ZERO = "zero"


class TapeWarning(UserWarning):
    """Warnings about tape usage that TensorFlow logs (e.g. integer sources)."""


def _warn(msg):
    warnings.warn(msg, TapeWarning, stacklevel=3)


_NON_PERSISTENT_MSG = ("A non-persistent GradientTape can only be used to compute one set of "
                       "gradients (or jacobians)")


class GradientTape:
    """Record operations for automatic differentiation (TensorFlow's ``tf.GradientTape``).

    Operations run inside ``with GradientTape() as tape:`` are recorded when one of their
    inputs is *watched*: trainable Variables are watched on first use (unless
    ``watch_accessed_variables=False``), Tensors only after ``tape.watch(t)``.
    ``tape.gradient(target, sources)`` then walks the recording backwards.  A tape that is not
    ``persistent`` frees its recording after the first ``gradient`` call.
    """

    __slots__ = ("_persistent", "_watch_accessed", "_watched", "_variables", "_entries",
                 "_recording", "_used", "_entered", "_notes", "_spent", "__weakref__")

    def __init__(self, persistent=False, watch_accessed_variables=True):
        self._persistent = bool(persistent)
        self._watch_accessed = bool(watch_accessed_variables)
        self._watched = set()        # ids of watched tensors and of everything computed from them
        self._variables = {}         # id -> Variable, watched variables
        self._entries = []           # (out_id, in_ids, prim, saved, params), in execution order
        self._recording = False
        self._used = False
        self._entered = False
        self._notes = None           # debugging notes (NumPy escapes, assignments, cut paths)
        self._spent = None           # what a consumed pass keeps for why_none (_Spent's fields)

    # --- context ------------------------------------------------------------------------
    def __enter__(self):
        if self._recording:
            raise ValueError("Tape is still recording, This can happen if you try to re-enter an "
                             "already-active tape.")
        if self._used and not self._persistent:
            # TF: a tape whose gradient consumed its recording starts a new one when entered
            # again (a loop that creates the tape once); without a gradient in between, the
            # recording goes on where it stopped
            self._used = False
            self._entries = []
            self._watched = set()
            self._variables = {}
            self._notes = None
            self._spent = None
        self._push()
        self._entered = True
        return self

    def __exit__(self, typ, value, tb):
        if self._recording:
            self._pop()
        return False

    def _push(self):
        _tapes.append(self)
        self._recording = True

    def _pop(self):
        # Remove this tape wherever it is on the stack (tapes may be closed out of order).
        for i in range(len(_tapes) - 1, -1, -1):
            if _tapes[i] is self:
                del _tapes[i]
                break
        self._recording = False

    # --- watching -----------------------------------------------------------------------
    def watch(self, tensor):
        """Ensure that ``tensor`` (or every tensor in a nested structure) is traced."""
        if not self._entered or self._entries is None:
            # TF's tape object exists only from its first entry until a gradient consumes it
            raise AttributeError("'NoneType' object has no attribute '_tape'")
        if not _tapes and not _accumulators:  # TF: nothing records, so nothing is watched
            return
        for t in _nest.flatten(tensor):
            if isinstance(t, Variable):
                self._watch_variable(t, explicit=True)
                continue
            if not isinstance(t, Tensor):
                raise ValueError(f"Passed in object {t!r} of type {type(t).__name__!r}, not "
                                 "tf.Tensor or tf.Variable or ExtensionType.")
            if not t.dtype.is_floating and not t.dtype.is_complex:
                _warn("The dtype of the watched tensor must be floating (e.g. tf.float32), "
                      f"got {t.dtype!r}")
                continue
            self._watched.add(t._id)

    def _watch_variable(self, v, explicit=False):
        if v._id in self._variables:
            return
        if not (v.dtype.is_floating or v.dtype.is_complex):
            if explicit:
                _warn("The dtype of the watched tensor must be floating (e.g. tf.float32), "
                      f"got {v.dtype!r}")
            # TF lists it in watched_variables(); no gradient flows to it (not in _watched)
            self._variables[v._id] = v
            return
        self._variables[v._id] = v
        self._watched.add(v._id)

    def watched_variables(self):
        """The variables this tape watched, in the order they were created."""
        return tuple(sorted(self._variables.values(), key=lambda v: v._id))

    # --- recording control ----------------------------------------------------------------
    def stop_recording(self):
        """Context manager inside which operations are not recorded on this tape."""
        return _StopRecording(self)

    def reset(self):
        """Forget everything recorded so far; the tape goes on recording.  Only while it
        records (inside its context), as in TF."""
        was = self._recording
        if not was:
            raise ValueError("Tape is not recording.")
        if was:
            self._pop()
        self._watched = set()
        self._variables = {}
        self._entries = []
        self._used = False
        self._notes = None
        self._spent = None
        if was:
            self._push()

    # --- gradients ------------------------------------------------------------------------
    # The backward contract.  gradient, jacobian and batch_jacobian each call _open first: it
    # is the one decision whether the call consumes the recording (a tape that is not
    # persistent stops recording there and gives its recording away when the call is done,
    # through _release, the one place that does) or keeps it (a persistent tape).  Whatever
    # runs inside one call (the rows or chunks of a Jacobian, the debugging stepper) only
    # reads the recording.

    def _open(self):
        """Check that the tape can still answer; True when this call consumes the recording."""
        if self._used and not self._persistent:
            raise RuntimeError(_NON_PERSISTENT_MSG)
        if not self._entered and not self._entries:
            # A tape that never recorded anything: TensorFlow's message is the same one.
            if not self._watched:  # (TF's text, persistent or not)
                raise RuntimeError(_NON_PERSISTENT_MSG)
        consume = not self._persistent
        if self._recording:
            if consume:
                self._pop()
            else:
                _warn("Calling GradientTape.gradient on a persistent tape inside its context is "
                      "significantly less efficient than calling it outside the context (it "
                      "causes the gradient ops to be recorded on the tape, leading to increased "
                      "CPU and memory usage). Only call GradientTape.gradient inside the context "
                      "if you actually want to trace the gradient in order to compute higher "
                      "order derivatives.")
        return consume

    def gradient(self, target, sources, output_gradients=None,
                 unconnected_gradients=UnconnectedGradients.NONE):
        """d(sum of ``target``)/d``sources``, with the structure of ``sources``.

        Several or non-scalar targets are summed (or weighted by ``output_gradients``).
        Sources that the target does not depend on give None, or zeros with
        ``unconnected_gradients=tf.UnconnectedGradients.ZERO``.
        """
        consume = self._open()
        return self._gradient(target, sources, output_gradients, unconnected_gradients, consume)

    def _gradient(self, target, sources, output_gradients, unconnected_gradients, consume,
                  batch=None):
        """One backward pass for ``gradient`` (and for each row or chunk of a Jacobian, which
        passes ``consume=False``); ``batch``: the rows a vectorized pass carries."""
        if target is None:
            raise TypeError("Argument `target` should be a list or nested structure of Tensors, "
                            "Variables or CompositeTensors to be differentiated, but received "
                            "None.")
        unconnected = (unconnected_gradients if type(unconnected_gradients) is UnconnectedGradients
                       else UnconnectedGradients(unconnected_gradients))  # (no Enum call)
        flat_targets = _nest.flatten(target)
        for t in flat_targets:
            if not isinstance(t, Tensor):
                if type(t) is IndexedSlices:  # TF's text exactly (convert_to_tensor it first)
                    raise AttributeError("'IndexedSlices' object has no attribute '_id'")
                # TF fails reading the target's tensor id: AttributeError, with its text first
                raise AttributeError(f"{type(t).__name__!r} object has no attribute '_id': the "
                                     f"gradient target must be a Tensor or Variable, got {t!r}")
        flat_sources = _nest.flatten(sources, keep_none=True)
        for s in flat_sources:
            if not isinstance(s, Tensor):
                _bad_source(s)
        # TensorFlow logs integer targets and sources at verbosity 1 only (logging.vlog): the
        # student sees no warning; the gradient is None (why_none says why).
        if output_gradients is not None:
            flat_og = _nest.flatten(output_gradients, keep_none=True)
            # TF flattens output_gradients and pairs them with the targets in order, so extra
            # ones are ignored (output_gradients=[1., 2.] for one target: 1.0, broadcast)
            if len(flat_og) > len(flat_targets):
                flat_og = flat_og[:len(flat_targets)]
            if len(flat_og) != len(flat_targets):
                raise ValueError("output_gradients must have the same structure as target: "
                                 f"{len(flat_og)} gradients for {len(flat_targets)} targets")
        else:
            flat_og = None

        grads = self._pass(flat_targets, flat_sources, flat_og, consume=consume,
                           batched=batch is not None)
        results = []
        for s, g in zip(flat_sources, grads):
            shape = s._value.shape if batch is None else (batch,) + s._value.shape
            if g is None:
                if unconnected is UnconnectedGradients.ZERO:
                    g = (_ops.zeros_like(s) if batch is None else
                         _ops.zeros(shape, dtype=s.dtype))
            elif type(g) is not IndexedSlices and g._value.shape != shape:
                # a vectorized pass (the batch axis in front), or an output gradient that
                # broadcast; a custom gradient of another size is returned as it is (TF)
                if batch is not None or g._value.size == _prod(shape):
                    g = _ops.reshape(g, shape)
            results.append(g)
        return _nest.pack_sequence_as(sources, results)

    def _reader(self):
        """What a Jacobian needs of the recording: passes that keep it, and the recording."""
        entries = self._entries
        if entries is None:
            raise RuntimeError(_NON_PERSISTENT_MSG)

        def passes(target, sources, output_gradients, unconnected_gradients, batch=None):
            return self._gradient(target, sources, output_gradients, unconnected_gradients,
                                  consume=False, batch=batch)
        return _jacobian.Reader(passes, entries, self._watched)

    def jacobian(self, target, sources, unconnected_gradients=UnconnectedGradients.NONE,
                 parallel_iterations=None, experimental_use_pfor=True):
        """Full Jacobian: result shape is ``target.shape + source.shape`` for each source.

        Computed by one vectorized backward pass whose seeds are the rows of the identity
        (:mod:`._jacobian`); ``parallel_iterations`` rows at a time when given (else as many as
        keep the pass within about the Jacobian's own size in memory).  A recording with an
        operation whose rule cannot take a batch axis (custom gradients), or
        ``experimental_use_pfor=False``, gives one backward pass per row instead.
        """
        consume = self._open()
        out = _jacobian.jacobian(self._reader(), _to_tensor(target), _nest.flatten(sources),
                                 unconnected_gradients, parallel_iterations,
                                 experimental_use_pfor)
        if consume:
            self._release()
        return _nest.pack_sequence_as(sources, out)

    def batch_jacobian(self, target, source, unconnected_gradients=UnconnectedGradients.NONE,
                       parallel_iterations=None, experimental_use_pfor=True):
        """Per-example Jacobians: ``target[i]`` w.r.t. ``source[i]``, shape (batch, *t, *s).

        As in TensorFlow, example ``i`` of the target must depend only on example ``i`` of
        the source.  Vectorized like :meth:`jacobian`: one pass whose seeds are, for each
        position ``j`` of an example's target, 1 at ``j`` in every example.
        """
        target = _to_tensor(target)
        source_t = _to_tensor(source)
        for t in (target, source_t):  # TF: TensorShape.with_rank_at_least(2)
            if t.shape.rank < 2:
                raise ValueError(f"Shape {t.shape} must have rank at least 2")
        if target.shape[0] != source_t.shape[0]:
            raise ValueError("Need first dimension of target shape "
                             f"({target.shape}) and source shape ({source_t.shape}) to match.")
        consume = self._open()
        j = _jacobian.batch_jacobian(self._reader(), target, source_t, unconnected_gradients,
                                     parallel_iterations, experimental_use_pfor)
        if consume:
            self._release()
        if j is None:
            # TF returns zeros, not None, for an unconnected target (whatever
            # unconnected_gradients says), shaped (batch, *target[1:], *source[1:]), with the
            # target's dtype
            return _ops.zeros(tuple(target.shape) + tuple(source_t.shape[1:]), dtype=target.dtype)
        return j

    def _pass(self, targets, sources, output_gradients, consume, on_step=None, batched=False):
        """One backward pass over the recording: one gradient (or None) per source.

        ``consume`` (decided by :meth:`_open`): the pass frees each entry once it has run and
        the tape gives its recording away.  The pass runs its rules on raw arrays when nothing
        would record them (no tape or forward accumulator active, one array module): a
        first-order gradient then builds no graph of its own backward pass.
        """
        entries = self._entries
        if entries is None:
            raise RuntimeError(_NON_PERSISTENT_MSG)
        # So that debugging.why_none can still explain a None after a consuming pass, keep
        # what it answered and, only when the recording has debugging notes (a NumPy escape,
        # an assignment, a cut path: rare), the (outputs, inputs, op) skeleton of its entries.
        skeleton = None
        if consume and self._notes is not None:
            skeleton = [(e[0], e[1], e[2]) for e in entries]
        raw = (on_step is None and not batched and not _tapes and not _accumulators
               and not _multi[0])
        # Gradient rules at kinks compute inf and nan silently, as TF's kernels do (once per
        # pass, not per operation)
        quiet = _quiet()
        try:
            grads = backward(entries, self._watched, targets, sources, output_gradients,
                             consume=consume, on_step=on_step, batched=batched, raw=raw)
        finally:
            _restore(quiet)
        if consume:
            # (a plain tuple here, on every gradient call; recording() names its fields)
            self._release((skeleton, self._watched, [t._id for t in targets],
                           {s._id: g is not None for s, g in zip(sources, grads)}))
        return grads

    def _release(self, spent=None):
        """Give the recording away (a non-persistent tape after its gradient or Jacobian)."""
        self._used = True
        self._spent = spent
        self._entries = None
        self._watched = set()


def recording(tape) -> Recording:
    """The one read-only view of ``tape``'s recording (what debugging draws and explains)."""
    entries = tape._entries
    spent = tape._spent
    if spent is not None:
        spent = _Spent(*spent)
    if entries is not None:
        view = _entries_view(entries)
    elif spent is not None and spent.skeleton is not None:
        view = _entries_view(spent.skeleton)
    else:
        view = None
    return Recording(view, frozenset(tape._watched if entries is not None or spent is None
                                     else spent.watched),
                     tuple(tape._variables.values()), tuple(tape._notes or ()), spent,
                     tape._persistent, tape._watch_accessed)


def observe_backward(tape, targets, sources, output_gradients, on_step):
    """The tape's own backward pass, observed step by step, keeping the recording.

    ``on_step(index, g, in_grads, grads)`` is called once after seeding (index None) and after
    each entry between the targets and the sources (``index``: its position on the tape).
    """
    return tape._pass(targets, sources, output_gradients, consume=False, on_step=on_step)


def _bad_source(s):
    """TF's exception class and text for a source that is not a tensor (its text depends on
    where TF trips: the dtype lookup or the tensor id), then what the source must be."""
    why = f" (each source must be a Tensor or Variable, got {s!r})"
    if s is None or isinstance(s, str):
        raise TypeError(f"Cannot convert the argument `type_value`: {s!r} to a TensorFlow DType."
                        + why)
    attr = "dtype" if isinstance(s, float) else "_id"
    raise AttributeError(f"{type(s).__name__!r} object has no attribute '{attr}'" + why)


class _StopRecording:
    __slots__ = ("_tape",)

    def __init__(self, tape):
        self._tape = tape

    def __enter__(self):
        if not self._tape._recording:
            if self._tape._entered:  # TF: a tape whose context has exited
                raise ValueError("Tape is not recording.")
            raise RuntimeError("Trying to stop recording a tape which is not recording.")
        self._tape._pop()
        return self

    def __exit__(self, *exc):
        self._tape._push()
        return False


def backward(entries, watched, targets, sources, output_gradients=None, consume=False,
             on_step=None, batched=False, raw=False):
    """The backward pass over a recording: one gradient (or None) per source.

    Scheduled by usage counts, without recursion (TensorFlow's algorithm): an entry runs
    once every entry that consumed its outputs has contributed; gradients are
    accumulated in a dict local to this call and dropped as soon as they have been propagated.
    ``consume``: free each entry as soon as it has run (the caller gives the recording away
    afterwards); otherwise the pass reads a copy of the list, so that operations recorded
    while it runs (gradients of gradients on a persistent tape) are not part of it.
    ``on_step(index, g, in_grads, grads)``, when given, is called once after seeding (index
    None) and after each entry between the targets and the sources (the debugging stepper).
    ``batched``: the output gradients carry a leading batch axis (one seed per row of a
    Jacobian) and the pass runs each primitive's batch rules (``Primitive.batch_vjps``),
    undoing broadcasting behind that axis; it raises :class:`NotBatchable`, before computing
    anything, when an entry between the targets and the sources has none.
    ``raw``: nothing records the rules (the caller checked): run them on raw arrays
    (:func:`_run_raw`), the same schedule and the same arithmetic without a Tensor per step.
    """
    live = entries
    if not consume:
        entries = entries[:len(entries)]
    # A source the tape never watched gets None, even when a recorded op consumed it.
    # (A target is its own source: d(x)/dx = 1 whether or not x was watched, as in TF.)
    target_ids = {t._id for t in targets}
    source_ids = {s._id for s in sources if s._id in watched or s._id in target_ids}
    if raw:
        out = _backward_raw(entries, live, targets, sources, output_gradients, source_ids,
                            consume)
        if out is not None:
            return out
        # (None: sparse gradients meet on the way, in TF's order only with usage counts)

    # 1. the entries that lead to a source (entries are in execution order, every producer
    #    before its consumers: one forward sweep), and 2. usage counts: how many of them
    #    consume each tensor produced by one of them. Entries that do not lead back from a
    #    target are kept: their outputs have no gradient, so they only pass their usage counts
    #    on (checking reachability first would cost a sweep more than it saves).
    needed_ids = set(source_ids)
    producer = {}  # output id of each needed entry -> the entry's index, in execution order
    usage = {}
    multi = None   # entry index -> outputs still in use, for operations with several outputs
    sparse = 0     # entries whose gradient may be an IndexedSlices
    i = -1
    for e in entries:
        i += 1
        in_ids = e[1]
        for tid in in_ids:
            if tid in needed_ids:
                break
        else:
            continue
        if e[2].sparse_grad:
            sparse += 1
        for tid in in_ids:
            if tid in producer:
                usage[tid] = usage.get(tid, 0) + 1
        o = e[0]
        if o.__class__ is tuple:  # several outputs (custom gradients): ready when all are done
            if multi is None:
                multi = {}
            multi[i] = o
            needed_ids.update(o)
            for oid in o:
                producer[oid] = i
        else:
            needed_ids.add(o)
            producer[o] = i
    e = None  # (the loop variable would keep the last entry alive through the whole pass)
    reach = None
    if on_step is not None or batched:  # the entries between targets and sources
        wanted = set(target_ids)
        reach = set()
        for i in sorted(set(producer.values()), reverse=True):
            e = entries[i]
            o = e[0]
            if (o in wanted) if o.__class__ is not tuple else not wanted.isdisjoint(o):
                if batched and not e[2].batchable(e[4]):
                    raise NotBatchable(e[2].name)
                reach.add(i)
                wanted.update(e[1])
        e = None
    # 3. seed with the targets' gradients
    grads = _seeds(targets, output_gradients)
    # entries run as they become ready, the last one first; where sparse gradients may meet,
    # first come first served, as TF's tape schedules them, so that their pieces are
    # concatenated in TF's order (nearest to the loss first)
    if multi is None:
        ready = _deque([i for out_id, i in producer.items() if out_id not in usage])
    else:
        for i, o in multi.items():
            multi[i] = sum(1 for oid in o if oid in usage)
        ready = _deque([i for i in dict.fromkeys(producer.values())
                        if (multi.get(i) == 0 if i in multi else entries[i][0] not in usage)])
    add = _onehot.add if batched else _ops.add_gradients  # (two IndexedSlices stay sparse)
    unbroadcast = _ops.unbroadcast_batch if batched else _ops.unbroadcast
    if on_step is not None:  # debugging's stepper watches the same pass, step by step
        on_step(None, None, None, grads)
    get = grads.get
    take = ready.popleft if sparse > 1 else ready.pop
    while ready:
        i = take()
        out_id, in_ids, prim, saved, params = entries[i]
        if multi is not None and i in multi:  # several outputs: a tuple of their gradients
            g = tuple([get(o) if o in source_ids else grads.pop(o, None) for o in out_id])
            if all(x is None for x in g):
                g = None
        else:
            g = get(out_id) if out_id in source_ids else grads.pop(out_id, None)
        if g is not None:
            if prim.no_gradient:
                raise LookupError(f"gradient registry has no entry for: {prim.name}")
            if not batched:
                vjps = prim.vjps
            elif g.__class__ is _onehot.OneHot:  # a Jacobian's one-hot seeds: their own rules
                g, vjps = _onehot.step(prim, g, saved, params, in_ids, needed_ids, grads,
                                       unbroadcast, on_step)
            else:
                vjps = prim.batch_vjps
            if vjps is not None and on_step is None:
                # the common case, entry_grads inlined: one VJP per needed input, broadcasting
                # undone where the primitive declares it, and the count of each input's
                # producer decremented as the input is passed
                k = 0
                for tid in in_ids:
                    if tid in needed_ids:
                        r = vjps[k](g, *saved, **params) if params else vjps[k](g, *saved)
                        if r is not None:
                            if prim.unbroadcast:
                                shape = saved[k + 1]._value.shape
                                if r._value.shape != shape:  # (always in a batched pass:
                                    r = unbroadcast(r, shape)  # unbroadcast_batch checks)
                            prev = get(tid)
                            grads[tid] = r if prev is None else add(prev, r)
                        c = usage.get(tid)  # (only tensors made by needed entries have one)
                        if c is not None:
                            if c == 1:
                                p = producer[tid]
                                if multi is None or _last_output(multi, p):
                                    ready.append(p)
                            usage[tid] = c - 1
                    k += 1
                if consume:
                    live[i] = None  # free what this entry kept alive
                continue
            in_grads = entry_grads(prim, g, saved, params, in_ids, needed_ids)
            for tid, ig in zip(in_ids, in_grads):
                if ig is None or tid not in needed_ids:
                    continue
                prev = get(tid)
                grads[tid] = ig if prev is None else add(prev, ig)
        else:
            in_grads = None
        if on_step is not None and i in reach:
            on_step(i, g, in_grads, grads)
        for tid in in_ids:
            c = usage.get(tid)
            if c is not None:
                if c == 1:
                    p = producer[tid]
                    if multi is None or _last_output(multi, p):
                        ready.append(p)
                usage[tid] = c - 1
        if consume:
            live[i] = None  # free what this entry kept alive
    out = [grads.get(s._id) if s._id in source_ids else None for s in sources]
    return [_onehot.dense(g) for g in out] if batched else out


def _last_output(multi, i):
    """Whether entry ``i`` is ready now that one of its outputs is fully used."""
    left = multi.get(i)
    if left is None:  # a single output
        return True
    multi[i] = left - 1
    return left == 1
