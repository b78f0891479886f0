"""Jacobians by vectorized backward passes, and by one pass per row (the fallback).

A vectorized pass is the tape's own backward pass (``Reader.passes(..., batch=rows)``: the
tape hands a :class:`Reader` over after deciding whether the call consumes its recording)
whose output gradients carry a leading batch axis of seeds: the rows of the
identity for ``jacobian``, one position of every example for ``batch_jacobian``.  Each
primitive's batch rules (``Primitive.batch_vjps``) carry that axis through; a recording with an
operation without them is refused before anything is computed (:class:`NotBatchable`) and the
Jacobian is computed row by row instead.  Large passes are split into chunks of rows so that a
Jacobian needs about twice its own size in memory (``parallel_iterations`` sets the chunk).
"""
from __future__ import annotations

from typing import Callable, NamedTuple

from . import _backend as B
from . import _state
from . import _ops
from . import _onehot
from ._core import Tensor
from ._indexed_slices import IndexedSlices

_UNSPLIT = 2 ** 17  # elements a vectorized Jacobian pass may hold before it is chunked


class Reader(NamedTuple):
    """What a Jacobian receives from the tape (it never touches the tape itself)."""

    passes: Callable    # passes(target, sources, output_gradients, unconnected, batch=None):
                        # one backward pass that keeps the recording, one gradient per source
    entries: list       # the recording, read only (auto_chunk's sizes)
    watched: set        # ids the tape watched


class NotBatchable(Exception):
    """A vectorized pass met an operation whose gradient rule cannot take a batch axis."""


def jacobian(reader, target, flat_sources, unconnected_gradients, parallel_iterations, use_pfor):
    """One Jacobian (or None) per source, ``target.shape + source.shape``."""
    n = target._value.size
    tshape = tuple(target._value.shape)
    if use_pfor and n:
        v = target._value
        m = B.xp(v)

        def seeds(start, stop, onehot=False):  # rows start..stop of the identity, target-shaped
            if onehot:  # (seed r is 1 at position start + r)
                return _onehot.seeds(tshape, v.dtype, start, stop, n)
            e = m.zeros((stop - start, n), dtype=v.dtype)
            e[:, start:stop] = m.eye(stop - start, dtype=v.dtype)
            return Tensor(e.reshape((stop - start,) + tshape))
        try:
            js = vectorized(reader, target, flat_sources, seeds, n, unconnected_gradients,
                            parallel_iterations)
        except NotBatchable:
            pass
        else:
            return [None if j is None else _shaped(j, tshape + tuple(s._value.shape))
                    for s, j in zip(flat_sources, js)]
    return jacobian_rows(reader, target, flat_sources, unconnected_gradients)


def _shaped(j, shape):
    """``j`` reshaped to ``shape`` (itself when it has that shape already: a vectorized pass's
    Jacobian of a vector by a vector)."""
    return j if j._value.shape == shape else _ops.reshape(j, shape)


def _dense(g):
    """A row's gradient as a tensor (a gather's is an IndexedSlices: TF's Jacobians are dense)."""
    return _ops._to_tensor(g) if type(g) is IndexedSlices else g


def jacobian_rows(reader, target, flat_sources, unconnected_gradients):
    """The Jacobian by one backward pass per row (the fallback, and use_pfor=False)."""
    n = target._value.size
    rows = [[] for _ in flat_sources]
    for i in range(n):  # one pass per row, none of them consuming the recording
        og = _ops.one_hot_like(target, i)
        gs = reader.passes(target, flat_sources, og, unconnected_gradients)
        for k, g in enumerate(gs):
            rows[k].append(_dense(g))
    out = []
    for s, r in zip(flat_sources, rows):
        if any(g is None for g in r):
            out.append(None)
            continue
        if n == 0:
            j = _ops.zeros(tuple(target.shape) + tuple(s.shape), dtype=s.dtype)
        else:
            j = _ops.reshape(_ops.stack(r), tuple(target.shape) + tuple(s.shape))
        out.append(j)
    return out


def batch_jacobian(reader, target, source_t, unconnected_gradients, parallel_iterations,
                   experimental_use_pfor):
    """Per-example Jacobians (batch, *t, *s), or None: seeds 1 at one position of every
    example (the target's example i depends only on the source's example i)."""
    batch = target.shape[0]
    inner = tuple(target.shape[1:])
    m = 1
    for d in inner:
        m *= d
    rest = tuple(source_t.shape[1:])
    j = None
    done = False
    if experimental_use_pfor and m and batch:
        v = target._value
        xm = B.xp(v)

        def seeds(start, stop, onehot=False):  # seed r: 1 at inner position start + r of
            if onehot:                             # every example
                return _onehot.seeds((batch,) + inner, v.dtype, start, stop, m)
            e = xm.zeros((stop - start, batch, m), dtype=v.dtype)
            e[:, :, start:stop] = xm.eye(stop - start, dtype=v.dtype)[:, None, :]
            return Tensor(e.reshape((stop - start, batch) + inner))
        try:
            js = vectorized(reader, target, [source_t], seeds, m, unconnected_gradients,
                            parallel_iterations, axis=1)
            done = True
        except NotBatchable:
            pass
        if done and js[0] is not None:  # (batch, m, *rest)
            j = _ops.reshape(js[0], (batch,) + inner + rest)
    if not done:
        rows = []
        for k in range(m):  # one pass per row, none of them consuming the recording
            og = _ops.one_hot_batch_like(target, k)
            g = reader.passes(target, [source_t], og, unconnected_gradients)[0]
            if g is None:
                rows = None
                break
            rows.append(_dense(g))
        if rows is not None and m:  # (no rows: the caller's zeros, as for an unconnected target)
            j = _ops.reshape(_ops.stack(rows, axis=1), (batch,) + inner + rest)
    return j


def vectorized(reader, target, sources, seeds, n, unconnected_gradients, chunk, axis=0):
    """Vectorized backward passes for ``n`` rows of a Jacobian, a chunk of rows at a time.

    ``seeds(start, stop)`` gives the output gradients of rows start..stop with a leading
    batch axis; each pass carries that axis through every primitive's batch rule.  The
    rows of each source are assembled along ``axis`` (0 for jacobian; 1 for
    batch_jacobian, whose gradients come out (rows, batch, ...)).  Returns one tensor per
    source (None where unconnected), or raises NotBatchable before anything is computed.
    With no tape or accumulator recording, chunks are copied into one array as they come
    (the Jacobian plus one chunk's pass in memory); otherwise they are concatenated by a
    recorded operation, so that the Jacobian can be differentiated again.
    """
    onehot = _onehot.available(target)  # (seeds kept one-hot through the pass: _onehot.py)
    if chunk is None:
        chunk = auto_chunk(reader, target, sources, n, onehot)
    chunk = max(1, min(int(chunk), n))
    recorded = chunk < n and bool(_state.tapes or _state.accumulators)
    parts = [[] for _ in sources]
    whole = [None] * len(sources)
    try:
        _chunks(reader, target, sources, seeds, n, unconnected_gradients, chunk, axis,
                recorded, onehot, parts, whole)
    finally:
        _onehot.forget()  # (what the one-hot rules remembered about the recording's matrices)
    out = []
    for p, w in zip(parts, whole):
        if p is None:
            out.append(None)
        elif w is not None:
            out.append(Tensor(w))
        else:
            out.append(p[0] if len(p) == 1 else _ops.concat(p, axis=axis))
    return out


def _chunks(reader, target, sources, seeds, n, unconnected_gradients, chunk, axis, recorded,
            onehot, parts, whole):
    """The passes of :func:`vectorized`, one per chunk of rows, into ``parts`` or ``whole``."""
    for start in range(0, n, chunk):
        stop = min(n, start + chunk)
        gs = reader.passes(target, sources, [seeds(start, stop, onehot)],
                           unconnected_gradients, batch=stop - start)
        for k, g in enumerate(gs):
            if g is None:
                whole[k] = parts[k] = None
                continue
            if parts[k] is None:
                continue
            if axis:
                nd = g._value.ndim
                g = _ops.transpose(g, (1, 0) + tuple(range(2, nd)))
            if chunk == n or recorded:
                parts[k].append(g)
                continue
            v = g._value
            if whole[k] is None:
                shape = list(v.shape)
                shape[axis] = n
                whole[k] = B.xp(v).empty(tuple(shape), dtype=v.dtype)
            whole[k][(slice(None),) * axis + (slice(start, stop),)] = v
        gs = g = None  # (the chunk's gradients are copied: free them before the next pass)


def auto_chunk(reader, target, sources, n, onehot=False):
    """Rows per vectorized pass so that the pass needs at most the Jacobian's size.

    A pass over ``c`` rows holds, per row, its seed and a few gradients as large as the
    largest tensor that receives one (a recorded output, or an input computed from a
    watched tensor): at most about ``c * 8 * largest`` elements (measured: 6 on a tanh(W x)
    chain, where the pass keeps its seeds, the incoming and produced gradients and the
    temporaries of a rule);
    the Jacobian has ``n * sum(source sizes)``.  Passes below 2**17 elements (1 MiB of
    float64) are not split: chunks would only cost time.  A pass with one-hot seeds
    (``onehot``) holds per row only the dense gradients it is expected to compute
    (:func:`_dense_largest`); one that stays one-hot down to its sources is not split (its
    sources' gradients are the Jacobian itself).
    """
    largest = target._value.size
    watched = reader.watched
    for e in reader.entries:
        for t in e[3]:
            if type(t) is Tensor and t._id in watched:
                z = t._value.size
                if z > largest:
                    largest = z
    per_row = 8 * largest
    if n * per_row <= _UNSPLIT:
        return n
    if onehot:  # (only the dense gradients count)
        largest = _dense_largest(reader, target)
        if largest == 0:
            return n
        per_row = 8 * largest
        if n * per_row <= _UNSPLIT:
            return n
    total = 0
    for s in sources:
        total += s._value.size
    return max(1, (n * total) // per_row)


def _dense_largest(reader, target):
    """The largest tensor (elements) whose gradient a pass with one-hot seeds from ``target``
    is expected to compute densely, sources' own excepted (0: none).

    The recording read backwards from the target: a tensor's gradient stays one-hot through
    operations with one-hot rules (``Primitive.onehot_vjps``) unless a matrix product (whose
    rule gathers dense rows) or a broadcast (summed back) makes it dense; below a dense
    gradient everything is dense.  Operations that compute with a dense gradient hold it and
    their results (their saved tensors are counted); a reshape only relabels it.
    """
    watched = reader.watched
    dense = {target._id: False}  # tensor id -> whether its gradient is dense
    largest = 0
    for e in reversed(reader.entries):
        out, in_ids, prim, saved, params = e
        if out.__class__ is tuple:
            d = any(dense.get(o) for o in out) if any(o in dense for o in out) else None
        else:
            d = dense.get(out)
        if d is None:
            continue
        keeps = not d and prim.onehot_vjps is not None and prim.name != "MatMul"
        if (d and prim.name != "Reshape") or (not d and prim.onehot_vjps is None):
            for t in saved:
                if type(t) is Tensor and t._id in watched:
                    z = t._value.size
                    if z > largest:
                        largest = z
        for k, tid in enumerate(in_ids):
            if tid not in watched:
                continue
            dk = not keeps
            if keeps and prim.unbroadcast and saved[k + 1]._value.shape != saved[0]._value.shape:
                dk = True  # (summed back to a broadcast input: written out first)
                largest = max(largest, saved[0]._value.size)
            prev = dense.get(tid)
            dense[tid] = dk if prev is None else (prev or dk)
    return largest
