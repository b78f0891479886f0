"""Kernel time per lesson: executes every instructor notebook in a fresh kernel and prints a table.

    python benchmarks/lesson_timing.py [NN ...] [--lang es] [--variant student]

Same as ``python -m lessons timing`` (see lessons/timing.py); the course target is < 10 s of
kernel time per lesson on a 2-core machine.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lessons.__main__ import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(["timing", *sys.argv[1:]]))
