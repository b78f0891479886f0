"""The shapes of a tape's read-only view (what :mod:`minitape.debugging` draws and explains)
and of what a consumed tape keeps for ``why_none``; :func:`minitape._tape.recording` fills
them."""
from __future__ import annotations

from typing import NamedTuple


class _Spent(NamedTuple):
    """What a consumed tape keeps for debugging.why_none."""

    skeleton: list | None   # [(out, ins, op)] of the entries, when the tape had notes
    watched: set            # ids the tape watched
    target_ids: list        # the targets of the consuming gradient call
    answered: dict          # {source id: whether it got a gradient}


class Entry(NamedTuple):
    """One recorded operation as :func:`recording` shows it (read-only, outside the tape)."""

    index: int      # position on the tape
    out: int        # id of the output (an operation with several outputs shows one per output)
    ins: tuple      # ids of the inputs
    op: object      # the Primitive
    saved: tuple | None   # what its gradient keeps (None on a consumed tape's skeleton)
    params: dict | None


class Recording(NamedTuple):
    """A read-only view of a tape's recording, for :mod:`minitape.debugging`."""

    entries: tuple | None    # Entry per recorded output; None once the recording is gone
    watched: frozenset       # ids of watched tensors and of everything computed from them
    variables: tuple         # the Variables the tape watched
    notes: tuple             # debugging notes (see _trace), in order
    spent: _Spent | None     # what a consumed tape kept; None while it holds its recording
    persistent: bool
    watch_accessed: bool     # whether trainable Variables are watched on first use


def _entries_view(raw):
    out = []
    for i, e in enumerate(raw):
        if e is None:
            continue
        o = e[0]
        for oid in (o if type(o) is tuple else (o,)):
            out.append(Entry(i, oid, e[1], e[2], e[3] if len(e) > 3 else None,
                             e[4] if len(e) > 4 else None))
    return tuple(out)
