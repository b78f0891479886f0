"""A vectorized Jacobian's one-hot seeds, kept structured through its backward pass (issue 42).

The seeds of a vectorized Jacobian are one-hot: seed ``r`` is 1 at the target positions
*labelled* ``r`` (``jacobian``: position ``start + r``; ``batch_jacobian``: inner position
``start + r`` of every example) and 0 everywhere else.  Through an operation whose rule acts on
the gradient position by position, with operands that are the same for every seed (element-wise
rules, reshapes, transposes, the broadcast of a reduction's gradient), every gradient keeps
that form: at each position it holds one value on the seeds labelled there and one other value
on all the other seeds, because the dense pass would compute each of them with the same
arithmetic on the same operands.  A :class:`OneHot` keeps those two values per position
(``pair``: ``pair[0]`` the labelled seeds' values, ``pair[1]`` the others') and the labels:
the pass then costs what a pass with two seeds costs, whatever the number of seeds.

:meth:`OneHot.dense` writes the dense gradient, element for element the array the dense pass
would have computed.  A matrix product with a one-hot gradient is a gather of the other
matrix's rows, scaled (``_ops/onehot_grads.py``): every other term of the dense product is an
exact zero, so the values are the product's (a zero result may differ in sign, as TF's kernels
and BLAS libraries differ among themselves).  Operations without one-hot rules make the
gradient dense where they meet it, and the pass goes on as before.

One-hot passes run only where nothing records the pass (no tape or forward accumulator active,
one array module: NumPy): their rules run on raw arrays (the primitives' raw rules where they
have them, which compute exactly what the Tensor rules compute) and a OneHot is not a Tensor
that an outer tape could differentiate.  Only real floating dtypes: NumPy's complex products
may round differently in its vector loops and their scalar tails.
"""
from __future__ import annotations

from . import _backend as B
from . import _state
from ._core import Tensor, _new
from ._state import next_id as _next_id

np = B.numpy

DENSE = object()  # a one-hot rule's answer: this input's gradient comes from the dense rule


def _tensor(v):
    """A Tensor holding array ``v`` (Tensor(v) without the __init__ call)."""
    t = _new(Tensor)
    t._value = v
    t._id = _next_id()
    return t


def available(target):
    """Whether a vectorized pass from ``target`` may carry one-hot seeds: nothing records
    (the pass is not differentiated again), NumPy is the only array module, a real float."""
    v = target._value
    return (not _state.tapes and not _state.accumulators and not _state.multi_device[0]
            and (type(v) is np.ndarray or isinstance(v, np.floating)) and v.dtype.kind == "f")


_FINITE: dict = {}  # id(array) -> (array, finite): one check per matrix per Jacobian (chunks)


def finite(a):
    """Whether matrix ``a`` has only finite numbers: its row sums are all finite only then (an
    infinity or a NaN in a row makes its sum infinite or NaN; a sum that overflows answers
    False, which only costs the dense path); a matrix-vector product is the fastest way NumPy
    has to read a matrix once.  Remembered until :func:`forget` (the end of a Jacobian)."""
    hit = _FINITE.get(id(a))
    if hit is not None and hit[0] is a:
        return hit[1]
    if a.size <= 65536:  # (small: read directly)
        ok = bool(np.isfinite(a).all())
    else:
        ok = bool(np.isfinite(a @ np.ones(a.shape[-1], dtype=a.dtype)).all())
    _FINITE[id(a)] = (a, ok)
    return ok


def forget():
    _FINITE.clear()


class Labels:
    """Which seed is hot at each position of a gradient of ``shape``: seed ``r`` (``0 <= r <
    n``) where the label is ``r``; positions labelled otherwise are no seed's.

    The seeds' own labels are *affine* (``start``, ``inner``): the position of flat index
    ``p`` (C order) is labelled ``p % inner - start`` (``jacobian``: ``inner`` is the target's
    size; ``batch_jacobian``: an example's size).  A reshape keeps that form; a transpose or a
    broadcast writes the labels out as an array (``arr``).
    """

    __slots__ = ("shape", "n", "start", "inner", "_arr", "_hot")

    def __init__(self, shape, n, start=None, inner=None, arr=None):
        self.shape = tuple(shape)
        self.n = n
        self.start = start
        self.inner = inner
        self._arr = arr
        self._hot = None

    @property
    def arr(self):
        a = self._arr
        if a is None:
            size = 1
            for d in self.shape:
                size *= d
            a = np.arange(size)
            if self.inner != size:
                a %= self.inner
            a -= self.start
            a = self._arr = a.reshape(self.shape)
        return a

    def hot(self):
        """``(rows, pos)``: the flat positions (C order) labelled with a seed, and their seeds."""
        h = self._hot
        if h is None:
            if self.start is not None:  # n consecutive positions in each block of inner
                blocks = 1
                for d in self.shape:
                    blocks *= d
                blocks //= self.inner
                r = np.arange(self.n)
                pos = (np.arange(0, blocks * self.inner, self.inner)[:, None]
                       + (r + self.start)).reshape(-1)
                h = (np.tile(r, blocks), pos)
            else:
                flat = self.arr.reshape(-1)
                pos = np.flatnonzero((flat >= 0) & (flat < self.n))
                h = (flat[pos], pos)
            self._hot = h
        return h

    def reshape(self, shape):
        if self.start is not None:
            return Labels(shape, self.n, self.start, self.inner)
        return Labels(shape, self.n, arr=self.arr.reshape(shape))

    def transpose(self, perm):
        a = self.arr.transpose(perm)
        return Labels(a.shape, self.n, arr=a)

    def broadcast(self, kept, shape):
        """The labels of a gradient broadcast back from a reduction: reshaped to ``kept`` (the
        reduced axes as 1s), then broadcast to ``shape``."""
        return Labels(shape, self.n, arr=np.broadcast_to(self.arr.reshape(kept), shape))

    def same(self, other):
        if other is self:
            return True
        if other.n != self.n or other.shape != self.shape:
            return False
        if self.start is not None and other.start is not None:
            return self.start == other.start and self.inner == other.inner
        return bool(np.array_equal(other.arr, self.arr))


class OneHot:
    """The gradients of ``labels.n`` one-hot seeds, as two values per position (see the
    module's doc): ``pair`` an array ``(2, *shape)``.  ``parent``: for a OneHot that a
    reshape, a transpose or a reduction's broadcast made of another, ``(g, prim, k, saved,
    params)``: written out, it is that rule on ``g`` written out, so that the dense gradient
    is the very view the dense pass holds (a matrix product or a sum of a view may round
    differently from one of a contiguous copy)."""

    __slots__ = ("pair", "labels", "parent")

    def __init__(self, pair, labels, parent=None):
        self.pair = pair
        self.labels = labels
        self.parent = parent

    @property
    def shape(self):
        return self.pair.shape[1:]

    def dense(self):
        """The dense gradient ``(n, *shape)``: the other seeds' value everywhere, then the
        labelled seeds' values at their positions; in the memory order of ``pair`` (the dense
        pass's arrays come out of the same operations in the same order)."""
        if self.parent is not None:
            g, prim, k, saved, params = self.parent
            return prim.batch_vjps[k](g.dense(), *saved, **params)
        p = self.pair
        lab = self.labels
        n = lab.n
        out = np.empty_like(p, shape=(n,) + p.shape[1:])
        out[...] = p[1]
        if lab.start is not None and out.flags.c_contiguous:
            # seed r: position start + r of each block of inner
            r = np.arange(n)
            hot = p[0].reshape(-1, lab.inner)
            out.reshape(n, hot.shape[0], lab.inner)[r, :, r + lab.start] = \
                hot[:, lab.start:lab.start + n].T
            return _tensor(out)
        rows, pos = lab.hot()
        if len(pos):
            if p.ndim == 1:  # (a scalar's gradients: one position)
                out[rows] = p[0]
            else:
                idx = np.unravel_index(pos, p.shape[1:])
                out[(rows,) + idx] = p[0][idx]
        return _tensor(out)


def seeds(shape, dtype, start, stop, inner):
    """One-hot seeds of rows ``start..stop`` for a target of ``shape``: seed ``r`` is 1 at flat
    position ``start + r`` of each block of ``inner`` positions, 0 elsewhere."""
    pair = np.empty((2,) + tuple(shape), dtype=dtype)
    pair[0] = 1
    pair[1] = 0
    return OneHot(pair, Labels(shape, stop - start, start, inner))


def dense(g):
    """``g`` as a dense batched Tensor (a OneHot written out; anything else as it is)."""
    return g.dense() if g.__class__ is OneHot else g


_dense_add = None  # the dense passes' sum of two gradients (_ops.add_gradients: install())


def install(add_gradients):
    """The layer above (``_ops/onehot_grads.py``) hands down the dense sum of gradients."""
    global _dense_add
    _dense_add = add_gradients


def add(a, b):
    """Two gradients of one tensor summed in a batched pass: two OneHots with the same labels
    stay one-hot (the same sums, position by position); otherwise both dense."""
    if a.__class__ is OneHot:
        if b.__class__ is OneHot and a.labels.same(b.labels):
            return OneHot(a.pair + b.pair, a.labels)
        a = a.dense()
    if b.__class__ is OneHot:
        b = b.dense()
    return _dense_add(a, b)


def _nothing(*args, **params):
    return None


class _Passed:
    """Rules that pass nothing on (the one-hot rules already did): what :func:`step` hands
    back to the pass, which then only counts the operation's inputs as done."""

    __slots__ = ()

    def __getitem__(self, k):
        return _nothing


PASSED = _Passed()


def step(prim, g, saved, params, in_ids, needed_ids, grads, unbroadcast, on_step=None):
    """Run one recorded operation's one-hot rules on ``g`` (a OneHot), adding each needed
    input's gradient to ``grads``: a OneHot where the rule keeps the structure, else dense
    (``DENSE``: the batch rule on the dense gradient, written out once for the operation).
    Returns ``(g, PASSED)``; or, for an operation without one-hot rules (or a pass that the
    debugging stepper watches), does nothing and returns the gradient written out and the
    operation's batch rules, for the pass to run."""
    rules = prim.onehot_vjps
    if rules is None or on_step is not None:
        return g.dense(), prim.batch_vjps
    dense_g = None
    get = grads.get
    k = 0
    for tid in in_ids:
        if tid in needed_ids:
            r = rules[k](g, *saved, **params) if params else rules[k](g, *saved)
            if r is DENSE:
                if dense_g is None:
                    dense_g = g.dense()
                r = (prim.batch_vjps[k](dense_g, *saved, **params) if params
                     else prim.batch_vjps[k](dense_g, *saved))
            if r is not None:
                if prim.unbroadcast:
                    shape = saved[k + 1]._value.shape
                    if r.__class__ is OneHot:
                        if r.pair.shape[1:] != shape:
                            r = unbroadcast(r.dense(), shape)
                    elif r._value.shape[1:] != shape:
                        r = unbroadcast(r, shape)
                prev = get(tid)
                grads[tid] = r if prev is None else add(prev, r)
        k += 1
    return g, PASSED
