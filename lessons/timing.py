"""``python -m lessons timing``: execute each lesson and print its kernel time.

Kernel time is the sum over code cells of the time between the kernel receiving a cell and
replying to it (nbclient's recorded timestamps); start-up of the kernel is reported
separately as wall time. The course target is under 10 s of kernel time per lesson. This is a
measurement script, not a test: it prints a table and always exits 0 unless a lesson fails.
"""

from __future__ import annotations

import sys

from . import LANGS
from .build import instructor_path, student_path

TARGET_SECONDS = 10.0


def main(names: list[str] | None = None, langs: list[str] | None = None,
         variant: str = "instructor", timeout: int = 120, src=None, root=None) -> int:
    from .execute import execute
    from .source import load_lessons_or_exit

    lessons = load_lessons_or_exit(names, src)
    langs = langs or list(LANGS)
    where = instructor_path if variant == "instructor" else student_path
    rows, failed = [], False
    print(f"executing {len(lessons)} lesson(s) x {len(langs)} language(s), {variant} notebooks "
          "(fresh kernel each)...", flush=True)
    for lesson in lessons:
        for lang in langs:
            path = where(lesson, lang, root) if root else where(lesson, lang)
            run = execute(path, timeout=timeout)
            errors = [e for e in run.errors if variant == "instructor" or e.role is None]
            failed |= bool(errors)
            slowest = max(run.cell_seconds.items(), key=lambda kv: kv[1], default=("-", 0.0))
            rows.append((lesson.name, lang, run.kernel_seconds, run.wall_seconds, slowest, errors))
            flag = "ERRORS" if errors else ("over target" if run.kernel_seconds > TARGET_SECONDS else "ok")
            print(f"  {lesson.name:<24} {lang}  kernel {run.kernel_seconds:6.2f} s  "
                  f"wall {run.wall_seconds:6.2f} s  slowest cell {slowest[0]} ({slowest[1]:.2f} s)  {flag}",
                  flush=True)
            for e in errors:
                print(f"      error in cell {e.cell_id}: {e.ename}: {e.evalue}", flush=True)
    print()
    print(f"{'lesson':<24} {'lang':<4} {'kernel s':>9} {'wall s':>8}")
    for name, lang, kernel, wall, _, _ in rows:
        print(f"{name:<24} {lang:<4} {kernel:9.2f} {wall:8.2f}")
    if rows:
        worst = max(rows, key=lambda r: r[2])
        print(f"\nslowest: {worst[0]} [{worst[1]}] {worst[2]:.2f} s kernel time "
              f"(target < {TARGET_SECONDS:.0f} s per lesson)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
