"""Benchmark figures live in files the benchmarks write, not in prose.

``--write [FILE]`` on a benchmark script copies everything it prints into ``FILE`` (default
``benchmarks/results/<script>.md``), under a header that says which command wrote it, when, and
on what machine; the docs link these files (docs/benchmarks.md), so measuring again means
running the command again, never editing a page by hand.
"""

from __future__ import annotations

import contextlib
import datetime
import io
import os
import platform
import sys
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"


def add_write_option(parser, name: str) -> None:
    parser.add_argument("--write", nargs="?", const=str(RESULTS / f"{name}.md"), metavar="FILE",
                        help=f"also write the output to FILE (default: benchmarks/results/{name}.md), "
                             "with the command, date and machine")


def _cpu() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            return next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        return platform.processor() or platform.machine()


class _Tee(io.TextIOBase):
    def __init__(self, *streams):
        self.streams = streams

    def write(self, s):
        for stream in self.streams:
            stream.write(s)
        return len(s)

    def flush(self):
        for stream in self.streams:
            stream.flush()


@contextlib.contextmanager
def written_to(path: str | None, title: str, markdown: bool):
    """Print as usual; with a ``path``, also write what was printed there (Markdown: as is;
    plain text: in a fenced block), after a header naming the command, date and machine."""
    if not path:
        yield
        return
    buffer = io.StringIO()
    with contextlib.redirect_stdout(_Tee(sys.stdout, buffer)):
        yield
    command = "python " + " ".join([os.path.relpath(sys.argv[0])] + sys.argv[1:])
    try:
        load = " (load average %.1f %.1f %.1f at the end)" % os.getloadavg()
    except OSError:
        load = ""
    header = (f"# {title}\n\n"
              f"Written by `{command}` on {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, "
              f"{_cpu()}, {os.cpu_count()} cores{load}, Python {platform.python_version()}. "
              "Not edited by hand: run the command again to measure again.\n\n")
    body = buffer.getvalue().rstrip() + "\n"
    if not markdown:
        body = f"```text\n{body}```\n"
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(header + body, encoding="utf-8")
    print(f"wrote {out}", file=sys.stderr)
