"""Build a thing once per test session, across pytest-xdist's worker processes.

``make test`` runs the suite on one worker per core, and each worker is its own process: a
module- or session-scoped fixture there is built once *per worker*. What several workers need
and nobody changes (a released nbgrader course, the student distribution, a built wheel) is
built here once, under a file lock, into a folder every worker of the session shares, and each
user copies it (or reads it, when it only reads).

The folder of a build is named by what it is and a content hash of its inputs (``content_key``):
two different inputs never share one build, and an interrupted build is never taken for a
finished one (it is built under a temporary name and renamed when complete). The shared folder
is the session's own (``pytest-N/shared`` under pytest's temporary root, cleaned up by pytest as
it cleans every run's temporary files), so nothing is carried from one run to the next: a fresh
clone builds everything once.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path

_ROOT: Path | None = None


def set_root(path: Path) -> None:
    """The session's shared folder (tests/conftest.py sets it from pytest's temporary root)."""
    global _ROOT
    path.mkdir(parents=True, exist_ok=True)
    _ROOT = path


def root() -> Path:
    """The session's shared folder, or, outside pytest (a benchmark), one for this process."""
    global _ROOT
    if _ROOT is None:
        import atexit

        _ROOT = Path(tempfile.mkdtemp(prefix="minitape-shared-builds-"))
        atexit.register(shutil.rmtree, _ROOT, ignore_errors=True)
    return _ROOT


def content_key(paths: Iterable[Path], *extra: str) -> str:
    """A hash of the files under ``paths`` (names and contents, ``__pycache__`` left out) and of
    ``extra`` (the build's parameters)."""
    h = hashlib.sha256()
    for value in extra:
        h.update(b"x\0" + value.encode() + b"\0")
    for top in paths:
        top = Path(top)
        files = [top] if top.is_file() else sorted(p for p in top.rglob("*")
                                                   if p.is_file() and "__pycache__" not in p.parts)
        for path in files:
            h.update(b"f\0" + str(path).encode() + b"\0")
            h.update(hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()[:16]


def build_once(name: str, key: str, build: Callable[[Path], None]) -> Path:
    """The folder ``build(folder)`` fills, built by the first worker of the session that asks for
    it while the others wait on its lock, then shared: callers must not change it (copy it)."""
    base = root()
    target = base / f"{name}-{key}"
    with open(base / f"{name}-{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = base / f"{name}-{key}.complete"
        if done.exists():
            return target
        partial = base / f"{name}-{key}.partial-{os.getpid()}"
        shutil.rmtree(partial, ignore_errors=True)
        shutil.rmtree(target, ignore_errors=True)
        partial.mkdir()
        try:
            build(partial)
        except BaseException:
            shutil.rmtree(partial, ignore_errors=True)
            raise
        partial.rename(target)
        done.touch()
    return target
