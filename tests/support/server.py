"""A Jupyter server started for a test: a free port on 127.0.0.1, a token, waiting until it answers.

One loop for every server the suite starts (the students' JupyterLab of tests/browser/conftest.py,
the instructor lab of ``python -m grader lab`` in tests/browser/test_formgrader.py): it fails at
once, with the server's log, when the server exits or does not answer in time, and stops it
afterwards (terminate, then kill).
"""

from __future__ import annotations

import contextlib
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def running_server(command: list[str], *, cwd: Path, env: dict, log: Path, status_url: str,
                   name: str, timeout: float = 90) -> Iterator[subprocess.Popen]:
    """Start ``command`` (output to ``log``), wait until ``status_url`` answers 200, yield the
    process, and stop it on the way out."""
    with log.open("w") as out:
        proc = subprocess.Popen(command, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=out,
                                stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + timeout
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"{name} exited with {proc.returncode}:\n{log.read_text()[-4000:]}")
            try:
                with urllib.request.urlopen(status_url, timeout=5) as resp:
                    if resp.status == 200:
                        break
            except (urllib.error.URLError, OSError):
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"{name} did not start in {timeout:.0f} s:\n{log.read_text()[-4000:]}")
            time.sleep(0.3)
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
